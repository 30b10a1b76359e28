// SPDX-License-Identifier: MIT
/*
 * The one reader of an input file and the one printer of a message that
 * names one (issue 43):
 *  - a kernel file (/proc/self/pagemap: S_ISREG, st_size 0, 256 GiB of
 *    zeros and no newline) is refused at the open by every reader
 *    (mess_open_regular, mess_fopen_regular, the line reader,
 *    mess_json_load): it hung import and report; MESS_IN_KERNEL opens one
 *    (the readers of this machine's sysfs);
 *  - MESS_IN_NOFOLLOW refuses a link, named, where a plain open follows it
 *    (a system.md linking to a secret put it in report.html);
 *  - mess_say prints one line whatever its text holds: ESC, BEL and
 *    newlines as '?', the caller's own line end kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "mess/json.h"
#include "mess/load.h"
#include "mess/parse.h"
#include "load_util.h"

static void expect_has(const char *err, const char *needle)
{
	if (!strstr(err, needle))
		fail_msg("'%s' not in '%s'", needle, err);
}

static void test_kernel_file(void **state)
{
	char err[512];
	struct mess_lines l;
	json_error_t je;
	FILE *fp;
	int fd = -1;

	(void)state;
	assert_int_equal(symlink("/proc/self/pagemap", at("curves.csv")), 0);
	assert_int_equal(mess_open_regular(at("curves.csv"), NULL, 0, &fd, err,
					   sizeof(err)), -EINVAL);
	expect_has(err, "curves.csv: a kernel file (/proc, /sys), not a regular file");
	assert_null(mess_fopen_regular(at("curves.csv"), err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mess_lines_open(&l, at("curves.csv"), err, sizeof(err)),
			 -EINVAL);
	expect_has(err, "a kernel file");
	assert_int_equal(symlink("/proc/self/pagemap", at("meta.json")), 0);
	assert_null(mess_json_load(at("meta.json"), 0, &je));
	expect_has(je.text, "a kernel file");

	/* the machine's own readers may open one */
	fp = mess_fopen_input("/proc/self/status", MESS_IN_KERNEL, err, sizeof(err));
	assert_non_null(fp);
	fclose(fp);
	assert_null(mess_fopen_input("/proc/self/status", 0, err, sizeof(err)));
}

static void test_nofollow(void **state)
{
	char err[512];
	int fd = -1;

	(void)state;
	put("secret", "TOPSECRET\n");
	assert_int_equal(symlink("../secret", at("set/system.md")), 0);
	/* followed by a reader of values, as a tree of links needs */
	assert_int_equal(mess_open_input(at("set/system.md"), 0, NULL, 0, &fd,
					 err, sizeof(err)), 0);
	close(fd);
	assert_int_equal(mess_open_input(at("set/system.md"), MESS_IN_NOFOLLOW,
					 NULL, 0, &fd, err, sizeof(err)), -EINVAL);
	expect_has(err, "set/system.md: a symbolic link, not followed");
	assert_null(mess_fopen_input(at("set/system.md"), MESS_IN_NOFOLLOW, err,
				     sizeof(err)));
	assert_int_equal(errno, EINVAL);
	/* a file of the set itself is read */
	put("set/plotter.txt", "MEM_FREQ=4800\n");
	assert_int_equal(mess_open_input(at("set/plotter.txt"), MESS_IN_NOFOLLOW,
					 NULL, 0, &fd, err, sizeof(err)), 0);
	close(fd);
	/* absent: the errno, for the caller that skips a missing file */
	assert_null(mess_fopen_input(at("set/none"), MESS_IN_NOFOLLOW, err,
				     sizeof(err)));
	assert_int_equal(errno, ENOENT);
}

static void test_say(void **state)
{
	char got[256] = "";
	int saved = dup(2), fd;
	FILE *fp;
	size_t n;

	(void)state;
	fd = open(at("stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	mess_say("mess x: %s: done\n", "a\x1b]0;PWNED\x07\nb\x1b[2J\r");
	mess_say("mess x: no line end given");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	fp = fopen(at("stderr"), "r");
	assert_non_null(fp);
	n = fread(got, 1, sizeof(got) - 1, fp);
	fclose(fp);
	got[n] = '\0';
	assert_string_equal(got, "mess x: a?]0;PWNED??b?[2J?: done\n"
				 "mess x: no line end given\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
		T(test_kernel_file),
		T(test_nofollow),
		T(test_say),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
