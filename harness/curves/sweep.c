// SPDX-License-Identifier: MIT
/*
 * Measurement of points and the autotuned sweep over nop counts.
 *
 * A point: generators run one mix at one nop count; once their bandwidth is
 * steady the chase runs for a fixed number of loads while the generators'
 * progress is accounted over the same window; repeated, median and spread.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/chain.h"
#include "core/clock.h"
#include "curves/run.h"
#include "mess/autotune.h"
#include "mess/stats.h"

#define SETTLE_WINDOW_NS 10e6	/* generator-rate sample */
#define SETTLE_AGREE 0.03	/* consecutive samples within 3 % */
#define SETTLE_MAX_WINDOWS 40
#define REPEAT_SPREAD_MAX 0.10	/* re-measure above this (max-min)/median */
#define REMEASURE_MAX 2
#define IDLE_FRACTION 0.03	/* "nearly idle": below 3 % of max pressure */

static void sleep_ns(double ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1e9),
			       .tv_nsec = (long)fmod(ns, 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR && !mess_interrupted)
		;
}

/* Memory-level bytes per generator iteration (write-allocate accounting:
 * an ordinary store reads the line and writes it back; non-temporal
 * stores only write). */
static double gen_read_bytes(const struct mess_gen_kernel *k)
{
	return k->bytes_loaded + (k->nontemporal ? 0.0 : k->bytes_stored);
}

static double gen_write_bytes(const struct mess_gen_kernel *k)
{
	return k->bytes_stored;
}

static double expected_read_pct(const struct mess_gen_kernel *k)
{
	double rd = gen_read_bytes(k), wr = gen_write_bytes(k);

	return rd + wr > 0 ? 100.0 * rd / (rd + wr) : 100.0;
}

/* Wait until the generator bandwidth is steady; returns it in GB/s. */
static double settle(struct mess_run *r, const struct mess_gen_kernel *k,
		     int *steady)
{
	struct mess_gen_snap a, b;
	double prev = -1, cur = 0;

	*steady = 0;
	if (!r->ngen)
		return 0;
	mess_gens_snap(&r->gens, &a);
	for (int i = 0; i < SETTLE_MAX_WINDOWS && !mess_interrupted; i++) {
		sleep_ns(SETTLE_WINDOW_NS);
		mess_gens_snap(&r->gens, &b);
		cur = (double)(b.iters - a.iters) *
		      (gen_read_bytes(k) + gen_write_bytes(k)) / (b.t_ns - a.t_ns);
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

struct sample {
	double lat_ns, rd_gbs, wr_gbs;	/* accounted */
	double crd_gbs, cwr_gbs, ctot_gbs;	/* counted: NAN without counters */
	double nowalk_ns;		/* NAN without walk cycles */
	double run_frac;
};

/* The counters over one chase window (NAN where they give no figure). */
static void counted(struct mess_run *r, const struct mess_dram_snap *da,
		    const struct mess_dram_snap *db,
		    const struct mess_corectr_snap *ca,
		    const struct mess_corectr_snap *cb, double dt_ns,
		    double dram_ns, double loads, struct sample *s)
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

static void chase_window(struct mess_run *r, const struct mess_gen_kernel *k,
			 struct sample *s)
{
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
	s->lat_ns = (t1 - t0) / loads;
	/* The chase's own traffic: one line per load, read. */
	s->rd_gbs = loads * r->topo.line_bytes / (t1 - t0);
	s->wr_gbs = 0;
	if (r->ngen && k) {
		dt = b.t_ns - a.t_ns;
		gi = (double)(b.iters - a.iters);
		s->rd_gbs += gi * gen_read_bytes(k) / dt;
		s->wr_gbs += gi * gen_write_bytes(k) / dt;
	}
	counted(r, da_ok ? &da : NULL, db_ok ? &db : NULL, &ca, &cb, t1 - t0,
		tb - ta, loads, s);
	/* Keep each repeat near chase_ms whatever the latency is now. */
	double want = r->cfg.chase_ms * 1e6 / (s->lat_ns * MESS_CHASE_UNROLL);

	r->chase_iters = want < 4 ? 4 : (uint64_t)want;
}

/* The median of the finite values (NAN if none): a window whose counter
 * gave no figure is left out, never counted as 0. */
static double median_finite(const double *v, unsigned n)
{
	double f[64];
	unsigned m = 0;

	for (unsigned i = 0; i < n && i < 64; i++)
		if (isfinite(v[i]))
			f[m++] = v[i];
	return m ? mess_median(f, m) : NAN;
}

static double min_finite(const double *v, unsigned n)
{
	double m = NAN;

	for (unsigned i = 0; i < n; i++)
		if (isfinite(v[i]) && !(v[i] >= m))
			m = v[i];
	return m;
}

/* Repeats with re-measurement when they disagree; fills lat/bw of p. */
static void measure_repeats(struct mess_run *r, const struct mess_gen_kernel *k,
			    unsigned repeats, struct mess_point *p)
{
	double lat[64], rd[64], wr[64], sorted[64];
	double crd[64], cwr[64], ctot[64], nw[64], rf[64];

	if (repeats > 64)
		repeats = 64;
	for (int attempt = 0;; attempt++) {
		struct sample s;

		for (unsigned i = 0; i < repeats && !mess_interrupted; i++) {
			chase_window(r, k, &s);
			lat[i] = s.lat_ns;
			rd[i] = s.rd_gbs;
			wr[i] = s.wr_gbs;
			crd[i] = s.crd_gbs;
			cwr[i] = s.cwr_gbs;
			ctot[i] = s.ctot_gbs;
			nw[i] = s.nowalk_ns;
			rf[i] = s.run_frac;
		}
		/* Cut short: nothing measured is a figure, never a guess. */
		if (mess_interrupted) {
			p->lat_ns = p->lat_ns_std = p->bw_gbs = NAN;
			p->read_bw_gbs = p->write_bw_gbs = p->read_pct = NAN;
			return;
		}
		memcpy(sorted, lat, repeats * sizeof(*lat));
		p->lat_ns = mess_median(sorted, repeats);
		if (repeats < 2 || attempt >= REMEASURE_MAX || mess_interrupted ||
		    (sorted[repeats - 1] - sorted[0]) <=
			    REPEAT_SPREAD_MAX * p->lat_ns)
			break;
		r->remeasured++;
	}
	p->lat_ns_std = mess_stddev(lat, repeats);
	p->acc_read_bw_gbs = mess_median(rd, repeats);
	p->acc_write_bw_gbs = mess_median(wr, repeats);
	p->read_bw_gbs = p->acc_read_bw_gbs;
	p->write_bw_gbs = p->acc_write_bw_gbs;
	p->lat_nowalk_ns = median_finite(nw, repeats);
	p->counter_run_frac = min_finite(rf, repeats);
	if (r->dram.fam) {
		/* Counted: the headline figures; NAN when a window gave none,
		 * and the point then says so rather than fall back. */
		p->read_bw_gbs = median_finite(crd, repeats);
		p->write_bw_gbs = median_finite(cwr, repeats);
	}
	p->bw_gbs = p->read_bw_gbs + p->write_bw_gbs;
	/* A family that counts reads and writes together gives the total
	 * and no share. */
	if (r->dram.fam && r->dram.fam->rw_combined)
		p->bw_gbs = median_finite(ctot, repeats);
	p->read_pct = isnan(p->bw_gbs) ? NAN : p->bw_gbs > 0 ?
		      100.0 * p->read_bw_gbs / p->bw_gbs : 100;
	/* A total without a split: the curve still needs a read share, and
	 * the generators' accounted one is the only one there is (meta.json
	 * and summary.md say so for such a family). */
	if (r->dram.fam && r->dram.fam->rw_combined) {
		double acc = p->acc_read_bw_gbs + p->acc_write_bw_gbs;

		p->read_pct = acc > 0 ? 100.0 * p->acc_read_bw_gbs / acc : 100;
	}
	p->repeats = repeats;
}

int mess_measure_unloaded(struct mess_run *r)
{
	/* Cheap next to the sweep, and the figure every curve is read against. */
	unsigned reps = r->cfg.repeats < 7 ? 7 : (unsigned)r->cfg.repeats;
	uint32_t *order = malloc((size_t)r->nlines * sizeof(*order));
	uint32_t per_window = (uint32_t)(r->cfg.window / r->cfg.stride);
	struct mess_rng rng;
	struct mess_point p;
	int err;

	if (!order)
		return -ENOMEM;
	r->unloaded_repeats = reps;
	if (r->ngen)
		mess_gens_set(&r->gens, NULL, 0);

	/* Fully random first (page walks included), then the windowed chain
	 * that every curve uses. */
	for (int pass = 0; pass < 2; pass++) {
		mess_rng_seed(&rng, r->cfg.seed);
		err = mess_chain_order(order, r->nlines,
				       pass == 0 ? 0 : per_window, &rng);
		if (err)
			goto out;
		r->chase_p = mess_chain_link(r->chase.p, r->cfg.stride, order,
					     r->nlines);
		r->chase_iters = 16;
		struct sample warm;

		/* The first window only sets the repeat length. */
		chase_window(r, NULL, &warm);
		measure_repeats(r, NULL, reps, &p);
		if (pass == 0) {
			r->unloaded_random_ns = p.lat_ns;
			r->unloaded_random_std_ns = p.lat_ns_std;
		} else {
			r->unloaded_ns = p.lat_ns;
			r->unloaded_std_ns = p.lat_ns_std;
		}
		if (r->cfg.window == 0)
			break;	/* the fully random chain is the one in use */
	}
	if (r->cfg.window == 0) {
		r->unloaded_ns = r->unloaded_random_ns;
		r->unloaded_std_ns = r->unloaded_random_std_ns;
	}
	r->fam.unloaded_ns = r->unloaded_ns;
out:
	free(order);
	return err;
}

static const struct mess_point *find_point(const struct mess_curve *c,
					   uint64_t nop)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->pts[i].nop == nop)
			return &c->pts[i];
	return NULL;
}

static void fmt_eta(char *buf, size_t len, double s)
{
	if (s < 0)
		snprintf(buf, len, "?");
	else if (s < 90)
		snprintf(buf, len, "%.0fs", s);
	else
		snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
}

struct mix_ctx {
	unsigned idx, nmix;	/* position of this mix in the run */
	unsigned store_pct;
	const struct mess_gen_kernel *k;
	struct mess_curve *c;
};

static unsigned expected_points(const struct mess_run *r)
{
	return (unsigned)r->cfg.points + 3;
}

static int measure_nop(struct mess_run *r, struct mix_ctx *m, uint64_t nop)
{
	struct mess_point p = { .store_pct = m->store_pct, .nop = nop };
	double t0 = mess_now_ns(), eta;
	char etabuf[32];
	int steady, err;

	if (find_point(m->c, nop))
		return 0;
	mess_gens_set(&r->gens, m->k, nop);
	settle(r, m->k, &steady);
	if (!steady)
		r->unsteady++;
	measure_repeats(r, m->k, (unsigned)r->cfg.repeats, &p);
	if (mess_interrupted)
		return -EINTR;
	err = mess_run_record_point(r, &p);
	if (err)
		return err;
	r->points_measured++;
	r->point_ns_total += mess_now_ns() - t0;

	/* ETA from the average point so far and the points still expected. */
	double per = r->point_ns_total / r->points_measured / 1e9;
	long left = (long)((m->nmix - m->idx - 1) * expected_points(r)) +
		    (long)expected_points(r) - (long)m->c->n;

	eta = per * (double)(left > 0 ? left : 0);
	fmt_eta(etabuf, sizeof(etabuf), eta);
	fprintf(stderr,
		"[mix %u/%u: %3u%% stores] point %2zu nop %7llu: %8.2f GB/s %8.1f ns (+-%.1f)%s | ETA %s\n",
		m->idx + 1, m->nmix, m->store_pct, m->c->n,
		(unsigned long long)nop, p.bw_gbs, p.lat_ns, p.lat_ns_std,
		steady ? "" : " [generators unsteady]", etabuf);
	return 0;
}

/* Generator-only probe: bandwidth at a nop count, no chase. */
static double probe(struct mess_run *r, const struct mess_gen_kernel *k,
		    uint64_t nop)
{
	int steady;

	mess_gens_set(&r->gens, k, nop);
	r->probes++;
	return settle(r, k, &steady);
}

static uint64_t lightest_nop(const struct mess_curve *c)
{
	uint64_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		if (c->pts[i].nop > n)
			n = c->pts[i].nop;
	return n;
}

static int sweep_mix(struct mess_run *r, struct mix_ctx *m)
{
	uint64_t pnop[64];
	double pbw[64];
	unsigned np = 0;
	unsigned init = r->cfg.points < 6 ? (unsigned)r->cfg.points : 6;
	int err;

	/* 1. Range: maximum pressure, then doubling nops until nearly idle. */
	pnop[np] = 0;
	pbw[np++] = probe(r, m->k, 0);
	double bwmax = pbw[0];
	for (uint64_t nop = 1; np < 64 && !mess_interrupted; nop *= 2) {
		if (nop > r->cfg.max_nop)
			nop = r->cfg.max_nop;
		pnop[np] = nop;
		pbw[np] = probe(r, m->k, nop);
		/* Against the largest probe, not the first: one slow window
		 * at nop 0 must not make nop 1 look idle. */
		bwmax = fmax(bwmax, pbw[np]);
		if (pbw[np++] < IDLE_FRACTION * bwmax || nop >= r->cfg.max_nop)
			break;
	}
	if (mess_interrupted)
		return -EINTR;

	/* 2. Initial points: the probes closest to evenly spaced bandwidth
	 * levels between idle and maximum, both ends included. */
	for (unsigned j = 0; j < init; j++) {
		double target = pbw[0] * (1.0 - (double)j / (init - 1));
		unsigned bi = 0;

		for (unsigned i = 1; i < np; i++)
			if (fabs(pbw[i] - target) < fabs(pbw[bi] - target))
				bi = i;
		if (j == init - 1)
			bi = np - 1;
		err = measure_nop(r, m, pnop[bi]);
		if (err)
			return err;
	}

	/* 3. Refine by bisection until dense enough.  A transient can still
	 * end the range early, at nop counts too close to bisect (0, 1, 2):
	 * then extend towards idle, so that the curve gets its points. */
	for (uint64_t nop;;) {
		if (!mess_autotune_next(m->c, r->unloaded_ns,
					(unsigned)r->cfg.points, &nop)) {
			uint64_t light = lightest_nop(m->c);

			if (m->c->n >= (size_t)r->cfg.points ||
			    light >= r->cfg.max_nop)
				break;
			nop = light ? 2 * light : 1;
			if (nop > r->cfg.max_nop)
				nop = r->cfg.max_nop;
		}
		err = measure_nop(r, m, nop);
		if (err)
			return err;
	}
	return 0;
}

int mess_sweep(struct mess_run *r)
{
	int err = 0;

	for (int i = 0; i < r->cfg.nmixes && !err; i++) {
		unsigned s = r->cfg.mix[i];
		struct mix_ctx m = {
			.idx = (unsigned)i,
			.nmix = (unsigned)r->cfg.nmixes,
			.store_pct = s,
			.k = &r->var->table[s / MESS_GEN_MIX_STEP],
		};

		if (r->done[s])
			continue;
		m.c = mess_family_curve(&r->fam, s, expected_read_pct(m.k));
		if (!m.c)
			return -ENOMEM;
		if (!r->ngen) {
			/* Without generator cores only the unloaded point
			 * exists; say so rather than invent a curve. */
			continue;
		}
		err = sweep_mix(r, &m);
		if (!err)
			err = mess_run_mark_done(r, s);
	}
	if (r->ngen)
		mess_gens_set(&r->gens, NULL, 0);
	return mess_interrupted ? -EINTR : err;
}
