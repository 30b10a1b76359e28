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
 * The data file `name` the harness reads at run time (e.g.
 * "plots/curves.gp", "noise-loops.tsv"): in $MESS_DATADIR when set, else in
 * <executable's dir>/../share/mess (installed: <prefix>/bin/mess and
 * <prefix>/share/mess), else in <executable's dir>/share/mess (the build
 * tree: build/<arch>/mess, staged by make).  0 with its path in buf;
 * -ENOENT, or -ENAMETOOLONG when a path does not fit in buf.
 */
int mess_data_file(const char *name, char *buf, size_t len);

#endif
