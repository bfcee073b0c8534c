# common.gp: what every plot shares: the terminal (fmt = "png" or "svg", out = path without
# extension), the grid, and the byte-size axis.
if (fmt eq "svg") {
  set terminal svg size 1000,640 noenhanced font "DejaVu Sans,11" background rgb "white"
} else {
  set terminal pngcairo size 1000,640 noenhanced font "DejaVu Sans,11"
}
set output out.".".fmt
set grid xtics ytics lc rgb "#dddddd"
set key outside right top
set style data linespoints
set offsets graph 0.03, graph 0.03, 0, 0
# message sizes in bytes on a log axis, labelled as nccl-tests prints them
size_axis = 'set logscale x 2; set xtics ("1K" 2**10, "4K" 2**12, "16K" 2**14, "64K" 2**16, "256K" 2**18, "1M" 2**20, "4M" 2**22, "16M" 2**24, "64M" 2**26, "256M" 2**28, "1G" 2**30, "4G" 2**32); set xlabel "message size per rank (bytes)"'
# simulation points in colour i, the cost model as a dashed line of the same colour
model_key = 'NaN with lines dt 2 lc rgb "black" title "dashed: cost model"'
