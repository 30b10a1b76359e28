# SPDX-License-Identifier: MIT
# mess compare: compare.png overlays every set's curves on the same axes
# (one hue per set, lighter for fewer reads); compare-ratio.png shows each
# set's latency over the first set's at the same bandwidth, one line per
# read share, up to the lower of the two maximum bandwidths.
#
#   gnuplot -e "datafile='c/plots/compare.dat'; ratiofile='c/plots/compare-ratio.dat'; \
#               outbase='c/plots/compare'; nsets=2; label1='DDR5'; label2='HBM'" \
#           plots/compare.gp
#
# datafile: index blocks (one per curve) of "bw_gbs lat_ns read_pct set";
# ratiofile: blocks of "bw_gbs ratio read_pct set last" (set >= 1, 0-based;
# last is 1 on the row that carries the read-share label).
# Writes outbase.png/.svg and outbase-ratio.png/.svg.

if (!exists("datafile")) datafile = 'compare.dat'
if (!exists("ratiofile")) ratiofile = 'compare-ratio.dat'
if (!exists("outbase")) outbase = 'compare'
if (!exists("nsets")) nsets = 2
# plotsets: every set with its verdict, the titles' last line.
if (!exists("plotsets")) plotsets = ''

sd = ''; s = ARG0; i = strstrt(s, '/')
while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
load sd.'style.gp'

# Per set the dark end of a ColorBrewer sequential palette (Blues, Oranges,
# Greens, Purples, Reds, Greys, then browns and teals), mixed with white
# for fewer reads: 35 % of the hue at 0 % reads, all of it at 100 %.
array dark[8] = [0x08519c, 0xd94801, 0x238b45, 0x6a51a3, 0xcb181d, 0x252525, 0x8c510a, 0x01665e]
chan(c, s, t) = int(255 - (255 - ((c >> s) & 255)) * t)
shade(c, t) = (chan(c, 16, t) << 16) + (chan(c, 8, t) << 8) + chan(c, 0, t)
col(set, r) = shade(dark[int(set) + 1], 0.35 + 0.65 * r / 100)
label(i) = exists(sprintf('label%d', i)) ? value(sprintf('label%d', i)) : sprintf('set %d', i)

set mxtics 2
set mytics 2
# The key beside the plot, below it, with no box (a box drew over the
# axis label): inside, its opaque box hid the
# curves of the first set that rise at the left (issue 46).
set key outside bottom center horizontal noenhanced

# ---- overlay ----
stats datafile using 1:2 nooutput
nblocks = STATS_blocks
eval(term_png(1200, 800, 'enhanced'))
set output outbase.'.png'
set title fit("Bandwidth-latency curves on the same axes (lighter: fewer reads)\n".plotsets, 1200, fig_titlesize) noenhanced font ','.fig_titlesize
set xlabel 'Memory bandwidth [GB/s]'
set ylabel 'Load-to-use latency [ns]'
set xrange [0:*]
set yrange [0:*]
plot for [i=0:nblocks-1] datafile index i using 1:2:(col($4, $3)) \
	with linespoints lc rgb variable lw 1.3 pt 7 ps 0.4 notitle, \
     for [s=1:nsets] NaN with linespoints lc rgb dark[s] lw 3 pt 7 title shorten(label(s), 60)
eval(term_svg(1200, 800, 'enhanced'))
set output outbase.'.svg'
replot
set output

# ---- latency ratio ----
stats ratiofile using 1:2 nooutput
rblocks = STATS_blocks
set title fit(sprintf("Latency over %s's at the same bandwidth\none line per read share (lighter: fewer reads), labelled at its end where a label fits, up to the lower maximum bandwidth\n%s", label(1), plotsets), 1200, 16) noenhanced font ',16'
set ylabel sprintf('latency / latency of %s', label(1)) noenhanced
set yrange [0:*]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead back dt (8,5) lw 1.5 lc rgb '#555555'
set offsets 0, graph 0.06, 0, 0
keyfig = 'for [s=2:nsets] NaN with lines lc rgb dark[s] lw 3 title sprintf("%s / %s", shorten(label(s), 44), shorten(label(1), 44))'
# The axes in pixels, from a first drawing nowhere, to place the end
# labels: each line's at its highest bandwidth, left out where it would
# overlap one placed before (lines of many sets end at the same
# bandwidth and ratio: their labels were drawn over each other).
eval(term_svg(1200, 800, 'enhanced'))
set output '/dev/null'
plot for [i=0:rblocks-1] ratiofile index i using 1:2 with lines notitle, @keyfig
set output
xpx = (GPVAL_X_MAX - GPVAL_X_MIN) / (GPVAL_TERM_XMAX - GPVAL_TERM_XMIN)
ypx = (GPVAL_Y_MAX - GPVAL_Y_MIN) / (GPVAL_TERM_YMAX - GPVAL_TERM_YMIN)
array ex[rblocks]
array ey[rblocks]
array er[rblocks]
array keep[rblocks]
do for [b=0:rblocks-1] {
	stats ratiofile index b using 1:2 nooutput
	ex[b+1] = STATS_max_x
	imax = STATS_index_max_x
	stats ratiofile index b using 2 every ::imax::imax nooutput
	ey[b+1] = STATS_max
	stats ratiofile index b using 3 every ::imax::imax nooutput
	er[b+1] = STATS_max
	# A label "100%" at font 12: about 0.6 em a character, 6 px off
	# the line's end; two apart by 1.3 of its height.
	keep[b+1] = 1
	w = (strlen(sprintf('%.0f%%', er[b+1])) * 0.6 * 12 + 8) * xpx
	do for [k=1:b] {
		if (keep[k] && abs(ey[k] - ey[b+1]) < 1.3 * 12 * ypx && \
		    abs(ex[k] - ex[b+1]) < w + 8 * xpx) { keep[b+1] = 0 }
	}
}
eval(term_png(1200, 800, 'enhanced'))
set output outbase.'-ratio.png'
plot for [i=0:rblocks-1] ratiofile index i using 1:2:(col($4, $3)) \
	with lines lc rgb variable lw 2 notitle, \
     for [i=0:rblocks-1] ratiofile index i \
	using 1:($5 > 0 && keep[i+1] ? $2 : NaN):(sprintf('%.0f%%', $3)) with labels left \
	offset 0.4,0 font ',12' tc rgb '#333333' notitle, \
     @keyfig
eval(term_svg(1200, 800, 'enhanced'))
set output outbase.'-ratio.svg'
replot
set output
