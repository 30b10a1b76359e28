// SPDX-License-Identifier: MIT
/*
 * Reading a latency ladder's plateaus against the cache sizes hwloc gives.
 *
 * A random chase over a buffer of s bytes, with caches S_1 < S_2 < ...,
 * hits level i about S_i / s of the time once s > S_i (and the levels
 * below it less often still).  So the latency at a size is a mix of
 * levels, and a plateau's figure is only clean well inside one level and
 * well past the one below: level i's window is
 *
 *	2 S_{i-1} < s <= S_i / 2		(S_0 = 0)
 *
 * which leaves out the half of each transition where the mix moves the
 * most, and the window's median stands for the level.  The median rather
 * than the mean, so that one disturbed point does not move it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>

#include "mess/ladder.h"

const struct mess_ladder_status_def mess_ladder_statuses[MESS_LADDER_NSTATUS] = {
	[MESS_LADDER_OK] = { "ok", MESS_PASS, "ladder_ok" },
	[MESS_LADDER_EMPTY] = { "no sizes in window", MESS_PASS, "ladder_empty" },
	[MESS_LADDER_NOT_FLAT] = { "not flat", MESS_WARN, "ladder_not_flat" },
	[MESS_LADDER_NOT_ABOVE] = { "not above the level below", MESS_WARN,
				    "ladder_not_above" },
	[MESS_LADDER_BELOW] = { "below the level below", MESS_INVALID,
				"ladder_below" },
};

static void set_status(struct mess_ladder_plateau *p, enum mess_ladder_status st)
{
	p->st = st;
	p->status = mess_ladder_statuses[st].name;
}

/* Window bounds must not wrap for absurd cache sizes. */
static uint64_t twice(uint64_t x)
{
	return x > UINT64_MAX / 2 ? UINT64_MAX : 2 * x;
}

/*
 * k-th smallest (0-based) of lat[a..b), by counting: a ladder has a few
 * dozen points and this needs no scratch buffer from the caller.
 */
static double kth(const double *lat, size_t a, size_t b, size_t k)
{
	for (size_t j = a; j < b; j++) {
		size_t less = 0, leq = 0;

		for (size_t i = a; i < b; i++) {
			less += lat[i] < lat[j];
			leq += lat[i] <= lat[j];
		}
		if (less <= k && k < leq)
			return lat[j];
	}
	return NAN;
}

static void plateau(const uint64_t *sizes, const double *lat, size_t n,
		    struct mess_ladder_plateau *p)
{
	size_t a = 0, b;
	double lo, hi;

	while (a < n && sizes[a] < p->lo)
		a++;
	for (b = a; b < n && sizes[b] <= p->hi; b++)
		;
	p->npts = b - a;
	p->lat_ns = p->spread = NAN;
	p->edge_bytes = 0;
	p->flat = 0;
	set_status(p, MESS_LADDER_EMPTY);
	if (!p->npts)
		return;
	p->lat_ns = (kth(lat, a, b, (b - a - 1) / 2) +
		     kth(lat, a, b, (b - a) / 2)) / 2;
	lo = hi = lat[a];
	for (size_t i = a; i < b; i++) {
		lo = fmin(lo, lat[i]);
		hi = fmax(hi, lat[i]);
	}
	p->spread = (hi - lo) / p->lat_ns;
}

int mess_ladder_plateaus(const uint64_t *sizes, const double *lat, size_t n,
			 const struct mess_ladder_cache *caches, size_t ncaches,
			 double flat_tol, struct mess_ladder_plateau *out)
{
	const struct mess_ladder_plateau *below = NULL;

	if (!sizes || !lat || !n || !out || (ncaches && !caches) ||
	    !(flat_tol >= 0) || isinf(flat_tol))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if ((i && sizes[i] <= sizes[i - 1]) || !isfinite(lat[i]) ||
		    lat[i] <= 0)
			return -EINVAL;
	for (size_t k = 0; k < ncaches; k++)
		if (!caches[k].bytes ||
		    (k && caches[k].bytes <= caches[k - 1].bytes))
			return -EINVAL;

	for (size_t k = 0; k <= ncaches; k++) {
		struct mess_ladder_plateau *p = &out[k];

		if (k < ncaches) {
			p->level = caches[k].level;
			p->cap_bytes = caches[k].bytes;
			p->lo = k ? twice(caches[k - 1].bytes) + 1 : 1;
			p->hi = caches[k].bytes / 2;
		} else {
			/*
			 * Memory: past twice the last cache a random chase
			 * still hits it about S_last / s of the time, so the
			 * figure is below memory's own latency by that share
			 * of the gap to the last cache (14 % at 6 x S_last).  It
			 * is not corrected here (that needs a model of the
			 * replacement policy); the caller reports the bias.
			 * With no cache known, the upper half of the ladder
			 * in log scale is the best guess at memory.
			 */
			p->level = 0;
			p->cap_bytes = 0;
			p->lo = ncaches ? twice(caches[k - 1].bytes) :
				(uint64_t)ceil(sqrt((double)sizes[0] *
						    (double)sizes[n - 1]));
			p->hi = sizes[n - 1];
		}
		plateau(sizes, lat, n, p);
		if (!p->npts)
			continue;
		p->flat = p->spread <= flat_tol;
		set_status(p, p->flat ? MESS_LADDER_OK : MESS_LADDER_NOT_FLAT);
		/*
		 * A level no slower than the one below is not a level of its
		 * own: a virtual machine may report an L3 that the guest
		 * only sees as more L2.  One faster than it by more than the
		 * tolerance is worse: a random chase over a larger buffer
		 * cannot be faster, so the ladder contradicts itself.
		 */
		if (below && p->lat_ns * (1 + flat_tol) < below->lat_ns)
			set_status(p, MESS_LADDER_BELOW);
		else if (below && p->lat_ns < below->lat_ns * (1 + flat_tol))
			set_status(p, MESS_LADDER_NOT_ABOVE);
		below = p;
	}

	/*
	 * Where the ladder crosses the geometric mean of two neighbouring
	 * plateaus it has become closer (in ratio) to the upper one: the last
	 * size before that is the capacity the lower level really gives,
	 * which may differ from hwloc's figure (shared or inclusive caches,
	 * ways reserved by the platform).  No edge to a level that is not
	 * above this one: there is no step to place.
	 */
	for (size_t k = 0; k < ncaches; k++) {
		struct mess_ladder_plateau *p = &out[k];
		const struct mess_ladder_plateau *q = &out[k + 1];
		double thr = sqrt(p->lat_ns * q->lat_ns);

		if (!p->npts || !q->npts || q->st == MESS_LADDER_NOT_ABOVE ||
		    q->st == MESS_LADDER_BELOW)
			continue;
		for (size_t i = 0; i < n; i++)
			if (sizes[i] >= p->lo && sizes[i] <= q->lo &&
			    lat[i] <= thr)
				p->edge_bytes = sizes[i];
	}
	return 0;
}

const char *mess_ladder_level_name(const struct mess_ladder_plateau *p,
				   char *buf, size_t len)
{
	if (p->level)
		snprintf(buf, len, "L%d", p->level);
	else
		snprintf(buf, len, "memory");
	return buf;
}

/* "L3 (spread 133 %), memory (25 %)": the levels not flat, for a reason. */
static size_t not_flat_list(const struct mess_ladder_plateau *p, size_t n,
			    char *buf, size_t len)
{
	size_t at = 0, k = 0;
	char name[16];

	buf[0] = 0;
	for (size_t i = 0; i < n && at < len; i++) {
		if (!p[i].npts || p[i].flat)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s (%s%.0f %%)",
				       k ? ", " : "",
				       mess_ladder_level_name(&p[i], name, sizeof(name)),
				       k ? "" : "spread ", 100 * p[i].spread);
		k++;
	}
	return k;
}

void mess_ladder_verdict(const struct mess_ladder_plateau *p, size_t n,
			 double flat_tol, struct mess_verdict *v,
			 enum mess_level *lv)
{
	const struct mess_ladder_plateau *below = NULL;
	char list[200], name[16], bname[16], empty[64] = "";
	size_t nf = not_flat_list(p, n, list, sizeof(list)), ne = 0;

	if (nf)
		mess_verdict_add(v, MESS_WARN, mess_ladder_statuses[MESS_LADDER_NOT_FLAT].rule,
				 "latency ladder: %s not flat: the latencies in %s window spread over more than %.0f %% of its median, which is then no plateau (not drawn as one; summary.json flat: false): a shared level, less cache than hwloc says, or disturbed runs",
				 list, nf == 1 ? "its" : "each", 100 * flat_tol);
	for (size_t i = 0; i < n; i++) {
		const struct mess_ladder_status_def *d = &mess_ladder_statuses[p[i].st];

		if (lv)
			lv[i] = d->level > MESS_WARN || p[i].flat || !p[i].npts ?
				d->level : MESS_WARN;
		mess_ladder_level_name(&p[i], name, sizeof(name));
		if (below)
			mess_ladder_level_name(below, bname, sizeof(bname));
		if (p[i].st == MESS_LADDER_NOT_ABOVE)
			mess_verdict_add(v, d->level, d->rule,
					 "latency ladder: %s (%.3g ns) is not %.0f %% slower than %s (%.3g ns): not a level of its own as this core sees it (a VM's cache the guest sees as more of the level below, or as memory)",
					 name, p[i].lat_ns, 100 * flat_tol, bname,
					 below->lat_ns);
		else if (p[i].st == MESS_LADDER_BELOW)
			mess_verdict_add(v, d->level, d->rule,
					 "latency ladder: %s (%.3g ns) is faster than %s (%.3g ns) by more than %.0f %%: a random chase over a larger buffer cannot be faster, so the ladder contradicts itself (disturbed windows, or a clock that changed during the ladder)",
					 name, p[i].lat_ns, bname, below->lat_ns,
					 100 * flat_tol);
		else if (p[i].st == MESS_LADDER_EMPTY && strlen(empty) + 12 < sizeof(empty))
			snprintf(empty + strlen(empty), sizeof(empty) - strlen(empty),
				 "%s%s", ne++ ? ", " : "", name);
		if (p[i].npts)
			below = &p[i];
	}
	if (ne)
		mess_verdict_add(v, MESS_PASS, mess_ladder_statuses[MESS_LADDER_EMPTY].rule,
				 "latency ladder: no size fell in the window of %s (between twice the level below and half its own size, or past the ladder's end): no figure for %s",
				 empty, ne == 1 ? "it" : "them");
}

struct sizes_out {
	uint64_t *out;
	size_t cnt;
	size_t max;
	uint64_t align;
	uint64_t last;
};

static void put(struct sizes_out *o, uint64_t v)
{
	v -= v % o->align;
	/* Rounding can make two sizes one: keep the ladder strictly rising. */
	if (o->cnt && v <= o->last)
		return;
	if (o->out && o->cnt < o->max)
		o->out[o->cnt] = v;
	o->cnt++;
	o->last = v;
}

int mess_ladder_sizes(uint64_t lo, uint64_t hi, uint64_t align,
		      uint64_t *out, size_t max)
{
	struct sizes_out o = { .out = out, .max = max, .align = align };

	if (!align || lo < align || lo > hi)
		return -EINVAL;
	for (uint64_t b = lo; b < hi; b *= 2) {
		put(&o, b);
		/* b + b / 2 < hi, written so that it cannot overflow. */
		if (b / 2 < hi - b)
			put(&o, b + b / 2);
		if (b > hi / 2)
			break;
	}
	put(&o, hi);
	if (out && o.cnt > max)
		return -ENOSPC;
	return (int)o.cnt;
}
