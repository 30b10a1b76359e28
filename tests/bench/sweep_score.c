// SPDX-License-Identifier: MIT
/*
 * How well a family describes the curve set it was swept from (the
 * benchmark behind tools/sweep-bench.sh).  The truth at each of the
 * family's read shares is the set's noise-free replay (lib/model/replay.c),
 * sampled densely in ln(1 + pause).  Figures, over the family's curves:
 *  - points per curve (median, max);
 *  - latency error: at 99 bandwidths evenly spread over each curve's
 *    rising part (1 % .. 99 % of its maximum bandwidth), |model - truth| /
 *    truth, where model is the family's curve model (lib/model/model.c), the
 *    interpolation a simulator reads; median, 95th percentile and max over all of them (the max is
 *    often the model's extrapolation past a curve's measured maximum:
 *    lib/model/model.c continues the last segment's slope);
 *  - maximum-bandwidth error: |max measured - true max| / true max, the
 *    median and the worst curve;
 *  - knee points: points at or above 80 % of the true maximum bandwidth,
 *    the fewest on any curve;
 *  - waves: curves where the truth has one (past its maximum, bandwidth
 *    falls more than 2 % below it) and, of those, where the family's
 *    summary (lib/model/metrics.c) found one.
 *
 * usage: sweep-score SET RUN [GRID CV SEED]
 *   RUN: a run directory swept from SET (mess curves --replay SET).
 *   GRID: instead of RUN's points, sample the replay at a fixed pause
 *   grid at RUN's read shares: "mess" (Mess 2.x: the 42 pauses of its
 *   benchmark, 0 .. 200000) or "lite" (every third of those and 0: 15), each
 *   point the median of 3 windows with noise CV (seeded), as the replay
 *   gives a point.
 * Prints one tab-separated line: points_med points_max lat_err_med
 * lat_err_p95 lat_err_max bw_err_med bw_err_max knee_min waves_found
 * waves_present verdict flagged (medians and maxima over the curves).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/load.h"
#include "mess/metrics.h"
#include "mess/quality.h"
#include "mess/model.h"
#include "mess/replay.h"
#include "mess/stats.h"

#define DENSE 600
#define LEVELS 99
#define KNEE 0.80
#define WAVE_TOL 0.02

/* The pauses of the Mess benchmark's sweep (the raw tree in
 * ../shared/reference/mess-results-raw: bw_<ratio>_<pause>.txt). */
static const double MESS_GRID[] = {
	0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 80, 90, 100,
	120, 140, 160, 180, 200, 220, 260, 300, 340, 380, 450, 550, 600, 700,
	800, 900, 1000, 1500, 2000, 3000, 5000, 40000, 100000, 200000,
};
#define NGRID (sizeof(MESS_GRID) / sizeof(MESS_GRID[0]))

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double pause_max(const struct mess_replay *rp)
{
	double hi = 0, v;

	for (size_t i = 0; i < mess_replay_ncurves(rp); i++)
		if (!mess_replay_curve(rp, i, NULL, NULL, NULL, &v) && v > hi)
			hi = v;
	return hi;
}

/* A grid family at the run's read shares. */
static int grid_family(const struct mess_replay *rp, const struct mess_family *run,
		       const char *grid, double cv, unsigned long long seed,
		       struct mess_family *out)
{
	struct mess_rng g;
	int lite = !strcmp(grid, "lite");

	if (!lite && strcmp(grid, "mess"))
		return -1;
	mess_rng_seed(&g, seed);
	out->unloaded_ns = run->unloaded_ns;
	for (size_t i = 0; i < run->n; i++) {
		double rd = run->curves[i].read_pct;
		struct mess_curve *c = mess_family_curve(out, run->curves[i].store_pct, rd);

		if (!c)
			return -1;
		for (size_t j = 0; j < NGRID; j++) {
			struct mess_point p = MESS_POINT_INIT;
			double bw, lat, B[3], L[3];

			/* Mess's grid, heaviest pressure last, as curves are. */
			double pause = MESS_GRID[NGRID - 1 - j];

			if (lite && j % 3 && j != NGRID - 1)
				continue;

			mess_replay_at(rp, rd, pause, &bw, &lat);
			for (int k = 0; k < 3; k++) {
				L[k] = lat * mess_replay_noise(&g, cv);
				B[k] = bw * mess_replay_noise(&g, cv);
			}
			p.store_pct = c->store_pct;
			p.read_pct = rd;
			p.nop = (uint64_t)pause;
			p.bw_gbs = mess_median(B, 3);
			p.lat_ns = mess_median(L, 3);
			if (mess_curve_add(c, &p))
				return -1;
		}
	}
	return 0;
}

struct score {
	double pts[64], err[64 * LEVELS], bw_err[64];
	size_t ncurves, nerr;
	double bw_err_max;
	int knee_min, waves_found, waves_present;
};

static void score_curve(const struct mess_replay *rp, const struct mess_model *m,
			const struct mess_curve *c, const struct mess_curve_summary *cs,
			double pmax, struct score *s)
{
	double tb[DENSE], tl[DENSE], rd = c->read_pct, maxbw = 0, mbw;
	size_t imax = 0, n = 0;
	int knee = 0;

	/* Truth in pressure order: pause from pmax down to 0. */
	for (size_t i = 0; i < DENSE; i++) {
		double x = log1p(pmax) * (1.0 - (double)i / (DENSE - 1));

		mess_replay_at(rp, rd, expm1(x), &tb[i], &tl[i]);
		if (tb[i] > maxbw) {
			maxbw = tb[i];
			imax = i;
		}
	}
	/* As lib/model/metrics.c sees one: bandwidth down while latency is up. */
	for (size_t i = imax; i < DENSE; i++)
		if (tb[i] < maxbw * (1 - WAVE_TOL) && tl[i] > tl[imax]) {
			s->waves_present++;
			s->waves_found += cs->nwaves > 0;
			break;
		}
	/* The rising part, as the model keeps it: bandwidth above every
	 * lighter sample. */
	double rb[DENSE], rl[DENSE];

	for (size_t i = 0; i <= imax; i++)
		if (!n || tb[i] > rb[n - 1]) {
			rb[n] = tb[i];
			rl[n++] = tl[i];
		}
	for (int j = 1; j <= LEVELS && n >= 2; j++) {
		double b = maxbw * j / (LEVELS + 1), t, ml;
		size_t k = 1;

		if (b < rb[0])
			continue;
		while (k < n - 1 && rb[k] < b)
			k++;
		t = rl[k - 1] + (rl[k] - rl[k - 1]) * (b - rb[k - 1]) / (rb[k] - rb[k - 1]);
		if (mess_model_latency(m, rd, b, &ml) >= 0) {
			s->err[s->nerr++] = fabs(ml - t) / t;
			if (getenv("SWEEP_SCORE_VERBOSE") && fabs(ml - t) / t > 0.1)
				fprintf(stderr, "read %.1f at %.2f GB/s: model %.1f ns, true %.1f ns\n",
					rd, b, ml, t);
		}
	}
	mbw = 0;
	for (size_t i = 0; i < c->n; i++)
		if (mess_point_usable(&c->pts[i])) {
			mbw = fmax(mbw, c->pts[i].bw_gbs);
			knee += c->pts[i].bw_gbs >= KNEE * maxbw;
		}
	s->bw_err[s->ncurves] = fabs(mbw - maxbw) / maxbw;
	s->bw_err_max = fmax(s->bw_err_max, s->bw_err[s->ncurves]);
	if (s->knee_min < 0 || knee < s->knee_min)
		s->knee_min = knee;
	s->pts[s->ncurves++] = (double)mess_curve_usable(c);
	if (getenv("SWEEP_SCORE_VERBOSE"))
		fprintf(stderr, "read %.1f: %zu points, max %.2f (true %.2f at %zu/%d), knee %d, waves %zu\n",
			rd, mess_curve_usable(c), mbw, maxbw, imax, DENSE, knee, cs->nwaves);
}

int main(int argc, char **argv)
{
	struct mess_family set = { 0 }, run = { 0 }, grid = { 0 }, *fam = &run;
	struct mess_set_info si, ri;
	struct mess_replay *rp = NULL;
	struct mess_model *m = NULL;
	struct mess_summary sum;
	struct score s = { .knee_min = -1 };
	char err[4600];
	size_t flagged = 0;

	if (argc != 3 && argc != 6) {
		fprintf(stderr, "usage: %s SET RUN [mess|lite CV SEED]\n", argv[0]);
		return 1;
	}
	if (mess_set_load(argv[1], 0, &set, &si, err, sizeof(err)) ||
	    mess_set_load(argv[2], 0, &run, &ri, err, sizeof(err))) {
		fprintf(stderr, "sweep-score: %s\n", err);
		return 2;
	}
	if (mess_replay_new(&set, &rp))
		return 2;
	if (argc == 6) {
		if (grid_family(rp, &run, argv[3], atof(argv[4]),
				strtoull(argv[5], NULL, 0), &grid)) {
			fprintf(stderr, "sweep-score: grid '%s': allowed mess, lite\n", argv[3]);
			return 1;
		}
		fam = &grid;
	}
	for (size_t i = 0; i < fam->n; i++) {
		mess_curve_sort_pressure(&fam->curves[i]);
		flagged += mess_curve_flagged(&fam->curves[i]);
	}
	if (fam->n > 64 || mess_model_new(fam, &m) ||
	    mess_summarise(fam, fam->unloaded_ns, 0, WAVE_TOL, &sum))
		return 2;
	double pmax = pause_max(rp);

	for (size_t i = 0; i < fam->n; i++)
		score_curve(rp, m, &fam->curves[i], &sum.curves[i], pmax, &s);
	qsort(s.pts, s.ncurves, sizeof(double), cmp_d);
	qsort(s.err, s.nerr, sizeof(double), cmp_d);
	qsort(s.bw_err, s.ncurves, sizeof(double), cmp_d);
	printf("%.0f\t%.0f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%d\t%d\t%d\t%s\t%zu\n",
	       s.pts[s.ncurves / 2], s.pts[s.ncurves - 1],
	       s.nerr ? s.err[s.nerr / 2] : NAN,
	       s.nerr ? s.err[s.nerr * 95 / 100] : NAN,
	       s.nerr ? s.err[s.nerr - 1] : NAN,
	       s.bw_err[s.ncurves / 2], s.bw_err_max, s.knee_min, s.waves_found, s.waves_present,
	       argc == 6 ? "-" : mess_set_verdict(&ri), flagged);
	mess_summary_free(&sum);
	mess_model_free(m);
	mess_replay_free(rp);
	mess_family_free(&set);
	mess_family_free(&run);
	mess_family_free(&grid);
	return 0;
}
