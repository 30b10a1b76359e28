// SPDX-License-Identifier: MIT
/*
 * The family plot: curves.dat is always written; the images only where
 * gnuplot is installed (it is optional), so that part skips without it.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
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

#include "mess/curve.h"
#include "core/report/plot.h"
#include "core/util.h"

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char buf[4096], *dup, *dir, *save = NULL;
	int found = 0;

	if (!path)
		return !access("/usr/bin/gnuplot", X_OK);
	dup = strdup(path);
	assert_non_null(dup);
	for (dir = strtok_r(dup, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, sizeof(buf), "%s/gnuplot", dir);
		found = !access(buf, X_OK);
	}
	free(dup);
	return found;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

static void test_plot_family(void **state)
{
	char tmpl[] = "/tmp/test_plot.XXXXXX";
	char path[512], line[256], err[256];
	unsigned char invalid[MESS_PLOT_MIXES] = { 0 };
	struct mess_family f = { 0 };
	long store_seen[4];
	int bad_rows = 0, flagged_rows = 0;
	int k, blocks = 0, rows = 0, ret;
	uint32_t store;
	char *dir = mkdtemp(tmpl);
	FILE *fp;

	assert_non_null(dir);
	/* Store shares 0, 50, 100 % with their read shares; one empty curve. */
	for (store = 0; store <= 100; store += 50) {
		struct mess_curve *c = mess_family_curve(&f, store,
							 100.0 - store * 0.6);

		assert_non_null(c);
		for (k = 0; k < 8; k++) {
			struct mess_point p = {
				.store_pct = store,
				.nop = 1000u >> k,
				.bw_gbs = 20.0 * k * (1.0 - store / 300.0),
				.lat_ns = 100.0 + 3.0 * k * k + store / 10.0,
			};

			assert_int_equal(mess_curve_add(c, &p), 0);
		}
	}
	assert_non_null(mess_family_curve(&f, 25, 80.0));

	/* Nothing to draw is an error of its own, not a gnuplot failure. */
	{
		struct mess_family empty = { 0 };

		assert_non_null(mess_family_curve(&empty, 0, 100.0));
		assert_int_equal(mess_plot(dir, &empty, 100.0, 0.0, NULL, NULL, err,
					   sizeof(err)), -ENODATA);
		assert_non_null(strstr(err, "no points"));
		mess_family_free(&empty);
	}

	/* curves.gp comes from the data make stages in build/<arch>/share/mess
	 * (or from $MESS_DATADIR): nothing is read from the source tree. */
	/* The 50 % mix INVALID as a whole: grey, its points not ringed. */
	invalid[50] = 1;
	f.curves[1].pts[3].flags = 1;
	ret = mess_plot(dir, &f, 100.0, 150.0,
			"synthetic 'family' [test]\nsecond line: host, date",
			invalid, err, sizeof(err));
	print_message("mess_plot: %d %s\n", ret, err);

	snprintf(path, sizeof(path), "%s/plots/curves.dat", dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		double bw, lat, rd;
		long st;
		int fl, bad;

		if (!strncmp(line, "# curve", 7)) {
			blocks++;
		} else if (line[0] != '#' && line[0] != '\n') {
			rows++;
			assert_int_equal(sscanf(line, "%lf %lf %lf %ld %d %d", &bw,
						&lat, &rd, &st, &fl, &bad), 6);
			if (blocks <= 3)
				store_seen[blocks - 1] = st;
			bad_rows += bad;
			flagged_rows += fl;
			assert_int_equal(bad, st == 50);
		}
	}
	fclose(fp);
	/* The empty curve gets no block: it would shift gnuplot's indices. */
	assert_int_equal(blocks, 3);
	assert_int_equal(rows, 24);
	/* Bandwidth order, store % rising, whatever the read shares; the
	 * INVALID mix's rows all say so and none is ringed. */
	assert_int_equal(store_seen[0], 0);
	assert_int_equal(store_seen[1], 50);
	assert_int_equal(store_seen[2], 100);
	assert_int_equal(bad_rows, 8);
	assert_int_equal(flagged_rows, 0);

	if (!have_gnuplot()) {
		assert_int_equal(ret, -ENOENT);
		mess_family_free(&f);
		nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
		print_message("gnuplot not installed: image check skipped\n");
		skip();
	}
	assert_int_equal(ret, 0);
	snprintf(path, sizeof(path), "%s/plots/curves.png", dir);
	assert_true(file_size(path) > 1000);
	snprintf(path, sizeof(path), "%s/plots/curves.svg", dir);
	assert_true(file_size(path) > 1000);
	/* What a reader of the figure needs is in its text: both title
	 * lines, the axes, one named series per read share, the lines. */
	{
		static const char *const want[] = {
			"synthetic 'family' [test]", "second line: host, date",
			"Memory bandwidth [GB/s]", "Load-to-use latency [ns]",
			"<title>0 % stores</title>", "<title>50 % stores (INVALID)</title>",
			"<title>100 % stores</title>", "theoretical peak 150 GB/s",
			"unloaded 100 ns", "unloaded: 200 ns (saturation)",
		};
		char *svg = NULL;
		size_t n = 0;

		fp = fopen(path, "r");
		assert_non_null(fp);
		assert_true(getdelim(&svg, &n, '\0', fp) > 0);
		fclose(fp);
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			if (!strstr(svg, want[i]))
				print_message("curves.svg lacks '%s'\n", want[i]);
			assert_non_null(strstr(svg, want[i]));
		}
		/* No unnamed series: every one has its share's name. */
		assert_null(strstr(svg, "<title>gnuplot_plot_"));
		free(svg);
	}

	/* Without an unloaded latency the plot still renders. */
	assert_int_equal(mess_plot(dir, &f, 0.0, 0.0, NULL, NULL, err,
				   sizeof(err)), 0);

	mess_family_free(&f);
	nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/*
 * $MESS_DATADIR, when set, is the only place looked at; without it this
 * binary (build/<arch>/tests/) finds the data make staged in
 * build/<arch>/share/mess as <its dir>/../share/mess, the way an installed
 * <prefix>/bin/mess finds <prefix>/share/mess.
 */
static void test_data_file(void **state)
{
	char dir[] = "/tmp/mess-datadir-XXXXXX", want[PATH_MAX], path[PATH_MAX];
	FILE *fp;

	assert_non_null(mkdtemp(dir));
	snprintf(want, sizeof(want), "%s/x.tsv", dir);
	fp = fopen(want, "w");
	assert_non_null(fp);
	fclose(fp);

	setenv("MESS_DATADIR", dir, 1);
	assert_int_equal(mess_data_file("x.tsv", path, sizeof(path)), 0);
	assert_string_equal(path, want);
	assert_int_equal(mess_data_file("plots/curves.gp", path, sizeof(path)),
			 -ENOENT);
	/* A buffer too small is an error, never a truncated path. */
	assert_int_equal(mess_data_file("x.tsv", path, 8), -ENAMETOOLONG);

	unsetenv("MESS_DATADIR");
	assert_int_equal(mess_data_file("x.tsv", path, sizeof(path)), -ENOENT);
	assert_int_equal(mess_data_file("plots/curves.gp", path, sizeof(path)),
			 0);
	assert_non_null(strstr(path, "/share/mess/plots/curves.gp"));

	remove(want);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_file),
		cmocka_unit_test(test_plot_family),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
