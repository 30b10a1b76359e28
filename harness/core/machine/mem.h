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
/* x rounded up to whole huge pages: the size a buffer gets. */
#define MESS_HUGE_ROUND(x) ((size_t)(((x) + MESS_HUGE_BYTES - 1) & ~(MESS_HUGE_BYTES - 1)))

/*
 * Map len bytes (rounded up to 2 MiB), bound to NUMA node `node` (-1:
 * default policy), trying hugetlbfs, then transparent huge pages, and touch
 * every page so later measurements take no page faults.  The kind of page
 * actually obtained is read back from /proc/self/smaps.  hugetlbfs is
 * tried on a node only where that node's own pool has the pages (the
 * machine's pool may have them all on another node: faulting them in
 * would be a SIGBUS); -ENOMEM, before anything is touched, when the node
 * has not len bytes free (touching them would be an OOM kill).
 */
int mess_buf_alloc(struct mess_buf *b, size_t len, int node, int want_huge);
void mess_buf_free(struct mess_buf *b);
/* Share (%) of [p, p + len) backed by transparent huge pages, from
 * /proc/self/smaps (the mapping holding p); NAN when it cannot be read. */
double mess_thp_pct(const void *p, size_t len);
const char *mess_hp_name(enum mess_hp hp);
/* Bytes the kernel says can still be allocated (MemAvailable), 0 unknown. */
size_t mess_mem_available(void);
/* A NUMA node's memory from /sys/devices/system/node/nodeN/meminfo:
 * MemTotal, and MemFree plus its inactive file pages (what it can give
 * without swapping); 0 when unknown.  $MESS_SYSFS_NODE_ROOT replaces
 * /sys/devices/system/node (fixture trees in tests). */
size_t mess_node_total(int node);
size_t mess_node_free(int node);
/* Free 2 MiB hugetlb pages on the node (its own pool, not the machine's),
 * -1 when unknown. */
long mess_node_free_hugepages(int node);
/*
 * Whether need bytes fit on the node: 0, or -ENOMEM with one line in err
 * ("node 4 has 120 MiB free of 128 MiB, the run needs 600 MiB").  A node
 * whose memory cannot be read fits (the allocation says).
 */
int mess_node_fits(int node, size_t need, char *err, size_t errlen);
/* Why the last allocation bound to a node got no hugetlb pages although
 * the machine's pool had some (its node's pool was short), "" none: the
 * note meta.json keeps (memory_node_choice.hugetlb). */
const char *mess_buf_hugetlb_note(void);

#endif
