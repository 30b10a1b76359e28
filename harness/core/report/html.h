/* SPDX-License-Identifier: MIT */
/*
 * report.html: a run (or a public curve set) on one self-contained page
 * that any browser opens with no network and no JavaScript: the verdict
 * and its reasons first, the key figures, every figure (the run's SVGs
 * as images, which run nothing), the absorption table as a heat map, the
 * counters' status and how it was measured.  Written from the files of the directory alone, so
 * that the commands that make a run and `mess report` make the same page.
 */
#ifndef MESS_HTML_H
#define MESS_HTML_H

#include <stddef.h>

/*
 * Where the words of every page mess writes are defined, for each page's
 * footer (report.html, summary.md, absorption.md): the Glossary of the
 * installed results.md (make install: <prefix>/share/doc/mess, found
 * beside the data as plots/ are), else of results/README.md in mess's
 * source.  A results directory can sit anywhere: no relative link would
 * reach it.  Into buf; returns buf.
 */
const char *mess_glossary(char *buf, size_t len);

/*
 * Write <outdir>/report.html (tmp + rename) from the files in dir
 * (meta.json, summary.json, curves.csv or any layout mess_set_load reads,
 * absorption.csv, system.md and plotter.txt of a public set) and the SVGs
 * in <outdir>/plots.  outdir NULL: dir.  peak_gbs > 0: the theoretical
 * peak the key figures are given as a percentage of (else summary.json's,
 * else the one plotter.txt gives, else unknown).  0 or -errno; err (may
 * be NULL) says why.
 */
int mess_html_report(const char *dir, const char *outdir, double peak_gbs,
		     char *err, size_t errlen);
/* The same, nofig (may be NULL) saying why no figure was drawn when
 * plots/ holds none (mess report: its --no-plots, a gnuplot missing). */
int mess_html_report_why(const char *dir, const char *outdir, double peak_gbs,
			 const char *nofig, char *err, size_t errlen);

/*
 * The theoretical peak a set's plotter.txt gives: MEM_FREQ (MT/s)
 * x N_CHANNELS x BUS_WIDTH (bits) / 8, in GB/s, from dir/plotter.txt, a
 * raw Mess tree's processed/ folder's ../plotter.txt, or an imported
 * run's meta.json mess_plotter (the one reader compare and report use).
 * NAN when a figure is missing; how it was computed goes in how (may be
 * NULL).
 */
double mess_plotter_peak_gbs(const char *dir, char *how, size_t howlen);

/*
 * The first data row's cell under column (e.g. "Model", "Type") of the
 * first table in a public set's system.md, into buf.  0, or -ENOENT (no
 * file, no such column, an empty cell).
 */
int mess_system_md_field(const char *dir, const char *column, char *buf,
			 size_t len);

#endif
