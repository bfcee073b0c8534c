#!/bin/sh
# run_one.sh DIR TOTAL SUBMISSION K ARGS...: one simallreduce run of an experiment, a task of
# submission SUBMISSION (a local run, or a Slurm array). Its results go to DIR/run-K.csv and
# DIR/run-K.json, each written under another name and renamed once complete, its output to
# DIR/run-K.log, and last the marker DIR/run-K.done: "submission ID" and "status N" (its exit
# status), which --merge reads (experiments/run.sh). A line goes to stderr when it starts and
# one when it ends.
dir=$1 total=$2 sub=$3 k=$4
shift 4
top=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s.%N)
cr=""
[ -t 2 ] && cr=$(printf '\r\033[K') # over run.sh's in-flight line
rm -f "$dir/run-$k.done" "$dir/run-$k.csv" "$dir/run-$k.json"
echo "$k" >>"$dir/started"
printf '%s[run %s of %s] started: %s\n' "$cr" "$k" "$total" "$*" >&2
"$top/bin/simallreduce" "$@" --json "$dir/.run-$k.json.part" --csv "$dir/.run-$k.csv.part" >"$dir/run-$k.log" 2>&1
status=$?
if [ $status = 0 ]; then
  mv "$dir/.run-$k.csv.part" "$dir/run-$k.csv" && mv "$dir/.run-$k.json.part" "$dir/run-$k.json" || status=1
fi
rm -f "$dir/.run-$k.csv.part" "$dir/.run-$k.json.part"
printf 'submission %s\nstatus %s\n' "$sub" "$status" >"$dir/.run-$k.done.part" && mv "$dir/.run-$k.done.part" "$dir/run-$k.done"
end=$(date +%s.%N)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
word="done"
[ $status = 0 ] || word=FAILED
# the count of finished runs, under a lock where flock(1) exists: two runs ending together
# must not read the same count
# shellcheck disable=SC2094 # appended to and counted under the lock, one after the other
{
  command -v flock >/dev/null 2>&1 && flock 9
  echo "$k" >&9
  finished=$(wc -l <"$dir/progress")
  printf '%s[%s/%s] run %s %s in %s s: %s\n' "$cr" "$finished" "$total" "$k" "$word" "$wall" "$*" >&2
} 9>>"$dir/progress"
[ $status = 0 ] || sed 's/^/    /' "$dir/run-$k.log" | tail -n 5 >&2
exit $status
