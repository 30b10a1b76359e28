/* SPDX-License-Identifier: MIT */
/* The parts of report.html (core/report/html.c writes the page, core/report/html_parts.c
 * the sections read from CSV and public-set files). */
#ifndef MESS_HTML_INT_H
#define MESS_HTML_INT_H

#include <stdio.h>

#include "mess/json.h"
#include "mess/metrics.h"

/* s with &, <, >, " and ' escaped; NULL writes nothing.  The one way
 * any text read from a file reaches the page, in an element or in a
 * quoted attribute: whatever a directory someone sends holds stays text. */
void mess_h_esc(FILE *f, const char *s);
/* s escaped between two pieces of markup, written as they are. */
void mess_h_put(FILE *f, const char *before, const char *s, const char *after);
/* n bytes of buf in base64 (RFC 4648, padded), for a data: URL. */
void mess_h_b64(FILE *f, const void *buf, size_t n);
/* The whole file, NUL-terminated (*len without it), at most max bytes;
 * NULL when it cannot be read or is larger.  free() it. */
char *mess_h_slurp(const char *path, size_t max, size_t *len);

/*
 * The key figures of the curve family in dir (any layout mess_set_load
 * reads), against the peak (> 0) or "unknown"; nothing when dir holds no
 * curves.  summary may be NULL (its wave_tol_pct is used).  Returns 1 when
 * a family was found, 0 otherwise.
 */
int mess_h_keyfigs(FILE *f, const char *dir, double peak_gbs,
		   const char *peak_how, const json_t *summary);
/* How the page spells the key figures (mess/metrics.h), a run's. */
extern const struct mess_kf_fmt mess_h_kf_run;
/* absorption.csv as a heat map of k1 (row x mode), with its bracket;
 * nothing without the file. */
void mess_h_absorb(FILE *f, const char *dir);
/* system.md (its tables) and plotter.txt of a public set; nothing without
 * them.  Returns 1 when one was there. */
int mess_h_public(FILE *f, const char *dir);
/* A comparison's compare.md on its page: the sentence, the sets, the
 * --app answers and what was measured differently; nothing without it. */
void mess_h_compare(FILE *f, const char *dir);
/* compare.md's title into buf: 1, or 0 without one. */
int mess_h_compare_title(const char *dir, char *buf, size_t len);
/* Why plots/ holds no figure, as one paragraph: why (what mess report
 * was told or met; may be NULL), else meta.json plots, else that the
 * command draws none. */
void mess_h_no_figure(FILE *f, const json_t *meta, const char *why);
/* A figure's place on the page (0 first): the curves, then a command's
 * own figure (compare.svg), then the figures derived from it. */
int mess_h_fig_rank(const char *name);
/* How each compared set was measured (the comparison's meta.json sets),
 * where a comparison's own "how it was measured" would be all unknown. */
void mess_h_compare_measured(FILE *f, const json_t *meta);
/* mess matrix's tables (latency, bandwidth: heat maps of initiators by
 * memory nodes) or mess c2c's groups, from summary.json and meta.json;
 * 1 when the run was one of them, 0 (nothing written) otherwise. */
int mess_h_pairs(FILE *f, const json_t *meta, const json_t *summary);

#endif
