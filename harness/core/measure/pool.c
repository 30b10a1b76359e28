// SPDX-License-Identifier: MIT
#include "core/measure/pool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *pool_main(void *arg)
{
	struct mess_pool_thread *t = arg;
	struct mess_pool *p = t->p;
	unsigned seen = 0;

	t->pin_err = mess_topo_bind_core(p->topo, t->core);
	/* Read by others after mess_pool_start's first call (the mutex
	 * orders it). */
	t->ktid = gettid();
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->quit && p->seq == seen)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->quit)
			break;
		seen = p->seq;
		if (t->idx >= p->nactive)
			continue;
		pthread_mutex_unlock(&p->mu);
		t->err = 0;
		p->fn(t, p->arg);
		pthread_mutex_lock(&p->mu);
		if (!--p->pending)
			pthread_cond_signal(&p->done_cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void mess_pool_launch(struct mess_pool *p, int nactive, mess_pool_fn *fn,
		      void *arg)
{
	pthread_mutex_lock(&p->mu);
	p->fn = fn;
	p->arg = arg;
	p->nactive = nactive;
	p->pending = nactive;
	atomic_store(&p->bar_count, 0);
	p->seq++;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

void mess_pool_wait(struct mess_pool *p)
{
	pthread_mutex_lock(&p->mu);
	while (p->pending)
		pthread_cond_wait(&p->done_cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

int mess_pool_call(struct mess_pool *p, int nactive, mess_pool_fn *fn,
		   void *arg)
{
	mess_pool_launch(p, nactive, fn, arg);
	mess_pool_wait(p);
	for (int i = 0; i < nactive; i++)
		if (p->th[i].err)
			return p->th[i].err;
	return 0;
}

void mess_pool_barrier(struct mess_pool_thread *t)
{
	struct mess_pool *p = t->p;
	unsigned gen = atomic_load(&p->bar_gen);

	if (atomic_fetch_add(&p->bar_count, 1) + 1 == (unsigned)p->nactive) {
		atomic_store(&p->bar_count, 0);
		atomic_fetch_add(&p->bar_gen, 1);
	} else {
		while (atomic_load(&p->bar_gen) == gen)
			;
	}
}

/* Whether pinning worked: the threads report it on their first call. */
static void job_noop(struct mess_pool_thread *t, void *arg)
{
}

int mess_pool_start(struct mess_pool *p, struct mess_topo *topo,
		    const int *cores, int n)
{
	int err = 0;

	memset(p, 0, sizeof(*p));
	p->topo = topo;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	pthread_cond_init(&p->done_cv, NULL);
	if (!n)
		return 0;
	p->th = calloc((size_t)n, sizeof(*p->th));
	if (!p->th)
		return -ENOMEM;
	for (int i = 0; i < n && !err; i++) {
		p->th[i].idx = i;
		p->th[i].core = cores ? cores[i] : i;
		p->th[i].p = p;
		err = -pthread_create(&p->th[i].tid, NULL, pool_main, &p->th[i]);
		if (!err)
			p->n++;
	}
	if (!err) {
		/* Every thread has tried to pin itself once it has run. */
		mess_pool_call(p, n, job_noop, NULL);
		for (int i = 0; !err && i < n; i++)
			err = p->th[i].pin_err;
	}
	if (err)
		mess_pool_stop(p);
	return err;
}

void mess_pool_stop(struct mess_pool *p)
{
	if (!p->th)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < p->n; i++)
		pthread_join(p->th[i].tid, NULL);
	free(p->th);
	p->th = NULL;
	p->n = 0;
}
