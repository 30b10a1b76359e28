/* SPDX-License-Identifier: MIT */
/*
 * --mem-node, for every command that takes it: a node number, or a kind of
 * memory (hbm, cxl, ...) meaning the node of that kind nearest to the
 * chase core.  The command's option table keeps the value as a string
 * (MESS_MEMSEL_LEN); it is resolved once the topology is known.  Another
 * form is one more `how`.
 */
#ifndef MESS_MEMSEL_H
#define MESS_MEMSEL_H

#include <stddef.h>
#include <stdio.h>

#include "core/machine/mem.h"
#include "core/machine/nearest.h"
#include "core/machine/nodes.h"
#include "core/machine/place.h"
#include "core/machine/topo.h"
#include "mess/json.h"

#define MESS_MEMSEL_LEN 32
#define MESS_MEMSEL_ARG "N|KIND"

enum mess_memsel_how {
	MESS_MEMSEL_DEFAULT,	/* not given: the chase core's own node */
	MESS_MEMSEL_NUMBER,	/* --mem-node 1 */
	MESS_MEMSEL_KIND,	/* --mem-node hbm */
	MESS_MEMSEL_SPLIT,	/* --mem-node 0:3,2:1 (curves) */
};

struct mess_memsel {
	enum mess_memsel_how how;
	char given[MESS_MEMSEL_LEN];	/* the value as given; "" default */
	int node;			/* the node chosen: its OS index */
	enum mess_kind kind;		/* the chosen node's kind */
	int assumed;			/* ... assumed (no subtype) */
	char kind_text[96];		/* mess_node_kind_label's */
	int local_nodes;		/* nodes of the kind local to the core */
	char rule[224];			/* which rule chose it */
	struct mess_near_pick near;	/* a kind's: what decided, the figures */
	/* The chosen node's cpuset (hwloc) lacks the chase core: remote is
	 * that sentence ("" local), local_of_kind the nearest node of its
	 * kind local to the core, -1 none. */
	char remote[320];
	int local_of_kind;
	/* The firmware's (HMAT) figures from the chase core to the node:
	 * ns and GB/s, NAN where it gives none; from hwloc (sysfs: each
	 * node's nearest initiators), else the ACPI table (hmat.h: every
	 * pair, root only), fw_source saying which. */
	double fw_lat_ns, fw_bw_gbs;
	const char *fw_source;
	/* The node's capacity and free memory from its three witnesses
	 * (mem.h), at the choice; mem_read 0: never resolved (a replay's). */
	struct mess_node_mem mem;
	int mem_read;
	/* A split: its nodes (the first is node, what the fields above
	 * describe), their kinds and weights, as given. */
	int nsplit;
	int split_node[MESS_PLACE_MAX];
	enum mess_kind split_kind[MESS_PLACE_MAX];
	unsigned split_weight[MESS_PLACE_MAX];
};

/*
 * Resolve the value (a MESS_MEMSEL_LEN string; "" when not given) for the
 * chase core into m.  0; -EINVAL with the one-line error in err (neither a
 * node of this machine nor a kind); -EOPNOTSUPP with err saying that no
 * node of the kind is here; or -ENOMEM.
 */
int mess_memsel_resolve(struct mess_topo *t, const char *val, int core,
			struct mess_memsel *m, char *err, size_t errlen);
/*
 * The same, and a split of nodes N:W[,N:W...] (N a node number or a kind,
 * W a weight 1-255, two nodes or more): -EINVAL with the one line; or
 * -EOPNOTSUPP on a machine of one memory node.
 */
int mess_memsel_resolve_split(struct mess_topo *t, const char *val, int core,
			      struct mess_memsel *m, char *err, size_t errlen);
/* The line summary.md and ladder.md give it: "Memory: node 2, hbm
 * (locality: ...)." and a blank line. */
void mess_memsel_md(FILE *f, const struct mess_memsel *m);
/* meta.json's memory_node_choice: given, kind, node, rule, and remote
 * (the sentence, local_node_of_kind) only when the node is remote,
 * decided_by and compared (the two figures) where nodes were compared,
 * firmware (latency_ns, bandwidth_gbs) only when the HMAT gives one,
 * memory (its witnesses, mess_node_mem_json) once resolved. */
json_t *mess_memsel_json(const struct mess_memsel *m);

#endif
