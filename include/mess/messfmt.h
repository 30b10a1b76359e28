/* SPDX-License-Identifier: MIT */
/*
 * Curve files: the Mess simulator's bwlat_<R>.txt, the public reference
 * memory_curves.csv and the suite's own curves.csv.
 */
#ifndef MESS_MESSFMT_H
#define MESS_MESSFMT_H

#include <stddef.h>
#include <stdio.h>

#include "mess/curve.h"

/*
 * Write <dir>/bwlat_<R>.txt for every curve, R = the curve's memory-level
 * read_pct rounded to the nearest even integer (the simulator's grid is
 * 0, 2, ..., 100).  When curves collide on one R the one whose read_pct is
 * closest to R is kept (the earlier on a tie); every dropped or unplaceable
 * curve is reported in note (NUL-terminated, truncated to notelen; note may
 * be NULL).  Rows: "<MB/s> <ns>", bandwidth descending, points with a
 * non-finite value left out.  dir is created if missing (one level).
 * 0, -EINVAL (nothing to export), -ENOMEM or -errno of the file system.
 */
int mess_export_dir(const char *dir, const struct mess_family *f, char *note,
		    size_t notelen);

/*
 * Append the rows of one bwlat file to c (bw_gbs, lat_ns; nop 0, the file
 * has no pressure).  c->read_pct is set from a bwlat_<R>.txt file name when
 * it is NAN.  Blank lines are skipped; any other line that is not two finite
 * numbers fails with -EINVAL and leaves c as it was.
 */
int mess_export_read(const char *path, struct mess_curve *c);

/*
 * Read a public reference memory_curves.csv into f (columns found by header
 * name): one curve per read_pct_rounded (store_pct MESS_STORE_PCT_UNKNOWN),
 * points: nop = pause, bw_gbs = bandwidth_mean, lat_ns = latency_mean,
 * lat_ns_std = latency_std, read_pct = 100 x rd_percentage_actual_mean
 * (read_pct_rounded when absent) and read/write bandwidth split by it.
 * Empty or missing optional fields read as NAN.  Curves are sorted by
 * read_pct, points by increasing pressure.  On error f keeps what was read;
 * the caller frees it.  0, -EINVAL, -ENOMEM or -errno of fopen.
 */
int mess_reference_read(const char *csv_path, struct mess_family *f);

/* The header of curves.csv, without the newline. */
#define MESS_CURVES_CSV_HEADER \
	"store_pct,read_pct,nop,bw_gbs,read_bw_gbs,write_bw_gbs,lat_ns,lat_ns_std,repeats,bw_source"

/*
 * The suite's own curves.csv.  Rows are flushed as they are written so a
 * run that dies keeps every measured point.  Non-finite values are written
 * as empty fields.  bw_source (may be NULL) must not contain ',', '"' or a
 * line break; store_pct must be known.  0, -EINVAL or -EIO.
 */
int mess_curves_csv_write_header(FILE *fp);
int mess_curves_csv_write_row(FILE *fp, const struct mess_point *p,
			      const char *bw_source);

/*
 * Read curves.csv into f: one curve per store_pct (sorted by store_pct),
 * its read_pct the median of its points' read_pct, points sorted by
 * increasing pressure.  A different header or a malformed row is -EINVAL.
 * On error f keeps what was read; the caller frees it.
 */
int mess_curves_csv_read(const char *path, struct mess_family *f);

#endif
