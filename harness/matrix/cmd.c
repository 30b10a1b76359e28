// SPDX-License-Identifier: MIT
/*
 * `mess matrix`: from every NUMA node with CPUs (the initiator) to every
 * memory node (the target), the unloaded latency (the curves' chase,
 * latency.c, on one core of the initiator, its buffer bound to the target) and the read-only peak bandwidth (the generators,
 * core/measure/gen, on every core of the initiator, their arrays bound to
 * the target), each beside the firmware's (HMAT) figure for the pair.  The
 * figures and files are table.c's.
 */
#include "matrix/cmd.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/machine/hmat.h"
#include "core/machine/mem.h"
#include "core/machine/nodes.h"
#include "core/measure/chain.h"
#include "core/measure/gen.h"
#include "core/measure/pool.h"
#include "core/measure/registry.h"
#include "core/options.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/util.h"
#include "matrix/matrix.h"

/* 2: environment, quality, strict. */
#define META_SCHEMA 2

struct matrix_opts {
	char out[PATH_MAX];
	uint64_t repeats;
	double run_ms;
	double window_ms;
	uint64_t buffer;
	uint64_t gen_bytes;
	char initiators[256];
	int quick;
	int json;
	int no_plots;
	int strict;
	int help;
};

#define F(field) MESS_OPT_F(struct matrix_opts, field)
#define S(field) MESS_OPT_S(struct matrix_opts, field)

static const struct mess_opt opts[] = {
	{ "quick", MESS_OPT_FLAG, F(quick), 0, 0, 0, NULL,
	  "smoke-sized: 3 repeats, latency runs of 10 ms, bandwidth windows of 50 ms" },
	MESS_OPT_OUT_RUN(S(out), "matrix-"),
	{ "repeats", MESS_OPT_UINT, F(repeats), 0, 1, MESS_MX_MAX_REPEATS, "N",
	  "timed runs per pair and figure: median and spread (default 5)" },
	{ "run-ms", MESS_OPT_DOUBLE, F(run_ms), 0, 1, 10000, "MS",
	  "length of one latency run (default 50)" },
	{ "window-ms", MESS_OPT_DOUBLE, F(window_ms), 0, 1, 10000, "MS",
	  "length of one bandwidth window (default 200)" },
	{ "buffer", MESS_OPT_SIZE, F(buffer), 0, 1 << 21, 1ULL << 40, "SIZE",
	  "the chase's buffer on each target (default 4x the LLC, at least 64 MiB)" },
	{ "gen-bytes", MESS_OPT_SIZE, F(gen_bytes), 0, 1 << 21, 1ULL << 40, "SIZE",
	  "each generator's array on each target (default 2x the LLC, at least 64 MiB)" },
	{ "initiators", MESS_OPT_STR, S(initiators), 0, 0, "LIST",
	  "only these initiator nodes' rows (\"0,2\", \"0-3\"): a sample of a large machine (default every node with CPUs)" },
	MESS_OPT_JSON(F(json), "summary.json"),
	MESS_OPT_NO_PLOTS(F(no_plots)),
	MESS_OPT_STRICT(F(strict)),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_matrix_usage(FILE *f)
{
	fprintf(f,
		"usage: mess matrix [OPTION]...\n"
		"From every NUMA node with CPUs (the initiator) to every memory node: the\n"
		"unloaded latency (the curves' dependent-load chase, 2 MiB TLB windows, on the\n"
		"initiator's first core, its buffer bound to the node) and the peak bandwidth,\n"
		"read only and 2:1 reads to writes (the traffic generators on every core of\n"
		"the initiator, their arrays bound to the node), each beside the firmware's\n"
		"(ACPI HMAT) figure for the pair where it gives one, and the pair labelled\n"
		"local, remote, and cpu-less for a node without CPUs (see mess nodes).\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nExamples:\n"
		"  mess matrix --quick                 smoke-sized: seconds per pair\n"
		"  mess matrix --initiators 0,4        only nodes 0 and 4's rows (a big host)\n"
		"  mess matrix --json | jq '.cells[] | [.initiator_node, .target_node, .lat_ns, .bw_gbs]'\n"
		"  mess matrix --buffer 1G --repeats 9 a bigger chase, more repeats\n"
		"  mess matrix --quick --strict        fail (exit 2) when the matrix cannot be trusted\n"
		"\nFiles: matrix.csv, summary.md, summary.json, meta.json, report.html, and\n"
		"plots/matrix-latency and matrix-bandwidth (.png, .svg: heat maps; see\n"
		"results/README.md).  The firmware's figures of every pair come from the ACPI\n"
		"HMAT table where it can be read (root), else from hwloc: the nearest pairs'.\n"
		"An interrupted matrix keeps the pairs measured so far (meta.json \"complete\":\n"
		"false); it is measured again, not resumed.\n"
		"Every matrix ends with a verdict, PASS, WARN or INVALID with its reasons\n"
		"(first in summary.md and among the closing lines, meta.json quality): the\n"
		"machine looked at before the start, the pairs whose repeats disagree or\n"
		"whose memory was on another node, and the latency runs faster than an L1 hit.\n"
		"Exit status: 0 ok, 1 bad usage, 2 failure (or INVALID with --strict), 3 no\n"
		"generator variant runs here, 130 interrupted.\n");
}

/* An initiator: a node with CPUs, and its cores (hwloc logical). */
struct init {
	int node;
	int *cores;
	int n;
};

struct mx {
	struct matrix_opts o;
	struct mess_topo topo;
	struct mess_node *nodes;
	int nnodes;
	struct init *inits;
	int ninits;
	const struct mess_variant *var;
	const struct mess_gen_kernel *k21;	/* the 2:1 mix */
	struct mess_mx_cell *cells;
	int ncells;
	size_t buffer, gen_bytes;
	/* The firmware's table (hmat.h): every pair it lists; hmat_rc
	 * nonzero: hwloc's nearest pairs only, hmat_why says why. */
	struct mess_hmat hmat;
	int hmat_rc;
	char hmat_why[320];
	char plots[600];
	struct mess_judge judge;
	struct mess_node_mem *mem;	/* each node's witnesses, at the size check */
	struct mess_cost cost;
};

/* The nodes with CPUs (libnuma's node of each core), in node order. */
static int find_inits(struct mx *m)
{
	m->inits = calloc((size_t)m->nnodes, sizeof(*m->inits));
	if (!m->inits)
		return -ENOMEM;
	for (int i = 0; i < m->nnodes; i++) {
		struct init *in = &m->inits[m->ninits];

		in->node = m->nodes[i].os;
		in->cores = calloc((size_t)m->topo.ncores, sizeof(int));
		if (!in->cores)
			return -ENOMEM;
		for (int c = 0; c < m->topo.ncores; c++)
			if (mess_topo_node_of_core(&m->topo, c) == in->node)
				in->cores[in->n++] = c;
		if (in->n)
			m->ninits++;
		else
			free(in->cores);
	}
	return m->ninits ? 0 : -ENODEV;
}

/* --initiators: only the listed nodes' rows (select.c), in node order. */
static int select_inits(struct mx *m, char *err, size_t errlen)
{
	int nodes[1024], keep[1024], k = 0, n = m->ninits < 1024 ? m->ninits : 1024, rc;

	if (!m->o.initiators[0])
		return 0;
	for (int i = 0; i < n; i++)
		nodes[i] = m->inits[i].node;
	rc = mess_mx_select(m->o.initiators, nodes, keep, n, err, errlen);
	for (int i = 0; !rc && i < m->ninits; i++) {
		if (i < n && keep[i])
			m->inits[k++] = m->inits[i];
		else
			free(m->inits[i].cores);
	}
	if (!rc)
		m->ninits = k;
	return rc;
}

/* The sizes, and every target able to hold what a pair binds to it (the
 * chase's buffer, then the generators' arrays: one after the other). */
static int size_check(struct mx *m, char *err, size_t errlen)
{
	uint64_t llc = m->topo.llc_bytes;
	int most = 0;

	m->buffer = MESS_HUGE_ROUND(m->o.buffer ? m->o.buffer : 4 * llc > (64u << 20) ? 4 * llc : 64u << 20);
	m->gen_bytes = MESS_HUGE_ROUND(m->o.gen_bytes ? m->o.gen_bytes :
			       2 * llc > (64u << 20) ? 2 * llc : 64u << 20);
	for (int i = 0; i < m->ninits; i++)
		most = m->inits[i].n > most ? m->inits[i].n : most;
	m->mem = calloc((size_t)m->nnodes, sizeof(*m->mem));
	if (!m->mem)
		return mess_fail(err, errlen, -ENOMEM, "out of memory");
	for (int i = 0; i < m->nnodes; i++)
		mess_node_mem_of(&m->topo, m->nodes[i].os, &m->mem[i]);
	for (int i = 0; i < m->nnodes; i++) {
		char why[160];

		/* The chase and the generators take turns: the larger. */
		if (mess_node_fit_arrays("mess matrix", m->nodes[i].os, 0, (size_t)most * 2,
					 &m->gen_bytes, m->o.gen_bytes != 0, llc, why, sizeof(why)) ||
		    mess_node_fits(m->nodes[i].os, m->buffer, why, sizeof(why)))
			return mess_fail(err, errlen, -EINVAL, "--buffer/--gen-bytes: %s (the chase's %zu MiB, or %d generators x 2 arrays of %zu MiB); allowed: a smaller --buffer or --gen-bytes",
				why, m->buffer >> 20, most, m->gen_bytes >> 20);
	}
	return 0;
}

/* The latency job, on the pool's one thread pinned to the chase core. */
struct lat_job {
	const struct mx *m;
	int node;
	double *lat;
	unsigned n;
	struct mess_mx_cell *c;
	char huge[16];
	double on, off;		/* MiB on the target, elsewhere */
};

static void job_lat(struct mess_pool_thread *t, void *arg)
{
	struct lat_job *j = arg;
	struct mess_buf b;

	t->err = mess_buf_alloc(&b, j->m->buffer, j->node, 1);
	if (t->err)
		return;
	snprintf(j->huge, sizeof(j->huge), "%s", mess_hp_name(b.hp));
	/* The one bound mapping now: where its pages are. */
	if (mess_mx_placed(NULL, j->node, &j->on, &j->off))
		j->on = j->off = NAN;
	/* Every run's figure is kept: the median and spread are the
	 * caller's. */
	t->err = mess_mx_latency(b.p, j->m->buffer, j->m->o.run_ms,
				 (unsigned)j->m->o.repeats, j->lat, &j->n, j->c);
	mess_buf_free(&b);
}

static int latency(struct mx *m, struct mess_mx_cell *c, double *lat, unsigned *n)
{
	struct mess_pool pool = { 0 };
	struct lat_job j = { .m = m, .node = c->target, .lat = lat, .c = c, .on = NAN, .off = NAN };
	int rc = mess_pool_start(&pool, &m->topo, &c->chase_core, 1);

	if (!rc)
		rc = mess_pool_call(&pool, 1, job_lat, &j);
	mess_pool_stop(&pool);
	*n = j.n;
	c->chase_on = j.on;
	c->chase_off = j.off;
	snprintf(c->huge, sizeof(c->huge), "%s", j.huge[0] ? j.huge : "none");
	return rc;
}

/* Mix k on every initiator core, its arrays bound to the target. */
static int bandwidth(struct mx *m, const struct init *in, struct mess_mx_cell *c,
		     const struct mess_gen_kernel *k, double *bw, unsigned *n)
{
	double per = mess_gen_read_bytes(k) + mess_gen_write_bytes(k);
	struct mess_gens g;
	struct mess_gen_snap a, b;
	double on, off;
	int rc = mess_gens_start(&g, &m->topo, in->cores, in->n, m->gen_bytes,
				 c->target, 1);

	*n = 0;
	if (rc)
		return rc;
	/* The arrays are bound and touched: the only bound mappings now. */
	if (mess_mx_placed(NULL, c->target, &on, &off))
		on = off = NAN;
	/* Summed over the mixes (measure() starts them at 0); unknown once
	 * one could not be read. */
	c->gen_on += on;
	c->gen_off += off;
	mess_gens_set(&g, k, 0);
	/* One window to warm (the arrays' first laps, the clocks). */
	mess_sleep_ns(m->o.window_ms * 1e6);
	for (; *n < m->o.repeats && !mess_interrupted; (*n)++) {
		mess_gens_snap(&g, &a);
		mess_sleep_ns(m->o.window_ms * 1e6);
		mess_gens_snap(&g, &b);
		bw[*n] = (double)(b.iters - a.iters) * per / (b.t_ns - a.t_ns);
	}
	mess_gens_set(&g, NULL, 0);
	mess_gens_stop(&g);
	c->bw_cores = in->n;
	return 0;
}

static void pair_init(struct mx *m, const struct init *in, const struct mess_node *t,
		      struct mess_mx_cell *c)
{
	int cpus = 0;

	memset(c, 0, sizeof(*c));
	c->init = in->node;
	mess_format_list(in->cores, in->n, c->init_cores, sizeof(c->init_cores));
	c->chase_core = in->cores[0];
	c->target = t->os;
	snprintf(c->kind, sizeof(c->kind), "%s", mess_kinds[t->kind].name);
	/* A node with CPUs is an initiator itself. */
	for (int i = 0; i < m->ninits; i++)
		cpus |= m->inits[i].node == t->os;
	c->label = mess_mx_label(mess_node_has_core(&m->topo, t->os, c->chase_core), cpus);
	/* The table's figure for the pair, else hwloc's from the chase
	 * core (sysfs: only where the initiator is the node's nearest). */
	c->hmat_lat_ns = mess_hmat_lat(&m->hmat, in->node, t->os);
	if (isnan(c->hmat_lat_ns))
		c->hmat_lat_ns = mess_node_latency_from(&m->topo, t->os, c->chase_core);
	c->hmat_bw_gbs = mess_hmat_bw(&m->hmat, in->node, t->os);
	if (isnan(c->hmat_bw_gbs))
		c->hmat_bw_gbs = mess_node_bw_from(&m->topo, t->os, c->chase_core);
	c->hmat_bw_gbs = mess_mx_mibs_gbs(c->hmat_bw_gbs);
	c->lat_ns = c->bw_gbs = c->bw21_gbs = NAN;
	c->bw21_read_pct = mess_gen_read_pct(m->k21);
	c->lat_vs_hmat = c->bw_vs_hmat = c->lat_floor_ns = NAN;
	snprintf(c->huge, sizeof(c->huge), "none");
	c->chase_on = c->chase_off = c->gen_on = c->gen_off = NAN;
}

/* The warm pass at the firmware's latency, else the probe's chain's. */
static void estimate(struct mx *m)
{
	struct mess_cost_probe p;
	struct mess_cost_parts s;
	struct mess_mx_plan pl = { m->ninits * m->nnodes, m->buffer, m->gen_bytes,
		(unsigned)m->o.repeats, m->o.run_ms, m->o.window_ms,
		mess_hmat_lat(&m->hmat, m->inits[0].node, m->nodes[0].os) };

	mess_cost_probe(&m->topo, m->inits[0].cores[0], m->nodes[0].os, &p);
	pl.lat_ns = pl.lat_ns > 0 ? pl.lat_ns : p.pass_ns_line;
	mess_mx_estimate(&pl, &p, &s);
	mess_cost_set(&m->cost, &p, m->nodes[0].os, &s, "runs and windows");
	snprintf(m->cost.plan, sizeof(m->cost.plan), "%d pair%s x %d repeats", pl.pairs,
		 pl.pairs == 1 ? "" : "s", (int)m->o.repeats);
}

static int measure(struct mx *m)
{
	double lat[MESS_MX_MAX_REPEATS], bw[MESS_MX_MAX_REPEATS], bw21[MESS_MX_MAX_REPEATS];
	int rc = 0, total = m->ninits * m->nnodes;

	for (int i = 0; i < m->ninits && !rc; i++)
		for (int t = 0; t < m->nnodes && !rc; t++) {
			struct mess_mx_cell *c = &m->cells[m->ncells];
			unsigned nl = 0, nb = 0, nb21 = 0;

			pair_init(m, &m->inits[i], &m->nodes[t], c);
			rc = latency(m, c, lat, &nl);
			c->gen_on = c->gen_off = 0;
			if (!rc && !mess_interrupted)
				rc = bandwidth(m, &m->inits[i], c, &m->var->table[0], bw, &nb);
			if (!rc && !mess_interrupted)
				rc = bandwidth(m, &m->inits[i], c, m->k21, bw21, &nb21);
			mess_mx_finish(c, (struct mess_mx_samples){ lat, nl },
				       (struct mess_mx_samples){ bw, nb },
				       (struct mess_mx_samples){ bw21, nb21 });
			if (mess_interrupted)
				rc = -EINTR;
			if (rc)
				break;
			m->ncells++;
			fprintf(stderr, "matrix: [%d/%d] node %d -> node %d (%s, %s): %.1f ns, %.2f GB/s read, %.2f GB/s 2:1\n",
				m->ncells, total, c->init, c->target, c->kind,
				mess_mx_labels[c->label], c->lat_ns, c->bw_gbs, c->bw21_gbs);
			if (c->chase_off > 0 || c->gen_off > 0)
				fprintf(stderr, "matrix: warning: node %d -> node %d: %.1f MiB of the chase's buffer and %.1f MiB of the generators' arrays were on another node than %d (numa_maps): its figures are not node %d's alone\n",
					c->init, c->target, c->chase_off, c->gen_off, c->target, c->target);
		}
	return rc;
}

static json_t *meta(const struct mess_rundir *rd, struct mx *m)
{
	json_t *m_ = mess_rundir_meta(rd, &m->topo, META_SCHEMA);
	json_t *mem = json_array();

	for (int i = 0; mem && m->mem && i < m->nnodes; i++)
		json_array_append_new(mem, mess_node_mem_json(&m->mem[i]));

	if (m_ && (mess_json_merge(m_, mess_json_pack(
		"{s:i, s:i, s:I, s:s, s:{s:s, s:I, s:I, s:I, s:f, s:s}, s:{s:s, s:s, s:s, s:I, s:f, s:s, s:i}, s:i, s:s, s:s, s:s, s:s, s:s, s:b, s:i}",
		"initiators", m->ninits, "targets", m->nnodes,
		"llc_bytes", (json_int_t)m->topo.llc_bytes,
		"variant", m->var->name,
		"latency", "method", "the curves' dependent-load chase (the same kernel and chain: lines 256 B apart in random order inside 2 MiB TLB windows, the windows in random order) on the initiator's first core, buffer bound to the target (mbind), huge pages requested; repeats runs of run_ms, the median and 1.4826 x MAD",
		"buffer_bytes", (json_int_t)m->buffer, "stride_bytes", (json_int_t)MESS_CHAIN_STRIDE, "window_bytes", (json_int_t)MESS_CHAIN_WINDOW,
		"run_ms", m->o.run_ms, "figure", "ns per load: median of the runs (matrix.csv lat_ns)",
		"bandwidth", "method", "the traffic generators on every core of the initiator, read-only (0 % stores), then the 2:1 mix (bw21: the mix whose memory-level bytes are nearest two thirds reads, bw21_read_pct), arrays bound to the target, huge pages requested; one window to warm each",
		"source", "accounted: the generators' declared bytes per iteration (an ordinary store counted with its write-allocate read), not memory-controller counters",
		"cores", "the initiator's cores (matrix.csv initiator_cores, bw_cores)",
		"array_bytes_per_thread", (json_int_t)m->gen_bytes, "window_ms", m->o.window_ms,
		"figure", "GB/s (1e9 B/s) of memory-level traffic: median of the windows (matrix.csv bw_gbs, bw21_gbs)",
		"mix21_store_pct", (int)m->k21->store_pct,
		"repeats", (int)m->o.repeats,
		"spread", "1.4826 x median absolute deviation of the repeats (lat_spread_ns, bw_spread_gbs)",
		"huge_pages", "what the chase's buffer got, per pair (matrix.csv huge_pages)",
		"hmat", "the firmware's (ACPI HMAT) figure for the pair: Latency else ReadLatency; ReadBandwidth else Bandwidth; empty where not given",
		"hmat_source", m->hmat_rc ? "hwloc (sysfs access0: each node's nearest initiators only, remote pairs have none)" :
			       "the ACPI HMAT table (/sys/firmware/acpi/tables/HMAT, its domains mapped to nodes by the SRAT): every pair it lists",
		"labels", "local: the target's hwloc cpuset holds the initiator's cores, else remote; cpu-less: the target has no CPU (libnuma)",
		"quick", m->o.quick, "pairs_measured", m->ncells)) ||
	    mess_json_merge(m_, mess_mx_impossible_json(m->cells, m->ncells)) ||
	    mess_json_merge(m_, mess_cost_json(&m->cost)) ||
	    mess_json_merge(m_, mess_json_pack("{s:s?}", "initiators_given",
		m->o.initiators[0] ? m->o.initiators : NULL)) ||
	    mess_json_merge(m_, mess_json_pack("{s:o, s:o, s:o, s:b, s:s, s:s, s:s}",
		"node_memory", mem,
		"environment", mess_judge_env_json(&m->judge),
		"quality", mess_judge_quality(&m->judge, mess_mx_rules_json(), m->o.strict),
		"strict", m->o.strict,
		"hmat_table", m->hmat_rc ? m->hmat_why : "read",
		"placement", "the pages of the process's bound mappings (/proc/self/numa_maps) while the pair's chase buffer, then its generators' arrays, were the only ones: MiB on the target and elsewhere (matrix.csv chase_mib_*, gen_mib_*)",
		"plots", m->plots[0] ? m->plots : "pending")))) {
		json_decref(m_);
		return NULL;
	}
	return m_;
}

static void write_csv(FILE *f, const void *arg)
{
	const struct mx *m = arg;

	mess_mx_csv(f, m->cells, m->ncells);
}

static void write_md(FILE *f, const void *arg)
{
	const struct mx *m = arg;

	fprintf(f, "# Memory matrix: %s\n\n", m->topo.cpu_model);
	mess_judge_md(f, &m->judge);
	mess_mx_md(f, m->cells, m->ncells);
}

static int write_files(struct mx *m, struct mess_rundir *rd)
{
	int rc = mess_tmp_write(rd->dir, MESS_MX_CSV, write_csv, m);

	if (!rc)
		rc = mess_tmp_write(rd->dir, "summary.md", write_md, m);
	if (!rc)
		rc = mess_json_write(rd->dir, "summary.json", mess_json_pack(
			"{s:s, s:o, s:o}", "cpu_model", m->topo.cpu_model,
			"quality", mess_judge_quality(&m->judge, NULL, m->o.strict),
			"cells", mess_mx_json(m->cells, m->ncells)));
	return rc;
}

static void mx_free(struct mx *m)
{
	for (int i = 0; i < m->ninits; i++)
		free(m->inits[i].cores);
	free(m->inits);
	free(m->nodes);
	free(m->mem);
	free(m->cells);
	mess_hmat_free(&m->hmat);
	mess_judge_fini(&m->judge);
	mess_topo_fini(&m->topo);
}

/* Options, topology, nodes and sizes: 0, or -errno said. */
static int setup(struct mx *m, int argc, char **argv)
{
	int quick = mess_opts_given(argc, argv, "quick"), rc;
	char err[PATH_MAX + 256];

	m->o = (struct matrix_opts){ .repeats = quick ? 3 : 5, .run_ms = quick ? 10 : 50,
				     .window_ms = quick ? 50 : 200 };
	rc = mess_cmd_open("mess matrix", opts, NOPTS, &m->o, &m->o.help,
			   mess_matrix_usage, argc, argv, NULL, 0, NULL);
	if (rc)
		return rc;
	if (m->o.out[0] && mess_out_check("out", m->o.out, err, sizeof(err))) {
		fprintf(stderr, "mess matrix: %s\n", err);
		return -EINVAL;
	}
	m->var = mess_variant_default();
	if (!m->var) {
		fprintf(stderr, "mess matrix: no traffic-generator variant runs on this CPU\n");
		return -EOPNOTSUPP;
	}
	/* 2:1: the mix whose memory-level bytes are nearest two thirds
	 * reads (an ordinary store reads its line too: 50 % stores). */
	m->k21 = &m->var->table[0];
	for (int i = 0; i < MESS_GEN_NMIXES; i++)
		if (fabs(mess_gen_read_pct(&m->var->table[i]) - 200.0 / 3) <
		    fabs(mess_gen_read_pct(m->k21) - 200.0 / 3))
			m->k21 = &m->var->table[i];
	if (mess_topo_init_said(&m->topo, "mess matrix"))
		return -EIO;
	m->nnodes = mess_nodes_list(&m->topo, &m->nodes);
	rc = m->nnodes < 0 ? m->nnodes : find_inits(m);
	if (rc) {
		fprintf(stderr, "mess matrix: no NUMA node with CPUs: %s\n", strerror(-rc));
		return -EIO;
	}
	if (select_inits(m, err, sizeof(err))) {
		fprintf(stderr, "mess matrix: %s\n", err);
		return -EINVAL;
	}
	m->hmat_rc = mess_hmat_machine(&m->topo, &m->hmat, m->hmat_why,
				       sizeof(m->hmat_why));
	m->cells = calloc((size_t)(m->ninits * m->nnodes), sizeof(*m->cells));
	if (!m->cells)
		return -ENOMEM;
	if (size_check(m, err, sizeof(err))) {
		fprintf(stderr, "mess matrix: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

int mess_matrix_main(int argc, char **argv)
{
	static struct mx m;
	struct mess_rundir rd = { 0 };
	int rc;

	memset(&m, 0, sizeof(m));
	rc = setup(&m, argc, argv);
	if (rc) {
		mx_free(&m);
		return rc > 0 ? 0 : rc;
	}
	rc = mess_rundir_open_new(&rd, "mess matrix", "matrix", m.o.out,
				  MESS_MX_CSV, m.o.json, argc, argv);
	/* Every initiator's cores: all the matrix runs on. */
	if (!rc) {
		int *all = calloc((size_t)m.topo.ncores, sizeof(int)), n = 0;

		for (int i = 0; all && i < m.ninits; i++)
			for (int c = 0; c < m.inits[i].n; c++)
				all[n++] = m.inits[i].cores[c];
		/* Unlooked, the matrix still runs; its verdict says so. */
		if (all)
			mess_judge_look(&m.judge, &m.topo, all, n, m.inits[0].node,
					"mess matrix");
		free(all);
	}
	if (!rc)
		estimate(&m);
	if (!rc)
		rc = mess_rundir_write_meta(&rd, meta(&rd, &m), 0);
	if (rc) {
		mess_rundir_close(&rd);
		mx_free(&m);
		return rc == -EEXIST || rc == -EINVAL ? rc : -EIO;
	}
	mess_signals_install();
	fprintf(stderr, "mess matrix: %s, %d initiator%s x %d node%s, %s generators; writing %s\n",
		m.topo.cpu_model, m.ninits, m.ninits == 1 ? "" : "s", m.nnodes,
		m.nnodes == 1 ? "" : "s", m.var->name, rd.dir);
	if (m.hmat_rc && m.nnodes > 1)
		fprintf(stderr, "mess matrix: the firmware's figures from hwloc, the nearest pairs' only: %s\n",
			m.hmat_why);
	mess_cost_begin(&m.cost, "mess matrix");
	rc = measure(&m);
	mess_cost_end(&m.cost);
	if (mess_interrupted)
		rc = -EINTR;
	mess_rundir_stop_clock(&rd);
	{
		int frc;
		char err[512], pre[32];

		if (m.ncells || !rc) {
			mess_judge_begin(&m.judge, !rc, "pairs in " MESS_MX_CSV);
			mess_mx_judge(m.cells, m.ncells, &m.judge.v);
		}
		frc = write_files(&m, &rd);
		mess_judge_prefix(&m.judge, pre, sizeof(pre));
		if (m.o.no_plots)
			snprintf(m.plots, sizeof(m.plots), "skipped: --no-plots");
		else if (!frc && mess_mx_plot(rd.dir, m.cells, m.ncells, pre, m.topo.cpu_model,
					      err, sizeof(err)))
			snprintf(m.plots, sizeof(m.plots), "skipped: %s", err);
		else if (!frc)
			snprintf(m.plots, sizeof(m.plots), "plots/matrix-latency and plots/matrix-bandwidth (.png, .svg)");
		if (!frc)
			frc = mess_rundir_write_meta(&rd, meta(&rd, &m), !rc);
		rc = mess_rundir_end(&rd, rc, frc);
		/* First of the closing lines' last: whether to believe them. */
		rc = mess_judge_end(&m.judge, "mess matrix", rd.dir, m.o.strict, rc);
	}
	mess_rundir_close(&rd);
	mx_free(&m);
	return rc == -EINTR || !rc ? rc : -EIO;
}
