/* SPDX-License-Identifier: MIT */
/* mess check's outputs (report.c): the answer line, the table, --json and
 * --junit, from the comparison lib/sets/check.c made. */
#ifndef MESS_CHECK_REPORT_H
#define MESS_CHECK_REPORT_H

#include <stdio.h>

#include "mess/check.h"

struct check_run {
	const char *base, *run;	/* the sets as read */
	int run_newest;		/* RUN was omitted: the newest under results/ */
	const struct mess_check *c;
};

/* The answer in one line (no newline) into buf. */
void check_line(const struct check_run *r, char *buf, size_t len);
/* Every figure (all: also those within), one row each. */
void check_table(const struct check_run *r, FILE *f, int all);
/* The answer as JSON on f: 0 or -errno. */
int check_json(const struct check_run *r, FILE *f);
/* JUnit XML written whole at path (tmp + rename, never through a link):
 * 0 or -errno. */
int check_junit(const struct check_run *r, const char *path);

#endif
