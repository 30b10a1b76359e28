/* SPDX-License-Identifier: MIT */
/*
 * The timer the timed chase reads (kernels/asm/<isa>/chase_timed.S): its
 * name, its rate and where the rate came from.  The rate is the kernel's or
 * the hardware's figure where there is one, checked against a calibration
 * on CLOCK_MONOTONIC; the calibration where there is none, or where the two
 * disagree by more than MESS_TIMER_AGREE.
 */
#ifndef MESS_TIMER_H
#define MESS_TIMER_H

#include <stdint.h>

#define MESS_TIMER_AGREE 0.02

struct mess_timer {
	const char *name;	/* the instruction: "lfence; rdtsc", ... */
	double hz;		/* ticks per second, the one used */
	double stated_hz;	/* the kernel's or the hardware's; NAN: none */
	double calibrated_hz;	/* against CLOCK_MONOTONIC */
	char source[160];	/* where hz came from */
	/* The timer's step, ticks: the greatest common divisor of the
	 * deltas of back-to-back reads (1 where it counts every tick; some
	 * TSCs advance only every few ns, by many ticks at once). */
	uint64_t step_ticks;
};

/* Fills t; calibrates for about 20 ms and finds the step in a few ms.
 * 0 or -errno (no tick at all). */
int mess_timer_open(struct mess_timer *t);

#endif
