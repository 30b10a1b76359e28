// SPDX-License-Identifier: MIT
/*
 * `mess report DIR...`: report.html made again for a run, or made for a
 * public curve set (with its curve figure), with a theoretical peak given
 * now (--peak-gbs) applied to the figures and the key figures.
 */
#include "report/cmd.h"
#include "report/summary.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/report/html.h"
#include "core/options.h"
#include "core/rundir/outdir.h"
#include "core/report/plot.h"
#include "core/rundir/rundir.h"
#include "core/util.h"
#include "mess/json.h"
#include "mess/load.h"
#include "mess/metrics.h"
#include "mess/parse.h"

#define MAX_DIRS 32

struct report_opts {
	char out[PATH_MAX];
	double peak_gbs;
	int no_plots;
	int help;
};

#define F(field) MESS_OPT_F(struct report_opts, field)
#define S(field) MESS_OPT_S(struct report_opts, field)

static const struct mess_opt opts[] = {
	MESS_OPT_OUT(S(out), "DIR",
	  "where report.html goes (one DIR; several: one folder each inside it); default the run directory, results/report-<set> for a set that is no run of mess"),
	{ "peak-gbs", MESS_OPT_DOUBLE, F(peak_gbs), 0, MESS_PEAK_GBS_MIN,
	  MESS_PEAK_GBS_MAX, "GB/S",
	  "theoretical peak bandwidth: key figures as % of it (in a run's own summary.md and summary.json too), and the curve figure drawn again with its line" },
	MESS_OPT_FLAG_ROW("no-plots", F(no_plots),
	  "draw no figure again (the page shows those already in plots/)"),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_report_usage(FILE *f)
{
	fprintf(f,
		"usage: mess report DIR... [--out DIR] [--peak-gbs GB/S] [--no-plots]\n"
		"Write report.html, one self-contained page (no network, no script): the\n"
		"verdict and its reasons, the key figures, every figure, the absorption\n"
		"heat map, the counters and how it was measured.  DIR is a run directory of\n"
		"mess (curves, absorb, ladder, ...) or a curve set another tool wrote (a\n"
		"Mess-Results directory, bwlat_*.txt, PROFET), whose curve figure is drawn.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nExamples:\n"
		"  mess report results/node1 --peak-gbs 307.2\n"
		"  mess report ../shared/reference/mess-results/MN5-HBM-XeonMax9480-HBM2 --out hbm\n"
		"Exit status: 0 ok, 1 bad usage or nothing readable in a DIR, 2 failure.\n");
}

static const char *base_name(const char *dir)
{
	size_t n = strlen(dir);
	const char *b;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (b = dir + n; b > dir && b[-1] != '/'; b--)
		;
	return b;
}

/* The curve figure's two title lines, from meta.json or system.md. */
static void plot_title(const char *dir, const json_t *meta,
		       const struct mess_set_info *info, char *buf, size_t len)
{
	const char *s, *v;
	char cpu[128] = "", mem[64] = "";

	if (meta) {
		const json_t *cores = json_object_get(meta, "cores");
		const json_t *gen = json_object_get(meta, "generator");

		s = json_string_value(json_object_get(meta, "start_utc"));
		v = json_string_value(json_object_get(json_object_get(meta, "quality"),
						      "verdict"));
		/* The verdict first, as the run drew it (summary.c). */
		snprintf(buf, len, "%s: %s on %s, memory node %lld\n%.10s, %zu of %lld cores generating, %s, bandwidth %s",
			 v ? v : "no verdict",
			 info->cpu_model[0] ? info->cpu_model : "unknown CPU",
			 json_string_value(json_object_get(meta, "host")) ?
			 json_string_value(json_object_get(meta, "host")) : "unknown host",
			 (long long)json_integer_value(json_object_get(meta, "memory_node")),
			 s ? s : "unknown date",
			 json_array_size(json_object_get(cores, "generators")),
			 (long long)json_integer_value(json_object_get(cores, "machine_cores")),
			 json_string_value(json_object_get(gen, "variant")) ?
			 json_string_value(json_object_get(gen, "variant")) : "unknown variant",
			 info->bw_source[0] ? info->bw_source : "unknown");
		return;
	}
	mess_system_md_field(dir, "Model", cpu, sizeof(cpu));
	mess_system_md_field(dir, "Type", mem, sizeof(mem));
	/* Not a run of mess: no verdict of ours, and no host to name. */
	snprintf(buf, len, "%s: %s%s%s\npublished set (%s; no verdict: not measured by mess), bandwidth %s",
		 info->label[0] ? info->label : base_name(dir),
		 cpu[0] ? cpu : "CPU unknown", mem[0] ? ", " : "", mem,
		 info->kind_name, info->bw_source[0] ? info->bw_source : "unknown");
}

/* The mixes meta.json's quality.mixes judged invalid as a whole, drawn
 * grey as the run drew them. */
static void invalid_mixes(const json_t *meta, unsigned char *invalid)
{
	const json_t *mixes = json_object_get(json_object_get(meta, "quality"),
					      "mixes");
	const json_t *m;
	size_t i;

	json_array_foreach(mixes, i, m) {
		json_int_t st = json_integer_value(json_object_get(m, "store_pct"));
		const char *status = json_string_value(json_object_get(m, "status"));

		if (st >= 0 && st < MESS_PLOT_MIXES && status &&
		    !strcmp(status, "invalid"))
			invalid[st] = 1;
	}
}

/* plots/curves.* in outdir, drawn again with the peak.  A missing gnuplot
 * is said, not fatal: why (the page's sentence) says why there is no
 * figure when one was asked for. */
static void replot(const char *dir, const char *outdir, const json_t *meta,
		   double peak, int say, char *why, size_t whylen, char *late,
		   size_t latelen)
{
	struct mess_set_info *info = calloc(1, sizeof(*info));
	struct mess_family fam = { 0 };
	unsigned char invalid[MESS_PLOT_MIXES] = { 0 };
	char err[512], title[600];
	double unloaded;

	if (!info || mess_set_load(dir, 0, &fam, info, err, sizeof(err))) {
		/* Asked for (a peak, a set's figure) and not drawn: said; a
		 * run without curves (absorb, ladder) copied has none. */
		if (say) {
			mess_say("mess report: %s: the curve figure was not drawn: %s\n",
			dir, info ? err : "out of memory");
			snprintf(why, whylen, "the curve figure was not drawn: %s",
				 info ? err : "out of memory");
		}
	} else {
		unloaded = info->unloaded_ns > 0 ? info->unloaded_ns :
			   mess_unloaded_from_curves(&fam);
		plot_title(dir, meta, info, title, sizeof(title));
		invalid_mixes(meta, invalid);
		/* An import numbers its curves 100 - share as store %, no mix
		 * anyone asked for: they are named by their read share. */
		if (!strcmp(json_string_value(json_object_get(meta, "tool")) ?
			    json_string_value(json_object_get(meta, "tool")) : "",
			    "mess import"))
			for (size_t i = 0; i < fam.n; i++)
				fam.curves[i].store_pct = MESS_STORE_PCT_UNKNOWN;
		int rc = mess_plot(outdir, &fam, unloaded, peak, title, invalid,
				   err, sizeof(err));

		/* A full disk fails the page next: one line says it, the
		 * page's (report_one), unless the page still fits. */
		if (rc == -ENOSPC)
			snprintf(late, latelen, "mess report: %s: the curve figure was not drawn: %s",
				 dir, err);
		else if (rc)
			mess_say("mess report: %s: the curve figure was not drawn: %s\n",
				dir, err);
		if (rc) {
			snprintf(why, whylen, "mess report did not draw the curve figure: %s",
				 err);
		}
	}
	mess_family_free(&fam);
	free(info);
}

/* Whether outdir/plots holds a figure the page shows (an SVG). */
static int has_figure(const char *outdir)
{
	char path[PATH_MAX + 16];
	struct dirent *e;
	DIR *d;
	int any = 0;

	snprintf(path, sizeof(path), "%s/plots", outdir);
	d = opendir(path);
	while (d && !any && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		any = e->d_name[0] != '.' && n > 4 && !strcmp(e->d_name + n - 4, ".svg");
	}
	if (d)
		closedir(d);
	return any;
}

/*
 * What sits directly inside dir that report could draw: runs of mess
 * (their meta.json) and curve sets, counted and the first few named, so
 * that the parent of several sets is told to name one, not "no curve
 * set here".  *entries: what dir holds at all (0: empty).
 */
static int sets_inside(const char *dir, char *names, size_t len, int *entries)
{
	struct dirent **list = NULL;
	struct mess_set_info *info = calloc(1, sizeof(*info));
	int n = scandir(dir, &list, NULL, alphasort), sets = 0;
	size_t used = 0;

	names[0] = '\0';
	*entries = 0;
	for (int i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		char sub[PATH_MAX], err[256];
		struct mess_family fam = { 0 };
		struct stat st;
		int is_set;

		if (!strcmp(name, ".") || !strcmp(name, "..")) {
			free(list[i]);
			continue;
		}
		(*entries)++;
		is_set = name[0] != '.' && info &&
			 snprintf(sub, sizeof(sub), "%s/%s", dir, name) < (int)sizeof(sub) &&
			 !stat(sub, &st) && S_ISDIR(st.st_mode);
		if (is_set) {
			char meta[PATH_MAX + 16];

			snprintf(meta, sizeof(meta), "%s/meta.json", sub);
			is_set = !access(meta, F_OK) ||
				 !mess_set_load(sub, 0, &fam, info, err, sizeof(err));
			mess_family_free(&fam);
		}
		if (is_set && sets++ < 3 && used < len)
			used += (size_t)snprintf(names + used, len - used, "%s%s",
						 sets > 1 ? ", " : "", name);
		free(list[i]);
	}
	if (sets > 3 && used < len)
		snprintf(names + used, len - used, ", ...");
	free(list);
	free(info);
	return sets;
}

/*
 * Whether dir holds something report can draw: a run directory of mess
 * (its meta.json) or a curve set the loaders read.  Else -EINVAL, said:
 * an empty directory, /etc or a damaged set is bad input, not a page.
 */
static int readable(const char *dir, const json_t *meta)
{
	struct mess_set_info *info;
	struct mess_family fam = { 0 };
	char err[600] = "";
	int rc;

	if (meta)
		return 0;
	info = calloc(1, sizeof(*info));
	if (!info)
		return -ENOMEM;
	rc = mess_set_load(dir, 0, &fam, info, err, sizeof(err));
	mess_family_free(&fam);
	free(info);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		char names[160], inv[PATH_MAX + 32];
		int entries, sets = sets_inside(dir, names, sizeof(names), &entries);

		/* What was found, said as it is: an empty directory, the
		 * parent of sets, or neither. */
		if (sets > 1)
			mess_say("mess report: %s holds %d sets, not one: name one of them (%s)\n",
				dir, sets, names);
		else if (sets == 1)
			mess_say("mess report: %s holds one set in %s, not one of its own: name it: %s %s/%s\n",
				dir, names, mess_invocation("mess report", inv, sizeof(inv)),
				dir, names);
		else if (!entries)
			mess_say("mess report: %s is empty; allowed: a run directory of mess or a curve set\n",
				dir);
		else
			mess_say("mess report: %s: nothing readable: %s; allowed: a run directory of mess or a curve set\n",
				dir, err[0] ? err : strerror(-rc));
		return -EINVAL;
	}
	return 0;
}

/* The same directory, however named (a trailing slash, a link, ..). */
static int same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * outdir's name for dir: --out itself for one DIR, a folder named after
 * each inside it for several, told apart by -2, -3 when two DIRs share a
 * name (a/set b/set), so that no page replaces another of this command.
 */
static int out_name(const char *dir, const char *out, int several,
		    const json_t *meta, char *outdir, size_t len,
		    char taken[][NAME_MAX + 1], int *ntaken)
{
	char base[NAME_MAX - 16], name[NAME_MAX + 1];
	int ret;

	/* base_name keeps a trailing slash ("set/"): cut at it. */
	snprintf(base, sizeof(base), "%.*s", (int)strcspn(base_name(dir), "/"),
		 base_name(dir));
	snprintf(name, sizeof(name), "%s", base);
	if (several && out[0]) {
		int k = 1;

		for (int i = 0; i < *ntaken; i++)
			if (!strcmp(taken[i], name)) {
				snprintf(name, sizeof(name), "%s-%d", base, ++k);
				i = -1;
			}
		if (*ntaken < MAX_DIRS)
			snprintf(taken[(*ntaken)++], NAME_MAX + 1, "%s", name);
		ret = snprintf(outdir, len, "%s/%s", out, name);
	} else if (out[0]) {
		ret = snprintf(outdir, len, "%s", out);
	} else if (meta) {
		ret = snprintf(outdir, len, "%s", dir);
	} else {
		ret = snprintf(outdir, len, "results/report-%s", name);
	}
	return ret < 0 || (size_t)ret >= len ? -ENAMETOOLONG : 0;
}

/*
 * A page written elsewhere than its run goes into a new or empty
 * directory or one an earlier report wrote (report.html and plots/),
 * which it replaces: never into another run or set, whose own page and
 * figures would be overwritten.  1 and what it holds into what.
 */
static int foreign(const char *outdir, char *what, size_t len)
{
	struct dirent *e;
	DIR *d = opendir(outdir);
	char tool[64];
	int bad = 0;

	if (mess_rundir_tool(outdir, tool, sizeof(tool))) {
		snprintf(what, len, "a run of '%s'", tool);
		if (d)
			closedir(d);
		return 1;
	}
	while (d && !bad && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, "report.html") && strcmp(e->d_name, "plots") &&
		    !mess_rundir_aside_name(e->d_name)) {
			char q[48];

			snprintf(what, len, "%s", mess_quote(q, sizeof(q), e->d_name));
			bad = 1;
		}
	if (d)
		closedir(d);
	return bad;
}

static int report_one(const char *dir, const char *out, int several,
		      const struct report_opts *o, char taken[][NAME_MAX + 1],
		      int *ntaken)
{
	char outdir[PATH_MAX], path[PATH_MAX + 32], err[600], tool[96];
	char why[700], late[1400] = "";
	struct mess_rundir rd = { 0 };
	struct stat st;
	json_t *meta;
	double peak = o->peak_gbs;
	int ret, same;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		mess_say("mess report: '%s' is not a directory; allowed: a run directory or a curve set's directory\n",
			dir);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	meta = mess_json_load_in(path, MESS_IN_NOFOLLOW, 0, NULL);
	ret = readable(dir, meta);
	if (!ret && out_name(dir, out, several, meta, outdir, sizeof(outdir),
			     taken, ntaken)) {
		mess_say("mess report: --out: the path is too long\n");
		ret = -EINVAL;
	}
	/* The page and figures are written only into a directory this
	 * process holds (the writer contract): never beside a run still
	 * writing it, never over another run's own page. */
	if (!ret)
		ret = mess_rundir_lock(&rd, "mess report",
				       out[0] ? "--out" : "DIR", outdir);
	same = !ret && same_dir(outdir, dir);
	if (!ret && !same && foreign(outdir, tool, sizeof(tool))) {
		snprintf(rd.why, sizeof(rd.why), "mess report: --out: %s holds %s, not %s; allowed: a new or empty directory, one an earlier mess report wrote, or the run's own directory",
			 outdir, tool, dir);
		mess_rundir_unclaim(&rd);
		ret = -EEXIST;
	}
	if (ret) {
		if (rd.why[0])
			mess_say("%s\n", rd.why);
		json_decref(meta);
		mess_rundir_close(&rd);
		return ret == -ENOMEM || ret == -EINVAL || ret == -EEXIST ?
		       ret : -EIO;
	}
	/* A set's plotter.txt, or an import's meta.json mess_plotter (a run
	 * of mess has neither: its peak is --peak-gbs's, in its summary). */
	if (!(peak > 0))
		peak = mess_plotter_peak_gbs(dir, NULL, 0);
	/* A run's own figures stand unless the peak changes them; a set
	 * of another tool, a copy elsewhere, or a run that drew none (an
	 * import) gets its curve figure. */
	why[0] = '\0';
	if (!o->no_plots && (!meta || !same || o->peak_gbs > 0 ||
			     !has_figure(outdir)))
		replot(dir, outdir, meta, peak > 0 ? peak : 0,
		       o->peak_gbs > 0 || !meta, why, sizeof(why), late,
		       sizeof(late));
	else if (o->no_plots && !meta)
		snprintf(why, sizeof(why), "mess report was given --no-plots");
	/* The peak given to the run's own directory: its summary too. */
	if (o->peak_gbs > 0 && meta && same && mess_report_peak_summary(dir, meta, o->peak_gbs)) {
		json_decref(meta);
		mess_rundir_close(&rd);
		return -EIO;
	}
	json_decref(meta);
	ret = mess_html_report_why(dir, outdir, o->peak_gbs, why[0] ? why : NULL,
				   err, sizeof(err));
	mess_rundir_close(&rd);
	if (ret) {
		mess_say("mess report: %s\n", err);
		return ret;
	}
	if (late[0])
		mess_say("%s", late);
	printf("%s/report.html\n", outdir);
	return 0;
}

int mess_report_main(int argc, char **argv)
{
	struct report_opts o = { 0 };
	static char taken[MAX_DIRS][NAME_MAX + 1];
	char err[PATH_MAX + 256], *dirs[MAX_DIRS];
	int ndirs = 0, ret, ntaken = 0;

	ret = mess_cmd_open("mess report", opts, NOPTS, &o, &o.help,
			    mess_report_usage, argc, argv, dirs, MAX_DIRS, &ndirs);
	if (ret)
		return ret > 0 ? 0 : ret;
	if (!ndirs) {
		mess_say("mess report: no DIR given; allowed: one or more run directories or curve sets (mess report --help)\n");
		return -EINVAL;
	}
	/* A --out that can never hold a page is bad input, as for every
	 * command (exit 1), said before anything is read. */
	if (o.out[0] && mess_out_check("out", o.out, err, sizeof(err))) {
		mess_say("mess report: %s\n", err);
		return -EINVAL;
	}
	for (int i = 0; i < ndirs; i++) {
		ret = report_one(dirs[i], o.out, ndirs > 1, &o, taken, &ntaken);
		if (ret)
			return ret;
	}
	return 0;
}
