// SPDX-License-Identifier: MIT
/*
 * The host's earlier runs: a run consistent in itself can still come from
 * a machine that is not in its usual state (on a shared node, another
 * tenant's memory traffic, a vCPU on another host core).  The runs beside
 * this one (its directory's siblings: results/ by default) that measured
 * the same way on the same host and were judged PASS are the baseline;
 * lib's mess_quality_history compares with their medians.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curves/result/run.h"

#define HISTORY_MAX 64	/* the most recent runs read (names sort by UTC) */

static int same_str(const json_t *m, const char *key, const char *want)
{
	const json_t *v = json_object_get(m, key);

	return json_is_string(v) && !strcmp(json_string_value(v), want);
}

/* What "measured the same way" compares, as meta.json says it: the
 * device, the generator and its count, the chase, the memory node, the
 * bandwidth's source and the replay (null but in a replay).  path2: a
 * member of the first; an array is compared by its length. */
static const struct { const char *path1, *path2; } same_way[] = {
	{ "cpu_model", NULL }, { "generator", "variant" },
	{ "cores", "generators" }, { "chase", "buffer_bytes" },
	{ "chase", "window_bytes" }, { "chase", "stride_bytes" },
	{ "memory_node", NULL }, { "bw_source", NULL }, { "replay", NULL },
};

static const json_t *at(const json_t *m, int i)
{
	const json_t *v = json_object_get(m, same_way[i].path1);

	return same_way[i].path2 ? json_object_get(v, same_way[i].path2) : v;
}

/* Measured the same way on the same host (me: this run's meta.json),
 * complete, and judged PASS. */
static int comparable(const json_t *me, const json_t *m, const char *host)
{
	const json_t *a, *b;

	if (!same_str(m, "tool", "mess") || !same_str(m, "host", host) ||
	    !json_is_true(json_object_get(m, "complete")) ||
	    !same_str(json_object_get(m, "quality"), "verdict", "PASS"))
		return 0;
	for (int i = 0; i < (int)(sizeof(same_way) / sizeof(same_way[0])); i++) {
		a = at(me, i);
		b = at(m, i);
		if (!a || !b || (json_is_array(a) ?
			       json_array_size(a) != json_array_size(b) :
			       !json_equal((json_t *)a, (json_t *)b)))
			return 0;
	}
	/* A split --mem-node (its memory_node is its first node's) is
	 * measured the same way only as the same split. */
	a = json_object_get(json_object_get(me, "memory_node_choice"), "split");
	b = json_object_get(json_object_get(m, "memory_node_choice"), "split");
	return (!a && !b) || (a && b && json_equal((json_t *)a, (json_t *)b));
}

static int newest_first(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

/* The siblings' names, newest first (at most HISTORY_MAX). */
static size_t siblings(const char *parent, const char *self, char **names)
{
	DIR *d = opendir(parent);
	struct dirent *e;
	size_t n = 0, cap = 4 * HISTORY_MAX;
	char **all = calloc(cap, sizeof(*all));

	if (!d || !all) {
		if (d)
			closedir(d);
		free(all);
		return 0;
	}
	while ((e = readdir(d)) && n < cap)
		if (e->d_name[0] != '.' && strcmp(e->d_name, self))
			all[n++] = strdup(e->d_name);
	closedir(d);
	qsort(all, n, sizeof(*all), newest_first);
	for (size_t i = 0; i < n; i++) {
		if (i < HISTORY_MAX)
			names[i] = all[i];
		else
			free(all[i]);
	}
	free(all);
	return n < HISTORY_MAX ? n : HISTORY_MAX;
}

void mess_run_history(struct mess_run *r, const json_t *me,
		      struct mess_verdict *v)
{
	char parent[PATH_MAX], self[NAME_MAX + 1], host[256] = "", *slash;
	char *names[HISTORY_MAX];
	double bw[HISTORY_MAX], unl[HISTORY_MAX], max_bw = NAN;
	size_t n, k = 0;

	r->history_runs = 0;
	r->history_bw_ns[0] = r->history_bw_ns[1] = NAN;
	snprintf(parent, sizeof(parent), "%s", r->rd.dir);
	slash = strrchr(parent, '/');
	snprintf(self, sizeof(self), "%.*s", NAME_MAX, slash ? slash + 1 : parent);
	if (!slash)
		strcpy(parent, ".");
	else if (slash == parent)
		parent[1] = 0;	/* "/run": the root */
	else
		*slash = 0;
	snprintf(r->history_dir, sizeof(r->history_dir), "%s", parent);
	gethostname(host, sizeof(host) - 1);
	n = siblings(parent, self, names);
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX + 300];
		json_t *m, *s;

		snprintf(path, sizeof(path), "%s/%s/meta.json", parent, names[i]);
		m = mess_json_load(path, 0, NULL);
		if (m && comparable(me, m, host)) {
			snprintf(path, sizeof(path), "%s/%s/summary.json", parent, names[i]);
			s = mess_json_load(path, 0, NULL);
			bw[k] = json_number_value(json_object_get(
				json_object_get(s, "family"), "max_bw_gbs"));
			unl[k] = json_number_value(json_object_get(m, "unloaded_ns"));
			/* json_number_value is 0 for what is not a number */
			if (!(bw[k] > 0))
				bw[k] = NAN;
			if (!(unl[k] > 0))
				unl[k] = NAN;
			k++;
			json_decref(s);
		}
		json_decref(m);
		free(names[i]);
	}
	for (size_t i = 0; i < r->fam.n; i++)
		for (size_t j = 0; j < r->fam.curves[i].n; j++) {
			const struct mess_point *p = &r->fam.curves[i].pts[j];

			if (mess_point_usable(p) && !(p->bw_gbs <= max_bw))
				max_bw = p->bw_gbs;
		}
	r->history_runs = mess_quality_history(max_bw, r->u.ns, bw, unl, k,
					       v, &r->history_bw_ns[0],
					       &r->history_bw_ns[1]);
	r->history_seen = k;
}
