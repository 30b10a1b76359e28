// SPDX-License-Identifier: MIT
/*
 * `mess sample`'s recommended period, read from the same rows as the
 * table it prints, so that the sentence can never contradict the table: a
 * period is recommended only when every thread count measured at it
 * reaches the accuracy and stays within the overhead budget, and the
 * sentence quotes that period's worst row.  An overhead below 0 is noise
 * (sampling does not speed the work up), so it counts as 0, never as a
 * gain.  Pure: no I/O, tested with known answers (test_sample_recommend).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "sample/sweep.h"

/* What each kind of overhead figure is, said beside it. */
static const char *const oh_note[] = {
	[SAMPLE_OH_UNKNOWN] = "",
	[SAMPLE_OH_SLOWDOWN] = "",
	[SAMPLE_OH_IN_SPREAD] = " (within noise: no larger than the pairs' spread)",
	[SAMPLE_OH_NEGATIVE] = " (noise: within the run-to-run spread, not a gain)",
	[SAMPLE_OH_NEGATIVE_DRIFT] = " (noise: drift between runs beyond the pairs' spread, not a gain)",
};

enum sample_oh_kind sample_overhead_kind(double overhead, double spread)
{
	/* A spread not measured (NAN) compares false: no figure is then
	 * said to be within it. */
	if (!isfinite(overhead))
		return SAMPLE_OH_UNKNOWN;
	if (overhead < 0)
		return -overhead <= spread ? SAMPLE_OH_NEGATIVE : SAMPLE_OH_NEGATIVE_DRIFT;
	return overhead <= spread ? SAMPLE_OH_IN_SPREAD : SAMPLE_OH_SLOWDOWN;
}

const char *sample_overhead_note(double overhead, double spread)
{
	return oh_note[sample_overhead_kind(overhead, spread)];
}

int sample_overhead_is_noise(double overhead, double spread)
{
	enum sample_oh_kind k = sample_overhead_kind(overhead, spread);

	return k != SAMPLE_OH_UNKNOWN && k != SAMPLE_OH_SLOWDOWN;
}

/* A period's worst rows over its thread counts; NAN when one is unknown,
 * so that a period is never vouched for by the rows that were measured
 * alone. */
static void worst_rows(const struct sample_point *p, int n, uint64_t period,
		       struct sample_advice *r)
{
	int oh_known = 1, acc_known = 1;

	*r = (struct sample_advice){ .period = (int64_t)period, .lowest = -1, .measured = NAN,
				     .accuracy = NAN, .threads = -1, .acc_threads = -1 };
	for (int i = 0; i < n; i++) {
		if (strcmp(p[i].sweep, "period") || p[i].period != period)
			continue;
		r->nthreads++;
		if (isnan(p[i].overhead))
			oh_known = 0;
		else if (r->threads < 0 || p[i].overhead > r->measured)
			r->measured = p[i].overhead, r->threads = p[i].threads;
		if (isnan(p[i].accuracy))
			acc_known = 0;
		else if (r->acc_threads < 0 || p[i].accuracy < r->accuracy)
			r->accuracy = p[i].accuracy, r->acc_threads = p[i].threads;
	}
	if (!oh_known)
		r->measured = NAN;
	if (!acc_known)
		r->accuracy = NAN;
	/* A negative overhead is noise: 0, never a gain. */
	r->overhead = isnan(r->measured) ? NAN : fmax(0, r->measured);
}

int sample_recommend_period(const struct sample_point *p, int n, double min_accuracy,
			    double budget, struct sample_advice *out)
{
	struct sample_advice r, best = { .period = -1, .lowest = -1 };
	struct sample_advice low = { .overhead = NAN };

	if (!out || n < 0 || (n && !p))
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		int seen = 0;

		if (strcmp(p[i].sweep, "period"))
			continue;
		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(p[j].sweep, "period") && p[j].period == p[i].period;
		if (seen)
			continue;
		worst_rows(p, n, p[i].period, &r);
		/* NAN compares false: an unknown figure never qualifies. */
		if (r.accuracy >= min_accuracy && r.overhead <= budget && r.period > best.period)
			best = r;
		/* The lowest worst case; between equal ones (two noise-only
		 * periods, both 0) the larger period, the cheaper to sample. */
		if (!isnan(r.overhead) &&
		    (isnan(low.overhead) || r.overhead < low.overhead ||
		     (r.overhead == low.overhead && r.period > low.period)))
			low = r;
	}
	if (best.period >= 0) {
		*out = best;
	} else if (!isnan(low.overhead)) {
		*out = low;
		out->lowest = low.period;
		out->period = -1;
	} else {
		*out = (struct sample_advice){ .period = -1, .lowest = -1, .overhead = NAN,
					       .measured = NAN, .accuracy = NAN, .threads = -1,
					       .acc_threads = -1 };
	}
	return 0;
}
