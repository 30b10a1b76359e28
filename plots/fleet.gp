# SPDX-License-Identifier: MIT
# mess fleet: outbase-curves.png overlays one curve (the mix with the fewest
# stores, normally 0 %) of every compared node, outliers in colour and
# named, the group median in black; outbase-bars.png has one bar per
# compared node of unloaded latency and of maximum bandwidth, red where the
# node is flagged on that figure, orange where it is flagged on another.
#
#   gnuplot -e "dir='f/plots'; outbase='f/plots/fleet'; mix=0; nnormal=60; \
#               noutliers=2; nmedian=20; nbars=62; med_unl=110; med_bw=240" plots/fleet.gp
#
# dir holds fleet-curves.dat ("bw_gbs lat_ns", one blank line between
# nodes), fleet-outliers.dat (the same with a third column, the outlier's
# number from 0), fleet-outlier-labels.dat ("bw_gbs lat_ns node" at each
# outlier's maximum bandwidth), fleet-median.dat ("bw_gbs lat_ns") and
# fleet-bars.dat ("i node unloaded_ns max_bw_gbs flag_unloaded flag_bw":
# flag 2 flagged on that figure, 1 on another, 0 not).

if (!exists("dir")) dir = 'plots'
if (!exists("outbase")) outbase = dir.'/fleet'
if (!exists("mix")) mix = 0
if (!exists("nnormal")) nnormal = 0
if (!exists("noutliers")) noutliers = 0
if (!exists("nmedian")) nmedian = 0
if (!exists("nbars")) nbars = 0
if (!exists("med_unl")) med_unl = NaN
if (!exists("med_bw")) med_bw = NaN
# verdicts: what to believe, first in each title ("no verdict (nodes:
# 12 PASS)": a fleet has none of its own, its nodes' runs have theirs).
if (!exists("verdicts")) verdicts = 'no verdict'

sd = ''; s = ARG0; i = strstrt(s, '/')
while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
load sd.'style.gp'

curves = dir.'/fleet-curves.dat'
outl = dir.'/fleet-outliers.dat'
labels = dir.'/fleet-outlier-labels.dat'
median = dir.'/fleet-median.dat'
bars = dir.'/fleet-bars.dat'

# ColorBrewer Set1 without its grey, for the outliers.
array hue[8] = [0xe41a1c, 0x377eb8, 0x4daf4a, 0x984ea3, 0xff7f00, 0xa65628, 0xf781bf, 0x999900]
ocol(i) = hue[int(i) % 8 + 1]

set mxtics 2
set mytics 2
set key bottom right noenhanced box opaque

# ---- every node's curve ----
eval(term_png(1200, 800, 'enhanced'))
set output outbase.'-curves.png'
set title fit(sprintf('%s: every compared node, %d %% stores: outliers in colour, the median in black', verdicts, mix), 1200, 16) font ',16'
set xlabel 'Memory bandwidth [GB/s]'
set ylabel 'Load-to-use latency [ns]'
set xrange [0:*]
set yrange [0:*]
# Room on the right for the outliers' names.
set offsets 0, graph 0.12, 0, 0
cmd = 'plot NaN notitle'
if (nnormal > 0) cmd = cmd.sprintf(", curves using 1:2 with lines lc rgb '#b8b8b8' lw 1 title '%d nodes'", nnormal)
# The outliers' key entry in a hue of its own: drawn with the lines, its
# sample took the first outlier's red, as if red meant every outlier
# (the others are blue, green, ...), each named at its end instead.
if (noutliers > 0) cmd = cmd.", outl using 1:2:(ocol($3)) with linespoints lc rgb variable lw 2.2 pt 7 ps 0.6 notitle, NaN with linespoints lc rgb '#555555' lw 2.2 pt 7 ps 0.6 title 'outliers: a hue each, named at the end'"
if (nmedian > 0) cmd = cmd.", median using 1:2 with lines lc rgb '#000000' lw 3 title 'median (g1)'"
# The names last, on a white box: drawn before the median, its line ran
# across one.
if (noutliers > 0) cmd = cmd.", labels using 1:2:3 with labels left offset 0.6,0.3 font ',12' noenhanced boxed notitle"
eval(cmd)
eval(term_svg(1200, 800, 'enhanced'))
set output outbase.'-curves.svg'
replot
set output

# ---- per-node bars ----
set offsets 0, 0, 0, 0
bcol(f) = f == 2 ? 0xe41a1c : f == 1 ? 0xff7f00 : 0x8c8c8c
set style fill solid 0.85 noborder
set boxwidth 0.8
unset key
set xrange [-0.8:nbars - 0.2]
set yrange [0:*]
unset xlabel
unset title
if (nbars <= 64) { set xtics rotate by 60 right font ',10' } else { set xtics scale 0 }
do for [t in 'png svg'] {
	if (t eq 'png') { eval(term_png(1400, 900, 'enhanced')) }
	if (t eq 'svg') { eval(term_svg(1400, 900, 'enhanced')) }
	set output outbase.'-bars.'.t
	set multiplot layout 2,1 title fit(verdicts.': per node: red flagged on that figure, orange flagged on another, dashed the g1 median', 1400, 15) font ',15'
	set ylabel 'Unloaded latency [ns]'
	unset arrow
	if (med_unl == med_unl) { set arrow 1 from graph 0, first med_unl to graph 1, first med_unl nohead front dt (8,5) lw 1.5 lc rgb '#000000' }
	plot bars using 1:3:(bcol($5)):xtic(2) with boxes lc rgb variable
	unset arrow
	if (med_bw == med_bw) { set arrow 1 from graph 0, first med_bw to graph 1, first med_bw nohead front dt (8,5) lw 1.5 lc rgb '#000000' }
	set ylabel sprintf('Max bandwidth, %d %% stores [GB/s]', mix)
	plot bars using 1:4:(bcol($6)):xtic(2) with boxes lc rgb variable
	unset multiplot
	set output
}
