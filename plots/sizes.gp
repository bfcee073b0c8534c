# sizes.gp: time and bus bandwidth against message size, one line per algorithm; below the
# time, how far the cost model is from each simulated point; on the bandwidth, the inter-node
# link's rate (a dense algorithm's busbw cannot pass it across nodes; a sparse one's
# dense-equivalent busbw can, as it sends a fraction of the data).
load 'plots/common.gp'
if (fmt eq "svg") {
  set terminal svg size 1300,700 noenhanced font "DejaVu Sans,11" background rgb "white"
} else {
  set terminal pngcairo size 1300,700 noenhanced font "DejaVu Sans,11"
}
set output out.".".fmt
set multiplot title title
set lmargin at screen 0.06; set rmargin at screen 0.44; set tmargin at screen 0.90; set bmargin at screen 0.38
@size_axis_bare
set logscale y
set format y "%g"
set ylabel "time (ms)"
unset key
plot for [i=1:words(algos)] file(i) using 1:2 lt i title name(i)
set tmargin at screen 0.34; set bmargin at screen 0.10
@size_axis
unset logscale y
set format y "%+.1f"
set ylabel "cost model - simulated (%)"
set label 1 "dashed: the cost model against the simulation, same colours" at graph 0.02, graph 0.92 left font ",9"
plot for [i=1:words(algos)] file(i) using 1:(model_diff($2, $3)) lt i dt 2 notitle, \
     0 with lines lc rgb ref_colour lw 1 notitle
unset label 1
set lmargin at screen 0.53; set rmargin at screen 0.79; set tmargin at screen 0.90; set bmargin at screen 0.10
@size_axis_sparse
set logscale y
set format y "%g"
set ylabel "bus bandwidth (GB/s; dense-equivalent for sparse rows)"
set key outside right top title "simulated" maxrows auto
plot for [i=1:words(algos)] file(i) using 1:4 lt i title name(i), \
     (exists("link") ? link : NaN) with lines dt 3 lw 2 lc rgb ref_colour \
       title sprintf("inter-node link, %.2f GB/s", exists("link") ? link : 0)
unset multiplot
