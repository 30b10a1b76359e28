# SPDX-License-Identifier: MIT
# The one style of every mess figure: size, fonts, line width, axes and
# grid.  Each plots/*.gp loads it from its own directory first:
#
#   sd = ''; s = ARG0; i = strstrt(s, '/')
#   while (i > 0) { sd = sd.s[1:i]; s = s[i+1:]; i = strstrt(s, '/') }
#   load sd.'style.gp'
#
# then sets its terminal with eval(term_png(w, h)) and eval(term_svg(w,
# h)), w x h from fig_w, fig_h unless a figure needs panels side by side.
# enh is 'enhanced' or 'noenhanced' (titles that hold user text: noenhanced).

fig_w = 1200
fig_h = 800
fig_font = 'DejaVu Sans'
fig_fontsize = 15
fig_titlesize = 17
term_png(w, h, enh) = sprintf("set terminal pngcairo size %d,%d %s font '%s,%d' linewidth 1.2", w, h, enh, fig_font, fig_fontsize)
term_svg(w, h, enh) = sprintf("set terminal svg size %d,%d dynamic %s font '%s,%d' linewidth 1.2 background rgb 'white'", w, h, enh, fig_font, fig_fontsize)

set border 3 lw 1.2
set tics nomirror out
set grid xtics ytics back lt 1 lc rgb '#e4e4e4' lw 0.8
set style textbox opaque noborder
