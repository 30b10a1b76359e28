// SPDX-License-Identifier: MIT
/*
 * `mess sample` with no subcommand: the sweep of sampling periods at the
 * default aux buffer, then (for the backends with one) of aux buffer sizes
 * at the default period, each on 1 thread and on all cores of the chase
 * core's socket, with accuracy (eq. 1 against a counting event of the
 * same run), overhead (unsampled then sampled runs, back to back, in
 * pairs), losses and the samples' content.  The plan, the run directory
 * (meta.json, --resume, Ctrl-C) and the progress are here; a point is
 * measured by measure.c and written by report.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/options.h"
#include "core/rundir/outdir.h"
#include "core/signals.h"
#include "sample/sample.h"
#include "sample/sweep.h"

#define F(field) MESS_OPT_F(struct sample_opts, field)
#define S(field) MESS_OPT_S(struct sample_opts, field)

static const struct mess_opt opts[] = {
	{ "backend", MESS_OPT_STR, S(backend), 0, 0, "B",
	  "spe, ibs, pebs, cpu-clock or auto (default: the first this machine has)" },
	{ "periods", MESS_OPT_STR, S(periods), 0, 0, "LIST",
	  "sampling periods, comma-separated integers > 0 (ops; cpu-clock: ns)" },
	{ "aux-pages", MESS_OPT_STR, S(aux_pages), 0, 0, "LIST",
	  "aux buffer sizes swept, in pages, powers of two (SPE; default 2,4,...,128)" },
	{ "threads", MESS_OPT_STR, S(threads), 0, 0, "LIST",
	  "thread counts, comma-separated, or all: the chase core's socket (default 1,all)" },
	{ "ring-pages", MESS_OPT_UINT, F(ring_pages), 0, 1, 65536, "N",
	  "ring buffer data pages per thread, a power of two (default 64)" },
	{ "pairs", MESS_OPT_UINT, F(pairs), 0, 1, 100, "N",
	  "unsampled/sampled run pairs per point (default 5; --quick 3)" },
	{ "run", MESS_OPT_DOUBLE, F(run_s), 0, 0.001, 60, "S",
	  "seconds one run lasts on one thread (default 0.5; --quick 0.1)" },
	{ "workload", MESS_OPT_STR, S(workload), 0, 0, "W",
	  "stream (default), lat_mem_rd or spmxv; or -- CMD ARGS: any command" },
	{ "size", MESS_OPT_UINT, F(size_mib), 0, 1, 1 << 20, "MIB",
	  "workload data in MiB (default 4x the LLC, at least 64; --quick 16)" },
	{ "filter", MESS_OPT_STR, S(filter), 0, 0, "F",
	  "loads, stores or both (default): the ops sampled and counted" },
	{ "min-latency", MESS_OPT_UINT, F(min_latency), 0, 0, 65535, "C",
	  "SPE minimum latency filter / PEBS ldlat, cycles (default none / 3)" },
	{ "l3miss", MESS_OPT_FLAG, F(l3miss), 0, 0, 0, NULL, "IBS: l3missonly (Zen 4 on)" },
	{ "core", MESS_OPT_UINT, F(core), 0, 0, MESS_MAX_CORES - 1, "N",
	  "the chase core: thread 0's, its socket's cores the others (default 0)" },
	{ "min-accuracy", MESS_OPT_DOUBLE, F(min_accuracy), 0, 0, 1, "A",
	  "accuracy the recommended period must reach (default 0.94)" },
	{ "overhead-budget", MESS_OPT_DOUBLE, F(budget), 0, 0, 10, "O",
	  "overhead the recommended period may cost (default 0.033)" },
	MESS_OPT_OUT(S(out), "DIR", "run directory (default results/<host>-sample-<UTC>)"),
	{ "resume", MESS_OPT_STR, S(resume), 0, 0, "DIR",
	  "continue an interrupted run: its points are kept, the rest measured" },
	MESS_OPT_FLAG_ROW("force", F(force), "with --resume: accept another build's run"),
	{ "quick", MESS_OPT_FLAG, F(quick), 0, 0, 0, NULL,
	  "a CI-sized sweep: few periods and aux sizes, short runs" },
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))
#define DEFAULT_AUX 16		/* pages: the paper's trade-off, 16-32 */
#define DEFAULT_PERIOD 4000	/* ops: the paper's best accuracy, 3000-4000 */
#define AUX_SWEEP "2,4,8,16,32,64,128"
#define AUX_QUICK "4,16,64"

void mess_sample_sweep_usage(FILE *f)
{
	fprintf(f,
		"usage: mess sample [OPTION]... [-- CMD ARGS]\n"
		"       mess sample decode FILE [--out F.csv]\n"
		"How precise memory-access sampling behaves here: the periods swept at the\n"
		"default aux buffer (%d pages), then the aux sizes at the default period\n"
		"(%d), on 1 thread and on all cores of the chase core's socket; per point\n"
		"the accuracy 1 - |(counted - samples x period) / counted| against a\n"
		"counting event of the same run, the overhead from unsampled/sampled run\n"
		"pairs (median and spread), the losses (lost, throttled, aux collisions and\n"
		"truncations), latency histograms per level and samples per workload buffer\n"
		"over time.  cpu-clock (the kernel's software sampling) runs on any Linux,\n"
		"against task-clock, periods in ns; it is not memory sampling.\n\n",
		DEFAULT_AUX, DEFAULT_PERIOD);
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nFiles: sample.csv, latency.csv, regions.csv, summary.md, summary.json,\n"
		"meta.json, plots/ (gnuplot)\n"
		"\nExamples:\n"
		"  mess sample                                 the default sweep on this machine's backend\n"
		"  mess sample --quick                         a few periods and aux sizes, short runs\n"
		"  mess sample --backend spe --filter loads --periods 1000,2000,4000\n"
		"  mess sample --backend ibs --l3miss --workload lat_mem_rd\n"
		"  mess sample --threads all -- ./app --size 4G   sample any command on the socket\n"
		"  mess sample decode perf.data --out spe.csv  decode a recording from any machine\n"
		"Exit status: 0 done, 1 bad usage, 2 failure, 3 the backend cannot run here\n"
		"(why), 130 interrupted (resume with --resume DIR).\n");
}

static int bad(const char *opt, const char *val, const char *allowed)
{
	fprintf(stderr, "mess sample: --%s: '%s' is not allowed; allowed: %s\n", opt, val, allowed);
	return -EINVAL;
}

/* One --periods or --aux-pages item: an integer > 0 (a power of two up to
 * 65536 for aux pages), kept exact in ctx beside the double that the list
 * rule compares. */
struct u64_items {
	uint64_t *v;
	int n, pow2;
};

static int u64_item(const char *w, void *ctx, double *d)
{
	struct u64_items *c = ctx;
	uint64_t x;

	if (mess_opt_u64(w, &x) || !x || (c->pow2 && ((x & (x - 1)) || x > 65536)))
		return -EINVAL;
	c->v[c->n++] = x;
	*d = (double)x;
	return 0;
}

/* The list rule of every option (mess_parse_items): no empty item, none
 * given twice, at most SAMPLE_MAXP. */
static int parse_list(const char *name, const char *s, uint64_t *v, int *n, int pow2)
{
	struct u64_items c = { v, 0, pow2 };
	struct mess_items it = { name, u64_item, &c, "is not allowed",
				 pow2 ? "powers of two up to 65536, comma-separated, each once" :
					"integers > 0, comma-separated, each once (at most 32)" };
	double d[SAMPLE_MAXP];
	char err[512];

	if (mess_parse_items(&it, s, d, SAMPLE_MAXP, n, err, sizeof(err))) {
		fprintf(stderr, "mess sample: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

/* One --threads item: a count, or "all" as 0 until the socket's size is
 * known (so "all,all" is a repeated item, "1,all" on one core is not). */
static int threads_item(const char *w, void *ctx, double *d)
{
	uint64_t x;

	(void)ctx;
	if (!strcmp(w, "all"))
		x = 0;
	else if (mess_opt_u64(w, &x) || !x || x > SAMPLE_MAX_THREADS)
		return -EINVAL;
	*d = (double)x;
	return 0;
}

/* --threads: counts in 1..ncores, "all" the socket's cores, each once;
 * ncores 0 checks only the list (before the topology is known). */
static int parse_threads(const char *s, int ncores, int *v, int *n)
{
	char allowed[128], err[512];
	struct mess_items it = { "threads", threads_item, NULL, "is not allowed", allowed };
	double d[8];
	int m;

	if (ncores)
		snprintf(allowed, sizeof(allowed), "counts from 1 to %d (the chase core's socket) or all, comma-separated, each once", ncores);
	else
		snprintf(allowed, sizeof(allowed), "counts from 1 to the chase core's socket's cores or all, comma-separated, each once");
	if (mess_parse_items(&it, s, d, 8, &m, err, sizeof(err))) {
		fprintf(stderr, "mess sample: %s\n", err);
		return -EINVAL;
	}
	*n = 0;
	for (int i = 0; i < m; i++) {
		int x = d[i] ? (int)d[i] : ncores;

		if (ncores && x > ncores) {
			fprintf(stderr, "mess sample: --threads: '%d' is not allowed; allowed: %s\n", x, allowed);
			return -EINVAL;
		}
		if (*n && v[*n - 1] == x)
			continue;	/* "1,all" on one core: one point */
		v[(*n)++] = x;
	}
	return 0;
}

/* -- CMD must name something to run: found now, not as a failed point. */
static int cmd_exists(const char *c)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(c, '/'))
		return !access(c, X_OK);
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, c);
		if (!access(buf, X_OK))
			return 1;
		p += n + (p[n] == ':');
	}
	return 0;
}

/* Options and their validation, before anything is opened or written. */
static int parse(struct sample_opts *o, int argc, char **argv, char ***cmd)
{
	char err[1024];
	uint64_t v[SAMPLE_MAXP];
	int n = argc, th[8], nv;

	*cmd = NULL;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			n = i;
			*cmd = i + 1 < argc ? &argv[i + 1] : NULL;
			if (!*cmd)
				return bad("", "--", "-- CMD ARGS with a command");
			break;
		}
	*o = (struct sample_opts){ .backend = "auto", .workload = "stream", .filter = "both",
				   .threads = "1,all", .ring_pages = 64, .min_accuracy = 0.94,
				   .budget = 0.033 };
	if (mess_opts_parse(opts, NOPTS, o, n, argv, err, sizeof(err))) {
		fprintf(stderr, "mess sample: %s\n", err);
		return -EINVAL;
	}
	if (o->help)
		return 0;
	if (strcmp(o->backend, "auto") && !sample_backend_find(o->backend))
		return bad("backend", o->backend, "spe, ibs, pebs, cpu-clock, auto");
	if (!sample_work_known(o->workload))
		return bad("workload", o->workload, sample_work_names());
	if (strcmp(o->filter, "both") && strcmp(o->filter, "loads") && strcmp(o->filter, "stores"))
		return bad("filter", o->filter, "loads, stores, both");
	if (o->ring_pages & (o->ring_pages - 1)) {
		snprintf(err, sizeof(err), "%" PRIu64, o->ring_pages);
		return bad("ring-pages", err, "a power of two from 1 to 65536");
	}
	if (o->force && !o->resume[0])
		return bad("force", "", "only with --resume DIR (a run another build started)");
	/* The lists given are checked now, before a backend is chosen or
	 * anything opened: the backend's defaults are known good. */
	if ((o->periods[0] && parse_list("periods", o->periods, v, &nv, 0)) ||
	    (o->aux_pages[0] && parse_list("aux-pages", o->aux_pages, v, &nv, 1)) ||
	    (!*cmd && parse_threads(o->threads, 0, th, &nv)))
		return -EINVAL;
	if (*cmd && !cmd_exists((*cmd)[0]))
		return bad("", (*cmd)[0], "-- CMD: an executable file, or a command found in PATH");
	if (o->out[0] && !o->resume[0] && mess_out_check("out", o->out, err, sizeof(err))) {
		fprintf(stderr, "mess sample: %s\n", err);
		return -EINVAL;
	}
	if (!o->pairs)
		o->pairs = o->quick ? 3 : 5;
	if (!o->run_s)
		o->run_s = o->quick ? 0.1 : 0.5;
	return 0;
}

/* meta.json: what was measured and how. */
static json_t *meta_json(const struct mess_rundir *rd, struct sample_ctx *x,
			 const uint64_t *per, int np, const uint64_t *aux, int na,
			 const int *th, int nth)
{
	json_t *m = mess_rundir_meta(rd, &x->topo, 1), *ev = json_array(), *cnt = json_array();
	struct sample_setup s;
	char err[256];

	x->cfg.period = per[0];
	if (!sample_backend_setup(x->b, &x->cfg, &s, err, sizeof(err))) {
		for (int i = 0; i < s.nsamp; i++)
			json_array_append_new(ev, json_string(s.samp_spec[i]));
		for (int i = 0; i < s.ncount; i++)
			json_array_append_new(cnt, json_string(s.count[i]));
	}
	mess_json_set(m, "backend", json_string(x->b->name));
	mess_json_set(m, "memory_sampling", json_boolean(x->b->memory));
	if (!x->b->memory)
		mess_json_set(m, "not_memory_sampling", json_string("cpu-clock: the kernel's hrtimer samples the running thread every period ns; it exercises the pipeline (ring buffer, reader, losses, accuracy against task-clock, overhead) and carries no data address, data source or latency"));
	mess_json_set(m, "sampling_pmu", json_string(s.pmu));
	mess_json_set(m, "sampling_events", ev);
	mess_json_set(m, "counting_events", cnt);
	mess_json_set(m, "counted_by", json_string(x->b->counted_by));
	mess_json_set(m, "period_unit", json_string(x->b->unit));
	mess_json_set(m, "periods", sample_u64_array(per, np));
	mess_json_set(m, "aux_pages_swept", sample_u64_array(aux, na));
	mess_json_set(m, "aux_pages_default", json_integer(x->b->memory && !strcmp(x->b->name, "spe") ? DEFAULT_AUX : 0));
	mess_json_set(m, "period_default_for_aux_sweep", json_integer(DEFAULT_PERIOD));
	mess_json_set(m, "ring_pages", json_integer((json_int_t)x->o->ring_pages));
	mess_json_set(m, "page_bytes", json_integer(sysconf(_SC_PAGESIZE)));
	mess_json_set(m, "threads", mess_json_ints(th, (size_t)nth));
	mess_json_set(m, "cores", mess_json_ints(x->cores, (size_t)x->ncores));
	mess_json_set(m, "placement", json_string("thread i pinned to cores[i]: the chase core (--core) then the other cores of its socket"));
	mess_json_set(m, "filter", json_string(x->o->filter));
	mess_json_set(m, "min_latency", json_integer((json_int_t)x->o->min_latency));
	mess_json_set(m, "l3missonly", json_boolean(x->o->l3miss));
	mess_json_set(m, "workload", x->cmd ? json_string(x->cmd[0]) : json_string(x->o->workload));
	mess_json_set(m, "workload_desc", json_string(x->cmd ? "a command (-- CMD ARGS), its threads and children followed from its exec (inherit)" : sample_work_desc(x->work)));
	mess_json_set(m, "iterations_per_thread_run", x->cmd ? json_null() : json_integer((json_int_t)x->iters));
	mess_json_set(m, "iteration", json_string(x->cmd ? "" : sample_work_iteration(x->work)));
	mess_json_set(m, "pairs", json_integer((json_int_t)x->o->pairs));
	mess_json_set(m, "method", json_string("per point, pairs of runs back to back: unsampled, then sampled with the counting events enabled around the same work; accuracy 1 - |(counted - samples x effective period) / counted| (Miksits et al., eq. 1); overhead the median of sampled/unsampled - 1, spread max - min; a reader thread drains every ring while the work runs (poll on a quarter-full ring, at least every 50 ms), and its CPU time is the tool's own overhead"));
	return m;
}

static void point_id(const struct sample_point *p, char *buf, size_t len)
{
	snprintf(buf, len, "%.7s-t%d-p%" PRIu64 "-a%u-r%u", p->sweep, p->threads, p->period,
		 p->aux_pages, p->ring_pages);
}

/* Pool, cores and workload for the largest thread count. */
static int prepare(struct sample_ctx *x, int maxth, char *err, size_t errlen)
{
	int pkg, rc;
	uint64_t bytes;

	rc = mess_topo_init(&x->topo);
	if (rc)
		return mess_fail(err, errlen, rc, "hwloc: %s", strerror(-rc));
	if ((int)x->o->core >= x->topo.ncores)
		return mess_fail(err, errlen, -EINVAL, "--core: core %" PRIu64 " out of range; allowed: 0-%d on this machine",
			x->o->core, x->topo.ncores - 1);
	pkg = mess_topo_package_of_core(&x->topo, (int)x->o->core);
	x->cores[x->ncores++] = (int)x->o->core;
	for (int i = 0; i < x->topo.ncores && x->ncores < SAMPLE_MAX_THREADS; i++)
		if (i != (int)x->o->core && mess_topo_package_of_core(&x->topo, i) == pkg)
			x->cores[x->ncores++] = i;
	if (maxth == 0)
		maxth = x->ncores;
	if (x->cmd)
		return 0;
	bytes = x->o->size_mib ? x->o->size_mib << 20 :
		x->o->quick ? 16u << 20 : (4 * x->topo.llc_bytes > (64u << 20) ? 4 * x->topo.llc_bytes : 64u << 20);
	rc = mess_pool_start(&x->pool, &x->topo, x->cores, maxth);
	if (rc)
		return mess_fail(err, errlen, rc, "cannot start %d pinned threads: %s", maxth, strerror(-rc));
	x->pool_on = 1;
	rc = sample_work_create(&x->work, x->o->workload, maxth, bytes);
	if (rc)
		return mess_fail(err, errlen, rc, "workload %s of %" PRIu64 " MiB: %s", x->o->workload, bytes >> 20,
			strerror(-rc));
	x->work_threads = maxth;
	x->nreg = sample_work_regions(x->work, x->reg);
	return sample_calibrate(x, x->o->run_s);
}

static int run_points(struct sample_ctx *x, struct mess_rundir *rd, struct sample_point *pt,
		      int n, int *done)
{
	json_t *st = json_object_get(rd->state, "points");
	double t_measured = 0;
	int measured = 0, rc = 0;
	char id[96], why[512];

	if (!st) {
		st = json_object();
		json_object_set_new(rd->state, "points", st);
	}
	for (int i = 0; i < n; i++) {
		json_t *old;
		double t0 = mess_now_ns() * 1e-9;

		point_id(&pt[i], id, sizeof(id));
		old = json_object_get(st, id);
		if (old && !sample_point_from_json(old, &pt[i])) {
			done[i] = 1;
			continue;
		}
		rc = sample_measure(x, &pt[i], why, sizeof(why));
		if (rc == -EINTR)
			return rc;
		if (rc) {
			fprintf(stderr, "mess sample: %s: %s\n", x->b->name, why);
			return rc == -EACCES || rc == -EPERM || rc == -ENOENT || rc == -ENODEV ||
			       rc == -EOPNOTSUPP ? (x->cmd && rc == -ENOENT ? -EIO : -EOPNOTSUPP) : rc;
		}
		done[i] = 1;
		json_object_set_new(st, id, sample_point_json(&pt[i]));
		rc = mess_rundir_save(rd);
		if (rc)
			return rc;
		t_measured += mess_now_ns() * 1e-9 - t0;
		measured++;
		{
			int left = 0;
			static struct sample_point ok[2 * 8 * SAMPLE_MAXP];
			int k = 0;

			for (int j = 0; j < n; j++) {
				left += !done[j];
				if (done[j])
					ok[k++] = pt[j];
			}
			fprintf(stderr, "mess sample: %s %s t=%d period %" PRIu64 " aux %u: %" PRIu64
				" samples, accuracy %.4f, overhead %.2f%%%s, lost %" PRIu64 ", tool %.3f%% (%d/%d; ETA %.0f s)\n",
				x->b->name, pt[i].sweep, pt[i].threads, pt[i].period, pt[i].aux_pages,
				pt[i].samples, pt[i].accuracy, 100 * pt[i].overhead,
				sample_overhead_note(pt[i].overhead, pt[i].spread), pt[i].lost,
				100 * pt[i].tool_share, i + 1, n, t_measured / measured * left);
			rc = sample_write_files(rd->dir, x, x->cmd ? x->cmd[0] : x->o->workload, ok, k, 0);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int plan(struct sample_ctx *x, const uint64_t *per, int np, const uint64_t *aux, int na,
		const int *th, int nth, struct sample_point *pt)
{
	int n = 0, spe = x->b->memory && !strcmp(x->b->name, "spe");

	for (int t = 0; t < nth; t++)
		for (int i = 0; i < np; i++)
			pt[n++] = (struct sample_point){ .sweep = "period", .threads = th[t],
							 .period = per[i],
							 .aux_pages = spe ? DEFAULT_AUX : 0,
							 .ring_pages = (unsigned)x->o->ring_pages };
	for (int t = 0; spe && t < nth; t++)
		for (int i = 0; i < na; i++)
			pt[n++] = (struct sample_point){ .sweep = "aux", .threads = th[t],
							 .period = DEFAULT_PERIOD,
							 .aux_pages = (unsigned)aux[i],
							 .ring_pages = (unsigned)x->o->ring_pages };
	return n;
}

int mess_sample_sweep_main(int argc, char **argv, void (*usage)(FILE *f))
{
	static struct sample_opts o;
	static struct sample_point pt[2 * 8 * SAMPLE_MAXP];
	static int done[2 * 8 * SAMPLE_MAXP];
	struct sample_ctx x = { .o = &o };
	struct mess_rundir rd = { .state = NULL };
	uint64_t periods[SAMPLE_MAXP], aux[SAMPLE_MAXP];
	int th[8], np, na = 0, nth, n, rc, frc, ac, fin = 0;
	char err[512], dir[PATH_MAX], **av, buf[256];
	json_t *meta;

	if (parse(&o, argc, argv, &x.cmd))
		return -EINVAL;
	if (o.help) {
		usage(stdout);
		return 0;
	}
	if (o.resume[0]) {
		snprintf(dir, sizeof(dir), "%s", o.resume);
		if (mess_resume_args("mess sample", argc, argv, dir, &ac, &av, err, sizeof(err))) {
			fprintf(stderr, "mess sample: %s\n", err);
			return -EINVAL;
		}
		if (parse(&o, ac, av, &x.cmd))
			return -EINVAL;
		snprintf(o.resume, sizeof(o.resume), "%s", dir);
	}
	for (size_t i = 0; !x.b && i < sample_nbackends; i++)
		if (!strcmp(o.backend, sample_backends[i].name) ||
		    (!strcmp(o.backend, "auto") && !sample_backend_why(&sample_backends[i], buf, sizeof(buf))))
			x.b = &sample_backends[i];
	if (!x.b) {
		fprintf(stderr, "mess sample: --backend auto: no backend can run here (not even cpu-clock: %s)\n", buf);
		return -EOPNOTSUPP;
	}
	if (parse_list("periods", o.periods[0] ? o.periods : o.quick ? x.b->quick_periods :
		       x.b->periods, periods, &np, 0) ||
	    parse_list("aux-pages", o.aux_pages[0] ? o.aux_pages : o.quick ? AUX_QUICK : AUX_SWEEP,
		       aux, &na, 1))
		return -EINVAL;
	if (sample_backend_why(x.b, buf, sizeof(buf))) {
		fprintf(stderr, "mess sample: --backend %s cannot run here: %s\n", x.b->name, buf);
		return -EOPNOTSUPP;
	}
	x.cfg = (struct sample_cfg){ .loads = strcmp(o.filter, "stores") != 0,
				     .stores = strcmp(o.filter, "loads") != 0,
				     .min_latency = (unsigned)o.min_latency, .l3miss = o.l3miss,
				     .physical = geteuid() == 0 };
	if (o.aux_pages[0] && strcmp(x.b->name, "spe"))
		fprintf(stderr, "mess sample: %s has no aux buffer: --aux-pages is not swept\n", x.b->name);
	mess_signals_install();
	rc = prepare(&x, 0, err, sizeof(err));
	if (!rc && !x.cmd && parse_threads(o.threads, x.ncores, th, &nth))
		rc = -EINVAL, err[0] = 0;
	if (x.cmd)
		th[0] = 0, nth = 1;
	if (rc) {
		if (err[0])
			fprintf(stderr, "mess sample: %s\n", err);
		goto out;
	}
	n = plan(&x, periods, np, aux, na, th, nth, pt);
	rc = mess_rundir_open(&rd, "mess sample", "sample", o.out, o.resume[0] ? o.resume : NULL,
			      "sample.csv", argc, argv);
	if (rc) {
		rc = mess_rundir_refused(&rd, rc);
		goto out;
	}
	meta = meta_json(&rd, &x, periods, np, aux, strcmp(x.b->name, "spe") ? 0 : na, th, nth);
	rc = mess_rundir_write_meta(&rd, meta, 0);
	if (!rc)
		rc = run_points(&x, &rd, pt, n, done);
	if (mess_interrupted)
		rc = -EINTR;
	mess_rundir_stop_clock(&rd);
	{
		int k = 0;

		for (int i = 0; i < n; i++)
			if (done[i])
				pt[k++] = pt[i];
		frc = sample_write_files(rd.dir, &x, x.cmd ? x.cmd[0] : o.workload, pt, k, !rc);
	}
	meta = meta_json(&rd, &x, periods, np, aux, strcmp(x.b->name, "spe") ? 0 : na, th, nth);
	fin = mess_rundir_write_meta(&rd, meta, !rc && !frc);
	rc = mess_rundir_end(&rd, rc, frc ? frc : fin);
out:
	mess_rundir_close(&rd);
	sample_work_destroy(x.work);
	if (x.pool_on)
		mess_pool_stop(&x.pool);
	if (x.topo.hw)
		mess_topo_fini(&x.topo);
	return rc;
}
