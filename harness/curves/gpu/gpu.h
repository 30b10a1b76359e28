/* SPDX-License-Identifier: MIT */
/*
 * The GPU backend's state (issue 45), shared by its two halves: gpu.c
 * (the options, the device, what the files say) and run.c (buffers,
 * kernels, windows).  A GPU's memory measured as the CPU's is: a chase on
 * one thread against traffic generators, here CTAs of the PTX kernels in
 * kernels/ptx/, through the CUDA driver loaded at run time (cuda.h).
 */
#ifndef MESS_GPU_H
#define MESS_GPU_H

#include <stdint.h>

#include "curves/backend/backend.h"
#include "curves/gpu/cuda.h"

#define GPU_CTA_THREADS 256
#define GPU_OUT_WORDS 4		/* the chase's out[] (chase.ptx) */

struct gpu {
	struct mess_cfg cfg;
	struct mess_cuda cu;
	CUdevice dev;
	CUcontext ctx;
	CUmodule mod_chase, mod_gen;
	CUfunction chase, gen;
	CUstream s_gen, s_chase;
	/* the device, as the driver (and NVML) state it */
	char name[128], bus_id[32], driver[48];
	int sms, cc_major, cc_minor, threads_per_sm;
	double sm_mhz, mem_mhz;	/* 0 unknown */
	char sm_mhz_source[64], mem_mhz_source[64];
	int bus_bits;
	uint64_t l2_bytes, mem_bytes;
	int clk;		/* --gpu-timer clock64 */
	/* the generators' grid */
	unsigned ctas, warps;
	/* buffers: the chase's (device), the generators' two arrays, and the
	 * mapped host words the kernels and the host share */
	uint64_t chase_bytes, gen_bytes, lines;
	CUdeviceptr chase_buf, chase_start, gen_ld, gen_st;
	volatile uint32_t *stop;
	volatile uint64_t *count, *out;
	CUdeviceptr stop_d, count_d, out_d;
	/* the timer's own cost (ns or cycles) and the chase's last ns/load */
	double timer_cost, lat_guess_ns;
	/* the load set */
	int running;
	unsigned store_pct;
	uint64_t spin;
	double rd_pct;
};

/* A driver call that failed, said in one line naming --device: -EIO. */
int mess_gpu_fail(const struct gpu *g, const char *call, CUresult e);
/* run.c: the backend's measuring hooks */
int mess_gpu_start(void *bs, const struct mess_session *s);
double mess_gpu_set_load(void *bs, const struct mess_load *l, int *steady);
int mess_gpu_window(void *bs, struct mess_window *w);
void mess_gpu_figures(void *bs, const struct mess_window *w, unsigned n,
		      struct mess_point *p);
void mess_gpu_stop(void *bs);
void mess_gpu_free(struct gpu *g);
/* The module of one PTX text, the JIT's log said on failure: 0 or -EIO. */
int mess_gpu_module(struct gpu *g, const char *ptx, const char *what,
		    CUmodule *m);

#endif
