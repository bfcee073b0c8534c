#!/bin/sh
# test_kill.sh: a 1024-rank simulation (mn1, a minute of work) killed by SIGKILL, SIGTERM,
# SIGINT and SIGHUP, each at a random moment in its first 3 seconds (loading the platform,
# starting SMPI, simulating), leaves no process behind, its --json and --trace files as they
# were before it (and, but for SIGKILL, no temporary file beside them), and after the next
# run, even one that simulates nothing, no temporary directory; a fit killed by SIGKILL
# while its children work takes them with it; a --what-if run killed outright leaves nothing
# once the next run has started. Prints "100%: Checks: N, Failures: 0" like the
# Check tests.
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SIMALLREDUCE_BIN:-$top/bin/simallreduce}
case $bin in /*) ;; *) bin=$top/$bin ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/test_kill.XXXXXX")
mkdir "$work/tmp" "$work/keep"
checks=0 failures=0
seed=${KILL_SEED:-$(date +%s)}

# Processes whose command line names the work directory: the driver and its forks (the
# platform loader, the supervisor) by their --json, smpirun and smpimain by their files.
# (The pattern does not match its own command line.)
left() { grep -l "$work/[tk][me][pe]" /proc/[0-9]*/cmdline 2>/dev/null; }
# Waits up to 5 s for them to go.
settle() {
  n=0
  while [ -n "$(left)" ] && [ $n -lt 50 ]; do
    sleep 0.1
    n=$((n + 1))
  done
}

i=0
for sig in KILL TERM INT HUP; do
  i=$((i + 1))
  checks=$((checks + 1))
  after=$(awk -v s="$seed" -v i="$i" 'BEGIN { srand(s + i); printf "%.2f", 0.2 + 2.8 * rand() }')
  # a shell's background job ignores SIGINT, and a test run under nohup SIGHUP (the driver
  # keeps a signal it finds ignored): start it with their default actions, as at a terminal
  echo before >"$work/keep/r.json"
  echo before >"$work/keep/t.json"
  TMPDIR=$work/tmp env --default-signal=INT,HUP "$bin" --platform mn1 --algo ring --size 256M --mode sim \
    --json "$work/keep/r.json" --trace "$work/keep/t.json" >/dev/null 2>&1 &
  pid=$!
  sleep "$after"
  kill -s "$sig" "$pid"
  wait "$pid" 2>/dev/null
  settle
  procs=$(left)
  [ -z "$procs" ] || {
    failures=$((failures + 1))
    echo "FAIL: SIG$sig after $after s (KILL_SEED=$seed): left running: $(for p in $procs; do tr '\0' ' ' <"$p"; echo; done)"
  }
  # the outputs as they were; what is beside them, their temporary files, gone unless killed
  checks=$((checks + 1))
  [ "$(cat "$work/keep/r.json" "$work/keep/t.json")" = "$(printf 'before\nbefore')" ] || {
    failures=$((failures + 1))
    echo "FAIL: SIG$sig after $after s (KILL_SEED=$seed): the outputs changed"
  }
  if [ "$sig" != KILL ]; then
    checks=$((checks + 1))
    [ "$(ls -A "$work/keep" | tr '\n' ' ')" = "r.json t.json " ] || {
      failures=$((failures + 1))
      echo "FAIL: SIG$sig after $after s (KILL_SEED=$seed): left beside the outputs: $(ls -A "$work/keep")"
    }
  fi
  rm -f "$work/keep"/.??*
  # the next run, even one that simulates nothing (--version), removes what a killed one left
  checks=$((checks + 1))
  TMPDIR=$work/tmp "$bin" --version >/dev/null 2>&1
  [ -z "$(ls -A "$work/tmp")" ] || {
    failures=$((failures + 1))
    echo "FAIL: SIG$sig after $after s (KILL_SEED=$seed): left in \$TMPDIR after the next run: $(ls -A "$work/tmp")"
  }
done

# parent_killed WHAT CMD ARGS...: CMD started in the background, killed outright after 2 s
# while its forked children work (util/forked.c); they must go with it
parent_killed() {
  what=$1
  shift
  checks=$((checks + 1))
  "$@" >/dev/null 2>&1 &
  pid=$!
  sleep 2
  kill -s KILL "$pid"
  wait "$pid" 2>/dev/null
  sleep 0.5
  procs=$(left)
  [ -z "$procs" ] || {
    failures=$((failures + 1))
    echo "FAIL: $what killed by SIGKILL left running: $(for p in $procs; do tr '\0' ' ' <"$p"; echo; done)"
  }
}

# a fit, while its children compute the Jacobian's columns
cal=${SIMCALIB_BIN:-$top/bin/simcalib}
case $cal in /*) ;; *) cal=$top/$cal ;; esac
parent_killed "a fit" "$cal" platform --from-nccl-tests "$top/tests/data/measured/L09_gjaion_h100_2node16.log" \
  --nodes 2 --jobs 4 -o "$work/keep/fit.xml"
# a model sweep, while its children replay NCCL's pipelines (sim/model_batch.c)
parent_killed "a model sweep" env TMPDIR="$work/tmp" "$bin" --platform hgx-h100-rails --algo nccl-ring,nccl-tree \
  --sizes 1M:1G:1.2 --mode model --jobs 4 --jsonl "$work/keep/m.jsonl"
rm -f "$work/keep/m.jsonl"

# a --what-if run killed outright while it simulates (its healthy run first, then the faulty
# one on a platform drawn again without a NIC, in its temporary directory): nothing left
# running, and nothing left once the next run has started
checks=$((checks + 2))
after=$(awk -v s="$seed" 'BEGIN { srand(s + 99); printf "%.2f", 0.3 + 3.5 * rand() }')
TMPDIR=$work/tmp "$bin" --platform hgx-h100-rails --algo nccl-ring --sizes 64M,1G --mode sim --what-if rail-down:3 \
  --what-if jitter:5us:1 --json "$work/keep/w.json" >/dev/null 2>&1 &
pid=$!
sleep "$after"
kill -s KILL "$pid"
wait "$pid" 2>/dev/null
settle
procs=$(left)
[ -z "$procs" ] || {
  failures=$((failures + 1))
  echo "FAIL: a --what-if run killed by SIGKILL after $after s (KILL_SEED=$seed) left running: $(for p in $procs; do tr '\0' ' ' <"$p"; echo; done)"
}
TMPDIR=$work/tmp "$bin" --version >/dev/null 2>&1
[ -z "$(ls -A "$work/tmp")" ] || {
  failures=$((failures + 1))
  echo "FAIL: a --what-if run killed by SIGKILL after $after s left in \$TMPDIR after the next run: $(ls -A "$work/tmp")"
}

rm -rf "$work"
echo "$((100 * (checks - failures) / checks))%: Checks: $checks, Failures: $failures"
[ "$failures" -eq 0 ]
