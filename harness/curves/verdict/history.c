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

#include "curves/run.h"

#define HISTORY_MAX 64	/* the most recent runs read (names sort by UTC) */

static int same_str(json_t *m, const char *path1, const char *path2,
		    const char *want)
{
	json_t *v = json_object_get(m, path1);

	if (path2)
		v = json_object_get(v, path2);
	return json_is_string(v) && !strcmp(json_string_value(v), want);
}

static int same_int(json_t *m, const char *path1, const char *path2,
		    json_int_t want)
{
	json_t *v = json_object_get(m, path1);

	if (path2)
		v = json_object_get(v, path2);
	return json_is_integer(v) && json_integer_value(v) == want;
}

/* Measured the same way on the same host, complete, and judged PASS. */
static int comparable(const struct mess_run *r, json_t *m, const char *host)
{
	return same_str(m, "tool", NULL, "mess") &&
	       same_str(m, "host", NULL, host) &&
	       same_str(m, "cpu_model", NULL, r->topo.cpu_model) &&
	       json_is_true(json_object_get(m, "complete")) &&
	       same_str(m, "quality", "verdict", "PASS") &&
	       same_str(m, "generator", "variant", r->var->name) &&
	       json_array_size(json_object_get(json_object_get(m, "cores"),
					       "generators")) == (size_t)r->ngen &&
	       same_int(m, "chase", "buffer_bytes", (json_int_t)r->chase.len) &&
	       same_int(m, "chase", "window_bytes", (json_int_t)r->cfg.window) &&
	       same_int(m, "chase", "stride_bytes", (json_int_t)r->cfg.stride) &&
	       same_int(m, "memory_node", NULL, r->node) &&
	       same_str(m, "bw_source", NULL, r->dram.fam ? "counters" : "accounted");
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

void mess_run_history(struct mess_run *r, struct mess_verdict *v)
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
		if (m && comparable(r, m, host)) {
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
	r->history_runs = mess_quality_history(max_bw, r->unloaded_ns, bw, unl, k,
					       v, &r->history_bw_ns[0],
					       &r->history_bw_ns[1]);
	r->history_seen = k;
}
