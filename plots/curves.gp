# SPDX-License-Identifier: MIT
# Bandwidth-latency curve family, as in the Mess paper: one line per mix,
# named by the store % asked for (--mixes), else, for a set that does not
# say it, by the memory's read share; drawn and keyed in bandwidth order
# (store % rising), one hue per curve along that order, each labelled at
# its highest bandwidth without two labels overlapping; a mix whose whole
# curve is INVALID drawn grey and dashed (its points not ringed one by
# one), points of the others that still break a rule ringed.
#
#   gnuplot -e "datafile='run/plots/curves.dat'; outbase='run/plots/curves'; \
#               unloaded=115.2; peak=307.2; plottitle='SPR 8480+ on host: PASS'; \
#               plotsub='date, cores'" plots/curves.gp
#
# datafile: index blocks (one per curve, in the order drawn) of "bw_gbs
# lat_ns read_pct store_pct flagged invalid" (read_pct and store_pct -1:
# unknown; flagged 1: the point still breaks a rule; invalid 1: its whole
# mix is INVALID); writes outbase.png and outbase.svg.  unloaded <= 0
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

# Per curve: its read share, store %, whether its mix is INVALID, and the
# point of its highest bandwidth, where its label goes.
array rs[nblocks]
array st[nblocks]
array bad[nblocks]
array lx[nblocks]
array ly[nblocks]
do for [b=0:nblocks-1] {
	stats datafile index b using 1:3 nooutput
	rs[b+1] = STATS_min_y
	lx[b+1] = STATS_max_x
	imax = STATS_index_max_x
	stats datafile index b using 2 every ::imax::imax nooutput
	ly[b+1] = STATS_max
	stats datafile index b using 4 every ::imax::imax nooutput
	st[b+1] = STATS_max
	stats datafile index b using 6 nooutput
	bad[b+1] = STATS_max
}
stats datafile using 5 nooutput
nflagged = STATS_sum
name(b) = st[b] >= 0 ? sprintf('%.0f %% stores', st[b]) : \
	  rs[b] >= 0 ? sprintf('%.0f %% read', rs[b]) : 'mix unknown'
short(b) = st[b] >= 0 ? sprintf('%.0f%% stores', st[b]) : \
	   rs[b] >= 0 ? sprintf('%.0f%% read', rs[b]) : '?'
keyname(b) = name(b).(bad[b] > 0 ? ' (INVALID)' : '')

set title fit(plottitle.(plotsub eq '' ? '' : "\n".plotsub), fig_w, fig_titlesize) noenhanced font ','.fig_titlesize
set xlabel 'Memory bandwidth [GB/s]'
set ylabel 'Load-to-use latency [ns]'
set xrange [0:xtop * 1.08]
set yrange [0:ytop * 1.08]
set mxtics 2
set mytics 2
set key outside bottom center horizontal noenhanced reverse Left samplen 1.5 width -2 font ',12'

# A multi-hue sequential map (plasma, without its palest yellow) along the
# bandwidth order: neighbouring curves differ, and the order reads in hue.
set palette defined (0 '#0d0887', 1 '#6a00a8', 2 '#b12a90', 3 '#e16462', 4 '#f2844b')
set cbrange [0:(nblocks > 1 ? nblocks - 1 : 1)]
unset colorbox
grey = '#9a9a9a'

# The plot area in pixels, from a first drawing nowhere: labels are placed
# in pixels (a label's height is its font's), the data in axis units.
eval(term_svg(fig_w, fig_h, 'enhanced'))
set output '/dev/null'
plot for [i=0:nblocks-1] datafile index i using 1:2 with lines title (i < 12 ? 'x' : '')
set output
pxw = GPVAL_TERM_XMAX - GPVAL_TERM_XMIN
pxh = GPVAL_TERM_YMAX - GPVAL_TERM_YMIN
xspan = xtop * 1.08
yspan = ytop * 1.08
ypx = yspan / pxh
xpx = xspan / pxw

if (unloaded > 0) {
	set arrow 1 from graph 0, first unloaded to graph 1, first unloaded \
		nohead back dt (8,5) lw 1.5 lc rgb '#555555'
	set arrow 2 from graph 0, first 2 * unloaded to graph 1, \
		first 2 * unloaded nohead back dt (2,4) lw 1.2 lc rgb '#777777'
}
if (peak > 0) {
	set arrow 3 from first peak, graph 0 to first peak, graph 1 \
		nohead back dt (6,3) lw 1.5 lc rgb '#2c7fb8'
	set label 3 sprintf('theoretical peak %.0f GB/s', peak) \
		at first peak, graph 0.98 right offset -0.5,0 \
		tc rgb '#2c7fb8' font ',13' front boxed
}

# A line's label where it covers no point: above or below it, at the
# left, the right, or a third or two thirds across; the first free of the
# eight.  None free (a disturbed run's points everywhere): the line is
# named in the key instead.  A label of n characters at font 13 is about
# 0.6 x 13 px a character wide and 13 px high; it sits 14 px off its
# line, and a point's marker reaches 5 px around it.
inbox(x, y, x0, x1, y0, y1) = x >= x0 && x <= x1 && y >= y0 && y <= y1 ? 1 : 0
array linekey[2]
# The placed labels' boxes (x from, x to, y centre), for the end labels.
array ux0[2] = [0, 0]
array ux1[2] = [-1, -1]
array uy[2] = [0, 0]
linekey[1] = ''
linekey[2] = ''
do for [tag=1:2] {
	if (unloaded > 0) {
		ty = tag * unloaded
		txt = tag == 1 ? sprintf('unloaded %.0f ns', unloaded) : \
			sprintf('2× unloaded: %.0f ns (saturation)', 2 * unloaded)
		w = (strlen(txt) * 0.6 * 13 + 10) * xpx
		m = 5 * xpx
		spot = 0
		do for [c=1:8] {
			if (spot == 0) {
				xf = real(word('0.01 0.01 0.99 0.99 0.35 0.35 0.65 0.65', c))
				xa = xf < 0.5 ? xf * xspan : xf * xspan - w
				yc = ty + (c % 2 == 1 ? 14 : -14) * ypx
				stats datafile using (inbox($1, $2, xa - m, xa + w + m, \
					yc - (6.5 + 5) * ypx, yc + (6.5 + 5) * ypx)) nooutput
				if (STATS_sum == 0) { spot = c }
			}
		}
		if (spot == 0) {
			linekey[tag] = txt
		} else {
			xf = real(word('0.01 0.01 0.99 0.99 0.35 0.35 0.65 0.65', spot))
			xa = xf < 0.5 ? xf * xspan : xf * xspan - w
			yc = ty + (spot % 2 == 1 ? 14 : -14) * ypx
			tcol = tag == 1 ? '#444444' : '#333333'
			set label tag txt at first xa, first yc left \
				tc rgb tcol font ',13' front boxed
			ux0[tag] = xa
			ux1[tag] = xa + w
			uy[tag] = yc
		}
	}
}

# End labels: each curve's at its highest bandwidth, moved apart in y so
# that two are never closer than a label's height with its opaque box
# (gap, 1.7 x its 12 px font); with more curves than fit (a public set's dozens of read shares)
# only those that stay a gap apart where they are, the first and the last
# in bandwidth order first, are labelled (and keyed).
gap = 1.7 * 12 * ypx
array keep[nblocks]
array py[nblocks]
array ord[nblocks]
do for [b=1:nblocks] { keep[b] = 0 }
if (nblocks <= 12) {
	do for [b=1:nblocks] { keep[b] = 1 }
} else {
	do for [pass=1:2] {
		do for [b=1:nblocks] {
			isend = b == 1 || b == nblocks
			if ((pass == 1 && isend) || (pass == 2 && keep[b] == 0)) {
				ok = 1
				do for [k=1:nblocks] {
					if (keep[k] && abs(ly[k] - ly[b]) < gap) { ok = 0 }
				}
				if (ok) { keep[b] = 1 }
			}
		}
	}
}
# The kept labels in rising y, then pushed up a gap apart, then, past the
# top, down again from it.
n = 0
do for [b=1:nblocks] {
	if (keep[b]) {
		n = n + 1
		ord[n] = b
	}
}
do for [i=2:n] {
	j = i
	while (j > 1 && ly[ord[j - 1]] > ly[ord[j]]) {
		t = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = t
		j = j - 1
	}
}
do for [i=1:n] {
	py[ord[i]] = ly[ord[i]] + 5 * ypx
	if (i > 1 && py[ord[i]] < py[ord[i - 1]] + gap) { py[ord[i]] = py[ord[i - 1]] + gap }
}
ylim = yspan - 8 * ypx
if (n > 0 && py[ord[n]] > ylim) {
	py[ord[n]] = ylim
	do for [i=n-1:1:-1] {
		if (py[ord[i]] > py[ord[i + 1]] - gap) { py[ord[i]] = py[ord[i + 1]] - gap }
	}
}
# A label pushed more than three gaps from its curve's end (eleven ends
# within a few ns stacked it 1000 ns off), or one on an "unloaded" label,
# is left to the key (which names every kept curve).
array lab[nblocks]
do for [b=1:nblocks] {
	lab[b] = keep[b] && abs(py[b] - ly[b]) <= 3 * gap
	do for [tag=1:2] {
		ex0 = lx[b] + 7 * xpx
		ex1 = ex0 + (strlen(short(b)) * 0.6 * 12 + 4) * xpx
		if (lab[b] && ex0 < ux1[tag] && ux0[tag] < ex1 && \
		    abs(py[b] - uy[tag]) < (6.5 + 6 + 3) * ypx) { lab[b] = 0 }
	}
}
# A label pushed off its curve's end by more than half its height gets a
# leader line from that end to it: a label stacked two or three gaps up
# (eleven ends within a few ns) read as another curve's.
do for [b=1:nblocks] {
	if (lab[b] && abs(py[b] - ly[b]) > 0.5 * 12 * ypx) {
		if (bad[b] > 0) {
			set arrow 20 + b from first lx[b], first ly[b] to first lx[b] + 5 * xpx, first py[b] \
				nohead front lw 0.8 lc rgb grey
		} else {
			set arrow 20 + b from first lx[b], first ly[b] to first lx[b] + 5 * xpx, first py[b] \
				nohead front lw 0.8 lc palette cb b - 1
		}
	}
}
do for [b=1:nblocks] {
	if (lab[b]) {
		if (bad[b] > 0) {
			set label 10 + b short(b) at first lx[b], first py[b] left \
				offset 0.6,0 font ',12' tc rgb grey front boxed
		} else {
			set label 10 + b short(b) at first lx[b], first py[b] left \
				offset 0.6,0 font ',12' tc palette cb b - 1 front boxed
		}
	}
}

# One plot command, a clause per curve: an INVALID mix grey and dashed.
fig = 'plot '
do for [b=1:nblocks] {
	fig = fig.sprintf("%sdatafile index %d using 1:2 with linespoints %s lw 1.8 pt 7 ps 0.6 title '%s'", \
		b > 1 ? ', ' : '', b - 1, \
		bad[b] > 0 ? "lc rgb '".grey."' dt (6,4)" : sprintf('lc palette cb %d', b - 1), \
		keep[b] ? keyname(b) : '')
}
if (nflagged > 0) {
	fig = fig.", datafile using 1:($5 > 0 && $6 == 0 ? $2 : NaN) with points pt 6 ps 1.8 lw 1.5 lc rgb '#d62728' title 'flagged: still breaks a rule'"
}
if (linekey[1] ne '') {
	fig = fig.", NaN with lines dt (8,5) lw 1.5 lc rgb '#555555' title '".linekey[1]."'"
}
if (linekey[2] ne '') {
	fig = fig.", NaN with lines dt (2,4) lw 1.2 lc rgb '#777777' title '".linekey[2]."'"
}

eval(term_png(fig_w, fig_h, 'enhanced'))
set output outbase.'.png'
eval(fig)
eval(term_svg(fig_w, fig_h, 'enhanced'))
set output outbase.'.svg'
eval(fig)
set output
