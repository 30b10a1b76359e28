// SPDX-License-Identifier: MIT
/*
 * `mess c2c`: core-to-core latency.  For each pair of PUs, two threads,
 * one pinned to each, hand one cache line back and forth: the first
 * stores an odd count and waits for the second to store the next one
 * (release stores, acquire loads: each wait is one transfer of the line),
 * so half a round trip is the one-way latency of the line between the two
 * PUs' caches.  The hand-over is the ISA's assembly (mess_c2c_ping_* and
 * _pong_* of kernels/asm/<isa>/c2c.S), the same instructions whatever
 * compiled the harness; the timing is here.  The figures and files are
 * table.c's.
 */
#include "c2c/cmd.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c2c/c2c.h"
#include "core/clock.h"
#include "core/measure/cost.h"
#include "core/options.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/util.h"
#include "mess_kernels.h"

/* 2: environment, quality, strict. */
#define META_SCHEMA 2
#define STOP ((uint64_t)MESS_C2C_STOP)

struct c2c_opts {
	char out[PATH_MAX];
	uint64_t samples;
	uint64_t batch;
	uint64_t max_pairs;
	int xchg;
	int quick;
	int json;
	int no_plots;
	int strict;
	int help;
};

#define F(field) MESS_OPT_F(struct c2c_opts, field)
#define S(field) MESS_OPT_S(struct c2c_opts, field)

static const struct mess_opt opts[] = {
	{ "quick", MESS_OPT_FLAG, F(quick), 0, 0, 0, NULL,
	  "smoke-sized: 200 samples per pair" },
	MESS_OPT_OUT_RUN(S(out), "c2c-"),
	{ "samples", MESS_OPT_UINT, F(samples), 0, 10, 1000000, "N",
	  "samples per pair: median and p99 (default 2000)" },
	{ "batch", MESS_OPT_UINT, F(batch), 0, 1, 100000, "N",
	  "round trips per sample, timed together (default 50)" },
	{ "max-pairs", MESS_OPT_UINT, F(max_pairs), 0, 1, 1000000, "N",
	  "at most this many pairs: on a larger machine every k-th pair (default 2048)" },
	{ "pairs", MESS_OPT_UINT, F(max_pairs), 0, 1, 1000000, "N",
	  "a sample of N pairs, spread as --max-pairs spreads them (its other name)" },
	{ "xchg", MESS_OPT_FLAG, F(xchg), 0, 0, 0, NULL,
	  "hand the line over with atomic exchanges (a locked read-modify-write) instead of plain stores" },
	MESS_OPT_JSON(F(json), "summary.json"),
	MESS_OPT_NO_PLOTS(F(no_plots)),
	MESS_OPT_STRICT(F(strict)),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_c2c_usage(FILE *f)
{
	fprintf(f,
		"usage: mess c2c [OPTION]...\n"
		"Core-to-core latency: for each pair of PUs (hardware threads), one cache line\n"
		"handed back and forth between two threads pinned to them; the one-way latency\n"
		"(half a round trip), its median and p99 per pair, and the pairs grouped by\n"
		"what they share: smt (the same core), same cache (L2 or L3/CCX), same socket,\n"
		"other socket.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nExamples:\n"
		"  mess c2c --quick                    smoke-sized\n"
		"  mess c2c --json | jq .groups        the groups' medians\n"
		"  mess c2c --pairs 500                a sample of the pairs of a large machine\n"
		"  mess c2c --xchg                     the same with atomic exchanges\n"
		"  mess c2c --quick --strict           fail (exit 2) when the table cannot be trusted\n"
		"\nFiles: c2c.csv, summary.md, summary.json, meta.json, report.html and\n"
		"plots/c2c (.png, .svg: a heat map of the medians; see results/README.md).\n"
		"Every table ends with a verdict, PASS, WARN or INVALID with its reasons\n"
		"(first in summary.md and among the closing lines, meta.json quality): the\n"
		"machine looked at before the start, the pairs whose tail was preempted or\n"
		"whose median is no cache transfer.\n"
		"Exit status: 0 ok, 1 bad usage, 2 failure (or INVALID with --strict), 3 fewer\n"
		"than two PUs here, 130 interrupted.\n");
}

/* One pair's two threads and the line they hand over. */
struct pp {
	_Alignas(128) volatile uint64_t line;
	char pad[128 - sizeof(uint64_t)];
	struct mess_topo *t;
	int pu[2];
	unsigned samples, batch;
	int xchg;		/* exchanges, not stores */
	double *s;		/* the first thread's samples, ns one way */
	unsigned got;
	atomic_int ready;	/* the second thread pinned (1) or failed (-1) */
	int err[2];
};

/* The second thread answers every odd count until the first stores STOP. */
static void *answer(void *arg)
{
	struct pp *p = arg;

	p->err[1] = mess_topo_bind_pu(p->t, p->pu[1]);
	atomic_store(&p->ready, p->err[1] ? -1 : 1);
	if (p->err[1])
		return NULL;
	if (p->xchg)
		mess_c2c_pong_xchg(&p->line);
	else
		mess_c2c_pong_store(&p->line);
	return NULL;
}

static void *first(void *arg)
{
	struct pp *p = arg;
	uint64_t (*ping)(volatile uint64_t *, uint64_t, uint64_t) =
		p->xchg ? mess_c2c_ping_xchg : mess_c2c_ping_store;
	int r;

	p->err[0] = mess_topo_bind_pu(p->t, p->pu[0]);
	while (!(r = atomic_load(&p->ready)))
		;
	if (p->err[0] || r < 0)
		goto stop;
	/* One sample's worth first, not kept: both caches warm. */
	for (unsigned i = 0; i <= p->samples && !mess_interrupted; i++) {
		double t0 = mess_now_ns();

		/* The count starts again each sample (from 0: the line holds
		 * this sample's first odd count before any wait), so it never
		 * nears STOP however long the run. */
		ping(&p->line, p->batch, 0);
		if (i)
			p->s[p->got++] = (mess_now_ns() - t0) / (2.0 * p->batch);
	}
stop:
	__atomic_store_n(&p->line, STOP, __ATOMIC_RELEASE);
	return NULL;
}

static int pingpong(struct mess_topo *t, struct mess_c2c_pair *pair, double *s,
		    const struct c2c_opts *o)
{
	static struct pp p;
	pthread_t th[2];
	int rc;

	memset(&p, 0, sizeof(p));
	p.t = t;
	p.pu[0] = pair->a;
	p.pu[1] = pair->b;
	p.samples = (unsigned)o->samples;
	p.batch = (unsigned)o->batch;
	p.xchg = o->xchg;
	p.s = s;
	rc = -pthread_create(&th[1], NULL, answer, &p);
	if (rc)
		return rc;
	rc = -pthread_create(&th[0], NULL, first, &p);
	if (rc) {
		__atomic_store_n(&p.line, STOP, __ATOMIC_RELEASE);
		pthread_join(th[1], NULL);
		return rc;
	}
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	mess_c2c_finish(pair, s, p.got);
	return p.err[0] ? p.err[0] : p.err[1];
}

struct c2c {
	struct c2c_opts o;
	struct mess_topo topo;
	int *pus, npu;
	struct mess_c2c_pair *pairs;
	int npairs, done;
	long all;
	char plots[600];
	struct mess_judge judge;
	struct mess_cost cost;
};

static int setup(struct c2c *c, int argc, char **argv)
{
	int quick = mess_opts_given(argc, argv, "quick"), rc;
	int (*pick)[2];
	char err[PATH_MAX + 64];

	c->o = (struct c2c_opts){ .samples = quick ? 200 : 2000, .batch = 50,
				  .max_pairs = 2048 };
	rc = mess_cmd_open("mess c2c", opts, NOPTS, &c->o, &c->o.help, mess_c2c_usage,
			   argc, argv, NULL, 0, NULL);
	if (rc)
		return rc;
	if (c->o.out[0] && mess_out_check("out", c->o.out, err, sizeof(err))) {
		fprintf(stderr, "mess c2c: %s\n", err);
		return -EINVAL;
	}
	if (mess_topo_init_said(&c->topo, "mess c2c"))
		return -EIO;
	c->pus = calloc(MESS_MAX_CORES, sizeof(int));
	if (!c->pus)
		return -ENOMEM;
	c->npu = mess_topo_pus(&c->topo, c->pus, MESS_MAX_CORES);
	if (c->npu < 2) {
		fprintf(stderr, "mess c2c: %d PU here: no pair to measure\n", c->npu);
		return -EOPNOTSUPP;
	}
	c->all = (long)c->npu * (c->npu - 1) / 2;
	pick = malloc(sizeof(*pick) * (size_t)(c->all < (long)c->o.max_pairs ? c->all : (long)c->o.max_pairs));
	c->pairs = calloc((size_t)(c->all < (long)c->o.max_pairs ? c->all : (long)c->o.max_pairs),
			  sizeof(*c->pairs));
	if (!pick || !c->pairs) {
		free(pick);
		return -ENOMEM;
	}
	c->npairs = mess_c2c_pick(c->npu, (int)c->o.max_pairs, pick);
	for (int i = 0; i < c->npairs; i++) {
		struct mess_c2c_pair *p = &c->pairs[i];

		p->a = c->pus[pick[i][0]];
		p->b = c->pus[pick[i][1]];
		p->core_a = mess_topo_core_of_pu(&c->topo, p->a);
		p->core_b = mess_topo_core_of_pu(&c->topo, p->b);
		p->group = mess_topo_pu_share(&c->topo, p->a, p->b);
		p->median_ns = p->p99_ns = p->min_ns = NAN;
	}
	free(pick);
	return 0;
}

/* The first pair measured with a tenth of the samples (at least 10),
 * three times, each timed: the pair's fixed cost (its threads started,
 * pinned and joined) is what the probe's time holds past its samples,
 * counted once a pair, not ten times as a probe scaled whole counts it
 * (+347 % on 6 pairs).  The least of the three: a probe preempted on a
 * shared host says nothing of the run's pairs. */
#define PROBES 3
static void estimate(struct c2c *c, double *s)
{
	struct c2c_opts o = c->o;
	struct mess_c2c_pair p = c->pairs[0];
	double fixed = INFINITY, one = INFINITY, t = NAN;

	o.samples = c->o.samples / 10 > 10 ? c->o.samples / 10 : 10;
	for (int k = 0; k < PROBES; k++) {
		double t0 = mess_now_ns(), sum = 0;

		if (pingpong(&c->topo, &p, s, &o))
			break;
		t = (mess_now_ns() - t0) / 1e9;
		for (unsigned i = 0; i < p.samples; i++)
			sum += s[i];
		/* The warm sample as long as the median. */
		sum = (sum + p.median_ns) * 2.0 * o.batch / 1e9;
		fixed = fmin(fixed, fmax(0, t - sum));
		one = fmin(one, p.median_ns);
	}
	c->cost.est_s = isfinite(one) && isfinite(fixed) ?
		mess_c2c_estimate(c->npairs, (unsigned)c->o.samples, (unsigned)c->o.batch,
				  one, fixed) : NAN;
	snprintf(c->cost.plan, sizeof(c->cost.plan), "%d pair%s x %d samples", c->npairs,
		 c->npairs == 1 ? "" : "s", (int)c->o.samples);
	snprintf(c->cost.from, sizeof(c->cost.from),
		 "from this machine's first windows: %d samples of PUs %d and %d, %d times (last %.1f ms); counted: %.1f ns one way a round trip's half, %.2f ms a pair's threads",
		 (int)o.samples, p.a, p.b, PROBES, t * 1e3, one, fixed * 1e3);
}

static int measure(struct c2c *c)
{
	double *s = malloc(sizeof(*s) * (size_t)c->o.samples);
	int rc = s ? 0 : -ENOMEM;

	if (!rc)
		estimate(c, s);
	mess_cost_begin(&c->cost, "mess c2c");
	for (int i = 0; i < c->npairs && !rc && !mess_interrupted; i++) {
		struct mess_c2c_pair *p = &c->pairs[i];

		rc = pingpong(&c->topo, p, s, &c->o);
		if (rc || mess_interrupted)
			break;
		c->done++;
		fprintf(stderr, "c2c: [%d/%d] PU %d <-> PU %d (%s): median %.1f ns, p99 %.1f ns\n",
			c->done, c->npairs, p->a, p->b, mess_c2c_groups[p->group],
			p->median_ns, p->p99_ns);
	}
	free(s);
	if (rc)
		fprintf(stderr, "mess c2c: cannot run the pair's threads: %s\n", strerror(-rc));
	return mess_interrupted ? -EINTR : rc;
}

static json_t *meta(const struct mess_rundir *rd, struct c2c *c)
{
	json_t *m = mess_rundir_meta(rd, &c->topo, META_SCHEMA);

	if (m && (mess_json_merge(m, mess_json_pack(
		"{s:o, s:o, s:b, s:i, s:I, s:i, s:b, s:i, s:i, s:s, s:s, s:s, s:s, s:b, s:s}",
		"environment", mess_judge_env_json(&c->judge),
		"quality", mess_judge_quality(&c->judge, mess_c2c_rules_json(), c->o.strict),
		"strict", c->o.strict,
		"pus", c->npu, "pairs_all", (json_int_t)c->all, "pairs_chosen", c->npairs,
		"sampled", c->npairs < c->all, "samples_per_pair", (int)c->o.samples,
		"round_trips_per_sample", (int)c->o.batch,
		"op", c->o.xchg ? "xchg: atomic exchanges (acq_rel)" : "store: release stores, acquire loads",
		"method", "two threads pinned to the pair's PUs (hwloc) hand one 128-byte-aligned line back and forth in the ISA's assembly (kernels/asm/<isa>/c2c.S): a 64-bit count stored (op) and awaited with acquire loads; a sample is a batch of round trips timed by clock_gettime(CLOCK_MONOTONIC) on the first PU, halved (one way); one batch first to warm, not kept",
		"figures", "per pair: median, p99 (nearest rank) and least of the samples; per group: the median, least and most of its pairs' medians and the worst p99",
		"groups", "what the pair's closest common hwloc object is: a core (smt), a cache (same cache: L2 or L3/CCX), below a package (same socket), else other socket",
		"quick", c->o.quick, "plots", c->plots[0] ? c->plots : "pending")) ||
	    (c->cost.plan[0] && mess_json_merge(m, mess_cost_json(&c->cost))))) {
		json_decref(m);
		return NULL;
	}
	return m;
}

static void write_csv(FILE *f, const void *arg)
{
	const struct c2c *c = arg;

	mess_c2c_csv(f, c->pairs, c->done);
}

static void write_md(FILE *f, const void *arg)
{
	const struct c2c *c = arg;

	fprintf(f, "# Core-to-core latency: %s\n\n%d of the %ld pairs of %d PUs%s; the line handed over by %s.\n\n",
		c->topo.cpu_model, c->done, c->all, c->npu,
		c->npairs < c->all ? " (every k-th: --max-pairs)" : "",
		c->o.xchg ? "atomic exchanges" : "plain stores");
	mess_judge_md(f, &c->judge);
	mess_c2c_md(f, c->pairs, c->done);
}

/* The heat map, or why not in meta.json plots: a figure is optional. */
static void plot(struct c2c *c, const char *dir)
{
	char err[512], title[440], pre[32], host[128] = "";

	/* The host, as every other figure's title has it. */
	gethostname(host, sizeof(host) - 1);
	snprintf(title, sizeof(title), "%sCore-to-core latency (%s): %s on %s",
		 mess_judge_prefix(&c->judge, pre, sizeof(pre)),
		 c->o.xchg ? "xchg" : "store", c->topo.cpu_model, host[0] ? host : "unknown host");
	if (c->o.no_plots)
		snprintf(c->plots, sizeof(c->plots), "skipped: --no-plots");
	else if (mess_c2c_plot(dir, c->pairs, c->done, c->pus, c->npu, title, err,
			       sizeof(err)))
		snprintf(c->plots, sizeof(c->plots), "skipped: %s", err);
	else
		snprintf(c->plots, sizeof(c->plots), "plots/c2c.png and .svg");
}

static int write_files(struct c2c *c, struct mess_rundir *rd)
{
	int rc = mess_tmp_write(rd->dir, MESS_C2C_CSV, write_csv, c);

	if (!rc)
		rc = mess_tmp_write(rd->dir, "summary.md", write_md, c);
	if (!rc)
		rc = mess_json_write(rd->dir, "summary.json", mess_json_pack(
			"{s:s, s:o, s:o}", "cpu_model", c->topo.cpu_model,
			"quality", mess_judge_quality(&c->judge, NULL, c->o.strict),
			"c2c", mess_c2c_json(c->pairs, c->done)));
	return rc;
}

int mess_c2c_main(int argc, char **argv)
{
	static struct c2c c;
	struct mess_rundir rd = { 0 };
	int rc, frc;

	memset(&c, 0, sizeof(c));
	rc = setup(&c, argc, argv);
	if (!rc) {
		rc = mess_rundir_open_new(&rd, "mess c2c", "c2c", c.o.out, MESS_C2C_CSV,
					  c.o.json, argc, argv);
		/* Every core: the pairs cover the PUs of all of them.
		 * Unlooked, the table still runs; its verdict says so. */
		if (!rc) {
			int *cores = calloc((size_t)c.topo.ncores, sizeof(int));

			for (int i = 0; cores && i < c.topo.ncores; i++)
				cores[i] = i;
			if (cores)
				mess_judge_look(&c.judge, &c.topo, cores, c.topo.ncores,
						mess_topo_node_of_core(&c.topo, 0), "mess c2c");
			free(cores);
		}
		if (!rc)
			rc = mess_rundir_write_meta(&rd, meta(&rd, &c), 0);
		if (!rc) {
			mess_signals_install();
			fprintf(stderr, "mess c2c: %s, %d PUs, %d pair%s; writing %s\n",
				c.topo.cpu_model, c.npu, c.npairs,
				c.npairs == 1 ? "" : "s", rd.dir);
			rc = measure(&c);
			mess_cost_end(&c.cost);
			mess_rundir_stop_clock(&rd);
			if (c.done || !rc) {
				mess_judge_begin(&c.judge, !rc, "pairs in " MESS_C2C_CSV);
				mess_c2c_judge(c.pairs, c.done, &c.judge.v);
			}
			frc = write_files(&c, &rd);
			if (!frc)
				plot(&c, rd.dir);
			if (!frc)
				frc = mess_rundir_write_meta(&rd, meta(&rd, &c), !rc);
			rc = mess_rundir_end(&rd, rc, frc);
			rc = mess_judge_end(&c.judge, "mess c2c", rd.dir, c.o.strict, rc);
		} else if (rc != -EEXIST && rc != -EINVAL) {
			rc = -EIO;
		}
		mess_rundir_close(&rd);
	}
	free(c.pus);
	free(c.pairs);
	mess_judge_fini(&c.judge);
	if (c.topo.hw)
		mess_topo_fini(&c.topo);
	return rc > 0 ? 0 : rc == -EINTR || rc == -EINVAL || rc == -EEXIST ||
		       rc == -EOPNOTSUPP || !rc ? rc : -EIO;
}
