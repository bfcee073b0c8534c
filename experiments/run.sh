#!/bin/sh
# run.sh: runs experiments (experiments/defs/NAME.exp) through bin/simallreduce, every run
# of an experiment in parallel, and merges what they write into results/NAME.csv and
# results/NAME.json; or writes a Slurm job array over the same runs.
#
#   experiments/run.sh [-j N] NAME...        run (N parallel runs, default: the core count)
#   experiments/run.sh --slurm NAME...       write results/NAME/slurm.sbatch, do not run
#   experiments/run.sh --merge NAME...       merge after the Slurm array has finished
#   experiments/run.sh --list                list the experiments
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
defs="$here/defs"
results="${RESULTS_DIR:-$top/results}"
jobs=$(nproc 2>/dev/null || echo 2)
action=run

die() { echo "run.sh: $*" >&2; exit 2; }

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

merge() {
  name=$1 dir="$results/$1" n=$(wc -l <"$results/$1/runs.txt")
  title=$(value title "$defs/$name.exp")
  files=""
  for k in $(seq 1 "$n"); do
    [ -f "$dir/run-$k.csv" ] || die "$name: run $k has no results (did it fail?)"
    files="$files $dir/run-$k.csv"
  done
  # every run's comment lines (how it was made) and rows; the column names once
  # shellcheck disable=SC2086
  awk '/^#/ { print; next } !hdr[FILENAME]++ { if (!seen++) print; next } { print }' $files \
    >"$results/$name.csv"
  {
    printf '{"experiment": "%s", "title": "%s", "runs": [\n' "$name" "$title"
    for k in $(seq 1 "$n"); do
      [ "$k" = 1 ] || printf ',\n'
      cat "$dir/run-$k.json"
    done
    printf ']}\n'
  } >"$results/$name.json"
  echo "$name: $n runs -> results/$name.csv, results/$name.json" >&2
}

slurm() {
  name=$1 dir="$results/$1" n=$(wc -l <"$results/$1/runs.txt")
  cat >"$dir/slurm.sbatch" <<EOF
#!/bin/sh
# A Slurm job array over the $n runs of experiment $name; merge afterwards with
#   experiments/run.sh --merge $name
#SBATCH --job-name=simallreduce-$name
#SBATCH --array=1-$n
#SBATCH --cpus-per-task=1
#SBATCH --output=$dir/slurm-%A_%a.out
cd "$top"
exec experiments/run_one.sh "$dir" $n \$(sed -n "\${SLURM_ARRAY_TASK_ID}p" "$dir/runs.txt" | tr "\\t" " ")
EOF
  echo "$name: submit with: sbatch $dir/slurm.sbatch" >&2
}

# watch DIR PID: on a terminal, while PID runs, a line naming the runs under way and the rows
# each has written so far (the CSV grows a row per finished point), redrawn every 2 s
watch() {
  [ -t 2 ] || return 0
  while kill -0 "$2" 2>/dev/null; do
    line=""
    for k in $(cat "$1/started" 2>/dev/null); do
      grep -qx "$k" "$1/progress" 2>/dev/null && continue
      rows=$(awk '!/^#/ { n++ } END { print (n > 1 ? n - 1 : 0) }' "$1/run-$k.csv" 2>/dev/null)
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
    --list) for d in "$defs"/*.exp; do printf '%-20s %s\n' "$(basename "$d" .exp)" "$(value title "$d")"; done; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) names="$names $1"; shift ;;
  esac
done
[ -n "$names" ] || die "name an experiment (--list lists them)"
case $jobs in '' | *[!0-9]* | 0) die "-j needs a positive number" ;; esac
[ -x "$top/bin/simallreduce" ] || die "bin/simallreduce is missing: run make first"

status=0
for name in $names; do
  [ -f "$defs/$name.exp" ] || die "unknown experiment '$name' (--list lists them)"
  dir="$results/$name"
  mkdir -p "$dir"
  plan "$defs/$name.exp" "$dir/runs.txt"
  case $action in
    slurm) slurm "$name"; continue ;;
    merge) merge "$name"; continue ;;
  esac
  rm -f "$dir"/run-*.csv "$dir"/run-*.json "$dir/progress" "$dir/started"
  total=$(wc -l <"$dir/runs.txt")
  echo "$name: $total runs, $jobs at a time" >&2
  # each line: K<TAB>args; run_one.sh says on stderr when each run starts and ends
  tr '\t' ' ' <"$dir/runs.txt" | xargs -P "$jobs" -L 1 "$here/run_one.sh" "$dir" "$total" &
  runs=$!
  watch "$dir" "$runs"
  if ! wait "$runs"; then
    echo "$name: some runs failed (see $dir/run-*.log)" >&2
    status=1
    continue
  fi
  merge "$name"
  "$here/report.sh" "$name" || status=1
done
exit $status
