/* SPDX-License-Identifier: MIT */
/*
 * The kernel's memory data source word (union perf_mem_data_src,
 * include/uapi/linux/perf_event.h), as PERF_SAMPLE_DATA_SRC carries it for
 * Intel PEBS (and for IBS and SPE when the kernel or perf synthesises it):
 * op, level, snoop, lock, TLB, level number, remote, block and hops.
 * Pure decoding.
 */
#ifndef MESS_DATASRC_H
#define MESS_DATASRC_H

#include <stddef.h>
#include <stdint.h>

struct mess_datasrc {
	unsigned op;		/* PERF_MEM_OP_*: 1 NA, 2 load, 4 store, 8 pfetch, 16 exec */
	unsigned lvl;		/* PERF_MEM_LVL_* bits */
	unsigned snoop;		/* PERF_MEM_SNOOP_* bits */
	unsigned lock;		/* 1 NA, 2 locked */
	unsigned dtlb;		/* PERF_MEM_TLB_* bits */
	unsigned lvl_num;	/* PERF_MEM_LVLNUM_* */
	unsigned remote, snoopx, blk, hops;
};

void mess_datasrc_decode(uint64_t v, struct mess_datasrc *d);
/* "load", "store", "prefetch", "exec", or "" (not available). */
const char *mess_datasrc_op(uint64_t v);
/*
 * The level as one word ("L1", "LFB", "L2", "L3", "L4", "RAM", "PMEM",
 * "CXL", "IO", "any-cache", "uncached", "remote-RAM", ...; "remote-" is
 * prefixed when the remote bit is set), then " hit" or " miss" when the
 * word says so: "L3 hit".  "" when the word gives no level.
 */
void mess_datasrc_level(uint64_t v, char *buf, size_t len);

#endif
