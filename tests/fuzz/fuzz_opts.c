// SPDX-License-Identifier: MIT
/*
 * libFuzzer target of the option engine (make fuzz, make check-fuzz): the
 * input, split at NUL bytes, is an argv parsed against a table with every
 * type of option, as a command's is; each word is also read by each number
 * parser.  Beyond what the sanitizers catch, it aborts when the contract
 * breaks:
 *   - an error that is not one line naming an option or the argument;
 *   - an accepted value outside its option's range, or a string option
 *     left empty or holding a control character;
 *   - a refused number that changed the value it was to set;
 *   - a number read differently by two parsers: an integer must equal
 *     strtoull's reading of plain digits, and the double of the same text
 *     must be that integer correctly rounded (both are exact readings).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"

#define MAX_ARGS 32

struct cfg {
	char out[64];
	char list[16];
	uint64_t points, seed, buffer, stride;
	int64_t core;
	double ms;
	int quick;
};

#define F(field) MESS_OPT_F(struct cfg, field)
#define S(field) MESS_OPT_S(struct cfg, field)

static const struct mess_opt table[] = {
	{ "out", MESS_OPT_STR, S(out), 0, 0, "DIR", "run directory" },
	{ "cores", MESS_OPT_STR, S(list), 0, 0, "LIST", "cores" },
	{ "points", MESS_OPT_UINT, F(points), 0, 3, 200, "N", "points" },
	{ "seed", MESS_OPT_UINT, F(seed), 0, 0, (double)UINT64_MAX, "N", "seed" },
	{ "buffer", MESS_OPT_SIZE, F(buffer), 0, 1 << 20, 1ULL << 46, "SIZE", "buffer" },
	{ "stride", MESS_OPT_SIZE, F(stride), 64, 64, 1 << 20, "BYTES", "stride" },
	{ "core", MESS_OPT_INT, F(core), 0, -4096, 4095, "N", "core" },
	{ "ms", MESS_OPT_DOUBLE, F(ms), 0, 1e-3, 60000, "MS", "time" },
	{ "quick", MESS_OPT_FLAG, F(quick), 0, 0, 0, NULL, "smoke run" },
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

static void die(const char *what, const char *s)
{
	fprintf(stderr, "contract broken: %s: '%s'\n", what, s);
	abort();
}

static int clean(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

static int digits_only(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* Every number parser on one word, each against the others. */
static void numbers(const char *w)
{
	uint64_t u = 7, sz = 7;
	int64_t i = 7;
	double d = 7;
	int ru = mess_opt_u64(w, &u), ri = mess_opt_i64(w, &i),
	    rd = mess_opt_double(w, &d), rs = mess_opt_size(w, &sz);
	char q[64];

	if ((ru && u != 7) || (ri && i != 7) || (rd && d != 7) || (rs && sz != 7))
		die("a refused number changed the value", w);

	mess_opt_quote(w, SIZE_MAX, q, sizeof(q));
	if (strlen(q) >= sizeof(q) || !clean(q))
		die("quote", w);
	if ((ru && ru != -EINVAL && ru != -ERANGE) ||
	    (rd && rd != -EINVAL && rd != -ERANGE))
		die("error code", w);
	if (!rd && !isfinite(d))
		die("double not finite", w);
	if (!ru) {
		errno = 0;
		if (digits_only(w) && (strtoull(w, NULL, 10) != u || errno))
			die("integer differs from strtoull", w);
		if (rd || d != (double)u)
			die("integer and double differ", w);
		if (rs || sz != u)
			die("integer and size differ", w);
		if (u <= INT64_MAX && (ri || i != (int64_t)u))
			die("unsigned and signed differ", w);
	}
	if (!ri && (rd || d != (double)i))
		die("signed integer and double differ", w);
	if (!ri && i >= 0 && w[0] != '-' && (ru || u != (uint64_t)i))
		die("signed and unsigned differ", w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2], *pos[2], err[512];
	struct cfg c;
	int argc = 1, npos, rc;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	argv[0] = "mess";
	for (char *p = buf; argc <= MAX_ARGS && p <= buf + size;
	     p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	for (int i = 1; i < argc; i++)
		numbers(argv[i]);

	memset(&c, 0, sizeof(c));
	err[0] = 0;
	rc = mess_opts_parse_pos(table, NOPTS, &c, argc, argv, pos, 2, &npos,
				 err, sizeof(err));
	if (rc) {
		if (rc != -EINVAL || !err[0] || strchr(err, '\n') ||
		    (strncmp(err, "--", 2) && strncmp(err, "unknown option '--", 18) &&
		     strncmp(err, "unexpected argument '", 21)))
			die("error", err);
	} else {
		if (npos < 0 || npos > 2 || c.quick < 0 || c.quick > 1)
			die("positional", "");
		if ((c.points && (c.points < 3 || c.points > 200)) ||
		    (c.buffer && (c.buffer < (1 << 20) || c.buffer > 1ULL << 46)) ||
		    (c.stride && (c.stride % 64 || c.stride > 1 << 20)) ||
		    c.core < -4096 || c.core > 4095 ||
		    (c.ms != 0 && !(c.ms >= 1e-3 && c.ms <= 60000)))
			die("value out of range", "");
		if (strnlen(c.out, sizeof(c.out)) >= sizeof(c.out) ||
		    strnlen(c.list, sizeof(c.list)) >= sizeof(c.list) ||
		    !clean(c.out) || !clean(c.list))
			die("string", c.out);
	}
	free(buf);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	FILE *f = fopen("/dev/null", "w");

	if (f) {
		mess_opts_print(f, table, NOPTS);
		fclose(f);
	}
	return 0;
}
