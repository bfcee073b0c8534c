#!/bin/sh
# links.sh TRACE.json [POINT] [OUT]: the link-utilization heat map of point POINT (an index
# into the trace's otherData.points, default 0) of a simallreduce --trace file: OUT.png and
# OUT.svg (default plots/out/links). Rows are the links whose throughput the trace counts
# (the point's --links busiest, busiest on top), columns COLS (default 256) equal stretches
# of the allreduce, each cell the link's mean utilization there: its counter (GB/s, a step
# function) integrated over the stretch, over its rate (otherData.links_rate_Bps). The
# matrix goes to data/ beside OUT.
set -eu
[ $# -ge 1 ] || { echo "usage: plots/links.sh TRACE.json [POINT] [OUT]" >&2; exit 2; }
trace=$1 point=${2:-0}
here=$(cd "$(dirname "$0")" && pwd)
out=${3:-$here/out/links}
case $trace in /*) ;; *) trace=$PWD/$trace ;; esac
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$here")" # gnuplot loads plots/common.gp from the top
cols=${COLS:-256}
command -v jq >/dev/null || { echo "links.sh: needs jq (make deps installs it)" >&2; exit 2; }
[ -r "$trace" ] || { echo "links.sh: cannot read $trace" >&2; exit 2; }
data="$(dirname "$out")/data/$(basename "$out").dat"
mkdir -p "$(dirname "$data")"
# the point's window, then its counters: time (us), GB/s, rate (B/s), link
jq -r --argjson k "$point" '
  .otherData as $o | ($o.points[$k] // error("the trace has no point \($k)")) as $p
  | "window\t\($p.start_us)\t\($p.end_us)\t\($p.algo)\t\($p.bytes)",
    (.traceEvents[] | select(.ph == "C" and .ts >= $p.start_us and .ts <= $p.end_us)
     | "\(.ts)\t\(.args["GB/s"])\t\($o.links_rate_Bps[.name])\t\(.name)")' "$trace" |
awk -F'\t' -v cols="$cols" -v data="$data" -v meta="$data.gp" '
  BEGIN { n = 0 }
  $1 == "window" { a = $2; b = $3; algo = $4; bytes = $5; next }
  {
    if (!($4 in row)) { row[$4] = n; name[n++] = $4 }
    i = row[$4]; k = cnt[i]++
    t[i, k] = $1; u[i, k] = $3 > 0 ? $2 * 1e9 / $3 : 0
  }
  END {
    if (n == 0) { print "links.sh: the point has no link counters (was it traced with --trace?)" > "/dev/stderr"; exit 2 }
    w = (b - a) / cols
    for (i = 0; i < n; i++) {
      line = ""
      for (j = 0; j < cols; j++) {
        lo = a + j * w; hi = lo + w; s = 0
        # the counter holds u[k] from t[k] to t[k+1]
        for (k = 0; k < cnt[i]; k++) {
          from = t[i, k]; to = k + 1 < cnt[i] ? t[i, k + 1] : b
          if (from < lo) from = lo
          if (to > hi) to = hi
          if (to > from) s += u[i, k] * (to - from)
        }
        line = line (j ? " " : "") sprintf("%.4f", s / w)
      }
      print line > data
    }
    ytics = "set ytics ("
    for (i = 0; i < n; i++) ytics = ytics sprintf("%s\"%s\" %d", i ? ", " : "", name[i], i)
    mb = bytes / 1048576
    printf "rows = %d; cols = %d; dx = %.9g; ytics = %c%s)%c; title = \"%s at %g MiB: link utilization over time\"\n", \
      n, cols, w / 1000, 39, ytics, 39, algo, mb > meta
  }'
for fmt in png svg; do
  gnuplot -e "fmt='$fmt'; out='$out'; data='$data'; load '$data.gp'" "$here/links.gp"
done
echo "$out.png" >&2
