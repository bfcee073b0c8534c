#!/bin/sh
# validate.sh: `make validate`. Builds the emulated cluster (net.sh), measures the real
# allreduce code on it under Open MPI, calibrates on the same testbed (simcalib measure, fit,
# platform), simulates exactly the measured points on the calibrated platform, compares
# (simcalib validate), plots, and removes the testbed, also on failure or Ctrl-C.
# Needs root. Outputs: results/validation.json, results/validation.csv,
# plots/out/validation.png; intermediate files in results/testbed/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=experiments/testbed/config.sh
. "$here/config.sh"

# What is measured: every algorithm at every size (bytes per rank, K/M = 2^10/2^20).
ALGOS=${VALIDATE_ALGOS:-ring,hier,rhd,twotree,hitopk}
SIZES=${VALIDATE_SIZES:-128K 512K 2M 8M}
# Repetitions per size: about ITER_BYTES / size, within [MIN_ITERS, MAX_ITERS]; the small
# sizes are cheap and noisier, so they get more.
ITER_BYTES=${VALIDATE_ITER_BYTES:-67108864}
MIN_ITERS=${VALIDATE_MIN_ITERS:-7}
MAX_ITERS=${VALIDATE_MAX_ITERS:-30}
WARMUP=${VALIDATE_WARMUP:-2}
# Other work on the machine takes the cores the ranks poll on: before each measurement,
# wait up to QUIET_WAIT seconds for the cores to be at most QUIET_BUSY% busy.
QUIET_BUSY=${VALIDATE_QUIET_BUSY:-15}
QUIET_WAIT=${VALIDATE_QUIET_WAIT:-600}
# A measurement during which other processes still took more than OTHERS_MAX% of the
# cores is taken again, once.
OTHERS_MAX=${VALIDATE_OTHERS_MAX:-10}

bin=$top/bin
work=$top/results/testbed
out_json=$top/results/validation.json
out_csv=$top/results/validation.csv
out_png=$top/plots/out/validation.png
ranks=$((TB_HOSTS * TB_RANKS))

say() { echo "validate: $*" >&2; }

bytes_of() {
  case "$1" in
  *K) echo $((${1%K} * 1024)) ;;
  *M) echo $((${1%M} * 1048576)) ;;
  *G) echo $((${1%G} * 1073741824)) ;;
  *) echo "$1" ;;
  esac
}

wait_quiet() {
  waited=0
  while busy=$("$here/cpu.sh" busy) && [ "$busy" -gt "$QUIET_BUSY" ]; do
    if [ "$waited" -ge "$QUIET_WAIT" ]; then
      say "other processes still keep $busy% of the cores busy: measuring anyway, expect noise"
      return
    fi
    say "other processes keep $busy% of the cores busy: waiting for them ($waited of $QUIET_WAIT s)"
    sleep 28
    waited=$((waited + 30))
  done
}

iters_for() {
  n=$((ITER_BYTES / $1))
  [ "$n" -ge "$MIN_ITERS" ] || n=$MIN_ITERS
  [ "$n" -le "$MAX_ITERS" ] || n=$MAX_ITERS
  echo "$n"
}

# ---- preconditions: one clear line and exit 2 for each ----
[ "$(id -u)" -eq 0 ] || {
  say "needs root (network namespaces, veth, tc); run it as root"
  exit 2
}
for tool in ip tc unshare flock mpirun gnuplot; do
  command -v "$tool" >/dev/null 2>&1 || {
    say "$tool is missing (make deps installs the MPI and gnuplot; ip/tc come with iproute2)"
    exit 2
  }
done
for prog in simallreduce simcalib simcalib_pp ar_runner_mpi; do
  [ -x "$bin/$prog" ] || {
    say "bin/$prog is missing (make all calib builds it)"
    exit 2
  }
done
for s in $SIZES; do
  case "$s" in
  *[!0-9KMG]* | [KMG]* | *[KMG]?*)
    say "bad size '$s' in VALIDATE_SIZES (whole bytes with an optional K, M or G)"
    exit 2
    ;;
  esac
done

# ---- one testbed at a time; whatever a killed run left behind goes first ----
mkdir -p "$(dirname "$TB_LOCK")"
exec 9>"$TB_LOCK"
flock -n 9 || {
  say "another testbed run holds $TB_LOCK"
  exit 1
}
"$here/net.sh" down

cleanup() {
  status=$?
  trap - EXIT INT TERM HUP
  if [ -n "${mpi_pid:-}" ]; then
    kill "$mpi_pid" 2>/dev/null || true
    wait "$mpi_pid" 2>/dev/null || true
  fi
  "$here/net.sh" down || status=1
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Runs an MPI job in the background, so that a signal reaches cleanup at once, and waits.
# Its stderr goes to a log (Open MPI's launcher warns there of harmless races); when it
# fails, the log's last lines are shown.
run_mpi() {
  "$@" 2>>"$work/mpi.log" &
  mpi_pid=$!
  rc=0
  wait "$mpi_pid" || rc=$?
  mpi_pid=""
  if [ "$rc" -ne 0 ]; then
    say "$(basename "$1") failed (exit status $rc); the end of $work/mpi.log:"
    grep -v 'plm:rsh: Warning: setpgid' "$work/mpi.log" | tail -n 15 >&2
  fi
  return "$rc"
}

rm -rf "$work"
mkdir -p "$work" "$(dirname "$out_png")"
hostfile=$work/hostfile
i=0
while [ "$i" -lt "$TB_HOSTS" ]; do
  echo "$(tb_host "$i") slots=$TB_RANKS"
  i=$((i + 1))
done >"$hostfile"

say "testbed: $TB_HOSTS hosts x $TB_RANKS ranks, links $TB_RATE each way, MTU $TB_MTU"
"$here/net.sh" up

# measure TAG COMMAND...: runs one measurement on a quiet machine, accounts for the cores
# in cpu_TAG.txt, and takes it again if other processes took too much of them meanwhile.
measure() {
  tag=$1
  shift
  for attempt in 1 2; do
    wait_quiet
    run_mpi "$here/cpu.sh" during "$work/cpu_$tag.txt" "$@"
    say "$(cat "$work/cpu_$tag.txt")"
    others=$(sed -n 's/.*other processes \([0-9.]*\)%.*/\1/p' "$work/cpu_$tag.txt")
    if [ "$attempt" -eq 1 ] && awk -v o="${others:-0}" -v m="$OTHERS_MAX" 'BEGIN { exit !(o > m) }'; then
      say "other processes took ${others}% of the cores: measuring again"
      continue
    fi
    return 0
  done
}

# ---- measure the allreduce ----
largest=0 largest_name=""
for s in $SIZES; do
  b=$(bytes_of "$s")
  n=$(iters_for "$b")
  if [ "$b" -gt "$largest" ]; then
    largest=$b largest_name=$s
  fi
  say "measuring $ALGOS at $s, $n repetitions after $WARMUP warm-up"
  measure "$s" "$here/mpirun.sh" -np "$ranks" --hostfile "$hostfile" "$bin/ar_runner_mpi" --algo "$ALGOS" \
    --sizes "$b" --ranks-per-node "$TB_RANKS" --iters "$n" --warmup "$WARMUP" --result "$work/measured_$s.json"
done

# ---- is the CPU the bottleneck? The largest ring again at twice the link rate ----
say "CPU headroom: ring at $largest_name with links at twice $TB_RATE"
"$here/net.sh" rate 2
measure headroom "$here/mpirun.sh" -np "$ranks" --hostfile "$hostfile" "$bin/ar_runner_mpi" --algo ring \
  --sizes "$largest" --ranks-per-node "$TB_RANKS" --iters "$MIN_ITERS" --warmup 1 --result "$work/headroom.json"
"$here/net.sh" rate 1

# ---- calibrate on the same testbed ----
say "calibrating: ping-pong and streaming, intra and inter host, 1 B .. $largest_name"
measure calibration "$bin/simcalib" measure --mpirun "$here/mpirun.sh" --np "$ranks" --hosts "$(tb_host_list)" \
  --sizes "1:$largest" --budget 64M --window-bytes 8M -o "$work/pingpong.json" >"$work/pingpong.txt"
"$here/net.sh" down
say "testbed removed; calibrating compute kernels, fitting, simulating"
# Each emulated GPU is the share of the cores its rank gets while every rank computes at
# once (hitopk's selections run on all ranks together; the ranks share the machine's cores):
# the kernels are timed in as many concurrent copies as there are ranks, and the fit takes
# all their points.
kernel_files="" pids="" i=0
while [ "$i" -lt "$ranks" ]; do
  "$bin/simcalib" kernels --max-bytes 16M -o "$work/kernels_$i.json" >"$work/kernels_$i.txt" &
  pids="$pids $!" kernel_files="$kernel_files $work/kernels_$i.json" i=$((i + 1))
done
for pid in $pids; do
  wait "$pid" || { say "simcalib kernels failed (see $work/kernels_*.txt)"; exit 1; }
done
# Per-byte costs from the streaming test: tbf's bucket passes the first packet of a message
# at once when the link was idle, as it is in a ping-pong; in a collective it is busy.
# shellcheck disable=SC2086 # the list of kernel files is meant to split
"$bin/simcalib" fit "$work/pingpong.json" $kernel_files --per-byte stream -o "$work/calib.json" \
  >"$work/fit.txt"
"$bin/simcalib" platform --calib "$work/calib.json" --nodes "$TB_HOSTS" --gpus-per-node "$TB_RANKS" \
  -o "$work/testbed.xml"
"$bin/simcalib" check --per-byte stream --platform "$work/testbed.xml" --measured "$work/pingpong.json" --tol 1 \
  -o "$work/check.json" >"$work/check.txt" || say "the ping-pong check failed (see $work/check.txt)"

# ---- simulate exactly the measured points (with the cost model's time beside them) ----
set --
for s in $SIZES; do
  "$bin/simallreduce" --platform "$work/testbed.xml" --algo "$ALGOS" --size "$s" --ranks-per-node "$TB_RANKS" \
    --mode both --json "$work/simulated_$s.json" >/dev/null
  set -- "$@" --measured "$work/measured_$s.json" --simulated "$work/simulated_$s.json"
done

# ---- published figures: the sources' numbers, simulated on their platforms ----
"$bin/simallreduce" --platform baidu40.xml --algo ring --size 1144M --json "$work/baidu.json" >/dev/null
"$bin/simallreduce" --platform mn1.xml --nodes 8 --ranks-per-node 1 --algo ring --size 256M \
  --json "$work/mn1.json" >/dev/null

echo
"$bin/simcalib" validate "$@" --link-rate "$TB_RATE" -o "$out_json" --csv "$out_csv" \
  --headroom "$work/headroom.json" --headroom-factor 2 \
  --published "Baidu [Baidu17]: ring, 5 nodes x 8 GPUs, 1.2 GB (estimate)=0.4:0.4:$work/baidu.json" \
  --published "PFN [PFN18]: MN-1, 8 nodes x 1 process, 256 MB=0.08:0.1:$work/mn1.json"
"$top/plots/plot.sh" validation 2>/dev/null
say "wrote $out_json, $out_csv and $out_png"
