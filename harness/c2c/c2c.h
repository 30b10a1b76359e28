/* SPDX-License-Identifier: MIT */
/*
 * `mess c2c`'s table: the core-to-core latency of each pair of PUs (one
 * cache line handed back and forth between two pinned threads), its median
 * and p99, and the pairs grouped by what they share (core/machine/topo.h:
 * SMT siblings, a cache, a socket, nothing).  table.c holds the figures
 * and files; cmd.c measures.
 */
#ifndef MESS_C2C_H
#define MESS_C2C_H

#include <stdio.h>

#include "core/machine/judge.h"
#include "core/machine/topo.h"
#include "mess/json.h"

#define MESS_C2C_CSV "c2c.csv"
#define MESS_C2C_HEADER "pu_a,pu_b,core_a,core_b,group,median_ns,p99_ns,min_ns,samples"

/* The groups' names, by enum mess_share. */
extern const char *const mess_c2c_groups[MESS_NSHARES];

struct mess_c2c_pair {
	int a, b;		/* PUs, OS indices; a starts each round trip */
	int core_a, core_b;	/* their cores, hwloc logical */
	int group;		/* enum mess_share */
	/* One-way latency, ns: half a round trip, each sample the mean
	 * over a batch; NAN: not measured. */
	double median_ns, p99_ns, min_ns;
	unsigned samples;
};

/* A group's pairs: how many, and the median, the least and the most of
 * their medians, the most of their p99s (NAN: no pair). */
struct mess_c2c_sum {
	unsigned pairs;
	double median_ns, min_ns, max_ns, p99_max_ns;
};

/* The estimate of pairs of samples (each of batch round trips, one more
 * to warm) at one_way_ns, each pair's threads started and joined in
 * fixed_s: seconds (issue 47). */
double mess_c2c_estimate(int pairs, unsigned samples, unsigned batch,
			 double one_way_ns, double fixed_s);
/* The pair's figures from n samples (sorted in place; n 0: NAN). */
void mess_c2c_finish(struct mess_c2c_pair *p, double *s, unsigned n);
/* The groups' summaries, sum[MESS_NSHARES], over the measured pairs. */
void mess_c2c_group(const struct mess_c2c_pair *p, int n,
		    struct mess_c2c_sum *sum);
/* The pairs to measure among npu PUs, every one (a < b) while there are
 * at most max, else every k-th in order so that at most max remain:
 * how many into out[] as (i, j) indices into the PU list. */
int mess_c2c_pick(int npu, int max, int (*out)[2]);

/* c2c.csv: 0 or -errno. */
int mess_c2c_csv(FILE *f, const struct mess_c2c_pair *p, int n);
/* summary.md's group table. */
void mess_c2c_md(FILE *f, const struct mess_c2c_pair *p, int n);
/* summary.json's groups and pairs. */
json_t *mess_c2c_json(const struct mess_c2c_pair *p, int n);
/* The heat map of the pairs' medians, PU by PU (npu PUs, OS indices
 * pus[], both halves drawn; a pair not measured left empty):
 * plots/c2c.png and .svg.  0, or -errno with why in err. */
int mess_c2c_plot(const char *dir, const struct mess_c2c_pair *p, int n,
		  const int *pus, int npu, const char *title, char *err,
		  size_t errlen);

/* judge.c: the pairs' reasons (a preempted tail, a median no transfer
 * takes) added to v, by the table results/README.md gives; its rows for
 * meta.json. */
void mess_c2c_judge(const struct mess_c2c_pair *p, int n, struct mess_verdict *v);
json_t *mess_c2c_rules_json(void);

#endif
