#!/bin/sh
# test_slurm.sh: experiments/run.sh --slurm and --merge against stand-ins for sbatch and
# squeue (a queue that runs nothing until told; the tasks are then run as Slurm would run
# them, one process per array index): sbatch's options and the dependent merge job passed
# on; merging an array still running, with a failed task, with a task of an earlier
# submission, or with a task missing is refused without touching the merged files; a
# complete array merges whole. Also: report.sh and plot.sh refuse a CSV without results,
# and the local progress counter stays within its total. Prints "100%: Checks: N, Failures: 0".
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/test_slurm.XXXXXX")
checks=0 failures=0
export RESULTS_DIR="$work/results" EXPERIMENTS_DEFS="$work/defs" FAKE_SLURM="$work/queue"
mkdir -p "$work/defs" "$work/bin" "$work/queue" "$RESULTS_DIR"
cat >"$work/defs/tiny.exp" <<'EOF'
title = two small runs
platform = tencent16
algos = ring tree
size = 1K
nodes = 2
ranks_per_node = 1
EOF

# sbatch: records its arguments, prints a job id (--parsable), queues nothing it runs
cat >"$work/bin/sbatch" <<'EOF'
#!/bin/sh
n=$(($(cat "$FAKE_SLURM/next" 2>/dev/null || echo 100) + 1))
echo "$n" >"$FAKE_SLURM/next"
echo "$*" >>"$FAKE_SLURM/sbatch.log"
echo "$n" >>"$FAKE_SLURM/running"
echo "$n"
EOF
# squeue -h -j JOB -o %i: the job while it is "running"
cat >"$work/bin/squeue" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -j ] && job=$2; shift; done
grep -qx "$job" "$FAKE_SLURM/running" 2>/dev/null && echo "$job"
exit 0
EOF
chmod +x "$work/bin/sbatch" "$work/bin/squeue"

fail() {
  failures=$((failures + 1))
  echo "FAIL: $*"
}

# check DESCRIPTION STATUS TEXT COMMAND...: the command exits STATUS and says TEXT
check() {
  what=$1 want=$2 text=$3
  shift 3
  checks=$((checks + 1))
  out=$("$@" 2>&1)
  got=$?
  [ "$got" -eq "$want" ] && printf '%s\n' "$out" | grep -q -- "$text" || fail "$what: exit $got (want $want, '$text'): $out"
}

# task K [TMPDIR]: array task K of the current submission, as Slurm would start it
task() {
  (cd "$top" && SLURM_ARRAY_TASK_ID=$1 TMPDIR=${2:-${TMPDIR:-/tmp}} sh "$RESULTS_DIR/tiny/slurm.sbatch") >/dev/null 2>&1
}

run="$top/experiments/run.sh"
PATH="$work/bin:$PATH"

# submission: sbatch's options on its command line and in the script, the merge job after it
check "submit" 0 "submitted job 101 (2 tasks" \
  "$run" --slurm --time 0:10:00 --mem 1G --partition debug --account proj --then-merge tiny
checks=$((checks + 1))
grep -q -- "--parsable --time=0:10:00 --mem=1G --partition=debug --account=proj .*tiny/slurm.sbatch" \
  "$FAKE_SLURM/sbatch.log" && grep -q -- "--dependency=afterok:101 .*--wrap=.*--merge --submission" \
  "$FAKE_SLURM/sbatch.log" && grep -q "^#SBATCH --array=1-2" "$RESULTS_DIR/tiny/slurm.sbatch" &&
  grep -q "^#SBATCH --partition=debug" "$RESULTS_DIR/tiny/slurm.sbatch" ||
  fail "sbatch was given: $(cat "$FAKE_SLURM/sbatch.log")"
check "a bad sbatch option" 2 "--time needs a value of one word" "$run" --slurm --time "1 day" tiny
check "an option without --slurm" 2 "go with --slurm" "$run" --mem 1G tiny

# the array is queued, nothing ran: merge refuses, writes nothing
check "merge while running" 1 "have not finished: job 101 is still in squeue" "$run" --merge tiny
checks=$((checks + 1))
[ ! -e "$RESULTS_DIR/tiny.csv" ] && [ ! -e "$RESULTS_DIR/tiny.json" ] || fail "a merge of a running array wrote results"

# one task done, the job gone from the queue, the other never ran
rm -f "$FAKE_SLURM/running"
task 1
check "merge with a task missing" 1 "tasks 2 of 2 left no result" "$run" --merge tiny

# both done: the merge is whole
task 2
check "merge complete" 0 "tiny: 2 runs" "$run" --merge tiny
checks=$((checks + 1))
[ "$(grep -vc "^#" "$RESULTS_DIR/tiny.csv")" -eq 3 ] && grep -q '"submission": "slurm-' "$RESULTS_DIR/tiny.json" &&
  [ -z "$(find "$RESULTS_DIR" -name '*.part')" ] || fail "merged: $(cat "$RESULTS_DIR/tiny.csv")"
cp "$RESULTS_DIR/tiny.csv" "$work/complete.csv"
check "report" 0 "ring" "$top/experiments/report.sh" tiny

# a new submission starts clean; one of its tasks fails (its $TMPDIR does not exist)
old=$(sed -n 's/^id //p' "$RESULTS_DIR/tiny/submission")
check "resubmit" 0 "submitted job 103" "$run" --slurm tiny
checks=$((checks + 1))
[ ! -d "$RESULTS_DIR/tiny/$old" ] || fail "the earlier submission's directory is still there"
rm -f "$FAKE_SLURM/running"
task 1
task 2 "/nonexistent"
check "merge with a failed task" 1 "tasks 2 of 2 failed" "$run" --merge tiny
checks=$((checks + 1))
cmp -s "$RESULTS_DIR/tiny.csv" "$work/complete.csv" || fail "a refused merge changed tiny.csv"

# a task's result from another submission (an earlier array still running, writing late)
task 2
new=$(sed -n 's/^id //p' "$RESULTS_DIR/tiny/submission")
sed -i "s/^submission .*/submission $old/" "$RESULTS_DIR/tiny/$new/run-2.done"
check "merge with a stale task" 1 "tasks 2 hold results of another submission" "$run" --merge tiny
check "a replaced submission's merge job" 1 "was replaced by" "$run" --merge --submission "$old" tiny

# an empty CSV (an older tool's partial merge) is refused by the report and the plots
printf 'platform,nodes,algo,bytes,time_s\n' >"$RESULTS_DIR/sizes.csv"
cp "$top/experiments/defs/sizes.exp" "$work/defs/"
check "report of an empty CSV" 1 "holds no results" "$top/experiments/report.sh" sizes
png="$top/plots/out/sizes.png"
before=$(stat -c %Y "$png" 2>/dev/null || echo none)
check "plot of an empty CSV" 1 "holds no results" "$top/plots/plot.sh" sizes
checks=$((checks + 1))
[ "$(stat -c %Y "$png" 2>/dev/null || echo none)" = "$before" ] || fail "plot.sh drew $png from no results"

# local runs: the progress counter counts this run's tasks only
"$run" -j 2 tiny >/dev/null 2>&1
check "local run" 0 "\[2/2\]" "$run" -j 2 tiny
checks=$((checks + 1))
printf '%s\n' "$out" | grep -q '\[[3-9]/2\]' && fail "progress beyond the total: $out"

rm -rf "$work"
echo "$((100 * (checks - failures) / checks))%: Checks: $checks, Failures: $failures"
[ "$failures" -eq 0 ]
