# tencent-fig7.gp: aggregation time against tensor size, as Fig. 7 of [Shi21].
load 'plots/common.gp'
@size_axis
set logscale y
set format y "%g"
set ylabel "time per allreduce (ms)"
set title title
plot for [i=1:words(algos)] sprintf("%s-%s.dat", data, word(algos, i)) using 1:2 lc i pt 7 title word(algos, i), \
     for [i=1:words(algos)] sprintf("%s-%s.dat", data, word(algos, i)) using 1:3 with lines dt 2 lc i notitle, \
     @model_key
