// SPDX-License-Identifier: MIT
#include "core/machine/place.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <numaif.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "mess/parse.h"

#ifndef MPOL_WEIGHTED_INTERLEAVE
#define MPOL_WEIGHTED_INTERLEAVE 6	/* Linux 6.9 */
#endif
/* The node numbers an mbind mask here holds (as mem.c's). */
#define MAX_NODES 1024
#define WI_DIR "/sys/kernel/mm/mempolicy/weighted_interleave"
/* Pages asked of move_pages at a time. */
#define COUNT_BATCH 1024

static const char *const names[] = { "auto", "weighted", "ranges" };

int mess_place_method_parse(const char *s, enum mess_place_method *m)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			*m = (enum mess_place_method)i;
			return 0;
		}
	return -EINVAL;
}

const char *mess_place_method_name(enum mess_place_method m)
{
	return names[m];
}

int mess_place_proportional(const unsigned *want, const int *sys, int n)
{
	for (int i = 0; i < n; i++) {
		if (sys[i] <= 0)
			return 0;
		for (int j = i + 1; j < n; j++)
			if ((long)want[i] * sys[j] != (long)want[j] * sys[i])
				return 0;
	}
	return 1;
}

/* The system's weights of the split's nodes; 0 when the kernel has no
 * weighted interleave. */
static int read_sys(struct mess_place *pl)
{
	struct stat st;

	if (stat(WI_DIR, &st) || !S_ISDIR(st.st_mode))
		return 0;
	for (int i = 0; i < pl->n; i++) {
		char path[128];
		FILE *f;

		pl->sys_weight[i] = -1;
		snprintf(path, sizeof(path), WI_DIR "/node%d", pl->node[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%d", &pl->sys_weight[i]) != 1)
			pl->sys_weight[i] = -1;
		fclose(f);
	}
	return 1;
}

/* "node 0 3, node 2 1" */
static void weights_text(const struct mess_place *pl, int sys, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < pl->n && at < len; i++) {
		if (sys && pl->sys_weight[i] < 0)
			at += (size_t)snprintf(buf + at, len - at, "%snode %d unreadable",
					       i ? ", " : "", pl->node[i]);
		else
			at += (size_t)snprintf(buf + at, len - at, "%snode %d %d", i ? ", " : "",
					       pl->node[i], sys ? pl->sys_weight[i] :
					       (int)pl->weight[i]);
	}
}

int mess_place_choose(struct mess_place *pl, enum mess_place_method asked,
		      char *err, size_t errlen)
{
	char sys[160], want[160], no[480];

	pl->asked = asked;
	if (!pl->max_ranges || pl->max_ranges > MESS_PLACE_RANGES)
		pl->max_ranges = MESS_PLACE_RANGES;
	pl->sys_read = read_sys(pl);
	weights_text(pl, 0, want, sizeof(want));
	weights_text(pl, 1, sys, sizeof(sys));
	/* Why weighted interleave cannot give the ratio here, "" it can.
	 * The weights are root's and the whole system's: another user's
	 * processes interleave by them too, so mess never writes them. */
	no[0] = 0;
	if (!pl->sys_read)
		snprintf(no, sizeof(no), "this kernel has no weighted interleave (no %s; Linux 6.9 has it)",
			 WI_DIR);
	else if (!mess_place_proportional(pl->weight, pl->sys_weight, pl->n))
		snprintf(no, sizeof(no), "the system's weights (%s, in %s) are not in the ratio asked (%s); they are root's and system-wide, mess never writes them",
			 sys, WI_DIR, want);
	if (asked == MESS_PLACE_WEIGHTED && no[0])
		return mess_fail(err, errlen, -EOPNOTSUPP,
				 "--mem-place weighted: %s; allowed here: --mem-place ranges or auto",
				 no);
	if (asked == MESS_PLACE_RANGES_M) {
		pl->method = MESS_PLACE_RANGES_M;
		snprintf(pl->why, sizeof(pl->why), "--mem-place ranges");
	} else if (no[0]) {
		pl->method = MESS_PLACE_RANGES_M;
		snprintf(pl->why, sizeof(pl->why), "ranges bound in turn: %s", no);
	} else {
		pl->method = MESS_PLACE_WEIGHTED;
		snprintf(pl->why, sizeof(pl->why), "%sthe kernel's weighted interleave: the system's weights (%s) are in the ratio asked",
			 asked == MESS_PLACE_WEIGHTED ? "--mem-place weighted: " : "", sys);
	}
	return 0;
}

size_t mess_place_stripe(const struct mess_place *pl, size_t len, size_t unit)
{
	size_t units = (len + unit - 1) / unit;
	size_t max = pl->max_ranges ? pl->max_ranges : MESS_PLACE_RANGES;

	return (units + max - 1) / max * unit;
}

static void mask_of(const struct mess_place *pl, int only, unsigned long *mask)
{
	memset(mask, 0, MAX_NODES / 8);
	for (int i = 0; i < pl->n; i++)
		if (only < 0 || i == only)
			mask[pl->node[i] / 64] |= 1UL << (pl->node[i] % 64);
}

/*
 * Each stripe to the node furthest behind its share so far (the lower
 * index on a tie): every node within one stripe of its share at every
 * point of the buffer, and a run of stripes on one node bound as one
 * range.
 */
static int bind_ranges(const struct mess_place *pl, char *p, size_t len, size_t unit)
{
	unsigned long mask[MAX_NODES / 64];
	size_t stripe = mess_place_stripe(pl, len, unit);
	size_t nstripes = (len + stripe - 1) / stripe, from = 0;
	uint64_t got[MESS_PLACE_MAX] = { 0 }, sum = 0;
	int cur = -1;

	for (int i = 0; i < pl->n; i++)
		sum += pl->weight[i];
	for (size_t s = 0; s <= nstripes; s++) {
		int best = -1;
		double gap = -INFINITY;

		for (int i = 0; s < nstripes && i < pl->n; i++) {
			double g = (double)(s + 1) * pl->weight[i] / (double)sum - (double)got[i];

			if (g > gap) {
				gap = g;
				best = i;
			}
		}
		if (best != cur && cur >= 0) {
			size_t to = s * stripe < len ? s * stripe : len;

			mask_of(pl, cur, mask);
			if (mbind(p + from, to - from, MPOL_BIND, mask, MAX_NODES + 1, 0))
				return -errno;
			from = to;
		}
		if (best >= 0)
			got[best]++;
		cur = best;
	}
	return 0;
}

int mess_place_apply(const struct mess_place *pl, void *p, size_t len, size_t unit)
{
	unsigned long mask[MAX_NODES / 64];

	for (int i = 0; i < pl->n; i++)
		if (pl->node[i] < 0 || pl->node[i] >= MAX_NODES)
			return -EINVAL;
	if (pl->method == MESS_PLACE_RANGES_M)
		return bind_ranges(pl, p, len, unit);
	mask_of(pl, -1, mask);
	return mbind(p, len, MPOL_WEIGHTED_INTERLEAVE, mask, MAX_NODES + 1, 0) ? -errno : 0;
}

void mess_place_count(const struct mess_place *pl, const void *p, size_t len,
		      struct mess_place_count *c)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t n = len / (size_t)(psz > 0 ? psz : 4096);
	void *pages[COUNT_BATCH];
	int status[COUNT_BATCH];

	for (size_t at = 0; at < n && !c->err; at += COUNT_BATCH) {
		unsigned long k = n - at < COUNT_BATCH ? n - at : COUNT_BATCH;

		for (unsigned long i = 0; i < k; i++)
			pages[i] = (char *)p + (at + i) * (size_t)psz;
		/* nodes NULL: where each page is, nothing moved */
		if (numa_move_pages(0, k, pages, NULL, status, 0)) {
			c->err = -errno;
			break;
		}
		for (unsigned long i = 0; i < k; i++) {
			int j;

			c->total++;
			if (status[i] < 0) {
				c->absent++;
				continue;
			}
			for (j = 0; j < pl->n && pl->node[j] != status[i]; j++)
				;
			if (j < pl->n)
				c->pages[j]++;
			else
				c->other++;
		}
	}
}

double mess_place_deviation(const struct mess_place *pl, const struct mess_place_count *c)
{
	uint64_t found = c->other, sum = 0;
	double dev;

	for (int i = 0; i < pl->n; i++) {
		found += c->pages[i];
		sum += pl->weight[i];
	}
	if (!found || !sum)
		return NAN;
	/* pages on a node not asked for were asked a share of 0 */
	dev = 100.0 * (double)c->other / (double)found;
	for (int i = 0; i < pl->n; i++) {
		double d = fabs(100.0 * (double)c->pages[i] / (double)found -
				100.0 * pl->weight[i] / (double)sum);

		if (d > dev)
			dev = d;
	}
	return dev;
}

static json_t *count_json(const struct mess_place *pl, const struct mess_place_count *c)
{
	json_t *on = json_object();

	if (!c)
		return json_null();
	for (int i = 0; i < pl->n; i++) {
		char k[16];

		snprintf(k, sizeof(k), "%d", pl->node[i]);
		json_object_set_new(on, k, json_integer((json_int_t)c->pages[i]));
	}
	return mess_json_pack("{s:o, s:I, s:I, s:I, s:o, s:s?}",
			      "on_node", on, "other_nodes", (json_int_t)c->other,
			      "not_present", (json_int_t)c->absent,
			      "pages", (json_int_t)c->total,
			      "largest_deviation_points",
			      mess_json_real(mess_place_deviation(pl, c), 2),
			      "error", c->err ? strerror(-c->err) : NULL);
}

json_t *mess_place_json(const struct mess_place *pl, size_t stripe_chase,
			size_t stripe_gen, const struct mess_place_count *chase,
			const struct mess_place_count *gens)
{
	json_t *nodes = json_array(), *want = json_array(), *sys = json_array();
	int ranges = pl->method == MESS_PLACE_RANGES_M;

	for (int i = 0; i < pl->n; i++) {
		json_array_append_new(nodes, json_integer(pl->node[i]));
		json_array_append_new(want, json_integer(pl->weight[i]));
		json_array_append_new(sys, pl->sys_weight[i] > 0 ?
				      json_integer(pl->sys_weight[i]) : json_null());
	}
	if (!pl->sys_read) {
		json_decref(sys);
		sys = json_null();
	}
	return mess_json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:I, s:{s:o, s:o}, s:s}",
			      "method", mess_place_method_name(pl->method),
			      "asked", mess_place_method_name(pl->asked),
			      "why", pl->why, "nodes", nodes, "weights_asked", want,
			      "system_weights", sys,
			      "stripe_bytes", ranges ? mess_json_pack("{s:I, s:I}",
					"chase", (json_int_t)stripe_chase,
					"generators", (json_int_t)stripe_gen) : json_null(),
			      "max_ranges_per_buffer", (json_int_t)pl->max_ranges,
			      "pages", "chase", count_json(pl, chase),
			      "generators", count_json(pl, gens),
			      "source", "move_pages (query) over every page of each buffer after its first touch");
}
