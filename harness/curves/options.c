// SPDX-License-Identifier: MIT
/* The curve command's options: one table drives parsing, help and errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/measure/chain.h"
#include "core/pmu/dram.h"
#include "curves/result/run.h"

#define F(field) MESS_OPT_F(struct mess_cfg, field)
#define S(field) MESS_OPT_S(struct mess_cfg, field)

/* --quick's settings, which its help states from these same numbers. */
#define QUICK_MIXES "0,50,100"
#define QUICK_POINTS 6		/* classic's fewest; the knee rule's most: */
#define QUICK_KNEE_POINTS 9	/* as many as classic usually measured */
#define KNEE_POINTS 10
#define CLASSIC_POINTS 12
#define QUICK_REPEATS 3
#define QUICK_CHASE_MS 15
#define STR_(x) #x
#define STR(x) STR_(x)

static const struct mess_opt mess_cfg_opts[] = {
	{ "quick", MESS_OPT_FLAG, F(quick), 0, 0, 0, NULL,
	  "CI-sized smoke run: mixes " QUICK_MIXES ", at most " STR(QUICK_KNEE_POINTS)
	  " points a curve (--points " STR(QUICK_KNEE_POINTS) "; with --sweep classic at least "
	  STR(QUICK_POINTS) ", usually " STR(MESS_SWEEP_EXTRA_POINTS) " more), " STR(QUICK_REPEATS) " repeats of "
	  STR(QUICK_CHASE_MS) " ms, buffer 4x LLC" },
	MESS_OPT_OUT_RUN(S(out), ""),
	MESS_OPT_RESUME(S(resume), F(force)),
	{ "mixes", MESS_OPT_STR, S(mixes), 0, 0, "LIST",
	  "store percentages: even values 0..100 (e.g. 0,20-40,100), 'all' (51) or 'default' (0,10,..,100)" },
	{ "points", MESS_OPT_UINT, F(points), 0, 3, 200, "N",
	  "points per curve: with the knee sweep the most (default " STR(KNEE_POINTS)
	  "), with classic the fewest, up to " STR(MESS_SWEEP_EXTRA_POINTS) " more (default " STR(CLASSIC_POINTS) ")" },
	{ "sweep", MESS_OPT_STR, S(sweep), 0, 0, "knee|classic",
	  "how the next point is chosen: knee (the default: halve the gap where the curve bends most) or classic (halve the widest gap, the rule before issue 47)" },
	{ "repeats", MESS_OPT_UINT, F(repeats), 0, 1, 50, "N",
	  "chase repeats per point, up to 3x as many while their median is uncertain; median and spread are reported (default 3)" },
	{ "cores", MESS_OPT_STR, S(cores), 0, 0, "LIST",
	  "generator cores, hwloc logical indices, or 'all' (every core but the chase core, on every package); default: the other cores of the chase core's package" },
	{ "chase-core", MESS_OPT_INT, F(chase_core), 0, 0, MESS_MAX_CORES - 1, "N",
	  "core that runs the pointer chase (default 0)" },
	{ "buffer", MESS_OPT_SIZE, F(buffer), 0, 1 << 20, 1ULL << 46, "SIZE",
	  "chase buffer, e.g. 512M, 2G (default 1G, at least 4x LLC)" },
	{ "stride", MESS_OPT_SIZE, F(stride), 64, 64, 1 << 20, "BYTES",
	  "distance between chased lines, multiple of 64 (default 256)" },
	{ "window", MESS_OPT_SIZE, F(window), 0, 0, 1ULL << 40, "BYTES",
	  "TLB-locality window visited before moving on; 0 = fully random (default 2M, the huge page)" },
	{ "gen-bytes", MESS_OPT_SIZE, F(gen_bytes), 0, 1 << 20, 1ULL << 40, "SIZE",
	  "each generator's load and store array (default max(2x LLC, 64M))" },
	{ "variant", MESS_OPT_STR, S(variant), 0, 0, "NAME",
	  "traffic-generator variant (see --list; default: widest available)" },
	{ "chase-ms", MESS_OPT_DOUBLE, F(chase_ms), 0, 1, 60000, "MS",
	  "chase time per repeat (default 100)" },
	{ "peak-gbs", MESS_OPT_DOUBLE, F(peak_gbs), 0, MESS_PEAK_GBS_MIN,
	  MESS_PEAK_GBS_MAX, "GB/S",
	  "theoretical peak bandwidth, to report ranges as % of it" },
	/* mess_summarise takes 0 <= tol < 1 (a drop of all the bandwidth
	 * is no wave); the table's bounds are closed, so 0.99. */
	{ "wave-tol", MESS_OPT_DOUBLE, F(wave_tol), 0, 0, 0.99, "FRACTION",
	  "bandwidth drop that counts as a wave (default 0.02)" },
	{ "mem-node", MESS_OPT_STR, S(mem_node), 0, 0, MESS_MEMSEL_ARG "|N:W,N:W",
	  "NUMA node for all buffers: its number, or a kind (hbm, cxl, ...) for the nearest node of it (see mess nodes; default: the chase core's node); each: one family per kind, into subdirectories, and their comparison; N:W,N:W (e.g. 0:3,2:1): every buffer's pages split over the nodes in the ratio of the weights 1-255 (--mem-place)" },
	{ "mem-place", MESS_OPT_STR, S(mem_place), 0, 0, "auto|weighted|ranges",
	  "with a split --mem-node N:W,N:W: the kernel's weighted interleave (where its system-wide weights are in the ratio), ranges of each buffer bound to the nodes in turn, or auto (weighted where usable, else ranges; default)" },
	{ "counters", MESS_OPT_STR, S(counters), 0, 0, "auto|off|LIST",
	  "memory-controller counters for bandwidth and read share: auto (the first family that opens here), off (accounted only), or families by name (mess counters --list); default auto" },
	/* Seeds 0..2^63-1: meta.json records them as JSON integers, which
	 * are signed 64-bit (2^63 was once recorded as -9223372036854775808). */
	{ "seed", MESS_OPT_INT, F(seed), 0, 0, 0x1p63, "N",
	  "seed of the chase permutation (default 1)" },
	{ "max-nop", MESS_OPT_UINT, F(max_nop), 0, 1, 1 << 30, "N",
	  "largest nop count the autotuner may try (default 4194304)" },
	{ "replay", MESS_OPT_STR, S(replay), 0, 0, "SET",
	  "run the sweep against a virtual machine replaying a curve set (a Mess-Results directory, a run of ours, ...), not this machine: fast, and every output says replay" },
	{ "replay-noise", MESS_OPT_DOUBLE, F(replay_noise), 0, 0, 1, "CV",
	  "with --replay: multiplicative lognormal noise of this coefficient of variation on every chase window and probe (default 0)" },
	{ "replay-seed", MESS_OPT_INT, F(replay_seed), 0, 0, 0x1p63, "N",
	  "with --replay: seed of the replay's noise (default 1)" },
	{ "replay-disturb", MESS_OPT_DOUBLE, F(replay_disturb), 0, 0, 1, "RATE",
	  "with --replay: share of points whose every window is disturbed (default 0)" },
	/* The name export and compare give it: the loaders' advice for a set
	 * in cycles ("give --ghz") holds for every command reading sets. */
	{ "ghz", MESS_OPT_DOUBLE, F(replay_ghz), 0, 0.1, 10, "GHZ",
	  "with --replay: the CPU clock of a set whose latency is in cycles (PROFET's curves.json), overriding its info.txt" },
	{ "backend", MESS_OPT_STR, S(backend), 0, 0, "NAME",
	  "what gives the windows: measured (this machine; the default); --replay picks replay, and the tests' binary has synthetic (docs/adding-a-backend.md)" },
	{ "device", MESS_OPT_STR, S(device), 0, 0, "gpu:N",
	  "measure GPU N's memory (the CUDA driver's ordinal) instead of this machine's: a one-thread chase against generators on many CTAs (harness/curves/gpu/); exit 3 where there is no NVIDIA driver" },
	{ "gpu-timer", MESS_OPT_STR, S(gpu_timer), 0, 0, "globaltimer|clock64",
	  "with --device: the chase's timer, %globaltimer in ns (default) or %clock64 in SM cycles at the SM clock the driver states" },
	MESS_OPT_NO_PLOTS(F(no_plots)),
	MESS_OPT_FLAG_ROW("no-ladder", F(no_ladder),
	  "do not measure LLC_LATENCY_NS, the last cache's latency plateau (3 sizes before the curves: under a second, 0.7 s on a loaded 2-core VM) that every export carries for the Mess simulator"),
	MESS_OPT_JSON(F(json), "summary.json"),
	MESS_OPT_STRICT(F(strict)),
	{ "list", MESS_OPT_FLAG, F(list), 0, 0, 0, NULL,
	  "list generator variants and mixes, with what this machine supports" },
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(mess_cfg_opts) / sizeof(mess_cfg_opts[0]))

void mess_options_defaults(struct mess_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	strcpy(cfg->mixes, "default");
	strcpy(cfg->counters, "auto");
	cfg->points = KNEE_POINTS;
	strcpy(cfg->sweep, "knee");
	cfg->repeats = 3;
	cfg->stride = MESS_CHAIN_STRIDE;	/* core/measure/chain.h says why */
	cfg->window = MESS_CHAIN_WINDOW;
	cfg->chase_ms = 100;
	cfg->wave_tol = 0.02;
	cfg->seed = 1;
	cfg->max_nop = 1 << 22;
	cfg->replay_seed = 1;
}

static void quick_defaults(struct mess_cfg *cfg)
{
	strcpy(cfg->mixes, QUICK_MIXES);
	cfg->points = QUICK_KNEE_POINTS;
	/* Three short repeats rather than one long: a point's spread is
	 * what its rules (non_monotone, stall) are judged against, and a
	 * disturbed window costs 15 ms to measure again, not 40. */
	cfg->repeats = QUICK_REPEATS;
	cfg->chase_ms = QUICK_CHASE_MS;
}

static int resolve_mixes(struct mess_cfg *cfg, char *err, size_t errlen)
{
	int v[MESS_GEN_OPS + 1], n;
	char why[160];

	cfg->nmixes = 0;
	if (!strcmp(cfg->mixes, "all") || !strcmp(cfg->mixes, "default")) {
		int step = cfg->mixes[0] == 'a' ? MESS_GEN_MIX_STEP : 10;

		for (int s = 0; s <= MESS_GEN_OPS; s += step)
			cfg->mix[cfg->nmixes++] = (unsigned)s;
		return 0;
	}
	/* Ranges step by the mix granularity: "20-30" is 20,22,..,30. */
	if (mess_parse_list(cfg->mixes, v, MESS_GEN_OPS + 1, MESS_GEN_OPS + 1,
			    MESS_GEN_MIX_STEP, &n, why, sizeof(why))) {
		snprintf(err, errlen,
			 "--mixes: '%s' is not allowed: %s; allowed: store percentages 0..100 in steps of %d (e.g. 0,10,50-60), each once, 'all' or 'default'",
			 cfg->mixes, why, MESS_GEN_MIX_STEP);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++)
		cfg->mix[cfg->nmixes++] = (unsigned)v[i];
	return 0;
}

/* auto, off, or names of mess_dram_families[], each once (core/pmu/dram.c). */
static int resolve_counters(struct mess_cfg *cfg, char *err, size_t errlen)
{
	if (!strcmp(cfg->counters, "auto") || !strcmp(cfg->counters, "off"))
		return 0;
	return mess_dram_check_list("counters", cfg->counters, "auto, off, or",
				    err, errlen);
}

/* --device gpu:N (N a decimal ordinal) and its --gpu-timer. */
static int resolve_device(struct mess_cfg *cfg, int argc, char **argv,
			  char *err, size_t errlen)
{
	const char *d = cfg->device;
	char *end = NULL;
	long n = -1;

	cfg->gpu = -1;
	if (!d[0]) {
		if (mess_opts_given(argc, argv, "gpu-timer")) {
			snprintf(err, errlen, "--gpu-timer: only with --device gpu:N");
			return -EINVAL;
		}
		return 0;
	}
	if (!strncmp(d, "gpu:", 4) && d[4] >= '0' && d[4] <= '9')
		n = strtol(d + 4, &end, 10);
	if (n < 0 || n > 63 || *end) {
		snprintf(err, errlen, "--device: '%s' is not allowed; allowed: gpu:N, N a GPU's ordinal 0..63 (e.g. gpu:0)",
			 d);
		return -EINVAL;
	}
	if (cfg->gpu_timer[0] && strcmp(cfg->gpu_timer, "globaltimer") &&
	    strcmp(cfg->gpu_timer, "clock64")) {
		snprintf(err, errlen, "--gpu-timer: '%s' is not allowed; allowed: globaltimer or clock64",
			 cfg->gpu_timer);
		return -EINVAL;
	}
	if (cfg->replay[0]) {
		snprintf(err, errlen, "--device: '%s' with --replay; allowed: one of them (a replay measures nothing)",
			 d);
		return -EINVAL;
	}
	cfg->gpu = (int)n;
	return 0;
}

int mess_options_parse(struct mess_cfg *cfg, int argc, char **argv,
		       char *err, size_t errlen)
{
	mess_options_defaults(cfg);
	if (mess_opts_given(argc, argv, "quick"))
		quick_defaults(cfg);
	if (mess_opts_parse(mess_cfg_opts, NOPTS, cfg, argc, argv, err, errlen))
		return -EINVAL;
	if (cfg->window && cfg->window < cfg->stride) {
		snprintf(err, errlen, "--window: %llu is smaller than --stride %llu; allowed: 0 (fully random) or at least the stride",
			 (unsigned long long)cfg->window,
			 (unsigned long long)cfg->stride);
		return -EINVAL;
	}
	if (strcmp(cfg->sweep, "knee") && strcmp(cfg->sweep, "classic")) {
		snprintf(err, errlen, "--sweep: '%s' is not allowed; allowed: knee or classic",
			 cfg->sweep);
		return -EINVAL;
	}
	/* classic's own defaults: --sweep classic is the sweep before it */
	if (!strcmp(cfg->sweep, "classic") && !mess_opts_given(argc, argv, "points"))
		cfg->points = cfg->quick ? QUICK_POINTS : CLASSIC_POINTS;
	if (resolve_counters(cfg, err, errlen))
		return -EINVAL;
	if (resolve_device(cfg, argc, argv, err, errlen))
		return -EINVAL;
	static const char *const with_replay[] = { "replay-noise", "replay-seed",
						   "replay-disturb", "ghz" };
	for (size_t i = 0; i < sizeof(with_replay) / sizeof(with_replay[0]); i++)
		if (!cfg->replay[0] && mess_opts_given(argc, argv, with_replay[i])) {
			snprintf(err, errlen, "--%s: only with --replay SET",
				 with_replay[i]);
			return -EINVAL;
		}
	return resolve_mixes(cfg, err, errlen);
}

void mess_options_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [curves] [OPTION]...\n"
		"Characterise the memory system with bandwidth-latency curves (the Mess method):\n"
		"a pointer chase on one core measures load-to-use latency while traffic\n"
		"generators on the other cores load the memory at rates set by a nop count,\n"
		"for read/write mixes from 100%% loads to 100%% stores.\n\n",
		prog);
	mess_opts_print(f, mess_cfg_opts, NOPTS);
	fprintf(f,
		"\nExamples:\n"
		"  %s --quick                      smoke run, under a minute or two\n"
		"  %s                              default family: 11 mixes, <= " STR(KNEE_POINTS) " points each\n"
		"  %s --mixes all --repeats 5      51 mixes, more repeats\n"
		"  %s --cores 1-15 --mem-node 1    generators on cores 1-15, memory on node 1\n"
		"  %s --mem-node hbm               memory on the HBM node nearest to the chase core\n"
		"  %s --variant nt --mixes 100     non-temporal stores: memory write share above 50%%\n"
		"  %s --resume results/host-20261122T101500Z\n"
		"  %s --quick --strict             fail (exit 2) when the run cannot be trusted\n"
		"\nEvery run ends with a verdict, PASS, WARN or INVALID, and its reasons: on\n"
		"stderr, first in summary.md, and in meta.json quality.  Disturbed chase\n"
		"windows and points that break a curve's rules are measured again first.\n"
		"\nExit status: 0 ok, 1 bad usage, 2 failure (or INVALID with --strict),\n"
		"3 not supported here, 130 interrupted (partial result kept; continue it\n"
		"with --resume).\n",
		prog, prog, prog, prog, prog, prog, prog, prog);
}
