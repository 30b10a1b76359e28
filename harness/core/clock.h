/* SPDX-License-Identifier: MIT */
/* The one time source of every measurement, and UTC stamps for results. */
#ifndef MESS_CLOCK_H
#define MESS_CLOCK_H

#include <stddef.h>

/* clock_gettime(CLOCK_MONOTONIC) in ns. */
double mess_now_ns(void);
/* The calling thread's CPU time in ns: a stretch preempted on a shared
 * host (the guest's vCPU taken, another task on the core) does not count
 * the time it did not run. */
double mess_thread_cpu_ns(void);
/* Sleep ns, a signal's interruption resumed unless it asked mess to stop
 * (mess_interrupted): the generators' windows. */
void mess_sleep_ns(double ns);
/* Now in UTC: "2026-11-23T14:07:22Z", or compact "20261123T140722Z". */
void mess_utc_now(char *buf, size_t len, int compact);
/* Seconds from UTC stamp a to b (both as mess_utc_now writes them, not
 * compact); -1 when either is not one. */
long mess_utc_span_s(const char *a, const char *b);
/* Seconds as m:ss, for progress lines. */
void mess_fmt_dur(double s, char *buf, size_t len);

#endif
