/* SPDX-License-Identifier: MIT */
/*
 * JSON through jansson, the same way in every file the suite writes: a
 * number rounded to the decimals its measurement supports (null when it is
 * unknown: never a made-up 0), objects keeping their insertion order, two
 * spaces of indentation.
 */
#ifndef MESS_JSON_H
#define MESS_JSON_H

#include <jansson.h>
#include <stdio.h>

#include "mess/parse.h"

/* v rounded to `decimals`, or null when v is not finite. */
json_t *mess_json_real(double v, int decimals);
/* An array of the n integers v; NULL when out of memory. */
json_t *mess_json_ints(const int *v, size_t n);
/* Set key to v in obj, stealing v; a NULL v (out of memory) sets nothing. */
int mess_json_set(json_t *obj, const char *key, json_t *v);
/*
 * json_pack, saying on stderr where a format does not match its arguments
 * (a programming error, which would otherwise only show as a missing
 * file).  NULL on failure.
 */
json_t *mess_json_pack(const char *fmt, ...);
/* Move the members of other (stolen; NULL: out of memory) into obj, in
 * their order: 0 or -ENOMEM. */
int mess_json_merge(json_t *obj, json_t *other);
/*
 * json_load_file() for a file a user or a run directory gives: a regular
 * file of at most MESS_READ_MAX bytes only (mess_open_regular: a FIFO
 * never hangs it, /dev/zero never fills memory).  Refused or unreadable:
 * NULL, errno set, e->text the reason ("a pipe; allowed: a regular file")
 * and e->line -1.
 */
json_t *mess_json_load(const char *path, size_t flags, json_error_t *e);
/* The same with mess_open_input's how: MESS_IN_NOFOLLOW for a set's own
 * meta.json or summary.json whose strings go into a page. */
json_t *mess_json_load_in(const char *path, int how, size_t flags,
			  json_error_t *e);
/* j with a final newline; 0 or -EIO. */
int mess_json_dumpf(const json_t *j, FILE *f);

#endif
