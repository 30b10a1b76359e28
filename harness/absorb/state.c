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
#include <stdlib.h>
#include <string.h>

#include "absorb/absorb.h"
#include "core/util.h"

#define POINTS_HEADER "kernel,variant,cores,q,mode,k,time_ns,repeats,spread_ns,paired_base_ns"

static int add_point(struct pair *pr, const struct mess_absorb_point *pt)
{
	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k == pt->k)
			return -EEXIST;
	if (pr->n >= sizeof(pr->pts) / sizeof(pr->pts[0]))
		return -ENOSPC;
	pr->pts[pr->n++] = *pt;
	return 0;
}

/* Points of an earlier session; rows and modes no longer asked for are
 * ignored (the options are the original ones, so there are none). */
static int load_points(struct mess_absorb *a)
{
	char line[512];
	FILE *f = mess_file_open(a->rd.dir, ABSORB_POINTS_CSV, "r");

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		char key[256], mode[32];
		struct mess_absorb_point pt;
		enum mess_noise_mode m;
		struct row *r;
		int n = 0, commas = 0;

		line[strcspn(line, "\n")] = 0;
		/* The row key is the first four columns. */
		for (; line[n] && commas < 4; n++)
			commas += line[n] == ',';
		if (commas < 4 || n >= (int)sizeof(key))
			continue;
		snprintf(key, sizeof(key), "%.*s", n - 1, line);
		if (sscanf(line + n, "%31[^,],%u,%lf,%u,%lf", mode, &pt.k,
			   &pt.t, &pt.repeats, &pt.sigma) != 5 ||
		    mess_noise_mode_parse(mode, &m) || !(r = absorb_find_row(&a->t, key, 0)))
			continue;
		if (!add_point(&r->pair[m], &pt))
			a->t.points_reused++;
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
		struct row *r = absorb_find_row(&a->t, id, 1);

		if (!r)
			continue;
		json_object_foreach(json_object_get(o, "work"), mode, v)
			if (!mess_noise_mode_parse(mode, &m) && json_is_integer(v))
				r->pair[m].iters = (uint64_t)json_integer_value(v);
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
		err = mess_ladder_load(&a->t.ladder, a->rd.dir);
	}
	for (i = 0; !err && i < a->t.nrows; i++)
		for (int k = 0; !err && k < MESS_NOISE_NMODES; k++) {
			struct pair *pr = &a->t.rows[i].pair[k];

			if (pr->done)
				err = mess_absorb_fit(pr->pts, pr->n, &a->t.acfg,
						      &pr->res);
		}
	return err;
}

int absorb_state_open(struct mess_absorb *a, int argc, char **argv)
{
	int err = mess_rundir_open(&a->rd, "mess absorb", "absorb", a->t.o.out,
				   a->t.o.resume, ABSORB_POINTS_CSV, argc, argv);

	if (!err && a->t.o.resume[0])
		err = load_state(a);
	if (err)
		return err;
	a->points = mess_file_open(a->rd.dir, ABSORB_POINTS_CSV, "a");
	if (!a->points)
		return -errno;
	/* glibc opens "a" at the end: a new file gets its header. */
	if (ftell(a->points) == 0 &&
	    (fprintf(a->points, POINTS_HEADER "\n") < 0 || fflush(a->points)))
		return -EIO;
	return 0;
}

int absorb_record_point(struct mess_absorb *a, struct row *r,
			enum mess_noise_mode m,
			const struct mess_absorb_point *pt, double paired)
{
	int err = add_point(&r->pair[m], pt);

	if (err)
		return err;
	a->t.points_measured++;
	/* Per point: an interrupted run loses at most the point in flight. */
	if (fprintf(a->points, "%s,%s,%u,%.9g,%u,%.9g,%.9g\n", r->key,
		    mess_noise_mode_name(m), pt->k, pt->t, pt->repeats,
		    pt->sigma, paired) < 0 || fflush(a->points))
		return -EIO;
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
