// SPDX-License-Identifier: MIT
/*
 * One entry to every curve set a user holds: which layout a path is, the
 * reader of that layout, and what the files beside it say about how the
 * set was measured.  The readers themselves are in messfmt.c and
 * profet.c, named by the table of formats (formats.c); here is what ties a
 * set together.
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
#include "mess/json.h"

#include "mess/formats.h"
#include "mess/loadset.h"
#include "mess/load.h"
#include "mess/messfmt.h"
#include "mess/metrics.h"
#include "mess/parse.h"
#include "mess/quality.h"

#define LOOKED_FOR "curves.csv, memory_curves.csv, processed/, bw/ and lat/ with plotter.txt, bwlat_<R>.txt or one .json file"

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

/* ---- which layout a path is (the readers: formats.c) ---- */

/* A directory without a marker file: bwlat files, else one .json file. */
static int detect_scan(struct mess_loadset *s, enum mess_set_kind *kind)
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
		ret = mess_load_join(s, path, s->dir, de->d_name);
		if (ret || !mess_load_is_file(path))
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
	if (nbwlat)
		*kind = MESS_SET_BWLAT;
	if (!nbwlat && njson == 1) {
		ret = mess_load_join(s, s->file, s->dir, json);
		return ret ? ret : mess_load_json_kind(s, kind);
	}
	if (nbwlat)
		return 0;
	if (njson > 1)
		return mess_file_err(s->err, s->errlen, s->dir, 0,
				     "%zu .json files (%s) and no curves.csv, memory_curves.csv or bwlat_<R>.txt: name the PROFET file",
				     njson, names);
	mess_file_err(s->err, s->errlen, s->dir, 0, "no curve set here: looked for %s",
		      LOOKED_FOR);
	return -ENOENT;
}

/*
 * The Mess-Results layouts: a tree root holding processed/ (its
 * memory_curves.csv, plotter.txt from the root), a processed/ folder
 * (plotter.txt from the tree above), a raw tree (bw/, lat/, plotter.txt).
 * 1 when it is one, 0 when not.
 */
static int detect_mess_tree(struct mess_loadset *s, enum mess_set_kind *kind)
{
	char p[PATH_MAX], q[PATH_MAX];
	int ret = mess_load_join(s, p, s->dir, "processed/memory_curves.csv");

	if (ret)
		return ret;
	if (mess_load_is_file(p)) {
		snprintf(s->file, sizeof(s->file), "%s", p);
		*kind = MESS_SET_MESS_RESULTS;
		return 1;
	}
	ret = mess_load_join(s, p, s->dir, "bw");
	if (!ret)
		ret = mess_load_join(s, q, s->dir, "lat");
	if (ret)
		return ret;
	if (mess_load_is_dir(p) && mess_load_is_dir(q)) {
		snprintf(s->file, sizeof(s->file), "%s", s->dir);
		*kind = MESS_SET_MESS_RAW;
		return 1;
	}
	return 0;
}

static int detect_dir(struct mess_loadset *s, enum mess_set_kind *kind)
{
	int ret = detect_mess_tree(s, kind);

	if (ret)
		return ret > 0 ? 0 : ret;

	/* The marker files in the table's order (formats.c says why). */
	for (const struct mess_format *x = mess_formats; x->name; x++) {
		if (!x->marker)
			continue;
		ret = mess_load_join(s, s->file, s->dir, x->marker);
		if (ret)
			return ret;
		if (mess_load_is_file(s->file)) {
			*kind = x->kind;
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

static int detect_file(struct mess_loadset *s, enum mess_set_kind *kind)
{
	const char *base = base_name(s->file);
	struct mess_lines l;
	size_t k;
	int ret;

	for (const struct mess_format *x = mess_formats; x->name; x++)
		if (x->marker && !strcmp(base, x->marker)) {
			*kind = x->kind;
			return 0;
		}
	/* The suite's own JSON files describe runs; none holds curves, and
	 * taking one for a PROFET set would ask for --ghz. */
	for (k = 0; k < sizeof(own_json) / sizeof(own_json[0]); k++)
		if (!strcmp(base, own_json[k]))
			return mess_file_err(s->err, s->errlen, s->file, 0,
					     "not a curve file but a run's %s: give its directory, or expected %s",
					     own_json[k], LOOKED_FOR);
	if (mess_bwlat_name(base)) {
		*kind = MESS_SET_BWLAT;
		return 0;
	}
	if (ends_with(base, ".json")) {
		return mess_load_json_kind(s, kind);
	}
	if (!ends_with(base, ".csv"))
		return mess_file_err(s->err, s->errlen, s->file, 0,
				     "not a curve file: expected %s", LOOKED_FOR);
	ret = mess_lines_open(&l, s->file, s->err, s->errlen);
	if (!ret)
		ret = mess_lines_next(&l, s->err, s->errlen);
	/* The reader of the kind picked says what is wrong with it. */
	*kind = ret > 0 && (!strcmp(l.line, MESS_CURVES_CSV_HEADER) ||
			    !strcmp(l.line, MESS_CURVES_CSV_HEADER_V5) ||
			    !strcmp(l.line, MESS_CURVES_CSV_HEADER_V4) ||
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
	in->units = "";
	in->unloaded_ns = NAN;
	in->unloaded_source = "none";
	in->cpu_ghz = NAN;
	in->cpu_ghz_measured = NAN;
	in->cpu_ghz_spread_pct = NAN;
	in->cores = -1;
	in->stride_bytes = NAN;
	in->window_bytes = NAN;
	in->complete = -1;
}

const char *mess_set_verdict(const struct mess_set_info *info)
{
	return info && info->verdict[0] ? info->verdict : "none";
}

void mess_set_dir(const struct mess_set_info *info, char *dir, size_t len)
{
	struct stat st;

	snprintf(dir, len, "%s", info->path);
	if (!stat(dir, &st) && !S_ISDIR(st.st_mode) && strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
}

static int cmp_bw(const void *a, const void *b)
{
	const struct mess_point *x = a, *y = b;

	if (x->bw_gbs != y->bw_gbs)
		return (x->bw_gbs > y->bw_gbs) - (x->bw_gbs < y->bw_gbs);
	return (x->lat_ns > y->lat_ns) - (x->lat_ns < y->lat_ns);
}

/* The directory's own name, also for "." or "run/". */
static void set_label(struct mess_loadset *s)
{
	char real[PATH_MAX];
	const char *b;

	/* A tree's processed/ folder is named by its tree. */
	b = base_name(realpath(s->meta_dir, real) ? real : s->dir);
	snprintf(s->info->label, sizeof(s->info->label), "%.*s",
		 (int)sizeof(s->info->label) - 1, *b ? b : "/");
}

/* A Mess-Results processed/ folder's metadata is in the tree above it. */
static void meta_dir(struct mess_loadset *s)
{
	char p[PATH_MAX];

	snprintf(s->meta_dir, sizeof(s->meta_dir), "%s", s->dir);
	if (!strcmp(base_name(s->dir), "processed") &&
	    !mess_load_join(s, p, s->dir, "../plotter.txt") && mess_load_is_file(p))
		snprintf(s->meta_dir, sizeof(s->meta_dir), "%.*s/..",
			 PATH_MAX - 4, s->dir);
}

int mess_set_load(const char *path, double ghz, struct mess_family *f,
		  struct mess_set_info *info, char *err, size_t errlen)
{
	struct mess_loadset s = { .ghz = ghz, .f = f, .info = info, .err = err,
			 .errlen = errlen };
	enum mess_set_kind kind = MESS_SET_RUN;
	const struct mess_format *fmt;
	struct stat st;
	size_t i, n;
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
	} else {
		const char *slash = strrchr(path, '/');

		if (!slash)
			snprintf(s.dir, sizeof(s.dir), ".");
		else
			snprintf(s.dir, sizeof(s.dir), "%.*s",
				 slash == path ? 1 : (int)(slash - path), path);
		snprintf(s.file, sizeof(s.file), "%s", path);
	}
	meta_dir(&s);
	ret = s.is_dir ? detect_dir(&s, &kind) : detect_file(&s, &kind);
	if (ret)
		return ret;
	fmt = mess_format_of_kind(kind);
	info->kind = kind;
	info->kind_name = fmt->kind_name;
	snprintf(info->path, sizeof(info->path), "%s", s.file);
	set_label(&s);

	ret = fmt->read(&s);
	info->units = info->latency_from_cycles == 1 && fmt->units_cycles ?
		fmt->units_cycles : fmt->units;
	mess_drop_say(&s.drop, info->warning, sizeof(info->warning));
	if (ret)
		return ret;
	for (i = 0; fmt->by_bandwidth && i < f->n; i++)
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

/*
 * A tail family is read against the unloaded distribution's same quantile
 * (meta.json distribution.unloaded beside the set), not the mean's: else
 * every p99 point would count as saturated.  Unknown (NAN) where the run
 * has none; unloaded_source says which.
 */
static void unloaded_at_stat(struct mess_set_info *in, const char *stat)
{
	char path[PATH_MAX + 16], key[24];
	const char *slash = strrchr(in->path, '/');
	json_t *j;
	size_t k = 0;

	for (const char *c = stat; *c && k < sizeof(key) - 4; c++)
		if (*c != '.')
			key[k++] = *c;
	snprintf(key + k, sizeof(key) - k, "_ns");
	snprintf(path, sizeof(path), "%.*s/meta.json",
		 slash ? (int)(slash - in->path) : 1, slash ? in->path : ".");
	j = mess_load_is_file(path) ? mess_json_load(path, 0, NULL) : NULL;
	in->unloaded_ns = json_number_value(json_object_get(json_object_get(
		json_object_get(j, "distribution"), "unloaded"), key));
	if (!(in->unloaded_ns > 0) || !isfinite(in->unloaded_ns))
		in->unloaded_ns = NAN;
	in->unloaded_source = isfinite(in->unloaded_ns) ?
		"the run's unloaded distribution at the same quantile" : "none";
	json_decref(j);
}

int mess_set_at_stat(struct mess_family *f, struct mess_set_info *info,
		     const char *stat)
{
	int ret = mess_family_at_stat(f, stat);

	if (ret || !strcmp(stat, "mean"))
		return ret;
	unloaded_at_stat(info, stat);
	f->unloaded_ns = isfinite(info->unloaded_ns) ? info->unloaded_ns : 0.0;
	return 0;
}
