/* SPDX-License-Identifier: MIT */
/*
 * The curve-set formats, one table: each row is one format with the set
 * kind mess_set_load reads it as (include/mess/load.h), its reader, its
 * writer where mess export writes it (include/mess/export.h), and what
 * people are told of it.  Export's --format list, the loader's marker
 * files and the units a loaded set says it was read in all come from here,
 * so a new format is one row (and its reader and writer).
 */
#ifndef MESS_FORMATS_H
#define MESS_FORMATS_H

#include <stddef.h>

#include "mess/load.h"

struct mess_loadset;
struct mess_export_in;

struct mess_format {
	/* export's --format name; a format mess does not write: its kind's */
	const char *name;
	/* One line for export --help; NULL where write is NULL. */
	const char *what;
	enum mess_set_kind kind;	/* what the loader reads it as */
	const char *kind_name;		/* mess_set_info.kind_name */
	/* The file that marks it in a directory (and names it as a file);
	 * NULL: found by scanning the directory. */
	const char *marker;
	int (*read)(struct mess_loadset *s);
	int by_bandwidth;	/* no pressure in the files: sort by bandwidth */
	int (*write)(const struct mess_export_in *in, const char *dir,
		     char *err, size_t errlen);	/* NULL: read only */
	int needs_ghz;		/* written in CPU cycles */
	/* What its files are read in, for people (mess_set_info.units);
	 * units_cycles instead where the latency was converted from cycles
	 * (NULL: never is). */
	const char *units, *units_cycles;
};

/* The formats, ended by a row with name NULL. */
extern const struct mess_format mess_formats[];

/* The row export writes as name, NULL if there is none. */
const struct mess_format *mess_export_find(const char *name);

/* The row the loader reads kind with (every kind has one). */
const struct mess_format *mess_format_of_kind(enum mess_set_kind kind);

#endif
