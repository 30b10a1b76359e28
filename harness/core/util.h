/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the result writers. */
#ifndef MESS_UTIL_H
#define MESS_UTIL_H

#include <stdio.h>

/* mkdir -p: 0, or -errno (-ENOTDIR if a component is a file). */
int mess_mkdir_p(const char *path);
/* fopen(dir/name, mode). */
FILE *mess_file_open(const char *dir, const char *name, const char *mode);
/* Write dir/name.tmp, then rename it over dir/name, so that a reader never
 * sees half a file: 0 or -EIO (f is closed either way). */
FILE *mess_tmp_open(const char *dir, const char *name);
int mess_tmp_commit(const char *dir, const char *name, FILE *f);
/*
 * rel (e.g. "plots/curves.gp") under the ancestors of the executable's
 * directory: build/<arch>/mess and build/<arch>/tests/x both reach the
 * repository root that way.  0 with its path in buf, or -ENOENT.
 */
int mess_find_repo_file(const char *rel, char *buf, size_t len);
/* s as a JSON string literal, quotes included. */
void mess_json_str(FILE *f, const char *s);
/* v with that many decimals, or null when it is not finite (NaN: unknown). */
void mess_json_num(FILE *f, double v, int decimals);

#endif
