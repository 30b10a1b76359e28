/* SPDX-License-Identifier: MIT */
/*
 * A replay machine: a measured curve family (a public Mess-Results set or
 * one of our runs) answering "what would a point at (read share, nop)
 * measure?", so the sweep can run, unchanged, against a virtual machine
 * with the knee, saturation and waves of a real server.  libc + libm only:
 * a simulator can link it.
 *
 * The answer, noise-free (mess_replay_at):
 *  - nop -> pause: 1:1.  Both are iteration counts of a dummy nop loop the
 *    traffic generator runs between groups of memory operations (the Mess
 *    paper's nopCount, Listing 3; our kernels' spin).  The group differs
 *    (ours: 4 operations, the paper's Listing 2: 6) and is not corrected
 *    for: the replay maps the knob, it has no tuning of its own.
 *  - Along a curve (one read share of the set): linear interpolation of
 *    bandwidth and latency in x = ln(1 + pause) between the set's two
 *    neighbouring pauses (1 + so that pause 0, maximum pressure, has a
 *    place); equal pauses are averaged.  Outside the curve's pauses the
 *    nearest point's figures (the set has nothing beyond them).
 *  - Between read shares: the two curves whose shares bracket the query,
 *    each read at the same pause, mixed linearly in read share.  A share
 *    outside the set's range reads the nearest curve.
 *
 * Noise (mess_replay_noise): a multiplicative lognormal factor of mean 1
 * and coefficient of variation CV, from the seeded PRNG (mess/rng.h:
 * xoshiro256** seeded by splitmix64), so a seed gives the same run
 * everywhere.
 */
#ifndef MESS_REPLAY_H
#define MESS_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "mess/curve.h"
#include "mess/rng.h"

struct mess_replay;

/*
 * Build a replay from f (copied): curves with a finite read_pct and at
 * least one point with finite bandwidth and latency.  The points' nop is
 * the set's pause.  0, -EINVAL (no usable curve) or -ENOMEM.
 */
int mess_replay_new(const struct mess_family *f, struct mess_replay **out);
void mess_replay_free(struct mess_replay *rp);

/* Curves kept, and curve i's read share and pause range. */
size_t mess_replay_ncurves(const struct mess_replay *rp);
int mess_replay_curve(const struct mess_replay *rp, size_t i, double *read_pct,
		      size_t *npauses, double *pause_min, double *pause_max);
/* The pauses of curve i in increasing order into v (room for npauses). */
size_t mess_replay_pauses(const struct mess_replay *rp, size_t i, double *v);

/*
 * Noise-free bandwidth (GB/s) and latency (ns) at (read_pct, nop), as
 * above.  0, or -EINVAL for a non-finite or negative argument.
 */
int mess_replay_at(const struct mess_replay *rp, double read_pct, double nop,
		   double *bw_gbs, double *lat_ns);

/* exp(s z - s^2 / 2) with s^2 = ln(1 + cv^2): mean 1, CV cv; 1 when cv
 * is 0. */
double mess_replay_noise(struct mess_rng *g, double cv);
/* 1 with probability rate. */
int mess_replay_chance(struct mess_rng *g, double rate);

#endif
