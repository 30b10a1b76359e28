/* SPDX-License-Identifier: MIT */
/* What built this binary, for every result's meta.json. */
#ifndef MESS_BUILDINFO_H
#define MESS_BUILDINFO_H

extern const char mess_version[];
extern const char mess_git_rev[];
extern const char mess_compiler[];
extern const char mess_cflags[];

#endif
