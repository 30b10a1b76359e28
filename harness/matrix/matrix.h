/* SPDX-License-Identifier: MIT */
/*
 * `mess matrix`'s table: for every initiator (a NUMA node with CPUs) and
 * every memory node, the unloaded latency and the read-only peak bandwidth
 * measured from the initiator's cores, beside the firmware's (ACPI HMAT)
 * figure for the pair where it gives one.  table.c holds what is computed
 * from the measured samples (medians, spreads, ratios, labels) and the
 * files; cmd.c measures.
 */
#ifndef MESS_MATRIX_H
#define MESS_MATRIX_H

#include <stdio.h>

#include "core/machine/judge.h"
#include "core/measure/cost.h"
#include "mess/json.h"

#define MESS_MX_CSV "matrix.csv"
#define MESS_MX_HEADER "initiator_node,initiator_cores,chase_core,target_node,target_kind," \
	"label,lat_ns,lat_spread_ns,lat_repeats,hmat_lat_ns,lat_vs_hmat," \
	"bw_gbs,bw_spread_gbs,bw_repeats,bw_cores,hmat_bw_gbs,bw_vs_hmat," \
	"bw21_gbs,bw21_spread_gbs,bw21_repeats,bw21_read_pct,huge_pages," \
	"chase_mib_on_target,chase_mib_elsewhere,gen_mib_on_target,gen_mib_elsewhere"
/* Repeats at most. */
#define MESS_MX_MAX_REPEATS 64

/* Where the target is for the initiator: its cores in the target's hwloc
 * cpuset or not, and whether the target has CPUs of its own. */
enum mess_mx_label {
	MESS_MX_LOCAL,
	MESS_MX_REMOTE,
	MESS_MX_LOCAL_CPULESS,
	MESS_MX_REMOTE_CPULESS,
};

extern const char *const mess_mx_labels[4];

struct mess_mx_cell {
	int init;		/* initiator node, OS index */
	char init_cores[128];	/* its cores, hwloc logical list */
	int chase_core;		/* the latency's core */
	int target;		/* memory node, OS index */
	char kind[16];		/* its kind (dram, hbm, ...) */
	enum mess_mx_label label;
	/* Measured: median and 1.4826 x MAD of the repeats; NAN not
	 * measured (an interrupted run), repeats 0. */
	double lat_ns, lat_spread_ns;
	unsigned lat_repeats;
	unsigned lat_impossible;	/* runs faster than an L1 hit, discarded */
	/* The floor they were judged by (mess_l1_floor: the chase core's
	 * own L1 hit) and what it came from. */
	double lat_floor_ns;
	char lat_floor_src[96];
	double bw_gbs, bw_spread_gbs;
	unsigned bw_repeats;
	int bw_cores;		/* generator threads */
	/* The 2:1 mix: the generators' mix whose memory-level read share
	 * is nearest two thirds (bw21_read_pct, %), as bw above. */
	double bw21_gbs, bw21_spread_gbs, bw21_read_pct;
	unsigned bw21_repeats;
	/* The firmware's, NAN not given; the measured over it, NAN when
	 * either is missing. */
	double hmat_lat_ns, hmat_bw_gbs;
	double lat_vs_hmat, bw_vs_hmat;
	char huge[16];		/* pages the chase buffer got */
	/* Where the kernel put the pair's memory (mess_mx_placed), MiB on
	 * the target and elsewhere: the chase's buffer, and the generators'
	 * arrays summed over both mixes; NAN not read. */
	double chase_on, chase_off, gen_on, gen_off;
};

/* The label of a pair: local when the target's cpuset holds the
 * initiator's cores; _CPULESS when the target has no CPU of its own. */
enum mess_mx_label mess_mx_label(int local, int has_cpus);
/* A figure's samples: n of them (0: not measured). */
struct mess_mx_samples {
	const double *v;
	unsigned n;
};

/*
 * The cell's figures from its samples (lat: ns per load; bw: read-only
 * GB/s windows; bw21: the 2:1 mix's): medians, spreads and ratios to the
 * firmware's figures already in the cell.
 */
void mess_mx_finish(struct mess_mx_cell *c, struct mess_mx_samples lat,
		    struct mess_mx_samples bw, struct mess_mx_samples bw21);
/* hwloc's MiB/s to GB/s (1e9 B/s), the unit of every bandwidth here. */
double mess_mx_mibs_gbs(double mibs);

/*
 * The pages of the process's bound mappings (numa_maps at path, NULL:
 * /proc/self/numa_maps) on node and on any other, MiB: 0 or -errno.
 */
int mess_mx_placed(const char *path, int node, double *on_mib, double *off_mib);

/*
 * latency.c: the unloaded latency of a chase over bytes of buf, the
 * curves' own (2 MiB TLB windows, lines 256 B apart), on the calling
 * thread's core: repeats runs of about run_ms each, ns a load into
 * lat[], *done of them; the runs faster than an L1 hit (under the floor
 * from the core's own, mess_l1_floor) discarded, counted in c with the
 * floor; 0 or -errno (-EINTR when interrupted, the runs before kept;
 * -EINVAL under one window).
 */
int mess_mx_latency(void *buf, size_t bytes, double run_ms, unsigned repeats,
		    double *lat, unsigned *done, struct mess_mx_cell *c);

/* estimate.c: what the pairs will cost, from a probe of this machine's. */
struct mess_mx_plan {
	int pairs;
	size_t buffer, gen_bytes;	/* the chase's; each generator array's */
	unsigned repeats;
	double run_ms, window_ms;
	double lat_ns;			/* a load of the chase's warm pass */
};
/* A pair: the chase's buffer populated, its chain linked and warmed by a
 * pass, its runs (each of run_ms to 4 run_ms: 2 counted); two mixes,
 * each of every initiator core's two arrays populated (in parallel: one
 * thread's counted), a warm window and the repeats'. */
void mess_mx_estimate(const struct mess_mx_plan *pl, const struct mess_cost_probe *p,
		      struct mess_cost_parts *s);

/* The distinct initiators (target 0) or targets (1) of the cells, in
 * their order, into out[n]: how many. */
int mess_mx_distinct(const struct mess_mx_cell *c, int n, int target, int *out);
/* matrix.csv (header, then one row per cell): 0 or -errno. */
int mess_mx_csv(FILE *f, const struct mess_mx_cell *c, int n);
/* summary.md's tables: latency, then bandwidth, initiators down and
 * targets across, each figure beside the HMAT's. */
void mess_mx_md(FILE *f, const struct mess_mx_cell *c, int n);
/* summary.json's cells. */
json_t *mess_mx_json(const struct mess_mx_cell *c, int n);
/* meta.json latency_runs_impossible (the cells' runs faster than an L1 hit,
 * discarded), its rule and each pair's floor. */
json_t *mess_mx_impossible_json(const struct mess_mx_cell *c, int n);
/* The heat maps of the latency and of the read-only bandwidth, initiators
 * down and targets across, each cell with the HMAT's figure under the
 * measured one (plots/matrix-latency, plots/matrix-bandwidth), titled
 * pre (the verdict: "WARN: ") and cpu: 0, or -errno with why in err (as
 * mess_heat_plot). */
int mess_mx_plot(const char *dir, const struct mess_mx_cell *c, int n,
		 const char *pre, const char *cpu, char *err, size_t errlen);

/* judge.c: the cells' reasons (repeats that disagree, memory on another
 * node) added to v, by the table results/README.md gives; its rows for
 * meta.json. */
void mess_mx_judge(const struct mess_mx_cell *c, int n, struct mess_verdict *v);
json_t *mess_mx_rules_json(void);

/* select.c: --initiators LIST ("0,2", "0-3") over the initiators' nodes:
 * keep[i] whether nodes[i] is listed.  0, or -EINVAL with the one line in
 * err (not a list, or a node without CPUs). */
int mess_mx_select(const char *list, const int *nodes, int *keep, int n,
		   char *err, size_t errlen);

#endif
