# SPDX-License-Identifier: MIT
# Interference (mess interfere): the victim's p99 (solid) and p50 (dashed)
# latency per dependent load against the aggressor cores running, one
# colour per mix.
#
#   gnuplot -e "rundir='run'; plottitle='Xeon, same-socket'; mixes='0 50'" plots/interfere.gp
#
# rundir holds interference.csv (placement,store_pct,read_pct,aggressors,
# lat_p50_ns,lat_p90_ns,lat_p99_ns,...; each mix's rows together); mixes
# lists its store percentages.  Writes rundir/plots/interference.png and
# .svg.

if (!exists("rundir")) rundir = '.'
if (!exists("plottitle")) plottitle = ''
if (!exists("mixes")) mixes = '0'

sd = ''; s = ARG0; i = strstrt(s, '/')
while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
load sd.'style.gp'

set datafile separator ','
set xlabel 'aggressor cores running'
set ylabel "the victim's latency per dependent load [ns]"
set title fit('Interference'.(plottitle eq '' ? '' : ': '.plottitle), fig_w, fig_titlesize) noenhanced font ','.fig_titlesize
# The key beside the plot, below it: inside, its box hid the lines'
# start at 0 aggressors (issue 46).
set key outside bottom center horizontal noenhanced
set format x '%.0f'
set xtics 1
set yrange [0:*]
set autoscale xfix
set offsets 0.2, 0.2, 0, 0

f = rundir.'/interference.csv'
fig = "plot for [i=1:words(mixes)] f every ::1 using ($2 == word(mixes, i) + 0 ? $4 : NaN):7 with linespoints lw 2 lc i pt 7 title sprintf('%s %% stores: p99', word(mixes, i)), \
	for [i=1:words(mixes)] f every ::1 using ($2 == word(mixes, i) + 0 ? $4 : NaN):5 with linespoints lw 1.5 dt 2 lc i pt 6 title sprintf('%s %% stores: p50', word(mixes, i))"

eval(term_png(fig_w, fig_h, 'noenhanced'))
set output rundir.'/plots/interference.png'
eval(fig)
eval(term_svg(fig_w, fig_h, 'noenhanced'))
set output rundir.'/plots/interference.svg'
eval(fig)
set output
