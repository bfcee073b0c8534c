# training.gp: scaling efficiency of a training step against the node count, a line per
# algorithm (plots/training.sh sets data, algos, title), the ideal of 100% dashed grey.
load 'plots/common.gp'
set title title
set xlabel "nodes"
set ylabel "scaling efficiency (samples/s over GPUs x one GPU's), %"
set logscale x 2
set xtics ()
do for [k=0:10] { set xtics add (sprintf("%d", 2**k) 2**k) }
stats data using 1 nooutput
set xrange [STATS_min / 1.3:STATS_max * 1.3]
set yrange [0:110]
set key outside right top
plot for [i=1:words(algos)] data using 1:(column(i + 1)) title word(algos, i) lt i, \
     100 with lines dt 2 lc rgb ref_colour title "ideal"
