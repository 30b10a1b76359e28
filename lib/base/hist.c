// SPDX-License-Identifier: MIT
/* The log-linear histogram's edges, quantiles, merge and modes. */
#include "mess/hist.h"

#include <math.h>

/* Bins below 2 x 2^S are one value wide; bin i above sits in octave
 * shift = i / 2^S - 1 as the mantissa m = 2^S + i % 2^S: [m, m + 1) << shift. */
double mess_hist_lo(unsigned i)
{
	unsigned b = i >> MESS_HIST_SUB_BITS;

	if (b <= 1)
		return i;
	return ldexp((double)(MESS_HIST_SUB + (i & (MESS_HIST_SUB - 1))), (int)b - 1);
}

double mess_hist_hi(unsigned i)
{
	unsigned b = i >> MESS_HIST_SUB_BITS;

	if (b <= 1)
		return i + 1.0;
	return ldexp((double)(MESS_HIST_SUB + (i & (MESS_HIST_SUB - 1)) + 1),
		     (int)b - 1);
}

uint64_t mess_hist_count(const struct mess_hist *h)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < MESS_HIST_NBINS; i++)
		n += h->bins[i];
	return n;
}

double mess_hist_mean(const struct mess_hist *h)
{
	uint64_t n = mess_hist_count(h);

	return n ? (double)h->sum / (double)n : NAN;
}

static double mid(unsigned i)
{
	return (mess_hist_lo(i) + mess_hist_hi(i)) / 2;
}

double mess_hist_quantile(const struct mess_hist *h, double q)
{
	uint64_t n = mess_hist_count(h), rank, cum = 0;

	if (!n || !(q > 0) || q > 1)
		return NAN;
	rank = (uint64_t)ceil(q * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	for (unsigned i = 0; i < MESS_HIST_NBINS; i++) {
		cum += h->bins[i];
		if (cum >= rank)
			return mid(i);
	}
	return NAN;	/* not reached: cum ends at n */
}

void mess_hist_merge(struct mess_hist *a, const struct mess_hist *b)
{
	for (unsigned i = 0; i < MESS_HIST_NBINS; i++)
		a->bins[i] += b->bins[i];
	a->sum += b->sum;
}

void mess_hist_summarise(const struct mess_hist *h, struct mess_hist_summary *s)
{
	s->n = mess_hist_count(h);
	s->mean = mess_hist_mean(h);
	s->p50 = mess_hist_quantile(h, 0.50);
	s->p90 = mess_hist_quantile(h, 0.90);
	s->p99 = mess_hist_quantile(h, 0.99);
	s->p999 = mess_hist_quantile(h, 0.999);
	s->max = mess_hist_quantile(h, 1.0);
}

/* Density (count per unit of value) around bin i: over the bins whose
 * midpoints lie within res, or one bin's width, of its own (bins of one
 * octave differ in width from the next one's; a timer that steps by res
 * leaves the bins between its steps empty). */
static double density(const struct mess_hist *h, unsigned i, unsigned lo,
		      unsigned hi, double res)
{
	double c = mid(i), w = mess_hist_hi(i) - mess_hist_lo(i), s = 0;
	unsigned a = i, b = i;

	if (res > w)
		w = res;
	while (a > lo && mid(a - 1) >= c - w)
		a--;
	while (b < hi && mid(b + 1) <= c + w)
		b++;
	for (unsigned j = a; j <= b; j++)
		s += (double)h->bins[j];
	return s / (mess_hist_hi(b) - mess_hist_lo(a));
}

size_t mess_hist_modes(const struct mess_hist *h, double res,
		       struct mess_hist_mode *m, size_t max)
{
	uint64_t n = mess_hist_count(h);
	unsigned lo = MESS_HIST_NBINS, hi = 0, main = 0, cand[64], trough[65];
	size_t nc = 0, out = 0;
	double best = -1;

	if (!n)
		return 0;
	for (unsigned i = 0; i < MESS_HIST_NBINS; i++)
		if (h->bins[i]) {
			lo = i < lo ? i : lo;
			hi = i;
		}
	for (unsigned i = lo; i <= hi; i++) {
		double d = density(h, i, lo, hi, res);

		if (d > best) {
			best = d;
			main = i;
		}
	}
	/* Peaks above the main one, each parted from the one before (or the
	 * main peak) by a trough under half its own height. */
	unsigned prev = main, tr = main;
	double trd = best;

	for (unsigned i = main + 1; i <= hi && nc < 64; i++) {
		double d = density(h, i, lo, hi, res);

		if (d < trd) {
			trd = d;
			tr = i;
		}
		if (d > 0 && d >= density(h, i - 1, lo, hi, res) &&
		    (i == hi || d >= density(h, i + 1, lo, hi, res)) && trd < d / 2) {
			trough[nc] = tr;
			cand[nc++] = i;
			prev = i;
			trd = d;
			tr = i;
		} else if (i > prev && d > density(h, prev, lo, hi, res)) {
			/* Still rising inside the last mode: its peak moves. */
			if (nc && prev == cand[nc - 1]) {
				cand[nc - 1] = i;
				prev = i;
				trd = d;
				tr = i;
			}
		}
	}
	trough[nc] = hi + 1;
	/* Each mode runs from its trough to the next mode's. */
	for (size_t c = 0; c < nc; c++) {
		uint64_t k = 0;
		unsigned end = c + 1 < nc ? trough[c + 1] : hi + 1;

		for (unsigned i = trough[c] + 1; i < end; i++)
			k += h->bins[i];
		double share = (double)k / (double)n;

		if (share < MESS_HIST_MODE_MIN_SHARE || out >= max)
			continue;
		m[out].at = mid(cand[c]);
		m[out].offset = mid(cand[c]) - mid(main);
		m[out].share = share;
		out++;
	}
	return out;
}
