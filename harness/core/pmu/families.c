// SPDX-License-Identifier: MIT
/*
 * A list of memory-controller families as an option names it (core/pmu/dram.h
 * mess_dram_check_list): the option engine and lib's table only, so that
 * the option readers (and their fuzzers) need no PMU code.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/pmu/dram.h"
#include "core/options.h"

/* A family's index in mess_dram_families[]: one list item. */
static int family_item(const char *w, void *ctx, double *v)
{
	(void)ctx;
	for (size_t i = 0; i < mess_dram_nfamilies; i++)
		if (!strcmp(mess_dram_families[i].name, w)) {
			*v = (double)i;
			return 0;
		}
	return -EINVAL;
}

int mess_dram_check_list(const char *name, const char *s, const char *also,
			 char *err, size_t errlen)
{
	char allowed[512];
	double v[64];
	size_t at;
	int n;
	struct mess_items it = { name, family_item, NULL, "is not allowed", allowed };

	at = (size_t)snprintf(allowed, sizeof(allowed),
			      "%s%smemory-controller families separated by commas:",
			      also ? also : "", also ? " " : "");
	for (size_t i = 0; i < mess_dram_nfamilies && at < sizeof(allowed); i++)
		at += (size_t)snprintf(allowed + at, sizeof(allowed) - at, " %s",
				       mess_dram_families[i].name);
	return mess_parse_items(&it, s, v, 64, &n, err, errlen) ? -EINVAL : 0;
}
