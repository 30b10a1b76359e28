/* SPDX-License-Identifier: MIT */
/* Machine topology from hwloc: cores, last-level cache, NUMA nodes. */
#ifndef MESS_TOPO_H
#define MESS_TOPO_H

#include <stddef.h>
#include <stdint.h>

/* The most cores a core list may name. */
#define MESS_MAX_CORES 4096

struct mess_topo {
	void *hw;		/* hwloc_topology_t */
	int ncores;		/* cores we may run on (hwloc logical order) */
	int *core_pu;		/* OS index of the first PU of each core */
	int nnodes;		/* NUMA nodes */
	uint64_t llc_bytes;	/* largest cache above core 0 */
	int llc_level;		/* 3 for L3, ... */
	unsigned line_bytes;	/* cache line size (64 if unknown) */
	char cpu_model[128];
	/* hwloc describes the machine we run on, not an XML file: only
	 * then is this machine's firmware (hmat.h) the topology's */
	int this_system;
};

int mess_topo_init(struct mess_topo *t);
/* mess_topo_init for a command: a failure said as the one line "PROG: hwloc
 * could not read the topology: why"; 0 or -EIO. */
int mess_topo_init_said(struct mess_topo *t, const char *prog);
void mess_topo_fini(struct mess_topo *t);
/* LLC seen by one core: on multi-socket machines this is its socket's. */
int mess_topo_llc_of_core(struct mess_topo *t, int core, uint64_t *bytes,
			  int *level);
/* Data and unified caches above the core, innermost first (the latency
 * ladder's levels): how many, at most max. */
int mess_topo_caches_of_core(struct mess_topo *t, int core, int *level,
			     uint64_t *bytes, int max);
/* The core's L1 data and L2 sizes, 0 where hwloc gives none (the
 * host-state probes' chains are sized from them). */
void mess_topo_l1_l2(struct mess_topo *t, int core, uint64_t *l1,
		     uint64_t *l2);
/* Pin the calling thread to one PU of the core. */
int mess_topo_bind_core(struct mess_topo *t, int core);
/* The OS indices of the core's PUs (SMT siblings), at most max: how many. */
int mess_topo_pus_of_core(struct mess_topo *t, int core, int *pus, int max);
/* NUMA node of the core's PU, or 0 if unknown. */
int mess_topo_node_of_core(struct mess_topo *t, int core);
/* Packages (sockets); at least 1. */
int mess_topo_npackages(struct mess_topo *t);
/* Logical package index of a PU (OS index) or of a core; -errno if none. */
int mess_topo_package_of_pu(struct mess_topo *t, int os_pu);
int mess_topo_package_of_core(struct mess_topo *t, int core);

/* What two PUs share, closest first: a core (SMT siblings), a cache (an
 * L2 cluster, an L3 or CCX), a package, nothing (other sockets). */
enum mess_share {
	MESS_SHARE_CORE,
	MESS_SHARE_CACHE,
	MESS_SHARE_PACKAGE,
	MESS_SHARE_NONE,
	MESS_NSHARES
};

/* The OS indices of the PUs of the topology, in hwloc's order, at most
 * max: how many. */
int mess_topo_pus(struct mess_topo *t, int *pus, int max);
/* Pin the calling thread to one PU by its OS index: 0 or -errno. */
int mess_topo_bind_pu(struct mess_topo *t, int os_pu);
/* What PUs a and b (OS indices) share, from their closest common hwloc
 * ancestor; -EINVAL for a PU the topology lacks. */
int mess_topo_pu_share(struct mess_topo *t, int a, int b);
/* The core (hwloc logical) of a PU by its OS index, -1 none. */
int mess_topo_core_of_pu(struct mess_topo *t, int os_pu);

#endif
