// SPDX-License-Identifier: MIT
/* Disturbance of measuring windows and runs (core/measure/disturb.h);
 * parsing is lib's (mess/procstat.h), here only the reads. */
#include "core/measure/disturb.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "mess/procstat.h"

/* The start of /proc/stat: the cpu lines come first, the long intr line
 * after them; 1024 CPUs' lines fit. */
#define STAT_BYTES (128 * 1024)

/* Up to len bytes of fd from its start (a /proc file read again): the
 * count, or -errno when it cannot be rewound. */
static ssize_t read_at0(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	while (n < len && (r = read(fd, buf + n, len - n)) > 0)
		n += (size_t)r;
	return (ssize_t)n;
}

/* One key of a /proc status-like file, read from its start into buf. */
static int proc_u64(int fd, char *buf, size_t cap, const char *key,
		    uint64_t *v)
{
	ssize_t len = read_at0(fd, buf, cap);

	if (len < 0)
		return (int)len;
	return mess_procstatus_u64(buf, (size_t)len, key, v);
}

int mess_steal_open(struct mess_steal *s)
{
	s->fd = -1;
	s->err = 0;
	s->buf = malloc(STAT_BYTES);
	if (!s->buf)
		return -ENOMEM;
	s->fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (s->fd < 0)
		s->err = -errno;
	return 0;
}

void mess_steal_close(struct mess_steal *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->buf);
	s->buf = NULL;
}

int mess_steal_read(struct mess_steal *s, const int *pu, int n, uint64_t *sum)
{
	ssize_t len;

	*sum = 0;
	if (s->fd < 0)
		return s->err ? s->err : -EBADF;
	len = read_at0(s->fd, s->buf, STAT_BYTES);
	if (len < 0)
		return (int)len;
	for (int i = 0; i < n; i++) {
		struct mess_cpu_ticks t;
		int seen = 0, err;

		/* Threads may share a CPU: its steal is counted once. */
		for (int j = 0; j < i && !seen; j++)
			seen = pu[j] == pu[i];
		if (seen)
			continue;
		err = mess_procstat_cpu(s->buf, (size_t)len, pu[i], &t);
		if (err) {
			s->err = err;
			return err;
		}
		*sum += t.steal;
	}
	return 0;
}

int mess_thread_status_open(void)
{
	int fd = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int mess_thread_nivcsw(int fd, uint64_t *v)
{
	char buf[4096];

	if (fd < 0)
		return -EBADF;
	return proc_u64(fd, buf, sizeof(buf), "nonvoluntary_ctxt_switches", v);
}

int mess_disturb_open(struct mess_disturb *d)
{
	memset(d, 0, sizeof(*d));
	/* Without /proc/stat steal is unknown (NAN); lost time still says
	 * whether a window was disturbed. */
	return mess_steal_open(&d->stat);
}

void mess_disturb_close(struct mess_disturb *d)
{
	mess_steal_close(&d->stat);
	free(d->th);
	free(d->pu);
	memset(d, 0, sizeof(*d));
	d->stat.fd = -1;
}

/* A new thread's slot; *pu its CPU's, beside it. */
static struct mess_dthread *grow(struct mess_disturb *d, int **pu)
{
	if (d->n == d->cap) {
		int cap = d->cap ? 2 * d->cap : 8;
		struct mess_dthread *t = realloc(d->th, (size_t)cap * sizeof(*t));
		int *p;

		if (!t)
			return NULL;
		d->th = t;
		p = realloc(d->pu, (size_t)cap * sizeof(*p));
		if (!p)
			return NULL;
		d->pu = p;
		d->cap = cap;
	}
	memset(&d->th[d->n], 0, sizeof(d->th[0]));
	*pu = &d->pu[d->n];
	return &d->th[d->n++];
}

int mess_disturb_add_self(struct mess_disturb *d, int pu, const char *name)
{
	int *tpu;
	struct mess_dthread *t = grow(d, &tpu);

	if (!t)
		return -ENOMEM;
	t->clock = CLOCK_THREAD_CPUTIME_ID;
	t->tid = gettid();
	*tpu = pu;
	snprintf(t->name, sizeof(t->name), "%s", name);
	return 0;
}

int mess_disturb_add_pool(struct mess_disturb *d, const struct mess_pool *p,
			  const int *pus, const char *what)
{
	for (int i = 0; i < p->n; i++) {
		int *tpu;
		struct mess_dthread *t = grow(d, &tpu);
		int err;

		if (!t)
			return -ENOMEM;
		/* Another thread's CPU clock: the kernel brings a running
		 * thread's runtime up to date when it is read. */
		err = -pthread_getcpuclockid(p->th[i].tid, &t->clock);
		if (err) {
			d->n--;
			return err;
		}
		t->tid = p->th[i].ktid;
		*tpu = pus[i];
		snprintf(t->name, sizeof(t->name), "%s %d", what, i);
	}
	return 0;
}

static double cpu_ns(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts))
		return NAN;
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void mess_disturb_begin(struct mess_disturb *d, int active)
{
	d->active = active < d->n ? active : d->n;
	d->steal_ok = !mess_steal_read(&d->stat, d->pu, d->active, &d->steal0);
	/* Each thread's wall time read beside its own CPU time: with many
	 * threads the reads take microseconds each. */
	for (int i = 0; i < d->active; i++) {
		d->th[i].t0 = mess_now_ns();
		d->th[i].c0 = cpu_ns(d->th[i].clock);
	}
}

void mess_disturb_end(struct mess_disturb *d, struct mess_dwin *w)
{
	uint64_t s1;
	double wall = 0;

	w->lost_pct = 0;
	w->worst = -1;
	for (int i = 0; i < d->active; i++) {
		struct mess_dthread *t = &d->th[i];
		double c1 = cpu_ns(t->clock), t1 = mess_now_ns();
		double lost = 100 * (1 - (c1 - t->c0) / (t1 - t->t0));

		wall = fmax(wall, t1 - t->t0);
		if (isfinite(lost) && (w->worst < 0 || lost > w->lost_pct)) {
			w->lost_pct = lost;
			w->worst = i;
		}
	}
	if (w->lost_pct < 0)
		w->lost_pct = 0;	/* clock granularity, not time gained */
	w->wall_ns = wall;
	w->steal_ms = d->steal_ok &&
		      !mess_steal_read(&d->stat, d->pu, d->active, &s1) &&
		      s1 >= d->steal0 ?
		      (double)(s1 - d->steal0) * 1000.0 / (double)sysconf(_SC_CLK_TCK) :
		      NAN;
}

/* One key of /proc/self/task/<tid>/<file>; -errno when unknown. */
static int task_value(pid_t tid, const char *file, const char *key,
		      uint64_t *v)
{
	char path[96], buf[8192];
	int fd, err;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", (int)tid, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = proc_u64(fd, buf, sizeof(buf), key, v);
	close(fd);
	return err;
}

static void span_read(struct mess_disturb *d, uint64_t *invol, int *iok,
		      uint64_t *migr, int *mok)
{
	*invol = *migr = 0;
	*iok = *mok = 1;
	for (int i = 0; i < d->n; i++) {
		uint64_t v;

		if (*iok && !task_value(d->th[i].tid, "status",
					"nonvoluntary_ctxt_switches", &v))
			*invol += v;
		else
			*iok = 0;
		if (*mok && !task_value(d->th[i].tid, "sched",
					"se.nr_migrations", &v))
			*migr += v;
		else
			*mok = 0;
	}
}

void mess_disturb_span_begin(struct mess_disturb *d)
{
	span_read(d, &d->invol0, &d->invol_ok, &d->migr0, &d->migr_ok);
}

void mess_disturb_span_end(struct mess_disturb *d, struct mess_dspan *s)
{
	uint64_t invol, migr;
	int iok, mok;

	span_read(d, &invol, &iok, &migr, &mok);
	s->invol = iok && d->invol_ok && invol >= d->invol0 ?
		   (double)(invol - d->invol0) : NAN;
	s->migrations = mok && d->migr_ok && migr >= d->migr0 ?
			(double)(migr - d->migr0) : NAN;
}
