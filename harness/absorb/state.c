// SPDX-License-Identifier: MIT
/*
 * `mess absorb`'s run directory: every point appended to
 * absorption_points.csv and flushed as measured; per row x mode the work
 * per run and whether its search is done, per row its clean performance
 * and meta.json object, and whether the ladder ran, in resume.json.  The
 * search step is a pure function of the points, so --resume continues
 * every search from them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "absorb/absorb.h"
#include "core/util.h"
#include "mess/parse.h"

/* A row by its key (or id), and by its key in table tb (--tables). */
static struct row *find_row(struct absorb_table *t, const char *key,
			    int by_id)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(by_id ? t->rows[i].id : t->rows[i].key, key))
			return &t->rows[i];
	return NULL;
}

static struct row *find_row_tb(struct absorb_table *t, const char *key, int tb)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].tb == tb && !strcmp(t->rows[i].key, key))
			return &t->rows[i];
	return NULL;
}

/* The first ten columns are schema 1's; repeats is the pairs counted. */
#define POINTS_HEADER "kernel,variant,cores,q,mode,k,time_ns,repeats,spread_ns,paired_base_ns," \
	"ci_lo_ns,ci_hi_ns,verdict,disturbed_pairs,remeasured_pairs,kept_disturbed_pairs," \
	"steal_ticks,invol_cs,freq_mhz,table,instr_per_iter,cycles_per_iter"

/*
 * A point into its search's points and the totals.  A point already there
 * (the same k) is replaced: a point taken further (mess_absorb_step) gets
 * a later row of absorption_points.csv that holds all its pairs and
 * counts, the earlier row's included, so the earlier row's share of the
 * totals is taken away first.  1 when replaced, else 0; -ENOSPC.
 */
static int add_point(struct absorb_table *t, struct pair *pr,
		     const struct mess_absorb_point *pt,
		     const struct point_obs *po)
{
	size_t i;
	int old = 0;

	for (i = 0; i < pr->n && pr->pts[i].k != pt->k; i++)
		;
	if (i == pr->n && pr->n >= sizeof(pr->pts) / sizeof(pr->pts[0]))
		return -ENOSPC;
	if (i < pr->n) {
		const struct point_counts *c = &pr->cnt[i];

		pr->pairs -= pr->pts[i].repeats;
		pr->disturbed -= c->disturbed;
		pr->redone -= c->redone;
		pr->kept -= c->kept;
		t->pairs_total -= pr->pts[i].repeats;
		t->dist_pairs -= c->disturbed;
		t->dist_redone -= c->redone;
		t->dist_kept -= c->kept;
		t->steal_ticks -= c->steal;
		t->nivcsw -= c->nivcsw;
		old = 1;
	} else {
		pr->n++;
	}
	pr->pts[i] = *pt;
	pr->cnt[i] = (struct point_counts){ po->disturbed, po->redone,
					    po->kept, po->steal, po->nivcsw };
	pr->pairs += pt->repeats;
	pr->disturbed += po->disturbed;
	pr->redone += po->redone;
	pr->kept += po->kept;
	t->pairs_total += pt->repeats;
	t->dist_pairs += po->disturbed;
	t->dist_redone += po->redone;
	t->dist_kept += po->kept;
	t->steal_ticks += po->steal;
	t->nivcsw += po->nivcsw;
	/* Readings of the runs: the later row's include the earlier's. */
	if (po->mhz_n) {
		double mhz = po->mhz_sum / po->mhz_n;

		t->mhz_min = isnan(t->mhz_min) ? mhz : fmin(t->mhz_min, mhz);
		t->mhz_max = isnan(t->mhz_max) ? mhz : fmax(t->mhz_max, mhz);
	}
	return old;
}

/* Points of an earlier session; rows and modes no longer asked for are
 * ignored (the options are the original ones, so there are none).  A
 * partial last line (a write cut short) is cut off, and a line that is not
 * a point of this run is said with its number and measured again, never
 * appended to or guessed.  A later row for a point already read replaces
 * it (add_point): it is the point taken further. */
static int load_points(struct mess_absorb *a)
{
	char line[1024], path[PATH_MAX + 64];
	long no = 0, partial;
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/%s", a->rd.dir, ABSORB_POINTS_CSV);
	f = mess_fopen_regular(path, NULL, 0);
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	if (!fgets(line, sizeof(line), f) || strcmp(line, POINTS_HEADER "\n")) {
		fclose(f);
		fprintf(stderr, "mess absorb: --resume: %s:1: not the header of %s; allowed: a run directory written by mess absorb (nothing was changed)\n",
			path, ABSORB_POINTS_CSV);
		return -EINVAL;
	}
	fclose(f);
	err = mess_drop_partial_line(path, &partial);
	if (err)
		return err;
	if (partial)
		fprintf(stderr, "mess absorb: --resume: %s:%ld: partial last line (a write cut short): dropped, measured again\n",
			path, partial);
	f = mess_fopen_regular(path, NULL, 0);
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char key[256], mode[32], verdict[16], mhz[32], ins[48], cyc[48], tail;
		struct mess_absorb_point pt;
		struct point_obs po = { 0 };
		unsigned long long steal, cs;
		enum mess_noise_mode m;
		struct row *r = NULL;
		int n = 0, commas = 0, bad, tb, rc = 0;

		if (++no == 1)
			continue;	/* the header */
		line[strcspn(line, "\n")] = 0;
		/* The row key is the first four columns. */
		for (; line[n] && commas < 4; n++)
			commas += line[n] == ',';
		bad = commas < 4 || n >= (int)sizeof(key);
		if (!bad) {
			snprintf(key, sizeof(key), "%.*s", n - 1, line);
			bad = sscanf(line + n, "%31[^,],%u,%lf,%u,%lf,%*f,%lf,%lf,%15[^,],%u,%u,%u,%llu,%llu,%31[^,],%d,%47[^,],%47[^,]%c",
				     mode, &pt.k, &pt.t, &pt.repeats, &pt.sigma,
				     &pt.lo, &pt.hi, verdict, &po.disturbed,
				     &po.redone, &po.kept, &steal, &cs, mhz, &tb,
				     ins, cyc, &tail) != 17 ||
			      mess_noise_mode_parse(mode, &m) ||
			      !(pt.t > 0) || pt.t > 1e12 || !(pt.sigma >= 0) ||
			      !(pt.lo <= pt.hi) || !isfinite(pt.hi) ||
			      pt.k > a->t.acfg.kmax || !pt.repeats ||
			      pt.repeats > MESS_ABSORB_MAX_PAIRS || tb < 1 ||
			      !(r = find_row_tb(&a->t, key, tb - 1));
			po.steal = steal;
			po.nivcsw = cs;
			po.mhz_sum = strtod(mhz, NULL);
			po.mhz_n = isfinite(po.mhz_sum);
			if (!po.mhz_n)
				po.mhz_sum = 0;
		}
		if (!bad)
			rc = add_point(&a->t, &r->pair[m], &pt, &po);
		if (bad || rc < 0) {
			fprintf(stderr, "mess absorb: --resume: %s:%ld: %s: dropped, measured again\n",
				path, no, bad ? "not a point of this run" : "more points than k");
			continue;
		}
		a->t.points_reused += !rc;
	}
	fclose(f);
	return 0;
}

/* The row's object in resume.json's "rows", created on first use. */
static json_t *row_state(struct mess_absorb *a, const struct row *r)
{
	json_t *rows = json_object_get(a->rd.state, "rows"), *o;

	if (!rows) {
		rows = json_object();
		json_object_set_new(a->rd.state, "rows", rows);
	}
	o = json_object_get(rows, r->id);
	if (!o) {
		o = json_pack("{s:{}, s:[]}", "work", "done");
		json_object_set_new(rows, r->id, o);
	}
	return o;
}

/* What earlier sessions recorded; rows and modes no longer asked for are
 * ignored (the options are the original ones, so there are none). */
static int load_state(struct mess_absorb *a)
{
	json_t *rows = json_object_get(a->rd.state, "rows"), *o, *v;
	json_t *lad = json_object_get(a->rd.state, "ladder");
	enum mess_noise_mode m;
	const char *id, *mode;
	size_t i;
	int err;

	json_object_foreach(rows, id, o) {
		struct row *r = find_row(&a->t, id, 1);

		if (!r)
			continue;
		/* Work per run as calibration can make it (at most 2^40
		 * iterations); anything else is calibrated again, so that a
		 * corrupt count cannot make a run last hours. */
		json_object_foreach(json_object_get(o, "work"), mode, v) {
			if (mess_noise_mode_parse(mode, &m))
				continue;
			if (json_is_integer(v) && json_integer_value(v) >= 1 &&
			    json_integer_value(v) <= (json_int_t)ABSORB_MAX_ITERS)
				r->pair[m].iters = (uint64_t)json_integer_value(v);
			else
				fprintf(stderr, "mess absorb: --resume: %s/%s: work of %s %s is not 1..2^40: calibrated again\n",
					a->rd.dir, MESS_RESUME_FILE, id, mode);
		}
		json_array_foreach(json_object_get(o, "done"), i, v)
			if (json_is_string(v) &&
			    !mess_noise_mode_parse(json_string_value(v), &m))
				r->pair[m].done = 1;
		if (json_is_number(json_object_get(o, "perf")))
			r->perf = json_number_value(json_object_get(o, "perf"));
		if (json_is_object(json_object_get(o, "meta")))
			r->meta = json_incref(json_object_get(o, "meta"));
	}
	err = load_points(a);
	if (!err && lad) {
		a->t.ladder_done = 1;
		snprintf(a->t.ladder.hp, sizeof(a->t.ladder.hp), "%s",
			 json_string_value(json_object_get(lad, "huge_pages")) ?
			 json_string_value(json_object_get(lad, "huge_pages")) : "?");
		a->t.ladder.huge_pct = json_number_value(json_object_get(lad, "huge_pct"));
		/* A ladder marked done without its file is measured again. */
		if (mess_ladder_load(&a->t.ladder, a->rd.dir)) {
			fprintf(stderr, "mess absorb: --resume: %s/ladder.csv missing or unreadable: the ladder is measured again\n",
				a->rd.dir);
			a->t.ladder_done = 0;
		}
	}
	/* A search marked done counts only with the points that decide it. */
	for (i = 0; !err && i < a->t.nrows; i++)
		for (int k = 0; k < MESS_NOISE_NMODES; k++) {
			struct pair *pr = &a->t.rows[i].pair[k];

			if (pr->done && mess_absorb_fit(pr->pts, pr->n, &a->t.acfg,
							&pr->res)) {
				fprintf(stderr, "mess absorb: --resume: %s %s is marked done but %s holds %zu of its points: measured again\n",
					a->t.rows[i].id, mess_noise_mode_name(k),
					ABSORB_POINTS_CSV, pr->n);
				pr->done = 0;
			}
		}
	return err;
}

int absorb_state_open(struct mess_absorb *a, int argc, char **argv)
{
	/* Claimed in mess_absorb_open, before the probes. */
	int err = mess_rundir_start(&a->rd, argc, argv);

	if (a->t.o.json)
		a->rd.stdout_file = "summary.json";
	if (!err && a->t.o.resume[0])
		err = load_state(a);
	if (err)
		return err;
	err = mess_append_open(&a->points, a->rd.dir, ABSORB_POINTS_CSV);
	if (!err && !a->points.size)
		err = mess_append(&a->points, POINTS_HEADER "\n",
				  sizeof(POINTS_HEADER));
	return err;
}

int absorb_record_point(struct mess_absorb *a, struct row *r,
			enum mess_noise_mode m,
			const struct mess_absorb_point *pt, double paired,
			const struct point_obs *po)
{
	char line[768], mhz[32] = "nan", ins[48] = "nan", cyc[48] = "nan";
	int n, err;

	if (po->mhz_n)
		snprintf(mhz, sizeof(mhz), "%.0f", po->mhz_sum / po->mhz_n);
	/* Per iteration of one thread, over the point's runs at k: the
	 * measured work the noise count is checked against. */
	if (isfinite(po->instr) && po->iters)
		snprintf(ins, sizeof(ins), "%.6g", po->instr / (double)po->iters);
	if (isfinite(po->cycles) && po->iters)
		snprintf(cyc, sizeof(cyc), "%.6g", po->cycles / (double)po->iters);
	/* On disk first, one whole line or nothing (core/util.h): an
	 * interrupted or disk-full run loses at most the point in flight. */
	n = snprintf(line, sizeof(line),
		     "%s,%s,%u,%.9g,%u,%.9g,%.9g,%.9g,%.9g,%s,%u,%u,%u,%llu,%llu,%s,%d,%s,%s\n",
		     r->key, mess_noise_mode_name(m), pt->k, pt->t, pt->repeats,
		     pt->sigma, paired, pt->lo, pt->hi, po->verdict,
		     po->disturbed, po->redone, po->kept,
		     (unsigned long long)po->steal,
		     (unsigned long long)po->nivcsw, mhz, r->tb + 1, ins, cyc);
	if (n < 0 || n >= (int)sizeof(line))
		return -ENAMETOOLONG;
	err = mess_append(&a->points, line, (size_t)n);
	if (err)
		return err;
	err = add_point(&a->t, &r->pair[m], pt, po);
	if (err < 0)
		return err;
	a->t.points_measured += !err;
	return 0;
}

int absorb_record_work(struct mess_absorb *a, const struct row *r,
		       enum mess_noise_mode m)
{
	json_object_set_new(json_object_get(row_state(a, r), "work"),
			    mess_noise_mode_name(m),
			    json_integer((json_int_t)r->pair[m].iters));
	return mess_rundir_save(&a->rd);
}

int absorb_record_perf(struct mess_absorb *a, struct row *r, json_t *meta)
{
	json_t *o = row_state(a, r);

	json_decref(r->meta);
	r->meta = meta;
	json_object_set_new(o, "perf", json_real(r->perf));
	json_object_set(o, "meta", meta);
	return mess_rundir_save(&a->rd);
}

int absorb_record_done(struct mess_absorb *a, const struct row *r,
		       enum mess_noise_mode m)
{
	json_array_append_new(json_object_get(row_state(a, r), "done"),
			      json_string(mess_noise_mode_name(m)));
	return mess_rundir_save(&a->rd);
}

int absorb_record_ladder(struct mess_absorb *a)
{
	json_object_set_new(a->rd.state, "ladder", mess_json_pack("{s:s, s:o}",
		"huge_pages", a->t.ladder.hp,
		"huge_pct", mess_json_real(a->t.ladder.huge_pct, 1)));
	return mess_rundir_save(&a->rd);
}

int absorb_save(struct mess_absorb *a)
{
	int err = absorb_write_tables(&a->t, a->rd.dir, a->rd.start_utc, 0);

	return err ? err : absorb_write_meta(&a->t, &a->rd, &a->topo, 0);
}
