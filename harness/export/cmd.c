// SPDX-License-Identifier: MIT
/*
 * `mess export RUN --format F --out DIR`: a curve set (any layout the
 * loader reads) written for the program that consumes it, through the same
 * code that makes a run's own mess/ directory (include/mess/export.h).
 */
#include "export/cmd.h"
#include "export/setmeta.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "core/report/html.h"
#include "core/report/readaxis.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "mess/json.h"
#include "mess/export.h"
#include "mess/formats.h"
#include "mess/load.h"
#include "mess/parse.h"
#include "mess/model.h"
#include "mess/quality.h"

struct export_opts {
	char format[16];
	char stat[16];
	char out[PATH_MAX];
	char read_axis[16];
	double ghz, base_ghz;
	int64_t channels;
	int force, unloaded_row;
	int help;
};

#define F(field) MESS_OPT_F(struct export_opts, field)
#define S(field) MESS_OPT_S(struct export_opts, field)

static const struct mess_opt opts[] = {
	{ "format", MESS_OPT_STR, S(format), 0, 0, "F",
	  "the consumer's format: one of those listed below (default mess)" },
	MESS_OPT_OUT(S(out), "DIR", "directory to write: new or empty (required)"),
	{ "stat", MESS_OPT_STR, S(stat), 0, 0, "S",
	  "the latency the curves carry: mean (default), p50, p90, p99 or p99.9 (a run's distribution, curves.csv schema 4)" },
	{ "ghz", MESS_OPT_DOUBLE, F(ghz), 0, 0.1, 10, "GHZ",
	  "the set's own CPU frequency, for cycles (profet; a cycle-based input): default the one the run recorded" },
	{ "base-ghz", MESS_OPT_DOUBLE, F(base_ghz), 0, 0.1, 10, "G",
	  "profet: write cycles at G GHz, the base CPU's clock, for a target set (see below)" },
	{ "channels", MESS_OPT_INT, F(channels), 0, 1, MESS_MAX_CHANNELS, "N",
	  "the memory channels the set was measured on (mess-json's measuredChannels; info.txt CHANNELS): default its plotter.txt N_CHANNELS; required for mess-json where the set states none" },
	{ "read-axis", MESS_OPT_STR, S(read_axis), 0, 0, "A",
	  "as-measured (default) or memory: a set whose share is the generator's read fraction R (Mess on AMD) moved to the memory's read share 1 / (2 - R)" },
	MESS_OPT_FLAG_ROW("unloaded-row", F(unloaded_row),
	  "start each share's curve at 0 GB/s with its least latency, as Mess writes it (default: its least-loaded point's latency)"),
	MESS_OPT_FLAG_ROW("force", F(force),
	  "export a run whose verdict is INVALID (info.txt SOURCE_VERDICT then says so), in cycles at a measured clock that spread above 5 % (where the set states no nominal clock, else that one is taken), or a --stat quantile family with points flagged dist_disagrees"),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_export_usage(FILE *f)
{
	fprintf(f,
		"usage: mess export RUN --format F --out DIR [--stat S] [--ghz GHZ] [--base-ghz G]\n"
		"                   [--channels N] [--read-axis A] [--unloaded-row] [--force]\n"
		"Write a curve family for the program that consumes it.  RUN is a run\n"
		"directory of mess, a Mess bwlat_*.txt directory, a Mess-Results directory,\n"
		"tree (.../AVX2/local), processed/ or memory_curves.csv/.json, a raw Mess\n"
		"benchmark tree (bw/, lat/), a PROFET curves.json, or an export of mess.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f, "\nFormats:\n");
	for (const struct mess_format *x = mess_formats; x->name; x++)
		if (x->write)
			fprintf(f, "  %-8s %s\n", x->name, x->what);
	fprintf(f,
		"\nRead shares the run did not measure are filled from the curve model\n"
		"(interpolated between measured shares, the nearest curve outside them);\n"
		"curve-sources.tsv says which, info.txt how the set was measured.\n"
		"\nmess-json is the newer MessMemCtrl's one file: {\"measuredChannels\": N,\n"
		"\"curves\": {\"<R>\": [[MB/s, ns], ...]}}, nothing else at the top level; the\n"
		"simulator scales the bandwidth by its channels over N.  N is the set's\n"
		"plotter.txt N_CHANNELS (a Mess-Results set, a raw tree, an import, a replay\n"
		"of one), else --channels N, required then.  ramulator2 writes one line a\n"
		"point, read_pct GB/s ns.  info.txt says CHANNELS and its source in every\n"
		"format.\n"
		"\nA bwlat_<R> file is the measured curve within 0.1 %% of share of R, else\n"
		"interpolated at R (curve-sources.tsv says which, with two decimals).\n"
		"--unloaded-row puts each share's least-loaded point at 0 GB/s with its\n"
		"least latency, as Mess's processing writes it.\n"
		"\nOn Mess's AMD sets the read share is the generator's read fraction R, not\n"
		"the memory's (R = 0 is 50 %% reads at the memory on write-allocating\n"
		"stores): info.txt READ_AXIS and curve-sources.tsv say so; --read-axis memory\n"
		"moves each curve to the memory's share 1 / (2 - R).\n"
		"\nPROFET predicts an application profiled on a base machine on a target\n"
		"memory: it takes the target set's latency in cycles of the base CPU (it\n"
		"subtracts the base set's from it).  A target set measured on another\n"
		"machine therefore goes out with --base-ghz G, the base CPU's clock, not\n"
		"its own (--ghz, or the clock its run recorded); info.txt keeps both.\n"
		"The mess format's folder holds " MESS_EXPORT_NOT_PROFET ", which PROFET's\n"
		"loader reads and fails on, naming --format profet: it would take the ns\n"
		"for cycles.\n"
		"\nA run whose verdict (meta.json quality) is INVALID is not exported\n"
		"without --force; a WARN run is, with a warning.  info.txt says the\n"
		"verdict of every run exported (SOURCE_VERDICT).  A --stat quantile family\n"
		"with points whose distribution disagrees with their mean (flagged\n"
		"dist_disagrees) is not exported without --force either.\n"
		"\nExamples:\n"
		"  mess export results/node1 --format mess --out sim/node1      for the Mess simulator\n"
		"  mess export results/node1 --format profet --out profet/node1 cycles at the run's clock\n"
		"  mess export ref/MN5-HBM-XeonMax9480-HBM2 --format profet --ghz 2.0 --out hbm\n"
		"  mess export results/hbm --format profet --base-ghz 2.1 --out target   for a base at 2.1 GHz\n"
		"  mess export results/node1 --stat p99 --out sim/node1-p99     the p99 family\n"		"  mess export ref/MN5-GPP-SPR8480-DDR5 --format mess-json --out sim/gpp   measuredChannels 8\n"
		"  mess export results/node1 --format mess-json --channels 8 --out sim/n1  a run states none\n"
		"  mess export ref/CTE-AMD-EPYC7742-DDR4 --format ramulator2 --read-axis memory --out ram/amd\n"
		"  mess export ref/MN5-GPP-SPR8480-DDR5 --unloaded-row --out sim/gpp-mess   Mess's 0 GB/s rows\n"
		"Exit status: 0 ok, 1 bad usage or unreadable input, 2 failure, or a run\n"
		"refused for its data (INVALID, or dist_disagrees points) without --force:\n"
		"as with --strict, curves not to be trusted are a failure, not a usage error.\n");
}

/*
 * The on-chip latency the Mess simulator takes off the curves
 * (onCoreLatency): the last cache plateau a curves run measures with
 * itself (meta.json llc_latency), else that of a latency ladder measured
 * beside the set (./run.sh leaves it in absorb/, mess ladder in its own
 * directory).  Says why when there is none.
 */
static void llc_latency(const struct mess_set_info *info, char *out, size_t len)
{
	static const char *where[] = { "absorb/summary.json", "ladder/summary.json",
				       "summary.json" };
	char path[PATH_MAX + 32], dir[PATH_MAX];

	out[0] = '\0';
	/* A set read from a file (curves.csv): look beside it. */
	mess_set_dir(info, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	json_t *meta = mess_json_load(path, 0, NULL), *llc = json_object_get(meta, "llc_latency");
	char why[200] = "";

	if (json_is_number(json_object_get(llc, "ns"))) {
		mess_export_kv(out, len, "LLC_LATENCY_NS", "%.3f (the %s plateau measured with the run, meta.json llc_latency%s)",
			       json_number_value(json_object_get(llc, "ns")),
			       json_string_value(json_object_get(llc, "level")) ?: "last cache's",
			       json_is_false(json_object_get(llc, "flat")) ? "; NOT FLAT, doubtful" : "");
		json_decref(meta);
		return;
	}
	if (json_is_string(json_object_get(llc, "why")))
		snprintf(why, sizeof(why), "%s", json_string_value(json_object_get(llc, "why")));
	json_decref(meta);
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		json_t *j, *levels, *lv, *best = NULL;
		size_t k;

		snprintf(path, sizeof(path), "%s/%s", dir, where[i]);
		j = mess_json_load(path, 0, NULL);
		levels = json_object_get(json_object_get(j, "latency_ladder"), "levels");
		json_array_foreach(levels, k, lv) {
			const char *name = json_string_value(json_object_get(lv, "level"));

			if (name && name[0] == 'L' &&
			    json_is_number(json_object_get(lv, "latency_ns")))
				best = lv;
		}
		if (best) {
			/* A level the ladder found not flat is no plateau:
			 * its figure is a median over sizes, and says so. */
			int flat = !json_is_false(json_object_get(best, "flat"));

			mess_export_kv(out, len, "LLC_LATENCY_NS", "%.3f (%s %s of the latency ladder in %s)",
				       json_number_value(json_object_get(best, "latency_ns")),
				       json_string_value(json_object_get(best, "level")),
				       flat ? "plateau" : "level, NOT FLAT: the median of its sizes, doubtful",
				       where[i]);
			json_decref(j);
			return;
		}
		json_decref(j);
	}
	mess_export_kv(out, len, "LLC_LATENCY_NS", "unknown (%s%sno latency ladder beside this set; mess ladder measures one)",
		       why, why[0] ? "; " : "");
}

/*
 * A Mess-Results set states its CPU's nominal clock in system.md (its
 * plotter.txt CPU_FREQ is one Mess measured): the nominal, where the set's
 * files gave none, named by where it came from.
 */
static void nominal_from_system_md(struct mess_set_info *info)
{
	char dir[PATH_MAX], f[32], *end;
	double g;

	if (isfinite(info->cpu_ghz))
		return;
	mess_set_dir(info, dir, sizeof(dir));
	if (mess_system_md_field(dir, "Frequency (GHz)", f, sizeof(f)))
		return;
	g = strtod(f, &end);
	if (end == f || !(g >= 0.1 && g <= 10))
		return;
	info->cpu_ghz = g;
	snprintf(info->cpu_ghz_source, sizeof(info->cpu_ghz_source),
		 "system.md Frequency (GHz), the CPU's stated base clock");
}

/* After a first reason: where the others are. */
static const char *more(const struct mess_set_info *info, char *buf, size_t len)
{
	if (info->verdict_reasons > 1)
		snprintf(buf, len, " (and %d more in meta.json quality)",
			 info->verdict_reasons - 1);
	else
		snprintf(buf, len, " (meta.json quality)");
	return buf;
}

/*
 * What a run's verdict means for its export, said in one line on stderr,
 * and the provenance info.txt records.  An INVALID run is not exported
 * without --force (a simulator fed curves that broke the rules would not
 * know); a WARN run is, said; a run with no verdict (interrupted, or made
 * before verdicts) is exported as before.  0, or -EIO: refused (exit 2,
 * as --strict: the data failed, the usage did not).
 */
static int verdict(const char *run, const struct mess_set_info *info, int force,
		   struct mess_export_in *in)
{
	const char *v = mess_set_verdict(info), *why = info->verdict_reason;
	char m[64];

	if (info->kind != MESS_SET_RUN)
		return 0;
	in->verdict = v;
	in->verdict_reason = why[0] ? why : NULL;
	if (!strcmp(v, "INVALID") && !force) {
		mess_say("mess export: %s: verdict INVALID: %s%s; not exported: --force exports it anyway\n",
			run, why[0] ? why : "no reason given", more(info, m, sizeof(m)));
		return -EIO;
	}
	if (!strcmp(v, "INVALID")) {
		in->verdict_note = "exported with --force: the source run's verdict is INVALID, its curves are not to be believed";
		mess_say("mess export: warning: %s: verdict INVALID: %s%s; exported because of --force (info.txt SOURCE_VERDICT says so)\n",
			run, why[0] ? why : "no reason given", more(info, m, sizeof(m)));
	} else if (!strcmp(v, "WARN")) {
		mess_say("mess export: warning: %s: verdict WARN: %s%s\n",
			run, why[0] ? why : "no reason given", more(info, m, sizeof(m)));
	} else if (strcmp(v, "PASS")) {
		in->verdict_note = !strcmp(v, "pending") ?
			"the run stopped before it was judged (meta.json quality.verdict pending)" :
			"the set carries no verdict: its meta.json has no quality (a run made before verdicts, or a fleet median)";
		mess_say("mess export: note: %s carries no verdict: %s; exported as before\n",
			run, !strcmp(v, "pending") ? "it stopped before it was judged (pending)" :
			"its meta.json has no quality (a run made before verdicts, or a fleet median)");
	}
	return 0;
}

/*
 * A quantile family (--stat p50..p99.9) whose points' tails disagree with
 * their means (n of them flagged dist_disagrees): refused without --force,
 * as an INVALID run is; with it, said, and info.txt's LATENCY_STAT says
 * so.  The mean family is not refused for it.  0 or -EIO (as an INVALID
 * run).
 */
static int dist_ok(const char *run, size_t n, const struct export_opts *o,
		   char *kv, size_t kvlen)
{
	const char *what = mess_qrules[MESS_QR_DIST_DISAGREES].what;

	if (!n || !strcmp(o->stat, "mean"))
		return 0;
	if (!o->force) {
		mess_say("mess export: %s: --stat %s: %zu point%s flagged dist_disagrees (%s); not exported: --force exports it anyway\n",
			run, o->stat, n, n == 1 ? "" : "s", what);
		return -EIO;
	}
	mess_say("mess export: warning: %s: --stat %s: %zu point%s flagged dist_disagrees (%s); exported because of --force (info.txt LATENCY_STAT says so)\n",
		run, o->stat, n, n == 1 ? "" : "s", what);
	mess_export_kv(kv, kvlen, "LATENCY_STAT_WARNING",
		       "exported with --force: %zu point%s flagged dist_disagrees (%s)",
		       n, n == 1 ? "" : "s", what);
	return 0;
}

/*
 * A cycle-based export converts every latency with one clock: a measured
 * clock that spread more than the run rules allow (a run under contention
 * once measured 0.827 GHz, 60 %, on a 3.2 GHz core) would scale them all
 * wrong, so it is refused without --ghz (give the clock) or --force (use
 * it all the same), unless the set states its nominal clock: that one is
 * taken, and said why in one line (a run at 0.86 GHz, 78 % spread, went
 * out with a note only).  The clock used is said on stderr, as in info.txt.
 * 0 or -EINVAL.
 */
static int clock_ok(const char *run, const struct mess_set_info *info,
		    const struct export_opts *o, const struct mess_export_in *in)
{
	double sp = info->cpu_ghz_spread_pct;
	/* --base-ghz converts the ns at the base CPU's clock: the set's own
	 * clock, however it spread, takes no part in it. */
	int measured = !(o->ghz > 0) && !(o->base_ghz > 0) &&
		       isfinite(info->cpu_ghz_measured);

	if (measured && in->ghz == info->cpu_ghz && isfinite(sp) &&
	    sp > MESS_Q_CLOCK_SPREAD_WARN) {
		mess_say("mess export: CPU_FREQ=%.3f GHz, the nominal clock (%s): the measured %.3f GHz spread %.1f %% (above %.0f %%, meta.json cpu_frequency), no clock to convert cycles with; --ghz GHZ gives another\n",
			in->ghz, in->nominal_source ? in->nominal_source : "the set's",
			info->cpu_ghz_measured, sp, MESS_Q_CLOCK_SPREAD_WARN);
		return 0;
	}
	if (measured && isfinite(sp) && sp > MESS_Q_CLOCK_SPREAD_WARN && !o->force) {
		mess_say("mess export: %s: the measured clock %.3f GHz spread %.1f %% (above %.0f %%, meta.json cpu_frequency): not exported in cycles; give --ghz GHZ, or --force to use it\n",
			run, info->cpu_ghz_measured, sp, MESS_Q_CLOCK_SPREAD_WARN);
		return -EINVAL;
	}
	if (in->ghz > 0)
		mess_say("mess export: CPU_FREQ=%.3f GHz (%s%s)\n", in->ghz,
			in->ghz_source, measured && isfinite(sp) && sp > MESS_Q_CLOCK_SPREAD_WARN ?
			"; its spread is above the bound, used because of --force" : "");
	return 0;
}

/*
 * A run directory of a command that writes no curve family (compare,
 * absorb, ladder, matrix, c2c, ...), named by its kind as --resume names
 * it (meta.json or resume.json tool), with what to export instead: a
 * comparison's sets.  1 when said, 0 when run is no such directory.
 */
static int no_family(const char *run)
{
	char tool[96], path[PATH_MAX + 16], sets[400] = "";
	json_t *meta, *s;
	size_t i, used = 0;

	/* A curves run that is damaged is its reader's to say. */
	snprintf(path, sizeof(path), "%s/curves.csv", run);
	if (!access(path, F_OK) || !mess_rundir_tool(run, tool, sizeof(tool)))
		return 0;
	snprintf(path, sizeof(path), "%s/meta.json", run);
	meta = mess_json_load(path, 0, NULL);
	json_array_foreach(json_object_get(meta, "sets"), i, s) {
		const char *a = json_string_value(json_object_get(s, "argument"));

		if (a && used < sizeof(sets))
			used += (size_t)snprintf(sets + used, sizeof(sets) - used,
						 "%s%s", used ? ", " : "", a);
	}
	json_decref(meta);
	mess_say("mess export: RUN: %s is a run of '%s', which holds no curve family; allowed: a run of mess (the curves), of mess import or mess fleet, or a curve set%s%s\n",
		run, tool, sets[0] ? "; export the sets it compared: " : "", sets);
	return 1;
}

/*
 * The writer contract: --out locked and new or empty, the export built
 * aside in it and moved in when every file is whole, info.txt last (what
 * makes it a set): a second export into the same --out is refused in one
 * line, and a failed or interrupted export (a full disk, Ctrl-C) leaves no
 * bwlat files that a simulator would take for a set and nothing that
 * blocks the rerun.
 */
static int export_whole(const struct mess_format *fmt,
			const struct mess_export_in *in, const char *out,
			struct mess_export_tally *t, char *err, size_t errlen)
{
	struct mess_rundir rd;
	char tmp[PATH_MAX] = "";
	int rc;

	memset(&rd, 0, sizeof(rd));
	mess_signals_install();
	rc = mess_rundir_lock_empty(&rd, "mess export", "--out", out);
	if (rc) {
		/* The refusal's own line, less the "mess export: " main adds. */
		snprintf(err, errlen, "%.1000s", rd.why[0] ? rd.why + strlen("mess export: ") :
			 strerror(-rc));
		mess_rundir_close(&rd);
		return rc;
	}
	rc = mess_rundir_aside(&rd, tmp, sizeof(tmp));
	if (rc)
		snprintf(err, errlen, "%.900s: %s", out, strerror(-rc));
	else
		rc = mess_export(fmt, in, tmp, t, err, errlen);
	if (!rc && mess_interrupted) {
		snprintf(err, errlen, "interrupted; nothing written to %.900s (run it again with the same --out)", out);
		rc = -EINTR;
	}
	if (!rc) {
		rc = mess_rundir_aside_commit(&rd, tmp, "info.txt");
		if (rc)
			snprintf(err, errlen, "%.900s: %s", out, strerror(-rc));
	}
	if (rc && tmp[0]) {
		/* Name the file as it would have been, not the temporary. */
		char *at = strstr(err, tmp);

		if (at) {
			char rest[1024];

			snprintf(rest, sizeof(rest), "%s", at + strlen(tmp));
			snprintf(at, errlen - (size_t)(at - err), "%.900s%s", out, rest);
		}
		mess_rundir_aside_abandon(tmp);
	}
	mess_rundir_close(&rd);
	return rc;
}

int mess_export_main(int argc, char **argv)
{
	struct export_opts o = { .format = "mess", .stat = "mean",
				 .read_axis = "as-measured" };
	const struct mess_format *fmt;
	struct mess_set_info info;
	struct mess_family fam = { 0 };
	struct mess_export_tally t;
	struct mess_model *m = NULL;
	char err[1024], tool[200], llc[PATH_MAX + 128], gsrc[128], *run[1];
	char setdir[PATH_MAX], axis[400] = "", chsrc[200] = "";
	size_t ndd = 0;
	int n, rc, gen = 0, channels, unsteady;

	rc = mess_cmd_open("mess export", opts, NOPTS, &o, &o.help,
			   mess_export_usage, argc, argv, run, 1, &n);
	if (rc)
		return rc > 0 ? 0 : rc;
	fmt = mess_export_find(o.format);
	if (!fmt) {
		const char *sep = "";

		/* The formats from their one table (lib/formats/formats.c). */
		fprintf(stderr, "mess export: --format: '%s' is not allowed; allowed:",
			o.format);
		for (const struct mess_format *x = mess_formats; x->name; x++)
			if (x->write) {
				fprintf(stderr, "%s %s", sep, x->name);
				sep = ",";
			}
		fputc('\n', stderr);
		return -EINVAL;
	}
	if (strcmp(o.read_axis, "as-measured") && strcmp(o.read_axis, "memory")) {
		mess_say("mess export: --read-axis: '%s' is not allowed; allowed: as-measured, memory\n",
			o.read_axis);
		return -EINVAL;
	}
	/* Only PROFET's format is in cycles of the base machine's CPU. */
	if (o.base_ghz > 0 && strcmp(fmt->name, "profet")) {
		mess_say("mess export: --base-ghz: not allowed with --format %s; allowed: with --format profet only (the other formats are in ns)\n",
			fmt->name);
		return -EINVAL;
	}
	if (!n || !o.out[0]) {
		mess_say("mess export: %s\n", !n ?
			"RUN: missing; allowed: a run directory or curve set (see --help)" :
			"--out: missing; allowed: a new or empty directory");
		return -EINVAL;
	}
	if (mess_out_check_empty("out", o.out, err, sizeof(err))) {
		mess_say("mess export: %s\n", err);
		return -EINVAL;
	}
	if (mess_family_at_stat(&fam, o.stat) == -EINVAL) {
		mess_say("mess export: --stat: '%s' is not allowed; allowed: %s\n",
			o.stat, mess_lat_stats);
		return -EINVAL;
	}
	rc = mess_set_load(run[0], o.ghz, &fam, &info, err, sizeof(err));
	if (info.warning[0])
		mess_say("mess export: warning: %s\n", info.warning);
	/* Judged on its mean, which a quantile family no longer has. */
	if (!rc)
		ndd = mess_family_dist_flag(&fam);
	/* A tail family: each point at that quantile of its distribution,
	 * and the unloaded latency at it (compare reads it so). */
	if (!rc && mess_set_at_stat(&fam, &info, o.stat)) {
		snprintf(err, sizeof(err), "%s: --stat %s: no point has that figure (a run of curves.csv schema 4 has it)",
			 run[0], o.stat);
		rc = -EINVAL;
	}
	if (!rc) {
		mess_set_dir(&info, setdir, sizeof(setdir));
		gen = mess_read_axis_generator(setdir, axis, sizeof(axis));
		if (gen && !strcmp(o.read_axis, "memory"))
			export_map_memory_axis(&fam);
		rc = mess_model_new(&fam, &m);
	}
	if (rc && rc != -ENOMEM && no_family(run[0])) {
		mess_family_free(&fam);
		return -EINVAL;
	}
	if (rc) {
		mess_say("mess export: %s\n", rc == -ENOMEM ? "out of memory" :
			err[0] ? err : "no curve with a usable point");
		mess_family_free(&fam);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	snprintf(tool, sizeof(tool), "%s", info.tool[0] ? info.tool : info.kind_name);
	nominal_from_system_md(&info);
	llc_latency(&info, llc, sizeof(llc));
	if (isfinite(info.cpu_ghz_spread_pct))
		snprintf(gsrc, sizeof(gsrc), "the measured clock (CPU_FREQ_MEASURED), spread %.1f %%",
			 info.cpu_ghz_spread_pct);
	else
		snprintf(gsrc, sizeof(gsrc), "the measured clock (CPU_FREQ_MEASURED)");
	if (info.memory[0])
		mess_export_kv(llc, sizeof(llc), "SOURCE_MEMORY", "%s", info.memory);
	if (strcmp(o.stat, "mean"))
		mess_export_kv(llc, sizeof(llc), "LATENCY_STAT",
			       "%s (each point's %s of its latency distribution, not its mean)",
			       o.stat, o.stat);

	channels = o.channels > 0 ? (int)o.channels :
		export_set_channels(setdir, chsrc, sizeof(chsrc));
	if (o.channels > 0)
		snprintf(chsrc, sizeof(chsrc), "--channels");
	/* Scaled by the simulator's channels over these: no guess. */
	if (!channels && !strcmp(fmt->name, "mess-json")) {
		mess_say("mess export: --channels: missing for --format mess-json: %s states no channel count; allowed: the memory channels it was measured on, 1..%d\n",
			run[0], (int)MESS_MAX_CHANNELS);
		mess_model_free(m);
		mess_family_free(&fam);
		return -EINVAL;
	}
	if (gen && !strcmp(o.read_axis, "memory"))
		snprintf(axis, sizeof(axis), "the memory's read share, mapped from the generator's read fraction R as 1 / (2 - R) (--read-axis memory: every store allocates, a read and a write at the memory; R = 0 is 50 %%, R = 100 %% is 100 %%; shares below 50 %% are no such generator's)");
	else if (!gen && !strcmp(o.read_axis, "memory"))
		mess_say("mess export: note: --read-axis memory: %s's read share is the memory's already; exported as measured\n",
			run[0]);

	/* A measured clock that spread past the bound converts nothing
	 * where the set states its nominal one (clock_ok says why). */
	unsteady = !(o.ghz > 0) && !(o.base_ghz > 0) && isfinite(info.cpu_ghz_measured) &&
		   isfinite(info.cpu_ghz) && info.cpu_ghz > 0 &&
		   info.cpu_ghz_spread_pct > MESS_Q_CLOCK_SPREAD_WARN;
	if (unsteady)
		snprintf(gsrc, sizeof(gsrc), "the nominal clock (CPU_FREQ_NOMINAL): the measured one (CPU_FREQ_MEASURED) spread %.1f %%, above %.0f %%",
			 info.cpu_ghz_spread_pct, MESS_Q_CLOCK_SPREAD_WARN);
	struct mess_export_in in = {
		.fam = &fam, .m = m, .origin = info.path, .tool = tool,
		.channels = channels, .channels_source = chsrc,
		.unloaded_row = o.unloaded_row, .read_axis = gen ? axis : NULL,
		.bw_source = info.bw_source[0] ? info.bw_source : NULL,
		.extra_info = llc,
		/* The base CPU's clock for a PROFET target set, else the
		 * clock the run measured it ran at, else its nominal. */
		.ghz = o.base_ghz > 0 ? o.base_ghz : o.ghz > 0 ? o.ghz : unsteady ? info.cpu_ghz :
			isfinite(info.cpu_ghz_measured) ? info.cpu_ghz_measured : info.cpu_ghz,
		.ghz_source = o.base_ghz > 0 ?
			"--base-ghz: the base CPU's clock, at which PROFET reads a target set's cycles (the set's own clocks are CPU_FREQ_NOMINAL and CPU_FREQ_MEASURED)" :
			o.ghz > 0 ? "--ghz" : unsteady || isfinite(info.cpu_ghz_measured) ?
			gsrc : "the nominal clock (CPU_FREQ_NOMINAL)",
		.nominal_ghz = info.cpu_ghz,
		.nominal_source = info.cpu_ghz_source[0] ? info.cpu_ghz_source :
			isfinite(info.cpu_ghz) ? "the set's metadata" : NULL,
		.measured_ghz = info.cpu_ghz_measured,
		.measured_source = info.cpu_ghz_measured_source[0] ?
			info.cpu_ghz_measured_source : NULL,
	};
	/* Before anything is written. */
	rc = dist_ok(run[0], ndd, &o, llc, sizeof(llc));
	if (!rc)
		rc = verdict(run[0], &info, o.force, &in);
	if (!rc && fmt->needs_ghz)
		rc = clock_ok(run[0], &info, &o, &in);
	err[0] = '\0';
	if (!rc) {
		rc = export_whole(fmt, &in, o.out, &t, err, sizeof(err));
		/* Never "mess export: " alone: at least where and what. */
		if (rc && !err[0])
			snprintf(err, sizeof(err), "%.900s: %s", o.out, strerror(-rc));
	}
	if (rc && err[0])
		mess_say("mess export: %s\n", err);
	else if (!rc && t.measured + t.interpolated + t.extrapolated)
		mess_say("mess export: %s (%s) -> %s, format %s: %u read shares measured, %u interpolated, %u extrapolated (see curve-sources.tsv)\n",
			info.path, info.kind_name, o.out, fmt->name, t.measured,
			t.interpolated, t.extrapolated);
	else if (!rc)
		/* Formats that write the curves as they are keep no tally of
		 * shares and no curve-sources.tsv: say what was written. */
		mess_say("mess export: %s (%s) -> %s, format %s: %zu curve%s as measured\n",
			info.path, info.kind_name, o.out, fmt->name, fam.n,
			fam.n == 1 ? "" : "s");
	mess_model_free(m);
	mess_family_free(&fam);
	return rc == -EINVAL || rc == -EEXIST || rc == -EINTR ? rc : rc ? -EIO : 0;
}
