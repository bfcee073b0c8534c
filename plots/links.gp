# links.gp: a link-utilization heat map of one point: its busiest links (the busiest on
# top) against simulated time, each cell the link's mean utilization over that stretch of
# time, from a trace's link counters (plots/links.sh sets data, rows, cols, dx, ytics, title).
load 'plots/common.gp'
set title title
set xlabel "simulated time since the allreduce started (ms)"
set ylabel ""
set cblabel "utilization (share of the link's rate)"
set cbrange [0:1]
set palette defined (0 "white", 0.02 "#fff3b0", 0.3 "#f5a623", 0.7 "#d0021b", 1 "#4a0010")
set grid noxtics noytics
set key off
set offsets 0, 0, 0, 0
set lmargin 22
set ytics font ",8" nomirror
eval ytics
set yrange [rows - 0.5:-0.5]
set xrange [0:cols * dx]
plot data matrix using (($1 + 0.5) * dx):2:3 with image
