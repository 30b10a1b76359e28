/* SPDX-License-Identifier: MIT */
/*
 * A look at the machine before a run measures anything: who else runs on
 * the cores it will use, how much time the hypervisor steals, how the
 * clock is governed, what huge pages there are, and whether the cores'
 * SMT siblings are busy.  Recorded in meta.json `environment`, summarised
 * at the top of the run's markdown, and turned into verdict reasons.
 *
 * Users: the curves, the latency ladder and the absorption tables.
 */
#ifndef MESS_ENVIRON_H
#define MESS_ENVIRON_H

#include <jansson.h>
#include <stdio.h>

#include "core/machine/topo.h"
#include "mess/quality.h"

#define MESS_ENV_MAX_TASKS 8
/* A used or sibling PU busier than this before the run: competition. */
#define MESS_ENV_BUSY_PCT 25.0
#define MESS_ENV_STEAL_PCT 2.0

struct mess_env_pu {
	int pu, core;
	int sibling;		/* an SMT sibling the run does not use */
	double busy_pct, steal_pct;	/* NAN: unknown */
};

struct mess_env_task {
	int pid, tid, pu;
	char state;
	int bound;		/* its affinity is a strict subset of the CPUs */
	char comm[24];
};

struct mess_env {
	double window_ms;
	double load[3];
	int runnable, tasks;	/* /proc/loadavg: runnable / all, system-wide */
	int npu;
	struct mess_env_pu *pu;
	double steal_pct;	/* over the used PUs; NAN unknown */
	int nother, others_total;	/* other tasks running or bound there */
	struct mess_env_task other[MESS_ENV_MAX_TASKS];
	int bound_sleeping;	/* other tasks bound there, asleep */
	char governor[32], driver[32], boost[16];
	int governors_mixed;
	double min_khz, max_khz, hw_min_khz, hw_max_khz;	/* NAN: none */
	char thp[16], thp_defrag[32];
	long hp2m_total, hp2m_free, hp1g_total, hp1g_free;	/* -1: none */
	int node;
};

/*
 * Look at the machine for window_ms (the CPUs' busy and steal shares),
 * for the cores given (hwloc logical; cores[0] runs the chase or the
 * first thread) and the memory node.  Always fills what it can; 0 or
 * -ENOMEM.
 */
int mess_env_probe(struct mess_env *e, struct mess_topo *t, const int *cores,
		   int n, int node, double window_ms);
void mess_env_free(struct mess_env *e);
json_t *mess_env_json(const struct mess_env *e);
/* A few lines for the head of a markdown report. */
void mess_env_md(FILE *f, const struct mess_env *e);
/* Its reasons: competition and steal warn, the rest are notes. */
void mess_env_verdict(const struct mess_env *e, struct mess_verdict *v);

#endif
