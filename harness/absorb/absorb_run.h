/* SPDX-License-Identifier: MIT */
/*
 * `mess absorb`: the noise-absorption tables (Delval et al., sections 4
 * and 6).  For every row (kernel, variant, cores, q) and noise mode: the
 * clean kernel's performance, then the search of absorb.h over k with
 * every point measured, appended and flushed as it comes, then the fit.
 *
 * The calls follow main's phases so that main alone decides exit codes.
 */
#ifndef MESS_ABSORB_RUN_H
#define MESS_ABSORB_RUN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct mess_absorb_opts {
	char out[PATH_MAX];
	char resume[PATH_MAX];
	char kernels[256];
	char modes[256];
	char q[256];
	char cores[256];	/* core counts, "all" = every core */
	uint64_t repeats;
	uint64_t kmax;
	double threshold;	/* relative slowdown floor */
	double sigmas;		/* x the baseline spread */
	double run_ms;		/* one timed run at k = 0 */
	uint64_t stride;	/* lat_mem_rd: bytes between pointers */
	int quick;
	int no_plots;
	int help;
};

struct mess_absorb;

/* argv[0] is "absorb".  0, or -EINVAL with err naming the option. */
int mess_absorb_parse(struct mess_absorb_opts *o, int argc, char **argv,
		      char *err, size_t errlen);
void mess_absorb_usage(FILE *f);

/*
 * Resolve the options against this machine, open (or, with --resume,
 * reopen) the run directory and start the pinned threads.  0; -EINVAL
 * (bad option for this machine, err says why); -EEXIST (--out holds a
 * run); -EOPNOTSUPP (nothing can run here, err says why); other -errno.
 */
int mess_absorb_open(struct mess_absorb **a, const struct mess_absorb_opts *o,
		     int argc, char **argv, char *err, size_t errlen);
/* Measure every row and mode not finished: 0, -EINTR or -errno. */
int mess_absorb_measure(struct mess_absorb *a);
/* Tables, plots and meta.json (complete or not); 0 or -errno. */
int mess_absorb_finish(struct mess_absorb *a, int complete);
const char *mess_absorb_dir(const struct mess_absorb *a);
void mess_absorb_free(struct mess_absorb *a);

#endif
