#!/bin/sh
# plot.sh [NAME...]: draws plots/out/NAME.png and .svg from the experiments' CSVs in
# results/, running an experiment first when its CSV is missing (validation: make validate's,
# else the reference run shipped with the project). Without names, every plot.
# plot.sh --measured M.json --simulated S.json [NAME]: a measured nccl-tests run (simcalib
# import nccl-tests LOG -o M.json) over simallreduce's simulation of the same cluster
# (--json S.json), as plots/out/NAME.png (default "measured").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
results="${RESULTS_DIR:-$top/results}"
out="$here/out"
data="$out/data"
mkdir -p "$data"
cd "$top"

all="tencent-fig7 tencent-fig8 sizes scaling crossover baidu links"

# csv EXPERIMENT: its CSV, run first if missing; one without a result row is refused, not drawn
csv() {
  [ -f "$results/$1.csv" ] || experiments/run.sh "$1" >&2
  if [ "$(wc -l <"$results/$1.csv")" -lt 2 ]; then
    echo "plot.sh: $results/$1.csv holds no results: run experiments/run.sh $1 again" >&2
    exit 1
  fi
  echo "$results/$1.csv"
}

# algos EXPERIMENT: the algorithms of its definition, in order
algos() { sed -n 's/^algos[[:space:]]*=[[:space:]]*//p' "experiments/defs/$1.exp" | head -n 1; }
title() { sed -n 's/^title[[:space:]]*=[[:space:]]*//p' "experiments/defs/$1.exp" | head -n 1; }
# legend EXPERIMENT: the names its plot gives the algorithms (gnuplot words, "quoted" when they
# hold blanks), or the algorithms themselves
legend() {
  l=$(sed -n 's/^legend[[:space:]]*=[[:space:]]*//p' "experiments/defs/$1.exp" | head -n 1)
  echo "${l:-$(algos "$1")}"
}

# link_rate EXPERIMENT: "link=GB/s", the inter-node link's rate the cost models read from the
# platform's routes (1 / beta_inter of its first run), for the reference line on bandwidth axes
link_rate() {
  r=$(jq -r '[.runs[].model.beta_inter_s_per_byte | select(. != null)][0] // empty | 1e-9 / .' "$results/$1.json")
  [ -z "$r" ] || echo "link=$r"
}

# ideal EXPERIMENT: $data/EXPERIMENT-ideal.dat, per node count from 2 on: nodes, the time (ms)
# and bus bandwidth (GB/s) of an allreduce whose busbw is the inter-node link's rate, the
# bandwidth bound of a ring across nodes: time = 2(n-1)/n * size / rate on n ranks
ideal() {
  jq -r '[.runs[] | {n: .nodes, r: .ranks, b: .results[0].bytes, beta: .model.beta_inter_s_per_byte}]
         | unique_by(.n) | .[] | select(.n > 1 and .beta != null) | "\(.n) \(.r) \(.b) \(.beta)"' "$results/$1.json" |
    awk '{ printf "%s %.9g %.9g\n", $1, 2 * ($2 - 1) / $2 * $3 * $4 * 1e3, 1e-9 / $4 }' >"$data/$1-ideal.dat"
  echo "$data/$1-ideal.dat"
}

# draw SCRIPT NAME GNUPLOT-ASSIGNMENTS: PNG and SVG, each drawn under another name and
# renamed once gnuplot has succeeded: a failed plot leaves no broken image behind
draw() {
  for fmt in png svg; do
    if ! gnuplot -e "fmt='$fmt'; out='$out/.$2.part'; $3" "plots/$1.gp"; then
      rm -f "$out/.$2.part.$fmt"
      echo "plot.sh: gnuplot could not draw $2.$fmt" >&2
      exit 1
    fi
    mv "$out/.$2.part.$fmt" "$out/$2.$fmt"
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
      draw "$1" "$1" "data='$data/$1'; algos='$(algos "$1")'; legend='$(legend "$1")'; title='$(title "$1")'; \
        $(link_rate "$1")" ;;
    baidu)
      series baidu ranks
      # the source's figures as marked points: "source = ALGO NODES BYTES SECONDS TEXT" lines
      rpn=$(sed -n 's/^ranks_per_node[[:space:]]*=[[:space:]]*//p' experiments/defs/baidu.exp)
      sed -n 's/^source[[:space:]]*=[[:space:]]*//p' experiments/defs/baidu.exp |
        awk -v rpn="$rpn" '{ t = ""; for (i = 5; i <= NF; i++) t = t (i > 5 ? " " : "") $i
                             printf "%d %g \"%s\"\n", $2 * rpn, 1e3 * $4, t }' >"$data/baidu-source.dat"
      draw baidu baidu "data='$data/baidu'; algos='$(algos baidu)'; legend='$(legend baidu)'; \
        source='$data/baidu-source.dat'; title='$(title baidu)'" ;;
    scaling)
      series scaling-tencent16 nodes
      series scaling-mn1 nodes
      draw scaling scaling "data1='$data/scaling-tencent16'; algos1='$(algos scaling-tencent16)'; \
        legend1='$(legend scaling-tencent16)'; title1='$(title scaling-tencent16)'; \
        ideal1='$(ideal scaling-tencent16)'; data2='$data/scaling-mn1'; algos2='$(algos scaling-mn1)'; \
        legend2='$(legend scaling-mn1)'; title2='$(title scaling-mn1)'; ideal2='$(ideal scaling-mn1)'" ;;
    tencent-fig8)
      # one file per size: density, then the four phases in ms
      rm -f "$data/tencent-fig8"-*.dat
      awk -F, -v out="$data/tencent-fig8" '
        /^#/ { next }
        !header++ { for (i = 1; i <= NF; i++) col[$i] = i; next }
        {
          n = split($(col["phases"]), ph, ";")
          for (k = 1; k <= n; k++) { split(ph[k], kv, "="); v[kv[1]] = 1e3 * kv[2] }
          printf "%g %s %s %s %s\n", $(col["density"]), v["intra-rs"], v["mstopk"], v["inter-ag"], v["intra-ag"] \
            > (out "-" $(col["bytes"]) ".dat")
        }' "$(csv tencent-fig8)"
      draw tencent-fig8 tencent-fig8 "data='$data/tencent-fig8'; title='$(title tencent-fig8)'" ;;
    crossover)
      # per node count and size: the fastest prediction, and how much slower the next one is
      rm -f "$data/crossover"-*.dat
      winners=$(awk -F, '/^#/ { next } !header++ { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $(col["model_time_s"]) != "" {
          k = $(col["nodes"]) SUBSEP $(col["bytes"]); t = $(col["model_time_s"]) + 0; a = $(col["algo"])
          if (!(k in best) || t < best[k]) { second[k] = best[k]; best[k] = t; who[k] = a }
          else if (!(k in second) || second[k] == "" || t < second[k]) second[k] = t
          if (!(k in order)) order[k] = ++n
        }
        END {
          for (k in best) { split(k, nb, SUBSEP); key[order[k]] = k }
          for (i = 1; i <= n; i++) {
            k = key[i]; split(k, nb, SUBSEP); a = who[k]
            printf "%s %s %.1f\n", nb[2], nb[1], 100 * (second[k] / best[k] - 1) > (out "-" a ".dat")
            if (!(a in seen)) { seen[a] = 1; printf "%s ", a }
          }
        }' out="$data/crossover" "$(csv crossover)")
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

# measured M.json S.json NAME: the measured points (out of place) and the simulated ones per
# algorithm, busbw and time against size; the ranks of both must agree
measured() {
  [ -r "$1" ] && [ -r "$2" ] || { echo "plot.sh: cannot read $1 or $2" >&2; exit 2; }
  rm -f "$data/$3"-*.dat
  jq -r '.points[] | select(.op == "allreduce" and .inplace == false) | "\(.bytes) \(.time_s * 1e3) \(.busbw_GBps) \(.ranks)"' \
    "$1" >"$data/$3-measured.dat" 2>/dev/null || { echo "plot.sh: $1 is not simcalib's measured JSON" >&2; exit 2; }
  algos=$(jq -r '[.results[].algo] | unique | join(" ")' "$2" 2>/dev/null) ||
    { echo "plot.sh: $2 is not simallreduce's --json" >&2; exit 2; }
  for a in $algos; do
    jq -r --arg a "$a" '.results[] | select(.algo == $a and .time_s != null) | "\(.bytes) \(.time_s * 1e3) \(.busbw_GBps)"' \
      "$2" >"$data/$3-$a.dat"
  done
  mr=$(awk 'NR == 1 { print $4 }' "$data/$3-measured.dat")
  sr=$(jq -r '.ranks' "$2")
  [ -n "$mr" ] || { echo "plot.sh: no out-of-place allreduce in $1" >&2; exit 2; }
  [ "$mr" = "$sr" ] || { echo "plot.sh: $1 has $mr ranks, $2 $sr: not the same cluster" >&2; exit 2; }
  src=$(jq -r '.source // "measured"' "$1")
  what="$(jq -r '.platform' "$2"): $src ($mr ranks, $(basename "$1")) against the simulation ($(basename "$2"))"
  draw measured "$3" "data='$data/$3'; algos='$algos'; title='$what'"
}

if [ "${1:-}" = --measured ]; then
  [ $# -ge 4 ] && [ "$3" = --simulated ] || { echo "usage: plot.sh --measured M.json --simulated S.json [NAME]" >&2; exit 2; }
  measured "$2" "$4" "${5:-measured}"
  exit 0
fi

# shellcheck disable=SC2086 # the list of names is meant to split
[ $# -gt 0 ] || set -- $all validation
for name in "$@"; do
  plot_one "$name"
done
