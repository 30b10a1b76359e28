/* SPDX-License-Identifier: MIT */
/*
 * The temp directory of the set-loader tests (test_load*.c): a fresh one
 * per test, files put in it by relative name, and a load expected to fail
 * with an error line holding given pieces.  Include after cmocka.h and
 * mess/load.h.
 */
#ifndef MESS_TEST_LOAD_UTIL_H
#define MESS_TEST_LOAD_UTIL_H

#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "mess/messfmt.h"

static char tmp[256];

static inline int rm_entry(const char *path, const struct stat *sb,
			   int flag, struct FTW *ftw)
{
	return remove(path);
}

/* A fresh, empty temp directory for each test. */
static inline int setup(void **state)
{
	snprintf(tmp, sizeof(tmp), "/tmp/test_load.XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static inline int teardown(void **state)
{
	return nftw(tmp, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* tmp/<rel>, made with its directory. */
static inline const char *at(const char *rel)
{
	static char path[4][512];
	static int k;
	char *p = path[k++ % 4], *slash;

	snprintf(p, 512, "%s/%s", tmp, rel);
	slash = strrchr(p, '/');
	if (slash > p + strlen(tmp)) {
		*slash = '\0';
		mkdir(p, 0777);
		*slash = '/';
	}
	return p;
}

static inline void put(const char *rel, const char *text)
{
	FILE *fp = fopen(at(rel), "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* Load tmp/<rel> and expect rc; on success the caller frees f. */
static inline int load(const char *rel, double ghz, struct mess_family *f,
		       struct mess_set_info *in, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	return mess_set_load(rel ? at(rel) : tmp, ghz, f, in, err, errlen);
}

/*
 * Load tmp/<rel>, expect rc and an error line holding each needle (NULL
 * ends them): the file's name, its line number, what is wrong.
 */
static inline void expect_err(const char *rel, double ghz, int rc, ...)
{
	struct mess_family f;
	struct mess_set_info in;
	char err[1024];
	const char *needle;
	va_list ap;
	int ret = load(rel, ghz, &f, &in, err, sizeof(err));

	mess_family_free(&f);
	print_message("  %s -> %d: %s\n", rel ? rel : ".", ret, err);
	assert_int_equal(ret, rc);
	assert_null(strchr(err, '\n'));
	va_start(ap, rc);
	while ((needle = va_arg(ap, const char *)))
		if (!strstr(err, needle))
			fail_msg("'%s' not in '%s'", needle, err);
	va_end(ap);
}

/* A small valid run: curves.csv with two curves. */
#define ROW_0 "0,99.5,1000,1.5,1.5,0,120.5,0.1,3,accounted\n"
#define ROWS ROW_0 \
	"0,99.7,10,100.25,99,1.25,220.5,2.5,3,accounted\n" \
	"50,66.0,1000,2.0,1.3,0.7,125.0,,3,accounted\n"

static inline void write_run(void)
{
	put("run/curves.csv", MESS_CURVES_CSV_HEADER_V1 "\n" ROWS);
}

#endif
