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

# run NAME ARGS...: runs the driver once, quietly; prints its wall time in seconds and
# leaves its CSV in $TMP/NAME.csv and its peak resident memory (KiB) in $TMP/NAME.rss.
# With LIMIT set, a run still going after LIMIT seconds is stopped and prints "nan"; with
# ON_FAIL=report a failed run prints "failed" instead of ending the script.
run() {
  name=$1
  shift
  rm -f "$TMP/$name.csv"
  t0=$(now)
  status=0
  timeout "${LIMIT:-0}" "$TIME" -q -f %M -o "$TMP/$name.rss" "$BIN" "$@" --csv "$TMP/$name.csv" \
    >"$TMP/$name.out" 2>&1 || status=$?
  t1=$(now)
  if [ "$status" -eq 124 ]; then
    echo "# $BIN $* stopped after $LIMIT s" >&2
    echo nan
  elif [ "$status" -ne 0 ] && [ "${ON_FAIL:-}" = report ]; then
    echo failed
  elif [ "$status" -ne 0 ]; then
    echo "bench: $BIN $* failed:" >&2
    tail -n 12 "$TMP/$name.out" >&2
    exit 1
  else
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
  fi
}

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# simulated time (s) of the first result in a CSV written by the driver (column time_s)
simtime() { awk -F, 'NR == 2 { print $9 }' "$1"; }
