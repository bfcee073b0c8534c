# runs.sh: what the plots that run simallreduce themselves share (sourced, with NAME set to
# the plot's name): here, top, bin, the output OUT (default plots/out/NAME, absolute), its
# data file's stem beside it under data/, and a private work directory removed on exit.
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
out=${OUT:-$here/out/$NAME}
case $out in /*) ;; *) out=$PWD/$out ;; esac
bin=${SIMALLREDUCE_BIN:-$top/bin/simallreduce}
command -v jq >/dev/null || { echo "$NAME.sh: needs jq (make deps installs it)" >&2; exit 2; }
data="$(dirname "$out")/data/$(basename "$out")"
mkdir -p "$(dirname "$data")"
work=$(mktemp -d "${TMPDIR:-/tmp}/$NAME.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
