# baidu.gp: ring against the master algorithm as GPUs are added ([Baidu17]): simulated
# (filled), the cost model (open rings around them), and the source's measured figure as a
# marked point where it was measured.
load 'plots/common.gp'
set xlabel "GPUs (8 per node)"
set xtics (8, 16, 24, 32, 40)
set xrange [4:44]
set logscale y
set format y "%g"
set yrange [100:30000]
set ylabel "time per 1.2 GB allreduce (ms)"
set title title
set key inside left top
plot for [i=1:words(algos)] file(i) using 1:2 lt i title name(i)." (simulated)", \
     for [i=1:words(algos)] file(i) using 1:3 with points lt i pt 6 ps 2.6 lw 1.5 title name(i)." (cost model)", \
     source using 1:2 with points pt 3 ps 3 lw 2 lc rgb "black" title "[Baidu17], measured", \
     source using 1:2:3 with labels right offset 1, -1.6 font ",9" notitle
