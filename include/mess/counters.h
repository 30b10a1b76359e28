/* SPDX-License-Identifier: MIT */
/*
 * Counters as data and arithmetic, with no system calls: which events
 * measure DRAM traffic on each memory-controller family and which core
 * events the chase reads on each microarchitecture (one table row each:
 * adding a machine is one row), how a multiplexed count is scaled, and
 * the two figures the curves derive from counts (measured/accounted
 * bandwidth and latency without page walks).
 */
#ifndef MESS_COUNTERS_H
#define MESS_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

/* How an event string is turned into perf_event_attr. */
enum mess_enc {
	MESS_ENC_PFM,	/* a libpfm4 name, "skx_unc_imc%d::UNC_M_CAS_COUNT:RD" */
	MESS_ENC_SYSFS,	/* the kernel PMU's own sysfs events/ and format/ */
};

/*
 * One memory-controller family.  pmu_glob names the kernel PMUs, one per
 * channel or controller instance, all of which are opened and summed;
 * %d in an event name is the instance number the kernel PMU name ends
 * with.  read_event and write_event may list several events separated by
 * ';' (AMD DF: one per DRAM channel, all on one PMU): every one is opened
 * on every PMU and all are summed (mess_event_list_split).
 * bytes_per_count 0: from the sysfs event's scale and unit.
 * cpu_pmu: where the PMU names alone do not tell the family (amd_df means
 * different events on Zen 3 and Zen 4), a shell pattern the core PMU's
 * libpfm4 name (mess_pmu_core_name) must match; NULL: any.
 */
struct mess_dram_family {
	const char *name;		/* "intel-icx-imc-free" */
	const char *desc;		/* "Intel Ice Lake-SP ... IMC, free-running" */
	const char *pmu_glob;		/* "uncore_imc_free_running_*" */
	enum mess_enc enc;
	const char *read_event;
	const char *write_event;	/* NULL: the family counts reads only */
	double bytes_per_count;
	double write_bytes_per_count;	/* 0: bytes_per_count (Grace differs) */
	int free_running;		/* counts always; cannot be programmed */
	int rw_combined;		/* read_event counts reads and writes
					 * together: total only, no read share */
	const char *cpu_pmu;
	const char *source;		/* where the event definitions come from */
};

extern const struct mess_dram_family mess_dram_families[];
extern const size_t mess_dram_nfamilies;

#define MESS_EVENT_LEN 160
/* Split a ';'-separated event list into out; returns how many, or -EINVAL
 * (an empty entry, or one of MESS_EVENT_LEN or more) or -E2BIG (more than
 * max). */
int mess_event_list_split(const char *list, char out[][MESS_EVENT_LEN],
			  int max);

/* The chase's core events on one microarchitecture, as libpfm4 names
 * them; NULL where the PMU has no such event.  walk_cycles counts cycles
 * with a data-TLB walk in progress (the figure Mess subtracts). */
struct mess_core_events {
	const char *pfm_pmu;		/* libpfm4 PMU name: "skx", "amd64_fam19h_zen4" */
	const char *cycles, *instructions;
	const char *walk_cycles, *stlb_hits;
};

extern const struct mess_core_events mess_core_event_sets[];
extern const size_t mess_core_nsets;
const struct mess_core_events *mess_core_events_for(const char *pfm_pmu);

/* What a read of one counter says (perf_event read with
 * PERF_FORMAT_TOTAL_TIME_ENABLED | _RUNNING). */
struct mess_count {
	uint64_t raw, enabled_ns, running_ns;
};

enum mess_count_state {
	MESS_COUNT_OK,		/* ran the whole time */
	MESS_COUNT_SCALED,	/* multiplexed: raw * enabled / running */
	MESS_COUNT_NOT_RUN,	/* enabled but never scheduled: no figure */
	MESS_COUNT_NOT_ENABLED,	/* never enabled: no figure */
};

/* value: the count, scaled when multiplexed; NAN when there is no figure
 * (never 0).  running_frac: running/enabled (NAN if not enabled). */
enum mess_count_state mess_count_scale(const struct mess_count *c,
				       double *value, double *running_frac);
const char *mess_count_state_name(enum mess_count_state s);

/* The difference of two reads of one counter (a window): negative deltas
 * (a counter that went back) are -ERANGE. */
int mess_count_delta(const struct mess_count *a, const struct mess_count *b,
		     struct mess_count *d);

/* Latency with page walks subtracted, as Mess computes it: the walk
 * cycles spread over the loads, at the core's frequency.
 *   lat - walk_cycles / loads / ghz
 * NAN when an input is missing or the result would be negative. */
double mess_walk_free_latency(double lat_ns, double walk_cycles,
			      double loads, double ghz);

/* measured / accounted, NAN when either is missing or accounted is 0. */
double mess_bw_ratio(double measured_gbs, double accounted_gbs);

/* The median of the finite ratios among n (NAN if none); *used gets how
 * many were finite. */
double mess_bw_ratio_median(const double *ratio, size_t n, size_t *used);

#endif
