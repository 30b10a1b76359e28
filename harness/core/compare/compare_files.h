/* SPDX-License-Identifier: MIT */
/* Between the files of the comparison service (core/compare/) only;
 * the functions declared here are compare_verdict.c's. */
#ifndef MESS_CORE_COMPARE_FILES_H
#define MESS_CORE_COMPARE_FILES_H

#include <stdio.h>

#include "core/compare/compare.h"

/* More differences than kinds of difference cannot be found. */
#define MESS_COMPARE_MAX_WARN 16

struct mess_compare_ctx {
	const struct mess_compare_set *sets;
	size_t n;
	const char *labels[MESS_CMP_MAX_SETS];
	struct mess_cmp cmp;
	size_t napps;
	struct mess_cmp_app apps[MESS_COMPARE_MAX_APPS];
	char verdict[MESS_COMPARE_MAX_APPS][1024];
	size_t nwarn;
	char warn[MESS_COMPARE_MAX_WARN][MESS_CMP_LINE];
	const char *plots;	/* what became of the plots */
};

/* How each figure is computed: {key, text} rows, ended by {NULL, NULL};
 * compare.json's "method" and compare.md's last section. */
extern const char *const mess_compare_method[][2];

/* Where set i's unloaded latency comes from, in words. */
const char *mess_compare_unloaded_source(const struct mess_compare_ctx *c,
					 size_t i);
/* Set i's verdict (PASS, WARN, INVALID, pending, none), and whether it
 * is one to say beside the set's figures (not PASS, not none). */
const char *mess_compare_verdict(const struct mess_compare_ctx *c, size_t i);
int mess_compare_verdict_said(const struct mess_compare_ctx *c, size_t i);

/* Set i's read shares in the Glossary's words: "nominal" (accounted),
 * "measured" (counted), "as the set gives them". */
const char *mess_compare_share_kind(const struct mess_compare_ctx *c, size_t i);
/* Set i's saturation in the Glossary's words: "saturated", "none" (no
 * latency doubled), "not saturated" (no curve loaded the memory),
 * "unknown" (no unloaded latency, or doubled only at flagged points). */
const char *mess_compare_saturation(const struct mess_compare_ctx *c, size_t i);

/* Whether every set has curves at (or around) share k. */
int mess_compare_covered(const struct mess_compare_ctx *c, size_t k);

/* compare.md into f: 0 or -EIO. */
int mess_compare_write_md(const struct mess_compare_ctx *c, FILE *f);
/* compare_ifr.c: compare.md's interference section, where every set has
 * mess interfere's interference.csv beside it (else nothing). */
void mess_compare_ifr_md(const struct mess_compare_ctx *c, FILE *f);
/*
 * plots/compare.dat and compare-ratio.dat, rendered by plots/compare.gp.
 * 0; -ENOENT (no gnuplot or script: the data files are still written);
 * -EIO; other -errno; err says why.
 */
int mess_compare_plot(const struct mess_compare_ctx *c, const char *outdir,
		      char *err, size_t errlen);

#endif
