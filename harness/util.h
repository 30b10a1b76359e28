/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the result writers. */
#ifndef MESS_UTIL_H
#define MESS_UTIL_H

/* mkdir -p: 0, or -errno (-ENOTDIR if a component is a file). */
int mess_mkdir_p(const char *path);

#endif
