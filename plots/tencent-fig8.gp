# tencent-fig8.gp: HiTopKComm's four steps as stacked bars per density, one panel per model
# size, as Fig. 8 of [Shi21].
load 'plots/common.gp'
set multiplot layout 1,2 title title
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set key inside left top
set ylabel "time (ms)"
set xlabel "density"
set grid noxtics
set offsets 0, 0, 0, 0
do for [p=1:2] {
  set title p == 1 ? "25M parameters (ResNet-50), fp32" : "110M parameters (Transformer), fp32"
  f = sprintf("%s-%s.dat", data, p == 1 ? "100000000" : "440000000")
  plot f using 2:xtic(1) title "intra-node reduce-scatter", '' using 3 title "MSTopK", \
       '' using 4 title "inter-node allgather", '' using 5 title "intra-node allgather"
}
unset multiplot
