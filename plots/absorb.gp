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
# mode k time_ns" at every integer k), absorb_k1.dat ("plot mode k1
# time_ns": each decided k1 and the time there) and absorb_spmxv.dat (one index
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
# spleft: SPMXV entries measured but left out (a wide or unclear bracket).
if (!exists("spleft")) spleft = 0

datafile = outdir.'/absorb.dat'
modelfile = outdir.'/absorb_model.dat'
spmxvfile = outdir.'/absorb_spmxv.dat'

sd = ''; s = ARG0; i = strstrt(s, '/')
while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
load sd.'style.gp'
k1file = outdir.'/absorb_k1.dat'

# k on a log axis: the search doubles k, so its probes lie evenly; the
# baseline k = 0 sits at 0.5.
kx(k) = k == 0 ? 0.5 : k
# Noise modes differ by orders of magnitude (memory_ld64 costs a memory
# access per instruction): time is on a log axis too.

# One colour per noise mode, the same in every figure.
array modecolor[4] = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd']

# Below the axes, never over the points.
set key outside bottom center horizontal noenhanced maxrows 3

# One row's points: x and y both undefined for the other rows, so that
# the y range is this row's alone (0.3-300 ns was every row's).
sel(i, m) = ($1 == i - 1 && $2 == m - 1)

do for [i=1:words(rows)] {
	id = word(rows, i)
	do for [fmt in "png svg"] {
		if (fmt eq 'png') {
			eval(term_png(fig_w, fig_h, 'noenhanced'))
		} else {
			eval(term_svg(fig_w, fig_h, 'noenhanced'))
		}
		set output outdir.'/absorb-'.id.'.'.fmt
		set title fit(plottitle."\n".id, fig_w, fig_titlesize) font ','.fig_titlesize
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
		# A log axis labels its decades only: a row within one decade
		# would show one label or none.  Within a factor 3 the axis is
		# linear; else 1, 1.5, 2-9 (under a decade) or 1, 2, 5 labelled.
		stats datafile using ($1 == i - 1 ? $4 : 1e300) nooutput
		ylo = STATS_min
		stats datafile using ($1 == i - 1 ? $4 : -1e300) nooutput
		yhi = STATS_max
		set ytics autofreq
		if (ylo > 0 && yhi / ylo < 3) {
			unset logscale y
		} else {
			if (ylo > 0 && yhi / ylo < 100) {
				mant = yhi / ylo < 10 ? '1 1.5 2 3 4 5 6 7 8 9' : '1 2 5'
				do for [dec=floor(log10(ylo)):ceil(log10(yhi))] {
					do for [mm in mant] {
						v = real(mm) * 10.0**dec
						if (v >= ylo * 0.5 && v <= yhi * 2) {
							set ytics add (sprintf('%g', v) v)
						}
					}
				}
			}
		}
		# The model is fitted in linear time; on the log axis its line
		# can fall far below every point (3.5 ns where the data are
		# 10): drawn only where it stays within the mode's data, at or
		# above its fastest point, broken elsewhere.
		array tmin[words(modes)]
		do for [m=1:words(modes)] {
			stats datafile using (sel(i, m) ? $4 : 1e300) nooutput
			tmin[m] = STATS_min
		}
		# Per mode: the points, the fitted model and k1 (a square on
		# the point where the kernel stops absorbing; open: a lower
		# bound, nothing was slow).
		plot for [m=1:words(modes)] datafile \
			using (sel(i, m) ? kx($3) : NaN):(sel(i, m) ? $4 : NaN):5 \
			with yerrorbars pt 7 ps 0.8 lc rgb modecolor[(m - 1) % 4 + 1] \
			title word(modes, m), \
		     for [m=1:words(modes)] modelfile \
			using (sel(i, m) ? kx($3) : NaN):(sel(i, m) && $4 >= tmin[m] ? $4 : NaN) \
			with lines lw 2 dt 2 lc rgb modecolor[(m - 1) % 4 + 1] \
			title word(modes, m).' fit', \
		     for [m=1:words(modes)] k1file \
			using (sel(i, m) ? kx($3) : NaN):(sel(i, m) ? $4 : NaN) \
			with points pt 5 ps 2.2 lc rgb modecolor[(m - 1) % 4 + 1] \
			title word(modes, m).' k1'
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
			eval(term_png(1800, 600, 'noenhanced'))
		} else {
			eval(term_svg(1800, 600, 'noenhanced'))
		}
		set output outdir.'/absorb-spmxv.'.fmt
		# What is not drawn is said: an entry whose k1 bracket stayed
		# wide (or unclear) has no point, which is no absorption of 0.
		if (spleft > 0) {
			set label 9 sprintf('%d entr%s left out: k1 bracket wide or unclear (absorption_tables.csv has them)', \
				spleft, spleft == 1 ? 'y' : 'ies') at screen 0.5, screen 0.03 center
		}
		set multiplot layout 1,3 title fit(plottitle.": SPMXV", 1800, fig_titlesize) font ','.fig_titlesize margins 0.05, 0.98, 0.2, 0.82 spacing 0.06
		set xlabel 'swapping probability q'
		set xrange [-0.05:1.05]
		set yrange [0:*]
		# Headroom above the highest point: the key must not hide it.
		set offsets 0, 0, graph 0.35, 0
		set key inside top right
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
				set key inside top right
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
		unset label 9
		set output
	}
}
