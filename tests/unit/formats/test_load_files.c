// SPDX-License-Identifier: MIT
/*
 * What every reader opens, and the raw Mess tree's names and figures
 * (issue 31):
 *  - mess_open_regular / mess_json_load / the line reader take regular
 *    files only: a FIFO is refused at once (it hung import, report,
 *    compare and --replay), a link to /dev/zero is "a device" (it read
 *    until memory ran out), a directory "a directory", and a file past
 *    the cap is refused before it is read;
 *  - a UTF-8 byte order mark before the first line is no part of it
 *    (plotter.txt's first key was ignored; a bwlat file and curves.csv);
 *  - the raw tree's files are read by the names the directory has
 *    (bw_0_0100.txt, bw_050_100.txt), two names of one point are
 *    refused, a read ratio is named as written with its directory;
 *  - plotter.txt values no machine has (TLB_NS=1000, CACHE_LINE_SIZE=1e300,
 *    CPU_FREQ=1e9) are refused with key, value and range, and a point
 *    whose figures the suite's readers would refuse is never returned.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
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
#include "mess/messraw.h"
#include "mess/messraw_perf.h"
#include "mess/parse.h"
#include "load_util.h"

static void expect_has(const char *err, const char *needle)
{
	if (!strstr(err, needle))
		fail_msg("'%s' not in '%s'", needle, err);
}

static void test_open_regular(void **state)
{
	char err[512];
	int fd = -1;
	json_error_t je;
	FILE *fp;

	(void)state;
	put("f.txt", "x\n");
	assert_int_equal(mess_open_regular(at("f.txt"), NULL, 0, &fd, err, sizeof(err)), 0);
	/* blocking again: a reader of a file never sees EAGAIN */
	assert_false(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);

	/* a FIFO nobody writes: refused at once, never waited on */
	assert_int_equal(mkfifo(at("fifo"), 0600), 0);
	assert_int_equal(mess_open_regular(at("fifo"), NULL, 0, &fd, err, sizeof(err)), -EINVAL);
	expect_has(err, "fifo: a pipe, not a regular file");
	fp = mess_fopen_regular(at("fifo"), err, sizeof(err));
	assert_null(fp);
	assert_int_equal(errno, EINVAL);
	assert_null(mess_json_load(at("fifo"), 0, &je));
	assert_string_equal(je.text, "a pipe, not a regular file");

	/* a link to /dev/zero: a device, whatever its name */
	assert_int_equal(symlink("/dev/zero", at("zero.json")), 0);
	assert_int_equal(mess_open_regular(at("zero.json"), "a perf.data file", 0, &fd,
					   err, sizeof(err)), -EINVAL);
	expect_has(err, "zero.json: a device; allowed: a perf.data file");
	assert_null(mess_json_load(at("zero.json"), 0, &je));

	/* a directory */
	mkdir(at("d/"), 0777);
	assert_int_equal(mess_open_regular(at("d"), NULL, 0, &fd, err, sizeof(err)), -EISDIR);
	expect_has(err, "d: a directory, not a regular file");

	/* past the cap: refused by its size, never read */
	put("big.txt", "0123456789\n");
	assert_int_equal(mess_open_regular(at("big.txt"), NULL, 10, &fd, err, sizeof(err)), -EFBIG);
	expect_has(err, "big.txt: 11 bytes, more than a reader of mess takes");
	assert_int_equal(mess_open_regular(at("big.txt"), NULL, 11, &fd, err, sizeof(err)), 0);
	close(fd);

	/* absent: the errno, as before */
	assert_int_equal(mess_open_regular(at("none"), NULL, 0, &fd, err, sizeof(err)), -ENOENT);
	expect_has(err, "none: No such file or directory");
}

/* A UTF-8 BOM before the first line: an editor's, not the first key's. */
static void test_bom(void **state)
{
	struct mess_family f;
	struct mess_set_info in;
	struct mess_lines l;
	char err[512];

	(void)state;
	put("bom.txt", "\xef\xbb\xbfKEY=1\n\xef\xbb\xbfsecond\n");
	assert_int_equal(mess_lines_open(&l, at("bom.txt"), err, sizeof(err)), 0);
	assert_int_equal(mess_lines_next(&l, err, sizeof(err)), 1);
	assert_string_equal(l.line, "KEY=1");
	/* only the first line's: later bytes are the file's own */
	assert_int_equal(mess_lines_next(&l, err, sizeof(err)), 1);
	assert_string_equal(l.line, "\xef\xbb\xbfsecond");
	mess_lines_close(&l);

	put("b/bwlat_50.txt", "\xef\xbb\xbf" "1000 120\n2000 130\n");
	assert_int_equal(load("b", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(f.curves[0].n, 2);
	mess_family_free(&f);
}

/* ---- a small raw Mess tree ---- */

static void raw_point(const char *tree, const char *bwname, double rd,
		      double wr, double r1012)
{
	char rel[256], text[1024];

	snprintf(rel, sizeof(rel), "%s/bw/%s", tree, bwname);
	snprintf(text, sizeof(text),
		 " Performance counter stats for system wide:\n\n"
		 "S0 10 %.0f unc_m_cas_count.rd\nS0 10 %.0f unc_m_cas_count.wr\n\n"
		 " 0.300000000 seconds time elapsed\n", rd, wr);
	put(rel, text);
	snprintf(rel, sizeof(rel), "%s/lat/lat_%s", tree, bwname + 3);
	snprintf(text, sizeof(text),
		 " Performance counter stats for process id '1':\n\n"
		 " 600000000 cycles\n 3000000 accesses\n %.0f r1012\n\n"
		 " 0.300000000 seconds time elapsed\n", r1012);
	put(rel, text);
}

static void raw_tree(const char *tree, const char *plotter)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "%s/", tree);
	mkdir(at(rel), 0777);
	snprintf(rel, sizeof(rel), "%s/plotter.txt", tree);
	put(rel, plotter);
}

static int raw(const char *tree, struct mess_family *f, struct mess_raw *r,
	       char *err, size_t errlen)
{
	int ret;

	memset(f, 0, sizeof(*f));
	err[0] = '\0';
	/* the reading, not Mess's thinning: a one-point share is kept */
	ret = mess_raw_read_as(at(tree), MESS_RAW_MESS_GROUPS, f, r, err, errlen);
	print_message("  %s -> %d: %s\n", tree, ret, err);
	return ret;
}

static void test_raw_names(void **state)
{
	struct mess_family f;
	struct mess_raw r;
	char err[1024];

	(void)state;
	/* a pause written with a leading zero: read by its own name */
	raw_tree("z", "CPU_FREQ=2.0\n");
	raw_point("z", "bw_0_0100.txt", 1e8, 1e8, 0);
	assert_int_equal(raw("z", &f, &r, err, sizeof(err)), 0);
	assert_int_equal(r.points, 1);
	assert_int_equal(f.curves[0].pts[0].nop, 100);
	mess_family_free(&f);
	/* and beside bw_0_100.txt: two names of one point, refused */
	raw_point("z", "bw_0_100.txt", 1e8, 1e8, 0);
	assert_int_equal(raw("z", &f, &r, err, sizeof(err)), -EINVAL);
	expect_has(err, "z/bw: bw_0_0100.txt and bw_0_100.txt name one point (read ratio 0, pause 100)");
	mess_family_free(&f);

	/* only bw_050_100.txt (and lat_050_100.txt): no bw_50_100.txt */
	raw_tree("y", "CPU_FREQ=2.0\n");
	raw_point("y", "bw_050_100.txt", 1e8, 1e8, 0);
	assert_int_equal(raw("y", &f, &r, err, sizeof(err)), 0);
	assert_int_equal(f.curves[0].store_pct, 50);
	mess_family_free(&f);

	/* a read ratio as written, with its directory */
	raw_tree("x", "CPU_FREQ=2.0\n");
	raw_point("x", "bw_-1_100.txt", 1e8, 1e8, 0);
	assert_int_equal(raw("x", &f, &r, err, sizeof(err)), -EINVAL);
	expect_has(err, "x/bw: bw_-1_100.txt: read ratio '-1' is not 0..100");
	assert_null(strstr(err, "4294967295"));
	mess_family_free(&f);

	/* a FIFO among the files: refused, named, never waited on */
	raw_tree("w", "CPU_FREQ=2.0\n");
	raw_point("w", "bw_0_100.txt", 1e8, 1e8, 0);
	mkdir(at("w/lat/"), 0777);
	unlink(at("w/lat/lat_0_100.txt"));
	assert_int_equal(mkfifo(at("w/lat/lat_0_100.txt"), 0600), 0);
	assert_int_equal(raw("w", &f, &r, err, sizeof(err)), -EINVAL);
	expect_has(err, "w/lat/lat_0_100.txt: a pipe, not a regular file");
	mess_family_free(&f);
}

static void test_raw_values(void **state)
{
	static const struct {
		const char *plotter, *what;
	} bad[] = {
		{ "TLB_NS=1000\n", "plotter.txt:1: TLB_NS beyond any TLB hit: 1000 (allowed: 0..100 ns)" },
		{ "CACHE_LINE_SIZE=1e300\n", "plotter.txt:1: CACHE_LINE_SIZE beyond any cache line: 1e+300 (allowed: 16..1024 bytes)" },
		{ "CACHE_LINE_SIZE=0.5\n", "CACHE_LINE_SIZE below any cache line: 0.5" },
		{ "CPU_FREQ=1e9\n", "plotter.txt:1: CPU_FREQ beyond any CPU clock: 1e+09 (allowed: 0.1..20 GHz)" },
		{ "TLB_NS=-1\n", "negative TLB_NS: -1 (allowed: 0..100 ns)" },
		{ "UPI_SCALING_FACTOR=100\n", "plotter.txt:1: UPI_SCALING_FACTOR beyond any link: 100 (allowed: > 0 .. 64 flits a cache line)" },
		/* issue 43: every key of the peak has a range, and the peak */
		{ "MEM_FREQ=0.000001\n", "plotter.txt:1: MEM_FREQ below any memory clock: 1e-06 (allowed: 10..100000 MT/s)" },
		{ "MEM_FREQ=1e300 MT/s\n", "MEM_FREQ beyond any memory clock: 1e+300 (allowed: 10..100000 MT/s)" },
		{ "N_CHANNELS=8.8e31\n", "plotter.txt:1: N_CHANNELS beyond any memory system: 8.8e+31 (allowed: 1..4096 channels)" },
		{ "BUS_WIDTH=64.5\n", "plotter.txt:1: BUS_WIDTH is not a whole count: '64.5'" },
		{ "CPU_FREQ=0.000001\n", "plotter.txt:1: CPU_FREQ below any CPU clock: 1e-06 (allowed: 0.1..20 GHz)" },
		{ "MEMORY_BINDING=remote\nUPI_FREQ=1e291\n", "plotter.txt:2: UPI_FREQ beyond any link: 1e+291 (allowed: 0.1..1000 GT/s)" },
		{ "MEM_FREQ=100000\nN_CHANNELS=4096\nBUS_WIDTH=8192\n", "plotter.txt: the theoretical peak (MEM_FREQ x N_CHANNELS x BUS_WIDTH / 8, or the links') beyond any memory system: 4.1943e+08 GB/s (allowed: 0.001..1e7 GB/s)" },
	};
	struct mess_family f;
	struct mess_raw r;
	char err[1024], tree[16];
	double plain, bom;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(tree, sizeof(tree), "v%zu", i);
		raw_tree(tree, bad[i].plotter);
		raw_point(tree, "bw_0_100.txt", 1e8, 1e8, 1e6);
		assert_int_equal(raw(tree, &f, &r, err, sizeof(err)), -EINVAL);
		expect_has(err, bad[i].what);
		mess_family_free(&f);
	}

	/* issue 43: a chase clock no CPU has (1e291 GHz: 3e299 cycles in
	 * 0.3 s), a count of more digits than any counter (read as its first
	 * 63 before): refused, named by file and repetition */
	raw_tree("c", "CPU_FREQ=2.0\n");
	raw_point("c", "bw_0_100.txt", 1e8, 1e8, 0);
	put("c/lat/lat_0_100.txt", " Performance counter stats for process id '1':\n\n"
	    " 3e299 cycles\n 3000000 accesses\n\n 0.300000000 seconds time elapsed\n");
	assert_int_equal(raw("c", &f, &r, err, sizeof(err)), -EINVAL);
	expect_has(err, "c/lat/lat_0_100.txt: repetition 1: the chase's clock (cycles / elapsed, GHz) beyond any CPU clock: 1e+291 (allowed: 0.1..20 GHz)");
	mess_family_free(&f);
	put("c/lat/lat_0_100.txt", " Performance counter stats for process id '1':\n\n"
	    " 6000000000000000000000000000000000000000000000000000000000000000000000 cycles\n"
	    " 3000000 accesses\n\n 0.300000000 seconds time elapsed\n");
	assert_int_equal(raw("c", &f, &r, err, sizeof(err)), -EINVAL);
	expect_has(err, "c/lat/lat_0_100.txt: repetition 1: a count beyond any counter (cycles inf");
	mess_family_free(&f);
	/* and a tree's plotter.txt keys, as given or missing (import's
	 * verdict names a missing one whose default changed figures) */
	raw_tree("k", "tlb_ns=2\nCPU_FREQ=2.0\n");
	raw_point("k", "bw_0_100.txt", 1e8, 1e8, 1e6);
	assert_int_equal(raw("k", &f, &r, err, sizeof(err)), 0);
	assert_true(r.tlb_ns == 0 && !(r.given & MESS_RAW_GIVEN_TLB_NS));
	assert_string_equal(r.tlb_key_case, "tlb_ns");
	assert_int_equal(r.stlb_reps, 1);
	assert_int_equal(r.line_reps, 1);
	mess_family_free(&f);

	/* a TLB_NS within range that still makes a latency no memory has
	 * (0.3 s less 100 ns x 10^7 STLB hits, over the accesses): the
	 * point is refused by curves.csv's own rule, named by its files */
	raw_tree("n", "TLB_NS=100\n");
	raw_point("n", "bw_0_100.txt", 1e8, 1e8, 1e7);
	assert_int_equal(raw("n", &f, &r, err, sizeof(err)), -EINVAL);
	expect_has(err, "n/bw/bw_0_100.txt and lat/lat_0_100.txt: lat_ns must be > 0");
	mess_family_free(&f);

	/* plotter.txt's first key after a BOM is read (TLB_NS 10 takes
	 * 10 ns x 10^6 / 3 10^6 accesses = 3.33 ns off the latency) */
	raw_tree("p", "TLB_NS=10\nCPU_FREQ=2.0\n");
	raw_point("p", "bw_0_100.txt", 1e8, 1e8, 1e6);
	assert_int_equal(raw("p", &f, &r, err, sizeof(err)), 0);
	plain = f.curves[0].pts[0].lat_ns;
	mess_family_free(&f);
	put("p/plotter.txt", "\xef\xbb\xbfTLB_NS=10\nCPU_FREQ=2.0\n");
	assert_int_equal(raw("p", &f, &r, err, sizeof(err)), 0);
	bom = f.curves[0].pts[0].lat_ns;
	assert_true(r.tlb_ns == 10);
	assert_true(fabs(bom - plain) < 1e-9);
	assert_true(fabs(plain - (100 - 10.0 / 3)) < 1e-6);
	mess_family_free(&f);
}

/*
 * The counters of every family Mess 2.x records (issue 35), as its
 * BenchmarkExecutor.cpp writes them: a sub-channel CAS count's name has
 * its channel between prefix and suffix, and a rate (PCM's MB/s) is
 * bytes only over its block's elapsed time, which perf prints after the
 * counts; a block without it is left out, never a rate read as bytes.
 * The list of allowed events fits messraw.c's 512-byte buffer whole.
 */
static void test_raw_perf_families(void **state)
{
	struct mess_raw_block b[MESS_RAW_MAX_REPS];
	char err[512], list[512];
	size_t n;

	(void)state;
	put("fam.txt",
	    " Performance counter stats for system wide:\n\n"
	    "S0 10 1000 unc_m_cas_count_sch0.rd\nS0 10 3000 unc_m_cas_count_sch31.rd\n"
	    "S0 10 500 unc_m_cas_count_sch1.wr\n\n 0.5 seconds time elapsed\n"
	    " Performance counter stats for system wide:\n\n"
	    "S0 16 200.00 pcm_cxl_read_mbps\nS0 16 50.00 pcm_cxl_write_mbps\n"
	    "S0 16 250.00 pcm_cxl_total_mbps\n\n 0.5 seconds time elapsed\n"
	    " Performance counter stats for system wide:\n\n"
	    "S0 16 200.00 pcm_cxl_read_mbps\nS0 16 50.00 pcm_cxl_write_mbps\n");
	assert_int_equal(mess_raw_blocks(at("fam.txt"), 64, 9, b, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(b[0].family, "intel-gnr-imc-sch");
	assert_true(b[0].rd == 4000 * 64 && b[0].wr == 500 * 64);
	assert_string_equal(b[1].family, "intel-pcm-cxl");
	assert_true(fabs(b[1].rd - 1e8) < 1e-3 && fabs(b[1].wr - 2.5e7) < 1e-3);
	assert_true(isnan(b[2].rd) && isnan(b[2].wr));

	mess_raw_family_list(list, sizeof(list));
	assert_true(strlen(list) + 1 < sizeof(list));
	expect_has(list, "; unc_m_cas_count_sch*.rd + unc_m_cas_count_sch*.wr; ");
	assert_string_equal(list + strlen(list) - strlen("pcm_cxl_write_mbps"),
			    "pcm_cxl_write_mbps");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
		T(test_open_regular),
		T(test_bom),
		T(test_raw_names),
		T(test_raw_values),
		T(test_raw_perf_families),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
