#!/bin/sh
# bench.sh: simulation speed, measured side by side in one run; prints "name value" lines.
# Wall times are whole commands as a user types them; the 128-rank comparison alternates
# SMPI's own ring (lr) and ours so that load from other processes falls on both alike.
set -eu

REPS=${BENCH_REPS:-5}                # alternating pairs for the 128-rank comparison, runs elsewhere
REPS_1024=${BENCH_REPS_1024:-1}      # the 1024-rank run takes about a minute each
LIMIT_1024=${BENCH_LIMIT_1024:-1200} # seconds before a 1024-rank run is given up
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

: >"$TMP/lr.w"
: >"$TMP/ring.w"
: >"$TMP/ratio"
i=0
while [ "$i" -lt "$REPS" ]; do
  lr=$(run lr --platform tencent16.xml --algo mpi --cfg smpi/allreduce:lr --size 100M --mode sim)
  ring=$(run ring --platform tencent16.xml --algo ring --size 100M --mode sim)
  echo "$lr" >>"$TMP/lr.w"
  echo "$ring" >>"$TMP/ring.w"
  echo "$lr $ring" | awk '{ printf "%.4f\n", $1 / $2 }' >>"$TMP/ratio"
  i=$((i + 1))
done
echo "ring128_speedup_vs_smpi_lr $(median <"$TMP/ratio")"
echo "ring128_wall_s $(median <"$TMP/ring.w")"
echo "lr128_wall_s $(median <"$TMP/lr.w")"
echo "$(simtime "$TMP/lr.csv") $(simtime "$TMP/ring.csv")" |
  awk '{ d = $2 - $1; if (d < 0) d = -d; printf "ring128_simtime_rel_diff %.3g\n", d / $1 }'

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
else
  echo "ring1024_peak_mem_MiB nan"
fi

: >"$TMP/model.w"
i=0
while [ "$i" -lt "$REPS" ]; do
  run model --platform tencent16.xml --algo all --sizes 8:1G:1.02 --mode model >>"$TMP/model.w"
  i=$((i + 1))
done
points=$(awk 'END { print NR - 1 }' "$TMP/model.csv")
echo "$points $(median <"$TMP/model.w")" | awk '{ printf "model_points_per_s %.0f\n", $1 / $2 }'

: >"$TMP/mission.w"
: >"$TMP/all.w"
i=0
while [ "$i" -lt "$REPS" ]; do
  run mission --platform tencent16.xml --algo hitopk >>"$TMP/mission.w"
  run all --platform tencent16.xml --algo all >>"$TMP/all.w"
  i=$((i + 1))
done
echo "mission_hitopk_wall_s $(median <"$TMP/mission.w")"
echo "algo_all_wall_s $(median <"$TMP/all.w")"
