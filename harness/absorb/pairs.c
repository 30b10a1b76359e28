// SPDX-License-Identifier: MIT
/*
 * `mess absorb`'s points: pairs of timed runs, k = 0 and k, interleaved
 * in slices, taken until the sequential test decides the point
 * (mess/absorb.h); the search around them is measure.c's.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "absorb/absorb.h"
#include "core/signals.h"
#include "mess/stats.h"

int absorb_set_k(struct mess_absorb *a, int cores, enum mess_noise_mode m,
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
 * One pair: its two runs cut into --slices slices each, run as sub-pairs
 * (0 k or k 0, a coin decides): host drift slower than a slice (on a
 * shared host a neighbour's memory traffic comes and goes over tens of
 * milliseconds) falls on both alike.  The coin, not a fixed 0 k k 0, so
 * that nothing periodic on the host can line up with one of the two.
 * *x, *y: time per iteration at k = 0 and at k, means over the slices;
 * *q: the pair's ratio, the median of its sub-pairs' (mess_absorb_pair_ratio).
 */
static int slices(struct mess_absorb *a, struct row *r, struct timed *j,
		  enum mess_noise_mode m, unsigned k, double *x, double *y,
		  double *q, struct run_obs *o0, struct run_obs *o1)
{
	unsigned ns = (unsigned)a->t.o.slices;
	uint64_t iters = j->iters;
	double sx[MESS_ABSORB_MAX_SLICES], sy[MESS_ABSORB_MAX_SLICES];

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
		err = absorb_set_k(a, r->wl.cores, m, at_k ? k : 0);
		if (err) {
			j->iters = iters;
			return err;
		}
		t = absorb_timed_run(a, r->wl.cores, j, NULL, &o);
		*(at_k ? y : x) += t / ns;
		(at_k ? sy : sx)[i / 2] = t;
		absorb_obs_add(at_k ? o1 : o0, &o);
	}
	j->iters = iters;
	if (mess_interrupted)
		return -EINTR;
	*q = mess_absorb_pair_ratio(sx, sy, ns);
	return isnan(*q) ? -EIO : 0;
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
 * The slowdown is the median of the pairs' ratios (each the median of its
 * slices' sub-pair ratios: slices()), scaled by the
 * baseline t0 (the k = 0 point), so that drift slower than a slice (a
 * shared host, frequency, a VM's neighbours) cancels instead of reading as
 * absorption or slowdown.  The k = 0 point pairs k = 0 with itself, --repeats times,
 * its ratios' spread being the noise floor until the search has pooled
 * enough of its own pairs (pr->noise); every other point takes pairs
 * until the sequential test (mess_absorb_seq) decides it or max-pairs.
 * A pair during which steal time or a preemption hit either run, or
 * whose state probes before and after it are apart (core/measure/hoststate.h), is
 * measured again (mess_absorb_seq_add says how often).  *paired gets the
 * median of the pairs' own k = 0 runs, to show the drift.
 */
static int measure_pairs(struct mess_absorb *a, struct row *r,
			 struct mess_wl *w, enum mess_noise_mode m,
			 const struct mess_absorb_todo *td,
			 struct absorb_held *h, struct mess_absorb_point *pt,
			 double *paired, struct point_obs *po)
{
	struct pair *pr = &r->pair[m];
	unsigned k = td->k;
	struct timed j = { NULL, w, m, pr->iters, -1 };
	struct mess_absorb_seqstate *s = &h->s;
	struct mess_absorb_cfg c = a->t.acfg;
	double tk[2 * MESS_ABSORB_MAX_PAIRS];
	const struct mess_absorb_point *bp = NULL;
	double base = NAN, floor_rel = 0, thr_rel = 0;
	size_t want;
	int err = 0, v;

	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k == 0)
			bp = &pr->pts[i];
	if (bp && k) {
		base = bp->t;
		floor_rel = isnan(pr->noise) ? bp->sigma / bp->t : pr->noise;
		thr_rel = mess_absorb_threshold(&a->t.acfg, bp) / bp->t;
		j.iters = work(pr, bp, k);
		/* The search's bound for this point (a point taken further:
		 * its pairs so far in h count towards it). */
		c.max_pairs = td->pairs;
		c.redo = td->redo;
	}
	want = k && bp ? 0 : a->t.o.repeats;
	*po = h->po;
	do {
		struct run_obs o0, o1;
		struct mess_hoststate_probe p0, p1;
		size_t n = s->n;
		double x, y, q;
		int moved;

		if (mess_interrupted)
			return -EINTR;
		absorb_host_probe(a, &p0);
		err = slices(a, r, &j, m, k, &x, &y, &q, &o0, &o1);
		if (err)
			return err;
		absorb_host_probe(a, &p1);
		/* A pair whose runs straddle a change of the host's state
		 * compares two states: measured again like a disturbed one. */
		moved = mess_hoststate_apart(&p0, &p1);
		a->t.state_pairs += (unsigned long)moved;
		absorb_observe(po, &o0, 0);
		absorb_observe(po, &o1, 1);
		v = mess_absorb_seq_add(s, q,
					o0.disturbed || o1.disturbed || moved,
					want, floor_rel, thr_rel, &c);
		if (v < 0)
			return -EIO;
		if (s->n > n) {
			h->t0[n] = x;
			tk[n] = y;
		}
	} while (v == MESS_ABSORB_MORE);
	po->disturbed = s->disturbed;
	po->redone = s->redone;
	po->kept = s->kept;
	h->po = *po;
	if (isnan(base)) {
		/* Both runs of every pair are the baseline here (never
		 * taken further: tk holds all its pairs). */
		memcpy(tk + s->n, h->t0, s->n * sizeof(*tk));
		base = mess_median(tk, 2 * (unsigned)s->n);
	}
	*paired = mess_median(h->t0, (unsigned)s->n);
	po->verdict = k ? mess_absorb_verdict_name(s->last.verdict) : "base";
	*pt = (struct mess_absorb_point){
		.k = k,
		.t = k ? base * s->last.ratio : base,
		.sigma = base * s->last.scale,
		.repeats = (unsigned)s->n,
		.lo = k ? base * s->last.lo : 0,
		.hi = k ? base * s->last.hi : 0,
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
int absorb_measure_point(struct mess_absorb *a, struct row *r,
			 struct mess_wl *w, enum mess_noise_mode m,
			 const struct mess_absorb_todo *td,
			 struct absorb_held *h, struct mess_absorb_point *pt,
			 double *paired, struct point_obs *po)
{
	static const struct absorb_held none;
	struct mess_absorb_point c;
	struct point_obs co;
	double cp;
	int err = measure_pairs(a, r, w, m, td, h, pt, paired, po);

	for (int i = 0; !err && td->k == 0 && i < ABSORB_REMEASURE_MAX &&
			pt->sigma > ABSORB_REMEASURE_REL * pt->t; i++) {
		/* The baseline is never taken further: h is a scratch one. */
		*h = none;
		a->t.remeasured++;
		err = measure_pairs(a, r, w, m, td, h, &c, &cp, &co);
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
