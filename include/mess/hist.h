/* SPDX-License-Identifier: MIT */
/*
 * A fixed log-linear histogram of unsigned 64-bit values (timer ticks):
 * values below 2^(S+1) each have their own bin; above, every octave
 * [2^k, 2^(k+1)) is cut into 2^S equal bins, so a bin is never wider than
 * 1/2^S of its lower edge (S = 5: 3.1 %, half of that from its midpoint).
 * The same layout as HdrHistogram's (its idea, not its code).  The index
 * is a count of leading zeros and two shifts: no division, no branch, no
 * allocation, so a hand-written kernel can compute it between two loads
 * (kernels/include/mess_kernels.h mirrors the constants; the harness
 * asserts they agree).  Every 64-bit value has exactly one bin.
 */
#ifndef MESS_HIST_H
#define MESS_HIST_H

#include <stddef.h>
#include <stdint.h>

#define MESS_HIST_SUB_BITS 5
#define MESS_HIST_SUB (1u << MESS_HIST_SUB_BITS)
/* Octave shifts 0 .. 63 - S, each 2^S bins, plus the 2^S of the values
 * below 2^S: the highest value, 2^64 - 1, is in the last bin. */
#define MESS_HIST_NBINS ((64 - MESS_HIST_SUB_BITS + 1) * MESS_HIST_SUB)

/* bins, then the exact sum of the values recorded (ticks; a kernel adds
 * into it, so the layout is fixed: bins[MESS_HIST_NBINS] is the sum). */
struct mess_hist {
	uint64_t bins[MESS_HIST_NBINS];
	uint64_t sum;
};

/* The bin of v: shift = msb(v | 2^S) - S, index = shift * 2^S + (v >> shift). */
static inline unsigned mess_hist_index(uint64_t v)
{
	unsigned shift = 63u - (unsigned)__builtin_clzll(v | MESS_HIST_SUB) -
			 MESS_HIST_SUB_BITS;

	return (shift << MESS_HIST_SUB_BITS) + (unsigned)(v >> shift);
}

static inline void mess_hist_record(struct mess_hist *h, uint64_t v)
{
	h->bins[mess_hist_index(v)]++;
	h->sum += v;
}

/* Bin i holds the values [lo, hi) (doubles: the last bin's hi is 2^64). */
double mess_hist_lo(unsigned i);
double mess_hist_hi(unsigned i);

/* How many values were recorded. */
uint64_t mess_hist_count(const struct mess_hist *h);
/* Their exact mean (the sum over the count); NAN when empty. */
double mess_hist_mean(const struct mess_hist *h);
/*
 * The q-quantile (0 < q <= 1): the midpoint of the bin that holds the
 * ceil(q n)-th smallest value (within half a bin of it); NAN when empty.
 * q = 1 gives the midpoint of the highest non-empty bin (the maximum).
 */
double mess_hist_quantile(const struct mess_hist *h, double q);
/* a += b. */
void mess_hist_merge(struct mess_hist *a, const struct mess_hist *b);

/* The figures every curve point reports, in the histogram's unit. */
struct mess_hist_summary {
	uint64_t n;
	double mean, p50, p90, p99, p999, max;
};
void mess_hist_summarise(const struct mess_hist *h, struct mess_hist_summary *s);

/*
 * A secondary mode: a peak of the density (count per unit of value, over
 * the neighbouring bins within res, the values' resolution, or at least
 * the next bin) above the main one, parted from it by a trough lower than
 * half the peak.  share: its fraction of all values, from the
 * trough before it to the one after; offset: its peak's value minus the
 * main peak's (the histogram's unit).
 */
struct mess_hist_mode {
	double at, offset, share;
};
#define MESS_HIST_MODE_MIN_SHARE 0.001	/* fewer values are noise */
/* The secondary modes of h, largest offset last; how many (at most max). */
size_t mess_hist_modes(const struct mess_hist *h, double res,
		       struct mess_hist_mode *m, size_t max);

#endif
