// SPDX-License-Identifier: MIT
/* Disturbance of measuring windows (core/measure/disturb.h); parsing is lib's
 * (mess/procstat.h), here only the reads. */
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

/* The start of /proc/stat: the cpu lines come first; 1024 CPUs' fit. */
#define STAT_BYTES (128 * 1024)

int mess_disturb_open(struct mess_disturb *d)
{
	memset(d, 0, sizeof(*d));
	d->buf = malloc(STAT_BYTES);
	if (!d->buf)
		return -ENOMEM;
	/* Without /proc/stat steal is unknown (NAN); lost time still says
	 * whether a window was disturbed. */
	d->stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	return 0;
}

void mess_disturb_close(struct mess_disturb *d)
{
	if (d->stat_fd >= 0)
		close(d->stat_fd);
	free(d->buf);
	free(d->th);
	memset(d, 0, sizeof(*d));
	d->stat_fd = -1;
}

static struct mess_dthread *grow(struct mess_disturb *d)
{
	if (d->n == d->cap) {
		int cap = d->cap ? 2 * d->cap : 8;
		struct mess_dthread *t = realloc(d->th, (size_t)cap * sizeof(*t));

		if (!t)
			return NULL;
		d->th = t;
		d->cap = cap;
	}
	memset(&d->th[d->n], 0, sizeof(d->th[0]));
	return &d->th[d->n++];
}

int mess_disturb_add_self(struct mess_disturb *d, int pu, const char *name)
{
	struct mess_dthread *t = grow(d);

	if (!t)
		return -ENOMEM;
	t->clock = CLOCK_THREAD_CPUTIME_ID;
	t->tid = gettid();
	t->pu = pu;
	snprintf(t->name, sizeof(t->name), "%s", name);
	return 0;
}

int mess_disturb_add_pool(struct mess_disturb *d, const struct mess_pool *p,
			  const int *pus, const char *what)
{
	for (int i = 0; i < p->n; i++) {
		struct mess_dthread *t = grow(d);
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
		t->pu = pus[i];
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

/* Steal ticks summed over the threads' CPUs (a CPU counted once). */
static int steal(struct mess_disturb *d, uint64_t *sum)
{
	ssize_t len = 0, r;

	*sum = 0;
	if (d->stat_fd < 0 || lseek(d->stat_fd, 0, SEEK_SET) < 0)
		return -EBADF;
	while (len < STAT_BYTES &&
	       (r = read(d->stat_fd, d->buf + len, STAT_BYTES - (size_t)len)) > 0)
		len += r;
	for (int i = 0; i < d->active; i++) {
		struct mess_cpu_ticks t;
		int seen = 0;

		for (int j = 0; j < i && !seen; j++)
			seen = d->th[j].pu == d->th[i].pu;
		if (seen)
			continue;
		if (mess_procstat_cpu(d->buf, (size_t)len, d->th[i].pu, &t))
			return -EINVAL;
		*sum += t.steal;
	}
	return 0;
}

void mess_disturb_begin(struct mess_disturb *d, int active)
{
	d->active = active < d->n ? active : d->n;
	d->steal_ok = !steal(d, &d->steal0);
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
	w->steal_ms = d->steal_ok && !steal(d, &s1) && s1 >= d->steal0 ?
		      (double)(s1 - d->steal0) * 1000.0 / (double)sysconf(_SC_CLK_TCK) :
		      NAN;
}

/* One key of /proc/self/task/<tid>/<file>; -errno when unknown. */
static int task_value(pid_t tid, const char *file, const char *key,
		      uint64_t *v)
{
	char path[96], buf[8192];
	ssize_t len;
	int fd, err;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", (int)tid, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf));
	err = len < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	return mess_procstatus_u64(buf, (size_t)len, key, v);
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
