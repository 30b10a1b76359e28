# SPDX-License-Identifier: MIT
# A heat map of pairs (mess matrix: initiators x memory nodes; mess c2c:
# PU x PU): one coloured cell per pair, its figure written in it.
#
#   gnuplot -e "outbase='run/plots/matrix-latency'; plottitle='Xeon'; \
#               xl='memory node'; yl='initiator'; cbl='ns'; nx=5; ny=2; \
#               highgood=0; labels=1; figures=10" plots/heat.gp
#
# outbase.'.dat' holds "x y value line1 line2" (tab-separated; x and y
# from 0, value NaN for a cell not measured, line1 and line2 the text
# written in the cell, " " for none) and outbase.'.tics' the commands that
# name the columns and rows (set xtics (...), set ytics (...)).  highgood
# 1: the darkest cell is the highest figure that is best (bandwidth), 0:
# the highest that is worst (latency); both run from light to dark.
# labels 0 writes no text (too many cells).  figures: the cells with a
# value; under 2, no colour scale.  Writes outbase.png and .svg.

if (!exists("outbase")) outbase = 'heat'
if (!exists("plottitle")) plottitle = ''
if (!exists("xl")) xl = ''
if (!exists("yl")) yl = ''
if (!exists("cbl")) cbl = ''
if (!exists("nx")) nx = 1
if (!exists("ny")) ny = 1
if (!exists("highgood")) highgood = 0
if (!exists("labels")) labels = 1
if (!exists("figures")) figures = nx * ny
# One figure (a 1x1 matrix, or one pair measured) has no scale to read:
# a colour bar of 4.78-4.89 GB/s is gnuplot's autoscale, not a spread.
# Its cell is drawn plain, in a small figure, with no colour bar.
single = figures < 2

sd = ''; s = ARG0; i = strstrt(s, '/')
while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
load sd.'style.gp'

datafile = outbase.'.dat'
set datafile separator "\t"
load outbase.'.tics'
set xrange [-0.5:nx - 0.5]
# The first row at the top, as in the tables.
set yrange [ny - 0.5:-0.5]
set xlabel xl noenhanced
set ylabel yl noenhanced
set cblabel cbl noenhanced
set title fit(plottitle, nx > 12 ? 1400 : single ? 600 : fig_w, fig_titlesize) noenhanced font ','.fig_titlesize
set tics scale 0
set xtics noenhanced
set ytics noenhanced
unset grid
set key off
set cbrange [*:*]
if (single) {
	unset colorbox
	set cbrange [0:1]
}
if (single) {
	set palette defined (0 '#dde6ee', 1 '#dde6ee')
} else { if (highgood) {
	set palette defined (0 '#f7fbff', 1 '#9ecae1', 2 '#3182bd', 3 '#08306b')
} else {
	set palette defined (0 '#fff7ec', 1 '#fdbb84', 2 '#e34a33', 3 '#7f0000')
} }
# The figure and, under it, the firmware's: one label of one or two lines
# (gnuplot reads the " " of no second line as an empty string).  Many
# cells: a smaller font.
lf = (nx > 12 || ny > 12) ? ',9' : ','.fig_fontsize
fig = "plot datafile using 1:2:(0.5):(0.5):".(single ? "($3 * 0)" : "3")." with boxxyerror fs solid 1.0 noborder fc palette notitle"
if (labels) {
	fig = fig.", datafile using 1:2:(strcol(5) eq '' ? strcol(4) : strcol(4).\"\\n\".strcol(5)) with labels boxed noenhanced font lf notitle"
}
set style textbox opaque noborder fillcolor rgb '#ffffff' margins 1, 1

w = nx > 12 ? 1400 : single ? 600 : fig_w
h = ny > 12 ? 1200 : single ? 450 : fig_h
eval(term_png(w, h, 'noenhanced'))
set output outbase.'.png'
eval(fig)
eval(term_svg(w, h, 'noenhanced'))
set output outbase.'.svg'
eval(fig)
set output
