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

# fit(s, w, size): s wrapped to lines that fit w px at font size size, so
# a title is never cut at the figure's edges (gnuplot centres and clips
# it).  Each line of s breaks at its last space (dropped), slash
# or hyphen (kept) that fits, else mid-word; 0.75 em a character errs wide
# for DejaVu Sans in pngcairo (a line of hyphenated names measured 0.70),
# 85 % of the width leaves room for a title centred on the plot, not the
# figure.
fit_sp(s, i) = i < 1 ? 0 : (s[i:i] eq ' ' || s[i:i] eq '/' || s[i:i] eq '-' ? i : fit_sp(s, i - 1))
fit_cut(s, n, k) = k < 2 ? s[1:n]."\n".fit_line(s[n+1:], n) : \
	s[k:k] eq ' ' ? s[1:k-1]."\n".fit_line(s[k+1:], n) : s[1:k]."\n".fit_line(s[k+1:], n)
fit_line(s, n) = strlen(s) <= n ? s : fit_cut(s, n, fit_sp(s, n + 1))
fit_lines(s, n, k) = k > 0 ? fit_line(s[1:k-1], n)."\n".fit_lines(s[k+1:], n, strstrt(s[k+1:], "\n")) : fit_line(s, n)
fit(s, w, size) = fit_lines(s, int(0.85 * w / (0.75 * size)), strstrt(s, "\n"))
# shorten(s, n): s in n characters at most, its middle left out ("…"): a
# key entry stays one line (gnuplot sizes a key's box by a wrapped entry's
# whole length) and keeps both ends, where set names differ.
shorten(s, n) = strlen(s) <= n ? s : s[1:n/2-1].'…'.s[strlen(s)-n/2+2:]
