# measured.gp: a measured nccl-tests allreduce (points) over the simulation of the same
# cluster (one line per algorithm): bus bandwidth and time against size.
load 'plots/common.gp'
if (fmt eq "svg") {
  set terminal svg size 1300,600 noenhanced font "DejaVu Sans,11" background rgb "white"
} else {
  set terminal pngcairo size 1300,600 noenhanced font "DejaVu Sans,11"
}
set output out.".".fmt
meas = data."-measured.dat"
set multiplot layout 1,2 margins 0.07, 0.80, 0.12, 0.88 spacing 0.08 title title
@size_axis_pow4
set logscale y
set format y "%g"
set ylabel "bus bandwidth (GB/s)"
unset key
plot for [i=1:words(algos)] file(i) using 1:3 lt i title word(algos, i)." (simulated)", \
     meas using 1:3 with points pt 3 ps 1.8 lw 2 lc rgb "black" title "measured"
set ylabel "time per allreduce (ms)"
set key outside right top
plot for [i=1:words(algos)] file(i) using 1:2 lt i title word(algos, i)." (simulated)", \
     meas using 1:2 with points pt 3 ps 1.8 lw 2 lc rgb "black" title "measured (nccl-tests)"
unset multiplot
