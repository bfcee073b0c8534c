#!/bin/sh
# bench.sh: simulation speed, measured side by side in one run; prints "name value" lines.
# Wall times are whole commands as a user types them; the 128-rank comparison alternates
# SMPI's own ring (lr) and ours so that load from other processes falls on both alike. The
# reference is what a user would otherwise run: a plain SMPI program calling MPI_Allreduce
# (MPI_SUM) with smpi/allreduce:lr. lr as simallreduce runs it (--algo mpi: the same
# runner, sums charged instead of done) runs beside them, as a second reference.
set -eu

REPS=${BENCH_REPS:-5}                # alternating pairs for the 128-rank comparison, runs elsewhere
REPS_1024=${BENCH_REPS_1024:-1}      # the 1024-rank run takes about a minute each
LIMIT_1024=${BENCH_LIMIT_1024:-1200} # seconds before a 1024-rank run is given up
# mn1 ring, 1024 ranks x 256 MiB, as simulated by commit 903c826, before the work for 4096
# to 16384 ranks (docs/performance.md)
RING1024_BEFORE=0.097414762189005064
PLAIN=${PLAIN:-bin/bench_plain_allreduce}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
[ -x "$PLAIN" ] || { echo "bench: $PLAIN is missing (make bench builds it)" >&2; exit 2; }

: >"$TMP/lr.w"
: >"$TMP/ring.w"
: >"$TMP/ratio"
# tencent16's hosts, node-major, for the plain program
n=0
while [ "$n" -lt 16 ]; do
  g=0
  while [ "$g" -lt 8 ]; do
    echo "node$n-gpu$g"
    g=$((g + 1))
  done
  n=$((n + 1))
done >"$TMP/hosts"
: >"$TMP/plain.w"
: >"$TMP/plainratio"

# relative difference of two simulated times
reldiff() { echo "$1 $2" | awk '{ d = $2 - $1; if (d < 0) d = -d; printf "%.3g\n", d / $1 }'; }

i=0
while [ "$i" -lt "$REPS" ]; do
  lr=$(run lr --platform tencent16.xml --algo mpi --cfg smpi/allreduce:lr --size 100M --mode sim)
  ring=$(run ring --platform tencent16.xml --algo ring --size 100M --mode sim)
  plain=$(timed plain env TMPDIR="$TMP" smpirun -platform platforms/tencent16.xml -hostfile "$TMP/hosts" -np 128 \
    --cfg=smpi/simulate-computation:no --cfg=smpi/allreduce:lr --log=root.thres:warning "$PLAIN" 104857600)
  echo "$lr" >>"$TMP/lr.w"
  echo "$ring" >>"$TMP/ring.w"
  echo "$plain" >>"$TMP/plain.w"
  echo "$lr $ring" | awk '{ printf "%.4f\n", $1 / $2 }' >>"$TMP/ratio"
  echo "$plain $ring" | awk '{ printf "%.4f\n", $1 / $2 }' >>"$TMP/plainratio"
  i=$((i + 1))
done
echo "ring128_speedup_vs_smpi_lr $(median <"$TMP/plainratio")"
echo "ring128_simtime_rel_diff $(reldiff "$(cat "$TMP/plain.out")" "$(simtime "$TMP/ring.csv")")"
echo "ring128_wall_s $(median <"$TMP/ring.w")"
echo "smpi_lr128_wall_s $(median <"$TMP/plain.w")"
echo "ring128_speedup_vs_mpi_algo_lr $(median <"$TMP/ratio")"
echo "ring128_simtime_rel_diff_vs_mpi_algo_lr $(reldiff "$(simtime "$TMP/lr.csv")" "$(simtime "$TMP/ring.csv")")"
echo "mpi_algo_lr128_wall_s $(median <"$TMP/lr.w")"

: >"$TMP/big.w"
: >"$TMP/big.m"
i=0
while [ "$i" -lt "$REPS_1024" ]; do
  LIMIT=$LIMIT_1024 run big --platform mn1.xml --algo ring --size 256M --mode sim >>"$TMP/big.w"
  [ -s "$TMP/big.csv" ] && cat "$TMP/big.rss" >>"$TMP/big.m"
  i=$((i + 1))
done
echo "ring1024_wall_s $(median <"$TMP/big.w")"
if [ -s "$TMP/big.m" ]; then
  echo "ring1024_peak_mem_MiB $(awk '{ printf "%.0f\n", $1 / 1024 }' "$TMP/big.m" | median)"
  echo "ring1024_simtime_s $(simtime "$TMP/big.csv")"
  # what the simulated time must stay within 0.1% of
  echo "ring1024_simtime_before_s $RING1024_BEFORE"
  echo "ring1024_simtime_rel_diff_vs_before $(reldiff "$RING1024_BEFORE" "$(simtime "$TMP/big.csv")")"
else
  echo "ring1024_peak_mem_MiB nan"
fi

# points_per_s NAME RUNS ARGS...: predictions per second of the driver with ARGS in model
# mode, platform probe included, over the median of RUNS runs
points_per_s() {
  name=$1
  runs=$2
  shift 2
  : >"$TMP/$name.w"
  i=0
  while [ "$i" -lt "$runs" ]; do
    run "$name" "$@" --mode model >>"$TMP/$name.w"
    i=$((i + 1))
  done
  points=$(awk '!/^#/ { n++ } END { print n - 1 }' "$TMP/$name.csv")
  echo "$points $(median <"$TMP/$name.w")" | awk '{ printf "%.0f\n", $1 / $2 }'
}
rate=$(points_per_s model "$REPS" --platform tencent16.xml --algo all --sizes 8:1G:1.02)
echo "model_points_per_s $rate"
# NCCL's models (docs/nccl.md) on the 32 ranks of hgx-h100-rails, beside the closed forms'
# rate above: they replay the runner's pipeline (a minute and more a run in one process), so
# BENCH_REPS_NCCL runs, 1 by default; by default one process per processor
# (sim/model_batch.c), then in one (--jobs 1)
rate=$(points_per_s nccl_model "${BENCH_REPS_NCCL:-1}" --platform hgx-h100-rails.xml --algo nccl-ring,nccl-tree \
  --sizes 8:1G:1.05)
echo "nccl_model_points_per_s $rate"
one=$(points_per_s nccl_model_one "${BENCH_REPS_NCCL:-1}" --platform hgx-h100-rails.xml --algo nccl-ring,nccl-tree \
  --sizes 8:1G:1.05 --jobs 1)
echo "nccl_model_default_over_one_process $(echo "$rate $one" | awk '{ printf "%.2f\n", $1 / $2 }') ($(nproc) processors)"

# NCCL's ring modelled on a long ring: mn1's 1024 ranks, 8 sizes from 1 KiB to 1 GiB, timed as
# nccl-tests (two cut replays a size from 256 ranks on: models/cost_nccl_ring.c); one run
echo "nccl_ring1024_model8_wall_s $(run ring1024m --platform mn1.xml --algo nccl-ring --sizes 1K:1G:8 \
  --timing nccl-tests --mode model)"

# NCCL's ring simulated for a sweep: 8 nodes of 8 H100 (64 ranks, 16 channels), 14 sizes from
# 1 MiB to 8 GiB, as nccl-tests times them; one run (five minutes and more)
"${CALIB:-bin/simcalib}" platform --preset hgx-h100 --nodes 8 -o "$TMP/hgx64.xml" >/dev/null
echo "nccl_ring64_sweep14_wall_s $(run sweep64 --platform "$TMP/hgx64.xml" --algo nccl-ring --sizes 1M:8G \
  --timing nccl-tests --mode sim)"
# The same sweep predicted, the ring replayed over the first nodes alone (models/cost_fold.h),
# beside its replay over every node (SIMALLREDUCE_FOLD=0) in the same run; one run each
folded=$(run sweep64m --platform "$TMP/hgx64.xml" --algo nccl-ring --sizes 1M:8G --timing nccl-tests --mode model)
whole=$(
  export SIMALLREDUCE_FOLD=0
  run sweep64w --platform "$TMP/hgx64.xml" --algo nccl-ring --sizes 1M:8G --timing nccl-tests --mode model
)
echo "nccl_ring64_model14_wall_s $folded"
echo "nccl_ring64_model14_whole_over_folded $(echo "$whole $folded" | awk '{ printf "%.2f\n", $1 / $2 }')"

# NCCL's ring as its kernels run it (docs/nccl.md): 2 channels, 2 slices a chunk, synchronous
# sends, on the 128 ranks of tencent16 at 256 MiB, beside our plain ring at the same size
: >"$TMP/nccl.w"
: >"$TMP/ring256.w"
i=0
while [ "$i" -lt "$REPS" ]; do
  run nccl --platform tencent16.xml --algo nccl-ring --size 256M --mode sim >>"$TMP/nccl.w"
  run ring256 --platform tencent16.xml --algo ring --size 256M --mode sim >>"$TMP/ring256.w"
  i=$((i + 1))
done
echo "nccl_ring128_256M_wall_s $(median <"$TMP/nccl.w")"
echo "ring128_256M_wall_s $(median <"$TMP/ring256.w")"

: >"$TMP/mission.w"
: >"$TMP/all.w"
: >"$TMP/links.r"
: >"$TMP/trace.r"
i=0
while [ "$i" -lt "$REPS" ]; do
  m=$(run mission --platform tencent16.xml --algo hitopk)
  # the same with a look inside (docs/observability.md), side by side
  l=$(run mission_links --platform tencent16.xml --algo hitopk --links)
  t=$(run mission_trace --platform tencent16.xml --algo hitopk --links --trace "$TMP/mission.trace.json")
  echo "$m" >>"$TMP/mission.w"
  echo "$m $l" | awk '{ printf "%.4f\n", $2 / $1 }' >>"$TMP/links.r"
  echo "$m $t" | awk '{ printf "%.4f\n", $2 / $1 }' >>"$TMP/trace.r"
  run all --platform tencent16.xml --algo all >>"$TMP/all.w"
  i=$((i + 1))
done
echo "mission_hitopk_wall_s $(median <"$TMP/mission.w")"
echo "mission_links_wall_ratio $(median <"$TMP/links.r")"
echo "mission_links_trace_wall_ratio $(median <"$TMP/trace.r")"
echo "algo_all_wall_s $(median <"$TMP/all.w")"

# the largest size, nccl-tests timing, on 4 x 8 H100 with 8 rails: 16 GiB per rank in shared
# payloads (messages of 512 MiB), what it costs in time and memory
: >"$TMP/rails.w"
: >"$TMP/rails.m"
i=0
while [ "$i" -lt "$REPS" ]; do
  run rails --platform hgx-h100-rails.xml --algo ring --size 16G --timing nccl-tests --mode sim >>"$TMP/rails.w"
  cat "$TMP/rails.rss" >>"$TMP/rails.m"
  i=$((i + 1))
done
echo "rails32_ring16g_wall_s $(median <"$TMP/rails.w")"
echo "rails32_ring16g_peak_mem_MiB $(awk '{ printf "%.0f\n", $1 / 1024 }' "$TMP/rails.m" | median)"
echo "rails32_ring16g_simtime_s $(simtime "$TMP/rails.csv")"

# a sweep's memory against one point's: tencent16 ring, 21 sizes 1 KiB..1 GiB and 1 GiB alone
: >"$TMP/sweep.r"
i=0
while [ "$i" -lt "$REPS" ]; do
  run one --platform tencent16.xml --algo ring --size 1G --mode sim >/dev/null
  run sweep21 --platform tencent16.xml --algo ring --sizes 1K:1G --mode sim >/dev/null
  echo "$(cat "$TMP/one.rss") $(cat "$TMP/sweep21.rss")" | awk '{ printf "%.4f\n", $2 / $1 }' >>"$TMP/sweep.r"
  i=$((i + 1))
done
echo "sweep21_peak_rss_ratio $(median <"$TMP/sweep.r")"

# A fit of one log, as a user runs it (docs/nccl-tests.md): L12 (2 x 8 H100, NCCL_ALGO=Ring)
# and L02 (1 x 8 A100, NCCL's own choice); one run each; L12's again in one process
# (--jobs 1), against the default's child processes (util/forked.c)
fit12=$(timed fit12 "${CALIB:-bin/simcalib}" platform --from-nccl-tests \
  tests/data/measured/L12_gjaion_h100_2node16_ring.log --nodes 2 --nccl-algo Ring -o "$TMP/l12.xml")
fit12one=$(timed fit12one "${CALIB:-bin/simcalib}" platform --from-nccl-tests \
  tests/data/measured/L12_gjaion_h100_2node16_ring.log --nodes 2 --nccl-algo Ring --jobs 1 -o "$TMP/l12one.xml")
echo "fit_l12_wall_s $fit12"
echo "fit_l12_one_process_over_default $(echo "$fit12one $fit12" | awk '{ printf "%.2f\n", $1 / $2 }') ($(nproc) processors)"
echo "fit_l02_wall_s $(timed fit02 "${CALIB:-bin/simcalib}" platform --from-nccl-tests \
  tests/data/measured/L02_a100x8_superbench.log --nodes 1 -o "$TMP/l02.xml")"

# 16384 GPUs: 2048 nodes x 8 H100 on 8 rails (about 44 MB of XML, generated here rather than
# shipped): how long the generator takes, and the cost models' decision table over 1K..16G
# (the platform loaded and probed by SimGrid included)
BIG=$TMP/hgx2048.xml
echo "hgx2048_generate_wall_s $(timed gen "${CALIB:-bin/simcalib}" platform --preset hgx-h100 --nodes 2048 -o "$BIG")"
# the first run loads the platform with SimGrid, the next ones read what it kept
# (platform/platform_cache.c), here in a directory of the bench's own
export SIMALLREDUCE_CACHE="$TMP/cache"
echo "best16384_model_cold_wall_s $(run best16384 --platform "$BIG" --algo best --mode model --sizes 1K:16G)"
: >"$TMP/best.w"
i=0
while [ "$i" -lt "$REPS" ]; do
  run best16384 --platform "$BIG" --algo best --mode model --sizes 1K:16G >>"$TMP/best.w"
  i=$((i + 1))
done
echo "best16384_model_wall_s $(median <"$TMP/best.w")"

# the simulation itself: ring on 512 nodes of the same kind (4096 ranks) at 256 MiB, hier on
# all 16384 ranks; one run each, given up after BENCH_LIMIT_4096 / BENCH_LIMIT_16384 seconds
MID=$TMP/hgx512.xml
"${CALIB:-bin/simcalib}" platform --preset hgx-h100 --nodes 512 -o "$MID" >/dev/null
w=$(LIMIT=${BENCH_LIMIT_4096:-1200} run ring4096 --platform "$MID" --algo ring --size 256M --mode sim)
echo "ring4096_wall_s $w"
[ "$w" = nan ] || echo "ring4096_simtime_s $(simtime "$TMP/ring4096.csv")"
w=$(LIMIT=${BENCH_LIMIT_16384:-2400} run hier16384 --platform "$BIG" --algo hier --size 256M --mode sim)
echo "hier16384_wall_s $w"
[ "$w" = nan ] || echo "hier16384_simtime_s $(simtime "$TMP/hier16384.csv")"

# one query of the NCCL tuner plugin (bench/tuner_query.c), in ns: a table of 3 ranges and one
# of 1035, side by side
"${TUNER_QUERY:-bin/bench_tuner_query}" "${TUNER_SO:-build/tuner/libnccl-tuner-simallreduce.so}" "$TMP"
