/* SPDX-License-Identifier: MIT */
/*
 * Load a curve family from any of the layouts users hold, and say how it
 * was measured, so that exports, comparisons and simulators take any of
 * them:
 *  - a run directory of this suite (curves.csv, with meta.json and
 *    summary.json beside it), or its curves.csv alone;
 *  - a Mess directory of bwlat_<R>.txt files (MB/s, ns, no header), such
 *    as a run's mess/ or an export;
 *  - a Mess-Results directory holding memory_curves.csv, or that file
 *    (the layout of ../shared/reference/mess-results/);
 *  - a Mess-Results tree (the folder holding processed/ and plotter.txt,
 *    e.g. .../AVX2/local), or its processed/ folder: processed/
 *    memory_curves.csv, plotter.txt from the tree;
 *  - a raw Mess benchmark tree without processed/ (bw/, lat/,
 *    plotter.txt): read as mess import reads it (mess/messraw.h);
 *  - a .json keyed by read share, or a directory holding exactly one .json
 *    file and no bwlat file: PROFET's curves.json ({"<R>": [[MB/s,
 *    cycles], ...]}, latency converted with the ghz argument or the
 *    frequency its info.txt gives) or Mess-Results' processed/
 *    memory_curves.json (GB/s, ns).  Which is decided by the files beside
 *    it (plotter.txt or memory_curves.csv: Mess-Results; PROFET's info.txt
 *    or FORMAT=profet: PROFET), else by ghz > 0 (PROFET), else refused
 *    naming --ghz; the values must fit the units decided;
 *  - our own mess-curves.json export (a "schema" key): its measured
 *    curves.
 * An export's info.txt beside the set gives back how it was measured
 * (MEASURED_BY, BANDWIDTH_SOURCE, SOURCE_VERDICT, UNLOADED_NS); the read
 * shares an export filled in (curve-sources.tsv, a json's "source") are
 * left out, so a reload counts only measured curves.
 */
#ifndef MESS_LOAD_H
#define MESS_LOAD_H

#include <stddef.h>

#include "mess/curve.h"

enum mess_set_kind {
	MESS_SET_RUN,		/* this suite's curves.csv (+ meta.json) */
	MESS_SET_BWLAT,		/* bwlat_<R>.txt directory */
	MESS_SET_MESS_RESULTS,	/* memory_curves.csv */
	MESS_SET_PROFET,	/* curves.json in cycles */
	MESS_SET_MESS_RESULTS_JSON, /* processed/memory_curves.json */
	MESS_SET_MESS_JSON,	/* our mess-curves.json export */
	MESS_SET_MESS_RAW,	/* a raw Mess benchmark tree */
};

/* How a set was measured, as far as its files say: NAN, -1 or "" when
 * they do not. */
struct mess_set_info {
	enum mess_set_kind kind;
	const char *kind_name;	/* "run", "bwlat", "mess-results", "profet",
				 * "mess-results-json", "mess-json", "mess-raw" */
	const char *units;	/* what the files were read in: "GB/s, ns" */
	char path[4096];	/* the file or directory that was read */
	char label[128];	/* short name: the directory's base name */
	double unloaded_ns;	/* also stored in the family */
	const char *unloaded_source; /* "chase-only run", "lowest-bandwidth
				      * points", "none" */
	double cpu_ghz;		/* nominal, from the set's metadata (a
				 * cycle-based set: the clock it was read at) */
	double cpu_ghz_measured; /* measured (Mess's plotter.txt CPU_FREQ is) */
	/* Where each came from, "" when the set does not say. */
	char cpu_ghz_source[160], cpu_ghz_measured_source[240];
	/* The measured clock's spread, % of it (meta.json cpu_frequency
	 * measured_spread_pct; a raw tree's chase clocks, max - min over the
	 * median); NAN unknown. */
	double cpu_ghz_spread_pct;
	int latency_from_cycles; /* 1: converted from cycles with cpu_ghz */
	char bw_source[32];	/* "accounted", "counters" (Mess-Results are
				 * counter-measured) or "" */
	char huge_pages[32];
	char memory[112];	/* "hbm node 2": meta.json memory_node_choice
				 * kind and memory_node; "" not said */
	int cores;		/* traffic generator threads, -1 unknown */
	double stride_bytes, window_bytes;
	char tool[64];		/* "mess 0.1.0 (git ...)" or the publisher */
	char cpu_model[128];
	int complete;		/* 1, 0, or -1 unknown */
	int skipped_filled;	/* bwlat files left out: curve-sources.tsv
				 * marks them interpolated or extrapolated */
	/* Whether the run can be trusted (meta.json "quality"): "PASS",
	 * "WARN", "INVALID", "pending" (stopped before it was judged), or ""
	 * when the set carries no verdict (a run made before verdicts, or
	 * another layout: mess_set_verdict says "none"). */
	char verdict[16];
	/* The verdict's first reason at its level (with none there, the
	 * first above PASS), on one line, "" for PASS, pending and none; and
	 * how many reasons were counted so. */
	char verdict_reason[320];
	int verdict_reasons;
	/* One line to say on stderr, "" for none: rows dropped because no
	 * memory has them (mess/messfmt.h struct mess_drop). */
	char warning[1024];
};

/*
 * Read the set at path into f (zeroed by the caller; freed by the caller
 * also on error), detecting its layout.  ghz > 0 overrides the frequency a
 * cycle-based set is converted with; 0 means "from its metadata".  On error
 * err holds one line naming the file, the line number where there is one,
 * and what is wrong.
 * 0, -ENOENT (nothing readable at path), -EINVAL (malformed, a verdict
 * other than PASS, WARN, INVALID or pending, or a cycle-based set and no
 * frequency), -ENOMEM.
 */
int mess_set_load(const char *path, double ghz, struct mess_family *f,
		  struct mess_set_info *info, char *err, size_t errlen);

/*
 * The set read at a latency statistic (curve.h mess_family_at_stat: mean,
 * p50, p90, p99, p99.9), with the unloaded latency that goes with it: for
 * a tail, the unloaded distribution's same quantile (meta.json
 * distribution.unloaded beside the set) or unknown, never the mean's.
 * Sets f->unloaded_ns and info->unloaded_ns/unloaded_source.  0, -EINVAL
 * (no such statistic), -ENODATA (no point has it).
 */
int mess_set_at_stat(struct mess_family *f, struct mess_set_info *info,
		     const char *stat);

/* The verdict for people and files: info->verdict, or "none". */
const char *mess_set_verdict(const struct mess_set_info *info);

/* The directory the set's files are in, where what sits beside them is
 * looked for (meta.json, plotter.txt, system.md): info->path, or the
 * folder of the file that was read. */
void mess_set_dir(const struct mess_set_info *info, char *dir, size_t len);

#endif
