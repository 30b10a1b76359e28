// SPDX-License-Identifier: MIT
/*
 * A run directory of this suite as a set: curves.csv, and what meta.json
 * (or summary.json, when meta.json is gone) says of how it was measured
 * and whether to trust it.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "mess/json.h"
#include "mess/loadset.h"
#include "mess/messfmt.h"
#include "mess/parse.h"
#include "mess/quality.h"

/* The JSON object at path; NULL with *ret 0 when there is no such file. */
static json_t *load_object(struct mess_loadset *s, const char *path, int *ret)
{
	json_error_t jerr;
	json_t *j;

	*ret = 0;
	if (!mess_load_is_file(path))
		return NULL;
	j = mess_json_load(path, 0, &jerr);
	if (!j) {
		*ret = mess_file_err(s->err, s->errlen, path,
				     jerr.line > 0 ? jerr.line : 0,
				     "not valid JSON: %s", jerr.text);
		return NULL;
	}
	if (!json_is_object(j)) {
		*ret = mess_file_err(s->err, s->errlen, path, 1,
				     "expected a JSON object");
		json_decref(j);
		return NULL;
	}
	return j;
}

/* A figure > 0 or NAN: a run writes null, never 0, for what it lacks. */
static double positive(const json_t *v)
{
	double x = json_is_number(v) ? json_number_value(v) : NAN;

	return isfinite(x) && x > 0.0 ? x : NAN;
}

static void copy_string(char *dst, size_t len, const json_t *v)
{
	if (json_is_string(v))
		snprintf(dst, len, "%s", json_string_value(v));
}

/* meta.json of a run: members, and where they go. */
static const struct {
	const char *obj, *key;	/* obj NULL: a top-level member */
	size_t off;
} meta_numbers[] = {
	{ NULL, "unloaded_ns", offsetof(struct mess_set_info, unloaded_ns) },
	{ "chase", "stride_bytes", offsetof(struct mess_set_info, stride_bytes) },
	{ "chase", "window_bytes", offsetof(struct mess_set_info, window_bytes) },
	{ "cpu_frequency", "nominal_ghz", offsetof(struct mess_set_info, cpu_ghz) },
	{ "cpu_frequency", "measured_ghz",
	  offsetof(struct mess_set_info, cpu_ghz_measured) },
	{ "cpu_frequency", "measured_spread_pct",
	  offsetof(struct mess_set_info, cpu_ghz_spread_pct) },
};

static const struct {
	const char *key;
	size_t off, len;
} meta_strings[] = {
#define STR(m) { #m, offsetof(struct mess_set_info, m), \
		 sizeof(((struct mess_set_info *)0)->m) }
	STR(bw_source),
	STR(huge_pages),
	STR(cpu_model),
#undef STR
};

/* A reason's text on one line: a hand-edited file may hold anything. */
static void one_line(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
	for (char *p = dst; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
}

/*
 * quality.verdict of meta.json and its first reason at the verdict's
 * level (the reasons are in the order the rules ran, PASS notes among
 * them; with none there, the first above PASS).  A verdict that is not
 * one of ours is refused, not read as none: a set's trust is not
 * guessed.  0 or -EINVAL.
 */
static int run_quality(struct mess_loadset *s, const char *path, const json_t *q)
{
	struct mess_set_info *in = s->info;
	const json_t *v = json_object_get(q, "verdict"), *r;
	const char *name = json_string_value(v);
	enum mess_level lv = MESS_PASS;
	size_t i;

	if (!q || json_is_null(q))
		return 0;
	if (!name || (strcmp(name, "pending") && mess_level_parse(name, &lv))) {
		char word[40], what[64];

		if (name) {
			one_line(word, sizeof(word), name);
			snprintf(what, sizeof(what), "'%s' is not allowed", word);
		}
		return mess_file_err(s->err, s->errlen, path, 0,
				     "quality.verdict %s; allowed: PASS, WARN, INVALID or pending",
				     name ? what : v ? "is not a string" : "is missing");
	}
	snprintf(in->verdict, sizeof(in->verdict), "%s", name);
	if (!strcmp(name, "pending") || lv == MESS_PASS)
		return 0;
	/* At the verdict's level; a file edited by hand may have none
	 * there, then any reason above PASS. */
	for (int pass = 0; pass < 2 && !in->verdict_reasons; pass++)
		json_array_foreach(json_object_get(q, "reasons"), i, r) {
			const char *text = json_string_value(json_object_get(r, "text"));
			enum mess_level rl;

			if (!text || mess_level_parse(json_string_value(
					json_object_get(r, "level")), &rl) ||
			    (pass ? rl == MESS_PASS : rl != lv))
				continue;
			if (!in->verdict_reasons++)
				one_line(in->verdict_reason,
					 sizeof(in->verdict_reason), text);
		}
	return 0;
}

/* The firmware's (HMAT) figures for the run's memory from its chase core,
 * where meta.json has them: " (HMAT 120 ns, 85.9 GB/s)" after the node, so
 * that compare shows them beside the measured ones. */
static void memory_firmware(struct mess_set_info *in, const json_t *fw)
{
	double lat = positive(json_object_get(fw, "latency_ns"));
	double bw = positive(json_object_get(fw, "bandwidth_gbs"));
	size_t at = strlen(in->memory), len = sizeof(in->memory);

	if (!in->memory[0] || (isnan(lat) && isnan(bw)))
		return;
	at += (size_t)snprintf(in->memory + at, len - at, " (HMAT");
	if (!isnan(lat) && at < len)
		at += (size_t)snprintf(in->memory + at, len - at, " %.0f ns%s", lat,
				       isnan(bw) ? "" : ",");
	if (!isnan(bw) && at < len)
		at += (size_t)snprintf(in->memory + at, len - at, " %.1f GB/s", bw);
	if (at < len)
		snprintf(in->memory + at, len - at, ")");
}

static int run_meta(struct mess_loadset *s)
{
	struct mess_set_info *in = s->info;
	const json_t *gen, *ver, *rev, *done;
	char path[PATH_MAX];
	json_t *m;
	size_t i;
	int ret = mess_load_join(s, path, s->dir, "meta.json");

	if (ret)
		return ret;
	m = load_object(s, path, &ret);
	if (!m)
		return ret;
	for (i = 0; i < sizeof(meta_numbers) / sizeof(meta_numbers[0]); i++) {
		const json_t *o = meta_numbers[i].obj ?
			json_object_get(m, meta_numbers[i].obj) : m;

		*(double *)((char *)in + meta_numbers[i].off) =
			positive(json_object_get(o, meta_numbers[i].key));
	}
	for (i = 0; i < sizeof(meta_strings) / sizeof(meta_strings[0]); i++)
		copy_string((char *)in + meta_strings[i].off, meta_strings[i].len,
			    json_object_get(m, meta_strings[i].key));
	copy_string(in->cpu_ghz_source, sizeof(in->cpu_ghz_source),
		    json_object_get(json_object_get(m, "cpu_frequency"), "nominal_source"));
	copy_string(in->cpu_ghz_measured_source, sizeof(in->cpu_ghz_measured_source),
		    json_object_get(json_object_get(m, "cpu_frequency"), "measured_method"));
	/* Where the memory was: the kind as the run chose it, and the node. */
	if (json_is_integer(json_object_get(m, "memory_node")))
		snprintf(in->memory, sizeof(in->memory), "%.80s%snode %d",
			 json_string_value(json_object_get(json_object_get(m, "memory_node_choice"), "kind")) ?: "",
			 json_is_string(json_object_get(json_object_get(m, "memory_node_choice"), "kind")) ? " " : "",
			 (int)json_integer_value(json_object_get(m, "memory_node")));
	memory_firmware(in, json_object_get(json_object_get(m, "memory_node_choice"), "firmware"));
	gen = json_object_get(json_object_get(m, "cores"), "generators");
	if (json_is_array(gen))
		in->cores = (int)json_array_size(gen);
	ver = json_object_get(m, "version");
	rev = json_object_get(m, "git_revision");
	if (json_is_string(ver) && json_is_string(rev))
		snprintf(in->tool, sizeof(in->tool), "mess %s (git %s)",
			 json_string_value(ver), json_string_value(rev));
	else if (json_is_string(ver))
		snprintf(in->tool, sizeof(in->tool), "mess %s",
			 json_string_value(ver));
	/* A run made from another tool's files (mess import) says who
	 * measured it. */
	copy_string(in->tool, sizeof(in->tool), json_object_get(m, "measured_by"));
	done = json_object_get(m, "complete");
	if (json_is_boolean(done))
		in->complete = json_is_true(done);
	ret = run_quality(s, path, json_object_get(m, "quality"));
	json_decref(m);
	return ret;
}

/* summary.json: the chase-only latency of a run whose meta.json is gone. */
static int run_summary(struct mess_loadset *s)
{
	char path[PATH_MAX];
	json_t *j;
	int ret = mess_load_join(s, path, s->dir, "summary.json");

	if (ret)
		return ret;
	j = load_object(s, path, &ret);
	if (j)
		s->info->unloaded_ns = positive(json_object_get(j, "unloaded_ns"));
	json_decref(j);
	return ret;
}

int mess_load_run(struct mess_loadset *s)
{
	int ret = mess_curves_csv_read(s->file, s->f, s->err, s->errlen);

	if (ret)
		return ret;
	if (!s->f->n)
		return mess_file_err(s->err, s->errlen, s->file, 0,
				     "no measured point yet: only the header");
	ret = run_meta(s);
	if (!ret && !isfinite(s->info->unloaded_ns))
		ret = run_summary(s);
	if (isfinite(s->info->unloaded_ns))
		s->info->unloaded_source = "chase-only run";
	return ret;
}

