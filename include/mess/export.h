/* SPDX-License-Identifier: MIT */
/*
 * Curve families written for the programs that consume them, so that each
 * reads the files without edits:
 *  - mess:   bwlat_0.txt ... bwlat_100.txt, every even read percentage, as
 *            the Mess simulator opens them: "MB/s ns" per line, no header,
 *            highest bandwidth first, the whole system's bandwidth;
 *  - profet: one curves.json {"<R>": [[MB/s, cycles], ...]}, R the same 51
 *            read percentages, latency in CPU cycles at a stated frequency;
 *  - csv:    the measured points in the Mess-Results memory_curves.csv
 *            layout (nothing filled in, nothing smoothed);
 *  - json:   the 51 curves of the mess format with their sources, in ns;
 *  - mess-json:  one mess-simulator.json {"measuredChannels": N, "curves":
 *            {"<R>": [[MB/s, ns], ...]}}, the 51 curves of the mess format
 *            (highest bandwidth first) and the channels they were measured
 *            on, nothing else at the top level;
 *  - ramulator2: one ramulator2-curves.txt, "read_pct bandwidth_GBps
 *            latency_ns" a line, the 51 curves by rising share, each by
 *            rising bandwidth.
 * Every format also writes curve-sources.tsv (which read share is
 * measured, interpolated or extrapolated, and from what) and info.txt (the
 * set, the unit of each column, the nominal and measured clocks, the
 * memory channels and where they came from, what the read share is, the
 * source run's verdict): names that no consumer picks up (they contain no
 * "bwlat" and do not end in .json).  The mess format adds one file a
 * consumer does pick up, on purpose: MESS_EXPORT_NOT_PROFET, a .json that
 * PROFET's loader reads instead of the bwlat files and fails on, with the
 * reason in its error, where it would otherwise take the ns for cycles.
 *
 * A read share is "measured" when a curve of the family lies within 0.1 %
 * of share of it (as libmess would, no curve a whole 1 % away stands for
 * it; curve-sources.tsv gives shares with two decimals); the file then holds that
 * curve's points as the model keeps them (include/mess/model.h: rising
 * bandwidth only).  Between measured shares the model interpolates at the
 * union of both neighbours' points (each at the same fraction of its
 * maximum); outside them the nearest curve is used as it is, marked
 * extrapolated.
 */
#ifndef MESS_EXPORT_H
#define MESS_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "mess/curve.h"
#include "mess/formats.h"
#include "mess/model.h"

/* The Mess simulator's grid: 0, 2, ..., 100. */
#define MESS_EXPORT_SHARES 51

/* The mess format's marker for PROFET (above). */
#define MESS_EXPORT_NOT_PROFET "not-for-profet.json"

struct mess_export_tally;

struct mess_export_in {
	const struct mess_family *fam;	/* the measured points (csv) */
	const struct mess_model *m;	/* built from fam */
	double ghz;		/* CPU frequency for cycles; 0: unknown */
	const char *ghz_source;	/* where ghz came from (may be NULL) */
	/* The set's clocks as such, for info.txt CPU_FREQ_NOMINAL and
	 * CPU_FREQ_MEASURED (not > 0: unknown; sources may be NULL). */
	double nominal_ghz, measured_ghz;
	const char *nominal_source, *measured_source;
	const char *origin;	/* what was read, for info.txt (may be NULL) */
	const char *tool;	/* who measured it (may be NULL) */
	const char *bw_source;	/* "accounted", "counters" (may be NULL) */
	/* Why read shares below the family's lowest are not measured, for
	 * curve-sources.tsv (may be NULL). */
	const char *below_note;
	/* More "KEY=value" lines for info.txt, each made by
	 * mess_export_kv (may be NULL). */
	const char *extra_info;
	/* The source run's verdict (include/mess/quality.h: "PASS", "WARN",
	 * "INVALID", "pending", "none" for a run without one), its first
	 * reason and a note on why it was exported all the same, each one
	 * line; NULL: not a run, nothing said.  info.txt SOURCE_VERDICT,
	 * SOURCE_VERDICT_REASON, SOURCE_VERDICT_NOTE; mess-curves.json
	 * "source_verdict". */
	const char *verdict, *verdict_reason, *verdict_note;
	/* The memory channels the set was measured on (mess-json's
	 * measuredChannels; info.txt CHANNELS for every format), <= 0
	 * unknown; where the figure came from, or why it is unknown. */
	int channels;
	const char *channels_source;
	/* 1: each share's curve starts with Mess's unloaded row, its least
	 * latency at 0 GB/s, instead of its least-loaded point's. */
	int unloaded_row;
	/* What the read shares are, one line for info.txt READ_AXIS and
	 * curve-sources.tsv; NULL: the memory's read share, as measured. */
	const char *read_axis;
	/* Filled by mess_export (set by it: leave NULL). */
	struct mess_export_tally *tally;
};

/*
 * Append "KEY=value\n" to buf (NUL-terminated, len bytes in all), the
 * value printf-formatted and made one line (control characters as '?'):
 * every line of info.txt is one key, whatever a value read from a file
 * holds.  Cut short where buf is full.
 */
void mess_export_kv(char *buf, size_t len, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* How many of the 51 shares were measured, interpolated, extrapolated. */
struct mess_export_tally {
	unsigned measured, interpolated, extrapolated;
};

/*
 * Write the format into dir (created if missing, one level); files are
 * replaced whole (written beside and renamed), so a reader never sees half
 * a file.  tally (may be NULL) counts the shares.  0, -EINVAL (nothing to
 * export, or cycles wanted and no frequency), -ENOMEM or -errno of the
 * file system; err says which file.
 */
int mess_export(const struct mess_format *fmt,
		const struct mess_export_in *in, const char *dir,
		struct mess_export_tally *tally, char *err, size_t errlen);

/*
 * The writers the format table names (include/mess/formats.h: a row's
 * write): callers export through mess_export and a row of
 * mess_export_find, which checks what they take for granted.
 */
int mess_export_mess(const struct mess_export_in *in, const char *dir,
		     char *err, size_t errlen);
int mess_export_profet(const struct mess_export_in *in, const char *dir,
		       char *err, size_t errlen);
int mess_export_csv(const struct mess_export_in *in, const char *dir,
		    char *err, size_t errlen);
int mess_export_json(const struct mess_export_in *in, const char *dir,
		     char *err, size_t errlen);
int mess_export_mess_json(const struct mess_export_in *in, const char *dir,
			  char *err, size_t errlen);
int mess_export_ramulator2(const struct mess_export_in *in, const char *dir,
			   char *err, size_t errlen);

/*
 * The curve the mess, profet and json formats write for read share r (an
 * even integer 0..100): *n points in increasing bandwidth into bw/lat
 * (caller's arrays of cap entries; cap >= 1 + the sum of all curves'
 * points suffices), *src its MESS_SRC_* flags, from_lo/from_hi the measured read
 * shares it came from (equal when one).  A curve that starts above
 * bandwidth 0 gets a first point at 0 with its lowest point's latency (the
 * model's flat rule): the Mess simulator extrapolates below a file's
 * lowest point, and would otherwise leave the curve.  0, -EINVAL or
 * -ENOSPC.
 */
int mess_export_share(const struct mess_model *m, int r, double *bw,
		      double *lat, size_t cap, size_t *n, int *src,
		      double *from_lo, double *from_hi);

/* ---- what the writers share (lib/formats/export_files.c) ----
 * A file written beside its name and renamed into place, so that a
 * consumer never reads half of one, and info.txt, the same keys for every
 * format. */
struct mess_export_file {
	char path[4352], tmp[4360];
	FILE *fp;
};

/* Open dir/name's temporary (name.tmp) for writing.  0 or -errno, err
 * saying which file. */
int mess_export_file_open(struct mess_export_file *o, const char *dir,
			  const char *name, char *err, size_t errlen);

/* Close and rename into place; on ret != 0 or a failed write or close
 * (said, "disk full" included) remove the temporary.  The result. */
int mess_export_file_close(struct mess_export_file *o, int ret, char *err,
			   size_t errlen);

/*
 * Every one of the 51 shares once, in order, through row(ctx, ...): its
 * points by rising bandwidth, its MESS_SRC_* flags and where it came from
 * (one line); curve-sources.tsv (file_fmt names each share's file) is
 * written as it goes.  0 or the first failure, err saying it.
 */
typedef int (*mess_export_row_fn)(void *ctx, int r, const double *bw,
				  const double *lat, size_t n, int src,
				  const char *from);
int mess_export_each_share(const struct mess_export_in *in, const char *dir,
			   const char *file_fmt, mess_export_row_fn row,
			   void *ctx, char *err, size_t errlen);

/* What a format's info.txt says beyond the common lines. */
struct mess_export_info {
	const char *format, *lat_unit;
	const char *bw_unit;	/* NULL: MB/s */
	int no_sources;		/* writes no curve-sources.tsv */
	const char *more;	/* more lines, KEY=value or # comments (may be NULL) */
	const char *columns;	/* COLUMNS: each column and its unit (may be NULL) */
};

/* dir/info.txt for in, written last by every format.  0 or -errno. */
int mess_export_info_write(const struct mess_export_in *in, const char *dir,
			   const struct mess_export_info *x, char *err,
			   size_t errlen);

#endif
