/* SPDX-License-Identifier: MIT */
/*
 * Traffic-generator threads: one per generator core, each with its own load
 * and store arrays, running the selected kernel until told otherwise and
 * publishing its progress so bandwidth can be accounted over any window.
 */
#ifndef MESS_GEN_H
#define MESS_GEN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "mem.h"
#include "mess_kernels.h"
#include "topo.h"

struct mess_gen_thread;

struct mess_gens {
	int n;
	struct mess_gen_thread *th;
	struct mess_topo *topo;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* Command: bumped on every change so threads notice a new one. */
	unsigned cmd_seq;
	const struct mess_gen_kernel *k;	/* NULL: idle */
	uint64_t nop;
	atomic_uint run_seq;	/* threads run while this equals their seq */
	int quit;
	int ready;
	size_t array_bytes;
};

/* Traffic moved by the generators since they were started. */
struct mess_gen_snap {
	uint64_t iters;		/* kernel iterations summed over threads */
	double t_ns;
};

int mess_gens_start(struct mess_gens *g, struct mess_topo *topo,
		    const int *cores, int n, size_t array_bytes, int node,
		    int want_huge);
/* Switch every thread to kernel k at nop count (k NULL: idle). */
void mess_gens_set(struct mess_gens *g, const struct mess_gen_kernel *k,
		   uint64_t nop);
void mess_gens_snap(struct mess_gens *g, struct mess_gen_snap *s);
void mess_gens_stop(struct mess_gens *g);
/* Worst huge-page coverage over the generator arrays. */
void mess_gens_hugepages(struct mess_gens *g, enum mess_hp *hp, double *pct);

double mess_now_ns(void);

#endif
