/* SPDX-License-Identifier: MIT */
/*
 * A command of main's table.  Its entry returns 0 or -errno, and main alone
 * turns that into the exit status:
 *   -EINVAL, -EEXIST   1, bad usage (the command printed the option, the
 *                      value and what is allowed);
 *   -EOPNOTSUPP        3, cannot run on this machine (it said why);
 *   -EINTR             130, interrupted (the partial result is kept);
 *   anything else      2, failure.
 * A command that meets an internal -EINVAL reports it as -EIO.
 */
#ifndef MESS_CMD_H
#define MESS_CMD_H

#include <stdio.h>

struct mess_cmd {
	const char *name;
	const char *summary;	/* one line for mess --help */
	int (*run)(int argc, char **argv);	/* argv[0] is the name */
	void (*usage)(FILE *f);
	/* NULL when the command can run here, else why not (may be NULL). */
	const char *(*unavailable)(void);
};

#endif
