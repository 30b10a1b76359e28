// SPDX-License-Identifier: MIT
/*
 * Measurement of one point.  Generators run one mix at one nop count; once
 * their bandwidth is steady the chase runs for a fixed number of loads
 * while the generators' progress is accounted over the same window;
 * repeated, median and spread.  Around each window, never inside it, the
 * chase core's clock and what disturbed every measuring thread are read: a
 * disturbed window is measured again (bounded) and counted.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/measure/chain.h"
#include "core/clock.h"
#include "core/machine/cpufreq.h"
#include "curves/measured/measured.h"
#include "mess/autotune.h"
#include "mess/stats.h"

#define SETTLE_WINDOW_NS 10e6	/* generator-rate sample */
#define SETTLE_AGREE 0.03	/* consecutive samples within 3 % */
#define SETTLE_MAX_WINDOWS 40

double mess_settle(struct mess_measured *r, const struct mess_gen_kernel *k,
		     int *steady)
{
	struct mess_gen_snap a, b;
	double prev = -1, cur = 0;

	*steady = 0;
	if (!r->ngen)
		return 0;
	mess_gens_snap(&r->gens, &a);
	for (int i = 0; i < SETTLE_MAX_WINDOWS && !mess_interrupted; i++) {
		mess_sleep_ns(SETTLE_WINDOW_NS);
		mess_gens_snap(&r->gens, &b);
		cur = (double)(b.iters - a.iters) *
		      (mess_gen_read_bytes(k) + mess_gen_write_bytes(k)) / (b.t_ns - a.t_ns);
		a = b;
		/* The first window may straddle the switch of command. */
		if (i >= 1 && prev >= 0 &&
		    fabs(cur - prev) <= SETTLE_AGREE * fmax(cur, prev)) {
			*steady = 1;
			break;
		}
		prev = i >= 1 ? cur : -1;
	}
	return cur;
}

/* A window is disturbed when a measuring thread lost time in it, or the
 * chase core's clock moved across it. */
static int is_disturbed(const struct mess_window *s)
{
	double hi = fmax(s->ghz0, s->ghz1);

	return s->lost_pct > MESS_LOST_MAX_PCT ||
	       (hi > 0 && fabs(s->ghz1 - s->ghz0) > MESS_CLOCK_MOVE_PCT / 100 * hi);
}

/* The counters over one chase window (NAN where they give no figure). */
static void counted(struct mess_measured *r, const struct mess_dram_snap *da,
		    const struct mess_dram_snap *db,
		    const struct mess_corectr_snap *ca,
		    const struct mess_corectr_snap *cb, double dt_ns,
		    double dram_ns, double loads, struct mess_window *s)
{
	s->crd_gbs = s->cwr_gbs = s->ctot_gbs = s->nowalk_ns = s->run_frac = NAN;
	/* A read that failed (da or db NULL) leaves the window without a
	 * figure: never a delta against nothing. */
	if (r->dram.fam && da && db) {
		struct mess_dram_bytes b;

		mess_dram_bytes(&r->dram, da, db, &b);
		/* No read traffic at all while the chase alone misses the
		 * caches means the counter is not counting this memory: no
		 * figure, and the run says how often. */
		if (b.rd == 0 || b.tot == 0) {
			r->dram_zero_windows++;
			b.rd = b.wr = b.tot = NAN;
		}
		/* Over the counters' own window, from the middle of one
		 * read of them to the middle of the next: with many
		 * controllers a read takes tens of µs. */
		s->crd_gbs = b.rd / dram_ns;
		s->ctot_gbs = b.tot / dram_ns;
		/* A family that counts reads only gives no write figure;
		 * the read share is then unknown, not 100 %. */
		s->cwr_gbs = b.wr / dram_ns;
		s->run_frac = b.run_frac;
	}
	if (r->cc.set) {
		double walk = mess_corectr_delta(&r->cc, ca, cb, MESS_CC_WALK);
		double cyc = mess_corectr_delta(&r->cc, ca, cb, MESS_CC_CYCLES);

		/* The clock the chase ran at over this very window. */
		s->nowalk_ns = mess_walk_free_latency(s->lat_ns, walk, loads,
						      cyc / dt_ns);
	}
}

#define CHASE_CHUNK_MS 100.0

int mess_chase_window(void *bs, struct mess_window *s)
{
	struct mess_measured *r = bs;
	const struct mess_gen_kernel *k = r->k;
	struct mess_dwin dw = { .worst = -1, .steal_ms = NAN };
	struct mess_gen_snap a = { 0 }, b = { 0 };
	static struct mess_dram_snap da, db;
	struct mess_corectr_snap ca, cb;
	uint64_t it = r->chase_iters, left = it, chunk;
	double t0, t1, loads = (double)it * MESS_CHASE_UNROLL, dt, gi;
	double ta = 0, tb = 0;
	int da_ok = 0, db_ok = 0;

	/* Calls of about CHASE_CHUNK_MS: a signal is noticed within one even
	 * when --chase-ms is long; a call per 100 ms adds nothing measurable
	 * to 10^5 dependent loads. */
	chunk = r->cfg.chase_ms > CHASE_CHUNK_MS ?
		(uint64_t)(it * CHASE_CHUNK_MS / r->cfg.chase_ms) + 1 : it;
	/* Outside the generators' accounting and the timed loop both; their
	 * own cost is kept, for meta.json. */
	double tq = mess_now_ns();

	s->ghz0 = mess_cpufreq_quick_ghz();
	if (r->dist_ok)
		mess_disturb_begin(&r->dist, k ? r->dist.n : 1);
	r->desc->trust_ns += mess_now_ns() - tq;
	if (r->ngen)
		mess_gens_snap(&r->gens, &a);
	/* Counters read just outside the timed loop: a few reads per
	 * window of ~10^5 loads (their cost is in the README). */
	if (r->dram.fam) {
		ta = mess_now_ns();
		da_ok = !mess_dram_snap(&r->dram, &da);
		ta = (ta + mess_now_ns()) / 2;
	}
	if (r->cc.set)
		mess_corectr_snap(&r->cc, &ca);
	t0 = mess_now_ns();
	while (left && !mess_interrupted) {
		uint64_t n = left < chunk ? left : chunk;

		r->chase_p = mess_chase(r->chase_p, n);
		left -= n;
	}
	t1 = mess_now_ns();
	if (r->cc.set)
		mess_corectr_snap(&r->cc, &cb);
	if (r->dram.fam) {
		tb = mess_now_ns();
		db_ok = !mess_dram_snap(&r->dram, &db);
		tb = (tb + mess_now_ns()) / 2;
	}
	if (r->ngen)
		mess_gens_snap(&r->gens, &b);
	tq = mess_now_ns();
	if (r->dist_ok)
		mess_disturb_end(&r->dist, &dw);
	s->ghz1 = mess_cpufreq_quick_ghz();
	s->lost_pct = dw.lost_pct;
	s->steal_ms = dw.steal_ms;
	s->who = dw.worst >= 0 ? r->dist.th[dw.worst].name : NULL;
	s->redone = 0;
	s->disturbed = is_disturbed(s);
	r->desc->trust_ns += mess_now_ns() - tq;
	s->lat_ns = (t1 - t0) / loads;
	/* The chase's own traffic: one line per load, read. */
	s->rd_gbs = loads * r->topo.line_bytes / (t1 - t0);
	s->wr_gbs = 0;
	if (r->ngen && k) {
		dt = b.t_ns - a.t_ns;
		gi = (double)(b.iters - a.iters);
		s->rd_gbs += gi * mess_gen_read_bytes(k) / dt;
		s->wr_gbs += gi * mess_gen_write_bytes(k) / dt;
	}
	s->bw_gbs = s->rd_gbs + s->wr_gbs;
	counted(r, da_ok ? &da : NULL, db_ok ? &db : NULL, &ca, &cb, t1 - t0,
		tb - ta, loads, s);
	/* Keep each repeat near chase_ms whatever the latency is now (a
	 * disturbed window's latency says nothing about that, nor one
	 * faster than an L1 hit: 0.67 ns once stretched a window 380x). */
	double want = r->cfg.chase_ms * 1e6 / (s->lat_ns * MESS_CHASE_UNROLL);

	if ((!s->disturbed || r->chase_iters <= 16) &&
	    !(r->rep && s->lat_ns < r->rep->floor_ns))
		r->chase_iters = want < 4 ? 4 : (uint64_t)want;
	return mess_interrupted ? -EINTR : 0;
}

/* The finite values of v[0..n) into f: how many.  A window whose
 * counter gave no figure is left out, never counted as 0. */
static unsigned finite_of(const double *v, unsigned n, double *f)
{
	unsigned m = 0;

	for (unsigned i = 0; i < n && i < MESS_MAX_WINDOWS; i++)
		if (isfinite(v[i]))
			f[m++] = v[i];
	return m;
}

/* The standard deviation of the finite values (NAN if none). */
static double std_finite(const double *v, unsigned n)
{
	double f[MESS_MAX_WINDOWS];
	unsigned m = finite_of(v, n, f);

	return m ? mess_stddev(f, m) : NAN;
}

static double min_finite(const double *v, unsigned n)
{
	double m = NAN;

	for (unsigned i = 0; i < n; i++)
		if (isfinite(v[i]) && !(v[i] >= m))
			m = v[i];
	return m;
}

/* The bandwidth figures of a measured point from its kept windows:
 * the counters' where they count, else the generators' accounting. */
void mess_measured_figures(void *bs, const struct mess_window *w,
			   unsigned repeats, struct mess_point *p)
{
	struct mess_measured *r = bs;
	double rd[MESS_MAX_WINDOWS], wr[MESS_MAX_WINDOWS], bw[MESS_MAX_WINDOWS];
	/* Zeroed only for gcc, which cannot see the loop below fill them. */
	double crd[MESS_MAX_WINDOWS] = { 0 }, cwr[MESS_MAX_WINDOWS] = { 0 };
	double ctot[MESS_MAX_WINDOWS], nw[MESS_MAX_WINDOWS] = { 0 };
	double rf[MESS_MAX_WINDOWS];

	for (unsigned i = 0; i < repeats; i++) {
		rd[i] = w[i].rd_gbs;
		wr[i] = w[i].wr_gbs;
		crd[i] = w[i].crd_gbs;
		cwr[i] = w[i].cwr_gbs;
		ctot[i] = w[i].ctot_gbs;
		nw[i] = w[i].nowalk_ns;
		rf[i] = w[i].run_frac;
	}
	p->acc_read_bw_gbs = mess_median(rd, repeats);
	p->acc_write_bw_gbs = mess_median(wr, repeats);
	p->read_bw_gbs = p->acc_read_bw_gbs;
	p->write_bw_gbs = p->acc_write_bw_gbs;
	p->lat_nowalk_ns = mess_median_finite(nw, repeats, NULL);
	p->counter_run_frac = min_finite(rf, repeats);
	/* rd and wr as mess_median left them (sorted each), as before the
	 * repeats moved to the driver: the figure is unchanged. */
	for (unsigned i = 0; i < repeats; i++)
		bw[i] = rd[i] + wr[i];
	if (r->dram.fam) {
		/* Counted: the headline figures; NAN when a window gave none,
		 * and the point then says so rather than fall back. */
		p->read_bw_gbs = mess_median_finite(crd, repeats, NULL);
		p->write_bw_gbs = mess_median_finite(cwr, repeats, NULL);
		for (unsigned i = 0; i < repeats; i++)
			bw[i] = r->dram.fam->rw_combined ? ctot[i] : crd[i] + cwr[i];
	}
	p->bw_gbs = p->read_bw_gbs + p->write_bw_gbs;
	/* A family that counts reads and writes together gives the total
	 * and no share. */
	if (r->dram.fam && r->dram.fam->rw_combined)
		p->bw_gbs = mess_median_finite(ctot, repeats, NULL);
	p->read_pct = isnan(p->bw_gbs) ? NAN : p->bw_gbs > 0 ?
		      100.0 * p->read_bw_gbs / p->bw_gbs : 100;
	/* A total without a split: the curve still needs a read share, and
	 * the generators' accounted one is the only one there is (meta.json
	 * and summary.md say so for such a family). */
	if (r->dram.fam && r->dram.fam->rw_combined) {
		double acc = p->acc_read_bw_gbs + p->acc_write_bw_gbs;

		p->read_pct = acc > 0 ? 100.0 * p->acc_read_bw_gbs / acc : 100;
	}
	p->bw_gbs_std = std_finite(bw, repeats);
}

/* What disturbed the measuring threads over a point's repeats (begun
 * as its load is set): its switches and migrations, the run's sum. */
void mess_measured_span_begin(struct mess_measured *r)
{
	double tq = mess_now_ns();

	if (r->dist_ok)
		mess_disturb_span_begin(&r->dist);
	r->desc->trust_ns += mess_now_ns() - tq;
}

void mess_measured_span_end(struct mess_measured *r, struct mess_point *p)
{
	struct mess_dspan span = { NAN, NAN };
	double tq = mess_now_ns();

	if (r->dist_ok)
		mess_disturb_span_end(&r->dist, &span);
	r->desc->trust_ns += mess_now_ns() - tq;
	r->desc->trust_points++;
	p->invol_switches = span.invol;
	p->migrations = span.migrations;
	if (isfinite(span.migrations))
		r->desc->migrations = (isfinite(r->desc->migrations) ?
				       r->desc->migrations : 0) + span.migrations;
}

/* The driver's repeats over this machine's chase windows, with what
 * disturbed the measuring threads over them. */
static int measure_repeats(struct mess_measured *r, unsigned repeats,
			   struct mess_point *p)
{
	int err;

	mess_measured_span_begin(r);
	err = mess_repeats(r->rep, repeats, p);
	if (!err)
		mess_measured_span_end(r, p);
	return err;
}

/* One chase over the whole buffer (window 0) or TLB windows: its median
 * and spread over reps repeats. */
static int unloaded_pass(struct mess_measured *r, uint32_t *order, int windowed,
			 unsigned reps, double *ns, double *sd)
{
	uint32_t per_window = (uint32_t)(r->cfg.window / r->cfg.stride);
	struct mess_point p = MESS_POINT_INIT;
	struct mess_rng rng;
	struct mess_window warm;
	int err;

	mess_rng_seed(&rng, r->cfg.seed);
	err = mess_chain_order(order, r->nlines, windowed ? per_window : 0, &rng);
	if (err)
		return err;
	r->chase_p = mess_chain_link(r->chase.p, r->cfg.stride, order, r->nlines);
	r->chase_iters = 16;
	/* The first window only sets the repeat length. */
	mess_chase_window(r, &warm);
	measure_repeats(r, reps, &p);
	*ns = p.lat_ns;
	*sd = p.lat_ns_std;
	return 0;
}

int mess_measure_unloaded(struct mess_measured *r, struct mess_unloaded *u)
{
	/* Cheap next to the sweep, and the figure every curve is read against. */
	unsigned reps = r->cfg.repeats < 7 ? 7 : (unsigned)r->cfg.repeats;
	uint32_t *order = malloc((size_t)r->nlines * sizeof(*order));
	int err = 0;

	if (!order)
		return -ENOMEM;
	r->u.repeats = reps;
	r->u.cv_first = NAN;
	r->k = NULL;
	if (r->ngen)
		mess_gens_set(&r->gens, NULL, 0);

	/* Fully random first (page walks included), then the windowed chain
	 * that every curve uses.  When the two break a rule (the spread, or
	 * the windowed chase slower), both are measured once more and the
	 * new figures replace the first. */
	for (int round = 0; round < 2 && !err && !mess_interrupted; round++) {
		struct mess_quality_in q;

		err = unloaded_pass(r, order, 0, reps, &r->u.random_ns,
				    &r->u.random_std_ns);
		if (!err && r->cfg.window)
			err = unloaded_pass(r, order, 1, reps, &r->u.ns,
					    &r->u.std_ns);
		if (!r->cfg.window) {
			/* the fully random chain is the one in use */
			r->u.ns = r->u.random_ns;
			r->u.std_ns = r->u.random_std_ns;
		}
		q = (struct mess_quality_in){
			.unloaded_ns = r->u.ns, .unloaded_sd_ns = r->u.std_ns,
			.random_ns = r->cfg.window ? r->u.random_ns : NAN,
			.random_sd_ns = r->u.random_std_ns,
			.clock_spread_pct = NAN };
		if (err || mess_quality_unloaded_ok(&q))
			break;
		r->u.cv_first = r->u.std_ns / r->u.ns;
		fprintf(stderr, "mess: the unloaded latency broke a rule (%.1f ns +- %.1f, fully random %.1f ns): measured again\n",
			r->u.ns, r->u.std_ns, r->u.random_ns);
	}
	*u = r->u;
	free(order);
	return err;
}
