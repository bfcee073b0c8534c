#!/bin/sh
# test_cuda_cli.sh: simcalib_cuda's command line where make cuda built it (nvcc installed):
# each bad option one line of its own on stderr and exit 2, before any GPU is looked for;
# --help on stdout. Prints "100%: Checks: N, Failures: 0" like the Check tests; says it is
# skipped where simcalib_cuda was not built.
prog=${SIMCALIB_CUDA:-bin/simcalib_cuda}
[ -x "$prog" ] || { echo "simcalib_cuda not built (make cuda, with nvcc): skipped"; exit 0; }
# shellcheck source=tests/sh_check.sh
. "$(dirname "$0")/sh_check.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuda_cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# bad ARGS WANT: exit 2 and the one line WANT on stderr, nothing on stdout
bad() {
  want=$1
  shift
  "$prog" "$@" >"$tmp/out" 2>"$tmp/err"
  check "$* status" "$?" 2
  check "$* stderr" "$(cat "$tmp/err")" "$want"
  check "$* stdout" "$(cat "$tmp/out")" ""
}
bad "simcalib_cuda: unknown option '--bogus'" --bogus
bad "simcalib_cuda: --reps needs a value" --protocols-only --reps
bad "simcalib_cuda: -o needs a value" -o
bad "simcalib_cuda: bad value '0' for --reps" --reps 0
bad "simcalib_cuda: bad value '2' for --density" --density 2
bad "simcalib_cuda: bad value 'x' for --max-bytes" --max-bytes x
bad "simcalib_cuda: unexpected argument 'extra'" --protocols-only extra
bad "simcalib_cuda: unexpected argument 'extra'" --nvls-only extra
"$prog" --help >"$tmp/out" 2>"$tmp/err"
check "--help status" "$?" 0
check "--help names --protocols-only" "$(grep -c -- '--protocols-only' "$tmp/out")" 2
check "--help names --nvls-only" "$(grep -c -- '--nvls-only' "$tmp/out")" 2
check_summary
