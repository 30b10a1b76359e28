// SPDX-License-Identifier: MIT
/*
 * The run directory: every file of the result contract, written so that an
 * interrupted run is always a valid partial result that --resume continues.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mess/export.h"
#include "mess/messfmt.h"
#include "mess/model.h"
#include "mess/parse.h"
#include "mess/metrics.h"
#include "core/report/plot.h"
#include "curves/run.h"
#include "core/buildinfo.h"
#include "core/clock.h"
#include "core/rundir/rundir.h"
#include "core/util.h"

/* 2: curves.csv's counter columns, meta.json counters and
 * generator_cores_rule; 3: curves.csv's trust columns, meta.json quality
 * and environment; 4: curves.csv's distribution and fairness columns,
 * meta.json distribution. */
#define META_SCHEMA 4
/* Every use has the run at hand as r. */
#define BW_SOURCE (r->be->bw_source(r))

/* The CSV sorted by mix and pressure, replacing the append-order file. */
static int rewrite_csv(struct mess_run *r)
{
	FILE *f = mess_tmp_open(r->rd.dir, "curves.csv");

	if (!f)
		return -errno;
	mess_curves_csv_write_header(f);
	for (size_t i = 0; i < r->fam.n; i++)
		for (size_t j = 0; j < r->fam.curves[i].n; j++)
			mess_curves_csv_write_row(f, &r->fam.curves[i].pts[j],
						  BW_SOURCE);
	mess_append_close(&r->csv);
	return mess_tmp_commit(r->rd.dir, "curves.csv", f);
}

int mess_run_rewrite_csv(struct mess_run *r)
{
	/* Points measured again replace their rows: the file is written
	 * whole (atomically), and the next points append to it. */
	for (size_t i = 0; i < r->fam.n; i++)
		mess_curve_sort_pressure(&r->fam.curves[i]);
	int err = rewrite_csv(r);

	if (!err)
		err = mess_append_open(&r->csv, r->rd.dir, "curves.csv");
	return err;
}

/* A row of an earlier session that cannot be read: said, and its point
 * measured again. */
static void bad_row(void *ctx, const char *msg)
{
	struct mess_run *r = ctx;

	fprintf(stderr, "mess: --resume: %s: dropped, measured again\n", msg);
	r->resume_dropped++;
}

/* Whether store_pct is one of this run's mixes. */
static int in_mixes(const struct mess_run *r, uint32_t store_pct)
{
	for (int i = 0; i < r->cfg.nmixes; i++)
		if ((uint32_t)r->cfg.mix[i] == store_pct)
			return 1;
	return 0;
}

/* curves.csv must start with its header before anything in it is kept or
 * changed: a file that does not is not ours to repair. */
static int check_header(const char *path)
{
	char line[sizeof(MESS_CURVES_CSV_HEADER) + 2] = "";
	FILE *f = mess_fopen_regular(path, NULL, 0);
	int ok;

	if (!f && errno != ENOENT)
		fprintf(stderr, "mess: --resume: %s: %s; allowed: a run directory written by mess, readable (nothing was changed)\n",
			path, strerror(errno));
	if (!f)
		return errno == ENOENT ? -ENOENT : -EINVAL;
	ok = fgets(line, sizeof(line), f) &&
	     !strcmp(line, MESS_CURVES_CSV_HEADER "\n");
	fclose(f);
	if (!ok)
		fprintf(stderr, "mess: --resume: %s:1: not the header of curves.csv; allowed: a run directory written by mess (nothing was changed)\n",
			path);
	return ok ? 0 : -EINVAL;
}

/*
 * The points of earlier sessions, and the mixes they finished, checked
 * against each other: a partial last line (a write cut short) is dropped, a
 * row that breaks the format or the contract (not a mix of this run, a
 * second row for a point) is reported and dropped, and a mix marked done
 * without its points is measured again.  When anything was dropped,
 * curves.csv is rewritten with what was kept, so the file and the state
 * agree before this session appends to them.
 */
static int load_resume(struct mess_run *r)
{
	char path[PATH_MAX + 64], msg[PATH_MAX + 256] = "";
	struct mess_family old = { 0 };
	json_t *done = json_array(), *v;
	size_t i;
	long partial;
	int err;

	snprintf(path, sizeof(path), "%s/curves.csv", r->rd.dir);
	err = check_header(path);
	if (err && err != -ENOENT) {
		json_decref(done);
		return err;
	}
	/* No curves.csv: every mix is measured again into a new one. */
	if (err == -ENOENT)
		err = 0;
	else {
		err = mess_drop_partial_line(path, &partial);
		if (partial) {
			fprintf(stderr, "mess: --resume: %s:%ld: partial last line (a write cut short): dropped, measured again\n",
				path, partial);
			r->resume_dropped++;
		}
		if (!err)
			err = mess_curves_csv_read_rows(path, &old, bad_row, r,
							msg, sizeof(msg));
		if (err) {
			fprintf(stderr, "mess: --resume: %s\n", msg[0] ? msg : strerror(-err));
			mess_family_free(&old);
			json_decref(done);
			return err;
		}
	}
	for (i = 0; !err && i < old.n; i++) {
		struct mess_curve *c = &old.curves[i];
		struct mess_curve *d;

		if (!in_mixes(r, c->store_pct)) {
			fprintf(stderr, "mess: --resume: %s: %zu row(s) with store_pct %u, not a mix of this run: dropped\n",
				path, c->n, c->store_pct);
			r->resume_dropped += c->n;
			continue;
		}
		d = mess_family_curve(&r->fam, c->store_pct, c->read_pct);
		if (!d) {
			err = -ENOMEM;
			break;
		}
		mess_curve_sort_pressure(c);
		for (size_t j = 0; !err && j < c->n; j++) {
			if (j && c->pts[j].nop == c->pts[j - 1].nop) {
				fprintf(stderr, "mess: --resume: %s: a second row for store_pct %u nop %llu: dropped\n",
					path, c->store_pct,
					(unsigned long long)c->pts[j].nop);
				r->resume_dropped++;
				continue;
			}
			err = mess_curve_add(d, &c->pts[j]);
			r->points_reused++;
		}
	}
	mess_family_free(&old);

	/* Done marks count only with their points (at least --points). */
	json_array_foreach(json_object_get(r->rd.state, "done_mixes"), i, v) {
		json_int_t s = json_is_integer(v) ? json_integer_value(v) : -1;
		const struct mess_curve *c;
		size_t n = 0;

		if (s < 0 || s > MESS_GEN_OPS || !in_mixes(r, (uint32_t)s)) {
			fprintf(stderr, "mess: --resume: %s/resume.json: done mark %s is not a mix of this run: ignored\n",
				r->rd.dir, json_is_integer(v) ? "value" : "of the wrong type");
			continue;
		}
		for (size_t k = 0; k < r->fam.n; k++) {
			c = &r->fam.curves[k];
			if (c->store_pct == (uint32_t)s)
				n = mess_curve_usable(c);
		}
		if (n < (size_t)r->cfg.points) {
			fprintf(stderr, "mess: --resume: mix %lld%% is marked done but curves.csv holds %zu of its points (at least %d wanted): measured again\n",
				(long long)s, n, (int)r->cfg.points);
			continue;
		}
		if (!r->done[s])
			json_array_append_new(done, json_integer(s));
		r->done[s] = 1;
	}
	if (!err)
		err = mess_json_set(r->rd.state, "done_mixes", done);
	else
		json_decref(done);
	if (!err)
		err = mess_rundir_save(&r->rd);
	if (!err && r->resume_dropped)
		err = rewrite_csv(r);
	return err;
}

int mess_run_resume_check(struct mess_run *r)
{
	char path[PATH_MAX + 64];
	int err;

	snprintf(path, sizeof(path), "%s/curves.csv", r->rd.dir);
	err = check_header(path);
	if (!err || err == -ENOENT)
		err = mess_tail_load_csv(r);
	return err;
}

int mess_run_open(struct mess_run *r)
{
	int err = 0;

	r->csv.fd = -1;
	if (!json_object_get(r->rd.state, "done_mixes"))
		err = mess_json_set(r->rd.state, "done_mixes", json_array());
	if (!err && r->cfg.resume[0])
		err = load_resume(r);
	if (err)
		return err;
	err = mess_append_open(&r->csv, r->rd.dir, "curves.csv");
	if (err)
		return err;
	if (!r->csv.size)
		err = mess_append(&r->csv, MESS_CURVES_CSV_HEADER "\n",
				  sizeof(MESS_CURVES_CSV_HEADER));
	if (err)
		return err;
	return mess_run_write_meta(r, 0);
}

int mess_run_record_point(struct mess_run *r, const struct mess_point *p)
{
	struct mess_curve *c = mess_family_curve(&r->fam, p->store_pct, 0);
	char *row = NULL;
	size_t len = 0;
	FILE *m;
	int err;

	if (!c)
		return -ENOMEM;
	m = open_memstream(&row, &len);
	if (!m)
		return -ENOMEM;
	err = mess_curves_csv_write_row(m, p, BW_SOURCE);
	if (fclose(m) || err) {
		free(row);
		return err ? err : -ENOMEM;
	}
	/* On disk first, one whole row or nothing: a point is in the results
	 * (memory, and the final rewrite of the file) only once it is safe. */
	err = mess_append(&r->csv, row, len);
	free(row);
	if (err)
		return err;
	return mess_curve_add(c, p);
}

int mess_run_mark_done(struct mess_run *r, unsigned store_pct)
{
	r->done[store_pct] = 1;
	json_array_append_new(json_object_get(r->rd.state, "done_mixes"),
			      json_integer(store_pct));
	return mess_rundir_save(&r->rd);
}

static json_t *int_array(const int *v, int n, const int *map)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(map ? map[v[i]] : v[i]));
	return a;
}

static json_t *meta_cores(const struct mess_run *r)
{
	return mess_json_pack("{s:i, s:i, s:o, s:o, s:s, s:i}",
			 "chase", r->chase_core,
			 "chase_pu", r->topo.core_pu[r->chase_core],
			 "generators", int_array(r->gen_cores, r->ngen, NULL),
			 "generator_pus", int_array(r->gen_cores, r->ngen, r->topo.core_pu),
			 "numbering", "hwloc logical core index; *_pus are OS PU numbers",
			 "machine_cores", r->topo.ncores);
}

/* Which variants this CPU could run, and why not, so a reader knows
 * whether the choice was the widest the hardware offers. */
static json_t *meta_variants(const struct mess_run *r)
{
	json_t *v = json_object();

	for (unsigned i = 0; i < mess_nvariants; i++) {
		const char *why = mess_variant_unavailable(&mess_variants[i]);

		json_object_set_new(v, mess_variants[i].name,
				    json_string(why ? why : "available"));
	}
	return mess_json_pack("{s:s, s:o}", "chosen_by", r->cfg.variant[0] ? "--variant" :
			 "default: widest available (run-time CPU features)",
			 "variants", v);
}

int mess_run_write_meta(struct mess_run *r, int complete)
{
	enum mess_hp ghp = r->gen_hp;
	const struct mess_gen_kernel *k = &r->var->table[0];
	json_t *m = mess_rundir_meta(&r->rd, &r->topo, META_SCHEMA);
	json_t *mixes = json_array();
	char acc[512];

	for (int i = 0; i < r->cfg.nmixes; i++)
		json_array_append_new(mixes, json_integer(r->cfg.mix[i]));
	snprintf(acc, sizeof(acc), "generator bytes per iteration (declared beside each kernel) x iterations per thread over the chase window, plus one %u-byte line per chase load; ordinary stores count one read and one write (write-allocate), non-temporal stores one write; GB/s = 1e9 B/s",
		 r->topo.line_bytes);
	if (r->be->accounting)
		snprintf(acc, sizeof(acc), "%s", r->be->accounting);
	if (m && mess_json_merge(m, mess_json_pack(
		"{s:o, s:I, s:i, s:i, s:i, s:i, s:o, s:s, s:{s:s, s:o, s:s, s:o, s:s}, s:s, s:s, s:n,"
		" s:{s:s, s:s, s:i, s:b, s:i, s:i, s:I}, s:o,"
		" s:{s:I, s:I, s:I, s:s, s:i, s:i, s:f, s:I},"
		" s:I, s:I, s:o, s:b, s:o, s:o, s:o,"
		" s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:o}",
		"cores", meta_cores(r),
		"llc_bytes", (json_int_t)r->llc_bytes, "llc_level", r->llc_level,
		"line_bytes", (int)r->topo.line_bytes,
		"numa_nodes", r->topo.nnodes, "memory_node", r->node,
		"memory_node_choice", mess_memsel_json(&r->mem),
		"huge_pages", mess_hp_name(r->ngen && ghp < r->chase.hp ? ghp : r->chase.hp),
		"huge_pages_detail",
		"chase", mess_hp_name(r->chase.hp),
		"chase_huge_pct", mess_json_real(r->chase.huge_pct, 1),
		"generators", r->ngen ? mess_hp_name(ghp) : "unused",
		"generators_min_huge_pct", mess_json_real(r->gen_huge_pct, 1),
		"source", "/proc/self/smaps after first touch",
		"bw_source", BW_SOURCE, "bw_accounting", acc, "counters",
		"generator", "variant", r->var->name, "description", r->var->desc,
		"vector_width_bytes", (int)k->width,
		"nontemporal_stores", k->nontemporal,
		"ops_per_iteration", MESS_GEN_OPS,
		"nop_spin_every_ops", MESS_GEN_SPIN_EVERY,
		"array_bytes_per_thread", (json_int_t)r->gen_bytes,
		"variant_selection", meta_variants(r),
		"chase", "buffer_bytes", (json_int_t)r->chase.len,
		"stride_bytes", (json_int_t)r->cfg.stride,
		"window_bytes", (json_int_t)r->cfg.window,
		"mode", r->cfg.window ? "tlb-window" : "random",
		"lines", (int)r->nlines, "loads_per_iteration", MESS_CHASE_UNROLL,
		"ms_per_repeat", r->cfg.chase_ms, "seed", (json_int_t)r->cfg.seed,
		"repeats", (json_int_t)r->cfg.repeats,
		"points_min", (json_int_t)r->cfg.points, "mixes", mixes,
		"quick", r->cfg.quick,
		"unloaded_ns", mess_json_real(r->unloaded_ns, 3),
		"unloaded_std_ns", mess_json_real(r->unloaded_std_ns, 3),
		"unloaded_random_ns", mess_json_real(r->unloaded_random_ns, 3),
		"points_measured", (int)r->points_measured,
		"points_reused", (int)r->points_reused,
		"points_remeasured_for_spread", (int)r->remeasured,
		"points_generators_unsteady", (int)r->unsteady,
		"probes", (int)r->probes,
		"plots", r->plots_note[0] ? r->plots_note : "pending",
		"mess_export", r->export_note[0] ? r->export_note : "pending",
		"cpu_frequency", mess_cpufreq_json(&r->freq)))) {
		json_decref(m);
		m = NULL;
	}
	if (m && mess_json_merge(m, mess_json_pack("{s:o, s:o, s:o, s:s, s:o, s:o}",
		"replay", r->be->json ? r->be->json(r) : json_null(),
		"distribution", mess_tail_json(r),
		"counters", mess_run_counters_json(r),
		"generator_cores_rule", r->cores_rule,
		"environment", r->be->machine ? mess_env_json(&r->env) : json_null(),
		"quality", r->judged ? mess_run_quality_json(r) :
			mess_json_pack("{s:s}", "verdict", "pending")))) {
		json_decref(m);
		m = NULL;
	}
	return mess_rundir_write_meta(&r->rd, m, complete);
}


/* Where and how, right under the verdict: host, CPU, memory, date, run
 * time, cores. */
static void how_md(FILE *f, const struct mess_run *r)
{
	json_t *mem = mess_memsel_json(&r->mem);
	const char *kind = json_string_value(json_object_get(mem, "kind"));
	long secs = mess_utc_span_s(r->rd.start_utc, r->rd.end_utc);
	char host[128] = "";

	gethostname(host, sizeof(host) - 1);
	fprintf(f, "\n**Measured** on %s (%s), memory node %d (%s), %s",
		host, r->topo.cpu_model, r->node, kind ? kind : "kind unknown",
		r->rd.start_utc);
	if (secs >= 0)
		fprintf(f, ", in %ld min %02ld s", secs / 60, secs % 60);
	fprintf(f, "; %d generator core%s of the machine's %d and a chase core; generator variant %s; huge pages %s.\n",
		r->ngen, r->ngen == 1 ? "" : "s", r->topo.ncores, r->var->name,
		mess_hp_name(r->chase.hp));
	json_decref(mem);
}

static int write_summary(struct mess_run *r, int complete)
{
	struct mess_summary s;
	char title[512];
	json_t *extra;
	FILE *f;
	int err;

	err = mess_summarise(&r->fam, r->unloaded_ns, r->cfg.peak_gbs,
			     r->cfg.wave_tol, &s);
	if (err)
		return err;
	extra = mess_json_pack("{s:s, s:o, s:o, s:o, s:s, s:s, s:b}",
			  "verdict", mess_level_name(r->verdict.level),
			  "unloaded_std_ns", mess_json_real(r->unloaded_std_ns, 3),
			  "unloaded_random_ns", mess_json_real(r->unloaded_random_ns, 3),
			  "unloaded_random_std_ns", mess_json_real(r->unloaded_random_std_ns, 3),
			  "chase_mode", r->cfg.window ? "tlb-window" : "random",
			  "bw_source", BW_SOURCE, "complete", complete);
	snprintf(title, sizeof(title), "%s, %d generator core%s, %s%s",
		 r->topo.cpu_model, r->ngen, r->ngen == 1 ? "" : "s",
		 r->var->name, complete ? "" : " (partial)");
	f = mess_tmp_open(r->rd.dir, "summary.json");
	if (!f) {
		err = -errno;
		goto out;
	}
	err = mess_summary_write_json(f, &s, extra);
	if (err)
		fclose(f);
	else
		err = mess_tmp_commit(r->rd.dir, "summary.json", f);
	if (err)
		goto out;
	f = mess_tmp_open(r->rd.dir, "summary.md");
	if (!f) {
		err = -errno;
		goto out;
	}
	if (r->be->describe && r->be->describe(r))
		fprintf(f, "**%s** (meta.json `replay`).\n\n", r->be->describe(r));
	fprintf(f, "# %s\n\n", title);
	mess_run_quality_md(f, r);
	how_md(f, r);
	/* How the node was chosen (the rule), for a machine that has one. */
	if (r->be->machine) {
		fputc('\n', f);
		mess_memsel_md(f, &r->mem);
	}
	/* The caveat that qualifies every bandwidth below, before them. */
	fprintf(f, "\n**Bandwidth is %s**%s\n\n",
		BW_SOURCE, r->be->bw_note ? r->be->bw_note :
		r->dram.fam ?
		": the memory controllers' counts over each chase window." :
		": the generators' declared bytes over each chase window, not the memory controllers' counts (meta.json `bw_accounting`; `mess counters` says why no counter). "
		"What the memory itself moved was not measured.");
	mess_summary_write_md(f, &s, "Curves");
	if (!r->var->table[0].nontemporal)
		fputs("\nRead shares are the memory's: ordinary stores read each line before writing it (write-allocate), so a mix of 50 % stores moves two reads per write, 66.7 % read, and 100 % stores is 50 % read; no curve lies below ~50 % reads (a non-temporal variant, --variant nt, measures lower shares).\n", f);
	fprintf(f, "\nUnloaded latency: %.1f ns, standard deviation %.1f ns over %u repeats (%s chase).\n"
		   "Unloaded latency, fully random chase over the whole buffer (page walks included): %.1f ns (sd %.1f ns).\n"
		   "Per-point latency spread is `lat_ns_std` in curves.csv.\n",
		r->unloaded_ns, r->unloaded_std_ns, r->unloaded_repeats,
		r->cfg.window ? "TLB-window" : "fully random",
		r->unloaded_random_ns, r->unloaded_random_std_ns);
	if (!r->cfg.no_plots)
		fputs("\n![The curve family](plots/curves.png)\n\n"
		      "Everything on one page: report.html (open it in a browser).\n", f);
	if (r->be->machine)
		mess_run_counters_md(f, r);
	mess_tail_md(f, r);
	err = mess_tmp_commit(r->rd.dir, "summary.md", f);
out:
	json_decref(extra);
	mess_summary_free(&s);
	return err;
}

/* Ordinary stores read each line they write (write-allocate): the reason
 * a run has no curve below ~50% reads unless it used non-temporal ones. */
#define BELOW_NOTE "ordinary stores with write-allocate read every line they write, so reads stay at or above ~50%; a non-temporal generator variant (--variant wide_nt or nt) measures lower shares"

/* The first reason at the verdict's own level ("" for PASS). */
static const char *first_reason(const struct mess_verdict *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->level > MESS_PASS && v->r[i].level == v->level)
			return v->r[i].text;
	return "";
}

/*
 * mess/: the Mess simulator's 51 files, made by the same code as
 * `mess export --format mess`.  A failure is recorded in meta.json, not
 * fatal: the curves themselves are in curves.csv.
 */
static void export_mess(struct mess_run *r)
{
	const struct mess_export_format *fmt = mess_export_find("mess");
	struct mess_export_tally t;
	struct mess_model *m = NULL;
	char path[PATH_MAX + 64], tool[128], err[400];
	int ret;

	r->fam.unloaded_ns = r->unloaded_ns;
	/* The share curves.csv's readers will see (curve.h). */
	for (size_t i = 0; i < r->fam.n; i++)
		mess_curve_median_read(&r->fam.curves[i]);
	snprintf(path, sizeof(path), "%s/mess", r->rd.dir);
	snprintf(tool, sizeof(tool), "mess %s (git %s)", mess_version, mess_git_rev);
	ret = mess_model_new(&r->fam, &m);
	if (ret) {
		snprintf(r->export_note, sizeof(r->export_note),
			 "not written: no curve with a usable point");
		return;
	}
	struct mess_export_in in = {
		.fam = &r->fam, .m = m, .ghz = mess_cpufreq_ghz(&r->freq),
		.ghz_source = isfinite(r->freq.measured_ghz) ?
			"measured on the chase core (meta.json cpu_frequency)" :
			r->freq.nominal_source,
		.origin = r->rd.dir, .tool = tool, .bw_source = BW_SOURCE,
		.below_note = r->var->table[0].nontemporal ? NULL : BELOW_NOTE,
		/* The simulator's files carry the run's verdict with them. */
		.verdict = mess_level_name(r->verdict.level),
		.verdict_reason = first_reason(&r->verdict),
		.verdict_note = r->verdict.level == MESS_INVALID ?
			"written with the run; mess export would refuse this run without --force" : NULL,
	};
	ret = mess_export(fmt, &in, path, &t, err, sizeof(err));
	if (ret)
		snprintf(r->export_note, sizeof(r->export_note), "failed: %s", err);
	else
		snprintf(r->export_note, sizeof(r->export_note),
			 "mess/bwlat_0.txt ... bwlat_100.txt: %u read shares measured, %u interpolated, %u extrapolated (mess/curve-sources.tsv says which and from what)",
			 t.measured, t.interpolated, t.extrapolated);
	mess_model_free(m);
}

int mess_run_finish(struct mess_run *r, int complete)
{
	char title[600], err_s[240], host[128] = "";
	int err;

	mess_family_sort_store(&r->fam);
	for (size_t i = 0; i < r->fam.n; i++)
		mess_curve_sort_pressure(&r->fam.curves[i]);
	mess_rundir_stop_clock(&r->rd);

	err = rewrite_csv(r);
	if (!err)
		err = mess_tail_write_csv(r);
	mess_run_verdict(r);
	if (!complete)
		mess_verdict_add(&r->verdict, MESS_WARN, "partial",
				 "%s", r->be->cut_short);
	else
		mess_run_history(r, &r->verdict);
	/* Interrupted before the unloaded latency: nothing to summarise. */
	if (!err && r->unloaded_ns > 0)
		err = write_summary(r, complete);

	if (!err)
		export_mess(r);

	if (r->cfg.no_plots) {
		snprintf(r->plots_note, sizeof(r->plots_note),
			 "skipped: --no-plots");
	} else if (!err) {
		/* What was measured, then how: a figure that travels alone
		 * (a paper, a slide) still says it. */
		gethostname(host, sizeof(host) - 1);
		snprintf(title, sizeof(title),
			 "%s on %s, memory node %d%s\n%.10s, %d of %d cores generating, %s, bandwidth %s",
			 r->topo.cpu_model, host, r->node,
			 complete ? "" : " (partial)", r->rd.start_utc, r->ngen,
			 r->topo.ncores, r->var->name, BW_SOURCE);
		err_s[0] = 0;
		if (mess_plot(r->rd.dir, &r->fam, r->unloaded_ns, r->cfg.peak_gbs, title, err_s,
			      sizeof(err_s)))
			snprintf(r->plots_note, sizeof(r->plots_note),
				 "skipped: %s", err_s[0] ? err_s : "gnuplot failed");
		else
			snprintf(r->plots_note, sizeof(r->plots_note),
				 "plots/curves.png, plots/curves.svg");
		if (r->plots_note[0] == 's')
			fprintf(stderr, "warning: plots %s\n", r->plots_note);
	}
	if (!r->cfg.no_plots && !err)
		mess_tail_plot(r, title);
	int merr = mess_run_write_meta(r, complete && !err);

	/* First of the closing lines: whether to believe what came before. */
	if (r->unloaded_ns > 0)
		mess_verdict_print(stderr, "mess", &r->verdict);
	return err ? err : merr;
}
