/* SPDX-License-Identifier: MIT */
/*
 * `mess fleet`: the nodes read from a directory of runs, what is compared
 * and how, shared by its reader (scan.c), its analysis (analyse.c) and its
 * writers (report.c, median.c, plots.c).  The maths is mess/fleet.h's.
 */
#ifndef MESS_FLEET_CMD_INTERNAL_H
#define MESS_FLEET_CMD_INTERNAL_H

#include <stddef.h>

#include "mess/curve.h"
#include "mess/load.h"
#include "mess/model.h"

/* Store shares of a curve run: 0, 2, ..., 100 (index store_pct / 2). */
#define FLEET_NMIX 51
#define FLEET_MAX_LEVELS 8
#define FLEET_MAX_ROWS 64
#define FLEET_NAME 256
/* Points of a median curve: u = 1/20 .. 20/20 of the maximum bandwidth. */
#define FLEET_MEDIAN_STEPS 20
/* The common bandwidth: this share of the group's median maximum. */
#define FLEET_COMMON_FRAC 0.5
/* An outlier's deviation is also at least this share of its group's
 * median: mess's repeatability on one node is a few %, a fleet of
 * identical nodes has a tiny MAD, and a z alone flags trivia.  The
 * latency at the common bandwidth, read on a curve's slope, multiplies a
 * small bandwidth shift: it needs more. */
#define FLEET_MIN_EFFECT 0.05
#define FLEET_MIN_EFFECT_SLOPE 0.10
/* A file beside the node directories naming the ones expected
 * (tools/slurm/mess-fleet.sbatch writes it when it submits). */
#define FLEET_EXPECTED "fleet-nodes.txt"
/* What the batch script logs into each node directory. */
#define FLEET_TASK_LOG "mess-fleet.log"

/* The runs a node directory may hold: the curves (required for a node to
 * be compared at all), a latency ladder, an absorption table. */
enum fleet_part { PART_CURVES, PART_LADDER, PART_ABSORB, NPARTS };

enum fleet_state {
	ST_ABSENT,		/* no such run in the node directory */
	ST_UNREADABLE,		/* there, but its files cannot be read */
	ST_INCOMPLETE,		/* meta.json does not say "complete": true */
	ST_INVALID,		/* curves: its verdict is INVALID, left out
				 * (unless --with-invalid) */
	ST_DIFFERENT,		/* measured otherwise than its group */
	ST_OK,			/* compared */
};

/* A node's curve run's verdict (meta.json quality), as counted. */
enum fleet_verdict { FV_PASS, FV_WARN, FV_INVALID, FV_PENDING, FV_NONE, FV_N };
extern const char *const fleet_verdict_name[FV_N];

/* One way of reading a part: where, which meta.json members say how it
 * was measured (equal in every compared node of a group) and, for the
 * curves, which say what the machine is (equal within a group). */
struct fleet_part_def {
	const char *name;
	const char *const *where;	/* subdirectories tried, NULL-ended */
	const char *const *method;	/* "file:member.member", NULL-ended */
	const char *const *config;	/* NULL-ended; NULL: not grouped on */
};

extern const struct fleet_part_def fleet_parts[NPARTS];
extern const char *const fleet_state_name[];

struct fleet_part_data {
	enum fleet_state st;
	char where[32];		/* "" (the node directory), "ladder", "absorb" */
	char why[512];		/* unreadable or incomplete: why */
	char **method;		/* values of the def's method members */
	char *method_key;
};

struct fleet_level {
	char name[16];		/* L1, L2, ..., memory */
	double ns;
	char status[48];
};

struct fleet_row {
	char key[64];		/* stream_triad_c2, spmxv_small_c1_q0.25, ... */
	char unit[24];		/* gbs, ns, gflops, ... (column suffix) */
	double perf;
};

struct fleet_node {
	char name[FLEET_NAME];	/* the directory's name */
	char host[128], cpu_model[128];
	struct fleet_part_data part[NPARTS];
	char **config;		/* values of the curves' config members */
	char *config_key;	/* NULL: no readable curve run */
	size_t group;
	int has_log;		/* FLEET_TASK_LOG beside the run */
	char log_last[256];	/* its last line from mess, "" when none */

	/* The curve run (part[PART_CURVES].st >= ST_INCOMPLETE). */
	struct mess_family fam;
	struct mess_set_info info;
	struct mess_model *model;
	double unloaded_ns;
	const char *unloaded_src;	/* how it was had, NULL: unknown */
	double max_bw[FLEET_NMIX], read_pct[FLEET_NMIX];	/* NAN: not measured */
	double sat_min, sat_max;
	double common_bw, lat_common;
	int lat_common_src;		/* MESS_SRC_*, -1: none */

	size_t nlevels;
	struct fleet_level level[FLEET_MAX_LEVELS];
	char ladder_what[256];
	size_t nrows;
	struct fleet_row row[FLEET_MAX_ROWS];
};

/* A column of the comparison: one figure of every node. */
enum fleet_kind { M_UNLOADED, M_MAXBW, M_SATMIN, M_SATMAX, M_LATCOMMON,
		  M_LEVEL, M_ROW };

struct fleet_metric {
	char name[96];		/* fleet.csv column */
	char label[128];	/* for people */
	enum fleet_part part;
	enum fleet_kind kind;
	int mix;		/* M_MAXBW: store_pct */
	char key[64];		/* M_LEVEL, M_ROW: the level or row */
	int lower_is_worse;	/* bandwidths: a drop is the symptom */
	double min_effect;	/* a flag also needs |x - median| above this
				 * share of the median (set by add_metric) */
};

struct fleet_group {
	size_t nodes, compared;	/* compared: curves ST_OK */
	size_t ref[NPARTS];	/* node whose method is the group's, or -1 */
	int mix;		/* store_pct of the common-bandwidth curve, -1 */
	double common_bw;	/* NAN: none */
	char median_dir[64];	/* "median-g1", "" when none written */
	size_t median_nodes;
};

struct fleet {
	const char *dir;
	double mad;
	int with_invalid;	/* INVALID runs take part in the statistics */
	size_t nverdict[FV_N];	/* nodes per verdict */
	size_t invalid_left_out;	/* complete INVALID runs left out */
	struct fleet_node *node;
	size_t n;
	char **missing;		/* named in FLEET_EXPECTED, no directory */
	size_t nmissing;
	size_t ngroups;
	struct fleet_group *grp;
	int plot_mix;		/* store_pct of the overlay plot, -1: none */
	struct fleet_metric *metric;
	size_t m;
	/* n x m: every node's figure; z only where the part is compared */
	double *raw, *z;
	/* ngroups x m */
	double *med, *scale;
	size_t noutliers;
};

/* scan.c: every node directory under f->dir (sorted by name), and the
 * expected list.  0, -EINVAL (no node directory: said in err), -ENOMEM. */
int fleet_scan(struct fleet *f, char *err, size_t errlen);
void fleet_free(struct fleet *f);

/* analyse.c: verdicts (an INVALID run left out unless with_invalid),
 * groups, methods, figures, z-scores.  0 or -ENOMEM. */
int fleet_analyse(struct fleet *f);
/* Node i beyond --mad in metric j. */
int fleet_flagged(const struct fleet *f, size_t i, size_t j);
int fleet_is_outlier(const struct fleet *f, size_t i);
enum fleet_verdict fleet_verdict(const struct fleet_node *nd);
/* "g1", "g2", ...; "-" for no group. */
const char *fleet_group_name(size_t g, char *buf, size_t len);

/* report.c: fleet.csv and fleet.md.  0 or -errno. */
int fleet_write_csv(const struct fleet *f, const char *outdir);
int fleet_write_md(const struct fleet *f, const char *outdir, int have_plots,
		   const char *plots);

/* median.c: per group, its median family as a run directory that
 * mess_set_load reads.  0 or -errno (err says why). */
int fleet_write_medians(struct fleet *f, const char *outdir, char *err,
			size_t errlen);

/* plots.c: plots/fleet-curves.* and plots/fleet-bars.*.  0; -ENOENT when
 * gnuplot or the script is missing; other -errno; err says why. */
int fleet_plot(const struct fleet *f, const char *outdir, char *err,
	       size_t errlen);

#endif
