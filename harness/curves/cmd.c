// SPDX-License-Identifier: MIT
/*
 * `mess curves` (the default command): the options, then one driver
 * whatever measures the points (backend.h: this machine, measured.c, or
 * a replayed curve set, replay.c): the directory claimed, the unloaded
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
#include "core/util.h"
#include "curves/run.h"

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

/* The backends, the default first (backend.h): a new one is a file that
 * defines its row, and its line here. */
static const struct mess_curves_backend *const backends[] = {
	&mess_measured_backend,
	&mess_replay_backend,
};

/* --replay SET picks the replay; else this machine is measured. */
static const struct mess_curves_backend *backend_of(const struct mess_cfg *c)
{
	const char *want = c->replay[0] ? "replay" : "measured";

	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(backends[i]->name, want))
			return backends[i];
	return backends[0];
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
	rc = r->be->prepare(r, argc, argv, &done);
	if (rc || done)
		return rc;
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
		rc = r->be->claimed(r, rc);
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
	if (!rc)
		rc = r->be->start(r);
	if (!rc) {
		rc = mess_run_open(r);
		/* A curves.csv --resume will not touch: said, nothing changed. */
		if (rc == -EINVAL && r->cfg.resume[0]) {
			if (r->be->stop)
				r->be->stop(r);
			mess_rundir_close(&r->rd);
			return rc;
		}
	}
	/* A file that could not be written (a full disk) is named, in the
	 * one line a run ends with. */
	if (rc && mess_write_failed(rc)) {
		if (r->be->stop)
			r->be->stop(r);
		rc = r->be->end(r, rc, 0);
		mess_rundir_close(&r->rd);
		return rc;
	}
	if (rc) {
		fprintf(stderr, "mess: setup failed: %s\n", strerror(-rc));
		if (r->be->stop)
			r->be->stop(r);
		mess_rundir_close(&r->rd);
		return rc == -EINVAL || rc == -EOPNOTSUPP ? -EIO : rc;
	}
	fprintf(stderr, "mess: writing %s\n", r->rd.dir);

	rc = r->be->unloaded(r);
	if (!rc && !mess_interrupted) {
		rc = mess_sweep(r);
		if (!rc && !mess_interrupted)
			r->be->unloaded_end(r);
	}
	if (r->be->stop)
		r->be->stop(r);
	if (mess_interrupted)
		rc = -EINTR;
	rc = r->be->end(r, rc, mess_run_finish(r, rc == 0));
	r->be->close(r);
	if (!rc && r->cfg.strict && r->verdict.level == MESS_INVALID) {
		fprintf(stderr, "mess: --strict: the verdict is INVALID (the results are kept in %s)\n",
			r->rd.dir);
		rc = -EIO;
	}
	mess_rundir_close(&r->rd);
	return rc == -EINTR || !rc ? rc : -EIO;
}
