// SPDX-License-Identifier: MIT
/*
 * `mess sample`'s files, rewritten whole (tmp + rename) from the points
 * measured so far after every point, so that an interrupted run leaves
 * valid files of what it finished: sample.csv (the columns),
 * latency.csv (histograms per level), regions.csv (samples per buffer per
 * time bin), summary.md and summary.json (the recommendation, the tool's
 * own overhead), and the plots through plots/sample.gp.  A point is kept
 * in resume.json as the JSON written here, and read back from it.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/report/plot.h"
#include "core/util.h"
#include "mess/sampling.h"
#include "sample/sweep.h"

json_t *sample_u64_array(const uint64_t *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

static void u64_from(json_t *a, uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = (uint64_t)json_integer_value(json_array_get(a, (size_t)i));
}

json_t *sample_point_json(const struct sample_point *p)
{
	json_t *j, *lv = json_array(), *lat = json_array(), *reg = json_array();

	for (int i = 0; i < p->nlevels; i++) {
		json_array_append_new(lv, json_string(p->level[i]));
		json_array_append_new(lat, sample_u64_array(p->lat[i], SAMPLE_LAT_BINS));
	}
	for (int b = 0; b < SAMPLE_TBINS; b++)
		json_array_append_new(reg, sample_u64_array(p->region[b], SAMPLE_MAX_REGIONS + 2));
	j = mess_json_pack("{s:s, s:i, s:I, s:i, s:i, s:o, s:I, s:o, s:o, s:o, s:o}",
		"sweep", p->sweep, "threads", p->threads, "period", (json_int_t)p->period,
		"aux_pages", (int)p->aux_pages, "ring_pages", (int)p->ring_pages,
		"period_effective", mess_json_real(p->period_eff, 0),
		"samples", (json_int_t)p->samples, "counted", mess_json_real(p->counted, 0),
		"accuracy", mess_json_real(p->accuracy, 6),
		"overhead", mess_json_real(p->overhead, 6),
		"overhead_spread", mess_json_real(p->spread, 6));
	mess_json_set(j, "losses", mess_json_pack("{s:I, s:I, s:I, s:I, s:I}",
		"collisions", (json_int_t)p->collisions, "truncated", (json_int_t)p->truncated,
		"lost", (json_int_t)p->lost, "throttled", (json_int_t)p->throttled,
		"undecodable", (json_int_t)p->undecodable));
	mess_json_set(j, "run_s", mess_json_real(p->run_s, 6));
	mess_json_set(j, "tool_cpu_s", mess_json_real(p->tool_cpu_s, 6));
	mess_json_set(j, "tool_share", mess_json_real(p->tool_share, 6));
	mess_json_set(j, "content", mess_json_pack("{s:I, s:I, s:I, s:I}",
		"with_data_address", (json_int_t)p->with_addr,
		"in_a_workload_buffer", (json_int_t)p->in_region,
		"with_data_source", (json_int_t)p->with_level,
		"with_latency", (json_int_t)p->with_lat));
	mess_json_set(j, "levels", lv);
	mess_json_set(j, "latency_log2_bins", lat);
	mess_json_set(j, "regions_by_time_bin", reg);
	return j;
}

static double real_or_nan(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

int sample_point_from_json(json_t *j, struct sample_point *p)
{
	json_t *l = json_object_get(j, "losses"), *c = json_object_get(j, "content");
	json_t *lv = json_object_get(j, "levels"), *lat = json_object_get(j, "latency_log2_bins");
	json_t *reg = json_object_get(j, "regions_by_time_bin");
	const char *sw = json_string_value(json_object_get(j, "sweep"));

	memset(p, 0, sizeof(*p));
	if (!sw || !l || !c || !json_is_array(lv) || !json_is_array(reg))
		return -EINVAL;
	snprintf(p->sweep, sizeof(p->sweep), "%s", sw);
	p->threads = (int)json_integer_value(json_object_get(j, "threads"));
	p->period = (uint64_t)json_integer_value(json_object_get(j, "period"));
	p->aux_pages = (unsigned)json_integer_value(json_object_get(j, "aux_pages"));
	p->ring_pages = (unsigned)json_integer_value(json_object_get(j, "ring_pages"));
	p->period_eff = real_or_nan(json_object_get(j, "period_effective"));
	p->samples = (uint64_t)json_integer_value(json_object_get(j, "samples"));
	p->counted = real_or_nan(json_object_get(j, "counted"));
	p->accuracy = real_or_nan(json_object_get(j, "accuracy"));
	p->overhead = real_or_nan(json_object_get(j, "overhead"));
	p->spread = real_or_nan(json_object_get(j, "overhead_spread"));
	p->collisions = (uint64_t)json_integer_value(json_object_get(l, "collisions"));
	p->truncated = (uint64_t)json_integer_value(json_object_get(l, "truncated"));
	p->lost = (uint64_t)json_integer_value(json_object_get(l, "lost"));
	p->throttled = (uint64_t)json_integer_value(json_object_get(l, "throttled"));
	p->undecodable = (uint64_t)json_integer_value(json_object_get(l, "undecodable"));
	p->run_s = real_or_nan(json_object_get(j, "run_s"));
	p->tool_cpu_s = real_or_nan(json_object_get(j, "tool_cpu_s"));
	p->tool_share = real_or_nan(json_object_get(j, "tool_share"));
	p->with_addr = (uint64_t)json_integer_value(json_object_get(c, "with_data_address"));
	p->in_region = (uint64_t)json_integer_value(json_object_get(c, "in_a_workload_buffer"));
	p->with_level = (uint64_t)json_integer_value(json_object_get(c, "with_data_source"));
	p->with_lat = (uint64_t)json_integer_value(json_object_get(c, "with_latency"));
	p->nlevels = (int)json_array_size(lv);
	if (p->nlevels > SAMPLE_NLEVELS)
		return -EINVAL;
	for (int i = 0; i < p->nlevels; i++) {
		snprintf(p->level[i], sizeof(p->level[i]), "%s",
			 json_string_value(json_array_get(lv, (size_t)i)) ?: "?");
		u64_from(json_array_get(lat, (size_t)i), p->lat[i], SAMPLE_LAT_BINS);
	}
	for (int b = 0; b < SAMPLE_TBINS; b++)
		u64_from(json_array_get(reg, (size_t)b), p->region[b], SAMPLE_MAX_REGIONS + 2);
	return 0;
}

/* A figure that is not known is an empty field, never a 0. */
static void fnum(FILE *f, double v, const char *fmt)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
}

static int write_csv(const char *dir, const struct sample_ctx *x, const char *wl,
		     const struct sample_point *pt, int n)
{
	FILE *f = mess_tmp_open(dir, "sample.csv");

	if (!f)
		return -errno;
	fprintf(f, SAMPLE_CSV_HEADER "\n");
	for (int i = 0; i < n; i++) {
		const struct sample_point *p = &pt[i];

		fprintf(f, "%s,%s,%d,%" PRIu64 ",%u,%u,%" PRIu64 ",", x->b->name, wl, p->threads,
			p->period, p->aux_pages, p->ring_pages, p->samples);
		fnum(f, p->counted, "%.0f");
		fputc(',', f);
		fnum(f, p->accuracy, "%.6f");
		fputc(',', f);
		fnum(f, p->overhead, "%.6f");
		fputc(',', f);
		fnum(f, p->spread, "%.6f");
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", p->collisions,
			p->truncated, p->lost, p->throttled);
		/* Whether the overhead is noise, in a column of its own: the
		 * overhead column stays a number. */
		if (isfinite(p->overhead))
			fprintf(f, "%d", sample_overhead_is_noise(p->overhead, p->spread));
		fputc('\n', f);
	}
	return mess_tmp_commit(dir, "sample.csv", f);
}

static int write_content(const char *dir, const struct sample_ctx *x,
			 const struct sample_point *pt, int n)
{
	FILE *f = mess_tmp_open(dir, "latency.csv"), *g;

	if (!f)
		return -errno;
	fprintf(f, "backend,threads,period,aux_pages,level,latency_lo_cycles,latency_hi_cycles,samples\n");
	for (int i = 0; i < n; i++)
		for (int l = 0; l < pt[i].nlevels; l++)
			for (int b = 0; b < SAMPLE_LAT_BINS; b++)
				if (pt[i].lat[l][b]) {
					/* Bin b holds [2^b, 2^(b+1)); bin 0 from 0, the
					 * last open (an empty upper bound). */
					fprintf(f, "%s,%d,%" PRIu64 ",%u,%s,%u,", x->b->name,
						pt[i].threads, pt[i].period, pt[i].aux_pages,
						pt[i].level[l], b ? 1u << b : 0);
					if (b < SAMPLE_LAT_BINS - 1)
						fprintf(f, "%u", 2u << b);
					fprintf(f, ",%" PRIu64 "\n", pt[i].lat[l][b]);
				}
	if (mess_tmp_commit(dir, "latency.csv", f))
		return -errno;
	g = mess_tmp_open(dir, "regions.csv");
	if (!g)
		return -errno;
	fprintf(g, "backend,threads,period,aux_pages,time_bin,region,samples\n");
	for (int i = 0; i < n; i++)
		for (int b = 0; b < SAMPLE_TBINS; b++)
			for (int r = 0; r < SAMPLE_MAX_REGIONS + 2; r++) {
				const char *name = r == SAMPLE_REG_NOADDR ? "no-data-address" :
						   r == SAMPLE_REG_OUTSIDE ? "outside-buffers" :
						   r < x->nreg ? x->reg[r].name : NULL;

				if (name && pt[i].region[b][r])
					fprintf(g, "%s,%d,%" PRIu64 ",%u,%d,%s,%" PRIu64 "\n",
						x->b->name, pt[i].threads, pt[i].period,
						pt[i].aux_pages, b, name, pt[i].region[b][r]);
			}
	return mess_tmp_commit(dir, "regions.csv", g);
}

/* The period from every thread count of the period sweep (as the table
 * shows them); the aux size, SPE's only, from the aux sweep's points at
 * the first thread count. */
static void recommend(const struct sample_ctx *x, const struct sample_point *pt, int n,
		      struct sample_advice *rec, int64_t *aux)
{
	struct mess_sampling_point sp[2 * SAMPLE_MAXP];
	int k = 0;
	int64_t dummy;

	sample_recommend_period(pt, n, x->o->min_accuracy, x->o->budget, rec);
	*aux = -1;
	for (int i = 0; i < n && k < 2 * SAMPLE_MAXP; i++)
		if (pt[i].threads == pt[0].threads && !strcmp(pt[i].sweep, "aux"))
			sp[k++] = (struct mess_sampling_point){ pt[i].period, pt[i].aux_pages,
								pt[i].accuracy, pt[i].overhead };
	if (k && x->b->memory && !strcmp(x->b->name, "spe"))
		mess_sampling_recommend(sp, (size_t)k, x->o->min_accuracy, x->o->budget, 0, 0,
					&dummy, aux);
}

/* "1 thread", "4 threads", or a command's own. */
static const char *threads_s(int th, char *buf, size_t len)
{
	if (th == 0)
		return "the command's own threads";
	snprintf(buf, len, "%d thread%s", th, th == 1 ? "" : "s");
	return buf;
}

/* The sentence under the table: the period's worst thread count, the
 * figures the table shows for it, a negative overhead said to be noise. */
static void recommend_md(FILE *f, const struct sample_ctx *x, const struct sample_advice *r)
{
	char a[48], b[48], noise[96] = "";

	if (r->measured < 0)
		snprintf(noise, sizeof(noise), " (measured %.2f%%: noise, counted as 0, not a gain)",
			 100 * r->measured);
	if (r->period >= 0) {
		fprintf(f, "\nRecommendation: period %" PRId64 ", the largest reaching accuracy %.2f within an overhead of %.1f%% at every thread count measured (%d); its worst overhead is %.2f%% at %s%s, its lowest accuracy %.4f at %s.\n",
			r->period, x->o->min_accuracy, 100 * x->o->budget, r->nthreads,
			100 * r->overhead, threads_s(r->threads, a, sizeof(a)), noise,
			r->accuracy, threads_s(r->acc_threads, b, sizeof(b)));
		return;
	}
	fprintf(f, "\nRecommendation: none: no period reaches accuracy %.2f within an overhead of %.1f%% at every thread count measured.",
		x->o->min_accuracy, 100 * x->o->budget);
	if (r->lowest < 0) {
		fprintf(f, " No period has a measured overhead.\n");
		return;
	}
	fprintf(f, " The lowest worst-case overhead is period %" PRId64 "'s: %.2f%% at %s%s",
		r->lowest, 100 * r->overhead, threads_s(r->threads, a, sizeof(a)), noise);
	if (isfinite(r->accuracy))
		fprintf(f, ", its lowest accuracy %.4f at %s", r->accuracy,
			threads_s(r->acc_threads, b, sizeof(b)));
	fprintf(f, ".\n");
}

/* summary.json's account of the recommendation: the same figures. */
static json_t *recommend_json(const struct sample_advice *r)
{
	json_t *j = json_object();

	mess_json_set(j, "period", r->period < 0 ? json_null() : json_integer(r->period));
	mess_json_set(j, "lowest_overhead_period",
		      r->lowest < 0 ? json_null() : json_integer(r->lowest));
	mess_json_set(j, "worst_overhead", mess_json_real(r->overhead, 6));
	mess_json_set(j, "worst_overhead_measured", mess_json_real(r->measured, 6));
	mess_json_set(j, "worst_overhead_threads",
		      r->threads < 0 ? json_null() : json_integer(r->threads));
	mess_json_set(j, "lowest_accuracy", mess_json_real(r->accuracy, 6));
	mess_json_set(j, "lowest_accuracy_threads",
		      r->acc_threads < 0 ? json_null() : json_integer(r->acc_threads));
	return j;
}

/* Whether any point lost anything: without, the losses figure would be
 * all zero, and is not drawn (summary.md says so). */
static int any_loss(const struct sample_point *pt, int n)
{
	for (int i = 0; i < n; i++)
		if (pt[i].collisions || pt[i].lost || pt[i].throttled)
			return 1;
	return 0;
}

static int write_summary(const char *dir, const struct sample_ctx *x, const char *wl,
			 const struct sample_point *pt, int n, int complete)
{
	struct sample_advice rec;
	int64_t ra;
	char th[48];
	json_t *j, *arr = json_array();
	FILE *f;
	int rc;

	recommend(x, pt, n, &rec, &ra);
	for (int i = 0; i < n; i++) {
		json_t *p = sample_point_json(&pt[i]);

		mess_json_set(p, "overhead_noise", isfinite(pt[i].overhead) ?
			      json_boolean(sample_overhead_is_noise(pt[i].overhead, pt[i].spread)) :
			      json_null());
		json_array_append_new(arr, p);
	}
	j = mess_json_pack("{s:s, s:b, s:s, s:s, s:s, s:b}", "backend", x->b->name,
			   "memory_sampling", x->b->memory, "period_unit", x->b->unit,
			   "counted_by", x->b->counted_by, "workload", wl, "complete", complete);
	if (!x->b->memory)
		mess_json_set(j, "note", json_string("cpu-clock is the kernel's software timer sampling: it exercises the sweep's pipeline (ring buffer, reader, losses, accuracy against task-clock, overhead); it is not memory-access sampling, and its samples carry no data address, data source or latency"));
	mess_json_set(j, "min_accuracy", json_real(x->o->min_accuracy));
	mess_json_set(j, "overhead_budget", json_real(x->o->budget));
	mess_json_set(j, "recommended_period", rec.period < 0 ? json_null() : json_integer(rec.period));
	mess_json_set(j, "recommendation", recommend_json(&rec));
	mess_json_set(j, "recommended_aux_pages", ra < 0 ? json_null() : json_integer(ra));
	mess_json_set(j, "points", arr);
	rc = mess_json_write(dir, "summary.json", j);
	if (rc)
		return rc;
	f = mess_tmp_open(dir, "summary.md");
	if (!f)
		return -errno;
	fprintf(f, "# mess sample: %s on %s%s\n\n", x->b->name, wl, complete ? "" : " (partial: interrupted)");
	if (!x->b->memory)
		fprintf(f, "cpu-clock is the kernel's software timer sampling, not memory-access sampling: periods are in ns, counted by task-clock; its samples carry no data address, data source or latency, so the region profile has only `no-data-address` and there are no latency histograms.\n\n");
	fprintf(f, "Accuracy 1 - |(counted - samples x period) / counted| (eq. 1), counted by %s; overhead: median of (sampled / unsampled - 1) over %" PRIu64 " back-to-back pairs, spread their max - min; an overhead below 0, or no larger than its spread, is noise and marked so (sampling does not speed the work up: the recommendation counts a negative one as 0, never as a gain); tool: the CPU time of mess's reader thread (draining and decoding, outside the sampled work) over the sampled run time.\n\n",
		x->b->counted_by, x->o->pairs);
	fprintf(f, "| sweep | threads | period | aux pages | samples | accuracy | overhead | spread | collisions | truncated | lost | throttled | tool |\n"
		   "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (int i = 0; i < n; i++) {
		const struct sample_point *p = &pt[i];

		fprintf(f, "| %s | %d | %" PRIu64 " | %u | %" PRIu64 " | %.4f | %.2f%%%s | %.2f%% | %" PRIu64
			" | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %.3f%% |\n", p->sweep, p->threads,
			p->period, p->aux_pages, p->samples, p->accuracy, 100 * p->overhead,
			sample_overhead_note(p->overhead, p->spread), 100 * p->spread,
			p->collisions, p->truncated, p->lost, p->throttled, 100 * p->tool_share);
	}
	recommend_md(f, x, &rec);
	if (ra >= 0)
		fprintf(f, "Aux buffer: %" PRId64 " pages, the smallest within 1 point of the best accuracy at %s.\n",
			ra, threads_s(pt[0].threads, th, sizeof(th)));
	if (!any_loss(pt, n))
		fprintf(f, "\nNo point lost a record, collided in the aux buffer or was throttled: plots/sample-losses is not drawn (it would be all zero).\n");
	fprintf(f, "\nFiles: sample.csv, latency.csv (per level, log2 latency bins), regions.csv (samples per buffer per tenth of each sampled run), summary.json, meta.json, plots/.\n");
	return mess_tmp_commit(dir, "summary.md", f);
}

/* One index block per thread count of a sweep: x (period or aux pages),
 * accuracy, overhead %, spread %, collisions, lost, throttled.  The
 * thread counts written go to ths ("1 2"). */
static int write_sweep_dat(const char *pdir, const char *name, const char *sweep,
			   const struct sample_point *pt, int n, char *ths, size_t len)
{
	FILE *f = mess_tmp_open(pdir, name);
	int seen[SAMPLE_MAX_THREADS + 1] = { 0 };

	if (!f)
		return -errno;
	*ths = 0;
	for (int i = 0; i < n; i++) {
		int th = pt[i].threads;

		if (strcmp(pt[i].sweep, sweep) || seen[th])
			continue;
		seen[th] = 1;
		snprintf(ths + strlen(ths), len - strlen(ths), "%s%d", *ths ? " " : "", th);
		for (int k = i; k < n; k++)
			if (!strcmp(pt[k].sweep, sweep) && pt[k].threads == th)
				fprintf(f, "%" PRIu64 " %g %g %g %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
					*sweep == 'a' ? pt[k].aux_pages : pt[k].period, pt[k].accuracy,
					100 * pt[k].overhead, 100 * pt[k].spread, pt[k].collisions,
					pt[k].lost, pt[k].throttled);
		fprintf(f, "\n\n");
	}
	return mess_tmp_commit(pdir, name, f);
}

/* plots/<name>.dat and their rendering through plots/sample.gp (gnuplot is
 * optional: a missing one is said, never a failure). */
static void write_plots(const char *dir, const struct sample_ctx *x,
			const struct sample_point *pt, int n)
{
	char pdir[PATH_MAX], log[PATH_MAX + 16], q[PATH_MAX * 2], err[256];
	char perth[128], auxth[128], levels[SAMPLE_NLEVELS * 17] = "", *expr = NULL;
	FILE *f;
	int best = -1;

	snprintf(pdir, sizeof(pdir), "%s/plots", dir);
	if (mess_subdir(pdir) ||
	    write_sweep_dat(pdir, "period.dat", "period", pt, n, perth, sizeof(perth)) ||
	    write_sweep_dat(pdir, "aux.dat", "aux", pt, n, auxth, sizeof(auxth)))
		return;
	/* The latency histograms of the point with the most latencies. */
	for (int i = 0; i < n; i++)
		if (pt[i].with_lat && (best < 0 || pt[i].with_lat > pt[best].with_lat))
			best = i;
	f = mess_tmp_open(pdir, "latency.dat");
	if (!f)
		return;
	for (int l = 0; best >= 0 && l < pt[best].nlevels; l++) {
		snprintf(levels + strlen(levels), sizeof(levels) - strlen(levels), "%s%s",
			 l ? " " : "", pt[best].level[l]);
		for (int b = 0; b < SAMPLE_LAT_BINS; b++)
			fprintf(f, "%u %" PRIu64 "\n", 1u << b, pt[best].lat[l][b]);
		fprintf(f, "\n\n");
	}
	if (mess_tmp_commit(pdir, "latency.dat", f))
		return;
	mess_gp_quote(q, sizeof(q), pdir);
	snprintf(log, sizeof(log), "%s/gnuplot.log", pdir);
	if (asprintf(&expr, "outdir='%s'; backend='%s'; unit='%s'; perth='%s'; auxth='%s'; levels='%s'; losses=%d",
		     q, x->b->name, x->b->unit, perth, auxth, levels, any_loss(pt, n)) < 0)
		return;
	/* No stale all-zero figure of an earlier session. */
	for (int i = 0; i < 2; i++) {
		char stale[PATH_MAX + 32];

		snprintf(stale, sizeof(stale), "%s/sample-losses.%s", pdir, i ? "svg" : "png");
		unlink(stale);
	}
	if (mess_gnuplot("sample.gp", expr, log, err, sizeof(err)))
		fprintf(stderr, "mess sample: plots skipped: %s\n", err);
	free(expr);
}

int sample_write_files(const char *dir, const struct sample_ctx *x, const char *wl,
		       const struct sample_point *pt, int n, int complete)
{
	int rc = write_csv(dir, x, wl, pt, n);

	if (!rc)
		rc = write_content(dir, x, pt, n);
	if (!rc)
		rc = write_summary(dir, x, wl, pt, n, complete);
	if (!rc && n && complete)
		write_plots(dir, x, pt, n);
	return rc;
}
