/* SPDX-License-Identifier: MIT */
/*
 * The comparison of curve families as files: compare.json, compare.md and
 * the overlay and ratio plots, from sets loaded by mess_set_load (or
 * measured in this session).  Used by `mess compare` and by a run that
 * measures one family per memory kind.  The figures are mess/compare.h's.
 */
#ifndef MESS_CORE_COMPARE_H
#define MESS_CORE_COMPARE_H

#include <stddef.h>

#include "mess/compare.h"
#include "mess/curve.h"
#include "mess/json.h"
#include "mess/load.h"

#define MESS_COMPARE_SCHEMA 1
#define MESS_COMPARE_MAX_APPS 16
/* The marker of a directory holding a comparison (mess_rundir_open). */
#define MESS_COMPARE_JSON "compare.json"

struct mess_compare_set {
	const struct mess_family *fam;
	const struct mess_set_info *info;
	const char *label;	/* unique among the sets */
};

struct mess_compare_opts {
	const char *cmd;	/* prefix of the lines on stderr: "mess compare" */
	const double *app_read_pct, *app_bw_gbs;
	size_t napps;		/* at most MESS_COMPARE_MAX_APPS */
	int no_plots;
	char *plots_note;	/* out, may be NULL: what became of the plots */
	size_t plots_note_len;
};

/*
 * Compare sets[0..n-1] (each against sets[0] for the ratios) and write
 * into outdir (created when missing):
 *   compare.json  figures, ratios, application verdicts, warnings; schema 1
 *   compare.md    the same for people, and how it was computed
 *   plots/compare.{dat,png,svg}, plots/compare-ratio.{dat,png,svg}
 *                 unless no_plots; a missing gnuplot is only noted
 * The measurement differences (mess_compare_warnings) and the verdicts
 * also go to stderr.  0; -EINVAL (n not 2..MESS_CMP_MAX_SETS, too many
 * applications, or a set with no usable curve: said on stderr); -ENOMEM;
 * -errno of the file system.
 */
int mess_compare_write(const char *outdir, const struct mess_compare_set *sets,
		       size_t n, const struct mess_compare_opts *o);

/* The string key of set in's meta.json (a run's start_utc, host), else
 * none where the set does not say; into buf, returned. */
const char *mess_compare_set_meta(const struct mess_set_info *in,
				  const char *key, const char *none, char *buf,
				  size_t len);

/*
 * The verdict a comparison inherits, measuring nothing: its least trusted
 * set's (INVALID, pending, WARN, none, PASS in that order), the sets at
 * that level (labels, directories), the first one's reason and what it
 * means for the comparison; compare.json's and meta.json's
 * inherited_verdict.  NULL: out of memory.
 */
json_t *mess_compare_inherited(const struct mess_set_info *const *info,
			       const char *const *labels, size_t n);

#endif
