// SPDX-License-Identifier: MIT
/*
 * The run directory's curves.csv: one row per point appended as it is
 * measured, the file rewritten whole (sorted) when points are measured
 * again and at the end, and --resume's reading of an earlier session's
 * rows, so that an interrupted run is always a valid partial result that
 * --resume continues.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mess/messfmt.h"
#include "curves/result/run.h"
#include "core/rundir/rundir.h"
#include "core/util.h"

/* The CSV sorted by mix and pressure, replacing the append-order file. */
int mess_run_write_csv(struct mess_run *r)
{
	FILE *f = mess_tmp_open(r->rd.dir, "curves.csv");

	if (!f)
		return -errno;
	mess_curves_csv_write_header(f);
	for (size_t i = 0; i < r->fam.n; i++)
		for (size_t j = 0; j < r->fam.curves[i].n; j++)
			mess_curves_csv_write_row(f, &r->fam.curves[i].pts[j],
						  r->desc.bw_source);
	mess_append_close(&r->csv);
	return mess_tmp_commit(r->rd.dir, "curves.csv", f);
}

int mess_run_rewrite_csv(struct mess_run *r)
{
	/* Points measured again replace their rows: the file is written
	 * whole (atomically), and the next points append to it. */
	for (size_t i = 0; i < r->fam.n; i++)
		mess_curve_sort_pressure(&r->fam.curves[i]);
	int err = mess_run_write_csv(r);

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
		err = mess_run_write_csv(r);
	return err;
}

int mess_run_resume_check(struct mess_run *r)
{
	char path[PATH_MAX + 64];
	int err;

	snprintf(path, sizeof(path), "%s/curves.csv", r->rd.dir);
	err = check_header(path);
	if ((!err || err == -ENOENT) && r->be->resume)
		err = r->be->resume(r->bs, r->rd.dir);
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
	err = mess_curves_csv_write_row(m, p, r->desc.bw_source);
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
