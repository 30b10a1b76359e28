// SPDX-License-Identifier: MIT
#include "core/machine/nodes.h"

#include <errno.h>
#include <hwloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/machine/mem.h"
#include "core/options.h"

/*
 * hwloc 2.8+ names what it recognises on Linux (DRAM, HBM, MCDRAM on KNL,
 * SPM, NVM, GPUMemory); 2.10+ adds CXL-DRAM and CXL-NVM.  CXL-NVM counts
 * as cxl: being behind the link is what sets its latency.
 */
const struct mess_kind_row mess_kinds[MESS_NKINDS] = {
	[MESS_KIND_DRAM] = { "dram", "DRAM",
			     "ordinary main memory (DDR) on the CPU's memory controllers",
			     { "DRAM" } },
	[MESS_KIND_HBM] = { "hbm", "HBM",
			    "high-bandwidth memory in the package (Xeon Max in flat mode; MCDRAM on Xeon Phi)",
			    { "HBM", "MCDRAM" } },
	[MESS_KIND_CXL] = { "cxl", "CXL",
			    "memory behind a CXL link (a memory expander), DRAM or non-volatile",
			    { "CXL-DRAM", "CXL-NVM" } },
	[MESS_KIND_NVM] = { "nvm", "NVM",
			    "non-volatile memory used as RAM (e.g. Optane persistent memory)",
			    { "NVM" } },
	[MESS_KIND_SPM] = { "spm", "SPM",
			    "specific-purpose memory (EFI_MEMORY_SP), kept for the applications that ask for it",
			    { "SPM" } },
	[MESS_KIND_UNKNOWN] = { "unknown", "unknown",
				"a subtype mess does not know (e.g. hwloc's GPUMemory)",
				{ NULL } },
};

const char *const mess_fw_names[MESS_NFW] = {
	[MESS_FW_BW] = "bandwidth_mibs",
	[MESS_FW_READ_BW] = "read_bandwidth_mibs",
	[MESS_FW_WRITE_BW] = "write_bandwidth_mibs",
	[MESS_FW_LAT] = "latency_ns",
	[MESS_FW_READ_LAT] = "read_latency_ns",
	[MESS_FW_WRITE_LAT] = "write_latency_ns",
};

static const hwloc_memattr_id_t fw_attr[MESS_NFW] = {
	[MESS_FW_BW] = HWLOC_MEMATTR_ID_BANDWIDTH,
	[MESS_FW_READ_BW] = HWLOC_MEMATTR_ID_READ_BANDWIDTH,
	[MESS_FW_WRITE_BW] = HWLOC_MEMATTR_ID_WRITE_BANDWIDTH,
	[MESS_FW_LAT] = HWLOC_MEMATTR_ID_LATENCY,
	[MESS_FW_READ_LAT] = HWLOC_MEMATTR_ID_READ_LATENCY,
	[MESS_FW_WRITE_LAT] = HWLOC_MEMATTR_ID_WRITE_LATENCY,
};

/* Which attribute names the nearest initiator: latency first, since that
 * is what "near" means, bandwidth where the firmware gives only that. */
static const enum mess_fw nearest_by[MESS_NFW] = {
	MESS_FW_LAT, MESS_FW_READ_LAT, MESS_FW_WRITE_LAT,
	MESS_FW_BW, MESS_FW_READ_BW, MESS_FW_WRITE_BW,
};

int mess_kind_find(const char *name)
{
	for (int k = 0; k < MESS_NKINDS; k++)
		if (!strcmp(mess_kinds[k].name, name))
			return k;
	return -1;
}

static int kind_of_string(const char *s)
{
	for (int k = 0; k < MESS_NKINDS; k++)
		for (int i = 0; mess_kinds[k].hwloc[i]; i++)
			if (!strcasecmp(mess_kinds[k].hwloc[i], s))
				return k;
	return MESS_KIND_UNKNOWN;
}

enum mess_kind mess_kind_of(const char *subtype, const char *daxtype,
			    int *assumed)
{
	*assumed = 0;
	if (subtype && *subtype)
		return kind_of_string(subtype);
	if (daxtype && *daxtype)
		return kind_of_string(daxtype);
	*assumed = 1;
	return MESS_KIND_DRAM;
}

/* The cores whose cpuset lies in set, as a list of logical indices. */
static void core_list(struct mess_topo *t, hwloc_const_cpuset_t set, char *buf,
		      size_t len)
{
	int *v = calloc((size_t)t->ncores, sizeof(*v)), n = 0;

	buf[0] = 0;
	if (!v)
		return;
	for (int i = 0; i < t->ncores; i++) {
		hwloc_obj_t c = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_CORE, (unsigned)i);

		if (c && !hwloc_bitmap_iszero(c->cpuset) &&
		    hwloc_bitmap_isincluded(c->cpuset, set))
			v[n++] = i;
	}
	mess_format_list(v, n, buf, len);
	free(v);
}

static void firmware(struct mess_topo *t, hwloc_obj_t o, struct mess_node *n)
{
	struct hwloc_location loc;
	hwloc_uint64_t v;
	int found = 0;

	for (int i = 0; i < MESS_NFW; i++)
		n->fw[i] = NAN;
	for (int i = 0; i < MESS_NFW && !found; i++)
		found = !hwloc_memattr_get_best_initiator(t->hw, fw_attr[nearest_by[i]],
							 o, 0, &loc, &v) &&
			loc.type == HWLOC_LOCATION_TYPE_CPUSET;
	if (!found)
		return;
	for (int i = 0; i < MESS_NFW; i++)
		if (!hwloc_memattr_get_value(t->hw, fw_attr[i], o, &loc, 0, &v))
			n->fw[i] = (double)v;
	core_list(t, loc.location.cpuset, n->fw_from, sizeof(n->fw_from));
}

static void describe(struct mess_topo *t, hwloc_obj_t o, struct mess_node *n)
{
	const char *dax = hwloc_obj_get_info_by_name(o, "DAXType");
	const char *tier = hwloc_obj_get_info_by_name(o, "MemoryTier");

	n->os = (int)o->os_index;
	n->kind = mess_kind_of(o->subtype, dax, &n->assumed);
	snprintf(n->subtype, sizeof(n->subtype), "%s",
		 o->subtype ? o->subtype : dax ? dax : "");
	n->capacity = o->attr->numanode.local_memory;
	core_list(t, o->cpuset, n->cores, sizeof(n->cores));
	n->package = mess_node_package(t, n->os);
	n->tier = tier && *tier ? atoi(tier) : -1;
	firmware(t, o, n);
}

/* The firmware's bandwidth to the node from its nearest cores: the
 * average, else the read figure (what the chase and most traffic see). */
static double fw_bw(const struct mess_node *n)
{
	return !isnan(n->fw[MESS_FW_BW]) ? n->fw[MESS_FW_BW] : n->fw[MESS_FW_READ_BW];
}

static double fw_lat(const struct mess_node *n)
{
	return !isnan(n->fw[MESS_FW_LAT]) ? n->fw[MESS_FW_LAT] : n->fw[MESS_FW_READ_LAT];
}

/* HBM that only the HMAT tells (nodes.h): among the nodes without a
 * subtype, by the initiator their figures come from. */
static void hmat_kinds(struct mess_node *v, int n)
{
	for (int i = 0; i < n; i++) {
		const struct mess_node *home = NULL;

		if (!v[i].assumed || !v[i].fw_from[0] || isnan(fw_bw(&v[i])))
			continue;
		for (int j = 0; j < n; j++)
			if (v[j].assumed && !v[j].hmat_x && !strcmp(v[j].fw_from, v[i].fw_from) &&
			    !isnan(fw_bw(&v[j])) && !isnan(fw_lat(&v[j])) &&
			    (!home || fw_lat(&v[j]) < fw_lat(home)))
				home = &v[j];
		if (home && home != &v[i] && fw_bw(home) > 0 &&
		    fw_bw(&v[i]) > MESS_HBM_BW_X * fw_bw(home)) {
			v[i].kind = MESS_KIND_HBM;
			v[i].hmat_x = fw_bw(&v[i]) / fw_bw(home);
			v[i].hmat_home = home->os;
		}
	}
	for (int i = 0; i < n; i++)
		if (v[i].hmat_x)
			v[i].assumed = 0;
}

void mess_node_kind_label(const struct mess_node *n, char *buf, size_t len)
{
	if (n->assumed)
		snprintf(buf, len, "%s (no subtype: assumed)", mess_kinds[n->kind].name);
	else if (n->hmat_x)
		snprintf(buf, len, "%s (no subtype: HMAT bandwidth %.1fx node %d's)",
			 mess_kinds[n->kind].name, n->hmat_x, n->hmat_home);
	else if (n->kind == MESS_KIND_UNKNOWN)
		snprintf(buf, len, "unknown (%s)", n->subtype);
	else
		snprintf(buf, len, "%s", mess_kinds[n->kind].name);
}

static int by_os(const void *a, const void *b)
{
	return ((const struct mess_node *)a)->os - ((const struct mess_node *)b)->os;
}

int mess_nodes_list(struct mess_topo *t, struct mess_node **out)
{
	int n = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_NUMANODE);
	struct mess_node *v;

	*out = NULL;
	if (n <= 0)
		return -ENODEV;
	v = calloc((size_t)n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		describe(t, hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_NUMANODE,
						  (unsigned)i), &v[i]);
	qsort(v, (size_t)n, sizeof(*v), by_os);
	hmat_kinds(v, n);
	*out = v;
	return n;
}

int mess_node_package(struct mess_topo *t, int os)
{
	hwloc_obj_t o = hwloc_get_numanode_obj_by_os_index(t->hw, (unsigned)os);
	hwloc_obj_t pkg = o ? hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, o) : NULL;

	return pkg ? (int)pkg->logical_index : -1;
}

int mess_node_has_core(struct mess_topo *t, int os, int core)
{
	hwloc_obj_t o = hwloc_get_numanode_obj_by_os_index(t->hw, (unsigned)os);
	hwloc_obj_t c = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_CORE, (unsigned)core);

	return o && c && !hwloc_bitmap_iszero(c->cpuset) &&
	       hwloc_bitmap_isincluded(c->cpuset, o->cpuset);
}

/* The firmware's figure `which` from the core to the node (hwloc's units:
 * MiB/s, ns); NAN when not given. */
static double node_fw_from(struct mess_topo *t, int os, int core, enum mess_fw which)
{
	hwloc_obj_t o = hwloc_get_numanode_obj_by_os_index(t->hw, (unsigned)os);
	hwloc_obj_t c = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_CORE, (unsigned)core);
	struct hwloc_location loc = { .type = HWLOC_LOCATION_TYPE_CPUSET };
	hwloc_uint64_t v;

	if (!o || !c)
		return NAN;
	loc.location.cpuset = c->cpuset;
	/* hwloc matches a stored initiator (a package, say) that holds the
	 * core's cpuset. */
	if (!hwloc_memattr_get_value(t->hw, fw_attr[which], o, &loc, 0, &v))
		return (double)v;
	return NAN;
}

double mess_node_latency_from(struct mess_topo *t, int os, int core)
{
	double v = node_fw_from(t, os, core, MESS_FW_LAT);

	return isnan(v) ? node_fw_from(t, os, core, MESS_FW_READ_LAT) : v;
}

double mess_node_bw_from(struct mess_topo *t, int os, int core)
{
	double v = node_fw_from(t, os, core, MESS_FW_READ_BW);

	return isnan(v) ? node_fw_from(t, os, core, MESS_FW_BW) : v;
}

const char *mess_nodes_hwloc_version(struct mess_topo *t)
{
	return hwloc_obj_get_info_by_name(hwloc_get_root_obj(t->hw), "hwlocVersion");
}

void mess_node_mem_of(struct mess_topo *t, int os, struct mess_node_mem *m)
{
	hwloc_obj_t o = hwloc_get_numanode_obj_by_os_index(t->hw, (unsigned)os);

	/* An XML file of another machine: the kernel's figures are this
	 * one's, no witness of that topology. */
	mess_node_mem_read(os, o ? o->attr->numanode.local_memory : 0,
			   t->this_system, m);
}
