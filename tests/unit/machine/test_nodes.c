// SPDX-License-Identifier: MIT
/*
 * The NUMA nodes and --mem-node: the kind table, and the nodes and the
 * nearest-node rule read from hwloc XML topologies (tests/fixtures/topo/,
 * loaded through HWLOC_XMLFILE; paths from the repository root, where make
 * check-unit runs):
 *   xeon-max-flat.xml  2 packages, each with a DRAM and an HBM node (flat
 *                      mode), HMAT bandwidth and latency, hwloc 2.10's
 *                      MemoryTier;
 *   cxl-expander.xml   2 packages with DRAM nodes that have no subtype (an
 *                      older hwloc), two CXL expanders on the whole machine
 *                      with read latencies from each package, two NVM
 *                      nodes without firmware figures, GPU memory;
 *   xeon-max-hmat-only.xml  xeon-max-flat.xml without subtypes: what hwloc
 *                      2.9 gives for HBM that only the HMAT describes;
 *   qemu-hmat-only.xml the emulated machine of make check-numa, topology B
 *                      (lstopo in the guest): 2 sockets, DRAM on each,
 *                      two CPU-less nodes with 4x the DRAM's HMAT bandwidth
 *                      and a slow one, no subtypes;
 *   qemu-cxl-relabelled.xml  its topology A (hwloc's subtypes from the DAX
 *                      devices) with the NVM node relabelled CXL-DRAM: hwloc
 *                      2.9 has no CXL subtype and QEMU 7.2 no volatile CXL
 *                      memory, so CXL is covered by relabelling.
 * And a node's memory and hugetlb pool from a sysfs tree
 * (tests/fixtures/sysfs-node, MESS_SYSFS_NODE_ROOT).
 * Nothing is bound: the fixtures are not this machine.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <numa.h>

#include "core/machine/mem.h"
#include "core/machine/memsel.h"
#include "core/machine/nodes.h"
#include "core/options.h"
#include "core/machine/topo.h"

#define FIXTURES "tests/fixtures/topo/"
#define GiB (UINT64_C(1) << 30)

static void kind_table(void **state)
{
	static const struct {
		const char *subtype, *dax;
		enum mess_kind kind;
		int assumed;
	} rows[] = {
		{ "DRAM", NULL, MESS_KIND_DRAM, 0 },
		{ "HBM", NULL, MESS_KIND_HBM, 0 },
		{ "hbm", NULL, MESS_KIND_HBM, 0 },
		{ "MCDRAM", NULL, MESS_KIND_HBM, 0 },
		{ "CXL-DRAM", NULL, MESS_KIND_CXL, 0 },
		{ "CXL-NVM", NULL, MESS_KIND_CXL, 0 },
		{ "NVM", NULL, MESS_KIND_NVM, 0 },
		{ "SPM", NULL, MESS_KIND_SPM, 0 },
		{ "GPUMemory", NULL, MESS_KIND_UNKNOWN, 0 },
		{ NULL, "SPM", MESS_KIND_SPM, 0 },	/* hwloc 2.8's DAXType */
		{ "", "NVM", MESS_KIND_NVM, 0 },
		{ "HBM", "SPM", MESS_KIND_HBM, 0 },	/* the subtype wins */
		{ NULL, NULL, MESS_KIND_DRAM, 1 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int assumed = -1;

		assert_int_equal(mess_kind_of(rows[i].subtype, rows[i].dax, &assumed),
				 rows[i].kind);
		assert_int_equal(assumed, rows[i].assumed);
	}
	/* Every row is complete, and its hwloc names lead back to it. */
	for (int k = 0; k < MESS_NKINDS; k++) {
		int assumed;

		assert_non_null(mess_kinds[k].name);
		assert_non_null(mess_kinds[k].upper);
		assert_true(strlen(mess_kinds[k].desc) > 10);
		assert_int_equal(mess_kind_find(mess_kinds[k].name), k);
		for (int j = 0; mess_kinds[k].hwloc[j]; j++)
			assert_int_equal(mess_kind_of(mess_kinds[k].hwloc[j], NULL, &assumed), k);
	}
	assert_int_equal(mess_kind_find("HBM"), -1);
	assert_int_equal(mess_kind_find("each"), -1);
	assert_int_equal(mess_kind_find(""), -1);
}

static void format_list(void **state)
{
	static const int v[] = { 0, 1, 2, 3, 8, 10, 11 };
	char buf[64], small[8];

	assert_int_equal(mess_format_list(v, 7, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0-3,8,10-11");
	assert_int_equal(mess_format_list(v, 0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(mess_format_list(v + 4, 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "8");
	assert_int_equal(mess_format_list(v, 7, small, sizeof(small)), -ENOSPC);
	assert_string_equal(small, "0-3,...");
}

static void load(struct mess_topo *t, const char *fixture)
{
	setenv("HWLOC_XMLFILE", fixture, 1);
	setenv("HWLOC_THISSYSTEM", "0", 1);
	assert_int_equal(mess_topo_init(t), 0);
	unsetenv("HWLOC_XMLFILE");
	unsetenv("HWLOC_THISSYSTEM");
}

static void xeon_max_nodes(void **state)
{
	static const struct {
		int os;
		enum mess_kind kind;
		uint64_t cap;
		const char *cores;
		int package, tier;
		double bw, lat;
	} want[] = {
		{ 0, MESS_KIND_DRAM, 256 * GiB, "0-1", 0, 1, 115000, 110 },
		{ 1, MESS_KIND_DRAM, 256 * GiB, "2-3", 1, 1, 115000, 110 },
		{ 2, MESS_KIND_HBM, 64 * GiB, "0-1", 0, 0, 390000, 130 },
		{ 3, MESS_KIND_HBM, 64 * GiB, "2-3", 1, 0, 390000, 130 },
	};
	struct mess_topo t;
	struct mess_node *v;

	load(&t, FIXTURES "xeon-max-flat.xml");
	assert_int_equal(t.ncores, 4);
	assert_int_equal(mess_nodes_list(&t, &v), 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(v[i].os, want[i].os);
		assert_int_equal(v[i].kind, want[i].kind);
		assert_int_equal(v[i].assumed, 0);
		assert_int_equal(v[i].capacity, want[i].cap);
		assert_string_equal(v[i].cores, want[i].cores);
		assert_int_equal(v[i].package, want[i].package);
		assert_int_equal(v[i].tier, want[i].tier);
		assert_true(v[i].fw[MESS_FW_BW] == want[i].bw);
		assert_true(v[i].fw[MESS_FW_LAT] == want[i].lat);
		/* Not in the firmware: not given, never 0. */
		assert_true(isnan(v[i].fw[MESS_FW_READ_LAT]));
		assert_true(isnan(v[i].fw[MESS_FW_WRITE_BW]));
		assert_string_equal(v[i].fw_from, want[i].cores);
	}
	free(v);
	mess_topo_fini(&t);
}

static void cxl_nodes(void **state)
{
	struct mess_topo t;
	struct mess_node *v;

	load(&t, FIXTURES "cxl-expander.xml");
	assert_int_equal(mess_nodes_list(&t, &v), 7);
	/* No subtype: DRAM, and said to be assumed. */
	assert_int_equal(v[0].kind, MESS_KIND_DRAM);
	assert_int_equal(v[0].assumed, 1);
	assert_string_equal(v[0].subtype, "");
	assert_true(isnan(v[0].fw[MESS_FW_LAT]));
	assert_string_equal(v[0].fw_from, "");
	assert_int_equal(v[0].tier, -1);
	/* The expanders hang off the machine: every core, no package; the
	 * nearest initiator is the package with the lower latency. */
	assert_int_equal(v[2].kind, MESS_KIND_CXL);
	assert_string_equal(v[2].subtype, "CXL-DRAM");
	assert_string_equal(v[2].cores, "0-3");
	assert_int_equal(v[2].package, -1);
	assert_true(v[2].fw[MESS_FW_READ_LAT] == 250);
	assert_true(v[2].fw[MESS_FW_READ_BW] == 30000);
	assert_true(isnan(v[2].fw[MESS_FW_LAT]));
	assert_string_equal(v[2].fw_from, "0-1");
	assert_true(v[3].fw[MESS_FW_READ_LAT] == 240);
	assert_string_equal(v[3].fw_from, "2-3");
	assert_int_equal(v[4].kind, MESS_KIND_NVM);
	assert_int_equal(v[5].capacity, 0);	/* not given: shown unknown */
	assert_int_equal(v[6].kind, MESS_KIND_UNKNOWN);
	assert_string_equal(v[6].subtype, "GPUMemory");
	/* Latency from a core: its package's figure, matched by hwloc. */
	assert_true(mess_node_latency_from(&t, 2, 1) == 250);
	assert_true(mess_node_latency_from(&t, 2, 3) == 320);
	assert_true(isnan(mess_node_latency_from(&t, 0, 0)));
	assert_true(mess_node_has_core(&t, 0, 1));
	assert_false(mess_node_has_core(&t, 0, 2));
	assert_true(mess_node_has_core(&t, 3, 0));
	free(v);
	mess_topo_fini(&t);
}

struct pick {
	const char *val;
	int core;
	int rc;
	int node;
	enum mess_kind kind;
	const char *text;	/* the rule's start, or the error */
};

static void picks(const char *fixture, const struct pick *p, size_t n)
{
	struct mess_topo t;

	load(&t, fixture);
	for (size_t i = 0; i < n; i++) {
		struct mess_memsel m;
		char err[256] = "";
		int rc = mess_memsel_resolve(&t, p[i].val, p[i].core, &m, err, sizeof(err));

		print_message("--mem-node %s, core %d: %d node %d (%s) %s\n", p[i].val,
			      p[i].core, rc, m.node, m.rule, err);
		assert_int_equal(rc, p[i].rc);
		if (rc) {
			assert_non_null(strstr(err, p[i].text));
			continue;
		}
		assert_int_equal(m.node, p[i].node);
		assert_int_equal(m.kind, p[i].kind);
		assert_string_equal(m.given, p[i].val);
		assert_int_equal(strncmp(m.rule, p[i].text, strlen(p[i].text)), 0);
	}
	mess_topo_fini(&t);
}

static void xeon_max_pick(void **state)
{
	static const struct pick p[] = {
		/* Both HBM nodes are one package's: the core's own wins. */
		{ "hbm", 0, 0, 2, MESS_KIND_HBM, "locality: the hbm node whose cpuset holds core 0" },
		{ "hbm", 3, 0, 3, MESS_KIND_HBM, "locality" },
		{ "dram", 2, 0, 1, MESS_KIND_DRAM, "locality" },
		{ "dram", 1, 0, 0, MESS_KIND_DRAM, "locality" },
		{ "3", 0, 0, 3, MESS_KIND_HBM, "given by number" },
		{ "4", 0, -EINVAL, 0, 0,
		  "--mem-node: node 4 out of range; allowed: a node number 0-3 (the nodes of this machine) or a kind: dram, hbm, cxl, nvm, spm" },
		{ "cxl", 0, -EOPNOTSUPP, 0, 0,
		  "--mem-node cxl: no CXL node on this machine (nodes: 0 dram, 1 dram, 2 hbm, 3 hbm)" },
		{ "HBM", 0, -EINVAL, 0, 0, "--mem-node: 'HBM' is not allowed; allowed: a node number 0-3" },
		{ "unknown", 0, -EINVAL, 0, 0, "'unknown' is not allowed" },
		{ "-1", 0, -EINVAL, 0, 0, "'-1' is not allowed" },
		{ "2x", 0, -EINVAL, 0, 0, "'2x' is not allowed" },
		{ "99999999999999999999", 0, -EINVAL, 0, 0, "out of range" },
	};

	picks(FIXTURES "xeon-max-flat.xml", p, sizeof(p) / sizeof(p[0]));
}

static void cxl_pick(void **state)
{
	static const struct pick p[] = {
		/* Both expanders are local to every core: latency decides. */
		{ "cxl", 0, 0, 2, MESS_KIND_CXL,
		  "latency: hwloc's lowest from core 0 among 2 local cxl nodes (250 ns vs " },
		{ "cxl", 3, 0, 3, MESS_KIND_CXL, "latency: hwloc's lowest from core 3 among 2 local cxl nodes (240 ns vs " },
		/* No firmware figures: the lower OS index. */
		{ "nvm", 2, 0, 4, MESS_KIND_NVM, "lowest OS index" },
		{ "dram", 3, 0, 1, MESS_KIND_DRAM, "locality" },
		{ "hbm", 0, -EOPNOTSUPP, 0, 0,
		  "--mem-node hbm: no HBM node on this machine (nodes: 0 dram, 1 dram, 2 cxl, 3 cxl, 4 nvm, 5 nvm, 6 unknown)" },
		{ "spm", 0, -EOPNOTSUPP, 0, 0, "no SPM node" },
		{ "6", 0, 0, 6, MESS_KIND_UNKNOWN, "given by number" },
		{ "7", 0, -EINVAL, 0, 0, "allowed: a node number 0-6" },
	};

	picks(FIXTURES "cxl-expander.xml", p, sizeof(p) / sizeof(p[0]));
}

/* meta.json's record of the choice. */
static void choice_json(void **state)
{
	struct mess_topo t;
	struct mess_memsel m;
	char err[256];
	json_t *j;

	load(&t, FIXTURES "cxl-expander.xml");
	assert_int_equal(mess_memsel_resolve(&t, "dram", 2, &m, err, sizeof(err)), 0);
	j = mess_memsel_json(&m);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "given")), "dram");
	assert_string_equal(json_string_value(json_object_get(j, "kind")),
			    "dram (no subtype: assumed)");
	assert_int_equal(json_integer_value(json_object_get(j, "node")), 1);
	assert_non_null(strstr(json_string_value(json_object_get(j, "rule")), "locality"));
	json_decref(j);
	/* Not given: null, and the rule says it was the default. */
	assert_int_equal(mess_memsel_resolve(&t, "", 0, &m, err, sizeof(err)), 0);
	assert_int_equal(m.how, MESS_MEMSEL_DEFAULT);
	j = mess_memsel_json(&m);
	assert_true(json_is_null(json_object_get(j, "given")));
	assert_non_null(strstr(json_string_value(json_object_get(j, "rule")), "default"));
	/* Not chosen among nodes: no decided_by, nothing compared. */
	assert_null(json_object_get(j, "decided_by"));
	assert_null(json_object_get(j, "compared"));
	json_decref(j);
	/* Which figure told the first node from the runner-up. */
	assert_int_equal(mess_memsel_resolve(&t, "dram", 2, &m, err, sizeof(err)), 0);
	assert_string_equal(m.near.decided_by, "locality");
	assert_int_equal(mess_memsel_resolve(&t, "nvm", 0, &m, err, sizeof(err)), 0);
	assert_string_equal(m.near.decided_by, "OS index");
	assert_int_equal(mess_memsel_resolve(&t, "cxl", 0, &m, err, sizeof(err)), 0);
	j = mess_memsel_json(&m);
	assert_string_equal(json_string_value(json_object_get(j, "decided_by")), "hwloc latency");
	assert_int_equal(json_array_size(json_object_get(j, "compared")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
		json_object_get(j, "compared"), 0), "node")), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(j, "compared"), 1), "source")), "hwloc");
	json_decref(j);
	mess_topo_fini(&t);
}

/* HBM with no subtype: the HMAT's bandwidth tells it (issue 21's fifth
 * defect: hwloc 2.9 names it only from a kmem DAX device). */
static void hmat_only(void **state)
{
	struct mess_topo t;
	struct mess_node *v;
	char label[96];
	int n;

	load(&t, FIXTURES "xeon-max-hmat-only.xml");
	n = mess_nodes_list(&t, &v);
	assert_int_equal(n, 4);
	for (int i = 0; i < 4; i++) {
		print_message("node %d: kind %d assumed %d x %.2f home %d\n", v[i].os,
			      v[i].kind, v[i].assumed, v[i].hmat_x, v[i].hmat_home);
		assert_int_equal(v[i].kind, i < 2 ? MESS_KIND_DRAM : MESS_KIND_HBM);
		assert_int_equal(v[i].assumed, i < 2);
	}
	assert_true(fabs(v[2].hmat_x - 390000.0 / 115000) < 1e-9);
	assert_int_equal(v[2].hmat_home, 0);
	assert_int_equal(v[3].hmat_home, 1);
	mess_node_kind_label(&v[3], label, sizeof(label));
	assert_string_equal(label, "hbm (no subtype: HMAT bandwidth 3.4x node 1's)");
	free(v);
	mess_topo_fini(&t);

	static const struct pick p[] = {
		{ "hbm", 0, 0, 2, MESS_KIND_HBM, "locality: the hbm node whose cpuset holds core 0" },
		{ "hbm", 2, 0, 3, MESS_KIND_HBM, "locality" },
		{ "dram", 3, 0, 1, MESS_KIND_DRAM, "locality" },
	};
	picks(FIXTURES "xeon-max-hmat-only.xml", p, sizeof(p) / sizeof(p[0]));
}

/* The rule counts the nodes it chose among: the local ones (issue 21's
 * eighth defect said "among 3 dram nodes" where 2 were local), on the
 * emulated machine's own topology; and its CXL relabelling. */
static void qemu_picks(void **state)
{
	static const struct pick b[] = {
		{ "dram", 0, 0, 0, MESS_KIND_DRAM,
		  "latency: hwloc's lowest from core 0 among 2 local dram nodes (100 ns vs " },
		{ "hbm", 2, 0, 3, MESS_KIND_HBM,
		  "locality: the hbm node whose cpuset holds core 2 (hwloc); hbm by the HMAT's bandwidth, hwloc gives no subtype" },
		{ "nvm", 0, -EOPNOTSUPP, 0, 0,
		  "--mem-node nvm: no NVM node on this machine (nodes: 0 dram, 1 dram, 2 hbm, 3 hbm, 4 dram)" },
	};
	static const struct pick a[] = {
		{ "cxl", 2, 0, 4, MESS_KIND_CXL, "the only cxl node" },
		{ "hbm", 0, 0, 2, MESS_KIND_HBM, "locality" },
	};

	picks(FIXTURES "qemu-hmat-only.xml", b, sizeof(b) / sizeof(b[0]));
	picks(FIXTURES "qemu-cxl-relabelled.xml", a, sizeof(a) / sizeof(a[0]));
}

/* --mem-node names a node remote from the chase core (issue 36 item 4):
 * said, with the local node of its kind where there is one; a CPU-less
 * node's package is hwloc's (packages_loaded counts it). */
static void remote_said(void **state)
{
	static const struct {
		const char *val;
		int core, node, alt;
		const char *said;	/* "" local */
	} rows[] = {
		{ "2", 2, 2, 3, "node 2 (hbm) is remote from chase core 2: local to cores 0-1 (package 0), the core is on package 1; node 3 is the hbm node local to it" },
		{ "4", 2, 4, -1, "node 4 (cxl) is remote from chase core 2: local to cores 0-1 (package 0), the core is on package 1; no cxl node is local to it" },
		{ "cxl", 3, 4, -1, "no cxl node is local to it" },
		{ "0", 2, 0, 1, "node 1 is the dram node local to it" },
		{ "2", 0, 2, -1, "" },
		{ "hbm", 2, 3, -1, "" },
		{ "", 1, 0, -1, "" },
	};
	struct mess_topo t;
	struct mess_memsel m;
	char err[256];
	json_t *j, *r;

	load(&t, FIXTURES "qemu-cxl-relabelled.xml");
	assert_int_equal(mess_node_package(&t, 0), 0);
	assert_int_equal(mess_node_package(&t, 3), 1);
	assert_int_equal(mess_node_package(&t, 4), 0);
	assert_int_equal(mess_node_package(&t, 9), -1);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(mess_memsel_resolve(&t, rows[i].val, rows[i].core, &m,
						     err, sizeof(err)), 0);
		print_message("--mem-node %s, core %d: node %d, %s\n", rows[i].val,
			      rows[i].core, m.node, m.remote);
		assert_int_equal(m.node, rows[i].node);
		assert_int_equal(m.local_of_kind, rows[i].alt);
		if (!rows[i].said[0])
			assert_string_equal(m.remote, "");
		else
			assert_non_null(strstr(m.remote, rows[i].said));
		j = mess_memsel_json(&m);
		r = json_object_get(j, "remote");
		/* A local node's record reads as before: no key. */
		assert_true(rows[i].said[0] ? json_is_object(r) : r == NULL);
		if (r && rows[i].alt >= 0)
			assert_int_equal(json_integer_value(json_object_get(r, "local_node_of_kind")),
					 rows[i].alt);
		else if (r)
			assert_true(json_is_null(json_object_get(r, "local_node_of_kind")));
		json_decref(j);
	}
	/* The HMAT's figures from the chase core, for compare: hwloc has
	 * them for each node's best initiators only (sysfs access0). */
	assert_int_equal(mess_memsel_resolve(&t, "2", 0, &m, err, sizeof(err)), 0);
	assert_true(m.fw_lat_ns == 120);
	assert_true(fabs(m.fw_bw_gbs - 81920.0 * 1048576 / 1e9) < 1e-9);
	j = mess_memsel_json(&m);
	r = json_object_get(j, "firmware");
	assert_true(json_integer_value(json_object_get(r, "latency_ns")) == 120 ||
		    json_real_value(json_object_get(r, "latency_ns")) == 120);
	assert_true(json_real_value(json_object_get(r, "bandwidth_gbs")) == 85.899);
	json_decref(j);
	assert_int_equal(mess_memsel_resolve(&t, "2", 2, &m, err, sizeof(err)), 0);
	assert_true(isnan(m.fw_lat_ns) && isnan(m.fw_bw_gbs));
	j = mess_memsel_json(&m);
	assert_null(json_object_get(j, "firmware"));
	json_decref(j);
	mess_topo_fini(&t);
	/* Expanders on the whole machine are local to every core. */
	load(&t, FIXTURES "cxl-expander.xml");
	assert_int_equal(mess_node_package(&t, 2), -1);
	assert_int_equal(mess_memsel_resolve(&t, "2", 3, &m, err, sizeof(err)), 0);
	assert_string_equal(m.remote, "");
	mess_topo_fini(&t);
}

/* A node's memory and its own hugetlb pool, from a sysfs tree; an
 * allocation larger than the node is refused before anything is touched,
 * and hugetlb is not taken where the node's pool is empty. */
static void node_memory(void **state)
{
	char err[160] = "";
	struct mess_buf b;

	setenv("MESS_SYSFS_NODE_ROOT", "tests/fixtures/sysfs-node", 1);
	assert_int_equal(mess_node_total(0), 1048576ULL << 10);
	assert_int_equal(mess_node_free(0), (122880ULL + 2048) << 10);
	assert_int_equal(mess_node_free(2), 120832ULL << 10);
	assert_int_equal(mess_node_total(7), 0);
	assert_int_equal(mess_node_free_hugepages(0), 0);
	assert_int_equal(mess_node_free_hugepages(2), 80);
	assert_int_equal(mess_node_free_hugepages(7), -1);
	assert_int_equal(mess_node_fits(2, 100u << 20, err, sizeof(err)), 0);
	assert_int_equal(mess_node_fits(7, 100u << 30, err, sizeof(err)), 0);
	assert_int_equal(mess_node_fits(2, 600u << 20, err, sizeof(err)), -ENOMEM);
	assert_string_equal(err, "node 2 has 118 MiB free of 128 MiB, the run needs 600 MiB");
	/* Node 0 of the fixture: 122 MiB free, its hugetlb pool empty.  The
	 * host's node 0 is bound to (libnuma present). */
	if (numa_available() >= 0) {
		assert_int_equal(mess_buf_alloc(&b, 600u << 20, 0, 1), -ENOMEM);
		assert_null(b.p);
		assert_int_equal(mess_buf_alloc(&b, 4u << 20, 0, 1), 0);
		assert_int_not_equal(b.hp, MESS_HP_HUGETLB);
		assert_int_equal(b.node, 0);
		mess_buf_free(&b);
	}
	unsetenv("MESS_SYSFS_NODE_ROOT");
}

/* The three witnesses (issue 47): hwloc's 4.3 GiB of a 125 GiB node was
 * seen.  A hwloc figure below sysfs's is not the one used; one above the
 * machine's MemTotal is inconsistent; hwloc alone (an XML file of another
 * machine, kernel 0) is used, and there is no free figure then. */
static void node_witnesses(void **state)
{
	struct mess_node_mem m;
	json_t *j;

	setenv("MESS_SYSFS_NODE_ROOT", "tests/fixtures/sysfs-node", 1);
	mess_node_mem_read(0, 16u << 20, 1, &m);
	assert_int_equal(m.total_from, MESS_WIT_SYSFS);
	assert_int_equal(mess_node_mem_total(&m), 1048576ULL << 10);
	assert_int_equal(mess_node_mem_free(&m), (122880ULL + 2048) << 10);
	/* libnuma reads the real /sys: not asked beside a fixture. */
	assert_int_equal(m.total[MESS_WIT_LIBNUMA], 0);
	mess_node_mem_read(0, 1ULL << 50, 1, &m);
	if (m.machine) {
		assert_int_equal(m.total_from, MESS_WIT_SYSFS);
	}
	mess_node_mem_read(0, 2ULL << 30, 0, &m);
	assert_int_equal(m.total_from, MESS_WIT_HWLOC);
	assert_int_equal(m.free_from, -1);
	mess_node_mem_read(0, 16u << 20, 1, &m);
	j = mess_node_mem_json(&m);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "capacity_from")), "sysfs");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		json_object_get(j, "witnesses"), "hwloc"), "capacity_bytes")), 16u << 20);
	json_decref(j);
	unsetenv("MESS_SYSFS_NODE_ROOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kind_table),
		cmocka_unit_test(format_list),
		cmocka_unit_test(xeon_max_nodes),
		cmocka_unit_test(cxl_nodes),
		cmocka_unit_test(xeon_max_pick),
		cmocka_unit_test(cxl_pick),
		cmocka_unit_test(choice_json),
		cmocka_unit_test(hmat_only),
		cmocka_unit_test(qemu_picks),
		cmocka_unit_test(remote_said),
		cmocka_unit_test(node_memory),
		cmocka_unit_test(node_witnesses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
