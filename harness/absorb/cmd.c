// SPDX-License-Identifier: MIT
/* `mess absorb`: options, the run directory's phases, the end message. */
#include "absorb/cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "absorb/absorb.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/util.h"

/* Without noise sites on this ISA the latency ladder still runs. */
const char *mess_absorb_unavailable(void)
{
	return NULL;
}

int mess_absorb_main(int argc, char **argv)
{
	static struct mess_absorb_opts o;
	struct mess_absorb *a = NULL;
	char err[512], dir[PATH_MAX], **av;
	int rc, frc, ac;

	if (mess_absorb_parse(&o, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "mess absorb: %s\n", err);
		return -EINVAL;
	}
	if (o.help) {
		mess_absorb_usage(stdout);
		return 0;
	}
	if (o.force && !o.resume[0]) {
		fprintf(stderr, "mess absorb: --force: only with --resume DIR (a run another build started)\n");
		return -EINVAL;
	}
	if (o.out[0] && !o.resume[0] &&
	    mess_out_check("out", o.out, err, sizeof(err))) {
		fprintf(stderr, "mess absorb: %s\n", err);
		return -EINVAL;
	}
	if (o.resume[0]) {
		snprintf(dir, sizeof(dir), "%s", o.resume);
		if (mess_resume_args("mess absorb", argc, argv, dir, &ac, &av, err, sizeof(err)) ||
		    mess_absorb_parse(&o, ac, av, err, sizeof(err))) {
			fprintf(stderr, "mess absorb: %s\n", err);
			return -EINVAL;
		}
		snprintf(o.resume, sizeof(o.resume), "%s", dir);
	}
	/* From the start: Ctrl-C during the probes and the set-up still
	 * leaves a meta.json and a message. */
	mess_signals_install();
	rc = mess_absorb_open(&a, &o, argc, argv, err, sizeof(err));
	if (rc) {
		if (a && (a->rd.why[0] || rc == -EEXIST || rc == -EALREADY ||
			  rc == -EPROTO ||
			  (rc == -EINVAL && o.resume[0] && !a->rd.state)))
			rc = mess_rundir_refused(&a->rd, rc);
		else if (a && mess_write_failed(rc))
			/* A full disk: the file named, in the run's one line. */
			rc = mess_rundir_end(&a->rd, rc, 0);
		else
			fprintf(stderr, "mess absorb: %s\n", err);
		mess_absorb_free(a);
		return rc;
	}
	rc = mess_absorb_measure(a);
	if (mess_interrupted)
		rc = -EINTR;
	frc = mess_absorb_finish(a, rc == 0);
	rc = mess_rundir_end(&a->rd, rc, frc);
	if (!rc && o.strict && a->t.verdict.level == MESS_INVALID) {
		fprintf(stderr, "mess absorb: --strict: the verdict is INVALID (the results are kept in %s)\n",
			a->rd.dir);
		rc = -EIO;
	}
	mess_absorb_free(a);
	return rc == -EINTR || !rc ? rc : -EIO;
}
