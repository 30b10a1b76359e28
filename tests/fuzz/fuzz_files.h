/* SPDX-License-Identifier: MIT */
/*
 * An input of a fuzz target as a directory of files (fuzz_messraw,
 * fuzz_rundir): what comes before the first "@@ NAME" line is the file
 * `first` (none when the input starts with "@@ "), each "@@ NAME\n" line starts the file NAME (letters, digits,
 * '_', '-', '.', at most one '/', no ".."; another name drops its part).
 * A part that is exactly "@fifo", "@zero" or "@dir" makes NAME a FIFO, a
 * link to /dev/zero or a directory: what a reader must refuse without
 * hanging or reading for ever.  The directory is made afresh per input.
 */
#ifndef MESS_FUZZ_FILES_H
#define MESS_FUZZ_FILES_H

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_base[256], fuzz_dir[300];

static int fuzz_rm(const char *path, const struct stat *sb, int flag,
		   struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void fuzz_cleanup(void)
{
	nftw(fuzz_base, fuzz_rm, 8, FTW_DEPTH | FTW_PHYS);
}

static void fuzz_files_init(const char *name)
{
	const char *tmp = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";

	snprintf(fuzz_base, sizeof(fuzz_base), "%s/%s.XXXXXX", tmp, name);
	if (!mkdtemp(fuzz_base))
		abort();
	atexit(fuzz_cleanup);
	snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/t", fuzz_base);
}

static int fuzz_name_ok(const char *s, size_t n)
{
	int slashes = 0;

	if (!n || n > 64 || s[0] == '/' || s[0] == '.' || s[n - 1] == '/')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '/' && (++slashes > 1 || s[i + 1] == '.'))
			return 0;
		if (!(c == '/' || c == '_' || c == '-' || c == '.' ||
		      (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z')))
			return 0;
	}
	return 1;
}

static void fuzz_put(const char *name, size_t nlen, const uint8_t *d,
		     size_t n)
{
	char path[512], *slash;
	FILE *fp;

	if (!fuzz_name_ok(name, nlen))
		return;
	snprintf(path, sizeof(path), "%s/%.*s", fuzz_dir, (int)nlen, name);
	slash = strrchr(path, '/');
	if (slash > path + strlen(fuzz_dir)) {
		*slash = '\0';
		mkdir(path, 0777);
		*slash = '/';
	}
	/* a name given twice: the last part */
	nftw(path, fuzz_rm, 8, FTW_DEPTH | FTW_PHYS);
	if (n == 5 && !memcmp(d, "@fifo", 5)) {
		mkfifo(path, 0600);
		return;
	}
	/* A folder of the path that an earlier part made a file: no link,
	 * as no file (below). */
	if (n == 5 && !memcmp(d, "@zero", 5)) {
		if (symlink("/dev/zero", path) && errno != ENOTDIR &&
		    errno != EEXIST)
			abort();
		return;
	}
	if (n == 4 && !memcmp(d, "@dir", 4)) {
		mkdir(path, 0777);
		return;
	}
	fp = fopen(path, "w");
	/* a name that is a directory made by an earlier part's path */
	if (!fp)
		return;
	if ((n && fwrite(d, 1, n, fp) != n) || fclose(fp))
		abort();
}

/* The input as files under fuzz_dir (made afresh). */
static void fuzz_files_write(const uint8_t *data, size_t size,
			     const char *first)
{
	const uint8_t *p = data, *end = data + size;
	const char *name = first;
	size_t nlen = strlen(first);

	fuzz_cleanup();
	if (mkdir(fuzz_base, 0777) || mkdir(fuzz_dir, 0777))
		abort();
	for (;;) {
		const uint8_t *at = p, *next = NULL, *nl;

		/* the next "@@ " at a line start */
		while (at + 3 <= end) {
			if ((at == data || at[-1] == '\n') && !memcmp(at, "@@ ", 3)) {
				next = at;
				break;
			}
			at++;
		}
		/* an input that starts with "@@ " has no file `first` */
		if (name != first || next != data)
			fuzz_put(name, nlen, p, (size_t)((next ? next : end) - p));
		if (!next)
			return;
		nl = memchr(next, '\n', (size_t)(end - next));
		name = (const char *)next + 3;
		nlen = (size_t)((nl ? nl : end) - (next + 3));
		if (!nl)
			return;
		p = nl + 1;
	}
}

#endif
