#!/bin/sh
# test_plots.sh: plots/plot.sh --measured draws a size axis a reader can read: a labelled tick
# at every power of 4 across the sizes (16, 64, ... 64M for 8 B to 128 MiB), on both panels,
# none outside them. Read from the SVG it writes beside the PNG. Needs gnuplot and jq (as
# plot.sh does); prints "100%: Checks: N, Failures: 0" like the Check tests.
BIN=${SIMALLREDUCE_BIN:-bin/simallreduce}
CAL=${SIMCALIB_BIN:-bin/simcalib}
tmp=$(mktemp -d)
name=test-plots-$$
trap 'rm -rf "$tmp" plots/out/$name.png plots/out/$name.svg plots/out/data/$name-*' EXIT
trap 'exit 130' INT TERM
# shellcheck source=tests/sh_check.sh
. "$(dirname "$0")/sh_check.sh"

"$CAL" import nccl-tests tests/data/calib/nccl_allreduce_8gpu.log -o "$tmp/m.json" >/dev/null 2>&1
check "import" $? 0
"$BIN" --platform dgx1 --algo ring --sizes 8:128M:4 --json "$tmp/s.json" >/dev/null 2>&1
check "simulation" $? 0
plots/plot.sh --measured "$tmp/m.json" --simulated "$tmp/s.json" "$name" >/dev/null 2>&1
check "plot.sh" $? 0
# the labels of the size axes, in the order drawn (both panels)
labels=$(grep -o '<text>[0-9]*[KMG]\{0,1\}</text>' "plots/out/$name.svg" | sed 's/<[^>]*>//g' |
  grep -E '^(16|64|256|[0-9]+[KMG])$' | tr '\n' ' ')
axis="16 64 256 1K 4K 16K 64K 256K 1M 4M 16M 64M "
check "size labels, every power of 4 on both panels" "$labels" "$axis$axis"
check_summary
