/* SPDX-License-Identifier: MIT */
/* One interfere run: its options, cores, nodes and rows (cmd.c chooses,
 * measure.c measures). */
#ifndef MESS_IFR_RUN_H
#define MESS_IFR_RUN_H

#include <limits.h>
#include <stdint.h>

#include "core/machine/memsel.h"
#include "core/machine/topo.h"
#include "core/measure/registry.h"
#include "interfere/interfere.h"
#include "core/measure/cost.h"
#include "mess_kernels.h"

struct ifr_opts {
	char out[PATH_MAX];
	char placement[32];
	char aggressors[16];	/* a count or "all" */
	char mixes[512];
	char mem_node[MESS_MEMSEL_LEN];
	int64_t victim;
	uint64_t repeats;
	double run_ms;
	double settle_ms;
	uint64_t buffer;
	uint64_t gen_bytes;
	int64_t seed;
	int quick;
	int no_plots;
	int json;
	int strict;
	int help;
};

struct ifr {
	struct ifr_opts o;
	struct mess_topo topo;
	const struct mess_variant *var;
	enum mess_ifr_place place;
	int victim, victim_node, victim_pkg;
	int cores[MESS_MAX_CORES];	/* the aggressors', in the order added */
	int ncores;		/* the placement's */
	int naggr;		/* those used: --aggressors */
	int aggr_node;		/* their arrays' */
	char node_rule[200];	/* how aggr_node was chosen */
	struct mess_memsel mem;	/* other-node: the aggressors' node */
	int nmixes;
	int mix[MESS_GEN_NMIXES];
	size_t buffer, gen_bytes;
	/* measured */
	double unloaded_ns;	/* the untimed chase, idle */
	uint64_t batch_loads;
	char timer[320];	/* the timer and where its rate came from */
	char chase_huge[16], gen_huge[16];
	double gen_huge_pct;
	struct mess_ifr_row *rows;
	int nrows;
	char plot_note[320];	/* plots/interference.*, or why not */
	struct mess_judge judge;
	/* What the files say the rows were measured on (write_files). */
	struct mess_ifr_about about;
	char about_cores[1024];
	struct mess_cost cost;	/* the estimate before the rows, the time they took */
};

/* The unloaded latency, which sizes the windows' batches: the least of
 * this many runs of the chain (a run preempted on a shared host is only
 * slower), each of IDLE_LOADS loads at most (tens of ms; random lines, so
 * a part of the chain stands for the whole), after one to warm. */
#define MESS_IFR_IDLE_PASSES 3
#define MESS_IFR_IDLE_LOADS (1u << 18)

/* What the estimate needs of this machine's first window: the victim set
 * up on bytes of buffer, one window of run_ms measured as the rows' are
 * (again while disturbed): *setup_s the timer's and host-state probes'
 * opening, *win_s an attempt, *attempts how many it took.  0 or -errno. */
int mess_ifr_probe_window(struct ifr *m, size_t bytes, double *setup_s,
			  double *win_s, int *attempts);

/* estimate.c: the probes and m->cost's estimate. */
void mess_ifr_estimate_run(struct ifr *m);

/* Every mix, 0 .. naggr aggressors: the rows.  0 or -errno (-EINTR:
 * interrupted, the rows so far kept); said on stderr. */
int mess_ifr_measure(struct ifr *m);

#endif
