/* SPDX-License-Identifier: MIT */
/*
 * What disturbed a measuring window, read around it and never inside the
 * timed loop.  Per window: the time each measuring thread lost (wall time
 * minus its on-CPU time: with paravirtual steal accounting the kernel
 * leaves steal out of a thread's CPU time, so this covers the hypervisor
 * taking the vCPU, another task taking the core and interrupt storms, to
 * the nanosecond) and the steal ticks of the threads' CPUs (/proc/stat) to
 * say which it was.  Per span of windows (a point): the threads'
 * involuntary context switches and migrations (/proc/self/task/<tid>/).
 *
 * Users: the curves (the chase thread and the generators) and the latency
 * ladder (its pool threads).  The primitive reads below (steal over a list
 * of CPUs, a thread's involuntary switches from its status file) are also
 * absorb's, around each timed run; the CPU's current clock is
 * core/machine/cpufreq.h's.
 */
#ifndef MESS_DISTURB_H
#define MESS_DISTURB_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "core/measure/pool.h"

/* A window is disturbed when a thread lost more than this share of it, or
 * the chase core's clock moved by more than MESS_CLOCK_MOVE_PCT across it. */
#define MESS_LOST_MAX_PCT 2.0
#define MESS_CLOCK_MOVE_PCT 5.0

/* /proc/stat kept open between reads, with the buffer it is read into. */
struct mess_steal {
	int fd;			/* -1: steal unknown (err says why) */
	int err;		/* open's error, or the last read's missing
				 * CPU line; 0 if none */
	char *buf;
};

/* 0 or -ENOMEM; where /proc/stat cannot be opened, fd is -1 and err says
 * why: steal is then unknown and the caller goes on. */
int mess_steal_open(struct mess_steal *s);
void mess_steal_close(struct mess_steal *s);
/* Steal ticks summed over the OS CPUs pu[0 .. n), each CPU counted once;
 * -errno when not open or not read, or the parser's error (kept in err)
 * when a CPU's line is missing. */
int mess_steal_read(struct mess_steal *s, const int *pu, int n, uint64_t *sum);

/* The calling thread's /proc/thread-self/status, kept open: an fd, or
 * -errno. */
int mess_thread_status_open(void);
/* Its nonvoluntary_ctxt_switches, read from the start of fd. */
int mess_thread_nivcsw(int fd, uint64_t *v);

struct mess_dthread {
	clockid_t clock;	/* its CPU-time clock */
	pid_t tid;		/* 0: the calling thread */
	char name[24];		/* "chase", "generator 3": for reasons */
	double t0, c0;		/* at begin: wall and CPU ns */
};

struct mess_disturb {
	int n, cap;
	struct mess_dthread *th;
	int *pu;		/* the OS CPU each thread is pinned to */
	struct mess_steal stat;
	uint64_t steal0;
	int steal_ok;
	int active;		/* threads 0 .. active - 1 in this window */
	uint64_t invol0, migr0;	/* at mess_disturb_span_begin */
	int invol_ok, migr_ok;
};

/* One window's figures. */
struct mess_dwin {
	double wall_ns;
	double lost_pct;	/* the most any thread lost, % of its window */
	int worst;		/* that thread's index */
	double steal_ms;	/* on the threads' CPUs; NAN unknown */
};

/* Per span: involuntary switches and migrations summed over the threads;
 * NAN where the kernel does not say (migrations need SCHED_DEBUG). */
struct mess_dspan {
	double invol, migrations;
};

int mess_disturb_open(struct mess_disturb *d);
void mess_disturb_close(struct mess_disturb *d);
/* The calling thread (pinned to pu), or a pool's threads. */
int mess_disturb_add_self(struct mess_disturb *d, int pu, const char *name);
int mess_disturb_add_pool(struct mess_disturb *d, const struct mess_pool *p,
			  const int *pus, const char *what);
/* A window of the first `active` threads (those meant to run in it: an
 * idle thread loses all its time by design). */
void mess_disturb_begin(struct mess_disturb *d, int active);
void mess_disturb_end(struct mess_disturb *d, struct mess_dwin *w);
void mess_disturb_span_begin(struct mess_disturb *d);
void mess_disturb_span_end(struct mess_disturb *d, struct mess_dspan *s);

#endif
