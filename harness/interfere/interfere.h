/* SPDX-License-Identifier: MIT */
/*
 * `mess interfere`: a victim core's latency distribution (the timed chase,
 * core/tail/window.h) as 0, 1, ..., N aggressor cores run the traffic
 * generators at full rate, per mix, in one placement.  table.c writes the
 * files from the rows (tests/unit/interfere/ checks them), measure.c
 * measures, cmd.c chooses the cores and the nodes; the arithmetic (a row
 * from its windows, the knee) is lib's (mess/interfere.h).
 */
#ifndef MESS_IFR_H
#define MESS_IFR_H

#include <stdint.h>
#include <stdio.h>

#include "core/machine/judge.h"
#include "core/measure/cost.h"
#include "mess/interfere.h"
#include "mess/json.h"

#define MESS_IFR_CSV "interference.csv"
#define MESS_IFR_HEADER "placement,store_pct,read_pct,aggressors,lat_p50_ns,lat_p90_ns," \
	"lat_p99_ns,lat_p999_ns,lat_mean_ns,lat_p99_spread_ns,p99_vs_none,windows," \
	"bw_gbs,disturbed,disturbed_kept,lost_pct,preempted,impossible"
/* Windows a row at most. */
#define MESS_IFR_MAX_REPEATS 64

enum mess_ifr_place {
	MESS_IFR_SAME_SOCKET,
	MESS_IFR_OTHER_SOCKET,
	MESS_IFR_OTHER_NODE,
	MESS_IFR_NPLACES
};

extern const char *const mess_ifr_places[MESS_IFR_NPLACES];

/* One row: a mix at a number of aggressors. */
struct mess_ifr_row {
	int store_pct;
	double read_pct;	/* the mix's memory-level read share, % */
	int aggressors;
	struct mess_ifr_fig lat;	/* the victim's, ns a load */
	double p99_vs_none;	/* p99 over the mix's 0-aggressor p99; NAN */
	/* the aggressors' accounted bandwidth over the row's windows, GB/s
	 * (0 with none) */
	double bw_gbs;
	/* windows found disturbed (each measured again or, past the
	 * bound, kept), and kept so; the most the victim lost over the
	 * kept ones (%, NAN unknown); batches cut as preemptions */
	unsigned disturbed, disturbed_kept;
	double lost_pct;
	uint64_t preempted;
	/* windows faster than an L1 hit: discarded (mess_ifr_win_possible) */
	unsigned impossible;
};

/* What the files say besides the rows. */
struct mess_ifr_about {
	const char *cpu_model;
	enum mess_ifr_place place;
	int victim;		/* core, hwloc logical */
	const char *aggressor_cores;	/* list, in the order added */
	int max_aggressors;
	int victim_node, aggressor_node;
};

/* Each row's p99 over its mix's 0-aggressor row's. */
void mess_ifr_ratios(struct mess_ifr_row *r, int n);
/* The knee of mix store_pct over the rows (mess_ifr_knee). */
int mess_ifr_mix_knee(const struct mess_ifr_row *r, int n, int store_pct);
/* interference.csv: 0 or -errno. */
int mess_ifr_csv(FILE *f, const struct mess_ifr_about *a,
		 const struct mess_ifr_row *r, int n);
/* summary.md's tables, one per mix, each with its knee. */
void mess_ifr_md(FILE *f, const struct mess_ifr_about *a,
		 const struct mess_ifr_row *r, int n);
/* summary.json's object. */
json_t *mess_ifr_json(const struct mess_ifr_about *a,
		      const struct mess_ifr_row *r, int n);
/* judge.c: the rows' reasons (windows kept disturbed or impossible, p99s
 * that disagree) added to v, by the table results/README.md gives; its
 * rows for meta.json. */
void mess_ifr_judge(const struct mess_ifr_row *r, int n, struct mess_verdict *v);
json_t *mess_ifr_rules_json(void);

/* estimate.c: what the rows will cost, from a probe of this machine's. */
struct mess_ifr_plan {
	int mixes, naggr;		/* rows: mixes x (naggr + 1) */
	unsigned repeats;		/* windows a row */
	double settle_ms;
	size_t buffer, gen_bytes;	/* the victim's; each aggressor array's */
	double lat_ns;			/* a load of the idle passes */
	double setup_s;			/* the timer's and host-state probes' */
	double window_s;		/* one attempt at a window */
	int attempts;			/* each window's: the probe's */
};
/* The victim's buffer populated, its chain linked, its idle passes; the
 * aggressors' arrays populated (in parallel: one thread's two counted);
 * every row's windows, each attempt as long as the probe's and as many,
 * and every loaded row's settling. */
void mess_ifr_estimate(const struct mess_ifr_plan *pl, const struct mess_cost_probe *p,
		       struct mess_cost_parts *s);

#endif
