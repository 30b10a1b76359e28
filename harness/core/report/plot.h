/* SPDX-License-Identifier: MIT */
/* The family plot: gnuplot renders what we write, if it is installed. */
#ifndef MESS_PLOT_H
#define MESS_PLOT_H

#include <stddef.h>

#include "mess/curve.h"

/* Store shares a mix can have, 0..100 %: the length of mess_plot's
 * invalid. */
#define MESS_PLOT_MIXES 101

/*
 * Write <rundir>/plots/curves.dat (one gnuplot index block per non-empty
 * curve, two blank lines apart, in bandwidth order: store % rising, then
 * read share falling; columns bw_gbs lat_ns read_pct store_pct flagged
 * invalid, read_pct and store_pct -1 when unknown, flagged 1 for a point
 * that still breaks a rule, invalid 1 on every row of a mix judged
 * INVALID as a whole (invalid[store_pct] set; invalid may be NULL), rows
 * in increasing pressure) and render it
 * with plots/curves.gp into <rundir>/plots/curves.png and curves.svg.
 * gnuplot's output goes to <rundir>/plots/gnuplot.log.
 *
 * curves.gp is the data file plots/curves.gp (mess_data_file: installed
 * under <prefix>/share/mess, staged under build/<arch>/share/mess).
 *
 * unloaded_ns <= 0 or NAN draws no unloaded-latency line, peak_gbs <= 0
 * or NAN no theoretical-peak line; title may be NULL, and its text after
 * a first "\n" is a second, smaller line.
 * Returns 0; -ENOENT when gnuplot or curves.gp is missing (curves.dat is
 * still written; plotting is optional, the caller only reports it);
 * -ENODATA when no curve has a point; -EIO when gnuplot fails; other
 * -errno.  err (may be NULL) says why.
 */
int mess_plot(const char *rundir, const struct mess_family *f,
	      double unloaded_ns, double peak_gbs, const char *title,
	      const unsigned char *invalid, char *err, size_t errlen);

/*
 * Run gnuplot -e expr on the script `name`, found as curves.gp is, with
 * its output in log (a new file); gnuplot writes into log's directory,
 * which must be no link, and whose links are removed first (plot.c: sweep).
 * 0; -ENOENT when gnuplot or the script is missing; -EIO when gnuplot
 * fails; -ETIMEDOUT when it ran past $MESS_GNUPLOT_TIMEOUT_S (default
 * 120 s) and was killed; other -errno.  err (may be NULL) says why.
 */
int mess_gnuplot(const char *name, const char *expr, const char *log,
		 char *err, size_t errlen);
/* src as the inside of a gnuplot single-quoted string (' doubled). */
void mess_gp_quote(char *dst, size_t len, const char *src);

#endif
