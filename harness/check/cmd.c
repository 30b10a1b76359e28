// SPDX-License-Identifier: MIT
/*
 * `mess check BASELINE [RUN]`: a CI gate.  Whether a run's memory system
 * got worse than a baseline's by more than both runs' own spreads
 * (lib/sets/check.c), answered in one line and an exit status; nothing is
 * measured, nothing written but the --junit file.
 */
#include "check/cmd.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "core/options.h"
#include "mess/json.h"
#include "mess/load.h"
#include "mess/parse.h"

/* The longest --junit file name: mess_tmp_open adds ".tmp" in 128. */
#define JUNIT_NAME_MAX 100

struct check_opts {
	char junit[PATH_MAX];
	double k;
	int verbose;
	int json;
	int help;
};

#define F(field) MESS_OPT_F(struct check_opts, field)
#define S(field) MESS_OPT_S(struct check_opts, field)

static const struct mess_opt opts[] = {
	{ "junit", MESS_OPT_STR, S(junit), 0, 0, "FILE",
	  "also write JUnit XML: one testcase per figure, a failure for each regressed" },
	{ "spreads", MESS_OPT_DOUBLE, F(k), 0, 0.5, 20, "K",
	  "a figure regresses beyond K combined spreads (default 3)" },
	MESS_OPT_FLAG_ROW("verbose", F(verbose),
	  "every figure in the table on stderr (default: those not within)"),
	MESS_OPT_FLAG_ROW("json", F(json),
	  "print the answer as JSON on stdout instead of the line (the line then goes to stderr)"),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_check_usage(FILE *f)
{
	fprintf(f,
		"usage: mess check BASELINE [RUN] [OPTION]...\n"
		"Whether RUN's memory system got worse than BASELINE's: the unloaded latency,\n"
		"and per mix both have the maximum bandwidth and the latency at 25, 50 and\n"
		"75 %% of the smaller of their maxima (read on each curve through the curve\n"
		"model, linear between neighbouring points).  Each figure's spread comes from\n"
		"the files: curves.csv's lat_ns_std and bw_gbs_std (the spread of a point's\n"
		"repeats), meta.json's unloaded_std_ns; a latency between two points gets\n"
		"their spreads interpolated as it is (as if fully correlated: never less than\n"
		"if independent); below a curve's first point, that point's; combined with\n"
		"the curve's shape there (root of the sum of squares): half the range the\n"
		"neighbouring segments, extended, leave beside the straight line (0 at a\n"
		"point; two runs place their points differently).  A figure read from a\n"
		"point its run flags (it still breaks a trust rule: its repeats do not see\n"
		"what moves it as a whole) is not judged.  A figure\n"
		"regressed when it moved the bad way (latency up, bandwidth down) by more than\n"
		"K x sqrt(sd_baseline^2 + sd_run^2), K = 3 unless --spreads says, plus what\n"
		"the two runs drifted: each run's unloaded latency at its end against its\n"
		"start (meta.json quality.unloaded_end_ns), as a fraction of the figure; a figure\n"
		"without a spread in either set is not judged.  BASELINE and RUN are run\n"
		"directories of mess curves (or their curves.csv), or any set mess compare\n"
		"reads that has spreads (a Mess-Results set's latency_std, bandwidth_std);\n"
		"RUN omitted: the newest run directory under results/ (named in the answer).\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nExamples:\n"
		"  ./run.sh --quick && mess check baseline/ --junit mess.xml\n"
		"                                      CI: the newest run against a stored one\n"
		"  mess check results/before-bios results/after-bios --verbose\n"
		"  mess check baseline/ results/node1 --spreads 5 --json\n"
		"\nOutput: one line on stdout, PASS or REGRESSED naming what moved, the worst\n"
		"first; the figures not within their spreads (all with --verbose) on stderr.\n"
		"Nothing is measured or written but the --junit file (results/README.md).\n"
		"Exit status: 0 nothing regressed, 1 a figure regressed (or bad usage, one line\n"
		"on stderr), 2 a set that cannot be trusted or judged (verdict INVALID or\n"
		"pending in its meta.json, an incomplete run, no spreads: a bwlat or PROFET\n"
		"set) or a failure.\n");
}

struct set {
	struct mess_family fam;
	struct mess_set_info info;
	double unloaded_sd;
	double drift;		/* |unloaded at the end - at the start| / start */
};

/* The run directory's meta.json beside the set: its unloaded latency's
 * spread, and how far the host drifted while it ran, the unloaded latency
 * measured again at the end against the start (each NAN when it gives
 * none: a set of another tool). */
static void run_spreads(struct set *s)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	json_error_t e;
	json_t *j;
	double u, end;

	s->unloaded_sd = s->drift = NAN;
	mess_set_dir(&s->info, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	j = mess_json_load(path, 0, &e);
	if (!j)
		return;
	if (json_is_number(json_object_get(j, "unloaded_std_ns")))
		s->unloaded_sd = json_number_value(json_object_get(j, "unloaded_std_ns"));
	u = json_number_value(json_object_get(j, "unloaded_ns"));
	end = json_number_value(json_object_get(json_object_get(j, "quality"),
						"unloaded_end_ns"));
	if (u > 0 && end > 0)
		s->drift = fabs(end - u) / u;
	json_decref(j);
}

/* Read, then refuse a set that cannot be trusted or judged: 0, -EINVAL
 * (unreadable: bad input), -ENODATA (said: exit 2). */
static int load(const char *what, const char *path, struct set *s)
{
	char err[1024] = "";
	int rc = mess_set_load(path, 0, &s->fam, &s->info, err, sizeof(err));
	const char *v = mess_set_verdict(&s->info);

	if (s->info.warning[0])
		mess_say("mess check: warning: %s\n", s->info.warning);
	if (rc) {
		mess_say("mess check: %s: %s\n", what, err[0] ? err : strerror(-rc));
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	if (!strcmp(v, "INVALID") || !strcmp(v, "pending")) {
		mess_say("mess check: %s %s: verdict %s%s%s%s: not trustworthy, not judged; allowed: a complete run judged PASS or WARN\n",
			what, path, v, s->info.verdict_reason[0] ? " (" : "",
			s->info.verdict_reason, s->info.verdict_reason[0] ? ")" : "");
		return -ENODATA;
	}
	if (s->info.complete == 0) {
		mess_say("mess check: %s %s: an incomplete run (meta.json complete false): not judged; allowed: a complete run\n",
			what, path);
		return -ENODATA;
	}
	if (!mess_check_has_spreads(&s->fam)) {
		mess_say("mess check: %s %s: a %s set without spreads (no lat_ns_std): cannot be judged; allowed: a set with them (a run directory of mess curves, a Mess-Results set)\n",
			what, path, s->info.kind_name);
		return -ENODATA;
	}
	run_spreads(s);
	return 0;
}

/* The newest run directory of mess curves under results/ (curves.csv, and
 * meta.json's tool "mess"; by its start_utc, then name) other than the
 * baseline's: 0, or -ENOENT. */
static int newest(const char *base, char *out, size_t len)
{
	char best_t[64] = "", rb[PATH_MAX], rp[PATH_MAX], path[PATH_MAX + 300];
	DIR *d = opendir("results");
	struct dirent *e;
	struct stat st;

	out[0] = 0;
	if (!d)
		return -ENOENT;
	if (!realpath(base, rb))
		rb[0] = 0;
	while ((e = readdir(d))) {
		json_error_t je;
		json_t *j;
		const char *t;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "results/%s/curves.csv", e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		snprintf(path, sizeof(path), "results/%s", e->d_name);
		if (realpath(path, rp) && !strcmp(rp, rb))
			continue;
		snprintf(path, sizeof(path), "results/%s/meta.json", e->d_name);
		j = mess_json_load(path, 0, &je);
		t = json_string_value(json_object_get(j, "start_utc"));
		/* mess curves' own ("mess"), not a fleet's or an import's. */
		if (json_is_string(json_object_get(j, "tool")) &&
		    strcmp(json_string_value(json_object_get(j, "tool")), "mess"))
			t = NULL;
		if (t && (!out[0] || strcmp(t, best_t) > 0 ||
			  (!strcmp(t, best_t) &&
			   strcmp(e->d_name, out + strlen("results/")) > 0))) {
			snprintf(best_t, sizeof(best_t), "%s", t);
			snprintf(out, len, "results/%s", e->d_name);
		}
		json_decref(j);
	}
	closedir(d);
	return out[0] ? 0 : -ENOENT;
}

static int junit_ok(const char *p)
{
	const char *slash = strrchr(p, '/'), *name = slash ? slash + 1 : p;
	char dir[PATH_MAX];
	struct stat st;

	if (!*name || strlen(name) > JUNIT_NAME_MAX || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - p) + 1 : 1,
		 slash ? p : ".");
	return !stat(dir, &st) && S_ISDIR(st.st_mode);
}

int mess_check_main(int argc, char **argv)
{
	static struct set base, run;
	struct check_opts o = { .k = MESS_CHECK_K };
	struct mess_check c = { 0 };
	struct check_run r = { .c = &c };
	char *pos[2], latest[PATH_MAX], line[2048];
	int npos = 0, rc;

	rc = mess_cmd_open("mess check", opts, NOPTS, &o, &o.help,
			   mess_check_usage, argc, argv, pos, 2, &npos);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (npos < 1) {
		mess_say("mess check: no BASELINE given; allowed: BASELINE [RUN], run directories of mess curves\n");
		return -EINVAL;
	}
	if (o.junit[0] && !junit_ok(o.junit)) {
		mess_say("mess check: --junit: '%s' is not allowed; allowed: a file name of 1..%d characters in an existing directory\n",
			o.junit, JUNIT_NAME_MAX);
		return -EINVAL;
	}
	r.base = pos[0];
	r.run = npos > 1 ? pos[1] : NULL;
	if (!r.run) {
		if (newest(pos[0], latest, sizeof(latest))) {
			mess_say("mess check: no RUN given and no run directory of mess curves under results/; allowed: BASELINE RUN, or a run under results/\n");
			return -EINVAL;
		}
		r.run = latest;
		r.run_newest = 1;
	}
	memset(&base, 0, sizeof(base));
	memset(&run, 0, sizeof(run));
	rc = load("BASELINE", r.base, &base);
	if (!rc)
		rc = load("RUN", r.run, &run);
	if (!rc) {
		rc = mess_check_new(&base.fam, base.unloaded_sd, base.drift,
				    &run.fam, run.unloaded_sd, run.drift, o.k, &c);
		if (rc == -EINVAL)
			mess_say("mess check: %s and %s have no mix in common (store %%, else read share within %g %%); allowed: runs of the same mixes\n",
				r.base, r.run, MESS_CHECK_READ_TOL);
		else if (rc)
			mess_say("mess check: %s\n", strerror(-rc));
	}
	if (!rc) {
		check_line(&r, line, sizeof(line));
		check_table(&r, stderr, o.verbose);
		if (o.json) {
			fprintf(stderr, "%s\n", line);
			rc = check_json(&r, stdout);
		} else {
			printf("%s\n", line);
		}
		if (!rc && o.junit[0]) {
			rc = check_junit(&r, o.junit);
			if (rc)
				mess_say("mess check: --junit: cannot write %s: %s\n",
					o.junit, strerror(-rc));
		}
		rc = rc ? -EIO : 0;
	}
	/* The status for a regression is 1, which main gives
	 * -EINVAL. */
	if (!rc && c.count[MESS_CHECK_REGRESSED])
		rc = -EINVAL;
	mess_check_free(&c);
	mess_family_free(&base.fam);
	mess_family_free(&run.fam);
	return rc;
}
