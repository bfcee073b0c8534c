# shellcheck shell=sh disable=SC2034 # sourced: the variables are used by the other scripts
# config.sh: the testbed's parameters, sourced by the other scripts. Every value can be
# overridden from the environment (TB_RATE=100mbit make validate).
#
# Why these values: the machine has 2 cores, and every rank polls while it waits, so the
# total rank count stays at 8 (4 hosts x 2); links are slow enough that the kernel's work per
# byte (TCP, veth, bridge, tbf) stays a small share of a core, and jumbo frames cut the
# number of packets that work is paid per. validate.sh checks the CPU headroom on every run.

TB_PREFIX=${TB_PREFIX:-sarb}          # names of namespaces, bridge and veths start with it
TB_HOSTS=${TB_HOSTS:-4}               # network namespaces, one per emulated node
TB_RANKS=${TB_RANKS:-2}               # MPI ranks per host, shared memory between them
TB_RATE=${TB_RATE:-200mbit}           # each host's link rate, each direction (tc units)
TB_BURST=${TB_BURST:-10kb}            # tbf bucket: one jumbo frame, so the link has no burst
TB_LIMIT=${TB_LIMIT:-4mb}             # tbf queue, deep enough that TCP sees no drops
TB_MTU=${TB_MTU:-9000}                # jumbo frames on veths and bridge
TB_NET=${TB_NET:-10.77.0}             # hosts are $TB_NET.1 .. $TB_NET.H, the bridge $TB_NET.254
TB_TCP_CC=${TB_TCP_CC:-reno}          # the hosts' TCP congestion control (see net.sh)

TB_BRIDGE="$TB_PREFIX-br"
TB_LOCK=${TB_LOCK:-/run/lock/$TB_PREFIX-testbed.lock}

# The cgroup (v2) every process of the testbed joins: its CPU time is counted there, and
# cleanup kills what is left in it. Empty where no cgroup2 hierarchy is mounted.
tb_cgroup() { awk -v n="$TB_PREFIX-testbed" '$3 == "cgroup2" { print $2 "/" n; exit }' /proc/mounts; }

# Namespace (host) name of host $1.
tb_host() { echo "$TB_PREFIX-h$1"; }

# The host names, comma-separated: h0,h1,...
tb_host_list() {
  i=0 list=""
  while [ "$i" -lt "$TB_HOSTS" ]; do
    list="$list${list:+,}$(tb_host "$i")"
    i=$((i + 1))
  done
  echo "$list"
}
