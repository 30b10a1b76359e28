// SPDX-License-Identifier: MIT
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

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
