# tencent-fig8.gp: HiTopKComm's four steps as shares of its time, stacked per density, one
# panel per model size, as Fig. 8 of [Shi21]; every share is written on its segment (beside
# it, in the segment's colour, when the segment is too thin) and the total time above the bar, so that a claim such as
# "MSTopK takes about 6%" reads off the plot.
load 'plots/common.gp'
set multiplot layout 1,2 title title
set style fill solid 0.9 border lc rgb "white"
set key outside bottom center horizontal maxcols 2 maxrows 2 samplen 2
set ylabel "share of HiTopKComm's time (%)"
unset xlabel
set grid noxtics
set offsets 0, 0, 0, 0
set yrange [0:112]
set ytics 0, 20, 100
set xrange [-0.6:3.9]
total = '($2 + $3 + $4 + $5)'
# segment k (1..4: columns 2..5): its lower edge, its share, both in % of the bar
below(k) = k == 1 ? 0 : k == 2 ? $2 : k == 3 ? $2 + $3 : $2 + $3 + $4
share(k) = 100 * column(k + 1) / (@total)
mid(k) = 100 * (below(k) + column(k + 1) / 2) / (@total)
pct(v) = v < 10 ? sprintf("%.1f%%", v) : sprintf("%.0f%%", v)
thin = 7
max(a, b) = a > b ? a : b
steps = '"reduce-scatter (intra-node)" "MSTopK" "allgather (inter-node)" "allgather (intra-node)"' 
do for [p=1:2] {
  set title (p == 1 ? "25M parameters (ResNet-50), fp32" : "110M parameters (Transformer), fp32").", by density rho"
  f = sprintf("%s-%s.dat", data, p == 1 ? "100000000" : "440000000")
  plot for [k=1:4] f using ($0):(mid(k)):(0.32):(share(k) / 2):xtic(1) with boxxyerror lt k \
         title word(steps, k), \
       for [k=1:4] f using ($0):(share(k) >= thin ? mid(k) : NaN):(pct(share(k))) with labels tc rgb "white" \
         font ",10" notitle, \
       for [k=1:4] f using ($0 + 0.36):(share(k) < thin ? max(1.5 + 4.5 * (k - 1), mid(k) + (k - 2) * 2.6) : NaN):(pct(share(k))) \
         with labels left font ",9" tc lt k notitle, \
       f using ($0):(103):(sprintf("%.1f ms", @total)) with labels font ",10" notitle
}
unset multiplot
