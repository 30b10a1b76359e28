// SPDX-License-Identifier: MIT
/*
 * --out checked as soon as the options are read: a path that can never
 * hold the run (a file, /dev/null, /proc, a name too long, a directory
 * this process cannot write) is refused as bad input, naming the option
 * and the path, before gigabytes are allocated and a failure to create it
 * surfaces as "setup failed".
 */
#include "core/rundir/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/options.h"
#include "core/rundir/rundir.h"
#include "mess/parse.h"

static int refuse(const char *opt, const char *path, char *err,
		  size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int refuse(const char *opt, const char *path, char *err,
		  size_t errlen, const char *fmt, ...)
{
	char q[320], why[PATH_MAX + 128];
	va_list ap;

	va_start(ap, fmt);
	mess_set_verr(why, sizeof(why), fmt, ap);
	va_end(ap);
	mess_opt_quote(path, SIZE_MAX, q, sizeof(q));
	return mess_fail(err, errlen, -EINVAL,
			 "--%s: %s: %s; allowed: a new or empty directory you can write",
			 opt, q, why);
}

/* dir's parent, in place: "a/b" -> "a", "a" -> ".", "/a" -> "/". */
static void parent(char *dir)
{
	char *s;
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = 0;
	s = strrchr(dir, '/');
	if (!s)
		strcpy(dir, ".");
	else if (s == dir)
		dir[1] = 0;
	else
		*s = 0;
}

int mess_out_check(const char *opt, const char *path, char *err,
		   size_t errlen)
{
	char dir[PATH_MAX], probe[PATH_MAX + 32], q[320];
	struct stat st;
	size_t len = strlen(path);

	if (!len)
		return refuse(opt, path, err, errlen, "an empty name");
	for (const char *s = path; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return refuse(opt, path, err, errlen,
				      "a control character in the name");
	if (len >= sizeof(dir))
		return refuse(opt, path, err, errlen,
			      "longer than %zu characters", sizeof(dir) - 1);
	if (stat(path, &st) && !lstat(path, &st))
		return refuse(opt, path, err, errlen, "a link to nothing");
	/* The nearest part of it that exists decides. */
	memcpy(dir, path, len + 1);
	while (stat(dir, &st)) {
		if (errno != ENOENT && errno != ENOTDIR)
			return refuse(opt, path, err, errlen, "%s", strerror(errno));
		if (!strcmp(dir, ".") || !strcmp(dir, "/"))
			return refuse(opt, path, err, errlen, "%s", strerror(errno));
		parent(dir);
	}
	mess_opt_quote(dir, SIZE_MAX, q, sizeof(q));
	if (!S_ISDIR(st.st_mode))
		return strcmp(dir, path) ?
			refuse(opt, path, err, errlen, "%s is %s, not a directory",
			       q, mess_file_kind(st.st_mode)) :
			refuse(opt, path, err, errlen, "%s, not a directory",
			       mess_file_kind(st.st_mode));
	if (access(dir, W_OK | X_OK))
		return refuse(opt, path, err, errlen, "%s is not writable (%s)",
			      q, strerror(errno));
	/* Root writes anywhere access() asks about, yet /proc, /sys and
	 * read-only mounts take no new entry: only trying tells. */
	snprintf(probe, sizeof(probe), "%s/" MESS_OUT_PROBE_PREFIX "XXXXXX", dir);
	if (!mkdtemp(probe))
		return refuse(opt, path, err, errlen,
			      "%s cannot hold a new directory (%s)", q,
			      strerror(errno));
	rmdir(probe);
	return 0;
}

int mess_out_check_empty(const char *opt, const char *path, char *err,
			 size_t errlen)
{
	struct dirent *e;
	DIR *d;
	int n = 0;

	if (mess_out_check(opt, path, err, errlen))
		return -EINVAL;
	d = opendir(path);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		return mess_fail(err, errlen, -EINVAL,
				 "--%s: %s %s; allowed: a new or empty directory",
				 opt, path, strerror(errno));
	}
	/* What the lock's owner keeps there is no content: the lock
	 * decides between two writers (rundir_lock.c). */
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    !mess_rundir_aside_name(e->d_name))
			n++;
	closedir(d);
	if (n)
		return mess_fail(err, errlen, -EINVAL,
				 "--%s: %s is not empty; allowed: a new or empty directory",
				 opt, path);
	return 0;
}
