// SPDX-License-Identifier: MIT
/*
 * Semantic tests of the hand-written kernels of one ISA: the chase follows
 * exactly the chain it is given, and every generator touches exactly the
 * bytes its table entry declares (the harness accounts bandwidth from those
 * entries, so an entry that lies would silently skew every curve).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess_kernels.h"
#include "port.h"

#define SENTINEL 0xa5
#define GEN_ITERS 3
/* Reads or writes past the declared bytes land here and get caught. */
#define GUARD 4096

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

/* xorshift64: fixed seed, so a failure reproduces. */
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void *xaligned_alloc(size_t align, size_t size)
{
	void *p = aligned_alloc(align, (size + align - 1) / align * align);

	assert_non_null(p);
	return p;
}

/* ---- mix placement ---- */

static unsigned count_stores(unsigned s, unsigned from, unsigned len)
{
	unsigned i, n = 0;

	for (i = from; i < from + len; i++)
		n += mess_mix_is_store(s, i % MESS_GEN_OPS);
	return n;
}

/*
 * Iterations repeat back to back, so windows that wrap around the end must
 * be even too.  |n - w s/100| < 1 is |100 n - w s| < 100 in integers.
 */
static void check_windows(unsigned s)
{
	unsigned w, from, n;
	long d;

	for (w = 1; w <= MESS_GEN_OPS; w++) {
		for (from = 0; from < MESS_GEN_OPS; from++) {
			n = count_stores(s, from, w);
			d = 100L * n - (long)w * s;
			if (d <= -100 || d >= 100)
				fail_msg("s=%u: %u stores in ops %u..%u",
					 s, n, from, from + w - 1);
		}
	}
}

static void test_mix_placement(void **state)
{
	unsigned s;

	for (s = 0; s <= MESS_GEN_OPS; s++) {
		assert_int_equal(count_stores(s, 0, MESS_GEN_OPS), s);
		check_windows(s);
	}
}

/* ---- pointer chase ---- */

static void check_chase(size_t stride)
{
	const size_t n = 4 * MESS_CHASE_UNROLL;
	size_t *next = malloc(n * sizeof(*next));
	char *buf = xaligned_alloc(64, n * stride);
	size_t i, j, t, len;
	void *start, *want;

	assert_non_null(next);
	/* Sattolo: a uniformly random permutation that is one n-cycle. */
	for (i = 0; i < n; i++)
		next[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = rnd() % i;
		t = next[i];
		next[i] = next[j];
		next[j] = t;
	}
	for (i = 0, len = 0; len == 0 || i != 0; len++)
		i = next[i];
	assert_int_equal(len, n);

	memset(buf, 0, n * stride);
	for (i = 0; i < n; i++)
		*(void **)(buf + i * stride) = buf + next[i] * stride;

	start = buf + 17 * stride;
	for (i = 17, j = 0; j < MESS_CHASE_UNROLL; j++)
		i = next[i];
	want = buf + i * stride;

	assert_ptr_equal(mess_chase(start, 0), start);
	assert_ptr_equal(mess_chase(start, 1), want);
	assert_ptr_equal(mess_chase(want, 3), start);
	assert_ptr_equal(mess_chase(start, 4), start);

	free(buf);
	free(next);
}

static void test_chase_64(void **state)
{
	check_chase(64);
}

static void test_chase_256(void **state)
{
	check_chase(256);
}

/* ---- timed pointer chase ---- */

/* The bin of v by the documented formula, its msb found by a loop: a
 * reference independent of each ISA's count of leading zeros. */
static unsigned ref_bin(uint64_t v)
{
	uint64_t x = v | (1u << MESS_CHASE_HIST_SUB_BITS);
	unsigned msb = 0, shift;

	while (x >>= 1)
		msb++;
	shift = msb - MESS_CHASE_HIST_SUB_BITS;
	return (shift << MESS_CHASE_HIST_SUB_BITS) + (unsigned)(v >> shift);
}

static uint64_t *new_bins(void)
{
	uint64_t *b = calloc(MESS_CHASE_HIST_NBINS + 1, sizeof(*b));

	assert_non_null(b);
	return b;
}

/* Where every line's successor is, and the start's k-th successor. */
static void *walk(char *buf, const size_t *next, size_t stride, size_t from,
		  size_t k)
{
	while (k--)
		from = next[from];
	return buf + from * stride;
}

static void check_chase_timed(size_t stride, uint64_t n)
{
	const size_t lines = 3 * MESS_CHASE_UNROLL + 7;
	size_t *next = malloc(lines * sizeof(*next));
	char *buf = xaligned_alloc(64, lines * stride);
	uint64_t *bins = new_bins(), total = 0, batches;
	size_t i, j, t;
	void *start;

	assert_non_null(next);
	for (i = 0; i < lines; i++)
		next[i] = i;
	for (i = lines - 1; i > 0; i--) {
		j = rnd() % i;
		t = next[i];
		next[i] = next[j];
		next[j] = t;
	}
	memset(buf, 0, lines * stride);
	for (i = 0; i < lines; i++)
		*(void **)(buf + i * stride) = buf + next[i] * stride;
	start = buf + 5 * stride;

	/* Nothing to do: nothing touched. */
	assert_ptr_equal(mess_chase_timed(start, 0, n, bins), start);
	assert_ptr_equal(mess_chase_timed(start, 3, 0, bins), start);
	for (i = 0; i <= MESS_CHASE_HIST_NBINS; i++)
		assert_int_equal(bins[i], 0);

	/* One batch at a time: the delta is the sum word, and the one bin
	 * counted is the reference's bin of it. */
	for (t = 0; t < 64; t++) {
		uint64_t before = bins[MESS_CHASE_HIST_NBINS], d, hit = 0;

		assert_ptr_equal(mess_chase_timed(walk(buf, next, stride, 5, t * n), 1, n, bins),
				 walk(buf, next, stride, 5, (t + 1) * n));
		d = bins[MESS_CHASE_HIST_NBINS] - before;
		for (i = 0; i < MESS_CHASE_HIST_NBINS; i++)
			total += bins[i];
		assert_int_equal(total, 1);
		total = 0;
		hit = bins[ref_bin(d)];
		assert_true(hit >= 1);
		memset(bins, 0, (MESS_CHASE_HIST_NBINS + 1) * sizeof(*bins));
	}

	/* A whole cycle of the chain (lines loads) ends where it began,
	 * having visited every line once (the chain is one cycle, so any
	 * shorter walk would not be back), and every batch is in exactly
	 * one bin: the counts add up to batches. */
	batches = lines / n;
	if (batches * n == lines) {
		assert_ptr_equal(mess_chase_timed(start, batches, n, bins), start);
		assert_ptr_equal(mess_chase_timed(start, batches - 1, n, bins),
				 walk(buf, next, stride, 5, lines - n));
		batches = 2 * batches - 1;
	} else {
		assert_ptr_equal(mess_chase_timed(start, batches, n, bins),
				 walk(buf, next, stride, 5, batches * n));
	}
	for (i = 0; i < MESS_CHASE_HIST_NBINS; i++)
		total += bins[i];
	assert_int_equal(total, batches);

	free(bins);
	free(buf);
	free(next);
}

/* The chain is one cycle of `lines` lines: check that, then the kernel. */
static void test_chase_timed_1(void **state)
{
	check_chase_timed(64, 1);
}

static void test_chase_timed_7(void **state)
{
	/* 3 x 1024 + 7 = 3079 (prime): n = 7 does not divide it */
	check_chase_timed(256, 7);
}

static void test_chase_timed_cycle(void **state)
{
	/* one batch of the whole chain comes back to the start */
	check_chase_timed(64, 3 * MESS_CHASE_UNROLL + 7);
}

/* The timer moves forward, and the rate the hardware states is either
 * unknown (0) or a plausible one. */
static void test_timer(void **state)
{
	uint64_t a = mess_timer_now(), b, hz = mess_timer_hz();
	volatile uint64_t spin = 0;

	for (int i = 0; i < 1000000; i++)
		spin += (uint64_t)i;
	b = mess_timer_now();
	assert_true(b >= a);
	assert_true(hz == 0 || (hz >= 1000 && hz <= 100000000000ULL));
}

/* ---- traffic generators ---- */

/*
 * The variants from the port's own list (kernels/asm/<isa>/port.h,
 * MESS_VARIANTS), so a variant added there is tested with no edit here;
 * what one needs of the CPU is the port's word too, as the harness's
 * registry takes it (mess_port_variant_unavailable).
 */
struct gen_case {
	const char *name;
	const struct mess_gen_kernel *table;
};

#define GEN_CASE(n, d) { #n, mess_gen_##n },
static const struct gen_case gen_cases[] = { MESS_VARIANTS(GEN_CASE) };
#define GEN_NCASES (sizeof(gen_cases) / sizeof(gen_cases[0]))

/* A non-temporal variant says so in its name: nt, or ending in _nt. */
static uint32_t named_nontemporal(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "nt") || (n > 3 && !strcmp(name + n - 3, "_nt"));
}

static void test_gen_table(void **state)
{
	const struct gen_case *c = *state;
	uint32_t width = c->table[0].width;
	unsigned idx, i, stores, with_fn = 0;

	/* One width a variant, a memory operation's: 8 (scalar) to 64 bytes. */
	assert_true(width == 8 || width == 16 || width == 32 || width == 64);
	if (!strcmp(c->name, "scalar"))
		assert_int_equal(width, 8);
	for (idx = 0; idx < MESS_GEN_NMIXES; idx++) {
		const struct mess_gen_kernel *k = &c->table[idx];

		stores = 0;
		for (i = 0; i < MESS_GEN_OPS; i++)
			stores += mess_mix_is_store(idx * MESS_GEN_MIX_STEP, i);

		assert_int_equal(k->store_pct, idx * MESS_GEN_MIX_STEP);
		assert_int_equal(k->width, width);
		assert_int_equal(k->stores, stores);
		assert_int_equal(k->loads, MESS_GEN_OPS - stores);
		assert_int_equal(k->bytes_loaded, k->loads * width);
		assert_int_equal(k->bytes_stored, k->stores * width);
		assert_int_equal(k->nontemporal, named_nontemporal(c->name));
		assert_int_equal(k->reserved, 0);
		with_fn += k->fn != NULL;
	}
	/* A variant is built for all mixes or for none: no registry gaps. */
	if (with_fn != 0 && with_fn != MESS_GEN_NMIXES)
		fail_msg("mess_gen_%s: %u of %d entries have a kernel",
			 c->name, with_fn, MESS_GEN_NMIXES);
#if defined(__x86_64__)
	assert_int_equal(with_fn, MESS_GEN_NMIXES);
#endif
}

static uint64_t xor_words(const void *p, size_t bytes)
{
	const uint64_t *w = p;
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < bytes / 8; i++)
		x ^= w[i];
	return x;
}

/*
 * Run one kernel and check the exact footprint: the checksum proves which
 * load bytes were read, the sentinel which store bytes were written.
 */
static uint64_t run_gen(const struct gen_case *c,
			const struct mess_gen_kernel *k, const uint8_t *ld,
			const uint8_t *ld_copy, uint8_t *st, size_t size,
			uint64_t iters, uint64_t nops, uint64_t pattern)
{
	size_t nld = iters * k->bytes_loaded, nst = iters * k->bytes_stored;
	uint64_t cksum = ~pattern;
	size_t i;

	assert_true(nld + GUARD <= size && nst + GUARD <= size);
	memset(st, SENTINEL, size);
	k->fn(ld, st, iters, nops, pattern, &cksum);

	if (cksum != xor_words(ld, nld))
		fail_msg("mess_gen_%s_s%u iters=%llu nops=%llu: cksum %#llx, want %#llx",
			 c->name, k->store_pct, (unsigned long long)iters,
			 (unsigned long long)nops, (unsigned long long)cksum,
			 (unsigned long long)xor_words(ld, nld));
	for (i = 0; i < nst / 8; i++)
		if (((const uint64_t *)st)[i] != pattern)
			fail_msg("mess_gen_%s_s%u iters=%llu: st word %zu not stored",
				 c->name, k->store_pct,
				 (unsigned long long)iters, i);
	for (i = nst; i < size; i++)
		if (st[i] != SENTINEL)
			fail_msg("mess_gen_%s_s%u iters=%llu: st byte %zu of %zu stored",
				 c->name, k->store_pct,
				 (unsigned long long)iters, i, nst);
	assert_memory_equal(ld, ld_copy, size);
	return cksum;
}

static void test_gen_run(void **state)
{
	const struct gen_case *c = *state;
	const size_t size = (size_t)GEN_ITERS * MESS_GEN_OPS * 64 + GUARD;
	uint8_t *ld, *ld_copy, *st, *st0;
	uint64_t cksum0, cksum5, pattern;
	const char *why;
	unsigned idx;
	size_t i;

	if (!c->table[0].fn) {
		print_message("mess_gen_%s: no kernels on this ISA (fn NULL)\n",
			      c->name);
		skip();
	}
	why = mess_port_variant_unavailable(c->table[0].width);
	if (why) {
		print_message("mess_gen_%s: %s\n", c->name, why);
		skip();
	}

	ld = xaligned_alloc(64, size);
	ld_copy = malloc(size);
	st = xaligned_alloc(64, size);
	st0 = malloc(size);
	assert_non_null(ld_copy);
	assert_non_null(st0);
	for (i = 0; i < size / 8; i++)
		((uint64_t *)ld)[i] = rnd();
	memcpy(ld_copy, ld, size);

	for (idx = 0; idx < MESS_GEN_NMIXES; idx++) {
		const struct mess_gen_kernel *k = &c->table[idx];

		pattern = 0x0123456789abcdefULL ^ ((uint64_t)idx << 56);

		cksum0 = run_gen(c, k, ld, ld_copy, st, size, 0, 0, pattern);
		assert_int_equal(cksum0, 0);

		cksum0 = run_gen(c, k, ld, ld_copy, st, size, GEN_ITERS, 0,
				 pattern);
		memcpy(st0, st, size);
		cksum5 = run_gen(c, k, ld, ld_copy, st, size, GEN_ITERS, 5,
				 pattern);
		/* The spin changes the rate, never the traffic. */
		assert_int_equal(cksum0, cksum5);
		assert_memory_equal(st0, st, size);
	}

	free(st0);
	free(st);
	free(ld_copy);
	free(ld);
}

int main(void)
{
	/* Two tests a variant, named after it: cmocka would print the
	 * function's name once per variant. */
	static char names[GEN_NCASES][2][64];
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_mix_placement),
		cmocka_unit_test(test_chase_64),
		cmocka_unit_test(test_chase_256),
		cmocka_unit_test(test_chase_timed_1),
		cmocka_unit_test(test_chase_timed_7),
		cmocka_unit_test(test_chase_timed_cycle),
		cmocka_unit_test(test_timer),
	};
	struct CMUnitTest tests[sizeof(fixed) / sizeof(fixed[0]) + 2 * GEN_NCASES];
	size_t n = sizeof(fixed) / sizeof(fixed[0]);

	memcpy(tests, fixed, sizeof(fixed));
	for (size_t i = 0; i < GEN_NCASES; i++)
		for (int run = 0; run < 2; run++) {
			snprintf(names[i][run], sizeof(names[i][run]), "mess_gen_%s_%s",
				 gen_cases[i].name, run ? "run" : "table");
			tests[n++] = (struct CMUnitTest){
				.name = names[i][run],
				.test_func = run ? test_gen_run : test_gen_table,
				.initial_state = (void *)&gen_cases[i],
			};
		}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
