// SPDX-License-Identifier: MIT
#include "matrix/matrix.h"

#include <errno.h>
#include <stdio.h>

#include "mess/parse.h"
#include "mess/pmudef.h"

int mess_mx_select(const char *list, const int *nodes, int *keep, int n,
		   char *err, size_t errlen)
{
	char allowed[256] = "";
	int want[1024], nw, at = 0;

	for (int i = 0; i < n && at < (int)sizeof(allowed); i++)
		at += snprintf(allowed + at, sizeof(allowed) - (size_t)at, "%s%d",
			       i ? "," : "", nodes[i]);
	nw = mess_cpulist_parse(list, want, 1024);
	if (nw <= 0)
		return mess_fail(err, errlen, -EINVAL, "--initiators: '%s' is not allowed; allowed: a list of nodes with CPUs (\"0,2\", \"0-3\") of %s",
				 list, allowed);
	for (int i = 0; i < n; i++)
		keep[i] = 0;
	for (int k = 0; k < nw; k++) {
		int found = 0;

		for (int i = 0; i < n; i++)
			if (nodes[i] == want[k])
				found = keep[i] = 1;
		if (!found)
			return mess_fail(err, errlen, -EINVAL, "--initiators: node %d in '%s' is not allowed; allowed: nodes with CPUs %s",
					 want[k], list, allowed);
	}
	return 0;
}
