// SPDX-License-Identifier: MIT
/*
 * `mess interfere`: how a victim core's latency distribution (p50 to
 * p99.9, the timed chase) grows as 0, 1, ..., N aggressor cores run the
 * traffic generators at full rate, per mix, in one placement: on the
 * victim's socket, on another socket, or on the victim's socket with their
 * arrays on another memory node.  This file chooses the cores and nodes
 * and writes the run directory; measure.c measures, table.c writes.
 */
#include "interfere/cmd.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine/mem.h"
#include "core/machine/nearest.h"
#include "core/machine/nodes.h"
#include "core/measure/chain.h"
#include "core/options.h"
#include "core/report/plot.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/util.h"
#include "interfere/run.h"

/* 2: environment, quality, strict. */
#define META_SCHEMA 2

#define F(field) MESS_OPT_F(struct ifr_opts, field)
#define S(field) MESS_OPT_S(struct ifr_opts, field)

static const struct mess_opt opts[] = {
	{ "quick", MESS_OPT_FLAG, F(quick), 0, 0, 0, NULL,
	  "smoke-sized: 3 windows of 20 ms a row, the aggressors settled for 50 ms" },
	MESS_OPT_OUT_RUN(S(out), "interfere-"),
	{ "victim", MESS_OPT_INT, F(victim), 0, 0, MESS_MAX_CORES - 1, "CORE",
	  "the victim's core, hwloc logical (default 0)" },
	{ "placement", MESS_OPT_STR, S(placement), 0, 0, "WHERE",
	  "same-socket (default), other-socket, or other-node: the aggressors on the victim's socket, their arrays on another memory node" },
	{ "aggressors", MESS_OPT_STR, S(aggressors), 0, 0, "N|all",
	  "aggressor cores at most, added one at a time (default all the placement offers)" },
	{ "mixes", MESS_OPT_STR, S(mixes), 0, 0, "LIST",
	  "the aggressors' store percentages, 0..100 in steps of 2 (default 0,50)" },
	{ "mem-node", MESS_OPT_STR, S(mem_node), 0, 0, MESS_MEMSEL_ARG,
	  "other-node: the aggressors' memory node, a number or a kind (default: one of another kind, on the victim's socket first, the nearest among equals; else another node)" },
	{ "repeats", MESS_OPT_UINT, F(repeats), 0, 1, MESS_IFR_MAX_REPEATS, "N",
	  "distribution windows a row: medians and the p99's spread (default 5)" },
	{ "run-ms", MESS_OPT_DOUBLE, F(run_ms), 0, 5, 10000, "MS",
	  "length of one distribution window (default 50)" },
	{ "settle-ms", MESS_OPT_DOUBLE, F(settle_ms), 0, 0, 10000, "MS",
	  "the aggressors run this long before a row's windows (default 200)" },
	{ "buffer", MESS_OPT_SIZE, F(buffer), 0, 1 << 21, 1ULL << 40, "SIZE",
	  "the victim's chase buffer (default 4x the LLC, at least 64 MiB)" },
	{ "gen-bytes", MESS_OPT_SIZE, F(gen_bytes), 0, 1 << 21, 1ULL << 40, "SIZE",
	  "each aggressor's array (default 2x the LLC, at least 64 MiB)" },
	MESS_OPT_NO_PLOTS(F(no_plots)),
	MESS_OPT_JSON(F(json), "summary.json"),
	MESS_OPT_STRICT(F(strict)),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_interfere_usage(FILE *f)
{
	fprintf(f,
		"usage: mess interfere [OPTION]...\n"
		"Interference: a victim core's latency distribution (p50, p90, p99, p99.9 and\n"
		"the mean of a timed random dependent-load chase, its buffer on its own node)\n"
		"as 0, 1, ..., N aggressor cores run the traffic generators at full rate, per\n"
		"mix, in one placement; the knee is the fewest aggressors at which the p99\n"
		"reaches twice its value with none.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nPlacements: same-socket: the aggressors on the victim's socket, their\n"
		"arrays on the victim's node; other-socket: on another socket, their arrays on\n"
		"the victim's node (its memory reached across the link); other-node: on the\n"
		"victim's socket, their arrays on another memory node (HBM, CXL, a remote\n"
		"node).  A placement this machine cannot give exits 3, nothing written.\n"
		"\nExamples:\n"
		"  mess interfere --quick                       smoke-sized, same socket\n"
		"  mess interfere --placement other-socket --aggressors 8 --mixes 0,50,100\n"
		"  mess interfere --placement other-node --mem-node hbm\n"
		"  mess interfere --json | jq '.knees[] | [.store_pct, .knee_aggressors]'\n"
		"  mess interfere --quick --strict              fail (exit 2) when the rows cannot be trusted\n"
		"\nFiles: interference.csv, summary.md, summary.json, meta.json, report.html,\n"
		"plots/interference.png and .svg (see\n"
		"results/README.md).  An interrupted run keeps the rows measured so far\n"
		"(meta.json \"complete\": false); it is measured again, not resumed.\n"
		"Every run ends with a verdict, PASS, WARN or INVALID with its reasons (first\n"
		"in summary.md and among the closing lines, meta.json quality): the machine\n"
		"looked at before the start, the windows kept disturbed or impossible, the\n"
		"rows whose p99 disagree.\n"
		"Exit status: 0 ok, 1 bad usage, 2 failure (or INVALID with --strict), 3 the\n"
		"placement or no generator variant runs here, 130 interrupted.\n");
}

/* The options' own checks (before the machine is looked at): 0 or
 * -EINVAL said. */
static int check_opts(struct ifr *m)
{
	int v[MESS_GEN_OPS + 1], n = 0;
	char why[160];
	uint64_t a;

	for (m->place = 0; m->place < MESS_IFR_NPLACES; m->place++)
		if (!strcmp(m->o.placement, mess_ifr_places[m->place]))
			break;
	if (m->place == MESS_IFR_NPLACES) {
		fprintf(stderr, "mess interfere: --placement: '%s' is not a placement; allowed: same-socket, other-socket or other-node\n",
			m->o.placement);
		return -EINVAL;
	}
	if (strcmp(m->o.aggressors, "all") &&
	    (mess_opt_u64(m->o.aggressors, &a) || a >= MESS_MAX_CORES)) {
		fprintf(stderr, "mess interfere: --aggressors: '%s' is not a count; allowed: a number of cores, 0 to %d, or all\n",
			m->o.aggressors, MESS_MAX_CORES - 1);
		return -EINVAL;
	}
	if (mess_parse_list(m->o.mixes, v, MESS_GEN_OPS + 1, MESS_GEN_OPS + 1,
			    MESS_GEN_MIX_STEP, &n, why, sizeof(why))) {
		fprintf(stderr, "mess interfere: --mixes: '%s' is not allowed: %s; allowed: store percentages 0..100 in steps of %d (e.g. 0,50,100), each once\n",
			m->o.mixes, why, MESS_GEN_MIX_STEP);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++)
		m->mix[m->nmixes++] = v[i];
	if (m->o.mem_node[0] && m->place != MESS_IFR_OTHER_NODE) {
		fprintf(stderr, "mess interfere: --mem-node: '%s' is only for --placement other-node; allowed: with other-node, or left out\n",
			m->o.mem_node);
		return -EINVAL;
	}
	return 0;
}

/* The cores of the package pkg but the victim, in core order. */
static int package_cores(struct ifr *m, int pkg)
{
	int n = 0;

	for (int c = 0; c < m->topo.ncores; c++)
		if (c != m->victim && mess_topo_package_of_core(&m->topo, c) == pkg)
			m->cores[n++] = c;
	return n;
}

/* other-node without --mem-node: a node but the victim's, of another kind
 * on the victim's package first, then of another kind, then on the
 * package, then any; among equals the nearest by memsel's comparison
 * (nearest.h: the firmware's latency from the victim, hwloc's else the
 * ACPI HMAT's, then the lowest number), said in p. */
static int pick_node(struct ifr *m, const struct mess_node *nodes, int nn,
		     enum mess_kind vkind, struct mess_near_pick *p)
{
	struct mess_near c[nn];
	const struct mess_node *best = NULL;
	char said[224];
	int nc = 0, tied;

	for (int i = 0; i < nn; i++)
		if (nodes[i].os != m->victim_node)
			c[nc++] = (struct mess_near){ nodes[i].os,
				2 * (nodes[i].kind != vkind) +
				(mess_node_package(&m->topo, nodes[i].os) == m->victim_pkg),
				NAN, NULL };
	if (!nc)
		return -1;
	tied = mess_near_sort(&m->topo, c, nc, m->victim, "kind and socket", p);
	for (int i = 0; i < nn; i++)
		if (nodes[i].os == c[0].os)
			best = &nodes[i];
	said[0] = 0;
	if (tied > 1 && strcmp(p->decided_by, "OS index"))
		mess_near_latency_said(p, m->victim, tied, "", said, sizeof(said));
	else if (tied > 1)
		snprintf(said, sizeof(said), "lowest OS index among %d", tied);
	snprintf(m->node_rule, sizeof(m->node_rule), "%s, %s the victim's socket%s%s",
		 best->kind != vkind ? "another kind than the victim's node" :
		 "the victim's node's kind (no other kind here)",
		 c[0].rank & 1 ? "on" : "not on", said[0] ? "; " : "", said);
	return best->os;
}

/* other-node: the aggressors' node.  0; -EOPNOTSUPP (one node) or
 * -EINVAL (--mem-node) said. */
static int other_node(struct ifr *m)
{
	struct mess_node *nodes = NULL;
	int nn = mess_nodes_list(&m->topo, &nodes), rc = 0;
	char err[512], num[16];
	enum mess_kind vkind = MESS_KIND_DRAM;
	struct mess_near_pick pick = { 0 };

	for (int i = 0; i < nn; i++)
		if (nodes[i].os == m->victim_node)
			vkind = nodes[i].kind;
	if (nn < 2) {
		fprintf(stderr, "mess interfere: --placement other-node: this machine has %s memory node; allowed here: same-socket%s\n",
			nn < 0 ? "no readable" : "one",
			mess_topo_npackages(&m->topo) > 1 ? " or other-socket" : "");
		free(nodes);
		return -EOPNOTSUPP;
	}
	if (m->o.mem_node[0]) {
		rc = mess_memsel_resolve(&m->topo, m->o.mem_node, m->victim, &m->mem,
					 err, sizeof(err));
		if (rc)
			fprintf(stderr, "mess interfere: %s\n", err);
		else if (m->mem.node == m->victim_node) {
			fprintf(stderr, "mess interfere: --mem-node: '%s' is the victim's own node %d; allowed: another node (see mess nodes)\n",
				m->o.mem_node, m->victim_node);
			rc = -EINVAL;
		}
		snprintf(m->node_rule, sizeof(m->node_rule), "--mem-node %s", m->o.mem_node);
	} else {
		snprintf(num, sizeof(num), "%d", pick_node(m, nodes, nn, vkind, &pick));
		rc = mess_memsel_resolve(&m->topo, num, m->victim, &m->mem, err, sizeof(err));
		if (rc)
			fprintf(stderr, "mess interfere: %s\n", err);
		/* Chosen here, not given: meta.json says by what. */
		m->mem.given[0] = 0;
		m->mem.near = pick;
		snprintf(m->mem.rule, sizeof(m->mem.rule), "%s", m->node_rule);
	}
	m->aggr_node = m->mem.node;
	free(nodes);
	return rc;
}

/* The placement's cores and node, --aggressors against them: 0, or
 * -EOPNOTSUPP / -EINVAL said. */
static int place(struct ifr *m)
{
	int npk = mess_topo_npackages(&m->topo), pkg = m->victim_pkg, rc;
	uint64_t want;

	m->aggr_node = m->victim_node;
	snprintf(m->node_rule, sizeof(m->node_rule), "the victim's node");
	if (m->place == MESS_IFR_OTHER_SOCKET) {
		if (npk < 2) {
			fprintf(stderr, "mess interfere: --placement other-socket: this machine has one socket; allowed here: same-socket or other-node\n");
			return -EOPNOTSUPP;
		}
		/* The package of the first core off the victim's. */
		for (int c = 0; c < m->topo.ncores && pkg == m->victim_pkg; c++) {
			int p = mess_topo_package_of_core(&m->topo, c);

			if (p >= 0)
				pkg = p;
		}
		if (pkg == m->victim_pkg) {
			fprintf(stderr, "mess interfere: --placement other-socket: no core of this process on another socket than the victim's; allowed here: same-socket or other-node\n");
			return -EOPNOTSUPP;
		}
	}
	if (m->place == MESS_IFR_OTHER_NODE) {
		rc = other_node(m);
		if (rc)
			return rc;
	}
	m->ncores = package_cores(m, pkg);
	if (!m->ncores) {
		fprintf(stderr, "mess interfere: --placement %s: no core besides the victim's (core %d) on %s socket; allowed here: %s\n",
			mess_ifr_places[m->place], m->victim,
			m->place == MESS_IFR_OTHER_SOCKET ? "the other" : "its",
			npk > 1 ? "other-socket" : "none (one core)");
		return -EOPNOTSUPP;
	}
	m->naggr = m->ncores;
	if (strcmp(m->o.aggressors, "all") && !mess_opt_u64(m->o.aggressors, &want)) {
		if (want > (uint64_t)m->ncores) {
			fprintf(stderr, "mess interfere: --aggressors: %s asked, the %s placement offers %d core%s besides the victim's; allowed: 0..%d or all\n",
				m->o.aggressors, mess_ifr_places[m->place], m->ncores,
				m->ncores == 1 ? "" : "s", m->ncores);
			return -EINVAL;
		}
		m->naggr = (int)want;
	}
	return 0;
}

/* The sizes, and the nodes able to hold them: 0 or -EINVAL said. */
static int size_check(struct ifr *m)
{
	uint64_t llc = m->topo.llc_bytes;
	char why[160];

	m->buffer = MESS_HUGE_ROUND(m->o.buffer ? m->o.buffer : 4 * llc > (64u << 20) ? 4 * llc : 64u << 20);
	m->gen_bytes = MESS_HUGE_ROUND(m->o.gen_bytes ? m->o.gen_bytes :
				       2 * llc > (64u << 20) ? 2 * llc : 64u << 20);
	if (mess_node_fit_arrays("mess interfere", m->aggr_node,
				 m->aggr_node == m->victim_node ? m->buffer : 0,
				 (size_t)m->naggr * 2, &m->gen_bytes, m->o.gen_bytes != 0,
				 llc, why, sizeof(why)) ||
	    mess_node_fits(m->victim_node, m->buffer, why, sizeof(why))) {
		fprintf(stderr, "mess interfere: --buffer/--gen-bytes: %s (the chase's %zu MiB, %d aggressors x 2 arrays of %zu MiB); allowed: a smaller --buffer or --gen-bytes, or fewer --aggressors\n",
			why, m->buffer >> 20, m->naggr, m->gen_bytes >> 20);
		return -EINVAL;
	}
	return 0;
}

/* Options, topology, placement and sizes: 0, or -errno said (1: --help). */
static int setup(struct ifr *m, int argc, char **argv)
{
	int quick = mess_opts_given(argc, argv, "quick"), rc;
	char err[PATH_MAX + 256];

	m->o = (struct ifr_opts){ .repeats = quick ? 3 : 5, .run_ms = quick ? 20 : 50,
				  .settle_ms = quick ? 50 : 200 };
	strcpy(m->o.placement, "same-socket");
	strcpy(m->o.aggressors, "all");
	strcpy(m->o.mixes, "0,50");
	rc = mess_cmd_open("mess interfere", opts, NOPTS, &m->o, &m->o.help,
			   mess_interfere_usage, argc, argv, NULL, 0, NULL);
	if (rc)
		return rc;
	if (m->o.out[0] && mess_out_check("out", m->o.out, err, sizeof(err))) {
		fprintf(stderr, "mess interfere: %s\n", err);
		return -EINVAL;
	}
	rc = check_opts(m);
	if (rc)
		return rc;
	if (mess_topo_init_said(&m->topo, "mess interfere"))
		return -EIO;
	if (m->o.victim >= m->topo.ncores) {
		fprintf(stderr, "mess interfere: --victim: core %lld is not on this machine; allowed: 0..%d (hwloc logical cores)\n",
			(long long)m->o.victim, m->topo.ncores - 1);
		return -EINVAL;
	}
	m->victim = (int)m->o.victim;
	m->victim_node = mess_topo_node_of_core(&m->topo, m->victim);
	m->victim_pkg = mess_topo_package_of_core(&m->topo, m->victim);
	rc = place(m);
	if (rc)
		return rc;
	m->var = mess_variant_default();
	if (!m->var) {
		fprintf(stderr, "mess interfere: no traffic-generator variant runs on this CPU\n");
		return -EOPNOTSUPP;
	}
	return size_check(m);
}

static json_t *meta(const struct mess_rundir *rd, struct ifr *m)
{
	json_t *j = mess_rundir_meta(rd, &m->topo, META_SCHEMA);
	char cores[1024], mixes[512];

	mess_format_list(m->cores, m->naggr, cores, sizeof(cores));
	mess_format_list(m->mix, m->nmixes, mixes, sizeof(mixes));
	if (j && (mess_json_merge(j, mess_json_pack(
		"{s:s, s:i, s:i, s:s, s:i, s:i, s:i, s:s, s:s, s:s, s:I}",
		"placement", mess_ifr_places[m->place],
		"victim_core", m->victim, "victim_node", m->victim_node,
		"aggressor_cores", cores, "max_aggressors", m->naggr,
		"placement_cores", m->ncores, "aggressor_node", m->aggr_node,
		"aggressor_node_rule", m->node_rule, "variant", m->var->name,
		"mixes", mixes, "llc_bytes", (json_int_t)m->topo.llc_bytes)) ||
	    mess_json_merge(j, mess_json_pack(
		"{s:{s:s, s:I, s:I, s:f, s:I, s:o, s:s, s:s, s:s, s:s}}",
		"latency", "method", "the timed random dependent-load chase on the victim core, its buffer bound to the victim's node (mbind), huge pages requested; each window untimed and timed sub-windows in turn, lines 256 B apart in 2 MiB TLB windows (the curves' chase), the timer's fixed cost taken from L1 bursts inside each window and subtracted, preemptions (batches over 20 us) cut, a disturbed window measured again up to 3 times (the curves' distribution windows)",
		"buffer_bytes", (json_int_t)m->buffer, "stride_bytes", (json_int_t)MESS_CHAIN_STRIDE,
		"run_ms", m->o.run_ms, "batch_loads", (json_int_t)m->batch_loads,
		"unloaded_ns", mess_json_real(m->unloaded_ns, 2), "timer", m->timer,
		"figure", "ns a load: the median over the row's windows of each window's quantile and mean (interference.csv lat_*_ns)",
		"huge_pages", m->chase_huge,
		"disturbed", "windows found disturbed (measured again) and kept so at the bound (interference.csv disturbed, disturbed_kept)")) ||
	    mess_json_merge(j, mess_json_pack(
		"{s:{s:s, s:s, s:I, s:f, s:s, s:o, s:s}, s:i, s:s, s:{s:f, s:s}, s:b, s:i}",
		"bandwidth", "method", "the traffic generators on the first N aggressor cores at full rate (no nop spin), arrays bound to the aggressor node, huge pages requested; the rest idle",
		"source", "accounted: the generators' declared bytes per iteration (an ordinary store counted with its write-allocate read), not memory-controller counters",
		"array_bytes_per_thread", (json_int_t)m->gen_bytes, "settle_ms", m->o.settle_ms,
		"huge_pages", m->gen_huge[0] ? m->gen_huge : "none",
		"huge_pct", mess_json_real(m->gen_huge_pct, 1),
		"figure", "GB/s (1e9 B/s) of memory-level traffic over the row's windows (interference.csv bw_gbs)",
		"repeats", (int)m->o.repeats,
		"spread", "1.4826 x median absolute deviation of the windows' p99 (lat_p99_spread_ns)",
		"knee", "x", MESS_IFR_KNEE_X,
		"rule", "the fewest aggressors at which a mix's p99 reaches x times its p99 with 0 aggressors (summary.json knees)",
		"quick", m->o.quick, "rows_measured", m->nrows)) ||
	    (m->cost.plan[0] && mess_json_merge(j, mess_cost_json(&m->cost))) ||
	    mess_json_set(j, "plots", json_string(m->plot_note[0] ? m->plot_note : "not yet")) ||
	    mess_json_merge(j, mess_json_pack("{s:o, s:o, s:b}",
		"environment", mess_judge_env_json(&m->judge),
		"quality", mess_judge_quality(&m->judge, mess_ifr_rules_json(), m->o.strict),
		"strict", m->o.strict)) ||
	    /* The keys every run's meta.json gives (report.html's "How it
	     * was measured"): the victim's node and core, the aggressors as
	     * the generators. */
	    mess_json_merge(j, mess_json_pack("{s:i, s:s, s:s, s:{s:i, s:o, s:i}}",
		"memory_node", m->victim_node, "huge_pages", m->chase_huge,
		"bw_source", "accounted", "cores", "chase", m->victim,
		"generators", mess_json_ints(m->cores, (size_t)m->naggr),
		"machine_cores", m->topo.ncores)))) {
		json_decref(j);
		return NULL;
	}
	if (m->place == MESS_IFR_OTHER_NODE)
		mess_json_set(j, "memory_node_choice", mess_memsel_json(&m->mem));
	return j;
}

static void write_csv(FILE *f, const void *arg)
{
	const struct ifr *m = arg;

	mess_ifr_csv(f, &m->about, m->rows, m->nrows);
}

static void write_md(FILE *f, const void *arg)
{
	const struct ifr *m = arg;

	fprintf(f, "# Interference: %s\n\n", m->topo.cpu_model);
	mess_judge_md(f, &m->judge);
	mess_ifr_md(f, &m->about, m->rows, m->nrows);
}

static int write_files(struct ifr *m, struct mess_rundir *rd)
{
	int rc;

	mess_format_list(m->cores, m->naggr, m->about_cores, sizeof(m->about_cores));
	m->about = (struct mess_ifr_about){ .cpu_model = m->topo.cpu_model, .place = m->place,
		.victim = m->victim, .aggressor_cores = m->about_cores, .max_aggressors = m->naggr,
		.victim_node = m->victim_node, .aggressor_node = m->aggr_node };
	mess_ifr_ratios(m->rows, m->nrows);
	rc = mess_tmp_write(rd->dir, MESS_IFR_CSV, write_csv, m);
	if (!rc)
		rc = mess_tmp_write(rd->dir, "summary.md", write_md, m);
	if (!rc) {
		json_t *j = mess_ifr_json(&m->about, m->rows, m->nrows);

		if (j && mess_json_set(j, "quality", mess_judge_quality(&m->judge, NULL, m->o.strict))) {
			json_decref(j);
			j = NULL;
		}
		rc = mess_json_write(rd->dir, "summary.json", j);
	}
	return rc;
}

/* plots/interference.png and .svg: p99 and p50 against the aggressors,
 * a line per mix; plot_note says what happened (plotting is optional). */
static void plot(struct ifr *m, const char *rundir)
{
	char dir[PATH_MAX + 8], qrun[2 * PATH_MAX], qt[512], title[256], mixes[512] = "", pre[32];
	char log[PATH_MAX + 32], err[256], *expr;
	int rc;

	if (m->o.no_plots) {
		snprintf(m->plot_note, sizeof(m->plot_note), "skipped: --no-plots");
		return;
	}
	if (!m->nrows) {
		snprintf(m->plot_note, sizeof(m->plot_note), "skipped: no row measured");
		return;
	}
	for (int i = 0; i < m->nmixes; i++)
		snprintf(mixes + strlen(mixes), sizeof(mixes) - strlen(mixes), "%s%d",
			 i ? " " : "", m->mix[i]);
	snprintf(dir, sizeof(dir), "%s/plots", rundir);
	rc = mess_subdir(dir);
	if (rc) {
		snprintf(m->plot_note, sizeof(m->plot_note), "skipped: cannot make plots/: %s",
			 strerror(-rc));
		return;
	}
	snprintf(title, sizeof(title), "%s%s, %s, victim core %d",
		 mess_judge_prefix(&m->judge, pre, sizeof(pre)), m->topo.cpu_model,
		 mess_ifr_places[m->place], m->victim);
	mess_gp_quote(qrun, sizeof(qrun), rundir);
	mess_gp_quote(qt, sizeof(qt), title);
	snprintf(log, sizeof(log), "%s/gnuplot.log", dir);
	if (asprintf(&expr, "rundir='%s'; plottitle='%s'; mixes='%s'", qrun, qt, mixes) < 0) {
		snprintf(m->plot_note, sizeof(m->plot_note), "skipped: out of memory");
		return;
	}
	err[0] = 0;
	rc = mess_gnuplot("interfere.gp", expr, log, err, sizeof(err));
	free(expr);
	if (rc)
		snprintf(m->plot_note, sizeof(m->plot_note), "not drawn: %s", err[0] ? err : strerror(-rc));
	else
		snprintf(m->plot_note, sizeof(m->plot_note), "plots/interference.png and .svg");
}

int mess_interfere_main(int argc, char **argv)
{
	static struct ifr m;
	struct mess_rundir rd = { 0 };
	char cores[1024];
	int rc;

	memset(&m, 0, sizeof(m));
	rc = setup(&m, argc, argv);
	if (rc) {
		mess_topo_fini(&m.topo);
		return rc > 0 ? 0 : rc;
	}
	rc = mess_rundir_open_new(&rd, "mess interfere", "interfere", m.o.out,
				  MESS_IFR_CSV, m.o.json, argc, argv);
	/* The victim's core and the aggressors': all the run uses.
	 * Unlooked, it still runs; its verdict says so. */
	if (!rc) {
		int used[MESS_MAX_CORES + 1];

		used[0] = m.victim;
		memcpy(used + 1, m.cores, sizeof(int) * (size_t)m.naggr);
		mess_judge_look(&m.judge, &m.topo, used, m.naggr + 1, m.victim_node,
				"mess interfere");
	}
	if (!rc)
		mess_ifr_estimate_run(&m);
	if (!rc)
		rc = mess_rundir_write_meta(&rd, meta(&rd, &m), 0);
	if (rc) {
		mess_rundir_close(&rd);
		mess_judge_fini(&m.judge);
		mess_topo_fini(&m.topo);
		return rc == -EEXIST || rc == -EINVAL ? rc : -EIO;
	}
	mess_signals_install();
	mess_format_list(m.cores, m.naggr, cores, sizeof(cores));
	fprintf(stderr, "mess interfere: %s, victim core %d, %s: up to %d aggressor%s (cores %s, arrays on node %d), %d mix%s, %s generators; writing %s\n",
		m.topo.cpu_model, m.victim, mess_ifr_places[m.place], m.naggr,
		m.naggr == 1 ? "" : "s", m.naggr ? cores : "none", m.aggr_node,
		m.nmixes, m.nmixes == 1 ? "" : "es", m.var->name, rd.dir);
	mess_cost_begin(&m.cost, "mess interfere");
	rc = mess_ifr_measure(&m);
	mess_cost_end(&m.cost);
	if (mess_interrupted)
		rc = -EINTR;
	mess_rundir_stop_clock(&rd);
	if (m.nrows || !rc) {
		mess_judge_begin(&m.judge, !rc, "rows in " MESS_IFR_CSV);
		mess_ifr_judge(m.rows, m.nrows, &m.judge.v);
	}
	{
		int frc = write_files(&m, &rd);

		if (!frc)
			plot(&m, rd.dir);

		if (!frc)
			frc = mess_rundir_write_meta(&rd, meta(&rd, &m), !rc);
		rc = mess_rundir_end(&rd, rc, frc);
		rc = mess_judge_end(&m.judge, "mess interfere", rd.dir, m.o.strict, rc);
	}
	mess_rundir_close(&rd);
	mess_judge_fini(&m.judge);
	free(m.rows);
	mess_topo_fini(&m.topo);
	return rc == -EINTR || !rc ? rc : -EIO;
}
