// SPDX-License-Identifier: MIT
/*
 * The GPU backend's measurements: the chase buffer (a random cycle with
 * the CPU's --stride and --window, built on the host and copied once),
 * the generators launched on their own stream until a stop flag in mapped
 * host memory ends them, and the windows: one chase launch each, its
 * latency from the kernel's own timer reads, the bandwidth from the
 * generators' iteration counts read at its boundaries times the bytes
 * declared beside their PTX (kernels/include/mess_ptx.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/measure/chain.h"
#include "curves/gpu/gpu.h"
#include "mess/stats.h"
#include "mess_ptx.h"

#define GPU_WARMUP_NS 20e6	/* the generators' ramp before a probe */
#define GPU_PROBE_NS 30e6
#define GPU_CALIB_LOADS 4096	/* the first latency guess */
#define GPU_TIMER_REPEATS 7
/* A chase that takes this much over its guess is stuck (see chase()). */
#define GPU_CHASE_SLACK 20
#define GPU_CHASE_SLACK_NS 2e9
#define GPU_POLL_NS 50e3

int mess_gpu_fail(const struct gpu *g, const char *call, CUresult e)
{
	char why[256];

	mess_cuda_fail(&g->cu, call, e, why, sizeof(why));
	fprintf(stderr, "mess: --device %s: %s\n", g->cfg.device, why);
	return -EIO;
}

int mess_gpu_module(struct gpu *g, const char *ptx, const char *what,
		    CUmodule *m)
{
	static char log[8192], info[4096];
	int opt[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
		      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
	void *val[] = { log, (void *)(uintptr_t)sizeof(log), info,
			(void *)(uintptr_t)sizeof(info) };
	CUresult e;

	log[0] = info[0] = 0;
	e = g->cu.ModuleLoadDataEx(m, ptx, 4, opt, val);
	if (!e)
		return 0;
	/* The JIT's own words: what the device minutes must bring back. */
	mess_gpu_fail(g, "cuModuleLoadDataEx", e);
	fprintf(stderr, "mess: the JIT's log for kernels/ptx/%s:\n%s%s%s\n", what,
		log[0] ? log : "(empty)", info[0] ? "\n" : "", info);
	return -EIO;
}

static int mapped(struct gpu *g, size_t bytes, void **host, CUdeviceptr *dev)
{
	CUresult e = g->cu.MemHostAlloc(host, bytes, CU_MEMHOSTALLOC_DEVICEMAP);

	if (e)
		return mess_gpu_fail(g, "cuMemHostAlloc", e);
	memset(*host, 0, bytes);
	e = g->cu.MemHostGetDevicePointer(dev, *host, 0);
	return e ? mess_gpu_fail(g, "cuMemHostGetDevicePointer_v2", e) : 0;
}

/*
 * The chain built in host memory with the CPU's layout (core/measure/
 * chain.c), then every link rewritten from a host to a device address and
 * the whole buffer copied once.
 */
static int chase_buffer(struct gpu *g)
{
	uint32_t per = g->cfg.window ? (uint32_t)(g->cfg.window / g->cfg.stride) : 0;
	char *h = malloc(g->chase_bytes), *p;
	CUresult e;
	int err = 0;

	if (!h)
		return -ENOMEM;
	g->lines = g->chase_bytes / g->cfg.stride;
	p = mess_chain_make(h, g->cfg.stride, (uint32_t)g->lines, per,
			    (uint64_t)g->cfg.seed, &err);
	if (!p) {
		free(h);
		return err;
	}
	g->chase_start = g->chase_buf + (CUdeviceptr)(p - h);
	for (uint64_t i = 0; i < g->lines; i++) {
		char *next = *(char **)p;

		*(uint64_t *)p = g->chase_buf + (uint64_t)(next - h);
		p = next;
	}
	e = g->cu.MemcpyHtoD(g->chase_buf, h, g->chase_bytes);
	free(h);
	return e ? mess_gpu_fail(g, "cuMemcpyHtoD_v2", e) : 0;
}

/* One chase of n loads on its stream: the timer delta (ns or cycles). */
static int chase(struct gpu *g, uint64_t n, double *dt)
{
	CUdeviceptr start = g->chase_start, out = g->out_d;
	void *args[] = { &start, &n, &out };
	double t0 = mess_now_ns(), limit = GPU_CHASE_SLACK_NS +
		    GPU_CHASE_SLACK * (double)n * g->lat_guess_ns;
	CUresult e;

	g->out[3] = 0;
	e = g->cu.LaunchKernel(g->chase, 1, 1, 1, 1, 1, 1, 0, g->s_chase, args, NULL);
	/* Polled, not waited for: a chase that finds no SM free of the
	 * generators would wait for them, and they for the stop flag. */
	while (!e && (e = g->cu.StreamQuery(g->s_chase)) == CUDA_ERROR_NOT_READY) {
		if (mess_now_ns() - t0 > limit) {
			mess_gpu_stop(g);
			e = g->cu.StreamSynchronize(g->s_chase);
			fprintf(stderr, "mess: --device %s: the chase of %llu loads took over %.1f s: did it find no SM beside the %u generator CTAs?\n",
				g->cfg.device, (unsigned long long)n, limit / 1e9, g->ctas);
			return -EIO;
		}
		mess_sleep_ns(GPU_POLL_NS);
	}
	if (e)
		return mess_gpu_fail(g, "the chase kernel", e);
	if (g->out[3]) {
		fprintf(stderr, "mess: --device %s: the chase met a NULL link: the chain is broken\n",
			g->cfg.device);
		return -EIO;
	}
	/* Start the next window where this one ended: the chain's lines
	 * are not replayed from the start each time. */
	g->chase_start = g->out[0];
	*dt = (double)(g->out[2] - g->out[1]);
	return 0;
}

static double timer_ns(const struct gpu *g, double t)
{
	return g->clk ? t / (g->sm_mhz * 1e-3) : t;
}

/* The timer's cost (loads = 0: two reads, nothing between), then a first
 * guess of the latency, for the loads a window takes. */
static int calibrate(struct gpu *g)
{
	double c[GPU_TIMER_REPEATS], dt;
	int rc;

	for (int i = 0; i < GPU_TIMER_REPEATS; i++)
		if ((rc = chase(g, 0, &c[i])))
			return rc;
	g->timer_cost = mess_median(c, GPU_TIMER_REPEATS);
	if ((rc = chase(g, GPU_CALIB_LOADS, &dt)))
		return rc;
	g->lat_guess_ns = timer_ns(g, dt - g->timer_cost) / GPU_CALIB_LOADS;
	if (!(g->lat_guess_ns > 1))
		g->lat_guess_ns = 1;
	return 0;
}

int mess_gpu_start(void *bs, const struct mess_session *s)
{
	struct gpu *g = bs;
	void *h;
	CUresult e;
	int rc;

	(void)s;
	g->warps = g->ctas * GPU_CTA_THREADS / MESS_PTX_GEN_WARP;
	if ((e = g->cu.StreamCreate(&g->s_gen, CU_STREAM_NON_BLOCKING)) ||
	    (e = g->cu.StreamCreate(&g->s_chase, CU_STREAM_NON_BLOCKING)))
		return mess_gpu_fail(g, "cuStreamCreate", e);
	if ((e = g->cu.MemAlloc(&g->chase_buf, g->chase_bytes)) ||
	    (e = g->cu.MemAlloc(&g->gen_ld, g->gen_bytes)) ||
	    (e = g->cu.MemAlloc(&g->gen_st, g->gen_bytes)))
		return mess_gpu_fail(g, "cuMemAlloc_v2", e);
	if ((rc = mapped(g, sizeof(uint32_t), &h, &g->stop_d)))
		return rc;
	g->stop = h;
	if ((rc = mapped(g, g->warps * sizeof(uint64_t), &h, &g->count_d)))
		return rc;
	g->count = h;
	if ((rc = mapped(g, GPU_OUT_WORDS * sizeof(uint64_t), &h, &g->out_d)))
		return rc;
	g->out = h;
	if ((rc = chase_buffer(g)))
		return rc;
	return calibrate(g);
}

/* Every warp's iterations so far (each of its 32 lanes ran as many). */
static uint64_t iterations(const struct gpu *g)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < g->warps; i++)
		n += g->count[i];
	return n * MESS_PTX_GEN_WARP;
}

static double gbs(const struct gpu *g, uint64_t iters, double ns)
{
	return ns > 0 ? (double)iters * (MESS_PTX_GEN_RD_BYTES(g->store_pct) +
					 MESS_PTX_GEN_WR_BYTES(g->store_pct)) / ns : NAN;
}

void mess_gpu_stop(void *bs)
{
	struct gpu *g = bs;
	CUresult e;

	if (!g->running)
		return;
	*g->stop = 1;
	__sync_synchronize();
	e = g->cu.StreamSynchronize(g->s_gen);
	if (e)
		mess_gpu_fail(g, "the generator kernel", e);
	*g->stop = 0;
	g->running = 0;
}

static int launch(struct gpu *g)
{
	CUdeviceptr ld = g->gen_ld, st = g->gen_st, mask = g->gen_bytes - 1;
	CUdeviceptr stop = g->stop_d, count = g->count_d;
	uint32_t s = g->store_pct, spin = g->spin > UINT32_MAX ? UINT32_MAX :
					  (uint32_t)g->spin;
	/* Long spins report every iteration, or a window might see none. */
	uint32_t every = spin >= 256 ? 1 : 16;
	void *args[] = { &ld, &st, &mask, &s, &spin, &every, &stop, &count };
	CUresult e;

	memset((void *)g->count, 0, g->warps * sizeof(uint64_t));
	__sync_synchronize();
	e = g->cu.LaunchKernel(g->gen, g->ctas, 1, 1, GPU_CTA_THREADS, 1, 1, 0,
			       g->s_gen, args, NULL);
	if (e)
		return mess_gpu_fail(g, "cuLaunchKernel (the generators)", e);
	g->running = 1;
	return 0;
}

double mess_gpu_set_load(void *bs, const struct mess_load *l, int *steady)
{
	struct gpu *g = bs;
	uint64_t i0;
	double t0;

	*steady = 0;
	mess_gpu_stop(g);
	if (l->store_pct == MESS_LOAD_IDLE) {
		g->rd_pct = NAN;
		*steady = 1;
		return 0;
	}
	g->store_pct = l->store_pct;
	g->spin = l->intensity;
	g->rd_pct = 100.0 - l->store_pct;
	if (launch(g))
		return NAN;
	mess_sleep_ns(GPU_WARMUP_NS);
	i0 = iterations(g);
	t0 = mess_now_ns();
	mess_sleep_ns(GPU_PROBE_NS);
	*steady = 1;
	return gbs(g, iterations(g) - i0, mess_now_ns() - t0);
}

int mess_gpu_window(void *bs, struct mess_window *w)
{
	struct gpu *g = bs;
	double n = g->cfg.chase_ms * 1e6 / g->lat_guess_ns, dt, t0, t1;
	uint64_t loads = n < 64 ? 64 : (uint64_t)n, i0, i1;
	int rc;

	*w = (struct mess_window){
		.crd_gbs = NAN, .cwr_gbs = NAN, .ctot_gbs = NAN,
		.nowalk_ns = NAN, .run_frac = NAN, .steal_ms = NAN,
		.ghz0 = NAN, .ghz1 = NAN, .rd_gbs = 0, .wr_gbs = 0, .bw_gbs = 0 };
	i0 = iterations(g);
	t0 = mess_now_ns();
	rc = chase(g, loads, &dt);
	t1 = mess_now_ns();
	i1 = iterations(g);
	if (rc)
		return rc;
	w->lat_ns = timer_ns(g, dt - g->timer_cost) / (double)loads;
	if (w->lat_ns > 1)
		g->lat_guess_ns = w->lat_ns;
	if (g->running) {
		uint64_t it = i1 - i0;

		w->rd_gbs = (double)it * MESS_PTX_GEN_RD_BYTES(g->store_pct) / (t1 - t0);
		w->wr_gbs = (double)it * MESS_PTX_GEN_WR_BYTES(g->store_pct) / (t1 - t0);
		w->bw_gbs = w->rd_gbs + w->wr_gbs;
	}
	/* Nothing on the GPU takes the chase thread's SM from it as an OS
	 * takes a core: no lost time to read (another context sharing the
	 * GPU would not be seen; md says so). */
	w->lost_pct = 0;
	return 0;
}

/* The bandwidth is the median window's, split by the declared bytes. */
void mess_gpu_figures(void *bs, const struct mess_window *w, unsigned n,
		      struct mess_point *p)
{
	struct gpu *g = bs;
	double B[MESS_MAX_WINDOWS];

	for (unsigned i = 0; i < n; i++)
		B[i] = w[i].bw_gbs;
	p->bw_gbs_std = mess_stddev(B, n);
	p->bw_gbs = mess_median(B, n);
	p->read_pct = g->rd_pct;
	p->read_bw_gbs = p->acc_read_bw_gbs = p->bw_gbs * g->rd_pct / 100;
	p->write_bw_gbs = p->acc_write_bw_gbs = p->bw_gbs * (100 - g->rd_pct) / 100;
}

void mess_gpu_free(struct gpu *g)
{
	struct mess_cuda *cu = &g->cu;

	if (!cu->lib)
		return;
	mess_gpu_stop(g);
	if (g->out)
		cu->MemFreeHost((void *)g->out);
	if (g->count)
		cu->MemFreeHost((void *)g->count);
	if (g->stop)
		cu->MemFreeHost((void *)g->stop);
	if (g->gen_st)
		cu->MemFree(g->gen_st);
	if (g->gen_ld)
		cu->MemFree(g->gen_ld);
	if (g->chase_buf)
		cu->MemFree(g->chase_buf);
	if (g->s_chase)
		cu->StreamDestroy(g->s_chase);
	if (g->s_gen)
		cu->StreamDestroy(g->s_gen);
	if (g->mod_gen)
		cu->ModuleUnload(g->mod_gen);
	if (g->mod_chase)
		cu->ModuleUnload(g->mod_chase);
	if (g->ctx)
		cu->CtxDestroy(g->ctx);
	mess_cuda_unload(cu);
}
