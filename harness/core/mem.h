/* SPDX-License-Identifier: MIT */
/* Measurement buffers: huge pages when possible, placed with libnuma. */
#ifndef MESS_MEM_H
#define MESS_MEM_H

#include <stddef.h>

enum mess_hp { MESS_HP_NONE, MESS_HP_THP, MESS_HP_HUGETLB };

struct mess_buf {
	void *p;		/* 2 MiB aligned */
	size_t len;
	void *map;
	size_t map_len;
	enum mess_hp hp;	/* what was obtained, verified */
	double huge_pct;	/* share of len backed by huge pages */
	int node;		/* NUMA node it was bound to, -1 none */
};

#define MESS_HUGE_BYTES (2UL << 20)

/*
 * Map len bytes (rounded up to 2 MiB), bound to NUMA node `node` (-1:
 * default policy), trying hugetlbfs, then transparent huge pages, and touch
 * every page so later measurements take no page faults.  The kind of page
 * actually obtained is read back from /proc/self/smaps.
 */
int mess_buf_alloc(struct mess_buf *b, size_t len, int node, int want_huge);
void mess_buf_free(struct mess_buf *b);
/* Share (%) of [p, p + len) backed by transparent huge pages, from
 * /proc/self/smaps (the mapping holding p); NAN when it cannot be read. */
double mess_thp_pct(const void *p, size_t len);
const char *mess_hp_name(enum mess_hp hp);
/* Bytes the kernel says can still be allocated (MemAvailable), 0 unknown. */
size_t mess_mem_available(void);

#endif
