// SPDX-License-Identifier: MIT
#include "core/machine/memsel.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine/hmat.h"
#include "core/machine/mem.h"
#include "core/machine/nearest.h"
#include "core/options.h"

/* "a node number 0-3 or a kind: dram, hbm, cxl, nvm, spm" */
static void allowed(const struct mess_node *nodes, int n, char *buf, size_t len)
{
	int os[n];
	char list[128];
	size_t at;

	for (int i = 0; i < n; i++)
		os[i] = nodes[i].os;
	mess_format_list(os, n, list, sizeof(list));
	at = (size_t)snprintf(buf, len, "a node number %s (the nodes of this machine) or a kind:",
			      list);
	for (int k = 0; k < MESS_KIND_UNKNOWN && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s %s", k ? "," : "",
				       mess_kinds[k].name);
}

/* "(nodes: 0 dram, 1 dram)" */
static void present(const struct mess_node *nodes, int n, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "(nodes:");

	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s %d %s", i ? "," : "",
				       nodes[i].os, mess_kinds[nodes[i].kind].name);
	if (at < len)
		snprintf(buf + at, len - at, ")");
}

/* The node of the kind nearest to the core (nearest.h: locality, then
 * the firmware's latency, hwloc's else the ACPI table's, then the OS
 * index), and which rule told it from the runner-up.  -ENOENT when there
 * is none. */
static int nearest(struct mess_topo *t, const struct mess_node *nodes, int n,
		   enum mess_kind kind, int core, struct mess_memsel *m)
{
	struct mess_near c[n];
	const char *name = mess_kinds[kind].name;
	char among[48];
	int nc = 0, tied;

	for (int i = 0; i < n; i++)
		if (nodes[i].kind == kind)
			c[nc++] = (struct mess_near){ nodes[i].os,
				mess_node_has_core(t, nodes[i].os, core), NAN, NULL };
	if (!nc)
		return -ENOENT;
	tied = mess_near_sort(t, c, nc, core, "locality", &m->near);
	m->node = c[0].os;
	/* The latency and index rules choose among the nodes as local as
	 * the first (sorted first): their count, not the kind's. */
	m->local_nodes = c[0].rank ? tied : 0;
	snprintf(among, sizeof(among), "%s%s", c[0].rank ? "local " : "remote ", name);
	if (nc == 1)
		snprintf(m->rule, sizeof(m->rule), "the only %s node", name);
	else if (c[0].rank != c[1].rank)
		snprintf(m->rule, sizeof(m->rule),
			 "locality: the %s node whose cpuset holds core %d (hwloc)",
			 name, core);
	else if (strcmp(m->near.decided_by, "OS index"))
		mess_near_latency_said(&m->near, core, tied, among, m->rule, sizeof(m->rule));
	else
		snprintf(m->rule, sizeof(m->rule),
			 "lowest OS index: neither locality nor firmware latency (hwloc, the ACPI HMAT) tells the %d %s nodes apart",
			 tied, among);
	return 0;
}

static const struct mess_node *find(const struct mess_node *nodes, int n, int os)
{
	for (int i = 0; i < n; i++)
		if (nodes[i].os == os)
			return &nodes[i];
	return NULL;
}

/* Whether the chosen node is remote from the core (its hwloc cpuset lacks
 * it), said in one sentence with the node of its kind that is local, if
 * any: the chase then measures the link to another package too. */
/* What hwloc does not give (sysfs keeps each node's nearest initiators:
 * a remote choice has no figure there), from the firmware's table where
 * this machine's can be read. */
static void firmware_table(struct mess_topo *t, int node, int core,
			   struct mess_memsel *m)
{
	struct mess_hmat h = { 0 };
	char why[256];
	int init = mess_topo_node_of_core(t, core);
	double lat, bw;

	m->fw_source = m->fw_lat_ns > 0 || m->fw_bw_gbs > 0 ? "hwloc" : NULL;
	if ((m->fw_lat_ns > 0 && m->fw_bw_gbs > 0) || init < 0 ||
	    mess_hmat_machine(t, &h, why, sizeof(why)))
		return;
	lat = mess_hmat_lat(&h, init, node);
	bw = mess_hmat_bw(&h, init, node) * MESS_MIBS_TO_GBS;
	mess_hmat_free(&h);
	if (!(lat > 0 && !(m->fw_lat_ns > 0)) && !(bw > 0 && !(m->fw_bw_gbs > 0)))
		return;
	/* one figure from each, where hwloc gave one */
	m->fw_source = m->fw_source ? "hwloc and acpi_table" : "acpi_table";
	if (!(m->fw_lat_ns > 0) && lat > 0)
		m->fw_lat_ns = lat;
	if (!(m->fw_bw_gbs > 0) && bw > 0)
		m->fw_bw_gbs = bw;
}

static void remoteness(struct mess_topo *t, const struct mess_node *nodes, int n,
		       const struct mess_node *chosen, int core, struct mess_memsel *m)
{
	struct mess_memsel alt;
	const char *kind = mess_kinds[chosen->kind].name;
	int pkg = mess_topo_package_of_core(t, core);
	char other[96];

	m->local_of_kind = -1;
	if (mess_node_has_core(t, chosen->os, core))
		return;
	if (!nearest(t, nodes, n, chosen->kind, core, &alt) && alt.local_nodes)
		m->local_of_kind = alt.node;
	if (m->local_of_kind >= 0)
		snprintf(other, sizeof(other), "node %d is the %s node local to it",
			 m->local_of_kind, kind);
	else
		snprintf(other, sizeof(other), "no %s node is local to it", kind);
	snprintf(m->remote, sizeof(m->remote),
		 "node %d (%s) is remote from chase core %d: local to cores %.64s (package %d), the core is on package %d; %s",
		 chosen->os, kind, core, chosen->cores[0] ? chosen->cores : "none",
		 chosen->package, pkg, other);
}

int mess_memsel_resolve(struct mess_topo *t, const char *val, int core,
			struct mess_memsel *m, char *err, size_t errlen)
{
	struct mess_node *nodes;
	const struct mess_node *chosen;
	char buf[256];
	int n = mess_nodes_list(t, &nodes), kind, rc = 0, isnum;
	uint64_t num = UINT64_MAX;

	if (n < 0)
		return n;
	memset(m, 0, sizeof(*m));
	m->local_of_kind = -1;
	m->fw_lat_ns = m->fw_bw_gbs = NAN;
	snprintf(m->given, sizeof(m->given), "%s", val);
	kind = mess_kind_find(val);
	/* The grammar of every number (options.h); too big is a number. */
	isnum = mess_opt_u64(val, &num) != -EINVAL;
	if (!*val) {
		m->how = MESS_MEMSEL_DEFAULT;
		m->node = mess_topo_node_of_core(t, core);
		snprintf(m->rule, sizeof(m->rule),
			 "default: the node of core %d (libnuma)", core);
	} else if (isnum) {
		m->how = MESS_MEMSEL_NUMBER;
		m->node = num > 1 << 20 ? -1 : (int)num;
		if (num > 1 << 20 || !find(nodes, n, m->node)) {
			allowed(nodes, n, buf, sizeof(buf));
			rc = mess_fail(err, errlen, -EINVAL,
				       "--mem-node: node %s out of range; allowed: %s",
				       val, buf);
		}
		snprintf(m->rule, sizeof(m->rule), "given by number");
	} else if (kind >= 0 && kind != MESS_KIND_UNKNOWN) {
		m->how = MESS_MEMSEL_KIND;
		if (nearest(t, nodes, n, kind, core, m)) {
			present(nodes, n, buf, sizeof(buf));
			rc = mess_fail(err, errlen, -EOPNOTSUPP,
				       "--mem-node %s: no %s node on this machine %s",
				       val, mess_kinds[kind].upper, buf);
		}
	} else {
		allowed(nodes, n, buf, sizeof(buf));
		rc = mess_fail(err, errlen, -EINVAL, "--mem-node: '%s' is not allowed; allowed: %s",
			       val, buf);
	}
	chosen = rc ? NULL : find(nodes, n, m->node);
	if (chosen) {
		m->kind = chosen->kind;
		m->assumed = chosen->assumed;
		mess_node_kind_label(chosen, m->kind_text, sizeof(m->kind_text));
		remoteness(t, nodes, n, chosen, core, m);
		m->fw_lat_ns = mess_node_latency_from(t, chosen->os, core);
		m->fw_bw_gbs = mess_node_bw_from(t, chosen->os, core) * MESS_MIBS_TO_GBS;
		firmware_table(t, chosen->os, core, m);
		mess_node_mem_of(t, chosen->os, &m->mem);
		m->mem_read = 1;
		/* A kind hwloc did not name is said where the choice is. */
		if (chosen->hmat_x && m->how == MESS_MEMSEL_KIND)
			snprintf(m->rule + strlen(m->rule), sizeof(m->rule) - strlen(m->rule),
				 "; %s by the HMAT's bandwidth, hwloc gives no subtype",
				 mess_kinds[chosen->kind].name);
	} else if (!rc) {
		/* libnuma's node is not one hwloc lists (a fixture topology). */
		m->kind = MESS_KIND_UNKNOWN;
		snprintf(m->kind_text, sizeof(m->kind_text), "%s", mess_kinds[m->kind].name);
	}
	free(nodes);
	return rc;
}

json_t *mess_memsel_json(const struct mess_memsel *m)
{
	const char *kind = m->kind_text[0] ? m->kind_text : mess_kinds[m->kind].name;
	const char *note = mess_buf_hugetlb_note();

	json_t *remote = NULL, *fw = NULL, *split = NULL;

	/* Only where it is remote: a local node's choice reads as before. */
	if (m->remote[0])
		remote = mess_json_pack("{s:s, s:o}", "said", m->remote,
					"local_node_of_kind", m->local_of_kind >= 0 ?
					json_integer(m->local_of_kind) : json_null());
	/* The HMAT's figures, where it gives one (compare shows them); a
	 * choice never resolved (a replay's, zeroed) has none. */
	if (m->fw_lat_ns > 0 || m->fw_bw_gbs > 0)
		fw = mess_json_pack("{s:o, s:o, s:s?}",
				    "latency_ns", mess_json_real(m->fw_lat_ns > 0 ? m->fw_lat_ns : NAN, 0),
				    "bandwidth_gbs", mess_json_real(m->fw_bw_gbs > 0 ? m->fw_bw_gbs : NAN, 3),
				    "source", m->fw_source);
	for (int i = 0; i < m->nsplit; i++) {
		if (!split)
			split = json_array();
		json_array_append_new(split, mess_json_pack("{s:i, s:s, s:i}",
				"node", m->split_node[i], "kind", mess_kinds[m->split_kind[i]].name,
				"weight", (int)m->split_weight[i]));
	}
	return mess_json_pack("{s:s?, s:s, s:i, s:s, s:o*, s:o*, s:s?, s:o*, s:o*, s:o*, s:o*}",
			      "given", m->given[0] ? m->given : NULL,
			      "kind", kind, "node", m->node, "rule", m->rule,
			      "decided_by", m->near.decided_by ? json_string(m->near.decided_by) : NULL,
			      "compared", mess_near_json(&m->near),
			      "hugetlb", *note ? note : NULL, "remote", remote,
			      "firmware", fw,
			      "memory", m->mem_read ? mess_node_mem_json(&m->mem) : NULL,
			      "split", split);
}

void mess_memsel_md(FILE *f, const struct mess_memsel *m)
{
	if (m->how == MESS_MEMSEL_SPLIT) {
		fprintf(f, "Memory: split, %s (meta.json `memory_node_choice`).\n\n", m->rule);
		return;
	}
	fprintf(f, "Memory: node %d, %s (%s; meta.json `memory_node_choice`).\n\n", m->node,
		m->kind_text[0] ? m->kind_text : mess_kinds[m->kind].name, m->rule);
}

#define SPLIT_ALLOWED "NODE:WEIGHT pairs such as 0:3,2:1 (a node number or a kind, a weight 1-255, two nodes or more)"

/* One "X:W" of a split: X resolved as a lone --mem-node, W checked. */
static int split_one(struct mess_topo *t, const char *val, char *tok, int core,
		     int *node, enum mess_kind *kind, unsigned *w, char *err, size_t errlen)
{
	struct mess_memsel one;
	char *colon = strchr(tok, ':');
	uint64_t v = 0;
	int rc;

	if (!colon || colon == tok)
		return mess_fail(err, errlen, -EINVAL, "--mem-node: '%s' is not allowed: '%s' is no NODE:WEIGHT; allowed: %s",
				 val, tok, SPLIT_ALLOWED);
	*colon = 0;
	rc = mess_opt_u64(colon + 1, &v);
	if (!rc && !v)
		return mess_fail(err, errlen, -EINVAL, "--mem-node: '%s' is not allowed: weight 0 for node %s (all on one node: --mem-node N); allowed: %s",
				 val, tok, SPLIT_ALLOWED);
	if (rc || v > MESS_PLACE_WMAX)
		return mess_fail(err, errlen, -EINVAL, "--mem-node: '%s' is not allowed: weight '%s' of node %s is not 1-%d; allowed: %s",
				 val, colon + 1, tok, MESS_PLACE_WMAX, SPLIT_ALLOWED);
	*w = (unsigned)v;
	rc = mess_memsel_resolve(t, tok, core, &one, err, errlen);
	*node = one.node;
	*kind = one.kind;
	return rc;
}

int mess_memsel_resolve_split(struct mess_topo *t, const char *val, int core,
			      struct mess_memsel *m, char *err, size_t errlen)
{
	int node[MESS_PLACE_MAX], n = 0, rc, nn;
	enum mess_kind kind[MESS_PLACE_MAX];
	unsigned w[MESS_PLACE_MAX];
	uint64_t num[MESS_PLACE_MAX];
	char buf[MESS_MEMSEL_LEN], *tok, *save, first[24];
	struct mess_node *nodes;
	int grammar, pairs = 1;
	size_t at;

	if (!strchr(val, ':'))
		return mess_memsel_resolve(t, val, core, m, err, errlen);
	/* The grammar first (exit 1 anywhere), then this machine. */
	if (*val == ',' || val[strlen(val) - 1] == ',' || strstr(val, ",,"))
		return mess_fail(err, errlen, -EINVAL, "--mem-node: '%s' is not allowed: an empty NODE:WEIGHT; allowed: %s",
				 val, SPLIT_ALLOWED);
	snprintf(buf, sizeof(buf), "%s", val);
	for (char *s = buf; (tok = strtok_r(s, ",", &save)); s = NULL) {
		char *c = strchr(tok, ':');
		uint64_t v;
		int k;

		if (n == MESS_PLACE_MAX)
			return mess_fail(err, errlen, -EINVAL, "--mem-node: '%s' is not allowed: more than %d nodes; allowed: %s",
					 val, MESS_PLACE_MAX, SPLIT_ALLOWED);
		/* A pair split_one refuses below, naming it. */
		if (!c || c == tok || mess_opt_u64(c + 1, &v) || !v || v > MESS_PLACE_WMAX)
			break;
		*c = 0;
		k = mess_kind_find(tok);
		if (mess_opt_u64(tok, &v) == -EINVAL && (k < 0 || k == MESS_KIND_UNKNOWN))
			break;
		num[n] = mess_opt_u64(tok, &v) ? UINT64_MAX : v;
		for (int i = 0; i < n; i++)
			if (num[n] != UINT64_MAX && num[i] == num[n])
				return mess_fail(err, errlen, -EINVAL, "--mem-node: '%s' is not allowed: node %s given twice; allowed: %s",
						 val, tok, SPLIT_ALLOWED);
		n++;
	}
	/* every pair well formed: as many as the commas say */
	for (const char *p = val; *p; p++)
		pairs += *p == ',';
	grammar = n == pairs;
	nn = mess_nodes_list(t, &nodes);
	if (nn < 0)
		return nn;
	free(nodes);
	if (grammar && n >= 2 && nn == 1)
		return mess_fail(err, errlen, -EOPNOTSUPP,
				 "--mem-node %s: this machine has one memory node, nothing to split", val);
	snprintf(buf, sizeof(buf), "%s", val);
	n = 0;
	for (char *s = buf; (tok = strtok_r(s, ",", &save)); s = NULL) {
		rc = split_one(t, val, tok, core, &node[n], &kind[n], &w[n], err, errlen);
		if (rc)
			return rc;
		for (int i = 0; i < n; i++)
			if (node[i] == node[n])
				return mess_fail(err, errlen, -EINVAL, "--mem-node: '%s' is not allowed: node %d given twice; allowed: %s",
						 val, node[n], SPLIT_ALLOWED);
		n++;
	}
	if (n < 2)
		return mess_fail(err, errlen, -EINVAL, "--mem-node: '%s' is not allowed: one node (all on one node: --mem-node N); allowed: %s",
				 val, SPLIT_ALLOWED);
	/* The first node described as a lone choice would be. */
	snprintf(first, sizeof(first), "%d", node[0]);
	rc = mess_memsel_resolve(t, first, core, m, err, errlen);
	if (rc)
		return rc;
	m->how = MESS_MEMSEL_SPLIT;
	snprintf(m->given, sizeof(m->given), "%s", val);
	m->nsplit = n;
	at = (size_t)snprintf(m->rule, sizeof(m->rule), "given as a split of pages over");
	for (int i = 0; i < n && at < sizeof(m->rule); i++) {
		m->split_node[i] = node[i];
		m->split_kind[i] = kind[i];
		m->split_weight[i] = w[i];
		at += (size_t)snprintf(m->rule + at, sizeof(m->rule) - at, "%s node %d (%s) weight %u",
				       i ? "," : "", node[i], mess_kinds[kind[i]].name, w[i]);
	}
	return 0;
}
