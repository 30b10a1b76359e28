// SPDX-License-Identifier: MIT
/*
 * `mess position --curves RUN TRACE`: where an application's memory
 * traffic sits on a curve family, interval by interval.  Nothing is
 * measured here: the traffic comes from the user's counter tool (perf,
 * likwid), the latency from the curve model of a measured family.
 */
#include "position/cmd.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "mess/stress.h"
#include "position/position.h"

#define META_SCHEMA 1

struct position_opts {
	char curves[PATH_MAX];
	char out[PATH_MAX];
	char read_event[256], write_event[256];
	uint64_t bytes_per_count;
	int no_plots;
	int help;
};

#define F(field) MESS_OPT_F(struct position_opts, field)
#define S(field) MESS_OPT_S(struct position_opts, field)

static const struct mess_opt opts[] = {
	{ "curves", MESS_OPT_STR, S(curves), 0, 0, "RUN",
	  "the curve family (required): any set mess export reads" },
	MESS_OPT_OUT_RUN(S(out), "position-"),
	{ "read-event", MESS_OPT_STR, S(read_event), 0, 0, "REGEX",
	  "events (likwid: metrics) that count DRAM reads, POSIX extended, case-insensitive (default: see below)" },
	{ "write-event", MESS_OPT_STR, S(write_event), 0, 0, "REGEX",
	  "events (likwid: metrics) that count DRAM writes" },
	{ "bytes-per-count", MESS_OPT_UINT, F(bytes_per_count), 0, 1, 4096, "N",
	  "bytes per count of an event perf prints without unit (default 64: a CAS moves one line)" },
	MESS_OPT_NO_PLOTS(F(no_plots)),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_position_usage(FILE *f)
{
	fprintf(f,
		"usage: mess position --curves RUN TRACE [OPTION]...\n"
		"Place an application's DRAM traffic on a bandwidth-latency curve family:\n"
		"per interval of TRACE its bandwidth and read share, the latency the curve\n"
		"model gives there, the share of the maximum bandwidth, the memory stress\n"
		"score and the region (low, rising, saturated).  RUN is a run directory of\n"
		"mess, a Mess bwlat_*.txt directory, a Mess-Results directory or\n"
		"memory_curves.csv, or a PROFET curves.json.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nTRACE is one of (the format is detected; include/mess/trace.h has the details):\n"
		"  perf stat -a -I <ms> -x, -e <read and write CAS events> -o TRACE -- APP\n"
		"      rows of one interval are summed (channels, PMUs): give the events of\n"
		"      the memory the curves were measured on (one socket's IMCs for\n"
		"      single-socket curves); counts without unit are CAS commands of\n"
		"      --bytes-per-count bytes; <not counted> intervals are unmeasured.\n"
		"      Default events:\n        read  %s\n        write %s\n"
		"  likwid-perfctr -g MEM -t <interval> APP (timeline, stderr) or -O output\n"
		"      metrics 'Memory read/write data volume [GBytes]' or\n"
		"      '... bandwidth [MBytes/s]'.\n"
		"\nExamples:\n"
		"  mess position --curves results/node1 app.perf.csv\n"
		"  mess position --curves $MESS_REFERENCE/MN5-GPP-SPR8480-DDR5 trace.csv --out pos\n"
		"  mess position --curves run --read-event 'umask=0x3/' --write-event 'umask=0xc/' t.csv\n"
		"  likwid-perfctr -c S0:0 -g MEM -t 1s ./app 2>app.lk; mess position --curves run app.lk\n"
		"\nFiles: position.csv, position.md, summary.json, meta.json, plots/position.png\n"
		"(see results/README.md).  Exit status: 0 ok, 1 bad usage or unreadable input,\n"
		"2 failure.\n", mess_trace_perf_read_re, mess_trace_perf_write_re);
}

/* The curve of the family nearest in read share (as PROFET picks it). */
static const struct mess_curve *nearest(const struct mess_family *f, double r)
{
	const struct mess_curve *best = NULL;

	for (size_t i = 0; i < f->n; i++) {
		const struct mess_curve *c = &f->curves[i];

		if (isfinite(c->read_pct) && mess_curve_usable(c) &&
		    (!best || fabs(c->read_pct - r) < fabs(best->read_pct - r)))
			best = c;
	}
	return best;
}

static void place(const struct position *p, const struct mess_trace_interval *iv,
		  struct pos_row *r)
{
	double tot = iv->read_bytes + iv->write_bytes;
	const struct mess_curve *c;

	*r = (struct pos_row){ .bw_gbs = NAN, .read_pct = NAN, .lat_ns = NAN,
			       .lat_src = -1, .max_bw_gbs = NAN, .sat_bw_gbs = NAN,
			       .score = NAN, .score_curve_pct = NAN,
			       .region = POS_UNMEASURED };
	if (iv->status != MESS_TRACE_MEASURED)
		return;
	r->bw_gbs = tot / iv->dur_s / 1e9;
	r->region = POS_LOW;
	/* No traffic has no read share: bandwidth 0, score 0 (PROFET's). */
	if (!(tot > 0)) {
		r->score = 0;
		return;
	}
	r->read_pct = 100.0 * iv->read_bytes / tot;
	r->lat_src = mess_model_latency(p->m, r->read_pct, r->bw_gbs, &r->lat_ns);
	if (r->lat_src < 0)
		r->lat_ns = NAN;
	if (mess_model_max_bw(p->m, r->read_pct, &r->max_bw_gbs) < 0)
		r->max_bw_gbs = NAN;
	if (!isfinite(p->unloaded_ns) ||
	    mess_model_bw_at_latency(p->m, r->read_pct, 2 * p->unloaded_ns,
				     &r->sat_bw_gbs) < 0)
		r->sat_bw_gbs = NAN;
	/* More than the memory ever moved at this read share: no latency
	 * was measured there, and the trace is likely of another memory. */
	r->beyond_max = isfinite(r->max_bw_gbs) && r->bw_gbs > r->max_bw_gbs;
	if (isnan(r->max_bw_gbs))
		r->region = POS_UNKNOWN;
	else if (r->bw_gbs < 0.5 * r->max_bw_gbs)
		r->region = POS_LOW;
	else if (isnan(r->sat_bw_gbs))
		r->region = POS_UNKNOWN;
	else
		r->region = r->bw_gbs < r->sat_bw_gbs ? POS_RISING : POS_SATURATED;
	c = nearest(&p->fam, r->read_pct);
	if (c) {
		r->score_curve_pct = c->read_pct;
		if (mess_stress_score(c, r->bw_gbs, isfinite(p->ghz) ? p->ghz : 1,
				      &r->score))
			r->score = NAN;
	}
}

/*
 * Intervals past the curves' maximum, said once: their count, the trace's
 * highest bandwidth against the family's, and what it means (a latency
 * extrapolated past what was measured, a share of the maximum above 100 %
 * that the measured memory cannot have: a trace of another memory, or
 * counts in other units).
 */
static void warn_beyond(struct position *p)
{
	const struct pos_row *w = NULL;
	double top = NAN;

	p->fam_max_gbs = NAN;
	for (size_t i = 0; i < p->fam.n; i++)
		for (size_t k = 0; k < p->fam.curves[i].n; k++) {
			const struct mess_point *pt = &p->fam.curves[i].pts[k];

			if (mess_point_usable(pt) && !(pt->bw_gbs <= p->fam_max_gbs))
				p->fam_max_gbs = pt->bw_gbs;
		}
	/* The worst: the interval furthest past its own maximum. */
	for (size_t i = 0; i < p->tr.n; i++)
		if (p->rows[i].beyond_max && !(p->rows[i].bw_gbs / p->rows[i].max_bw_gbs <= top)) {
			top = p->rows[i].bw_gbs / p->rows[i].max_bw_gbs;
			w = &p->rows[i];
		}
	fprintf(stderr, "mess position: warning: %zu of %zu intervals carry more bandwidth than the curves reached at their read share, up to %.1f %% of that maximum (%.1f GB/s where the curves reach %.1f GB/s; the family's maximum %.1f GB/s): their latency is extrapolated and a %% of max above 100 is impossible for the measured memory; is the trace of the memory the curves measured (socket, machine, --bytes-per-count)?\n",
		p->beyond, p->tr.n, 100 * top, w->bw_gbs, w->max_bw_gbs,
		p->fam_max_gbs);
}

/* --read-event/--write-event, compiled; 0 or -EINVAL (said why). */
static int regexes(const struct position_opts *o, regex_t re[2], int *have)
{
	const char *name[2] = { "read-event", "write-event" };
	const char *val[2] = { o->read_event, o->write_event };
	char err[256];

	for (int i = 0; i < 2; i++) {
		have[i] = 0;
		if (!val[i][0])
			continue;
		if (mess_trace_regcomp(&re[i], val[i], err, sizeof(err))) {
			fprintf(stderr, "mess position: --%s: '%s' is not allowed (%s); allowed: a POSIX extended regular expression\n",
				name[i], val[i], err);
			if (i && have[0])
				regfree(&re[0]);
			return -EINVAL;
		}
		have[i] = 1;
	}
	return 0;
}

static int load(struct position *p, const struct position_opts *o,
		const char *trace)
{
	struct mess_trace_opts to = { .bytes_per_count = (double)o->bytes_per_count };
	regex_t re[2];
	int have[2], rc;
	char err[1024] = "";

	rc = regexes(o, re, have);
	if (rc)
		return rc;
	to.read_re = have[0] ? &re[0] : NULL;
	to.write_re = have[1] ? &re[1] : NULL;
	rc = mess_trace_load(trace, &to, &p->tr, err, sizeof(err));
	for (int i = 0; i < 2; i++)
		if (have[i])
			regfree(&re[i]);
	if (rc) {
		fprintf(stderr, "mess position: TRACE: %s%s\n",
			rc == -ENOMEM ? "out of memory" : err,
			rc == -ENOMSG ? "; allowed: name them with --read-event and --write-event" :
			rc == -EINVAL || rc == -ENOMEM ? "" :
			"; allowed: a readable perf stat or likwid-perfctr output file");
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	rc = mess_set_load(o->curves, 0, &p->fam, &p->info, err, sizeof(err));
	if (p->info.warning[0])
		fprintf(stderr, "mess position: warning: %s\n", p->info.warning);
	if (!rc)
		rc = mess_model_new(&p->fam, &p->m);
	if (rc) {
		fprintf(stderr, "mess position: --curves: %s\n", rc == -ENOMEM ?
			"out of memory" : err[0] ? err : "no curve with a usable point");
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	return 0;
}

static json_t *meta(const struct mess_rundir *rd, const struct mess_topo *t,
		    const struct position *p, const char *plots)
{
	json_t *m = mess_rundir_meta(rd, t, META_SCHEMA);

	if (m && mess_json_merge(m, mess_json_pack(
		"{s:s, s:s, s:s, s:s, s:o, s:s, s:s, s:f, s:o, s:s, s:s, s:s}",
		"what", "an application's DRAM traffic placed on a curve family; nothing measured on this host",
		"trace", p->trace_path, "trace_format", p->tr.format,
		"curves", p->info.path, "inherited_verdict", pos_verdict_json(p),
		"read_event", p->read_re,
		"write_event", p->write_re, "bytes_per_count", p->bytes_per_count,
		"stress_score_cpu_ghz", mess_json_real(p->ghz, 6),
		"stress_score_cpu_ghz_source", p->ghz_source,
		"method", "see results/README.md, 'mess position'", "plots", plots))) {
		json_decref(m);
		return NULL;
	}
	return m;
}

static int run(struct position *p, const struct position_opts *o, int argc,
	       char **argv)
{
	struct mess_rundir rd;
	struct mess_topo topo = { 0 };
	char plots[600] = "skipped: --no-plots", err[512];
	int rc, frc;

	rc = mess_rundir_open_new(&rd, "mess position", "position", o->out,
				  "position.csv", 0, argc, argv);
	if (rc) {
		mess_rundir_close(&rd);
		return rc == -EEXIST || (rc == -EINVAL && rd.why[0]) ? rc : -EIO;
	}
	/* After the directory is ours: a refusal is its one line alone. */
	mess_set_dir(&p->info, err, sizeof(err));
	if (pos_verdict_means(p)[0])
		fprintf(stderr, "mess position: warning: the curve family read (%s) is %s%s%s%s: %s\n",
			err, mess_set_verdict(&p->info),
			p->info.verdict_reason[0] ? " (" : "", p->info.verdict_reason,
			p->info.verdict_reason[0] ? ")" : "", pos_verdict_means(p));
	if (p->beyond)
		warn_beyond(p);
	/* Only the identity of meta.json: no failure here is fatal. */
	if (mess_topo_init(&topo))
		snprintf(topo.cpu_model, sizeof(topo.cpu_model), "unknown");
	frc = pos_write(p, rd.dir);
	if (!frc && !o->no_plots) {
		if (pos_plot(p, rd.dir, err, sizeof(err)))
			snprintf(plots, sizeof(plots), "skipped: %s", err);
		else
			snprintf(plots, sizeof(plots), "plots/position.png and .svg");
	}
	mess_rundir_stop_clock(&rd);
	if (!frc)
		frc = mess_rundir_write_meta(&rd, meta(&rd, &topo, p, plots), 1);
	rc = mess_rundir_end(&rd, 0, frc);
	mess_rundir_close(&rd);
	mess_topo_fini(&topo);
	return rc ? -EIO : 0;
}

int mess_position_main(int argc, char **argv)
{
	struct position_opts o = { .bytes_per_count = 64 };
	struct position *p;
	char err[512], *trace[1];
	int n, rc;

	rc = mess_cmd_open("mess position", opts, NOPTS, &o, &o.help,
			   mess_position_usage, argc, argv, trace, 1, &n);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (!o.curves[0] || !n) {
		fprintf(stderr, "mess position: %s\n", !o.curves[0] ?
			"--curves: missing; allowed: a run directory or curve set (see --help)" :
			"TRACE: missing; allowed: a perf stat -I -x, or likwid-perfctr output file (see --help)");
		return -EINVAL;
	}
	if (o.out[0] && mess_out_check("out", o.out, err, sizeof(err))) {
		fprintf(stderr, "mess position: %s\n", err);
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	snprintf(p->trace_path, sizeof(p->trace_path), "%s", trace[0]);
	snprintf(p->run_path, sizeof(p->run_path), "%s", o.curves);
	p->bytes_per_count = (double)o.bytes_per_count;
	p->read_re = o.read_event[0] ? o.read_event : "default";
	p->write_re = o.write_event[0] ? o.write_event : "default";
	rc = load(p, &o, trace[0]);
	if (!rc) {
		/* PROFET's score angle is in cycles: the clock the set ran at. */
		p->ghz = isfinite(p->info.cpu_ghz_measured) ? p->info.cpu_ghz_measured :
			 p->info.cpu_ghz;
		p->ghz_source = isfinite(p->info.cpu_ghz_measured) ?
			"the set's measured CPU frequency" : isfinite(p->info.cpu_ghz) ?
			"the set's nominal CPU frequency" :
			"none in the set: the angle is taken in ns, not in PROFET's cycles";
		if (!(p->ghz > 0))
			p->ghz = NAN;
		p->unloaded_ns = mess_model_unloaded_ns(p->m);
		/* The model has its copy: order this one for the plot. */
		mess_family_sort_read(&p->fam);
		for (size_t i = 0; i < p->fam.n; i++)
			mess_curve_sort_pressure(&p->fam.curves[i]);
		p->rows = calloc(p->tr.n ? p->tr.n : 1, sizeof(*p->rows));
		rc = p->rows ? 0 : -ENOMEM;
	}
	for (size_t i = 0; !rc && i < p->tr.n; i++) {
		place(p, &p->tr.iv[i], &p->rows[i]);
		p->beyond += p->rows[i].beyond_max;
	}
	if (!rc)
		rc = run(p, &o, argc, argv);
	free(p->rows);
	mess_model_free(p->m);
	mess_family_free(&p->fam);
	mess_trace_free(&p->tr);
	free(p);
	return rc;
}
