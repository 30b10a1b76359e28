// SPDX-License-Identifier: MIT
/*
 * The autotuned sweep over nop counts: a mix's range probed, its points
 * placed and refined by bisection (where the curve bends most: the knee
 * rule; or where two points lie furthest apart: --sweep classic), then
 * its rules (lib's mess_quality_curve) name the points that break one,
 * and a candidate wave past the maximum bandwidth: those are measured
 * again, and what still breaks a rule is flagged, kept, and said (the
 * verdict at the end is quality.c's).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "curves/result/run.h"
#include "mess/autotune.h"

#define IDLE_FRACTION 0.03	/* "nearly idle": below 3 % of max pressure */
/* Rounds of measuring again per mix; each point at most once a round. */
#define RULE_ROUNDS 2

/* One point at p's store_pct and nop: the load set, the repeats, what the
 * backend adds.  0 or -errno. */
static int measure_point(struct mess_run *r, struct mess_point *p)
{
	struct mess_load l = { .store_pct = p->store_pct, .intensity = p->nop,
			       .point = 1 };
	int steady, rc;

	r->be->set_load(r->bs, &l, &steady);
	if (!steady)
		r->unsteady++;
	p->flags = steady ? 0 : MESS_QF(MESS_QR_UNSTEADY);
	rc = mess_repeats(&r->rep, (unsigned)r->cfg.repeats, p);
	return r->be->point_end ? r->be->point_end(r->bs, rc, p) : rc;
}

/* The usable points by increasing pressure, as indices (NULL: no memory). */
static size_t *pressure_order(const struct mess_curve *c, size_t *n)
{
	size_t *idx = malloc((c->n ? c->n : 1) * sizeof(*idx));

	*n = idx ? mess_curve_pressure_index(c, idx) : 0;
	return idx;
}

/*
 * Candidate waves: past the maximum bandwidth, a point whose bandwidth
 * fell by more than --wave-tol from the lighter point before it while
 * its latency rose.  A wave is said only once a repeat confirms it, so
 * each is marked to be measured again (once).  Returns how many.
 */
static unsigned wave_candidates(const struct mess_run *r,
				const struct mess_curve *c, unsigned char *inv)
{
	size_t m, *idx = pressure_order(c, &m), imax = 0;
	unsigned n = 0;

	if (!idx)
		return 0;
	for (size_t i = 1; i < m; i++)
		if (c->pts[idx[i]].bw_gbs > c->pts[idx[imax]].bw_gbs)
			imax = i;
	for (size_t i = imax + 1; i < m; i++) {
		const struct mess_point *q = &c->pts[idx[i - 1]], *p = &c->pts[idx[i]];

		if (p->bw_gbs < q->bw_gbs * (1 - r->cfg.wave_tol) &&
		    p->lat_ns > q->lat_ns && !p->remeasured) {
			inv[idx[i]] = 1;
			n++;
		}
	}
	free(idx);
	return n;
}

/* A mix's rules after its sweep: the points that break one, and the wave
 * candidates, measured again (RULE_ROUNDS rounds), then flagged if they
 * still do; curves.csv rewritten when anything changed.  0 or -errno. */
static int quality_mix(struct mess_run *r, struct mess_curve *c)
{
	const struct mess_qtol tol = MESS_QTOL_DEFAULT;
	unsigned char *inv = NULL;
	int changed = 0, err = 0;

	for (int round = 0; round < RULE_ROUNDS && !err; round++) {
		unsigned char *t = realloc(inv, c->n ? c->n : 1);
		size_t todo = 0, cap = c->n / 2 > 4 ? c->n / 2 : 4;
		unsigned waves;

		if (!t) {
			err = -ENOMEM;
			break;
		}
		inv = t;
		mess_quality_curve(c, r->u.ns, r->u.std_ns, &tol, inv);
		waves = wave_candidates(r, c, inv);
		if (round == 0)
			r->waves_checked += waves;
		for (size_t i = 0; i < c->n; i++)
			todo += inv[i] && c->pts[i].remeasured <= (uint32_t)round;
		/* Measuring again under a disturbance that stays (the last
		 * point had to keep disturbed windows) would find it again. */
		if (!todo || r->rep.st.disturb_persists)
			break;
		fprintf(stderr, "[mix %3u%% stores] %zu point%s broke a rule or may be a wave: measured again\n",
			c->store_pct, todo, todo == 1 ? "" : "s");
		/* At most half the curve a round: a curve that breaks its rules
		 * everywhere is said to, not measured without end. */
		for (size_t i = 0; i < c->n && cap && !mess_interrupted; i++) {
			struct mess_point q = MESS_POINT_INIT, *p = &c->pts[i];
			char flags[160];

			if (!inv[i] || p->remeasured > (uint32_t)round)
				continue;
			q.store_pct = p->store_pct;
			q.nop = p->nop;
			err = measure_point(r, &q);
			if (mess_interrupted || err)
				break;
			q.remeasured = p->remeasured + 1;
			fprintf(stderr, "[mix %3u%% stores] nop %7llu again: %8.2f GB/s %8.1f ns (was %.2f GB/s %.1f ns)%s%s%s\n",
				c->store_pct, (unsigned long long)q.nop, q.bw_gbs,
				q.lat_ns, p->bw_gbs, p->lat_ns,
				q.flags ? " [" : "",
				mess_qflags_str(q.flags, flags, sizeof(flags)),
				q.flags ? "]" : "");
			*p = q;
			r->points_rule_remeasured++;
			changed = 1;
			cap--;
		}
		if (mess_interrupted)
			err = -EINTR;
	}
	free(inv);
	/* The flags as they stand now: a candidate wave still there after
	 * its repeat is confirmed (metrics.c says waves past the maximum
	 * only). */
	mess_quality_curve(c, r->u.ns, r->u.std_ns, &tol, NULL);
	if (changed && !err)
		err = mess_run_rewrite_csv(r);
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
	struct mess_curve *c;
};

static int classic(const struct mess_run *r)
{
	return !strcmp(r->cfg.sweep, "classic");
}

/* classic's --points is the fewest, the knee rule's the most */
static unsigned expected_points(const struct mess_run *r)
{
	return (unsigned)r->cfg.points + (classic(r) ? MESS_SWEEP_EXTRA_POINTS : 0);
}

static int measure_nop(struct mess_run *r, struct mix_ctx *m, uint64_t nop)
{
	struct mess_point p = MESS_POINT_INIT;
	double t0 = mess_now_ns(), eta;
	char etabuf[32], flags[160];
	int err;

	if (find_point(m->c, nop))
		return 0;
	p.store_pct = m->store_pct;
	p.nop = nop;
	err = measure_point(r, &p);
	if (mess_interrupted)
		return -EINTR;
	if (!err)
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
	/* Share of the points expected that are done: an estimate, like
	 * the ETA (a curve may need more points than expected). */
	double total = (double)m->nmix * (double)expected_points(r);
	double done_pct = total > 0 ? 100.0 * (total - (left > 0 ? left : 0)) / total : 0;

	done_pct = done_pct < 0 ? 0 : done_pct > 100 ? 100 : done_pct;
	mess_qflags_str(p.flags, flags, sizeof(flags));
	fprintf(stderr,
		"[mix %u/%u: %3u%% stores] point %2zu nop %7llu: %8.2f GB/s %8.1f ns (+-%.1f)%s%s%s | %3.0f %% | ETA %s\n",
		m->idx + 1, m->nmix, m->store_pct, m->c->n,
		(unsigned long long)nop, p.bw_gbs, p.lat_ns, p.lat_ns_std,
		flags[0] ? " [" : "", flags, flags[0] ? "]" : "", done_pct, etabuf);
	return 0;
}

/* A probe: the bandwidth at a nop count, no window measured. */
static double probe(struct mess_run *r, unsigned store_pct, uint64_t nop)
{
	struct mess_load l = { .store_pct = store_pct, .intensity = nop };
	int steady;

	r->probes++;
	return r->be->set_load(r->bs, &l, &steady);
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
	/* The knee rule starts with fewer and spends the rest where the
	 * curve bends.  4 of 10: the 95th percentile of latency error 3.2 %
	 * at 1 % noise, against 4.0 % starting with 3 and 3.8 % with 6; 5.4 %
	 * at 3 % noise, against 6.4 % with either (the worst of three seeds,
	 * averaged over the six public sets; tools/sweep-bench.sh). */
	unsigned first = classic(r) ? 6 : 4;
	unsigned init = r->cfg.points < first ? (unsigned)r->cfg.points : first;
	int err;

	/* 1. Range: maximum pressure, then doubling nops until nearly idle. */
	pnop[np] = 0;
	pbw[np++] = probe(r, m->store_pct, 0);
	double bwmax = pbw[0];
	for (uint64_t nop = 1; np < 64 && !mess_interrupted; nop *= 2) {
		if (nop > r->cfg.max_nop)
			nop = r->cfg.max_nop;
		pnop[np] = nop;
		pbw[np] = probe(r, m->store_pct, nop);
		/* Against the largest probe, not the first: one slow window
		 * at nop 0 must not make nop 1 look idle. */
		bwmax = fmax(bwmax, pbw[np]);
		if (pbw[np++] < IDLE_FRACTION * bwmax || nop >= r->cfg.max_nop)
			break;
	}
	if (mess_interrupted)
		return -EINTR;

	/* 2. Initial points: the probe of maximum bandwidth (on a curve
	 * with a wave it is not nop 0, and the maximum is a headline
	 * figure), then nop 0, the lightest probe and the probes closest to
	 * evenly spaced bandwidth levels between them. */
	unsigned imax = 0;

	for (unsigned i = 1; i < np; i++)
		if (pbw[i] > pbw[imax])
			imax = i;
	err = measure_nop(r, m, pnop[imax]);
	if (err)
		return err;
	for (unsigned j = 0; j < init; j++) {
		double target = pbw[imax] * (1.0 - (double)j / (init - 1));
		unsigned bi = 0;

		for (unsigned i = 1; i < np; i++)
			if (fabs(pbw[i] - target) < fabs(pbw[bi] - target))
				bi = i;
		if (j == 0)
			bi = 0;		/* maximum pressure, always */
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
		unsigned pts = (unsigned)r->cfg.points;

		if (!(classic(r) ? mess_autotune_next(m->c, r->u.ns, pts, &nop)
				 : mess_autotune_knee(m->c, r->u.ns, pts, &nop))) {
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

/*
 * 4. The maximum confirmed.  The point of highest bandwidth is the one most
 * likely to have been measured high (the largest of several noisy figures
 * on a flat top), so it is measured again and the repeat replaces it, as a
 * point that broke a rule is (its `remeasured` counts it); again while the
 * maximum moves to a point not yet repeated, at most CONFIRM_ROUNDS times.
 */
#define CONFIRM_ROUNDS 2

static int confirm_max(struct mess_run *r, struct mix_ctx *m)
{
	struct mess_curve *c = m->c;
	int changed = 0, err = 0;

	for (int round = 0; round < CONFIRM_ROUNDS && !mess_interrupted; round++) {
		struct mess_point q = MESS_POINT_INIT, *p = NULL;

		for (size_t i = 0; i < c->n; i++)
			if (mess_point_usable(&c->pts[i]) &&
			    (!p || c->pts[i].bw_gbs > p->bw_gbs))
				p = &c->pts[i];
		if (!p || p->remeasured)
			break;
		q.store_pct = p->store_pct;
		q.nop = p->nop;
		/* Twice the repeats: the figure is a headline, its median
		 * the one worth the most windows. */
		uint64_t reps = r->cfg.repeats;

		r->cfg.repeats = 2 * reps;
		err = measure_point(r, &q);
		r->cfg.repeats = reps;
		if (mess_interrupted || err)
			break;
		q.remeasured = p->remeasured + 1;
		fprintf(stderr, "[mix %3u%% stores] nop %7llu again (the maximum): %8.2f GB/s %8.1f ns (was %.2f GB/s %.1f ns)\n",
			m->store_pct, (unsigned long long)q.nop, q.bw_gbs, q.lat_ns,
			p->bw_gbs, p->lat_ns);
		*p = q;
		changed = 1;
	}
	if (mess_interrupted)
		return -EINTR;
	if (err)
		return err;
	return changed ? mess_run_rewrite_csv(r) : 0;
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
		};

		if (r->done[s])
			continue;
		m.c = mess_family_curve(&r->fam, s,
					 r->desc.read_pct[s / MESS_GEN_MIX_STEP]);
		if (!m.c)
			return -ENOMEM;
		if (!r->desc.nunits) {
			/* Without generator cores only the unloaded point
			 * exists; say so rather than invent a curve. */
			continue;
		}
		err = sweep_mix(r, &m);
		if (!err)
			err = confirm_max(r, &m);
		if (!err)
			err = quality_mix(r, m.c);
		if (!err)
			err = mess_run_mark_done(r, s);
	}
	if (r->desc.nunits) {
		struct mess_load idle = { .store_pct = MESS_LOAD_IDLE };
		int steady;

		r->be->set_load(r->bs, &idle, &steady);
	}
	return mess_interrupted ? -EINTR : err;
}
