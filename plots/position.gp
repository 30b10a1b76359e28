# SPDX-License-Identifier: MIT
# mess position: an application's intervals on a curve family.  The
# family's curves in grey, each interval a point at its bandwidth and the
# latency the curve model gives there, coloured by the time it ended.
#
#   gnuplot -e "rundir='pos'; plottitle='app on SPR'; unloaded=115.2" plots/position.gp
#
# rundir holds position.csv (t_end_s first, bw_gbs 5th, lat_ns 7th,
# beyond_max 11th column; an empty latency is skipped) and
# plots/position_curves.dat (one block per curve of "bw_gbs,lat_ns,read_pct").
# unloaded <= 0 draws no saturation line.  beyond > 0 intervals past the
# curves' maximum (curvemax GB/s) are drawn apart, open, with a key: their
# latency is extrapolated.  Writes rundir/plots/position.png and .svg.

if (!exists("rundir")) rundir = '.'
if (!exists("plottitle")) plottitle = ''
if (!exists("unloaded")) unloaded = 0
if (!exists("beyond")) beyond = 0
if (!exists("curvemax")) curvemax = 0

sd = ''; s = ARG0; i = strstrt(s, '/')
while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
load sd.'style.gp'

set datafile separator ','
curves = rundir.'/plots/position_curves.dat'
points = rundir.'/position.csv'

stats curves using 1:2 nooutput
nblocks = STATS_blocks
ytop = STATS_max_y
xtop = STATS_max_x
stats points every ::1 using 5:7 nooutput
if (STATS_max_y > ytop) ytop = STATS_max_y
if (STATS_max_x > xtop) xtop = STATS_max_x
if (unloaded > 0 && 2 * unloaded > ytop) ytop = 2 * unloaded

eval(term_png(1200, 800, 'enhanced'))
set output rundir.'/plots/position.png'

set title fit(plottitle, 1200, fig_titlesize) noenhanced font ','.fig_titlesize
set xlabel 'Memory bandwidth [GB/s]'
set ylabel 'Load-to-use latency (curve model) [ns]'
set xrange [0:xtop * 1.04]
set yrange [0:ytop * 1.06]
set key off

# Sequential, dark = early, yellow = late (viridis stops).
set palette defined (0 '#440154', 1 '#3b528b', 2 '#21918c', 3 '#5ec962', 4 '#fde725')
set cblabel 'interval end [s]'
set colorbox vertical user origin graph 1.02, graph 0.1 size character 1.5, graph 0.8

if (unloaded > 0) {
	set arrow 1 from graph 0, first 2 * unloaded to graph 1, \
		first 2 * unloaded nohead back dt (2,4) lw 1.2 lc rgb '#999999'
	set label 1 sprintf('2x unloaded %.0f ns (saturation)', 2 * unloaded) \
		at graph 0.01, first 2 * unloaded left offset 0,0.7 \
		tc rgb '#777777' font ',12'
}

set rmargin 14
# Past the curves' maximum no latency was measured: those intervals are
# open rings, keyed, and the maximum a dashed line, so that an
# extrapolated point never reads as a measured one.
if (beyond > 0) {
	set key top left opaque box
	set arrow 2 from first curvemax, graph 0 to first curvemax, graph 1 \
		nohead back dt (6,4) lw 1.2 lc rgb '#c0392b'
	# Left of the line where the line stands right of the middle: on
	# its right the colour box beside the plot cut the label.
	if (curvemax > 0.5 * xtop * 1.04) {
		set label 2 sprintf('the curves'' maximum, %.1f GB/s', curvemax) \
			at first curvemax, graph 0.6 right offset -0.7,0 \
			tc rgb '#c0392b' font ',12' front boxed
	} else {
		set label 2 sprintf('the curves'' maximum, %.1f GB/s', curvemax) \
			at first curvemax, graph 0.6 left offset 0.7,0 \
			tc rgb '#c0392b' font ',12' front boxed
	}
}
plot for [i=0:nblocks-1] curves index i using 1:2 \
	with lines lc rgb '#b4b4b4' lw 1.4 notitle, \
	points every ::1 using 5:(column(11) > 0 ? NaN : $7):1 \
	with points pt 7 ps 1.3 lc palette \
	title (beyond > 0 ? 'within the measured range (curve model)' : ''), \
	points every ::1 using 5:(column(11) > 0 ? $7 : NaN):1 \
	with points pt 6 ps 1.8 lw 2 lc palette \
	title (beyond > 0 ? sprintf('%d beyond the maximum: latency extrapolated', beyond) : '')

eval(term_svg(1200, 800, 'enhanced'))
set output rundir.'/plots/position.svg'
replot
set output
