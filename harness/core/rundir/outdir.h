/* SPDX-License-Identifier: MIT */
/* An output directory option checked before anything is allocated. */
#ifndef MESS_OUTDIR_H
#define MESS_OUTDIR_H

/* The empty folder mess_out_check makes and removes at once to learn
 * whether the directory takes a new entry: another writer's check may
 * see it there for a moment, never content. */
#define MESS_OUT_PROBE_PREFIX ".mess-out-check-"

#include <stddef.h>

/*
 * The directory --OPT names: one that exists (empty or not: a run already
 * in it is for the run directory to refuse) or can be made, and that this
 * process can write; what can never work (a file, a device, /proc, a name
 * too long, a directory it cannot write) is refused.  0, or -EINVAL with
 * err the one line "--OPT: PATH: REASON; allowed: a new or empty
 * directory you can write".  It may make and remove an empty probe
 * directory, the one way to learn whether a directory (/proc, a read-only
 * mount) takes a new entry.
 */
int mess_out_check(const char *opt, const char *path, char *err,
		   size_t errlen);

/*
 * mess_out_check, and the directory new or empty: for a command that
 * writes its files straight into --OPT (export, import), where another
 * command's files would be mixed with its own.  0, or -EINVAL with err
 * the one line.
 */
int mess_out_check_empty(const char *opt, const char *path, char *err,
			 size_t errlen);

#endif
