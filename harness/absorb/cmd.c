// SPDX-License-Identifier: MIT
/* `mess absorb`: options, the run directory's phases, the end message. */
#include "absorb/cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "absorb/absorb_run.h"
#include "core/rundir.h"
#include "core/signals.h"

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
	if (o.resume[0]) {
		snprintf(dir, sizeof(dir), "%s", o.resume);
		if (mess_resume_args(argc, argv, dir, &ac, &av, err, sizeof(err)) ||
		    mess_absorb_parse(&o, ac, av, err, sizeof(err))) {
			fprintf(stderr, "mess absorb: %s\n", err);
			return -EINVAL;
		}
		snprintf(o.resume, sizeof(o.resume), "%s", dir);
	}
	rc = mess_absorb_open(&a, &o, argc, argv, err, sizeof(err));
	if (rc) {
		if (rc == -EEXIST)
			fprintf(stderr, "mess absorb: --out: %s already holds a run; allowed: a new directory, or --resume %s\n",
				mess_absorb_dir(a), mess_absorb_dir(a));
		else
			fprintf(stderr, "mess absorb: %s\n", err);
		mess_absorb_free(a);
		return rc;
	}
	mess_signals_install();
	rc = mess_absorb_measure(a);
	if (mess_interrupted)
		rc = -EINTR;
	frc = mess_absorb_finish(a, rc == 0);
	snprintf(dir, sizeof(dir), "%s", mess_absorb_dir(a));
	mess_absorb_free(a);
	if (rc == -EINTR) {
		fprintf(stderr, "mess absorb: interrupted; partial result in %s (continue with mess absorb --resume %s)\n",
			dir, dir);
		return -EINTR;
	}
	if (rc || frc) {
		fprintf(stderr, "mess absorb: failed: %s; partial result in %s\n",
			strerror(-(rc ? rc : frc)), dir);
		return -EIO;
	}
	fprintf(stderr, "mess absorb: done: %s\n", dir);
	printf("%s\n", dir);
	return 0;
}

