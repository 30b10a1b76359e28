# SPDX-License-Identifier: MIT
# Tail latency of a run (issue 25): left, the p99 family beside the mean
# family; right, one mix's latency histogram at idle, mid and maximum load.
#
#   gnuplot -e "tailfile='run/plots/tails.dat'; histfile='run/plots/hist.dat'; \
#               outbase='run/plots/tails'; histmix='0 % stores'; \
#               plottitle='...'" plots/hist.gp
#
# tailfile: index blocks (one per curve) of "bw_gbs lat_ns lat_p99_ns read_pct";
# histfile: three index blocks (idle, mid, max load) of
# "bin_mid_ns share_per_ns"
# (labels in hl0, hl1, hl2).  Writes outbase.png and outbase.svg.

if (!exists("tailfile")) tailfile = 'tails.dat'
if (!exists("histfile")) histfile = 'hist.dat'
if (!exists("outbase")) outbase = 'tails'
if (!exists("plottitle")) plottitle = ''
if (!exists("histmix")) histmix = ''
if (!exists("hl0")) hl0 = 'idle'
if (!exists("hl1")) hl1 = 'mid'
if (!exists("hl2")) hl2 = 'max load'
# histxmax > 0: the histograms' latency axis ends there (beyond: outliers).
if (!exists("histxmax")) histxmax = 0

stats tailfile using 1:3 nooutput
nblocks = STATS_blocks

set terminal pngcairo size 1600,700 enhanced font 'Sans,14' linewidth 1.2
set output outbase.'.png'
set multiplot layout 1,2 title plottitle noenhanced font ',16'

set xlabel 'Memory bandwidth [GB/s]'
set ylabel 'Load-to-use latency [ns]'
set xrange [0:*]
set yrange [0:*]
set border 3 lw 1.2
set tics nomirror out
set grid xtics ytics back lt 1 lc rgb '#e4e4e4' lw 0.8
set palette defined (0 '#c6dbef', 50 '#4292c6', 100 '#08306b')
set cbrange [0:100]
unset colorbox
set key top left
set title 'mean (solid) and p99 (dashed)'
plot for [i=0:nblocks-1] tailfile index i using 1:2:4 with linespoints \
	lc palette lw 1.5 pt 7 ps 0.5 notitle, \
     for [i=0:nblocks-1] tailfile index i using 1:3:4 with linespoints \
	lc palette lw 1.5 dt (6,4) pt 6 ps 0.5 notitle

set title 'latency histogram, '.histmix noenhanced
set xlabel 'Latency per load [ns]'
set ylabel 'Share of loads per ns'
set logscale y
set yrange [*:*]
if (histxmax > 0) { set xrange [0:histxmax] } else { set xrange [0:*] }
set key top right
plot histfile index 0 using 1:2 with points pt 7 ps 0.45 lc rgb '#9ecae1' title hl0, \
     histfile index 1 using 1:2 with points pt 7 ps 0.45 lc rgb '#4292c6' title hl1, \
     histfile index 2 using 1:2 with points pt 7 ps 0.45 lc rgb '#08306b' title hl2
unset multiplot

set terminal svg size 1600,700 dynamic enhanced font 'Sans,14' \
	linewidth 1.2 background rgb 'white'
set output outbase.'.svg'
set multiplot layout 1,2 title plottitle noenhanced font ',16'
unset logscale y
set xrange [0:*]
set xlabel 'Memory bandwidth [GB/s]'
set ylabel 'Load-to-use latency [ns]'
set yrange [0:*]
set title 'mean (solid) and p99 (dashed)'
plot for [i=0:nblocks-1] tailfile index i using 1:2:4 with linespoints \
	lc palette lw 1.5 pt 7 ps 0.5 notitle, \
     for [i=0:nblocks-1] tailfile index i using 1:3:4 with linespoints \
	lc palette lw 1.5 dt (6,4) pt 6 ps 0.5 notitle
set title 'latency histogram, '.histmix noenhanced
set xlabel 'Latency per load [ns]'
set ylabel 'Share of loads per ns'
set logscale y
set yrange [*:*]
if (histxmax > 0) { set xrange [0:histxmax] } else { set xrange [0:*] }
plot histfile index 0 using 1:2 with points pt 7 ps 0.45 lc rgb '#9ecae1' title hl0, \
     histfile index 1 using 1:2 with points pt 7 ps 0.45 lc rgb '#4292c6' title hl1, \
     histfile index 2 using 1:2 with points pt 7 ps 0.45 lc rgb '#08306b' title hl2
unset multiplot
set output
