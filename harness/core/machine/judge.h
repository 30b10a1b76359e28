/* SPDX-License-Identifier: MIT */
/*
 * The verdict of a measuring command that has no curve to judge (mess
 * matrix, c2c, interfere): the machine looked at before the start
 * (environ.h), then, at the end, its reasons with the command's own
 * evidence counted against a table of shares.  Written as the curves'
 * are: meta.json `quality` ("pending" until judged), the head of
 * summary.md, the closing lines on stderr, and --strict's exit 2.
 */
#ifndef MESS_JUDGE_H
#define MESS_JUDGE_H

#include <jansson.h>
#include <stdio.h>

#include "core/machine/environ.h"
#include "mess/quality.h"

/*
 * One row of a command's table: how many of its items (windows, pairs,
 * cells) broke a rule.  A reason is added when any did: a note below
 * warn, WARN from warn, INVALID above invalid (shares of all the items;
 * invalid >= 1: never).
 */
struct mess_judge_rule {
	const char *rule;	/* the reason's id */
	const char *what;	/* the items that broke it, plural */
	double warn, invalid;
	const char *means;	/* what it does to the figures */
};

/* rule's reason for n of all items, if any broke it. */
void mess_judge_count(const struct mess_judge_rule *r, unsigned n,
		      unsigned all, struct mess_verdict *v);
/* The table's thresholds as meta.json gives them: [{rule, warn_share,
 * invalid_share, what}]. */
json_t *mess_judge_rules_json(const struct mess_judge_rule *r, size_t n);

struct mess_judge {
	struct mess_env env;
	int looked;		/* env filled */
	struct mess_verdict v;
	int judged;		/* v is the run's: else "pending" */
};

/*
 * Look at the machine on cores[n] (hwloc logical) and node, say what it
 * found on stderr as prog's warnings: 0, or -errno said (the run goes
 * on without it: its verdict says so).
 */
int mess_judge_look(struct mess_judge *j, struct mess_topo *t, const int *cores,
		    int n, int node, const char *prog);
/* The verdict begun: the look's reasons, and partial_rerun when the run
 * was cut short (what names the items it kept). */
void mess_judge_begin(struct mess_judge *j, int complete, const char *what);
/* meta.json's quality (its rules and strict beside it) and environment. */
json_t *mess_judge_quality(const struct mess_judge *j, json_t *rules, int strict);
json_t *mess_judge_env_json(const struct mess_judge *j);
/* The head of summary.md: the verdict (or pending) and the machine. */
void mess_judge_md(FILE *f, const struct mess_judge *j);
/* "PASS: " etc. for a figure's title ("" until judged). */
const char *mess_judge_prefix(const struct mess_judge *j, char *buf, size_t len);
/* The closing lines, then --strict: -EIO (exit 2) when INVALID, rc
 * otherwise. */
int mess_judge_end(const struct mess_judge *j, const char *prog, const char *dir,
		   int strict, int rc);
void mess_judge_fini(struct mess_judge *j);

#endif
