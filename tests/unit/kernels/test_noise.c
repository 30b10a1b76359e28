// SPDX-License-Identifier: MIT
/*
 * Noise sites: a noisy loop computes exactly what the clean one does, for
 * every mode and k, with the loop's own values live across the sites; the
 * state handling of mess_noise_init/_set_k; and the memory_ld64 cursor.
 *
 * Also the driver of tests/noise-count.sh:
 *	test_noise count <mode> <k> <n>
 * runs mess_count_<mode> (a loop of n iterations around one site) once, so
 * that an instruction counter can compare k against 0.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"

#define N_ITER 1000
/* Small, so the cursor wraps several times in N_ITER iterations. */
#define MEM_SPANS 7
#define MEM_BYTES (MEM_SPANS * MESS_NOISE_SPAN - 100)

static const unsigned ks[] = { 0, 1, 2, 7, 255, 256 };

struct result {
	double f[12];
	uint64_t u[8];
	size_t n;
};

static double xs[N_ITER];
static uint64_t ys[N_ITER];

/*
 * Twelve FP and eight integer values live across the site (more than the
 * eight XMM / four GPRs a site clobbers leave), so the compiler has to keep
 * them elsewhere or spill them around it; a clobber list that missed a
 * register would show up as a wrong result.  No -ffast-math: the FP
 * results are bit-exact only if the order of operations stays, which a
 * correct site does not disturb.
 */
#define LOOP_BODY(site, nz)						\
	do {								\
		double a = x[i], b = x[(i * 7) % n];			\
		uint64_t c = y[i];					\
									\
		f0 = f0 * 0.999 + a;					\
		f1 += a * b;						\
		f2 = f2 * 0.5 + b;					\
		f3 -= a * 0.25;						\
		u0 = u0 * 6364136223846793005ULL + c;			\
		u1 ^= u0 >> 13;						\
		site(nz);						\
		f4 += f0 * 1e-3;					\
		f5 = f5 * 0.75 + f1 * 1e-6;				\
		f6 += b * b;						\
		f7 -= f2 * 1e-4;					\
		f8 += (double)(c & 1023);				\
		f9 = f9 * 0.9 + f3 * 1e-2;				\
		f10 += a - b;						\
		f11 += f10 * 1e-5;					\
		u2 += c ^ u1;						\
		u3 = (u3 << 7 | u3 >> 57) + u2;				\
		u4 += u3 * 3;						\
		u5 ^= u4 + i;						\
		u6 += u5 >> 3;						\
		u7 = u7 * 31 + u6;					\
	} while (0)

#define LOOP_DECLS							\
	double f0 = 1, f1 = 2, f2 = 3, f3 = 4, f4 = 5, f5 = 6;		\
	double f6 = 7, f7 = 8, f8 = 9, f9 = 10, f10 = 11, f11 = 12;	\
	uint64_t u0 = 1, u1 = 2, u2 = 3, u3 = 4, u4 = 5, u5 = 6;	\
	uint64_t u6 = 7, u7 = 8;					\
	size_t i

#define LOOP_STORE(r)							\
	do {								\
		double f[12] = { f0, f1, f2, f3, f4, f5, f6, f7, f8,	\
				 f9, f10, f11 };			\
		uint64_t u[8] = { u0, u1, u2, u3, u4, u5, u6, u7 };	\
									\
		memcpy((r)->f, f, sizeof(f));				\
		memcpy((r)->u, u, sizeof(u));				\
		(r)->n = i;						\
	} while (0)

/*
 * Per mode: the recommended use (a local copy of the state), the state
 * used in place, and two sites per iteration in a loop unrolled 4 times
 * (eight copies of the asm in one function: local labels must assemble).
 */
#define DEFINE_LOOPS(mode)						\
__attribute__((noinline)) void						\
mess_testloop_##mode(const double *x, const uint64_t *y, size_t n,	\
		     struct mess_noise *nz, struct result *r)		\
{									\
	struct mess_noise loc = *nz;					\
	LOOP_DECLS;							\
									\
	for (i = 0; i < n; i++)						\
		LOOP_BODY(MESS_NOISE_##mode, &loc);			\
	mess_noise_leave(nz, &loc);					\
	LOOP_STORE(r);							\
}									\
									\
__attribute__((noinline)) void						\
mess_testinplace_##mode(const double *x, const uint64_t *y, size_t n,	\
			struct mess_noise *nz, struct result *r)	\
{									\
	LOOP_DECLS;							\
									\
	for (i = 0; i < n; i++)						\
		LOOP_BODY(MESS_NOISE_##mode, nz);			\
	LOOP_STORE(r);							\
}									\
									\
__attribute__((noinline)) void						\
mess_testunroll_##mode(const double *x, const uint64_t *y, size_t n,	\
		       struct mess_noise *nz, struct result *r)		\
{									\
	struct mess_noise loc = *nz;					\
	LOOP_DECLS;							\
									\
	_Pragma("GCC unroll 4")						\
	for (i = 0; i < n; i++) {					\
		LOOP_BODY(MESS_NOISE_##mode, &loc);			\
		MESS_NOISE_##mode(&loc);				\
	}								\
	mess_noise_leave(nz, &loc);					\
	LOOP_STORE(r);							\
}									\
									\
__attribute__((noinline)) void						\
mess_count_##mode(struct mess_noise *nz, unsigned long n)		\
{									\
	struct mess_noise loc = *nz;					\
									\
	for (unsigned long j = 0; j < n; j++)				\
		MESS_NOISE_##mode(&loc);				\
	mess_noise_leave(nz, &loc);					\
}

/* Prototypes: the functions are global so that their symbols keep their
 * names (no .constprop clones) for noise-count.sh and noise-census.sh. */
#define DECLARE_LOOPS(mode)						\
void mess_testloop_##mode(const double *, const uint64_t *, size_t,	\
			  struct mess_noise *, struct result *);	\
void mess_testinplace_##mode(const double *, const uint64_t *, size_t,	\
			     struct mess_noise *, struct result *);	\
void mess_testunroll_##mode(const double *, const uint64_t *, size_t,	\
			    struct mess_noise *, struct result *);	\
void mess_count_##mode(struct mess_noise *, unsigned long);

DECLARE_LOOPS(none)
MESS_NOISE_MODES(DECLARE_LOOPS)
DEFINE_LOOPS(none)
MESS_NOISE_MODES(DEFINE_LOOPS)

typedef void loop_fn(const double *, const uint64_t *, size_t,
		     struct mess_noise *, struct result *);
typedef void count_fn(struct mess_noise *, unsigned long);

struct variant {
	const char *name;
	loop_fn *fn[MESS_NOISE_NMODES];
	/* Sites per iteration: the cursor moves once per site. */
	unsigned sites;
};

#define FN_LOOP(m) mess_testloop_##m,
#define FN_INPLACE(m) mess_testinplace_##m,
#define FN_UNROLL(m) mess_testunroll_##m,
#define FN_COUNT(m) mess_count_##m,

static const struct variant variants[] = {
	{ "local", { FN_LOOP(none) MESS_NOISE_MODES(FN_LOOP) }, 1 },
	{ "in place", { FN_INPLACE(none) MESS_NOISE_MODES(FN_INPLACE) }, 1 },
	{ "unrolled", { FN_UNROLL(none) MESS_NOISE_MODES(FN_UNROLL) }, 2 },
};

static count_fn *const count_fns[MESS_NOISE_NMODES] = {
	FN_COUNT(none) MESS_NOISE_MODES(FN_COUNT)
};

static int setup_data(void **state)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < N_ITER; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		ys[i] = s;
		xs[i] = (double)(s >> 11) * 0x1p-53 - 0.5;
	}
	return 0;
}

/* Noise reads its buffers and never writes them. */
static void check_buffers(const struct mess_noise *nz)
{
	if (nz->l1)
		for (unsigned i = 0; i < MESS_NOISE_L1_BYTES; i++)
			assert_int_equal(((const unsigned char *)nz->l1)[i],
					 0x5a);
	if (nz->mem_lo)
		for (const char *p = nz->mem_lo; p < nz->mem_hi; p += 4096)
			assert_int_equal((unsigned char)*p, 0x5a);
}

static void test_same_result(void **state)
{
	struct result clean, noisy;
	struct mess_noise nz;

	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		const struct variant *var = &variants[v];

		assert_int_equal(mess_noise_init(&nz, MESS_NOISE_MODE_none,
						 0, 0), 0);
		memset(&clean, 0, sizeof(clean));
		var->fn[MESS_NOISE_MODE_none](xs, ys, N_ITER, &nz, &clean);
		assert_int_equal(clean.n, N_ITER);
		mess_noise_free(&nz);

		for (unsigned m = 1; m < MESS_NOISE_NMODES; m++) {
			if (!MESS_NOISE_SUPPORTED)
				break;
			assert_int_equal(mess_noise_init(&nz, m, 0,
							 MEM_BYTES), 0);
			for (size_t j = 0; j < sizeof(ks) / sizeof(ks[0]); j++) {
				assert_int_equal(mess_noise_set_k(&nz, ks[j]),
						 0);
				memset(&noisy, 0xff, sizeof(noisy));
				var->fn[m](xs, ys, N_ITER, &nz, &noisy);
				if (memcmp(&clean, &noisy, sizeof(clean)))
					fail_msg("%s %s k=%u: result differs",
						 var->name,
						 mess_noise_mode_name(m),
						 ks[j]);
			}
			check_buffers(&nz);
			mess_noise_free(&nz);
		}
	}
}

/* Every site moves the cursor one span on, wrapping at mem_hi, even at
 * k = 0 (the advance is overhead, not payload). */
static void test_cursor(void **state)
{
	struct result r;
	struct mess_noise nz;
	size_t moved = 0, want;

	if (!MESS_NOISE_SUPPORTED)
		skip();
	assert_int_equal(mess_noise_init(&nz, MESS_NOISE_MODE_memory_ld64,
					 3, MEM_BYTES), 0);
	assert_ptr_equal(nz.mem, nz.mem_lo);
	assert_int_equal(nz.mem_hi - nz.mem_lo, MEM_SPANS * MESS_NOISE_SPAN);
	assert_int_equal((uintptr_t)nz.mem_lo % 4096, 0);
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		variants[v].fn[MESS_NOISE_MODE_memory_ld64](xs, ys, 5, &nz,
							     &r);
		moved += 5 * variants[v].sites;
		want = moved % MEM_SPANS * MESS_NOISE_SPAN;
		assert_int_equal(nz.mem - nz.mem_lo, want);
	}
	assert_int_equal(mess_noise_set_k(&nz, 0), 0);
	mess_count_memory_ld64(&nz, 3);
	moved += 3;
	assert_int_equal(nz.mem - nz.mem_lo,
			 moved % MEM_SPANS * MESS_NOISE_SPAN);
	mess_noise_free(&nz);
}

static void test_init_errors(void **state)
{
	struct mess_noise nz;
	enum mess_noise_mode m;

	for (m = 0; m < MESS_NOISE_NMODES; m++) {
		int want = m == MESS_NOISE_MODE_none || MESS_NOISE_SUPPORTED ?
			   0 : -EOPNOTSUPP;

		assert_int_equal(mess_noise_init(&nz, m, MESS_NOISE_KMAX + 1,
						 MEM_BYTES), -EINVAL);
		assert_int_equal(mess_noise_init(&nz, m, MESS_NOISE_KMAX,
						 MEM_BYTES), want);
		if (!want) {
			assert_int_equal(mess_noise_set_k(&nz,
						MESS_NOISE_KMAX + 1), -EINVAL);
			/* A failed set_k leaves k as it was. */
			assert_int_equal(nz.k, MESS_NOISE_KMAX);
			assert_int_equal(nz.skip, 0);
			assert_int_equal(mess_noise_set_k(&nz, 0), 0);
			assert_int_equal(nz.skip, MESS_NOISE_KMAX *
					 mess_noise_insn_bytes(m));
		}
		mess_noise_free(&nz);
		mess_noise_free(&nz);	/* idempotent */
	}
	assert_int_equal(mess_noise_init(&nz, MESS_NOISE_NMODES, 0, 0),
			 -EINVAL);
	assert_int_equal(mess_noise_init(&nz, (enum mess_noise_mode)-1, 0, 0),
			 -EINVAL);
	if (MESS_NOISE_SUPPORTED)
		assert_int_equal(mess_noise_init(&nz,
				 MESS_NOISE_MODE_memory_ld64, 1, 0), -EINVAL);
	assert_int_equal(mess_noise_mode_parse("fp_add", &m), -EINVAL);
	assert_int_equal(mess_noise_mode_parse("", &m), -EINVAL);
	assert_int_equal(mess_noise_mode_parse("FP_ADD64", &m), -EINVAL);
	assert_null(mess_noise_mode_name(MESS_NOISE_NMODES));
}

static void test_names(void **state)
{
	enum mess_noise_mode m, back;
	const char *name;

	for (m = 0; m < MESS_NOISE_NMODES; m++) {
		name = mess_noise_mode_name(m);
		assert_non_null(name);
		assert_int_equal(mess_noise_mode_parse(name, &back), 0);
		assert_int_equal(back, m);
	}
	assert_string_equal(mess_noise_mode_name(MESS_NOISE_MODE_none), "none");
	assert_string_equal(mess_noise_mode_name(MESS_NOISE_MODE_memory_ld64),
			    "memory_ld64");
}

static void test_insn_bytes(void **state)
{
	assert_int_equal(mess_noise_insn_bytes(MESS_NOISE_MODE_none), 0);
	for (unsigned m = 1; m < MESS_NOISE_NMODES; m++)
		assert_true(MESS_NOISE_SUPPORTED ?
			    mess_noise_insn_bytes(m) > 0 :
			    mess_noise_insn_bytes(m) == 0);
#if defined(__x86_64__)
	assert_int_equal(mess_noise_insn_bytes(MESS_NOISE_MODE_fp_add64), 5);
	assert_int_equal(mess_noise_insn_bytes(MESS_NOISE_MODE_int64_add), 3);
	assert_int_equal(mess_noise_insn_bytes(MESS_NOISE_MODE_l1_ld64), 7);
#elif defined(__aarch64__)
	assert_int_equal(mess_noise_insn_bytes(MESS_NOISE_MODE_fp_add64), 4);
#endif
}

static int count_main(int argc, char **argv)
{
	enum mess_noise_mode m;
	struct mess_noise nz;
	unsigned long k, n;
	int err;

	if (argc != 5 || mess_noise_mode_parse(argv[2], &m) ||
	    m == MESS_NOISE_MODE_none) {
		fprintf(stderr, "usage: %s count <mode> <k> <n>\n", argv[0]);
		return 2;
	}
	k = strtoul(argv[3], NULL, 0);
	n = strtoul(argv[4], NULL, 0);
	err = mess_noise_init(&nz, m, k, MEM_BYTES);
	if (err) {
		fprintf(stderr, "mess_noise_init(%s, %lu): %s\n", argv[2], k,
			strerror(-err));
		return err == -EOPNOTSUPP ? 77 : 1;
	}
	count_fns[m](&nz, n);
	mess_noise_free(&nz);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_insn_bytes),
		cmocka_unit_test(test_same_result),
		cmocka_unit_test(test_cursor),
	};

	if (argc > 1 && !strcmp(argv[1], "count"))
		return count_main(argc, argv);
	return cmocka_run_group_tests(tests, setup_data, NULL);
}
