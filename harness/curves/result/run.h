/* SPDX-License-Identifier: MIT */
/*
 * One run of `mess curves`, as the driver keeps it: the options, the
 * backend and its description, the family measured, the run directory and
 * its files, the counts and the verdict.  Nothing of the machine that
 * measured (curves/backend/backend.h: a backend's state is its own).
 */
#ifndef MESS_RUN_H
#define MESS_RUN_H

#include <limits.h>
#include <stdio.h>

#include "curves/backend/backend.h"
#include "mess/curve.h"
#include "mess/json.h"
#include "mess/quality.h"
#include "core/options.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/util.h"

/*
 * Parse argv into cfg.  Returns 0, or -EINVAL after printing one line that
 * names the option and what it allows into err.
 */
int mess_options_parse(struct mess_cfg *cfg, int argc, char **argv,
		       char *err, size_t errlen);
void mess_options_defaults(struct mess_cfg *cfg);
void mess_options_usage(FILE *f, const char *prog);

struct mess_run {
	struct mess_cfg cfg;
	/* what measures the points and its state (backend.h) */
	const struct mess_backend *be;
	void *bs;
	struct mess_run_desc desc;
	struct mess_repeater rep;	/* the repeats' counts in rep.st */
	struct mess_unloaded u;
	double prev_unloaded_ns;	/* --resume: the earlier session's */
	double unloaded_end_ns, unloaded_end_std_ns;	/* NAN: not measured */
	struct mess_family fam;
	int done[MESS_GEN_OPS + 1];	/* mixes finished (resume) */

	struct mess_rundir rd;
	struct mess_appender csv;	/* curves.csv, one whole row at a time */
	size_t resume_dropped;	/* rows of earlier sessions not kept */
	unsigned points_measured, points_reused, unsteady;
	unsigned probes;
	double point_ns_total;	/* time spent in measured points, for ETA */
	char plots_note[256];
	char export_note[512];
	char plot_title[600];

	unsigned points_rule_remeasured, waves_checked;
	struct mess_verdict verdict;
	int judged;		/* verdict final (mess_run_verdict ran) */
	/* The host's earlier comparable PASS runs beside this one: how many
	 * were read and compared, their median maximum bandwidth and
	 * unloaded latency (NAN: not compared), where they were looked for. */
	size_t history_seen, history_runs;
	double history_bw_ns[2];
	char history_dir[PATH_MAX];
	enum mess_level mix_level[MESS_GEN_OPS + 1];	/* by store_pct */
};

/* The results as the backends' sections read them. */
void mess_run_results(const struct mess_run *r, struct mess_results *res);

/* Points a curve usually gets past --points with --sweep classic (the
 * maximum's probe and its confirmation, a bisection where it bends): the
 * ETA's estimate, and what --quick's help says it measures (the knee
 * rule stops at --points). */
#define MESS_SWEEP_EXTRA_POINTS 3

/* sweep.c */
int mess_sweep(struct mess_run *r);

/* quality.c: the verdict at the end */
void mess_run_verdict(struct mess_run *r);
json_t *mess_run_quality_json(const struct mess_run *r);
void mess_run_quality_md(FILE *f, const struct mess_run *r);
/* history.c: a complete run against the host's earlier runs (m: this
 * run's meta.json as it will be written) */
void mess_run_history(struct mess_run *r, const json_t *m,
		      struct mess_verdict *v);
/* csv.c: curves.csv rewritten from memory (after points were measured
 * again), appending continued; written whole (sorted), appending closed */
int mess_run_rewrite_csv(struct mess_run *r);
int mess_run_write_csv(struct mess_run *r);

/* result/: the run directory's files (csv.c, meta.c, summary.c) */
/* --resume, before anything is changed or allocated: curves.csv's header
 * and the backend's own files.  0, or -EINVAL said in one line naming the
 * file. */
int mess_run_resume_check(struct mess_run *r);
/* After mess_rundir_open and the buffers: curves.csv, the points of
 * earlier sessions, meta.json. */
int mess_run_open(struct mess_run *r);
json_t *mess_run_meta(struct mess_run *r);
int mess_run_write_meta(struct mess_run *r, int complete);
int mess_run_record_point(struct mess_run *r, const struct mess_point *p);
int mess_run_mark_done(struct mess_run *r, unsigned store_pct);
int mess_run_finish(struct mess_run *r, int complete);

#endif
