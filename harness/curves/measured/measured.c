// SPDX-License-Identifier: MIT
/*
 * The measured backend of `mess curves` (backend.h): this machine's cores
 * and buffers resolved from the options, pinned, allocated and looked at,
 * the unloaded latency, then every point measured (point.c) and the
 * generators stopped at the end.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "curves/measured/measured.h"

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

static int pick_cores(struct mess_measured *r, char *err, size_t errlen)
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
 * socket, that is where the traffic lands.  A CPU-less node (HBM, CXL) has
 * no core to ask: its package is hwloc's, from the node's parent. */
static void count_memory_package(struct mess_measured *r)
{
	int p = mess_node_package(&r->topo, r->mem.node), k;

	for (int c = 0; c < r->topo.ncores && p < 0; c++)
		if (mess_topo_node_of_core(&r->topo, c) == r->mem.node)
			p = mess_topo_package_of_core(&r->topo, c);
	for (k = 0; k < r->npkgs_loaded && r->pkgs_loaded[k] != p; k++)
		;
	if (k == r->npkgs_loaded && p >= 0 && k < MESS_DRAM_MAX_PKG)
		r->pkgs_loaded[r->npkgs_loaded++] = p;
}

/*
 * Whether need bytes cannot be had: more than nine tenths of what the
 * kernel can give (a tenth left for the system), or more than the bound
 * node holds (every buffer is bound to it: more is an OOM kill once
 * touched).  1 with err the one line, or 0.
 */
static int no_room(struct mess_measured *r, size_t need, char *err, size_t errlen)
{
	size_t avail = mess_mem_available();
	char why[160];

	if (avail && need > avail / 10 * 9) {
		snprintf(err, errlen, "--buffer/--gen-bytes: the run needs %zu MiB but %zu MiB is available; allowed: a total below %zu MiB",
			 need >> 20, avail >> 20, avail / 10 * 9 >> 20);
		return 1;
	}
	/* A split: each node its share of it. */
	for (int i = 0, sum = 0; i < r->mem.nsplit; i++, sum = 0) {
		for (int j = 0; j < r->mem.nsplit; j++)
			sum += (int)r->mem.split_weight[j];
		if (mess_node_fits(r->mem.split_node[i], need / (size_t)sum * r->mem.split_weight[i],
				   why, sizeof(why)))
			goto short_node;
	}
	if (!r->mem.nsplit && mess_node_fits(r->mem.node, need, why, sizeof(why))) {
short_node:
		snprintf(err, errlen, "--buffer/--gen-bytes/--mem-node: %s (mess nodes); allowed: a smaller --buffer or --gen-bytes, or another --mem-node",
			 why);
		return 1;
	}
	return 0;
}

/* Buffer sizes against the LLC and the memory the kernel can give us. */
static int size_buffers(struct mess_measured *r, char *err, size_t errlen)
{
	struct mess_cfg *c = &r->cfg;
	uint64_t llc4 = 4 * r->llc_bytes;
	size_t need;

	if (!c->buffer)
		c->buffer = c->quick ? llc4 : (llc4 > (1ULL << 30) ? llc4 : 1ULL << 30);
	c->buffer = MESS_HUGE_ROUND(c->buffer);
	if (c->buffer / c->stride > UINT32_MAX) {
		snprintf(err, errlen, "--buffer: %llu lines of --stride %llu is too many; allowed: at most 2^32 lines",
			 (unsigned long long)(c->buffer / c->stride),
			 (unsigned long long)c->stride);
		return -EINVAL;
	}
	r->gen_bytes = MESS_HUGE_ROUND(c->gen_bytes ? c->gen_bytes :
			       (2 * r->llc_bytes > (64u << 20) ? 2 * r->llc_bytes : 64u << 20));
	need = c->buffer + (size_t)r->ngen * 2 * r->gen_bytes;
	/* Shrink automatic generator arrays before refusing. */
	while (no_room(r, need, err, errlen) && !c->gen_bytes &&
	       r->gen_bytes > (64u << 20)) {
		r->gen_bytes = MESS_HUGE_ROUND(r->gen_bytes / 2);
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


/*
 * The machine before any traffic (the generators are started, idle), and
 * the threads whose lost time says whether a window was disturbed.
 */
static int look(struct mess_measured *r)
{
	int *cores = malloc(((size_t)r->ngen + 1) * sizeof(*cores));
	int *pus = malloc(((size_t)r->ngen + 1) * sizeof(*pus));
	struct mess_verdict v;
	int err = -ENOMEM;

	r->desc->migrations = NAN;
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
	/* Said now; judged again with the run at its end. */
	mess_verdict_init(&v);
	mess_env_verdict(&r->env, &v);
	mess_verdict_warn(stderr, "", &v);
	err = mess_disturb_open(&r->dist);
	if (!err)
		err = mess_disturb_add_self(&r->dist, r->topo.core_pu[r->chase_core],
					    "the chase thread");
	if (!err && r->ngen)
		err = mess_disturb_add_pool(&r->dist, &r->gens.pool, pus,
					    "generator");
	/* Without the threads' clocks the run goes on and says so. */
	r->dist_ok = !err;
	r->desc->dist_known = r->dist_ok;
	err = err == -ENOMEM ? err : 0;
out:
	free(cores);
	free(pus);
	return err;
}

/* Warnings once the run really starts (the directory is its own): a
 * refused run says its one line alone. */
static void warn_start(const struct mess_measured *r)
{
	if (r->mem.how == MESS_MEMSEL_SPLIT)
		fprintf(stderr, "mess: --mem-node %s: %s\n", r->mem.given, r->mem.rule);
	else if (r->mem.how != MESS_MEMSEL_DEFAULT)
		fprintf(stderr, "mess: --mem-node %s: node %d (%s)\n", r->mem.given,
			r->mem.node, r->mem.rule);
	if (r->cfg.buffer < 4 * r->llc_bytes)
		fprintf(stderr, "warning: --buffer %llu MiB is below 4x the LLC (%llu MiB): latencies will include cache hits\n",
			(unsigned long long)(r->cfg.buffer >> 20),
			(unsigned long long)(4 * r->llc_bytes >> 20));
	if (!r->ngen)
		fprintf(stderr, "warning: no generator cores (a 1-core machine or --cores left none): only the unloaded latency is measured\n");
}

static int setup(struct mess_measured *r)
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
	/* Still before any traffic, on the chase core. */
	mess_run_llc_latency(r);
	fprintf(stderr, "mess: %s, chase on core %d, %d generator core%s, LLC %llu MiB, memory %s%d\n",
		r->topo.cpu_model, r->chase_core, r->ngen,
		r->ngen == 1 ? "" : "s",
		(unsigned long long)(r->llc_bytes >> 20),
		r->mem.nsplit ? "split, first node " : "node ", r->node);
	fprintf(stderr, "mess: allocating %llu MiB chase buffer and %d x 2 x %zu MiB generator arrays\n",
		(unsigned long long)(r->cfg.buffer >> 20), r->ngen,
		r->gen_bytes >> 20);
	err = r->mem.nsplit ? mess_buf_alloc_placed(&r->chase, r->cfg.buffer, &r->place, 1) :
	      mess_buf_alloc(&r->chase, r->cfg.buffer, r->node, 1);
	if (err)
		return err;
	if (r->chase.hp == MESS_HP_NONE)
		fprintf(stderr, "warning: no huge pages for the chase buffer (hugetlbfs pool empty, THP unavailable): TLB misses may inflate latency; recorded in meta.json\n");
	if (r->ngen) {
		err = r->mem.nsplit ?
		      mess_gens_start_placed(&r->gens, &r->topo, r->gen_cores, r->ngen,
					     r->gen_bytes, &r->place, 1) :
		      mess_gens_start(&r->gens, &r->topo, r->gen_cores,
				      r->ngen, r->gen_bytes, r->node, 1);
		if (err)
			return err;
		/* Recorded now: the arrays are gone when meta.json is final. */
		mess_gens_hugepages(&r->gens, &r->gen_hp, &r->gen_huge_pct);
	}
	if (r->mem.nsplit)
		mess_split_count(r);
	return look(r);
}

/* What the writers say of this machine's run (backend.h), once the
 * buffers say their huge pages. */
static void describe(struct mess_measured *r)
{
	struct mess_run_desc *d = r->desc;
	json_t *mem = mess_memsel_json(&r->mem);
	const char *kind = json_string_value(json_object_get(mem, "kind"));

	snprintf(d->title, sizeof(d->title), "%s, %d generator core%s, %s",
		 r->topo.cpu_model, r->ngen, r->ngen == 1 ? "" : "s",
		 r->var->name);
	snprintf(d->where, sizeof(d->where), ", memory node %d (%s)", r->node,
		 kind ? kind : "kind unknown");
	/* A split's figures name every node and weight, never the first alone. */
	for (int i = 0, at = 0; i < r->mem.nsplit && at < (int)sizeof(d->where); i++)
		at += snprintf(d->where + at, sizeof(d->where) - (size_t)at, "%s node %d (%s) %u",
			       i ? " :" : ", memory split", r->mem.split_node[i],
			       mess_kinds[r->mem.split_kind[i]].name, r->mem.split_weight[i]);
	snprintf(d->how, sizeof(d->how), "; %d generator core%s of the machine's %d and a chase core; generator variant %s; huge pages %s",
		 r->ngen, r->ngen == 1 ? "" : "s", r->topo.ncores, r->var->name,
		 mess_hp_name(r->chase.hp));
	snprintf(d->plot_how, sizeof(d->plot_how), "%d of %d cores generating, %s",
		 r->ngen, r->topo.ncores, r->var->name);
	d->node = r->node;
	d->clocks = r->freq;
	mess_run_llc_kv(r, d->export_info, sizeof(d->export_info));
	json_decref(mem);
}

/* Before the directory: the topology, the generator variant, the cores,
 * the memory node and the buffers' sizes, and --counters (naming a family
 * that cannot count here leaves nothing behind). */
static int measured_open(const struct mess_cfg *c, int argc, char **argv,
			 void **bs, struct mess_run_desc *d, int *done)
{
	static struct mess_measured m;
	struct mess_measured *r = &m;
	/* Room for the longest message: --cores quotes the whole list. */
	char err[sizeof(r->cfg.cores) + 256];
	int rc;

	r->cfg = *c;
	r->desc = d;
	*bs = r;
	rc = mess_topo_init(&r->topo);
	if (rc) {
		fprintf(stderr, "mess: hwloc could not read the topology: %s\n",
			strerror(-rc));
		return -EIO;
	}
	if (r->cfg.list) {
		list_registry(&r->topo);
		*done = 1;
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
	if (!strcmp(r->cfg.mem_node, "each")) {
		*done = 1;
		return mess_curves_each(r, argc, argv);
	}
	/* A bad --mem-place is bad input on any machine. */
	if (r->cfg.mem_place[0] && mess_place_method_parse(r->cfg.mem_place, &r->place.asked)) {
		fprintf(stderr, "mess: --mem-place: '%s' is not allowed; allowed: auto, weighted, ranges\n",
			r->cfg.mem_place);
		return -EINVAL;
	}
	rc = mess_memsel_resolve_split(&r->topo, r->cfg.mem_node, r->chase_core,
				       &r->mem, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "mess: %s\n", rc == -ENOMEM ? strerror(-rc) : err);
		return rc == -ENOMEM ? -EIO : rc;
	}
	rc = mess_split_choose(r);
	if (rc)
		return rc;
	if (r->mem.remote[0])
		fprintf(stderr, "mess: warning: --mem-node %s: %s\n",
			r->mem.given[0] ? r->mem.given : "default", r->mem.remote);
	count_memory_package(r);
	if (size_buffers(r, err, sizeof(err))) {
		fprintf(stderr, "mess: %s\n", err);
		return -EINVAL;
	}
	snprintf(d->device, sizeof(d->device), "%.150s", r->topo.cpu_model);
	d->verb = "Measured";
	d->nunits = r->ngen;
	d->node = r->mem.node;
	d->line_bytes = r->topo.line_bytes;
	d->nontemporal = r->var->table[0].nontemporal;
	d->chased = 1;
	for (int i = 0; i < MESS_GEN_NMIXES; i++)
		d->read_pct[i] = mess_gen_read_pct(&r->var->table[i]);
	/* Before the directory: --counters naming a family that cannot
	 * count here leaves nothing behind. */
	rc = mess_run_counters_open(r);
	d->bw_source = r->dram.fam ? "counters" : "accounted";
	d->read_counted = r->dram.fam && !r->dram.fam->rw_combined;
	return rc;
}

static int measured_start(void *bs, const struct mess_session *s)
{
	struct mess_measured *r = bs;
	int err;

	r->dir = s->dir;
	r->rep = s->rep;
	warn_start(r);
	err = setup(r);
	/* Pinned to the chase core now: its own L1 hit is the floor. */
	if (!err)
		r->rep->floor_ns = mess_l1_floor(mess_l1_hit_ns(r->cfg.seed),
						 r->rep->floor_source,
						 sizeof(r->rep->floor_source));
	describe(r);
	return err;
}

static int measured_unloaded(void *bs, struct mess_unloaded *u)
{
	struct mess_measured *r = bs;
	int rc = mess_measure_unloaded(r, u);

	if (rc || mess_interrupted)
		return rc;
	fprintf(stderr, "mess: unloaded latency %.1f ns (+-%.1f, %s chase), fully random %.1f ns\n",
		u->ns, u->std_ns, r->cfg.window ? "TLB-window" : "random",
		u->random_ns);
	mess_tail_open(r);
	return 0;
}

/* The generators at the load, settled (idle: stopped); a point's repeats
 * follow, and what disturbed the threads over them is read from now. */
static double measured_set_load(void *bs, const struct mess_load *l,
				int *steady)
{
	struct mess_measured *r = bs;
	double bw = 0;

	r->k = l->store_pct == MESS_LOAD_IDLE ? NULL :
	       &r->var->table[l->store_pct / MESS_GEN_MIX_STEP];
	mess_gens_set(&r->gens, r->k, r->k ? l->intensity : 0);
	*steady = 1;
	if (r->k)
		bw = mess_settle(r, r->k, steady);
	if (l->point)
		mess_measured_span_begin(r);
	return bw;
}

/* After a loaded point's repeats, at the same load: its distribution,
 * and its tail against its mean (both measured now). */
static int measured_point_end(void *bs, int rc, struct mess_point *p)
{
	struct mess_measured *r = bs;

	if (rc)
		return rc;
	mess_measured_span_end(r, p);
	if (!r->k)
		return 0;
	rc = mess_tail_point(r, p);
	if (mess_point_dist_disagrees(p))
		p->flags |= MESS_QF(MESS_QR_DIST_DISAGREES);
	return rc;
}

/* latency_hist.csv whole, and plots/tails.* beside the run's figure. */
static int measured_finish(void *bs, const struct mess_results *res)
{
	struct mess_measured *r = bs;
	int err = mess_tail_write_csv(r);

	if (!err && res->plot_title[0])
		mess_tail_plot(r, res->fam, res->plot_title);
	return err;
}

/* The generators stop before the files are finished. */
static void measured_stop(void *bs)
{
	struct mess_measured *r = bs;

	if (r->ngen)
		mess_gens_stop(&r->gens);
}

static void measured_close(void *bs)
{
	struct mess_measured *r = bs;

	mess_run_counters_close(r);
	mess_disturb_close(&r->dist);
	mess_env_free(&r->env);
	mess_tail_free(&r->tail);
}

const struct mess_backend mess_measured_backend = {
	.name = "measured", .kind = "", .resumable = 1,
	.cut_short = "the run was cut short: only the mixes in curves.csv were measured (continue it with --resume)",
	.open = measured_open, .resume = mess_tail_load_csv,
	.start = measured_start, .unloaded = measured_unloaded,
	.set_load = measured_set_load, .window = mess_chase_window,
	.figures = mess_measured_figures, .point_end = measured_point_end,
	.judge = mess_measured_judge, .json = mess_measured_json,
	.md = mess_measured_md, .finish = measured_finish,
	.stop = measured_stop, .close = measured_close,
};
