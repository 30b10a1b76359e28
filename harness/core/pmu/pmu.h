/* SPDX-License-Identifier: MIT */
/*
 * The PMU layer: every command that counts or samples goes through it.
 *
 * pmu_encode.c: an event string to perf_event_attr, through libpfm4
 * (pfm_get_os_event_encoding, PFM_OS_PERF_EVENT_EXT) or, for kernel PMUs
 * libpfm4 lacks, through the kernel's sysfs definitions (mess/pmudef.h).
 * pmu.c: opening counters (per thread, or per CPU for uncore PMUs),
 * reading them with their enabled and running times, and saying why one
 * cannot be opened, with the fix.
 */
#ifndef MESS_PMU_H
#define MESS_PMU_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <sys/types.h>

#include "mess/counters.h"

/* $MESS_SYSFS_PMU_ROOT (fixture trees in tests), else
 * /sys/bus/event_source/devices. */
const char *mess_pmu_sysfs_root(void);

/* libpfm4, initialised once per process.  0 or -errno with the reason. */
int mess_pmu_pfm_init(char *err, size_t errlen);

/* libpfm4's name for this machine's core PMU ("skx", "amd64_fam19h_zen4",
 * "arm_n1"), or NULL when it recognises none (a VM without a PMU). */
const char *mess_pmu_core_name(void);

/*
 * Whether the kernel has no core PMU although libpfm4 names one (it goes
 * by CPUID, which a hypervisor may fill in without giving a virtual PMU:
 * the kernel then says "PMU not available due to virtualization" at boot
 * and registers no cpu PMU).  1 with the reason in why, 0 when it has one
 * (the names are the port's: MESS_PORT_CORE_PMUS in kernels/asm/<isa>/).
 */
int mess_pmu_core_missing(char *why, size_t whylen);
/* The same in a sysfs tree (root: the event_source devices) and a
 * /proc/cpuinfo file, for tests. */
int mess_pmu_core_missing_in(const char *root, const char *cpuinfo, char *why,
			     size_t whylen);

/*
 * Encode spec into attr (type, config, config1, config2, size; nothing
 * else is touched):
 *   "PMU/TERMS/"   a kernel PMU by its sysfs definition:
 *                  "amd_umc_0/event=0x0a,rdwrmask=1/", "uncore_imc_0/cas_count_read/"
 *   anything else  a libpfm4 event: "INST_RETIRED:ANY_P",
 *                  "skx_unc_imc0::UNC_M_CAS_COUNT:RD", "perf::task-clock"
 * scale (may be NULL) gets the sysfs event's scale, or 1.  0, or -EINVAL
 * / -ENOENT with one line in err naming the event and what was wrong.
 */
int mess_pmu_encode(const char *spec, struct perf_event_attr *attr,
		    double *scale, char *err, size_t errlen);

/* One open counter. */
struct mess_counter {
	int fd;			/* -1 when closed */
	double scale;		/* from the encoding */
	int cpu;		/* -1: follows the thread */
	pid_t pid;		/* -1: every task on cpu (uncore) */
	char spec[160];
};

/* Open spec on (pid, cpu), in group_fd's group (-1 for a leader), counting
 * from now.  0, or -errno with the reason and its fix in why
 * (mess_pmu_why). */
int mess_counter_open(struct mess_counter *c, const char *spec, pid_t pid,
		      int cpu, int group_fd, char *why, size_t whylen);
/* The same for a command about to exec: its threads and children are
 * counted too (inherit), from its exec on (enable_on_exec). */
int mess_counter_open_task(struct mess_counter *c, const char *spec, pid_t pid,
			   char *why, size_t whylen);
/* Read the count with its enabled and running times. */
int mess_counter_read(const struct mess_counter *c, struct mess_count *out);
void mess_counter_close(struct mess_counter *c);

/* Why perf_event_open failed with -err for spec, in one line with the fix:
 * the paranoid level, a missing capability, a VM without a PMU, a kernel
 * without the PMU, an event the PMU refuses. */
void mess_pmu_why(int err, const char *spec, const struct perf_event_attr *a,
		  char *why, size_t whylen);

/* /proc/sys/kernel/perf_event_paranoid, or -100 if unreadable. */
int mess_pmu_paranoid(void);

#endif
