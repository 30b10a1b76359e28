// SPDX-License-Identifier: MIT
/*
 * One point of `mess sample`: pairs of runs, unsampled then sampled, back
 * to back (the absorption tables' pairing), on the point's threads.  In a
 * sampled run every thread opens its own sampling events (one ring each,
 * with an aux area for SPE) and its counting events, all enabled and
 * disabled around the work alone; a reader thread drains every ring while
 * the work runs, so that a ring filled by a short period is not turned
 * into lost records by the tool itself, and its CPU time is the tool's own
 * cost, reported with the point.  A command (-- CMD) is one process whose
 * threads and children are followed (inherit), from its exec on.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/pmu/pmu.h"
#include "core/pmu/pmu_ring.h"
#include "core/signals.h"
#include "mess/sampling.h"
#include "sample/sweep.h"

/* The reader sleeps in poll() until a ring is a quarter full (the
 * kernel's wakeup_watermark) or an AUX record is written (SPE: at the aux
 * watermark), and at least this often drains anyway. */
#define READER_POLL_MS 50
/* Samples kept per run for the time-binned profile (16 bytes each). */
#define PROFILE_MAX (1u << 22)

struct slot {
	struct mess_ring ring[SAMPLE_MAX_EV];
	int nring;
	struct mess_counter cnt[SAMPLE_MAX_EV];
	int ncnt;
	double t0, t1;
	char why[320];
};

struct tsample {
	uint64_t t;
	int region;
};

/* The drain's context: what every sample adds to the point. */
struct acc {
	const struct sample_ctx *x;
	struct sample_point *p;
	struct sample_decoder dec;
	struct mess_ring *ring;
	uint64_t aux_end;
	struct tsample *prof;
	size_t nprof;
};

struct runarg {
	struct sample_ctx *x;
	struct slot *slots;
	const struct sample_setup *s;
	const struct sample_point *p;
	int sampled;
};

static int level_index(struct sample_point *p, const char *name)
{
	int i;

	for (i = 0; i < p->nlevels; i++)
		if (!strcmp(p->level[i], name))
			return i;
	if (p->nlevels == SAMPLE_NLEVELS)
		return SAMPLE_NLEVELS - 1;	/* the last holds the rest */
	snprintf(p->level[p->nlevels], sizeof(p->level[0]), "%s",
		 p->nlevels == SAMPLE_NLEVELS - 1 ? "other" : name);
	return p->nlevels++;
}

static int lat_bin(uint32_t lat)
{
	int b = lat < 2 ? 0 : 31 - __builtin_clz(lat);

	return b < SAMPLE_LAT_BINS ? b : SAMPLE_LAT_BINS - 1;
}

static void on_rec(const struct sample_rec *r, void *ctx)
{
	struct acc *a = ctx;
	struct sample_point *p = a->p;
	int reg = SAMPLE_REG_NOADDR;

	p->samples++;
	if (r->addr) {
		reg = SAMPLE_REG_OUTSIDE;
		p->with_addr++;
		for (int i = 0; i < a->x->nreg; i++)
			if (r->addr >= a->x->reg[i].lo && r->addr < a->x->reg[i].hi)
				reg = i;
		p->in_region += reg < SAMPLE_REG_OUTSIDE;
	}
	if (r->level) {
		int l = level_index(p, r->level);

		p->with_level++;
		if (r->has_lat) {
			p->with_lat++;
			p->lat[l][lat_bin(r->lat)]++;
		}
	}
	if (a->nprof < PROFILE_MAX && r->time)
		a->prof[a->nprof++] = (struct tsample){ r->time, reg };
}

static void on_sample(const struct mess_perf_sample *s, void *ctx)
{
	sample_decode_sample(&((struct acc *)ctx)->dec, s);
}

/* SPE: the aux bytes a PERF_RECORD_AUX names go to the packet decoder. */
static void on_aux(uint64_t offset, uint64_t size, uint64_t flags, void *ctx)
{
	struct acc *a = ctx;
	const uint8_t *piece[2];
	size_t len[2];
	int n = mess_ring_aux_bytes(a->ring, offset, size, piece, len);

	(void)flags;	/* counted by the walker */
	for (int i = 0; i < n; i++)
		sample_decode_aux(&a->dec, piece[i], len[i]);
	a->aux_end = offset + size;
}

static const struct mess_perf_ops drain_ops = { .sample = on_sample, .aux = on_aux };

static void drain_all(struct slot *slots, int n, struct acc *a)
{
	for (int t = 0; t < n; t++)
		for (int k = 0; k < slots[t].nring; k++) {
			a->ring = &slots[t].ring[k];
			a->aux_end = 0;
			mess_ring_drain(a->ring, &drain_ops, a);
			if (a->aux_end)
				mess_ring_aux_release(a->ring, a->aux_end);
		}
}

struct reader {
	pthread_t tid;
	atomic_int stop;
	int started;
	struct slot *slots;
	int n;
	struct acc *a;
	double cpu;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct pollfd pf[SAMPLE_MAX_THREADS * SAMPLE_MAX_EV];
	double c0 = mess_thread_cpu_ns();
	nfds_t n = 0;

	for (int t = 0; t < r->n; t++)
		for (int k = 0; k < r->slots[t].nring; k++)
			pf[n++] = (struct pollfd){ r->slots[t].ring[k].fd, POLLIN, 0 };
	while (!atomic_load(&r->stop)) {
		poll(pf, n, READER_POLL_MS);
		/* A command's exit hangs the event up: poll no more on it. */
		for (nfds_t i = 0; i < n; i++)
			if (pf[i].revents & (POLLHUP | POLLERR))
				pf[i].fd = -1;
		drain_all(r->slots, r->n, r->a);
	}
	r->cpu = 1e-9 * (mess_thread_cpu_ns() - c0);
	return NULL;
}

static void close_slot(struct slot *sl)
{
	for (int k = 0; k < sl->nring; k++)
		mess_ring_close(&sl->ring[k]);
	for (int k = 0; k < sl->ncnt; k++)
		mess_counter_close(&sl->cnt[k]);
	sl->nring = sl->ncnt = 0;
}

/*
 * Open this thread's events (pid 0 from a pool thread, cpu -1), counting
 * ones disabled until the work starts; or, for a command (task), its
 * events on one CPU: the kernel maps no ring of an inherited event that
 * follows a task on every CPU, so a command gets one ring per CPU, as
 * perf record's, and its counters (on slot 0 only) follow it everywhere.
 */
static int open_slot(struct slot *sl, const struct sample_setup *s, const struct sample_point *p,
		     pid_t pid, int task, int cpu)
{
	int rc;

	for (int k = 0; k < s->ncount && cpu <= 0; k++) {
		rc = task ? mess_counter_open_task(&sl->cnt[k], s->count[k], pid, sl->why,
						   sizeof(sl->why)) :
			    mess_counter_open(&sl->cnt[k], s->count[k], pid, -1, -1, sl->why,
					      sizeof(sl->why));
		if (rc)
			return rc;
		sl->ncnt++;
		if (!task)
			ioctl(sl->cnt[k].fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	for (int k = 0; k < s->nsamp; k++) {
		struct perf_event_attr a = s->samp[k];
		char why[256];

		a.watermark = 1;
		a.wakeup_watermark = p->ring_pages * (uint32_t)sysconf(_SC_PAGESIZE) / 4;
		if (task) {
			a.inherit = 1;
			a.enable_on_exec = 1;
		}
		rc = mess_ring_open(&sl->ring[k], &a, pid, cpu, p->ring_pages,
				    s->aux ? p->aux_pages : 0, why, sizeof(why));
		if (rc)
			return mess_fail(sl->why, sizeof(sl->why), rc, "%s: %s", s->samp_spec[k], why);
		sl->nring++;
	}
	return 0;
}

static void open_fn(struct mess_pool_thread *t, void *arg)
{
	struct runarg *a = arg;

	t->err = open_slot(&a->slots[t->idx], a->s, a->p, 0, 0, -1);
}

static void run_fn(struct mess_pool_thread *t, void *arg)
{
	struct runarg *a = arg;
	struct slot *sl = &a->slots[t->idx];

	mess_pool_barrier(t);
	if (a->sampled) {
		for (int k = 0; k < sl->ncnt; k++) {
			ioctl(sl->cnt[k].fd, PERF_EVENT_IOC_RESET, 0);
			ioctl(sl->cnt[k].fd, PERF_EVENT_IOC_ENABLE, 0);
		}
		for (int k = 0; k < sl->nring; k++)
			mess_ring_enable(&sl->ring[k]);
	}
	sl->t0 = mess_now_ns() * 1e-9;
	sample_work_run(a->x->work, t->idx, a->x->iters);
	sl->t1 = mess_now_ns() * 1e-9;
	if (a->sampled) {
		for (int k = 0; k < sl->nring; k++)
			mess_ring_disable(&sl->ring[k]);
		for (int k = 0; k < sl->ncnt; k++)
			ioctl(sl->cnt[k].fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	t->err = 0;
}

/* The command, stopped before its exec until the events are open. */
static int cmd_run(struct sample_ctx *x, struct slot *sl, int ncpu, const struct sample_setup *s,
		   const struct sample_point *p, int sampled, struct reader *rd, char *why,
		   size_t whylen)
{
	int go[2], st, rc = 0;
	pid_t pid;

	if (pipe(go))
		return -errno;
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(go[0]);
		close(go[1]);
		return rc;
	}
	if (!pid) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execvp(x->cmd[0], x->cmd);
		_exit(127);
	}
	close(go[0]);
	for (int c = 0; sampled && c < ncpu && !rc; c++) {
		rc = open_slot(&sl[c], s, p, pid, 1, c);
		if (rc)
			snprintf(why, whylen, "%s", sl[c].why);
	}
	if (sampled && !rc) {
		rc = -pthread_create(&rd->tid, NULL, reader_main, rd);
		rd->started = !rc;
	}
	sl->t0 = mess_now_ns() * 1e-9;
	/* Without the go, the child reads end of file and exits 126. */
	if (!rc && write(go[1], "g", 1) != 1)
		rc = -EPIPE;
	close(go[1]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	sl->t1 = mess_now_ns() * 1e-9;
	for (int c = 1; c < ncpu; c++)
		sl[c].t0 = sl->t0, sl[c].t1 = sl->t1;
	if (!rc && (!WIFEXITED(st) || WEXITSTATUS(st))) {
		snprintf(why, whylen, "the command %s %s %d", x->cmd[0],
			 WIFEXITED(st) ? "exited" : "was killed by signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		rc = WIFEXITED(st) && WEXITSTATUS(st) == 127 ? -ENOENT : -ECHILD;
	}
	return rc;
}

/* Spread the run's kept samples over SAMPLE_TBINS bins of its span. */
static void bin_profile(struct acc *a)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t i = 0; i < a->nprof; i++) {
		lo = a->prof[i].t < lo ? a->prof[i].t : lo;
		hi = a->prof[i].t > hi ? a->prof[i].t : hi;
	}
	for (size_t i = 0; i < a->nprof; i++) {
		uint64_t b = hi > lo ? (a->prof[i].t - lo) * SAMPLE_TBINS / (hi - lo + 1) : 0;
		a->p->region[b][a->prof[i].region]++;
	}
	a->nprof = 0;
}

/* One run: its time in *t (first start to last end), 0 or -errno. */
static int one_run(struct sample_ctx *x, const struct sample_setup *s, struct sample_point *p,
		   int sampled, struct acc *acc, double *t, char *why, size_t whylen)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int n = !x->cmd ? p->threads : ncpu < SAMPLE_MAX_THREADS ? (int)ncpu : SAMPLE_MAX_THREADS;
	int rc = 0;
	struct slot *slots = calloc((size_t)n, sizeof(*slots));
	struct runarg ra = { x, slots, s, p, sampled };
	struct reader rd = { .slots = slots, .n = n, .a = acc };
	double t0 = 1e300, t1 = 0, c0;

	if (!slots)
		return -ENOMEM;
	if (x->cmd) {
		rc = cmd_run(x, slots, n, s, p, sampled, &rd, why, whylen);
	} else {
		if (sampled) {
			rc = mess_pool_call(&x->pool, n, open_fn, &ra);
			for (int i = 0; rc && i < n; i++)
				if (slots[i].why[0]) {
					snprintf(why, whylen, "%s", slots[i].why);
					break;
				}
			if (!rc)
				rc = -pthread_create(&rd.tid, NULL, reader_main, &rd);
			rd.started = !rc;
		}
		if (!rc)
			rc = mess_pool_call(&x->pool, n, run_fn, &ra);
	}
	if (rd.started) {
		atomic_store(&rd.stop, 1);
		pthread_join(rd.tid, NULL);
		c0 = mess_thread_cpu_ns();
		drain_all(slots, n, acc);	/* what the last nap left */
		p->tool_cpu_s += rd.cpu + 1e-9 * (mess_thread_cpu_ns() - c0);
	}
	for (int i = 0; i < n; i++) {
		t0 = slots[i].t0 < t0 ? slots[i].t0 : t0;
		t1 = slots[i].t1 > t1 ? slots[i].t1 : t1;
	}
	*t = t1 - t0;
	if (sampled && !rc) {
		double sum = 0;
		int counted = 1;

		for (int i = 0; i < n; i++) {
			for (int k = 0; k < slots[i].nring; k++) {
				struct mess_perf_stats *st = &slots[i].ring[k].st;

				p->lost += st->lost + st->lost_samples;
				p->throttled += st->throttle;
				p->collisions += st->aux_collision;
				p->truncated += st->aux_truncated;
				p->undecodable += st->malformed;
			}
			for (int k = 0; k < slots[i].ncnt; k++) {
				struct mess_count c;
				double v, frac;

				/* A counter that did not count is no figure, never 0. */
				if (mess_counter_read(&slots[i].cnt[k], &c) ||
				    mess_count_scale(&c, &v, &frac) >= MESS_COUNT_NOT_RUN)
					counted = 0;
				else
					sum += v;
			}
		}
		p->counted = counted && !isnan(p->counted) ? p->counted + sum : NAN;
		bin_profile(acc);
	}
	for (int i = 0; i < n; i++)
		close_slot(&slots[i]);
	free(slots);
	return rc;
}

int sample_measure(struct sample_ctx *x, struct sample_point *p, char *why, size_t whylen)
{
	double base[100], with[100], runs = 0;
	struct sample_setup s;
	struct acc acc = { .x = x, .p = p };
	unsigned pairs = (unsigned)x->o->pairs;
	int rc;

	x->cfg.period = p->period;
	rc = sample_backend_setup(x->b, &x->cfg, &s, why, whylen);
	if (rc)
		return rc;
	p->period_eff = s.period_eff;
	p->counted = 0;
	acc.prof = malloc(PROFILE_MAX * sizeof(*acc.prof));
	if (!acc.prof || sample_decoder_init(&acc.dec, x->b, on_rec, &acc)) {
		free(acc.prof);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < pairs && !rc; i++) {
		if (mess_interrupted) {
			rc = -EINTR;
			break;
		}
		rc = one_run(x, &s, p, 0, &acc, &base[i], why, whylen);
		if (!rc)
			rc = one_run(x, &s, p, 1, &acc, &with[i], why, whylen);
		runs += rc ? 0 : with[i];
	}
	sample_decoder_finish(&acc.dec);
	p->undecodable += acc.dec.undecodable;
	free(acc.prof);
	if (rc)
		return mess_interrupted ? -EINTR : rc;
	p->accuracy = isnan(p->counted) ? NAN :
		      mess_sampling_accuracy(p->counted, p->samples, p->period_eff);
	p->tool_share = runs > 0 ? p->tool_cpu_s / runs : NAN;
	{
		double tmp[100];

		memcpy(tmp, with, pairs * sizeof(double));
		for (unsigned i = 1; i < pairs; i++)	/* the median sampled run */
			for (unsigned j = i; j > 0 && tmp[j - 1] > tmp[j]; j--) {
				double t = tmp[j];

				tmp[j] = tmp[j - 1];
				tmp[j - 1] = t;
			}
		p->run_s = pairs % 2 ? tmp[pairs / 2] : (tmp[pairs / 2 - 1] + tmp[pairs / 2]) / 2;
	}
	return mess_sampling_overhead(base, with, pairs, &p->overhead, &p->spread);
}

int sample_calibrate(struct sample_ctx *x, double seconds)
{
	double t0, t;
	uint64_t it = 1 << 16;

	if (x->cmd)
		return 0;
	/* Doubling until a run lasts 20 ms, then scaled to the target. */
	for (;;) {
		t0 = mess_now_ns();
		sample_work_run(x->work, 0, it);
		t = 1e-9 * (mess_now_ns() - t0);
		if (t > 0.02 || it > (1ULL << 40))
			break;
		it *= 2;
	}
	x->iters = (uint64_t)((double)it * seconds / t) + 1;
	return 0;
}
