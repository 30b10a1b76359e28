// SPDX-License-Identifier: MIT
/*
 * Counters opened and read through perf_event_open, and the reason, with
 * its fix, when one cannot be.  Encoding is pmu_encode.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/pmu/pmu.h"
#include "core/isa.h"

/* The port's first core PMU name, for messages ("cpu" on x86, as the
 * kernel says it). */
#define CORE_PMU_FIRST ((const char *[]){ MESS_PORT_CORE_PMUS })[0]

int mess_pmu_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -100;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

static int sys_perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu,
			       int group_fd)
{
	long fd = syscall(SYS_perf_event_open, a, pid, cpu, group_fd,
			  PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

void mess_pmu_why(int err, const char *spec, const struct perf_event_attr *a,
		  char *why, size_t whylen)
{
	int par = mess_pmu_paranoid();
	int hw = a && (a->type == PERF_TYPE_HARDWARE ||
		       a->type == PERF_TYPE_HW_CACHE || a->type == PERF_TYPE_RAW);
	int cpuwide = a && a->exclude_kernel == 0;

	switch (-err) {
	case EACCES:
	case EPERM:
		if (cpuwide)
			snprintf(why, whylen,
				 "%s: counting a whole CPU (uncore, or kernel time) is refused at perf_event_paranoid %d; fix: sysctl -w kernel.perf_event_paranoid=0, or run with CAP_PERFMON (setcap cap_perfmon+ep mess)",
				 spec, par);
		else
			snprintf(why, whylen,
				 "%s: refused at perf_event_paranoid %d; fix: sysctl -w kernel.perf_event_paranoid=2 or lower, or CAP_PERFMON",
				 spec, par);
		break;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		snprintf(why, whylen, hw ?
			 "%s: the CPU offers no such hardware event here (a virtual machine without a virtual PMU has none; on a VM, ask for the PMU to be passed through, e.g. KVM -cpu host,pmu=on)" :
			 "%s: this kernel has no such PMU or event (a newer kernel, or its PMU driver module, is needed)",
			 spec);
		break;
	case EINVAL:
		snprintf(why, whylen,
			 "%s: the kernel refused the event's encoding (an event or filter this PMU does not support)",
			 spec);
		break;
	case EMFILE:
	case ENFILE:
		snprintf(why, whylen,
			 "%s: out of file descriptors; fix: ulimit -n 65536", spec);
		break;
	case EBUSY:
		snprintf(why, whylen,
			 "%s: the counter is held by another user (another profiler, or the NMI watchdog: sysctl -w kernel.nmi_watchdog=0)",
			 spec);
		break;
	default:
		snprintf(why, whylen, "%s: perf_event_open: %s", spec,
			 strerror(-err));
	}
}

static int counter_open(struct mess_counter *c, const char *spec, pid_t pid,
			int cpu, int group_fd, int task, char *why, size_t whylen)
{
	struct perf_event_attr a;
	double scale = 1;
	int fd, err;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->cpu = cpu;
	c->pid = pid;
	snprintf(c->spec, sizeof(c->spec), "%s", spec);
	memset(&a, 0, sizeof(a));
	err = mess_pmu_encode(spec, &a, &scale, why, whylen);
	if (err)
		return err;
	a.size = sizeof(a);
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* A thread's counters count its user time only: the chase and the
	 * generators run there, and perf_event_paranoid 2 (the distribution
	 * default) allows exactly that without privileges.  A CPU-wide
	 * (uncore) counter cannot exclude anything: its PMU counts the
	 * controller, not a context. */
	if (pid >= 0) {
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
	}
	/* A command's counters: its threads and children too, from its exec
	 * on (it waits, stopped before exec, while they are opened). */
	if (task) {
		a.inherit = 1;
		a.disabled = 1;
		a.enable_on_exec = 1;
	}
	fd = sys_perf_event_open(&a, pid, cpu, group_fd);
	if (fd < 0) {
		mess_pmu_why(fd, spec, &a, why, whylen);
		return fd;
	}
	c->fd = fd;
	c->scale = scale;
	return 0;
}

int mess_counter_open(struct mess_counter *c, const char *spec, pid_t pid,
		      int cpu, int group_fd, char *why, size_t whylen)
{
	return counter_open(c, spec, pid, cpu, group_fd, 0, why, whylen);
}

int mess_counter_open_task(struct mess_counter *c, const char *spec, pid_t pid,
			   char *why, size_t whylen)
{
	return counter_open(c, spec, pid, -1, -1, 1, why, whylen);
}

int mess_counter_read(const struct mess_counter *c, struct mess_count *out)
{
	uint64_t v[3];
	ssize_t n;

	if (c->fd < 0)
		return -EBADF;
	n = read(c->fd, v, sizeof(v));
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(v))
		return -EIO;
	out->raw = v[0];
	out->enabled_ns = v[1];
	out->running_ns = v[2];
	return 0;
}

void mess_counter_close(struct mess_counter *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* A device in root whose name starts as the port's core PMU's does. */
static int has_core_pmu(const char *root)
{
	static const char *const names[] = { MESS_PORT_CORE_PMUS };
	struct dirent *e;
	DIR *d = opendir(root);
	int found = 0;

	while (d && !found && (e = readdir(d)))
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			found |= !strncmp(e->d_name, names[i], strlen(names[i]));
	if (d)
		closedir(d);
	return found;
}

int mess_pmu_core_missing_in(const char *root, const char *cpuinfo, char *why,
			     size_t whylen)
{
	const char *flag = MESS_PORT_GUEST_FLAG;
	char line[4096];
	int hyper = 0;
	FILE *f;

	/* No event_source tree at all: nothing can be told. */
	if (access(root, F_OK) || has_core_pmu(root))
		return 0;
	f = flag ? fopen(cpuinfo, "r") : NULL;
	while (f && !hyper && fgets(line, sizeof(line), f))
		hyper = !strncmp(line, "flags", 5) && strstr(line, flag);
	if (f)
		fclose(f);
	if (hyper)
		snprintf(why, whylen,
			 "PMU not available due to virtualization: the kernel registered no core PMU (no %s in %s) under this hypervisor; ask it for a virtual PMU (e.g. KVM -cpu host,pmu=on; QEMU's TCG has none)",
			 CORE_PMU_FIRST, root);
	else
		snprintf(why, whylen,
			 "the kernel registered no core PMU (no %s in %s): see its boot messages (dmesg | grep -i 'Performance Events')",
			 CORE_PMU_FIRST, root);
	return 1;
}

int mess_pmu_core_missing(char *why, size_t whylen)
{
	return mess_pmu_core_missing_in("/sys/bus/event_source/devices",
					"/proc/cpuinfo", why, whylen);
}
