# sizes.gp: time and bus bandwidth against message size, one line per algorithm.
load 'plots/common.gp'
set terminal push
set multiplot layout 1,2 title title
@size_axis
set logscale y
set format y "%g"
set key inside left top
set ylabel "time (ms)"
plot for [i=1:words(algos)] sprintf("%s-%s.dat", data, word(algos, i)) using 1:2 lc i pt 7 title word(algos, i), \
     for [i=1:words(algos)] sprintf("%s-%s.dat", data, word(algos, i)) using 1:3 with lines dt 2 lc i notitle
set ylabel "bus bandwidth (GB/s, dense-equivalent for hitopk)"
set key inside left top
plot for [i=1:words(algos)] sprintf("%s-%s.dat", data, word(algos, i)) using 1:4 lc i pt 7 title word(algos, i)
unset multiplot
