/* SPDX-License-Identifier: MIT */
/*
 * The CPU frequency a run ran at, so that cycle-based consumers (PROFET,
 * older Mess loaders) can convert the curves' nanoseconds: the nominal
 * figure the system states, and one measured on the calling thread's core.
 */
#ifndef MESS_CPUFREQ_H
#define MESS_CPUFREQ_H

#include <jansson.h>

struct mess_cpufreq {
	double nominal_ghz;	/* NAN: the system does not say */
	char nominal_source[128];
	double measured_ghz;	/* NAN: not measured */
	double measured_spread_pct; /* (max - min) / median of the repeats */
	/* "" measured here (meta.json measured_method says how); else what
	 * the figure is, a replay's: the replayed set's measured clock. */
	char measured_source[160];
};

/* Nominal frequency of OS CPU pu from sysfs or /proc/cpuinfo; always
 * fills f (NAN and the reason when unknown). */
void mess_cpufreq_nominal(int pu, struct mess_cpufreq *f);

/*
 * The clock a file in /proc/cpuinfo's format states, in GHz: the model
 * name's "@ x GHz" (Intel writes its base clock there), else the first
 * "cpu MHz" (a VM's declared clock, 2100 MHz on one: where no cpufreq
 * driver runs it does not move; where one does, sysfs is read first).
 * *what says which, NULL with NAN when neither is there.
 */
double mess_cpufreq_cpuinfo_ghz(const char *path, const char **what);

/* The clock of OS CPU pu now in MHz, as cpufreq's scaling_cur_freq says
 * (absorb's, after each run); NAN where not readable. */
double mess_cpufreq_cur_mhz(int pu);

/*
 * Clock the calling thread's core (pin it first): a chain of dependent
 * register-register integer adds, one cycle each on every core we know,
 * timed over about 10 ms, five times; the median.  About 60 ms.
 */
void mess_cpufreq_measure(struct mess_cpufreq *f);

/*
 * The calling thread's clock in GHz over about 0.08 ms: the fastest of three
 * short chains of the same adds (a preemption only makes a chain look
 * slower).  For before and after each measuring window; NAN on failure.
 */
double mess_cpufreq_quick_ghz(void);

/* {nominal_ghz, nominal_source, measured_ghz, measured_spread_pct,
 * measured_method}; NULL when out of memory. */
json_t *mess_cpufreq_json(const struct mess_cpufreq *f);

/* The figure to convert with: measured when there is one, else nominal
 * (NAN if neither). */
double mess_cpufreq_ghz(const struct mess_cpufreq *f);

#endif
