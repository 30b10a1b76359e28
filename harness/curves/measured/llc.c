// SPDX-License-Identifier: MIT
/*
 * LLC_LATENCY_NS with every measured curves run (issue 35 item 6): the
 * last cache's plateau of the latency ladder only, three buffer sizes from
 * twice the level below it to half of it, each a random cycle chased as
 * mess ladder chases it (core/ladder/ladder_run.h), on the chase core
 * before any traffic.  The Mess simulator takes this on-chip latency
 * (onCoreLatency) off the curves' core-to-memory latency; every export
 * carries it in info.txt.  --no-ladder leaves it out.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/ladder/ladder_run.h"
#include "core/machine/mem.h"
#include "curves/measured/measured.h"
#include "mess/export.h"
#include "mess/json.h"
#include "mess/stats.h"

/* 5 runs of 10 ms per size, after sizing and a warm-up: 0.7 s for the
 * three on the CI machine's loaded 2-core KVM EPYC. */
#define LLC_RUN_MS 10
#define LLC_REPEATS 5

void mess_run_llc_latency(struct mess_measured *r)
{
	struct mess_llc_lat *x = &r->llc_lat;
	struct mess_buf buf;
	int lv[MESS_LADDER_CACHES], n, err;
	uint64_t by[MESS_LADDER_CACHES], lo, hi;
	double t0 = mess_now_ns(), lat[MESS_LLC_SIZES], lmin = INFINITY, lmax = 0;

	memset(x, 0, sizeof(*x));
	x->ns = NAN;
	if (r->cfg.no_ladder) {
		snprintf(x->why, sizeof(x->why), "not measured: --no-ladder");
		return;
	}
	n = mess_topo_caches_of_core(&r->topo, r->chase_core, lv, by,
				     MESS_LADDER_CACHES);
	if (n < 2) {
		snprintf(x->why, sizeof(x->why),
			 "not measured: hwloc gives the chase core fewer than two cache levels");
		return;
	}
	x->level = lv[n - 1];
	lo = 2 * by[n - 2];
	hi = by[n - 1] / 2;
	if (lo >= hi) {
		snprintf(x->why, sizeof(x->why),
			 "not measured: no L%d plateau (twice L%d, %llu KiB, is not below half of L%d)",
			 lv[n - 1], lv[n - 2], (unsigned long long)(lo >> 10), lv[n - 1]);
		return;
	}
	memset(&buf, 0, sizeof(buf));
	err = mess_buf_alloc(&buf, hi, r->node, 1);
	if (err) {
		snprintf(x->why, sizeof(x->why), "not measured: its %llu KiB buffer: %s",
			 (unsigned long long)(hi >> 10), strerror(-err));
		return;
	}
	struct mess_ladder_opts o = {
		.lo = lo, .hi = hi, .stride = 64, .run_ms = LLC_RUN_MS,
		.repeats = LLC_REPEATS, .node = r->node,
	};
	for (int i = 0; i < MESS_LLC_SIZES && !err; i++) {
		struct mess_ladder_pt pt = { 0 };

		/* Geometric between lo and hi, whole pages. */
		pt.size = (uint64_t)(lo * pow((double)hi / lo, i / (MESS_LLC_SIZES - 1.0)));
		pt.size &= ~(uint64_t)4095;
		err = mess_ladder_point(&o, buf.p, &pt, NULL);
		x->size[i] = pt.size;
		lat[i] = x->lat[i] = pt.lat_ns;
		lmin = fmin(lmin, pt.lat_ns);
		lmax = fmax(lmax, pt.lat_ns);
	}
	mess_buf_free(&buf);
	if (err) {
		snprintf(x->why, sizeof(x->why), "not measured: %s", strerror(-err));
		return;
	}
	x->ns = mess_median(lat, MESS_LLC_SIZES);
	x->flat = (lmax - lmin) / x->ns <= MESS_LADDER_FLAT_TOL;
	x->seconds = (mess_now_ns() - t0) / 1e9;
	fprintf(stderr, "mess: LLC_LATENCY_NS %.1f ns: the L%d plateau, %llu KiB to %llu KiB%s (%.1f s; --no-ladder skips it)\n",
		x->ns, x->level, (unsigned long long)(x->size[0] >> 10),
		(unsigned long long)(x->size[MESS_LLC_SIZES - 1] >> 10),
		x->flat ? "" : ", NOT FLAT", x->seconds);
}

static const char *why(const struct mess_measured *r)
{
	return r->llc_lat.why[0] ? r->llc_lat.why : "not measured";
}

json_t *mess_run_llc_json(const struct mess_measured *r)
{
	const struct mess_llc_lat *x = &r->llc_lat;
	json_t *sizes, *lat;
	char level[16];

	if (!(x->ns > 0))
		return mess_json_pack("{s:n, s:s}", "ns", "why", why(r));
	sizes = json_array();
	lat = json_array();
	for (int i = 0; i < MESS_LLC_SIZES; i++) {
		json_array_append_new(sizes, json_integer((json_int_t)x->size[i]));
		json_array_append_new(lat, mess_json_real(x->lat[i], 3));
	}
	snprintf(level, sizeof(level), "L%d", x->level);
	return mess_json_pack("{s:o, s:s, s:b, s:o, s:o, s:o, s:s}",
		"ns", mess_json_real(x->ns, 3), "level", level,
		"flat", x->flat, "sizes_bytes", sizes, "lat_ns", lat,
		"seconds", mess_json_real(x->seconds, 2),
		"method", "median of the ladder's chase (random cycle, 64 B stride, 5 runs of 10 ms) at three sizes from twice the level below to half the last cache, on the chase core before any traffic; flat: (max - min) / median within 20 %");
}

void mess_run_llc_kv(const struct mess_measured *r, char *buf, size_t len)
{
	const struct mess_llc_lat *x = &r->llc_lat;

	if (x->ns > 0)
		mess_export_kv(buf, len, "LLC_LATENCY_NS", "%.3f (the L%d plateau measured with the run, meta.json llc_latency%s)",
			       x->ns, x->level, x->flat ? "" : "; NOT FLAT, doubtful");
	else
		mess_export_kv(buf, len, "LLC_LATENCY_NS", "unknown (%s)", why(r));
}
