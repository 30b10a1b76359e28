// SPDX-License-Identifier: MIT
/*
 * `mess absorb`'s measurements: rows x noise modes, each a search over k
 * (mess/absorb.h) whose every point is a median of timed runs on pinned
 * threads (core/measure/pool.h); the latency ladder first when lat_mem_rd
 * runs.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "absorb/absorb.h"
#include "core/clock.h"
#include "core/signals.h"
#include "mess/stats.h"

static int set_k(struct mess_absorb *a, int cores, enum mess_noise_mode m,
		 unsigned k)
{
	for (int c = 0; c < cores; c++) {
		int err = mess_noise_set_k(&a->wk[c].nz[m], k);

		if (err)
			return err;
	}
	return 0;
}

/*
 * Work per timed run: the iterations that take run_ms at k = 0 of this
 * instantiation, found by growing a short run; every k of the row and
 * mode then does the same work.
 */
static int calibrate(struct mess_absorb *a, struct mess_wl *w, int cores,
		     enum mess_noise_mode m, uint64_t *iters)
{
	double target = a->t.o.run_ms * 1e6, el, per;
	struct timed j = { NULL, w, m, 256, -1 };
	int err = set_k(a, cores, m, 0);

	if (err)
		return err;
	for (;;) {
		if (mess_interrupted)
			return -EINTR;
		per = absorb_timed_run(a, cores, &j, &el, NULL);
		if (el >= target / 16 || j.iters >= (1ULL << 40))
			break;
		j.iters *= el > 0 && target / 16 / el < 16 ? 4 : 16;
	}
	/* From the time per iteration: kernels round a run up to whole
	 * targets or rows, so short runs do more than asked. */
	*iters = (uint64_t)(target / per);
	if (!*iters)
		*iters = 1;
	return 0;
}

/*
 * One pair: its two runs cut into --slices slices each, run as sub-pairs
 * (0 k or k 0, a coin decides): host drift slower than a slice (on a
 * shared host a neighbour's memory traffic comes and goes over tens of
 * milliseconds) falls on both alike.  The coin, not a fixed 0 k k 0, so
 * that nothing periodic on the host can line up with one of the two.
 * *x, *y: time per iteration at k = 0 and at k, means over the slices.
 */
static int slices(struct mess_absorb *a, struct row *r, struct timed *j,
		  enum mess_noise_mode m, unsigned k, double *x, double *y,
		  struct run_obs *o0, struct run_obs *o1)
{
	unsigned ns = (unsigned)a->t.o.slices;
	uint64_t iters = j->iters;

	*x = *y = 0;
	*o0 = *o1 = (struct run_obs){ .mhz = NAN };
	j->iters = iters / ns ? iters / ns : 1;
	for (unsigned i = 0; i < 2 * ns; i++) {
		struct run_obs o;
		double t;
		int at_k, err;

		/* Which run of the sub-pair goes first: a coin. */
		if (!(i & 1)) {
			a->coin ^= a->coin << 13;
			a->coin ^= a->coin >> 7;
			a->coin ^= a->coin << 17;
		}
		at_k = (int)((a->coin >> 11) & 1) ^ (int)(i & 1);
		if (mess_interrupted)
			break;
		err = set_k(a, r->wl.cores, m, at_k ? k : 0);
		if (err) {
			j->iters = iters;
			return err;
		}
		t = absorb_timed_run(a, r->wl.cores, j, NULL, &o);
		*(at_k ? y : x) += t / ns;
		absorb_obs_add(at_k ? o1 : o0, &o);
	}
	j->iters = iters;
	return mess_interrupted ? -EINTR : 0;
}

/*
 * Work per run at k: the row's, less where the nearest point measured
 * below k was already ABSORB_WORK_RATIO x t0 or slower: divided by that
 * ratio, so that the run at k stays near run_ms instead of taking tens of
 * times it (past k1, doubling k, most of a table's time went there).  Both
 * runs of a pair do the same work; a point that slow is decided either way
 * by a k = 0 run that short.
 */
static uint64_t work(const struct pair *pr, const struct mess_absorb_point *bp,
		     unsigned k)
{
	const struct mess_absorb_point *below = NULL;
	double ratio;

	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k < k && (!below || pr->pts[i].k > below->k))
			below = &pr->pts[i];
	ratio = below ? below->t / bp->t : 1;
	if (!(ratio > ABSORB_WORK_RATIO))
		return pr->iters;
	return (uint64_t)((double)pr->iters / ratio) + 1;
}

/*
 * A point: pairs of runs, k = 0 and k, interleaved in slices (slices()).
 * The slowdown is the median of the pairs' ratios, scaled by the
 * baseline t0 (the k = 0 point), so that drift slower than a slice (a
 * shared host, frequency, a VM's neighbours) cancels instead of reading as
 * absorption or slowdown.  The k = 0 point pairs k = 0 with itself, --repeats times,
 * its ratios' spread being the noise floor; every other point takes pairs
 * until the sequential test (mess_absorb_seq) decides it or max-pairs.
 * A pair during which steal time or a preemption hit either run, or
 * whose state probes before and after it are apart (core/measure/hoststate.h), is
 * measured again (mess_absorb_seq_add says how often).  *paired gets the
 * median of the pairs' own k = 0 runs, to show the drift.
 */
static int measure_pairs(struct mess_absorb *a, struct row *r,
			 struct mess_wl *w, enum mess_noise_mode m, unsigned k,
			 struct mess_absorb_point *pt, double *paired,
			 struct point_obs *po)
{
	struct pair *pr = &r->pair[m];
	struct timed j = { NULL, w, m, pr->iters, -1 };
	struct mess_absorb_seqstate s;
	double t0[MESS_ABSORB_MAX_PAIRS], tk[2 * MESS_ABSORB_MAX_PAIRS];
	const struct mess_absorb_point *bp = NULL;
	double base = NAN, floor_rel = 0, thr_rel = 0;
	size_t want;
	int err = 0, v;

	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k == 0)
			bp = &pr->pts[i];
	if (bp && k) {
		base = bp->t;
		floor_rel = bp->sigma / bp->t;
		thr_rel = mess_absorb_threshold(&a->t.acfg, bp) / bp->t;
		j.iters = work(pr, bp, k);
	}
	want = k && bp ? 0 : a->t.o.repeats;
	memset(&s, 0, sizeof(s));
	memset(po, 0, sizeof(*po));
	do {
		struct run_obs o0, o1;
		struct mess_hoststate_probe p0, p1;
		size_t n = s.n;
		double x, y;
		int moved;

		if (mess_interrupted)
			return -EINTR;
		absorb_host_probe(a, &p0);
		err = slices(a, r, &j, m, k, &x, &y, &o0, &o1);
		if (err)
			return err;
		absorb_host_probe(a, &p1);
		/* A pair whose runs straddle a change of the host's state
		 * compares two states: measured again like a disturbed one. */
		moved = mess_hoststate_apart(&p0, &p1);
		a->t.state_pairs += (unsigned long)moved;
		absorb_observe(po, &o0, 0);
		absorb_observe(po, &o1, 1);
		v = mess_absorb_seq_add(&s, y / x,
					o0.disturbed || o1.disturbed || moved,
					want, floor_rel, thr_rel, &a->t.acfg);
		if (v < 0)
			return -EIO;
		if (s.n > n) {
			t0[n] = x;
			tk[n] = y;
		}
	} while (v == MESS_ABSORB_MORE);
	po->disturbed = s.disturbed;
	po->redone = s.redone;
	po->kept = s.kept;
	if (isnan(base)) {
		/* Both runs of every pair are the baseline here. */
		memcpy(tk + s.n, t0, s.n * sizeof(*t0));
		base = mess_median(tk, 2 * (unsigned)s.n);
	}
	*paired = mess_median(t0, (unsigned)s.n);
	po->verdict = k ? mess_absorb_verdict_name(s.last.verdict) : "base";
	*pt = (struct mess_absorb_point){
		.k = k,
		.t = k ? base * s.last.ratio : base,
		.sigma = base * s.last.scale,
		.repeats = (unsigned)s.n,
		.lo = k ? base * s.last.lo : 0,
		.hi = k ? base * s.last.hi : 0,
	};
	return isfinite(pt->t) && pt->t > 0 && isfinite(pt->lo) &&
	       isfinite(pt->hi) ? 0 : -EIO;
}

/*
 * A point.  The baseline (k = 0) is measured again while its spread is too
 * wide: its spread sets the noise threshold of the whole search.  Other
 * points keep their spread (the fit sees it); measuring them again too
 * would double a quick table's time on a noisy host for little.
 */
static int measure_point(struct mess_absorb *a, struct row *r,
			 struct mess_wl *w, enum mess_noise_mode m, unsigned k,
			 struct mess_absorb_point *pt, double *paired,
			 struct point_obs *po)
{
	struct mess_absorb_point c;
	struct point_obs co;
	double cp;
	int err = measure_pairs(a, r, w, m, k, pt, paired, po);

	for (int i = 0; !err && k == 0 && i < ABSORB_REMEASURE_MAX &&
			pt->sigma > ABSORB_REMEASURE_REL * pt->t; i++) {
		a->t.remeasured++;
		err = measure_pairs(a, r, w, m, k, &c, &cp, &co);
		/* The counts add up: both measurements ran.  The disturbed
		 * pairs kept are the chosen measurement's, whose repeats the
		 * point keeps; the other's were, in the end, measured again
		 * (kept counted twice read "132 of 127 pairs disturbed"). */
		co.disturbed += po->disturbed;
		co.redone += po->redone;
		co.steal += po->steal;
		co.nivcsw += po->nivcsw;
		co.mhz_sum += po->mhz_sum;
		co.mhz_n += po->mhz_n;
		if (!err && c.sigma < pt->sigma) {
			*pt = c;
			*paired = cp;
			co.redone += po->kept;
		} else {
			co.redone += co.kept;
			co.kept = po->kept;
		}
		co.instr += po->instr;
		co.cycles += po->cycles;
		co.iters += po->iters;
		co.verdict = po->verdict;
		*po = co;
	}
	return err;
}

static void progress(struct mess_absorb *a, const struct row *r,
		     enum mess_noise_mode m, const struct mess_absorb_point *pt)
{
	const struct pair *pr = &r->pair[m];
	double el = (mess_now_ns() - a->t0_ns) / 1e9, base = NAN;
	char e[16], eta[48] = "";

	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k == 0)
			base = pr->pts[i].t;
	mess_fmt_dur(el, e, sizeof(e));
	/* Whole row x mode searches left, at this session's pace so far. */
	if (a->pairs_now) {
		char t[16];

		mess_fmt_dur(el / a->pairs_now * (a->pairs_todo - a->pairs_now), t,
			sizeof(t));
		snprintf(eta, sizeof(eta), ", %.0f %%, ETA ~%s",
			 100.0 * a->pairs_now / (a->pairs_todo ? a->pairs_todo : 1), t);
	} else {
		snprintf(eta, sizeof(eta), ", ETA after the first search");
	}
	fprintf(stderr, "absorb: [%u/%u] %s %s k=%u: %.4g ns/iter (spread %.2g, x%.3f of k=0) | %s elapsed%s\n",
		a->pairs_now + 1, a->pairs_todo, r->id, mess_noise_mode_name(m),
		pt->k, pt->t, pt->sigma, pt->t / base, e, eta);
}

struct job_ctx {
	struct worker *wk;
	struct mess_wl *w;
	enum mess_noise_mode m;
	uint64_t max_iters;
};

static void job_wl_init(struct mess_pool_thread *t, void *arg)
{
	t->err = mess_wl_thread_init(arg, t->idx);
}

static void job_check(struct mess_pool_thread *t, void *arg)
{
	const struct job_ctx *c = arg;

	t->err = mess_wl_check(c->w, t->idx, c->m, &c->wk[t->idx].nz[c->m],
			       c->max_iters);
}

/* The clean check covers all the data; a noisy one costs about a run. */
static int check(struct mess_absorb *a, struct row *r, struct mess_wl *w,
		 enum mess_noise_mode m)
{
	struct job_ctx c = { a->wk, w, m, m == MESS_NOISE_MODE_none ? UINT64_MAX :
				   r->pair[m].iters };
	int err;

	err = mess_pool_call(&a->pool, r->wl.cores, job_check, &c);
	if (err == -EDOM)
		fprintf(stderr, "mess: %s %s: wrong results: the %s instantiation broke the kernel\n",
			r->id, mess_noise_mode_name(m),
			m == MESS_NOISE_MODE_none ? "clean" : "noisy");
	return err;
}

/*
 * The clean kernel's performance: one warm-up trial, then the best of
 * --repeats trials (STREAM's rule: rounds of its four operations over the
 * whole arrays, the triad reported).
 */
static int measure_perf(struct mess_absorb *a, struct row *r,
			struct mess_wl *w)
{
	unsigned nph = mess_wl_nphases(w), pp = mess_wl_perf_phase(w);
	double best[MESS_STREAM_NOPS];
	struct timed j = { NULL, w, MESS_NOISE_MODE_none, 0, 0 };
	json_t *phases, *meta;
	char rule[64];
	int err = 0;

	if (nph == 1)
		err = calibrate(a, w, r->wl.cores, MESS_NOISE_MODE_none, &j.iters);
	for (unsigned p = 0; p < nph; p++)
		best[p] = INFINITY;
	for (unsigned t = 0; !err && t <= a->t.o.repeats; t++) {
		for (unsigned p = 0; p < nph; p++) {
			double x;

			j.phase = (int)p;
			x = absorb_timed_run(a, r->wl.cores, &j, NULL, NULL);
			if (t && x < best[p])
				best[p] = x;
		}
		if (mess_interrupted)
			err = -EINTR;
	}
	if (!err)
		err = check(a, r, w, MESS_NOISE_MODE_none);
	if (err)
		return err;
	r->perf = mess_wl_perf(w, pp, best[pp]);

	phases = json_object();
	for (unsigned p = 0; p < nph; p++)
		json_object_set_new(phases, mess_wl_phase_name(w, p),
				    mess_json_real(mess_wl_perf(w, p, best[p]), 6));
	snprintf(rule, sizeof(rule), "best of %llu trials after one warm-up",
		 (unsigned long long)a->t.o.repeats);
	meta = mess_json_pack("{s:s, s:s, s:s, s:i, s:o, s:o, s:s, s:s, s:o}",
		"id", r->id, "kernel", mess_wl_kernels[r->wl.kernel].name,
		"variant", r->wl.variant, "cores", r->wl.cores,
		"q", mess_json_real(r->wl.q, 6),
		"perf", mess_json_real(r->perf, 6),
		"perf_unit", mess_wl_kernels[r->wl.kernel].perf_unit,
		"perf_rule", rule, "phases", phases);
	if (mess_wl_kernels[r->wl.kernel].wa)
		err = mess_json_set(meta, "triad_gbs_write_allocate",
			mess_json_real(mess_wl_perf_wa(r->wl.kernel, r->perf), 6));
	else
		err = mess_json_set(meta, "clean_iters_per_run",
				    json_integer((json_int_t)j.iters));
	if (!err)
		err = mess_json_merge(meta, mess_wl_meta(w));
	if (err) {
		json_decref(meta);
		return -ENOMEM;
	}
	return absorb_record_perf(a, r, meta);
}

/*
 * Whether to stop short of k: a step past the largest k measured once a
 * point is ABSORB_STOP_SLOWDOWN x the baseline and three points at least twice
 * it give the fit its line.  The kernel is buried under the noise there
 * (memory_ld64 costs a memory access per instruction), every further run
 * lasts that many k = 0 runs, and no point past the largest can move k1
 * (bisection steps, below it, still run).
 */
static int buried(const struct pair *pr, unsigned k)
{
	double base = NAN, worst = 0;
	unsigned kmax = 0, slow = 0;

	for (size_t i = 0; i < pr->n; i++) {
		if (pr->pts[i].k == 0)
			base = pr->pts[i].t;
		if (pr->pts[i].k > kmax)
			kmax = pr->pts[i].k;
		if (pr->pts[i].t > worst)
			worst = pr->pts[i].t;
	}
	for (size_t i = 0; i < pr->n; i++)
		slow += pr->pts[i].t >= 2 * base;
	return k > kmax && slow >= 3 && worst >= ABSORB_STOP_SLOWDOWN * base;
}

static int run_pair(struct mess_absorb *a, struct row *r, struct mess_wl *w,
		    enum mess_noise_mode m)
{
	struct pair *pr = &r->pair[m];
	const char *mn = mess_noise_mode_name(m);
	struct timed warm = { NULL, w, m, 0, -1 };
	unsigned kmax = 0;
	int err = 0;

	if (!pr->iters) {
		err = calibrate(a, w, r->wl.cores, m, &pr->iters);
		if (!err)
			err = absorb_record_work(a, r, m);
	}
	/* One whole run before the first point: the calibration's runs
	 * are shorter, and this instantiation's code and noise buffers may
	 * not have run since the row was set up. */
	warm.iters = pr->iters;
	if (!err)
		err = set_k(a, r->wl.cores, m, 0);
	if (!err)
		absorb_timed_run(a, r->wl.cores, &warm, NULL, NULL);
	while (!err) {
		struct mess_absorb_point pt;
		unsigned k;
		int rc = mess_absorb_next(pr->pts, pr->n, &a->t.acfg, &k);

		if (rc <= 0) {
			err = rc;
			break;
		}
		if (buried(pr, k))
			break;
		struct point_obs po;
		double paired;

		err = measure_point(a, r, w, m, k, &pt, &paired, &po);
		if (!err)
			err = absorb_record_point(a, r, m, &pt, paired, &po);
		if (!err)
			progress(a, r, m, &pt);
	}
	/* The noise at the largest k must not have changed the results. */
	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k > kmax)
			kmax = pr->pts[i].k;
	if (!err)
		err = set_k(a, r->wl.cores, m, kmax);
	if (!err)
		err = check(a, r, w, m);
	if (!err)
		err = mess_absorb_fit(pr->pts, pr->n, &a->t.acfg, &pr->res);
	if (err)
		return err;
	pr->done = 1;
	a->pairs_now++;
	fprintf(stderr, "absorb: %s %s: k1 %s%u [%u, %s%u] (%s%s%s; past k1 %s), %u points, %u pairs, %u disturbed\n",
		r->id, mn, pr->res.k1_lower_bound ? ">=" : "", pr->res.k1,
		pr->res.k1_lo, pr->res.k1_hi ? "" : ">", pr->res.k1_hi ?
		pr->res.k1_hi : pr->res.k1, mess_absorb_status_name(pr->res.status),
		pr->res.why ? ": " : "", pr->res.why ? pr->res.why : "",
		mess_absorb_shape_name(pr->res.shape), pr->res.runs, pr->pairs,
		pr->disturbed);
	err = absorb_record_done(a, r, m);
	return err ? err : absorb_save(a);
}

/* Rows that differ only in core count pass their data on (the workload
 * table says which kernels can) instead of generating it again. */
static int same_data(const struct row *x, const struct row *y)
{
	return x && x->wl.kernel == y->wl.kernel &&
	       mess_wl_kernels[x->wl.kernel].shares_data &&
	       !strcmp(x->wl.variant, y->wl.variant) && x->wl.q == y->wl.q;
}

static int run_row(struct mess_absorb *a, struct row *r, struct mess_wl **prev,
		   struct row **prev_row)
{
	struct mess_wl *w = NULL;
	int err;

	if (*prev && !same_data(*prev_row, r)) {
		mess_wl_destroy(*prev);
		*prev = NULL;
	}
	fprintf(stderr, "absorb: %s: setting up\n", r->id);
	err = mess_wl_create(&w, &r->wl, &a->env, *prev);
	mess_wl_destroy(*prev);
	*prev = NULL;
	if (!err)
		err = mess_pool_call(&a->pool, r->wl.cores, job_wl_init, w);
	if (err == -ENOMEM) {
		/* Too big for this machine: the others still run. */
		r->skip = "not enough memory for its data";
		fprintf(stderr, "absorb: %s: skipped: %s\n", r->id, r->skip);
		mess_wl_destroy(w);
		return 0;
	}
	if (!err)
		err = measure_perf(a, r, w);
	if (!err)
		fprintf(stderr, "absorb: %s: clean performance %.4g %s\n", r->id,
			r->perf, mess_wl_kernels[r->wl.kernel].perf_unit);
	for (int i = 0; !err && i < a->t.nmodes; i++) {
		enum mess_noise_mode m = a->t.modes[i];

		if (!a->t.mode_skip[m] && !r->pair[m].done)
			err = run_pair(a, r, w, m);
	}
	*prev = w;
	*prev_row = r;
	return err;
}

/* ---- the latency ladder ---- */

static void job_ladder(struct mess_pool_thread *t, void *arg)
{
	struct mess_absorb *a = arg;

	t->err = mess_ladder_run(&a->t.ladder);
}

static int run_ladder(struct mess_absorb *a)
{
	int err;

	fprintf(stderr, "absorb: lat_mem_rd latency ladder, %llu B stride, up to %llu MiB\n",
		(unsigned long long)a->t.ladder.o.stride,
		(unsigned long long)(a->t.ladder.o.hi >> 20));
	err = mess_pool_call(&a->pool, 1, job_ladder, a);
	if (err == -ENOMEM) {
		/* The rows may still fit: they go on without it. */
		a->t.ladder_skip = "not enough memory for its buffer (4x the LLC)";
		fprintf(stderr, "absorb: latency ladder skipped: %s\n", a->t.ladder_skip);
		return 0;
	}
	if (err)
		return err;
	a->t.ladder_done = 1;
	err = mess_ladder_write(&a->t.ladder, a->rd.dir, a->t.cpu_model);
	if (!err)
		mess_ladder_report(&a->t.ladder, "absorb");
	return err ? err : absorb_record_ladder(a);
}

/* Searches of the row still to run here. */
static int row_todo(const struct absorb_table *t, const struct row *r)
{
	int n = 0;

	if (r->skip)
		return 0;
	for (int i = 0; i < t->nmodes; i++)
		n += !t->mode_skip[t->modes[i]] && !r->pair[t->modes[i]].done;
	return n;
}

int mess_absorb_measure(struct mess_absorb *a)
{
	struct mess_wl *prev = NULL;
	struct row *prev_row = NULL;
	int err = 0;

	if (a->t.ladder_on && !a->t.ladder_done) {
		err = run_ladder(a);
		if (err)
			return mess_interrupted ? -EINTR : err;
	}
	a->t0_ns = mess_now_ns();
	for (size_t i = 0; i < a->t.nrows; i++)
		a->pairs_todo += (unsigned)row_todo(&a->t, &a->t.rows[i]);
	for (size_t i = 0; !err && i < a->t.nrows; i++)
		if (row_todo(&a->t, &a->t.rows[i]))
			err = run_row(a, &a->t.rows[i], &prev, &prev_row);
	mess_wl_destroy(prev);
	if (mess_interrupted)
		err = -EINTR;
	if (!err) {
		size_t ran = 0;

		for (size_t i = 0; i < a->t.nrows; i++)
			ran += !a->t.rows[i].skip;
		/* An empty table is a failure, not a result. */
		if (!ran && !a->t.ladder_done) {
			fprintf(stderr, "absorb: nothing could be measured: every row%s was skipped (see above)\n",
				a->t.ladder_on ? " and the ladder" : "");
			err = -ENOMEM;
		}
	}
	return err;
}
