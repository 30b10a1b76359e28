// SPDX-License-Identifier: MIT
/*
 * Counters as data (mess/counters.h): which events count DRAM traffic on
 * each memory-controller family and which core events the chase reads on
 * each microarchitecture, and the arithmetic on what they count.  Every
 * row names where its events come from; a family whose events could not
 * be sourced is left out rather than guessed (the suite then reports the
 * curves as accounted, which is honest).
 */
#include "mess/counters.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "mess/stats.h"

/*
 * Order matters where several rows could match one machine: the first
 * whose PMUs exist and whose events encode is used.  So free-running
 * before programmable (they cost no counter), libpfm4's SKX names before
 * the kernel's (what the issue asked for; the sysfs row still covers a
 * libpfm4 without skx uncore support), and UMC before DF on AMD.
 */
const struct mess_dram_family mess_dram_families[] = {
	{
		.name = "intel-skx-imc",
		.desc = "Intel Skylake-SP / Cascade Lake-SP IMC, CAS counts (libpfm4)",
		.pmu_glob = "uncore_imc_[0-9]*",
		.enc = MESS_ENC_PFM,
		.read_event = "skx_unc_imc%d::UNC_M_CAS_COUNT:RD",
		.write_event = "skx_unc_imc%d::UNC_M_CAS_COUNT:WR",
		.bytes_per_count = 64,
		.source = "libpfm4 lib/events/intel_skx_unc_imc_events.h "
			  "(UNC_M_CAS_COUNT:RD/WR; perf_name uncore_imc_N); 64 B "
			  "per CAS: Linux tools/perf/pmu-events/arch/x86/skylakex/"
			  "uncore-memory.json (UNC_M_CAS_COUNT.RD/WR, ScaleUnit 64Bytes)",
	},
	{
		.name = "intel-icx-imc-free",
		.desc = "Intel Ice Lake-SP / Sapphire Rapids / Emerald Rapids IMC, "
			"free-running read/write",
		.pmu_glob = "uncore_imc_free_running_[0-9]*",
		.enc = MESS_ENC_SYSFS,
		.read_event = "read",
		.write_event = "write",
		.bytes_per_count = 0,
		.free_running = 1,
		.source = "Linux arch/x86/events/intel/uncore_snbep.c "
			  "icx_uncore_imc_freerunning_events and "
			  "spr_uncore_imc_freerunning_events (read/write with "
			  ".scale and .unit in sysfs)",
	},
	{
		.name = "intel-icx-imc",
		.desc = "Intel Ice Lake-SP through Granite Rapids (and Skylake-SP) "
			"IMC, programmable CAS counts",
		.pmu_glob = "uncore_imc_[0-9]*",
		.enc = MESS_ENC_SYSFS,
		.read_event = "cas_count_read",
		.write_event = "cas_count_write",
		.bytes_per_count = 0,
		.source = "Linux arch/x86/events/intel/uncore_snbep.c IMC event "
			  "descriptions cas_count_read/cas_count_write (with .scale "
			  "and .unit in sysfs)",
	},
	{
		.name = "amd-umc",
		.desc = "AMD Zen 4 and later UMC (PerfMonV2), CAS commands",
		.pmu_glob = "amd_umc_[0-9]*",
		.enc = MESS_ENC_SYSFS,
		.read_event = "event=0x0a,rdwrmask=1",
		.write_event = "event=0x0a,rdwrmask=2",
		.bytes_per_count = 64,
		.source = "Linux tools/perf/pmu-events/arch/x86/amdzen4/"
			  "memory-controller.json umc_cas_cmd.rd/.wr (EventCode "
			  "0x0a, RdWrMask 0x1/0x2) and recommended.json "
			  "umc_mem_read/write_bandwidth (x 64 B); terms placed by "
			  "the PMU's format/ (arch/x86/events/amd/uncore.c)",
	},
	{
		.name = "amd-df-zen4",
		.desc = "AMD Zen 4 Data Fabric, local-processor read/write beats "
			"for 12 coherent stations",
		.pmu_glob = "amd_df",
		.enc = MESS_ENC_SYSFS,
		/* EventCode 0x1f + 0x40 * CS; UMask 0x7fe reads, 0x7ff writes. */
		.read_event = "event=0x1f,umask=0x7fe;event=0x5f,umask=0x7fe;"
			      "event=0x9f,umask=0x7fe;event=0xdf,umask=0x7fe;"
			      "event=0x11f,umask=0x7fe;event=0x15f,umask=0x7fe;"
			      "event=0x19f,umask=0x7fe;event=0x1df,umask=0x7fe;"
			      "event=0x21f,umask=0x7fe;event=0x25f,umask=0x7fe;"
			      "event=0x29f,umask=0x7fe;event=0x2df,umask=0x7fe",
		.write_event = "event=0x1f,umask=0x7ff;event=0x5f,umask=0x7ff;"
			       "event=0x9f,umask=0x7ff;event=0xdf,umask=0x7ff;"
			       "event=0x11f,umask=0x7ff;event=0x15f,umask=0x7ff;"
			       "event=0x19f,umask=0x7ff;event=0x1df,umask=0x7ff;"
			       "event=0x21f,umask=0x7ff;event=0x25f,umask=0x7ff;"
			       "event=0x29f,umask=0x7ff;event=0x2df,umask=0x7ff",
		.bytes_per_count = 64,
		.cpu_pmu = "amd64_fam19h_zen4",
		.source = "Linux tools/perf/pmu-events/arch/x86/amdzen4/"
			  "data-fabric.json local_processor_read/write_data_beats_"
			  "cs0..cs11 (\"data beats (64 bytes)\")",
	},
	{
		.name = "amd-df-zen2-3",
		.desc = "AMD Zen 2 / Zen 3 Data Fabric, DRAM channel requests with "
			"data (reads and writes together), 8 channels",
		.pmu_glob = "amd_df",
		.enc = MESS_ENC_SYSFS,
		/* EventCode 0x07 + 0x40 * channel, UMask 0x38. */
		.read_event = "event=0x07,umask=0x38;event=0x47,umask=0x38;"
			      "event=0x87,umask=0x38;event=0xc7,umask=0x38;"
			      "event=0x107,umask=0x38;event=0x147,umask=0x38;"
			      "event=0x187,umask=0x38;event=0x1c7,umask=0x38",
		.write_event = NULL,
		.bytes_per_count = 64,
		.rw_combined = 1,
		.cpu_pmu = "amd64_fam1[79]h_zen[23]",
		.source = "Linux tools/perf/pmu-events/arch/x86/amdzen2/ and "
			  "amdzen3/data-fabric.json dram_channel_data_controller_0..7 "
			  "(\"Requests with Data (64B)\")",
	},
	{
		.name = "nvidia-grace-scf",
		.desc = "NVIDIA Grace Scalable Coherency Fabric, local memory "
			"(CMEM) read beats and write bytes",
		.pmu_glob = "nvidia_scf_pmu_[0-9]*",
		.enc = MESS_ENC_SYSFS,
		.read_event = "cmem_rd_data",
		.write_event = "cmem_wr_total_bytes",
		.bytes_per_count = 32,
		.write_bytes_per_count = 1,
		.source = "Linux drivers/perf/arm_cspmu/nvidia_cspmu.c SCF events "
			  "cmem_rd_data, cmem_wr_total_bytes; 32 B per read beat "
			  "and bytes for writes: NVIDIA Grace Performance Tuning "
			  "Guide, measuring-performance (read BW = cmem_rd_data x 32, "
			  "write BW = cmem_wr_total_bytes)",
	},
	{
		.name = "arm-cmn",
		.desc = "Arm CMN-600/650/700 HN-F requests to the memory "
			"controllers (reads and writes together)",
		.pmu_glob = "arm_cmn_[0-9]*",
		.enc = MESS_ENC_SYSFS,
		.read_event = "hnf_mc_reqs",
		.write_event = NULL,
		.bytes_per_count = 64,
		.rw_combined = 1,
		.source = "Linux drivers/perf/arm-cmn.c event hnf_mc_reqs and "
			  "tools/perf/pmu-events/arch/arm64/arm/cmn/sys/cmn.json "
			  "(\"requests that are sent to MC\", which counts writes "
			  "too); 64 B: one CHI cache line per request",
	},
};
const size_t mess_dram_nfamilies =
	sizeof(mess_dram_families) / sizeof(*mess_dram_families);

/*
 * Core events by libpfm4 PMU name; every name is checked against
 * libpfm4 itself by tests/unit/pmu/test_pmu_encode.c where libpfm4 has the
 * PMU.  walk_cycles: Intel's DTLB_LOAD_MISSES.WALK_ACTIVE counts cycles
 * with a load walk in progress; AMD's and Arm's PMUs count walks, not
 * cycles, so they have none.  AMD's STLB hits are the L1 DTLB misses
 * that hit the L2 DTLB, every page size; Arm's PMUs count L2 TLB
 * accesses and refills but no hits.
 */
const struct mess_core_events mess_core_event_sets[] = {
#define INTEL(pmu) { pmu, "UNHALTED_CORE_CYCLES", "INSTRUCTION_RETIRED", \
		     "DTLB_LOAD_MISSES:WALK_ACTIVE", "DTLB_LOAD_MISSES:STLB_HIT" }
	INTEL("skx"),
	INTEL("clx"),
	INTEL("icx"),
	INTEL("spr"),
#undef INTEL
#define AMD(pmu) { pmu, "CYCLES_NOT_IN_HALT", "RETIRED_INSTRUCTIONS", NULL, \
		   "L1_DTLB_MISS:TLB_RELOAD_4K_L2_HIT:TLB_RELOAD_COALESCED_PAGE_HIT:" \
		   "TLB_RELOAD_2M_L2_HIT:TLB_RELOAD_1G_L2_HIT" }
	AMD("amd64_fam17h_zen2"),
	AMD("amd64_fam19h_zen3"),
	AMD("amd64_fam19h_zen4"),
#undef AMD
	/* libpfm4 lib/events/arm_neoverse_n1_events.h, ..._n2_events.h
	 * (Ampere Altra's cores are Neoverse N1). */
	{ "arm_n1", "CPU_CYCLES", "INST_RETIRED", NULL, NULL },
	{ "arm_n2", "CPU_CYCLES", "INST_RETIRED", NULL, NULL },
};
const size_t mess_core_nsets =
	sizeof(mess_core_event_sets) / sizeof(*mess_core_event_sets);

const struct mess_core_events *mess_core_events_for(const char *pfm_pmu)
{
	for (size_t i = 0; pfm_pmu && i < mess_core_nsets; i++)
		if (!strcmp(mess_core_event_sets[i].pfm_pmu, pfm_pmu))
			return &mess_core_event_sets[i];
	return NULL;
}

int mess_event_list_split(const char *list, char out[][MESS_EVENT_LEN],
			  int max)
{
	int n = 0;

	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ";");

		if (!len || len >= MESS_EVENT_LEN)
			return -EINVAL;
		if (n == max)
			return -E2BIG;
		memcpy(out[n], p, len);
		out[n++][len] = 0;
		p += len;
		if (!*p)
			return n;
	}
}

enum mess_count_state mess_count_scale(const struct mess_count *c,
				       double *value, double *running_frac)
{
	if (!c->enabled_ns) {
		*value = *running_frac = NAN;
		return MESS_COUNT_NOT_ENABLED;
	}
	*running_frac = (double)c->running_ns / c->enabled_ns;
	if (!c->running_ns) {
		*value = NAN;
		return MESS_COUNT_NOT_RUN;
	}
	if (c->running_ns >= c->enabled_ns) {
		*value = (double)c->raw;
		return MESS_COUNT_OK;
	}
	/* The kernel's own estimate (perf stat does the same): the count
	 * it would have reached had it run the whole time. */
	*value = (double)c->raw * ((double)c->enabled_ns / c->running_ns);
	return MESS_COUNT_SCALED;
}

const char *mess_count_state_name(enum mess_count_state s)
{
	static const char *const names[] = {
		[MESS_COUNT_OK] = "ok",
		[MESS_COUNT_SCALED] = "scaled",
		[MESS_COUNT_NOT_RUN] = "not-run",
		[MESS_COUNT_NOT_ENABLED] = "not-enabled",
	};

	return (unsigned)s < sizeof(names) / sizeof(*names) ? names[s] : "unknown";
}

int mess_count_delta(const struct mess_count *a, const struct mess_count *b,
		     struct mess_count *d)
{
	if (b->raw < a->raw || b->enabled_ns < a->enabled_ns ||
	    b->running_ns < a->running_ns)
		return -ERANGE;
	d->raw = b->raw - a->raw;
	d->enabled_ns = b->enabled_ns - a->enabled_ns;
	d->running_ns = b->running_ns - a->running_ns;
	return 0;
}

double mess_walk_free_latency(double lat_ns, double walk_cycles,
			      double loads, double ghz)
{
	double r;

	if (!isfinite(lat_ns) || !isfinite(walk_cycles) || !isfinite(loads) ||
	    !isfinite(ghz) || lat_ns < 0 || walk_cycles < 0 || !(loads > 0) ||
	    !(ghz > 0))
		return NAN;
	r = lat_ns - walk_cycles / loads / ghz;
	return r < 0 ? NAN : r;
}

double mess_bw_ratio(double measured_gbs, double accounted_gbs)
{
	if (!isfinite(measured_gbs) || !isfinite(accounted_gbs) ||
	    measured_gbs < 0 || !(accounted_gbs > 0))
		return NAN;
	return measured_gbs / accounted_gbs;
}

double mess_bw_ratio_median(const double *ratio, size_t n, size_t *used)
{
	return mess_median_finite(ratio, n, used);
}
