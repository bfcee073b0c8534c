#!/bin/sh
# test_validate_path.sh: make validate's path end to end, reduced to this machine and a few
# seconds (experiments/testbed/validate.sh runs it on an emulated cluster, as root): the
# ping-pong and the kernels measured with the real-MPI builds, fitted into a platform of
# one host, the allreduce measured with bin/ar_runner_mpi (its result file as it streams
# it), simulated on the fitted platform, and compared by simcalib validate, JSON and CSV.
# What it checks is that every file one step writes the next reads, with the numbers in
# their units: a median error within a factor of three of the measurement (a slip of units
# is a factor of 1000; on a shared 2-core machine the median ran from 0.13 to 1.12) on a
# machine that is no cluster. Prints "100%: Checks: N, Failures: 0" like the Check tests.
# run_all: alone (it times this machine: beside other tests its measurements are theirs too)
BIN=${SIMALLREDUCE_BIN:-bin/simallreduce}
CAL=${SIMCALIB_BIN:-bin/simcalib}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
# shellcheck source=tests/sh_check.sh
. "$(dirname "$0")/sh_check.sh"
# Open MPI refuses root unless told (CI runs as root); two ranks on a machine of any size
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# step NAME COMMAND...: runs a step, its output in $tmp/NAME.log, and checks it succeeded
step() {
  name=$1
  shift
  "$@" >"$tmp/$name.log" 2>&1
  rc=$?
  check "$name" "$rc" 0
  [ "$rc" -eq 0 ] || tail -n 5 "$tmp/$name.log"
}

step measure "$CAL" measure --np 2 --sizes 1:64K --budget 1M -o "$tmp/pp.json"
step kernels "$CAL" kernels --max-bytes 1M --max-elements 256K --reps 3 -o "$tmp/k.json"
step fit "$CAL" fit "$tmp/pp.json" "$tmp/k.json" --per-byte stream -o "$tmp/calib.json"
step platform "$CAL" platform --calib "$tmp/calib.json" --nodes 1 --gpus-per-node 2 -o "$tmp/local.xml"
step allreduce mpirun -np 2 bin/ar_runner_mpi --algo ring,hier,tree --sizes 65536,1048576 --ranks-per-node 2 \
  --iters 5 --warmup 1 --result "$tmp/measured.json"
check "the runner streams its results (a header line first)" "$(head -c 19 "$tmp/measured.json")" '{"record":"header",'
step simulate "$BIN" --platform "$tmp/local.xml" --algo ring,hier,tree --sizes 64K,1M --ranks-per-node 2 \
  --json "$tmp/simulated.json"
step validate "$CAL" validate --measured "$tmp/measured.json" --simulated "$tmp/simulated.json" \
  -o "$tmp/v.json" --csv "$tmp/v.csv"
check "points compared" "$(jq '.summary.points' "$tmp/v.json" 2>/dev/null)" 6
check "every point measured and simulated" \
  "$(jq '[.points[] | select(.measured_s > 0 and .simulated_s > 0)] | length' "$tmp/v.json" 2>/dev/null)" 6
check "the median error in its units" "$(jq '.summary.median_abs_err < 2' "$tmp/v.json" 2>/dev/null)" true
check "CSV rows" "$(tail -n +2 "$tmp/v.csv" 2>/dev/null | wc -l | tr -d ' ')" 6

check_summary
