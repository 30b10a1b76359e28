/* SPDX-License-Identifier: MIT */
/*
 * The NUMA nodes as hwloc sees them: the kind of memory behind each (DRAM,
 * HBM, CXL, ...), its capacity, the cores local to it, and what the
 * firmware (ACPI HMAT, through hwloc's memory attributes) says of its
 * bandwidth and latency.  A figure the firmware does not give is NAN (shown
 * as "not given", null in JSON), never 0.
 */
#ifndef MESS_NODES_H
#define MESS_NODES_H

#include <stddef.h>
#include <stdint.h>

#include "core/machine/topo.h"

enum mess_kind {
	MESS_KIND_DRAM,
	MESS_KIND_HBM,
	MESS_KIND_CXL,
	MESS_KIND_NVM,
	MESS_KIND_SPM,
	MESS_KIND_UNKNOWN,
	MESS_NKINDS
};

/* One row per kind: hwloc's NUMA node subtypes (and DAXType values) that
 * mean it.  `unknown` is a subtype mess does not know; it cannot be asked
 * for with --mem-node. */
struct mess_kind_row {
	const char *name;
	const char *upper;	/* in messages: "no HBM node" */
	const char *desc;
	const char *hwloc[3];	/* NULL-terminated */
};

extern const struct mess_kind_row mess_kinds[MESS_NKINDS];

/* The kind named `name` (dram, hbm, ...), or -1. */
int mess_kind_find(const char *name);
/*
 * The kind of a node from hwloc's subtype, else its DAXType info (hwloc
 * 2.8+: SPM or NVM for memory that came from a DAX device).  Neither: DRAM,
 * an assumption (*assumed set), since hwloc labels nodes only where it sees
 * more than one kind.
 */
enum mess_kind mess_kind_of(const char *subtype, const char *daxtype,
			    int *assumed);

/* hwloc's memory attributes, in hwloc's units: MiB/s and ns. */
enum mess_fw {
	MESS_FW_BW,
	MESS_FW_READ_BW,
	MESS_FW_WRITE_BW,
	MESS_FW_LAT,
	MESS_FW_READ_LAT,
	MESS_FW_WRITE_LAT,
	MESS_NFW
};

extern const char *const mess_fw_names[MESS_NFW];	/* JSON keys */

struct mess_node {
	int os;			/* OS index: numactl's and --mem-node's number */
	enum mess_kind kind;
	int assumed;		/* no subtype: DRAM assumed */
	double hmat_x;		/* kind told by the firmware's bandwidth: this
				 * many times its home DRAM's; 0 otherwise */
	int hmat_home;		/* ... that home node's OS index */
	char subtype[32];	/* hwloc's, or DAXType, "" none */
	uint64_t capacity;	/* local memory bytes; 0: not given */
	char cores[256];	/* cores of its cpuset, hwloc logical list */
	int package;		/* hwloc logical index; -1: none (machine-wide) */
	int tier;		/* hwloc's MemoryTier (2.10+); -1: not given */
	/* From the initiator the firmware gives the best latency (else
	 * bandwidth) for: the nearest cores. */
	double fw[MESS_NFW];
	char fw_from[256];	/* its cores, "" when the firmware gives none */
};

/*
 * The NUMA nodes in OS index order: their count, or -errno.  *out is
 * malloc'd.  hwloc 2.9 names a kind only for nodes backed by a kmem DAX
 * device (SPM, NVM, and HBM: SPM whose bandwidth is above twice DRAM's);
 * HBM that the firmware only describes (the HMAT; Xeon Max in flat mode on
 * Debian 12) gets no subtype.  Such a node is taken as HBM here, by the
 * same test: its firmware bandwidth from its nearest cores is above
 * MESS_HBM_BW_X times that of their home node, the node without a subtype
 * with the lowest firmware latency from the same cores (hmat_x says so).
 */
int mess_nodes_list(struct mess_topo *t, struct mess_node **out);
#define MESS_HBM_BW_X 2.0

/* "hbm", "dram (no subtype: assumed)", "hbm (no subtype: HMAT bandwidth
 * 4.0x node 0's)": a node's kind and where it came from. */
void mess_node_kind_label(const struct mess_node *n, char *buf, size_t len);

/* The node's package: hwloc's logical index of the package above it (a
 * CPU-less node's too), -1 when it hangs off the whole machine or is not
 * a node of this topology. */
int mess_node_package(struct mess_topo *t, int os);
/* Whether the node's cpuset holds the core (hwloc locality). */
int mess_node_has_core(struct mess_topo *t, int os, int core);
/* The firmware's bandwidth from the core to the node, MiB/s:
 * ReadBandwidth (what a load stream sees), else Bandwidth; NAN none. */
double mess_node_bw_from(struct mess_topo *t, int os, int core);
/* hwloc's MiB/s in GB/s (1e9 B/s), the unit of every other bandwidth. */
#define MESS_MIBS_TO_GBS (1048576 / 1e9)
/* The firmware's latency from the core to the node, ns: Latency, else
 * ReadLatency (what a chase sees); NAN when neither is given. */
double mess_node_latency_from(struct mess_topo *t, int os, int core);
/* The version of the hwloc that discovered the topology ("2.9.0"; NULL
 * when an XML file does not say): which kinds it can name depends on it. */
const char *mess_nodes_hwloc_version(struct mess_topo *t);

struct mess_node_mem;
/* The node's memory from its three witnesses (mem.h), hwloc's from t; the
 * kernel's only when t is this system's. */
void mess_node_mem_of(struct mess_topo *t, int os, struct mess_node_mem *m);

#endif
