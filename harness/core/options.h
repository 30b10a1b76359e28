/* SPDX-License-Identifier: MIT */
/* The command line: one option table drives parsing, validation and help. */
#ifndef MESS_OPTIONS_H
#define MESS_OPTIONS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * One option of a command's table: name, type, where it goes in the
 * command's config struct, its range, and its help line.  The same table
 * parses, validates (the error names the option and what it allows) and
 * prints --help.
 */
enum mess_opt_type {
	MESS_OPT_FLAG,		/* int, set to 1 */
	MESS_OPT_UINT,		/* uint64_t */
	MESS_OPT_INT,		/* int64_t */
	MESS_OPT_SIZE,		/* uint64_t, K/M/G/T suffixes */
	MESS_OPT_DOUBLE,
	MESS_OPT_STR,		/* char[len] */
};

struct mess_opt {
	const char *name;
	enum mess_opt_type type;
	size_t off;
	size_t len;		/* MESS_OPT_STR: buffer size; MESS_OPT_SIZE:
				 * the value is a multiple of it (0: any) */
	double min, max;
	const char *arg;
	const char *help;
};

#define MESS_OPT_F(type, field) offsetof(type, field)
#define MESS_OPT_S(type, field) offsetof(type, field), sizeof(((type *)0)->field)

/* Set the options of argv[1..] into cfg; 0 or -EINVAL with err set. */
int mess_opts_parse(const struct mess_opt *opts, size_t nopts, void *cfg,
		    int argc, char **argv, char *err, size_t errlen);
/* The same, also taking up to maxpos arguments that are not options (a
 * run directory, files) into pos[], in order; after "--" every argument is
 * one.  *npos says how many. */
int mess_opts_parse_pos(const struct mess_opt *opts, size_t nopts, void *cfg,
			int argc, char **argv, char **pos, int maxpos,
			int *npos, char *err, size_t errlen);
/* One help line per option. */
void mess_opts_print(FILE *f, const struct mess_opt *opts, size_t nopts);
/* Whether argv[1..] holds --name: presets (--quick) apply before the rest. */
int mess_opts_given(int argc, char **argv, const char *name);

/* Parse a list like "0-3,8,10-11" into out[], each < limit; values and
 * range ends must be multiples of step, ranges advance by step. */
int mess_parse_list(const char *s, int *out, int max, int limit, int step,
		    int *n);
/* Its inverse: ascending v[0..n) as "0-3,8" ("" when n is 0); 0, or
 * -ENOSPC when it did not fit (buf then ends in "..."). */
int mess_format_list(const int *v, int n, char *buf, size_t len);

#endif
