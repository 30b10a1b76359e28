/* SPDX-License-Identifier: MIT */
/*
 * Curve families measured one child `mess curves` each, every one a
 * complete run directory of its own under a top directory, resumable:
 * a family already complete is kept, an interrupted one resumed.  Used by
 * curves' --mem-node each (one family per memory kind) and by interleave
 * (one family per split of the pages between two nodes).
 */
#ifndef MESS_CORE_FAMILIES_H
#define MESS_CORE_FAMILIES_H

#include <limits.h>

struct mess_family_job {
	char label[64];		/* for people and the comparison */
	char mem_node[64];	/* the child's --mem-node */
	char dir[PATH_MAX + 64];
	int status;		/* the child's exit status; -1 not run */
	int complete;		/* out */
};

/*
 * Measure jobs[0..n-1] in turn, each child given argv[1..argc) then its
 * own --mem-node and --out (the last of an option given twice wins), its
 * stdout sent to /dev/null (the caller prints the top directory once).
 * Lines on stderr start with prog ("mess").  0 with *failed the number of
 * children that did not complete; -EINTR (Ctrl-C: the child saved its
 * state); -errno.
 */
int mess_families_run(const char *prog, struct mess_family_job *jobs, int n,
		      int argc, char **argv, int *failed);

#endif
