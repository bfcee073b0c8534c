#!/bin/sh
# net.sh up|down|status|rate F: the emulated cluster's network. TB_HOSTS network namespaces are the
# hosts; each is joined by a veth pair to one Linux bridge, the switch; tbf limits each
# host's link to TB_RATE in both directions (egress inside the namespace, ingress on the
# bridge side), so a host's ranks share their link as GPUs share a NIC. `rate F` sets the
# links to F times TB_RATE (the CPU headroom check). Needs root.
set -eu
here=$(dirname "$0")
# shellcheck source=experiments/testbed/config.sh
. "$here/config.sh"

# TB_RATE times $1, in bits per second (tc's units: bit, kbit, mbit, gbit, a bare number
# of bits, or bps, kbps, mbps, gbps in bytes).
rate_bits() {
  echo "$TB_RATE" | awk -v f="$1" '
    match($0, /^[0-9.]+/) {
      n = substr($0, 1, RLENGTH); u = substr($0, RLENGTH + 1)
      m["bit"] = 1; m[""] = 1; m["kbit"] = 1e3; m["mbit"] = 1e6; m["gbit"] = 1e9
      m["bps"] = 8; m["kbps"] = 8e3; m["mbps"] = 8e6; m["gbps"] = 8e9
      if (u in m) { printf "%.0f\n", n * m[u] * f; exit }
    }
    { exit 1 }' || {
    echo "net.sh: cannot read the rate '$TB_RATE' (e.g. 200mbit)" >&2
    exit 2
  }
}

# tbf's settings at $1 times TB_RATE. The peak rate, 1% above the rate, drains the bucket
# too: a packet never leaves faster than the link, so an idle link gives no burst that a
# ping-pong would take for bandwidth and a busy allreduce never sees.
tbf_args() {
  r=$(rate_bits "$1")
  echo "rate ${r}bit burst $TB_BURST peakrate $((r + r / 100))bit mtu $((TB_MTU + 100)) limit $TB_LIMIT"
}

# tc qdisc $3 (add, change) of the root qdisc of interface $2 in namespace $1 (empty: the
# root namespace); the rest describes the qdisc.
tc_in() {
  ns=$1 dev=$2 verb=$3
  shift 3
  if [ -n "$ns" ]; then
    ip netns exec "$ns" tc qdisc "$verb" dev "$dev" root "$@"
  else
    tc qdisc "$verb" dev "$dev" root "$@"
  fi
}

# Sets every link's tbf to $2 times TB_RATE ($1: add or change).
shape_all() {
  verb=$1
  args=$(tbf_args "$2") # a separate assignment, so that a bad rate stops the script
  # shellcheck disable=SC2086 # separate words on purpose
  set -- $args
  i=0
  while [ "$i" -lt "$TB_HOSTS" ]; do
    tc_in "" "$TB_PREFIX-v$i" "$verb" tbf "$@"
    tc_in "$(tb_host "$i")" "$TB_PREFIX-p$i" "$verb" tbf "$@"
    i=$((i + 1))
  done
}

up() {
  if ip link show "$TB_BRIDGE" >/dev/null 2>&1; then
    echo "net.sh: $TB_BRIDGE exists already (net.sh down removes it)" >&2
    exit 1
  fi
  cg=$(tb_cgroup)
  [ -z "$cg" ] || mkdir -p "$cg"
  ip link add "$TB_BRIDGE" type bridge
  ip addr add "$TB_NET.254/24" dev "$TB_BRIDGE"
  i=0
  while [ "$i" -lt "$TB_HOSTS" ]; do
    ns=$(tb_host "$i")
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    # Reno, ACK-clocked, keeps a link busy while it has data. BBR (this kernel's default)
    # paces below the link in its probing cycles: where two flows share a link each way, as
    # in recursive halving-doubling, the links idled and rhd ran 9-13% slower than the
    # streaming bandwidth allows (Reno: 1-3%).
    ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_congestion_control="$TB_TCP_CC"
    ip link add "$TB_PREFIX-v$i" type veth peer name "$TB_PREFIX-p$i" netns "$ns"
    ip link set "$TB_PREFIX-v$i" master "$TB_BRIDGE"
    ip link set "$TB_PREFIX-v$i" mtu "$TB_MTU" up
    ip -n "$ns" link set "$TB_PREFIX-p$i" mtu "$TB_MTU" up
    ip -n "$ns" addr add "$TB_NET.$((i + 1))/24" dev "$TB_PREFIX-p$i"
    i=$((i + 1))
  done
  shape_all add 1
  # The bridge takes the smallest MTU of its ports, so it is raised once they all are.
  ip link set "$TB_BRIDGE" mtu "$TB_MTU" up
}

# Our namespaces, also those of an earlier run with more hosts.
namespaces() { ip netns list | awk -v p="$TB_PREFIX-h" 'index($1, p) == 1 { print $1 }'; }

# Our links left in the root namespace.
links() { ip -o link show | awk -F': ' -v p="$TB_PREFIX-" '{ sub(/@.*/, "", $2) } index($2, p) == 1 { print $2 }'; }

down() {
  cg=$(tb_cgroup)
  # Every process the testbed started (mpirun, daemons, ranks) joined its cgroup.
  if [ -n "$cg" ] && [ -d "$cg" ]; then
    [ ! -e "$cg/cgroup.kill" ] || echo 1 >"$cg/cgroup.kill"
    n=0
    while [ -n "$(cat "$cg/cgroup.procs")" ] && [ "$n" -lt 20 ]; do
      sleep 0.1
      n=$((n + 1))
    done
    rmdir "$cg" 2>/dev/null || true
  fi
  for ns in $(namespaces); do
    # Only what runs inside our namespaces: the ranks and daemons this testbed started.
    pids=$(ip netns pids "$ns")
    # shellcheck disable=SC2086 # one word per process id
    [ -z "$pids" ] || kill $pids 2>/dev/null || true
  done
  for ns in $(namespaces); do
    n=0
    while [ -n "$(ip netns pids "$ns")" ] && [ "$n" -lt 20 ]; do
      sleep 0.1
      n=$((n + 1))
    done
    pids=$(ip netns pids "$ns")
    # shellcheck disable=SC2086 # one word per process id
    [ -z "$pids" ] || kill -9 $pids 2>/dev/null || true
    ip netns del "$ns"
  done
  # Deleting a namespace deletes its veth end and with it the peer; the bridge goes last.
  for l in $(links); do
    ip link del "$l" 2>/dev/null || true
  done
}

# Prints what is left of a testbed; exit 1 when anything is.
status() {
  left=0
  cg=$(tb_cgroup)
  if [ -n "$cg" ] && [ -d "$cg" ]; then
    echo "cgroup $cg: processes $(tr '\n' ' ' <"$cg/cgroup.procs")"
    left=1
  fi
  for ns in $(namespaces); do
    echo "namespace $ns: processes $(ip netns pids "$ns" | tr '\n' ' ')"
    left=1
  done
  for l in $(links); do
    echo "link $l"
    left=1
  done
  [ "$left" -eq 0 ] && echo "no testbed namespace or link is left"
  return "$left"
}

if [ "$(id -u)" -ne 0 ]; then
  echo "net.sh: needs root (network namespaces, veth, tc)" >&2
  exit 2
fi
case "${1:-}" in
up) up ;;
down) down ;;
status) status ;;
rate)
  case "${2:-}" in
  [1-9] | [1-9][0-9]) shape_all change "$2" ;;
  *)
    echo "net.sh: rate needs a whole factor 1..99, not '${2:-}'" >&2
    exit 2
    ;;
  esac
  ;;
*)
  echo "usage: net.sh up|down|status|rate FACTOR" >&2
  exit 2
  ;;
esac
