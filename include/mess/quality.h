/* SPDX-License-Identifier: MIT */
/*
 * Whether a run can be trusted: the consistency rules every measured
 * curve must obey, the flags a point carries when it breaks one, and a
 * verdict (PASS, WARN, INVALID) with its reasons that every command writes
 * the same way (meta.json "quality", first in its markdown, last on
 * stderr).  Pure: no I/O but the writers' FILE.
 */
#ifndef MESS_QUALITY_H
#define MESS_QUALITY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mess/curve.h"

/*
 * What a point can break.  The first three are found while it is measured
 * (by the harness); the others by mess_quality_curve against the rest of
 * its curve.  A point is flagged only after it was measured again and
 * still broke the rule: it is kept, never dropped.
 */
enum mess_qrule {
	MESS_QR_DISTURBED,	/* disturbed chase windows kept (bound reached) */
	MESS_QR_SPREAD,		/* its repeats disagree by more than 10 % */
	MESS_QR_UNSTEADY,	/* the generators' rate never settled */
	MESS_QR_NON_MONOTONE,	/* more bandwidth than a point under more
				 * pressure, below the curve's maximum */
	MESS_QR_STALL,		/* slower than a point under more pressure */
	MESS_QR_BELOW_UNLOADED,	/* faster than the unloaded chase */
	MESS_QR_DIST_DISAGREES,	/* its latency distribution disagrees with
				 * its mean (mess_point_dist_disagrees) */
	MESS_QR_N
};

#define MESS_QF(rule) (1u << (rule))
/* The flags mess_quality_curve sets (and clears before it looks). */
#define MESS_QF_CURVE_RULES (MESS_QF(MESS_QR_NON_MONOTONE) | \
			     MESS_QF(MESS_QR_STALL) | \
			     MESS_QF(MESS_QR_BELOW_UNLOADED))
/* The flags about a point's tail alone: its mean and bandwidth stand, so
 * they count against no mix (mess_curve_flagged); the quantile families
 * (export and compare --stat) are refused on them instead. */
#define MESS_QF_TAIL MESS_QF(MESS_QR_DIST_DISAGREES)

struct mess_qrule_def {
	const char *name;	/* as written in curves.csv `flags` */
	const char *what;	/* one line for people */
};
extern const struct mess_qrule_def mess_qrules[MESS_QR_N];

/* Flags as "name;name" ("" for none) into buf; returns buf. */
const char *mess_qflags_str(uint32_t flags, char *buf, size_t len);
/* The reverse: 0, or -EINVAL naming nothing known (s may be ""). */
int mess_qflags_parse(const char *s, uint32_t *flags);

/*
 * How far a figure may stray before a rule counts it broken: a relative
 * floor (what accounting and a 1-repeat point cannot resolve) plus nsd
 * combined standard deviations of the two figures compared.
 */
struct mess_qtol {
	double bw_rel;		/* non_monotone: relative bandwidth excess */
	double stall_rel;	/* stall: relative latency excess */
	double below_rel;	/* below_unloaded: relative deficit */
	double nsd;
};
#define MESS_QTOL_DEFAULT { .bw_rel = 0.03, .stall_rel = 0.10, \
			    .below_rel = 0.03, .nsd = 2.0 }

/*
 * The curve rules on c's usable points, setting MESS_QF_CURVE_RULES in
 * each point's flags (cleared first; other flags kept).  A rule's
 * violations are pairs of points; the fewest points that explain those
 * of non_monotone and stall together are flagged, found greedily (the
 * point in most violations first, ties to the one further from its
 * neighbours), so one outlier flags itself and not its neighbours.
 * involved (c->n bytes, may be NULL) gets 1 for every point in a
 * violation: what to measure again before flagging for good.
 * unloaded_ns <= 0 skips below_unloaded.  Returns the points flagged.
 * Time O((n + V) log n) for n points and V violating pairs: only the
 * pairs that can break a rule are looked at, not every pair.
 */
size_t mess_quality_curve(struct mess_curve *c, double unloaded_ns,
			  double unloaded_sd_ns, const struct mess_qtol *t,
			  unsigned char *involved);

/* The combined spread of two figures' standard deviations, one that was
 * not measured (NAN, <= 0) counting as none. */
double mess_qcomb(double a, double b);

/* Points of c carrying a flag against its curve (any but MESS_QF_TAIL). */
size_t mess_curve_flagged(const struct mess_curve *c);

/* How far the distribution window's mean may lie from the point's mean
 * (dist_mean_diff_pct, %) before the two are taken to measure different
 * things. */
#define MESS_Q_DIST_DIFF_PCT 3.0
/*
 * Whether p's latency distribution disagrees with its mean: a p99 below
 * the mean (lat_ns: then the mean rests on less than 1 % of the loads,
 * such as preemptions, or the two were measured in different states of
 * the machine), or a dist_mean_diff_pct beyond +-MESS_Q_DIST_DIFF_PCT.
 * A point without those figures (NAN) does not.  1 or 0.
 */
int mess_point_dist_disagrees(const struct mess_point *p);
/* dist_disagrees set or cleared on every point of f by that rule (before
 * its latencies are read at another statistic): the points carrying it. */
size_t mess_family_dist_flag(struct mess_family *f);

/* ---- verdicts ---- */

enum mess_level { MESS_PASS, MESS_WARN, MESS_INVALID };

#define MESS_VERDICT_MAX 24
#define MESS_REASON_LEN 512

struct mess_reason {
	enum mess_level level;
	char rule[32];		/* a stable id for scripts */
	char text[MESS_REASON_LEN];
};

struct mess_verdict {
	enum mess_level level;	/* the worst of the reasons; PASS if none */
	size_t n, dropped;	/* reasons kept; beyond MESS_VERDICT_MAX */
	struct mess_reason r[MESS_VERDICT_MAX];
	/* The tasks a competition reason names ("" none): the next step
	 * names them again (mess_verdict_next). */
	char who[200];
};

void mess_verdict_init(struct mess_verdict *v);
/* A reason at level (PASS: a note that changes nothing); a text longer
 * than MESS_REASON_LEN is cut after its last whole word, " ..." added. */
void mess_verdict_add(struct mess_verdict *v, enum mess_level level,
		      const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *mess_level_name(enum mess_level l);	/* "PASS", "WARN", "INVALID" */
const char *mess_level_status(enum mess_level l);	/* "ok", "warn", "invalid" */
/* "PASS" etc. back to a level: 0 or -EINVAL. */
int mess_level_parse(const char *s, enum mess_level *l);

/* {"verdict", "reasons": [{"level", "rule", "text"}...], "reasons_dropped",
 * "next_step"};
 * a reason's level is "WARN", "INVALID" or "note" (one that changes
 * nothing), worst first. */
json_t *mess_verdict_json(const struct mess_verdict *v);
/* "## Verdict: WARN" and its reasons as a list: the head of a report. */
void mess_verdict_md(FILE *f, const struct mess_verdict *v);
/* "<prefix>warning: <text>" for each reason above a note: what a look
 * before the start found, said before measuring begins. */
void mess_verdict_warn(FILE *f, const char *prefix, const struct mess_verdict *v);
/* "<prog>: verdict WARN: <reason>" per reason, worst first, then
 * "<prog>: next step: <sentence>". */
void mess_verdict_print(FILE *f, const char *prog, const struct mess_verdict *v);
/*
 * The one thing to do about v, into buf (returned): a table maps the
 * rule of the most telling reason above a note (its rows in the order
 * causes are fixed: competition before what it disturbed) to a sentence;
 * PASS and a rule in no row have their own.  The writers above all say
 * it, so summary.md, report.html, stderr and the JSON agree.
 */
const char *mess_verdict_next(const struct mess_verdict *v, char *buf, size_t len);

/* ---- the curves' run ---- */

struct mess_quality_in {
	double unloaded_ns, unloaded_sd_ns;	/* the windowed chase in use */
	double random_ns, random_sd_ns;	/* fully random; NAN: not measured */
	double clock_spread_pct;	/* the chase core's clock; NAN: unknown */
	/* The windowed chase again after the sweep; NAN: not measured. */
	double unloaded_end_ns, unloaded_end_sd_ns;
};

/*
 * Thresholds of the run's rules (results/README.md lists them): the
 * unloaded chase's coefficient of variation, the clock's spread, and the
 * share of a mix's points that may be flagged before the mix is invalid.
 */
#define MESS_Q_UNLOADED_CV_WARN 0.05
#define MESS_Q_UNLOADED_CV_INVALID 0.15
#define MESS_Q_CLOCK_SPREAD_WARN 5.0
#define MESS_Q_DRIFT_WARN 0.05
/* The windowed chase slower than the fully random one by this share
 * (plus two combined sd): INVALID. */
#define MESS_Q_WINDOW_SLOWER 0.03
#define MESS_Q_MIX_FLAGGED_INVALID (1.0 / 3.0)

/* Whether the unloaded figures keep their rules (spread below the warning
 * level, the windowed chase not slower than the fully random one): 1 or 0. */
int mess_quality_unloaded_ok(const struct mess_quality_in *in);

/*
 * The run rules on a family whose points carry their flags: the unloaded
 * chase steady, the windowed chase not slower than the fully random one,
 * the clock stable, the unloaded chase the same at the end (no drift), and each mix's status (mix[i] for f->curves[i]: ok
 * with no point flagged, invalid with more than a third flagged, warn
 * between).  Reasons are added to v.
 */
void mess_quality_family(const struct mess_family *f,
			 const struct mess_quality_in *in,
			 struct mess_verdict *v, enum mess_level *mix);

/* ---- against the host's earlier runs ---- */

#define MESS_Q_HISTORY_MIN 3	/* earlier runs needed to compare */
#define MESS_Q_HISTORY_BW 0.10
#define MESS_Q_HISTORY_UNLOADED 0.05

/*
 * A run's maximum bandwidth and unloaded latency against the medians of n
 * earlier comparable runs (bw[i], unl[i]; NAN entries left out): with
 * fewer than MESS_Q_HISTORY_MIN, nothing; a maximum bandwidth more than
 * 10 % or an unloaded latency more than 5 % from its median warns
 * ("history"), else a note.  *bw_med, *unl_med get the medians (NAN when
 * not compared).  Returns the runs compared.
 */
size_t mess_quality_history(double max_bw, double unloaded, const double *bw,
			    const double *unl, size_t n, struct mess_verdict *v,
			    double *bw_med, double *unl_med);

#endif
