// SPDX-License-Identifier: MIT
/*
 * The latency ladder's files: ladder.csv (every size), summary.json (the
 * plateaus, for other tools), its Markdown section and its plot.  They are
 * written from a const ladder, so `mess ladder` and `mess absorb` write
 * the same files.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ladder_run.h"
#include "core/plot.h"
#include "core/util.h"

#define SUMMARY_SCHEMA 1


/* The share of LLC hits in the memory figure: a random load over s bytes
 * hits an LLC of S bytes with probability about S/s. */
static double llc_share(const struct mess_ladder *l)
{
	return l->n ? (double)l->llc_bytes / (double)l->pts[l->n - 1].size : NAN;
}

static int write_csv(const struct mess_ladder *l, const char *dir)
{
	FILE *f = mess_tmp_open(dir, MESS_LADDER_CSV);

	if (!f)
		return -errno;
	fprintf(f, MESS_LADDER_HEADER "\n");
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "%llu,%.6g,%u,%.6g,%llu\n",
			(unsigned long long)l->pts[i].size, l->pts[i].lat_ns,
			l->pts[i].repeats, l->pts[i].spread_ns,
			(unsigned long long)l->pts[i].loads);
	return mess_tmp_commit(dir, MESS_LADDER_CSV, f);
}

static json_t *level_json(const struct mess_ladder *l,
			  const struct mess_ladder_plateau *p)
{
	char name[16];
	json_t *j;

	snprintf(name, sizeof(name), "L%d", p->level);
	j = p->level ? mess_json_pack("{s:s, s:I}", "level", name, "hwloc_bytes",
				      (json_int_t)p->cap_bytes) :
		       mess_json_pack("{s:s, s:o}", "level", "memory",
				      "llc_hit_share_at_max", mess_json_real(llc_share(l), 3));
	if (mess_json_merge(j, mess_json_pack("{s:[I, I], s:i, s:o, s:o, s:o, s:s}",
		"window_bytes", (json_int_t)p->lo, (json_int_t)p->hi,
		"points", (int)p->npts, "latency_ns", mess_json_real(p->lat_ns, 3),
		"spread", mess_json_real(p->spread, 3),
		"measured_capacity_bytes", p->edge_bytes ?
			json_integer((json_int_t)p->edge_bytes) : json_null(),
		"status", p->status))) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static int write_summary(const struct mess_ladder *l, const char *dir,
			 const char *cpu_model)
{
	json_t *levels = json_array(), *lad, *j;
	char what[256];

	for (size_t i = 0; l->plat_ok && i <= l->ncaches; i++)
		json_array_append_new(levels, level_json(l, &l->plat[i]));
	snprintf(what, sizeof(what), "lat_mem_rd: ns per dependent load (median of %u runs of %g ms) over one random cycle (Sattolo) through buffers of growing size, clean kernel, 1 thread pinned to core %d",
		 l->o.repeats, l->o.run_ms, l->core);
	lad = mess_json_pack("{s:s, s:I, s:I, s:I, s:I, s:s, s:o, s:s, s:s, s:f, s:o}",
		"what", what, "stride_bytes", (json_int_t)l->o.stride,
		"sizes", (json_int_t)l->n,
		"min_bytes", (json_int_t)(l->n ? l->pts[0].size : 0),
		"max_bytes", (json_int_t)(l->n ? l->pts[l->n - 1].size : 0),
		"huge_pages", l->hp, "huge_pct", mess_json_real(l->huge_pct, 1),
		"points", MESS_LADDER_CSV,
		"method", "see results/README.md, 'Latency ladder'",
		"flat_tol", MESS_LADDER_FLAT_TOL, "levels", levels);
	if (lad && !l->plat_ok)
		json_object_set_new(lad, "levels_error",
			json_string("the ladder could not be read into plateaus"));
	j = mess_json_pack("{s:i, s:s, s:o}", "schema", SUMMARY_SCHEMA,
			   "cpu_model", cpu_model, "latency_ladder", lad);
	return mess_json_write(dir, "summary.json", j);
}

int mess_ladder_write(const struct mess_ladder *l, const char *dir,
		      const char *cpu_model)
{
	int err = write_csv(l, dir);

	return err ? err : write_summary(l, dir, cpu_model);
}

void mess_ladder_md(const struct mess_ladder *l, FILE *f)
{
	fprintf(f, "\n## Latency ladder (lat_mem_rd, %llu B stride, random order)\n\n",
		(unsigned long long)l->o.stride);
	if (!l->plat_ok) {
		fprintf(f, "The ladder (%s) could not be read into plateaus.\n",
			MESS_LADDER_CSV);
		return;
	}
	fprintf(f, "| level | size (hwloc) | sizes used | points | latency ns | spread | measured capacity | status |\n|---|---:|---|---:|---:|---:|---:|---|\n");
	for (size_t i = 0; i <= l->ncaches; i++) {
		const struct mess_ladder_plateau *p = &l->plat[i];

		if (p->level)
			fprintf(f, "| L%d | %llu KiB |", p->level,
				(unsigned long long)(p->cap_bytes >> 10));
		else
			fprintf(f, "| memory | |");
		fprintf(f, " %llu KiB – %llu KiB | %u | %.3g | %.2f |",
			(unsigned long long)(p->lo >> 10),
			(unsigned long long)(p->hi >> 10), p->npts, p->lat_ns,
			p->spread);
		if (p->edge_bytes)
			fprintf(f, " %llu KiB |", (unsigned long long)(p->edge_bytes >> 10));
		else
			fprintf(f, " – |");
		fprintf(f, " %s |\n", p->status);
	}
	fprintf(f, "\nEvery size is in %s, the plateaus also in summary.json; how they are read: results/README.md, \"Latency ladder\".  The memory figure still includes LLC hits, about %.2f of the loads at the largest size.\n",
		MESS_LADDER_CSV, llc_share(l));
}

int mess_ladder_plot(const struct mess_ladder *l, const char *rundir,
		     const char *title, char *err, size_t errlen)
{
	char dir[PATH_MAX], qrun[2 * PATH_MAX], qtitle[512], log[PATH_MAX + 32];
	char *expr;
	FILE *f;
	int rc;

	if (!l->n) {
		snprintf(err, errlen, "no ladder points to plot");
		return -ENODATA;
	}
	snprintf(dir, sizeof(dir), "%s/plots", rundir);
	rc = mess_mkdir_p(dir);
	f = rc ? NULL : mess_file_open(dir, "ladder_levels.dat", "w");
	if (!f) {
		rc = rc ? rc : -errno;
		snprintf(err, errlen, "cannot write %s/ladder_levels.dat: %s",
			 dir, strerror(-rc));
		return rc;
	}
	for (size_t i = 0; l->plat_ok && i <= l->ncaches; i++) {
		const struct mess_ladder_plateau *p = &l->plat[i];
		uint64_t hi = p->hi;

		if (!p->npts)
			continue;
		/* The window's sizes actually measured. */
		for (size_t j = 0; j < l->n; j++)
			if (l->pts[j].size <= p->hi)
				hi = l->pts[j].size;
		fprintf(f, "%llu,%llu,%.6g,%s%.0d\n",
			(unsigned long long)(p->lo > l->pts[0].size ? p->lo : l->pts[0].size),
			(unsigned long long)hi, p->lat_ns,
			p->level ? "L" : "memory", p->level);
	}
	if (fclose(f))
		return -EIO;
	mess_gp_quote(qrun, sizeof(qrun), rundir);
	mess_gp_quote(qtitle, sizeof(qtitle), title);
	snprintf(log, sizeof(log), "%s/ladder-gnuplot.log", dir);
	if (asprintf(&expr, "rundir='%s'; plottitle='%s'", qrun, qtitle) < 0)
		return -ENOMEM;
	rc = mess_gnuplot("ladder.gp", expr, log, err, errlen);
	free(expr);
	return rc;
}
