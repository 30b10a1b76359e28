// SPDX-License-Identifier: MIT
/*
 * The disturbance reads shared by the curves and absorb
 * (core/measure/disturb.h), on this machine's real /proc: steal over a list
 * of CPUs counts each CPU once and says why when a CPU's line is missing
 * (absorb's meta.json keeps that error); a kept-open status file is read
 * again from its start.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/measure/disturb.h"

static void steal_each_cpu_once(void **state)
{
	struct mess_steal s;
	const int one[] = { 0 }, twice[] = { 0, 0 };
	uint64_t a, b, c;

	(void)state;
	assert_int_equal(mess_steal_open(&s), 0);
	if (s.fd < 0) {
		/* No /proc/stat here: unknown, with open's reason. */
		assert_true(s.err < 0);
		assert_int_equal(mess_steal_read(&s, one, 1, &a), s.err);
		mess_steal_close(&s);
		skip();
	}
	/* Steal only grows; CPU 0 counted twice would read double its
	 * steal, past the later single reading unless that is 0. */
	assert_int_equal(mess_steal_read(&s, one, 1, &a), 0);
	assert_int_equal(mess_steal_read(&s, twice, 2, &b), 0);
	assert_int_equal(mess_steal_read(&s, one, 1, &c), 0);
	assert_true(a <= b && b <= c);
	assert_int_equal(s.err, 0);
	mess_steal_close(&s);
	assert_int_equal(s.fd, -1);
	assert_null(s.buf);
}

static void steal_missing_cpu(void **state)
{
	struct mess_steal s;
	const int pus[] = { 0, 1 << 20 };
	uint64_t v = 1;
	int err;

	(void)state;
	assert_int_equal(mess_steal_open(&s), 0);
	if (s.fd < 0) {
		mess_steal_close(&s);
		skip();
	}
	err = mess_steal_read(&s, pus, 2, &v);
	assert_true(err < 0);
	assert_int_equal(s.err, err);	/* kept for meta.json */
	/* Closed, the kept reason is what a read says. */
	mess_steal_close(&s);
	assert_int_equal(mess_steal_read(&s, pus, 1, &v), err);
	assert_true(v == 0);
	s.err = 0;
	assert_int_equal(mess_steal_read(&s, pus, 1, &v), -EBADF);
}

static void nivcsw_read_again(void **state)
{
	uint64_t v0, v1;
	int fd = mess_thread_status_open();

	(void)state;
	if (fd == -ENOENT)
		skip();		/* a kernel before /proc/thread-self */
	assert_true(fd >= 0);
	assert_int_equal(mess_thread_nivcsw(fd, &v0), 0);
	usleep(1000);
	/* The same fd again: read from its start, not from where the first
	 * read left it (there it would find nothing). */
	assert_int_equal(mess_thread_nivcsw(fd, &v1), 0);
	assert_true(v1 >= v0);
	close(fd);
	assert_int_equal(mess_thread_nivcsw(-1, &v1), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steal_each_cpu_once),
		cmocka_unit_test(steal_missing_cpu),
		cmocka_unit_test(nivcsw_read_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
