// SPDX-License-Identifier: MIT
/*
 * `mess absorb`'s measurements: rows x noise modes, each a search over k
 * (mess/absorb.h) whose every point is a median of timed runs on pinned
 * threads (core/measure/pool.h; a point's pairs of runs are pairs.c's);
 * the latency ladder first when lat_mem_rd runs.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "absorb/absorb.h"
#include "core/clock.h"
#include "core/signals.h"

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
	int err = absorb_set_k(a, cores, m, 0);

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

/* The test's floor from this session's points so far (held's pairs:
 * mess_absorb_pool_add says which count). */
static void pool_noise(struct pair *pr, const struct absorb_held *held,
		       double *dev, size_t cap)
{
	size_t n = 0;

	for (unsigned k = 0; k <= MESS_NOISE_KMAX; k++)
		n = mess_absorb_pool_add(dev, n, cap, held[k].s.q,
					 held[k].s.n);
	pr->noise = mess_absorb_pool_sd(dev, n);
	pr->noise_n = n;
}

static int run_pair(struct mess_absorb *a, struct row *r, struct mess_wl *w,
		    enum mess_noise_mode m)
{
	struct pair *pr = &r->pair[m];
	const char *mn = mess_noise_mode_name(m);
	struct timed warm = { NULL, w, m, 0, -1 };
	struct absorb_held *held = NULL;
	double *dev = NULL;
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
		err = absorb_set_k(a, r->wl.cores, m, 0);
	if (!err)
		absorb_timed_run(a, r->wl.cores, &warm, NULL, NULL);
	/* This session's pairs of each k, for a point taken further. */
	held = calloc(MESS_NOISE_KMAX + 1, sizeof(*held));
	dev = malloc(ABSORB_POOL_CAP * sizeof(*dev));
	if ((!held || !dev) && !err)
		err = -ENOMEM;
	pr->noise = NAN;
	pr->noise_n = 0;
	while (!err) {
		struct mess_absorb_point pt;
		struct mess_absorb_todo td;
		int rc = mess_absorb_step(pr->pts, pr->n, &a->t.acfg, &td);

		if (rc <= 0) {
			err = rc;
			break;
		}
		if (!td.further && buried(pr, td.k))
			break;
		struct point_obs po;
		double paired;

		pool_noise(pr, held, dev, ABSORB_POOL_CAP);
		/* A point of an earlier session (--resume) taken further:
		 * its pairs are not on disk, so it is measured again from
		 * none, up to td.pairs. */
		err = absorb_measure_point(a, r, w, m, &td, &held[td.k], &pt,
					   &paired, &po);
		if (!err)
			err = absorb_record_point(a, r, m, &pt, paired, &po);
		if (!err)
			progress(a, r, m, &pt);
	}
	free(held);
	free(dev);
	/* The noise at the largest k must not have changed the results. */
	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k > kmax)
			kmax = pr->pts[i].k;
	if (!err)
		err = absorb_set_k(a, r->wl.cores, m, kmax);
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
