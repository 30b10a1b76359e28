// SPDX-License-Identifier: MIT
/*
 * libFuzzer target of the list parsers (make fuzz, make check-fuzz): the
 * input's first three bytes choose max, limit and step, the rest is the
 * list, read by mess_parse_list (cores, mixes) and by mess_parse_items
 * with a name item and a number item (absorb's --kernels and --q).  Beyond
 * what the sanitizers catch, it aborts when the contract breaks:
 *   - an accepted list with more than max values, a value out of range or
 *     not a multiple of step, or a value twice;
 *   - a list that does not read back the same after mess_format_list;
 *   - an error (why) that is empty or more than one line.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"

static void die(const char *what, const char *s)
{
	fprintf(stderr, "contract broken: %s: '%s'\n", what, s);
	abort();
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void list(const char *s, int max, int limit, int step)
{
	int v[256], back[256], n = -1, nb = -1, rc;
	char why[256] = "", fmt[4096];

	rc = mess_parse_list(s, v, max, limit, step, &n, why, sizeof(why));
	if (rc) {
		if ((rc != -EINVAL && rc != -ERANGE) || !why[0] || strchr(why, '\n'))
			die("list error", why);
		return;
	}
	if (n < 1 || n > max)
		die("list count", s);
	for (int i = 0; i < n; i++) {
		if (v[i] < 0 || v[i] >= limit || v[i] % step)
			die("list value", s);
		for (int j = 0; j < i; j++)
			if (v[i] == v[j])
				die("list value twice", s);
	}
	/* What nodes and meta.json print must read back the same. */
	qsort(v, (size_t)n, sizeof(v[0]), cmp_int);
	if (mess_format_list(v, n, fmt, sizeof(fmt)))
		return;
	if (step == 1) {
		if (mess_parse_list(fmt, back, max, limit, 1, &nb, why, sizeof(why)) ||
		    nb != n || memcmp(back, v, sizeof(v[0]) * (size_t)n))
			die("list round trip", fmt);
	}
}

static int item_name(const char *w, void *ctx, double *v)
{
	static const char *const names[] = { "stream", "lat_mem_rd", "haccmk", "spmxv" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(w, names[i])) {
			*v = (double)i;
			return 0;
		}
	return -EINVAL;
}

static int item_q(const char *w, void *ctx, double *v)
{
	return !mess_opt_double(w, v) && *v >= 0 && *v <= 1 ? 0 : -EINVAL;
}

static void items(const char *s, int max)
{
	static const struct mess_items its[] = {
		{ "kernels", item_name, NULL, "is not a kernel", "a list of kernels" },
		{ "q", item_q, NULL, "is not allowed", "probabilities from 0 to 1" },
	};

	for (size_t k = 0; k < sizeof(its) / sizeof(its[0]); k++) {
		double v[40];
		char err[512] = "";
		int n = -1;

		if (mess_parse_items(&its[k], s, v, max, &n, err, sizeof(err))) {
			if (strncmp(err, "--", 2) || strchr(err, '\n'))
				die("items error", err);
			continue;
		}
		if (n < 1 || n > max)
			die("items count", s);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < i; j++)
				if (v[i] == v[j])
					die("item twice", s);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	int max, limit, step;

	if (size < 3)
		return 0;
	max = 1 + data[0] % 255;
	limit = 1 + data[1] * 20;
	step = 1 + data[2] % 4;
	s = malloc(size - 2);
	if (!s)
		return 0;
	memcpy(s, data + 3, size - 3);
	s[size - 3] = 0;
	list(s, max, limit, step);
	items(s, 1 + data[0] % 40);
	free(s);
	return 0;
}
