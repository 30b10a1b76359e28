// SPDX-License-Identifier: MIT
#include "core/buildinfo.h"

#ifndef MESS_VERSION
#define MESS_VERSION "unknown"
#endif
#ifndef MESS_GIT_REV
#define MESS_GIT_REV "unknown"
#endif
#ifndef MESS_CFLAGS
#define MESS_CFLAGS "unknown"
#endif

const char mess_version[] = MESS_VERSION;
const char mess_git_rev[] = MESS_GIT_REV;
const char mess_compiler[] = "gcc " __VERSION__;
const char mess_cflags[] = MESS_CFLAGS;
