# SPDX-License-Identifier: MIT
# lat_mem_rd latency ladder (mess ladder, mess absorb): ns per dependent
# load against the buffer size, log-log, each flat level drawn as a
# plateau over the sizes it was read from; a level that is not flat is
# no plateau: its median is marked (a cross, labelled "not flat"), no
# line drawn.
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

set datafile separator ','
set logscale x 4
set logscale y
set format x '%.0b%B'
set xlabel 'buffer size (bytes, binary prefixes)'
set ylabel 'ns per load'
set title 'lat_mem_rd latency ladder'.(plottitle eq '' ? '' : ': '.plottitle) noenhanced
set key top left
set grid xtics ytics lc rgb '#dddddd'
set border 3 lw 1.2
set xtics nomirror
set ytics nomirror

levels = rundir.'/plots/ladder_levels.dat'
flat = "levels using 1:($5 == 1 ? $3 : NaN):($2 - $1):(0) with vectors nohead lw 3 lc rgb '#d62728' title sprintf('plateaus (flat within %g %%)', flattol), \
	levels using (sqrt($1 * $2)):($5 == 1 ? $3 * 1.3 : NaN):4 with labels tc rgb '#d62728' notitle"
rough = "levels using (sqrt($1 * $2)):($5 == 0 ? $3 : NaN) with points pt 2 ps 2 lw 2 lc rgb '#7f7f7f' title 'level not flat: median marked, no plateau', \
	levels using (sqrt($1 * $2)):($5 == 0 ? $3 * 1.3 : NaN):(stringcolumn(4).' not flat') with labels tc rgb '#7f7f7f' notitle"
fig = "plot rundir.'/ladder.csv' every ::1 using 1:2:4 with yerrorlines lc rgb '#1f77b4' pt 7 ps 0.6 title 'median ± spread'". \
	(nflat > 0 ? ", ".flat : ""). (nrough > 0 ? ", ".rough : "")

set terminal pngcairo size 900,560 font ',10'
set output rundir.'/plots/ladder.png'
eval(fig)
set terminal svg size 900,560 font ',10'
set output rundir.'/plots/ladder.svg'
eval(fig)
set output
