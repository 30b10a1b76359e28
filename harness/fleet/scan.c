// SPDX-License-Identifier: MIT
/*
 * The nodes of a fleet directory: every subdirectory is a node, named by
 * the directory; its curve run is read by the set loader, a latency ladder
 * and an absorption table beside it where there are (./run.sh and the
 * batch script put them in absorb/ and ladder/), and meta.json says what
 * the machine is and how each was measured.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fleet/fleet.h"
#include "mess/json.h"
#include "mess/metrics.h"
#include "mess/parse.h"
#include "mess/quality.h"

/* What says that two nodes are the same machine: CPU, core count, LLC,
 * NUMA nodes and the kind of the memory measured. */
static const char *const curves_config[] = {
	"meta.json:cpu_model", "meta.json:isa", "meta.json:cores.machine_cores",
	"meta.json:llc_bytes", "meta.json:numa_nodes",
	"meta.json:memory_node_choice.kind", NULL,
};

/* What says that two curve runs were measured the same way: the options
 * of the run as meta.json records them, and what the run obtained (huge
 * pages, bandwidth source). */
static const char *const curves_method[] = {
	"meta.json:version", "meta.json:bw_source", "meta.json:huge_pages",
	"meta.json:memory_node", "meta.json:cores.generators#",
	"meta.json:generator.variant", "meta.json:generator.array_bytes_per_thread",
	"meta.json:chase.buffer_bytes", "meta.json:chase.stride_bytes",
	"meta.json:chase.window_bytes", "meta.json:chase.mode",
	"meta.json:chase.ms_per_repeat", "meta.json:repeats",
	"meta.json:points_min", "meta.json:sweep", "meta.json:points_max",
	"meta.json:mixes", "meta.json:quick", NULL,
};

/* The ladder's own description names its repeats, run length and core. */
static const char *const ladder_method[] = {
	"meta.json:version", "summary.json:latency_ladder.what",
	"summary.json:latency_ladder.stride_bytes",
	"summary.json:latency_ladder.huge_pages", NULL,
};

static const char *const absorb_method[] = {
	"meta.json:version", "meta.json:quick", "meta.json:repeats",
	"meta.json:run_ms", "meta.json:cores.counts", "meta.json:modes",
	"meta.json:search.kmax", NULL,
};

static const char *const where_node[] = { "", NULL };
static const char *const where_ladder[] = { "ladder", "absorb", NULL };
static const char *const where_absorb[] = { "absorb", NULL };

const struct fleet_part_def fleet_parts[NPARTS] = {
	[PART_CURVES] = { "curves", where_node, curves_method, curves_config },
	[PART_LADDER] = { "ladder", where_ladder, ladder_method, NULL },
	[PART_ABSORB] = { "absorb", where_absorb, absorb_method, NULL },
};

const char *const fleet_state_name[] = {
	[ST_ABSENT] = "absent", [ST_UNREADABLE] = "unreadable",
	[ST_INCOMPLETE] = "incomplete", [ST_INVALID] = "INVALID",
	[ST_DIFFERENT] = "measured differently",
	[ST_OK] = "compared",
};

/* The file each part is found by. */
static const char *const marker[NPARTS] = {
	[PART_CURVES] = "curves.csv", [PART_LADDER] = "summary.json",
	[PART_ABSORB] = "absorption.csv",
};

/* Column suffixes of the absorption table's units. */
static const struct {
	const char *unit, *suffix;
} units[] = {
	{ "GB/s", "gbs" }, { "ns/load", "ns" }, { "GFLOP/s", "gflops" },
	{ "GFLOP/s/core", "gflops_per_core" },
};

/* The value of a dotted member path in a JSON object ("a.b"; "a.b#" is
 * the length of an array), as text; "(absent)" when missing. */
static char *member_text(const json_t *json, const char *path)
{
	const json_t *v = json;
	char key[128], *out;
	const char *p = path;
	size_t len = strlen(path);
	int count = len && path[len - 1] == '#';

	while (v && *p && *p != '#') {
		size_t k = strcspn(p, ".#");

		snprintf(key, sizeof(key), "%.*s", (int)(k < sizeof(key) ? k : sizeof(key) - 1), p);
		v = json_is_object(v) ? json_object_get(v, key) : NULL;
		p += k + (p[k] == '.');
	}
	if (!v)
		return strdup("(absent)");
	if (count)
		return json_is_array(v) && asprintf(&out, "%zu", json_array_size(v)) >= 0 ?
			out : strdup("(not a list)");
	if (json_is_string(v))
		return strdup(json_string_value(v));
	return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
}

static int is_file(const char *dir, const char *a, const char *b)
{
	char p[PATH_MAX + FLEET_NAME + 64];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s%s%s", dir, a, a[0] ? "/" : "", b);
	return !stat(p, &st) && S_ISREG(st.st_mode);
}

static json_t *load_json(const char *dir, const char *where, const char *name)
{
	char p[PATH_MAX + FLEET_NAME + 64];

	snprintf(p, sizeof(p), "%s/%s%s%s", dir, where, where[0] ? "/" : "", name);
	return mess_json_load(p, 0, NULL);
}

/* Join values into one key; members of the def list, NULL-ended. */
static int collect(char ***vals, char **key, const char *const *members,
		   json_t *meta, json_t *summary)
{
	size_t n = 0, len = 1;

	while (members[n])
		n++;
	*vals = calloc(n + 1, sizeof(**vals));
	if (!*vals)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *colon = strchr(members[i], ':');
		json_t *src = !strncmp(members[i], "summary.json", 12) ? summary : meta;

		(*vals)[i] = member_text(src, colon + 1);
		if (!(*vals)[i])
			return -ENOMEM;
		len += strlen((*vals)[i]) + 1;
	}
	*key = malloc(len);
	if (!*key)
		return -ENOMEM;
	(*key)[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		strcat(*key, (*vals)[i]);
		strcat(*key, "\x1f");	/* a separator no value holds */
	}
	return 0;
}

/* "complete": true in meta.json, or why not. */
static int complete(json_t *meta, char *why, size_t len)
{
	json_t *c = json_object_get(meta, "complete");

	if (!meta)
		snprintf(why, len, "no readable meta.json: the run did not get far, or its files are damaged");
	else if (!json_is_true(c))
		snprintf(why, len, "meta.json says \"complete\": %s (interrupted, failed or still running; resubmitting the batch script resumes it)",
			 json_is_false(c) ? "false" : "absent");
	return json_is_true(c);
}

static void curve_figures(struct fleet_node *nd)
{
	struct mess_summary s = { 0 };
	double u = nd->info.unloaded_ns;

	/* A partial run may lack its chase-only latency: the set's
	 * lowest-bandwidth points then, as mess compare does. */
	nd->unloaded_src = u > 0 ? nd->info.unloaded_source : NULL;
	if (!(u > 0)) {
		u = mess_unloaded_from_curves(&nd->fam);
		nd->unloaded_src = u > 0 ? "lowest-bandwidth points" : NULL;
	}
	nd->unloaded_ns = u > 0 ? u : NAN;
	if (u > 0 && !mess_summarise(&nd->fam, u, 0, 0.02, &s)) {
		for (size_t i = 0; i < s.ncurves; i++) {
			uint32_t sp = s.curves[i].store_pct;

			if (sp <= 100 && sp % 2 == 0 && s.curves[i].npoints) {
				nd->max_bw[sp / 2] = s.curves[i].max_bw_gbs;
				nd->read_pct[sp / 2] = s.curves[i].read_pct;
			}
		}
		if (s.have_sat) {
			nd->sat_min = s.sat_bw_min_gbs;
			nd->sat_max = s.sat_bw_max_gbs;
		}
	}
	mess_summary_free(&s);
	if (mess_model_new(&nd->fam, &nd->model))
		nd->model = NULL;
}

static int read_curves(struct fleet_node *nd, const char *dir)
{
	struct fleet_part_data *p = &nd->part[PART_CURVES];
	json_t *meta = load_json(dir, "", "meta.json");
	char err[500] = "", verdict[16];
	enum mess_level lv;
	int ok, rc;

	if (meta) {
		snprintf(nd->host, sizeof(nd->host), "%s",
			 json_string_value(json_object_get(meta, "host")) ?: "");
		snprintf(nd->cpu_model, sizeof(nd->cpu_model), "%s",
			 json_string_value(json_object_get(meta, "cpu_model")) ?: "");
		rc = collect(&nd->config, &nd->config_key, curves_config, meta, NULL);
		if (!rc)
			rc = collect(&p->method, &p->method_key, curves_method, meta, NULL);
		if (rc) {
			json_decref(meta);
			return rc;
		}
	}
	ok = complete(meta, p->why, sizeof(p->why));
	snprintf(verdict, sizeof(verdict), "%s", json_string_value(json_object_get(
			 json_object_get(meta, "quality"), "verdict")) ?: "");
	json_decref(meta);
	rc = mess_set_load(dir, 0, &nd->fam, &nd->info, err, sizeof(err));
	if (rc == -ENOMEM)
		return rc;
	/* A run stopped before its first point has a verdict too (pending):
	 * counted, though the loader has nothing to read. */
	if (rc && (!strcmp(verdict, "pending") || !mess_level_parse(verdict, &lv)))
		snprintf(nd->info.verdict, sizeof(nd->info.verdict), "%s", verdict);
	if (rc) {
		/* A run interrupted before its first point is incomplete. */
		p->st = ok ? ST_UNREADABLE : ST_INCOMPLETE;
		if (ok || !p->why[0])
			snprintf(p->why, sizeof(p->why), "%s", err[0] ? err : strerror(-rc));
		return 0;
	}
	p->st = ok ? ST_OK : ST_INCOMPLETE;
	curve_figures(nd);
	return 0;
}

static void read_ladder(struct fleet_node *nd, json_t *summary)
{
	json_t *lad = json_object_get(summary, "latency_ladder"), *lv;
	size_t i;

	snprintf(nd->ladder_what, sizeof(nd->ladder_what), "%s",
		 json_string_value(json_object_get(lad, "what")) ?: "");
	json_array_foreach(json_object_get(lad, "levels"), i, lv) {
		const char *name = json_string_value(json_object_get(lv, "level"));
		json_t *ns = json_object_get(lv, "latency_ns");
		struct fleet_level *l = &nd->level[nd->nlevels];

		if (!name || nd->nlevels >= FLEET_MAX_LEVELS)
			continue;
		snprintf(l->name, sizeof(l->name), "%s", name);
		l->ns = json_is_number(ns) ? json_number_value(ns) : NAN;
		snprintf(l->status, sizeof(l->status), "%s",
			 json_string_value(json_object_get(lv, "status")) ?: "");
		nd->nlevels++;
	}
}

/* The clean kernel's performance of each row of absorption.csv (the same
 * in the row's every noise mode: the first finite one is taken). */
static int read_absorb(struct fleet_node *nd, const char *dir, char *why,
		       size_t len)
{
	char path[PATH_MAX + FLEET_NAME + 64], err[256];
	struct mess_lines l;
	int rc;

	snprintf(path, sizeof(path), "%s/absorb/absorption.csv", dir);
	if (mess_lines_open(&l, path, err, sizeof(err)))
		return mess_fail(why, len, -EINVAL, "%s", err);
	while ((rc = mess_lines_next(&l, err, sizeof(err))) > 0) {
		char *f[16], key[64], *end;
		const char *suffix = NULL;
		double perf;
		size_t nf = mess_split(l.line, ',', f, 16), r;

		if (l.no == 1 || nf < 12)
			continue;
		perf = strtod(f[10], &end);
		if (!isfinite(perf) || *end)
			continue;
		if (strcmp(f[3], "nan"))
			snprintf(key, sizeof(key), "%.12s_%.12s_c%.6s_q%.8s", f[0], f[1], f[2], f[3]);
		else
			snprintf(key, sizeof(key), "%.12s_%.12s_c%.6s", f[0], f[1], f[2]);
		for (r = 0; r < nd->nrows && strcmp(nd->row[r].key, key); r++)
			;
		if (r < nd->nrows || r >= FLEET_MAX_ROWS)
			continue;
		for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
			if (!strcmp(units[u].unit, f[11]))
				suffix = units[u].suffix;
		snprintf(nd->row[r].key, sizeof(nd->row[r].key), "%s", key);
		snprintf(nd->row[r].unit, sizeof(nd->row[r].unit), "%s", suffix ?: "perf");
		nd->row[r].perf = perf;
		nd->nrows++;
	}
	mess_lines_close(&l);
	if (rc < 0)
		snprintf(why, len, "%s", err);
	return rc < 0 ? -EINVAL : 0;
}

/* A ladder or an absorption table, where there is one. */
static int read_extra(struct fleet_node *nd, const char *dir, enum fleet_part pt)
{
	struct fleet_part_data *p = &nd->part[pt];
	const struct fleet_part_def *d = &fleet_parts[pt];
	json_t *meta, *summary;
	int ok, rc = 0;

	for (size_t w = 0; d->where[w]; w++) {
		if (!is_file(dir, d->where[w], marker[pt]))
			continue;
		snprintf(p->where, sizeof(p->where), "%s", d->where[w]);
		meta = load_json(dir, p->where, "meta.json");
		summary = load_json(dir, p->where, "summary.json");
		if (pt == PART_LADDER && !json_is_array(json_object_get(
			    json_object_get(summary, "latency_ladder"), "levels"))) {
			/* An absorb run that did not measure lat_mem_rd. */
			json_decref(meta);
			json_decref(summary);
			p->where[0] = '\0';
			continue;
		}
		ok = complete(meta, p->why, sizeof(p->why));
		rc = collect(&p->method, &p->method_key, d->method, meta, summary);
		if (!rc && pt == PART_LADDER)
			read_ladder(nd, summary);
		p->st = ok ? ST_OK : ST_INCOMPLETE;
		if (!rc && pt == PART_ABSORB &&
		    read_absorb(nd, dir, p->why, sizeof(p->why)))
			p->st = ST_UNREADABLE;
		json_decref(meta);
		json_decref(summary);
		break;
	}
	return rc;
}

/* The last line mess wrote into the batch task's log (the script's own
 * lines start with "== "): what a failed attempt said. */
static void log_last(struct fleet_node *nd, const char *dir)
{
	char path[PATH_MAX + FLEET_NAME + 32], line[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, FLEET_TASK_LOG);
	fp = mess_fopen_regular(path, NULL, 0);
	while (fp && fgets(line, sizeof(line), fp)) {
		char *t = mess_trim(line);

		if (t[0] && strncmp(t, "== ", 3) && !strchr(t, '\r'))
			snprintf(nd->log_last, sizeof(nd->log_last), "%s", t);
	}
	if (fp)
		fclose(fp);
}

static int read_node(struct fleet_node *nd, const char *fleetdir, const char *name)
{
	char dir[PATH_MAX + FLEET_NAME];
	int rc;

	snprintf(nd->name, sizeof(nd->name), "%s", name);
	snprintf(dir, sizeof(dir), "%s/%s", fleetdir, name);
	nd->group = (size_t)-1;
	/* Unknown until read: NAN, never 0. */
	for (int k = 0; k < FLEET_NMIX; k++)
		nd->max_bw[k] = nd->read_pct[k] = NAN;
	nd->unloaded_ns = nd->sat_min = nd->sat_max = NAN;
	nd->lat_common = nd->common_bw = NAN;
	nd->lat_common_src = -1;
	nd->has_log = is_file(dir, "", FLEET_TASK_LOG);
	if (nd->has_log)
		log_last(nd, dir);
	rc = is_file(dir, "", marker[PART_CURVES]) ? read_curves(nd, dir) : 0;
	if (!rc && nd->part[PART_CURVES].st == ST_ABSENT)
		snprintf(nd->part[PART_CURVES].why, sizeof(nd->part[0].why),
			 "no curves.csv: not a curve run");
	for (enum fleet_part pt = PART_LADDER; !rc && pt < NPARTS; pt++)
		rc = read_extra(nd, dir, pt);
	return rc;
}

/* Node directories: not hidden, not a fleet's own output. */
static int node_dir(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

static int read_expected(struct fleet *f)
{
	char path[PATH_MAX + 32], line[FLEET_NAME + 2];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", f->dir, FLEET_EXPECTED);
	fp = mess_fopen_regular(path, NULL, 0);
	while (fp && fgets(line, sizeof(line), fp)) {
		char *t = mess_trim(line), **m;
		size_t i;

		for (i = 0; t[0] && i < f->n && strcmp(f->node[i].name, t); i++)
			;
		if (!t[0] || i < f->n)
			continue;
		m = realloc(f->missing, (f->nmissing + 1) * sizeof(*m));
		if (!m || !(m[f->nmissing] = strdup(t))) {
			f->missing = m ? m : f->missing;
			fclose(fp);
			return -ENOMEM;
		}
		f->missing = m;
		f->nmissing++;
	}
	if (fp)
		fclose(fp);
	return 0;
}

int fleet_scan(struct fleet *f, char *err, size_t errlen)
{
	struct dirent **e = NULL;
	int ne = scandir(f->dir, &e, node_dir, versionsort), rc = 0;
	size_t runs = 0;

	if (ne < 0)
		return mess_fail(err, errlen, -EINVAL, "%s: %s", f->dir, strerror(errno));
	f->node = calloc(ne ? ne : 1, sizeof(*f->node));
	if (!f->node)
		rc = -ENOMEM;
	for (int i = 0; !rc && i < ne; i++) {
		char sub[PATH_MAX + FLEET_NAME];
		struct stat st;

		snprintf(sub, sizeof(sub), "%s/%s", f->dir, e[i]->d_name);
		/* A fleet's own output written under the directory. */
		if (stat(sub, &st) || !S_ISDIR(st.st_mode) ||
		    is_file(sub, "", "fleet.csv") || strlen(e[i]->d_name) >= FLEET_NAME)
			continue;
		rc = read_node(&f->node[f->n++], f->dir, e[i]->d_name);
		runs += !rc && f->node[f->n - 1].part[PART_CURVES].st != ST_ABSENT;
	}
	for (int i = 0; i < ne; i++)
		free(e[i]);
	free(e);
	if (!rc)
		rc = read_expected(f);
	if (!rc && !runs) {
		snprintf(err, errlen, "%s: %s; allowed: a directory of node directories each holding a curve run (what tools/slurm/mess-fleet.sbatch writes)",
			 f->dir, f->n ? "no subdirectory holds a curve run (curves.csv)" :
			 "no node directory in it");
		rc = -EINVAL;
	}
	return rc;
}

static void free_strv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void fleet_free(struct fleet *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct fleet_node *nd = &f->node[i];

		for (int p = 0; p < NPARTS; p++) {
			free_strv(nd->part[p].method);
			free(nd->part[p].method_key);
		}
		free_strv(nd->config);
		free(nd->config_key);
		mess_family_free(&nd->fam);
		mess_model_free(nd->model);
	}
	free(f->node);
	for (size_t i = 0; i < f->nmissing; i++)
		free(f->missing[i]);
	free(f->missing);
	free(f->grp);
	free(f->metric);
	free(f->raw);
	free(f->z);
	free(f->med);
	free(f->scale);
	memset(f, 0, sizeof(*f));
}
