// SPDX-License-Identifier: MIT
/*
 * The run directory: every file of the result contract, written so that an
 * interrupted run is always a valid partial result that --resume continues.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "mess/messfmt.h"
#include "mess/metrics.h"
#include "core/plot.h"
#include "curves/run.h"
#include "core/clock.h"
#include "core/rundir.h"
#include "core/util.h"

#define META_SCHEMA 1
#define BW_SOURCE "accounted"

int mess_run_open(struct mess_run *r, int argc, char **argv)
{
	char host[256] = "host", utc[32], path[PATH_MAX + 64];
	int err, fresh;

	gethostname(host, sizeof(host) - 1);
	mess_utc_now(r->start_utc, sizeof(r->start_utc), 0);
	if (r->cfg.resume[0]) {
		snprintf(r->dir, sizeof(r->dir), "%s", r->cfg.resume);
	} else if (r->cfg.out[0]) {
		snprintf(r->dir, sizeof(r->dir), "%s", r->cfg.out);
	} else {
		mess_utc_now(utc, sizeof(utc), 1);
		snprintf(r->dir, sizeof(r->dir), "results/%s-%s", host, utc);
	}
	snprintf(path, sizeof(path), "%s/curves.csv", r->dir);
	fresh = access(path, F_OK) != 0;
	/* Appending a new run to an old one would mix two machines' states. */
	if (!fresh && !r->cfg.resume[0])
		return -EEXIST;
	err = mess_mkdir_p(r->dir);
	if (err)
		return err;
	r->csv = fopen(path, "a");
	if (!r->csv)
		return -errno;
	if (fresh) {
		mess_curves_csv_write_header(r->csv);
		fflush(r->csv);
	}

	r->resume = mess_file_open(r->dir, "resume.txt", "a");
	if (!r->resume)
		return -errno;
	if (!r->cfg.resume[0]) {
		fprintf(r->resume,
			"# mess run state: the original options, then finished mixes\n");
		mess_resume_write_args(r->resume, argc, argv);
	} else {
		fprintf(r->resume, "resumed %s\n", r->start_utc);
	}
	fflush(r->resume);
	return mess_run_write_meta(r, 0);
}

int mess_run_load_resume(struct mess_run *r)
{
	char path[PATH_MAX + 64], line[PATH_MAX + 16];
	struct mess_family old = { 0 };
	FILE *f;
	int err;

	f = mess_file_open(r->dir, "resume.txt", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned s;

		if (sscanf(line, "done %u", &s) == 1 && s <= MESS_GEN_OPS)
			r->done[s] = 1;
		else if (!strncmp(line, "resumed ", 8))
			r->resumed++;
	}
	fclose(f);

	snprintf(path, sizeof(path), "%s/curves.csv", r->dir);
	err = mess_curves_csv_read(path, &old);
	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	for (size_t i = 0; i < old.n; i++) {
		struct mess_curve *c = &old.curves[i];
		struct mess_curve *d =
			mess_family_curve(&r->fam, c->store_pct, c->read_pct);

		if (!d) {
			err = -ENOMEM;
			break;
		}
		for (size_t j = 0; !err && j < c->n; j++) {
			err = mess_curve_add(d, &c->pts[j]);
			r->points_reused++;
		}
	}
	mess_family_free(&old);
	return err;
}

int mess_run_record_point(struct mess_run *r, const struct mess_point *p)
{
	struct mess_curve *c = mess_family_curve(&r->fam, p->store_pct, 0);
	int err;

	if (!c)
		return -ENOMEM;
	err = mess_curve_add(c, p);
	if (err)
		return err;
	mess_curves_csv_write_row(r->csv, p, BW_SOURCE);
	/* Flushed per point: an interrupted run loses at most the point in
	 * flight. */
	if (fflush(r->csv))
		return -EIO;
	return 0;
}

int mess_run_mark_done(struct mess_run *r, unsigned store_pct)
{
	r->done[store_pct] = 1;
	fprintf(r->resume, "done %u\n", store_pct);
	return fflush(r->resume) ? -EIO : 0;
}

static void meta_cores(FILE *f, const struct mess_run *r)
{
	fprintf(f, "  \"cores\": {\"chase\": %d, \"chase_pu\": %d, \"generators\": [",
		r->chase_core, r->topo.core_pu[r->chase_core]);
	for (int i = 0; i < r->ngen; i++)
		fprintf(f, "%s%d", i ? ", " : "", r->gen_cores[i]);
	fprintf(f, "], \"generator_pus\": [");
	for (int i = 0; i < r->ngen; i++)
		fprintf(f, "%s%d", i ? ", " : "", r->topo.core_pu[r->gen_cores[i]]);
	fprintf(f, "], \"numbering\": \"hwloc logical core index; *_pus are OS PU numbers\", \"machine_cores\": %d},\n",
		r->topo.ncores);
}

int mess_run_write_meta(struct mess_run *r, int complete)
{
	FILE *f = mess_tmp_open(r->dir, "meta.json");
	enum mess_hp ghp = r->gen_hp;
	double gpct = r->gen_huge_pct;
	const struct mess_gen_kernel *k = &r->var->table[0];

	if (!f)
		return -errno;

	fprintf(f, "{\n  \"schema\": %d,\n  \"tool\": \"mess\",\n", META_SCHEMA);
	mess_meta_identity(f, &r->topo);
	meta_cores(f, r);
	fprintf(f, "  \"llc_bytes\": %llu,\n  \"llc_level\": %d,\n  \"line_bytes\": %u,\n",
		(unsigned long long)r->llc_bytes, r->llc_level,
		r->topo.line_bytes);
	fprintf(f, "  \"numa_nodes\": %d,\n  \"memory_node\": %d,\n",
		r->topo.nnodes, r->node);
	fprintf(f, "  \"huge_pages\": \"%s\",\n", mess_hp_name(
		r->ngen && ghp < r->chase.hp ? ghp : r->chase.hp));
	fprintf(f, "  \"huge_pages_detail\": {\"chase\": \"%s\", \"chase_huge_pct\": %.1f, \"generators\": \"%s\", \"generators_min_huge_pct\": %.1f, \"source\": \"/proc/self/smaps after first touch\"},\n",
		mess_hp_name(r->chase.hp), r->chase.huge_pct,
		r->ngen ? mess_hp_name(ghp) : "unused", gpct);
	fprintf(f, "  \"bw_source\": \"%s\",\n", BW_SOURCE);
	fprintf(f, "  \"bw_accounting\": \"generator bytes per iteration (declared beside each kernel) x iterations per thread over the chase window, plus one %u-byte line per chase load; ordinary stores count one read and one write (write-allocate), non-temporal stores one write; GB/s = 1e9 B/s\",\n",
		r->topo.line_bytes);
	fprintf(f, "  \"counters\": null,\n");
	fprintf(f, "  \"generator\": {\"variant\": \"%s\", \"description\": ",
		r->var->name);
	mess_json_str(f, r->var->desc);
	fprintf(f, ", \"vector_width_bytes\": %u, \"nontemporal_stores\": %s, \"ops_per_iteration\": %d, \"nop_spin_every_ops\": %d, \"array_bytes_per_thread\": %zu},\n",
		k->width, k->nontemporal ? "true" : "false", MESS_GEN_OPS,
		MESS_GEN_SPIN_EVERY, r->gen_bytes);
	/* Which variants this CPU could run, and why not, so a reader knows
	 * whether the choice was the widest the hardware offers. */
	fprintf(f, "  \"variant_selection\": {\"chosen_by\": \"%s\", \"variants\": {",
		r->cfg.variant[0] ? "--variant" : "default: widest available (run-time CPU features)");
	for (unsigned i = 0; i < mess_nvariants; i++) {
		const char *why = mess_variant_unavailable(&mess_variants[i]);

		fprintf(f, "%s\"%s\": ", i ? ", " : "", mess_variants[i].name);
		mess_json_str(f, why ? why : "available");
	}
	fprintf(f, "}},\n");
	fprintf(f, "  \"chase\": {\"buffer_bytes\": %zu, \"stride_bytes\": %llu, \"window_bytes\": %llu, \"mode\": \"%s\", \"lines\": %u, \"loads_per_iteration\": %d, \"ms_per_repeat\": %g, \"seed\": %llu},\n",
		r->chase.len, (unsigned long long)r->cfg.stride,
		(unsigned long long)r->cfg.window,
		r->cfg.window ? "tlb-window" : "random", r->nlines,
		MESS_CHASE_UNROLL, r->cfg.chase_ms,
		(unsigned long long)r->cfg.seed);
	fprintf(f, "  \"repeats\": %llu,\n  \"points_min\": %llu,\n  \"mixes\": [",
		(unsigned long long)r->cfg.repeats,
		(unsigned long long)r->cfg.points);
	for (int i = 0; i < r->cfg.nmixes; i++)
		fprintf(f, "%s%u", i ? ", " : "", r->cfg.mix[i]);
	fprintf(f, "],\n  \"quick\": %s,\n", r->cfg.quick ? "true" : "false");
	fprintf(f, "  \"unloaded_ns\": %.3f,\n  \"unloaded_std_ns\": %.3f,\n  \"unloaded_random_ns\": %.3f,\n",
		r->unloaded_ns, r->unloaded_std_ns, r->unloaded_random_ns);
	fprintf(f, "  \"points_measured\": %u,\n  \"points_reused\": %u,\n  \"points_remeasured_for_spread\": %u,\n  \"points_generators_unsteady\": %u,\n  \"probes\": %u,\n",
		r->points_measured, r->points_reused, r->remeasured,
		r->unsteady, r->probes);
	fprintf(f, "  \"plots\": ");
	mess_json_str(f, r->plots_note[0] ? r->plots_note : "pending");
	fprintf(f, ",\n  \"mess_export\": ");
	mess_json_str(f, r->export_note[0] ? r->export_note : "pending");
	fprintf(f, ",\n");
	mess_meta_close(f, r->resumed, r->start_utc, r->end_utc, complete);
	return mess_tmp_commit(r->dir, "meta.json", f);
}

/* The CSV sorted by mix and pressure, replacing the append-order file. */
static int rewrite_csv(struct mess_run *r)
{
	FILE *f = mess_tmp_open(r->dir, "curves.csv");

	if (!f)
		return -errno;
	mess_curves_csv_write_header(f);
	for (size_t i = 0; i < r->fam.n; i++)
		for (size_t j = 0; j < r->fam.curves[i].n; j++)
			mess_curves_csv_write_row(f, &r->fam.curves[i].pts[j],
						  BW_SOURCE);
	fclose(r->csv);
	r->csv = NULL;
	return mess_tmp_commit(r->dir, "curves.csv", f);
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
	extra = json_pack("{s:o, s:o, s:o, s:s, s:s, s:b}",
			  "unloaded_std_ns", mess_json_real(r->unloaded_std_ns, 3),
			  "unloaded_random_ns", mess_json_real(r->unloaded_random_ns, 3),
			  "unloaded_random_std_ns", mess_json_real(r->unloaded_random_std_ns, 3),
			  "chase_mode", r->cfg.window ? "tlb-window" : "random",
			  "bw_source", BW_SOURCE, "complete", complete);
	snprintf(title, sizeof(title), "%s, %d generator core%s, %s%s",
		 r->topo.cpu_model, r->ngen, r->ngen == 1 ? "" : "s",
		 r->var->name, complete ? "" : " (partial)");
	f = mess_tmp_open(r->dir, "summary.json");
	if (!f) {
		err = -errno;
		goto out;
	}
	err = mess_summary_write_json(f, &s, extra);
	if (err)
		fclose(f);
	else
		err = mess_tmp_commit(r->dir, "summary.json", f);
	if (err)
		goto out;
	f = mess_tmp_open(r->dir, "summary.md");
	if (!f) {
		err = -errno;
		goto out;
	}
	mess_summary_write_md(f, &s, title);
	fprintf(f, "\nUnloaded latency: %.1f ns, standard deviation %.1f ns over %u repeats (%s chase).\n"
		   "Unloaded latency, fully random chase over the whole buffer (page walks included): %.1f ns (sd %.1f ns).\n"
		   "Bandwidth is %s: see meta.json `bw_accounting`; per-point latency spread is `lat_ns_std` in curves.csv.\n",
		r->unloaded_ns, r->unloaded_std_ns, r->unloaded_repeats,
		r->cfg.window ? "TLB-window" : "fully random",
		r->unloaded_random_ns, r->unloaded_random_std_ns, BW_SOURCE);
	err = mess_tmp_commit(r->dir, "summary.md", f);
out:
	json_decref(extra);
	mess_summary_free(&s);
	return err;
}

int mess_run_finish(struct mess_run *r, int complete)
{
	char path[PATH_MAX + 64], title[300], err_s[256];
	int err;

	mess_family_sort_store(&r->fam);
	for (size_t i = 0; i < r->fam.n; i++)
		mess_curve_sort_pressure(&r->fam.curves[i]);
	mess_utc_now(r->end_utc, sizeof(r->end_utc), 0);

	err = rewrite_csv(r);
	/* Interrupted before the unloaded latency: nothing to summarise. */
	if (!err && r->unloaded_ns > 0)
		err = write_summary(r, complete);

	snprintf(path, sizeof(path), "%s/mess", r->dir);
	if (!err && mess_export_dir(path, &r->fam, r->export_note,
				    sizeof(r->export_note)) == 0) {
		if (!r->export_note[0])
			snprintf(r->export_note, sizeof(r->export_note),
				 "mess/bwlat_<R>.txt, R = memory-level read %% rounded to even");
	} else if (!r->export_note[0]) {
		snprintf(r->export_note, sizeof(r->export_note), "failed");
	}

	if (r->cfg.no_plots) {
		snprintf(r->plots_note, sizeof(r->plots_note),
			 "skipped: --no-plots");
	} else if (!err) {
		snprintf(title, sizeof(title), "%s%s", r->topo.cpu_model,
			 complete ? "" : " (partial)");
		err_s[0] = 0;
		if (mess_plot(r->dir, &r->fam, r->unloaded_ns, title, err_s,
			      sizeof(err_s)))
			snprintf(r->plots_note, sizeof(r->plots_note),
				 "skipped: %s", err_s[0] ? err_s : "gnuplot failed");
		else
			snprintf(r->plots_note, sizeof(r->plots_note),
				 "plots/curves.png, plots/curves.svg");
		if (r->plots_note[0] == 's')
			fprintf(stderr, "warning: plots %s\n", r->plots_note);
	}
	int merr = mess_run_write_meta(r, complete && !err);

	if (r->resume)
		fclose(r->resume);
	r->resume = NULL;
	return err ? err : merr;
}
