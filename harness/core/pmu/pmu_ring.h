/* SPDX-License-Identifier: MIT */
/*
 * A sampling event's ring buffer (and its aux area, for SPE), read through
 * the one record walker of mess/perfdata.h: records are copied out of the
 * ring between data_tail and data_head, across its wrap, walked, and the
 * tail advanced.  Shared by every backend of `mess sample`.
 */
#ifndef MESS_PMU_RING_H
#define MESS_PMU_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <sys/types.h>

#include "mess/perfdata.h"

struct mess_ring {
	int fd;			/* -1 when closed */
	void *base;		/* the metadata page, then the data pages */
	size_t map_len, data_size;
	void *aux;		/* the aux area, NULL without one */
	size_t aux_len;
	uint8_t *scratch;	/* the records, copied out linearly */
	struct mess_perf_file pf;	/* one attr: the event's */
	struct mess_perf_stats st;	/* every drain's totals */
};

/*
 * Open attr (sampling; read as given) on (pid, cpu) and map 2^k data pages
 * (ring_pages, a power of two) and, when aux_pages > 0, an aux area of
 * aux_pages pages.  0, or -errno with why (one line, the reason).
 */
int mess_ring_open(struct mess_ring *r, struct perf_event_attr *attr,
		   pid_t pid, int cpu, unsigned ring_pages, unsigned aux_pages,
		   char *why, size_t whylen);
int mess_ring_enable(struct mess_ring *r);
int mess_ring_disable(struct mess_ring *r);
/* Walk the records written since the last drain: 0, or -EBADMSG (a
 * damaged record; counted in r->st). */
int mess_ring_drain(struct mess_ring *r, const struct mess_perf_ops *ops,
		    void *ctx);
/*
 * The aux bytes a PERF_RECORD_AUX names (offset, size: the kernel's
 * running offsets), in at most two pieces across the aux area's wrap:
 * returns how many pieces (0 without an aux area or for a size larger
 * than the area).  mess_ring_aux_release() then hands the bytes up to
 * end (offset + size of the last record read) back to the kernel.
 */
int mess_ring_aux_bytes(const struct mess_ring *r, uint64_t offset, uint64_t size,
			const uint8_t *piece[2], size_t len[2]);
void mess_ring_aux_release(struct mess_ring *r, uint64_t end);
void mess_ring_close(struct mess_ring *r);

#endif
