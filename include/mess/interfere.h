/* SPDX-License-Identifier: MIT */
/*
 * mess interfere's arithmetic (lib/model/interfere.c): a row's figures from
 * the victim's distribution windows, and the knee of a curve, the fewest
 * aggressors at which the victim's p99 reaches a factor of its p99 with
 * none.  Nothing here measures (tests/unit/model/test_interfere.c).
 */
#ifndef MESS_INTERFERE_H
#define MESS_INTERFERE_H

/* The knee's factor: the p99 doubled. */
#define MESS_IFR_KNEE_X 2.0
/* mess_ifr_knee's answers other than an aggressor count. */
#define MESS_IFR_KNEE_NOT_REACHED (-1)
#define MESS_IFR_KNEE_NO_BASE (-2)

/* One distribution window of the victim: ns a load, NAN not measured. */
struct mess_ifr_win {
	double p50, p90, p99, p999, mean;
};

/* A row's figures: the medians of its windows' (each over the finite
 * ones), and the spread of their p99 (1.4826 x its median absolute
 * deviation); NAN all when no window has the figure. */
struct mess_ifr_fig {
	double p50, p90, p99, p999, mean;
	double p99_spread;
	unsigned windows;	/* the windows behind it */
};

void mess_ifr_summarise(const struct mess_ifr_win *w, unsigned n,
			struct mess_ifr_fig *f);
/*
 * Whether w is a reading the hardware can give: a dependent load from
 * memory cannot be faster than a first-level cache hit (floor_ns, the
 * victim's L1 latency; NAN or <= 0: no floor known).  1; or 0 with every
 * figure of w made NAN, so that the window is counted, never used to size
 * the next one or written as a figure (a mean of 0.67 ns against an
 * unloaded 255.7 ns once stretched a row from 2.6 s to 84 s).
 */
int mess_ifr_win_possible(struct mess_ifr_win *w, double floor_ns);
/*
 * The knee of one curve: rows i < n with aggressors[i] and p99[i] (NAN:
 * not measured, skipped).  The fewest aggressors whose p99 is at least
 * factor times the p99 of the row with 0 aggressors; MESS_IFR_KNEE_NOT_REACHED
 * when none is, MESS_IFR_KNEE_NO_BASE without a measured 0-aggressor row.
 */
int mess_ifr_knee(const int *aggressors, const double *p99, int n,
		  double factor);

#endif
