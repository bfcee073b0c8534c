#!/bin/sh
# whatif.sh PLATFORM ALGOS SIZES FAULT...: the slowdown of each algorithm at each size under
# each fault (simallreduce --what-if), as a heat map: OUT.png and OUT.svg (default
# plots/out/whatif), a row per algorithm and size, a column per fault, each cell the faulty
# time over the healthy one, written in it. MODE=sim (default) simulates, MODE=model asks
# the cost models (which say where they cannot follow a fault); TIMING=nccl-tests times as
# nccl-tests does. The matrix goes to data/ beside OUT.
#   plots/whatif.sh hgx-h100-rails ring,hier,nccl 64M,1G link:node1-nic3:x0.5 rail-down:3
set -eu
[ $# -ge 4 ] || { echo "usage: plots/whatif.sh PLATFORM ALGOS SIZES FAULT..." >&2; exit 2; }
platform=$1 algos=$2 sizes=$3
shift 3
NAME=whatif
# shellcheck source=plots/runs.sh
. "$(dirname "$0")/runs.sh"
# one run per fault: "algo<TAB>bytes<TAB>slowdown" for each point, in the run's order
i=0
for fault in "$@"; do
  "$bin" --platform "$platform" --algo "$algos" --sizes "$sizes" --mode "${MODE:-sim}" \
    --timing "${TIMING:-barrier}" --what-if "$fault" --json "$work/$i.json" >/dev/null
  jq -r '.results[] | "\(.algo)\t\(.bytes)\t\(.slowdown // "nan")"' "$work/$i.json" >"$work/$i.tsv"
  i=$((i + 1))
done
# rows: the points of the first run; columns: the faults
paste "$work"/[0-9]*.tsv | awk -F'\t' -v n="$i" '
  function size(b) { return b >= 2^30 ? b / 2^30 "G" : b >= 2^20 ? b / 2^20 "M" : b >= 2^10 ? b / 2^10 "K" : b }
  { line = ""; for (k = 0; k < n; k++) line = line (k ? " " : "") $(3 * k + 3); print line; label[NR - 1] = $1 " " size($2) }
  END { printf "rows = %d; ytics = \"set ytics (", NR > "/dev/stderr"
        for (r = 0; r < NR; r++) printf "%s\\\"%s\\\" %d", r ? ", " : "", label[r], r > "/dev/stderr"
        printf ")\"\n" > "/dev/stderr" }' >"$data.dat" 2>"$data.gp"
xt="set xtics (" k=0
for fault in "$@"; do
  [ $k -eq 0 ] || xt="$xt, "
  xt="$xt\\\"$fault\\\" $k"
  k=$((k + 1))
done
printf 'cols = %d; xtics = "%s)"; title = "%s, %s: slowdown under each fault (%s)"\n' "$i" "$xt" "$platform" \
  "$(echo "$sizes" | tr ',' ' ')" "${MODE:-sim}" >>"$data.gp"
cd "$top" # gnuplot loads plots/common.gp from the top
for fmt in png svg; do
  gnuplot -e "fmt='$fmt'; out='$out.part'; data='$data.dat'; load '$data.gp'" "$here/whatif.gp"
  mv "$out.part.$fmt" "$out.$fmt"
done
echo "$out.png" >&2
