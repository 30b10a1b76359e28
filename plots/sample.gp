# SPDX-License-Identifier: MIT
# Sampling studies (mess sample): accuracy and overhead against the
# sampling period and against the aux buffer pages, one colour per thread
# count; the losses (aux collisions, lost records, throttling) against the
# period; the latency histograms per level of the point with the most
# latencies.
#
#   gnuplot -e "outdir='run/plots'; backend='spe'; unit='ops'; perth='1 80'; \
#               auxth='1 80'; levels='L1 L2 DRAM'" plots/sample.gp
#
# outdir holds period.dat and aux.dat (one index block per word of perth /
# auxth: "x accuracy overhead_pct spread_pct collisions lost throttled")
# and latency.dat (one index block per word of levels: "lat_lo samples").
# Writes outdir/sample-period, sample-aux (when auxth is not empty),
# sample-losses and sample-latency (when levels is not empty), .png/.svg.

if (!exists("outdir")) outdir = '.'
if (!exists("backend")) backend = ''
if (!exists("unit")) unit = 'ops'
if (!exists("perth")) perth = ''
if (!exists("auxth")) auxth = ''
if (!exists("levels")) levels = ''
# 0: no point lost anything, and the all-zero losses figure is not drawn.
if (!exists("losses")) losses = 1

sd = ''; s = ARG0; i = strstrt(s, '/')
while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
load sd.'style.gp'

array col[6] = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b']

set key top right opaque box lc rgb '#cccccc'
# Periods as 1k, 10M, not 1e+06.
set format x '%.0s%c'


do for [s = 1:2] {
	file = s == 1 ? 'period.dat' : 'aux.dat'
	ths = s == 1 ? perth : auxth
	xl = s == 1 ? 'sampling period ['.unit.']' : 'aux buffer [pages]'
	name = s == 1 ? 'sample-period' : 'sample-aux'
	if (words(ths) > 0) {
		do for [fmt in "png svg"] {
			if (fmt eq 'png') {
				eval(term_png(fig_w, 1000, 'noenhanced'))
			} else {
				eval(term_svg(fig_w, 1000, 'noenhanced'))
			}
			set output outdir.'/'.name.'.'.fmt
			set multiplot layout 2,1 title backend.': accuracy and overhead' font ','.fig_titlesize
			set logscale x
			set xlabel xl
			set ylabel 'accuracy (eq. 1)'
			set yrange [*:*]
			plot for [i=1:words(ths)] outdir.'/'.file index (i - 1) using 1:2 \
				with linespoints pt 7 lc rgb col[(i - 1) % 6 + 1] \
				title word(ths, i).' thread(s)'
			set ylabel 'overhead [%] (median, bar: spread)'
			plot for [i=1:words(ths)] outdir.'/'.file index (i - 1) using 1:3:($3 - $4 / 2):($3 + $4 / 2) \
				with yerrorlines pt 7 lc rgb col[(i - 1) % 6 + 1] \
				title word(ths, i).' thread(s)'
			unset multiplot
			unset logscale x
		}
	}
}

if (words(perth) > 0 && losses) {
	do for [fmt in "png svg"] {
		if (fmt eq 'png') {
			eval(term_png(fig_w, fig_h, 'noenhanced'))
		} else {
			eval(term_svg(fig_w, fig_h, 'noenhanced'))
		}
		set output outdir.'/sample-losses.'.fmt
		set title backend.': losses against the period' font ','.fig_titlesize
		set logscale x
		set xlabel 'sampling period ['.unit.']'
		set ylabel 'records (all runs of the point)'
		plot for [i=1:words(perth)] outdir.'/period.dat' index (i - 1) using 1:5 \
			with linespoints pt 7 lc rgb col[(i - 1) % 6 + 1] title 'collisions, '.word(perth, i).' thr', \
		     for [i=1:words(perth)] outdir.'/period.dat' index (i - 1) using 1:6 \
			with linespoints pt 5 dt 2 lc rgb col[(i - 1) % 6 + 1] title 'lost, '.word(perth, i).' thr', \
		     for [i=1:words(perth)] outdir.'/period.dat' index (i - 1) using 1:7 \
			with linespoints pt 9 dt 3 lc rgb col[(i - 1) % 6 + 1] title 'throttled, '.word(perth, i).' thr'
		unset logscale x
	}
}

if (words(levels) > 0) {
	do for [fmt in "png svg"] {
		if (fmt eq 'png') {
			eval(term_png(fig_w, fig_h, 'noenhanced'))
		} else {
			eval(term_svg(fig_w, fig_h, 'noenhanced'))
		}
		set output outdir.'/sample-latency.'.fmt
		set title backend.': sampled latency per level' font ','.fig_titlesize
		set logscale x 2
		set format x '%g'
		set xlabel 'latency [cycles] (bins from 2^k)'
		set ylabel 'samples'
		plot for [i=1:words(levels)] outdir.'/latency.dat' index (i - 1) using 1:2 \
			with linespoints pt 7 lc rgb col[(i - 1) % 6 + 1] title word(levels, i)
		unset logscale x
	}
}
