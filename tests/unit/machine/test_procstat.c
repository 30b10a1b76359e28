// SPDX-License-Identifier: MIT
/*
 * /proc/stat and /proc/<tid>/status parsing: fixtures with known values
 * (tests/fixtures/proc/), malformed text, and the real files of this test's
 * own process and thread, read while it runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mess/procstat.h"

#define FIX "tests/fixtures/proc/"

/* The whole file into buf (NUL-terminated); its length. */
static size_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0;
	ssize_t r;

	assert_true(fd >= 0);
	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = 0;
	return n;
}

static void stat_fixture(void **state)
{
	static char buf[8192];
	size_t n = slurp(FIX "stat-kvm", buf, sizeof(buf));
	struct mess_cpu_ticks t;

	assert_int_equal(mess_procstat_cpu(buf, n, 0, &t), 0);
	assert_int_equal(t.user, 252555);
	assert_int_equal(t.idle, 592602);
	assert_int_equal(t.steal, 4597);
	assert_int_equal(mess_procstat_cpu(buf, n, 1, &t), 0);
	assert_int_equal(t.steal, 4517);
	/* cpu1 is not cpu12's prefix, nor cpu the total's. */
	assert_int_equal(mess_procstat_cpu(buf, n, 12, &t), 0);
	assert_int_equal(t.user, 1);
	assert_int_equal(t.steal, 8);
	assert_int_equal(mess_procstat_cpu(buf, n, -1, &t), 0);
	assert_int_equal(t.steal, 9114);
	assert_int_equal(mess_procstat_cpu(buf, n, 2, &t), -ENOENT);
	/* Cut before cpu1: it is not in the text given. */
	assert_int_equal(mess_procstat_cpu(buf, (size_t)(strstr(buf, "cpu1") - buf),
					   1, &t), -ENOENT);
}

/* A kernel without iowait..steal: the missing fields read 0. */
static void stat_old_kernel(void **state)
{
	static char buf[1024];
	size_t n = slurp(FIX "stat-old", buf, sizeof(buf));
	struct mess_cpu_ticks t;

	assert_int_equal(mess_procstat_cpu(buf, n, 0, &t), 0);
	assert_int_equal(t.system, 50);
	assert_int_equal(t.idle, 1000);
	assert_int_equal(t.steal, 0);
}

static void stat_malformed(void **state)
{
	static char buf[1024];
	size_t n = slurp(FIX "stat-bad", buf, sizeof(buf));
	struct mess_cpu_ticks t;

	assert_int_equal(mess_procstat_cpu(buf, n, -1, &t), -EINVAL);
	assert_int_equal(mess_procstat_cpu(buf, n, 0, &t), -EINVAL);
	assert_int_equal(mess_procstat_cpu(buf, n, 1, &t), -EINVAL);
	assert_int_equal(mess_procstat_cpu(NULL, 0, 0, &t), -EINVAL);
	assert_int_equal(mess_procstat_cpu("", 0, 0, &t), -ENOENT);
}

static void status_fixture(void **state)
{
	static char buf[1024];
	size_t n = slurp(FIX "status-thread", buf, sizeof(buf));
	uint64_t v = 0;

	assert_int_equal(mess_procstatus_u64(buf, n, "nonvoluntary_ctxt_switches", &v), 0);
	assert_int_equal(v, 5);
	/* "voluntary_..." is not the tail of "nonvoluntary_...". */
	assert_int_equal(mess_procstatus_u64(buf, n, "voluntary_ctxt_switches", &v), 0);
	assert_int_equal(v, 17);
	assert_int_equal(mess_procstatus_u64(buf, n, "Pid", &v), 0);
	assert_int_equal(v, 4243);
	assert_int_equal(mess_procstatus_u64(buf, n, "Name", &v), -EINVAL);
	assert_int_equal(mess_procstatus_u64(buf, n, "VmRSS", &v), -ENOENT);
	n = slurp(FIX "status-bad", buf, sizeof(buf));
	assert_int_equal(mess_procstatus_u64(buf, n, "voluntary_ctxt_switches", &v), -EINVAL);
	assert_int_equal(mess_procstatus_u64(buf, n, "nonvoluntary_ctxt_switches", &v), -EINVAL);
	assert_int_equal(mess_procstatus_u64(NULL, 0, "Pid", &v), -EINVAL);
}

/* The running test's own files: every CPU line this machine has parses,
 * the total is at least each CPU's share, and this thread's switch counts
 * never go down while it sleeps (a sleep is a voluntary switch). */
/* /proc/<tid>/sched pads its keys before the ':'. */
static void sched_text(void **state)
{
	static const char t[] =
		"mess (4321, #threads: 3)\n"
		"-------------------------------------------------------------------\n"
		"se.exec_start                                :        456685.295177\n"
		"se.nr_migrations                             :                    7\n"
		"nr_involuntary_switches                      :                   12\n";
	uint64_t v;

	assert_int_equal(mess_procstatus_u64(t, sizeof(t) - 1, "se.nr_migrations", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(mess_procstatus_u64(t, sizeof(t) - 1, "nr_involuntary_switches", &v), 0);
	assert_int_equal(v, 12);
	/* a prefix of a longer key is not the key; a real number is no count */
	assert_int_equal(mess_procstatus_u64(t, sizeof(t) - 1, "se.nr", &v), -ENOENT);
	assert_int_equal(mess_procstatus_u64(t, sizeof(t) - 1, "se.exec_start", &v), -EINVAL);
}

/* A task's stat line: a name with spaces and ')' in it, negative and
 * UINT64_MAX fields before the CPU (field 39). */
static void task_stat(void **state)
{
	static const char t[] =
		"7060 (a (b) c) R 6973 6973 1219 0 -1 4194304 101 0 0 0 0 0 0 0 20 0 1 0 "
		"49574 3133440 398 18446744073709551615 94649903792128 94649903812009 "
		"140726265272464 0 0 0 0 0 0 0 0 0 17 5 0 0 0 0 0 94649903828016\n";
	char st, comm[8];
	int ppid, cpu, has, count;

	assert_int_equal(mess_procstat_task(t, sizeof(t) - 1, &st, &ppid, &cpu,
					    comm, sizeof(comm)), 0);
	assert_int_equal(st, 'R');
	assert_int_equal(ppid, 6973);
	assert_int_equal(cpu, 5);
	assert_string_equal(comm, "a (b) c");
	/* cut before field 39, no ')' at all */
	assert_int_equal(mess_procstat_task(t, 120, &st, &ppid, &cpu, NULL, 0), -EINVAL);
	assert_int_equal(mess_procstat_task("12 x R 1", 8, &st, &ppid, &cpu, NULL, 0),
			 -EINVAL);

	assert_int_equal(mess_cpulist("0-3,8\n", 8, &has, &count), 0);
	assert_int_equal(has, 1);
	assert_int_equal(count, 5);
	assert_int_equal(mess_cpulist("0-3,8", 4, &has, &count), 0);
	assert_int_equal(has, 0);
	assert_int_equal(mess_cpulist("1", 1, &has, &count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(mess_cpulist("3-1", 1, &has, &count), -EINVAL);
	assert_int_equal(mess_cpulist("0-", 1, &has, &count), -EINVAL);
	assert_int_equal(mess_cpulist("a", 1, &has, &count), -EINVAL);
}

static void real_files(void **state)
{
	static char buf[1 << 16];
	char path[64];
	size_t n = slurp("/proc/stat", buf, sizeof(buf));
	struct mess_cpu_ticks tot, c;
	uint64_t vol0, vol1, inv0, inv1;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int seen = 0;

	assert_int_equal(mess_procstat_cpu(buf, n, -1, &tot), 0);
	for (int i = 0; i < ncpu && i < 4096; i++) {
		int rc = mess_procstat_cpu(buf, n, i, &c);

		/* Offline CPUs have no line. */
		assert_true(rc == 0 || rc == -ENOENT);
		if (rc)
			continue;
		seen++;
		assert_true(c.user <= tot.user && c.steal <= tot.steal &&
			    c.idle <= tot.idle);
	}
	assert_true(seen >= 1);

	snprintf(path, sizeof(path), "/proc/self/task/%ld/status", (long)gettid());
	n = slurp(path, buf, sizeof(buf));
	assert_int_equal(mess_procstatus_u64(buf, n, "voluntary_ctxt_switches", &vol0), 0);
	assert_int_equal(mess_procstatus_u64(buf, n, "nonvoluntary_ctxt_switches", &inv0), 0);
	usleep(2000);
	n = slurp(path, buf, sizeof(buf));
	assert_int_equal(mess_procstatus_u64(buf, n, "voluntary_ctxt_switches", &vol1), 0);
	assert_int_equal(mess_procstatus_u64(buf, n, "nonvoluntary_ctxt_switches", &inv1), 0);
	assert_true(vol1 > vol0);
	assert_true(inv1 >= inv0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stat_fixture),
		cmocka_unit_test(stat_old_kernel),
		cmocka_unit_test(stat_malformed),
		cmocka_unit_test(status_fixture),
		cmocka_unit_test(sched_text),
		cmocka_unit_test(task_stat),
		cmocka_unit_test(real_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
