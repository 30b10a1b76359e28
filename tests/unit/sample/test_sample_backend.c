// SPDX-License-Identifier: MIT
/*
 * `mess sample`'s backends built against sysfs fixture trees of machines
 * this one is not (tests/fixtures/sysfs/<machine>/ laid out as
 * /sys/bus/event_source/devices): the sampling event's type is the
 * fixture's type file, and each config bit sits where the fixture's
 * format/ file says; the expected values below are computed by hand from
 * those files, as each comment says.  spe-moved is the same PMU with every
 * field elsewhere: an encoder that wrote bit numbers of its own would pass
 * altra and fail there.  PEBS goes through libpfm4, forced to Skylake-SP
 * in a child (libpfm4 detects its PMUs once per process).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/pmu/pmu.h"
#include "mess/perfdata.h"
#include "sample/backend.h"

#define SYS "tests/fixtures/sysfs/"

static int setup_on(const char *machine, const char *backend,
		    const struct sample_cfg *c, struct sample_setup *s,
		    char *err, size_t errlen)
{
	setenv("MESS_SYSFS_PMU_ROOT", machine, 1);
	return sample_backend_setup(sample_backend_find(backend), c, s, err, errlen);
}

#define BIT(n) (1ULL << (n))

/* altra/arm_spe_0: type 9; ts_enable config:0, pa_enable config:1,
 * load_filter config:33, store_filter config:34, min_latency
 * config2:0-11; caps/min_interval 1024. */
static void test_spe_altra(void **state)
{
	struct sample_cfg c = { .period = 4000, .loads = 1, .stores = 1 };
	struct sample_setup s;
	char err[256] = "";

	assert_int_equal(setup_on(SYS "altra", "spe", &c, &s, err, sizeof(err)), 0);
	assert_string_equal(s.pmu, "arm_spe_0");
	assert_int_equal(s.nsamp, 1);
	assert_int_equal(s.samp[0].type, 9);
	assert_int_equal(s.samp[0].config, BIT(0) | BIT(33) | BIT(34));
	assert_int_equal(s.samp[0].config1, 0);
	assert_int_equal(s.samp[0].config2, 0);
	assert_int_equal(s.samp[0].sample_period, 4000);
	assert_true(s.samp[0].exclude_kernel && s.samp[0].disabled);
	assert_true(s.aux);
	assert_string_equal(s.count[0], "MEM_ACCESS");
	/* 4000 rounded down to the 256 granule of PMSIRR_EL1.INTERVAL. */
	assert_true(s.period_eff == 3840);

	/* Loads only, physical addresses, latency >= 100 cycles. */
	c = (struct sample_cfg){ .period = 300, .loads = 1, .min_latency = 100, .physical = 1 };
	assert_int_equal(setup_on(SYS "altra", "spe", &c, &s, err, sizeof(err)), 0);
	assert_int_equal(s.samp[0].config, BIT(0) | BIT(1) | BIT(33));
	assert_int_equal(s.samp[0].config2, 100);
	assert_string_equal(s.count[0], "MEM_ACCESS_RD");
	/* 300 -> 256, raised to caps/min_interval. */
	assert_true(s.period_eff == 1024);

	c = (struct sample_cfg){ .period = 8192, .stores = 1 };
	assert_int_equal(setup_on(SYS "altra", "spe", &c, &s, err, sizeof(err)), 0);
	assert_int_equal(s.samp[0].config, BIT(0) | BIT(34));
	assert_string_equal(s.count[0], "MEM_ACCESS_WR");

	/* min_latency is 12 bits wide: 4096 does not fit. */
	c = (struct sample_cfg){ .period = 8192, .loads = 1, .min_latency = 4096 };
	assert_int_equal(setup_on(SYS "altra", "spe", &c, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "min_latency"));
}

/* spe-moved/arm_spe_0: type 42; ts_enable config:5, pa_enable config:6,
 * load_filter config:40, store_filter config:41, min_latency
 * config1:8-19; min_interval 256. */
static void test_spe_moved(void **state)
{
	struct sample_cfg c = { .period = 1000, .loads = 1, .stores = 1, .min_latency = 0xabc };
	struct sample_setup s;
	char err[256] = "";

	assert_int_equal(setup_on(SYS "spe-moved", "spe", &c, &s, err, sizeof(err)), 0);
	assert_int_equal(s.samp[0].type, 42);
	assert_int_equal(s.samp[0].config, BIT(5) | BIT(40) | BIT(41));
	assert_int_equal(s.samp[0].config1, 0xabcULL << 8);
	assert_int_equal(s.samp[0].config2, 0);
	assert_true(s.period_eff == 768);
}

/* zen4-ibs/ibs_op: type 11; cnt_ctl config:19, l3missonly config:16; no
 * swfilt.  zen3-ibs: cnt_ctl only.  zen5-ibs: swfilt config2:0. */
static void test_ibs(void **state)
{
	struct sample_cfg c = { .period = 1000, .loads = 1, .stores = 1 };
	struct sample_setup s;
	char err[256] = "";

	assert_int_equal(setup_on(SYS "zen4-ibs", "ibs", &c, &s, err, sizeof(err)), 0);
	assert_int_equal(s.samp[0].type, 11);
	assert_int_equal(s.samp[0].config, BIT(19));
	assert_false(s.aux);
	assert_true(s.samp[0].sample_type & PERF_SAMPLE_RAW);
	/* Without swfilt, IBS cannot leave the kernel out. */
	assert_false(s.samp[0].exclude_kernel);
	/* The kernel clears the low nibble: 1000 -> 992. */
	assert_true(s.period_eff == 992);
	assert_string_equal(s.count[0], "RETIRED_OPS");

	c.l3miss = 1;
	assert_int_equal(setup_on(SYS "zen4-ibs", "ibs", &c, &s, err, sizeof(err)), 0);
	assert_int_equal(s.samp[0].config, BIT(19) | BIT(16));
	assert_int_equal(setup_on(SYS "zen3-ibs", "ibs", &c, &s, err, sizeof(err)), -EOPNOTSUPP);
	assert_non_null(strstr(err, "l3missonly"));

	c.l3miss = 0;
	assert_int_equal(setup_on(SYS "zen5-ibs", "ibs", &c, &s, err, sizeof(err)), 0);
	assert_int_equal(s.samp[0].type, 12);
	assert_int_equal(s.samp[0].config, BIT(19));
	assert_int_equal(s.samp[0].config2, BIT(0));
	assert_true(s.samp[0].exclude_kernel);
}

/* A machine without the PMU: the reason, -ENOENT. */
static void test_absent(void **state)
{
	char buf[256];

	setenv("MESS_SYSFS_PMU_ROOT", SYS "grace", 1);
	assert_non_null(sample_backend_why(sample_backend_find("spe"), buf, sizeof(buf)));
	assert_non_null(strstr(buf, "no arm_spe PMU"));
	assert_non_null(sample_backend_why(sample_backend_find("ibs"), buf, sizeof(buf)));
	assert_non_null(strstr(buf, "no ibs_op PMU"));
	assert_non_null(sample_backend_why(sample_backend_find("pebs"), buf, sizeof(buf)));
	if (!strstr(buf, "no Intel core PMU"))
		fail_msg("%s", buf);
	assert_null(sample_backend_find("bogus"));
}

static void test_cpu_clock(void **state)
{
	struct sample_cfg c = { .period = 1000000 };
	struct sample_setup s;
	char err[256] = "";

	unsetenv("MESS_SYSFS_PMU_ROOT");
	assert_int_equal(sample_backend_setup(sample_backend_find("cpu-clock"), &c, &s, err,
					      sizeof(err)), 0);
	assert_int_equal(s.samp[0].type, PERF_TYPE_SOFTWARE);
	assert_int_equal(s.samp[0].config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(s.samp[0].sample_period, 1000000);
	assert_false(s.samp[0].sample_type & (PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC));
	assert_string_equal(s.count[0], "perf::task-clock");
	assert_false(sample_backend_find("cpu-clock")->memory);
}

/* skx/cpu: type 4; libpfm4 on Skylake-SP places MEM_TRANS_RETIRED
 * (event 0xcd, umask 0x01) with ldlat in config1, and MEM_INST_RETIRED
 * ALL_STORES (event 0xd0, umask 0x82): the SDM's encodings. */
static int pebs_child(void)
{
	struct sample_cfg c = { .period = 2000, .loads = 1, .stores = 1, .min_latency = 30 };
	struct sample_setup s;
	char err[256] = "";
	uint64_t want = PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;

	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	if (mess_pmu_pfm_init(err, sizeof(err)) || !mess_pmu_core_name() ||
	    strcmp(mess_pmu_core_name(), "skx"))
		return 77;	/* this libpfm4 has no skx */
	if (setup_on(SYS "skx", "pebs", &c, &s, err, sizeof(err))) {
		fprintf(stderr, "pebs: %s\n", err);
		return 1;
	}
	if (s.nsamp != 2 || s.ncount != 2 || (s.samp[0].config & 0xffff) != 0x01cd ||
	    s.samp[0].config1 != 30 || s.samp[0].precise_ip != 2 ||
	    (s.samp[0].sample_type & want) != want || (s.samp[1].config & 0xffff) != 0x82d0 ||
	    s.samp[1].precise_ip != 2 || strcmp(s.count[0], "MEM_INST_RETIRED:ALL_LOADS") ||
	    strcmp(s.count[1], "MEM_INST_RETIRED:ALL_STORES")) {
		fprintf(stderr, "pebs: nsamp %d config %#llx config1 %llu store %#llx\n", s.nsamp,
			(unsigned long long)s.samp[0].config, (unsigned long long)s.samp[0].config1,
			(unsigned long long)s.samp[1].config);
		return 1;
	}
	return 0;
}

static void test_pebs(void **state)
{
	int status;
	pid_t pid = fork();

	if (!pid)
		_exit(pebs_child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* Decoding: what each backend's sample gives the sweep. */
static struct sample_rec got;
static int ngot;

static void keep(const struct sample_rec *r, void *ctx)
{
	got = *r;
	ngot++;
}

static void test_decode(void **state)
{
	struct sample_decoder d;
	struct mess_perf_sample s = { .have = MESS_PS_TIME | MESS_PS_IP, .time = 5 };

	/* cpu-clock: a time, and no address, level or latency invented. */
	assert_int_equal(sample_decoder_init(&d, sample_backend_find("cpu-clock"), keep, NULL), 0);
	sample_decode_sample(&d, &s);
	assert_int_equal(ngot, 1);
	assert_int_equal(got.time, 5);
	assert_int_equal(got.addr, 0);
	assert_null(got.level);
	assert_false(got.has_lat);
	sample_decoder_finish(&d);

	/* PEBS: perf's data source (op load, lvl L3 hit = PERF_MEM_LVL_HIT
	 * 0x2 | L3 0x40, shifted by 5) and the weight. */
	s.have = MESS_PS_TIME | MESS_PS_ADDR | MESS_PS_WEIGHT | MESS_PS_DATA_SRC;
	s.addr = 0x7f0000001000;
	s.weight = 87;
	s.data_src = 2 | (uint64_t)(0x40 | 0x2) << 5;
	assert_int_equal(sample_decoder_init(&d, sample_backend_find("pebs"), keep, NULL), 0);
	sample_decode_sample(&d, &s);
	assert_int_equal(got.addr, 0x7f0000001000);
	assert_non_null(got.level);
	assert_string_equal(got.level, "L3");
	assert_true(got.has_lat);
	assert_int_equal(got.lat, 87);
	sample_decoder_finish(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* First, before anything initialises libpfm4 in this
		 * process: the child would inherit its detection. */
		cmocka_unit_test(test_pebs),
		cmocka_unit_test(test_spe_altra),
		cmocka_unit_test(test_spe_moved),
		cmocka_unit_test(test_ibs),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_cpu_clock),
		cmocka_unit_test(test_decode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
