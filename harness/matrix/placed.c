// SPDX-License-Identifier: MIT
/*
 * Where the kernel put a pair's memory: the bound mappings of this
 * process (/proc/self/numa_maps, policy "bind"), read while the pair's
 * buffers exist.  The matrix binds one thing at a time (the chase's
 * buffer, then the generators' arrays), so every bound mapping then is
 * that pair's, and each page of it should be on the pair's target.
 */
#include "matrix/matrix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One numa_maps line's pages into *on (node `node`) and *off (others),
 * MiB; nothing for a mapping without a bind policy. */
static void line_pages(char *line, int node, double *on, double *off)
{
	double kb = 4, pages[2] = { 0, 0 };
	int bound = 0;

	for (char *tok = strtok(line, " \n"); tok; tok = strtok(NULL, " \n")) {
		if (!strncmp(tok, "bind", 4) && (tok[4] == ':' || tok[4] == '='))
			bound = 1;
		else if (!strncmp(tok, "kernelpagesize_kB=", 18))
			kb = atof(tok + 18);
		else if (tok[0] == 'N' && tok[1] >= '0' && tok[1] <= '9' && strchr(tok, '='))
			pages[atoi(tok + 1) != node] += atof(strchr(tok, '=') + 1);
	}
	if (!bound)
		return;
	*on += pages[0] * kb / 1024;
	*off += pages[1] * kb / 1024;
}

int mess_mx_placed(const char *path, int node, double *on_mib, double *off_mib)
{
	FILE *f = fopen(path ? path : "/proc/self/numa_maps", "r");
	char line[4096];

	*on_mib = *off_mib = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		line_pages(line, node, on_mib, off_mib);
	fclose(f);
	return 0;
}
