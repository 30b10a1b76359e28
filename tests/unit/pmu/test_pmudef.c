// SPDX-License-Identifier: MIT
/*
 * Kernel PMU definitions from sysfs fixture trees laid out as on the
 * machines (tests/fixtures/sysfs/<machine>/ is a
 * /sys/bus/event_source/devices).  Every expected config below is
 * computed by hand from the fixture's format/ files, as the comment above
 * each says; none is copied from a tool's output.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mess/counters.h"
#include "mess/pmudef.h"
#include "near.h"

#define SYS "tests/fixtures/sysfs/"

static void load(const char *dir, struct mess_pmu_def *d)
{
	char err[256] = "";
	int ret = mess_pmudef_read(dir, d, err, sizeof(err));

	if (ret)
		fail_msg("%s: %d %s", dir, ret, err);
}

static uint64_t enc(const struct mess_pmu_def *d, const char *spec, int cfg)
{
	uint64_t c[3];
	char err[256] = "";

	if (mess_pmudef_encode(d, spec, c, NULL, NULL, 0, err, sizeof(err)))
		fail_msg("%s: %s", spec, err);
	return c[cfg];
}

static int enc_err(const struct mess_pmu_def *d, const char *spec, char *err,
		   size_t len)
{
	uint64_t c[3];

	return mess_pmudef_encode(d, spec, c, NULL, NULL, 0, err, len);
}

/* Ice Lake-SP IMC: event config:0-7, umask config:8-15, edge config:18. */
static void test_icx_imc(void **state)
{
	struct mess_pmu_def d;
	double scale = 0;
	char unit[16], err[256];
	uint64_t c[3];

	load(SYS "icx/uncore_imc_1", &d);
	assert_string_equal(d.name, "uncore_imc_1");
	assert_int_equal(d.type, 15);
	assert_string_equal(d.cpumask, "0,48");
	assert_int_equal(d.nformats, 5);
	assert_int_equal(d.nevents, 3);
	assert_int_equal(d.bad, 0);
	/* event 0x04 in bits 0-7, umask 0x0f in bits 8-15. */
	assert_int_equal(mess_pmudef_encode(&d, "cas_count_read", c, &scale, unit,
					    sizeof(unit), err, sizeof(err)), 0);
	assert_true(c[0] == 0x0f04 && c[1] == 0 && c[2] == 0);
	/* The kernel's scale for a CAS: 64 B in MiB. */
	assert_near(scale * 1024 * 1024, 64, 1e-9);
	assert_string_equal(unit, "MiB");
	/* umask 0x30 << 8 | event 0x04. */
	assert_true(enc(&d, "cas_count_write", 0) == 0x3004);
	/* A term after the name overrides it. */
	assert_true(enc(&d, "cas_count_read,umask=0x1", 0) == 0x0104);
	/* Terms alone; a bare term is 1: bit 18. */
	assert_true(enc(&d, "event=0x04,umask=0x30,edge", 0) == (0x3004 | 1u << 18));
	/* thresh is config:24-31: 200 << 24. */
	assert_true(enc(&d, "event=1,thresh=200", 0) == (1 | 200ull << 24));
	/* Terms alone have no scale. */
	assert_int_equal(mess_pmudef_encode(&d, "event=4", c, &scale, unit,
					    sizeof(unit), err, sizeof(err)), 0);
	assert_near(scale, 1, 0);
	assert_string_equal(unit, "");
	/* Wider than its field, unknown, malformed: one line each. */
	assert_int_equal(enc_err(&d, "umask=0x100", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "umask"));
	assert_null(strchr(err, '\n'));
	assert_int_equal(enc_err(&d, "edge=2", err, sizeof(err)), -EINVAL);
	assert_int_equal(enc_err(&d, "cas_count_rd", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cas_count_rd"));
	assert_int_equal(enc_err(&d, "event=-1", err, sizeof(err)), -EINVAL);
	assert_int_equal(enc_err(&d, "event=0x4g", err, sizeof(err)), -EINVAL);
	assert_int_equal(enc_err(&d, "", err, sizeof(err)), -EINVAL);
	/* perf's own config term sets the word whole. */
	assert_true(enc(&d, "config=0xdeadbeef", 0) == 0xdeadbeef);
	mess_pmudef_free(&d);
}

/* uncore_imc_0 carries 4 malformed formats and 3 malformed events. */
static void test_malformed_skipped(void **state)
{
	struct mess_pmu_def d;
	char err[256];

	load(SYS "icx/uncore_imc_0", &d);
	assert_int_equal(d.bad, 7);
	assert_true(!strncmp(d.bad_first, "format/", 7));
	/* The good ones are all there and still encode. */
	assert_int_equal(d.nformats, 5);
	assert_int_equal(d.nevents, 3);
	assert_true(enc(&d, "cas_count_read", 0) == 0x0f04);
	/* The skipped ones are gone, not half-read. */
	assert_int_equal(enc_err(&d, "garbage", err, sizeof(err)), -EINVAL);
	assert_int_equal(enc_err(&d, "overlap=1", err, sizeof(err)), -EINVAL);
	mess_pmudef_free(&d);
}

static void test_bad_pmus(void **state)
{
	struct mess_pmu_def d;
	char err[256];

	assert_int_equal(mess_pmudef_read(SYS "icx/nosuch", &d, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "nosuch"));
	assert_int_equal(mess_pmudef_read(SYS "broken/notype", &d, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "type"));
	assert_int_equal(mess_pmudef_read(SYS "broken/badtype", &d, err, sizeof(err)),
			 -EINVAL);
}

/* Zen 4 UMC: event config:0-7, rdwrmask config:8-9. */
static void test_zen4_umc(void **state)
{
	struct mess_pmu_def d;
	char err[256];

	load(SYS "zen4/amd_umc_11", &d);
	assert_int_equal(d.type, 31);
	assert_int_equal(d.nevents, 0);
	assert_true(enc(&d, "event=0x0a,rdwrmask=1", 0) == 0x10a);
	assert_true(enc(&d, "event=0x0a,rdwrmask=2", 0) == 0x20a);
	assert_int_equal(enc_err(&d, "event=0x0a,rdwrmask=4", err, sizeof(err)),
			 -EINVAL);
	mess_pmudef_free(&d);
}

/*
 * A field split over two ranges, low bits first.  Zen 4 DF: event
 * config:0-7,32-37 and umask config:8-15,24-27, so event 0x2df puts 0xdf
 * in bits 0-7 and 0x2 in bits 32-37; umask 0x7fe puts 0xfe in 8-15 and
 * 0x7 in 24-27.
 */
static void test_zen4_df_split_fields(void **state)
{
	struct mess_pmu_def d;

	load(SYS "zen4/amd_df", &d);
	assert_true(enc(&d, "event=0x2df,umask=0x7fe", 0) ==
		    (0xdfull | 0xfeull << 8 | 0x7ull << 24 | 0x2ull << 32));
	/* The widest values: 14-bit event, 12-bit umask. */
	assert_true(enc(&d, "event=0x3fff,umask=0xfff", 0) ==
		    (0xffull | 0xffull << 8 | 0xfull << 24 | 0x3full << 32));
	mess_pmudef_free(&d);
}

/* Zen 3 DF: event config:0-7,32-35, umask config:8-15 (8 bits). */
static void test_zen3_df(void **state)
{
	struct mess_pmu_def d;
	char err[256];

	load(SYS "zen3/amd_df", &d);
	/* Channel 7: event 0x1c7 -> 0xc7 low, 0x1 at bit 32; umask 0x38. */
	assert_true(enc(&d, "event=0x1c7,umask=0x38", 0) ==
		    (0xc7ull | 0x38ull << 8 | 1ull << 32));
	/* Zen 4's 12-bit umask does not fit here: what keeps the Zen 4 DF
	 * row from counting the wrong thing on Zen 3. */
	assert_int_equal(enc_err(&d, "event=0x1f,umask=0x7fe", err, sizeof(err)),
			 -EINVAL);
	mess_pmudef_free(&d);
}

/* Grace SCF: event config:0-31. */
static void test_grace_scf(void **state)
{
	struct mess_pmu_def d;

	load(SYS "grace/nvidia_scf_pmu_1", &d);
	assert_string_equal(d.cpumask, "72");
	assert_true(enc(&d, "cmem_rd_data", 0) == 0x1a5);
	assert_true(enc(&d, "cmem_wr_total_bytes", 0) == 0x1db);
	/* A full 32-bit field. */
	assert_true(enc(&d, "cycles", 0) == 0xffffffffull);
	mess_pmudef_free(&d);
}

/* CMN: type config:0-15, eventid config:16-26, nodeid config:32-47. */
static void test_cmn(void **state)
{
	struct mess_pmu_def d;

	load(SYS "cmn/arm_cmn_0", &d);
	assert_true(enc(&d, "hnf_mc_reqs", 0) == (0x5 | 0xdull << 16));
	/* One node only: bynodeid (bit 31) and its id. */
	assert_true(enc(&d, "hnf_mc_reqs,bynodeid,nodeid=0x68", 0) ==
		    (0x5 | 0xdull << 16 | 1ull << 31 | 0x68ull << 32));
	mess_pmudef_free(&d);
}

/*
 * hv_24x7: formats that share bits are the kernel's design (chip, core,
 * vcpu all select config:16-31), not malformed; "chip=?" must be given.
 * domain config:0-3, offset config:32-63, lpar config1:0-15.
 */
static void test_hv_24x7(void **state)
{
	struct mess_pmu_def d;
	char err[256];

	load(SYS "power9/hv_24x7", &d);
	assert_int_equal(d.bad, 0);
	assert_int_equal(d.nformats, 7);
	assert_int_equal(enc_err(&d, "PM_PB_CYC", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "chip"));
	assert_true(enc(&d, "PM_PB_CYC,chip=1", 0) == (2 | 1ull << 16 | 0x98ull << 32));
	assert_true(enc(&d, "PM_PB_CYC,chip=1,lpar=7", 1) == 7);
	/* A 32-bit field up to bit 63. */
	assert_true(enc(&d, "offset=0xffffffff", 0) == 0xffffffffull << 32);
	mess_pmudef_free(&d);
}

static void test_find_natural_order(void **state)
{
	char names[8][MESS_PMU_NAME_LEN];

	assert_int_equal(mess_pmudef_find(SYS "icx", "uncore_imc_[0-9]*", names, 8), 4);
	assert_string_equal(names[0], "uncore_imc_0");
	assert_string_equal(names[1], "uncore_imc_1");
	assert_string_equal(names[2], "uncore_imc_2");
	assert_string_equal(names[3], "uncore_imc_10");
	assert_int_equal(mess_pmudef_find(SYS "icx", "uncore_imc_free_running_*", names, 8), 2);
	assert_int_equal(mess_pmudef_find(SYS "icx", "uncore_imc_*", names, 8), 6);
	assert_int_equal(mess_pmudef_find(SYS "icx", "uncore_imc_*", names, 3), 3);
	assert_int_equal(mess_pmudef_find(SYS "icx", "amd_umc_*", names, 8), 0);
	assert_int_equal(mess_pmudef_find(SYS "nosuch", "*", names, 8), -ENOENT);
}

static void test_cpulist(void **state)
{
	int cpus[16];

	assert_int_equal(mess_cpulist_parse("0-3,8,10-11\n", cpus, 16), 7);
	assert_int_equal(cpus[3], 3);
	assert_int_equal(cpus[4], 8);
	assert_int_equal(cpus[6], 11);
	assert_int_equal(mess_cpulist_parse("0,48", cpus, 16), 2);
	assert_int_equal(cpus[1], 48);
	assert_int_equal(mess_cpulist_parse("", cpus, 16), 0);
	assert_int_equal(mess_cpulist_parse("0-31", cpus, 4), 4);
	assert_int_equal(mess_cpulist_parse("3-1", cpus, 16), -EINVAL);
	assert_int_equal(mess_cpulist_parse("1,,2", cpus, 16), -EINVAL);
	assert_int_equal(mess_cpulist_parse("1,", cpus, 16), -EINVAL);
	assert_int_equal(mess_cpulist_parse("a", cpus, 16), -EINVAL);
	assert_int_equal(mess_cpulist_parse("1-", cpus, 16), -EINVAL);
}

/*
 * Every sysfs row of the DRAM table encodes on the fixture of its
 * machine (all its events, every PMU its glob finds there), so a typo in
 * a table row fails here.  Rows of other machines are not tried.
 */
static void test_families_on_fixtures(void **state)
{
	static const struct {
		const char *family, *machine;
	} on[] = {
		{ "intel-icx-imc-free", "icx" }, { "intel-icx-imc", "icx" },
		{ "amd-umc", "zen4" }, { "amd-df-zen4", "zen4" },
		{ "amd-df-zen2-3", "zen3" }, { "nvidia-grace-scf", "grace" },
		{ "arm-cmn", "cmn" },
	};
	size_t tried = 0;

	for (size_t i = 0; i < sizeof(on) / sizeof(*on); i++) {
		for (size_t f = 0; f < mess_dram_nfamilies; f++) {
			const struct mess_dram_family *fam = &mess_dram_families[f];
			char root[128], names[16][MESS_PMU_NAME_LEN];
			int n;

			if (strcmp(fam->name, on[i].family))
				continue;
			assert_int_equal(fam->enc, MESS_ENC_SYSFS);
			snprintf(root, sizeof(root), SYS "%s", on[i].machine);
			n = mess_pmudef_find(root, fam->pmu_glob, names, 16);
			assert_true(n > 0);
			for (int p = 0; p < n; p++) {
				const char *lists[2] = { fam->read_event, fam->write_event };
				struct mess_pmu_def d;
				char dir[sizeof(root) + MESS_PMU_NAME_LEN + 1];

				snprintf(dir, sizeof(dir), "%s/%.63s", root, names[p]);
				load(dir, &d);
				for (int l = 0; l < 2 && lists[l]; l++) {
					char ev[32][MESS_EVENT_LEN];
					int k = mess_event_list_split(lists[l], ev, 32);

					assert_true(k > 0);
					for (int e = 0; e < k; e++)
						enc(&d, ev[e], 0);
				}
				mess_pmudef_free(&d);
			}
			tried++;
		}
	}
	assert_int_equal(tried, sizeof(on) / sizeof(*on));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icx_imc),
		cmocka_unit_test(test_malformed_skipped),
		cmocka_unit_test(test_bad_pmus),
		cmocka_unit_test(test_zen4_umc),
		cmocka_unit_test(test_zen4_df_split_fields),
		cmocka_unit_test(test_zen3_df),
		cmocka_unit_test(test_grace_scf),
		cmocka_unit_test(test_cmn),
		cmocka_unit_test(test_hv_24x7),
		cmocka_unit_test(test_find_natural_order),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_families_on_fixtures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
