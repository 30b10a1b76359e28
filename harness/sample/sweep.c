// SPDX-License-Identifier: MIT
/*
 * `mess sample` with no subcommand: the sweep of sampling periods (and,
 * for the backends with an aux buffer, aux sizes) on STREAM triad, with
 * accuracy (eq. 1 against a counting event of the same run), overhead
 * (unsampled then sampled runs, back to back, in pairs) and losses.
 *
 * One row per backend.  cpu-clock (the kernel's software sampling, on
 * every Linux) runs the whole pipeline, ring buffer included, against
 * task-clock; it is labelled cpu-clock, never memory sampling.  The
 * hardware backends say why they cannot run here (exit 3).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ckernels.h"
#include "core/options.h"
#include "core/pmu_ring.h"
#include "core/util.h"
#include "mess/sampling.h"
#include "sample/cmd.h"
#include "sample/sample.h"

struct sweep_opts {
	char backend[16];
	char periods[256];
	char aux_pages[128];
	uint64_t ring_pages;
	uint64_t pairs;
	uint64_t size_mib;
	double min_accuracy, budget;
	char out[PATH_MAX];
	int quick, help;
};

#define F(field) MESS_OPT_F(struct sweep_opts, field)
#define S(field) MESS_OPT_S(struct sweep_opts, field)

static const struct mess_opt opts[] = {
	{ "backend", MESS_OPT_STR, S(backend), 0, 0, "B",
	  "spe, ibs, pebs, cpu-clock or auto (default: the first this machine has)" },
	{ "periods", MESS_OPT_STR, S(periods), 0, 0, "LIST",
	  "sampling periods, comma-separated integers > 0 (ops; cpu-clock: ns)" },
	{ "aux-pages", MESS_OPT_STR, S(aux_pages), 0, 0, "LIST",
	  "aux buffer sizes in pages, powers of two (backends with an aux buffer)" },
	{ "ring-pages", MESS_OPT_UINT, F(ring_pages), 0, 1, 65536, "N",
	  "ring buffer data pages, a power of two (default 64)" },
	{ "pairs", MESS_OPT_UINT, F(pairs), 0, 1, 100, "N",
	  "unsampled/sampled run pairs per point (default 5; --quick 3)" },
	{ "size", MESS_OPT_UINT, F(size_mib), 0, 1, 65536, "MIB",
	  "STREAM triad arrays, MiB each (default 64; --quick 8)" },
	{ "min-accuracy", MESS_OPT_DOUBLE, F(min_accuracy), 0, 0, 1, "A",
	  "accuracy the recommended period must reach (default 0.94)" },
	{ "overhead-budget", MESS_OPT_DOUBLE, F(budget), 0, 0, 10, "O",
	  "overhead the recommended period may cost (default 0.033)" },
	{ "out", MESS_OPT_STR, S(out), 0, 0, "DIR",
	  "directory for sample.csv, summary.md, summary.json, meta.json (required)" },
	{ "quick", MESS_OPT_FLAG, F(quick), 0, 0, 0, NULL, "a CI-sized sweep: few periods, short runs" },
	{ "help", MESS_OPT_FLAG, F(help), 0, 0, 0, NULL, "this text" },
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))
#define MAXP 32

/* Availability of each backend: the PMU its kernel driver registers. */
static int pmu_present(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s", name);
	return !stat(path, &st);
}

static const char *spe_why(void)
{
	return pmu_present("arm_spe_0") ? "the SPE backend is not implemented in this build yet" :
	       "no arm_spe PMU here (/sys/bus/event_source/devices/arm_spe_0 is missing: not an Arm CPU with SPE, or a kernel without CONFIG_ARM_SPE_PMU)";
}

static const char *ibs_why(void)
{
	return pmu_present("ibs_op") ? "the IBS backend is not implemented in this build yet" :
	       "no ibs_op PMU here (/sys/bus/event_source/devices/ibs_op is missing: not an AMD CPU with IBS, or a VM that hides it)";
}

static const char *pebs_why(void)
{
	return pmu_present("cpu/caps") ? "the PEBS backend is not implemented in this build yet" :
	       "no Intel core PMU with PEBS here (/sys/bus/event_source/devices/cpu/caps is missing: not an Intel CPU, or a VM without a PMU)";
}

static const char *cpu_clock_why(void)
{
	return NULL;
}

static const struct backend {
	const char *name;
	const char *(*why)(void);	/* NULL: runs here */
	const char *periods, *quick_periods;
} backends[] = {
	{ "spe", spe_why, "1000,2000,3000,4000,5000,10000,20000,50000", "1000,4000,20000" },
	{ "ibs", ibs_why, "1000,2000,3000,4000,5000,10000,20000,50000", "1000,4000,20000" },
	{ "pebs", pebs_why, "1000,2000,3000,4000,5000,10000,20000,50000", "1000,4000,20000" },
	{ "cpu-clock", cpu_clock_why, "100000,250000,500000,1000000,2000000", "250000,1000000" },
};

#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

void mess_sample_sweep_usage(FILE *f)
{
	fprintf(f,
		"usage: mess sample --out DIR [OPTION]...\n"
		"       mess sample decode FILE [--out F.csv]\n"
		"How precise memory-access sampling behaves here: per sampling period, the\n"
		"accuracy 1 - |(counted - samples x period) / counted| against a counting\n"
		"event of the same run, the overhead from unsampled/sampled run pairs\n"
		"(median and spread), and the losses (lost, throttled, aux collisions and\n"
		"truncations), on STREAM triad, one thread.  cpu-clock (the kernel's\n"
		"software sampling) runs on any Linux, against task-clock, periods in ns;\n"
		"it is not memory sampling.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nFiles: sample.csv, summary.md, summary.json, meta.json\n"
		"Exit status: 0 done, 1 bad usage, 2 failure, 3 the backend cannot run here (why).\n");
}

static int parse_list(const char *name, const char *s, uint64_t *v, int *n, int pow2)
{
	char buf[256], *save = NULL, *tok;

	*n = 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t x;

		if (*n >= MAXP || mess_opt_u64(tok, &x) || !x || (pow2 && (x & (x - 1)))) {
			fprintf(stderr, "mess sample: --%s: '%s' is not allowed; allowed: %s\n", name, s,
				pow2 ? "powers of two, comma-separated" :
				       "integers > 0, comma-separated (at most 32)");
			return -EINVAL;
		}
		v[(*n)++] = x;
	}
	if (!*n) {
		fprintf(stderr, "mess sample: --%s: '%s' is not allowed; allowed: a comma-separated list\n",
			name, s);
		return -EINVAL;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct triad {
	struct mess_stream st;
	size_t n;
	int reps;
};

static double run_triad(const struct triad *t)
{
	double t0 = now_s();

	for (int r = 0; r < t->reps; r++)
		mess_stream_triad[MESS_NOISE_MODE_none](&t->st, 0, t->n, NULL);
	return now_s() - t0;
}

/* task-clock, counting.  (The counter layer's mess_counter_open with
 * "perf::task-clock" replaces this raw attr once harness/core/pmu.c is in.) */
static int open_task_clock(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_TASK_CLOCK, .disabled = 1,
				     .exclude_kernel = 1, .exclude_hv = 1 };

	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

struct point {
	uint64_t period, samples;
	double counted, accuracy, overhead, spread;
	uint64_t lost, throttled, collisions, truncated;
};

static void count_sample(const struct mess_perf_sample *s, void *ctx)
{
	(*(uint64_t *)ctx)++;
}

static int measure(const struct triad *t, uint64_t period, unsigned ring_pages,
		   unsigned pairs, struct point *p, char *why, size_t whylen)
{
	double base[100], with[100];
	struct mess_perf_ops ops = { .sample = count_sample };

	memset(p, 0, sizeof(*p));
	p->period = period;
	for (unsigned i = 0; i < pairs; i++) {
		/* The one place to switch to mess_pmu_encode("perf::cpu-clock")
		 * when the counter layer is merged: a raw attr for now. */
		struct perf_event_attr a = {
			.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
			.sample_period = period, .disabled = 1, .exclude_kernel = 1,
			.exclude_hv = 1,
			.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				       PERF_SAMPLE_PERIOD,
			.wakeup_events = 1 << 30,
		};
		struct mess_ring r;
		uint64_t count = 0;
		int tc, rc;

		base[i] = run_triad(t);
		rc = mess_ring_open(&r, &a, 0, -1, ring_pages, 0, why, whylen);
		if (rc)
			return rc;
		tc = open_task_clock();
		if (tc < 0) {
			rc = -errno;
			snprintf(why, whylen, "task-clock: %s", strerror(-rc));
			mess_ring_close(&r);
			return rc;
		}
		ioctl(tc, PERF_EVENT_IOC_ENABLE, 0);
		mess_ring_enable(&r);
		with[i] = run_triad(t);
		mess_ring_disable(&r);
		ioctl(tc, PERF_EVENT_IOC_DISABLE, 0);
		if (read(tc, &count, sizeof(count)) != sizeof(count))
			count = 0;
		close(tc);
		mess_ring_drain(&r, &ops, &p->samples);
		p->counted += (double)count;
		p->lost += r.st.lost + r.st.lost_samples;
		p->throttled += r.st.throttle;
		p->collisions += r.st.aux_collision;
		p->truncated += r.st.aux_truncated;
		mess_ring_close(&r);
	}
	p->accuracy = mess_sampling_accuracy(p->counted, p->samples, (double)period);
	return mess_sampling_overhead(base, with, pairs, &p->overhead, &p->spread);
}

static int write_results(const char *dir, const char *backend, const struct point *pt,
			 int n, unsigned ring_pages, const struct sweep_opts *o)
{
	struct mess_sampling_point sp[MAXP];
	FILE *f = mess_tmp_open(dir, "sample.csv");
	int64_t rec_period, rec_aux;
	json_t *j, *arr;
	int rc;

	if (!f)
		return -errno;
	fprintf(f, "backend,workload,threads,period,aux_pages,ring_pages,samples,counted,accuracy,"
		   "overhead,overhead_spread,collisions,truncated,lost,throttled\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s,stream-triad,1,%" PRIu64 ",0,%u,%" PRIu64 ",%.0f,%.6f,%.6f,%.6f,%"
			PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", backend, pt[i].period,
			ring_pages, pt[i].samples, pt[i].counted, pt[i].accuracy, pt[i].overhead,
			pt[i].spread, pt[i].collisions, pt[i].truncated, pt[i].lost, pt[i].throttled);
		sp[i] = (struct mess_sampling_point){ pt[i].period, 0, pt[i].accuracy, pt[i].overhead };
	}
	rc = mess_tmp_commit(dir, "sample.csv", f);
	if (rc)
		return rc;
	mess_sampling_recommend(sp, (size_t)n, o->min_accuracy, o->budget, 0, 0, &rec_period, &rec_aux);
	j = json_object();
	arr = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:I,s:I,s:f,s:f,s:f,s:I,s:I}",
			"period", (json_int_t)pt[i].period, "samples", (json_int_t)pt[i].samples,
			"accuracy", pt[i].accuracy, "overhead", pt[i].overhead,
			"overhead_spread", pt[i].spread, "lost", (json_int_t)pt[i].lost,
			"throttled", (json_int_t)pt[i].throttled));
	json_object_set_new(j, "backend", json_string(backend));
	json_object_set_new(j, "memory_sampling", json_boolean(strcmp(backend, "cpu-clock") != 0));
	json_object_set_new(j, "counted_by", json_string("task-clock (ns)"));
	json_object_set_new(j, "points", arr);
	json_object_set_new(j, "min_accuracy", json_real(o->min_accuracy));
	json_object_set_new(j, "overhead_budget", json_real(o->budget));
	json_object_set_new(j, "recommended_period", rec_period < 0 ? json_null() : json_integer(rec_period));
	json_object_set_new(j, "recommended_aux_pages", json_null());
	rc = mess_json_write(dir, "summary.json", j);
	if (rc)
		return rc;
	f = mess_tmp_open(dir, "summary.md");
	if (!f)
		return -errno;
	fprintf(f, "# mess sample: %s on STREAM triad, 1 thread\n\n%s\n\n"
		   "| period | samples | accuracy | overhead (median) | spread | lost | throttled |\n"
		   "|---:|---:|---:|---:|---:|---:|---:|\n", backend,
		!strcmp(backend, "cpu-clock") ? "cpu-clock is the kernel's software timer sampling: "
		"the pipeline of the sweep, not memory-access sampling; periods in ns, counted by task-clock." : "");
	for (int i = 0; i < n; i++)
		fprintf(f, "| %" PRIu64 " | %" PRIu64 " | %.4f | %.2f%% | %.2f%% | %" PRIu64 " | %" PRIu64 " |\n",
			pt[i].period, pt[i].samples, pt[i].accuracy, 100 * pt[i].overhead,
			100 * pt[i].spread, pt[i].lost, pt[i].throttled);
	if (rec_period < 0)
		fprintf(f, "\nRecommendation: no period reaches accuracy %.2f within an overhead of %.1f%%.\n",
			o->min_accuracy, 100 * o->budget);
	else
		fprintf(f, "\nRecommendation: period %" PRId64 ", the largest reaching accuracy %.2f within an overhead of %.1f%%.\n",
			rec_period, o->min_accuracy, 100 * o->budget);
	rc = mess_tmp_commit(dir, "summary.md", f);
	if (rc)
		return rc;
	j = json_pack("{s:s,s:s,s:s,s:b}", "tool", "mess sample", "backend", backend,
		      "workload", "stream-triad", "complete", 1);
	return mess_json_write(dir, "meta.json", j);
}

int mess_sample_sweep_main(int argc, char **argv)
{
	struct sweep_opts o = { .backend = "auto", .ring_pages = 64, .min_accuracy = 0.94,
				.budget = 0.033 };
	const struct backend *b = NULL;
	uint64_t periods[MAXP], aux[MAXP];
	struct point pt[MAXP];
	char err[1024], why[256];
	struct triad t = { .reps = 0 };
	int np, na, rc;

	if (mess_opts_parse(opts, NOPTS, &o, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "mess sample: %s\n", err);
		return -EINVAL;
	}
	if (o.help) {
		mess_sample_usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < NBACKENDS; i++)
		if (!strcmp(o.backend, backends[i].name) ||
		    (!strcmp(o.backend, "auto") && !backends[i].why()))
			if (!b)
				b = &backends[i];
	if (!b) {
		fprintf(stderr, "mess sample: --backend: '%s' is not allowed; allowed: spe, ibs, pebs, cpu-clock, auto\n",
			o.backend);
		return -EINVAL;
	}
	if (parse_list("periods", o.periods[0] ? o.periods : o.quick ? b->quick_periods : b->periods,
		       periods, &np, 0) ||
	    (o.aux_pages[0] && parse_list("aux-pages", o.aux_pages, aux, &na, 1)))
		return -EINVAL;
	if (o.ring_pages & (o.ring_pages - 1)) {
		fprintf(stderr, "mess sample: --ring-pages: '%" PRIu64 "' is not allowed; allowed: a power of two from 1 to 65536\n",
			o.ring_pages);
		return -EINVAL;
	}
	if (!o.out[0]) {
		fprintf(stderr, "mess sample: --out: missing; allowed: a directory for the results\n");
		return -EINVAL;
	}
	if (b->why()) {
		fprintf(stderr, "mess sample: --backend %s cannot run here: %s\n", b->name, b->why());
		return -EOPNOTSUPP;
	}
	if (o.aux_pages[0])
		fprintf(stderr, "mess sample: %s has no aux buffer: --aux-pages is not swept\n", b->name);
	rc = mess_mkdir_p(o.out);
	if (rc) {
		fprintf(stderr, "mess sample: --out: %s: %s\n", o.out, strerror(-rc));
		return -EINVAL;
	}
	if (!o.size_mib)
		o.size_mib = o.quick ? 8 : 64;
	if (!o.pairs)
		o.pairs = o.quick ? 3 : 5;
	t.n = (size_t)o.size_mib * 1024 * 1024 / sizeof(double);
	t.st.scalar = MESS_STREAM_SCALAR;
	t.st.a = malloc(t.n * sizeof(double));
	t.st.b = malloc(t.n * sizeof(double));
	t.st.c = malloc(t.n * sizeof(double));
	if (!t.st.a || !t.st.b || !t.st.c) {
		rc = -ENOMEM;
		goto out;
	}
	mess_stream_init(&t.st, 0, t.n);
	/* Runs of about 0.1 s (--quick) or 0.5 s, whatever the array size. */
	{
		double one;

		t.reps = 1;
		one = run_triad(&t);
		t.reps = (int)((o.quick ? 0.1 : 0.5) / (one > 1e-6 ? one : 1e-6)) + 1;
	}
	for (int i = 0; i < np; i++) {
		double t0 = now_s();

		rc = measure(&t, periods[i], (unsigned)o.ring_pages, (unsigned)o.pairs, &pt[i], why,
			     sizeof(why));
		if (rc) {
			fprintf(stderr, "mess sample: %s at period %" PRIu64 ": %s\n", b->name,
				periods[i], why);
			rc = rc == -EACCES || rc == -EPERM || rc == -ENOENT || rc == -EOPNOTSUPP ?
			     -EOPNOTSUPP : rc;
			goto out;
		}
		fprintf(stderr, "mess sample: %s period %" PRIu64 ": %" PRIu64 " samples, accuracy %.4f, overhead %.2f%% (%d/%d, %.1f s; ETA %.0f s)\n",
			b->name, periods[i], pt[i].samples, pt[i].accuracy, 100 * pt[i].overhead,
			i + 1, np, now_s() - t0, (now_s() - t0) * (np - i - 1));
	}
	rc = write_results(o.out, b->name, pt, np, (unsigned)o.ring_pages, &o);
	if (rc)
		fprintf(stderr, "mess sample: %s: %s\n", o.out, strerror(-rc));
	else
		printf("%s\n", o.out);
out:
	free(t.st.a);
	free(t.st.b);
	free(t.st.c);
	return rc;
}
