// SPDX-License-Identifier: MIT
/*
 * `mess curves --replay SET`: the sweep, unchanged, against a virtual
 * machine made from a curve set (lib/model/replay.c has the maths).  Nothing is
 * measured: no core is pinned, no buffer allocated, no generator started,
 * and nothing sleeps.  A point's chase windows are the set's figures at
 * (the mix's accounted read share, nop = pause) times seeded noise, and
 * they go through the same median, spread and disturbance bookkeeping as a
 * measured point's, so the sweep's rules and the verdict judge them.
 * Every output says replay: the directory's name, meta.json `replay` and
 * `bw_source`, summary.md's first line and the stderr lines.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/html.h"
#include "core/rundir/outdir.h"
#include "core/signals.h"
#include "core/util.h"
#include "curves/run.h"
#include "mess/load.h"
#include "mess/replay.h"
#include "mess/stats.h"

/*
 * A disturbed window, as a competitor on the chase core or a generator's
 * makes it: the chase slower, the generators' traffic lower.  Fixed
 * figures of the replay (meta.json replay.disturbed_window), not tuned:
 * large enough to be told from 10 % noise, as a real steal burst is.
 */
#define DIST_LAT 1.25
#define DIST_BW 0.90
#define DIST_LOST_PCT 20.0

struct mess_replay_run {
	struct mess_replay *m;
	struct mess_set_info info;
	struct mess_rng rng;
	unsigned points_disturbed;
	/* the point being replayed: the mix's read share, the set's
	 * figures there, whether a disturbance lasts it */
	double rd, bw, lat;
	int dist;
	char banner[PATH_MAX + 128];
	char peak_how[256];	/* where the theoretical peak came from */
};

static double noisy(struct mess_run *r, double v, int disturbed, double dist)
{
	return v * mess_replay_noise(&r->replay->rng, r->cfg.replay_noise) *
	       (disturbed ? dist : 1.0);
}

/* The set's bandwidth at the load, with noise (k NULL: idle). */
static double replay_set_load(struct mess_run *r,
			      const struct mess_gen_kernel *k, uint64_t nop,
			      int *steady)
{
	double bw = 0, lat;

	*steady = 1;
	if (!k)
		return 0;
	mess_replay_at(r->replay->m, mess_gen_read_pct(k), (double)nop, &bw,
		       &lat);
	return noisy(r, bw, 0, 1);
}

/*
 * One window: the set's figures at the point (the chase alone's unloaded
 * latency for k NULL) times noise.  A disturbance lasts the whole point:
 * every window, and the one measured again before it, was disturbed.
 */
static int replay_window(struct mess_run *r, const struct mess_gen_kernel *k,
			 struct mess_window *w)
{
	struct mess_replay_run *rr = r->replay;

	*w = (struct mess_window){
		.crd_gbs = NAN, .cwr_gbs = NAN, .ctot_gbs = NAN,
		.nowalk_ns = NAN, .run_frac = NAN, .steal_ms = NAN,
		.ghz0 = NAN, .ghz1 = NAN };
	if (!k) {
		w->lat_ns = noisy(r, rr->info.unloaded_ns, 0, 1);
		return 0;
	}
	w->lat_ns = noisy(r, rr->lat, rr->dist, DIST_LAT);
	w->bw_gbs = noisy(r, rr->bw, rr->dist, DIST_BW);
	w->rd_gbs = w->bw_gbs * rr->rd / 100;
	w->wr_gbs = w->bw_gbs * (100 - rr->rd) / 100;
	if (rr->dist) {
		w->disturbed = 1;
		w->redone = 1;
		w->lost_pct = DIST_LOST_PCT;
		w->who = "replay disturbance";
	}
	return 0;
}

/* The bandwidth is the median window's, split by the mix's read share. */
static void replay_figures(struct mess_run *r, const struct mess_window *w,
			   unsigned n, struct mess_point *p)
{
	double B[MESS_MAX_WINDOWS], rd = r->replay->rd;

	for (unsigned i = 0; i < n; i++)
		B[i] = w[i].bw_gbs;
	p->bw_gbs_std = mess_stddev(B, n);
	p->bw_gbs = mess_median(B, n);
	p->read_pct = rd;
	p->read_bw_gbs = p->acc_read_bw_gbs = p->bw_gbs * rd / 100;
	/* (100 - rd), not bw - read: 100 % reads write exactly 0 */
	p->write_bw_gbs = p->acc_write_bw_gbs = p->bw_gbs * (100 - rd) / 100;
}

/* The chase alone: the set's unloaded latency, drawn like a point. */
static void unloaded(struct mess_run *r, unsigned reps, double *ns, double *sd)
{
	struct mess_point p = MESS_POINT_INIT;

	mess_repeats(r, NULL, reps, &p);
	*ns = p.lat_ns;
	*sd = p.lat_ns_std;
}

static json_t *replay_json(const struct mess_run *r)
{
	const struct mess_replay_run *rr = r->replay;

	if (!rr)
		return json_null();
	return mess_json_pack(
		"{s:s, s:s, s:s, s:s, s:f, s:I, s:f, s:i, s:i, s:o, s:s, s:o, s:s, s:s, s:s, s:{s:f, s:f, s:f}}",
		"what", "NOT A MEASUREMENT: the sweep ran against a virtual machine replaying this curve set",
		"set", rr->info.path, "set_kind", rr->info.kind_name,
		"set_label", rr->info.label,
		"noise_cv", r->cfg.replay_noise,
		"seed", (json_int_t)r->cfg.replay_seed,
		"disturb_rate", r->cfg.replay_disturb,
		"curves", (int)mess_replay_ncurves(rr->m),
		"points_disturbed", (int)rr->points_disturbed,
		"unloaded_ns", mess_json_real(rr->info.unloaded_ns, 3),
		"unloaded_source", rr->info.unloaded_source,
		"peak_gbs", mess_json_real(r->cfg.peak_gbs > 0 ? r->cfg.peak_gbs : NAN, 1),
		"peak_source", rr->peak_how,
		"nop_mapping", "nop = the set's pause, 1:1 (both count iterations of the generator's dummy nop loop between groups of memory operations; the group is 4 operations here, 6 in the Mess paper's listing; not corrected for)",
		"interpolation", "per read share of the set: linear in ln(1 + pause) between its two neighbouring pauses, its end points beyond them; between the two read shares that bracket the mix's accounted read share: linear in read share; the nearest share outside the set's range",
		"disturbed_window", "lat_factor", DIST_LAT, "bw_factor", DIST_BW,
		"lost_pct", DIST_LOST_PCT);
}

static const char *replay_describe(const struct mess_run *r)
{
	return r->replay ? r->replay->banner : NULL;
}

/* The machine as far as the report reads it: nothing of this host. */
static void virtual_machine(struct mess_run *r)
{
	struct mess_replay_run *rr = r->replay;

	snprintf(r->topo.cpu_model, sizeof(r->topo.cpu_model), "replay of %.100s",
		 rr->info.label);
	r->ngen = 1;		/* the set's generators, one virtual core */
	r->chase_core = 0;
	r->gen_cores[0] = 0;
	r->node = -1;
	r->cfg.window = 0;	/* one unloaded figure: the set's */
	r->dist_ok = 1;		/* the replay knows every disturbed window */
	r->migrations = NAN;
	r->worst_steal_ms = NAN;
	r->clock_lo = INFINITY;
	r->clock_hi = 0;
	for (int i = 0; i < MESS_CC_N; i++)
		r->cc.c[i].fd = -1;
	snprintf(r->dram.status, sizeof(r->dram.status), "not used: a replay");
	snprintf(r->cores_rule, sizeof(r->cores_rule),
		 "replay: no core of this machine ran anything");
	r->llc_lat.ns = NAN;
	snprintf(r->llc_lat.why, sizeof(r->llc_lat.why),
		 "not measured: a replay measures nothing of this machine");
	/* The replayed set's clocks as it names them: Mess-Results' is
	 * measured (plotter.txt CPU_FREQ), and states no nominal one. */
	r->freq.nominal_ghz = rr->info.cpu_ghz;
	r->freq.measured_ghz = rr->info.cpu_ghz_measured;
	r->freq.measured_spread_pct = NAN;
	snprintf(r->freq.nominal_source, sizeof(r->freq.nominal_source),
		 isfinite(rr->info.cpu_ghz) ? "the replayed set's metadata" :
		 "unknown: the replayed set states none");
	snprintf(r->freq.measured_source, sizeof(r->freq.measured_source),
		 "the replayed set's measured clock (%.100s), not this machine's",
		 rr->info.cpu_ghz_measured_source[0] ? rr->info.cpu_ghz_measured_source :
		 isfinite(rr->info.cpu_ghz_measured) ? "its metadata" : "it states none");
	snprintf(rr->banner, sizeof(rr->banner),
		 "REPLAY of %s (noise CV %g, seed %llu, disturbed rate %g): not a measurement of this machine",
		 rr->info.path, r->cfg.replay_noise,
		 (unsigned long long)r->cfg.replay_seed, r->cfg.replay_disturb);
}

/*
 * The theoretical peak of the replayed set, as compare and report read it
 * (mess_plotter_peak_gbs: its plotter.txt, a raw tree's, an import's
 * meta.json), so that the replay's figures and percentages of peak are
 * the set's; --peak-gbs wins.
 */
static void replay_peak(struct mess_run *r, struct mess_replay_run *rr)
{
	char dir[PATH_MAX], how[200] = "";

	if (r->cfg.peak_gbs > 0) {
		snprintf(rr->peak_how, sizeof(rr->peak_how), "--peak-gbs");
		return;
	}
	mess_set_dir(&rr->info, dir, sizeof(dir));
	r->cfg.peak_gbs = mess_plotter_peak_gbs(dir, how, sizeof(how));
	if (!(r->cfg.peak_gbs > 0))
		r->cfg.peak_gbs = 0;
	snprintf(rr->peak_how, sizeof(rr->peak_how), "%s",
		 r->cfg.peak_gbs > 0 ? how : "unknown: the replayed set states no memory rate, channels and bus width (plotter.txt)");
}

/* A bad --replay/--out: one line, nothing written (-EINVAL). */
static int load(struct mess_run *r, struct mess_replay_run *rr,
		struct mess_family *set)
{
	char err[4600];
	const char *base = strrchr(r->cfg.out, '/');
	int rc;

	if (r->cfg.resume[0]) {
		fprintf(stderr, "mess: --resume: a replay is not resumed (it takes seconds); allowed: run it again with the same --out\n");
		return -EINVAL;
	}
	if (r->cfg.out[0] && !strstr(base ? base + 1 : r->cfg.out, "replay")) {
		fprintf(stderr, "mess: --out: '%s' does not say replay; allowed: a directory whose name contains 'replay' (a replay is never mistakable for a measurement)\n",
			r->cfg.out);
		return -EINVAL;
	}
	if (r->cfg.out[0] && mess_out_check("out", r->cfg.out, err, sizeof(err))) {
		fprintf(stderr, "mess: %s\n", err);
		return -EINVAL;
	}
	rc = mess_set_load(r->cfg.replay, r->cfg.replay_ghz, set, &rr->info, err,
			   sizeof(err));
	if (rc == -ENOMEM)
		return -ENOMEM;
	if (!rc && !isfinite(rr->info.unloaded_ns))
		snprintf(err, sizeof(err), "%s: no unloaded latency (no chase-only run, no point at bandwidth 0)",
			 r->cfg.replay), rc = -EINVAL;
	if (!rc)
		rc = mess_replay_new(set, &rr->m);
	if (rc == -EINVAL && !rr->m && !err[0])
		snprintf(err, sizeof(err), "%s: no curve with a usable point", r->cfg.replay);
	if (rc) {
		fprintf(stderr, "mess: --replay: %s; allowed: a curve set (Mess-Results memory_curves.csv, a run directory, bwlat_<R>.txt files)\n",
			err);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	replay_peak(r, rr);
	return 0;
}

/*
 * The end of a replay, as mess_rundir_end says a run's, but for one that
 * did not finish: a replay is never resumed, so the advice is the same
 * command again into the same --out (it starts over, in seconds).
 */
static int replay_end(struct mess_run *r, int rc, int frc)
{
	const char *dir = r->rd.dir;
	char then[PATH_MAX + 128], err[PATH_MAX + 128];
	int e = rc ? rc : frc;

	if (!e)
		return mess_rundir_end(&r->rd, 0, 0);
	snprintf(then, sizeof(then), "a replay does not resume: %srun it again with the same --out %s",
		 e == -ENOSPC ? "free space, then " : "", dir);
	if (e == -EINTR) {
		/* The partial result viewed as a finished one is. */
		if (mess_html_report(dir, NULL, 0, err, sizeof(err)))
			fprintf(stderr, "mess: warning: report.html not written: %s\n", err);
		fprintf(stderr, "mess: interrupted; partial result in %s (%s)\n", dir, then);
		return e;
	}
	if (!mess_write_failed_say("mess", e, then))
		fprintf(stderr, "mess: failed: %s%s; partial result in %s (%s)\n",
			strerror(-e), e == -ENOSPC ? " (disk full)" : "", dir, then);
	return e;
}

/* dir holds a replay that never finished: its options name --replay
 * (resume.json) and its meta.json, if any, is not complete. */
static int unfinished_replay(const char *dir)
{
	char path[PATH_MAX + 32];
	json_t *st, *meta, *a;
	size_t i;
	int replay = 0, done;

	snprintf(path, sizeof(path), "%s/%s", dir, MESS_RESUME_FILE);
	st = mess_json_load(path, 0, NULL);
	json_array_foreach(json_object_get(st, "args"), i, a)
		replay |= json_is_string(a) &&
			  !strncmp(json_string_value(a), "--replay", 8) &&
			  strncmp(json_string_value(a), "--replay-", 9);
	json_decref(st);
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	meta = mess_json_load(path, 0, NULL);
	done = json_is_true(json_object_get(meta, "complete"));
	json_decref(meta);
	return replay && !done;
}

/* The set loaded and the virtual machine made of it; nothing written. */
static int replay_prepare(struct mess_run *r, int argc, char **argv,
			  int *done)
{
	static struct mess_replay_run replay;
	struct mess_replay_run *rr = &replay;
	struct mess_family set = { 0 };
	int rc;

	(void)argc;
	(void)argv;
	(void)done;
	rc = load(r, rr, &set);
	mess_family_free(&set);
	if (rc)
		return rc;
	r->replay = rr;
	mess_rng_seed(&rr->rng, r->cfg.replay_seed);
	/* A set gives a mean per point, never a distribution to replay. */
	snprintf(r->tail.why, sizeof(r->tail.why),
		 "a replay answers each point's mean latency only; the set has no distribution");
	if (mess_topo_init(&r->topo)) {
		fprintf(stderr, "mess: hwloc could not read the topology\n");
		return -EIO;
	}
	r->var = r->cfg.variant[0] ? mess_variant_find(r->cfg.variant) :
		 mess_variant_default();
	if (!r->var)	/* only the kernels' declared bytes are read */
		r->var = &mess_variants[0];
	virtual_machine(r);
	return 0;
}

/* A replay has no --resume: one that never finished (a full disk, Ctrl-C)
 * is started again into the same --out, the lock held; a finished one is
 * refused without advising --resume. */
static int replay_claimed(struct mess_run *r, int rc)
{
	if (rc == -EEXIST && r->rd.holds_run && unfinished_replay(r->rd.dir)) {
		mess_rundir_clear(&r->rd);
		return 0;
	}
	if (rc == -EEXIST && r->rd.holds_run)
		snprintf(r->rd.why, sizeof(r->rd.why), "mess: --out: %s already holds a finished run; allowed: a new directory (a replay is run again from its set, never resumed)",
			 r->rd.dir);
	return rc;
}

static int replay_start(struct mess_run *r)
{
	fprintf(stderr, "mess: %s\n", r->replay->banner);
	return 0;
}

static int replay_unloaded(struct mess_run *r)
{
	r->unloaded_repeats = r->cfg.repeats < 7 ? 7 : (unsigned)r->cfg.repeats;
	unloaded(r, r->unloaded_repeats, &r->unloaded_ns, &r->unloaded_std_ns);
	r->unloaded_random_ns = r->unloaded_ns;
	r->unloaded_random_std_ns = r->unloaded_std_ns;
	r->unloaded_cv_first = NAN;
	r->fam.unloaded_ns = r->unloaded_ns;
	/* until the sweep ends whole */
	r->unloaded_end_ns = r->unloaded_end_std_ns = NAN;
	return 0;
}

static void replay_unloaded_end(struct mess_run *r)
{
	unloaded(r, r->unloaded_repeats, &r->unloaded_end_ns,
		 &r->unloaded_end_std_ns);
}

static int replay_point(struct mess_run *r, const struct mess_gen_kernel *k,
			struct mess_point *p)
{
	struct mess_replay_run *rr = r->replay;

	rr->dist = mess_replay_chance(&rr->rng, r->cfg.replay_disturb);
	rr->rd = mess_gen_read_pct(k);
	rr->bw = rr->lat = 0;
	mess_replay_at(rr->m, rr->rd, (double)p->nop, &rr->bw, &rr->lat);
	if (!mess_repeats(r, k, (unsigned)r->cfg.repeats, p) && rr->dist)
		rr->points_disturbed++;
	return 0;
}

static const char *replay_bw_source(const struct mess_run *r)
{
	(void)r;
	return "replay";
}

static int replay_finish(struct mess_run *r, int rc, int frc)
{
	rc = replay_end(r, rc, frc);
	fprintf(stderr, "mess: %s\n", r->replay->banner);
	return rc;
}

static void replay_close(struct mess_run *r)
{
	mess_replay_free(r->replay->m);
	r->replay->m = NULL;
}

const struct mess_curves_backend mess_replay_backend = {
	.name = "replay", .kind = "replay", .resumable = 0, .machine = 0,
	.accounting = "none: a replay, the set's figures (meta.json replay)",
	.bw_note = ": the replayed set's figures (meta.json `replay`); nothing was measured.",
	.cut_short = "the replay was cut short: only the mixes in curves.csv were replayed (a replay does not resume: run it again with the same --out)",
	.prepare = replay_prepare, .claimed = replay_claimed,
	.start = replay_start, .unloaded = replay_unloaded,
	.unloaded_end = replay_unloaded_end, .set_load = replay_set_load,
	.measure_point = replay_point, .window = replay_window,
	.figures = replay_figures, .bw_source = replay_bw_source,
	.describe = replay_describe, .json = replay_json,
	.end = replay_finish, .close = replay_close,
};
