// SPDX-License-Identifier: MIT
#include "core/util.h"

#include <errno.h>
#include <math.h>
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

void mess_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

int mess_find_repo_file(const char *rel, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	for (int up = 0; up < 4; up++) {
		char *slash = strrchr(exe, '/');

		if (!slash || slash == exe)
			break;
		*slash = '\0';
		if ((size_t)snprintf(buf, len, "%s/%s", exe, rel) < len &&
		    !access(buf, R_OK))
			return 0;
	}
	return -ENOENT;
}

void mess_json_num(FILE *f, double v, int decimals)
{
	if (isfinite(v))
		fprintf(f, "%.*f", decimals, v);
	else
		fputs("null", f);
}
