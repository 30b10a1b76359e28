// SPDX-License-Identifier: MIT
/*
 * One entry to every curve set a user holds: which layout a path is, the
 * reader of that layout, and what the files beside it say about how the
 * set was measured.  The readers themselves are in messfmt.c and
 * profet.c; here is what ties a set together.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "mess/load.h"
#include "mess/messfmt.h"
#include "mess/metrics.h"
#include "mess/parse.h"
#include "mess/quality.h"

#define LOOKED_FOR "curves.csv, memory_curves.csv, bwlat_<R>.txt or one .json file"

/* What loading one set needs, passed as one. */
struct set {
	char dir[PATH_MAX];	/* the directory of the set */
	char file[PATH_MAX];	/* its main file; the directory for bwlat */
	int is_dir;		/* the user named the directory */
	double ghz;
	struct mess_family *f;
	struct mess_set_info *info;
	char *err;
	size_t errlen;
};

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* dir/name into buf: 0, or -EINVAL when it does not fit. */
static int join(struct set *s, char *buf, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
		return mess_file_err(s->err, s->errlen, dir, 0,
				     "path too long");
	return 0;
}

/* ---- metadata beside the curves ---- */

/*
 * CPU_FREQ=<GHz> of a KEY=VALUE file (plotter.txt, info.txt): 0 with *ghz
 * left as it was when the file or the key is absent, or -EINVAL.
 */
static int key_ghz(struct set *s, const char *name, double *ghz)
{
	static const char key[] = "CPU_FREQ";
	char path[PATH_MAX];
	struct mess_lines l;
	int ret = join(s, path, s->dir, name);

	if (ret || !is_file(path))
		return ret;
	ret = mess_lines_open(&l, path, s->err, s->errlen);
	while (!ret && (ret = mess_lines_next(&l, s->err, s->errlen)) > 0) {
		char *t = mess_trim(l.line);

		ret = 0;
		if (strncmp(t, key, sizeof(key) - 1))
			continue;
		t = mess_trim(t + sizeof(key) - 1);
		if (*t == '=')
			ret = mess_field_num(&l, t + 1, key, 0, MESS_NUM_POS,
					     ghz, s->err, s->errlen);
	}
	mess_lines_close(&l);
	return ret;
}

/* The JSON object at path; NULL with *ret 0 when there is no such file. */
static json_t *load_object(struct set *s, const char *path, int *ret)
{
	json_error_t jerr;
	json_t *j;

	*ret = 0;
	if (!is_file(path))
		return NULL;
	j = json_load_file(path, 0, &jerr);
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
static int run_quality(struct set *s, const char *path, const json_t *q)
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

static int run_meta(struct set *s)
{
	struct mess_set_info *in = s->info;
	const json_t *gen, *ver, *rev, *done;
	char path[PATH_MAX];
	json_t *m;
	size_t i;
	int ret = join(s, path, s->dir, "meta.json");

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
	done = json_object_get(m, "complete");
	if (json_is_boolean(done))
		in->complete = json_is_true(done);
	ret = run_quality(s, path, json_object_get(m, "quality"));
	json_decref(m);
	return ret;
}

/* summary.json: the chase-only latency of a run whose meta.json is gone. */
static int run_summary(struct set *s)
{
	char path[PATH_MAX];
	json_t *j;
	int ret = join(s, path, s->dir, "summary.json");

	if (ret)
		return ret;
	j = load_object(s, path, &ret);
	if (j)
		s->info->unloaded_ns = positive(json_object_get(j, "unloaded_ns"));
	json_decref(j);
	return ret;
}

/* ---- the layouts ---- */

static int load_run(struct set *s)
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

static int load_mess_results(struct set *s)
{
	int ret = mess_reference_read(s->file, s->f, s->err, s->errlen);

	if (ret)
		return ret;
	/* The published curves were measured with uncore counters. */
	snprintf(s->info->bw_source, sizeof(s->info->bw_source), "counters");
	snprintf(s->info->tool, sizeof(s->info->tool), "Mess-Results");
	return key_ghz(s, "plotter.txt", &s->info->cpu_ghz);
}

static int load_profet(struct set *s)
{
	double ghz = s->ghz;
	int ret = 0;

	if (!(ghz > 0.0)) {
		ghz = NAN;
		ret = key_ghz(s, "info.txt", &ghz);
		if (!ret && isnan(ghz))
			ret = key_ghz(s, "plotter.txt", &ghz);
		if (ret)
			return ret;
	}
	if (isnan(ghz))
		return mess_file_err(s->err, s->errlen, s->file, 0,
				     "latency is in CPU cycles and no frequency is known: give --ghz");
	ret = mess_profet_read(s->file, ghz, s->f, s->err, s->errlen);
	if (ret)
		return ret;
	s->info->cpu_ghz = ghz;
	s->info->latency_from_cycles = 1;
	snprintf(s->info->tool, sizeof(s->info->tool), "PROFET");
	return 0;
}

static int load_bwlat(struct set *s)
{
	return mess_bwlat_read(s->is_dir ? s->dir : s->file, s->f,
			       &s->info->skipped_filled, s->err, s->errlen);
}

/* The layouts, in the order a directory is tried. */
static const struct {
	enum mess_set_kind kind;
	const char *name;
	const char *file;	/* what marks it in a directory; NULL: scan */
	int (*load)(struct set *s);
	int by_bandwidth;	/* no pressure in the files: sort by bandwidth */
} kinds[] = {
	{ MESS_SET_RUN, "run", "curves.csv", load_run, 0 },
	{ MESS_SET_MESS_RESULTS, "mess-results", "memory_curves.csv",
	  load_mess_results, 0 },
	{ MESS_SET_BWLAT, "bwlat", NULL, load_bwlat, 1 },
	{ MESS_SET_PROFET, "profet", NULL, load_profet, 1 },
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* A directory without a marker file: bwlat files, else one .json file. */
static int detect_scan(struct set *s, enum mess_set_kind *kind)
{
	char names[256] = "", json[NAME_MAX + 1] = "";
	size_t njson = 0, nbwlat = 0, used = 0;
	struct dirent *de;
	DIR *d = opendir(s->dir);
	int ret = 0;

	if (!d) {
		ret = -errno;
		mess_file_err(s->err, s->errlen, s->dir, 0, "%s", strerror(-ret));
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		char path[PATH_MAX];
		int bw = mess_bwlat_name(de->d_name);

		if (!bw && !ends_with(de->d_name, ".json"))
			continue;
		ret = join(s, path, s->dir, de->d_name);
		if (ret || !is_file(path))
			continue;
		if (bw) {
			nbwlat++;
			continue;
		}
		if (!njson++)
			snprintf(json, sizeof(json), "%s", de->d_name);
		if (used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used,
						 "%s%s", njson > 1 ? ", " : "",
						 de->d_name);
	}
	closedir(d);
	if (ret)
		return ret;
	if (nbwlat || njson == 1) {
		*kind = nbwlat ? MESS_SET_BWLAT : MESS_SET_PROFET;
		return nbwlat ? 0 : join(s, s->file, s->dir, json);
	}
	if (njson > 1)
		return mess_file_err(s->err, s->errlen, s->dir, 0,
				     "%zu .json files (%s) and no curves.csv, memory_curves.csv or bwlat_<R>.txt: name the PROFET file",
				     njson, names);
	mess_file_err(s->err, s->errlen, s->dir, 0, "no curve set here: looked for %s",
		      LOOKED_FOR);
	return -ENOENT;
}

static int detect_dir(struct set *s, enum mess_set_kind *kind)
{
	size_t k;
	int ret;

	for (k = 0; k < NKINDS; k++) {
		if (!kinds[k].file)
			continue;
		ret = join(s, s->file, s->dir, kinds[k].file);
		if (ret)
			return ret;
		if (is_file(s->file)) {
			*kind = kinds[k].kind;
			return 0;
		}
	}
	snprintf(s->file, sizeof(s->file), "%s", s->dir);
	return detect_scan(s, kind);
}

/* A file named otherwise: by its name, a .csv by its header. */
/* JSON files the suite writes beside its curves. */
static const char *const own_json[] = {
	"meta.json", "summary.json", "resume.json", "compare.json",
};

static int detect_file(struct set *s, enum mess_set_kind *kind)
{
	const char *base = base_name(s->file);
	struct mess_lines l;
	size_t k;
	int ret;

	for (k = 0; k < NKINDS; k++)
		if (kinds[k].file && !strcmp(base, kinds[k].file)) {
			*kind = kinds[k].kind;
			return 0;
		}
	/* The suite's own JSON files describe runs; none holds curves, and
	 * taking one for a PROFET set would ask for --ghz. */
	for (k = 0; k < sizeof(own_json) / sizeof(own_json[0]); k++)
		if (!strcmp(base, own_json[k]))
			return mess_file_err(s->err, s->errlen, s->file, 0,
					     "not a curve file but a run's %s: give its directory, or expected %s",
					     own_json[k], LOOKED_FOR);
	if (ends_with(base, ".json") || mess_bwlat_name(base)) {
		*kind = mess_bwlat_name(base) ? MESS_SET_BWLAT : MESS_SET_PROFET;
		return 0;
	}
	if (!ends_with(base, ".csv"))
		return mess_file_err(s->err, s->errlen, s->file, 0,
				     "not a curve file: expected %s", LOOKED_FOR);
	ret = mess_lines_open(&l, s->file, s->err, s->errlen);
	if (!ret)
		ret = mess_lines_next(&l, s->err, s->errlen);
	/* The reader of the kind picked says what is wrong with it. */
	*kind = ret > 0 && (!strcmp(l.line, MESS_CURVES_CSV_HEADER) ||
			    !strcmp(l.line, MESS_CURVES_CSV_HEADER_V3) ||
			    !strcmp(l.line, MESS_CURVES_CSV_HEADER_V2) ||
			    !strcmp(l.line, MESS_CURVES_CSV_HEADER_V1)) ?
		MESS_SET_RUN : MESS_SET_MESS_RESULTS;
	mess_lines_close(&l);
	return ret < 0 ? ret : 0;
}

static void info_init(struct mess_set_info *in)
{
	memset(in, 0, sizeof(*in));
	in->kind_name = "";
	in->unloaded_ns = NAN;
	in->unloaded_source = "none";
	in->cpu_ghz = NAN;
	in->cpu_ghz_measured = NAN;
	in->cores = -1;
	in->stride_bytes = NAN;
	in->window_bytes = NAN;
	in->complete = -1;
}

const char *mess_set_verdict(const struct mess_set_info *info)
{
	return info && info->verdict[0] ? info->verdict : "none";
}

static int cmp_bw(const void *a, const void *b)
{
	const struct mess_point *x = a, *y = b;

	if (x->bw_gbs != y->bw_gbs)
		return (x->bw_gbs > y->bw_gbs) - (x->bw_gbs < y->bw_gbs);
	return (x->lat_ns > y->lat_ns) - (x->lat_ns < y->lat_ns);
}

/* The directory's own name, also for "." or "run/". */
static void set_label(struct set *s)
{
	char real[PATH_MAX];
	const char *b;

	b = base_name(realpath(s->dir, real) ? real : s->dir);
	snprintf(s->info->label, sizeof(s->info->label), "%.*s",
		 (int)sizeof(s->info->label) - 1, *b ? b : "/");
}

int mess_set_load(const char *path, double ghz, struct mess_family *f,
		  struct mess_set_info *info, char *err, size_t errlen)
{
	struct set s = { .ghz = ghz, .f = f, .info = info, .err = err,
			 .errlen = errlen };
	enum mess_set_kind kind = MESS_SET_RUN;
	struct stat st;
	size_t k, i, n;
	int ret;

	info_init(info);
	if (err && errlen)
		err[0] = '\0';
	if (!path || !*path)
		return mess_file_err(err, errlen, "mess_set_load", 0, "no path");
	if (!(ghz >= 0.0) || !isfinite(ghz))
		return mess_file_err(err, errlen, path, 0,
				     "the CPU frequency must be >= 0 GHz, got %g", ghz);
	n = strlen(path);
	if (n >= PATH_MAX)
		return mess_file_err(err, errlen, "mess_set_load", 0, "path too long");
	if (stat(path, &st)) {
		ret = -errno;
		mess_file_err(err, errlen, path, 0, "%s", strerror(-ret));
		return ret;
	}
	if (S_ISDIR(st.st_mode)) {
		s.is_dir = 1;
		while (n > 1 && path[n - 1] == '/')
			n--;
		snprintf(s.dir, sizeof(s.dir), "%.*s", (int)n, path);
		ret = detect_dir(&s, &kind);
	} else {
		const char *slash = strrchr(path, '/');

		if (!slash)
			snprintf(s.dir, sizeof(s.dir), ".");
		else
			snprintf(s.dir, sizeof(s.dir), "%.*s",
				 slash == path ? 1 : (int)(slash - path), path);
		snprintf(s.file, sizeof(s.file), "%s", path);
		ret = detect_file(&s, &kind);
	}
	if (ret)
		return ret;
	for (k = 0; kinds[k].kind != kind; k++)
		;
	info->kind = kind;
	info->kind_name = kinds[k].name;
	snprintf(info->path, sizeof(info->path), "%s", s.file);
	set_label(&s);

	ret = kinds[k].load(&s);
	if (ret)
		return ret;
	for (i = 0; kinds[k].by_bandwidth && i < f->n; i++)
		qsort(f->curves[i].pts, f->curves[i].n, sizeof(struct mess_point),
		      cmp_bw);
	if (!isfinite(info->unloaded_ns)) {
		info->unloaded_ns = mess_unloaded_from_curves(f);
		if (isfinite(info->unloaded_ns))
			info->unloaded_source = "lowest-bandwidth points";
	}
	f->unloaded_ns = isfinite(info->unloaded_ns) ? info->unloaded_ns : 0.0;
	return 0;
}
