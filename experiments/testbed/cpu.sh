#!/bin/sh
# cpu.sh busy | during REPORT COMMAND...: where the cores' time goes. `busy` prints the
# percentage of the cores' time spent busy over two seconds (before the testbed runs: the
# load of other processes). `during`
# runs COMMAND (an mpirun of the testbed) and writes to REPORT how the cores were shared
# meanwhile: the testbed's processes (the time its cgroup counted: launcher, daemons, ranks),
# interrupts and softirq (where the kernel moves packets and runs tbf), other processes, idle.
set -eu
here=$(dirname "$0")
# shellcheck source=experiments/testbed/config.sh
. "$here/config.sh"

# user+nice system idle+iowait irq+softirq steal, in clock ticks, all cores together.
ticks() { awk '/^cpu / { print $2 + $3, $4, $5 + $6, $7 + $8, $9 }' /proc/stat; }
now() { awk '{ print $1 }' /proc/uptime; }
# CPU seconds the testbed's cgroup has used, or -1 when there is none.
ours() {
  cg=$(tb_cgroup)
  if [ -n "$cg" ] && [ -r "$cg/cpu.stat" ]; then
    awk '$1 == "usage_usec" { print $2 / 1e6 }' "$cg/cpu.stat"
  else
    echo -1
  fi
}
cores=$(getconf _NPROCESSORS_ONLN)
hz=$(getconf CLK_TCK)

case "${1:-}" in
busy)
  a=$(ticks)
  sleep 2
  b=$(ticks)
  echo "$a $b" | awk '{
    busy = ($6 - $1) + ($7 - $2) + ($9 - $4) + ($10 - $5); all = busy + ($8 - $3)
    printf "%.0f\n", (all > 0 ? 100 * busy / all : 0) }'
  ;;
during)
  [ "$#" -ge 3 ] || {
    echo "cpu.sh: usage: cpu.sh during REPORT COMMAND..." >&2
    exit 2
  }
  report=$2
  shift 2
  a=$(ticks) t0=$(now) u0=$(ours)
  "$@" &
  child=$!
  trap 'kill "$child" 2>/dev/null' INT TERM HUP
  rc=0
  wait "$child" || rc=$?
  b=$(ticks) t1=$(now) u1=$(ours)
  echo "$a $b $t0 $t1 $u0 $u1" | awk -v c="$cores" -v hz="$hz" '{
    all = ($12 - $11) * c * hz; busy = ($6 - $1) + ($7 - $2) + ($10 - $5); net = $9 - $4
    printf "CPU over %.1f s x %d cores: ", $12 - $11, c
    if ($13 < 0) {
      printf "testbed and others %.0f%%", 100 * busy / all
    } else {
      # the cgroup also counts the softirq work done in the context of its processes
      mine = ($14 - $13) * hz; other = busy + net - mine; if (other < 0) other = 0
      printf "testbed processes %.0f%%, other processes %.1f%%", 100 * mine / all, 100 * other / all
    }
    printf ", interrupts and softirq %.1f%%, idle %.0f%%\n", 100 * net / all, 100 * ($8 - $3) / all }' >"$report"
  exit "$rc"
  ;;
*)
  echo "usage: cpu.sh busy | cpu.sh during REPORT COMMAND..." >&2
  exit 2
  ;;
esac
