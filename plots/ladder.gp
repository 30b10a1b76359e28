# SPDX-License-Identifier: MIT
# lat_mem_rd latency ladder (mess ladder, mess absorb): ns per dependent
# load against the buffer size, log-log, each flat level drawn as a
# plateau over the sizes it was read from; a level that is not flat is
# no plateau: its median is marked (a cross, labelled "not flat"), no
# line drawn.  The labels sit on white boxes: a level that is not flat
# rises under its label, and its line crossed it.
#
#   gnuplot -e "rundir='run'; plottitle='Xeon'; nflat=3; nrough=1" plots/ladder.gp
#
# rundir holds ladder.csv (size_bytes,lat_ns,repeats,spread_ns,...) and
# plots/ladder_levels.dat ("lo_bytes,hi_bytes,lat_ns,name,flat", one line
# per level with points; nflat and nrough count the lines with flat 1 and
# 0, so that an empty set draws no legend entry).  Writes
# rundir/plots/ladder.png and .svg.

if (!exists("rundir")) rundir = '.'
if (!exists("plottitle")) plottitle = ''
if (!exists("nflat")) nflat = 1
if (!exists("nrough")) nrough = 0
if (!exists("flattol")) flattol = 20

sd = ''; s = ARG0; i = strstrt(s, '/')
while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
load sd.'style.gp'

set datafile separator ','
set logscale x 2
set logscale y
# Sizes as people write them, every factor of 4.
set xtics ('1 KiB' 1024, '4 KiB' 4096, '16 KiB' 16384, '64 KiB' 65536, \
	'256 KiB' 262144, '1 MiB' 1048576, '4 MiB' 4194304, '16 MiB' 16777216, \
	'64 MiB' 67108864, '256 MiB' 268435456, '1 GiB' 1073741824, '4 GiB' 4294967296.)
set xlabel 'buffer size'
set ylabel 'latency per dependent load [ns]'
set title fit('Latency ladder (the lat_mem_rd method)'.(plottitle eq '' ? '' : ': '.plottitle), fig_w, fig_titlesize) noenhanced font ','.fig_titlesize
set key top left noenhanced box opaque

levels = rundir.'/plots/ladder_levels.dat'
flat = "levels using 1:($5 == 1 ? $3 : NaN):($2 - $1):(0) with vectors nohead lw 3 lc rgb '#d62728' title sprintf('plateaus (flat within %g %%)', flattol), \
	levels using (sqrt($1 * $2)):($5 == 1 ? $3 * 1.3 : NaN):4 with labels tc rgb '#d62728' boxed notitle"
rough = "levels using (sqrt($1 * $2)):($5 == 0 ? $3 : NaN) with points pt 2 ps 2 lw 2 lc rgb '#7f7f7f' title 'level not flat: median marked, no plateau', \
	levels using (sqrt($1 * $2)):($5 == 0 ? $3 * 1.3 : NaN):(stringcolumn(4).' not flat') with labels tc rgb '#7f7f7f' boxed notitle"
fig = "plot rundir.'/ladder.csv' every ::1 using 1:2:4 with yerrorlines lc rgb '#1f77b4' pt 7 ps 0.6 title 'median ± spread'". \
	(nflat > 0 ? ", ".flat : ""). (nrough > 0 ? ", ".rough : "")

eval(term_png(fig_w, fig_h, 'noenhanced'))
set output rundir.'/plots/ladder.png'
eval(fig)
eval(term_svg(fig_w, fig_h, 'noenhanced'))
set output rundir.'/plots/ladder.svg'
eval(fig)
set output
