#!/bin/sh
# run.sh: runs experiments (experiments/defs/NAME.exp) through bin/simallreduce, every run
# of an experiment in parallel, and merges what they write into results/NAME.csv and
# results/NAME.json; or submits the same runs as a Slurm job array, merged afterwards.
#
#   experiments/run.sh [-j N] NAME...        run (N parallel runs, default: the core count)
#   experiments/run.sh --slurm [--time T] [--mem M] [--partition P] [--account A]
#                      [--then-merge] NAME...
#                                            submit a job array per experiment (sbatch's
#                                            options passed on; --then-merge: a merge job
#                                            that starts when every task has succeeded);
#                                            without sbatch, write the script only
#   experiments/run.sh --merge NAME...       merge a submission once all its tasks succeeded
#   experiments/run.sh --list                list the experiments
#
# Each run (a local one, or a submission) gets a fresh directory results/NAME/ID/, named in
# results/NAME/submission; every task leaves there its results, renamed into place when
# complete, and a marker run-K.done with the submission and its exit status
# (experiments/run_one.sh). --merge refuses a submission with a task missing (still
# running: squeue says so), failed, empty or of another submission, and writes
# results/NAME.csv and .json whole or not at all.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
defs="${EXPERIMENTS_DEFS:-$here/defs}"
results="${RESULTS_DIR:-$top/results}"
jobs=$(nproc 2>/dev/null || echo 2)
action=run
sbatch_opts="" then_merge=0 only_sub=""
# Slurm's commands (SBATCH, SQUEUE override them; one that is not there: no Slurm)
sbatch=${SBATCH:-sbatch} squeue=${SQUEUE:-squeue}

die() { echo "run.sh: $*" >&2; exit 2; }
refuse() { echo "run.sh: $*" >&2; exit 1; }

# value KEY FILE: the value of the first "KEY = value" line (comments and blanks ignored)
value() { sed -n "s/^$1[[:space:]]*=[[:space:]]*//p" "$2" | head -n 1; }

# One line per simallreduce run: "K<TAB>arguments". Lists (nodes, size, density, algos)
# multiply; each run covers a whole --sizes sweep, one SMPI launch for all its points.
plan() {
  def=$1 out=$2
  platform=$(value platform "$def"); [ -n "$platform" ] || die "$def: no platform"
  algos=$(value algos "$def"); [ -n "$algos" ] || die "$def: no algos"
  nodes=$(value nodes "$def"); rpn=$(value ranks_per_node "$def")
  sweep=$(value sizes "$def"); sizes=$(value size "$def")
  dtype=$(value dtype "$def"); densities=$(value density "$def")
  mode=$(value mode "$def"); options=$(value options "$def")
  [ -n "$sweep" ] || [ -n "$sizes" ] || die "$def: no size or sizes"
  k=0
  for n in ${nodes:--}; do
    for s in ${sizes:--}; do
      for d in ${densities:--}; do
        for a in $algos; do
          k=$((k + 1))
          args="--platform $platform --algo $a"
          [ "$n" = - ] || args="$args --nodes $n"
          [ -z "$rpn" ] || args="$args --ranks-per-node $rpn"
          if [ "$s" = - ]; then args="$args --sizes $sweep"; else args="$args --size $s"; fi
          [ -z "$dtype" ] || args="$args --dtype $dtype"
          [ "$d" = - ] || args="$args --density $d"
          [ -z "$mode" ] || args="$args --mode $mode"
          [ -z "$options" ] || args="$args $options"
          printf '%s\t%s\n' "$k" "$args"
        done
      done
    done
  done >"$out"
}

# write FILE: stdin into FILE under another name, renamed into place when complete
write() { cat >"$1.part" && mv "$1.part" "$1"; }

# field KEY FILE: the value of a "KEY value" line of a submission or marker file
field() { sed -n "s/^$1 //p" "$2" | head -n 1; }

# submit NAME KIND: a fresh submission of NAME's plan (KIND local or slurm): removes the
# directories of earlier ones, makes the new one, records it; prints its directory.
new_submission() {
  name=$1 kind=$2 dir="$results/$1"
  id="$kind-$(date +%Y%m%d-%H%M%S)-$$"
  for old in "$dir"/local-* "$dir"/slurm-*; do
    [ -d "$old" ] && rm -rf "$old"
  done
  rm -f "$dir/submission" "$dir/slurm.sbatch" "$dir/progress"
  mkdir -p "$dir/$id"
  : >"$dir/$id/progress"
  cp "$dir/runs.txt" "$dir/$id/runs.txt"
  printf 'id %s\ntasks %s\n' "$id" "$(wc -l <"$dir/runs.txt")" | write "$dir/submission"
  echo "$dir/$id"
}

# columns CSV: its column names, the first line that is not a comment (how the run was made)
columns() { grep -v '^#' "$1" | head -n 1; }
# columns_and_rows CSV: how many lines are not comments
columns_and_rows() { grep -vc '^#' "$1" 2>/dev/null || true; }

# merge NAME: results/NAME.csv and .json from every task of its submission, or a refusal.
merge() {
  name=$1 dir="$results/$1"
  [ -f "$dir/submission" ] || refuse "$name: nothing submitted or run (experiments/run.sh $name, or --slurm)"
  id=$(field id "$dir/submission") n=$(field tasks "$dir/submission") job=$(field job "$dir/submission")
  [ -z "$only_sub" ] || [ "$only_sub" = "$id" ] || refuse "$name: submission $only_sub was replaced by $id"
  sub="$dir/$id"
  missing="" failed="" stale="" empty=""
  for k in $(seq 1 "$n"); do
    if [ ! -f "$sub/run-$k.done" ]; then
      missing="$missing $k"
    elif [ "$(field submission "$sub/run-$k.done")" != "$id" ]; then
      stale="$stale $k"
    elif [ "$(field status "$sub/run-$k.done")" != 0 ]; then
      failed="$failed $k"
    elif [ ! -s "$sub/run-$k.json" ] || [ "$(columns_and_rows "$sub/run-$k.csv")" -lt 2 ]; then
      empty="$empty $k"
    fi
  done
  if [ -n "$missing" ]; then
    running=""
    if [ -n "$job" ] && command -v "$squeue" >/dev/null 2>&1; then
      running=$("$squeue" -h -j "$job" -o %i 2>/dev/null | head -n 1 || true)
    fi
    [ -z "$running" ] || refuse "$name: tasks$missing of $n have not finished: job $job is still in squeue; merge once it has"
    refuse "$name: tasks$missing of $n left no result (never ran, or killed before the end): run or submit again"
  fi
  [ -z "$stale" ] || refuse "$name: tasks$stale hold results of another submission than $id: submit again"
  [ -z "$failed" ] || refuse "$name: tasks$failed of $n failed: see $sub/run-K.log"
  [ -z "$empty" ] || refuse "$name: tasks$empty of $n wrote no results: see $sub/run-K.log"
  columns "$sub/run-1.csv" >"$dir/header"
  for k in $(seq 1 "$n"); do
    columns "$sub/run-$k.csv" | cmp -s - "$dir/header" || refuse "$name: task $k's CSV has other columns than task 1's"
  done
  rm -f "$dir/header"
  title=$(value title "$defs/$name.exp")
  # every run's comment lines (how it was made) and rows; the column names once
  files=$(for k in $(seq 1 "$n"); do printf '%s ' "$sub/run-$k.csv"; done)
  # shellcheck disable=SC2086 # one word per file
  awk '/^#/ { print; next } !hdr[FILENAME]++ { if (!seen++) print; next } { print }' $files | write "$results/$name.csv"
  {
    printf '{"experiment": "%s", "title": "%s", "submission": "%s", "runs": [\n' "$name" "$title" "$id"
    for k in $(seq 1 "$n"); do
      [ "$k" = 1 ] || printf ',\n'
      cat "$sub/run-$k.json"
    done
    printf ']}\n'
  } | write "$results/$name.json"
  echo "$name: $n runs -> results/$name.csv, results/$name.json" >&2
}

# slurm NAME: a job array over NAME's runs, submitted when sbatch is here.
slurm() {
  name=$1 dir="$results/$1"
  sub=$(new_submission "$name" slurm)
  id=$(basename "$sub") n=$(wc -l <"$dir/runs.txt")
  {
    printf '#!/bin/sh\n'
    printf '# A Slurm job array over the %s runs of experiment %s (submission %s); merge\n' "$n" "$name" "$id"
    printf '# afterwards with: experiments/run.sh --merge %s\n' "$name"
    printf '#SBATCH --job-name=simallreduce-%s\n#SBATCH --array=1-%s\n#SBATCH --cpus-per-task=1\n' "$name" "$n"
    printf '#SBATCH --output=%s/slurm-%%A_%%a.out\n' "$sub"
    for o in $sbatch_opts; do printf '#SBATCH %s\n' "$o"; done
    printf 'cd "%s"\n' "$top"
    # shellcheck disable=SC2016 # the script expands these, not this one
    printf 'exec experiments/run_one.sh "%s" %s %s $(sed -n "${SLURM_ARRAY_TASK_ID}p" "%s/runs.txt" | tr "\\t" " ")\n' \
      "$sub" "$n" "$id" "$sub"
  } | write "$dir/slurm.sbatch"
  if ! command -v "$sbatch" >/dev/null 2>&1; then
    echo "$name: no sbatch here; submit with: sbatch $dir/slurm.sbatch" >&2
    return 0
  fi
  # shellcheck disable=SC2086 # the options are meant to split
  job=$("$sbatch" --parsable $sbatch_opts "$dir/slurm.sbatch") || refuse "$name: sbatch refused the array"
  job=${job%%;*}
  printf 'id %s\ntasks %s\njob %s\n' "$id" "$n" "$job" | write "$dir/submission"
  echo "$name: submitted job $job ($n tasks, submission $id)" >&2
  [ "$then_merge" = 1 ] || return 0
  # shellcheck disable=SC2086
  mjob=$("$sbatch" --parsable $sbatch_opts --dependency="afterok:$job" --job-name="simallreduce-$name-merge" \
    --output="$sub/merge-%j.out" \
    --wrap="cd '$top' && experiments/run.sh --merge --submission '$id' '$name' && experiments/report.sh '$name'") ||
    refuse "$name: sbatch refused the merge job"
  echo "$name: merge job ${mjob%%;*} starts once job $job has succeeded" >&2
}

# an sbatch option's value: one word, written into the script as it is
sbatch_opt() {
  case $2 in '' | *[[:space:]]* | -*) die "$1 needs a value of one word, not '$2'" ;; esac
  sbatch_opts="$sbatch_opts $1=$2"
}

# watch DIR PID: on a terminal, while PID runs, a line naming the runs under way and the rows
# each has written so far (the CSV grows a row per finished point), redrawn every 2 s
watch() {
  [ -t 2 ] || return 0
  while kill -0 "$2" 2>/dev/null; do
    line=""
    for k in $(cat "$1/started" 2>/dev/null); do
      grep -qx "$k" "$1/progress" 2>/dev/null && continue
      rows=$(awk '!/^#/ { n++ } END { print (n > 1 ? n - 1 : 0) }' "$1/.run-$k.csv.part" 2>/dev/null)
      line="$line run $k: ${rows:-0} rows;"
    done
    [ -z "$line" ] || printf '\r\033[Kin flight:%s' "$line" >&2
    sleep 2
  done
  printf '\r\033[K' >&2
}

names=""
while [ $# -gt 0 ]; do
  case $1 in
    -j) [ $# -ge 2 ] || die "-j needs a number"; jobs=$2; shift 2 ;;
    --slurm) action=slurm; shift ;;
    --merge) action=merge; shift ;;
    --time | --mem | --partition | --account)
      [ $# -ge 2 ] || die "$1 needs a value"; sbatch_opt "$1" "$2"; shift 2 ;;
    --then-merge) then_merge=1; shift ;;
    --submission) [ $# -ge 2 ] || die "--submission needs an id"; only_sub=$2; shift 2 ;;
    --list) for d in "$defs"/*.exp; do printf '%-20s %s\n' "$(basename "$d" .exp)" "$(value title "$d")"; done; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) names="$names $1"; shift ;;
  esac
done
[ -n "$names" ] || die "name an experiment (--list lists them)"
case $jobs in '' | *[!0-9]* | 0) die "-j needs a positive number" ;; esac
[ "$action" = slurm ] || [ -z "$sbatch_opts" ] || die "--time, --mem, --partition and --account go with --slurm"
[ "$action" = slurm ] || [ "$then_merge" = 0 ] || die "--then-merge goes with --slurm"
[ -x "$top/bin/simallreduce" ] || die "bin/simallreduce is missing: run make first"

status=0
for name in $names; do
  [ -f "$defs/$name.exp" ] || die "unknown experiment '$name' (--list lists them)"
  dir="$results/$name"
  case $action in
    merge) merge "$name"; continue ;;
  esac
  mkdir -p "$dir"
  plan "$defs/$name.exp" "$dir/runs.txt"
  case $action in
    slurm) slurm "$name"; continue ;;
  esac
  sub=$(new_submission "$name" local)
  total=$(wc -l <"$dir/runs.txt")
  echo "$name: $total runs, $jobs at a time" >&2
  # each line: K<TAB>args; run_one.sh says on stderr when each run starts and ends
  tr '\t' ' ' <"$dir/runs.txt" | xargs -P "$jobs" -L 1 "$here/run_one.sh" "$sub" "$total" "$(basename "$sub")" &
  runs=$!
  watch "$sub" "$runs"
  if ! wait "$runs"; then
    echo "$name: some runs failed (see $sub/run-*.log)" >&2
    status=1
    continue
  fi
  merge "$name"
  "$here/report.sh" "$name" || status=1
done
exit $status
