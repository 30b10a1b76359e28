/* SPDX-License-Identifier: MIT */
/* Heat maps: gnuplot renders the grid of figures we write, if it is
 * installed (core/report/plot.h runs it). */
#ifndef MESS_HEAT_H
#define MESS_HEAT_H

#include <stddef.h>

/*
 * A heat map (mess matrix's pairs, mess c2c's PUs): ny rows of nx cells,
 * v[y * nx + x] (NAN: an empty cell), each with text[y * nx + x] written
 * in it (NULL: none; a "\n" splits two lines), the rows and columns named
 * by ytics and xtics; high_good picks the palette (dark for high
 * bandwidth, dark for high latency otherwise).  Writes
 * <rundir>/plots/<name>.dat and <name>.tics, and plots/heat.gp renders
 * <name>.png and .svg.  0, or -errno as mess_gnuplot (-ENOENT: no gnuplot);
 * err (may be NULL) says why.
 */
struct mess_heat {
	const char *name, *title, *xlabel, *ylabel, *cblabel;
	int nx, ny, high_good;
	const char *const *xtics, *const *ytics;
	const double *v;
	const char *const *text;
};
int mess_heat_plot(const char *rundir, const struct mess_heat *h, char *err,
		   size_t errlen);

#endif
