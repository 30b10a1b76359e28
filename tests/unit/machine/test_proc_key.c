// SPDX-License-Identifier: MIT
/* mess_proc_key: the one reader of "KEY: value" lines in /proc files
 * (core/util.h), on a file of known lines. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/util.h"

static void test_proc_key(void **state)
{
	char path[] = "/tmp/mess-proc-key-XXXXXX";
	int fd = mkstemp(path);
	unsigned long long v = 7;
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("MemTotal:       24576000 kB\n"
	      "MemAvailableX:  1 kB\n"
	      "MemAvailable:   4567 kB\n"
	      "HugePages_Free:        0\n"
	      "CapEff:\t000001ffffffffff\n"
	      "Broken: kB\n", f);
	fclose(f);
	assert_int_equal(mess_proc_key(path, "MemAvailable", 10, &v), 0);
	assert_int_equal(v, 4567);	/* not MemAvailableX's */
	assert_int_equal(mess_proc_key(path, "HugePages_Free", 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(mess_proc_key(path, "CapEff", 16, &v), 0);
	assert_int_equal(v, 0x1ffffffffffULL);
	assert_int_equal(mess_proc_key(path, "Broken", 10, &v), -EINVAL);
	assert_int_equal(mess_proc_key(path, "Mem", 10, &v), -ENOENT);
	unlink(path);
	assert_int_equal(mess_proc_key(path, "MemAvailable", 10, &v), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
