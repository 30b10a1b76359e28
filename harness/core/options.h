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
/*
 * Every option's value must be non-empty and free of control characters
 * (a newline in a path, a stray CR): refused, naming the option, before
 * the type's own checks.
 */

/*
 * --peak-gbs, the same bounds in every command that has it: a peak under
 * 1 MB/s is no memory system's (the family would be quoted at 10^13 % of
 * it), and 10 PB/s is beyond any.
 */
#define MESS_PEAK_GBS_MIN 0.001
#define MESS_PEAK_GBS_MAX 1e7

#define MESS_OPT_F(type, field) offsetof(type, field)
#define MESS_OPT_S(type, field) offsetof(type, field), sizeof(((type *)0)->field)

/*
 * The rows many commands' tables share, written once here: each command
 * includes them, as perf's tables include a parent table (a macro, since
 * the field sits at another offset in each command's config).  off is
 * MESS_OPT_F(type, field), dir MESS_OPT_S(type, field).  A command whose
 * option means something else keeps its own words (MESS_OPT_FLAG_ROW,
 * MESS_OPT_OUT with its text).
 */
#define MESS_OPT_FLAG_ROW(name, off, text) \
	{ name, MESS_OPT_FLAG, (off), 0, 0, 0, NULL, text }
/* The row every command's table has. */
#define MESS_OPT_HELP(off) MESS_OPT_FLAG_ROW("help", off, "this text")
#define MESS_OPT_NO_PLOTS(off) MESS_OPT_FLAG_ROW("no-plots", off, "do not run gnuplot")
/* A command writing a directory: --json prints file (a string literal) instead. */
#define MESS_OPT_JSON(off, file) MESS_OPT_FLAG_ROW("json", off, \
	"when done, print " file " on stdout instead of the directory's name")
#define MESS_OPT_STRICT(off) MESS_OPT_FLAG_ROW("strict", off, \
	"exit 2 when the verdict is INVALID (the results are kept)")
/* --out.  dir is MESS_OPT_S, two fields: never parenthesised, nor handed
 * on to another macro (it would arrive as two arguments). */
#define MESS_OPT_OUT(dir, arg, text) { "out", MESS_OPT_STR, dir, 0, 0, arg, text }
/* Where a command's directory goes by default: kind "ladder-" names
 * results/<host>-ladder-<UTC timestamp>. */
#define MESS_OUT_DEFAULT(kind) "(default results/<host>-" kind "<UTC timestamp>)"
#define MESS_OPT_OUT_RUN(dir, kind) { "out", MESS_OPT_STR, dir, 0, 0, "DIR", \
	"run directory " MESS_OUT_DEFAULT(kind) }
/* --resume DIR and its --force, of a command that continues its own runs. */
#define MESS_OPT_RESUME(dir, force) \
	{ "resume", MESS_OPT_STR, dir, 0, 0, "DIR", \
	  "continue an interrupted run in DIR with its original options" }, \
	MESS_OPT_FLAG_ROW("force", force, \
	  "with --resume: continue a run another build started (meta.json names both)")

/*
 * The opening every command shares: argv parsed against opts into cfg
 * (with up to maxpos arguments that are not options into pos, *npos how
 * many, when maxpos > 0), a bad option said as "PROG: what" in one line,
 * and --help (*help, a field of cfg) printed by usage.  0: go on; 1:
 * --help printed, the command is done; -EINVAL: said.
 */
int mess_cmd_open(const char *prog, const struct mess_opt *opts, size_t nopts,
		  void *cfg, const int *help, void (*usage)(FILE *f),
		  int argc, char **argv, char **pos, int maxpos, int *npos);

/* Set the options of argv[1..] into cfg; 0 or -EINVAL with err set. */
int mess_opts_parse(const struct mess_opt *opts, size_t nopts, void *cfg,
		    int argc, char **argv, char *err, size_t errlen);
/* The same, also taking up to maxpos arguments that are not options (a
 * run directory, files) into pos[], in order; after "--" every argument is
 * one.  *npos says how many. */
int mess_opts_parse_pos(const struct mess_opt *opts, size_t nopts, void *cfg,
			int argc, char **argv, char **pos, int maxpos,
			int *npos, char *err, size_t errlen);
/* One help line per option, and how numbers are written when it has
 * numeric options. */
void mess_opts_print(FILE *f, const struct mess_opt *opts, size_t nopts);
/* For "did you mean": the edit distance of a[0..al) and b (swapped
 * neighbours count 1; SIZE_MAX past 62 characters), and whether a
 * distance is close enough to suggest for a word of len characters. */
size_t mess_edit_distance(const char *a, size_t al, const char *b);
int mess_close_enough(size_t dist, size_t len);
/* Whether argv[1..] holds --name: presets (--quick) apply before the rest. */
int mess_opts_given(int argc, char **argv, const char *name);

/*
 * Numbers, one grammar for every option and list item: decimal digits with
 * an optional fraction and exponent ("1000", "0.25", ".5", "1e6",
 * "2.5e-3"); no hex, inf, nan or spaces, and a sign ('-' only) only where
 * negative values can be allowed.  Integers are exact (never rounded
 * through a double) and must come out whole ("1.5e3" is 1500, "1.5" is
 * refused); a double that overflows or underflows to 0 is refused.
 * 0, or -EINVAL (not the grammar, not whole) or -ERANGE (does not fit),
 * *v then untouched.
 * (core/numbers.c)
 */
int mess_opt_u64(const char *s, uint64_t *v);
int mess_opt_i64(const char *s, int64_t *v);
int mess_opt_double(const char *s, double *v);
/* A size: a number, then an optional K, M, G or T (powers of 1024, also
 * lower case, optionally followed by "i"), then an optional "B". */
int mess_opt_size(const char *s, uint64_t *v);
/* The unsigned integer at the start of s; *end after it. */
int mess_opt_scan_u64(const char *s, const char **end, uint64_t *v);

/*
 * Lists, one rule for every list option: comma-separated items, none of
 * them empty, none longer than MESS_ITEM_MAX characters, none given twice
 * (also as part of a range), at most max of them.
 *
 * A list like "0-3,8,10-11" into out[], each < limit; values and range
 * ends must be multiples of step, ranges advance by step.  0; -EINVAL or
 * -ERANGE with why (may be NULL) naming the item: "'1' is given twice".
 */
#define MESS_ITEM_MAX 63
int mess_parse_list(const char *s, int *out, int max, int limit, int step,
		    int *n, char *why, size_t whylen);
/*
 * A list of words (names, numbers): item() turns one into its value or
 * refuses it (nonzero).  The error is one line, "--NAME: 'ITEM' BAD;
 * allowed: ALLOWED" when item() refuses, else naming the empty, over-long
 * or repeated item or saying there are too many.
 */
struct mess_items {
	const char *name;	/* the option, without -- */
	int (*item)(const char *w, void *ctx, double *v);
	void *ctx;
	const char *bad;	/* "is not a kernel" */
	const char *allowed;	/* "a comma-separated list of ..." */
};
int mess_parse_items(const struct mess_items *it, const char *s, double *v,
		     int max, int *n, char *err, size_t errlen);

/* The inverse of mess_parse_list: ascending v[0..n) as "0-3,8" ("" when
 * n is 0); 0, or -ENOSPC when it did not fit (buf then ends in "..."). */
int mess_format_list(const int *v, int n, char *buf, size_t len);

/* At most n characters of s for a one-line message: control characters
 * as \n, \t, \r or \xNN, cut to fit len with "...". */
void mess_opt_quote(const char *s, size_t n, char *buf, size_t len);

#endif
