# baidu.gp: ring against the master algorithm as GPUs are added ([Baidu17]).
load 'plots/common.gp'
set xlabel "GPUs (8 per node)"
set logscale y
set format y "%g"
set ylabel "time per 1.2 GB allreduce (ms)"
set title title
set key inside left top
plot for [i=1:words(algos)] sprintf("%s-%s.dat", data, word(algos, i)) using 1:2 lc i pt 7 title word(algos, i), \
     400 with lines dt 3 lc rgb "gray40" title "[Baidu17]: about 400 ms for the ring"
