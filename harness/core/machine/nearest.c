// SPDX-License-Identifier: MIT
#include "core/machine/nearest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine/hmat.h"
#include "core/machine/nodes.h"
#include "core/machine/topo.h"

/* Nearer first: the higher rank, then the lower latency (one not given
 * counts as worse), then the lower OS index. */
static int nearer(const void *pa, const void *pb)
{
	const struct mess_near *a = pa, *b = pb;
	double la = isnan(a->lat_ns) ? INFINITY : a->lat_ns;
	double lb = isnan(b->lat_ns) ? INFINITY : b->lat_ns;

	if (a->rank != b->rank)
		return b->rank - a->rank;
	if (la != lb)
		return la < lb ? -1 : 1;
	return a->os - b->os;
}

/* hwloc's figure, else the table's; the table is read only when hwloc
 * lacks one (it is root's, and slow to map: every node's blocks). */
static void figures(struct mess_topo *t, struct mess_near *c, int n, int core, int init)
{
	struct mess_hmat h = { 0 };
	char why[256];
	int missing = 0;

	for (int i = 0; i < n; i++) {
		c[i].lat_ns = mess_node_latency_from(t, c[i].os, core);
		c[i].lat_src = isnan(c[i].lat_ns) ? NULL : "hwloc";
		missing += isnan(c[i].lat_ns);
	}
	if (!missing || init < 0 || mess_hmat_machine(t, &h, why, sizeof(why)))
		return;
	for (int i = 0; i < n; i++) {
		double v = isnan(c[i].lat_ns) ? mess_hmat_lat(&h, init, c[i].os) : NAN;

		if (v > 0) {
			c[i].lat_ns = v;
			c[i].lat_src = "ACPI HMAT";
		}
	}
	mess_hmat_free(&h);
}

int mess_near_sort(struct mess_topo *t, struct mess_near *c, int n, int core,
		   const char *rank_name, struct mess_near_pick *p)
{
	int tied;

	*p = (struct mess_near_pick){ .init = mess_topo_node_of_core(t, core) };
	figures(t, c, n, core, p->init);
	qsort(c, (size_t)n, sizeof(c[0]), nearer);
	for (tied = 1; tied < n && c[tied].rank == c[0].rank; tied++)
		;
	p->n = n < 2 ? n : 2;
	for (int i = 0; i < p->n; i++)
		p->fig[i] = c[i];
	if (n == 1)
		p->decided_by = "only node";
	else if (c[0].rank != c[1].rank)
		p->decided_by = rank_name;
	else if (!isnan(c[0].lat_ns) && (isnan(c[1].lat_ns) || c[0].lat_ns < c[1].lat_ns))
		p->decided_by = strcmp(c[0].lat_src, "hwloc") ||
				(c[1].lat_src && strcmp(c[1].lat_src, "hwloc")) ?
				"ACPI HMAT latency" : "hwloc latency";
	else
		p->decided_by = "OS index";
	return tied;
}

void mess_near_latency_said(const struct mess_near_pick *p, int core, int tied,
			    const char *among, char *buf, size_t len)
{
	const struct mess_near *a = &p->fig[0], *b = &p->fig[1];
	char vs[32];

	if (isnan(b->lat_ns))
		snprintf(vs, sizeof(vs), "none for node %d", b->os);
	else
		snprintf(vs, sizeof(vs), "%.0f ns", b->lat_ns);
	if (!strcmp(p->decided_by, "ACPI HMAT latency"))
		snprintf(buf, len, "latency: the ACPI HMAT's lowest from core %d's node %d among %d %s%snodes (%.0f ns vs %s)",
			 core, p->init, tied, among, *among ? " " : "", a->lat_ns, vs);
	else
		snprintf(buf, len, "latency: hwloc's lowest from core %d among %d %s%snodes (%.0f ns vs %s)",
			 core, tied, among, *among ? " " : "", a->lat_ns, vs);
}

json_t *mess_near_json(const struct mess_near_pick *p)
{
	json_t *a;

	if (p->n < 2)
		return NULL;
	a = json_array();
	for (int i = 0; a && i < p->n; i++)
		json_array_append_new(a, mess_json_pack("{s:i, s:o, s:s?}", "node", p->fig[i].os,
							"latency_ns", mess_json_real(p->fig[i].lat_ns, 0),
							"source", p->fig[i].lat_src));
	return a;
}
