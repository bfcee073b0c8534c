#!/bin/sh
# options.sh: SimGrid settings that might speed the simulation up, measured side by side.
# Every setting runs the same simulation, settings alternating, BENCH_REPS times; prints per
# setting the median and the smallest wall time, the peak memory and the simulated time,
# which no setting may move. Usage: bench/options.sh [driver options], default the
# 128-rank ring of make bench (tencent16, 100 MB); BENCH_SETTINGS="default boost ..." picks
# some of the settings.
set -eu

REPS=${BENCH_REPS:-5}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- --platform tencent16.xml --algo ring --size 100M
# name and the --cfg settings on top of the driver's own (platform/launch.c)
SETTINGS='default -
boost contexts/factory:boost
ucontext contexts/factory:ucontext
stack8m contexts/stack-size:8192
stack64k contexts/stack-size:64
global1m smpi/shared-malloc:global
global64m smpi/shared-malloc:global,smpi/shared-malloc-blocksize:67108864
nthreads2 contexts/factory:ucontext,contexts/nthreads:2'
if [ -n "${BENCH_SETTINGS:-}" ]; then
  SETTINGS=$(echo "$SETTINGS" | while read -r name cfgs; do
    case " $BENCH_SETTINGS " in *" $name "*) echo "$name $cfgs" ;; esac
  done)
fi

i=0
while [ "$i" -lt "$REPS" ]; do
  echo "$SETTINGS" | while read -r name cfgs; do
    extra=""
    [ "$cfgs" = - ] || extra=$(echo "$cfgs" | tr , '\n' | sed 's/^/--cfg /' | tr '\n' ' ')
    # shellcheck disable=SC2086 # extra is a list of words
    w=$(ON_FAIL=report run "$name" "$@" --mode sim $extra </dev/null)
    echo "$w" >>"$TMP/$name.w"
    if [ "$w" != failed ]; then
      cat "$TMP/$name.rss" >>"$TMP/$name.m"
      simtime "$TMP/$name.csv" >"$TMP/$name.t"
    fi
  done
  i=$((i + 1))
done

printf '%-10s %10s %10s %10s  %s\n' setting median_s min_s peak_MiB simulated_s
echo "$SETTINGS" | while read -r name cfgs; do
  if grep -q failed "$TMP/$name.w"; then
    printf '%-10s failed: %s\n' "$name" "$(grep -v '^\[' "$TMP/$name.err" | tail -n 1)"
    continue
  fi
  printf '%-10s %10s %10s %10s  %s\n' "$name" "$(median <"$TMP/$name.w")" "$(sort -g "$TMP/$name.w" | head -n 1)" \
    "$(awk '{ printf "%.0f\n", $1 / 1024 }' "$TMP/$name.m" | median)" "$(cat "$TMP/$name.t")"
done
