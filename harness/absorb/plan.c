// SPDX-License-Identifier: MIT
/*
 * `mess absorb` against this machine: the rows (kernel, variant, cores, q)
 * and noise modes the options ask for, which of them can run here and why
 * not, and the loop sizes k1_rel is computed from.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "absorb/absorb.h"
#include "core/isa.h"
#include "core/options.h"
#include "core/util.h"

/* One word of a list option as a number (kernel, mode, q, core count). */
static int item_kernel(const char *w, void *ctx, double *v)
{
	enum mess_wl_kernel k;
	int err = mess_wl_kernel_parse(w, &k);

	*v = k;
	return err;
}

static int item_mode(const char *w, void *ctx, double *v)
{
	enum mess_noise_mode m;
	int err = mess_noise_mode_parse(w, &m);

	*v = m;
	return err || m == MESS_NOISE_MODE_none ? -EINVAL : 0;
}

static int item_q(const char *w, void *ctx, double *v)
{
	return !mess_opt_double(w, v) && *v >= 0 && *v <= 1 ? 0 : -EINVAL;
}

static int item_cores(const char *w, void *ctx, double *v)
{
	int ncores = *(const int *)ctx;
	uint64_t c;

	/* Apart from the counts: "1,all" on one core is no repeat. */
	if (!strcmp(w, "all")) {
		*v = -1;
		return 0;
	}
	if (mess_opt_u64(w, &c) || c < 1 || c > (uint64_t)ncores)
		return -EINVAL;
	*v = (double)c;
	return 0;
}

static int resolve(struct mess_absorb *a, char *err, size_t errlen,
		   enum mess_wl_kernel *kern, int *nkern, double *qs, int *nq)
{
	const char *lists[] = { a->t.o.kernels, a->t.o.modes, a->t.o.q, a->t.o.cores };
	const int max[] = { MESS_WL_NKERNELS, MESS_NOISE_NMODES, 32, 8 };
	char cores[128];
	const struct mess_items items[] = {
		{ "kernels", item_kernel, NULL, "is not a kernel",
		  "a comma-separated list of stream, lat_mem_rd, haccmk, spmxv, each once" },
		{ "modes", item_mode, NULL, "is not a noise mode",
		  "a comma-separated list of fp_add64, int64_add, l1_ld64, memory_ld64, each once" },
		{ "q", item_q, NULL, "is not allowed",
		  "up to 32 swapping probabilities from 0 to 1, comma-separated, each once (e.g. 0,0.25,1)" },
		{ "cores", item_cores, &a->topo.ncores, "is not allowed", cores },
	};
	double v[4][32];
	int n[4];

	snprintf(cores, sizeof(cores), "up to 8 core counts from 1 to %d, or 'all', comma-separated, each once",
		 a->topo.ncores);
	for (int i = 0; i < 4; i++)
		if (mess_parse_items(&items[i], lists[i], v[i], max[i], &n[i],
				     err, errlen))
			return -EINVAL;
	*nkern = n[0];
	for (int i = 0; i < n[0]; i++)
		kern[i] = (enum mess_wl_kernel)v[0][i];
	a->t.nmodes = n[1];
	for (int i = 0; i < n[1]; i++) {
		a->t.modes[i] = (enum mess_noise_mode)v[1][i];
		a->t.mode_on[a->t.modes[i]] = 1;
	}
	*nq = n[2];
	memcpy(qs, v[2], sizeof(double) * (size_t)n[2]);
	a->t.ncounts = 0;
	for (int i = 0; i < n[3]; i++) {
		int c = v[3][i] < 0 ? a->topo.ncores : (int)v[3][i], dup = 0;

		for (int j = 0; j < a->t.ncounts; j++)
			dup |= a->t.counts[j] == c;
		if (!dup)
			a->t.counts[a->t.ncounts++] = c;
	}
	return 0;
}

static void q_str(double q, char *buf, size_t len)
{
	if (isnan(q))
		snprintf(buf, len, "nan");
	else
		snprintf(buf, len, "%g", q);
}

static int add_row(struct mess_absorb *a, enum mess_wl_kernel k,
		   const char *variant, double q, int cores, int tb)
{
	struct row *r, *rows = realloc(a->t.rows, (a->t.nrows + 1) * sizeof(*rows));
	char qs[32];

	if (!rows)
		return -ENOMEM;
	a->t.rows = rows;
	r = &rows[a->t.nrows++];
	memset(r, 0, sizeof(*r));
	r->wl = (struct mess_wl_row){ k, variant, cores, q };
	r->perf = NAN;
	mess_wl_row_id(&r->wl, r->id, sizeof(r->id));
	r->tb = tb;
	/* Only with --tables: one table keeps the ids it always had. */
	if (a->t.o.tables > 1) {
		size_t l = strlen(r->id);

		snprintf(r->id + l, sizeof(r->id) - l, "-t%d", tb + 1);
	}
	q_str(q, qs, sizeof(qs));
	snprintf(r->key, sizeof(r->key), "%s,%s,%d,%s",
		 mess_wl_kernels[k].name, variant, cores, qs);
	return 0;
}

/* Rows of one SPMXV matrix stay together: it moves between them.  With
 * --tables, each row's tables follow each other (interleaved by row):
 * drift of the machine over the run then shows in every entry alike
 * instead of in one table. */
static int make_rows(struct mess_absorb *a, const enum mess_wl_kernel *kern,
		     int nkern, const double *qs, int nq)
{
	for (int i = 0; i < nkern; i++) {
		const struct mess_wl_kinfo *ki = &mess_wl_kernels[kern[i]];

		for (const char *const *v = mess_wl_variants(kern[i]); *v; v++)
			for (int j = 0; j < (ki->has_q ? nq : 1); j++)
				for (int c = 0; c < (ki->scales ? a->t.ncounts : 1); c++)
					for (int tb = 0; tb < (int)a->t.o.tables; tb++) {
						int err = add_row(a, kern[i], *v,
							ki->has_q ? qs[j] : NAN,
							ki->scales ? a->t.counts[c] : 1, tb);

						if (err)
							return err;
					}
	}
	return 0;
}

/*
 * The loop sizes for k1_rel: the census tools/noise-census.sh made of the
 * kernel objects at build time, installed beside the binary as data
 * (noise-loops.tsv; its comment lines say why when it could not be
 * made).  Per kernel and mode, the loop with the most sites (lat_mem_rd's
 * unrolled loop, not its remainder loop).
 */
static void census(struct mess_absorb *a)
{
	char path[PATH_MAX], line[4096], why[200] = "";
	int rows = 0;
	FILE *f = NULL;

	if (!mess_data_file("noise-loops.tsv", path, sizeof(path)))
		f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char kern[128], mode[32];
		int sites, body, ovh, extra, clean;
		enum mess_noise_mode m;

		if (!strncmp(line, "# unavailable: ", 15)) {
			snprintf(why, sizeof(why), "%.*s", (int)strcspn(line + 15, "\n"),
				 line + 15);
			continue;
		}
		/* file function kernel mode loop sites payload overhead
		 * overhead_insns body clean_body extra ... */
		if (line[0] == '#' ||
		    sscanf(line, "%*s %*s %127s %31s %*s %d %*d %d %*s %d %d %d",
			   kern, mode, &sites, &ovh, &body, &clean, &extra) != 7 ||
		    mess_noise_mode_parse(mode, &m) || m == MESS_NOISE_MODE_none)
			continue;
		for (int k = 0; k < MESS_WL_NKERNELS; k++) {
			struct loop_census *c = &a->t.loops[k][m];

			if (strcmp(kern, mess_wl_kernels[k].symbol) || sites <= c->sites)
				continue;
			*c = (struct loop_census){ sites, body, clean, ovh, extra };
			rows++;
		}
	}
	if (f)
		fclose(f);
	if (rows)
		snprintf(a->t.census_note, sizeof(a->t.census_note),
			 "loop sizes from noise-loops.tsv, the build's census of the kernel objects by tools/noise-census.sh (meta.json loops)");
	else
		snprintf(a->t.census_note, sizeof(a->t.census_note),
			 "nan: no loop sizes: %s",
			 why[0] ? why : f ? "noise-loops.tsv holds no noise loop" :
			 "noise-loops.tsv not found (set MESS_DATADIR, or make install)");
}

/* Which modes run here: an ISA without noise sites says so at init. */
static void probe_modes(struct mess_absorb *a)
{
	for (int i = 0; i < a->t.nmodes; i++) {
		struct mess_noise nz;
		int err = mess_noise_init(&nz, a->t.modes[i], 0, 1 << 20);

		mess_noise_free(&nz);
		if (err == -EOPNOTSUPP)
			a->t.mode_skip[a->t.modes[i]] =
				"noise modes not implemented on this ISA (" MESS_ISA ")";
		else if (err)
			a->t.mode_skip[a->t.modes[i]] = "its noise state cannot be set up here";
	}
}

/*
 * Before anything is measured: the machine on every core the rows may
 * use, each session anew (a resumed run records its last).  Without it
 * the run goes on; the verdict then has no environment.
 */
static void look(struct mess_absorb *a)
{
	int *cores = malloc((size_t)a->topo.ncores * sizeof(*cores));

	for (int i = 0; cores && i < a->topo.ncores; i++)
		cores[i] = i;
	a->t.machine_ok = cores &&
		!mess_env_probe(&a->t.machine, &a->topo, cores, a->topo.ncores,
				mess_topo_node_of_core(&a->topo, 0), 250);
	free(cores);
	if (!a->t.machine_ok) {
		mess_env_free(&a->t.machine);
		return;
	}
	mess_verdict_init(&a->t.verdict);
	mess_env_verdict(&a->t.machine, &a->t.verdict);
	mess_verdict_warn(stderr, "absorb: ", &a->t.verdict);
}

int mess_absorb_open(struct mess_absorb **ap, const struct mess_absorb_opts *o,
		     int argc, char **argv, char *err, size_t errlen)
{
	struct mess_absorb *a = calloc(1, sizeof(*a));
	enum mess_wl_kernel kern[MESS_WL_NKERNELS];
	double qs[32];
	int nkern, nq, rc, runnable = 0;

	if (!a)
		return -ENOMEM;
	*ap = a;
	a->t.o = *o;
	a->points.fd = -1;
	/* Fixed: the same options give the same order of runs. */
	a->coin = 0x9e3779b97f4a7c15ULL;
	rc = mess_topo_init(&a->topo);
	if (rc)
		return mess_fail(err, errlen, rc == -EINVAL ? -EIO : rc, "hwloc could not read the topology: %s",
			strerror(-rc));
	mess_topo_llc_of_core(&a->topo, 0, &a->t.llc_bytes, &a->t.llc_level);
	a->t.cpu_model = a->topo.cpu_model;
	a->t.ncores = a->topo.ncores;
	a->t.core_pu = a->topo.core_pu;
	a->t.numa_nodes = a->topo.nnodes;
	a->t.mhz_min = a->t.mhz_max = NAN;
	a->dist.fd = -1;
	rc = resolve(a, err, errlen, kern, &nkern, qs, &nq);
	if (!rc)
		rc = make_rows(a, kern, nkern, qs, nq);
	/* The directory is ours, or refused, before any probe runs or any
	 * warning about the machine is said; after the options' last checks,
	 * so that bad input makes no directory. */
	if (!rc)
		rc = mess_rundir_claim(&a->rd, "mess absorb", "absorb", o->out,
				       o->resume, ABSORB_POINTS_CSV);
	if (rc)
		return rc;
	look(a);
	for (int i = 0; i < nkern; i++)
		a->t.ladder_on |= mess_wl_kernels[kern[i]].ladder;
	/* On thread 0 of the pool, which is pinned to core 0. */
	mess_ladder_init(&a->t.ladder, &a->topo, 0, o->stride, o->run_ms,
			 (unsigned)o->repeats, -1);
	mess_absorb_cfg_default(&a->t.acfg, (unsigned)o->kmax);
	a->t.acfg.rel_min = o->threshold;
	a->t.acfg.n_sigma = o->sigmas;
	a->t.acfg.min_pairs = (unsigned)o->min_pairs;
	a->t.acfg.max_pairs = (unsigned)o->max_pairs;
	/* k1 to k1/9, so that a bracket the search closes is within the
	 * 12 % of status ok: finer costs a point or two of up to max-pairs
	 * pairs each and no status.  --quick stops earlier past k1: at large
	 * k a run of memory_ld64 noise takes a hundred times the k = 0 run. */
	a->t.acfg.prec_div = 9;
	if (o->quick)
		a->t.acfg.slope_tol = 0.25;
	a->env = (struct mess_wl_env){ a->t.llc_bytes, o->quick, -1, o->stride };
	/* memory_ld64 loads must miss every cache: 4x the LLC per thread. */
	a->t.noise_bytes = 4 * a->t.llc_bytes;
	probe_modes(a);
	census(a);
	for (int i = 0; i < a->t.nmodes; i++) {
		const char *why = a->t.mode_skip[a->t.modes[i]];

		if (why)
			fprintf(stderr, "absorb: mode %s skipped: %s\n",
				mess_noise_mode_name(a->t.modes[i]), why);
		else
			runnable++;
	}
	/* The ladder needs no noise: an ISA without noise sites still gets
	 * its cache and memory latencies. */
	if (!runnable && !a->t.ladder_on)
		return mess_fail(err, errlen, -EOPNOTSUPP, "no noise mode can run: %s",
			a->t.mode_skip[a->t.modes[0]]);
	if (!runnable)
		fprintf(stderr, "absorb: no noise mode can run here; measuring the latency ladder only\n");
	rc = absorb_state_open(a, argc, argv);
	if (rc)
		return mess_fail(err, errlen, rc == -EINVAL ? -EIO : rc, "cannot set up %s: %s", a->rd.dir,
			strerror(-rc));
	fprintf(stderr, "absorb: %s, %d cores, LLC %llu MiB; %zu rows x %d modes; writing %s\n",
		a->topo.cpu_model, a->topo.ncores,
		(unsigned long long)(a->t.llc_bytes >> 20), a->t.nrows, runnable,
		a->rd.dir);
	rc = mess_steal_open(&a->dist);
	if (!rc)
		rc = absorb_pool_start(a, a->topo.ncores);
	if (!rc)
		absorb_host_open(a);
	/* Thread 0 runs the ladder; unwatched, its verdict says so. */
	if (!rc && a->t.ladder_on)
		mess_ladder_watch(&a->t.ladder, &a->pool, a->topo.core_pu);
	if (!rc)
		rc = absorb_save(a);
	if (rc)
		snprintf(err, errlen, "cannot start the measuring threads: %s",
			 strerror(-rc));
	return rc;
}

void mess_absorb_free(struct mess_absorb *a)
{
	if (!a)
		return;
	absorb_pool_stop(a);
	mess_ladder_fini(&a->t.ladder);
	if (a->t.machine_ok)
		mess_env_free(&a->t.machine);
	mess_steal_close(&a->dist);
	mess_append_close(&a->points);
	mess_rundir_close(&a->rd);
	for (size_t i = 0; i < a->t.nrows; i++)
		json_decref(a->t.rows[i].meta);
	free(a->t.rows);
	if (a->topo.hw)
		mess_topo_fini(&a->topo);
	free(a);
}
