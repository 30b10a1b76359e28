/* SPDX-License-Identifier: MIT */
/* Measurement buffers: huge pages when possible, placed with libnuma. */
#ifndef MESS_MEM_H
#define MESS_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "mess/json.h"

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
/* The same with the pages split over nodes (place.h) before the first
 * touch: never hugetlb, the stripe a multiple of 2 MiB with want_huge. */
struct mess_place;
int mess_buf_alloc_placed(struct mess_buf *b, size_t len,
			  const struct mess_place *pl, int want_huge);
void mess_buf_free(struct mess_buf *b);
/* Share (%) of [p, p + len) backed by transparent huge pages, from
 * /proc/self/smaps (the mappings over it); NAN when it cannot be read. */
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
/*
 * A node's capacity and free memory from three witnesses, which need not
 * agree: hwloc's local_memory (a guest's firmware tables, an XML file, a
 * node hot-plugged or ballooned since: 4.3 GiB for a 125 GiB node was
 * seen), libnuma's numa_node_size64 and the node's sysfs meminfo.  The
 * largest consistent figure is used: a capacity no larger than the
 * machine's MemTotal, free memory no larger than that capacity; on a tie
 * the kernel's own sysfs, then libnuma.  0: the witness does not say
 * (hwloc gives no free figure; libnuma is not asked when
 * $MESS_SYSFS_NODE_ROOT replaces the sysfs it reads itself).
 */
enum mess_wit { MESS_WIT_HWLOC, MESS_WIT_LIBNUMA, MESS_WIT_SYSFS, MESS_NWIT };
extern const char *const mess_wit_names[MESS_NWIT];
struct mess_node_mem {
	int node;
	uint64_t total[MESS_NWIT], free[MESS_NWIT];
	uint64_t machine;	/* /proc/meminfo MemTotal, 0 unknown */
	int total_from, free_from;	/* the witness used, -1 none says */
};
/* hwloc_bytes: hwloc's figure (0 none); kernel: whether libnuma and sysfs
 * describe this topology (not an XML file of another machine's). */
void mess_node_mem_read(int node, uint64_t hwloc_bytes, int kernel,
			struct mess_node_mem *m);
uint64_t mess_node_mem_total(const struct mess_node_mem *m);
uint64_t mess_node_mem_free(const struct mess_node_mem *m);
/* meta.json's record: the figures used, their witness, all three. */
json_t *mess_node_mem_json(const struct mess_node_mem *m);
/* Free 2 MiB hugetlb pages on the node (its own pool, not the machine's),
 * -1 when unknown. */
long mess_node_free_hugepages(int node);
/*
 * Whether need bytes fit on the node: 0, or -ENOMEM with one line in err
 * ("node 4 has 120 MiB free of 128 MiB, the run needs 600 MiB").  A node
 * whose memory cannot be read fits (the allocation says).  The free
 * figure is the kernel witnesses' (mess_node_mem_read): hwloc's capacity,
 * which the kernel may contradict, refuses nothing.
 */
int mess_node_fits(int node, size_t need, char *err, size_t errlen);
/*
 * Generator arrays of the automatic size (*each, from the LLC; given 0)
 * that the node cannot hold, halved in whole huge pages down to 64 MiB
 * until fixed + n x *each fits (mess_node_fits): a default is sized from
 * the node's free memory, never refused for it; a size the user gave
 * (given 1) is never changed.  0, or mess_node_fits's -ENOMEM and err.
 * A shrinking is said on stderr by prog, with a warning below 2x the LLC
 * (llc): part of their traffic may then stay in the cache.
 */
int mess_node_fit_arrays(const char *prog, int node, size_t fixed, size_t n,
			 size_t *each, int given, size_t llc, char *err, size_t errlen);
/* Why the last allocation bound to a node got no hugetlb pages although
 * the machine's pool had some (its node's pool was short), "" none: the
 * note meta.json keeps (memory_node_choice.hugetlb). */
const char *mess_buf_hugetlb_note(void);

#endif
