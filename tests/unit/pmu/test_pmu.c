// SPDX-License-Identifier: MIT
/*
 * The PMU service's open/read/scale path (core/pmu/pmu.c, core/pmu/dram.c) on real
 * kernel counters every Linux has: software events on this thread, whose
 * answers are known (a page touched for the first time is one fault; a
 * software counter is never multiplexed, so it runs whenever it is
 * enabled), and the bytes of a sysfs event's scale and unit.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/pmu/dram.h"
#include "core/pmu/pmu.h"

static void test_software_counts(void **state)
{
	struct mess_counter pf, tc;
	struct mess_count a, b, d;
	char why[512];
	long page = sysconf(_SC_PAGESIZE);
	size_t n = 512;
	double v, frac;
	char *buf;

	if (mess_counter_open(&pf, "perf::page-faults", 0, -1, -1, why, sizeof(why)) ||
	    mess_counter_open(&tc, "perf::task-clock", 0, -1, -1, why, sizeof(why))) {
		/* perf_event_paranoid 3 (some distributions) refuses even this. */
		print_message("SKIPPED: %s\n", why);
		skip();
	}
	buf = mmap(NULL, n * (size_t)page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(buf != MAP_FAILED);
	/* No transparent huge page may fault the lot in at once. */
	madvise(buf, n * (size_t)page, MADV_NOHUGEPAGE);
	assert_int_equal(mess_counter_read(&pf, &a), 0);
	for (size_t i = 0; i < n; i++)
		buf[i * (size_t)page] = 1;
	assert_int_equal(mess_counter_read(&pf, &b), 0);
	assert_int_equal(mess_count_delta(&a, &b, &d), 0);
	assert_int_equal(mess_count_scale(&d, &v, &frac), MESS_COUNT_OK);
	/* One fault per page first touched; a little more: the test's own
	 * stack and code, and under AddressSanitizer a shadow page per 8. */
	assert_true(v >= (double)n && v < 1.25 * (double)n + 64);
	assert_true(frac == 1.0);
	/* Enabled and running advanced together: never multiplexed. */
	assert_true(d.enabled_ns > 0 && d.running_ns == d.enabled_ns);

	/* task-clock counts this thread's time in ns: its count and its
	 * running time agree to within the read's own cost. */
	assert_int_equal(mess_counter_read(&tc, &a), 0);
	for (volatile int i = 0; i < 5000000; i++)
		;
	assert_int_equal(mess_counter_read(&tc, &b), 0);
	assert_int_equal(mess_count_delta(&a, &b, &d), 0);
	assert_int_equal(mess_count_scale(&d, &v, &frac), MESS_COUNT_OK);
	assert_true(v > 0.5 * (double)d.running_ns && v <= 1.05 * (double)d.running_ns + 1e5);

	/* A counter read after it is closed is an error, not a figure. */
	mess_counter_close(&pf);
	assert_int_equal(mess_counter_read(&pf, &a), -EBADF);
	mess_counter_close(&tc);
	munmap(buf, n * (size_t)page);
}

static void test_open_refused(void **state)
{
	struct mess_counter c;
	char why[512] = "";

	/* A libpfm4 name that does not exist: -ENOENT and the event named. */
	assert_int_equal(mess_counter_open(&c, "NO_SUCH_EVENT_ANYWHERE", 0, -1, -1,
					   why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "NO_SUCH_EVENT_ANYWHERE"));
	assert_int_equal(c.fd, -1);
}

static void test_why(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE };
	char why[512];

	mess_pmu_why(-ENOENT, "cycles", &a, why, sizeof(why));
	assert_non_null(strstr(why, "virtual machine"));
	a.type = 42;
	mess_pmu_why(-ENOENT, "amd_umc_0/x/", &a, why, sizeof(why));
	assert_non_null(strstr(why, "kernel has no such PMU"));
	a.exclude_kernel = 0;
	mess_pmu_why(-EACCES, "amd_umc_0/x/", &a, why, sizeof(why));
	assert_non_null(strstr(why, "perf_event_paranoid"));
	assert_non_null(strstr(why, "CAP_PERFMON"));
	mess_pmu_why(-EMFILE, "x", &a, why, sizeof(why));
	assert_non_null(strstr(why, "ulimit -n"));
}

static void test_unit_bytes(void **state)
{
	/* Intel's IMC events: 6.103515625e-5 MiB is one 64-byte line. */
	assert_true(mess_dram_unit_bytes(6.103515625e-5, "MiB") == 64.0);
	assert_true(mess_dram_unit_bytes(32, "B") == 32.0);
	assert_true(mess_dram_unit_bytes(1, "") == 1.0);
	assert_true(mess_dram_unit_bytes(1e-6, "MB") == 1.0);
	assert_true(isnan(mess_dram_unit_bytes(1, "Joules")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_software_counts),
		cmocka_unit_test(test_open_refused),
		cmocka_unit_test(test_why),
		cmocka_unit_test(test_unit_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
