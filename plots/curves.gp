# SPDX-License-Identifier: MIT
# Bandwidth-latency curve family, as in the Mess paper: one line per
# memory read share, one hue per share over the shares measured, each
# labelled at its highest bandwidth; points that still break a rule ringed.
#
#   gnuplot -e "datafile='run/plots/curves.dat'; outbase='run/plots/curves'; \
#               unloaded=115.2; peak=307.2; plottitle='SPR 8480+ DDR5'; \
#               plotsub='host, date, cores'" plots/curves.gp
#
# datafile: index blocks (one per curve) of "bw_gbs lat_ns read_pct
# store_pct flagged"; writes outbase.png and outbase.svg.  unloaded <= 0
# draws no unloaded line, peak <= 0 no theoretical-peak line.

if (!exists("datafile")) datafile = 'curves.dat'
if (!exists("outbase")) outbase = 'curves'
if (!exists("unloaded")) unloaded = 0
if (!exists("peak")) peak = 0
if (!exists("plottitle")) plottitle = ''
if (!exists("plotsub")) plotsub = ''

sd = ''; s = ARG0; i = strstrt(s, '/')
while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
load sd.'style.gp'

stats datafile using 1:2 nooutput
nblocks = STATS_blocks
ytop = STATS_max_y
xtop = STATS_max_x
if (unloaded > 0 && 2 * unloaded > ytop) ytop = 2 * unloaded
if (peak > xtop) xtop = peak

# Per curve: its read share, and the point of its highest bandwidth, where
# its label goes.
array rs[nblocks]
array lx[nblocks]
array ly[nblocks]
do for [b=0:nblocks-1] {
	stats datafile index b using 1:3 nooutput
	rs[b+1] = STATS_min_y
	lx[b+1] = STATS_max_x
	imax = STATS_index_max_x
	stats datafile index b using 2 every ::imax::imax nooutput
	ly[b+1] = STATS_max
}
stats datafile using 5 nooutput
nflagged = STATS_sum
rmin = rs[1]; rmax = rs[1]
do for [b=2:nblocks] { if (rs[b] < rmin) { rmin = rs[b] }; if (rs[b] > rmax) { rmax = rs[b] } }
if (rmax - rmin < 1) { rmin = rmin - 1; rmax = rmax + 1 }
share(r) = r == r ? sprintf('%.0f %% read', r) : 'read share unknown'

set title plottitle.(plotsub eq '' ? '' : "\n".plotsub) noenhanced font ','.fig_titlesize
set xlabel 'Memory bandwidth [GB/s]'
set ylabel 'Load-to-use latency [ns]'
set xrange [0:xtop * 1.08]
set yrange [0:ytop * 1.08]
set mxtics 2
set mytics 2
set key outside bottom center horizontal noenhanced maxrows 2

# A multi-hue sequential map (plasma, without its palest yellow) over the
# shares measured, not over 0-100 %: the curves of 50-100 % reads differ.
set palette defined (0 '#0d0887', 1 '#6a00a8', 2 '#b12a90', 3 '#e16462', 4 '#f2844b')
set cbrange [rmin:rmax]
unset colorbox

if (unloaded > 0) {
	set arrow 1 from graph 0, first unloaded to graph 1, first unloaded \
		nohead back dt (8,5) lw 1.5 lc rgb '#555555'
	set label 1 sprintf('unloaded %.0f ns', unloaded) \
		at graph 0.01, first unloaded left offset 0,-0.9 \
		tc rgb '#444444' font ',13' front boxed
	set arrow 2 from graph 0, first 2 * unloaded to graph 1, \
		first 2 * unloaded nohead back dt (2,4) lw 1.2 lc rgb '#777777'
	set label 2 sprintf('2× unloaded: %.0f ns (saturation)', 2 * unloaded) \
		at graph 0.01, first 2 * unloaded left offset 0,0.9 \
		tc rgb '#333333' font ',13' front boxed
}
if (peak > 0) {
	set arrow 3 from first peak, graph 0 to first peak, graph 1 \
		nohead back dt (6,3) lw 1.5 lc rgb '#2c7fb8'
	set label 3 sprintf('theoretical peak %.0f GB/s', peak) \
		at first peak, graph 0.98 right offset -0.5,0 \
		tc rgb '#2c7fb8' font ',13' front boxed
}

# Each curve's share at its highest bandwidth (labels, not a plot: every
# series drawn has a name, which the SVG keeps as its <title>).
do for [b=1:nblocks] {
	tag = 10 + b
	txt = rs[b] == rs[b] ? sprintf('%.0f%%', rs[b]) : '?'
	set label tag txt at first lx[b], first ly[b] left offset 0.6,0.4 font ',12' \
		tc palette cb rs[b] front
}

fig = "plot for [i=0:nblocks-1] datafile index i using 1:2:3 with linespoints lc palette cb rs[i+1] lw 1.8 pt 7 ps 0.6 title share(rs[i+1])". \
      (nflagged > 0 ? ", datafile using 1:($5 > 0 ? $2 : NaN) with points pt 6 ps 1.8 lw 1.5 lc rgb '#d62728' title 'flagged: still breaks a rule'" : "")

eval(term_png(fig_w, fig_h, 'enhanced'))
set output outbase.'.png'
eval(fig)
eval(term_svg(fig_w, fig_h, 'enhanced'))
set output outbase.'.svg'
eval(fig)
set output
