# scaling.gp: time and bus bandwidth against the node count, on two platforms (2 x 2 panels),
# with the ideal: an allreduce whose bus bandwidth is the inter-node link's rate (the bandwidth
# bound of a ring across nodes; from 2 nodes on, where there is a link to cross).
load 'plots/common.gp'
if (fmt eq "svg") {
  set terminal svg size 1300,950 noenhanced font "DejaVu Sans,10" background rgb "white"
} else {
  set terminal pngcairo size 1300,950 noenhanced font "DejaVu Sans,10"
}
set output out.".".fmt
set multiplot layout 2,2 margins 0.06, 0.83, 0.07, 0.92 spacing 0.07, 0.1 title "allreduce scaling with the node count: simulated, and the ideal (dashed grey)"
set logscale x 2
set xlabel "nodes"
set key outside right top font ",9" title "simulated"
set offsets 0, 0, 0, 0
do for [p=1:2] {
  d = p == 1 ? data1 : data2
  algos = p == 1 ? algos1 : algos2
  legend = p == 1 ? legend1 : legend2
  ref = p == 1 ? ideal1 : ideal2
  t = p == 1 ? title1 : title2
  sparse = strstrt(algos, "topk") > 0
  # the axes fit the data: x a third of a doubling beyond the ends, y logarithmic only over
  # more than a decade
  xlo = 1e30; xhi = 0; tlo = 1e30; thi = 0; blo = 1e30; bhi = 0
  set xrange [*:*]; set yrange [*:*] # stats reads within the ranges in force
  do for [i=1:words(algos)] {
    stats sprintf("%s-%s.dat", d, word(algos, i)) using 1:2 nooutput
    xlo = STATS_min_x < xlo ? STATS_min_x : xlo; xhi = STATS_max_x > xhi ? STATS_max_x : xhi
    tlo = STATS_min_y < tlo ? STATS_min_y : tlo; thi = STATS_max_y > thi ? STATS_max_y : thi
    stats sprintf("%s-%s.dat", d, word(algos, i)) using 4 nooutput
    blo = STATS_min < blo ? STATS_min : blo; bhi = STATS_max > bhi ? STATS_max : bhi
  }
  set xrange [xlo / 1.3:xhi * 1.3]
  set xtics ()
  do for [k=0:10] { if (2**k >= xlo && 2**k <= xhi) { set xtics add (sprintf("%d", 2**k) 2**k) } }
  set title t
  # time: lines drawn thinner as they come, so one lying on another still shows
  if (thi > 10 * tlo) { set logscale y; set yrange [*:*] } else { unset logscale y; set yrange [0:*] }
  set format y "%g"
  set ylabel "time per allreduce (ms)"
  unset key # the same as beside the bandwidth
  plot for [i=1:words(algos)] sprintf("%s-%s.dat", d, word(algos, i)) using 1:2 lt i lw (4.5 - 0.6 * i) \
         title name(i), \
       ref using 1:2 with lines dt 2 lw 2 lc rgb ref_colour title "ideal: busbw = link rate"
  if (bhi > 10 * blo) { set logscale y; set yrange [*:*] } else { unset logscale y; set yrange [0:*] }
  set key
  set ylabel sparse ? "bus bandwidth (GB/s, dense-equivalent for sparse rows)" : "bus bandwidth (GB/s)"
  plot for [i=1:words(algos)] sprintf("%s-%s.dat", d, word(algos, i)) using 1:4 lt i lw (4.5 - 0.6 * i) \
         title name(i), \
       ref using 1:3 with lines dt 2 lw 2 lc rgb ref_colour title "inter-node link rate"
}
unset multiplot
