/* SPDX-License-Identifier: MIT */
/*
 * AMD Instruction-Based Sampling, op samples: the register values Linux's
 * ibs_op PMU puts in a sample's PERF_SAMPLE_RAW payload, decoded into what
 * the sampled op did.  Pure decoding (layouts from AMD's PPRs, the kernel's
 * arch/x86/include/asm/amd-ibs.h).
 *
 * The payload: a u32 of IBS capabilities (CPUID 8000_001B EAX, as the
 * kernel saw them), then u64 registers in MSR order: IbsOpCtl, IbsOpRip,
 * IbsOpData, IbsOpData2, IbsOpData3, IbsDcLinAd, IbsDcPhysAd, then
 * IbsBrTarget when the capabilities have BrnTrgt, then IbsOpData4 when
 * they have OpData4.  A payload shorter than the first three registers is
 * refused; later registers that are missing are reported absent.
 */
#ifndef MESS_IBS_H
#define MESS_IBS_H

#include <stddef.h>
#include <stdint.h>

/* Capability bits the decoder needs. */
enum {
	MESS_IBS_CAPS_BRNTRGT = 1u << 5,
	MESS_IBS_CAPS_OPCNTEXT = 1u << 6,
	MESS_IBS_CAPS_OPDATA4 = 1u << 10,
	MESS_IBS_CAPS_ZEN4 = 1u << 11,	/* extended data sources */
};

enum { MESS_IBS_NREGS = 9 };

struct mess_ibs_op {
	uint32_t caps;
	unsigned nregs;		/* registers present */
	uint64_t regs[MESS_IBS_NREGS];	/* raw, MSR order */
	/* IbsOpCtl */
	uint32_t max_cnt;	/* the period, in cycles or ops */
	uint32_t cur_cnt;
	unsigned val, en, cnt_ctl;
	/* IbsOpRip, IbsOpData */
	uint64_t rip;
	unsigned rip_invalid;
	uint16_t comp_to_ret, tag_to_ret;	/* cycles */
	unsigned brn_ret, brn_misp, brn_taken, op_return, microcode;
	/* IbsOpData2 (loads only) */
	unsigned data_src;	/* with the Zen 4 extension bits when present */
	unsigned rmt_node, cache_hit_st;
	int data2_valid;	/* 0: not a load, or an erratum voids it */
	/* IbsOpData3 */
	unsigned ld, st, dc_miss, l2_miss, l2_miss_valid, sw_pf, uc, wc, locked;
	unsigned dc_l1tlb_miss, dc_l2tlb_miss, lin_valid, phy_valid;
	unsigned mem_width;	/* bytes, 0 unknown */
	unsigned open_mem_reqs;
	uint16_t dc_miss_lat, tlb_refill_lat;	/* cycles */
	/* Addresses, when present and valid */
	uint64_t lin_addr, phys_addr, br_target;
	int has_br_target;
};

/*
 * Decode raw[0..n) (the PERF_SAMPLE_RAW data, after its u32 size) of a
 * CPU of the given family and model (the cpuid of the recording; 0 when
 * unknown: no erratum is then applied).  0, or -EINVAL when too short.
 */
int mess_ibs_op_decode(const uint8_t *raw, size_t n, unsigned family,
		       unsigned model, struct mess_ibs_op *o);

/* "load", "store", "load-store" or "other". */
const char *mess_ibs_op_name(const struct mess_ibs_op *o);

/*
 * Where the data came from: *level "L1", "L2", "L3", "peer-cache",
 * "remote-cache", "DRAM", "long-latency-memory", "IO", "ext-memory",
 * "uncached", or "" when the op carried no memory access; *name the PPR's
 * description of the DataSrc code ("" when there is none).  An unknown
 * (reserved) code gives level "unknown".
 */
void mess_ibs_source(const struct mess_ibs_op *o, const char **level,
		     const char **name);

#endif
