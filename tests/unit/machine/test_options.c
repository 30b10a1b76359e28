// SPDX-License-Identifier: MIT
/*
 * The option engine (core/options.h, core/numbers.c, core/rundir/outdir.h): one
 * number grammar, exact integers, one list rule, empty values and control
 * characters refused, --out refused when it can never hold a run; every
 * error one line naming the option.
 */
#include <errno.h>
#include <limits.h>
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

#include "core/options.h"
#include "core/rundir/outdir.h"

static void integers(void **state)
{
	static const struct {
		const char *s;
		int rc;
		uint64_t v;
	} cases[] = {
		{ "0", 0, 0 },
		{ "007", 0, 7 },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "9007199254740993", 0, 9007199254740993ULL },	/* 2^53 + 1 */
		{ "1e3", 0, 1000 },
		{ "1E3", 0, 1000 },
		{ "1.5e3", 0, 1500 },
		{ "1e+3", 0, 1000 },
		{ "1e19", 0, 10000000000000000000ULL },
		{ "10000000000000000000000e-3", 0, 10000000000000000000ULL },
		{ "0000000000000000000000000000000000000000000000000000000000000000000000001", 0, 1 },
		{ "0e999999999999", 0, 0 },
		{ "0.0", 0, 0 },
		{ "18446744073709551616", -ERANGE, 0 },
		{ "1e20", -ERANGE, 0 },
		{ "1e999999999999", -ERANGE, 0 },
		{ "123456789012345678901234567890", -ERANGE, 0 },
		{ "1.5", -EINVAL, 0 },
		{ "1e-400", -EINVAL, 0 },
		{ "0x10", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },
		{ "1 ", -EINVAL, 0 },
		{ "+1", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 },
		{ "-0", -EINVAL, 0 },
		{ ".", -EINVAL, 0 },
		{ "e5", -EINVAL, 0 },
		{ "1e", -EINVAL, 0 },
		{ "1e+", -EINVAL, 0 },
		{ "inf", -EINVAL, 0 },
		{ "nan", -EINVAL, 0 },
		{ "1K", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int rc = mess_opt_u64(cases[i].s, &v);

		/* A refused value leaves v alone. */
		if (rc != cases[i].rc || (!rc && v != cases[i].v) ||
		    (rc && v != 12345))
			fail_msg("'%s': %d %llu, want %d %llu", cases[i].s, rc,
				 (unsigned long long)v, cases[i].rc,
				 (unsigned long long)cases[i].v);
	}
}

static void signed_integers(void **state)
{
	int64_t v;

	assert_int_equal(mess_opt_i64("-9223372036854775808", &v), 0);
	assert_true(v == INT64_MIN);
	assert_int_equal(mess_opt_i64("9223372036854775807", &v), 0);
	assert_true(v == INT64_MAX);
	assert_int_equal(mess_opt_i64("-9223372036854775809", &v), -ERANGE);
	assert_int_equal(mess_opt_i64("9223372036854775808", &v), -ERANGE);
	assert_int_equal(mess_opt_i64("-0", &v), 0);
	assert_true(v == 0);
	assert_int_equal(mess_opt_i64("-1.55e1", &v), -EINVAL);
	assert_int_equal(mess_opt_i64("-2.55e1", &v), -EINVAL);
	assert_int_equal(mess_opt_i64("-2e1", &v), 0);
	assert_true(v == -20);
	assert_int_equal(mess_opt_i64("--1", &v), -EINVAL);
}

static void doubles(void **state)
{
	static const struct {
		const char *s;
		int rc;
		double v;
	} cases[] = {
		{ "0.25", 0, 0.25 },
		{ ".5", 0, 0.5 },
		{ "5.", 0, 5 },
		{ "-0", 0, 0 },
		{ "1e-3", 0, 1e-3 },
		{ "2.5E+2", 0, 250 },
		{ "1e-400", -ERANGE, 0 },	/* underflow, never 0 */
		{ "1e-310", -ERANGE, 0 },	/* subnormal */
		{ "1e400", -ERANGE, 0 },
		{ "0e-400", 0, 0 },
		{ "inf", -EINVAL, 0 },
		{ "nan", -EINVAL, 0 },
		{ "0x1p3", -EINVAL, 0 },
		{ "+1", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },
		{ "1,5", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = -1;
		int rc = mess_opt_double(cases[i].s, &v);

		if (rc != cases[i].rc || (!rc && v != cases[i].v) ||
		    (rc && v != -1))
			fail_msg("'%s': %d %g, want %d %g", cases[i].s, rc, v,
				 cases[i].rc, cases[i].v);
	}
}

static void sizes(void **state)
{
	static const struct {
		const char *s;
		int rc;
		uint64_t v;
	} cases[] = {
		{ "4096", 0, 4096 },
		{ "64B", 0, 64 },
		{ "1k", 0, 1024 },
		{ "1KiB", 0, 1024 },
		{ "1.5G", 0, 3ULL << 29 },
		{ "2.5e2K", 0, 256000 },
		{ "0.0009765625K", 0, 1 },
		{ "16T", 0, 1ULL << 44 },
		{ "16383.999999999999999999T", -ERANGE, 0 },	/* too many digits */
		{ "16777215T", 0, 16777215ULL << 40 },
		{ "16777216T", -ERANGE, 0 },
		{ "1.00000000001K", -EINVAL, 0 },
		{ "0.5", -EINVAL, 0 },
		{ "1e-400", -EINVAL, 0 },
		{ "1e-400G", -EINVAL, 0 },
		{ "0x100000", -EINVAL, 0 },
		{ "1Q", -EINVAL, 0 },
		{ "1E", -EINVAL, 0 },
		{ "1Ki", 0, 1024 },
		{ "1iB", -EINVAL, 0 },
		{ "1GG", -EINVAL, 0 },
		{ "-1G", -EINVAL, 0 },
		{ "G", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int rc = mess_opt_size(cases[i].s, &v);

		if (rc != cases[i].rc || (!rc && v != cases[i].v) ||
		    (rc && v != 12345))
			fail_msg("'%s': %d %llu, want %d %llu", cases[i].s, rc,
				 (unsigned long long)v, cases[i].rc,
				 (unsigned long long)cases[i].v);
	}
}

static void lists(void **state)
{
	static const struct {
		const char *s;
		int max, limit, step, rc, n;
		const char *why;	/* a part of it */
	} cases[] = {
		{ "0-3,8", 16, 16, 1, 0, 5, NULL },
		{ "0-4,10", 51, 101, 2, 0, 4, NULL },
		{ "1e1", 16, 16, 1, 0, 1, NULL },
		{ "1,1", 16, 16, 1, -EINVAL, 0, "'1' is given twice" },
		{ "0-3,2", 16, 16, 1, -EINVAL, 0, "'2' is given twice" },
		{ "0-100,0-100", 51, 101, 2, -EINVAL, 0, "'0' is given twice" },
		{ "1,", 16, 16, 1, -EINVAL, 0, "an empty item" },
		{ ",1", 16, 16, 1, -EINVAL, 0, "an empty item" },
		{ "1,,2", 16, 16, 1, -EINVAL, 0, "an empty item" },
		{ ",", 16, 16, 1, -EINVAL, 0, "an empty item" },
		{ "", 16, 16, 1, -EINVAL, 0, "an empty list" },
		{ "3", 51, 101, 2, -EINVAL, 0, "not a multiple of 2" },
		{ "3-1", 16, 16, 1, -EINVAL, 0, "runs backwards" },
		{ "16", 16, 16, 1, -ERANGE, 0, "out of range (at most 15)" },
		{ "0-9", 5, 16, 1, -ERANGE, 0, "too many values (at most 5)" },
		{ "x", 16, 16, 1, -EINVAL, 0, "'x' is not a whole number" },
		{ "-1", 16, 16, 1, -EINVAL, 0, "not a whole number" },
		{ "1-", 16, 16, 1, -EINVAL, 0, "not a whole number" },
		{ "0x1", 16, 16, 1, -EINVAL, 0, "not a whole number" },
		{ " 1", 16, 16, 1, -EINVAL, 0, "not a whole number" },
		{ "99999999999999999999999", 16, 16, 1, -EINVAL, 0, "not a whole number" },
		{ "0000000000000000000000000000000000000000000000000000000000000000000000001",
		  16, 16, 1, -EINVAL, 0, "is too long (73 characters; at most 63)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int out[64], n = -1, rc;
		char why[160] = "";

		rc = mess_parse_list(cases[i].s, out, cases[i].max,
				     cases[i].limit, cases[i].step, &n, why,
				     sizeof(why));
		if (rc != cases[i].rc || (!rc && n != cases[i].n) ||
		    (cases[i].why && !strstr(why, cases[i].why)))
			fail_msg("'%s': %d n %d '%s'", cases[i].s, rc, n, why);
	}
}

static int item_word(const char *w, void *ctx, double *v)
{
	static const char *const words[] = { "a", "bb", "ccc" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(w, words[i])) {
			*v = (double)i;
			return 0;
		}
	return -EINVAL;
}

static void items(void **state)
{
	static const struct mess_items it = { "words", item_word, NULL,
					      "is not a word", "a, bb or ccc" };
	static const struct {
		const char *s;
		int n;
		const char *err;
	} cases[] = {
		{ "a,bb,ccc", 3, NULL },
		{ "bb", 1, NULL },
		{ "a,", -1, "--words: 'a,' has an empty item; allowed: a, bb or ccc" },
		{ "a,,bb", -1, "has an empty item" },
		{ "a,a", -1, "--words: 'a' is given twice" },
		{ "a,d", -1, "--words: 'd' is not a word; allowed: a, bb or ccc" },
		{ "a,bb,ccc,a", -1, "--words: too many values (at most 3)" },
		{ "a\nb", -1, "'a\\nb' is not a word" },
		{ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		  -1, "is too long (79 characters; at most 63)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v[3];
		char err[256] = "";
		int n = 0, rc = mess_parse_items(&it, cases[i].s, v, 3, &n, err,
						 sizeof(err));

		if ((cases[i].n < 0) != (rc != 0) || (!rc && n != cases[i].n) ||
		    (cases[i].err && !strstr(err, cases[i].err)) ||
		    strchr(err, '\n'))
			fail_msg("'%s': %d n %d '%s'", cases[i].s, rc, n, err);
	}
}

struct cfg {
	char out[64];
	uint64_t seed, size;
	int64_t core;
	double ms;
	int flag;
};

#define F(field) MESS_OPT_F(struct cfg, field)
#define S(field) MESS_OPT_S(struct cfg, field)

static const struct mess_opt table[] = {
	{ "out", MESS_OPT_STR, S(out), 0, 0, "DIR", "run directory" },
	{ "seed", MESS_OPT_UINT, F(seed), 0, 0, (double)UINT64_MAX, "N", "seed" },
	{ "size", MESS_OPT_SIZE, F(size), 64, 64, 1 << 20, "BYTES", "size" },
	{ "core", MESS_OPT_INT, F(core), 0, -5, 4095, "N", "core" },
	{ "ms", MESS_OPT_DOUBLE, F(ms), 0, 1, 100, "MS", "time" },
	{ "flag", MESS_OPT_FLAG, F(flag), 0, 0, 0, NULL, "a flag" },
};

static int parse(struct cfg *c, const char *a, const char *b, char *err,
		 size_t errlen)
{
	char *argv[] = { "mess", (char *)a, (char *)b, NULL };

	memset(c, 0, sizeof(*c));
	err[0] = 0;
	return mess_opts_parse(table, sizeof(table) / sizeof(table[0]), c,
			       b ? 3 : 2, argv, err, errlen);
}

static void engine(void **state)
{
	static const struct {
		const char *a, *b;
		const char *err;	/* NULL: accepted */
	} cases[] = {
		{ "--seed", "18446744073709551615", NULL },
		{ "--seed=9007199254740993", NULL, NULL },
		{ "--seed", "18446744073709551616",
		  "--seed: '18446744073709551616' is not allowed; allowed: an integer from 0 to 18446744073709551615" },
		{ "--size", "1K", NULL },
		{ "--size", "100", "--size: '100' is not allowed; allowed: a multiple of 64 bytes from 64 to 1048576" },
		{ "--core", "-5", NULL },
		{ "--core", "-6", "allowed: an integer from -5 to 4095" },
		{ "--ms", "1e-400", "--ms: '1e-400' is not allowed; allowed: a number from 1 to 100" },
		{ "--out", "", "--out: an empty value is not allowed; allowed: DIR, run directory" },
		{ "--out=", NULL, "--out: an empty value is not allowed" },
		{ "--seed=", NULL, "--seed: an empty value is not allowed; allowed: an integer" },
		{ "--out", "a\nb", "--out: 'a\\nb' has a control character" },
		{ "--out", "a\rb", "--out: 'a\\rb' has a control character" },
		{ "--out", "a\x1b[2J", "--out: 'a\\x1b[2J' has a control character" },
		{ "--ms", "5\n", "--ms: '5\\n' has a control character" },
		{ "--out", "0123456789012345678901234567890123456789012345678901234567890123",
		  "--out: value too long (at most 63 characters)" },
		{ "--b\nogus", NULL, "unknown option '--b\\nogus'" },
		{ "str\nay", NULL, "unexpected argument 'str\\nay'" },
		{ "--flag=1", NULL, "--flag takes no value" },
		{ "--ms", NULL, "--ms needs a value (MS)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cfg c;
		char err[512];
		int rc = parse(&c, cases[i].a, cases[i].b, err, sizeof(err));

		if ((rc != 0) != (cases[i].err != NULL) ||
		    (cases[i].err && !strstr(err, cases[i].err)) ||
		    strchr(err, '\n'))
			fail_msg("%s %s: %d '%s'", cases[i].a,
				 cases[i].b ? cases[i].b : "", rc, err);
	}
	{
		struct cfg c;
		char err[256];

		assert_int_equal(parse(&c, "--seed", "18446744073709551615", err, sizeof(err)), 0);
		assert_true(c.seed == UINT64_MAX);
		assert_int_equal(parse(&c, "--seed", "9007199254740993", err, sizeof(err)), 0);
		assert_true(c.seed == 9007199254740993ULL);
	}
}

static void quote(void **state)
{
	char buf[16];

	mess_opt_quote("a\tb\x01", SIZE_MAX, buf, sizeof(buf));
	assert_string_equal(buf, "a\\tb\\x01");
	mess_opt_quote("abcdefghijklmnopqrstuvwxyz", SIZE_MAX, buf, sizeof(buf));
	assert_string_equal(buf, "abcdefghijkl...");
	mess_opt_quote("abc,def", 3, buf, sizeof(buf));
	assert_string_equal(buf, "abc");
	mess_opt_quote("", SIZE_MAX, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

/* How many entries dir holds: the check leaves its probe behind never. */
static int entries(const char *dir)
{
	char cmd[PATH_MAX + 32];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	if (!p || fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void out_dir(void **state)
{
	char base[] = "/tmp/mess-test-out.XXXXXX", path[PATH_MAX + 400],
	     err[PATH_MAX + 600], cmd[PATH_MAX + 32];
	FILE *f;

	assert_non_null(mkdtemp(base));
	snprintf(path, sizeof(path), "%s/file", base);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	/* A new directory, or one that exists, empty or not. */
	snprintf(path, sizeof(path), "%s/new/deeper", base);
	assert_int_equal(mess_out_check("out", path, err, sizeof(err)), 0);
	assert_int_equal(mess_out_check("out", base, err, sizeof(err)), 0);
	assert_int_equal(entries(base), 1);
	snprintf(path, sizeof(path), "%s/file", base);
	assert_int_equal(mess_out_check("out", path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/file: a file, not a directory; allowed: a new or empty directory you can write"));
	assert_int_equal(strncmp(err, "--out: ", 7), 0);
	snprintf(path, sizeof(path), "%s/file/run", base);
	assert_int_equal(mess_out_check("out", path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/file is a file, not a directory"));
	assert_int_equal(mess_out_check("out", "/dev/null", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--out: /dev/null: a device, not a directory"));
	assert_int_equal(mess_out_check("out", "/proc/self/x", err, sizeof(err)), -EINVAL);
	assert_int_equal(mess_out_check("out", "", err, sizeof(err)), -EINVAL);
	assert_int_equal(mess_out_check("out", "a\nb", err, sizeof(err)), -EINVAL);
	assert_null(strchr(err, '\n'));
	snprintf(path, sizeof(path), "%s/%0300d", base, 0);
	assert_int_equal(mess_out_check("out", path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "File name too long"));
	snprintf(path, sizeof(path), "%s/dangling", base);
	assert_int_equal(symlink("/nonexistent/mess", path), 0);
	assert_int_equal(mess_out_check("out", path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "a link to nothing"));
	/* Nothing made: neither the new directory nor a probe. */
	assert_int_equal(entries(base), 2);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(integers),
		cmocka_unit_test(signed_integers),
		cmocka_unit_test(doubles),
		cmocka_unit_test(sizes),
		cmocka_unit_test(lists),
		cmocka_unit_test(items),
		cmocka_unit_test(engine),
		cmocka_unit_test(quote),
		cmocka_unit_test(out_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
