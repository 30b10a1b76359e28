// SPDX-License-Identifier: MIT
/*
 * `mess curves --replay SET`: the sweep, unchanged, against a curve set
 * (lib/model/replay.c has the maths), a backend that knows nothing of this
 * machine: no topology read, no core pinned, no buffer allocated, no
 * generator, and nothing sleeps.  A point's windows are the set's figures
 * at (the mix's read share under write-allocate accounting, nop = pause)
 * times seeded noise, and they go through the driver's median, spread and
 * disturbance bookkeeping as a measured point's, so the sweep's rules and
 * the verdict judge them.
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
#include "curves/backend/backend.h"
#include "mess/export.h"
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
#define NOT_MEASURED "not measured: a replay measures nothing of this machine"
#define NO_DIST "a replay answers each point's mean latency only; the set has no distribution"

struct mess_replay_run {
	struct mess_cfg cfg;	/* the options, --peak-gbs resolved */
	struct mess_replay *m;
	struct mess_set_info info;
	struct mess_rng rng;
	unsigned points_disturbed;
	unsigned long windows;	/* loaded windows replayed */
	/* the point being replayed: idle, or the mix's read share, the
	 * set's figures there, whether a disturbance lasts it */
	int idle;
	double rd, bw, lat;
	int dist;
	char banner[PATH_MAX + 128];
	char peak_how[256];	/* where the theoretical peak came from */
};

static double noisy(struct mess_replay_run *rr, double v, int disturbed,
		    double dist)
{
	return v * mess_replay_noise(&rr->rng, rr->cfg.replay_noise) *
	       (disturbed ? dist : 1.0);
}

/*
 * The mix's read share as the generators account it with ordinary stores
 * (write-allocate: a store reads its line, then writes it): s % stores of
 * the operations read 100 units and write s.  The set's curves are
 * indexed by read share.
 */
static double mix_read_pct(unsigned store_pct)
{
	return 100.0 * 100 / (100 + store_pct);
}

/*
 * The load: idle, a probe (the set's bandwidth there with noise), or a
 * point (the set's figures there, and whether a disturbance lasts it).
 */
static double replay_set_load(void *bs, const struct mess_load *l,
			      int *steady)
{
	struct mess_replay_run *rr = bs;
	double bw = 0, lat;

	*steady = 1;
	rr->idle = l->store_pct == MESS_LOAD_IDLE;
	if (rr->idle)
		return 0;
	if (l->point) {
		rr->dist = mess_replay_chance(&rr->rng, rr->cfg.replay_disturb);
		rr->rd = mix_read_pct(l->store_pct);
		rr->bw = rr->lat = 0;
		mess_replay_at(rr->m, rr->rd, (double)l->intensity, &rr->bw,
			       &rr->lat);
		return rr->bw;
	}
	mess_replay_at(rr->m, mix_read_pct(l->store_pct), (double)l->intensity,
		       &bw, &lat);
	return noisy(rr, bw, 0, 1);
}

/*
 * One window: the set's figures at the point (its unloaded latency when
 * idle) times noise.  A disturbance lasts the whole point: every window,
 * and the one measured again before it, was disturbed.
 */
static int replay_window(void *bs, struct mess_window *w)
{
	struct mess_replay_run *rr = bs;

	*w = (struct mess_window){
		.crd_gbs = NAN, .cwr_gbs = NAN, .ctot_gbs = NAN,
		.nowalk_ns = NAN, .run_frac = NAN, .steal_ms = NAN,
		.ghz0 = NAN, .ghz1 = NAN };
	if (rr->idle) {
		w->lat_ns = noisy(rr, rr->info.unloaded_ns, 0, 1);
		return 0;
	}
	w->lat_ns = noisy(rr, rr->lat, rr->dist, DIST_LAT);
	w->bw_gbs = noisy(rr, rr->bw, rr->dist, DIST_BW);
	/* A test's hook (tests/replay.sh): the loaded windows numbered in
	 * MESS_FAULT_IMPOSSIBLE ("3,7") read 0.67 ns, as a preempted chase
	 * once did, and the next one 10x the set's bandwidth. */
	rr->windows++;
	if (mess_fault_impossible(rr->windows))
		w->lat_ns = 0.67;
	if (mess_fault_impossible(rr->windows - 1))
		w->bw_gbs *= 10;
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
static void replay_figures(void *bs, const struct mess_window *w,
			   unsigned n, struct mess_point *p)
{
	struct mess_replay_run *rr = bs;
	double B[MESS_MAX_WINDOWS], rd = rr->rd;

	for (unsigned i = 0; i < n; i++)
		B[i] = w[i].bw_gbs;
	p->bw_gbs_std = mess_stddev(B, n);
	p->bw_gbs = mess_median(B, n);
	p->read_pct = rd;
	p->read_bw_gbs = p->acc_read_bw_gbs = p->bw_gbs * rd / 100;
	/* (100 - rd), not bw - read: 100 % reads write exactly 0 */
	p->write_bw_gbs = p->acc_write_bw_gbs = p->bw_gbs * (100 - rd) / 100;
}

/* meta.json's replay section, and what of the measured ones a replay can
 * say: why there is no LLC latency, distribution or generator core. */
static json_t *replay_json(const void *bs, const struct mess_results *res)
{
	const struct mess_replay_run *rr = bs;

	(void)res;
	return mess_json_pack(
		"{s:{s:s, s:s, s:s, s:s, s:f, s:I, s:f, s:i, s:i, s:o, s:s, s:o, s:s, s:s, s:s, s:{s:f, s:f, s:f}},"
		" s:{s:n, s:s}, s:{s:s, s:s}, s:s}",
		"replay",
		"what", "NOT A MEASUREMENT: the sweep ran against a virtual machine replaying this curve set",
		"set", rr->info.path, "set_kind", rr->info.kind_name,
		"set_label", rr->info.label,
		"noise_cv", rr->cfg.replay_noise,
		"seed", (json_int_t)rr->cfg.replay_seed,
		"disturb_rate", rr->cfg.replay_disturb,
		"curves", (int)mess_replay_ncurves(rr->m),
		"points_disturbed", (int)rr->points_disturbed,
		"unloaded_ns", mess_json_real(rr->info.unloaded_ns, 3),
		"unloaded_source", rr->info.unloaded_source,
		"peak_gbs", mess_json_real(rr->cfg.peak_gbs > 0 ? rr->cfg.peak_gbs : NAN, 1),
		"peak_source", rr->peak_how,
		"nop_mapping", "nop = the set's pause, 1:1 (both count iterations of the generator's dummy nop loop between groups of memory operations; the group is 4 operations here, 6 in the Mess paper's listing; not corrected for)",
		"interpolation", "per read share of the set: linear in ln(1 + pause) between its two neighbouring pauses, its end points beyond them; between the two read shares that bracket the mix's accounted read share: linear in read share; the nearest share outside the set's range",
		"disturbed_window", "lat_factor", DIST_LAT, "bw_factor", DIST_BW,
		"lost_pct", DIST_LOST_PCT,
		"llc_latency", "ns", "why", NOT_MEASURED,
		"distribution", "status", "not measured", "why", NO_DIST,
		"generator_cores_rule", "replay: no core of this machine ran anything");
}

/* A distribution's line in summary.md: none to replay. */
static void replay_md(const void *bs, FILE *f, enum mess_md_part part,
		      const struct mess_results *res)
{
	(void)bs;
	(void)res;
	if (part == MESS_MD_AFTER)
		fprintf(f, "\n## Latency distribution\n\nNot measured: %s.\n", NO_DIST);
}

/* What the writers say: the set, never a machine.  The set's clocks as it
 * names them: Mess-Results' is measured (plotter.txt CPU_FREQ), and
 * states no nominal one. */
static void describe(struct mess_replay_run *rr, struct mess_run_desc *d)
{
	const struct mess_set_info *in = &rr->info;

	snprintf(d->device, sizeof(d->device), "replay of %.100s", in->label);
	snprintf(d->title, sizeof(d->title), "%s", d->device);
	d->verb = "Replayed";
	snprintf(d->how, sizeof(d->how), ": nothing of this machine was measured; the windows are the set's figures with seeded noise");
	d->nunits = 1;		/* the set's generators */
	d->bw_source = "replay";
	for (int i = 0; i < MESS_GEN_NMIXES; i++)
		d->read_pct[i] = mix_read_pct((unsigned)(i * MESS_GEN_MIX_STEP));
	d->peak_gbs = rr->cfg.peak_gbs;
	mess_export_kv(d->export_info, sizeof(d->export_info), "LLC_LATENCY_NS",
		       "unknown (%s)", NOT_MEASURED);
	d->clocks.nominal_ghz = in->cpu_ghz;
	d->clocks.measured_ghz = in->cpu_ghz_measured;
	d->clocks.measured_spread_pct = NAN;
	snprintf(d->clocks.nominal_source, sizeof(d->clocks.nominal_source),
		 isfinite(in->cpu_ghz) ? "the replayed set's metadata" :
		 "unknown: the replayed set states none");
	snprintf(d->clocks.measured_source, sizeof(d->clocks.measured_source),
		 "the replayed set's measured clock (%.100s), not this machine's",
		 in->cpu_ghz_measured_source[0] ? in->cpu_ghz_measured_source :
		 isfinite(in->cpu_ghz_measured) ? "its metadata" : "it states none");
	snprintf(rr->banner, sizeof(rr->banner),
		 "REPLAY of %s (noise CV %g, seed %llu, disturbed rate %g): not a measurement of this machine",
		 in->path, rr->cfg.replay_noise,
		 (unsigned long long)rr->cfg.replay_seed, rr->cfg.replay_disturb);
	snprintf(d->banner, sizeof(d->banner), "%s", rr->banner);
}

/*
 * The theoretical peak of the replayed set, as compare and report read it
 * (mess_plotter_peak_gbs: its plotter.txt, a raw tree's, an import's
 * meta.json), so that the replay's figures and percentages of peak are
 * the set's; --peak-gbs wins.
 */
static void replay_peak(struct mess_replay_run *rr)
{
	char dir[PATH_MAX], how[200] = "";

	if (rr->cfg.peak_gbs > 0) {
		snprintf(rr->peak_how, sizeof(rr->peak_how), "--peak-gbs");
		return;
	}
	mess_set_dir(&rr->info, dir, sizeof(dir));
	rr->cfg.peak_gbs = mess_plotter_peak_gbs(dir, how, sizeof(how));
	if (!(rr->cfg.peak_gbs > 0))
		rr->cfg.peak_gbs = 0;
	snprintf(rr->peak_how, sizeof(rr->peak_how), "%s",
		 rr->cfg.peak_gbs > 0 ? how : "unknown: the replayed set states no memory rate, channels and bus width (plotter.txt)");
}

/* A bad --replay/--out: one line, nothing written (-EINVAL). */
static int load(struct mess_replay_run *rr, struct mess_family *set)
{
	char err[4600];
	const char *base = strrchr(rr->cfg.out, '/');
	int rc;

	if (rr->cfg.resume[0]) {
		fprintf(stderr, "mess: --resume: a replay is not resumed (it takes seconds); allowed: run it again with the same --out\n");
		return -EINVAL;
	}
	/* The set's read shares are write-allocate's (mix_read_pct): a
	 * variant would not be replayed, and is not taken in silence. */
	if (rr->cfg.variant[0]) {
		fprintf(stderr, "mess: --variant: '%s' picks a generator of this machine, and a replay runs none (its read shares are ordinary stores', write-allocate); allowed: --replay without --variant\n",
			rr->cfg.variant);
		return -EINVAL;
	}
	if (rr->cfg.out[0] && !strstr(base ? base + 1 : rr->cfg.out, "replay")) {
		fprintf(stderr, "mess: --out: '%s' does not say replay; allowed: a directory whose name contains 'replay' (a replay is never mistakable for a measurement)\n",
			rr->cfg.out);
		return -EINVAL;
	}
	if (rr->cfg.out[0] && mess_out_check("out", rr->cfg.out, err, sizeof(err))) {
		fprintf(stderr, "mess: %s\n", err);
		return -EINVAL;
	}
	rc = mess_set_load(rr->cfg.replay, rr->cfg.replay_ghz, set, &rr->info, err,
			   sizeof(err));
	if (rc == -ENOMEM)
		return -ENOMEM;
	if (!rc && !isfinite(rr->info.unloaded_ns)) {
		snprintf(err, sizeof(err), "%s: no unloaded latency (no chase-only run, no point at bandwidth 0)",
			 rr->cfg.replay);
		rc = -EINVAL;
	}
	if (!rc)
		rc = mess_replay_new(set, &rr->m);
	if (rc == -EINVAL && !rr->m && !err[0])
		snprintf(err, sizeof(err), "%s: no curve with a usable point", rr->cfg.replay);
	if (rc) {
		fprintf(stderr, "mess: --replay: %s; allowed: a curve set (Mess-Results memory_curves.csv, a run directory, bwlat_<R>.txt files)\n",
			err);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	replay_peak(rr);
	return 0;
}

/*
 * The end of a replay, as mess_rundir_end says a run's, but for one that
 * did not finish: a replay is never resumed, so the advice is the same
 * command again into the same --out (it starts over, in seconds).  The
 * banner last: what the run was not.
 */
static int replay_end(void *bs, struct mess_rundir *rd, int rc, int frc)
{
	struct mess_replay_run *rr = bs;
	char then[PATH_MAX + 128], err[PATH_MAX + 128];
	int e = rc ? rc : frc;

	snprintf(then, sizeof(then), "a replay does not resume: %srun it again with the same --out %s",
		 e == -ENOSPC ? "free space, then " : "", rd->dir);
	if (!e) {
		e = mess_rundir_end(rd, 0, 0);
	} else if (e == -EINTR) {
		/* The partial result viewed as a finished one is. */
		if (mess_html_report(rd->dir, NULL, 0, err, sizeof(err)))
			fprintf(stderr, "mess: warning: report.html not written: %s\n", err);
		fprintf(stderr, "mess: interrupted; partial result in %s (%s)\n", rd->dir, then);
	} else if (!mess_write_failed_say("mess", e, then)) {
		fprintf(stderr, "mess: failed: %s%s; partial result in %s (%s)\n",
			strerror(-e), e == -ENOSPC ? " (disk full)" : "", rd->dir, then);
	}
	fprintf(stderr, "mess: %s\n", rr->banner);
	return e;
}

/* dir holds a replay that never finished: its options name --replay
 * (resume.json) and its meta.json, if any, is not complete. */
static int unfinished_replay(const char *dir)
{
	char path[PATH_MAX + 32];
	json_t *st, *a;
	size_t i;
	int replay = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, MESS_RESUME_FILE);
	st = mess_json_load(path, 0, NULL);
	json_array_foreach(json_object_get(st, "args"), i, a)
		replay |= json_is_string(a) &&
			  !strncmp(json_string_value(a), "--replay", 8) &&
			  strncmp(json_string_value(a), "--replay-", 9);
	json_decref(st);
	return replay && !mess_rundir_complete(dir);
}

/* The set loaded; nothing written. */
static int replay_open(const struct mess_cfg *c, int argc, char **argv,
		       void **bs, struct mess_run_desc *d, int *done)
{
	static struct mess_replay_run replay;
	struct mess_replay_run *rr = &replay;
	struct mess_family set = { 0 };
	int rc;

	(void)argc;
	(void)argv;
	(void)done;
	rr->cfg = *c;
	rc = load(rr, &set);
	mess_family_free(&set);
	if (rc)
		return rc;
	*bs = rr;
	mess_rng_seed(&rr->rng, rr->cfg.replay_seed);
	describe(rr, d);
	return 0;
}

/* A replay has no --resume: one that never finished (a full disk, Ctrl-C)
 * is started again into the same --out, the lock held; a finished one is
 * refused without advising --resume. */
static int replay_claimed(void *bs, struct mess_rundir *rd, int rc)
{
	(void)bs;
	if (rc == -EEXIST && rd->holds_run && unfinished_replay(rd->dir)) {
		mess_rundir_clear(rd);
		return 0;
	}
	if (rc == -EEXIST && rd->holds_run)
		snprintf(rd->why, sizeof(rd->why), "mess: --out: %s already holds a finished run; allowed: a new directory (a replay is run again from its set, never resumed)",
			 rd->dir);
	return rc;
}

static int replay_start(void *bs, const struct mess_session *s)
{
	struct mess_replay_run *rr = bs;

	/* The set's bandwidth is what its memory moved: no reading of it
	 * goes far past that memory's peak. */
	if (rr->cfg.peak_gbs > 0)
		s->rep->ceil_gbs = MESS_PEAK_CEIL * rr->cfg.peak_gbs;
	fprintf(stderr, "mess: %s\n", rr->banner);
	return 0;
}

static int replay_point_end(void *bs, int rc, struct mess_point *p)
{
	struct mess_replay_run *rr = bs;

	(void)p;
	if (!rc && !rr->idle && rr->dist)
		rr->points_disturbed++;
	return rc;
}

static void replay_close(void *bs)
{
	struct mess_replay_run *rr = bs;

	mess_replay_free(rr->m);
	rr->m = NULL;
}

static int replay_wanted(const struct mess_cfg *c)
{
	return c->replay[0] != 0;
}

const struct mess_backend mess_replay_backend = {
	.name = "replay", .kind = "replay", .resumable = 0,
	.accounting = "none: a replay, the set's figures (meta.json replay)",
	.bw_note = ": the replayed set's figures (meta.json `replay`); nothing was measured.",
	.cut_short = "the replay was cut short: only the mixes in curves.csv were replayed (a replay does not resume: run it again with the same --out)",
	.wanted = replay_wanted, .open = replay_open,
	.claimed = replay_claimed, .start = replay_start,
	.set_load = replay_set_load, .window = replay_window,
	.figures = replay_figures, .point_end = replay_point_end,
	.json = replay_json, .md = replay_md, .end = replay_end,
	.close = replay_close,
};
