# SPDX-License-Identifier: MIT
# Tail latency of a run (issue 25): left, the p99 family beside the mean
# family, one hue per mix with its store % in the key; right, one mix's
# latency histogram at its lowest, mid and highest bandwidth, told apart
# by marker and dash in a hue of their own.  A point
# whose distribution disagrees with its mean (flagged dist_disagrees: a
# p99 below the mean, or a window off the point) has its p99 drawn apart,
# hollow and grey, and the key says so: never a p99 below the mean
# without a word.
#
#   gnuplot -e "tailfile='run/plots/tails.dat'; histfile='run/plots/hist.dat'; \
#               outbase='run/plots/tails'; histmix='0 % stores'; \
#               plottitle='CPU on host'; plotsub='date, cores, ...'" plots/hist.gp
#
# tailfile: index blocks (one per curve, store % rising) of "bw_gbs lat_ns
# lat_p99_ns read_pct store_pct disagrees" (store_pct -1: unknown;
# disagrees 1: flagged dist_disagrees);
# histfile: three index blocks (lowest, mid, highest bandwidth) of
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
if (!exists("hl0")) hl0 = 'lowest bandwidth'
if (!exists("hl1")) hl1 = 'mid'
if (!exists("hl2")) hl2 = 'highest bandwidth'
# histxmax > 0: the histograms' latency axis ends there (beyond: outliers).
if (!exists("histxmax")) histxmax = 0

stats tailfile using 1:3 nooutput
nblocks = STATS_blocks
fulltitle = plottitle.(plotsub eq '' ? '' : "\n".plotsub)
array tst[nblocks]
do for [b=0:nblocks-1] {
	stats tailfile index b using 5 nooutput
	tst[b+1] = STATS_max
}
stats tailfile using 6 nooutput
ndis = STATS_sum
mixname(b) = tst[b] >= 0 ? sprintf('%.0f %% stores', tst[b]) : 'store % unknown'

# The curve figure's hues (plasma along the store order), one per mix.
set palette defined (0 '#0d0887', 1 '#6a00a8', 2 '#b12a90', 3 '#e16462', 4 '#f2844b')
set cbrange [0:(nblocks > 1 ? nblocks - 1 : 1)]
unset colorbox
grey = '#9a9a9a'
hteal = '#00796b'

do for [fmt in "png svg"] {
	if (fmt eq 'png') {
		eval(term_png(1600, 760, 'enhanced'))
	} else {
		eval(term_svg(1600, 760, 'enhanced'))
	}
	set output outbase.'.'.fmt
	# Room under both panels for the left one's key.
	set multiplot layout 1,2 title fit(fulltitle, 1600, fig_titlesize) noenhanced font ','.fig_titlesize \
		margins 0.07, 0.98, 0.30, 0.86 spacing 0.09
	set xlabel 'Memory bandwidth [GB/s]'
	set ylabel 'Load-to-use latency [ns]'
	unset logscale y
	set format y '%g'
	set xrange [0:*]
	set yrange [0:*]
	# The key below the panels: a mix per colour, then what solid,
	# dashed and hollow grey mean, in columns of five rows (one
	# column ran off the figure at 60 % stores on eleven mixes).
	set key at screen 0.07, screen 0.17 left top vertical maxrows 5 reverse Left noenhanced samplen 2 font ',12'
	set title 'mean (solid) and p99 (dashed) per point, every mix'
	plot for [i=0:nblocks-1] tailfile index i using 1:2 with linespoints \
		lc palette cb i lw 1.5 pt 7 ps 0.5 title mixname(i + 1), \
	     for [i=0:nblocks-1] tailfile index i using 1:($6 > 0 ? NaN : $3) \
		with linespoints lc palette cb i lw 1.5 dt (6,4) pt 6 ps 0.5 notitle, \
	     NaN with lines lc rgb 'black' lw 1.5 title 'mean', \
	     NaN with lines lc rgb 'black' lw 1.5 dt (6,4) title 'p99', \
	     tailfile using 1:($6 > 0 ? $3 : NaN) with points pt 6 ps 1.2 lw 1.5 \
		lc rgb grey title (ndis > 0 ? sprintf('p99 not trusted: %d flagged dist_disagrees', int(ndis)) : '')
	set title 'latency histogram, '.histmix noenhanced
	set xlabel 'Latency per load [ns]'
	set ylabel 'Share of loads per ns'
	set logscale y
	set format y '10^{%L}'
	set yrange [*:*]
	if (histxmax > 0) { set xrange [0:histxmax] } else { set xrange [0:*] }
	set key inside top right noenhanced maxrows 3 font ',12'
	# Bandwidth by marker and dash in one teal, no mix's hue: a hue
	# means a mix on the left panel, so never a bandwidth here.
	plot histfile index 0 using 1:2 with linespoints pt 6 ps 0.6 dt (2,3) lc rgb hteal title hl0, \
	     histfile index 1 using 1:2 with linespoints pt 4 ps 0.6 dt (6,4) lc rgb hteal title hl1, \
	     histfile index 2 using 1:2 with linespoints pt 7 ps 0.6 lc rgb hteal title hl2
	unset multiplot
	set output
}
