# common.gp: what every plot shares: the terminal (fmt = "png" or "svg", out = path without
# extension), the grid, the byte-size axis, and one palette.
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
# The palette: Okabe and Ito's colour-blind-safe set (Okabe & Ito, "Color Universal Design",
# 2008) without its yellow, which is lost on white. Each line type has its own colour and
# point shape, so that lines lying on each other stay apart and a greyscale print still tells
# them apart. Line type 1 is algorithm 1 in every plot, and so on.
set linetype 1 lc rgb "#0072B2" lw 2 pt 7 ps 1.2   # blue, filled circle
set linetype 2 lc rgb "#D55E00" lw 2 pt 5 ps 1.1   # vermillion, filled square
set linetype 3 lc rgb "#009E73" lw 2 pt 9 ps 1.4   # bluish green, filled triangle
set linetype 4 lc rgb "#CC79A7" lw 2 pt 13 ps 1.4  # reddish purple, filled diamond
set linetype 5 lc rgb "#E69F00" lw 2 pt 11 ps 1.4  # orange, filled down-triangle
set linetype 6 lc rgb "#56B4E9" lw 2 pt 6 ps 1.3   # sky blue, open circle
set linetype 7 lc rgb "#000000" lw 2 pt 4 ps 1.2   # black, open square
set linetype cycle 7
# references drawn from the physics or a source: dark grey
ref_colour = "#555555"
# message sizes in bytes on a log axis, labelled as nccl-tests prints them
size_axis = 'set logscale x 2; set xtics ("1K" 2**10, "4K" 2**12, "16K" 2**14, "64K" 2**16, "256K" 2**18, "1M" 2**20, "4M" 2**22, "16M" 2**24, "64M" 2**26, "256M" 2**28, "1G" 2**30, "4G" 2**32); set xlabel "message size per rank (bytes)"'
# a legend entry of algorithm i: its name in the plot's legend list (the names of the paper
# it reproduces, or the option names), else the option name
name(i) = exists("legend") && words(legend) >= i ? word(legend, i) : word(algos, i)
# the same with a label every 16x, for narrow panels
size_axis_sparse = 'set logscale x 2; set xtics ("1K" 2**10, "" 2**12, "" 2**14, "64K" 2**16, "" 2**18, "" 2**20, "4M" 2**22, "" 2**24, "" 2**26, "256M" 2**28, "" 2**30, "" 2**32); set xlabel "message size per rank (bytes)"'
# a size as nccl-tests writes it: 1K, 2K, ... 1M, ... 1G (powers of 1024, as sizes are given)
size_label(x) = x >= 2**30 ? sprintf('%dG', x / 2**30) : x >= 2**20 ? sprintf('%dM', x / 2**20) : \
                x >= 2**10 ? sprintf('%dK', x / 2**10) : sprintf('%d', x)
# the same axis for a panel whose sizes may span 1 B to 64 GiB: a labelled tick at every power
# of 4 and a small one between, the labels slanted so that sixteen fit a narrow panel (gnuplot
# draws only the ticks within the data's range)
size_axis_pow4 = 'set logscale x 2; set format x ""; set xtics () rotate by 45 right; do for [k = 0:36] { set xtics add (k % 2 ? "" : size_label(2**k) 2**k k % 2) }; set mxtics 1; set xlabel "message size per rank (bytes)"'
# the same axis without labels, for a panel above another that has them
size_axis_bare = 'set logscale x 2; set xtics ("" 2**10, "" 2**12, "" 2**14, "" 2**16, "" 2**18, "" 2**20, "" 2**22, "" 2**24, "" 2**26, "" 2**28, "" 2**30, "" 2**32); set xlabel ""'
# file(i): algorithm i's data file (plots/series.awk: x, time ms, model ms, busbw GB/s)
file(i) = sprintf("%s-%s.dat", data, word(algos, i))
# two panels sharing the x axis: measurements above (upper_panel), the cost model's
# difference from them below (lower_panel); the model's lines would lie on the simulated ones
upper_panel = 'set lmargin at screen 0.10; set rmargin at screen 0.70; set tmargin at screen 0.90; set bmargin at screen 0.36'
lower_panel = 'set tmargin at screen 0.33; set bmargin at screen 0.10'
# the model's difference, in % of the simulated time (NaN where there is no model)
model_diff(t, m) = t > 0 && m == m ? 100 * (m - t) / t : NaN
