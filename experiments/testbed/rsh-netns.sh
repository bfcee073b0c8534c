#!/bin/sh
# rsh-netns.sh HOST COMMAND...: Open MPI's remote-shell agent for the testbed (mpirun's
# --mca plm_rsh_agent). Where ssh would log into HOST, this runs COMMAND inside the network
# namespace HOST, with a UTS namespace of its own named HOST, so that MPI (and the
# ping-pong's host check, MPI_Get_processor_name) tells the emulated hosts apart. As with
# ssh, the command words are joined and read by a shell.
set -eu
here=$(dirname "$0")
# shellcheck source=experiments/testbed/config.sh
. "$here/config.sh"

if [ "$#" -lt 2 ]; then
  echo "rsh-netns.sh: usage: rsh-netns.sh HOST COMMAND..." >&2
  exit 2
fi
host=$1
shift
case "$host" in
"$TB_PREFIX"-h*) ;;
*)
  echo "rsh-netns.sh: '$host' is not a testbed host ($TB_PREFIX-h0, $TB_PREFIX-h1, ...)" >&2
  exit 2
  ;;
esac
if ! ip netns list | grep -q "^$host\\b"; then
  echo "rsh-netns.sh: no network namespace '$host' (is the testbed up?)" >&2
  exit 2
fi
# shellcheck disable=SC2016 # $0 and $1 belong to the inner shell
exec ip netns exec "$host" unshare --uts sh -c 'hostname "$0" && eval "$1"' "$host" "$*"
