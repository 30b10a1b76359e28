// SPDX-License-Identifier: MIT
/*
 * AMD IBS op samples (include/mess/ibs.h).  Register layouts from AMD's
 * PPRs (MSRC001_1033 IbsOpCtl ... MSRC001_1039 IbsDcPhysAd), the family
 * quirks from the kernel's IBS driver and its documented errata.
 */
#include "mess/ibs.h"

#include <errno.h>
#include <string.h>

/* Register indexes in the payload. */
enum { CTL, RIP, DATA, DATA2, DATA3, LINAD, PHYSAD, NFIXED };

static unsigned bit(uint64_t v, unsigned b)
{
	return (unsigned)((v >> b) & 1);
}

static uint64_t bits(uint64_t v, unsigned hi, unsigned lo)
{
	return (v >> lo) & ((UINT64_C(2) << (hi - lo)) - 1);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int mess_ibs_op_decode(const uint8_t *raw, size_t n, unsigned family,
		       unsigned model, struct mess_ibs_op *o)
{
	uint64_t ctl, d, d2, d3;
	unsigned want;

	memset(o, 0, sizeof(*o));
	if (n < 4 + 8 * (DATA + 1))
		return -EINVAL;
	o->caps = (uint32_t)raw[0] | (uint32_t)raw[1] << 8 |
		  (uint32_t)raw[2] << 16 | (uint32_t)raw[3] << 24;
	want = NFIXED + !!(o->caps & MESS_IBS_CAPS_BRNTRGT) +
	       !!(o->caps & MESS_IBS_CAPS_OPDATA4);
	/* The kernel pads the raw data to 8 bytes: extra bytes are padding. */
	o->nregs = (unsigned)((n - 4) / 8);
	if (o->nregs > want)
		o->nregs = want;
	for (unsigned i = 0; i < o->nregs; i++)
		o->regs[i] = get64(raw + 4 + 8 * i);

	ctl = o->regs[CTL];
	o->max_cnt = (uint32_t)(bits(ctl, 15, 0) << 4);
	if (o->caps & MESS_IBS_CAPS_OPCNTEXT)
		o->max_cnt |= (uint32_t)(bits(ctl, 26, 20) << 20);
	o->en = bit(ctl, 17);
	o->val = bit(ctl, 18);
	o->cnt_ctl = bit(ctl, 19);
	o->cur_cnt = (uint32_t)bits(ctl, 58, 32);

	o->rip = o->regs[RIP];
	d = o->regs[DATA];
	o->comp_to_ret = (uint16_t)bits(d, 15, 0);
	o->tag_to_ret = (uint16_t)bits(d, 31, 16);
	o->op_return = bit(d, 34);
	o->brn_taken = bit(d, 35);
	o->brn_misp = bit(d, 36);
	o->brn_ret = bit(d, 37);
	o->rip_invalid = bit(d, 38);
	o->microcode = bit(d, 40);

	if (o->nregs > DATA3) {
		d3 = o->regs[DATA3];
		o->ld = bit(d3, 0);
		o->st = bit(d3, 1);
		o->dc_l1tlb_miss = bit(d3, 2);
		o->dc_l2tlb_miss = bit(d3, 3);
		o->dc_miss = bit(d3, 7);
		o->wc = bit(d3, 13);
		o->uc = bit(d3, 14);
		o->locked = bit(d3, 15);
		o->lin_valid = bit(d3, 17);
		o->phy_valid = bit(d3, 18);
		o->l2_miss = bit(d3, 20);
		o->sw_pf = bit(d3, 21);
		o->mem_width = bits(d3, 25, 22) ? 1u << (bits(d3, 25, 22) - 1) : 0;
		o->open_mem_reqs = (unsigned)bits(d3, 31, 26);
		o->dc_miss_lat = (uint16_t)bits(d3, 47, 32);
		o->tlb_refill_lat = (uint16_t)bits(d3, 63, 48);
		o->l2_miss_valid = 1;
		o->data2_valid = o->ld;		/* OpData2 describes loads only */
		/*
		 * Erratum #1293 (family 19h models 00h-0Fh): with
		 * DcMissNoMabAlloc or SwPf set, L2Miss, OpDcMissOpenMemReqs
		 * and OpData2 are not valid.
		 */
		if (family == 0x19 && model < 0x10 && (bit(d3, 16) || o->sw_pf)) {
			o->l2_miss_valid = 0;
			o->open_mem_reqs = 0;
			o->data2_valid = 0;
		}
	}
	if (o->nregs > DATA2 && o->data2_valid) {
		d2 = o->regs[DATA2];
		o->data_src = (unsigned)bits(d2, 2, 0);
		if (o->caps & MESS_IBS_CAPS_ZEN4)
			o->data_src |= (unsigned)bits(d2, 7, 6) << 3;
		o->rmt_node = bit(d2, 4);
		o->cache_hit_st = bit(d2, 5);
	}
	if (o->nregs > LINAD && o->lin_valid)
		o->lin_addr = o->regs[LINAD];
	if (o->nregs > PHYSAD && o->phy_valid)
		o->phys_addr = o->regs[PHYSAD];
	if ((o->caps & MESS_IBS_CAPS_BRNTRGT) && o->nregs > NFIXED) {
		o->br_target = o->regs[NFIXED];
		o->has_br_target = 1;
	}
	return 0;
}

const char *mess_ibs_op_name(const struct mess_ibs_op *o)
{
	return o->ld && o->st ? "load-store" : o->ld ? "load" : o->st ? "store" : "other";
}

/* DataSrc codes: the Zen 4 extended encoding, and the earlier one. */
static const struct src_row {
	unsigned code;
	const char *level, *name;
} zen4_src[] = {
	{ 1, "L3", "local L3 or another L1/L2 in the CCX" },
	{ 2, "peer-cache", "another CCX's cache in the same NUMA node" },
	{ 3, "DRAM", "DRAM" },
	{ 5, "remote-cache", "another CCX's cache in a different NUMA node" },
	{ 6, "long-latency-memory", "long-latency DIMM" },
	{ 7, "IO", "MMIO, configuration, PCI or APIC" },
	{ 8, "ext-memory", "extension memory" },
	{ 12, "peer-agent-memory", "coherent memory of another processor type" },
}, older_src[] = {
	{ 2, "L3", "local node cache" },
	{ 3, "DRAM", "DRAM" },
	{ 4, "remote-cache", "remote node cache" },
	{ 7, "IO", "other (MMIO, configuration, IO)" },
};

void mess_ibs_source(const struct mess_ibs_op *o, const char **level,
		     const char **name)
{
	const struct src_row *t = o->caps & MESS_IBS_CAPS_ZEN4 ? zen4_src : older_src;
	size_t nt = o->caps & MESS_IBS_CAPS_ZEN4 ? sizeof(zen4_src) / sizeof(zen4_src[0]) :
		    sizeof(older_src) / sizeof(older_src[0]);
	const struct src_row *row = NULL;

	*level = *name = "";
	if (!o->ld && !o->st)
		return;
	for (size_t i = 0; o->data2_valid && i < nt; i++)
		if (t[i].code == o->data_src)
			row = &t[i];
	/* DcMiss, L2Miss and DataSrc mean nothing for uncached accesses. */
	if (o->uc && !(row && !strcmp(row->level, "IO"))) {
		*level = "uncached";
		return;
	}
	if (!o->dc_miss) {
		*level = "L1";
		return;
	}
	if (o->l2_miss_valid && !o->l2_miss) {
		*level = "L2";
		return;
	}
	if (row) {
		*level = row->level;
		*name = row->name;
		if (o->rmt_node && !strcmp(row->level, "DRAM"))
			*level = "remote-DRAM";
		return;
	}
	*level = o->data2_valid && o->data_src ? "unknown" : "beyond-L2";
}
