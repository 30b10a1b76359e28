// SPDX-License-Identifier: MIT
/* The distribution window's arithmetic with known answers (issue 32
 * items 1-3): the window's cost from the two beside it and when it is
 * disturbed, the preemption cut, and the paired difference; and the host
 * state's check (item 4): the window's L2 cluster and the state rule. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/tail/window.h"
#include "mess/hist.h"
#include "near.h"

/* The window's own cost: its L1 bursts' mean a batch less n L1 loads. */
static void test_cost_own(void **state)
{
	double c;

	(void)state;
	/* 2.1 GHz ticks (0.476 ns): 84 ticks a batch of one 2 ns load is
	 * a 38 ns cost */
	assert_int_equal(mess_tail_cost_own(84.0, 1, 2.0, 1 / 2.1, 33.0, &c), 0);
	assert_near(c, 84.0 / 2.1 - 2.0, 1e-9);
	/* four loads a batch (a coarse timer): four L1 latencies off */
	assert_int_equal(mess_tail_cost_own(30.0, 4, 1.0, 1.0, 9.0, &c), 0);
	assert_near(c, 26.0, 1e-12);
	/* a cost of 0 is a cost (a timer with none) */
	assert_int_equal(mess_tail_cost_own(4.0, 4, 1.0, 1.0, 9.0, &c), 0);
	assert_near(c, 0, 1e-12);
	/* under 0: the bursts did not stay in L1; the probes' mean, and the
	 * window is disturbed */
	assert_int_equal(mess_tail_cost_own(3.0, 4, 1.0, 1.0, 9.0, &c),
			 MESS_TAIL_DIST_COSTS);
	assert_near(c, 9.0, 1e-12);
	/* no burst kept, or no L1 latency */
	assert_int_equal(mess_tail_cost_own(NAN, 1, 1.0, 1.0, 9.0, &c),
			 MESS_TAIL_DIST_COSTS);
	assert_int_equal(mess_tail_cost_own(40.0, 1, NAN, 1.0, 9.0, &c),
			 MESS_TAIL_DIST_COSTS);
	assert_near(c, 9.0, 1e-12);
}

static struct mess_hist *new_hist(void)
{
	struct mess_hist *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	return h;
}

static void record_n(struct mess_hist *h, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		mess_hist_record(h, v);
}

/*
 * 10000 batches of 300 ticks, 10 slow ones of 1500 (kept: a load's tail)
 * and 3 preemptions of 99328 ticks (a bin's midpoint, [98304, 100352), so
 * the estimate of their part of the sum is exact).  At 0.5 ns a tick the
 * cut is the 20 µs floor, 40000 ticks (100 x the median, 30000, is less).
 */
static void test_preemption_cut(void **state)
{
	struct mess_hist *h = new_hist(), *kept = new_hist();
	struct mess_hist_summary s;
	double cut, cut_sum = 0;

	(void)state;
	record_n(h, 300, 10000);
	record_n(h, 1500, 10);
	record_n(h, 99328, 3);
	cut = mess_tail_cut_ticks(h, 0.5);
	assert_near(cut, 40000, 0);
	assert_int_equal(mess_tail_cut(kept, h, cut, &cut_sum), 3);
	assert_near(cut_sum, 3 * 99328.0, 0);
	mess_hist_summarise(kept, &s);
	assert_int_equal(s.n, 10010);
	/* the mean without them: (10000 x 300 + 10 x 1500) / 10010 */
	assert_near(s.mean, 3015000.0 / 10010, 1e-9);
	/* with them it would be 10 % higher: 3 batches in 10013 */
	assert_true(mess_hist_mean(h) > 1.09 * s.mean);
	/* the quantiles without them: 300's bin [296, 304), 1500's
	 * [1472, 1504) the maximum */
	assert_near(s.p50, 300, 0);
	assert_near(s.p999, 300, 0);
	assert_near(s.max, 1488, 0);
	/* a second sub-window adds to the same kept histogram */
	assert_int_equal(mess_tail_cut(kept, h, cut, NULL), 3);
	assert_int_equal(mess_hist_count(kept), 20020);
	assert_near(mess_hist_mean(kept), 3015000.0 / 10010, 1e-9);

	/* A slow memory or many loads a batch: the median's 100x rules.
	 * Median 1000 ticks: cut at 100000, so the 99328 batches stay. */
	memset(h, 0, sizeof(*h));
	memset(kept, 0, sizeof(*kept));
	record_n(h, 1000, 1000);
	record_n(h, 99328, 3);
	cut = mess_tail_cut_ticks(h, 0.5);
	assert_near(cut, 100 * 1000, 32);	/* the median's bin midpoint */
	assert_int_equal(mess_tail_cut(kept, h, cut, NULL), 0);
	assert_int_equal(kept->sum, h->sum);
	/* an empty sub-window: the floor */
	memset(h, 0, sizeof(*h));
	assert_near(mess_tail_cut_ticks(h, 1.0), 20000, 0);
	free(h);
	free(kept);
}

/* Each timed sub-window against the mean of the untimed two beside it;
 * the median of the pairs. */
static void test_paired_diff(void **state)
{
	const double u[] = { 100, 100, 100, 100, 100 };
	const double t[] = { 102, 103, NAN, 110 };
	/* a drift the pairs cancel: 1 ns a sub-window */
	const double ud[] = { 100, 102, 104, 106 };
	const double td[] = { 101, 103, 105 };
	/* a preemption nothing saw in one untimed sub-window: two pairs of
	 * five, -23 %, and the median ignores them */
	const double up[] = { 100, 100, 160, 100, 100, 100 };
	const double tp[] = { 101, 101, 101, 101, 101 };
	const double none[] = { NAN, NAN };

	(void)state;
	/* +2, +3 and +10 %: NAN is no pair */
	assert_near(mess_tail_paired_diff(t, u, 4), 3, 1e-12);
	assert_near(mess_tail_paired_diff(td, ud, 3), 0, 1e-12);
	assert_near(mess_tail_paired_diff(tp, up, 5), 1, 1e-12);
	/* an even count: the mean of the middle two */
	assert_near(mess_tail_paired_diff(t, u, 2), 2.5, 1e-12);
	assert_true(isnan(mess_tail_paired_diff(none, u, 2)));
	assert_true(isnan(mess_tail_paired_diff(t, u, 0)));
}

/* The share of batches under the bound and where they sit, at 1 GHz
 * (a tick a ns) with a 20 ns cost. */
static void test_l2_cluster(void **state)
{
	struct mess_hist *h = calloc(1, sizeof(*h));
	unsigned dram = mess_hist_index(160), l2 = mess_hist_index(24);
	double share, at, mid = (mess_hist_lo(l2) + mess_hist_hi(l2)) / 2;

	(void)state;
	assert_non_null(h);
	/* 10 L2 hits of 1000: 1 %, too few to place (32 needed) */
	h->bins[dram] = 990;
	h->bins[l2] = 10;
	mess_tail_l2_cluster(h, 1.0, 20.0, 1, 10.0, &share, &at);
	assert_near(share, 1.0, 1e-12);
	assert_true(isnan(at));
	/* 40 of 1000: 4 %, placed at their bin's midpoint less the cost */
	h->bins[dram] = 960;
	h->bins[l2] = 40;
	mess_tail_l2_cluster(h, 1.0, 20.0, 1, 10.0, &share, &at);
	assert_near(share, 4.0, 1e-12);
	assert_near(at, mid - 20.0, 1e-12);
	/* a cost 2 ns higher moves the cluster 2 ns down */
	mess_tail_l2_cluster(h, 1.0, 22.0, 1, 10.0, &share, &at);
	assert_near(at, mid - 22.0, 1e-12);
	/* a bound under the hits: none under it */
	mess_tail_l2_cluster(h, 1.0, 20.0, 1, 2.0, &share, &at);
	assert_near(share, 0.0, 1e-12);
	assert_true(isnan(at));
	/* two loads a batch: no L2 hit of its own to see */
	mess_tail_l2_cluster(h, 1.0, 20.0, 2, 10.0, &share, &at);
	assert_true(isnan(share) && isnan(at));
	/* no L2 reference: no bound */
	mess_tail_l2_cluster(h, 1.0, 20.0, 1, NAN, &share, &at);
	assert_true(isnan(share) && isnan(at));
	/* an empty window */
	memset(h, 0, sizeof(*h));
	mess_tail_l2_cluster(h, 1.0, 20.0, 1, 10.0, &share, &at);
	assert_true(isnan(share) && isnan(at));
	free(h);
}

/* The state rule: 2 ns from the L2 reference, or a share that jumped. */
static void test_state_check(void **state)
{
	(void)state;
	/* steady: the probes 0.1 ns off, a 2 MiB window's shares */
	assert_int_equal(mess_tail_state_check(3.4, NAN, 3.5, 3.45, 0.01, 0.02), 0);
	/* a probe after the window found the chain out of L2 */
	assert_int_equal(mess_tail_state_check(3.4, NAN, 3.5, 33.7, 0.01, 0.02),
			 MESS_TAIL_DIST_STATE);
	assert_int_equal(mess_tail_state_check(3.4, NAN, 5.5, 3.4, NAN, NAN),
			 MESS_TAIL_DIST_STATE);
	/* the whole window in the slow state: both probes 24-82 ns (the
	 * AMD guest, for seconds), and both 2.1 ns up */
	assert_int_equal(mess_tail_state_check(3.4, NAN, 56.5, 54.7, NAN, NAN),
			 MESS_TAIL_DIST_STATE);
	assert_int_equal(mess_tail_state_check(3.4, NAN, 5.5, 5.6, NAN, NAN),
			 MESS_TAIL_DIST_STATE);
	/* a reference from a slow start, the window quiet: not judged
	 * changed (the reference is at fault, and falls to the quiet one) */
	assert_int_equal(mess_tail_state_check(55.0, NAN, 3.5, 3.5, NAN, NAN), 0);
	/* no reference yet: the probes' own difference still counts */
	assert_int_equal(mess_tail_state_check(NAN, NAN, 3.5, 33.0, NAN, NAN),
			 MESS_TAIL_DIST_STATE);
	/* the cluster 2.6 ns from the reference; 1.9 ns is kept */
	assert_int_equal(mess_tail_state_check(3.4, 6.0, 3.4, 3.4, 3.0, 3.0),
			 MESS_TAIL_DIST_STATE);
	assert_int_equal(mess_tail_state_check(3.4, 5.3, 3.4, 3.4, 3.0, 3.0), 0);
	/* issue 32's two states: 3 % of loads in L2 against 0.1 %, either way */
	assert_int_equal(mess_tail_state_check(NAN, NAN, NAN, NAN, 3.0, 0.1),
			 MESS_TAIL_DIST_STATE);
	assert_int_equal(mess_tail_state_check(NAN, NAN, NAN, NAN, 0.1, 3.0),
			 MESS_TAIL_DIST_STATE);
	/* from nothing to 0.8 %: a jump; to 0.02 %: none (under 0.5 points) */
	assert_int_equal(mess_tail_state_check(NAN, NAN, NAN, NAN, 0.8, 0.0),
			 MESS_TAIL_DIST_STATE);
	assert_int_equal(mess_tail_state_check(NAN, NAN, NAN, NAN, 0.02, 0.0), 0);
	/* 2.5 % against 2 %: 0.5 points, but not 3 times */
	assert_int_equal(mess_tail_state_check(NAN, NAN, NAN, NAN, 2.6, 2.0), 0);
	/* no share to judge (the first window, or batches of several loads) */
	assert_int_equal(mess_tail_state_check(3.4, NAN, 3.4, 3.4, NAN, 2.0), 0);
	assert_int_equal(mess_tail_state_check(3.4, NAN, 3.4, 3.4, 2.0, NAN), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cost_own),
		cmocka_unit_test(test_preemption_cut),
		cmocka_unit_test(test_paired_diff),
		cmocka_unit_test(test_l2_cluster),
		cmocka_unit_test(test_state_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
