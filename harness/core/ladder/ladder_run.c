// SPDX-License-Identifier: MIT
/*
 * The latency ladder's measurement: per size, one random cycle over the
 * buffer's first `size` bytes, one lap to warm it (capped: at memory sizes
 * a lap is seconds and warms nothing), then timed runs of the clean
 * lat_mem_rd chase.
 */
#include "core/ladder/ladder_run.h"

#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ckernels.h"
#include "core/machine/mem.h"
#include "core/clock.h"
#include "core/signals.h"
#include "mess/ladder.h"
#include "mess/parse.h"
#include "mess/stats.h"

#define LADDER_SEED 7
#define MAX_REPEATS 64
/* Warm-up loads at most: 100 ms at memory latency. */
#define WARM_MAX (1u << 20)

/* Loads per call, so that a signal is noticed within about 0.6 s (4 M
 * loads at 150 ns from memory) even in runs of seconds; a call adds
 * nanoseconds. */
#define CHUNK_LOADS (1ULL << 22)

static double chase_ns(void **p, uint64_t loads)
{
	double t0 = mess_now_ns();

	while (loads && !mess_interrupted) {
		uint64_t n = loads < CHUNK_LOADS ? loads : CHUNK_LOADS;

		*p = mess_latmemrd[MESS_NOISE_MODE_none](*p, n, NULL);
		loads -= n;
	}
	return mess_now_ns() - t0;
}

/*
 * One timed run, its disturbance read around it (never inside): 1 when a
 * thread lost more than MESS_LOST_MAX_PCT of it.
 */
static int timed_run(struct mess_disturb *d, void **p, uint64_t loads,
		     double *ns, struct mess_dwin *w)
{
	if (d)
		mess_disturb_begin(d, 1);
	*ns = chase_ns(p, loads) / (double)loads;
	if (!d)
		return 0;
	mess_disturb_end(d, w);
	return w->lost_pct > MESS_LOST_MAX_PCT;
}

int mess_ladder_point(const struct mess_ladder_opts *o, void *base,
		      struct mess_ladder_pt *pt, struct mess_disturb *d)
{
	double t[MAX_REPEATS], el;
	uint64_t lines = pt->size / o->stride, loads = 256;
	unsigned redo = 0;
	void *p;
	int err = mess_latmemrd_chain(base, pt->size, o->stride,
				      MESS_LATMEMRD_RANDOM, LADDER_SEED, &p);

	if (err)
		return err;
	if (!o->repeats || o->repeats > MAX_REPEATS)
		return -EINVAL;
	chase_ns(&p, lines < WARM_MAX ? lines : WARM_MAX);
	/* Loads per run: grown until a run is long enough to time. */
	while ((el = chase_ns(&p, loads)) < o->run_ms * 1e6 / 16 &&
	       loads < (1ULL << 40) && !mess_interrupted)
		loads *= 4;
	loads = (uint64_t)fmax(256, loads * o->run_ms * 1e6 / fmax(el, 1));
	pt->lost_pct = d ? 0 : NAN;
	pt->steal_ms = NAN;
	/* A disturbed run is measured again, at most as many times as there
	 * are repeats (a host that never stops disturbing still ends), then
	 * kept and counted. */
	for (unsigned i = 0; i < o->repeats;) {
		struct mess_dwin w = { .lost_pct = 0, .steal_ms = NAN };

		if (mess_interrupted)
			return -EINTR;
		if (timed_run(d, &p, loads, &t[i], &w)) {
			pt->disturbed++;
			if (redo++ < o->repeats)
				continue;
			pt->kept++;
		}
		if (d) {
			pt->lost_pct = fmax(pt->lost_pct, w.lost_pct);
			if (isfinite(w.steal_ms))
				pt->steal_ms = (isfinite(pt->steal_ms) ?
						pt->steal_ms : 0) + w.steal_ms;
		}
		i++;
	}
	if (mess_interrupted)
		return -EINTR;
	pt->spread_ns = mess_mad_sd(t, o->repeats, &pt->lat_ns);
	pt->repeats = o->repeats;
	pt->loads = loads;
	/* Keep the compiler from dropping the chase: p is the result. */
	__asm__ volatile("" : : "r"(p) : "memory");
	return 0;
}

/*
 * Measure the ladder on the calling thread (pin it first; d, when not
 * NULL, watches that thread as its thread 0): one buffer of
 * o->hi bytes, huge pages requested (what was obtained is left in *buf for
 * the caller to report; free it with mess_buf_free), one random cycle
 * (Sattolo) over the first `size` bytes per size, so that neither a
 * stride prefetcher nor the order of the lines hides the latency.  Sizes
 * from mess_ladder_sizes; progress on stderr.  0, -EINTR, -ENOMEM,
 * -EINVAL or -ENOSPC (more sizes than max).
 */
static int ladder_measure(const struct mess_ladder_opts *o,
			  struct mess_ladder_pt *pts, size_t max, size_t *n,
			  struct mess_buf *buf, struct mess_disturb *d)
{
	uint64_t sizes[128];
	int ns = mess_ladder_sizes(o->lo, o->hi, o->stride, sizes, 128);
	int err;

	*n = 0;
	if (ns <= 0 || !o->repeats || o->repeats > MAX_REPEATS)
		return -EINVAL;
	if ((size_t)ns > max)
		return -ENOSPC;
	err = mess_buf_alloc(buf, sizes[ns - 1], o->node, 1);
	if (err)
		return err;
	for (int i = 0; i < ns; i++) {
		char dist[64] = "";

		pts[i] = (struct mess_ladder_pt){ .size = sizes[i] };
		err = mess_ladder_point(o, buf->p, &pts[i], d);
		if (err)
			return err;
		*n = (size_t)i + 1;
		if (pts[i].disturbed)
			snprintf(dist, sizeof(dist), "; %u disturbed run%s, %u kept",
				 pts[i].disturbed, pts[i].disturbed == 1 ? "" : "s",
				 pts[i].kept);
		fprintf(stderr, "ladder: [%d/%d] %llu KiB: %.2f ns/load (spread %.2g%s)\n",
			i + 1, ns, (unsigned long long)(sizes[i] >> 10),
			pts[i].lat_ns, pts[i].spread_ns, dist);
	}
	return 0;
}

void mess_ladder_init(struct mess_ladder *l, struct mess_topo *t, int core,
		      uint64_t stride, double run_ms, unsigned repeats,
		      int node)
{
	int lv[MESS_LADDER_CACHES], n, level;
	uint64_t by[MESS_LADDER_CACHES];

	memset(l, 0, sizeof(*l));
	l->core = core;
	mess_topo_llc_of_core(t, core, &l->llc_bytes, &level);
	l->o = (struct mess_ladder_opts){
		.lo = 4096 > 16 * stride ? 4096 : 16 * stride,
		.hi = 4 * l->llc_bytes, .stride = stride, .run_ms = run_ms,
		.repeats = repeats, .node = node,
	};
	n = mess_topo_caches_of_core(t, core, lv, by, MESS_LADDER_CACHES);
	for (int i = 0; i < n; i++)
		l->caches[l->ncaches++] = (struct mess_ladder_cache){ lv[i], by[i] };
	snprintf(l->hp, sizeof(l->hp), "none");
	l->huge_pct = NAN;
}

int mess_ladder_watch(struct mess_ladder *l, const struct mess_pool *p,
		      const int *pus)
{
	int err = mess_disturb_open(&l->dist);

	if (!err)
		err = mess_disturb_add_pool(&l->dist, p, pus, "ladder thread");
	if (err)
		mess_disturb_close(&l->dist);
	l->dist_on = !err;
	return err;
}

void mess_ladder_fini(struct mess_ladder *l)
{
	if (l->dist_on)
		mess_disturb_close(&l->dist);
	l->dist_on = 0;
}

static void fit(struct mess_ladder *l)
{
	uint64_t sizes[MESS_LADDER_MAX];
	double lat[MESS_LADDER_MAX];

	for (size_t i = 0; i < l->n; i++) {
		sizes[i] = l->pts[i].size;
		lat[i] = l->pts[i].lat_ns;
	}
	l->plat_ok = !mess_ladder_plateaus(sizes, lat, l->n, l->caches,
					   l->ncaches, MESS_LADDER_FLAT_TOL,
					   l->plat);
}

int mess_ladder_run(struct mess_ladder *l)
{
	struct mess_buf b = { .node = -1 };
	int err = ladder_measure(&l->o, l->pts, MESS_LADDER_MAX, &l->n, &b,
				 l->dist_on ? &l->dist : NULL);

	snprintf(l->hp, sizeof(l->hp), "%s", mess_hp_name(b.hp));
	l->huge_pct = b.huge_pct;
	mess_buf_free(&b);
	/* An interrupted ladder keeps its plateaus so far. */
	if (l->n)
		fit(l);
	return err;
}

int mess_ladder_load(struct mess_ladder *l, const char *dir)
{
	char line[256], path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/" MESS_LADDER_CSV, dir);
	f = mess_fopen_regular(path, NULL, 0);
	if (!f)
		return -errno;
	l->n = 0;
	/* The ladder is kept whole or measured again: any line that is not a
	 * size the ladder measures (NaN, out of order, a line cut short)
	 * makes the file unusable. */
	while (fgets(line, sizeof(line), f)) {
		struct mess_ladder_pt *p = &l->pts[l->n];
		unsigned long long size, loads;
		char end;

		if (!strcmp(line, MESS_LADDER_HEADER "\n"))
			continue;
		/* lost_pct and steal_ms may be nan: not known. */
		if (l->n >= MESS_LADDER_MAX || !strchr(line, '\n') ||
		    sscanf(line, "%llu,%lf,%u,%lf,%llu,%u,%u,%lf,%lf%c", &size,
			   &p->lat_ns, &p->repeats, &p->spread_ns, &loads,
			   &p->disturbed, &p->kept, &p->lost_pct, &p->steal_ms,
			   &end) != 10 ||
		    end != '\n' || !(p->lat_ns > 0) || !isfinite(p->lat_ns) ||
		    !(p->spread_ns >= 0) || !isfinite(p->spread_ns) || !p->repeats ||
		    p->kept > p->disturbed || p->lost_pct < 0 || p->steal_ms < 0 ||
		    (l->n && size <= l->pts[l->n - 1].size)) {
			fclose(f);
			return -EINVAL;
		}
		p->size = size;
		p->loads = loads;
		l->n++;
	}
	fclose(f);
	if (!l->n)
		return -EIO;
	fit(l);
	return 0;
}

void mess_ladder_report(const struct mess_ladder *l, const char *who)
{
	for (size_t i = 0; l->plat_ok && i <= l->ncaches; i++)
		fprintf(stderr, "%s: ladder %s%.0d: %.2f ns (%s)\n", who,
			l->plat[i].level ? "L" : "memory", l->plat[i].level,
			l->plat[i].lat_ns, l->plat[i].status);
}
