# SPDX-License-Identifier: MIT
# lat_mem_rd latency ladder (mess absorb): ns per dependent load against
# the buffer size, log-log, each identified plateau drawn over the sizes
# it was read from.
#
#   gnuplot -e "rundir='run'; plottitle='Xeon'" plots/ladder.gp
#
# rundir holds ladder.csv (size_bytes,lat_ns,repeats,spread_ns,...) and
# plots/ladder_levels.dat ("lo_bytes,hi_bytes,lat_ns,name", one line per
# plateau with points).  Writes rundir/plots/ladder.png and .svg.

if (!exists("rundir")) rundir = '.'
if (!exists("plottitle")) plottitle = ''

set datafile separator ','
set logscale x 4
set logscale y
set format x '%.0b%B'
set xlabel 'buffer size (bytes, binary prefixes)'
set ylabel 'ns per load'
set title 'lat\_mem\_rd latency ladder'.(plottitle eq '' ? '' : ': '.plottitle) noenhanced
set key top left
set grid xtics ytics lc rgb '#dddddd'
set border 3 lw 1.2
set xtics nomirror
set ytics nomirror

levels = rundir.'/plots/ladder_levels.dat'
fig = "plot rundir.'/ladder.csv' every ::1 using 1:2:4 with yerrorlines lc rgb '#1f77b4' pt 7 ps 0.6 title 'median ± spread', \
	levels using 1:3:($2 - $1):(0) with vectors nohead lw 3 lc rgb '#d62728' title 'plateaus', \
	levels using (sqrt($1 * $2)):($3 * 1.3):4 with labels tc rgb '#d62728' notitle"

set terminal pngcairo size 900,560 font ',10'
set output rundir.'/plots/ladder.png'
eval(fig)
set terminal svg size 900,560 font ',10'
set output rundir.'/plots/ladder.svg'
eval(fig)
set output
