/* SPDX-License-Identifier: MIT */
/*
 * Which of several memory nodes is nearest to a core, for each command that
 * chooses one (--mem-node KIND; interfere's default other node): the
 * caller's rank first (locality; kind and socket), then the firmware's
 * latency from the core, then the lower OS index.  The latency is hwloc's
 * where it gives one, else the ACPI HMAT's from the core's node: hwloc
 * (sysfs) keeps each node's nearest initiators only, so two nodes remote
 * from the core differ, if at all, in the table alone (hmat.h).
 */
#ifndef MESS_NEAREST_H
#define MESS_NEAREST_H

#include <stddef.h>

#include "mess/json.h"

struct mess_topo;

struct mess_near {
	int os;			/* the node's OS index */
	int rank;		/* the caller's order: higher first */
	double lat_ns;		/* mess_near_sort's: NAN none */
	const char *lat_src;	/* "hwloc", "ACPI HMAT"; NULL none */
};

/* What told the first node from the runner-up, and the figures compared. */
struct mess_near_pick {
	/* "only node", the caller's rank name, "hwloc latency", "ACPI
	 * HMAT latency" (either figure compared is the table's), "OS
	 * index"; NULL: no choice among nodes was made. */
	const char *decided_by;
	int n;			/* 0-2 */
	struct mess_near fig[2];	/* the chosen, the runner-up */
	int init;		/* the core's node (the table's initiator) */
};

/*
 * Sort c[0..n) nearest to core first (n >= 1) and say in p what decided;
 * rank_name names the callers' rank ("locality").  Returns how many share
 * the first's rank.
 */
int mess_near_sort(struct mess_topo *t, struct mess_near *c, int n, int core,
		   const char *rank_name, struct mess_near_pick *p);
/* "latency: the ACPI HMAT's lowest from core 0's node among 2 remote hbm
 * nodes (135 ns vs 190 ns)"; among is "remote hbm" (may be ""). */
void mess_near_latency_said(const struct mess_near_pick *p, int core, int tied,
			    const char *among, char *buf, size_t len);
/* meta.json's `compared`: [{node, latency_ns, source}], NULL for none. */
json_t *mess_near_json(const struct mess_near_pick *p);

#endif
