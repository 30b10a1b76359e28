/* SPDX-License-Identifier: MIT */
/*
 * Inside the set loader (lib/formats/load.c, load_run.c, load_meta.c): what
 * loading one set needs, and the helpers its files share.  Not for callers
 * of the library: they use mess/load.h.
 */
#ifndef MESS_LOADSET_H
#define MESS_LOADSET_H

#include <limits.h>
#include <stddef.h>

#include "mess/curve.h"
#include "mess/load.h"
#include "mess/messfmt.h"

struct mess_loadset {
	char dir[PATH_MAX];	/* the directory of the set */
	char file[PATH_MAX];	/* its main file; the directory for bwlat */
	/* Where the set's metadata (plotter.txt, info.txt) is: dir, or the
	 * tree above a Mess-Results processed/ folder. */
	char meta_dir[PATH_MAX];
	int is_dir;		/* the user named the directory */
	double ghz;
	struct mess_family *f;
	struct mess_set_info *info;
	struct mess_drop drop;
	char *err;
	size_t errlen;
};

int mess_load_is_file(const char *path);
int mess_load_is_dir(const char *path);
/* dir/name into buf (PATH_MAX): 0, or -EINVAL when it does not fit. */
int mess_load_join(struct mess_loadset *s, char *buf, const char *dir, const char *name);

/*
 * What info.txt beside the set says (our exports' KEY=VALUE lines; the
 * prose of PROFET's shipped sets): how it was measured, into s->info, and
 * the FORMAT, BANDWIDTH_UNIT and frequency it states ("" / NAN absent).
 */
struct mess_set_meta {
	int have_info;		/* an info.txt is there */
	int profet_prose;	/* PROFET's own description (no KEY=VALUE) */
	char format[64];	/* FORMAT= */
	char bw_unit[64];	/* BANDWIDTH_UNIT= */
	double ghz;		/* CPU_FREQ=, or "Frequency: 2.3GHz" */
	int have_plotter;	/* a Mess plotter.txt in meta_dir */
	double plotter_ghz;	/* its CPU_FREQ */
};
int mess_load_meta(struct mess_loadset *s, struct mess_set_meta *m);
/* The provenance info.txt records (MEASURED_BY, BANDWIDTH_SOURCE,
 * SOURCE_VERDICT, UNLOADED_NS) into s->info. */
int mess_load_info_provenance(struct mess_loadset *s);

/* A .json set: our own export (a "schema" key) or a document keyed by
 * read share, whose units its metadata decides. */
int mess_load_json_kind(struct mess_loadset *s, enum mess_set_kind *kind);
int mess_load_own_json(struct mess_loadset *s);
int mess_load_keyed_json(struct mess_loadset *s, int gbs);

/* The readers the format table names (mess/formats.h: a row's read):
 * PROFET's curves.json and Mess-Results' processed JSON through
 * mess_load_keyed_json, memory_curves.csv with its plotter.txt, a bwlat
 * directory or file. */
int mess_load_profet(struct mess_loadset *s);
int mess_load_mess_results_json(struct mess_loadset *s);
int mess_load_mess_results(struct mess_loadset *s);
int mess_load_bwlat(struct mess_loadset *s);

/* A raw Mess benchmark tree (bw/, lat/, plotter.txt). */
int mess_load_raw(struct mess_loadset *s);
/* A run directory of this suite (curves.csv, meta.json, summary.json). */
int mess_load_run(struct mess_loadset *s);

#endif
