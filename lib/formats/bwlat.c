// SPDX-License-Identifier: MIT
/*
 * A directory of bwlat_<R>.txt files, the Mess simulator's input, read back
 * as a family.  Our exporter may fill in read shares that were not
 * measured and says which in curve-sources.tsv; only measured curves are
 * loaded, so that a comparison never takes a filled-in curve for data.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mess/messfmt.h"
#include "mess/parse.h"

#define SOURCES_TSV "curve-sources.tsv"
#define SOURCES_HEADER "file\tread_pct\tsource\tfrom"
#define MAX_PCT 100

/* The bwlat files of a directory, by R. */
struct bwlat_dir {
	const char *dir;
	const char *only;	/* rows of this file, by read_pct (a document) */
	char *name[MAX_PCT + 1];
	int filled[MAX_PCT + 1];
	char *err;
	size_t errlen;
};

static const struct {
	const char *name;
	int filled;
} sources[] = {
	{ "measured", 0 },
	{ "interpolated", 1 },
	{ "extrapolated", 1 },
};

#define NSOURCES (sizeof(sources) / sizeof(sources[0]))

int mess_bwlat_name(const char *name)
{
	size_t n = strlen(name);

	return n >= 10 && !strncmp(name, "bwlat_", 6) &&
	       !strcmp(name + n - 4, ".txt");
}

static int join(struct bwlat_dir *b, char *buf, const char *name)
{
	if ((size_t)snprintf(buf, PATH_MAX, "%s/%s", b->dir, name) >= PATH_MAX)
		return mess_file_err(b->err, b->errlen, b->dir, 0,
				     "path too long");
	return 0;
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* A bad R, or a second file for one R ("bwlat_050.txt"), is -EINVAL. */
static int add(struct bwlat_dir *b, const char *name)
{
	size_t n = strlen(name) - strlen("bwlat_.txt");
	char path[PATH_MAX];
	int r, ret = join(b, path, name);

	if (ret)
		return ret;
	if (mess_parse_pct(name + 6, n, &r))
		return mess_file_err(b->err, b->errlen, path, 0,
				     "the read percentage in the file name is not an integer 0..100");
	if (b->name[r])
		return mess_file_err(b->err, b->errlen, path, 0,
				     "read share %d is also %s", r, b->name[r]);
	b->name[r] = strdup(name);
	return b->name[r] ? 0 : -ENOMEM;
}

/* One row of curve-sources.tsv: file, read_pct, source, from. */
static int sources_row(struct bwlat_dir *b, const struct mess_lines *l)
{
	char *fl[4], q[64];
	size_t n = mess_split(l->line, '\t', fl, 4), i;
	double pct;
	int r, ret;

	if (n != 4)
		return mess_file_err(b->err, b->errlen, l->path, l->no,
				     "expected 4 tab-separated fields (file, read_pct, source, from), got %zu",
				     n);
	ret = mess_field_num(l, fl[1], "read_pct", 0, MESS_NUM_PCT, &pct,
			     b->err, b->errlen);
	if (ret)
		return ret;
	for (i = 0; i < NSOURCES; i++)
		if (!strcmp(mess_trim(fl[2]), sources[i].name))
			break;
	if (i == NSOURCES)
		return mess_file_err(b->err, b->errlen, l->path, l->no,
				     "source '%s' is not measured, interpolated or extrapolated",
				     mess_quote(q, sizeof(q), fl[2]));
	if (b->only) {
		if (!strcmp(mess_trim(fl[0]), b->only))
			b->filled[(int)lround(pct)] = sources[i].filled;
		return 0;
	}
	/* A row naming a file that is gone says nothing to load. */
	for (r = 0; r <= MAX_PCT; r++)
		if (b->name[r] && !strcmp(b->name[r], mess_trim(fl[0])))
			b->filled[r] = sources[i].filled;
	return 0;
}

static int read_sources(struct bwlat_dir *b)
{
	char path[PATH_MAX];
	struct mess_lines l;
	int ret = join(b, path, SOURCES_TSV);

	if (ret || !is_file(path))
		return ret;
	ret = mess_lines_open(&l, path, b->err, b->errlen);
	if (ret)
		return ret;
	ret = mess_lines_next(&l, b->err, b->errlen);
	if (ret == 0)
		ret = mess_file_err(b->err, b->errlen, path, 0, "empty file");
	else if (ret > 0 && strcmp(l.line, SOURCES_HEADER))
		ret = mess_file_err(b->err, b->errlen, path, 1,
				    "expected the header 'file<TAB>read_pct<TAB>source<TAB>from'");
	else if (ret > 0)
		ret = 0;
	while (!ret && (ret = mess_lines_next(&l, b->err, b->errlen)) > 0)
		ret = mess_blank(l.line) ? 0 : sources_row(b, &l);
	mess_lines_close(&l);
	return ret;
}

static int scan(struct bwlat_dir *b)
{
	struct dirent *de;
	DIR *d = opendir(b->dir);
	int ret = 0;

	if (!d) {
		ret = -errno;
		mess_file_err(b->err, b->errlen, b->dir, 0, "%s", strerror(-ret));
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		char path[PATH_MAX];

		if (!mess_bwlat_name(de->d_name))
			continue;
		ret = join(b, path, de->d_name);
		if (!ret && is_file(path))
			ret = add(b, de->d_name);
	}
	closedir(d);
	return ret ? ret : read_sources(b);
}

int mess_bwlat_read(const char *path, struct mess_family *f,
		    int *skipped_filled, struct mess_drop *drop, char *err,
		    size_t errlen)
{
	struct bwlat_dir b;
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int r, ret, skipped = 0;

	memset(&b, 0, sizeof(b));
	b.dir = path;
	b.err = err;
	b.errlen = errlen;
	if (is_file(path)) {
		/* One file: the directory beside it, this file alone. */
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
			 slash ? path : ".");
		b.dir = slash == path ? "/" : dir;
		ret = add(&b, slash ? slash + 1 : path);
	} else {
		ret = scan(&b);
	}
	for (r = 0; r <= MAX_PCT && !ret; r++) {
		char file[PATH_MAX];
		struct mess_curve *c;

		if (!b.name[r])
			continue;
		if (b.filled[r]) {
			skipped++;
			continue;
		}
		ret = join(&b, file, b.name[r]);
		if (ret)
			break;
		c = mess_family_curve(f, MESS_STORE_PCT_UNKNOWN, r);
		ret = c ? mess_export_read(file, c, drop, err, errlen) : -ENOMEM;
	}
	for (r = 0; r <= MAX_PCT; r++)
		free(b.name[r]);
	if (skipped_filled)
		*skipped_filled = skipped;
	if (!ret && !f->n && skipped)
		ret = mess_file_err(err, errlen, b.dir, 0,
				    "all %d bwlat files are filled in (" SOURCES_TSV "), none measured",
				    skipped);
	else if (!ret && !f->n)
		ret = mess_file_err(err, errlen, b.dir, 0, "no bwlat_<R>.txt file");
	if (!ret)
		mess_family_sort_read(f);
	return ret;
}

int mess_sources_filled(const char *dir, const char *file, int filled[101],
			char *err, size_t errlen)
{
	struct bwlat_dir b;
	int ret;

	memset(&b, 0, sizeof(b));
	b.dir = dir;
	b.only = file;
	b.err = err;
	b.errlen = errlen;
	ret = read_sources(&b);
	memcpy(filled, b.filled, sizeof(b.filled));
	return ret;
}
