# SPDX-License-Identifier: MIT
# Bandwidth-latency curve family, as in the Mess paper: one line per
# memory read share, lighter with more writes.
#
#   gnuplot -e "datafile='run/plots/curves.dat'; outbase='run/plots/curves'; \
#               unloaded=115.2; plottitle='SPR 8480+ DDR5'" plots/curves.gp
#
# datafile: index blocks (one per curve) of "bw_gbs lat_ns read_pct store_pct";
# writes outbase.png and outbase.svg.  unloaded <= 0 draws no unloaded line.

if (!exists("datafile")) datafile = 'curves.dat'
if (!exists("outbase")) outbase = 'curves'
if (!exists("unloaded")) unloaded = 0
if (!exists("plottitle")) plottitle = ''

stats datafile using 1:2 nooutput
nblocks = STATS_blocks
ytop = STATS_max_y
if (unloaded > 0 && 2 * unloaded > ytop) ytop = 2 * unloaded

set terminal pngcairo size 1200,800 enhanced font 'Sans,15' linewidth 1.2
set output outbase.'.png'

set title plottitle noenhanced font ',17'
set xlabel 'Memory bandwidth [GB/s]'
set ylabel 'Load-to-use latency [ns]'
set xrange [0:*]
set yrange [0:ytop * 1.06]
set border 3 lw 1.2
set tics nomirror out
set mxtics 2
set mytics 2
set grid xtics ytics back lt 1 lc rgb '#e4e4e4' lw 0.8
set key off

# ColorBrewer "Blues": sequential, light = write-heavy, dark = all reads.
set palette defined (0 '#c6dbef', 25 '#9ecae1', 50 '#4292c6', \
		     75 '#2171b5', 100 '#08306b')
set cbrange [0:100]
set cbtics 20
set cblabel 'memory read share [%]'
set colorbox vertical user origin graph 1.02, graph 0.1 size character 1.5, graph 0.8

if (unloaded > 0) {
	set arrow 1 from graph 0, first unloaded to graph 1, first unloaded \
		nohead back dt (8,5) lw 1.5 lc rgb '#555555'
	set label 1 sprintf('unloaded %.0f ns', unloaded) \
		at graph 0.99, first unloaded right offset 0,-0.9 \
		tc rgb '#444444' font ',13'
	set arrow 2 from graph 0, first 2 * unloaded to graph 1, \
		first 2 * unloaded nohead back dt (2,4) lw 1.2 lc rgb '#999999'
	set label 2 sprintf('2x unloaded %.0f ns (saturation)', 2 * unloaded) \
		at graph 0.01, first 2 * unloaded left offset 0,0.7 \
		tc rgb '#777777' font ',12'
}

set rmargin 12
plot for [i=0:nblocks-1] datafile index i using 1:2:3 \
	with linespoints lc palette lw 1.6 pt 7 ps 0.55 notitle

set terminal svg size 1200,800 dynamic enhanced font 'Sans,15' \
	linewidth 1.2 background rgb 'white'
set output outbase.'.svg'
replot
set output
