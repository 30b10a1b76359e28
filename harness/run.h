/* SPDX-License-Identifier: MIT */
/* One characterisation run: its machine state, buffers and result files. */
#ifndef MESS_RUN_H
#define MESS_RUN_H

#include <limits.h>
#include <signal.h>
#include <stdio.h>

#include "curve.h"
#include "gen.h"
#include "mem.h"
#include "options.h"
#include "registry.h"
#include "topo.h"

struct mess_run {
	struct mess_cfg cfg;
	char argv_saved[4096];	/* original options, one per line */
	struct mess_topo topo;
	const struct mess_variant *var;
	int chase_core;
	int gen_cores[MESS_MAX_CORES];
	int ngen;
	int node;		/* NUMA node of every buffer */
	uint64_t llc_bytes;
	int llc_level;
	size_t gen_bytes;

	struct mess_buf chase;
	void *chase_p;		/* where the chase continues from */
	uint32_t nlines;
	uint64_t chase_iters;	/* per repeat, adapted to chase_ms */
	struct mess_gens gens;
	enum mess_hp gen_hp;	/* worst over the generator arrays */
	double gen_huge_pct;

	double unloaded_ns, unloaded_std_ns;
	double unloaded_random_ns, unloaded_random_std_ns;
	unsigned unloaded_repeats;
	struct mess_family fam;
	int done[MESS_GEN_OPS + 1];	/* mixes finished (resume) */

	char dir[PATH_MAX];
	FILE *csv;
	FILE *resume;
	char start_utc[32], end_utc[32];
	int resumed;
	double t0_ns;
	unsigned points_measured, points_reused, remeasured, unsteady;
	unsigned probes;
	double point_ns_total;	/* time spent in measured points, for ETA */
	char plots_note[256];
	char export_note[512];
};

extern volatile sig_atomic_t mess_interrupted;

/* sweep.c */
int mess_measure_unloaded(struct mess_run *r);
int mess_sweep(struct mess_run *r);

/* run.c */
int mess_run_open(struct mess_run *r, int argc, char **argv);
int mess_run_write_meta(struct mess_run *r, int complete);
int mess_run_record_point(struct mess_run *r, const struct mess_point *p);
int mess_run_mark_done(struct mess_run *r, unsigned store_pct);
int mess_run_finish(struct mess_run *r, int complete);
int mess_run_load_resume(struct mess_run *r);
void mess_utc_now(char *buf, size_t len, int compact);
/* meta.json lines every command writes: build, host, CPU, ISA, compiler. */
void mess_meta_identity(FILE *f, const struct mess_topo *t);
/* meta.json's last members (resumes, start and end, complete) and its
 * closing brace; end_utc "" is written as null (still running). */
void mess_meta_close(FILE *f, int resumed, const char *start_utc,
		     const char *end_utc, int complete);

/* resume.txt keeps a run's options as "arg" lines, one per argv word. */
#define MESS_RESUME_MAX_ARGS 64
void mess_resume_write_args(FILE *f, int argc, char **argv);
/* argv (argv[0] "mess") from DIR/resume.txt, in static storage. */
int mess_resume_read_args(const char *dir, int *argc, char ***argv);

#endif
