# whatif.gp: slowdown heat map (plots/whatif.sh sets data, rows, cols, xtics, ytics, title):
# a row per algorithm and size, a column per fault, each cell the faulty time over the
# healthy one, written in it; white where nothing changed, darker the slower.
load 'plots/common.gp'
set title title
set xlabel "fault (--what-if)"
set ylabel ""
set cblabel "slowdown (faulty time / healthy time)"
set cbrange [1:*]
set palette defined (0 "white", 0.15 "#fff3b0", 0.4 "#f5a623", 0.7 "#d0021b", 1 "#4a0010")
set grid noxtics noytics
set key off
set offsets 0, 0, 0, 0
set lmargin 22
set bmargin 6
set ytics font ",9" nomirror
set xtics font ",9" rotate by -20 nomirror
eval ytics
eval xtics
set yrange [rows - 0.5:-0.5]
set xrange [-0.5:cols - 0.5]
plot data matrix using 1:2:3 with image, \
     data matrix using 1:2:(sprintf("x%.2f", $3)) with labels font ",9"
