// SPDX-License-Identifier: MIT
#include "core/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int mkdir_one(const char *dir)
{
	struct stat st;

	if (!mkdir(dir, 0777))
		return 0;
	if (errno != EEXIST)
		return -errno;
	if (stat(dir, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int mess_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	int err;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		err = mkdir_one(tmp);
		if (err)
			return err;
		*p = '/';
	}
	return mkdir_one(tmp);
}

FILE *mess_file_open(const char *dir, const char *name, const char *mode)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, mode);
}

FILE *mess_tmp_open(const char *dir, const char *name)
{
	char tmp[128];

	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	return mess_file_open(dir, tmp, "w");
}

int mess_tmp_commit(const char *dir, const char *name, FILE *f)
{
	char a[PATH_MAX + 64], b[PATH_MAX + 64];
	int bad = ferror(f) | fclose(f);

	snprintf(a, sizeof(a), "%s/%s.tmp", dir, name);
	snprintf(b, sizeof(b), "%s/%s", dir, name);
	if (bad || rename(a, b))
		return -EIO;
	return 0;
}

/* The directory of the running executable, without the trailing slash. */
static int exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len);
	char *slash;

	if (n <= 0)
		return -ENOENT;
	if ((size_t)n >= len)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	return 0;
}

static int try_file(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return access(buf, R_OK) ? -ENOENT : 0;
}

int mess_data_file(const char *name, char *buf, size_t len)
{
	const char *env = getenv("MESS_DATADIR");
	char dir[PATH_MAX], sub[PATH_MAX + 32];
	int err;

	if (env && *env)
		return try_file(buf, len, env, name);
	err = exe_dir(dir, sizeof(dir));
	if (err)
		return err;
	/* Installed: <prefix>/bin/mess reads <prefix>/share/mess; in the build
	 * tree the tests (build/<arch>/tests/) reach the staged data the same
	 * way. */
	snprintf(sub, sizeof(sub), "%s/../share/mess", dir);
	if (!try_file(buf, len, sub, name))
		return 0;
	/* The build tree: build/<arch>/mess next to build/<arch>/share/mess. */
	snprintf(sub, sizeof(sub), "%s/share/mess", dir);
	return try_file(buf, len, sub, name);
}
