// SPDX-License-Identifier: MIT
/*
 * `mess absorb`'s timed runs: the pinned pool and each thread's noise
 * state, one run of a kernel timed on every thread, and what disturbed it
 * (steal time, preemption) or counted it (instructions and cycles, where
 * the core PMU has them).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "absorb/absorb.h"
#include "core/pmu/corectr.h"
#include "core/clock.h"
#include "core/machine/cpufreq.h"
#include "core/measure/disturb.h"
#include "core/signals.h"
#include "core/measure/timer.h"


static void job_noise_init(struct mess_pool_thread *pt, void *arg)
{
	const struct mess_absorb *a = arg;
	struct worker *t = &a->wk[pt->idx];

	t->status_fd = mess_thread_status_open();
	/* This thread's own: a counter follows the thread that opened it.
	 * Without a core PMU (a VM) the points say nan, and meta.json why. */
	if (mess_corectr_open(&t->cc) && pt->idx == 0)
		snprintf(t->why, sizeof(t->why), "%s", t->cc.status);
	for (int m = 0; m < MESS_NOISE_NMODES; m++)
		if (m == MESS_NOISE_MODE_none || a->t.mode_on[m])
			t->nz_err[m] = mess_noise_init(&t->nz[m], m, 0,
						       a->t.noise_bytes);
}

int absorb_pool_start(struct mess_absorb *a, int n)
{
	struct mess_pool *p = &a->pool;
	int err;

	a->wk = aligned_alloc(_Alignof(struct worker), sizeof(*a->wk) * (size_t)n);
	if (!a->wk)
		return -ENOMEM;
	memset(a->wk, 0, sizeof(*a->wk) * (size_t)n);
	err = mess_pool_start(p, &a->topo, NULL, n);
	if (err) {
		fprintf(stderr, "mess: cannot pin a thread: %s\n", strerror(-err));
		return err;
	}
	/* Each thread's noise buffer is first touched by that thread. */
	mess_pool_call(p, n, job_noise_init, a);
	snprintf(a->t.counters_why, sizeof(a->t.counters_why), "%s", a->wk[0].why);
	/* Huge pages are best effort: without them every memory_ld64 load
	 * may add a page walk, so what was obtained goes to meta.json. */
	a->t.noise_huge_pct = NAN;
	for (int i = 0; i < n; i++) {
		const struct mess_noise *nz = &a->wk[i].nz[MESS_NOISE_MODE_memory_ld64];

		if (a->t.mode_on[MESS_NOISE_MODE_memory_ld64] &&
		    !a->wk[i].nz_err[MESS_NOISE_MODE_memory_ld64])
			a->t.noise_huge_pct = fmin(a->t.noise_huge_pct,
				mess_thp_pct(nz->mem_lo, (size_t)(nz->mem_hi - nz->mem_lo)));
	}
	for (int m = 0; m < MESS_NOISE_NMODES; m++)
		for (int i = 0; i < n; i++) {
			err = a->wk[i].nz_err[m];
			if (!err || a->t.mode_skip[m])
				continue;
			if (m == MESS_NOISE_MODE_none)
				return err;
			snprintf(a->t.mode_why[m], sizeof(a->t.mode_why[m]),
				 "its noise state cannot be set up on core %d: %s",
				 i, strerror(-err));
			a->t.mode_skip[m] = a->t.mode_why[m];
			fprintf(stderr, "absorb: mode %s skipped: %s\n",
				mess_noise_mode_name(m), a->t.mode_skip[m]);
		}
	return 0;
}

struct state_job {
	struct mess_absorb *a;
	struct mess_hoststate_probe *p;
	double tick_ns;		/* > 0: open */
};

static void job_state(struct mess_pool_thread *pt, void *arg)
{
	struct state_job *j = arg;
	struct mess_absorb *a = j->a;
	uint64_t l1, l2;

	if (!(j->tick_ns > 0)) {
		mess_hoststate_probe(&a->hs, j->p);
		return;
	}
	mess_topo_l1_l2(&a->topo, pt->core, &l1, &l2);
	/* Short: a cost of 3 x 2000 batches beside the windows' own. */
	pt->err = mess_hoststate_open(&a->hs, j->tick_ns, 1, a->topo.line_bytes,
				      l1, l2, 1, 3, 2000);
}

void absorb_host_open(struct mess_absorb *a)
{
	struct mess_timer tm;
	struct state_job j = { .a = a };
	int err = mess_timer_open(&tm);

	a->t.state_l2_ref_ns = a->t.state_cost_ns = NAN;
	if (err) {
		snprintf(a->t.state_why, sizeof(a->t.state_why),
			 "the timer %s did not tick", tm.name ? tm.name : "");
		return;
	}
	j.tick_ns = 1e9 / tm.hz;
	err = mess_pool_call(&a->pool, 1, job_state, &j);
	if (err) {
		snprintf(a->t.state_why, sizeof(a->t.state_why),
			 "the probes could not be set up: %s", strerror(-err));
		return;
	}
	a->hs_ok = 1;
	a->t.state_l2_ref_ns = a->hs.nl2s ? a->hs.l2s[0] : NAN;
	a->t.state_cost_ns = a->hs.costs[0];
	if (!a->hs.l2_lines)
		snprintf(a->t.state_why, sizeof(a->t.state_why),
			 "no L2-resident chain (the L2 unknown, or under four times the L1): the fixed cost's probe only");
}

void absorb_host_probe(struct mess_absorb *a, struct mess_hoststate_probe *p)
{
	struct state_job j = { .a = a, .p = p };

	*p = (struct mess_hoststate_probe){ NAN, NAN };
	if (!a->hs_ok)
		return;
	mess_pool_call(&a->pool, 1, job_state, &j);
	a->t.state_probes++;
}

void absorb_pool_stop(struct mess_absorb *a)
{
	mess_pool_stop(&a->pool);
	for (int i = 0; a->wk && i < a->topo.ncores; i++) {
		for (int m = 0; m < MESS_NOISE_NMODES; m++)
			mess_noise_free(&a->wk[i].nz[m]);
		if (a->wk[i].status_fd >= 0)
			close(a->wk[i].status_fd);
		mess_corectr_close(&a->wk[i].cc);
	}
	free(a->wk);
	a->wk = NULL;
	mess_hoststate_close(&a->hs);
	a->hs_ok = 0;
}

/* ---- timing ---- */


/* A run in calls of about this long (the first an eighth of the run):
 * Ctrl-C is noticed within a slice even where heavy noise makes one run
 * last minutes.  A call costs nanoseconds next to it. */
#define SLICES 8
#define SLICE_NS 100e6

static void job_timed(struct mess_pool_thread *pt, void *arg)
{
	const struct timed *j = arg;
	struct worker *t = &j->wk[pt->idx];
	uint64_t left = j->iters, slice = j->iters / SLICES + 1, done = 0;
	double t0, c0;

	t->cs_err = t->status_fd < 0 ? t->status_fd :
		    mess_thread_nivcsw(t->status_fd, &t->cs0);
	if (t->cc.set)
		mess_corectr_snap(&t->cc, &t->c0);
	mess_pool_barrier(pt);
	t0 = mess_now_ns();
	c0 = mess_thread_cpu_ns();
	if (j->phase >= 0) {
		done = mess_wl_phase(j->w, pt->idx, (unsigned)j->phase, j->iters);
	} else {
		while (left && !mess_interrupted) {
			uint64_t n = left < slice ? left : slice;
			double s0 = mess_now_ns(), el;

			done += mess_wl_run(j->w, pt->idx, j->m, &t->nz[j->m], n);
			left -= n;
			/* Slices of about SLICE_NS whatever the noise makes an
			 * iteration cost, so Ctrl-C is noticed within one. */
			el = mess_now_ns() - s0;
			if (el > 0)
				slice = (uint64_t)((double)n * SLICE_NS / el) + 1;
		}
	}
	t->elapsed = mess_now_ns() - t0;
	t->cpu = mess_thread_cpu_ns() - c0;
	t->done = done;
	if (t->cc.set)
		mess_corectr_snap(&t->cc, &t->c1);
	if (!t->cs_err)
		t->cs_err = mess_thread_nivcsw(t->status_fd, &t->cs1);
}

/* A preempted thread is a disturbed run when it lost more than this share
 * of the run's wall time (wall - its CPU time): a switch to a kernel
 * thread for microseconds is not worth a pair, one for milliseconds is.
 * Half of 1 %, below any threshold worth asking for. */
#define ABSORB_LOST_REL 0.005


/* ns per iteration of the slowest thread; *elapsed its wall time; *o
 * what disturbed it (NULL: not looked at). */
double absorb_timed_run(struct mess_absorb *a, int cores, struct timed *j,
			double *elapsed, struct run_obs *o)
{
	double worst = 0, el = 0;
	uint64_t st0 = 0, st1 = 0;
	int serr = 0;

	j->wk = a->wk;
	if (o)
		serr = mess_steal_read(&a->dist, a->t.core_pu, cores, &st0);
	mess_pool_call(&a->pool, cores, job_timed, j);
	if (o && !serr)
		serr = mess_steal_read(&a->dist, a->t.core_pu, cores, &st1);
	if (o) {
		*o = (struct run_obs){
			.mhz = mess_cpufreq_cur_mhz(a->t.core_pu[0])
		};
		/* Not readable: not known, said in meta.json; the run is not
		 * called disturbed for it. */
		if (serr)
			a->t.steal_err = serr;
		else
			o->steal = st1 - st0;
	}
	for (int i = 0; i < cores; i++) {
		const struct worker *t = &a->wk[i];
		double per = t->done ? t->elapsed / (double)t->done : INFINITY;

		if (per > worst)
			worst = per;
		if (t->elapsed > el)
			el = t->elapsed;
		if (o && t->cs_err)
			a->t.cs_err = t->cs_err;
		else if (o)
			o->nivcsw += t->cs1 - t->cs0;
		if (o && !t->cs_err && t->cs1 > t->cs0)
			o->lost = fmax(o->lost, t->elapsed - t->cpu);
		if (o) {
			/* A thread without a figure leaves the run without
			 * one: NAN, never a partial sum. */
			o->instr += t->cc.set ? mess_corectr_delta(&t->cc, &t->c0,
						&t->c1, MESS_CC_INSTR) : NAN;
			o->cycles += t->cc.set ? mess_corectr_delta(&t->cc, &t->c0,
						 &t->c1, MESS_CC_CYCLES) : NAN;
			o->iters += t->done;
		}
	}
	if (o) {
		o->wall = el;
		o->preempted = o->lost > ABSORB_LOST_REL * el;
		o->disturbed = o->steal > 0 || o->preempted;
	}
	if (elapsed)
		*elapsed = el;
	return worst;
}

void absorb_observe(struct point_obs *po, const struct run_obs *o, int at_k)
{
	if (at_k) {
		po->instr += o->instr;
		po->cycles += o->cycles;
		po->iters += o->iters;
	}
	po->steal += o->steal;
	po->nivcsw += o->nivcsw;
	if (isfinite(o->mhz)) {
		po->mhz_sum += o->mhz;
		po->mhz_n++;
	}
}

void absorb_obs_add(struct run_obs *sum, const struct run_obs *o)
{
	sum->steal += o->steal;
	sum->nivcsw += o->nivcsw;
	sum->mhz = isfinite(o->mhz) ? o->mhz : sum->mhz;
	sum->instr += o->instr;
	sum->cycles += o->cycles;
	sum->iters += o->iters;
	sum->wall += o->wall;
	sum->lost += o->lost;
	sum->preempted = sum->lost > ABSORB_LOST_REL * sum->wall;
	sum->disturbed = sum->steal > 0 || sum->preempted;
}
