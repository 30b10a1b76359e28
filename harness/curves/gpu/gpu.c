// SPDX-License-Identifier: MIT
/*
 * `mess curves --device gpu:N` (issue 45): the curves driver against a
 * GPU's memory.  This half reads the options and the device and says
 * what the files say of it; run.c measures.  It never impersonates a CPU:
 * the device, its SMs and CTAs and its clocks are named in every file,
 * the clocks are the driver's (NVML's where the driver states none), and
 * what a GPU cannot give (counters, an LLC ladder, a latency
 * distribution, lost time) is said to be missing, never filled in.
 * Without the NVIDIA driver the command exits 3 in one line, before any
 * directory exists.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/options.h"
#include "curves/gpu/gpu.h"
#include "mess/export.h"
#include "mess/json.h"
#include "mess_ptx.h"

#define GPU_MIN_CHASE (1ULL << 30)	/* the chase buffer's floor */
#define GPU_L2_TIMES 16			/* ... and many times the L2 */
#define GPU_MIN_GEN (256ULL << 20)
#define NOT_MEASURED_LLC "not measured: no cache ladder runs on a GPU"
#define NO_DIST "the GPU chase reports each window's mean latency only"

static struct gpu gpu;

/* What the CPU options mean nothing on a GPU: refused, not ignored. */
static int cpu_only(const struct mess_cfg *c, int argc, char **argv)
{
	static const char *const opts[] = { "cores", "chase-core", "mem-node",
					    "variant", "resume" };

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (mess_opts_given(argc, argv, opts[i])) {
			fprintf(stderr, "mess: --%s: not with --device %s (it picks this machine's CPU or memory, or continues a CPU run); allowed: --device without --%s\n",
				opts[i], c->device, opts[i]);
			return -EINVAL;
		}
	return 0;
}

static int attr(struct gpu *g, int a)
{
	int v = 0;

	return g->cu.DeviceGetAttribute(&v, a, g->dev) ? 0 : v;
}

/* The SM and memory clocks: the driver's attribute (deprecated in recent
 * drivers, which may state 0), else NVML's maximum clock. */
static void clocks(struct gpu *g, void *nv)
{
	unsigned mhz = 0;

	g->sm_mhz = attr(g, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1e3;
	snprintf(g->sm_mhz_source, sizeof(g->sm_mhz_source), "CU_DEVICE_ATTRIBUTE_CLOCK_RATE");
	if (!(g->sm_mhz > 0) && nv &&
	    !g->cu.nvmlDeviceGetMaxClockInfo(nv, NVML_CLOCK_SM, &mhz) && mhz) {
		g->sm_mhz = mhz;
		snprintf(g->sm_mhz_source, sizeof(g->sm_mhz_source), "NVML max SM clock");
	}
	g->mem_mhz = attr(g, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1e3;
	snprintf(g->mem_mhz_source, sizeof(g->mem_mhz_source), "CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE");
	mhz = 0;
	if (!(g->mem_mhz > 0) && nv &&
	    !g->cu.nvmlDeviceGetMaxClockInfo(nv, NVML_CLOCK_MEM, &mhz) && mhz) {
		g->mem_mhz = mhz;
		snprintf(g->mem_mhz_source, sizeof(g->mem_mhz_source), "NVML max memory clock");
	}
	if (!(g->sm_mhz > 0))
		snprintf(g->sm_mhz_source, sizeof(g->sm_mhz_source), "unknown: neither the driver nor NVML states it");
	if (!(g->mem_mhz > 0))
		snprintf(g->mem_mhz_source, sizeof(g->mem_mhz_source), "unknown: neither the driver nor NVML states it");
}

/* The device: its name, units, clocks, cache and memory. */
static int device(struct gpu *g)
{
	struct mess_cuda *cu = &g->cu;
	void *nv = NULL;
	size_t mem = 0;
	int n = 0, v = 0;
	CUresult e;

	if ((e = cu->DeviceGetCount(&n)))
		return mess_gpu_fail(g, "cuDeviceGetCount", e);
	if (g->cfg.gpu >= n) {
		fprintf(stderr, "mess: --device: '%s' is not a GPU here; allowed: gpu:0..gpu:%d (the driver sees %d)\n",
			g->cfg.device, n - 1, n);
		return n ? -EINVAL : -EOPNOTSUPP;
	}
	if ((e = cu->DeviceGet(&g->dev, g->cfg.gpu)) ||
	    (e = cu->DeviceGetName(g->name, sizeof(g->name), g->dev)))
		return mess_gpu_fail(g, "cuDeviceGet", e);
	g->sms = attr(g, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	g->threads_per_sm = attr(g, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
	g->cc_major = attr(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	g->cc_minor = attr(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	g->bus_bits = attr(g, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
	g->l2_bytes = (uint64_t)attr(g, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
	if (!cu->DeviceTotalMem(&mem, g->dev))
		g->mem_bytes = mem;
	if (cu->DeviceGetPCIBusId(g->bus_id, sizeof(g->bus_id), g->dev))
		g->bus_id[0] = 0;
	if (!cu->DriverGetVersion(&v))
		snprintf(g->driver, sizeof(g->driver), "CUDA %d.%d", v / 1000, v % 1000 / 10);
	if (cu->nvml && g->bus_id[0] && cu->nvmlDeviceGetHandleByPciBusId(g->bus_id, &nv))
		nv = NULL;
	if (cu->nvml) {
		char ver[32] = "";

		if (!cu->nvmlSystemGetDriverVersion(ver, sizeof(ver)))
			snprintf(g->driver + strlen(g->driver), sizeof(g->driver) - strlen(g->driver),
				 ", driver %.30s", ver);
	}
	clocks(g, nv);
	if (!attr(g, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY) || g->sms < 1) {
		fprintf(stderr, "mess: --device %s: %s cannot map host memory or states no SM: the generators' counts could not be read\n",
			g->cfg.device, g->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The context and the two modules, the JIT's log said on failure: before
 * any directory, so a kernel the driver refuses costs no run. */
static int modules(struct gpu *g)
{
	CUresult e;
	int rc;

	if ((e = g->cu.CtxCreate(&g->ctx, CU_CTX_MAP_HOST, g->dev))) {
		g->ctx = NULL;
		return mess_gpu_fail(g, "cuCtxCreate_v2", e);
	}
	if ((rc = mess_gpu_module(g, mess_ptx_chase, "chase.ptx", &g->mod_chase)) ||
	    (rc = mess_gpu_module(g, mess_ptx_gen, "gen.ptx", &g->mod_gen)))
		return rc;
	if ((e = g->cu.ModuleGetFunction(&g->chase, g->mod_chase,
					 g->clk ? MESS_PTX_CHASE_CLK : MESS_PTX_CHASE)) ||
	    (e = g->cu.ModuleGetFunction(&g->gen, g->mod_gen, MESS_PTX_GEN)))
		return mess_gpu_fail(g, "cuModuleGetFunction", e);
	return 0;
}

static double peak_gbs(const struct gpu *g)
{
	/* Double data rate on a bus of bus_bits: HBM's and GDDR's figure. */
	return g->mem_mhz > 0 && g->bus_bits > 0 ?
	       g->mem_mhz * 1e6 * 2 * g->bus_bits / 8 / 1e9 : 0;
}

static uint64_t pow2_ceil(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static void sizes(struct gpu *g)
{
	uint64_t l2 = g->l2_bytes ? g->l2_bytes : 64ULL << 20;
	int per, occ = 0;

	g->chase_bytes = g->cfg.buffer ? g->cfg.buffer :
			 l2 * GPU_L2_TIMES > GPU_MIN_CHASE ? l2 * GPU_L2_TIMES :
			 GPU_MIN_CHASE;
	g->chase_bytes -= g->chase_bytes % g->cfg.stride;
	/* The generators address their arrays through a mask. */
	g->gen_bytes = pow2_ceil(g->cfg.gen_bytes ? g->cfg.gen_bytes :
				  4 * l2 > GPU_MIN_GEN ? 4 * l2 : GPU_MIN_GEN);
	/* Every SM full but one CTA's room, which the chase takes, and no
	 * more CTAs than fit at once (registers): one waiting for a slot
	 * would only start once the others stopped. */
	per = g->threads_per_sm > GPU_CTA_THREADS ?
	      (g->threads_per_sm - GPU_CTA_THREADS) / GPU_CTA_THREADS : 1;
	if (!g->cu.OccupancyMaxActiveBlocksPerMultiprocessor(&occ, g->gen,
							      GPU_CTA_THREADS, 0) &&
	    occ > 0 && occ < per)
		per = occ;
	g->ctas = (unsigned)g->sms * (unsigned)per;
}

static const char *timer_name(const struct gpu *g)
{
	return g->clk ? "%clock64" : "%globaltimer";
}

static void describe(struct gpu *g, struct mess_run_desc *d)
{
	snprintf(d->device, sizeof(d->device), "%.100s (GPU %d, sm_%d%d, %d SMs)",
		 g->name, g->cfg.gpu, g->cc_major, g->cc_minor, g->sms);
	snprintf(d->title, sizeof(d->title), "%.100s GPU %d memory", g->name, g->cfg.gpu);
	snprintf(d->where, sizeof(d->where), ", GPU %d", g->cfg.gpu);
	snprintf(d->how, sizeof(d->how),
		 ": a one-thread chase (ld.global.cg, %s) against generators on %u CTAs x %d threads over %d SMs; SM clock %.0f MHz, memory clock %.0f MHz x %d bits, L2 %.1f MiB, memory %.1f GiB",
		 timer_name(g), g->ctas, GPU_CTA_THREADS, g->sms, g->sm_mhz, g->mem_mhz,
		 g->bus_bits, g->l2_bytes / 1048576.0, g->mem_bytes / 1073741824.0);
	/* The title's first line names the device already. */
	snprintf(d->plot_how, sizeof(d->plot_how), "%u CTAs on %d SMs", g->ctas,
		 g->sms);
	d->verb = "Measured";
	d->nunits = (int)g->ctas;
	d->node = -1;
	d->line_bytes = 32;	/* the sector a chase load brings from memory */
	d->nontemporal = 1;	/* a GPU store writes its sectors, no read */
	d->chased = 1;
	d->bw_source = "accounted";
	for (int i = 0; i < MESS_GEN_NMIXES; i++)
		d->read_pct[i] = 100.0 - i * MESS_GEN_MIX_STEP;
	d->peak_gbs = peak_gbs(g);
	d->clocks.nominal_ghz = g->sm_mhz > 0 ? g->sm_mhz / 1e3 : NAN;
	snprintf(d->clocks.nominal_source, sizeof(d->clocks.nominal_source),
		 "the GPU's SM clock (%s), not a CPU's", g->sm_mhz_source);
	d->clocks.measured_ghz = NAN;
	d->clocks.measured_spread_pct = NAN;
	snprintf(d->clocks.measured_source, sizeof(d->clocks.measured_source),
		 "not measured: the GPU's SM clock is the driver's figure");
	mess_export_kv(d->export_info, sizeof(d->export_info), "LLC_LATENCY_NS",
		       "unknown (%s)", NOT_MEASURED_LLC);
	d->dist_known = 1;
}

static int gpu_open(const struct mess_cfg *c, int argc, char **argv,
		    void **bs, struct mess_run_desc *d, int *done)
{
	struct gpu *g = &gpu;
	char why[320];
	int rc;

	(void)done;
	memset(g, 0, sizeof(*g));
	g->cfg = *c;
	g->clk = !strcmp(c->gpu_timer, "clock64");
	if ((rc = cpu_only(c, argc, argv)))
		return rc;
	rc = mess_cuda_load(&g->cu, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "mess: --device %s: not supported here: %s\n",
			c->device, why);
		return rc;
	}
	*bs = g;
	rc = device(g);
	if (!rc && g->clk && !(g->sm_mhz > 0)) {
		fprintf(stderr, "mess: --gpu-timer: clock64 needs the SM clock, which %s does not state; allowed: globaltimer\n",
			g->name);
		rc = -EOPNOTSUPP;
	}
	if (!rc)
		rc = modules(g);
	if (rc) {
		mess_gpu_free(g);
		return rc;
	}
	sizes(g);
	/* The chain's indices are 32-bit (core/measure/chain.h). */
	if (g->chase_bytes / g->cfg.stride > UINT32_MAX) {
		fprintf(stderr, "mess: --buffer: %llu bytes are over 2^32 lines of --stride %llu; allowed: a smaller buffer or a larger stride\n",
			(unsigned long long)g->chase_bytes, (unsigned long long)g->cfg.stride);
		mess_gpu_free(g);
		return -EINVAL;
	}
	describe(g, d);
	return 0;
}

/* meta.json: the device, its kernels and what a GPU run does not have. */
static json_t *gpu_json(const void *bs, const struct mess_results *res)
{
	const struct gpu *g = bs;
	char cc[24];

	(void)res;
	snprintf(cc, sizeof(cc), "%d.%d", g->cc_major, g->cc_minor);
	return mess_json_pack(
		"{s:{s:s, s:i, s:s, s:s, s:s, s:i, s:i, s:i, s:o, s:s, s:o, s:s, s:i, s:I, s:I, s:o},"
		" s:{s:s, s:s, s:s, s:o, s:o, s:I, s:I, s:I},"
		" s:{s:s, s:s, s:I, s:i, s:i, s:i, s:I, s:s},"
		" s:{s:n, s:s}, s:{s:s, s:s}, s:s, s:i, s:I, s:i}",
		"gpu",
		"device", g->name, "ordinal", g->cfg.gpu, "pci_bus_id", g->bus_id,
		"driver", g->driver, "compute_capability", cc,
		"sms", g->sms, "max_threads_per_sm", g->threads_per_sm,
		"ctas", (int)g->ctas,
		"sm_clock_mhz", mess_json_real(g->sm_mhz > 0 ? g->sm_mhz : NAN, 0),
		"sm_clock_source", g->sm_mhz_source,
		"memory_clock_mhz", mess_json_real(g->mem_mhz > 0 ? g->mem_mhz : NAN, 0),
		"memory_clock_source", g->mem_mhz_source,
		"memory_bus_bits", g->bus_bits,
		"l2_bytes", (json_int_t)g->l2_bytes,
		"memory_bytes", (json_int_t)g->mem_bytes,
		"peak_gbs", mess_json_real(peak_gbs(g) > 0 ? peak_gbs(g) : NAN, 1),
		"chase",
		"kernel", g->clk ? MESS_PTX_CHASE_CLK : MESS_PTX_CHASE,
		"load", "ld.global.cg.u64 (L2 only), one thread",
		"timer", g->clk ? "%clock64 (SM cycles at sm_clock_mhz)" : "%globaltimer (ns)",
		"timer_cost", mess_json_real(g->timer_cost, 1),
		"timer_cost_ns", mess_json_real(g->timer_cost > 0 && g->clk ?
						g->timer_cost / (g->sm_mhz * 1e-3) : g->timer_cost, 1),
		"buffer_bytes", (json_int_t)g->chase_bytes,
		"stride", (json_int_t)g->cfg.stride, "window", (json_int_t)g->cfg.window,
		"generator",
		"kernel", MESS_PTX_GEN,
		"bytes", "per thread-iteration: 16 B per load x (100 - s) + 16 B per store x s (kernels/include/mess_ptx.h)",
		"array_bytes", (json_int_t)g->gen_bytes,
		"ctas", (int)g->ctas, "threads_per_cta", GPU_CTA_THREADS,
		"ops_per_iteration", MESS_PTX_GEN_OPS,
		"spin_every_ops", (json_int_t)MESS_PTX_GEN_SPIN_EVERY,
		"rate", "the nop count is the spin: that many dependent multiply-adds every 4 operations per thread",
		"llc_latency", "ns", "why", NOT_MEASURED_LLC,
		"distribution", "status", "not measured", "why", NO_DIST,
		"generator_cores_rule", "gpu: the generators are CTAs on the GPU's SMs; no CPU core ran one",
		/* a chase load's sector; the GPU's last cache is its L2 */
		"line_bytes", 32, "llc_bytes", (json_int_t)g->l2_bytes, "llc_level", 2);
}

static void gpu_md(const void *bs, FILE *f, enum mess_md_part part,
		   const struct mess_results *res)
{
	const struct gpu *g = bs;

	(void)res;
	if (part == MESS_MD_HOW)
		fprintf(f, "\nThe device is a GPU, %s (%s, PCI %s): latency is the chase thread's own %s over each window less its cost (%.1f), per load; bandwidth is accounted from the generators' iterations, read from mapped host memory at the window's ends, and the bytes declared beside their PTX. No memory counter, cache ladder or lost-time reading exists on this path; another process sharing the GPU would not be seen.\n",
			g->name, g->driver, g->bus_id[0] ? g->bus_id : "unknown",
			timer_name(g), g->timer_cost);
	else if (part == MESS_MD_AFTER)
		fprintf(f, "\n## Latency distribution\n\nNot measured: %s.\n", NO_DIST);
}

static void gpu_close(void *bs)
{
	mess_gpu_free(bs);
}

static int gpu_wanted(const struct mess_cfg *c)
{
	return c->device[0] != 0;
}

const struct mess_backend mess_gpu_backend = {
	.name = "gpu", .kind = "gpu", .resumable = 0,
	.accounting = "the generators' declared bytes (kernels/include/mess_ptx.h: 16 B a load, 16 B a store, no write-allocate) x their iterations over the chase window, counted per warp in mapped host memory read at the window's ends; the chase's own loads not added; GB/s = 1e9 B/s",
	.bw_note = ": the generators' declared bytes over each chase window (meta.json `gpu`, `generator`); no memory counter is read on a GPU.",
	.cut_short = "the GPU run was cut short: only the mixes in curves.csv were measured (a GPU run does not resume: run it again)",
	.wanted = gpu_wanted, .open = gpu_open,
	.start = mess_gpu_start, .set_load = mess_gpu_set_load,
	.window = mess_gpu_window, .figures = mess_gpu_figures,
	.json = gpu_json, .md = gpu_md, .stop = mess_gpu_stop,
	.close = gpu_close,
};
