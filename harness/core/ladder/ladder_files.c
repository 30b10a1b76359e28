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

#include "core/ladder/ladder_run.h"
#include "core/report/plot.h"
#include "core/util.h"

/* 2: per level `flat` and its runs' disturbance (results/README.md). */
#define SUMMARY_SCHEMA 2


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
	for (size_t i = 0; i < l->n; i++) {
		const struct mess_ladder_pt *p = &l->pts[i];

		/* nan where not known: glibc's %g writes it so, and the
		 * reader takes it back. */
		fprintf(f, "%llu,%.6g,%u,%.6g,%llu,%u,%u,%.3g,%.3g\n",
			(unsigned long long)p->size, p->lat_ns, p->repeats,
			p->spread_ns, (unsigned long long)p->loads,
			p->disturbed, p->kept, p->lost_pct, p->steal_ms);
	}
	return mess_tmp_commit(dir, MESS_LADDER_CSV, f);
}

/* The ladder's trust over its sizes. */
struct mess_ladder_tally {
	unsigned windows, disturbed, kept;
	unsigned unwatched;	/* sizes whose runs were not looked at */
};

/* The runs measured, found disturbed and kept though disturbed: over the
 * whole ladder, or (lo..hi inclusive) over a plateau's window. */
static struct mess_ladder_tally tally(const struct mess_ladder *l,
				      uint64_t lo, uint64_t hi)
{
	struct mess_ladder_tally t = { 0 };

	for (size_t i = 0; i < l->n; i++) {
		const struct mess_ladder_pt *p = &l->pts[i];

		if (p->size < lo || p->size > hi)
			continue;
		/* Those measured again ran too. */
		t.windows += p->repeats + p->disturbed - p->kept;
		t.disturbed += p->disturbed;
		t.kept += p->kept;
		t.unwatched += isnan(p->lost_pct);
	}
	return t;
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
	struct mess_ladder_tally t = tally(l, p->lo, p->hi);

	if (mess_json_merge(j, mess_json_pack("{s:[I, I], s:i, s:o, s:o, s:o, s:s, s:b, s:i, s:i}",
		"window_bytes", (json_int_t)p->lo, (json_int_t)p->hi,
		"points", (int)p->npts, "latency_ns", mess_json_real(p->lat_ns, 3),
		"spread", mess_json_real(p->spread, 3),
		"measured_capacity_bytes", p->edge_bytes ?
			json_integer((json_int_t)p->edge_bytes) : json_null(),
		"status", p->status, "flat", p->flat,
		"disturbed_runs", (int)t.disturbed, "kept_disturbed", (int)t.kept))) {
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

/* A buffer size as people write it: 512 B, 16 KiB, 1.5 MiB (not "0 KiB"). */
static const char *size_str(unsigned long long b, char *buf)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, 32, "%.4g %s", v, unit[u]);
	return buf;
}

void mess_ladder_md(const struct mess_ladder *l, FILE *f)
{
	char lo[32], hi[32];

	fprintf(f, "\n## Latency ladder (lat_mem_rd, %llu B stride, random order)\n\n",
		(unsigned long long)l->o.stride);
	if (!l->plat_ok) {
		fprintf(f, "The ladder (%s) could not be read into plateaus.\n",
			MESS_LADDER_CSV);
		return;
	}
	fprintf(f, "| level | size (hwloc) | sizes used | points | latency ns | spread | measured capacity | status | runs disturbed (kept) |\n|---|---:|---|---:|---:|---:|---:|---|---:|\n");
	for (size_t i = 0; i <= l->ncaches; i++) {
		const struct mess_ladder_plateau *p = &l->plat[i];
		struct mess_ladder_tally t = tally(l, p->lo, p->hi);

		if (p->level)
			fprintf(f, "| L%d | %llu KiB |", p->level,
				(unsigned long long)(p->cap_bytes >> 10));
		else
			fprintf(f, "| memory | |");
		fprintf(f, " %s – %s | %u | %.3g | %.2f |", size_str(p->lo, lo),
			size_str(p->hi, hi), p->npts, p->lat_ns, p->spread);
		if (p->edge_bytes)
			fprintf(f, " %llu KiB |", (unsigned long long)(p->edge_bytes >> 10));
		else
			fprintf(f, " – |");
		fprintf(f, " %s%s | %u (%u) |\n", p->status,
			p->npts && !p->flat && p->st != MESS_LADDER_NOT_FLAT ?
			", not flat" : "", t.disturbed, t.kept);
	}
	fprintf(f, "\nEvery size is in %s, the plateaus also in summary.json; how they are read: results/README.md, \"Latency ladder\".  A level not flat is no plateau: its median is given, and the plot marks it without drawing a plateau.  The memory figure still includes LLC hits, about %.2f of the loads at the largest size.\n",
		MESS_LADDER_CSV, llc_share(l));
}

int mess_ladder_plot(const struct mess_ladder *l, const char *rundir,
		     const char *title, char *err, size_t errlen)
{
	char dir[PATH_MAX], qrun[2 * PATH_MAX], qtitle[512], log[PATH_MAX + 32];
	char *expr;
	FILE *f;
	int rc, nflat = 0, nrough = 0;

	if (!l->n)
		return mess_fail(err, errlen, -ENODATA, "no ladder points to plot");
	snprintf(dir, sizeof(dir), "%s/plots", rundir);
	rc = mess_subdir(dir);
	f = rc ? NULL : mess_file_open(dir, "ladder_levels.dat", "w");
	if (!f) {
		rc = rc ? rc : -errno;
		return mess_fail(err, errlen, rc, "cannot write %s/ladder_levels.dat: %s", dir,
				 strerror(-rc));
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
		/* A level not flat is marked, never drawn as a plateau:
		 * its median stands for no level. */
		fprintf(f, "%llu,%llu,%.6g,%s%.0d,%d\n",
			(unsigned long long)(p->lo > l->pts[0].size ? p->lo : l->pts[0].size),
			(unsigned long long)hi, p->lat_ns,
			p->level ? "L" : "memory", p->level, p->flat);
		nflat += p->flat;
		nrough += !p->flat;
	}
	if (fclose(f))
		return -EIO;
	mess_gp_quote(qrun, sizeof(qrun), rundir);
	mess_gp_quote(qtitle, sizeof(qtitle), title);
	snprintf(log, sizeof(log), "%s/ladder-gnuplot.log", dir);
	if (asprintf(&expr, "rundir='%s'; plottitle='%s'; nflat=%d; nrough=%d; flattol=%g",
		     qrun, qtitle, nflat, nrough, 100 * MESS_LADDER_FLAT_TOL) < 0)
		return -ENOMEM;
	rc = mess_gnuplot("ladder.gp", expr, log, err, errlen);
	free(expr);
	return rc;
}

/* Why the worst kept disturbed run lost its time. */
static const char *cause(const struct mess_ladder *l)
{
	double steal = 0;

	for (size_t i = 0; i < l->n; i++)
		if (l->pts[i].kept && isfinite(l->pts[i].steal_ms))
			steal += l->pts[i].steal_ms;
	return steal > 0 ? "steal (the hypervisor ran something else on its vCPU)" :
			   "another task or interrupts on its core (no steal counted)";
}

void mess_ladder_judge(const struct mess_ladder *l, struct mess_verdict *v,
		       enum mess_level *lv)
{
	struct mess_ladder_tally t = tally(l, 0, UINT64_MAX);
	double worst = 0;

	if (!l->n)
		return;
	if (!l->plat_ok)
		mess_verdict_add(v, MESS_INVALID, "ladder_unread",
				 "latency ladder: %s could not be read into plateaus (a size without a figure, or hwloc's cache sizes out of order)",
				 MESS_LADDER_CSV);
	else
		mess_ladder_verdict(l->plat, l->ncaches + 1, MESS_LADDER_FLAT_TOL,
				    v, lv);
	for (size_t i = 0; i < l->n; i++)
		if (l->pts[i].kept)
			worst = fmax(worst, l->pts[i].lost_pct);
	if (t.unwatched)
		mess_verdict_add(v, MESS_WARN, "ladder_disturbance_unknown",
				 "latency ladder: what disturbed the runs of %u of its %zu sizes could not be read (the thread's CPU clock): a disturbed run cannot be told from a quiet one",
				 t.unwatched, l->n);
	if (t.kept)
		mess_verdict_add(v, MESS_WARN, "ladder_disturbed",
				 "latency ladder: %u of %u runs were disturbed (the thread lost over %g %% of a run) and measured again; %u were kept when a size's bound was reached (%s disturbed_kept); the worst kept lost %.0f %%: %s",
				 t.disturbed, t.windows, MESS_LOST_MAX_PCT, t.kept,
				 MESS_LADDER_CSV, worst, cause(l));
	else if (t.disturbed)
		mess_verdict_add(v, MESS_PASS, "ladder_disturbed_replaced",
				 "latency ladder: %u of its %u runs were disturbed and measured again; none was kept",
				 t.disturbed, t.windows);
	for (size_t i = 0; lv && l->plat_ok && i <= l->ncaches; i++)
		if (tally(l, l->plat[i].lo, l->plat[i].hi).kept &&
		    lv[i] < MESS_WARN)
			lv[i] = MESS_WARN;
}

json_t *mess_ladder_quality_json(const struct mess_ladder *l,
				 const struct mess_verdict *v, int strict)
{
	enum mess_level lv[MESS_LADDER_CACHES + 1];
	struct mess_verdict scratch;
	struct mess_ladder_tally t = tally(l, 0, UINT64_MAX);
	json_t *q = mess_verdict_json(v), *levels = json_array();
	char name[16];

	/* Each level's own level, from the same rules as the verdict's. */
	mess_verdict_init(&scratch);
	for (size_t i = 0; i <= l->ncaches; i++)
		lv[i] = MESS_PASS;
	mess_ladder_judge(l, &scratch, lv);
	for (size_t i = 0; l->plat_ok && i <= l->ncaches; i++) {
		const struct mess_ladder_plateau *p = &l->plat[i];
		struct mess_ladder_tally w = tally(l, p->lo, p->hi);

		json_array_append_new(levels, mess_json_pack("{s:s, s:s, s:s, s:b, s:o, s:i, s:i, s:i}",
			"level", mess_ladder_level_name(p, name, sizeof(name)),
			"status", p->status, "verdict", mess_level_status(lv[i]),
			"flat", p->flat, "spread", mess_json_real(p->spread, 3),
			"runs", (int)w.windows, "disturbed", (int)w.disturbed,
			"kept_disturbed", (int)w.kept));
	}
	if (mess_json_merge(q, mess_json_pack(
		"{s:o, s:{s:i, s:i, s:i, s:i, s:s, s:s}, s:b,"
		" s:{s:f, s:f}, s:s}",
		"levels", levels,
		"runs", "measured", (int)t.windows, "disturbed", (int)t.disturbed,
		"kept_disturbed", (int)t.kept, "sizes_unwatched", (int)t.unwatched,
		"disturbed_rule", "the ladder's thread lost more than lost_max_pct of a timed run's wall time (wall minus its on-CPU time: steal, another task, interrupts), read around the run, never inside it",
		"bound", "a size measures at most as many disturbed runs again as it has repeats; then they are kept and counted (ladder.csv disturbed_kept)",
		"strict", strict,
		"thresholds", "flat_tol", MESS_LADDER_FLAT_TOL,
		"lost_max_pct", MESS_LOST_MAX_PCT,
		"level_rule", "a level is ok when flat (its window's latencies within flat_tol of its median) and more than flat_tol slower than the level below; not flat, or not above the level below: warn; more than flat_tol faster than the level below: invalid; a level whose window kept a disturbed run: warn"))) {
		json_decref(q);
		return NULL;
	}
	return q;
}
