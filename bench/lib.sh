# lib.sh: what the benchmark scripts share: running the driver once with its wall time and
# peak memory, medians, simulated times from its CSV. Sourced; sets BIN, TIME and TMP.
# shellcheck shell=sh

BIN=${BIN:-bin/simallreduce}
TIME=/usr/bin/time
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

[ -x "$BIN" ] || { echo "bench: $BIN is missing (run make)" >&2; exit 2; }
[ -x "$TIME" ] || { echo "bench: $TIME is missing (make deps installs the time package)" >&2; exit 2; }

now() { date +%s.%N; }

# timed NAME CMD ARGS...: runs CMD once; prints its wall time in seconds, and leaves its
# standard output in $TMP/NAME.out, its errors in $TMP/NAME.err and its peak resident memory
# (KiB) in $TMP/NAME.rss. With LIMIT set, a run still going after LIMIT seconds is stopped
# and prints "nan"; with ON_FAIL=report a failed run prints "failed" instead of ending the
# script.
timed() {
  name=$1
  shift
  t0=$(now)
  status=0
  timeout "${LIMIT:-0}" "$TIME" -q -f %M -o "$TMP/$name.rss" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" || status=$?
  t1=$(now)
  if [ "$status" -eq 124 ]; then
    echo "# $* stopped after $LIMIT s" >&2
    echo nan
  elif [ "$status" -ne 0 ] && [ "${ON_FAIL:-}" = report ]; then
    echo failed
  elif [ "$status" -ne 0 ]; then
    echo "bench: $* failed:" >&2
    tail -n 12 "$TMP/$name.err" >&2
    exit 1
  else
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
  fi
}

# run NAME ARGS...: timed, of the driver with ARGS, its CSV in $TMP/NAME.csv.
run() {
  name=$1
  shift
  rm -f "$TMP/$name.csv"
  timed "$name" "$BIN" "$@" --csv "$TMP/$name.csv"
}

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# simulated time (s) of the first result in a CSV written by the driver (column time_s)
simtime() { awk -F, '/^#/ { next } !header++ { next } { print $9; exit }' "$1"; }
