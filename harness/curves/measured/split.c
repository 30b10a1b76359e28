// SPDX-License-Identifier: MIT
/*
 * A split --mem-node N:W,N:W of the measured backend: the placement's
 * method chosen before the directory, the pages found on each node once
 * the buffers are touched, judged and written at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "curves/measured/measured.h"

/* Where every page of the split buffers is, once touched: said now,
 * judged and recorded at the end. */
void mess_split_count(struct mess_measured *r)
{
	mess_place_count(&r->place, r->chase.p, r->chase.len, &r->chase_pages);
	mess_gens_place_count(&r->gens, &r->gen_pages);
	r->stripe_chase = mess_place_stripe(&r->place, r->chase.len, MESS_HUGE_BYTES);
	r->stripe_gen = mess_place_stripe(&r->place, r->gen_bytes, MESS_HUGE_BYTES);
	fprintf(stderr, "mess: pages split by %s: chase %.2f, generators %.2f points at most from the shares asked (move_pages)\n",
		mess_place_method_name(r->place.method),
		mess_place_deviation(&r->place, &r->chase_pages),
		mess_place_deviation(&r->place, &r->gen_pages));
}

/*
 * A split --mem-node: its method (--mem-place), and ranges few enough
 * for vm.max_map_count (every bound range is a mapping) over the chase
 * buffer and the generators' arrays.  0, -EINVAL or -EOPNOTSUPP said.
 */
int mess_split_choose(struct mess_measured *r)
{
	enum mess_place_method m = r->place.asked;
	struct mess_place *pl = &r->place;
	unsigned long long maps = 65530;
	char err[512];
	FILE *f;
	int rc;

	if (!r->mem.nsplit) {
		if (r->cfg.mem_place[0])
			fprintf(stderr, "mess: --mem-place: '%s' is only for a split --mem-node N:W,N:W\n",
				r->cfg.mem_place);
		return r->cfg.mem_place[0] ? -EINVAL : 0;
	}
	memset(pl, 0, sizeof(*pl));
	pl->n = r->mem.nsplit;
	memcpy(pl->node, r->mem.split_node, sizeof(pl->node));
	memcpy(pl->weight, r->mem.split_weight, sizeof(pl->weight));
	/* Half the limit for the buffers, the rest for everything else. */
	f = fopen("/proc/sys/vm/max_map_count", "r");
	if (f) {
		if (fscanf(f, "%llu", &maps) != 1)
			maps = 65530;
		fclose(f);
	}
	pl->max_ranges = (size_t)(maps / 2 / (1 + 2 * (unsigned long long)r->ngen));
	if (!pl->max_ranges)
		pl->max_ranges = 1;
	rc = mess_place_choose(pl, m, err, sizeof(err));
	if (rc)
		fprintf(stderr, "mess: %s\n", err);
	else
		fprintf(stderr, "mess: --mem-node %s: %s\n", r->mem.given, pl->why);
	return rc;
}

/*
 * A split's pages further than MESS_PLACE_OFF_POINTS from a share asked:
 * the curves are not those of the ratio named (a node short of free
 * memory, a kernel placing otherwise).
 */
void mess_split_judge(const struct mess_measured *r, struct mess_verdict *v)
{
	double c = mess_place_deviation(&r->place, &r->chase_pages);
	double g = r->ngen ? mess_place_deviation(&r->place, &r->gen_pages) : 0;

	if (!r->mem.nsplit)
		return;
	if (!(c <= MESS_PLACE_OFF_POINTS && g <= MESS_PLACE_OFF_POINTS))
		mess_verdict_add(v, MESS_WARN, "placement_off",
				 "--mem-node %s: the pages found (move_pages) are up to %.1f points (chase) and %.1f (generators) from the shares asked, more than %.0f: the curves are not the ratio's (meta.json memory_node_choice.placement)",
				 r->mem.given, c, g, MESS_PLACE_OFF_POINTS);
}

/* "Pages: ranges (why); chase 75.0 % on node 0, 25.0 % on node 2 ..." */
void mess_split_md(FILE *f, const struct mess_measured *r)
{
	const struct mess_place_count *c[2] = { &r->chase_pages, &r->gen_pages };
	const char *what[2] = { "chase", "generators" };

	fprintf(f, "Pages: %s (%s).", mess_place_method_name(r->place.method), r->place.why);
	for (int k = 0; k < (r->ngen ? 2 : 1); k++) {
		uint64_t found = c[k]->other;

		for (int i = 0; i < r->place.n; i++)
			found += c[k]->pages[i];
		fprintf(f, " %s:", what[k]);
		for (int i = 0; i < r->place.n && found; i++)
			fprintf(f, " %.1f %% on node %d,", 100.0 * (double)c[k]->pages[i] / (double)found,
				r->place.node[i]);
		fprintf(f, " %.2f points at most from the shares asked.",
			mess_place_deviation(&r->place, c[k]));
	}
	fprintf(f, "\n\n");
}

/* The choice, and a split's placement and pages found. */
json_t *mess_split_json(const struct mess_measured *r)
{
	json_t *j = mess_memsel_json(&r->mem);

	if (r->mem.nsplit)
		json_object_set_new(j, "placement",
			mess_place_json(&r->place, r->stripe_chase, r->stripe_gen,
					&r->chase_pages, r->ngen ? &r->gen_pages : NULL));
	return j;
}
