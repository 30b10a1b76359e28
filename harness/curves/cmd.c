// SPDX-License-Identifier: MIT
/*
 * `mess curves` (the default command): the options, then one driver
 * whatever gives the windows (backend/backend.h: this machine, measured/,
 * or a replayed curve set, replay/): the directory claimed, the unloaded
 * latency, the sweep of every mix (sweep.c) and the files (result/).
 */
#include "curves/cmd.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/measure/registry.h"
#include "core/util.h"
#include "curves/result/run.h"

/* The measured backend's condition, asked by main.c's table before the
 * command runs. */
const char *mess_curves_unavailable(void)
{
	return mess_variant_default() ? NULL :
		"no traffic generator variant runs on this CPU (see mess --list)";
}

void mess_curves_usage(FILE *f)
{
	mess_options_usage(f, "mess");
}

static int load_resume_args(struct mess_run *r, int argc, char **argv,
			    char *err, size_t errlen)
{
	char dir[PATH_MAX], **av;
	int ac;

	snprintf(dir, sizeof(dir), "%s", r->cfg.resume);
	if (mess_resume_args("mess", argc, argv, dir, &ac, &av, err, errlen) ||
	    mess_options_parse(&r->cfg, ac, av, err, errlen))
		return -EINVAL;
	snprintf(r->cfg.resume, sizeof(r->cfg.resume), "%s", dir);
	return 0;
}

/* The backends (backend.h): a new one is a folder that defines its row,
 * and its line here.  The first whose option is given measures; else
 * this machine. */
static const struct mess_backend *const backends[] = {
	&mess_replay_backend,
	&mess_gpu_backend,
	&mess_synthetic_backend,	/* NULL but in the tests' binary */
	&mess_measured_backend,
};
#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

static const struct mess_backend *backend_of(const struct mess_cfg *c)
{
	for (size_t i = 0; i < NBACKENDS; i++)
		if (backends[i] && (c->backend[0] ?
				    !strcmp(backends[i]->name, c->backend) :
				    backends[i]->wanted && backends[i]->wanted(c)))
			return backends[i];
	if (!c->backend[0])
		return &mess_measured_backend;
	fprintf(stderr, "mess: --backend: '%s' is not a backend; allowed:", c->backend);
	for (size_t i = 0; i < NBACKENDS; i++)
		if (backends[i])
			fprintf(stderr, " %s", backends[i]->name);
	fprintf(stderr, "\n");
	return NULL;
}

/* The driver's repeats with no load (p's latency): 0 or -errno. */
static int idle_repeats(struct mess_run *r, struct mess_point *p)
{
	struct mess_load idle = { .store_pct = MESS_LOAD_IDLE, .point = 1 };
	int rc, steady;

	r->be->set_load(r->bs, &idle, &steady);
	rc = mess_repeats(&r->rep, r->u.repeats, p);
	return r->be->point_end ? r->be->point_end(r->bs, rc, p) : rc;
}

/* The unloaded latency: the backend's own, or the driver's repeats (cheap
 * next to the sweep, and the figure every curve is read against); the
 * earlier session's beside it on --resume. */
static int unloaded(struct mess_run *r)
{
	struct mess_point p = MESS_POINT_INIT;
	int rc;

	r->unloaded_end_ns = r->unloaded_end_std_ns = NAN;
	if (r->be->unloaded) {
		rc = r->be->unloaded(r->bs, &r->u);
	} else {
		r->u.repeats = r->cfg.repeats < 7 ? 7 : (unsigned)r->cfg.repeats;
		rc = idle_repeats(r, &p);
		r->u.ns = p.lat_ns;
		r->u.std_ns = p.lat_ns_std;
		r->u.random_ns = r->u.random_std_ns = r->u.cv_first = NAN;
	}
	r->fam.unloaded_ns = r->u.ns;
	if (!rc && !mess_interrupted && r->prev_unloaded_ns > 0)
		fprintf(stderr, "mess: --resume: the unloaded latency was measured again: %.1f ns, the earlier session's %.1f ns; every curve is read against the new one\n",
			r->u.ns, r->prev_unloaded_ns);
	return rc;
}

/* The yardstick again, at the end: a machine that changed under the run
 * shows as a different unloaded latency. */
static void unloaded_end(struct mess_run *r)
{
	struct mess_point p = MESS_POINT_INIT;

	if (r->desc.nunits && !idle_repeats(r, &p)) {
		r->unloaded_end_ns = p.lat_ns;
		r->unloaded_end_std_ns = p.lat_ns_std;
	}
}

static void stop(struct mess_run *r)
{
	if (r->be->stop)
		r->be->stop(r->bs);
}

static int end(struct mess_run *r, int rc, int frc)
{
	return r->be->end ? r->be->end(r->bs, &r->rd, rc, frc) :
	       mess_rundir_end(&r->rd, rc, frc);
}

/* ---- the driver ---- */

int mess_curves_main(int argc, char **argv)
{
	static struct mess_run run;
	struct mess_run *r = &run;
	/* Room for the longest message: --cores quotes the whole list. */
	char err[sizeof(run.cfg.cores) + 256];
	int rc, done = 0;

	if (mess_options_parse(&r->cfg, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "mess: %s\n", err);
		return -EINVAL;
	}
	if (r->cfg.help) {
		mess_curves_usage(stdout);
		return 0;
	}
	if (r->cfg.force && !r->cfg.resume[0]) {
		fprintf(stderr, "mess: --force: only with --resume DIR (a run another build started)\n");
		return -EINVAL;
	}
	if (r->cfg.out[0] && !r->cfg.resume[0] &&
	    mess_out_check("out", r->cfg.out, err, sizeof(err))) {
		fprintf(stderr, "mess: %s\n", err);
		return -EINVAL;
	}
	if (r->cfg.resume[0]) {
		if (load_resume_args(r, argc, argv, err, sizeof(err))) {
			fprintf(stderr, "mess: %s\n", err);
			return -EINVAL;
		}
	}
	r->be = backend_of(&r->cfg);
	if (!r->be)
		return -EINVAL;
	/* What a backend does not say: no node, nothing lost unseen. */
	r->desc.node = -1;
	r->desc.line_bytes = 64;
	r->desc.migrations = NAN;
	r->desc.dist_known = 1;
	r->desc.verb = "Measured";
	r->desc.bw_source = "accounted";
	rc = r->be->open(&r->cfg, argc, argv, &r->bs, &r->desc, &done);
	if (rc || done)
		return rc;
	/* A set's own peak, unless --peak-gbs gave one. */
	if (!(r->cfg.peak_gbs > 0) && r->desc.peak_gbs > 0)
		r->cfg.peak_gbs = r->desc.peak_gbs;
	r->rep = (struct mess_repeater){ .be = r->be, .bs = r->bs,
					 .desc = &r->desc, .ceil_gbs = INFINITY };
	r->rep.floor_ns = mess_l1_floor(NAN, r->rep.floor_source,
					sizeof(r->rep.floor_source));
	mess_wstats_init(&r->rep.st);
	/* Ctrl-C ends the sweep with a partial result and the end message. */
	mess_signals_install();
	/* The directory first: a run it would overwrite is refused before
	 * gigabytes are allocated and faulted in. */
	rc = mess_rundir_claim(&r->rd, "mess", r->be->kind, r->cfg.out,
			       r->be->resumable ? r->cfg.resume : "",
			       "curves.csv");
	if (r->cfg.json)
		r->rd.stdout_file = "summary.json";
	if (r->be->claimed)
		rc = r->be->claimed(r->bs, &r->rd, rc);
	if (rc == -EEXIST || rc == -EALREADY || rc == -EPROTO ||
	    (rc == -EINVAL && r->cfg.resume[0]) || (rc && r->rd.why[0])) {
		rc = mess_rundir_refused(&r->rd, rc);
		mess_rundir_close(&r->rd);
		return rc;
	}
	/* Files --resume will not touch: refused in their one line before
	 * any warning, buffer or change. */
	if (!rc && r->cfg.resume[0]) {
		rc = mess_run_resume_check(r);
		if (rc && rc != -EINVAL)
			fprintf(stderr, "mess: --resume: %s\n", strerror(-rc));
		if (rc) {
			mess_rundir_close(&r->rd);
			return rc == -EINVAL ? rc : -EIO;
		}
	}
	/* Only now is this session recorded (resume.json): a refusal
	 * above changed nothing. */
	if (!rc)
		rc = mess_rundir_start(&r->rd, argc, argv);
	/* The earlier session's unloaded latency, before meta.json is
	 * rewritten: a resumed run measures it again, and says so. */
	if (!rc && r->cfg.resume[0]) {
		char mp[PATH_MAX + 16];
		json_t *old;

		snprintf(mp, sizeof(mp), "%.*s/meta.json", PATH_MAX - 1, r->rd.dir);
		old = mess_json_load(mp, 0, NULL);
		r->prev_unloaded_ns = json_number_value(json_object_get(old, "unloaded_ns"));
		json_decref(old);
	}
	if (!rc) {
		struct mess_session s = { .dir = r->rd.dir, .rep = &r->rep };

		rc = r->be->start(r->bs, &s);
	}
	if (!rc) {
		rc = mess_run_open(r);
		/* A curves.csv --resume will not touch: said, nothing changed. */
		if (rc == -EINVAL && r->cfg.resume[0]) {
			stop(r);
			mess_rundir_close(&r->rd);
			return rc;
		}
	}
	/* A file that could not be written (a full disk) is named, in the
	 * one line a run ends with. */
	if (rc && mess_write_failed(rc)) {
		stop(r);
		rc = end(r, rc, 0);
		mess_rundir_close(&r->rd);
		return rc;
	}
	if (rc) {
		fprintf(stderr, "mess: setup failed: %s\n", strerror(-rc));
		stop(r);
		mess_rundir_close(&r->rd);
		return rc == -EINVAL || rc == -EOPNOTSUPP ? -EIO : rc;
	}
	fprintf(stderr, "mess: writing %s\n", r->rd.dir);

	rc = unloaded(r);
	if (!rc && !mess_interrupted) {
		rc = mess_sweep(r);
		if (!rc && !mess_interrupted)
			unloaded_end(r);
	}
	stop(r);
	if (mess_interrupted)
		rc = -EINTR;
	rc = end(r, rc, mess_run_finish(r, rc == 0));
	r->be->close(r->bs);
	if (!rc && r->cfg.strict && r->verdict.level == MESS_INVALID) {
		fprintf(stderr, "mess: --strict: the verdict is INVALID (the results are kept in %s)\n",
			r->rd.dir);
		rc = -EIO;
	}
	mess_rundir_close(&r->rd);
	return rc == -EINTR || !rc ? rc : -EIO;
}
