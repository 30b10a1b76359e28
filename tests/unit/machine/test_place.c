// SPDX-License-Identifier: MIT
/*
 * A split of a buffer's pages over nodes (core/machine/place.h): the
 * stripe and deviation arithmetic on known answers, and the placement of
 * a real buffer on node 0 alone by both methods, the policy and the pages
 * read back here with get_mempolicy and move_pages, not by place.c.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <numa.h>
#include <numaif.h>

#include "core/machine/mem.h"
#include "core/machine/place.h"

#define WEIGHTED 6	/* MPOL_WEIGHTED_INTERLEAVE, which old headers lack */
#define BYTES (8UL << 20)

static void test_proportional(void **state)
{
	unsigned want[3] = { 3, 1, 2 };
	int same[3] = { 6, 2, 4 }, other[3] = { 1, 1, 1 }, unread[3] = { 3, -1, 2 };

	(void)state;
	assert_true(mess_place_proportional(want, same, 3));
	assert_false(mess_place_proportional(want, other, 3));
	assert_false(mess_place_proportional(want, unread, 3));
}

static void test_stripe(void **state)
{
	struct mess_place pl = { .max_ranges = 4096 };

	(void)state;
	/* 512 huge pages: one a range */
	assert_int_equal(mess_place_stripe(&pl, 1UL << 30, 2UL << 20), 2UL << 20);
	/* 64 GiB: 32768 huge pages, 8 a range, 4096 ranges */
	assert_int_equal(mess_place_stripe(&pl, 64UL << 30, 2UL << 20), 16UL << 20);
	/* fewer ranges allowed: whole units still */
	pl.max_ranges = 3;
	assert_int_equal(mess_place_stripe(&pl, 10 * 4096, 4096), 4 * 4096);
}

static void test_deviation(void **state)
{
	struct mess_place pl = { .n = 2, .node = { 0, 2 }, .weight = { 3, 1 } };
	struct mess_place_count c = { .pages = { 75, 25 } };

	(void)state;
	assert_true(fabs(mess_place_deviation(&pl, &c)) < 1e-9);
	c.pages[0] = 70;
	c.pages[1] = 30;
	assert_true(fabs(mess_place_deviation(&pl, &c) - 5) < 1e-9);
	/* a page on a node not asked for was asked none */
	c.pages[0] = 75;
	c.pages[1] = 15;
	c.other = 10;
	assert_true(fabs(mess_place_deviation(&pl, &c) - 10) < 1e-9);
	memset(&c, 0, sizeof(c));
	assert_true(isnan(mess_place_deviation(&pl, &c)));
}

/* The policy at addr as the kernel says it: its mode, node 0 in its mask. */
static int mode_at(void *addr)
{
	unsigned long mask[16] = { 0 };
	int mode = -1;

	assert_int_equal(get_mempolicy(&mode, mask, 1024, addr, MPOL_F_ADDR), 0);
	assert_true(mask[0] & 1);
	return mode;
}

/* Every page of the buffer on node 0, asked of the kernel page by page. */
static void on_node0(const struct mess_buf *b)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE), n = b->len / psz;
	void *pages[256];
	int status[256];

	for (size_t at = 0; at < n; at += 256) {
		unsigned long k = n - at < 256 ? n - at : 256;

		for (unsigned long i = 0; i < k; i++)
			pages[i] = (char *)b->p + (at + i) * psz;
		assert_int_equal(move_pages(0, k, pages, NULL, status, 0), 0);
		for (unsigned long i = 0; i < k; i++)
			assert_int_equal(status[i], 0);
	}
}

static void placed(enum mess_place_method m, int huge, int want_mode)
{
	struct mess_place pl = { .n = 1, .node = { 0 }, .weight = { 1 } };
	struct mess_place_count c = { 0 };
	struct mess_buf b;
	char err[600];

	assert_int_equal(mess_place_choose(&pl, m, err, sizeof(err)), 0);
	assert_int_equal(pl.method, m);
	assert_int_equal(mess_buf_alloc_placed(&b, BYTES, &pl, huge), 0);
	assert_int_equal(b.len, BYTES);
	assert_int_equal(mode_at(b.p), want_mode);
	assert_int_equal(mode_at((char *)b.p + BYTES / 2), want_mode);
	assert_int_equal(mode_at((char *)b.p + BYTES - 1), want_mode);
	on_node0(&b);
	/* and place.c's own count agrees */
	mess_place_count(&pl, b.p, b.len, &c);
	assert_int_equal(c.err, 0);
	assert_int_equal(c.pages[0], BYTES / (size_t)sysconf(_SC_PAGESIZE));
	assert_int_equal(c.total, c.pages[0]);
	assert_true(mess_place_deviation(&pl, &c) == 0);
	mess_buf_free(&b);
}

static void test_ranges_node0(void **state)
{
	(void)state;
	if (numa_available() < 0)
		skip();
	placed(MESS_PLACE_RANGES_M, 0, MPOL_BIND);
	placed(MESS_PLACE_RANGES_M, 1, MPOL_BIND);
}

static void test_weighted_node0(void **state)
{
	struct mess_place pl = { .n = 1, .node = { 0 }, .weight = { 1 } };
	struct stat st;
	char err[600];

	(void)state;
	if (numa_available() < 0)
		skip();
	if (stat("/sys/kernel/mm/mempolicy/weighted_interleave", &st)) {
		/* A kernel before 6.9: weighted refused, auto falls back. */
		assert_int_equal(mess_place_choose(&pl, MESS_PLACE_WEIGHTED, err, sizeof(err)),
				 -EOPNOTSUPP);
		assert_non_null(strstr(err, "no weighted interleave"));
		assert_int_equal(mess_place_choose(&pl, MESS_PLACE_AUTO, err, sizeof(err)), 0);
		assert_int_equal(pl.method, MESS_PLACE_RANGES_M);
		skip();
	}
	/* One node's weight, whatever it is, is in the ratio 1. */
	assert_int_equal(mess_place_choose(&pl, MESS_PLACE_AUTO, err, sizeof(err)), 0);
	assert_int_equal(pl.method, MESS_PLACE_WEIGHTED);
	assert_true(pl.sys_read && pl.sys_weight[0] >= 1);
	placed(MESS_PLACE_WEIGHTED, 0, WEIGHTED);
	placed(MESS_PLACE_WEIGHTED, 1, WEIGHTED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proportional),
		cmocka_unit_test(test_stripe),
		cmocka_unit_test(test_deviation),
		cmocka_unit_test(test_ranges_node0),
		cmocka_unit_test(test_weighted_node0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
