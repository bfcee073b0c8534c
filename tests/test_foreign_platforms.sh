#!/bin/sh
# test_foreign_platforms.sh: platforms of the shapes of SimGrid's own examples (written for
# the tests in tests/data/platforms/foreign/, a "node" property per host or per cluster), as
# a user adapting any SimGrid platform would bring them: each runs every dense algorithm with
# --verify and the cost models, saying where the models' assumptions do not hold, or is
# refused within 2 s with one line saying what it lacks. Nothing is left behind: no file in
# the working directory or $TMPDIR, no process. Prints "100%: Checks: N, Failures: 0".
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SIMALLREDUCE_BIN:-$top/bin/simallreduce}
case $bin in /*) ;; *) bin=$top/$bin ;; esac
pf=$top/tests/data/platforms/foreign
work=$(mktemp -d "${TMPDIR:-/tmp}/test_foreign.XXXXXX")
mkdir "$work/tmp" "$work/cwd"
checks=0 failures=0

fail() {
  failures=$((failures + 1))
  echo "FAIL: $*"
}

# run ARGS...: runs the driver (for at most a minute: never a hang) in an empty directory
# with its own TMPDIR; sets rc, secs,
# $work/out and $work/err.
run() {
  start=$(date +%s.%N)
  (cd "$work/cwd" && TMPDIR=$work/tmp timeout -k 5 60 "$bin" "$@" >"$work/out" 2>"$work/err")
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
}

# runs NAME ARGS...: every algorithm verified (each result row says yes), and exit 0.
runs() {
  name=$1
  shift
  checks=$((checks + 1))
  run --platform "$pf/$name.xml" --algo all --verify --sizes 1K:64K:8 "$@"
  rows=$(grep -c '^  *[0-9]' "$work/out")
  bad=$(grep '^  *[0-9]' "$work/out" | grep -vc ' yes$')
  [ "$rc" -eq 0 ] && [ "$rows" -eq 21 ] && [ "$bad" -eq 0 ] ||
    fail "$name --algo all --verify $*: exit $rc, $rows rows, $bad not verified: $(head -c 600 "$work/err")"
}

# models NAME ARGS...: --mode model predicts every algorithm with a model (exit 0).
models() {
  name=$1
  shift
  checks=$((checks + 1))
  run --platform "$pf/$name.xml" --mode model --algo all --sizes 1K:64K:8 "$@"
  rows=$(grep -c '^  *[0-9].*[0-9]$' "$work/out")
  [ "$rc" -eq 0 ] && [ "$rows" -eq 18 ] || fail "$name --mode model $*: exit $rc, $rows predictions: $(cat "$work/err")"
}

# warns NAME TEXT ARGS...: the models' report says TEXT in a "# warning:" line; none: no warning.
warns() {
  name=$1 text=$2
  shift 2
  checks=$((checks + 1))
  run --platform "$pf/$name.xml" --mode model --algo ring --size 64K "$@"
  if [ "$text" = none ]; then
    ! grep -q '^# warning:' "$work/out" || fail "$name $*: an unexpected warning: $(grep '^# warning' "$work/out")"
  else
    grep -q "^# warning: .*$text" "$work/out" || fail "$name $*: no warning '$text': $(cat "$work/out" "$work/err")"
  fi
}

# refused STATUS TEXT NAME ARGS...: exits STATUS within 2 s, with one line on stderr saying TEXT.
refused() {
  want=$1 text=$2 name=$3
  shift 3
  checks=$((checks + 1))
  run --platform "$pf/$name.xml" "$@"
  lines=$(grep -c . "$work/err")
  [ "$rc" -eq "$want" ] && [ "$lines" -eq 1 ] && grep -q "$text" "$work/err" &&
    awk -v s="$secs" 'BEGIN { exit !(s < 2) }' ||
    fail "$name $*: exit $rc in $secs s (want $want within 2 s, one line with '$text'): $(head -c 600 "$work/err")"
}

# One host per node: the models need no route inside a node.
runs two_hosts
models two_hosts
warns two_hosts none
# Multi-hop routes through routers, every node different.
runs small_platform
models small_platform
warns small_platform "nodes are not alike"
# One node of 4096 GPUs: the models read a node's routes for at most 128 ranks per node, and
# say so at once rather than probing 4096^2 routes.
refused 2 "at most 128 ranks per node" cluster_crossbar --mode model
runs cluster_crossbar --ranks-per-node 8
models cluster_crossbar --ranks-per-node 8
warns cluster_crossbar none --ranks-per-node 8
# Switched fabrics inside one node.
runs cluster_fat_tree
models cluster_fat_tree
warns cluster_fat_tree "switch fabric" --ranks-per-node 16
runs cluster_torus
models cluster_torus
runs cluster_dragonfly
models cluster_dragonfly
warns cluster_dragonfly "switch fabric, which a ring's messages oversubscribe up to 5.83x"
# Three clusters built three ways, joined over a wide-area link.
runs cluster_multi
models cluster_multi
warns cluster_multi "nodes are not alike: node 1's routes between its GPUs differ from node 0's by up to 6.00x in latency"
# Cabinets of 4, 3 and 4 hosts on shared backbones.
refused 2 "give --ranks-per-node" griffon --algo all --verify
runs griffon --ranks-per-node 3
models griffon --ranks-per-node 3
warns griffon "share a link between them (0.25 GB/s).*carries 1.50x its bandwidth" --ranks-per-node 3
warns griffon "switch fabric" --ranks-per-node 3
# With --mode both the warnings say how far the models were from the simulation.
checks=$((checks + 1))
run --platform "$pf/griffon.xml" --ranks-per-node 3 --algo ring,hier --sizes 64K:1M:4
grep -q '^# warning: here the models differ from the simulation by up to [0-9.]*%$' "$work/out" ||
  fail "griffon --mode both: no measured difference: $(cat "$work/out")"
# No path between two hosts: refused before simulating when the models probe the routes;
# a plain simulation fails with SimGrid's own words.
refused 2 "no path from S1 to S2" dogbone --algo all --verify
refused 2 "no path from S1 to S2" dogbone --mode model
checks=$((checks + 1))
run --platform "$pf/dogbone.xml" --mode sim --size 1K
[ "$rc" -eq 1 ] && head -n 1 "$work/err" | grep -q "there is no connecting path between these two hosts" &&
  ! grep -q '^  | *->' "$work/err" || fail "dogbone --mode sim: exit $rc: $(cat "$work/err")"
# Host names with ':' (smpirun's host:count syntax): they run, and smpirun's unrolled
# hostfile goes to the run's own directory, not the working directory.
checks=$((checks + 1))
cat >"$work/colons.xml" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="AS0" routing="Full">
    <host id="rack:0:gpu0" speed="1Gf"><prop id="node" value="0"/></host>
    <host id="rack:0:gpu1" speed="1Gf"><prop id="node" value="0"/></host>
    <host id="rack:1:gpu0" speed="1Gf"><prop id="node" value="1"/></host>
    <host id="rack:1:gpu1" speed="1Gf"><prop id="node" value="1"/></host>
    <link id="l0" bandwidth="1GBps" latency="1us"/>
    <link id="l1" bandwidth="1GBps" latency="1us"/>
    <link id="x" bandwidth="100MBps" latency="10us"/>
    <route src="rack:0:gpu0" dst="rack:0:gpu1"><link_ctn id="l0"/></route>
    <route src="rack:1:gpu0" dst="rack:1:gpu1"><link_ctn id="l1"/></route>
    <route src="rack:0:gpu0" dst="rack:1:gpu0"><link_ctn id="x"/></route>
    <route src="rack:0:gpu0" dst="rack:1:gpu1"><link_ctn id="x"/></route>
    <route src="rack:0:gpu1" dst="rack:1:gpu0"><link_ctn id="x"/></route>
    <route src="rack:0:gpu1" dst="rack:1:gpu1"><link_ctn id="x"/></route>
  </zone>
</platform>
EOF
run --platform "$work/colons.xml" --algo ring,hier --verify --size 64K
[ "$rc" -eq 0 ] && [ "$(grep -c ' yes$' "$work/out")" -eq 2 ] || fail "host names with ':': exit $rc: $(cat "$work/err")"
# nothing left: files, directories, processes
checks=$((checks + 1))
left=$(ls -A "$work/cwd" "$work/tmp")
# (the pattern does not match its own command line)
procs=$(grep -l "$work/[tc][mw][pd]" /proc/[0-9]*/cmdline 2>/dev/null)
[ -z "$(ls -A "$work/cwd")" ] && [ -z "$(ls -A "$work/tmp")" ] && [ -z "$procs" ] ||
  fail "left behind: $left $procs"

rm -rf "$work"
echo "$((100 * (checks - failures) / checks))%: Checks: $checks, Failures: $failures"
[ "$failures" -eq 0 ]
