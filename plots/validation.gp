# validation.gp: measured vs simulated (vs cost model) allreduce time over size, one panel
# per algorithm, and the errors of all of them in a last panel, from results/validation.csv
# (simcalib validate --csv).
# gnuplot -e "fmt='png'; out='plots/out/validation'; csv='results/validation.csv'; title='...'" plots/validation.gp
# (plots/plot.sh validation does this, for png and svg)
if (!exists("fmt")) fmt = 'png'
if (!exists("out")) out = 'plots/out/validation'
if (!exists("csv")) csv = 'results/validation.csv'
if (!exists("title")) title = 'local testbed'

if (fmt eq 'svg') {
  set terminal svg size 1400,1400 noenhanced font 'DejaVu Sans,11' background rgb 'white'
} else {
  set terminal pngcairo size 1400,1400 noenhanced font 'DejaVu Sans,11'
}
set output out.'.'.fmt
set datafile separator ','
set datafile missing ''
set key top left
set logscale xy
set grid xtics ytics mxtics mytics lc rgb '#dddddd'
set xlabel 'size per rank (bytes)'
set ylabel 'time (ms)'
# sizes in bytes as nccl-tests writes them: a tick at every power of two, labelled 1K, 2K, ...
# 1M, ... 1G (powers of 1024, as the sizes are given)
size_label(x) = x >= 2**30 ? sprintf('%dG', x / 2**30) : x >= 2**20 ? sprintf('%dM', x / 2**20) : \
                x >= 2**10 ? sprintf('%dK', x / 2**10) : sprintf('%d', x)
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
do for [i = 1:n] {
  a = word(algos, i)
  set title a
  if (has_model) {
    plot csv skip 1 using (is(a) ? $2 : NaN):($3 * 1e3):($4 * 1e3):($5 * 1e3) \
           with yerrorbars pt 7 ps 1.2 lc rgb '#1f77b4' title 'measured (median, IQR)', \
         '' skip 1 using (is(a) ? $2 : NaN):($8 * 1e3) with linespoints pt 5 lc rgb '#d62728' title 'simulated', \
         '' skip 1 using (is(a) ? $2 : NaN):($9 * 1e3) with linespoints dt 2 pt 9 lc rgb '#2ca02c' title 'cost model'
  } else {
    plot csv skip 1 using (is(a) ? $2 : NaN):($3 * 1e3):($4 * 1e3):($5 * 1e3) \
           with yerrorbars pt 7 ps 1.2 lc rgb '#1f77b4' title 'measured (median, IQR)', \
         '' skip 1 using (is(a) ? $2 : NaN):($8 * 1e3) with linespoints pt 5 lc rgb '#d62728' title 'simulated'
  }
}

# the errors: simulated against measured, one line per algorithm, the +-10% band shaded
set title 'error = (simulated - measured) / measured'
unset logscale y
set ylabel 'error (%)'
set format y '%+.0f'
set yrange [*<-20:20<*]
set key top right
plot 10 with filledcurves y=-10 fs solid 0.15 noborder lc rgb '#999999' title '|error| <= 10%', \
     for [i = 1:n] csv skip 1 using (is(word(algos, i)) ? $2 : NaN):($10 * 100) \
       with linespoints pt (4 + i) lw 1.5 title word(algos, i)
unset multiplot
