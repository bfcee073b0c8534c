#!/bin/sh
# mpirun.sh ARGS...: Open MPI's mpirun, set up to start ranks inside the testbed's hosts and
# to talk between them over the rate-limited veths; ARGS are mpirun's own (-np, --host or
# --hostfile, the program). simcalib measure uses it as its --mpirun.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=experiments/testbed/config.sh
. "$here/config.sh"

# Join the testbed's cgroup: the launcher, the daemons and the ranks are counted there
# (cpu.sh) and killed with it (net.sh down).
cg=$(tb_cgroup)
[ -z "$cg" ] || [ ! -d "$cg" ] || echo $$ >"$cg/cgroup.procs"

root=""
[ "$(id -u)" -ne 0 ] || root=--allow-run-as-root

# Why each setting:
# - plm_rsh_agent: daemons start through rsh-netns.sh, inside each host's namespace;
#   no tree spawn, so mpirun itself (in the root namespace, on the bridge) starts them all.
# - oob/btl_tcp_if_include: control and data only on the testbed subnet, i.e. the veths.
# - btl self,vader,tcp: shared memory inside a host, TCP between hosts.
# - btl_tcp_flags without put: with put, ob1's pipeline over TCP runs one direction of an
#   exchange at a time (a sendrecv between two hosts got half the link each way).
# - btl_tcp_eager_limit 16 MiB: every message of a validation run goes eagerly. Above the
#   default 64 KiB, ob1's rendezvous waits for an acknowledgement that, on a busy link, queues
#   behind the data of other transfers for milliseconds (a 1 MiB ring ran 40% slower); a
#   cluster's shallow queues cost it microseconds, and the simulation charges none.
# - socket buffers: the kernel's autotuning. Fixed at 128 KiB they capped the window of
#   flows whose round trip grows where two of them converge on one link (a tree's reduce):
#   twotree at 8 MiB reduced 15% slower than its links allow.
# - mpi_yield_when_idle, bind-to none: 8 polling ranks share 2 cores; a waiting rank gives
#   its core up, and the scheduler places ranks where the cores are free.
# Set through the environment, which the launcher passes on to the daemons and ranks and
# where an option given on the command line (simcalib's own yield, say) may override it.
export OMPI_MCA_plm_rsh_agent="$here/rsh-netns.sh"
export OMPI_MCA_plm_rsh_no_tree_spawn=1
export OMPI_MCA_oob_tcp_if_include="$TB_NET.0/24"
export OMPI_MCA_btl_tcp_if_include="$TB_NET.0/24"
export OMPI_MCA_btl=self,vader,tcp
export OMPI_MCA_btl_tcp_flags=send,inplace,need-ack,need-csum,hetero-rdma
export OMPI_MCA_btl_tcp_eager_limit=16777216
export OMPI_MCA_btl_tcp_max_send_size=16777216
export OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_hwloc_base_binding_policy=none
# shellcheck disable=SC2086 # $root is one word or none
exec "${MPIRUN_REAL:-mpirun}" $root "$@"
