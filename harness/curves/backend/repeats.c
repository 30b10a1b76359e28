// SPDX-License-Identifier: MIT
/*
 * The repeats of one point, whatever measures it (issue 44): the backend
 * gives windows (be->window), and the rules that judge them are the
 * driver's, written once: a disturbed window is measured again, up to a
 * bound, then kept and counted; the repeats grow while they disagree.  A
 * measured point and a replayed one go through the same bookkeeping, so
 * the sweep's rules and the verdict judge them alike.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "curves/backend/backend.h"
#include "mess/stats.h"

/* The trust figures of the kept windows, summed or bounded. */
struct kept {
	unsigned disturbed, kept_disturbed;
	double lost, steal, ghz_lo, ghz_hi;
};

static void keep(struct mess_wstats *r, struct kept *t,
		 const struct mess_window *w)
{
	t->lost = fmax(t->lost, w->lost_pct);
	if (isfinite(w->steal_ms))
		t->steal = (isfinite(t->steal) ? t->steal : 0) + w->steal_ms;
	for (int i = 0; i < 2; i++) {
		double g = i ? w->ghz1 : w->ghz0;

		if (!isfinite(g))
			continue;
		t->ghz_lo = fmin(t->ghz_lo, g);
		t->ghz_hi = fmax(t->ghz_hi, g);
		r->clock_lo = fmin(r->clock_lo, g);
		r->clock_hi = fmax(r->clock_hi, g);
	}
}

/* A disturbed window: counted, the run's worst remembered; whether it is
 * measured again (1) or kept. */
static int disturbed(struct mess_wstats *r, struct kept *t,
		     const struct mess_window *w, unsigned *redo,
		     unsigned budget)
{
	r->windows_disturbed += 1 + w->redone;
	t->disturbed += 1 + w->redone;
	if (w->who && w->lost_pct > r->worst_lost_pct) {
		r->worst_lost_pct = w->lost_pct;
		r->worst_steal_ms = w->steal_ms;
		snprintf(r->worst_who, sizeof(r->worst_who), "%s", w->who);
	}
	if (!w->redone && (*redo)++ < budget)
		return 1;
	r->windows_kept_disturbed++;
	t->kept_disturbed++;
	return 0;
}

void mess_wstats_init(struct mess_wstats *st)
{
	*st = (struct mess_wstats){ .worst_steal_ms = NAN,
				    .clock_lo = INFINITY };
}

/* Outside what the hardware can do: a latency below an L1 hit (0.67 ns
 * once, against an unloaded 255.7 ns), a bandwidth past the peak. */
static int impossible(const struct mess_repeater *rp, const struct mess_window *w)
{
	return w->lat_ns < rp->floor_ns || w->bw_gbs > rp->ceil_gbs;
}

int mess_repeats(struct mess_repeater *rp, unsigned repeats,
		 struct mess_point *p)
{
	struct mess_wstats *r = &rp->st;
	struct mess_window w[MESS_MAX_WINDOWS];
	double lat[MESS_MAX_WINDOWS], sorted[MESS_MAX_WINDOWS];
	struct kept t = { .steal = NAN, .ghz_lo = INFINITY, .ghz_hi = -INFINITY };
	unsigned n = 0, target, cap, redo = 0, budget, gone = 0;
	int spread_bad = 0, cut = 0;

	/* --repeats allows 50: the table holds three times that. */
	if (repeats > MESS_MAX_WINDOWS / MESS_SPREAD_ROUNDS)
		repeats = MESS_MAX_WINDOWS / MESS_SPREAD_ROUNDS;
	target = repeats;
	cap = MESS_SPREAD_ROUNDS * repeats;
	/* A disturbance that outlasted the last point's bound (a competitor
	 * that stays) is not waited out window by window. */
	budget = r->disturb_persists ? 1 : repeats;
	for (;;) {
		while (n < target && !cut) {
			cut = rp->be->window(rp->bs, &w[n]);
			r->windows += 1 + w[n].redone;
			if (cut)
				break;
			/* Never a figure, measured again up to the repeats;
			 * past that the point ends with the windows it has. */
			if (impossible(rp, &w[n])) {
				r->windows_impossible++;
				if (gone++ < repeats)
					continue;
				break;
			}
			if (w[n].disturbed &&
			    disturbed(r, &t, &w[n], &redo, budget))
				continue;
			keep(r, &t, &w[n]);
			lat[n] = w[n].lat_ns;
			n++;
		}
		/* Cut short, or every window impossible: nothing measured
		 * is a figure, never a guess. */
		if (cut || !n) {
			p->lat_ns = p->lat_ns_std = p->bw_gbs = NAN;
			p->read_bw_gbs = p->write_bw_gbs = p->read_pct = NAN;
			return cut ? -EINTR : 0;
		}
		memcpy(sorted, lat, n * sizeof(*lat));
		p->lat_ns = mess_median(sorted, n);
		spread_bad = mess_spread_bad(sorted, n, p->lat_ns, MESS_REPEAT_SPREAD_MAX);
		if (!spread_bad || target >= cap || gone > repeats)
			break;
		/* More repeats, not other ones: the median of them all. */
		target += repeats;
		r->remeasured++;
	}
	r->disturb_persists = t.kept_disturbed > 0;
	p->lat_ns_std = mess_stddev(lat, n);
	p->repeats = n;
	rp->be->figures(rp->bs, w, n, p);
	p->disturbed = t.disturbed;
	p->disturbed_kept = t.kept_disturbed;
	p->lost_pct = rp->desc->dist_known ? t.lost : NAN;
	p->steal_ms = t.steal;
	p->ghz_min = isfinite(t.ghz_lo) ? t.ghz_lo : NAN;
	p->ghz_max = isfinite(t.ghz_hi) ? t.ghz_hi : NAN;
	p->flags &= ~(MESS_QF(MESS_QR_DISTURBED) | MESS_QF(MESS_QR_SPREAD));
	/* The figures are medians: disturbed windows kept as a minority of
	 * the repeats do not move them; as half or more they may. */
	if (t.kept_disturbed && 2 * t.kept_disturbed >= n)
		p->flags |= MESS_QF(MESS_QR_DISTURBED);
	if (spread_bad)
		p->flags |= MESS_QF(MESS_QR_SPREAD);
	return 0;
}
