// SPDX-License-Identifier: MIT
/*
 * `mess ladder`: the lat_mem_rd latency ladder alone (mess absorb measures
 * the same ladder whenever it runs lat_mem_rd): one pinned thread, buffers
 * from a few KiB to 4x the LLC, the cache and memory plateaus read back
 * against hwloc's cache sizes.
 */
#include "ladder/cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/machine/environ.h"
#include "core/ladder/ladder_run.h"
#include "core/machine/mem.h"
#include "core/machine/memsel.h"
#include "core/options.h"
#include "core/measure/pool.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/util.h"

/* 2: environment, quality, strict; ladder.csv's disturbance columns. */
#define META_SCHEMA 2

struct ladder_opts {
	char out[PATH_MAX];
	uint64_t stride;
	uint64_t repeats;
	double run_ms;
	int64_t core;
	char mem_node[MESS_MEMSEL_LEN];
	struct mess_memsel mem;	/* --mem-node resolved */
	int quick;
	int no_plots;
	int json;
	int strict;
	int help;
};

#define F(field) MESS_OPT_F(struct ladder_opts, field)
#define S(field) MESS_OPT_S(struct ladder_opts, field)

static const struct mess_opt opts[] = {
	{ "quick", MESS_OPT_FLAG, F(quick), 0, 0, 0, NULL,
	  "smoke-sized: runs of 10 ms, 3 repeats" },
	MESS_OPT_OUT_RUN(S(out), "ladder-"),
	{ "stride", MESS_OPT_SIZE, F(stride), sizeof(void *), 8, 1 << 20, "BYTES",
	  "bytes between the chased pointers, a multiple of 8 (default 64, lmbench's)" },
	{ "repeats", MESS_OPT_UINT, F(repeats), 0, 1, 64, "N",
	  "timed runs per size: median and spread (default 5)" },
	{ "run-ms", MESS_OPT_DOUBLE, F(run_ms), 0, 1, 10000, "MS",
	  "length of one timed run (default 100)" },
	{ "core", MESS_OPT_INT, F(core), 0, 0, MESS_MAX_CORES - 1, "N",
	  "core that runs the chase, hwloc logical index (default 0)" },
	{ "mem-node", MESS_OPT_STR, S(mem_node), 0, 0, MESS_MEMSEL_ARG,
	  "NUMA node of the buffer: its number, or a kind (hbm, cxl, ...) for the nearest node of it (see mess nodes; default: the core's own)" },
	MESS_OPT_NO_PLOTS(F(no_plots)),
	MESS_OPT_JSON(F(json), "summary.json"),
	MESS_OPT_STRICT(F(strict)),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_ladder_usage(FILE *f)
{
	fprintf(f,
		"usage: mess ladder [OPTION]...\n"
		"The lat_mem_rd latency ladder (lmbench's size sweep): ns per dependent load\n"
		"over one random cycle through buffers from 4 KiB to 4x the LLC, and the\n"
		"plateau of each cache level and of memory.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nExamples:\n"
		"  mess ladder --quick                 smoke-sized, about half a minute\n"
		"  mess ladder --core 8 --mem-node 1   core 8's caches, memory on node 1\n"
		"  mess ladder --mem-node hbm          memory on the HBM node nearest to core 0\n"
		"  mess ladder --quick --strict        fail (exit 2) when the ladder cannot be trusted\n"
		"\nFiles: ladder.csv, summary.json, ladder.md, meta.json, plots/ladder.png (see\n"
		"results/README.md).  An interrupted ladder keeps the sizes measured so far\n"
		"(meta.json says \"complete\": false); it is measured again, not resumed.\n"
		"Every ladder ends with a verdict, PASS, WARN or INVALID with its reasons\n"
		"(first in ladder.md and among the closing lines, meta.json quality): the\n"
		"machine looked at before the start, the runs disturbed, the levels not flat\n"
		"or out of order.\n"
		"Exit status: 0 ok, 1 bad usage, 2 failure (or INVALID with --strict), 3 no node\n"
		"of the --mem-node kind here, 130 interrupted.\n");
}

/* The shared opening (core/options.h), the defaults --quick picks first,
 * --out checked once --help is not asked for: 0 go on, 1 done (--help),
 * -EINVAL said. */
static int parse(struct ladder_opts *o, int argc, char **argv)
{
	char err[PATH_MAX + 64];
	int quick = mess_opts_given(argc, argv, "quick"), rc;

	*o = (struct ladder_opts){ .stride = 64, .repeats = quick ? 3 : 5,
				   .run_ms = quick ? 10 : 100 };
	rc = mess_cmd_open("mess ladder", opts, NOPTS, o, &o->help,
			   mess_ladder_usage, argc, argv, NULL, 0, NULL);
	if (rc)
		return rc;
	if (o->out[0] && mess_out_check("out", o->out, err, sizeof(err))) {
		fprintf(stderr, "mess ladder: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

static void job_ladder(struct mess_pool_thread *t, void *arg)
{
	t->err = mess_ladder_run(arg);
}

/* The run's state beside the ladder: what meta.json and ladder.md need. */
struct ladder_run {
	struct mess_env env;
	struct mess_verdict verdict;
	int judged;		/* verdict made: meta.json gets its quality */
};

static json_t *meta(const struct mess_rundir *rd, const struct mess_topo *t,
		    const struct ladder_opts *o, const struct mess_ladder *l,
		    const struct ladder_run *run, const char *plots)
{
	json_t *m = mess_rundir_meta(rd, t, META_SCHEMA);

	if (m && mess_json_merge(m, mess_json_pack(
		"{s:o, s:o, s:i, s:i, s:I, s:i, s:o, s:I, s:I, s:I, s:i, s:f, s:s, s:s, s:s, s:s, s:o, s:b, s:b, s:s}",
		"environment", mess_env_json(&run->env),
		"quality", run->judged ?
			mess_ladder_quality_json(l, &run->verdict, o->strict) :
			mess_json_pack("{s:s}", "verdict", "pending"),
		"core", (int)o->core, "core_pu", t->core_pu[o->core],
		"llc_bytes", (json_int_t)l->llc_bytes, "memory_node", l->o.node,
		"memory_node_choice", mess_memsel_json(&o->mem),
		"stride_bytes", (json_int_t)l->o.stride,
		"min_bytes", (json_int_t)l->o.lo, "max_bytes", (json_int_t)l->o.hi,
		"repeats", (int)l->o.repeats, "run_ms", l->o.run_ms,
		"timer", "clock_gettime(CLOCK_MONOTONIC) around each run",
		"latency", "ns per dependent load: median of repeats runs per size (ladder.csv lat_ns)",
		"spread", "1.4826 x median absolute deviation of the runs (ladder.csv spread_ns)",
		"huge_pages", l->hp, "huge_pct", mess_json_real(l->huge_pct, 1),
		"quick", o->quick, "strict", o->strict, "plots", plots))) {
		json_decref(m);
		return NULL;
	}
	return m;
}

static int write_md(const struct mess_ladder *l, const struct ladder_run *run,
		    const struct mess_memsel *mem, const char *dir, const char *cpu,
		    int complete)
{
	char path[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/ladder.md", dir);
	f = mess_fopen_new(path);
	if (!f)
		return -errno;
	fprintf(f, "# Latency ladder: %s%s\n\n", cpu, complete ? "" : " (partial)");
	/* The verdict first (issue 20), then where the memory was. */
	mess_verdict_md(f, &run->verdict);
	mess_env_md(f, &run->env);
	mess_memsel_md(f, mem);
	mess_ladder_md(l, f);
	return fclose(f) ? -EIO : 0;
}

/* Before anything is measured: the machine as the ladder finds it. */
static int look(struct ladder_run *run, struct mess_topo *topo, int core,
		int node)
{
	int err = mess_env_probe(&run->env, topo, &core, 1, node, 250);

	mess_verdict_init(&run->verdict);
	if (err)
		return err;
	mess_env_verdict(&run->env, &run->verdict);
	mess_verdict_warn(stderr, "mess ladder: ", &run->verdict);
	return 0;
}

/* The verdict, then whatever was measured written out, an interrupted
 * ladder's too: 0 or -errno of the files. */
static int finish(struct mess_ladder *l, struct ladder_run *run,
		  const struct ladder_opts *o, struct mess_rundir *rd,
		  const struct mess_topo *topo, int rc)
{
	char err[512] = "", title[300], plots[600] = "skipped: --no-plots";
	int frc = 0;

	if (l->n) {
		mess_ladder_judge(l, &run->verdict, NULL);
		if (rc)
			mess_verdict_add(&run->verdict, MESS_WARN, "partial",
					 "the ladder was cut short: only the sizes in %s were measured",
					 MESS_LADDER_CSV);
		run->judged = 1;
		frc = mess_ladder_write(l, rd->dir, topo->cpu_model);
		if (!frc)
			frc = write_md(l, run, &o->mem, rd->dir, topo->cpu_model, !rc);
		char host[128] = "";

		/* The verdict and the host in the figure's title, as every
		 * other figure's: a ladder pasted alone says whether to
		 * believe it. */
		gethostname(host, sizeof(host) - 1);
		snprintf(title, sizeof(title), "%s: %s%s on %s",
			 mess_level_name(run->verdict.level), topo->cpu_model,
			 rc ? " (partial)" : "", host[0] ? host : "unknown host");
		if (!frc && !o->no_plots) {
			if (mess_ladder_plot(l, rd->dir, title, err, sizeof(err)))
				snprintf(plots, sizeof(plots), "skipped: %s", err);
			else
				snprintf(plots, sizeof(plots), "plots/ladder.png and .svg");
		}
	}
	if (!frc)
		frc = mess_rundir_write_meta(rd, meta(rd, topo, o, l, run, plots), !rc);
	/* First of the closing lines: whether to believe the ones after. */
	if (run->judged) {
		mess_verdict_print(stderr, "mess ladder", &run->verdict);
		mess_ladder_report(l, "mess ladder");
	}
	return frc;
}

int mess_ladder_main(int argc, char **argv)
{
	static struct mess_ladder l;
	static struct ladder_run run;
	struct ladder_opts o;
	struct mess_topo topo = { 0 };
	struct mess_rundir rd = { 0 };
	struct mess_pool pool = { 0 };
	char err[512] = "";
	int rc, core;

	rc = parse(&o, argc, argv);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (mess_topo_init_said(&topo, "mess ladder"))
		return -EIO;
	core = (int)o.core;
	if (core >= topo.ncores) {
		fprintf(stderr, "mess ladder: --core: core %d out of range; allowed: 0-%d on this machine\n",
			core, topo.ncores - 1);
		mess_topo_fini(&topo);
		return -EINVAL;
	}
	rc = mess_memsel_resolve(&topo, o.mem_node, core, &o.mem, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "mess ladder: %s\n", rc == -ENOMEM ? strerror(-rc) : err);
		mess_topo_fini(&topo);
		return rc == -ENOMEM ? -EIO : rc;
	}
	if (o.mem.how != MESS_MEMSEL_DEFAULT)
		fprintf(stderr, "mess ladder: --mem-node %s: node %d (%s)\n", o.mem.given,
			o.mem.node, o.mem.rule);
	if (o.mem.remote[0])
		fprintf(stderr, "mess ladder: warning: --mem-node %s: %s\n",
			o.mem.given[0] ? o.mem.given : "default", o.mem.remote);
	mess_ladder_init(&l, &topo, core, o.stride, o.run_ms, (unsigned)o.repeats,
			 o.mem.node);
	/* A buffer larger than the node is an OOM kill once touched. */
	if (mess_node_fits(o.mem.node, l.o.hi, err, sizeof(err))) {
		fprintf(stderr, "mess ladder: --mem-node %s: %s (4x the LLC); nothing written\n",
			o.mem.given[0] ? o.mem.given : "default", err);
		mess_ladder_fini(&l);
		mess_topo_fini(&topo);
		return -EIO;
	}
	/* The directory before the look at the machine: a refused run says
	 * its one line without the look's warnings. */
	rc = mess_rundir_open_new(&rd, "mess ladder", "ladder", o.out,
				  MESS_LADDER_CSV, o.json, argc, argv);
	if (!rc) {
		rc = look(&run, &topo, core, o.mem.node);
		if (rc)
			fprintf(stderr, "mess ladder: cannot look at the machine: %s\n",
				strerror(-rc));
	}
	if (!rc)
		rc = mess_rundir_write_meta(&rd, meta(&rd, &topo, &o, &l, &run, "pending"), 0);
	if (!rc)
		rc = mess_pool_start(&pool, &topo, &core, 1);
	if (rc) {
		mess_env_free(&run.env);
		mess_rundir_close(&rd);
		mess_topo_fini(&topo);
		return rc == -EEXIST || (rc == -EINVAL && rd.why[0]) ? rc : -EIO;
	}
	/* Unwatched, the ladder still runs; its verdict says so. */
	mess_ladder_watch(&l, &pool, &topo.core_pu[core]);
	/* Before "writing" is said: a Ctrl-C right after it killed the
	 * ladder with no message and no partial result. */
	mess_signals_install();
	fprintf(stderr, "mess ladder: %s, core %d, %llu B stride, %llu KiB to %llu MiB; writing %s\n",
		topo.cpu_model, core, (unsigned long long)o.stride,
		(unsigned long long)(l.o.lo >> 10), (unsigned long long)(l.o.hi >> 20),
		rd.dir);
	rc = mess_pool_call(&pool, 1, job_ladder, &l);
	mess_pool_stop(&pool);
	mess_ladder_fini(&l);
	if (mess_interrupted)
		rc = -EINTR;
	mess_rundir_stop_clock(&rd);
	rc = mess_rundir_end(&rd, rc, finish(&l, &run, &o, &rd, &topo, rc));
	if (!rc && o.strict && run.judged && run.verdict.level == MESS_INVALID) {
		fprintf(stderr, "mess ladder: --strict: the verdict is INVALID (the results are kept in %s)\n",
			rd.dir);
		rc = -EIO;
	}
	mess_env_free(&run.env);
	mess_rundir_close(&rd);
	mess_topo_fini(&topo);
	return rc == -EINTR || !rc ? rc : -EIO;
}
