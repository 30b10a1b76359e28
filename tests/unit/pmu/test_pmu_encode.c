// SPDX-License-Identifier: MIT
/*
 * mess_pmu_encode against libpfm4 itself: for every libpfm4-named event
 * of both tables, the type and config we produce are the ones
 * pfm_get_os_event_encoding reports, with LIBPFM_FORCE_PMU set to the
 * row's PMU.  libpfm4 reads that variable once, in pfm_initialize, so
 * each PMU is checked in a child process of its own.  No number here is
 * written down: the expected values are libpfm4's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/pmu/pmu.h"
#include <perfmon/pfmlib_perf_event.h>

#define SYS "tests/fixtures/sysfs/"
#define SKIP 77

/* Our encoding of ev equals libpfm4's own: 0, or 1 with the reason. */
static int same_as_libpfm4(const char *ev)
{
	struct perf_event_attr ours = { 0 }, theirs = { 0 };
	pfm_perf_encode_arg_t arg = { .attr = &theirs, .size = sizeof(arg) };
	char err[256] = "";
	int ret;

	ret = mess_pmu_encode(ev, &ours, NULL, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s: mess_pmu_encode %d: %s\n", ev, ret, err);
		return 1;
	}
	ret = pfm_get_os_event_encoding(ev, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS) {
		fprintf(stderr, "%s: libpfm4: %s\n", ev, pfm_strerror(ret));
		return 1;
	}
	if (ours.type != theirs.type || ours.config != theirs.config ||
	    ours.config1 != theirs.config1 || ours.config2 != theirs.config2 ||
	    ours.size != sizeof(ours)) {
		fprintf(stderr, "%s: ours type %u config %#llx, libpfm4's type %u config %#llx\n",
			ev, ours.type, (unsigned long long)ours.config, theirs.type,
			(unsigned long long)theirs.config);
		return 1;
	}
	/* A valid attr: a raw or dynamic PMU type, some event selected. */
	if (ours.type == PERF_TYPE_SOFTWARE || ours.type == PERF_TYPE_TRACEPOINT ||
	    ours.type == PERF_TYPE_BREAKPOINT || !ours.config) {
		fprintf(stderr, "%s: not a hardware event (type %u)\n", ev, ours.type);
		return 1;
	}
	return 0;
}

/* Run fn(arg) in a child; its exit status. */
static int in_child(int (*fn)(const void *), const void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg));
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int check_core_set(const void *p)
{
	const struct mess_core_events *c = p;
	const char *ev[] = { c->cycles, c->instructions, c->walk_cycles, c->stlb_hits };
	const char *core;
	char err[256];
	int bad = 0;

	setenv("LIBPFM_FORCE_PMU", c->pfm_pmu, 1);
	if (mess_pmu_pfm_init(err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", c->pfm_pmu, err);
		return 1;
	}
	core = mess_pmu_core_name();
	if (!core || strcmp(core, c->pfm_pmu)) {
		/* This libpfm4 was built without the PMU (the Arm ones on
		 * x86): nothing to compare with here. */
		fprintf(stderr, "SKIPPED %s: not in this libpfm4 (core PMU: %s)\n",
			c->pfm_pmu, core ? core : "none");
		return SKIP;
	}
	for (size_t i = 0; i < sizeof(ev) / sizeof(*ev); i++)
		if (ev[i])
			bad |= same_as_libpfm4(ev[i]);
	return bad;
}

static void test_core_sets(void **state)
{
	size_t checked = 0;

	for (size_t i = 0; i < mess_core_nsets; i++) {
		int rc = in_child(check_core_set, &mess_core_event_sets[i]);

		if (rc != SKIP)
			assert_int_equal(rc, 0), checked++;
	}
	/* The x86 sets at least are checked on an x86 build. */
#if defined(__x86_64__)
	assert_true(checked >= 7);
#endif
}

/*
 * libpfm4's uncore IMC PMUs cannot be forced: they are detected from the
 * CPU model, and their perf_event type is read from
 * /sys/bus/event_source/devices/uncore_imc_N/type, a path libpfm4 does
 * not let one change.  What works: LIBPFM_ENCODE_INACTIVE=1 lets it
 * encode for a PMU it did not detect, and a private mount namespace puts
 * a tmpfs with those type files over that directory, in the child only.
 * Both encoders then read the same type, which is checked to be the one
 * the child wrote (libpfm4's answer is not taken on trust either).
 * Where no namespace can be made, the test says SKIPPED and checks what
 * it can: libpfm4 knows the event, and we fail it with -ENOENT.
 */
#define TYPE0 900

static int enter_fake_sysfs(int ninst)
{
	const char *dev = "/sys/bus/event_source/devices";
	char path[128];

	if (geteuid() != 0) {
		char map[64];
		int fd, uid = geteuid(), gid = getegid();

		if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
			return -errno;
		fd = open("/proc/self/setgroups", O_WRONLY);
		if (fd >= 0)
			(void)!write(fd, "deny", 4), close(fd);
		snprintf(map, sizeof(map), "0 %d 1", uid);
		fd = open("/proc/self/uid_map", O_WRONLY);
		if (fd < 0 || write(fd, map, strlen(map)) < 0)
			return -EPERM;
		close(fd);
		snprintf(map, sizeof(map), "0 %d 1", gid);
		fd = open("/proc/self/gid_map", O_WRONLY);
		if (fd < 0 || write(fd, map, strlen(map)) < 0)
			return -EPERM;
		close(fd);
	} else if (unshare(CLONE_NEWNS)) {
		return -errno;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("none", dev, "tmpfs", 0, NULL))
		return -errno;
	for (int i = 0; i < ninst; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/uncore_imc_%d", dev, i);
		if (mkdir(path, 0755))
			return -errno;
		snprintf(path, sizeof(path), "%s/uncore_imc_%d/type", dev, i);
		f = fopen(path, "w");
		if (!f)
			return -errno;
		fprintf(f, "%d\n", TYPE0 + i);
		fclose(f);
	}
	return 0;
}

static int check_pfm_family(const void *p)
{
	const struct mess_dram_family *f = p;
	const char *ev[] = { f->read_event, f->write_event };
	char err[256], spec[128];
	int ninst = 0, bad = 0, ret;

	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	/* How many instances libpfm4 has: skx_unc_imc0, 1, ... */
	if (pfm_initialize() != PFM_SUCCESS)
		return 1;
	for (;; ninst++) {
		pfm_pmu_info_t info = { .size = sizeof(info) };
		char name[64];
		int found = 0;

		snprintf(name, sizeof(name), f->read_event, ninst);
		*strstr(name, "::") = 0;
		for (int q = PFM_PMU_NONE + 1; q < PFM_PMU_MAX && !found; q++)
			found = pfm_get_pmu_info(q, &info) == PFM_SUCCESS &&
				!strcmp(info.name, name);
		if (!found)
			break;
	}
	if (!ninst) {
		fprintf(stderr, "%s: libpfm4 has no PMU for %s\n", f->name, f->read_event);
		return 1;
	}
	ret = enter_fake_sysfs(ninst);
	for (int i = 0; i < ninst; i++) {
		for (int e = 0; e < 2 && ev[e]; e++) {
			struct perf_event_attr a = { 0 };
			uint64_t codes[4], *cp = codes;
			int count = 4;

			snprintf(spec, sizeof(spec), ev[e], i);
			if (ret) {
				/* libpfm4 knows the event (raw encoding) ... */
				if (pfm_get_event_encoding(spec, PFM_PLM3, NULL, NULL,
							   &cp, &count) != PFM_SUCCESS) {
					fprintf(stderr, "%s: unknown to libpfm4\n", spec);
					bad = 1;
				}
				/* ... and without the kernel PMU we say so. */
				if (mess_pmu_encode(spec, &a, NULL, err, sizeof(err)) != -ENOENT) {
					fprintf(stderr, "%s: expected -ENOENT\n", spec);
					bad = 1;
				}
				continue;
			}
			bad |= same_as_libpfm4(spec);
			mess_pmu_encode(spec, &a, NULL, err, sizeof(err));
			if ((int)a.type != TYPE0 + i) {
				fprintf(stderr, "%s: type %u, the fixture says %d\n",
					spec, a.type, TYPE0 + i);
				bad = 1;
			}
		}
	}
	if (ret && !bad) {
		fprintf(stderr, "SKIPPED %s equality: no mount namespace here (%s)\n",
			f->name, strerror(-ret));
		return SKIP;
	}
	return bad;
}

static void test_dram_pfm_families(void **state)
{
	size_t n = 0;

	for (size_t i = 0; i < mess_dram_nfamilies; i++) {
		int rc;

		if (mess_dram_families[i].enc != MESS_ENC_PFM)
			continue;
		rc = in_child(check_pfm_family, &mess_dram_families[i]);
		if (rc == SKIP)
			continue;
		assert_int_equal(rc, 0);
		n++;
	}
	(void)n;
}

/* Sysfs specs through a fixture root. */
static void test_sysfs_specs(void **state)
{
	struct perf_event_attr a = { 0 };
	char err[256];
	double scale = 0;

	setenv("MESS_SYSFS_PMU_ROOT", SYS "zen4", 1);
	assert_string_equal(mess_pmu_sysfs_root(), SYS "zen4");
	/* amd_umc_1: type 21; event config:0-7, rdwrmask config:8-9. */
	assert_int_equal(mess_pmu_encode("amd_umc_1/event=0x0a,rdwrmask=1/", &a,
					 &scale, err, sizeof(err)), 0);
	assert_int_equal(a.type, 21);
	assert_true(a.config == 0x10a && a.config1 == 0 && a.config2 == 0);
	assert_int_equal(a.size, sizeof(a));
	assert_true(scale == 1);
	assert_int_equal(mess_pmu_encode("amd_umc_1/event=0x0a,rdwrmask=4/", &a,
					 NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "rdwrmask"));
	assert_int_equal(mess_pmu_encode("amd_umc_7/event=1/", &a, NULL, err,
					 sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "amd_umc_7"));
	assert_int_equal(mess_pmu_encode("amd_umc_1/event=1", &a, NULL, err,
					 sizeof(err)), -EINVAL);
	assert_int_equal(mess_pmu_encode("amd_umc_1//", &a, NULL, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(mess_pmu_encode("/event=1/", &a, NULL, err, sizeof(err)),
			 -EINVAL);

	/* A named event with its scale: ICX uncore_imc_2 (type 16). */
	setenv("MESS_SYSFS_PMU_ROOT", SYS "icx", 1);
	assert_int_equal(mess_pmu_encode("uncore_imc_2/cas_count_write/", &a,
					 &scale, err, sizeof(err)), 0);
	assert_int_equal(a.type, 16);
	assert_true(a.config == 0x3004);
	assert_true(scale * 1024 * 1024 == 64);
	unsetenv("MESS_SYSFS_PMU_ROOT");
	assert_string_equal(mess_pmu_sysfs_root(), "/sys/bus/event_source/devices");
}

static int check_unknown(const void *p)
{
	struct perf_event_attr a = { 0 };
	char err[256] = "";

	/* Not a libpfm4 event on any PMU: -ENOENT, named in one line. */
	if (mess_pmu_encode(p, &a, NULL, err, sizeof(err)) != -ENOENT)
		return 1;
	return !strstr(err, p) || strchr(err, '\n');
}

static void test_unknown_event(void **state)
{
	assert_int_equal(in_child(check_unknown, "NO_SUCH_EVENT_ANYWHERE"), 0);
}

/* A core PMU libpfm4 names from CPUID that the kernel lacks: under TCG
 * (issue 21) the reason is the kernel's, not "add a row". */
static void test_core_missing(void **state)
{
	char why[512] = "";

	(void)state;
	assert_int_equal(mess_pmu_core_missing_in(SYS "skx", "tests/fixtures/proc/cpuinfo-tcg",
						  why, sizeof(why)), 0);
	assert_int_equal(mess_pmu_core_missing_in(SYS "zen3", "tests/fixtures/proc/cpuinfo-tcg",
						  why, sizeof(why)), 1);
	assert_non_null(strstr(why, "PMU not available due to virtualization"));
	assert_int_equal(mess_pmu_core_missing_in(SYS "zen3", "tests/fixtures/proc/cpuinfo-bare",
						  why, sizeof(why)), 1);
	assert_non_null(strstr(why, "the kernel registered no core PMU"));
	assert_null(strstr(why, "virtualization"));
	assert_int_equal(mess_pmu_core_missing_in(SYS "nowhere", "tests/fixtures/proc/cpuinfo-tcg",
						  why, sizeof(why)), 0);
#if defined(__x86_64__)
	/* A hybrid CPU's kernel registers cpu_core and cpu_atom, no cpu:
	 * its PMU is there (the port's names are prefixes). */
	char dir[] = "/tmp/mess-hybrid-XXXXXX", sub[64];

	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/cpu_core", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(mess_pmu_core_missing_in(dir, "tests/fixtures/proc/cpuinfo-tcg",
						  why, sizeof(why)), 0);
	rmdir(sub);
	rmdir(dir);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core_sets),
		cmocka_unit_test(test_core_missing),
		cmocka_unit_test(test_dram_pfm_families),
		cmocka_unit_test(test_sysfs_specs),
		cmocka_unit_test(test_unknown_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
