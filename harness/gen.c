// SPDX-License-Identifier: MIT
#include "gen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Progress counters of different threads must not share a cache line, or
 * publishing progress would itself generate coherence traffic. */
struct mess_gen_thread {
	_Alignas(128) atomic_uint_fast64_t iters;
	char pad0[128 - sizeof(atomic_uint_fast64_t)];
	struct mess_gens *g;
	pthread_t tid;
	int core;
	int node;
	int want_huge;
	int err;
	struct mess_buf ld, st;
	uint64_t cksum;
};

double mess_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

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

static void run_kernel(struct mess_gen_thread *t, unsigned seq,
		       const struct mess_gen_kernel *k, uint64_t nop)
{
	struct mess_gens *g = t->g;
	uint64_t chunk = chunk_iters(k, nop);
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
	while (atomic_load_explicit(&g->run_seq, memory_order_relaxed) == seq) {
		k->fn(ld + i * ldstep, st + i * ststep, chunk, nop,
		      0x5a5a5a5a5a5a5a5aULL, &t->cksum);
		done += chunk;
		atomic_store_explicit(&t->iters, done, memory_order_relaxed);
		if (++i == nchunks)
			i = 0;
	}
}

static void *gen_main(void *arg)
{
	struct mess_gen_thread *t = arg;
	struct mess_gens *g = t->g;
	unsigned seen = 0;

	t->err = mess_topo_bind_core(g->topo, t->core);
	if (!t->err)
		t->err = mess_buf_alloc(&t->ld, g->array_bytes, t->node,
					t->want_huge);
	if (!t->err)
		t->err = mess_buf_alloc(&t->st, g->array_bytes, t->node,
					t->want_huge);
	pthread_mutex_lock(&g->mu);
	g->ready++;
	pthread_cond_broadcast(&g->cv);
	for (;;) {
		while (!g->quit && g->cmd_seq == seen)
			pthread_cond_wait(&g->cv, &g->mu);
		if (g->quit)
			break;
		seen = g->cmd_seq;
		const struct mess_gen_kernel *k = g->k;
		uint64_t nop = g->nop;

		pthread_mutex_unlock(&g->mu);
		if (k && !t->err)
			run_kernel(t, seen, k, nop);
		pthread_mutex_lock(&g->mu);
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

int mess_gens_start(struct mess_gens *g, struct mess_topo *topo,
		    const int *cores, int n, size_t array_bytes, int node,
		    int want_huge)
{
	int err = 0;

	memset(g, 0, sizeof(*g));
	g->topo = topo;
	g->array_bytes = array_bytes;
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	if (!n)
		return 0;
	g->th = aligned_alloc(128, sizeof(*g->th) * (size_t)n);
	if (!g->th)
		return -ENOMEM;
	memset(g->th, 0, sizeof(*g->th) * (size_t)n);
	for (int i = 0; i < n; i++) {
		struct mess_gen_thread *t = &g->th[i];

		t->g = g;
		t->core = cores[i];
		t->node = node;
		t->want_huge = want_huge;
		err = -pthread_create(&t->tid, NULL, gen_main, t);
		if (err)
			break;
		g->n++;
	}
	/* Wait until every thread has its arrays faulted in. */
	pthread_mutex_lock(&g->mu);
	while (g->ready < g->n)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
	for (int i = 0; !err && i < g->n; i++)
		err = g->th[i].err;
	if (err)
		mess_gens_stop(g);
	return err;
}

void mess_gens_set(struct mess_gens *g, const struct mess_gen_kernel *k,
		   uint64_t nop)
{
	pthread_mutex_lock(&g->mu);
	g->k = k;
	g->nop = nop;
	g->cmd_seq++;
	/* Running threads leave their loop after the current call. */
	atomic_store(&g->run_seq, g->cmd_seq);
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
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

void mess_gens_stop(struct mess_gens *g)
{
	pthread_mutex_lock(&g->mu);
	g->quit = 1;
	g->cmd_seq++;
	atomic_store(&g->run_seq, g->cmd_seq);
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	for (int i = 0; i < g->n; i++) {
		pthread_join(g->th[i].tid, NULL);
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
