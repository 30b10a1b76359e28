/* SPDX-License-Identifier: MIT */
/*
 * Traffic-generator threads: one per generator core, each with its own load
 * and store arrays, running the selected kernel until told otherwise and
 * publishing its progress so bandwidth can be accounted over any window.
 */
#ifndef MESS_GEN_H
#define MESS_GEN_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/machine/mem.h"
#include "core/machine/place.h"
#include "core/measure/pool.h"
#include "core/machine/topo.h"
#include "mess_kernels.h"

struct mess_gen_thread;

struct mess_gens {
	struct mess_pool pool;	/* thread i on the i-th generator core */
	struct mess_gen_thread *th;
	int n;
	int node, want_huge;
	const struct mess_place *place;	/* NULL: all on node */
	size_t array_bytes;
	const struct mess_gen_kernel *k;	/* NULL: idle */
	uint64_t nop;
	atomic_int stop;	/* the running kernel loops end when set */
	int running;
};

/* Traffic moved by the generators since they were started. */
struct mess_gen_snap {
	uint64_t iters;		/* kernel iterations summed over threads */
	double t_ns;
};

int mess_gens_start(struct mess_gens *g, struct mess_topo *topo,
		    const int *cores, int n, size_t array_bytes, int node,
		    int want_huge);
/* The arrays' pages split over nodes (place.h), and where they are. */
int mess_gens_start_placed(struct mess_gens *g, struct mess_topo *topo,
			   const int *cores, int n, size_t array_bytes,
			   const struct mess_place *pl, int want_huge);
void mess_gens_place_count(const struct mess_gens *g, struct mess_place_count *c);
/* Switch every thread to kernel k at nop count (k NULL: idle). */
void mess_gens_set(struct mess_gens *g, const struct mess_gen_kernel *k,
		   uint64_t nop);
/* The same on threads 0 .. nactive - 1 only, the others idle (interfere
 * adds aggressors one at a time on arrays allocated once). */
void mess_gens_set_some(struct mess_gens *g, const struct mess_gen_kernel *k,
			uint64_t nop, int nactive);
void mess_gens_snap(struct mess_gens *g, struct mess_gen_snap *s);
/* Each thread's iterations since the start, into it[0..g->n): its own
 * share of the bandwidth (every thread runs the same kernel). */
void mess_gens_snap_each(struct mess_gens *g, uint64_t *it);
void mess_gens_stop(struct mess_gens *g);
/* Worst huge-page coverage over the generator arrays. */
void mess_gens_hugepages(struct mess_gens *g, enum mess_hp *hp, double *pct);

/* Memory-level bytes per iteration of kernel k (write-allocate
 * accounting: an ordinary store reads the line and writes it back; a
 * non-temporal one only writes), and the read share they make, %. */
double mess_gen_read_bytes(const struct mess_gen_kernel *k);
double mess_gen_write_bytes(const struct mess_gen_kernel *k);
double mess_gen_read_pct(const struct mess_gen_kernel *k);

#endif
