// SPDX-License-Identifier: MIT
/*
 * `mess curves` (the default command): the machine, the cores and the
 * buffers resolved from the options, then the unloaded latency and the
 * sweep of every mix into the run directory.
 */
#include "curves/cmd.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/util.h"
#include "curves/run.h"

const char *mess_curves_unavailable(void)
{
	return mess_variant_default() ? NULL :
		"no traffic generator variant runs on this CPU (see mess --list)";
}

void mess_curves_usage(FILE *f)
{
	mess_options_usage(f, "mess");
}

static void list_registry(const struct mess_topo *t)
{
	const struct mess_variant *def = mess_variant_default();

	printf("ISA %s, %d cores, LLC %llu KiB (L%d), %d NUMA node%s, CPU %s\n\n",
	       MESS_ISA, t->ncores, (unsigned long long)(t->llc_bytes >> 10),
	       t->llc_level, t->nnodes, t->nnodes == 1 ? "" : "s",
	       t->cpu_model);
	printf("chase: mess_chase, %d unrolled dependent loads per iteration\n\n",
	       MESS_CHASE_UNROLL);
	printf("generator variants (--variant):\n");
	for (unsigned i = 0; i < mess_nvariants; i++) {
		const struct mess_variant *v = &mess_variants[i];
		const char *why = mess_variant_unavailable(v);

		printf("  %-8s %-55s %s%s\n", v->name, v->desc,
		       why ? "unavailable: " : "available",
		       why ? why : (v == def ? " (default)" : ""));
	}
	printf("\nmixes (--mixes): store share 0..100%% in steps of %d%% (%d kernels per variant),\n"
	       "%d memory operations per iteration, nop spin every %d operations\n",
	       MESS_GEN_MIX_STEP, MESS_GEN_NMIXES, MESS_GEN_OPS,
	       MESS_GEN_SPIN_EVERY);
}

static int pick_cores(struct mess_run *r, char *err, size_t errlen)
{
	struct mess_cfg *c = &r->cfg;
	int n = r->topo.ncores;

	if (c->chase_core >= n) {
		snprintf(err, errlen, "--chase-core: core %lld out of range; allowed: 0-%d on this machine",
			 (long long)c->chase_core, n - 1);
		return -EINVAL;
	}
	r->chase_core = (int)c->chase_core;
	if (c->cores[0] && strcmp(c->cores, "all")) {
		char why[160];

		if (mess_parse_list(c->cores, r->gen_cores, MESS_MAX_CORES, n,
				    1, &r->ngen, why, sizeof(why))) {
			snprintf(err, errlen, "--cores: '%s' is not allowed: %s; allowed: a list of cores in 0-%d such as 1-3,5",
				 c->cores, why, n - 1);
			return -EINVAL;
		}
		for (int i = 0; i < r->ngen; i++)
			if (r->gen_cores[i] == r->chase_core) {
				snprintf(err, errlen, "--cores: core %d also runs the chase (--chase-core); allowed: other cores",
					 r->chase_core);
				return -EINVAL;
			}
	} else {
		/* Default: the chase core's package only.  On a multi-socket
		 * node, generators on every package would load memory across
		 * the interconnect and measure it, not the chase's local
		 * controllers; --cores all asks for that. */
		int all = !strcmp(c->cores, "all");
		int pkg = mess_topo_package_of_core(&r->topo, r->chase_core);

		for (int i = 0; i < n; i++)
			if (i != r->chase_core &&
			    (all || mess_topo_package_of_core(&r->topo, i) == pkg))
				r->gen_cores[r->ngen++] = i;
		snprintf(r->cores_rule, sizeof(r->cores_rule), all ?
			 "--cores all: every core but the chase core, on every package" :
			 "default: the other cores of the chase core's package %d", pkg);
	}
	/* The packages loaded: those whose DRAM traffic is counted. */
	r->npkgs_loaded = 0;
	for (int i = -1; i < r->ngen; i++) {
		int p = mess_topo_package_of_core(&r->topo, i < 0 ? r->chase_core :
						  r->gen_cores[i]), k;

		for (k = 0; k < r->npkgs_loaded && r->pkgs_loaded[k] != p; k++)
			;
		if (k == r->npkgs_loaded && p >= 0 && k < MESS_DRAM_MAX_PKG)
			r->pkgs_loaded[r->npkgs_loaded++] = p;
	}
	return 0;
}

/* The memory's own package is counted too: with --mem-node on another
 * socket, that is where the traffic lands. */
static void count_memory_package(struct mess_run *r)
{
	for (int c = 0; c < r->topo.ncores; c++) {
		int p, k;

		if (mess_topo_node_of_core(&r->topo, c) != r->mem.node)
			continue;
		p = mess_topo_package_of_core(&r->topo, c);
		for (k = 0; k < r->npkgs_loaded && r->pkgs_loaded[k] != p; k++)
			;
		if (k == r->npkgs_loaded && p >= 0 && k < MESS_DRAM_MAX_PKG)
			r->pkgs_loaded[r->npkgs_loaded++] = p;
		return;
	}
}

static size_t round2m(uint64_t x)
{
	return (size_t)((x + MESS_HUGE_BYTES - 1) & ~(MESS_HUGE_BYTES - 1));
}

/*
 * Whether need bytes cannot be had: more than nine tenths of what the
 * kernel can give (a tenth left for the system), or more than the bound
 * node holds (every buffer is bound to it: more is an OOM kill once
 * touched).  1 with err the one line, or 0.
 */
static int no_room(struct mess_run *r, size_t need, char *err, size_t errlen)
{
	size_t avail = mess_mem_available();
	char why[160];

	if (avail && need > avail / 10 * 9) {
		snprintf(err, errlen, "--buffer/--gen-bytes: the run needs %zu MiB but %zu MiB is available; allowed: a total below %zu MiB",
			 need >> 20, avail >> 20, avail / 10 * 9 >> 20);
		return 1;
	}
	if (mess_node_fits(r->mem.node, need, why, sizeof(why))) {
		snprintf(err, errlen, "--buffer/--gen-bytes/--mem-node: %s (mess nodes); allowed: a smaller --buffer or --gen-bytes, or another --mem-node",
			 why);
		return 1;
	}
	return 0;
}

/* Buffer sizes against the LLC and the memory the kernel can give us. */
static int size_buffers(struct mess_run *r, char *err, size_t errlen)
{
	struct mess_cfg *c = &r->cfg;
	uint64_t llc4 = 4 * r->llc_bytes;
	size_t need;

	if (!c->buffer)
		c->buffer = c->quick ? llc4 : (llc4 > (1ULL << 30) ? llc4 : 1ULL << 30);
	c->buffer = round2m(c->buffer);
	if (c->buffer / c->stride > UINT32_MAX) {
		snprintf(err, errlen, "--buffer: %llu lines of --stride %llu is too many; allowed: at most 2^32 lines",
			 (unsigned long long)(c->buffer / c->stride),
			 (unsigned long long)c->stride);
		return -EINVAL;
	}
	r->gen_bytes = round2m(c->gen_bytes ? c->gen_bytes :
			       (2 * r->llc_bytes > (64u << 20) ? 2 * r->llc_bytes : 64u << 20));
	need = c->buffer + (size_t)r->ngen * 2 * r->gen_bytes;
	/* Shrink automatic generator arrays before refusing. */
	while (no_room(r, need, err, errlen) && !c->gen_bytes &&
	       r->gen_bytes > (64u << 20)) {
		r->gen_bytes = round2m(r->gen_bytes / 2);
		need = c->buffer + (size_t)r->ngen * 2 * r->gen_bytes;
	}
	if (no_room(r, need, err, errlen))
		return -EINVAL;
	/* The fallback said, not only recorded (array_bytes_per_thread). */
	if (!c->gen_bytes && r->gen_bytes < 2 * r->llc_bytes)
		fprintf(stderr, "mess: warning: generator arrays shrunk to %zu MiB a thread to fit the memory, under 2x the LLC (%llu MiB): part of their traffic may stay in the cache (meta.json array_bytes_per_thread)\n",
			r->gen_bytes >> 20, (unsigned long long)(r->llc_bytes >> 20));
	r->nlines = (uint32_t)(c->buffer / c->stride);
	return 0;
}

static int load_resume_args(struct mess_run *r, int argc, char **argv,
			    char *err, size_t errlen)
{
	char dir[PATH_MAX], **av;
	int ac;

	snprintf(dir, sizeof(dir), "%s", r->cfg.resume);
	if (mess_resume_args("mess", argc, argv, dir, &ac, &av, err, errlen) ||
	    mess_options_parse(&r->cfg, ac, av, err, errlen))
		return -EINVAL;
	snprintf(r->cfg.resume, sizeof(r->cfg.resume), "%s", dir);
	return 0;
}

/*
 * The machine before any traffic (the generators are started, idle), and
 * the threads whose lost time says whether a window was disturbed.
 */
static int look(struct mess_run *r)
{
	int *cores = malloc(((size_t)r->ngen + 1) * sizeof(*cores));
	int *pus = malloc(((size_t)r->ngen + 1) * sizeof(*pus));
	int err = -ENOMEM;

	r->clock_lo = INFINITY;
	r->clock_hi = 0;
	r->migrations = NAN;
	r->worst_steal_ms = NAN;
	if (!cores || !pus)
		goto out;
	cores[0] = r->chase_core;
	for (int i = 0; i < r->ngen; i++) {
		cores[i + 1] = r->gen_cores[i];
		pus[i] = r->topo.core_pu[r->gen_cores[i]];
	}
	err = mess_env_probe(&r->env, &r->topo, cores, r->ngen + 1, r->node, 250);
	if (err)
		goto out;
	mess_env_verdict(&r->env, &r->verdict);
	mess_verdict_warn(stderr, "", &r->verdict);
	err = mess_disturb_open(&r->dist);
	if (!err)
		err = mess_disturb_add_self(&r->dist, r->topo.core_pu[r->chase_core],
					    "the chase thread");
	if (!err && r->ngen)
		err = mess_disturb_add_pool(&r->dist, &r->gens.pool, pus,
					    "generator");
	/* Without the threads' clocks the run goes on and says so. */
	r->dist_ok = !err;
	err = err == -ENOMEM ? err : 0;
out:
	free(cores);
	free(pus);
	return err;
}

/* Warnings once the run really starts (the directory is its own): a
 * refused run says its one line alone. */
static void warn_start(const struct mess_run *r)
{
	if (r->mem.how != MESS_MEMSEL_DEFAULT)
		fprintf(stderr, "mess: --mem-node %s: node %d (%s)\n", r->mem.given,
			r->mem.node, r->mem.rule);
	if (r->cfg.buffer < 4 * r->llc_bytes)
		fprintf(stderr, "warning: --buffer %llu MiB is below 4x the LLC (%llu MiB): latencies will include cache hits\n",
			(unsigned long long)(r->cfg.buffer >> 20),
			(unsigned long long)(4 * r->llc_bytes >> 20));
	if (!r->ngen)
		fprintf(stderr, "warning: no generator cores (a 1-core machine or --cores left none): only the unloaded latency is measured\n");
}

static int setup(struct mess_run *r)
{
	int err;

	r->node = r->mem.node;
	err = mess_topo_bind_core(&r->topo, r->chase_core);
	if (err) {
		fprintf(stderr, "mess: cannot pin the chase to core %d: %s\n",
			r->chase_core, strerror(-err));
		return err;
	}
	/* On the chase core, before any traffic: the clock it runs at,
	 * measured again (up to three times) while it is unsteady. */
	mess_cpufreq_nominal(r->topo.core_pu[r->chase_core], &r->freq);
	do {
		mess_cpufreq_measure(&r->freq);
		r->clock_attempts++;
	} while (r->clock_attempts < 3 && isfinite(r->freq.measured_ghz) &&
		 r->freq.measured_spread_pct > MESS_Q_CLOCK_SPREAD_WARN);
	mess_run_corectr_open(r);
	fprintf(stderr, "mess: %s, chase on core %d, %d generator core%s, LLC %llu MiB, memory node %d\n",
		r->topo.cpu_model, r->chase_core, r->ngen,
		r->ngen == 1 ? "" : "s",
		(unsigned long long)(r->llc_bytes >> 20), r->node);
	fprintf(stderr, "mess: allocating %llu MiB chase buffer and %d x 2 x %zu MiB generator arrays\n",
		(unsigned long long)(r->cfg.buffer >> 20), r->ngen,
		r->gen_bytes >> 20);
	err = mess_buf_alloc(&r->chase, r->cfg.buffer, r->node, 1);
	if (err)
		return err;
	if (r->chase.hp == MESS_HP_NONE)
		fprintf(stderr, "warning: no huge pages for the chase buffer (hugetlbfs pool empty, THP unavailable): TLB misses may inflate latency; recorded in meta.json\n");
	if (r->ngen) {
		err = mess_gens_start(&r->gens, &r->topo, r->gen_cores,
				      r->ngen, r->gen_bytes, r->node, 1);
		if (err)
			return err;
		/* Recorded now: the arrays are gone when meta.json is final. */
		mess_gens_hugepages(&r->gens, &r->gen_hp, &r->gen_huge_pct);
	}
	return look(r);
}

int mess_curves_main(int argc, char **argv)
{
	static struct mess_run run;
	struct mess_run *r = &run;
	/* Room for the longest message: --cores quotes the whole list. */
	char err[sizeof(run.cfg.cores) + 256];
	double prev_unloaded = 0;
	int rc;

	if (mess_options_parse(&r->cfg, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "mess: %s\n", err);
		return -EINVAL;
	}
	if (r->cfg.help) {
		mess_curves_usage(stdout);
		return 0;
	}
	if (r->cfg.force && !r->cfg.resume[0]) {
		fprintf(stderr, "mess: --force: only with --resume DIR (a run another build started)\n");
		return -EINVAL;
	}
	if (r->cfg.out[0] && !r->cfg.resume[0] &&
	    mess_out_check("out", r->cfg.out, err, sizeof(err))) {
		fprintf(stderr, "mess: %s\n", err);
		return -EINVAL;
	}
	if (r->cfg.resume[0]) {
		if (load_resume_args(r, argc, argv, err, sizeof(err))) {
			fprintf(stderr, "mess: %s\n", err);
			return -EINVAL;
		}
	}
	if (r->cfg.replay[0])
		return mess_replay_main(r, argc, argv);
	rc = mess_topo_init(&r->topo);
	if (rc) {
		fprintf(stderr, "mess: hwloc could not read the topology: %s\n",
			strerror(-rc));
		return -EIO;
	}
	if (r->cfg.list) {
		list_registry(&r->topo);
		return 0;
	}
	if (r->cfg.variant[0]) {
		r->var = mess_variant_find(r->cfg.variant);
		if (!r->var) {
			fprintf(stderr, "mess: --variant: '%s' is not a variant; allowed:",
				r->cfg.variant);
			for (unsigned i = 0; i < mess_nvariants; i++)
				fprintf(stderr, " %s", mess_variants[i].name);
			fprintf(stderr, "\n");
			return -EINVAL;
		}
	} else {
		r->var = mess_variant_default();
		if (!r->var) {
			fprintf(stderr, "mess: no traffic generator variant runs on this CPU (see --list)\n");
			return -EOPNOTSUPP;
		}
	}
	if (mess_variant_unavailable(r->var)) {
		fprintf(stderr, "mess: --variant %s cannot run here: %s\n",
			r->var->name, mess_variant_unavailable(r->var));
		return -EOPNOTSUPP;
	}
	if (pick_cores(r, err, sizeof(err))) {
		fprintf(stderr, "mess: %s\n", err);
		return -EINVAL;
	}
	mess_topo_llc_of_core(&r->topo, r->chase_core, &r->llc_bytes,
			      &r->llc_level);
	if (!strcmp(r->cfg.mem_node, "each"))
		return mess_curves_each(r, argc, argv);
	rc = mess_memsel_resolve(&r->topo, r->cfg.mem_node, r->chase_core,
				 &r->mem, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "mess: %s\n", rc == -ENOMEM ? strerror(-rc) : err);
		return rc == -ENOMEM ? -EIO : rc;
	}
	count_memory_package(r);
	if (size_buffers(r, err, sizeof(err))) {
		fprintf(stderr, "mess: %s\n", err);
		return -EINVAL;
	}

	/* Before the directory: --counters naming a family that cannot
	 * count here leaves nothing behind. */
	rc = mess_run_counters_open(r);
	if (rc)
		return rc;
	mess_signals_install();
	/* The directory first: a run it would overwrite is refused before
	 * gigabytes are allocated and faulted in. */
	rc = mess_rundir_claim(&r->rd, "mess", "", r->cfg.out, r->cfg.resume,
			       "curves.csv");
	if (r->cfg.json)
		r->rd.stdout_file = "summary.json";
	if (rc == -EEXIST || rc == -EALREADY || rc == -EPROTO ||
	    (rc == -EINVAL && r->cfg.resume[0]) || (rc && r->rd.why[0])) {
		rc = mess_rundir_refused(&r->rd, rc);
		mess_rundir_close(&r->rd);
		return rc;
	}
	/* Files --resume will not touch: refused in their one line before
	 * any warning, buffer or change. */
	if (!rc && r->cfg.resume[0]) {
		rc = mess_run_resume_check(r);
		if (rc && rc != -EINVAL)
			fprintf(stderr, "mess: --resume: %s\n", strerror(-rc));
		if (rc) {
			mess_rundir_close(&r->rd);
			return rc == -EINVAL ? rc : -EIO;
		}
	}
	/* Only now is this session recorded (resume.json): a refusal
	 * above changed nothing. */
	if (!rc)
		rc = mess_rundir_start(&r->rd, argc, argv);
	/* The earlier session's unloaded latency, before meta.json is
	 * rewritten: a resumed run measures it again, and says so. */
	if (!rc && r->cfg.resume[0]) {
		char mp[PATH_MAX + 16];
		json_t *old;

		snprintf(mp, sizeof(mp), "%.*s/meta.json", PATH_MAX - 1, r->rd.dir);
		old = mess_json_load(mp, 0, NULL);
		prev_unloaded = json_number_value(json_object_get(old, "unloaded_ns"));
		json_decref(old);
	}
	if (!rc) {
		warn_start(r);
		rc = setup(r);
	}
	if (!rc) {
		rc = mess_run_open(r);
		/* A curves.csv --resume will not touch: said, nothing changed. */
		if (rc == -EINVAL && r->cfg.resume[0]) {
			if (r->ngen)
				mess_gens_stop(&r->gens);
			mess_rundir_close(&r->rd);
			return rc;
		}
	}
	/* A file that could not be written (a full disk) is named, in the
	 * one line a run ends with. */
	if (rc && mess_write_failed(rc)) {
		if (r->ngen)
			mess_gens_stop(&r->gens);
		rc = mess_rundir_end(&r->rd, rc, 0);
		mess_rundir_close(&r->rd);
		return rc;
	}
	if (rc) {
		fprintf(stderr, "mess: setup failed: %s\n", strerror(-rc));
		if (r->ngen)
			mess_gens_stop(&r->gens);
		mess_rundir_close(&r->rd);
		return rc == -EINVAL || rc == -EOPNOTSUPP ? -EIO : rc;
	}
	fprintf(stderr, "mess: writing %s\n", r->rd.dir);

	rc = mess_measure_unloaded(r);
	if (!rc && !mess_interrupted) {
		fprintf(stderr, "mess: unloaded latency %.1f ns (+-%.1f, %s chase), fully random %.1f ns\n",
			r->unloaded_ns, r->unloaded_std_ns,
			r->cfg.window ? "TLB-window" : "random",
			r->unloaded_random_ns);
		if (prev_unloaded > 0)
			fprintf(stderr, "mess: --resume: the unloaded latency was measured again: %.1f ns, the earlier session's %.1f ns; every curve is read against the new one\n",
				r->unloaded_ns, prev_unloaded);
		mess_tail_open(r);
		rc = mess_sweep(r);
		/* The yardstick again, at the end: a machine that changed
		 * under the run shows as a different unloaded latency. */
		if (!rc && !mess_interrupted && r->ngen)
			mess_measure_unloaded_end(r);
	}
	if (r->ngen)
		mess_gens_stop(&r->gens);
	if (mess_interrupted)
		rc = -EINTR;
	rc = mess_rundir_end(&r->rd, rc, mess_run_finish(r, rc == 0));
	mess_run_counters_close(r);
	mess_disturb_close(&r->dist);
	mess_env_free(&r->env);
	mess_tail_free(&r->tail);
	if (!rc && r->cfg.strict && r->verdict.level == MESS_INVALID) {
		fprintf(stderr, "mess: --strict: the verdict is INVALID (the results are kept in %s)\n",
			r->rd.dir);
		rc = -EIO;
	}
	mess_rundir_close(&r->rd);
	return rc == -EINTR || !rc ? rc : -EIO;
}
