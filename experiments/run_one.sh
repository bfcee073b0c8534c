#!/bin/sh
# run_one.sh DIR TOTAL K ARGS...: one simallreduce run of an experiment; its results go to
# DIR/run-K.csv and DIR/run-K.json, its output to DIR/run-K.log; a line to stderr when it
# starts and one when it ends.
dir=$1 total=$2 k=$3
shift 3
top=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s.%N)
cr=""
[ -t 2 ] && cr=$(printf '\r\033[K') # over run.sh's in-flight line
echo "$k" >>"$dir/started"
printf '%s[run %s of %s] started: %s\n' "$cr" "$k" "$total" "$*" >&2
if "$top/bin/simallreduce" "$@" --json "$dir/run-$k.json" --csv "$dir/run-$k.csv" >"$dir/run-$k.log" 2>&1; then
  status=0 word="done"
else
  status=1 word=FAILED
fi
end=$(date +%s.%N)
echo "$k" >>"$dir/progress"
finished=$(wc -l <"$dir/progress")
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
printf '%s[%s/%s] run %s %s in %s s: %s\n' "$cr" "$finished" "$total" "$k" "$word" "$wall" "$*" >&2
[ $status = 0 ] || sed 's/^/    /' "$dir/run-$k.log" | tail -n 5 >&2
exit $status
