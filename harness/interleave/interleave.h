/* SPDX-License-Identifier: MIT */
/* Between the files of interleave/ only. */
#ifndef MESS_INTERLEAVE_H
#define MESS_INTERLEAVE_H

#include "core/compare/compare.h"
#include "core/rundir/families.h"

/* One family a split, as compare takes sets: at most its count. */
#define MESS_IL_MAX_SPLITS MESS_CMP_MAX_SETS
#define MESS_IL_WEIGHT_MAX 255	/* the kernel's weighted-interleave range */

struct mess_il_split {
	int wa, wb;		/* pages on node A : on node B; 0 = none there */
	struct mess_family_job job;
};

struct mess_il {
	int a, b;		/* the two nodes, OS indices */
	const char *top;
	struct mess_il_split split[MESS_IL_MAX_SPLITS];
	int nsplit;
	double app_r[MESS_COMPARE_MAX_APPS], app_bw[MESS_COMPARE_MAX_APPS];
	size_t napps;
	int no_plots;
};

/* answer.c: the complete splits' families compared (top/compare/), and
 * interleave.json, summary.md and report.html in top: 0 or -errno. */
int mess_il_answer(const struct mess_il *il);

#endif
