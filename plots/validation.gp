# validation.gp: measured vs simulated (vs cost model) allreduce time over size, one panel
# per algorithm, and the errors of all of them in a last panel, from results/validation.csv
# (simcalib validate --csv). Each algorithm's panel is relative to the measured median (1 =
# measured; its bar is the interquartile range of the repetitions), so that the spread, the
# simulation and the model can be told apart where their times are within a few per cent.
# gnuplot -e "fmt='png'; out='plots/out/validation'; csv='results/validation.csv'; title='...'" plots/validation.gp
# (plots/plot.sh validation does this, for png and svg)
if (!exists("fmt")) fmt = 'png'
if (!exists("out")) out = 'plots/out/validation'
if (!exists("csv")) csv = 'results/validation.csv'
if (!exists("title")) title = 'local testbed'

load 'plots/common.gp'
if (fmt eq 'svg') {
  set terminal svg size 1400,1400 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
  set terminal pngcairo size 1400,1400 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set datafile separator ','
set datafile missing ''
set key top left
set logscale x
set grid xtics ytics lc rgb '#dddddd'
set xlabel 'size per rank (bytes)'
set ylabel 'time / measured median'
# a tick at every power of two, labelled as nccl-tests writes sizes (common.gp's size_label)
set format x ''
set xtics ()
do for [k = 0:34] { set xtics add (size_label(2**k) 2**k) }
set offsets graph 0.05, graph 0.05, 0, 0

# the algorithms, in the order they first appear in the CSV
algos = system(sprintf("awk -F, 'NR > 1 && !seen[$1]++ { printf \"%%s \", $1 }' %s", csv))
n = words(algos)
cols = 2
rows = (n + 1 + cols - 1) / cols
is(a) = (strcol(1) eq a)
# the cost model's column is empty until the models exist: then it is left out
has_model = int(system(sprintf("awk -F, 'NR > 1 && $9 != \"\" { n++ } END { print n + 0 }' %s", csv)))

set multiplot layout rows, cols title sprintf('allreduce on the emulated cluster (%s): measured vs simulated', title)
set format y '%.2f'
set yrange [*<0.85:1.15<*]
set key inside top left font ',10'
do for [i = 1:n] {
  a = word(algos, i)
  set title a
  plot 1.1 with filledcurves y=0.9 fs solid 0.12 noborder lc rgb '#999999' title 'within 10% of the median', \
       csv skip 1 using (is(a) ? $2 : NaN):(1):($4 / $3):($5 / $3) with yerrorbars lt 7 pt 7 ps 0.8 lw 1.5 \
         title 'measured: median (1) and IQR', \
       '' skip 1 using (is(a) ? $2 : NaN):($8 / $3) with linespoints lt 1 title 'simulated', \
       '' skip 1 using (is(a) && has_model ? $2 : NaN):($9 / $3) with points lt 2 pt 6 ps 2.4 lw 1.5 \
         title has_model ? 'cost model' : ''
}

# the errors: simulated against measured, one line per algorithm, the +-10% band shaded
set title 'error = (simulated - measured) / measured'
unset logscale y
set ylabel 'error (%)'
set format y '%+.0f'
set yrange [*<-20:20<*]
set ylabel 'error (%)' 
set key inside top right
plot 10 with filledcurves y=-10 fs solid 0.15 noborder lc rgb '#999999' title '|error| <= 10%', \
     for [i = 1:n] csv skip 1 using (is(word(algos, i)) ? $2 : NaN):($10 * 100) \
       with linespoints lt i title word(algos, i)
unset multiplot
