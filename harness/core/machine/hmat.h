/* SPDX-License-Identifier: MIT */
/*
 * The firmware's (ACPI HMAT) latency and bandwidth for EVERY initiator x
 * memory node pair it lists, read from the table itself.  hwloc reads
 * Linux's sysfs, which keeps only each node's nearest initiators
 * (nodeN/access0 and access1): a remote pair's figures are in the table
 * alone.  The table (and the SRAT that maps its proximity domains to
 * memory ranges, hence to Linux nodes) is readable by root only; without
 * it a caller falls back on hwloc's figures and says so.
 */
#ifndef MESS_HMAT_H
#define MESS_HMAT_H

#include <stddef.h>
#include <stdint.h>

/* One pair: proximity domains as parsed, then Linux nodes once mapped;
 * the figures in hwloc's units (ns, and the MB/s Linux and hwloc give as
 * MiB/s), NAN where the table gives none. */
struct mess_hmat_pair {
	int init, target;
	double lat_ns, bw_mibs;
};

struct mess_hmat {
	struct mess_hmat_pair *p;
	int n;
};

/*
 * The pairs of an HMAT table (t, len bytes: the ACPI header included)
 * by proximity domain, into h (malloc'd; mess_hmat_free): latency is the
 * access latency, else the read latency; bandwidth the read bandwidth,
 * else the access bandwidth (as mess_node_latency_from and
 * mess_node_bw_from read hwloc's), memory hierarchy only (no cache
 * levels).  A value is normalised as Linux's drivers/acpi/numa/hmat.c
 * does (entry x base unit; revision 2: latency in ps to whole ns, rounded
 * up; revision 1: tenths).  0, or -EINVAL for a table that is no HMAT or
 * is cut short, -ENOMEM.
 */
int mess_hmat_parse(const unsigned char *t, size_t len, struct mess_hmat *h);
/* The proximity domain of the enabled SRAT memory range that holds addr:
 * >= 0, or -ENOENT (none), -EINVAL (no SRAT). */
long mess_srat_pxm_of(const unsigned char *t, size_t len, uint64_t addr);
/*
 * The machine's pairs by Linux node: the tables under
 * root/sys/firmware/acpi/tables (root "" for this machine; a fixture tree
 * in tests), each node's first memory block (root/sys/devices/system/
 * node/nodeN/memoryM at M x block_size_bytes) looked up in the SRAT.
 * 0, or -errno with why (no table, not root, ...) in why.
 */
int mess_hmat_read(const char *root, struct mess_hmat *h, char *why, size_t len);
/* mess_hmat_read of this machine where the topology t is this machine's;
 * for an XML topology, of the tree MESS_FIRMWARE_ROOT names (one that
 * belongs to the XML: tests, emulation), else -ENODEV and why (this
 * machine's table would be another machine's). */
struct mess_topo;
int mess_hmat_machine(const struct mess_topo *t, struct mess_hmat *h,
		      char *why, size_t len);
/* A pair's figure (nodes), NAN when the table gives none. */
double mess_hmat_lat(const struct mess_hmat *h, int init, int target);
double mess_hmat_bw(const struct mess_hmat *h, int init, int target);
void mess_hmat_free(struct mess_hmat *h);

#endif
