# scaling.gp: time and bus bandwidth against the node count, on two platforms (2 x 2 panels).
load 'plots/common.gp'
set terminal pngcairo size 1200,900 noenhanced font "DejaVu Sans,10"
if (fmt eq "svg") { set terminal svg size 1200,900 noenhanced font "DejaVu Sans,10" background rgb "white" }
set output out.".".fmt
set multiplot layout 2,2 title "allreduce scaling with the node count"
set logscale x 2
set xlabel "nodes"
set key inside left top font ",9"
do for [p=1:2] {
  d = p == 1 ? data1 : data2
  a = p == 1 ? algos1 : algos2
  t = p == 1 ? title1 : title2
  set logscale y
  set format y "%g"
  set ylabel "time (ms)"
  set title t
  plot for [i=1:words(a)] sprintf("%s-%s.dat", d, word(a, i)) using 1:2 lc i pt 7 title word(a, i), \
       for [i=1:words(a)] sprintf("%s-%s.dat", d, word(a, i)) using 1:3 with lines dt 2 lc i notitle
  set ylabel "bus bandwidth (GB/s, dense-equivalent for hitopk)"
  plot for [i=1:words(a)] sprintf("%s-%s.dat", d, word(a, i)) using 1:4 lc i pt 7 title word(a, i)
}
unset multiplot
