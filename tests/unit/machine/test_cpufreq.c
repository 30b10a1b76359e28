// SPDX-License-Identifier: MIT
/* mess_cpufreq_cpuinfo_ghz: the nominal clock /proc/cpuinfo states where
 * sysfs has none (issue 35: a VM whose /proc/cpuinfo says 2100 MHz had its
 * nominal clock "unknown"), on files of known lines. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/machine/cpufreq.h"

static double read_text(const char *text, const char **what)
{
	char path[] = "/tmp/mess-cpuinfo-XXXXXX";
	int fd = mkstemp(path);
	double ghz;
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	ghz = mess_cpufreq_cpuinfo_ghz(path, what);
	unlink(path);
	return ghz;
}

/* A VM: no clock in the model name, the hypervisor's in cpu MHz. */
static void test_vm_cpu_mhz(void **state)
{
	const char *what;
	double g = read_text("processor\t: 0\n"
			     "vendor_id\t: AuthenticAMD\n"
			     "model name\t: AMD EPYC\n"
			     "cpu MHz\t\t: 2100.000\n"
			     "processor\t: 1\n"
			     "model name\t: AMD EPYC\n"
			     "cpu MHz\t\t: 2350.000\n", &what);

	(void)state;
	assert_true(fabs(g - 2.1) < 1e-9);	/* the first CPU's */
	assert_non_null(what);
	assert_non_null(strstr(what, "cpu MHz"));
}

/* Intel's base clock in the model name comes before cpu MHz (on a host
 * that one is the current clock, turbo included). */
static void test_model_name_first(void **state)
{
	const char *what;
	double g = read_text("model name\t: Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz\n"
			     "cpu MHz\t\t: 3800.123\n", &what);

	(void)state;
	assert_true(fabs(g - 2.0) < 1e-9);
	assert_string_equal(what, "/proc/cpuinfo model name");
}

/* An Arm cpuinfo says neither: unknown, not 0. */
static void test_neither(void **state)
{
	const char *what = "x";
	double g = read_text("processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd4f\n"
			     "cpu MHz\t\t: broken\n", &what);

	(void)state;
	assert_true(isnan(g));
	assert_null(what);
	assert_true(isnan(mess_cpufreq_cpuinfo_ghz("/nonexistent/cpuinfo", &what)));
	assert_null(what);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vm_cpu_mhz),
		cmocka_unit_test(test_model_name_first),
		cmocka_unit_test(test_neither),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
