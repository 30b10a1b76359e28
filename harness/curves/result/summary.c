// SPDX-License-Identifier: MIT
/*
 * The run's end: curves.csv sorted, the verdict, summary.json and
 * summary.md, the Mess simulator's files in mess/, the figures, and the
 * last meta.json.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "mess/export.h"
#include "mess/model.h"
#include "mess/metrics.h"
#include "core/report/html.h"
#include "core/report/plot.h"
#include "curves/result/run.h"
#include "core/buildinfo.h"
#include "core/clock.h"
#include "core/rundir/rundir.h"
#include "core/util.h"

/* Where and how, right under the verdict: host, device, memory, date,
 * run time, and what the backend says of how. */
static void how_md(FILE *f, const struct mess_run *r)
{
	long secs = mess_utc_span_s(r->rd.start_utc, r->rd.end_utc);
	char host[128] = "";

	gethostname(host, sizeof(host) - 1);
	fprintf(f, "\n**%s** on %s (%s)%s, %s", r->desc.verb, host,
		r->desc.device, r->desc.where, r->rd.start_utc);
	if (secs >= 0)
		fprintf(f, ", in %ld min %02ld s", secs / 60, secs % 60);
	fprintf(f, "%s.\n", r->desc.how);
}

static int write_summary(struct mess_run *r, int complete)
{
	struct mess_summary s;
	char title[512], next[MESS_REASON_LEN], words[PATH_MAX + 512];
	char inv[PATH_MAX + 32], rep[2 * PATH_MAX + 64];
	struct mess_results res;
	json_t *extra;
	FILE *f;
	int err;

	mess_run_results(r, &res);
	err = mess_summarise(&r->fam, r->u.ns, r->cfg.peak_gbs,
			     r->cfg.wave_tol, &s);
	if (err)
		return err;
	s.gen_cores = (unsigned)r->desc.nunits;
	/* A family that counts reads and writes apart gives each point a
	 * measured read share, a column beside the mix's nominal one. */
	s.read_counted = r->desc.read_counted;
	/* An unknown peak's hint names a command the user can type: mess
	 * may not be on PATH, run.sh says its own name. */
	snprintf(rep, sizeof(rep), "%s %s",
		 mess_invocation("mess report", inv, sizeof(inv)), r->rd.dir);
	s.report_cmd = rep;
	/* run_dir: where the run is, for a reader of --json's stdout (the
	 * file alone says nothing of its folder). */
	extra = mess_json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:s?, s:s, s:b}",
			  "run_dir", r->rd.dir,
			  "verdict", mess_level_name(r->verdict.level),
			  "next_step", mess_verdict_next(&r->verdict, next, sizeof(next)),
			  "unloaded_std_ns", mess_json_real(r->u.std_ns, 3),
			  "unloaded_random_ns", mess_json_real(r->u.random_ns, 3),
			  "unloaded_random_std_ns", mess_json_real(r->u.random_std_ns, 3),
			  "chase_mode", !r->desc.chased ? NULL :
			  r->cfg.window ? "tlb-window" : "random",
			  "bw_source", r->desc.bw_source, "complete", complete);
	snprintf(title, sizeof(title), "%s%s", r->desc.title,
		 complete ? "" : " (partial)");
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
	if (r->desc.banner[0])
		fprintf(f, "**%s** (meta.json `%s`).\n\n", r->desc.banner, r->be->name);
	fprintf(f, "# %s\n\n", title);
	mess_run_quality_md(f, r);
	how_md(f, r);
	if (r->be->md)
		r->be->md(r->bs, f, MESS_MD_HOW, &res);
	/* The caveat that qualifies every bandwidth below, before them. */
	fprintf(f, "\n**Bandwidth is %s**%s\n\n",
		r->desc.bw_source, r->be->bw_note ? r->be->bw_note :
		!strcmp(r->desc.bw_source, "counters") ?
		": the memory controllers' counts over each chase window." :
		": the generators' declared bytes over each chase window, not the memory controllers' counts (meta.json `bw_accounting`; `mess counters` says why no counter). "
		"What the memory itself moved was not measured.");
	mess_summary_write_md(f, &s, "Curves");
	if (!r->desc.nontemporal)
		fputs("\nRead shares are the memory's: ordinary stores read each line before writing it (write-allocate), so a mix of 50 % stores moves two reads per write, 66.7 % read, and 100 % stores is 50 % read; no curve lies below ~50 % reads (a non-temporal variant, --variant nt, measures lower shares).\n", f);
	fprintf(f, "\nUnloaded latency: %.1f ns, standard deviation %.1f ns over %u repeats (%s).\n",
		r->u.ns, r->u.std_ns, r->u.repeats, !r->desc.chased ?
		"idle windows" : r->cfg.window ? "TLB-window chase" :
		"fully random chase");
	if (isfinite(r->u.random_ns))
		fprintf(f, "Unloaded latency, fully random chase over the whole buffer (page walks included): %.1f ns (sd %.1f ns).\n",
			r->u.random_ns, r->u.random_std_ns);
	fputs("Per-point latency spread is `lat_ns_std` in curves.csv.\n", f);
	if (!r->cfg.no_plots)
		fputs("\n![The curve family](plots/curves.png)\n\n"
		      "Everything on one page: report.html (open it in a browser).\n", f);
	if (r->be->md)
		r->be->md(r->bs, f, MESS_MD_AFTER, &res);
	fprintf(f, "\n---\nWords on this page: %s.\n",
		mess_glossary(words, sizeof(words)));
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
	const struct mess_format *fmt = mess_export_find("mess");
	struct mess_export_tally t;
	struct mess_model *m = NULL;
	const struct mess_cpufreq *fq = &r->desc.clocks;
	char path[PATH_MAX + 64], tool[128], err[400];
	int ret;

	r->fam.unloaded_ns = r->u.ns;
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
		.fam = &r->fam, .m = m, .ghz = mess_cpufreq_ghz(fq),
		.ghz_source = fq->measured_source[0] ? fq->measured_source :
			isfinite(fq->measured_ghz) ?
			"measured on the chase core (meta.json cpu_frequency)" :
			fq->nominal_source,
		.nominal_ghz = fq->nominal_ghz, .nominal_source = fq->nominal_source,
		.measured_ghz = fq->measured_ghz,
		.measured_source = fq->measured_source[0] ? fq->measured_source :
			"measured on the chase core (meta.json cpu_frequency measured_method)",
		.origin = r->rd.dir, .tool = tool, .bw_source = r->desc.bw_source,
		.below_note = r->desc.nontemporal ? NULL : BELOW_NOTE,
		.extra_info = r->desc.export_info,
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
	char err_s[240], host[128] = "";
	int err;

	mess_family_sort_store(&r->fam);
	for (size_t i = 0; i < r->fam.n; i++)
		mess_curve_sort_pressure(&r->fam.curves[i]);
	mess_rundir_stop_clock(&r->rd);

	err = mess_run_write_csv(r);
	mess_run_verdict(r);
	if (!complete)
		/* One that does not resume is run again (quality_next.c). */
		mess_verdict_add(&r->verdict, MESS_WARN,
				 r->be->resumable ? "partial" : "partial_rerun",
				 "%s", r->be->cut_short);
	else {
		json_t *me = mess_run_meta(r);

		mess_run_history(r, me, &r->verdict);
		json_decref(me);
	}
	/* Interrupted before the unloaded latency: nothing to summarise. */
	if (!err && r->u.ns > 0)
		err = write_summary(r, complete);

	if (!err)
		export_mess(r);

	if (r->cfg.no_plots) {
		snprintf(r->plots_note, sizeof(r->plots_note),
			 "skipped: --no-plots");
	} else if (!err) {
		/* What was measured, then how: a figure that travels alone
		 * (a paper, a slide) still says it. */
		unsigned char invalid[MESS_PLOT_MIXES] = { 0 };

		gethostname(host, sizeof(host) - 1);
		/* The verdict first: a figure pasted into a slide without
		 * its page still says whether to believe it.  The memory
		 * node's kind whole (cut at 40 it read "(no subtype:
		 * assum"): plots/style.gp wraps the title. */
		snprintf(r->plot_title, sizeof(r->plot_title),
			 "%s: %s on %s%s%s\n%.10s, %s%sbandwidth %s",
			 mess_level_name(r->verdict.level), r->desc.device,
			 host, r->desc.where, complete ? "" : " (partial)",
			 r->rd.start_utc, r->desc.plot_how,
			 r->desc.plot_how[0] ? ", " : "", r->desc.bw_source);
		for (int m = 0; m <= MESS_GEN_OPS && m < MESS_PLOT_MIXES; m++)
			invalid[m] = r->mix_level[m] == MESS_INVALID;
		err_s[0] = 0;
		if (mess_plot(r->rd.dir, &r->fam, r->u.ns, r->cfg.peak_gbs, r->plot_title,
			      invalid, err_s, sizeof(err_s)))
			snprintf(r->plots_note, sizeof(r->plots_note),
				 "skipped: %s", err_s[0] ? err_s : "gnuplot failed");
		else
			snprintf(r->plots_note, sizeof(r->plots_note),
				 "plots/curves.png, plots/curves.svg");
		if (r->plots_note[0] == 's')
			fprintf(stderr, "warning: plots %s\n", r->plots_note);
	}
	if (r->cfg.no_plots || err)
		r->plot_title[0] = 0;
	if (r->be->finish) {
		struct mess_results res;
		int ferr;

		mess_run_results(r, &res);
		ferr = r->be->finish(r->bs, &res);
		err = err ? err : ferr;
	}
	int merr = mess_run_write_meta(r, complete && !err);

	/* First of the closing lines: whether to believe what came before. */
	if (r->u.ns > 0)
		mess_verdict_print(stderr, "mess", &r->verdict);
	return err ? err : merr;
}
