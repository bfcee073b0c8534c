# crossover.gp: the dense algorithm the cost models predict fastest, by nodes and size.
load 'plots/common.gp'
@size_axis
set logscale y 2
set ylabel "nodes (8 GPUs each)"
set yrange [0.7:23]
set title title
set key outside right top
plot for [i=1:words(algos)] sprintf("%s-%s.dat", data, word(algos, i)) using 1:2 with points pt 5 ps 2.2 lc i title word(algos, i)
