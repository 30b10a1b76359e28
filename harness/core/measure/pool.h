/* SPDX-License-Identifier: MIT */
/*
 * The pinned thread pool every measuring command runs on: one thread per
 * core, pinned once (hwloc) and kept, so that data a thread first-touches
 * stays on its core's node and no measurement pays for thread creation.
 * A call runs fn on threads 0 .. nactive - 1; threads that must start a
 * timed region together meet at mess_pool_barrier first.
 *
 * Users: the traffic generators (launched, left running, stopped), the
 * absorption rows and the latency ladder (called and waited for).
 */
#ifndef MESS_POOL_H
#define MESS_POOL_H

#include <pthread.h>
#include <sys/types.h>
#include <stdatomic.h>

#include "core/machine/topo.h"

struct mess_pool;

struct mess_pool_thread {
	int idx;		/* 0 .. n - 1 */
	int core;		/* hwloc logical core it is pinned to */
	int err;		/* the last fn's result, 0 or -errno */
	int pin_err;		/* pinning's, at start */
	struct mess_pool *p;
	pthread_t tid;
	pid_t ktid;		/* the kernel's id, for /proc (set at start) */
};

typedef void mess_pool_fn(struct mess_pool_thread *t, void *arg);

struct mess_pool {
	int n;
	struct mess_pool_thread *th;
	struct mess_topo *topo;
	pthread_mutex_t mu;
	pthread_cond_t cv, done_cv;
	unsigned seq;
	int pending, quit, nactive;
	mess_pool_fn *fn;
	void *arg;
	atomic_uint bar_count, bar_gen;
};

/*
 * n threads, thread i pinned to cores[i] (cores NULL: core i).  0, or
 * -errno with no thread left running (a core that cannot be pinned).
 */
int mess_pool_start(struct mess_pool *p, struct mess_topo *topo,
		    const int *cores, int n);
/* Start fn on threads 0 .. nactive - 1 and return at once. */
void mess_pool_launch(struct mess_pool *p, int nactive, mess_pool_fn *fn,
		      void *arg);
/* Wait until the launched fn has returned on every active thread. */
void mess_pool_wait(struct mess_pool *p);
/* Launch and wait; the first error of the active threads, or 0. */
int mess_pool_call(struct mess_pool *p, int nactive, mess_pool_fn *fn,
		   void *arg);
/*
 * A spinning barrier of the active threads: a sleeping one would start
 * threads tens of microseconds apart.
 */
void mess_pool_barrier(struct mess_pool_thread *t);
void mess_pool_stop(struct mess_pool *p);

#endif
