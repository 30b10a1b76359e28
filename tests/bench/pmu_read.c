// SPDX-License-Identifier: MIT
/*
 * What one counter read costs (mess_counter_read: one read(2) of the
 * count with its enabled and running times), next to a chase window of
 * ~10^5 loads that pays two reads per counter.  Software task-clock here;
 * a hardware or uncore counter's read is the same system call.
 * Median of 11 runs of 20000 reads, in ns.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/clock.h"
#include "core/pmu/pmu.h"
#include "mess/stats.h"

int main(void)
{
	struct mess_counter c;
	struct mess_count v;
	double ns[11];
	char why[512];

	if (mess_counter_open(&c, "perf::task-clock", 0, -1, -1, why, sizeof(why))) {
		fprintf(stderr, "pmu_read: %s\n", why);
		return 3;
	}
	for (int r = 0; r < 11; r++) {
		double t0 = mess_now_ns();

		for (int i = 0; i < 20000; i++)
			if (mess_counter_read(&c, &v))
				return 2;
		ns[r] = (mess_now_ns() - t0) / 20000;
	}
	double lo = ns[0], hi = ns[0];

	for (int r = 1; r < 11; r++) {
		lo = ns[r] < lo ? ns[r] : lo;
		hi = ns[r] > hi ? ns[r] : hi;
	}
	printf("counter read: %.0f ns median (min %.0f, max %.0f) over 11 x 20000 reads of task-clock\n",
	       mess_median(ns, 11), lo, hi);
	mess_counter_close(&c);
	return 0;
}
