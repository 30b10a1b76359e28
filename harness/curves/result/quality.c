// SPDX-License-Identifier: MIT
/*
 * Whether the curves can be trusted: the verdict at the end (the machine
 * before the start, the run's rules, each mix's status and what disturbed
 * the chase windows), written into meta.json and summary.md.  The rules
 * after each mix, and the points they have measured again, are the
 * sweep's (sweep.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/measure/disturb.h"
#include "curves/result/run.h"

void mess_run_results(const struct mess_run *r, struct mess_results *res)
{
	*res = (struct mess_results){
		.cfg = &r->cfg, .dir = r->rd.dir, .fam = &r->fam, .u = &r->u,
		.point_ns_total = r->point_ns_total, .st = &r->rep.st,
		.plot_title = r->plot_title,
	};
}

/* A curve none of whose points moved more than this many times the
 * chase's own traffic (a line per unloaded latency) never loaded the
 * memory. */
#define NO_LOAD_CHASE_X 2.0

/*
 * A curve whose every point stayed at the chase's own traffic is no
 * bandwidth-latency curve, whatever its rules say (they hold trivially on
 * a flat line): a replayed set with only its 0 GB/s point, or generators
 * that moved nothing.  Its mix is invalid, and the verdict says so.
 */
static void no_load(const struct mess_run *r, enum mess_level *lv,
		    struct mess_verdict *v)
{
	double line = r->desc.line_bytes ? r->desc.line_bytes : 64;
	double chase_gbs = r->u.ns > 0 ? line / r->u.ns : 0;
	char list[MESS_GEN_OPS * 5 + 16] = "";
	size_t len = 0, n = 0;
	double most = 0;

	for (size_t i = 0; i < r->fam.n; i++) {
		const struct mess_curve *c = &r->fam.curves[i];
		double mx = 0;
		size_t used = 0;

		for (size_t j = 0; j < c->n; j++)
			if (mess_point_usable(&c->pts[j])) {
				mx = fmax(mx, c->pts[j].bw_gbs);
				used++;
			}
		if (!used || mx > NO_LOAD_CHASE_X * chase_gbs)
			continue;
		lv[i] = MESS_INVALID;
		most = fmax(most, mx);
		n++;
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%u", len ? ", " : "", c->store_pct);
	}
	if (n)
		mess_verdict_add(v, MESS_INVALID, "no_load",
				 "%zu mix%s (%s %% stores) never loaded the memory: no point above %.2f GB/s, %g times the chase's own traffic (the most was %.2f GB/s); a flat line at the unloaded latency, not a bandwidth-latency curve (a replayed set with no loaded point, or generators that moved nothing)",
				 n, n == 1 ? "" : "es", list, NO_LOAD_CHASE_X * chase_gbs,
				 NO_LOAD_CHASE_X, most);
}

/*
 * Points whose tail disagrees with their mean.  WARN, not INVALID, and
 * no mix's status: the means and bandwidths, the curves themselves,
 * stand; the quantile families built on those tails are what export and
 * compare --stat refuse without --force.
 */
static void dist_disagrees(struct mess_run *r, struct mess_verdict *v)
{
	size_t n = mess_family_dist_flag(&r->fam), with = 0, below = 0, off = 0;

	if (!n)
		return;
	for (size_t i = 0; i < r->fam.n; i++)
		for (size_t j = 0; j < r->fam.curves[i].n; j++) {
			const struct mess_point *p = &r->fam.curves[i].pts[j];

			with += isfinite(p->lat_p99_ns);
			below += p->lat_p99_ns < p->lat_ns;
			off += fabs(p->dist_mean_diff_pct) > MESS_Q_DIST_DIFF_PCT;
		}
	/* A point may break both: the two counts are each of all. */
	mess_verdict_add(v, MESS_WARN, "dist_disagrees",
			 "%zu of %zu points' latency distributions disagree with their means (flagged dist_disagrees): %zu with a p99 below the mean, %zu with the distribution window's mean more than %.0f %% from the point's; their means stand, but export and compare --stat p50..p99.9 refuse these quantile families without --force",
			 n, with, below, off, MESS_Q_DIST_DIFF_PCT);
}

/* Why the worst disturbed window lost its time. */
static const char *cause(const struct mess_run *r)
{
	if (isfinite(r->rep.st.worst_steal_ms) && r->rep.st.worst_steal_ms > 0)
		return "to steal: the hypervisor ran something else on its vCPU";
	return "to another task or interrupts on its core, with no steal counted";
}

void mess_run_verdict(struct mess_run *r)
{
	const struct mess_qtol tol = MESS_QTOL_DEFAULT;
	enum mess_level *lv = calloc(r->fam.n ? r->fam.n : 1, sizeof(*lv));
	struct mess_verdict *v = &r->verdict;
	struct mess_results res;
	size_t ndist = 0;
	struct mess_quality_in q = {
		.unloaded_ns = r->u.ns, .unloaded_sd_ns = r->u.std_ns,
		.random_ns = r->cfg.window ? r->u.random_ns : NAN,
		.random_sd_ns = r->u.random_std_ns,
		.clock_spread_pct = r->desc.clocks.measured_spread_pct,
		.unloaded_end_ns = r->unloaded_end_ns,
		.unloaded_end_sd_ns = r->unloaded_end_std_ns,
	};

	mess_verdict_init(v);
	r->judged = 1;
	if (!lv) {
		mess_verdict_add(v, MESS_INVALID, "internal", "out of memory judging the run");
		return;
	}
	/* The backend's own first: the machine before the start. */
	mess_run_results(r, &res);
	if (r->be->judge)
		r->be->judge(r->bs, &res, v);
	/* Points of earlier sessions (--resume) are judged with the rest. */
	for (size_t i = 0; i < r->fam.n; i++)
		mess_quality_curve(&r->fam.curves[i], r->u.ns,
				   r->u.std_ns, &tol, NULL);
	mess_quality_family(&r->fam, &q, v, lv);
	dist_disagrees(r, v);
	no_load(r, lv, v);
	for (size_t i = 0; i < r->fam.n; i++)
		if (r->fam.curves[i].store_pct <= MESS_GEN_OPS)
			r->mix_level[r->fam.curves[i].store_pct] = lv[i];
	free(lv);
	if (!r->desc.dist_known)
		mess_verdict_add(v, MESS_WARN, "disturbance_unknown",
				 "what disturbed the chase windows could not be read (thread CPU clocks): a disturbed window cannot be told from a quiet one");
	for (size_t i = 0; i < r->fam.n; i++)
		for (size_t j = 0; j < r->fam.curves[i].n; j++)
			ndist += !!(r->fam.curves[i].pts[j].flags & MESS_QF(MESS_QR_DISTURBED));
	if (ndist)
		mess_verdict_add(v, MESS_WARN, "disturbed",
				 "%zu points kept disturbed windows as half or more of their repeats (flagged disturbed); %u of %u chase windows were disturbed, each measured again up to the bound; the worst: %s lost %.0f %% of its time %s",
				 ndist, r->rep.st.windows_disturbed, r->rep.st.windows, r->rep.st.worst_who,
				 r->rep.st.worst_lost_pct, cause(r));
	else if (r->rep.st.windows_kept_disturbed)
		mess_verdict_add(v, MESS_PASS, "disturbed_minority",
				 "%u of %u chase windows were disturbed and measured again; %u were kept at the bound, each a minority of its point's repeats, so no median rests on them; the worst: %s lost %.0f %% of its time %s",
				 r->rep.st.windows_disturbed, r->rep.st.windows, r->rep.st.windows_kept_disturbed,
				 r->rep.st.worst_who, r->rep.st.worst_lost_pct, cause(r));
	else if (r->rep.st.windows_disturbed)
		mess_verdict_add(v, MESS_PASS, "disturbed_replaced",
				 "%u of %u chase windows were disturbed and measured again; none was kept; the worst: %s lost %.0f %% of its time %s",
				 r->rep.st.windows_disturbed, r->rep.st.windows, r->rep.st.worst_who,
				 r->rep.st.worst_lost_pct, cause(r));
	/* Readings the hardware cannot give were discarded: said, and the
	 * run judged by how many there were, as interfere's windows. */
	if (r->rep.st.windows_impossible)
		mess_verdict_add(v, 3 * r->rep.st.windows_impossible > r->rep.st.windows ?
				 MESS_INVALID : MESS_WARN, "impossible",
				 "%u of %u chase windows read what the hardware cannot do (a load faster than an L1 hit, below %.2f ns: %s; or a bandwidth past %.2fx the memory's peak): discarded, never a figure nor the size of a next window, each measured again up to the repeats",
				 r->rep.st.windows_impossible, r->rep.st.windows,
				 r->rep.floor_ns, r->rep.floor_source, MESS_PEAK_CEIL);
	if (isfinite(r->desc.migrations) && r->desc.migrations > 0)
		mess_verdict_add(v, MESS_WARN, "migrated",
				 "measuring threads migrated %.0f times off the cores they were pinned to (something changed their affinity)",
				 r->desc.migrations);
	if (isfinite(r->u.cv_first))
		mess_verdict_add(v, MESS_PASS, "unloaded_remeasured",
				 "the unloaded latency broke a rule at first (spread %.1f %%) and was measured again; the figures are the second measurement's",
				 100 * r->u.cv_first);
	if (r->points_rule_remeasured)
		mess_verdict_add(v, MESS_PASS, "remeasured",
				 "%u points were measured again because they broke a rule or might be a wave (curves.csv remeasured)",
				 r->points_rule_remeasured);
}

json_t *mess_run_quality_json(const struct mess_run *r)
{
	json_t *q = mess_verdict_json(&r->verdict), *mixes = json_array();
	const struct mess_qtol tol = MESS_QTOL_DEFAULT;

	for (size_t i = 0; i < r->fam.n; i++) {
		const struct mess_curve *c = &r->fam.curves[i];
		json_t *fl = json_object();

		for (int k = 0; k < MESS_QR_N; k++) {
			unsigned n = 0;

			for (size_t j = 0; j < c->n; j++)
				n += !!(c->pts[j].flags & MESS_QF(k));
			json_object_set_new(fl, mess_qrules[k].name, json_integer(n));
		}
		json_array_append_new(mixes, mess_json_pack("{s:i, s:s, s:I, s:I, s:o}",
			"store_pct", (int)c->store_pct,
			"status", mess_level_status(c->store_pct <= MESS_GEN_OPS ?
						    r->mix_level[c->store_pct] : MESS_INVALID),
			"points", (json_int_t)mess_curve_usable(c),
			"flagged", (json_int_t)mess_curve_flagged(c), "flags", fl));
	}
	if (mess_json_merge(q, mess_json_pack(
		"{s:o, s:{s:i, s:i, s:i, s:i, s:o, s:s, s:s, s:s}, s:i, s:i, s:[o,o], s:o, s:o, s:o, s:b,"
		" s:{s:s, s:I, s:I, s:o, s:o, s:s},"
		" s:{s:o, s:o, s:o, s:s},"
		" s:{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}}",
		"mixes", mixes,
		"windows", "measured", (int)r->rep.st.windows,
		"disturbed", (int)r->rep.st.windows_disturbed,
		"kept_disturbed", (int)r->rep.st.windows_kept_disturbed,
		"impossible", (int)r->rep.st.windows_impossible,
		"floor_ns", mess_json_real(r->rep.floor_ns, 3),
		"floor_source", r->rep.floor_source,
		"disturbed_rule", "a measuring thread (the chase or a generator) lost more than 2 % of the window's wall time (wall minus its on-CPU time: steal, another task, interrupts), or the chase core's clock moved more than 5 % across it",
		"bound", "a point measures at most as many disturbed windows again as it has repeats (one, after a point that had to keep one: a disturbance that stays is not waited out); then they are kept, and the point is flagged disturbed when they are half or more of its repeats (its figures are medians)",
		"points_remeasured_for_rules", (int)r->points_rule_remeasured,
		"wave_candidates_checked", (int)r->waves_checked,
		"chase_clock_ghz_range", mess_json_real(r->rep.st.clock_hi > 0 ? r->rep.st.clock_lo : NAN, 3),
		mess_json_real(r->rep.st.clock_hi > 0 ? r->rep.st.clock_hi : NAN, 3),
		"migrations", mess_json_real(r->desc.migrations, 0),
		"unloaded_end_ns", mess_json_real(r->unloaded_end_ns, 3),
		"unloaded_end_std_ns", mess_json_real(r->unloaded_end_std_ns, 3),
		"strict", r->cfg.strict,
		"history",
		"looked_in", r->history_dir,
		"comparable_runs", (json_int_t)r->history_seen,
		"compared", (json_int_t)r->history_runs,
		"median_max_bw_gbs", mess_json_real(r->history_bw_ns[0], 3),
		"median_unloaded_ns", mess_json_real(r->history_bw_ns[1], 3),
		"rule", "the run directory's siblings measured by mess on this host and CPU, complete and judged PASS, with the same generator variant and count, chase buffer, window and stride, memory node and bandwidth source (the newest 64 read); compared from 3 on: a maximum bandwidth more than 10 % or an unloaded latency more than 5 % from their medians warns",
		"read_cost",
		"total_ms", mess_json_real(r->desc.trust_ns / 1e6, 1),
		"per_window_us", mess_json_real(r->rep.st.windows ? r->desc.trust_ns / 1e3 / r->rep.st.windows : NAN, 0),
		"per_point_ms", mess_json_real(r->desc.trust_points ? r->desc.trust_ns / 1e6 / r->desc.trust_points : NAN, 2),
		"what", "the chase core's clock before and after each window and the disturbance reads around it, and the switches and migrations around each point: all outside the timed loop and the generators' accounting window, but in the run's wall time",
		"thresholds",
		"non_monotone_bw_rel", tol.bw_rel, "stall_lat_rel", tol.stall_rel,
		"below_unloaded_rel", tol.below_rel, "spread_sds", tol.nsd,
		"unloaded_cv_warn", MESS_Q_UNLOADED_CV_WARN,
		"unloaded_cv_invalid", MESS_Q_UNLOADED_CV_INVALID,
		"drift_warn", MESS_Q_DRIFT_WARN,
		"window_slower_rel", MESS_Q_WINDOW_SLOWER,
		"clock_spread_warn_pct", MESS_Q_CLOCK_SPREAD_WARN,
		"mix_flagged_invalid_share", MESS_Q_MIX_FLAGGED_INVALID,
		"lost_max_pct", MESS_LOST_MAX_PCT,
		"no_load_chase_x", NO_LOAD_CHASE_X))) {
		json_decref(q);
		return NULL;
	}
	return q;
}

void mess_run_quality_md(FILE *f, const struct mess_run *r)
{
	struct mess_results res;

	mess_run_results(r, &res);
	mess_verdict_md(f, &r->verdict);
	if (r->be->md)
		r->be->md(r->bs, f, MESS_MD_VERDICT, &res);
	fprintf(f, "| mix (store %%) | status | points | flagged | disturbed windows (measured again) |\n|---:|---|---:|---:|---:|\n");
	for (size_t i = 0; i < r->fam.n; i++) {
		const struct mess_curve *c = &r->fam.curves[i];
		double dist = 0;

		for (size_t j = 0; j < c->n; j++)
			if (isfinite(c->pts[j].disturbed))
				dist += c->pts[j].disturbed;
		fprintf(f, "| %u | %s | %zu | %zu | %.0f |\n", c->store_pct,
			mess_level_status(c->store_pct <= MESS_GEN_OPS ?
					  r->mix_level[c->store_pct] : MESS_INVALID),
			mess_curve_usable(c), mess_curve_flagged(c), dist);
	}
	fprintf(f, "\nA flagged point broke a rule and still did when measured again; it is kept in curves.csv with its `flags` (results/README.md lists the rules).\n\n");
}
