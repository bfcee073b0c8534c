# tencent-fig7.gp: aggregation time against tensor size, as Fig. 7 of [Shi21], the algorithms
# under the paper's names; below, how far the cost model is from each simulated point.
load 'plots/common.gp'
set multiplot title title
@upper_panel
@size_axis_bare
set logscale y
set format y "%g"
set ylabel "time per allreduce (ms)"
set key outside right top title "simulated"
plot for [i=1:words(algos)] file(i) using 1:2 lt i title name(i)
unset key
@lower_panel
@size_axis
unset logscale y
set format y "%+.1f"
set ylabel "model - simulated (%)"
set label 1 "dashed: the cost model\nagainst the simulation,\nsame colours" at screen 0.73, screen 0.22 left
plot for [i=1:words(algos)] file(i) using 1:(model_diff($2, $3)) lt i dt 2 notitle, \
     0 with lines lc rgb ref_colour lw 1 notitle
unset multiplot
