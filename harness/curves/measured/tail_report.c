// SPDX-License-Identifier: MIT
/* The distribution's files: latency_hist.csv, meta.json's `distribution`
 * and summary.md's section (see tail.h and results/README.md). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "mess/parse.h"
#include "mess/stats.h"
#include "curves/measured/measured.h"
#include "curves/measured/tail.h"

#define HIST_CSV "latency_hist.csv"
#define HIST_HEADER "mix,nop,bin_lo_ns,bin_hi_ns,count"

static int add_row(struct mess_tail *t, const struct mess_tail_row *row)
{
	struct mess_tail_row *n = mess_grow(t->rows, t->nrows, &t->caprows,
					    sizeof(*n), 1024);

	if (!n)
		return -ENOMEM;
	t->rows = n;
	t->rows[t->nrows++] = *row;
	return 0;
}

int mess_tail_set_rows(struct mess_tail *t, int mix, uint64_t nop,
		       const struct mess_hist *h)
{
	double k = 1e9 / t->timer.hz / (double)t->n;
	size_t j = 0;
	int err = 0;

	/* A point measured again replaces its rows. */
	for (size_t i = 0; i < t->nrows; i++)
		if (!(t->rows[i].mix == mix && t->rows[i].nop == nop))
			t->rows[j++] = t->rows[i];
	t->nrows = j;
	for (unsigned i = 0; i < MESS_HIST_NBINS && !err; i++) {
		struct mess_tail_row row = {
			.mix = mix, .nop = nop, .count = h->bins[i],
			.lo_ns = (mess_hist_lo(i) - t->overhead_ticks) * k,
			.hi_ns = (mess_hist_hi(i) - t->overhead_ticks) * k,
		};

		if (h->bins[i])
			err = add_row(t, &row);
	}
	return err;
}

int mess_tail_write_csv(struct mess_measured *r)
{
	const struct mess_tail *t = &r->tail;
	FILE *f;

	if (!t->ok)
		return 0;
	f = mess_tmp_open(r->dir, HIST_CSV);
	if (!f)
		return -errno;
	fputs(HIST_HEADER "\n", f);
	for (size_t i = 0; i < t->nrows; i++) {
		const struct mess_tail_row *w = &t->rows[i];

		if (w->mix < 0)
			fprintf(f, "unloaded,,%.4f,%.4f,%" PRIu64 "\n", w->lo_ns,
				w->hi_ns, w->count);
		else
			fprintf(f, "%d,%" PRIu64 ",%.4f,%.4f,%" PRIu64 "\n", w->mix,
				w->nop, w->lo_ns, w->hi_ns, w->count);
	}
	return mess_tmp_commit(r->dir, HIST_CSV, f);
}

/* One row of a point ("mix,nop,lo,hi,count", the whole line), or -1. */
static int parse_row(const char *line, struct mess_tail_row *w)
{
	int end = -1;

	if (sscanf(line, "%d,%" SCNu64 ",%lf,%lf,%" SCNu64 "%n", &w->mix,
		   &w->nop, &w->lo_ns, &w->hi_ns, &w->count, &end) != 5 ||
	    end < 0 || (line[end] && strcmp(line + end, "\n")))
		return -1;
	return w->mix >= 0 && w->mix <= MESS_GEN_OPS && isfinite(w->lo_ns) &&
	       isfinite(w->hi_ns) && w->lo_ns <= w->hi_ns ? 0 : -1;
}

/* The points of earlier sessions keep their histograms (the unloaded one
 * is measured again).  The file is ours, written whole (tmp + rename): a
 * line that is not its header (a UTF-8 BOM before it is taken, as an
 * editor adds one) or one of its rows is damage, and the resume is
 * refused before anything is measured, never run on without the rows. */
int mess_tail_load_csv(void *bs, const char *dir)
{
	struct mess_measured *r = bs;
	static const char bom[] = "\xef\xbb\xbf";
	char path[PATH_MAX + 32], line[256];
	const char *why = NULL;
	long lineno = 1;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/" HIST_CSV, dir);
	f = mess_fopen_regular(path, NULL, 0);
	if (!f) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "mess: --resume: %s: %s; allowed: a run directory written by mess, readable (nothing was changed)\n",
			path, strerror(errno));
		return -EINVAL;
	}
	if (!fgets(line, sizeof(line), f) ||
	    strcmp(line + (strncmp(line, bom, 3) ? 0 : 3), HIST_HEADER "\n"))
		why = "not the header of " HIST_CSV;
	while (!why && !err && fgets(line, sizeof(line), f)) {
		struct mess_tail_row w;

		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			why = "a line too long for a row of " HIST_CSV;
		else if (!strncmp(line, "unloaded,", 9))
			continue;	/* measured again */
		else if (parse_row(line, &w))
			why = "not a row of " HIST_CSV " (mix,nop,bin_lo_ns,bin_hi_ns,count)";
		else
			err = add_row(&r->tail, &w);
	}
	if (!why && !err && ferror(f))
		why = "a read error";
	fclose(f);
	if (why) {
		fprintf(stderr, "mess: --resume: %s:%ld: %s; allowed: a run directory written by mess (nothing was changed)\n",
			path, lineno, why);
		return -EINVAL;
	}
	return err;
}

/* Per mix: p99/p50 at the lightest and the heaviest load, and the
 * fairness at the judged point: the saturated point (latency >= 2x
 * unloaded, the summary's rule) with the least Jain's index or, where none
 * saturated, the heaviest.  unfair is 1 or 0, or -1 where it cannot be
 * judged (fewer than two generator cores, or no fairness at that point):
 * "not evaluable" must never read as "checked and fair". */
struct mix_tail {
	double idle_ratio, max_ratio, jain_sat;
	const struct mess_point *judged;	/* NULL: no point */
	int saturated;		/* judged among the saturated points */
	int unfair;
};

static void mix_tail(const struct mess_measured *r, const struct mess_curve *c,
		     struct mix_tail *m)
{
	const struct mess_point *lo = NULL, *hi = NULL, *sat = NULL;

	m->idle_ratio = m->max_ratio = m->jain_sat = NAN;
	m->judged = NULL;
	m->saturated = 0;
	m->unfair = -1;
	for (size_t i = 0; i < c->n; i++) {
		const struct mess_point *p = &c->pts[i];

		if (!lo || p->nop > lo->nop)
			lo = p;
		if (!hi || p->nop < hi->nop)
			hi = p;
		if (!(p->lat_ns >= 2 * r->u.ns))
			continue;
		/* The least index; without any, the heaviest saturated. */
		if (!sat || (isfinite(p->fair_jain) ?
			     !(p->fair_jain >= sat->fair_jain) :
			     !isfinite(sat->fair_jain) && p->nop < sat->nop))
			sat = p;
	}
	if (!lo)
		return;
	m->idle_ratio = lo->lat_p99_ns / lo->lat_p50_ns;
	m->max_ratio = hi->lat_p99_ns / hi->lat_p50_ns;
	m->saturated = sat != NULL;
	m->judged = sat ? sat : hi;
	m->jain_sat = m->judged->fair_jain;
	if (r->ngen >= 2 && isfinite(m->jain_sat))
		m->unfair = m->jain_sat < MESS_FAIR_JAIN_MIN;
}

/* Which point the fairness was judged at, and its shares. */
static json_t *judged_json(const struct mix_tail *m)
{
	const struct mess_point *p = m->judged;

	if (!p)
		return json_null();
	return mess_json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o}",
		"chosen", m->saturated ? "saturated" : "heaviest",
		"nop", (json_int_t)p->nop,
		"bw_gbs", mess_json_real(p->bw_gbs, 3),
		"lat_ns", mess_json_real(p->lat_ns, 2),
		"fair_min", mess_json_real(p->fair_min, 4),
		"fair_median", mess_json_real(p->fair_median, 4),
		"fair_max", mess_json_real(p->fair_max, 4),
		"fair_jain", mess_json_real(p->fair_jain, 4));
}

/* Why no mix's fairness can be judged at all; NULL when it can. */
static const char *fair_not_evaluable(const struct mess_measured *r)
{
	if (r->ngen == 1)
		return "one generator core: no other core's share to compare";
	if (r->ngen < 1)
		return "no generator core";
	return NULL;
}

/* A figure, or "unknown" (never "nan"). */
static const char *fig(char *buf, size_t len, double v, int decimals)
{
	if (!isfinite(v))
		return "unknown";
	snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

static int refresh_like(double ns)
{
	return ns >= MESS_REFRESH_LO_NS && ns <= MESS_REFRESH_HI_NS;
}

/* The fixed costs: the windows' own and the probes' beside them; the
 * windows measured again and why, the preemption cut and the paired means
 * (window.h). */
/* How n figures spread (ns): count, median, p10, p90, extremes; and the
 * method, when there is one to say. */
static json_t *spread(const double *v, size_t n, const char *method)
{
	json_t *j = mess_json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}",
		"measured", (json_int_t)n,
		"median_ns", mess_json_real(mess_quantile(v, n, 0.5), 3),
		"p10_ns", mess_json_real(mess_quantile(v, n, 0.1), 3),
		"p90_ns", mess_json_real(mess_quantile(v, n, 0.9), 3),
		"min_ns", mess_json_real(mess_quantile(v, n, 0), 3),
		"max_ns", mess_json_real(mess_quantile(v, n, 1), 3));

	if (j && method)
		json_object_set_new(j, "method", json_string(method));
	return j;
}

static json_t *windows_json(const struct mess_tail *t)
{
	const double *v = t->hs.costs, *o = t->own;
	size_t n = t->hs.ncosts, no = t->nown;
	json_t *j;

	j = mess_json_pack("{s:o, s:o,"
			   " s:{s:i, s:i, s:i, s:i, s:i, s:i, s:s},"
			   " s:{s:f, s:f, s:s}, s:{s:f, s:s}}",
		"fixed_costs", spread(v, n, "the probes', ns a batch: the run's first (fixed_cost_ns_per_batch), then one just before and one just after every window (the timed chase's mean over 1000 batches on the L1-resident chain less loads_per_batch x the untimed chase's latency there, medians of 3); the state's evidence, and the cost of a window that has none of its own"),
		"own_costs", spread(o, no, "the kept windows' own, ns a batch, each subtracted from its window's batches (curves.csv dist_cost_ns): each timed sub-window is 8 chunks of its batches, each followed by a burst of 128 timed batches on the L1-resident chain (after an untimed pass that brings it back); the cost is the bursts' mean ticks a batch (preemptions cut) less loads_per_batch x the L1 chain's latency, so it follows the host's state through the window"),
		"disturbed_windows",
		"measured_again", (int)t->win_disturbed,
		"kept_disturbed", (int)t->win_kept_disturbed,
		"no_own_cost", (int)t->why_count[0],
		"preempted", (int)t->why_count[2],
		"lost_time", (int)t->why_count[3],
		"diff_beyond", (int)t->why_count[5],
		"rule", "a window is measured again (at most 3 attempts, 1 after a window kept disturbed) when it has no fixed cost of its own (its L1 bursts' below 0: the probes' mean is used), its preempted batches hold more than 2 % of its timed time, the chase thread lost more than 2 % of its wall time, the host's state changed during it (host_state), or its paired difference (mean_diff_pct) lies beyond +-3 %",
		"preemption_cut",
		"floor_ns", MESS_TAIL_CUT_NS,
		"median_batches", MESS_TAIL_CUT_MEDIANS,
		"rule", "a batch at or above the greater of floor_ns and median_batches x its sub-window's median batch is left out of the mean and the quantiles and counted (curves.csv dist_preempted)",
		"paired_means",
		"timed_sub_window_ms", MESS_TAIL_SUB_MS,
		"method", "each window alternates untimed (the unrolled chase) and timed sub-windows, U T U ... T U, the untimed half as long; mean_diff_pct is the median over the timed sub-windows of (timed mean a load - the mean of the two untimed beside it) / that, %");
	if (j)
		json_object_set_new(json_object_get(j, "disturbed_windows"),
				    "state_changed",
				    json_integer(t->why_count[4]));
	return j;
}

/* The host's state as the probes and the windows' L2 clusters saw it
 * (tail.h), and the verdict on it. */
static json_t *host_state_json(const struct mess_tail *t)
{
	const struct mess_hoststate *h = &t->hs;
	const char *verdict = t->state_changed ? "changed" :
			      !h->l2_lines ? "not evaluable" : "steady";

	return mess_json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:o,"
			      " s:{s:I, s:o, s:o, s:o}, s:i, s:i, s:s}",
		"verdict", verdict,
		"why", t->state_changed ?
			"windows were kept across a change of state after every attempt: their figures mix two states of the host (the verdict warns, host_state, when the unloaded window is one or they are more than 10 % of the windows)" :
			!h->l2_lines ? "no L2-resident chain (the L2 is unknown here, or under four times the L1): only the fixed cost's check ran" :
			"no window was kept across a change of state",
		"l2_chain_bytes", (json_int_t)(h->l2_lines * h->line),
		"l2_start_ns", mess_json_real(t->l2_start_ns, 3),
		"l2_ref_ns", mess_json_real(t->l2_ref_ns, 3),
		"l2_bound_ns", mess_json_real(t->l2_bound_ns, 3),
		"l2_probes", spread(h->l2s, h->nl2s, NULL),
		"l2_cluster",
		"windows_placed", (json_int_t)t->nl2_at,
		"median_ns", mess_json_real(mess_quantile(t->l2_at, t->nl2_at, 0.5), 3),
		"share_median_pct", mess_json_real(mess_quantile(t->shares, t->nshares, 0.5), 4),
		"share_max_pct", mess_json_real(mess_quantile(t->shares, t->nshares, 1), 4),
		"windows_measured_again", (int)t->why_count[4],
		"windows_kept_changed", (int)t->state_changed,
		"rule", "l2_start_ns: the untimed chase on an L2-resident chain (a quarter of the L2, at most 256 KiB, in a huge page where THP gives one) at the start; before and after every window the same probe (after one pass to bring the chain back) and the fixed cost's; l2_ref_ns: the reference the last window was judged by (the 10th percentile of the probes before it); a window's L2 cluster is its batches whose latency a load, its cost off, lies under 3 x the reference it is judged by (l2_bound_ns: the last window's; one load a batch only): curves.csv dist_l2_share_pct and dist_l2_ns (their mean, with 32 batches or more).  The state changed during a window when its cluster lies more than 2 ns from the reference (the 10th percentile of the L2 probes before it: the L2 in the host's best state), its two probes lie more than 2 ns apart or both more than 2 ns above the reference, or its share differs from the median share of the windows before by more than 0.5 percentage points and 3 times: it is measured again like a disturbed window, and one kept so is said here and in the verdict (host_state); steal and lost time cannot see such a change");
}

json_t *mess_tail_json(const struct mess_measured *r,
		       const struct mess_family *fam)
{
	const struct mess_tail *t = &r->tail;
	json_t *modes, *mixes, *unfair, *j;
	double tick;

	if (!t->ok)
		return mess_json_pack("{s:s, s:s}", "status", "not measured",
				      "why", t->why[0] ? t->why :
				      "the run stopped before the unloaded latency was measured");
	tick = 1e9 / t->timer.hz;
	modes = json_array();
	for (size_t i = 0; i < t->nmodes; i++)
		json_array_append_new(modes, mess_json_pack("{s:o, s:o, s:o, s:b}",
			"share_pct", mess_json_real(100 * t->modes[i].share, 3),
			"offset_ns", mess_json_real(t->modes[i].offset, 1),
			"at_ns", mess_json_real(t->modes[i].at, 1),
			"consistent_with_refresh", refresh_like(t->modes[i].offset)));
	mixes = json_array();
	unfair = json_array();
	for (size_t i = 0; i < fam->n; i++) {
		struct mix_tail m;

		mix_tail(r, &fam->curves[i], &m);
		json_array_append_new(mixes, mess_json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}",
			"store_pct", (int)fam->curves[i].store_pct,
			"p99_over_p50_idle", mess_json_real(m.idle_ratio, 3),
			"p99_over_p50_max_load", mess_json_real(m.max_ratio, 3),
			"jain_saturated_min", mess_json_real(m.jain_sat, 4),
			"unfair_under_saturation", m.unfair < 0 ? json_null() :
						   json_boolean(m.unfair),
			"judged_point", judged_json(&m)));
		if (m.unfair > 0)
			json_array_append_new(unfair, json_integer(fam->curves[i].store_pct));
	}
	j = mess_json_pack("{s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:s, s:I, s:b, s:o, s:o, s:o, s:i, s:s,"
			   " s:f, s:{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:i, s:o}, s:o, s:o,"
			   " s:o, s:i, s:o, s:o, s:s, s:{s:i, s:f, s:o, s:o, s:s}, s:{s:i, s:i, s:s}}",
		"status", "measured",
		"timer", t->timer.name,
		"timer_hz", mess_json_real(t->timer.hz, 0),
		"timer_rate_source", t->timer.source,
		"timer_stated_hz", mess_json_real(t->timer.stated_hz, 0),
		"timer_calibrated_hz", mess_json_real(t->timer.calibrated_hz, 0),
		"tick_ns", mess_json_real(tick, 4),
		"resolution_ns", mess_json_real(tick * (double)t->timer.step_ticks, 3),
		"resolution_method", "the greatest common divisor of the deltas of 20000 back-to-back reads a varying spin apart, in ticks, times tick_ns",
		"loads_per_batch", (json_int_t)t->n,
		"batched_for_coarse_timer", t->n > 1,
		"fixed_cost_ticks_per_batch", mess_json_real(t->overhead_ticks, 2),
		"fixed_cost_ns_per_batch", mess_json_real(t->overhead_ticks * tick, 3),
		"l1_chase_ns", mess_json_real(t->l1_ns, 3),
		"l1_chain_lines", (int)t->l1_lines,
		"fixed_cost_method", "the run's first: the timed chase's mean ticks a batch on an L1-resident chain, less loads_per_batch x the untimed chase's latency on the same chain (medians of 7); each window subtracts its own (windows_check.own_costs), not this, from every batch before dividing by loads_per_batch",
		"window_ms", t->window_ms,
		"unloaded",
		"p50_ns", mess_json_real(t->idle.p50, 2),
		"p90_ns", mess_json_real(t->idle.p90, 2),
		"p99_ns", mess_json_real(t->idle.p99, 2),
		"p999_ns", mess_json_real(t->idle.p999, 2),
		"max_ns", mess_json_real(t->idle.max, 2),
		"mean_ns", mess_json_real(t->idle.mean, 3),
		"chase_mean_ns", mess_json_real(t->idle_chase_ns, 3),
		"mean_diff_pct", mess_json_real(t->idle_diff_pct, 3),
		"batches", (json_int_t)t->idle.n,
		"attempts", (int)t->idle_attempts,
		"lost_pct", mess_json_real(t->idle_lost_pct, 2),
		"main_mode_ns", mess_json_real(t->main_mode_ns, 1),
		"modes", modes,
		"windows_s", mess_json_real(t->extra_ns / 1e9, 3),
		"windows", (int)t->windows,
		"setup_s", mess_json_real(t->setup_ns / 1e9, 3),
		"plot_s", mess_json_real(t->plot_ns / 1e9, 3),
		"plot", t->plot_note[0] ? t->plot_note :
			r->cfg.no_plots ? "skipped: --no-plots" : "pending",
		"fairness",
		"generator_cores", r->ngen,
		"jain_min", MESS_FAIR_JAIN_MIN,
		"mixes", mixes,
		"unfair_under_saturation", unfair,
		"rule", "a mix is flagged when Jain's index of the generator cores' bandwidth falls under jain_min at its judged point (judged_point: the saturated point, latency >= 2x unloaded, with the least index, the heaviest saturated one where none has an index; the heaviest point where none saturated); unfair_under_saturation is null where it cannot be judged: one generator core has nothing to compare (empty columns; not_evaluable says so), or the judged point has no fairness",
		"histogram",
		"sub_bins_per_octave", (int)MESS_HIST_SUB,
		"bins", (int)MESS_HIST_NBINS,
		"quantile", "the midpoint of the bin holding the ceil(q x batches)-th batch (within 1/64 of it), the fixed cost off, over loads_per_batch");
	if (j) {
		json_t *fa = json_object_get(j, "fairness");
		const char *why = fair_not_evaluable(r);

		/* Not evaluable: null, never an empty list read as fair. */
		json_object_set_new(fa, "not_evaluable", why ? json_string(why) : json_null());
		if (why)
			json_object_set_new(fa, "unfair_under_saturation", json_null());
	}
	if (j) {
		json_t *u = json_object_get(j, "unloaded");

		json_object_set_new(j, "windows_check", windows_json(t));
		json_object_set_new(j, "host_state", host_state_json(t));
		json_object_set_new(u, "l2_share_pct", mess_json_real(t->idle_l2_share, 4));
		json_object_set_new(u, "l2_ns", mess_json_real(t->idle_l2_ns, 2));
		/* the paired difference, its cost and its cut (tail.h) */
		json_object_set_new(u, "cost_ns", mess_json_real(t->idle_cost_ns, 3));
		json_object_set_new(u, "preempted", json_integer((json_int_t)t->idle_preempted));
		json_object_set_new(u, "pairs", json_integer((json_int_t)t->idle_pairs));
		json_object_set_new(u, "kept_disturbed", json_boolean(t->idle_why != 0));
	}
	return j;
}

void mess_tail_md(FILE *f, const struct mess_measured *r,
		  const struct mess_results *res)
{
	const struct mess_tail *t = &r->tail;
	double tick;

	fprintf(f, "\n## Latency distribution\n\n");
	if (!t->ok) {
		fprintf(f, "Not measured: %s.\n", t->why[0] ? t->why :
			"the run stopped before the unloaded latency was measured");
		return;
	}
	tick = 1e9 / t->timer.hz;
	fprintf(f, "Timed chase: `%s` at %.0f Hz (%s), %.3f ns a tick, stepping by %.2f ns; batches of %" PRIu64 " load%s%s.  "
		   "Fixed cost of the timer reads, %.1f ns a batch, measured on an L1-resident chain and subtracted (meta.json `distribution`).\n\n",
		t->timer.name, t->timer.hz, t->timer.source, tick,
		tick * (double)t->timer.step_ticks, t->n,
		t->n == 1 ? "" : "s",
		t->n > 1 ? " (the timer is too coarse for one)" : "",
		t->overhead_ticks * tick);
	char b[6][32];

	fprintf(f, "Unloaded: p50 %s, p90 %s, p99 %s, p99.9 %s, max %s ns; mean %.1f ns, %s %% from the unrolled chase in the untimed sub-windows beside the timed ones (the median of %zu pairs; the unrolled chase measured before it: %.1f ns); fixed cost %.1f ns a batch, the window's own; %" PRIu64 " batches left out as preemptions.\n",
		fig(b[0], 32, t->idle.p50, 1), fig(b[1], 32, t->idle.p90, 1),
		fig(b[2], 32, t->idle.p99, 1), fig(b[3], 32, t->idle.p999, 1),
		fig(b[4], 32, t->idle.max, 1), t->idle.mean,
		fig(b[5], 32, t->idle_diff_pct, 1), t->idle_pairs, t->idle_chase_ns,
		t->idle_cost_ns, t->idle_preempted);
	if (t->idle_why & ~MESS_TAIL_DIST_LOST)
		fprintf(f, "The unloaded window was disturbed in all %u attempts (%s%s%s%s): its figures may mix two states of the host.\n",
			t->idle_attempts,
			t->idle_why & MESS_TAIL_DIST_COSTS ? "no fixed cost of its own; " : "",
			t->idle_why & MESS_TAIL_DIST_PREEMPTED ? "preemptions; " : "",
			t->idle_why & MESS_TAIL_DIST_STATE ? "the host's state changed; " : "",
			t->idle_why & MESS_TAIL_DIST_DIFF ? "timed and untimed means more than 3 % apart" : "");
	if (t->hs.l2_lines)
		fprintf(f, "Host state: %s.  The L2 probe (an L2-resident chain beside every window) read %.2f ns at the start, %.2f ns as the last window's reference (the 10th percentile of its probes); %u windows were measured again because the L2 latency or the share of L2 hits moved, %u kept so (meta.json `distribution.host_state`).\n",
			t->state_changed ? "**changed** during kept windows: their tails mix two states of the host" : "steady",
			t->l2_start_ns, t->l2_ref_ns, t->why_count[4],
			t->state_changed);
	else
		fprintf(f, "Host state: not evaluable (no L2-resident chain: the L2 is unknown here); only the fixed cost's check ran.\n");
	if (t->idle_lost_pct > MESS_LOST_MAX_PCT)
		fprintf(f, "The unloaded window was disturbed in all %u attempts (the chase thread lost %.1f %% of the kept one): its mean and maximum are not the memory's.\n",
			t->idle_attempts, t->idle_lost_pct);
	if (!t->nmodes)
		fprintf(f, "No secondary mode of the unloaded distribution holds %.1f %% of the batches or more.\n",
			100 * MESS_HIST_MODE_MIN_SHARE);
	for (size_t i = 0; i < t->nmodes; i++)
		fprintf(f, "Mode: %.2f %% of %s +%.0f ns%s.\n",
			100 * t->modes[i].share, t->n == 1 ? "loads" : "batches",
			t->modes[i].offset,
			refresh_like(t->modes[i].offset) ?
			" (consistent with DRAM refresh)" : "");
	if (!res->fam->n)
		return;
	fprintf(f, "\n| mix (stores %%) | p99/p50 idle | p99/p50 max load | Jain's index, saturated |\n|---|---|---|---|\n");
	for (size_t i = 0; i < res->fam->n; i++) {
		struct mix_tail m;

		mix_tail(r, &res->fam->curves[i], &m);
		fprintf(f, "| %u | %s | %s | ", res->fam->curves[i].store_pct,
			fig(b[0], 32, m.idle_ratio, 2), fig(b[1], 32, m.max_ratio, 2));
		if (m.unfair >= 0)
			fprintf(f, "%.3f (%s point)%s |\n", m.jain_sat,
				m.saturated ? "saturated" : "heaviest",
				m.unfair ? " **unfair under saturation**" : "");
		else
			fprintf(f, "not evaluable: %s |\n", fair_not_evaluable(r) ?
				fair_not_evaluable(r) : "no fairness at the judged point");
	}
	if (res->point_ns_total > 0)
		fprintf(f, "\nDistribution windows: %.2f s in all, %.1f %% of the points' time; once a run, %.2f s for the timer, the fixed cost and the unloaded distribution (plots/tails: meta.json `distribution.plot_s`).\n",
			t->extra_ns / 1e9, 100 * t->extra_ns / res->point_ns_total,
			t->setup_ns / 1e9);
}
