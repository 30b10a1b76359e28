# SPDX-License-Identifier: MIT
# Noise absorption (mess absorb): per row, time per inner-loop iteration
# against the noise quantity k (log-log), one colour per noise mode, with
# the fitted three-phase model (flat, transient, line) drawn over the
# points; and, when SPMXV rows were measured, its performance and fp_add64
# and l1_ld64 absorption against the swapping probability q.
#
#   gnuplot -e "outdir='run/plots'; rows='stream-triad-c1 haccmk-n7690-c1'; \
#               modes='fp_add64 l1_ld64'; spseries='small-c1'; \
#               sphave='1 1'; plottitle='Xeon'" plots/absorb.gp
#
# outdir holds absorb.dat ("plot mode k time_ns spread_ns", plot and mode
# numbering the words of rows and modes from 0), absorb_model.dat ("plot
# mode k time_ns" at every integer k) and absorb_spmxv.dat (one index
# block per word of spseries: "q perf k1_fp_add64 k1_l1_ld64 lb_fp
# lb_l1"); sphave says with "1" or "0" whether the fp_add64 and l1_ld64
# columns hold any value.  Writes outdir/absorb-<row>.png/.svg and
# outdir/absorb-spmxv.png/.svg.

if (!exists("outdir")) outdir = '.'
if (!exists("rows")) rows = ''
if (!exists("modes")) modes = ''
if (!exists("spseries")) spseries = ''
if (!exists("sphave")) sphave = '1 1'
if (!exists("plottitle")) plottitle = ''

datafile = outdir.'/absorb.dat'
modelfile = outdir.'/absorb_model.dat'
spmxvfile = outdir.'/absorb_spmxv.dat'

# k on a log axis: the search doubles k, so its probes lie evenly; the
# baseline k = 0 sits at 0.5.
kx(k) = k == 0 ? 0.5 : k
# Noise modes differ by orders of magnitude (memory_ld64 costs a memory
# access per instruction): time is on a log axis too.

# One colour per noise mode, the same in every figure.
array modecolor[4] = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd']

set border 3 lw 1.2
set tics nomirror out
set grid xtics ytics back lt 1 lc rgb '#e4e4e4' lw 0.8
set key top left opaque box lc rgb '#cccccc'

do for [i=1:words(rows)] {
	id = word(rows, i)
	do for [fmt in "png svg"] {
		if (fmt eq 'png') {
			set terminal pngcairo size 1200,800 noenhanced font 'Sans,15' linewidth 1.2
		} else {
			set terminal svg size 1200,800 dynamic noenhanced font 'Sans,15' \
				linewidth 1.2 background rgb 'white'
		}
		set output outdir.'/absorb-'.id.'.'.fmt
		set title plottitle.': '.id font ',17'
		set xlabel 'noise instructions per iteration, k'
		set ylabel 'time per iteration [ns]'
		set xrange [0.4:*]
		set yrange [*:*]
		# The data's own range, not whole decades, with a margin.
		set autoscale yfix
		set offsets 0, 0, graph 0.05, graph 0.05
		set logscale xy
		set xtics 1, 2
		set mxtics 1
		set xtics add ('0' 0.5)
		plot for [m=1:words(modes)] datafile \
			using ($1 == i - 1 && $2 == m - 1 ? kx($3) : NaN):4:5 \
			with yerrorbars pt 7 ps 0.8 lc rgb modecolor[(m - 1) % 4 + 1] \
			title word(modes, m), \
		     for [m=1:words(modes)] modelfile \
			using ($1 == i - 1 && $2 == m - 1 ? kx($3) : NaN):4 \
			with lines lw 2 dt 2 lc rgb modecolor[(m - 1) % 4 + 1] notitle
		unset logscale
		set autoscale y
		set offsets 0, 0, 0, 0
		set xtics autofreq
		set mxtics default
		set output
	}
}

# SPMXV against q: performance, then the two absorptions the paper plots.
if (words(spseries) > 0) {
	do for [fmt in "png svg"] {
		if (fmt eq 'png') {
			set terminal pngcairo size 1800,600 noenhanced font 'Sans,14' linewidth 1.2
		} else {
			set terminal svg size 1800,600 dynamic noenhanced font 'Sans,14' \
				linewidth 1.2 background rgb 'white'
		}
		set output outdir.'/absorb-spmxv.'.fmt
		set multiplot layout 1,3 title plottitle.': SPMXV' font ',16'
		set xlabel 'swapping probability q'
		set xrange [-0.05:1.05]
		set yrange [0:*]
		# Headroom above the highest point: the key must not hide it.
		set offsets 0, 0, graph 0.35, 0
		set key top right
		set title 'performance'
		set ylabel 'GFLOP/s per core'
		plot for [s=1:words(spseries)] spmxvfile index s - 1 using 1:2 \
			with linespoints lw 2 pt 7 title word(spseries, s)
		set ylabel 'k1'
		do for [c=1:2] {
			col = c + 2
			set title word('fp_add64 l1_ld64', c).' absorption (open: lower bound)'
			if (word(sphave, c) eq '1') {
				set yrange [0:*]
				set key top right
				plot for [s=1:words(spseries)] spmxvfile index s - 1 \
					using 1:(column(col + 2) > 0 ? NaN : column(col)) \
					with linespoints lw 2 pt 7 lc s title word(spseries, s), \
				     for [s=1:words(spseries)] spmxvfile index s - 1 \
					using 1:(column(col + 2) > 0 ? column(col) : NaN) \
					with points pt 6 ps 1.5 lc s notitle
			} else {
				# Nothing to autoscale on: an empty panel that says so.
				set yrange [0:1]
				set key off
				set label 1 'not measured' at graph 0.5, graph 0.5 center
				plot 1/0 notitle
				unset label 1
			}
		}
		unset multiplot
		unset offsets
		set output
	}
}
