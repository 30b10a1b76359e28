// SPDX-License-Identifier: MIT
/*
 * `mess nodes`: the NUMA nodes and the kind of memory behind each (DRAM,
 * HBM, CXL, NVM, SPM), so that a user can choose --mem-node by number or by
 * kind.  It measures nothing and writes no run directory: locality comes
 * from hwloc, capacity from three witnesses (hwloc, libnuma, sysfs: mem.h), bandwidth and latency from the firmware (ACPI
 * HMAT) through hwloc's memory attributes, where it gives them.
 */
#include "nodes/cmd.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine/mem.h"
#include "core/machine/nodes.h"
#include "core/options.h"
#include "mess/json.h"

struct nodes_opts {
	int json;
	int help;
};

#define F(field) MESS_OPT_F(struct nodes_opts, field)

static const struct mess_opt opts[] = {
	MESS_OPT_FLAG_ROW("json", F(json), "print JSON on stdout instead of the table"),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

#define SOURCE "hwloc: NUMA nodes, their subtype (kind) and cpuset; bandwidth and latency are hwloc's memory attributes, i.e. the firmware's ACPI HMAT, from the initiator with the best latency (else bandwidth)"

void mess_nodes_usage(FILE *f)
{
	fprintf(f,
		"usage: mess nodes [OPTION]...\n"
		"The NUMA nodes of this machine: the kind of memory (dram, hbm, cxl, nvm, spm),\n"
		"capacity, the cores local to each (hwloc logical numbers, as --core takes),\n"
		"their package, and the bandwidth and latency the firmware (ACPI HMAT) gives\n"
		"for the nearest cores.  Nothing is measured and nothing is written.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nKinds (--mem-node KIND binds to the nearest node of the kind):\n");
	for (int k = 0; k < MESS_NKINDS; k++)
		fprintf(f, "  %-8s %s\n", mess_kinds[k].name, mess_kinds[k].desc);
	fprintf(f,
		"The nearest node of a kind: one local to the chase core (its hwloc cpuset holds\n"
		"the core), then the lowest firmware latency from the core, then the lowest node\n"
		"number; meta.json's memory_node_choice says which rule chose it.  unknown cannot\n"
		"be asked for.  hwloc (2.9) names a kind only for nodes backed by a kmem DAX\n"
		"device (SPM, NVM, and HBM: SPM with over twice DRAM's bandwidth in the HMAT).\n"
		"A node it leaves without a subtype is HBM here when the firmware (HMAT) gives\n"
		"it over twice the bandwidth of the home node of the same cores (the one of\n"
		"lowest latency), shown as \"hbm (no subtype: HMAT bandwidth 4.0x node 0's)\"\n"
		"(Xeon Max in flat mode on Debian 12); else \"dram (no subtype: assumed)\".\n"
		"\nExamples:\n"
		"  mess nodes                          the table\n"
		"  mess nodes --json | jq '.nodes[] | select(.kind == \"hbm\") | .node'\n"
		"  mess ladder --mem-node hbm          then measure the HBM nearest to core 0\n"
		"\nExit status: 0 ok, 1 bad usage, 2 failure.\n");
}

static void capacity(uint64_t b, char *buf, size_t len)
{
	if (!b)
		snprintf(buf, len, "unknown");
	else if (b >= 1ULL << 30)
		snprintf(buf, len, "%.1f GiB", (double)b / (1 << 30));
	else
		snprintf(buf, len, "%.0f MiB", (double)b / (1 << 20));
}

/* The firmware's average, else its read and write figures. */
static int figure(char *buf, size_t len, const double *v, const char *unit,
		  double scale, int dec)
{
	static const char *const what[3] = { "", "read ", "write " };
	int at = 0;

	if (!isnan(v[0]))
		return snprintf(buf, len, "%.*f %s", dec, v[0] * scale, unit);
	for (int i = 1; i < 3; i++)
		if (!isnan(v[i]))
			at += snprintf(buf + at, len - (size_t)at, "%s%s%.*f %s",
				       at ? ", " : "", what[i], dec, v[i] * scale, unit);
	return at;
}

static void fw_label(const struct mess_node *n, char *buf, size_t len)
{
	char bw[96] = "", lat[96] = "";

	if (!n->fw_from[0]) {
		snprintf(buf, len, "not given by firmware");
		return;
	}
	/* MiB/s to GB/s (1e9 B/s), the unit of every other bandwidth here. */
	if (!figure(bw, sizeof(bw), &n->fw[MESS_FW_BW], "GB/s", 1048576 / 1e9, 1))
		snprintf(bw, sizeof(bw), "bandwidth not given");
	if (!figure(lat, sizeof(lat), &n->fw[MESS_FW_LAT], "ns", 1, 0))
		snprintf(lat, sizeof(lat), "latency not given");
	snprintf(buf, len, "%s; %s (from cores %s)", bw, lat, n->fw_from);
}

/* "hwloc 4.3 GiB; libnuma 125.0 GiB, 120.2 GiB free; sysfs ...": each
 * witness that says. */
static void witnesses(const struct mess_node_mem *m, char *buf, size_t len)
{
	char a[32], b[32];
	int at = 0;

	for (int w = 0; w < MESS_NWIT && at < (int)len; w++) {
		if (!m->total[w] && !m->free[w])
			continue;
		capacity(m->total[w], a, sizeof(a));
		capacity(m->free[w], b, sizeof(b));
		at += snprintf(buf + at, len - (size_t)at, "%s%s %s%s%s%s", at ? "; " : "",
			       mess_wit_names[w], a, m->free[w] ? ", " : "",
			       m->free[w] ? b : "", m->free[w] ? " free" : "");
	}
}

static void print_table(struct mess_topo *t, const struct mess_node *v, int n)
{
	struct mess_node_mem mem;
	char wit[256];
	char kind[96], cap[32], fw[512], pkg[16];
	int wk = 4, wc = 5, tiers = 0, assumed = 0, wide = 0, hmat = 0;
	int seen[MESS_NKINDS] = { 0 };

	for (int i = 0; i < n; i++) {
		mess_node_kind_label(&v[i], kind, sizeof(kind));
		wk = (int)strlen(kind) > wk ? (int)strlen(kind) : wk;
		wc = (int)strlen(v[i].cores) > wc ? (int)strlen(v[i].cores) : wc;
		tiers |= v[i].tier >= 0;
		assumed |= v[i].assumed;
		hmat |= v[i].hmat_x > 0;
		wide |= v[i].package < 0;
	}
	printf("%-4s  %-*s  %-10s  %-*s  %-7s  %s%s\n", "node", wk, "kind",
	       "capacity", wc, "cores", "package", tiers ? "tier  " : "",
	       "firmware (HMAT): bandwidth; latency");
	for (int i = 0; i < n; i++) {
		mess_node_kind_label(&v[i], kind, sizeof(kind));
		mess_node_mem_of(t, v[i].os, &mem);
		capacity(mess_node_mem_total(&mem), cap, sizeof(cap));
		fw_label(&v[i], fw, sizeof(fw));
		if (v[i].package >= 0)
			snprintf(pkg, sizeof(pkg), "%d", v[i].package);
		else
			snprintf(pkg, sizeof(pkg), "none");
		printf("%-4d  %-*s  %-10s  %-*s  %-7s  ", v[i].os, wk, kind, cap,
		       wc, v[i].cores[0] ? v[i].cores : "none", pkg);
		if (tiers && v[i].tier >= 0)
			printf("%-4d  ", v[i].tier);
		else if (tiers)
			printf("%-4s  ", "?");
		printf("%s\n", fw);
		seen[v[i].kind] = 1;
	}
	printf("\n");
	for (int k = 0; k < MESS_NKINDS; k++)
		if (seen[k])
			printf("%s: %s\n", mess_kinds[k].name, mess_kinds[k].desc);
	if (assumed || hmat)
		printf("no subtype: hwloc (2.9) names kinds only for memory from a kmem DAX device; the\n"
		       "  firmware's (HMAT) bandwidth above %.0fx its cores' home node's means HBM, else DRAM is assumed\n",
		       MESS_HBM_BW_X);
	/* Only this machine's kernel witnesses an XML file's nodes not. */
	for (int i = 0; t->this_system && i < n; i++) {
		mess_node_mem_of(t, v[i].os, &mem);
		witnesses(&mem, wit, sizeof(wit));
		printf("node %d memory: %s: capacity from %s, free from %s\n", v[i].os, wit,
		       mem.total_from < 0 ? "none" : mess_wit_names[mem.total_from],
		       mem.free_from < 0 ? "none" : mess_wit_names[mem.free_from]);
	}
	if (t->this_system)
		printf("capacity: the largest consistent witness (no larger than the machine's MemTotal)\n");
	if (tiers)
		printf("tier: hwloc's MemoryTier, 0 for the highest-bandwidth tier\n");
	if (wide)
		printf("package none: memory attached to the whole machine (its cores are all cores)\n");
	printf("cores: hwloc logical numbers (--core, --chase-core).  Bind with --mem-node N,\n"
	       "or --mem-node KIND for the nearest node of that kind to the chase core.\n");
}

static json_t *node_json(struct mess_topo *t, const struct mess_node *n)
{
	struct mess_node_mem mem;
	json_t *fw = json_object();

	/* hwloc's figures are whole MiB/s and ns. */
	for (int i = 0; i < MESS_NFW; i++)
		json_object_set_new(fw, mess_fw_names[i], isnan(n->fw[i]) ? json_null() :
				    json_integer((json_int_t)n->fw[i]));
	json_object_set_new(fw, "initiator_cores",
			    n->fw_from[0] ? json_string(n->fw_from) : json_null());
	mess_node_mem_of(t, n->os, &mem);
	return mess_json_pack("{s:i, s:s, s:s, s:s?, s:o, s:o, s:s, s:o, s:o, s:o}",
		"node", n->os, "kind", mess_kinds[n->kind].name,
		"kind_from", n->assumed ? "no subtype: assumed" :
			     n->hmat_x ? "no subtype: firmware (HMAT) bandwidth" :
			     n->kind == MESS_KIND_UNKNOWN ? "subtype not known to mess" : "subtype",
		"subtype", n->subtype[0] ? n->subtype : NULL,
		"capacity_bytes", mess_node_mem_total(&mem) ? json_integer((json_int_t)mess_node_mem_total(&mem)) : json_null(),
		"memory", mess_node_mem_json(&mem),
		"cores", n->cores,
		"package", n->package >= 0 ? json_integer(n->package) : json_null(),
		"memory_tier", n->tier >= 0 ? json_integer(n->tier) : json_null(),
		"firmware", fw);
}

static int print_json(struct mess_topo *t, const struct mess_node *v, int n)
{
	json_t *nodes = json_array(), *kinds = json_object(), *j;
	int rc;

	for (int i = 0; i < n; i++)
		json_array_append_new(nodes, node_json(t, &v[i]));
	for (int k = 0; k < MESS_NKINDS; k++)
		json_object_set_new(kinds, mess_kinds[k].name, json_string(mess_kinds[k].desc));
	j = mess_json_pack("{s:s, s:s?, s:s, s:s, s:o, s:o}",
			   "cpu_model", t->cpu_model,
			   "hwloc", mess_nodes_hwloc_version(t),
			   "source", SOURCE,
			   "numbering", "node: OS index (--mem-node, numactl); cores: hwloc logical core numbers (--core); package: hwloc logical index, null for memory attached to the whole machine",
			   "nodes", nodes, "kinds", kinds);
	if (!j)
		return -ENOMEM;
	rc = mess_json_dumpf(j, stdout);
	json_decref(j);
	return rc;
}

int mess_nodes_main(int argc, char **argv)
{
	struct nodes_opts o = { 0 };
	struct mess_topo topo;
	struct mess_node *v;
	int n, rc;

	rc = mess_cmd_open("mess nodes", opts, NOPTS, &o, &o.help,
			   mess_nodes_usage, argc, argv, NULL, 0, NULL);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (mess_topo_init_said(&topo, "mess nodes"))
		return -EIO;
	n = mess_nodes_list(&topo, &v);
	if (n < 0) {
		fprintf(stderr, "mess nodes: hwloc lists no NUMA node: %s\n", strerror(-n));
		mess_topo_fini(&topo);
		return -EIO;
	}
	if (o.json) {
		rc = print_json(&topo, v, n);
	} else {
		const char *ver = mess_nodes_hwloc_version(&topo);

		printf("%s: %d NUMA node%s, %d cores (hwloc %s)\n\n", topo.cpu_model,
		       n, n == 1 ? "" : "s", topo.ncores, ver ? ver : "version not recorded");
		/* A failed write is main's to report, once for every command. */
		print_table(&topo, v, n);
		rc = 0;
	}
	free(v);
	mess_topo_fini(&topo);
	return rc ? -EIO : 0;
}
