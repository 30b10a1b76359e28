// SPDX-License-Identifier: MIT
/* union perf_mem_data_src (include/mess/datasrc.h). */
#include "mess/datasrc.h"

#include <stdio.h>

static unsigned field(uint64_t v, unsigned shift, unsigned width)
{
	return (unsigned)((v >> shift) & ((UINT64_C(1) << width) - 1));
}

/* The word's layout: shift and width of each field. */
void mess_datasrc_decode(uint64_t v, struct mess_datasrc *d)
{
	d->op = field(v, 0, 5);
	d->lvl = field(v, 5, 14);
	d->snoop = field(v, 19, 5);
	d->lock = field(v, 24, 2);
	d->dtlb = field(v, 26, 7);
	d->lvl_num = field(v, 33, 4);
	d->remote = field(v, 37, 1);
	d->snoopx = field(v, 38, 2);
	d->blk = field(v, 40, 3);
	d->hops = field(v, 43, 3);
}

const char *mess_datasrc_op(uint64_t v)
{
	static const struct {
		unsigned bit;
		const char *name;
	} ops[] = { { 2, "load" }, { 4, "store" }, { 8, "prefetch" }, { 16, "exec" } };
	unsigned op = field(v, 0, 5);

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (op & ops[i].bit)
			return ops[i].name;
	return "";
}

/* PERF_MEM_LVLNUM_* values that name a level. */
static const struct {
	unsigned num;
	const char *name;
} lvl_nums[] = {
	{ 0x1, "L1" }, { 0x2, "L2" }, { 0x3, "L3" }, { 0x4, "L4" },
	{ 0x9, "CXL" }, { 0xa, "IO" }, { 0xb, "any-cache" }, { 0xc, "LFB" },
	{ 0xd, "RAM" }, { 0xe, "PMEM" },
};

/* The older PERF_MEM_LVL_* bits, for a word without a level number. */
static const struct {
	unsigned bit;
	const char *name;
} lvl_bits[] = {
	{ 0x8, "L1" }, { 0x10, "LFB" }, { 0x20, "L2" }, { 0x40, "L3" },
	{ 0x80, "RAM" }, { 0x100, "remote-RAM" }, { 0x200, "remote-RAM" },
	{ 0x400, "remote-cache" }, { 0x800, "remote-cache" },
	{ 0x1000, "IO" }, { 0x2000, "uncached" },
};

void mess_datasrc_level(uint64_t v, char *buf, size_t len)
{
	struct mess_datasrc d;
	const char *name = NULL, *hm;

	mess_datasrc_decode(v, &d);
	for (size_t i = 0; !name && i < sizeof(lvl_nums) / sizeof(lvl_nums[0]); i++)
		if (lvl_nums[i].num == d.lvl_num)
			name = lvl_nums[i].name;
	for (size_t i = 0; !name && i < sizeof(lvl_bits) / sizeof(lvl_bits[0]); i++)
		if (d.lvl & lvl_bits[i].bit)
			name = lvl_bits[i].name;
	if (!name) {
		snprintf(buf, len, "%s", "");
		return;
	}
	hm = d.lvl & 0x2 ? " hit" : d.lvl & 0x4 ? " miss" : "";
	snprintf(buf, len, "%s%s%s", d.remote && name[0] != 'r' ? "remote-" : "",
		 name, hm);
}
