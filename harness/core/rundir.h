/* SPDX-License-Identifier: MIT */
/* What every command's run directory shares. */
#ifndef MESS_RUNDIR_H
#define MESS_RUNDIR_H

#include <stdio.h>

#include "core/topo.h"

/* meta.json lines every command writes: build, host, CPU, ISA, compiler. */
void mess_meta_identity(FILE *f, const struct mess_topo *t);
/* meta.json's last members (resumes, start and end, complete) and its
 * closing brace; end_utc "" is written as null (still running). */
void mess_meta_close(FILE *f, int resumed, const char *start_utc,
		     const char *end_utc, int complete);

/* resume.txt keeps a run's options as "arg" lines, one per argv word. */
#define MESS_RESUME_MAX_ARGS 64
void mess_resume_write_args(FILE *f, int argc, char **argv);
/* argv (argv[0] "mess") from DIR/resume.txt, in static storage. */
int mess_resume_read_args(const char *dir, int *argc, char ***argv);

/*
 * --resume DIR given alone (argv holds nothing else): the original
 * options of DIR's run into *ac, *av.  0, or -EINVAL with err naming the
 * option and what it allows.
 */
int mess_resume_args(int argc, char **argv, const char *dir, int *ac,
		     char ***av, char *err, size_t errlen);

#endif
