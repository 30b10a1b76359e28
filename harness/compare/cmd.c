// SPDX-License-Identifier: MIT
/*
 * `mess compare A B [C...]`: curve families side by side, whatever layout
 * each was read from (mess_set_load), written by the comparison service
 * (core/compare/compare.h) into a new directory.  Nothing is measured.
 */
#include "compare/cmd.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/compare/compare.h"
#include "core/options.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "mess/load.h"
#include "mess/parse.h"
#include "mess/quality.h"

#define META_SCHEMA 1

struct compare_opts {
	char out[PATH_MAX];
	char app[1024];		/* the last --app; every one is read by apps() */
	char stat[16];		/* the latency compared: mean or a quantile */
	double ghz;
	int no_plots;
	int json;
	int force;
	int help;
};

#define F(field) MESS_OPT_F(struct compare_opts, field)
#define S(field) MESS_OPT_S(struct compare_opts, field)

static const struct mess_opt opts[] = {
	MESS_OPT_OUT(S(out), "DIR", "new, empty, or an earlier comparison (replaced) "
		     MESS_OUT_DEFAULT("compare-")),
	{ "app", MESS_OPT_STR, S(app), 0, 0, "R:BW[,R:BW]",
	  "an application moving BW GB/s at R % reads: which set serves it at lower latency (repeatable)" },
	{ "stat", MESS_OPT_STR, S(stat), 0, 0, "S",
	  "the latency compared: mean (default), p50, p90, p99 or p99.9 (runs with a distribution, curves.csv schema 4)" },
	{ "ghz", MESS_OPT_DOUBLE, F(ghz), 0, 0.1, 20, "GHZ",
	  "CPU frequency turning a PROFET set's cycles into ns (default: the set's info.txt/plotter.txt)" },
	MESS_OPT_NO_PLOTS(F(no_plots)),
	MESS_OPT_JSON(F(json), "compare.json"),
	MESS_OPT_FLAG_ROW("force", F(force),
	  "compare a --stat quantile family with points whose distribution disagrees with their mean (flagged dist_disagrees)"),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_compare_usage(FILE *f)
{
	fprintf(f,
		"usage: mess compare A B [C...] [OPTION]...\n"
		"Curve families side by side: unloaded latency, maximum bandwidth, saturation,\n"
		"and per read share (50..100 %%) the latency at a common bandwidth and the\n"
		"bandwidth where latency doubles; ratios against A; warnings where the sets\n"
		"were measured differently; each set's verdict (PASS, WARN, INVALID from\n"
		"its run's meta.json quality; pending, or none for a set without one),\n"
		"with its first reason when not PASS.  Each set (up to %d) is a run\n"
		"directory of this suite, a Mess bwlat_<R>.txt directory, a Mess-Results\n"
		"directory or its memory_curves.csv, or a PROFET curves.json.\n\n", MESS_CMP_MAX_SETS);
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nExamples:\n"
		"  mess compare $MESS_REFERENCE/MN5-GPP-SPR8480-DDR5 $MESS_REFERENCE/MN5-HBM-XeonMax9480-HBM2\n"
		"                                      DDR5 against HBM2 (public Mess results)\n"
		"  mess compare results/ddr results/hbm --app 70:150 --app 100:400\n"
		"                                      which memory serves these applications faster\n"
		"  mess compare ddr/curves.json hbm/curves.json --ghz 2.0\n"
		"  mess compare results/ddr results/hbm --stat p99   their p99 families\n"
		"                                      PROFET sets, cycles at 2.0 GHz\n"
		"\nFiles: compare.json, compare.md, meta.json, plots/compare.png and\n"
		"plots/compare-ratio.png (see results/README.md).  Warnings and verdicts also\n"
		"go to stderr; the directory is printed on stdout.\n"
		"A --stat quantile family with points whose distribution disagrees with\n"
		"their mean (flagged dist_disagrees) is not compared without --force.\n"
		"Exit status: 0 ok, 1 bad usage, a set that cannot be read or dist_disagrees\n"
		"points without --force, 2 failure.\n");
}

#define APP_ALLOWED "R:BW, R the read share 0..100 % and BW the bandwidth in GB/s > 0 (e.g. 70:150; repeat --app or separate with commas), each once"

/* R:BW with both numbers in the grammar of every option (options.h);
 * their ranges are the library's to check.  Each item its own value:
 * repeats are found on the pairs, below. */
static int app_item(const char *w, void *ctx, double *v)
{
	const char *c = strchr(w, ':');
	char r[MESS_ITEM_MAX + 1];
	double x, y;

	if (!c)
		return -EINVAL;
	snprintf(r, sizeof(r), "%.*s", (int)(c - w), w);
	if (mess_opt_double(r, &x) || mess_opt_double(c + 1, &y))
		return -EINVAL;
	*v = (*(int *)ctx)++;
	return 0;
}

/* Every --app of argv, in order (the table keeps only the last). */
static int apps(int argc, char **argv, double *r, double *bw, size_t *n,
		char *err, size_t errlen)
{
	int id = 0, nv;
	double v[MESS_COMPARE_MAX_APPS];
	const struct mess_items it = { "app", app_item, &id, "is not allowed",
				       APP_ALLOWED };

	*n = 0;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = !strcmp(argv[i], "--app") && i + 1 < argc ? argv[++i] :
				!strncmp(argv[i], "--app=", 6) ? argv[i] + 6 : NULL;

		if (a && (mess_parse_items(&it, a, v, MESS_COMPARE_MAX_APPS, &nv,
					   err, errlen) ||
			  mess_compare_parse_apps(a, r, bw, MESS_COMPARE_MAX_APPS,
						  n, err, errlen)))
			return -EINVAL;
	}
	for (size_t i = 0; i < *n; i++)
		for (size_t j = 0; j < i; j++)
			if (r[i] == r[j] && bw[i] == bw[j])
				return mess_fail(err, errlen, -EINVAL, "--app: '%g:%g' is given twice; allowed: %s",
					r[i], bw[i], APP_ALLOWED);
	return 0;
}

/* What compare writes into --out: a rerun may replace these, nothing else. */
static const char *const own_files[] = {
	MESS_COMPARE_JSON, "compare.md", "meta.json", MESS_RESUME_FILE, ".lock", "plots",
	"report.html",
};

static int own_name(const char *name, int in_plots)
{
	/* A file compare was writing when it was killed (name.tmp, which
	 * mess_tmp_commit renames) is its own leftover, not a user's. */
	size_t len = strlen(name);
	size_t n = len > 4 && !strcmp(name + len - 4, ".tmp") ? len - 4 : len;

	if (in_plots)
		return !strncmp(name, "compare", 7) || !strcmp(name, "gnuplot.log");
	for (size_t i = 0; i < sizeof(own_files) / sizeof(own_files[0]); i++)
		if (strlen(own_files[i]) == n && !strncmp(name, own_files[i], n))
			return 1;
	return 0;
}

/*
 * --out may be new, empty, or hold only an earlier comparison (its
 * resume.json or meta.json says "mess compare"), which a rerun replaces: the user asked
 * for this directory again.  Anything else (a run's meta.json, a file of
 * theirs) is refused: 1 and the first foreign entry into bad.
 */
static int used(const char *dir, char *bad, size_t badlen)
{
	char path[PATH_MAX + 32], tool[64] = "";
	DIR *d = dir[0] ? opendir(dir) : NULL;
	struct dirent *e;
	int any = 0, foreign = 0;

	if (!d)
		return dir[0] && errno != ENOENT;
	while (!foreign && (e = readdir(d))) {
		/* The lock and what a writer keeps beside it are anyone's
		 * who writes here, no comparison. */
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    mess_rundir_aside_name(e->d_name))
			continue;
		any = 1;
		foreign = !own_name(e->d_name, 0);
		if (foreign)
			snprintf(bad, badlen, "%s", e->d_name);
	}
	closedir(d);
	snprintf(path, sizeof(path), "%s/plots", dir);
	d = foreign ? NULL : opendir(path);
	while (d && !foreign && (e = readdir(d))) {
		foreign = e->d_name[0] != '.' && !own_name(e->d_name, 1);
		if (foreign)
			snprintf(bad, badlen, "plots/%s", e->d_name);
	}
	if (d)
		closedir(d);
	/* resume.json, else meta.json: a comparison killed before its
	 * meta.json is still one. */
	if (any && !foreign && !mess_rundir_tool(dir, tool, sizeof(tool)))
		tool[0] = 0;
	if (any && !foreign && strcmp(tool, "mess compare")) {
		snprintf(bad, badlen, "meta.json");
		foreign = 1;
	}
	return foreign;
}

static int usable(const struct mess_family *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (mess_curve_usable(&f->curves[i]))
			return 1;
	return 0;
}

struct loaded {
	struct mess_family fam[MESS_CMP_MAX_SETS];
	struct mess_set_info info[MESS_CMP_MAX_SETS];
	char label[MESS_CMP_MAX_SETS][160];
	struct mess_compare_set set[MESS_CMP_MAX_SETS];
	size_t n;
};

static int load(struct loaded *l, char **pos, int npos, double ghz,
		const char *stat, int force)
{
	const char *what = mess_qrules[MESS_QR_DIST_DISAGREES].what;
	char err[1024];

	for (int i = 0; i < npos; i++) {
		int rc = mess_set_load(pos[i], ghz, &l->fam[i], &l->info[i], err,
				       sizeof(err));

		l->n = (size_t)i + 1;
		if (l->info[i].warning[0])
			mess_say("mess compare: warning: %s\n", l->info[i].warning);
		if (rc) {
			mess_say("mess compare: %s\n", err[0] ? err : strerror(-rc));
			return rc == -ENOMEM ? rc : -EINVAL;
		}
		/* Judged on the mean, which a quantile family no longer has:
		 * tails that disagree with it are refused, as export does. */
		size_t ndd = mess_family_dist_flag(&l->fam[i]);

		/* Tails compared: every point at that quantile, against
		 * the unloaded latency at the same quantile. */
		if (mess_set_at_stat(&l->fam[i], &l->info[i], stat)) {
			mess_say("mess compare: %s: --stat %s: no point has that figure; allowed: a run with a latency distribution (curves.csv schema 4)\n",
				l->info[i].path, stat);
			return -EINVAL;
		}
		if (ndd && strcmp(stat, "mean")) {
			mess_say("mess compare: %s%s: --stat %s: %zu point%s flagged dist_disagrees (%s); %s\n",
				force ? "warning: " : "", l->info[i].path, stat,
				ndd, ndd == 1 ? "" : "s", what, force ?
				"compared because of --force" :
				"not compared: --force compares it anyway");
			if (!force)
				return -EINVAL;
		}
		/* Refused here, before anything is written. */
		if (!usable(&l->fam[i])) {
			mess_say("mess compare: %s: no curve with a usable point; allowed: a set with measured points\n",
				l->info[i].path);
			return -EINVAL;
		}
		/* Two sets from directories of one name stay apart. */
		snprintf(l->label[i], sizeof(l->label[i]), "%.140s%s%s",
			 l->info[i].label[0] ? l->info[i].label : pos[i],
			 strcmp(stat, "mean") ? " " : "", strcmp(stat, "mean") ? stat : "");
		for (int j = 0; j < i; j++)
			if (!strcmp(l->label[j], l->label[i])) {
				char base[128];

				/* The label as made above, statistic and
				 * all ("A p90 #2"), through a copy: snprintf
				 * may not read what it writes. */
				snprintf(base, sizeof(base), "%s", l->label[i]);
				snprintf(l->label[i], sizeof(l->label[i]), "%.120s #%d",
					 base, i + 1);
				break;
			}
		l->set[i] = (struct mess_compare_set){ &l->fam[i], &l->info[i],
						      l->label[i] };
	}
	return 0;
}

static json_t *meta(const struct mess_rundir *rd, const struct loaded *l,
		    char **pos, const struct compare_opts *o, const double *r,
		    const double *bw, size_t napps, const char *plots)
{
	static const struct mess_topo none;
	json_t *m = mess_rundir_meta(rd, &none, META_SCHEMA);
	json_t *sets = json_array(), *a = json_array();
	const struct mess_set_info *info[MESS_CMP_MAX_SETS];
	const char *lab[MESS_CMP_MAX_SETS];

	/* The identity is the build's; the CPU is each set's, below. */
	json_object_del(m, "cpu_model");
	/* How each set was measured, as its files say it (null: they do
	 * not), so that the comparison's page need not read the sets. */
	for (size_t i = 0; i < l->n; i++) {
		const struct mess_set_info *in = &l->info[i];
		char date[64];

		mess_compare_set_meta(in, "start_utc", "not stated by the set",
				      date, sizeof(date));
		json_array_append_new(sets, mess_json_pack(
			"{s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:s,"
			" s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"label", l->label[i], "argument", pos[i],
			"path", in->path, "kind", in->kind_name,
			"cpu_model", in->cpu_model, "tool", in->tool,
			"latency_from_cycles", in->latency_from_cycles == 1,
			"verdict", mess_set_verdict(in),
			"start_utc", strcmp(date, "not stated by the set") ?
				json_string(date) : json_null(),
			"bw_source", in->bw_source[0] ? json_string(in->bw_source) : json_null(),
			"huge_pages", in->huge_pages[0] ? json_string(in->huge_pages) : json_null(),
			"memory", in->memory[0] ? json_string(in->memory) : json_null(),
			"generator_cores", in->cores >= 0 ? json_integer(in->cores) : json_null(),
			"stride_bytes", mess_json_real(in->stride_bytes > 0 ? in->stride_bytes : NAN, 0),
			"window_bytes", mess_json_real(in->window_bytes > 0 ? in->window_bytes : NAN, 0)));
	}
	for (size_t i = 0; i < napps; i++)
		json_array_append_new(a, mess_json_pack("{s:f, s:f}", "read_pct", r[i],
						       "bw_gbs", bw[i]));
	for (size_t i = 0; i < l->n; i++) {
		info[i] = &l->info[i];
		lab[i] = l->label[i];
	}
	if (m && mess_json_merge(m, mess_json_pack("{s:s, s:o, s:s, s:o, s:o, s:o, s:s, s:s}",
		"measured", "nothing: every figure is read from the sets' files through the curve model",
		"inherited_verdict", mess_compare_inherited(info, lab, l->n),
		"latency_stat", o->stat,
		"sets", sets, "ghz", o->ghz > 0 ? json_real(o->ghz) : json_null(),
		"apps", a, "plots", plots,
		"files", "compare.json, compare.md, plots/compare.*, plots/compare-ratio.* (results/README.md)"))) {
		json_decref(m);
		return NULL;
	}
	return m;
}

int mess_compare_main(int argc, char **argv)
{
	static struct loaded l;
	struct compare_opts o = { .stat = "mean" };
	struct mess_rundir rd = { 0 };
	char err[512] = "", plots[600] = "skipped: --no-plots", *pos[MESS_CMP_MAX_SETS];
	char bad[NAME_MAX + 8] = "";
	double r[MESS_COMPARE_MAX_APPS], bw[MESS_COMPARE_MAX_APPS];
	size_t napps = 0;
	int npos = 0, rc;

	rc = mess_cmd_open("mess compare", opts, NOPTS, &o, &o.help,
			   mess_compare_usage, argc, argv, pos, MESS_CMP_MAX_SETS, &npos);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (apps(argc, argv, r, bw, &napps, err, sizeof(err))) {
		mess_say("mess compare: %s\n", err);
		return -EINVAL;
	}
	/* The name checked on the (empty) first family: bad usage is said
	 * before any set is read. */
	if (mess_family_at_stat(&l.fam[0], o.stat) == -EINVAL) {
		mess_say("mess compare: --stat: '%s' is not allowed; allowed: %s\n",
			o.stat, mess_lat_stats);
		return -EINVAL;
	}
	if (npos < 2) {
		mess_say("mess compare: %d set%s given; allowed: 2 to %d sets (run directories, bwlat directories, Mess-Results directories or memory_curves.csv, PROFET json)\n",
			npos, npos == 1 ? "" : "s", MESS_CMP_MAX_SETS);
		return -EINVAL;
	}
	if (o.out[0] && mess_out_check("out", o.out, err, sizeof(err))) {
		mess_say("mess compare: %s\n", err);
		return -EINVAL;
	}
	/* Judged again under the lock below; a directory another compare
	 * is writing is said as such there, not by its files half-written. */
	if (used(o.out, bad, sizeof(bad)) && !mess_rundir_busy(o.out)) {
		mess_say("mess compare: --out: %s holds %s, not only an earlier comparison; allowed: a new or empty directory, or one an earlier mess compare wrote (replaced)\n",
			o.out, bad[0] ? bad : "what cannot be read");
		return -EEXIST;
	}
	memset(&l, 0, sizeof(l));
	rc = load(&l, pos, npos, o.ghz, o.stat, o.force);
	if (!rc) {
		/* Only once the sets are read (bad input leaves the old one)
		 * and the directory is ours: an earlier comparison there is
		 * replaced, anything else refused, checked again under the
		 * lock. */
		/* resume.json, the first file a comparison writes, marks
		 * one: an interrupted or killed comparison (no compare.json
		 * yet) is replaced as a finished one is. */
		rc = mess_rundir_claim(&rd, "mess compare", "compare", o.out,
				       NULL, MESS_RESUME_FILE);
		if (rc == -EEXIST && rd.holds_run)
			rc = 0;
		if (!rc && used(rd.dir, bad, sizeof(bad))) {
			snprintf(rd.why, sizeof(rd.why), "mess compare: --out: %s holds %s, not only an earlier comparison; allowed: a new or empty directory, or one an earlier mess compare wrote (replaced)",
				 rd.dir, bad[0] ? bad : "what cannot be read");
			rc = -EEXIST;
		}
		/* Its files go, so that the new one is whole and nothing
		 * stale (plots of a run with plots under one with --no-plots)
		 * is left beside it. */
		if (!rc) {
			mess_rundir_clear(&rd);
			rc = mess_rundir_start(&rd, argc, argv);
		}
		/* Ctrl-C or SIGTERM from here: said in one line, exit 130,
		 * and what is left the rerun replaces (own_name). */
		if (!rc)
			mess_signals_install();
		if (o.json)
			rd.stdout_file = MESS_COMPARE_JSON;
		if (rc == -EEXIST || (rc && rd.why[0]))
			rc = mess_rundir_refused(&rd, rc);
		else if (rc)
			mess_say("mess compare: cannot set up %s: %s\n", rd.dir,
				strerror(-rc));
		if (rc)
			mess_rundir_close(&rd);
	}
	if (!rc) {
		struct mess_compare_opts co = {
			.cmd = "mess compare", .app_read_pct = r, .app_bw_gbs = bw,
			.napps = napps, .no_plots = o.no_plots, .plots_note = plots,
			.plots_note_len = sizeof(plots),
		};
		int frc;

		rc = mess_compare_write(rd.dir, l.set, l.n, &co);
		mess_rundir_stop_clock(&rd);
		frc = mess_rundir_write_meta(&rd, meta(&rd, &l, pos, &o, r, bw, napps,
						       plots), !rc);
		rc = mess_rundir_end(&rd, rc, frc);
		mess_rundir_close(&rd);
		/* A set with nothing to compare is bad input, said above. */
		rc = rc == -EINVAL || rc == -EINTR ? rc : rc ? -EIO : 0;
	}
	for (size_t i = 0; i < l.n; i++)
		mess_family_free(&l.fam[i]);
	return rc;
}
