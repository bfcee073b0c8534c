#!/bin/sh
# training.sh PLATFORM WORKLOAD ALGOS NODES...: the scaling efficiency of a training step
# (simallreduce --workload) against the node count, a line per algorithm and the ideal
# (100%): OUT.png and OUT.svg (default plots/out/training). MODE=model (default) asks the
# cost models for the buckets' allreduces, MODE=sim simulates them; BUCKETS (default ddp)
# and EXTRA (more options, e.g. "--density 0.01") pass through. The data goes to data/
# beside OUT.
#   plots/training.sh tencent16 resnet50 twotree,hier,hitopk 2 4 8 16
set -eu
[ $# -ge 4 ] || { echo "usage: plots/training.sh PLATFORM WORKLOAD ALGOS NODES..." >&2; exit 2; }
platform=$1 workload=$2 algos=$3
shift 3
NAME=training
# shellcheck source=plots/runs.sh
. "$(dirname "$0")/runs.sh"
: >"$data.dat"
for n in "$@"; do
  # shellcheck disable=SC2086 # EXTRA holds options, split on purpose
  "$bin" --platform "$platform" --nodes "$n" --algo "$algos" --workload "$workload" --buckets "${BUCKETS:-ddp}" \
    --mode "${MODE:-model}" ${EXTRA:-} --json "$work/$n.json" >/dev/null
  # nodes, then each algorithm's efficiency (%) in the order given
  jq -r --arg algos "$algos" '[.nodes] + [($algos | split(","))[] as $a | (.training.algos[] | select(.algo == $a)
    | .efficiency * 100) // "nan"] | map(tostring) | join(" ")' "$work/$n.json" >>"$data.dat"
done
title="$workload on $platform: scaling efficiency of a training step ($(jq -r '.training.buckets_scheme' "$work/$n.json") buckets, ${MODE:-model})"
cd "$top" # gnuplot loads plots/common.gp from the top
for fmt in png svg; do
  gnuplot -e "fmt='$fmt'; out='$out.part'; data='$data.dat'; algos='$(echo "$algos" | tr ',' ' ')'; title='$title'" \
    "$here/training.gp"
  mv "$out.part.$fmt" "$out.$fmt"
done
echo "$out.png" >&2
