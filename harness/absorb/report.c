// SPDX-License-Identifier: MIT
/* absorption.csv and absorption.md, from the results alone. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "absorb/absorb.h"
#include "core/buildinfo.h"
#include "core/isa.h"
#include "core/report/html.h"
#include "core/util.h"

#define TABLE_CSV "absorption.csv"
/* Schema 1's fourteen columns first, then schema 2's. */
#define TABLE_HEADER "kernel,variant,cores,q,mode,k1,k1_rel,k2,slope_ns,base_ns,perf,perf_unit,runs,status," \
	"k1_lo,k1_hi,fit,r2,speedup_k,speedup_rel,pairs,disturbed_pairs,remeasured_pairs,table"

/*
 * k1_rel = k1 / |l1.l2| (section 2.4): noise instructions per instruction
 * of the loop around the sites.  The counts come from the disassembly of
 * this very binary (tools/noise-census.sh): the clean loop body, and the
 * sites per loop iteration (lat_mem_rd's loop is unrolled, one site per
 * load, so k per load is sites x k per loop iteration).
 */
static double k1_rel(const struct absorb_table *t, const struct row *r,
		     enum mess_noise_mode m)
{
	const struct loop_census *c = &t->loops[r->wl.kernel][m];

	if (!c->clean_body)
		return NAN;
	return (double)r->pair[m].res.k1 * c->sites / c->clean_body;
}

static void csv_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, ",%.6g", x);
	else
		fprintf(f, ",nan");
}

typedef void search_fn(FILE *f, const struct absorb_table *t,
		       const struct row *r, enum mess_noise_mode m);

/* Each finished search (row x mode), in row and mode order, to fn: the
 * CSV and the md's Details list the same ones. */
static void each_search(FILE *f, const struct absorb_table *t, search_fn *fn)
{
	for (size_t i = 0; i < t->nrows; i++)
		for (int j = 0; j < t->nmodes; j++)
			if (t->rows[i].pair[t->modes[j]].done)
				fn(f, t, &t->rows[i], t->modes[j]);
}

static void csv_search(FILE *f, const struct absorb_table *t,
		       const struct row *r, enum mess_noise_mode m)
{
	const struct pair *pr = &r->pair[m];
	const struct mess_absorb_result *res = &pr->res;

	fprintf(f, "%s,%s,%u", r->key, mess_noise_mode_name(m), res->k1);
	csv_num(f, k1_rel(t, r, m));
	csv_num(f, absorb_has_line(res) ? res->k2 : NAN);
	csv_num(f, res->slope);
	csv_num(f, res->base);
	csv_num(f, r->perf);
	fprintf(f, ",%s,%u,%s,%u", mess_wl_kernels[r->wl.kernel].perf_unit,
		res->runs, mess_absorb_status_name(res->status), res->k1_lo);
	csv_num(f, res->k1_hi ? res->k1_hi : NAN);
	fprintf(f, ",%s", mess_absorb_shape_name(res->shape));
	csv_num(f, res->r2);
	csv_num(f, res->speedup_k ? res->speedup_k : NAN);
	csv_num(f, res->speedup);
	fprintf(f, ",%u,%u,%u,%d\n", pr->pairs, pr->disturbed,
		pr->redone, r->tb + 1);
}

static int write_csv(const struct absorb_table *t, const char *dir)
{
	FILE *f = mess_tmp_open(dir, TABLE_CSV);

	if (!f)
		return -errno;
	fprintf(f, TABLE_HEADER "\n");
	each_search(f, t, csv_search);
	return mess_tmp_commit(dir, TABLE_CSV, f);
}

/* k1 as the status allows: a bracket where it is wide, never a bare
 * figure with a question mark. */
static void k1_cell(char *buf, size_t len, const struct pair *pr)
{
	const struct mess_absorb_result *res = &pr->res;

	if (!pr->done)
		snprintf(buf, len, "–");
	else if (res->status == MESS_ABSORB_UNCLEAR)
		snprintf(buf, len, "? (undecided)");
	else if (res->status == MESS_ABSORB_WIDE && res->k1_hi)
		snprintf(buf, len, "%u (%u–%u)", res->k1, res->k1_lo, res->k1_hi);
	else if (res->status == MESS_ABSORB_WIDE)
		snprintf(buf, len, "≥%u (wide)", res->k1_lo);
	else
		snprintf(buf, len, "%s%u", res->k1_lower_bound ? "≥" : "",
			 res->k1);
}

static void md_q(FILE *f, double q)
{
	if (isnan(q))
		fprintf(f, " |");
	else
		fprintf(f, " %g |", q);
}


/*
 * What depends on this run: its parameters and what did not run.  How to
 * read the table is the same for every run: results/README.md.
 */
static void md_notes(FILE *f, const struct absorb_table *t)
{
	fprintf(f, "\n## This run\n\n"
		"How to read the tables (k1, ≥, bracket, status, past k1, k2, slope, k1_rel, runs, pairs): results/README.md, \"Absorption tables\".\n\n"
		"- threshold: slow when t(k) − t0 > max(%g × t0, %g × spread0), decided per point with 95 %% confidence: pairs (k = 0, then k) from %u to %u until the interval of the median ratio lies on one side, give or take an indifference zone of %g × the threshold about it (a point inside it may be called either way, by its median); ok when k1_lo and k1_hi are within max(1, %g × k1) of k1\n"
		"- disturbance: %lu of %lu pairs disturbed (steal time on the run's CPUs, or a measuring thread preempted for more than 0.5 %% of the run), %lu measured again, %lu kept; steal %llu ticks, %llu involuntary switches%s%s\n"
		"- search: kmax %llu (K_MAX %d), k1 to max(1, k1/%u), slopes within %g, R² ≥ %g, stop at %d × t0\n"
		"- points: the baseline %llu pairs of runs (k = 0, k = 0) of %g ms each, each run in %llu slices interleaved with the other's in random order, a pair's ratio the median of its slices' ratios; a baseline spread above %g × t0 measured again (up to %d times)\n"
		"- performance: best of %llu trials after a warm-up\n"
		"- k1_rel: %s\n",
		t->o.threshold, t->o.sigmas, t->acfg.min_pairs, t->acfg.max_pairs,
		t->acfg.zone, t->acfg.tol_rel, t->dist_pairs, t->pairs_total + t->dist_redone,
		t->dist_redone, t->dist_kept, (unsigned long long)t->steal_ticks,
		(unsigned long long)t->nivcsw,
		t->steal_err ? "; steal not readable" : "",
		t->cs_err ? "; switches not readable" : "",
		(unsigned long long)t->o.kmax,
		MESS_NOISE_KMAX, t->acfg.prec_div, t->acfg.slope_tol,
		t->acfg.r2_min, ABSORB_STOP_SLOWDOWN,
		(unsigned long long)t->o.repeats, t->o.run_ms,
		(unsigned long long)t->o.slices, ABSORB_REMEASURE_REL, ABSORB_REMEASURE_MAX,
		(unsigned long long)t->o.repeats, t->census_note);
	for (int i = 0; i < MESS_NOISE_NMODES; i++)
		if (t->mode_on[i] && t->mode_skip[i])
			fprintf(f, "- **%s not run**: %s.\n",
				mess_noise_mode_name(i), t->mode_skip[i]);
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].skip)
			fprintf(f, "- **%s not run**: %s.\n", t->rows[i].id,
				t->rows[i].skip);
	if (t->ladder_skip)
		fprintf(f, "- **latency ladder not run**: %s.\n", t->ladder_skip);
}

static void md_search(FILE *f, const struct absorb_table *t,
		      const struct row *r, enum mess_noise_mode m)
{
	const struct pair *pr = &r->pair[m];
	const struct mess_absorb_result *res = &pr->res;
	char cell[48];

	k1_cell(cell, sizeof(cell), pr);
	fprintf(f, "| %s | %s | %s |", r->id, mess_noise_mode_name(m), cell);
	/* k1_rel as sure as k1: a bound stays a bound, and an undecided k1
	 * (wide, unclear) has none. */
	if (res->status != MESS_ABSORB_OK && res->status != MESS_ABSORB_NONE)
		fprintf(f, " – |");
	else
		fprintf(f, " %s%.3g |", res->k1_lower_bound ? "≥" : "",
			k1_rel(t, r, m));
	if (res->k1_hi)
		fprintf(f, " [%u, %u) |", res->k1_lo, res->k1_hi);
	else
		fprintf(f, " [%u, –) |", res->k1_lo);
	fprintf(f, " %s%s%s | %s%s%s | %.3f |",
		mess_absorb_status_name(res->status),
		res->why ? ": " : "", res->why ? res->why : "",
		mess_absorb_shape_name(res->shape),
		res->shape_why ? ": " : "",
		res->shape_why ? res->shape_why : "", res->r2);
	if (absorb_has_line(res))
		fprintf(f, " %u | %.4g |", res->k2, res->slope);
	else
		fprintf(f, " – | – |");
	fprintf(f, " %.4g |", res->base);
	if (res->speedup_k)
		fprintf(f, " %.1f %% at k = %u |", 100 * res->speedup,
			res->speedup_k);
	else
		fprintf(f, " – |");
	fprintf(f, " %u (%u) | %u (%u, %u) |\n", res->runs, res->runs_linear,
		pr->pairs, pr->disturbed, pr->redone);
}

static int write_md(const struct absorb_table *t, const char *dir,
		    const char *start_utc, int complete)
{
	FILE *f = mess_tmp_open(dir, "absorption.md");
	char cell[48], words[PATH_MAX + 512];
	int err;

	if (!f)
		return -errno;
	fprintf(f, "# Noise absorption: %s\n\n", t->cpu_model);
	absorb_quality_md(f, t);
	fprintf(f, "mess absorb %s (%s), ISA %s, %d cores, LLC %llu MiB; started %s%s.\n\n",
		mess_version, mess_git_rev, MESS_ISA, t->ncores,
		(unsigned long long)(t->llc_bytes >> 20), start_utc,
		complete ? "" : "; **partial** (interrupted or still running: continue with --resume)");
	fprintf(f, "Absorption k1 per noise mode, in noise instructions per inner-loop iteration.\n\n");
	fprintf(f, "| kernel | variant | cores | q | performance |");
	for (int j = 0; j < t->nmodes; j++)
		fprintf(f, " %s |", mess_noise_mode_name(t->modes[j]));
	fprintf(f, "\n|---|---|---:|---:|---:|");
	for (int j = 0; j < t->nmodes; j++)
		fprintf(f, "---:|");
	fprintf(f, "\n");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];

		/* More tables: the first here, all in Details and below. */
		if (r->tb)
			continue;
		fprintf(f, "| %s | %s | %d |", mess_wl_kernels[r->wl.kernel].name,
			r->wl.variant, r->wl.cores);
		md_q(f, r->wl.q);
		if (isfinite(r->perf) && mess_wl_kernels[r->wl.kernel].wa)
			fprintf(f, " %.4g %s (%.4g with write-allocate) |",
				r->perf, mess_wl_kernels[r->wl.kernel].perf_unit,
				mess_wl_perf_wa(r->wl.kernel, r->perf));
		else if (isfinite(r->perf))
			fprintf(f, " %.4g %s |", r->perf,
				mess_wl_kernels[r->wl.kernel].perf_unit);
		else
			fprintf(f, " %s |", r->skip ? "not run" : "–");
		for (int j = 0; j < t->nmodes; j++) {
			k1_cell(cell, sizeof(cell), &r->pair[t->modes[j]]);
			fprintf(f, " %s |", cell);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n## Details\n\n| row | mode | k1 | k1_rel | bracket | status | past k1 | R² | k2 | slope ns/insn | base ns/iter | speed-up | runs (linear sweep) | pairs (disturbed, measured again) |\n|---|---|---:|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
	each_search(f, t, md_search);
	err = absorb_write_repeat(t, dir, f);
	if (t->ladder_done)
		mess_ladder_md(&t->ladder, f);
	md_notes(f, t);
	fprintf(f, "\n---\nWords on this page: %s.\n",
		mess_glossary(words, sizeof(words)));
	if (err) {
		fclose(f);
		return err;
	}
	return mess_tmp_commit(dir, "absorption.md", f);
}

int absorb_write_tables(const struct absorb_table *t, const char *dir,
			const char *start_utc, int complete)
{
	int err = write_csv(t, dir);

	return err ? err : write_md(t, dir, start_utc, complete);
}
