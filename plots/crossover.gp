# crossover.gp: the dense algorithm the cost models predict fastest, by nodes and size, each
# cell labelled with its lead: how much slower the next algorithm is (+3% is a close call,
# +300% a clear one). naive's wins at the smallest sizes are marked: they come from SMPI
# sending its 127 small eager messages into rank 0 at once for two latencies
# (docs/cost-models.md), which no real network does; they are no advice to gather at a root.
load 'plots/common.gp'
if (fmt eq "svg") {
  set terminal svg size 1500,640 noenhanced font "DejaVu Sans,10" background rgb "white"
} else {
  set terminal pngcairo size 1500,640 noenhanced font "DejaVu Sans,10"
}
set output out.".".fmt
set logscale x 2
set xtics ("1K" 2**10, "4K" 2**12, "16K" 2**14, "64K" 2**16, "256K" 2**18, "1M" 2**20, "4M" 2**22, "16M" 2**24, \
           "64M" 2**26, "256M" 2**28, "1G" 2**30)
set xlabel "message size per rank (bytes)"
set xrange [2**9.4:2**30.6]
set logscale y 2
set ytics (1, 2, 4, 8, 16)
set ylabel "nodes (8 GPUs each)"
set yrange [0.7:23]
set grid noxtics noytics
set title title
set key outside right top title "fastest" font ",10"
set label 1 "cell label: how much slower\nthe next algorithm is\n(tie: within 0.5%)\n\n* naive: an artefact of SMPI's\n  eager messages (all sent into\n  rank 0 at once for two\n  latencies), no advice" \
  at screen 0.865, screen 0.5 left font ",9"
set rmargin at screen 0.85
is_naive(i) = word(algos, i) eq "naive"
plot for [i=1:words(algos)] sprintf("%s-%s.dat", data, word(algos, i)) using 1:2 with points pt 5 ps 5.6 lt i \
       notitle, \
     for [i=1:words(algos)] NaN with points pt 5 ps 2 lt i title word(algos, i).(is_naive(i) ? " *" : ""), \
     for [i=1:words(algos)] sprintf("%s-%s.dat", data, word(algos, i)) \
       using 1:2:(($3 < 0.5 ? "tie" : sprintf("+%.0f%%", $3)).(is_naive(i) ? "*" : "")) with labels font ",7.5" tc rgb "white" notitle
