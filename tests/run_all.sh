#!/bin/sh
# Runs every test binary given, as many at once as the machine has CPUs (TEST_JOBS to say
# otherwise), prints one line per binary in the order given, fails if any failed. The tests
# are independent processes, each in temporary directories of its own, most of their time
# one simulator process at a time: on 2 cores together they take 12 minutes rather than 16.
# A test whose source says "run_all: alone" (it times this machine) runs after the others,
# by itself.
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
dir=$(mktemp -d "${TMPDIR:-/tmp}/run_all.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

# alone TEST: whether its source (the script, or tests/NAME.c of a binary) asks to run alone
alone() {
  src=$1
  case $src in *.sh) ;; *) src=tests/$(basename "$src").c ;; esac
  grep -q 'run_all: alone' "$src" 2>/dev/null
}

# each "INDEX TEST" line of the tests wanted, at most $2 at once
run() {
  # shellcheck disable=SC2016 # the inner shell expands them, for each test
  xargs -n 2 -P "$1" sh -c 'if "$2" >"$0/$1.out" 2>&1; then echo 0; else echo 1; fi >"$0/$1.rc"' "$dir"
}

i=0
for t in "$@"; do
  i=$((i + 1))
  alone "$t" || printf '%s\n%s\n' "$i" "$t"
done | run "$jobs"
i=0
for t in "$@"; do
  i=$((i + 1))
  ! alone "$t" || printf '%s\n%s\n' "$i" "$t"
done | run 1
status=0
i=0
for t in "$@"; do
  i=$((i + 1))
  if [ "$(cat "$dir/$i.rc" 2>/dev/null)" = 0 ]; then
    echo "PASS $(basename "$t"): $(grep -E '^[0-9]+%' "$dir/$i.out" | tail -1)"
  else
    echo "FAIL $(basename "$t")"
    sed 's/^/    /' "$dir/$i.out" 2>/dev/null
    status=1
  fi
done
exit $status
