/* SPDX-License-Identifier: MIT */
/*
 * Curve files: the Mess simulator's bwlat_<R>.txt, the public reference
 * memory_curves.csv, PROFET's curves.json and the suite's own curves.csv.
 *
 * Every reader takes err/errlen (err may be NULL): on failure it holds one
 * line, "<file>:<line>: <what is wrong>" ("<file>: ..." where no line is
 * to blame), e.g. "bwlat_50.txt:3: expected two numbers 'MB/s ns', got
 * '1.0,2.0'".  Malformed input is -EINVAL; a file that cannot be opened
 * is -errno of fopen.
 */
#ifndef MESS_MESSFMT_H
#define MESS_MESSFMT_H

#include <stddef.h>
#include <stdio.h>

#include "mess/curve.h"

/*
 * Rows no memory can have (negative bandwidth: PROFET's Cascade Lake sets
 * start every curve with one, the simulator's graviton3 bwlat_50.txt ends
 * in two) are dropped, never fatal: the sets' own consumers load them as
 * they are.  The readers count them here (may be NULL: dropped unsaid) so
 * that the caller says it once: how many, in how many files, and the file
 * and line of the first.  Zero bandwidth is kept: it is the ecosystem's
 * way to write the unloaded latency (Mess-Results pins each curve's
 * lowest point there, our exports too).
 */
struct mess_drop {
	size_t n, files;
	long line;		/* of the first; 0 unknown */
	double mbs;		/* its bandwidth, MB/s */
	char path[4096];	/* its file */
};

/* Count one dropped row. */
void mess_drop_note(struct mess_drop *d, const char *path, long line,
		    double mbs);
/* The one warning line ("" when nothing was dropped): its length. */
int mess_drop_say(const struct mess_drop *d, char *buf, size_t len);


/*
 * Append the rows of one bwlat file to c (bw_gbs, lat_ns; nop 0, the file
 * has no pressure), in the file's order.  c->read_pct is set from a
 * bwlat_<R>.txt file name when it is NAN.  Blank lines are skipped; any
 * other line that is not two numbers, MB/s >= 0 and ns > 0, and a file
 * without a row fail with -EINVAL and leave c as it was; rows of negative
 * bandwidth are dropped and counted in drop.
 */
int mess_export_read(const char *path, struct mess_curve *c,
		     struct mess_drop *drop, char *err, size_t errlen);

/* name (no directory) is bwlat_*.txt, whatever stands for R. */
int mess_bwlat_name(const char *name);

/*
 * Read a directory of bwlat_<R>.txt files, or one such file, into f: one
 * curve per file, read_pct R (an integer 0..100 in the name, else -EINVAL;
 * shares may be missing), store_pct MESS_STORE_PCT_UNKNOWN, points in the
 * file's order; curves sorted by read_pct.  A directory's
 * curve-sources.tsv (header "file<TAB>read_pct<TAB>source<TAB>from",
 * source measured, interpolated or extrapolated), when there is one,
 * leaves out the files it marks filled in; their count goes to
 * *skipped_filled (may be NULL).  No curve left is -EINVAL.  On error f
 * keeps what was read; the caller frees it.
 */
int mess_bwlat_read(const char *path, struct mess_family *f,
		    int *skipped_filled, struct mess_drop *drop, char *err,
		    size_t errlen);

/*
 * curve-sources.tsv of dir (our exports write it), when there is one: the
 * read shares its rows for file (curves.json, mess-curves.json) mark
 * interpolated or extrapolated, as filled[R] = 1.  0 (also without the
 * file) or -EINVAL.
 */
int mess_sources_filled(const char *dir, const char *file, int filled[101],
			char *err, size_t errlen);

/*
 * Read a public reference memory_curves.csv into f (columns found by header
 * name): one curve per read_pct_rounded (store_pct MESS_STORE_PCT_UNKNOWN),
 * points: nop = pause, bw_gbs = bandwidth_mean, lat_ns = latency_mean,
 * lat_ns_std = latency_std, read_pct = 100 x rd_percentage_actual_mean
 * (read_pct_rounded when absent) and read/write bandwidth split by it.
 * Empty fields, and optional columns missing, read as NAN (read_pct_rounded
 * must be there, 0..100; bandwidths and spreads >= 0, latencies > 0).
 * Curves are sorted by read_pct, points by increasing pressure.  A file
 * without a data row is -EINVAL.  On error f keeps what was read; the
 * caller frees it.  0, -EINVAL, -ENOMEM or -errno of fopen.
 */
int mess_reference_read(const char *csv_path, struct mess_family *f,
			char *err, size_t errlen);

/*
 * Read a PROFET curves.json, {"<R>": [[MB/s, cycles], ...], ...} with R an
 * integer read percentage 0..100 (each at most once; some may be missing),
 * into f: one curve per R (store_pct MESS_STORE_PCT_UNKNOWN), latency
 * cycles / ghz ns (ghz > 0), points in the file's order.  A key written
 * twice, a curve without rows, a row that is not two numbers, MB/s >= 0
 * and cycles > 0, are -EINVAL; the line of the key or of the row is looked
 * up in the text.  On error f keeps what was read; the caller frees it.
 */
int mess_profet_read(const char *path, double ghz, struct mess_family *f,
		     struct mess_drop *drop, char *err, size_t errlen);

/*
 * The same layout in other units: bandwidth in GB/s when gbs (Mess-Results'
 * processed/memory_curves.json), latency in ns when ghz is 0.  Rows of
 * negative bandwidth are dropped and counted in drop (both readers).
 */
int mess_keyed_json_read(const char *path, int gbs, double ghz,
			 struct mess_family *f, struct mess_drop *drop,
			 char *err, size_t errlen);

/* The header of curves.csv, without the newline.  The columns after
 * bw_source (schema 2) hold the accounted bandwidth beside a counted one,
 * the latency without page walks and the counters' running fraction; empty
 * where not measured.  Schema 3 adds whether to trust the point: the
 * bandwidth's spread, what disturbed its chase windows, how often a rule
 * had it measured again and the rules it still breaks (`flags`, names of
 * mess/quality.h joined by ';', empty for none).  Files with the earlier
 * headers still read. */
#define MESS_CURVES_CSV_HEADER_V1 \
	"store_pct,read_pct,nop,bw_gbs,read_bw_gbs,write_bw_gbs,lat_ns,lat_ns_std,repeats,bw_source"
#define MESS_CURVES_CSV_HEADER_V2 MESS_CURVES_CSV_HEADER_V1 \
	",acc_read_bw_gbs,acc_write_bw_gbs,lat_nowalk_ns,counter_run_frac"
#define MESS_CURVES_CSV_HEADER_V3 MESS_CURVES_CSV_HEADER_V2 \
	",bw_gbs_std,disturbed,disturbed_kept,lost_pct,steal_ms,invol_switches,migrations,ghz_min,ghz_max,remeasured,flags"
/* Schema 4: the point's latency distribution and the generators'
 * fairness (struct mess_point); schema 1 to 3 files read them as NAN. */
#define MESS_CURVES_CSV_HEADER_V4 MESS_CURVES_CSV_HEADER_V3 \
	",lat_p50_ns,lat_p90_ns,lat_p99_ns,lat_p999_ns,lat_max_ns,dist_mean_diff_pct,fair_min,fair_median,fair_max,fair_jain"
/* Schema 5: the distribution window's own fixed cost and its batches left
 * out as preemptions; schema 1 to 4 files read them as NAN. */
#define MESS_CURVES_CSV_HEADER_V5 MESS_CURVES_CSV_HEADER_V4 \
	",dist_cost_ns,dist_preempted"
/* Schema 6: the window's L2 cluster, the host state's check (the share of
 * its batches under the L2 bound and where they sit); schema 1 to 5 files
 * read them as NAN. */
#define MESS_CURVES_CSV_HEADER MESS_CURVES_CSV_HEADER_V5 \
	",dist_l2_share_pct,dist_l2_ns"

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
 * p's figures by the rules curves.csv is read with (mess_num_rule per
 * column; NAN is unknown): 0, or -EINVAL with "<what>: <column> <what is
 * wrong>: <value> (<allowed>)" in err.  A writer of figures it computed
 * from outside data (import) checks them here, so that it never writes
 * what the suite's own readers refuse.
 */
int mess_point_check(const struct mess_point *p, const char *what, char *err,
		     size_t errlen);

/*
 * Read curves.csv into f: one curve per store_pct (sorted by store_pct),
 * its read_pct the median of its points' read_pct, points sorted by
 * increasing pressure.  A different header or a malformed row is -EINVAL;
 * a header alone (a run that has measured nothing yet) is no curve.  On error f keeps what was read; the caller frees it.
 */
int mess_curves_csv_read(const char *path, struct mess_family *f, char *err,
			 size_t errlen);

/*
 * The same, for a run being resumed: a malformed row is passed to bad()
 * with its "<file>:<line>: <what>" line and skipped, instead of failing the
 * file (the header must still be curves.csv's).  bad may be NULL (strict).
 */
typedef void (*mess_bad_row_fn)(void *ctx, const char *msg);
int mess_curves_csv_read_rows(const char *path, struct mess_family *f,
			      mess_bad_row_fn bad, void *ctx, char *err,
			      size_t errlen);

#endif
