#!/bin/sh
# plot.sh [NAME...]: draws plots/out/NAME.png and .svg from the experiments' CSVs in
# results/, running an experiment first when its CSV is missing (validation: make validate's,
# else the reference run shipped with the project). Without names, every plot.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
results="${RESULTS_DIR:-$top/results}"
out="$here/out"
data="$out/data"
mkdir -p "$data"
cd "$top"

all="tencent-fig7 tencent-fig8 sizes scaling crossover baidu links"

# csv EXPERIMENT: its CSV, run first if missing
csv() {
  [ -f "$results/$1.csv" ] || experiments/run.sh "$1" >&2
  echo "$results/$1.csv"
}

# algos EXPERIMENT: the algorithms of its definition, in order
algos() { sed -n 's/^algos[[:space:]]*=[[:space:]]*//p' "experiments/defs/$1.exp" | head -n 1; }
title() { sed -n 's/^title[[:space:]]*=[[:space:]]*//p' "experiments/defs/$1.exp" | head -n 1; }

# draw SCRIPT NAME GNUPLOT-ASSIGNMENTS: PNG and SVG
draw() {
  for fmt in png svg; do
    gnuplot -e "fmt='$fmt'; out='$out/$2'; $3" "plots/$1.gp"
  done
  echo "plots/out/$2.png" >&2
}

# series EXPERIMENT X: one data file per algorithm, prefix $data/EXPERIMENT
series() {
  rm -f "$data/$1"-*.dat
  awk -v x="$2" -v out="$data/$1" -f plots/series.awk "$(csv "$1")"
}

plot_one() {
  case $1 in
    tencent-fig7 | sizes)
      series "$1" bytes
      draw "$1" "$1" "data='$data/$1'; algos='$(algos "$1")'; title='$(title "$1")'" ;;
    baidu)
      series baidu ranks
      draw baidu baidu "data='$data/baidu'; algos='$(algos baidu)'; title='$(title baidu)'" ;;
    scaling)
      series scaling-tencent16 nodes
      series scaling-mn1 nodes
      draw scaling scaling "data1='$data/scaling-tencent16'; algos1='$(algos scaling-tencent16)'; \
        title1='$(title scaling-tencent16)'; data2='$data/scaling-mn1'; algos2='$(algos scaling-mn1)'; \
        title2='$(title scaling-mn1)'" ;;
    tencent-fig8)
      # one file per size: density, then the four phases in ms
      rm -f "$data/tencent-fig8"-*.dat
      awk -F, -v out="$data/tencent-fig8" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        {
          n = split($(col["phases"]), ph, ";")
          for (k = 1; k <= n; k++) { split(ph[k], kv, "="); v[kv[1]] = 1e3 * kv[2] }
          printf "%g %s %s %s %s\n", $(col["density"]), v["intra-rs"], v["mstopk"], v["inter-ag"], v["intra-ag"] \
            > (out "-" $(col["bytes"]) ".dat")
        }' "$(csv tencent-fig8)"
      draw tencent-fig8 tencent-fig8 "data='$data/tencent-fig8'; title='$(title tencent-fig8)'" ;;
    crossover)
      rm -f "$data/crossover"-*.dat
      winners=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { a = $(col["algo"]); print $(col["bytes"]), $(col["nodes"]) > (out "-" a ".dat")
          if (!(a in seen)) { seen[a] = 1; printf "%s ", a } }' out="$data/crossover" "$(csv crossover)")
      draw crossover crossover "data='$data/crossover'; algos='$winners'; title='$(title crossover)'" ;;
    validation)
      # measured on the local testbed by make validate (root, minutes), never run from here;
      # until it has run, the reference run shipped in experiments/testbed/reference
      v=$results/validation whose=""
      if [ ! -f "$v.csv" ]; then
        v=experiments/testbed/reference/validation whose=", shipped reference run"
        echo "plot.sh: no $results/validation.csv (make validate, as root, measures one): drawing $v.csv" >&2
      fi
      shape=$(tr -d ' \t\n' <"$v.json" | sed -n 's/.*"hosts":\([0-9]*\),"ranks_per_host":\([0-9]*\),"link_rate":"\([^"]*\)".*/\1 hosts x \2 ranks, \3 links/p')
      draw validation validation "csv='$v.csv'; title='${shape:-local testbed}$whose'" ;;
    links)
      # link utilization over time of ring and hier at 64M on tencent16 (docs/observability.md),
      # from --trace files, simulated when missing
      for a in ring hier; do
        t="$results/links-$a.trace.json"
        [ -f "$t" ] || bin/simallreduce --platform tencent16.xml --algo "$a" --size 64M --mode sim --links 40 \
          --trace "$t" >/dev/null
        plots/links.sh "$t" 0 "$out/links-$a"
      done ;;
    *) echo "plot.sh: unknown plot '$1' (known: $all validation)" >&2; exit 2 ;;
  esac
}

# shellcheck disable=SC2086 # the list of names is meant to split
[ $# -gt 0 ] || set -- $all validation
for name in "$@"; do
  plot_one "$name"
done
