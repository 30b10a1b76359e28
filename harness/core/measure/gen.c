// SPDX-License-Identifier: MIT
#include "core/measure/gen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

/* Progress counters of different threads must not share a cache line, or
 * publishing progress would itself generate coherence traffic. */
struct mess_gen_thread {
	_Alignas(128) atomic_uint_fast64_t iters;
	char pad0[128 - sizeof(atomic_uint_fast64_t)];
	struct mess_buf ld, st;
	uint64_t cksum;
};

/*
 * Iterations per kernel call: about 64 KiB of traffic at full pressure, and
 * fewer as the nop spin grows, so progress stays fine-grained (the
 * accounting error is at most one call per thread per window edge) while
 * the call overhead stays well under 1 % of a call.
 */
static uint64_t chunk_iters(const struct mess_gen_kernel *k, uint64_t nop)
{
	uint64_t per = (uint64_t)k->bytes_loaded + k->bytes_stored;
	uint64_t c = (64u << 10) / (per ? per : 1);

	c = c * 32 / (32 + nop);
	return c ? c : 1;
}

/* On the pool: the selected kernel until mess_gens_set changes it. */
static void job_run(struct mess_pool_thread *pt, void *arg)
{
	struct mess_gens *g = arg;
	struct mess_gen_thread *t = &g->th[pt->idx];
	const struct mess_gen_kernel *k = g->k;
	uint64_t nop = g->nop, chunk = chunk_iters(k, nop);
	size_t ldstep = (size_t)k->bytes_loaded * chunk;
	size_t ststep = (size_t)k->bytes_stored * chunk;
	size_t nchunks = SIZE_MAX;
	uint64_t done = atomic_load_explicit(&t->iters, memory_order_relaxed);
	char *ld = t->ld.p, *st = t->st.p;
	size_t i = 0;

	if (ldstep)
		nchunks = t->ld.len / ldstep;
	if (ststep && t->st.len / ststep < nchunks)
		nchunks = t->st.len / ststep;
	if (!nchunks)
		nchunks = 1;	/* arrays are sized far above one chunk */
	while (!atomic_load_explicit(&g->stop, memory_order_relaxed)) {
		k->fn(ld + i * ldstep, st + i * ststep, chunk, nop,
		      0x5a5a5a5a5a5a5a5aULL, &t->cksum);
		done += chunk;
		atomic_store_explicit(&t->iters, done, memory_order_relaxed);
		if (++i == nchunks)
			i = 0;
	}
}

/* On the pool: each thread first-touches its own arrays on its node. */
static void job_alloc(struct mess_pool_thread *pt, void *arg)
{
	struct mess_gens *g = arg;
	struct mess_gen_thread *t = &g->th[pt->idx];

	if (g->place) {
		pt->err = mess_buf_alloc_placed(&t->ld, g->array_bytes, g->place,
						g->want_huge);
		if (!pt->err)
			pt->err = mess_buf_alloc_placed(&t->st, g->array_bytes,
							g->place, g->want_huge);
		return;
	}
	pt->err = mess_buf_alloc(&t->ld, g->array_bytes, g->node, g->want_huge);
	if (!pt->err)
		pt->err = mess_buf_alloc(&t->st, g->array_bytes, g->node,
					 g->want_huge);
}

static int start(struct mess_gens *g, struct mess_topo *topo, const int *cores,
		 int n, size_t array_bytes, int node, const struct mess_place *pl,
		 int want_huge)
{
	int err;

	memset(g, 0, sizeof(*g));
	g->array_bytes = array_bytes;
	g->node = node;
	g->place = pl;
	g->want_huge = want_huge;
	if (!n)
		return 0;
	g->th = aligned_alloc(128, sizeof(*g->th) * (size_t)n);
	if (!g->th)
		return -ENOMEM;
	memset(g->th, 0, sizeof(*g->th) * (size_t)n);
	g->n = n;
	err = mess_pool_start(&g->pool, topo, cores, n);
	if (!err)
		err = mess_pool_call(&g->pool, n, job_alloc, g);
	if (err)
		mess_gens_stop(g);
	return err;
}

int mess_gens_start(struct mess_gens *g, struct mess_topo *topo,
		    const int *cores, int n, size_t array_bytes, int node,
		    int want_huge)
{
	return start(g, topo, cores, n, array_bytes, node, NULL, want_huge);
}

int mess_gens_start_placed(struct mess_gens *g, struct mess_topo *topo,
			   const int *cores, int n, size_t array_bytes,
			   const struct mess_place *pl, int want_huge)
{
	return start(g, topo, cores, n, array_bytes, -1, pl, want_huge);
}

void mess_gens_place_count(const struct mess_gens *g, struct mess_place_count *c)
{
	for (int i = 0; i < g->n; i++) {
		mess_place_count(g->place, g->th[i].ld.p, g->th[i].ld.len, c);
		mess_place_count(g->place, g->th[i].st.p, g->th[i].st.len, c);
	}
}

void mess_gens_set(struct mess_gens *g, const struct mess_gen_kernel *k,
		   uint64_t nop)
{
	mess_gens_set_some(g, k, nop, g->n);
}

void mess_gens_set_some(struct mess_gens *g, const struct mess_gen_kernel *k,
			uint64_t nop, int nactive)
{
	if (!g->n)
		return;
	/* Running threads leave their loop after the current call. */
	if (g->running) {
		atomic_store(&g->stop, 1);
		mess_pool_wait(&g->pool);
		g->running = 0;
	}
	if (!k || nactive <= 0)
		return;
	g->k = k;
	g->nop = nop;
	atomic_store(&g->stop, 0);
	mess_pool_launch(&g->pool, nactive < g->n ? nactive : g->n, job_run, g);
	g->running = 1;
}

void mess_gens_snap(struct mess_gens *g, struct mess_gen_snap *s)
{
	uint64_t sum = 0;

	for (int i = 0; i < g->n; i++)
		sum += atomic_load_explicit(&g->th[i].iters,
					    memory_order_relaxed);
	s->iters = sum;
	s->t_ns = mess_now_ns();
}

void mess_gens_snap_each(struct mess_gens *g, uint64_t *it)
{
	for (int i = 0; i < g->n; i++)
		it[i] = atomic_load_explicit(&g->th[i].iters,
					     memory_order_relaxed);
}

void mess_gens_stop(struct mess_gens *g)
{
	mess_gens_set(g, NULL, 0);
	mess_pool_stop(&g->pool);
	for (int i = 0; i < g->n && g->th; i++) {
		mess_buf_free(&g->th[i].ld);
		mess_buf_free(&g->th[i].st);
	}
	free(g->th);
	g->th = NULL;
	g->n = 0;
}

void mess_gens_hugepages(struct mess_gens *g, enum mess_hp *hp, double *pct)
{
	*hp = MESS_HP_HUGETLB;
	*pct = 100.0;
	for (int i = 0; i < g->n; i++) {
		const struct mess_buf *b[2] = { &g->th[i].ld, &g->th[i].st };

		for (int j = 0; j < 2; j++) {
			if (b[j]->hp < *hp)
				*hp = b[j]->hp;
			if (b[j]->huge_pct < *pct)
				*pct = b[j]->huge_pct;
		}
	}
	if (!g->n) {
		*hp = MESS_HP_NONE;
		*pct = 0;
	}
}

/* Memory-level bytes per generator iteration (write-allocate accounting:
 * an ordinary store reads the line and writes it back; non-temporal
 * stores only write). */
double mess_gen_read_bytes(const struct mess_gen_kernel *k)
{
	return k->bytes_loaded + (k->nontemporal ? 0.0 : k->bytes_stored);
}

double mess_gen_write_bytes(const struct mess_gen_kernel *k)
{
	return k->bytes_stored;
}

double mess_gen_read_pct(const struct mess_gen_kernel *k)
{
	double rd = mess_gen_read_bytes(k), wr = mess_gen_write_bytes(k);

	return rd + wr > 0 ? 100.0 * rd / (rd + wr) : 100.0;
}
