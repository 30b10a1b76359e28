// SPDX-License-Identifier: MIT
/*
 * Whether to trust the table: its verdict from the machine before the
 * start, the entries whose k1 cannot be taken as it stands, the pairs
 * kept though disturbed (lib's mess_absorb_table_verdict) and, when it
 * ran, the latency ladder's levels.  Written first in absorption.md, in
 * meta.json `quality` and first among the closing lines.
 */
#include <stdio.h>
#include <string.h>

#include "absorb/absorb.h"

/* The doubtful entries listed in their reason: the rest are counted. */
#define DOUBTFUL_LIST 120

static void tally(const struct absorb_table *t, struct mess_absorb_tally *y,
		  char *list, size_t len)
{
	size_t at = 0;
	unsigned more = 0;

	memset(y, 0, sizeof(*y));
	list[0] = 0;
	for (size_t i = 0; i < t->nrows; i++)
		for (int j = 0; j < t->nmodes; j++) {
			const struct pair *pr = &t->rows[i].pair[t->modes[j]];
			enum mess_absorb_status st = pr->res.status;
			int n;

			if (!pr->done)
				continue;
			y->entries++;
			y->status[st]++;
			if (st != MESS_ABSORB_WIDE && st != MESS_ABSORB_UNCLEAR)
				continue;
			n = snprintf(list + at, len - at, "%s%s %s (%s)",
				     at ? ", " : "", t->rows[i].id,
				     mess_noise_mode_name(t->modes[j]),
				     mess_absorb_status_name(st));
			/* Whole names or none: the rest are counted. */
			if (!more && n > 0 && at + (size_t)n < len - 16)
				at += (size_t)n;
			else
				more++;
			list[at] = 0;
		}
	if (more)
		snprintf(list + at, len - at, " and %u more", more);
	y->pairs = t->pairs_total + t->dist_redone;
	y->disturbed = t->dist_pairs;
	y->redone = t->dist_redone;
	y->kept = t->dist_kept;
}

void absorb_judge(struct absorb_table *t, int complete)
{
	struct mess_absorb_tally y;
	char list[DOUBTFUL_LIST + 32];

	mess_verdict_init(&t->verdict);
	if (t->machine_ok)
		mess_env_verdict(&t->machine, &t->verdict);
	if (!complete)
		mess_verdict_add(&t->verdict, MESS_WARN, "partial",
				 "the table was cut short: only the entries in absorption.csv were measured (continue it with --resume)");
	tally(t, &y, list, sizeof(list));
	mess_absorb_table_verdict(&y, list, &t->verdict);
	/* Without both, a preempted pair cannot be told from a quiet one. */
	if (t->steal_err && t->cs_err)
		mess_verdict_add(&t->verdict, MESS_WARN, "disturbance_unknown",
				 "neither steal time nor the threads' involuntary switches could be read: a disturbed pair cannot be told from a quiet one");
	else if (t->steal_err || t->cs_err)
		mess_verdict_add(&t->verdict, MESS_PASS, "disturbance_partial",
				 "%s could not be read: pairs were judged disturbed by the other alone",
				 t->steal_err ? "steal time" : "the threads' involuntary switches");
	if (t->ladder_done)
		mess_ladder_judge(&t->ladder, &t->verdict, NULL);
	t->judged = 1;
}

json_t *absorb_quality_json(const struct absorb_table *t)
{
	struct mess_absorb_tally y;
	char list[DOUBTFUL_LIST + 32];
	json_t *q, *lad = NULL;

	if (!t->judged)
		return mess_json_pack("{s:s}", "verdict", "pending");
	tally(t, &y, list, sizeof(list));
	q = mess_verdict_json(&t->verdict);
	if (t->ladder_done) {
		json_t *lq = mess_ladder_quality_json(&t->ladder, &t->verdict,
						      t->o.strict);

		/* Its levels and runs; the reasons are the table's. */
		lad = mess_json_pack("{s:O?, s:O?}", "levels", json_object_get(lq, "levels"),
				     "runs", json_object_get(lq, "runs"));
		json_decref(lq);
	}
	if (mess_json_merge(q, mess_json_pack(
		"{s:{s:i, s:i, s:i, s:i, s:i, s:f}, s:{s:I, s:I, s:I, s:I, s:f},"
		" s:o, s:b, s:{s:f}, s:s}",
		"entries", "done", (int)y.entries,
		"ok", (int)y.status[MESS_ABSORB_OK],
		"none", (int)y.status[MESS_ABSORB_NONE],
		"wide", (int)y.status[MESS_ABSORB_WIDE],
		"unclear", (int)y.status[MESS_ABSORB_UNCLEAR],
		"doubtful_share", y.entries ? (double)(y.status[MESS_ABSORB_WIDE] +
				y.status[MESS_ABSORB_UNCLEAR]) / y.entries : 0.0,
		"pairs", "run", (json_int_t)y.pairs,
		"disturbed", (json_int_t)y.disturbed,
		"measured_again", (json_int_t)y.redone,
		"kept_disturbed", (json_int_t)y.kept,
		"kept_share", y.pairs ? (double)y.kept / (double)y.pairs : 0.0,
		"ladder", lad ? lad : json_null(), "strict", t->o.strict,
		"thresholds", "doubtful_invalid_share", MESS_ABSORB_DOUBTFUL_INVALID,
		"rules", "k1_doubtful: an entry whose k1 status is wide or unclear warns, more than doubtful_invalid_share of the entries makes the table INVALID; disturbed: a pair kept though disturbed warns; the environment's and the latency ladder's rules as for mess ladder; partial: a table cut short warns"))) {
		json_decref(q);
		return NULL;
	}
	return q;
}

void absorb_quality_md(FILE *f, const struct absorb_table *t)
{
	if (t->judged)
		mess_verdict_md(f, &t->verdict);
	else
		fprintf(f, "## Verdict: pending\n\nThe table is being measured; its verdict is written when the run ends.\n\n");
	if (t->machine_ok)
		mess_env_md(f, &t->machine);
}
