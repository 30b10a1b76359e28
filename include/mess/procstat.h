/* SPDX-License-Identifier: MIT */
/*
 * The text of /proc/stat and /proc/<pid>/task/<tid>/status, parsed: what a
 * timed run needs to tell whether it was disturbed (the hypervisor stole
 * time from its CPUs; one of its threads was preempted).  Pure parsing of
 * text the caller read (proc(5)): no I/O here.
 */
#ifndef MESS_PROCSTAT_H
#define MESS_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>

/* One "cpuN" line of /proc/stat, in USER_HZ ticks (proc(5) field order).
 * Fields a kernel does not print (steal before 2.6.11) read 0. */
struct mess_cpu_ticks {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/*
 * The line of CPU cpu (cpu >= 0: "cpuN"; cpu < 0: the "cpu" total) in
 * the /proc/stat text of len bytes (need not be NUL-terminated).  0;
 * -ENOENT when the text has no such line; -EINVAL when the line is
 * malformed (fewer than four numbers, a field not a number, NULL text).
 */
int mess_procstat_cpu(const char *text, size_t len, int cpu,
		      struct mess_cpu_ticks *out);

/*
 * The unsigned value of "key:" in /proc/<pid>/status text of len bytes,
 * e.g. "nonvoluntary_ctxt_switches", or of "key   :" in /proc/<pid>/sched
 * text (e.g. "se.nr_migrations").  0; -ENOENT when the key is absent;
 * -EINVAL when its value is not an unsigned integer.
 */
int mess_procstatus_u64(const char *text, size_t len, const char *key,
			uint64_t *out);

/*
 * One task's /proc/<pid>/task/<tid>/stat text: its state letter (R, S,
 * D, ...), its parent (2 for kernel threads), the CPU it last ran on
 * (field 39) and its name (comm may be NULL).  0 or -EINVAL.
 */
int mess_procstat_task(const char *text, size_t len, char *state, int *ppid,
		       int *cpu, char *comm, size_t commlen);

/*
 * A kernel CPU list such as Cpus_allowed_list's "0-3,8": *count CPUs in
 * it, *has whether cpu is one of them.  0, or -EINVAL when malformed.
 */
int mess_cpulist(const char *s, int cpu, int *has, int *count);

#endif
