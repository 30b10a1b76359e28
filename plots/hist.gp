# SPDX-License-Identifier: MIT
# Tail latency of a run (issue 25): left, the p99 family beside the mean
# family; right, one mix's latency histogram at idle, mid and maximum load.
#
#   gnuplot -e "tailfile='run/plots/tails.dat'; histfile='run/plots/hist.dat'; \
#               outbase='run/plots/tails'; histmix='0 % stores'; \
#               plottitle='CPU on host'; plotsub='date, cores, ...'" plots/hist.gp
#
# tailfile: index blocks (one per curve) of "bw_gbs lat_ns lat_p99_ns read_pct";
# histfile: three index blocks (idle, mid, max load) of
# "bin_mid_ns share_per_ns"
# (labels in hl0, hl1, hl2).  Writes outbase.png and outbase.svg.

sd = ''; s = ARG0; i = strstrt(s, '/')
while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
load sd.'style.gp'

if (!exists("tailfile")) tailfile = 'tails.dat'
if (!exists("histfile")) histfile = 'hist.dat'
if (!exists("outbase")) outbase = 'tails'
if (!exists("plottitle")) plottitle = ''
if (!exists("plotsub")) plotsub = ''
if (!exists("histmix")) histmix = ''
if (!exists("hl0")) hl0 = 'idle'
if (!exists("hl1")) hl1 = 'mid'
if (!exists("hl2")) hl2 = 'max load'
# histxmax > 0: the histograms' latency axis ends there (beyond: outliers).
if (!exists("histxmax")) histxmax = 0

stats tailfile using 1:3 nooutput
nblocks = STATS_blocks
fulltitle = plottitle.(plotsub eq '' ? '' : "\n".plotsub)

set palette defined (0 '#c6dbef', 50 '#4292c6', 100 '#08306b')
set cbrange [0:100]
unset colorbox

# Both panels, for each terminal.  The first curve's two lines carry the
# key ("mean", "p99"): one entry per statistic, not one per mix.
panels = "set multiplot layout 1,2 title fulltitle noenhanced font ','.fig_titlesize; \
set xlabel 'Memory bandwidth [GB/s]'; set ylabel 'Load-to-use latency [ns]'; \
unset logscale y; set format y '%g'; set xrange [0:*]; set yrange [0:*]; \
set key top left noenhanced; set title 'mean and p99 per point, every mix'; \
plot for [i=0:nblocks-1] tailfile index i using 1:2:4 with linespoints \
  lc palette lw 1.5 pt 7 ps 0.5 title (i == 0 ? 'mean' : ''), \
  for [i=0:nblocks-1] tailfile index i using 1:3:4 with linespoints \
  lc palette lw 1.5 dt (6,4) pt 6 ps 0.5 title (i == 0 ? 'p99' : ''); \
set title 'latency histogram, '.histmix noenhanced; \
set xlabel 'Latency per load [ns]'; set ylabel 'Share of loads per ns'; \
set logscale y; set format y '10^{%L}'; set yrange [*:*]; \
if (histxmax > 0) { set xrange [0:histxmax] } else { set xrange [0:*] }; \
set key top right noenhanced; \
plot histfile index 0 using 1:2 with points pt 7 ps 0.45 lc rgb '#9ecae1' title hl0, \
  histfile index 1 using 1:2 with points pt 7 ps 0.45 lc rgb '#4292c6' title hl1, \
  histfile index 2 using 1:2 with points pt 7 ps 0.45 lc rgb '#08306b' title hl2; \
unset multiplot"

eval(term_png(1600, 700, 'enhanced'))
set output outbase.'.png'
eval(panels)
eval(term_svg(1600, 700, 'enhanced'))
set output outbase.'.svg'
eval(panels)
set output
