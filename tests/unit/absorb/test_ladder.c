// SPDX-License-Identifier: MIT
/*
 * Latency ladder: plateaus read back from synthetic ladders of a machine
 * with known caches (48 KiB, 2 MiB, 32 MiB at 1.2, 4, 15 ns; memory 90 ns),
 * either as ideal steps or with the random-chase hit-rate mix, with noise,
 * as a VM that duplicates a level, with gaps; the verdict the plateaus
 * give; and the ladder's sizes.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mess/ladder.h"
#include "near.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)
#define MAXPTS 128
#define TOL 0.3

static const struct mess_ladder_cache caches[] = {
	{ 1, 48 * KiB }, { 2, 2 * MiB }, { 3, 32 * MiB },
};

/* Per level, then memory. */
static const double lvl_ns[] = { 1.2, 4, 15, 90 };

/*
 * Random chase over s bytes: a hit in the cache of S bytes with
 * probability min(1, S / s), so level j serves the difference of the
 * cumulative hit rates of j and j - 1.
 */
static double mix(const double *ns, uint64_t s)
{
	double below = 0, t = 0;

	for (int j = 0; j < 3; j++) {
		double h = fmin(1, (double)caches[j].bytes / (double)s);

		t += ns[j] * (h - below);
		below = h;
	}
	return t + ns[3] * (1 - below);
}

/* Ideal machine: the smallest level that holds the whole buffer. */
static double step(const double *ns, uint64_t s)
{
	for (int j = 0; j < 3; j++)
		if (s <= caches[j].bytes)
			return ns[j];
	return ns[3];
}

struct ladder {
	uint64_t sizes[MAXPTS];
	double lat[MAXPTS];
	size_t n;
};

/* 4 KiB .. hi in lmbench steps, each latency from the model. */
static void build(struct ladder *l, uint64_t hi,
		  double (*model)(const double *, uint64_t), const double *ns)
{
	int n = mess_ladder_sizes(4 * KiB, hi, 64, l->sizes, MAXPTS);

	assert_true(n > 0);
	l->n = n;
	for (size_t i = 0; i < l->n; i++)
		l->lat[i] = model(ns, l->sizes[i]);
}

static size_t index_of(const struct ladder *l, uint64_t s)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->sizes[i] == s)
			return i;
	fail_msg("size %llu not in the ladder", (unsigned long long)s);
	return 0;
}

static void ideal_steps(void **state)
{
	struct ladder l;
	struct mess_ladder_plateau p[4];
	static const uint64_t lo[] = { 1, 96 * KiB + 1, 4 * MiB + 1, 64 * MiB };
	static const uint64_t hi[] = { 24 * KiB, MiB, 16 * MiB, 512 * MiB };
	static const unsigned npts[] = { 6, 7, 4, 7 };

	build(&l, 512 * MiB, step, lvl_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.05, p), 0);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(p[k].level, k < 3 ? k + 1 : 0);
		assert_int_equal(p[k].cap_bytes, k < 3 ? caches[k].bytes : 0);
		assert_int_equal(p[k].lo, lo[k]);
		assert_int_equal(p[k].hi, hi[k]);
		assert_int_equal(p[k].npts, npts[k]);
		assert_near(p[k].lat_ns, lvl_ns[k], 1e-12);
		assert_near(p[k].spread, 0, 1e-12);
		assert_string_equal(p[k].status, "ok");
		/* Steps exactly at hwloc's sizes: the edge is the size. */
		assert_int_equal(p[k].edge_bytes, k < 3 ? caches[k].bytes : 0);
	}
}

static void hit_rate_mix(void **state)
{
	struct ladder l;
	struct mess_ladder_plateau p[4];

	build(&l, 512 * MiB, mix, lvl_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      TOL, p), 0);
	/* Medians: the middle point of an odd window, else the mean of two. */
	assert_near(p[0].lat_ns, 1.2, 1e-12);
	assert_near(p[1].lat_ns, mix(lvl_ns, 384 * KiB), 1e-12);
	assert_near(p[2].lat_ns, (mix(lvl_ns, 8 * MiB) +
				  mix(lvl_ns, 12 * MiB)) / 2, 1e-12);
	assert_near(p[3].lat_ns, mix(lvl_ns, 192 * MiB), 1e-12);
	/*
	 * Read low, as the level below still serves up to half the window's
	 * loads: L2 by 9 %, L3 (8 x L2 only) by 15 %.
	 */
	for (int k = 0; k < 3; k++) {
		assert_true(p[k].lat_ns <= lvl_ns[k]);
		assert_true(p[k].lat_ns > 0.8 * lvl_ns[k]);
	}
	/* Memory is read low by about S_last / s (not corrected). */
	assert_true(p[3].lat_ns < 0.9 * lvl_ns[3]);
	assert_near(p[3].lat_ns, 90 - 75 * 32.0 / 192, 0.2);

	assert_near(p[1].spread, (mix(lvl_ns, MiB) - mix(lvl_ns, 128 * KiB)) /
		    p[1].lat_ns, 1e-12);
	for (int k = 0; k < 3; k++)
		assert_string_equal(p[k].status, "ok");
	assert_true(p[3].spread > TOL);
	assert_string_equal(p[3].status, "not flat");

	/* Edges: where the mix turns nearer the next level. */
	assert_int_equal(p[0].edge_bytes, 64 * KiB);
	assert_int_equal(p[1].edge_bytes, 2 * MiB);
	assert_int_equal(p[2].edge_bytes, 32 * MiB);
	for (int k = 0; k < 3; k++) {
		assert_true(p[k].edge_bytes >= caches[k].bytes / 2);
		assert_true(p[k].edge_bytes <= caches[k].bytes * 3 / 2);
	}
	assert_int_equal(p[3].edge_bytes, 0);

	/* A tighter tolerance than the L2 window's 25 % spread. */
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.2, p), 0);
	assert_string_equal(p[1].status, "not flat");
	assert_string_equal(p[2].status, "ok");
}

static void one_noisy_point(void **state)
{
	struct ladder l;
	struct mess_ladder_plateau p[4];

	build(&l, 512 * MiB, step, lvl_ns);
	l.lat[index_of(&l, 256 * KiB)] *= 3;	/* L2 window */
	l.lat[index_of(&l, 8 * MiB)] *= 1.02;	/* L3 window */
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.05, p), 0);
	assert_near(p[1].lat_ns, 4, 1e-12);
	assert_near(p[1].spread, 2, 1e-12);
	assert_string_equal(p[1].status, "not flat");
	/* Four points: the mean of the middle two, both unperturbed. */
	assert_near(p[2].lat_ns, 15, 1e-12);
	assert_near(p[2].spread, 0.02, 1e-12);
	assert_string_equal(p[2].status, "ok");
	assert_int_equal(p[1].edge_bytes, 2 * MiB);
}

static void vm_duplicate_level(void **state)
{
	static const double vm_ns[] = { 1.2, 4, 4, 90 };
	static const double near_ns[] = { 1.2, 4, 4.3, 90 };
	static const double far_ns[] = { 1.2, 4, 4.5, 90 };
	struct ladder l;
	struct mess_ladder_plateau p[4];

	build(&l, 512 * MiB, step, vm_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.1, p), 0);
	assert_string_equal(p[1].status, "ok");
	assert_near(p[2].lat_ns, 4, 1e-12);
	assert_string_equal(p[2].status, "not above the level below");
	assert_string_equal(p[3].status, "ok");
	/* No step from L2 to a level that is not above it: no L2 edge;
	 * the step from L1 keeps its edge. */
	assert_int_equal(p[1].edge_bytes, 0);
	assert_true(p[0].edge_bytes > 0);

	/* The step must be at least flat_tol: 7.5 % is not, 12.5 % is. */
	build(&l, 512 * MiB, step, near_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.1, p), 0);
	assert_string_equal(p[2].status, "not above the level below");
	build(&l, 512 * MiB, step, far_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.1, p), 0);
	assert_string_equal(p[2].status, "ok");
}

static void empty_windows(void **state)
{
	/* L2 only 4/3 of L1: nothing is both past 2 x L1 and below L2 / 2. */
	static const struct mess_ladder_cache tight[] = {
		{ 1, 48 * KiB }, { 2, 64 * KiB },
	};
	struct ladder l;
	struct mess_ladder_plateau p[4];

	build(&l, 16 * MiB, step, lvl_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, tight, 2,
					      0.05, p), 0);
	assert_int_equal(p[1].npts, 0);
	assert_true(isnan(p[1].lat_ns));
	assert_true(isnan(p[1].spread));
	assert_string_equal(p[1].status, "no sizes in window");
	assert_int_equal(p[0].edge_bytes, 0);	/* no next median */
	assert_int_equal(p[1].edge_bytes, 0);
	/* Memory (step model: the 2 MiB L2 at 4 ns) compares with L1. */
	assert_int_equal(p[2].lo, 128 * KiB);
	assert_near(p[2].lat_ns, 4, 1e-12);
	assert_string_equal(p[2].status, "not flat");
	/* A flat ladder: memory is no level, checked across the gap. */
	for (size_t i = 0; i < l.n; i++)
		l.lat[i] = 1.2;
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, tight, 2,
					      0.05, p), 0);
	assert_string_equal(p[0].status, "ok");
	assert_string_equal(p[2].status, "not above the level below");

	/* A ladder that stops before memory's window. */
	build(&l, 32 * MiB, step, lvl_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.05, p), 0);
	assert_string_equal(p[2].status, "ok");
	assert_int_equal(p[3].lo, 64 * MiB);
	assert_int_equal(p[3].hi, 32 * MiB);
	assert_int_equal(p[3].npts, 0);
	assert_string_equal(p[3].status, "no sizes in window");
	assert_int_equal(p[2].edge_bytes, 0);
	assert_int_equal(p[1].edge_bytes, 2 * MiB);
}

static void memory_only(void **state)
{
	struct ladder l;
	struct mess_ladder_plateau p[1];

	build(&l, MiB, step, lvl_ns);
	for (size_t i = 0; i < l.n; i++)
		l.lat[i] = l.sizes[i] < 64 * KiB ? 1 : 100;
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, NULL, 0,
					      0.05, p), 0);
	assert_int_equal(p[0].level, 0);
	assert_int_equal(p[0].cap_bytes, 0);
	assert_int_equal(p[0].lo, 64 * KiB);	/* sqrt(4 KiB x 1 MiB) */
	assert_int_equal(p[0].hi, MiB);
	assert_int_equal(p[0].npts, 9);
	assert_near(p[0].lat_ns, 100, 1e-12);
	assert_string_equal(p[0].status, "ok");
	assert_int_equal(p[0].edge_bytes, 0);

	/* One point is its own window, and a spread of 0 is within 0. */
	assert_int_equal(mess_ladder_plateaus(l.sizes + 3, l.lat + 3, 1, NULL,
					      0, 0, p), 0);
	assert_int_equal(p[0].npts, 1);
	assert_near(p[0].lat_ns, 1, 1e-12);
	assert_string_equal(p[0].status, "ok");
}

static void bad_input(void **state)
{
	struct ladder l;
	struct mess_ladder_plateau p[4];
	static const struct mess_ladder_cache down[] = {
		{ 1, 2 * MiB }, { 2, 48 * KiB },
	};
	static const struct mess_ladder_cache zero[] = { { 1, 0 } };
	static const double bad[] = { NAN, INFINITY, 0, -1 };

	build(&l, 512 * MiB, step, lvl_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, 0, caches, 3,
					      0.1, p), -EINVAL);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, down, 2,
					      0.1, p), -EINVAL);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, zero, 1,
					      0.1, p), -EINVAL);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, NULL, 3,
					      0.1, p), -EINVAL);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      NAN, p), -EINVAL);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      -0.1, p), -EINVAL);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.1, NULL), -EINVAL);
	for (int i = 0; i < 4; i++) {
		double keep = l.lat[l.n - 1];

		l.lat[l.n - 1] = bad[i];
		assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n,
						      caches, 3, 0.1, p),
				 -EINVAL);
		l.lat[l.n - 1] = keep;
	}
	l.sizes[5] = l.sizes[4];	/* equal */
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.1, p), -EINVAL);
	l.sizes[5] = l.sizes[4] - 1;	/* falling */
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.1, p), -EINVAL);
}

/* The reason of rule id in v, or NULL. */
static const struct mess_reason *reason(const struct mess_verdict *v,
					const char *rule)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->r[i].rule, rule))
			return &v->r[i];
	return NULL;
}

static void verdict_clean(void **state)
{
	struct ladder l;
	struct mess_ladder_plateau p[4];
	struct mess_verdict v;
	enum mess_level lv[4];

	build(&l, 512 * MiB, step, lvl_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.05, p), 0);
	mess_verdict_init(&v);
	mess_ladder_verdict(p, 4, 0.05, &v, lv);
	assert_int_equal(v.level, MESS_PASS);
	assert_int_equal(v.n, 0);
	for (int k = 0; k < 4; k++) {
		assert_true(p[k].flat);
		assert_int_equal(p[k].st, MESS_LADDER_OK);
		assert_int_equal(lv[k], MESS_PASS);
	}
}

static void verdict_not_flat(void **state)
{
	struct ladder l;
	struct mess_ladder_plateau p[4];
	struct mess_verdict v;
	enum mess_level lv[4];
	const struct mess_reason *r;

	/* The mix: at 0.2, L2's window (25 %) and memory are not flat. */
	build(&l, 512 * MiB, mix, lvl_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.2, p), 0);
	mess_verdict_init(&v);
	mess_ladder_verdict(p, 4, 0.2, &v, lv);
	assert_int_equal(v.level, MESS_WARN);
	assert_int_equal(v.n, 1);	/* one reason names them all */
	r = reason(&v, "ladder_not_flat");
	assert_non_null(r);
	assert_int_equal(r->level, MESS_WARN);
	assert_non_null(strstr(r->text, "L2 (spread 25 %), memory ("));
	assert_null(strstr(r->text, "L1"));
	assert_null(strstr(r->text, "L3"));
	assert_false(p[1].flat);
	assert_false(p[3].flat);
	assert_true(p[0].flat && p[2].flat);
	assert_int_equal(lv[0], MESS_PASS);
	assert_int_equal(lv[1], MESS_WARN);
	assert_int_equal(lv[2], MESS_PASS);
	assert_int_equal(lv[3], MESS_WARN);
	/* lv may be NULL: the same reasons. */
	mess_verdict_init(&v);
	mess_ladder_verdict(p, 4, 0.2, &v, NULL);
	assert_int_equal(v.level, MESS_WARN);
}

static void verdict_order(void **state)
{
	static const double dup_ns[] = { 1.2, 4, 4, 90 };
	static const double inv_ns[] = { 1.2, 4, 3, 90 };
	struct ladder l;
	struct mess_ladder_plateau p[4];
	struct mess_verdict v;
	enum mess_level lv[4];
	const struct mess_reason *r;

	/* A VM's L3 that is more L2: a warning naming both. */
	build(&l, 512 * MiB, step, dup_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.1, p), 0);
	mess_verdict_init(&v);
	mess_ladder_verdict(p, 4, 0.1, &v, lv);
	assert_int_equal(v.level, MESS_WARN);
	r = reason(&v, "ladder_not_above");
	assert_non_null(r);
	assert_non_null(strstr(r->text, "L3 (4 ns) is not 10 % slower than L2 (4 ns)"));
	assert_int_equal(lv[2], MESS_WARN);
	assert_int_equal(lv[3], MESS_PASS);

	/* L3 faster than L2 by 25 %: the ladder contradicts itself. */
	build(&l, 512 * MiB, step, inv_ns);
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.1, p), 0);
	assert_int_equal(p[2].st, MESS_LADDER_BELOW);
	assert_string_equal(p[2].status, "below the level below");
	assert_true(p[2].flat);
	assert_int_equal(p[1].edge_bytes, 0);	/* no step to place */
	assert_string_equal(p[3].status, "ok");
	mess_verdict_init(&v);
	mess_ladder_verdict(p, 4, 0.1, &v, lv);
	assert_int_equal(v.level, MESS_INVALID);
	r = reason(&v, "ladder_below");
	assert_non_null(r);
	assert_int_equal(r->level, MESS_INVALID);
	assert_non_null(strstr(r->text, "L3 (3 ns) is faster than L2 (4 ns)"));
	assert_int_equal(lv[2], MESS_INVALID);

	/* Within the tolerance below: only not above. */
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, caches, 3,
					      0.4, p), 0);
	assert_int_equal(p[2].st, MESS_LADDER_NOT_ABOVE);
}

static void verdict_empty(void **state)
{
	static const struct mess_ladder_cache tight[] = {
		{ 1, 48 * KiB }, { 2, 64 * KiB },
	};
	struct ladder l;
	struct mess_ladder_plateau p[3];
	struct mess_verdict v;
	enum mess_level lv[3];
	const struct mess_reason *r;

	build(&l, 16 * MiB, step, lvl_ns);
	for (size_t i = 0; i < l.n; i++)
		l.lat[i] = l.sizes[i] <= 24 * KiB ? 1.2 : 90;
	assert_int_equal(mess_ladder_plateaus(l.sizes, l.lat, l.n, tight, 2,
					      0.05, p), 0);
	mess_verdict_init(&v);
	mess_ladder_verdict(p, 3, 0.05, &v, lv);
	/* A level without a size has no figure: a note, not a warning. */
	assert_int_equal(v.level, MESS_PASS);
	r = reason(&v, "ladder_empty");
	assert_non_null(r);
	assert_int_equal(r->level, MESS_PASS);
	assert_non_null(strstr(r->text, "window of L2"));
	assert_int_equal(lv[1], MESS_PASS);
	assert_false(p[1].flat);
	assert_string_equal(mess_ladder_statuses[p[1].st].name, p[1].status);
}

static void sizes_lmbench_steps(void **state)
{
	static const uint64_t want[] = {
		4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152, 65536,
	};
	static const uint64_t odd_hi[] = {
		4096, 6144, 8192, 12288, 16384, 24576, 32768, 40000,
	};
	static const uint64_t rounded[] = { 960, 1472, 1984, 2944, 3968, 4992 };
	uint64_t s[MAXPTS];

	assert_int_equal(mess_ladder_sizes(4096, 65536, 64, s, MAXPTS), 9);
	assert_memory_equal(s, want, sizeof(want));
	/* hi that the steps miss is the last point; 49152 > hi is not. */
	assert_int_equal(mess_ladder_sizes(4096, 40000, 64, s, MAXPTS), 8);
	assert_memory_equal(s, odd_hi, sizeof(odd_hi));
	/* Every size, hi too, rounded down to the alignment. */
	assert_int_equal(mess_ladder_sizes(1000, 5000, 64, s, MAXPTS), 6);
	assert_memory_equal(s, rounded, sizeof(rounded));
	/* Rounding merges 64, 96, 100 into one. */
	assert_int_equal(mess_ladder_sizes(64, 100, 64, s, MAXPTS), 1);
	assert_int_equal(s[0], 64);
	assert_int_equal(mess_ladder_sizes(4096, 4096, 1, s, MAXPTS), 1);
	assert_int_equal(s[0], 4096);
}

static void sizes_limits(void **state)
{
	uint64_t s[MAXPTS];
	int n;

	/* Too small an array is an error, not a ladder without its top. */
	assert_int_equal(mess_ladder_sizes(4096, 65536, 64, s, 8), -ENOSPC);
	assert_int_equal(mess_ladder_sizes(4096, 65536, 64, s, 9), 9);
	assert_int_equal(mess_ladder_sizes(4096, 65536, 64, NULL, 0), 9);
	assert_int_equal(mess_ladder_sizes(4096, 65536, 0, s, 9), -EINVAL);
	assert_int_equal(mess_ladder_sizes(32, 65536, 64, s, 9), -EINVAL);
	assert_int_equal(mess_ladder_sizes(0, 65536, 1, s, 9), -EINVAL);
	assert_int_equal(mess_ladder_sizes(8192, 4096, 64, s, 9), -EINVAL);

	/* The whole range ends without overflow, strictly rising. */
	n = mess_ladder_sizes(1, UINT64_MAX, 1, s, MAXPTS);
	assert_int_equal(n, 128);	/* 2^0..2^63, 3 x 2^0..2^62, max */
	for (int i = 1; i < n; i++)
		assert_true(s[i] > s[i - 1]);
	assert_true(s[n - 1] == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ideal_steps),
		cmocka_unit_test(hit_rate_mix),
		cmocka_unit_test(one_noisy_point),
		cmocka_unit_test(vm_duplicate_level),
		cmocka_unit_test(empty_windows),
		cmocka_unit_test(memory_only),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(verdict_clean),
		cmocka_unit_test(verdict_not_flat),
		cmocka_unit_test(verdict_order),
		cmocka_unit_test(verdict_empty),
		cmocka_unit_test(sizes_lmbench_steps),
		cmocka_unit_test(sizes_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
