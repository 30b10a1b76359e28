// SPDX-License-Identifier: MIT
/*
 * The tests' CUDA driver (issue 45): a libcuda.so.1 with the entry points
 * harness/curves/gpu/ uses, on the CPU, built into build/<arch>/fakecuda/
 * for tests/gpu.sh only, never installed and never beside mess.  It lets
 * `LD_LIBRARY_PATH=build/<arch>/fakecuda mess curves --device gpu:0` run
 * the GPU backend's whole host side on a machine without a GPU, against
 * known answers:
 *
 *  - the device: FAKE_NAME, 4 SMs of 1024 threads (12 generator CTAs),
 *    SM clock 1 GHz, memory 1 GHz x 1024 bits (peak 256 GB/s), L2 1 MiB;
 *  - the modules: the PTX text must be one (.version, .target) and every
 *    function looked up an .entry of it;
 *  - the generators: a thread per launch that, until the stop flag in the
 *    mapped memory is set, advances the per-warp iteration counts so that
 *    the bytes declared for the mix flow at B(spin) = P / (1 + spin / N0)
 *    GB/s of real time;
 *  - the chase: walks the chain for real (every link must lead to another
 *    line of the buffer: a broken one fails the launch), sleeps n L ns and
 *    reports timer reads TIMER_COST + n L apart, L = L0 / (1 - B / LMAX)
 *    at the generators' B (0 when none run); in SM cycles at 1 GHz for
 *    mess_chase_clk.
 *
 * tests/gpu.sh checks curves.csv against these formulas.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mess_ptx.h"

#define FAKE_NAME "mess-fakecuda (tests/gpu/fakecuda.c, not a GPU)"
#define FAKE_P 200.0		/* GB/s at spin 0 */
#define FAKE_N0 64.0		/* the spin that halves it */
#define FAKE_L0 500.0		/* ns, unloaded */
#define FAKE_LMAX 1000.0	/* GB/s where the latency would diverge */
#define FAKE_TIMER_COST 40	/* ns between two timer reads */
#define FAKE_SMS 4
#define FAKE_THREADS_PER_SM 1024

typedef unsigned long long CUdeviceptr;

struct fake_mod { const char *ptx; };
struct fake_fn { char name[64]; };
struct fake_stream {
	pthread_t gen;
	int running;
};

/* The generators' state, as the chase sees it. */
static struct {
	volatile uint32_t *stop;
	volatile uint64_t *count;
	unsigned warps;
	double gbs, bytes;	/* the rate, bytes per warp-iteration */
} gen;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double rate_now;		/* B of the generators running, GB/s */
static char *bufs[64];
static size_t buf_len[64];
static int nbufs;

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static void sleep_ns(double ns)
{
	struct timespec t = { (time_t)(ns / 1e9), (long)(ns - (time_t)(ns / 1e9) * 1e9) };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

int cuInit(unsigned f) { (void)f; return 0; }
int cuDriverGetVersion(int *v) { *v = 12040; return 0; }
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
int cuDeviceGet(int *d, int i) { *d = i; return i ? 101 : 0; }	/* INVALID_DEVICE */

int cuDeviceGetName(char *name, int len, int d)
{
	(void)d;
	snprintf(name, (size_t)len, "%s", FAKE_NAME);
	return 0;
}

int cuDeviceGetAttribute(int *v, int a, int d)
{
	(void)d;
	switch (a) {
	case 13: *v = 1000000; return 0;	/* CLOCK_RATE, kHz */
	case 16: *v = FAKE_SMS; return 0;
	case 19: *v = 1; return 0;		/* CAN_MAP_HOST_MEMORY */
	case 36: *v = 1000000; return 0;	/* MEMORY_CLOCK_RATE, kHz */
	case 37: *v = 1024; return 0;		/* bus bits */
	case 38: *v = 1 << 20; return 0;	/* L2 */
	case 39: *v = FAKE_THREADS_PER_SM; return 0;
	case 75: *v = 9; return 0;
	case 76: *v = 0; return 0;
	}
	*v = 0;
	return 1;	/* CUDA_ERROR_INVALID_VALUE */
}

int cuDeviceGetPCIBusId(char *id, int len, int d)
{
	(void)d;
	snprintf(id, (size_t)len, "0000:00:00.0");
	return 0;
}

int cuDeviceTotalMem_v2(size_t *b, int d) { (void)d; *b = 16ULL << 30; return 0; }
int cuCtxCreate_v2(void **c, unsigned f, int d) { (void)f; (void)d; *c = &lock; return 0; }
int cuCtxDestroy_v2(void *c) { (void)c; return 0; }

int cuGetErrorString(int e, const char **s)
{
	*s = e == 218 ? "CUDA_ERROR_INVALID_PTX (fake)" : "a fakecuda error";
	return 0;
}

int cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *opt, void **val)
{
	const char *p = image;
	struct fake_mod *mod;

	/* FAKECUDA_JIT_FAIL: the JIT refuses, its error log filled in. */
	if (getenv("FAKECUDA_JIT_FAIL") || !strstr(p, "\n.version ") ||
	    !strstr(p, "\n.target sm_")) {
		char *log = NULL;
		size_t len = 0;

		for (unsigned i = 0; i < n; i++) {
			if (opt[i] == 5)	/* CU_JIT_ERROR_LOG_BUFFER */
				log = val[i];
			if (opt[i] == 6)	/* ..._SIZE_BYTES */
				len = (size_t)(uintptr_t)val[i];
		}
		if (log && len)
			snprintf(log, len, "ptxas fatal   : fakecuda refused this PTX (FAKECUDA_JIT_FAIL)");
		return 218;
	}
	mod = malloc(sizeof(*mod));
	mod->ptx = p;
	*m = mod;
	return 0;
}

int cuModuleGetFunction(void **f, void *m, const char *name)
{
	struct fake_mod *mod = m;
	struct fake_fn *fn;
	char entry[80];

	snprintf(entry, sizeof(entry), ".entry %s(", name);
	if (!strstr(mod->ptx, entry))
		return 500;	/* CUDA_ERROR_NOT_FOUND */
	fn = calloc(1, sizeof(*fn));
	snprintf(fn->name, sizeof(fn->name), "%s", name);
	*f = fn;
	return 0;
}

int cuModuleUnload(void *m) { free(m); return 0; }

/* As the thread limit allows: the registers are not modelled. */
int cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int threads, size_t sh)
{
	(void)f; (void)sh;
	*n = FAKE_THREADS_PER_SM / threads;
	return 0;
}

int cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	char *b = malloc(n);

	if (!b || nbufs == 64)
		return 2;	/* OUT_OF_MEMORY */
	bufs[nbufs] = b;
	buf_len[nbufs++] = n;
	*p = (uintptr_t)b;
	return 0;
}

int cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); return 0; }

int cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n)
{
	memcpy((void *)(uintptr_t)d, s, n);
	return 0;
}

int cuMemHostAlloc(void **p, size_t n, unsigned f)
{
	(void)f;
	*p = calloc(1, n);
	return *p ? 0 : 2;
}

int cuMemHostGetDevicePointer_v2(CUdeviceptr *d, void *p, unsigned f)
{
	(void)f;
	*d = (uintptr_t)p;
	return 0;
}

int cuMemFreeHost(void *p) { free(p); return 0; }

int cuStreamCreate(void **s, unsigned f)
{
	(void)f;
	*s = calloc(1, sizeof(struct fake_stream));
	return 0;
}

int cuStreamDestroy_v2(void *s) { free(s); return 0; }

/* The generators: their counts follow the rate in real time. */
static void *gen_thread(void *a)
{
	double t0 = now_ns(), per_warp;

	(void)a;
	while (!*gen.stop) {
		sleep_ns(1e5);
		per_warp = (now_ns() - t0) * gen.gbs / gen.bytes / gen.warps;
		for (unsigned i = 0; i < gen.warps; i++)
			gen.count[i] = (uint64_t)per_warp;
	}
	pthread_mutex_lock(&lock);
	rate_now = 0;
	pthread_mutex_unlock(&lock);
	return NULL;
}

static int in_buffer(uintptr_t p)
{
	for (int i = 0; i < nbufs; i++)
		if (p >= (uintptr_t)bufs[i] && p + 8 <= (uintptr_t)bufs[i] + buf_len[i])
			return 1;
	return 0;
}

static int chase(struct fake_fn *fn, void **args)
{
	uintptr_t p = (uintptr_t)*(CUdeviceptr *)args[0];
	uint64_t n = *(uint64_t *)args[1];
	volatile uint64_t *out = (uint64_t *)(uintptr_t)*(CUdeviceptr *)args[2];
	double lat, t0 = now_ns();

	pthread_mutex_lock(&lock);
	lat = FAKE_L0 / (1 - rate_now / FAKE_LMAX);
	pthread_mutex_unlock(&lock);
	for (uint64_t i = 0; i < n; i++) {
		if (!in_buffer(p)) {
			fprintf(stderr, "fakecuda: the chain left the buffers at load %llu\n",
				(unsigned long long)i);
			return 700;	/* ILLEGAL_ADDRESS */
		}
		p = *(uint64_t *)p;
	}
	sleep_ns(n * lat - (now_ns() - t0));
	out[0] = p;
	out[1] = 1000000;
	/* clock64 at 1 GHz: cycles = ns */
	out[2] = out[1] + FAKE_TIMER_COST + (uint64_t)(n * lat + 0.5);
	(void)fn;
	return 0;
}

int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
		   unsigned by, unsigned bz, unsigned sh, void *s, void **args,
		   void **extra)
{
	struct fake_fn *fn = f;
	struct fake_stream *st = s;
	uint32_t stores, spin, every;
	uint64_t mask;

	(void)gy; (void)gz; (void)by; (void)bz; (void)sh; (void)extra;
	if (!strcmp(fn->name, MESS_PTX_CHASE) || !strcmp(fn->name, MESS_PTX_CHASE_CLK))
		return gx == 1 && bx == 1 ? chase(fn, args) : 1;
	if (strcmp(fn->name, MESS_PTX_GEN) || st->running)
		return 1;
	mask = *(uint64_t *)args[2];
	stores = *(uint32_t *)args[3];
	spin = *(uint32_t *)args[4];
	every = *(uint32_t *)args[5];
	if (stores > 100 || (mask & (mask + 1)) || !every || (every & (every - 1)) ||
	    gx != FAKE_SMS * (FAKE_THREADS_PER_SM / bx - 1) || bx % 32)
		return 1;	/* INVALID_VALUE: not what the kernel takes */
	gen.stop = (uint32_t *)(uintptr_t)*(CUdeviceptr *)args[6];
	gen.count = (uint64_t *)(uintptr_t)*(CUdeviceptr *)args[7];
	gen.warps = gx * bx / 32;
	gen.gbs = FAKE_P / (1 + spin / FAKE_N0);
	gen.bytes = 32.0 * (MESS_PTX_GEN_RD_BYTES(stores) + MESS_PTX_GEN_WR_BYTES(stores));
	pthread_mutex_lock(&lock);
	rate_now = gen.gbs;
	pthread_mutex_unlock(&lock);
	st->running = 1;
	return pthread_create(&st->gen, NULL, gen_thread, NULL) ? 2 : 0;
}

/* Launches complete within cuLaunchKernel but the generators'. */
int cuStreamQuery(void *s)
{
	struct fake_stream *st = s;

	return st->running ? 600 : 0;
}

int cuStreamSynchronize(void *s)
{
	struct fake_stream *st = s;

	if (st->running) {
		pthread_join(st->gen, NULL);
		st->running = 0;
	}
	return 0;
}
