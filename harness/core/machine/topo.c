// SPDX-License-Identifier: MIT
#include "core/machine/topo.h"

#include <errno.h>
#include <hwloc.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hwloc_obj_t core_obj(struct mess_topo *t, int core)
{
	return hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_CORE, (unsigned)core);
}

int mess_topo_llc_of_core(struct mess_topo *t, int core, uint64_t *bytes,
			  int *level)
{
	hwloc_obj_t o = core_obj(t, core);
	hwloc_obj_t best = NULL;

	if (!o)
		return -EINVAL;
	/* The outermost data cache covering this core is its LLC. */
	for (; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type) ||
		    o->type == HWLOC_OBJ_L1CACHE)
			best = o;
	if (!best)
		return -ENOENT;
	*bytes = best->attr->cache.size;
	if (level)
		*level = (int)best->attr->cache.depth;
	if (best->attr->cache.linesize)
		t->line_bytes = best->attr->cache.linesize;
	return 0;
}

int mess_topo_caches_of_core(struct mess_topo *t, int core, int *level,
			     uint64_t *bytes, int max)
{
	hwloc_obj_t o = core_obj(t, core);
	int n = 0;

	if (!o)
		return -EINVAL;
	for (; o && n < max; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type) && o->attr->cache.size) {
			level[n] = (int)o->attr->cache.depth;
			bytes[n++] = o->attr->cache.size;
		}
	return n;
}

void mess_topo_l1_l2(struct mess_topo *t, int core, uint64_t *l1,
		     uint64_t *l2)
{
	int level[4], n;
	uint64_t bytes[4];

	*l1 = *l2 = 0;
	n = mess_topo_caches_of_core(t, core, level, bytes, 4);
	for (int i = 0; i < n; i++) {
		if (level[i] == 1 && !*l1)
			*l1 = bytes[i];
		if (level[i] == 2 && !*l2)
			*l2 = bytes[i];
	}
}

int mess_topo_init(struct mess_topo *t)
{
	hwloc_topology_t hw;
	const char *model = NULL;
	int err;

	memset(t, 0, sizeof(*t));
	t->line_bytes = 64;
	if (hwloc_topology_init(&hw) || hwloc_topology_load(hw))
		return -errno ? -errno : -EIO;
	t->hw = hw;
	t->this_system = hwloc_topology_is_thissystem(hw);
	t->ncores = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_CORE);
	if (t->ncores <= 0) {
		err = -ENODEV;
		goto fail;
	}
	t->core_pu = calloc((size_t)t->ncores, sizeof(*t->core_pu));
	if (!t->core_pu) {
		err = -ENOMEM;
		goto fail;
	}
	for (int i = 0; i < t->ncores; i++) {
		hwloc_obj_t c = core_obj(t, i);
		int pu = hwloc_bitmap_first(c->cpuset);

		t->core_pu[i] = pu;
	}
	t->nnodes = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_NUMANODE);
	if (t->nnodes <= 0)
		t->nnodes = 1;
	err = mess_topo_llc_of_core(t, 0, &t->llc_bytes, &t->llc_level);
	if (err)
		goto fail;

	hwloc_obj_t pkg = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PACKAGE, 0);

	if (pkg)
		model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
	if (!model)
		model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(hw),
						   "CPUModel");
	snprintf(t->cpu_model, sizeof(t->cpu_model), "%s",
		 model ? model : "unknown");
	return 0;
fail:
	mess_topo_fini(t);
	return err;
}

int mess_topo_init_said(struct mess_topo *t, const char *prog)
{
	int rc = mess_topo_init(t);

	if (!rc)
		return 0;
	fprintf(stderr, "%s: hwloc could not read the topology: %s\n", prog,
		strerror(-rc));
	return -EIO;
}

void mess_topo_fini(struct mess_topo *t)
{
	if (t->hw)
		hwloc_topology_destroy(t->hw);
	free(t->core_pu);
	t->hw = NULL;
	t->core_pu = NULL;
}

int mess_topo_bind_core(struct mess_topo *t, int core)
{
	hwloc_obj_t c = core_obj(t, core);
	hwloc_bitmap_t set;
	int err = 0;

	if (!c)
		return -EINVAL;
	set = hwloc_bitmap_dup(c->cpuset);
	if (!set)
		return -ENOMEM;
	/* One PU, so an SMT sibling never hosts a second measured thread. */
	hwloc_bitmap_singlify(set);
	if (hwloc_set_cpubind(t->hw, set, HWLOC_CPUBIND_THREAD |
						  HWLOC_CPUBIND_STRICT))
		err = -errno ? -errno : -EINVAL;
	hwloc_bitmap_free(set);
	return err;
}

int mess_topo_pus_of_core(struct mess_topo *t, int core, int *pus, int max)
{
	hwloc_obj_t o = core_obj(t, core);
	unsigned pu;
	int n = 0;

	if (!o || !o->cpuset)
		return 0;
	hwloc_bitmap_foreach_begin(pu, o->cpuset)
		if (n < max)
			pus[n++] = (int)pu;
	hwloc_bitmap_foreach_end();
	return n;
}

int mess_topo_node_of_core(struct mess_topo *t, int core)
{
	int node;

	if (core < 0 || core >= t->ncores || numa_available() < 0)
		return 0;
	node = numa_node_of_cpu(t->core_pu[core]);
	return node < 0 ? 0 : node;
}

int mess_topo_npackages(struct mess_topo *t)
{
	int n = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PACKAGE);

	return n > 0 ? n : 1;
}

/* The package (socket) of a PU by its OS index: hwloc's logical index,
 * 0 when hwloc shows none (a VM may show no package object), -ENOENT for a
 * PU this machine does not have. */
int mess_topo_package_of_pu(struct mess_topo *t, int os_pu)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)os_pu);
	hwloc_obj_t pkg;

	if (!pu)
		return -ENOENT;
	pkg = hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, pu);
	return pkg ? (int)pkg->logical_index : 0;
}

int mess_topo_package_of_core(struct mess_topo *t, int core)
{
	if (core < 0 || core >= t->ncores)
		return -EINVAL;
	return mess_topo_package_of_pu(t, t->core_pu[core]);
}

int mess_topo_pus(struct mess_topo *t, int *pus, int max)
{
	int n = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PU), k = 0;

	for (int i = 0; i < n && k < max; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_PU, (unsigned)i);

		if (pu)
			pus[k++] = (int)pu->os_index;
	}
	return k;
}

int mess_topo_bind_pu(struct mess_topo *t, int os_pu)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)os_pu);

	if (!pu)
		return -EINVAL;
	if (hwloc_set_cpubind(t->hw, pu->cpuset, HWLOC_CPUBIND_THREAD |
						   HWLOC_CPUBIND_STRICT))
		return errno ? -errno : -EINVAL;
	return 0;
}

int mess_topo_pu_share(struct mess_topo *t, int a, int b)
{
	hwloc_obj_t pa = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)a);
	hwloc_obj_t pb = hwloc_get_pu_obj_by_os_index(t->hw, (unsigned)b);
	hwloc_obj_t o;

	if (!pa || !pb)
		return -EINVAL;
	/* Caches sit above the core in hwloc's tree: the first common
	 * ancestor is the core for siblings, a cache for a cluster or an
	 * L3, else a die, group or package, else the machine. */
	o = hwloc_get_common_ancestor_obj(t->hw, pa, pb);
	if (o->type == HWLOC_OBJ_CORE || o->type == HWLOC_OBJ_PU)
		return MESS_SHARE_CORE;
	if (hwloc_obj_type_is_cache(o->type))
		return MESS_SHARE_CACHE;
	for (; o; o = o->parent)
		if (o->type == HWLOC_OBJ_PACKAGE)
			return MESS_SHARE_PACKAGE;
	/* A VM may show no package at all: one socket. */
	return hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PACKAGE) > 1 ?
	       MESS_SHARE_NONE : MESS_SHARE_PACKAGE;
}

int mess_topo_core_of_pu(struct mess_topo *t, int os_pu)
{
	for (int c = 0; c < t->ncores; c++) {
		int pus[16], n = mess_topo_pus_of_core(t, c, pus, 16);

		for (int i = 0; i < n; i++)
			if (pus[i] == os_pu)
				return c;
	}
	return -1;
}
