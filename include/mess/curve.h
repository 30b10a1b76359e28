/* SPDX-License-Identifier: MIT */
/*
 * Bandwidth-latency curves as the harness measures them and as the metrics,
 * the Mess export and the reference readers exchange them.
 */
#ifndef MESS_CURVE_H
#define MESS_CURVE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MESS_STORE_PCT_UNKNOWN UINT32_MAX

struct mess_point {
	uint32_t store_pct;	/* issued store share of the generator, % */
	double read_pct;	/* memory-level read share, % */
	uint64_t nop;		/* nop count of the generator spin */
	double bw_gbs;		/* memory-level bandwidth, 1e9 B/s */
	double read_bw_gbs;
	double write_bw_gbs;
	double lat_ns;		/* median chase load-to-use latency */
	double lat_ns_std;	/* spread of the repeats */
	uint32_t repeats;
	/* Where the bandwidth above came from the memory controllers'
	 * counters, the generators' accounted figure beside it, so that every
	 * point validates the accounting; NAN where not recorded (sets from
	 * elsewhere, runs before curves.csv had these columns). */
	double acc_read_bw_gbs, acc_write_bw_gbs;
	/* The chase latency with page-walk cycles subtracted (core counters);
	 * NAN without them. */
	double lat_nowalk_ns;
	/* The least running/enabled fraction of the counters behind the point
	 * (1: none was multiplexed); NAN without counters. */
	double counter_run_frac;
	/* Whether to trust it (curves.csv schema 3; NAN where not recorded):
	 * the bandwidth's spread over the repeats; the chase windows found
	 * disturbed and measured again, and those kept because the bound was
	 * reached; over the kept windows, the most time any measuring thread
	 * lost (wall minus on-CPU time, %), steal on the run's CPUs, the
	 * threads' involuntary switches and migrations, and the chase core's
	 * clock measured before and after each window. */
	double bw_gbs_std;
	double disturbed, disturbed_kept;
	double lost_pct, steal_ms, invol_switches, migrations;
	double ghz_min, ghz_max;
	uint32_t remeasured;	/* measured again because it broke a rule */
	uint32_t flags;		/* the rules it still breaks: mess/quality.h */
	/* Its latency distribution (curves.csv schema 4; NAN where not
	 * measured): quantiles of the timed chase's window after the mean
	 * windows at the same load, per load, the timer's fixed cost
	 * subtracted; how far that window's mean lies from lat_ns (%, the
	 * check that both measure the same); each generator core's bandwidth
	 * over it against the cores' mean (1: an equal share), least, median
	 * and most, and Jain's index of them. */
	double lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p999_ns, lat_max_ns;
	double dist_mean_diff_pct;
	double fair_min, fair_median, fair_max, fair_jain;
	/* Schema 5: that window's fixed cost of the timer reads, ns a batch
	 * (measured beside it and subtracted), and its batches left out as
	 * preemptions (harness/curves/tail/tail.h). */
	double dist_cost_ns, dist_preempted;
	/* schema 6: the window's L2 cluster, share of batches (%) and its
	 * place (ns a load) */
	double dist_l2_share_pct, dist_l2_ns;
};

/* The trust figures of a point that has none (sets from elsewhere). */
#define MESS_POINT_TRUST_NAN .bw_gbs_std = NAN, .disturbed = NAN, \
	.disturbed_kept = NAN, .lost_pct = NAN, .steal_ms = NAN, \
	.invol_switches = NAN, .migrations = NAN, .ghz_min = NAN, \
	.ghz_max = NAN, MESS_POINT_TAIL_NAN

/* The distribution and fairness figures of a point that has none. */
#define MESS_POINT_TAIL_NAN .lat_p50_ns = NAN, .lat_p90_ns = NAN, \
	.lat_p99_ns = NAN, .lat_p999_ns = NAN, .lat_max_ns = NAN, \
	.dist_mean_diff_pct = NAN, .fair_min = NAN, .fair_median = NAN, \
	.fair_max = NAN, .fair_jain = NAN, .dist_cost_ns = NAN, \
	.dist_preempted = NAN, .dist_l2_share_pct = NAN, .dist_l2_ns = NAN

/* A point with nothing recorded: the optional figures NAN. */
#define MESS_POINT_INIT { .acc_read_bw_gbs = NAN, .acc_write_bw_gbs = NAN, \
			  .lat_nowalk_ns = NAN, .counter_run_frac = NAN, \
			  MESS_POINT_TRUST_NAN }

/* One curve: points in order of increasing pressure (nop decreasing). */
struct mess_curve {
	uint32_t store_pct;	/* MESS_STORE_PCT_UNKNOWN for reference data */
	double read_pct;	/* memory-level read share of the curve, % */
	size_t n, cap;
	struct mess_point *pts;
};

struct mess_family {
	size_t n, cap;
	struct mess_curve *curves;
	double unloaded_ns;	/* chase-only latency; 0 if not measured */
};

/* A wave: bandwidth fell while pressure rose (from point i-1 to point i). */
struct mess_wave {
	uint64_t nop_from, nop_to;
	double bw_from_gbs, bw_to_gbs;
	double lat_to_ns;
};

#define MESS_MAX_WAVES 16

struct mess_curve_summary {
	uint32_t store_pct;
	double read_pct;
	/* The median of its points' read shares (NAN: none): the measured
	 * share where the points' are counted, beside read_pct, the curve's
	 * own (a run's: nominal, from its mix). */
	double read_points_pct;
	size_t npoints;
	double max_bw_gbs;
	double lat_at_max_bw_ns;
	/* The latency at the maximum bandwidth above the unloaded one by
	 * more than noise (mess/metrics.h): else the generators never loaded
	 * the memory, and it has no saturation and no waves. */
	int loaded;
	int saturated;		/* latency reached 2x unloaded */
	/* Not saturated, but 2x was reached at points that cannot say:
	 * flagged, or under MESS_SAT_MIN_BW_FRAC of the maximum. */
	int sat_unknown;
	double sat_bw_gbs;	/* bandwidth at the first such point */
	double sat_lat_ns;
	double max_lat_ns;
	size_t nwaves;		/* all waves found; at most MESS_MAX_WAVES kept */
	struct mess_wave waves[MESS_MAX_WAVES];
};

struct mess_summary {
	double unloaded_ns;
	double peak_gbs;	/* 0: theoretical peak unknown */
	double wave_tol;	/* relative bandwidth drop that counts as a wave */
	size_t ncurves;
	struct mess_curve_summary *curves;
	int have_sat;		/* at least one curve saturated */
	double sat_bw_min_gbs, sat_bw_max_gbs;
	double max_lat_min_ns, max_lat_max_ns;
	double max_bw_gbs;	/* highest bandwidth of the family */
	size_t loaded_curves;	/* curves with loaded set */
	/* The generator cores that moved the traffic, 0 unknown: set by the
	 * caller, named by the writers when no curve loaded the memory. */
	unsigned gen_cores;
	/* The points' read shares were counted by the memory controllers:
	 * set by the caller, summary.md then gives them a column of their
	 * own ("read share, measured"), never read_pct's header. */
	int read_counted;
	/* The command that reports the run again with a peak, its
	 * directory included ("./run.sh report results/x"): set by the
	 * caller, which knows how mess was started; NULL: "mess report DIR". */
	const char *report_cmd;
};

/* A point every reader, metric and plot can use: finite bandwidth and
 * latency (a point that could not be measured keeps NAN there). */
int mess_point_usable(const struct mess_point *p);
/* How many of the curve's points are usable. */
size_t mess_curve_usable(const struct mess_curve *c);

/*
 * Containers.  A curve owns its points, a family owns its curves; both
 * start zeroed ({0}) and grow on demand.
 */

/* Append a copy of *p.  0 or -ENOMEM (the curve is left unchanged). */
int mess_curve_add(struct mess_curve *c, const struct mess_point *p);
void mess_curve_free(struct mess_curve *c);
void mess_family_free(struct mess_family *f);

/*
 * Find or create the curve of a family.  A measured curve is identified by
 * its store_pct alone: that is the knob the sweep turns, while the
 * memory-level read share is a measurement that drifts from point to point;
 * read_pct then only initialises a new curve.  Curves with store_pct ==
 * MESS_STORE_PCT_UNKNOWN (reference data) are identified by read_pct
 * (exact match; NAN matches NAN).  NULL on -ENOMEM.  The pointer is valid
 * until the next call that creates a curve (the array may move).
 */
struct mess_curve *mess_family_curve(struct mess_family *f, uint32_t store_pct,
				     double read_pct);

/* Set the curve's read_pct to the median of its points' (NAN when none
 * has one): how a measured curve's read share is defined everywhere, since
 * the measured share drifts from point to point.  0 or -ENOMEM. */
int mess_curve_median_read(struct mess_curve *c);

/*
 * Indices of c's usable points in increasing pressure order (nop
 * descending, equal nops in the curve's order) into idx (room for c->n):
 * how many.  For a curve that is const or not sorted yet.
 */
size_t mess_curve_pressure_index(const struct mess_curve *c, size_t *idx);

/* Points to increasing pressure: nop descending, ties keep their order. */
void mess_curve_sort_pressure(struct mess_curve *c);

/*
 * Curves by increasing read_pct (NAN last), ties by store_pct, then by
 * their current order: the order readers and writers present a family in.
 */
void mess_family_sort_read(struct mess_family *f);

/* Curves by increasing store_pct, ties keep their order. */
void mess_family_sort_store(struct mess_family *f);

/*
 * A family read at another latency statistic than the mean: name is
 * "mean", "p50", "p90", "p99" or "p99.9" (the schema 4 columns).  Every
 * point's lat_ns becomes that figure; a point without one (not measured)
 * is left out, and lat_ns_std, a spread of means, becomes unknown.
 * 0, -EINVAL (no such statistic: f unchanged) or -ENODATA (no point has
 * it: f is left empty of points).
 */
int mess_family_at_stat(struct mess_family *f, const char *name);
/* The names mess_family_at_stat takes, ", "-joined, for messages. */
extern const char mess_lat_stats[];

#endif
