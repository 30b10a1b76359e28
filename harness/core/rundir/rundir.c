// SPDX-License-Identifier: MIT
#include "core/rundir/rundir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/buildinfo.h"
#include "core/clock.h"
#include "core/report/html.h"
#include "core/isa.h"
#include "core/util.h"
#include "mess/parse.h"

#define STATE_SCHEMA 1

static json_t *load_state(const char *dir)
{
	char path[PATH_MAX + 32];
	json_error_t e;

	snprintf(path, sizeof(path), "%s/%s", dir, MESS_RESUME_FILE);
	return mess_json_load(path, 0, &e);
}

int mess_rundir_save(struct mess_rundir *d)
{
	return mess_json_write(d->dir, MESS_RESUME_FILE, json_incref(d->state));
}

/* --force given beside --resume (mess_resume_args), for the open that
 * follows in the same process. */
static int resume_force;

/* "mess 0.1.0 (git abc)": the build that measures, as the state records it. */
static void build_name(char *buf, size_t len)
{
	snprintf(buf, len, "mess %s (git %s)", mess_version, mess_git_rev);
}

/* The state of a run this session starts: its options and build, nothing
 * done. */
static json_t *new_state(const char *cmd, int argc, char **argv)
{
	json_t *args = json_array();
	char build[160];

	build_name(build, sizeof(build));
	for (int i = 1; i < argc; i++)
		json_array_append_new(args, json_string(argv[i]));
	return mess_json_pack("{s:i, s:s, s:s, s:[s], s:o, s:[]}", "schema",
			      STATE_SCHEMA, "tool", cmd, "build", build,
			      "builds", build, "args", args, "resumed");
}

int mess_rundir_complete(const char *dir)
{
	char path[PATH_MAX + 32];
	json_t *m;
	int c;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	m = mess_json_load(path, 0, NULL);
	c = json_is_true(json_object_get(m, "complete"));
	json_decref(m);
	return c;
}

/*
 * A run continues with the build that started it: two builds' points in one
 * family would be compared as one measurement.  --force accepts another
 * build, and the state (then meta.json) lists every build that measured.
 */
static int check_build(struct mess_rundir *d)
{
	const char *was = json_string_value(json_object_get(d->state, "build"));
	json_t *builds = json_object_get(d->state, "builds");
	char build[160];

	build_name(build, sizeof(build));
	if (was && !strcmp(was, build))
		return 0;
	if (!resume_force) {
		fprintf(stderr, "%s: --resume: %s was measured by %s, this is %s: one run's points come from one build; allowed: the same build, or --resume DIR --force (meta.json then names both)\n",
			d->cmd, d->dir, was ? was : "an unrecorded build", build);
		return -EPROTO;
	}
	fprintf(stderr, "%s: --resume --force: continuing a run of %s with %s (meta.json names both)\n",
		d->cmd, was ? was : "an unrecorded build", build);
	if (!json_is_array(builds)) {
		builds = json_array();
		json_object_set_new(d->state, "builds", builds);
		if (was)
			json_array_append_new(builds, json_string(was));
	}
	json_array_append_new(builds, json_string(build));
	json_object_set_new(d->state, "build", json_string(build));
	return 0;
}

/* The commands whose runs continue with --resume: the others' messages
 * never suggest it. */
static const char *const resumable[] = { "mess", "mess absorb", "mess sample" };

static int resumes(const char *cmd)
{
	for (size_t i = 0; i < sizeof(resumable) / sizeof(resumable[0]); i++)
		if (!strcmp(resumable[i], cmd))
			return 1;
	return 0;
}

int mess_rundir_claim(struct mess_rundir *d, const char *cmd,
		      const char *kind, const char *out, const char *resume,
		      const char *marker)
{
	char host[256] = "host", utc[32], path[PATH_MAX + 64], other[64];
	const char *tool;
	struct stat st;
	int err;

	memset(d, 0, sizeof(*d));
	d->cmd = cmd;
	mess_write_failed_clear();
	mess_host_path_name(host, sizeof(host));
	mess_utc_now(d->start_utc, sizeof(d->start_utc), 0);
	if (resume && resume[0]) {
		snprintf(d->dir, sizeof(d->dir), "%s", resume);
	} else if (out && out[0]) {
		snprintf(d->dir, sizeof(d->dir), "%s", out);
	} else {
		mess_utc_now(utc, sizeof(utc), 1);
		snprintf(d->dir, sizeof(d->dir), "results/%s%s%s-%s", host,
			 kind[0] ? "-" : "", kind, utc);
	}
	if (resume && resume[0]) {
		/* No run: nothing to lock, nothing left behind. */
		snprintf(path, sizeof(path), "%s/%s", d->dir, MESS_RESUME_FILE);
		if (access(path, F_OK))
			return -EINVAL;
		err = mess_rundir_lock(d, cmd, "--resume", d->dir);
		if (err)
			return err;
		/* The points file is the run's own: never appended through a
		 * link out of the directory, never a directory. */
		snprintf(path, sizeof(path), "%s/%s", d->dir, marker);
		if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
			snprintf(d->why, sizeof(d->why), "%s: --resume: %s is %s, not a file; allowed: a run directory written by mess (nothing was changed)",
				 cmd, path, S_ISLNK(st.st_mode) ? "a symbolic link" :
				 S_ISDIR(st.st_mode) ? "a directory" : "no plain file");
			return -EEXIST;
		}
		d->state = load_state(d->dir);
		tool = json_string_value(json_object_get(d->state, "tool"));
		if (!d->state || !tool || strcmp(tool, cmd))
			return -EINVAL;
		/* Finished: nothing to measure, and nothing to rewrite. */
		if (mess_rundir_complete(d->dir))
			return -EALREADY;
		return check_build(d);
	}
	err = mess_rundir_lock(d, cmd, "--out", d->dir);
	if (err)
		return err;
	/* Another command's run is not taken over: its meta.json and
	 * resume.json would be replaced, and it could never be resumed. */
	tool = mess_rundir_tool(d->dir, other, sizeof(other));
	if (tool && strcmp(tool, cmd)) {
		snprintf(d->why, sizeof(d->why), "%s: --out: %s already holds a run of '%s'; allowed: a new directory",
			 cmd, d->dir, tool);
		return -EEXIST;
	}
	/* Two sessions' points must not mix unasked; the caller may yet
	 * replace a run of its own (holds_run). */
	snprintf(path, sizeof(path), "%s/%s", d->dir, marker);
	if (!access(path, F_OK)) {
		d->holds_run = 1;
		return -EEXIST;
	}
	/* Nor is a new run written into another command's result that no
	 * meta.json names (an export, a report's page) or into a user's
	 * files: a new run's directory is new or empty, but for the logs a
	 * batch script keeps beside it (tools/slurm: mess-fleet.log). */
	return mess_rundir_empty(d, "--out", 1);
}

int mess_rundir_start(struct mess_rundir *d, int argc, char **argv)
{
	if (d->state) {
		d->resumed = (int)json_array_size(json_object_get(d->state, "resumed")) + 1;
		json_array_append_new(json_object_get(d->state, "resumed"),
				      json_string(d->start_utc));
		return mess_rundir_save(d);
	}
	d->state = new_state(d->cmd, argc, argv);
	if (!d->state)
		return -ENOMEM;
	return mess_rundir_save(d);
}

int mess_rundir_open(struct mess_rundir *d, const char *cmd, const char *kind,
		     const char *out, const char *resume, const char *marker,
		     int argc, char **argv)
{
	int err = mess_rundir_claim(d, cmd, kind, out, resume, marker);

	return err ? err : mess_rundir_start(d, argc, argv);
}

json_t *mess_rundir_meta(const struct mess_rundir *d,
			 const struct mess_topo *t, int schema)
{
	struct utsname u;
	char host[256] = "";

	uname(&u);
	gethostname(host, sizeof(host) - 1);
	return mess_json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}",
			 "schema", schema, "tool", d->cmd,
			 "version", mess_version, "git_revision", mess_git_rev,
			 "host", host, "kernel", u.release,
			 "cpu_model", t->cpu_model, "isa", MESS_ISA,
			 "compiler", mess_compiler, "cflags", mess_cflags);
}

void mess_rundir_stop_clock(struct mess_rundir *d)
{
	mess_utc_now(d->end_utc, sizeof(d->end_utc), 0);
}

int mess_rundir_write_meta(struct mess_rundir *d, json_t *meta, int complete)
{
	if (!meta)
		return -ENOMEM;
	json_object_set_new(meta, "resumed", json_integer(d->resumed));
	json_object_set_new(meta, "start_utc", json_string(d->start_utc));
	json_object_set_new(meta, "end_utc", d->end_utc[0] ?
			    json_string(d->end_utc) : json_null());
	json_object_set_new(meta, "complete", json_boolean(complete));
	/* The builds that measured this run, when more than one (--force). */
	if (json_array_size(json_object_get(d->state, "builds")) > 1)
		json_object_set(meta, "builds", json_object_get(d->state, "builds"));
	return mess_json_write(d->dir, "meta.json", meta);
}

/* --json: the file, whole, on stdout; -EIO when it cannot be read (it
 * was written a moment ago). */
static int print_file(const struct mess_rundir *d)
{
	char path[PATH_MAX + 64], buf[8192];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", d->dir, d->stdout_file);
	f = mess_fopen_regular(path, NULL, 0);
	if (!f) {
		fprintf(stderr, "%s: --json: cannot read %s: %s\n", d->cmd, path,
			strerror(errno));
		return -EIO;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)))
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return 0;
}

/* report.html from the files just written (a partial run's too): a view
 * of the results, so a failure is said and changes no exit status. */
static int write_report(const struct mess_rundir *d)
{
	char err[PATH_MAX + 128];
	int ret = mess_html_report(d->dir, NULL, 0, err, sizeof(err));

	if (ret)
		fprintf(stderr, "%s: warning: report.html not written: %s\n",
			d->cmd, err);
	return ret;
}

int mess_rundir_end(const struct mess_rundir *d, int rc, int frc)
{
	int again = resumes(d->cmd);
	/* A command the user can type: mess may not be on PATH. */
	char inv[PATH_MAX + 32];

	mess_invocation(d->cmd, inv, sizeof(inv));
	if (rc == -EINTR) {
		write_report(d);
		if (again)
			fprintf(stderr, "%s: interrupted; partial result in %s (continue with %s --resume %s)\n",
				d->cmd, d->dir, inv, d->dir);
		else if (!strcmp(d->cmd, "mess compare"))
			/* Its rerun replaces its own earlier comparison. */
			fprintf(stderr, "%s: interrupted; partial result in %s (this command does not resume: run it again, the same --out will do)\n",
				d->cmd, d->dir);
		else
			fprintf(stderr, "%s: interrupted; partial result in %s (this command does not resume: run it again with a new --out)\n",
				d->cmd, d->dir);
		return rc;
	}
	if (rc || frc) {
		int e = rc ? rc : frc;

		char then[3 * PATH_MAX + 256], rj[PATH_MAX + 32];

		/* Before resume.json exists there is nothing to resume: the
		 * same command again, into the same --out, starts it. */
		snprintf(rj, sizeof(rj), "%s/%s", d->dir, MESS_RESUME_FILE);
		if (again && !access(rj, F_OK))
			snprintf(then, sizeof(then), "what was written before is kept in %s: free space, then %s --resume %s",
				 d->dir, inv, d->dir);
		else if (again)
			snprintf(then, sizeof(then), "nothing was measured: free space, then run it again (the same --out %s will do)",
				 d->dir);
		else
			snprintf(then, sizeof(then), "this command does not resume: free space, then run it again with a new --out");
		if (mess_write_failed_say(d->cmd, e, then))
			return e;
		fprintf(stderr, "%s: failed: %s%s; partial result in %s%s%s\n", d->cmd,
			strerror(-e), e == -ENOSPC ? " (disk full)" : "", d->dir,
			e == -ENOSPC && again ? "; free space, then continue with --resume " : "",
			e == -ENOSPC && again ? d->dir : "");
		return e;
	}
	if (!write_report(d))
		fprintf(stderr, "%s: open %s/report.html\n", d->cmd, d->dir);
	fprintf(stderr, "%s: done: %s\n", d->cmd, d->dir);
	if (d->stdout_file)
		return print_file(d);
	printf("%s\n", d->dir);
	return 0;
}

int mess_rundir_open_new(struct mess_rundir *d, const char *cmd,
			 const char *kind, const char *out, const char *marker,
			 int json, int argc, char **argv)
{
	int rc = mess_rundir_open(d, cmd, kind, out, NULL, marker, argc, argv);

	if (json)
		d->stdout_file = "summary.json";
	/* A refusal (the lock a link, a hard link, a directory) is said as
	 * it is, not as "cannot set up". */
	if (rc == -EEXIST || (rc && d->why[0]))
		return mess_rundir_refused(d, rc);
	if (rc)
		fprintf(stderr, "%s: cannot set up %s: %s\n", cmd, d->dir, strerror(-rc));
	return rc;
}

int mess_rundir_refused(struct mess_rundir *d, int rc)
{
	if (rc == -EEXIST || (d->why[0] && rc == -EINVAL))
		mess_rundir_unclaim(d);
	/* A refusal of the lock or the directory's kind: said as it is. */
	if (d->why[0]) {
		fprintf(stderr, "%s\n", d->why);
		return rc;
	}
	switch (rc) {
	case -EEXIST:
		if (resumes(d->cmd))
			fprintf(stderr, "%s: --out: %s already holds a run; allowed: a new directory, or --resume %s\n",
				d->cmd, d->dir, d->dir);
		else
			fprintf(stderr, "%s: --out: %s already holds a run; allowed: a new directory\n",
				d->cmd, d->dir);
		return rc;
	case -EALREADY:
		fprintf(stderr, "%s: %s is complete (meta.json): nothing to do, nothing changed\n",
			d->cmd, d->dir);
		printf("%s\n", d->dir);
		return 0;
	case -EPROTO:		/* said by check_build */
		return -EINVAL;
	case -EINVAL:
		fprintf(stderr, "%s: --resume: %s holds no run of '%s' (%s/%s missing or unreadable)\n",
			d->cmd, d->dir, d->cmd, d->dir, MESS_RESUME_FILE);
		return rc;
	}
	return rc;
}

void mess_rundir_close(struct mess_rundir *d)
{
	json_decref(d->state);
	d->state = NULL;
	/* Closing the last descriptor releases the flock. */
	if (d->lock)
		close(d->lock - 1);
	d->lock = 0;
}

int mess_resume_args(const char *cmd, int argc, char **argv, const char *dir,
		     int *ac, char ***av, char *err, size_t errlen)
{
	static char store[MESS_RESUME_MAX_ARGS][PATH_MAX];
	static char *v[MESS_RESUME_MAX_ARGS + 2];
	json_t *st, *args, *a;
	const char *tool;
	size_t i;
	int n = 1;

	const char *one = NULL;
	int given = 0;

	/* --resume DIR or --resume=DIR, and --force at most. */
	resume_force = 0;
	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--force")) {
			resume_force = 1;
			continue;
		}
		given++;
		one = argv[k];
	}
	if (given != 2 && !(given == 1 && strchr(one, '=')))
		return mess_fail(err, errlen, -EINVAL,
				 "--resume: takes no other options but --force (the run keeps its original ones)");
	st = load_state(dir);
	args = json_object_get(st, "args");
	tool = json_string_value(json_object_get(st, "tool"));
	if (tool && strcmp(tool, cmd)) {
		char q[64];

		/* Quoted: the file is outside data, the message one line. */
		snprintf(err, errlen, "--resume: %s is a run of '%s'; allowed: a run directory of '%s'",
			 dir, mess_quote(q, sizeof(q), tool), cmd);
		json_decref(st);
		return -EINVAL;
	}
	if (!json_is_array(args) || json_array_size(args) > MESS_RESUME_MAX_ARGS) {
		char path[PATH_MAX + 32];

		snprintf(path, sizeof(path), "%s/%s", dir, MESS_RESUME_FILE);
		snprintf(err, errlen, "--resume: cannot read %s: %s; allowed: a run directory made by this tool",
			 path, access(path, R_OK) ? strerror(errno) :
			 st ? "no list of at most 64 options in it" : "not valid JSON");
		json_decref(st);
		return -EINVAL;
	}
	v[0] = "mess";
	json_array_foreach(args, i, a) {
		const char *s = json_string_value(a);

		if (!s || strlen(s) >= PATH_MAX) {
			snprintf(err, errlen, "--resume: %s/%s: option %zu is not a string of at most %d bytes; allowed: a run directory made by this tool",
				 dir, MESS_RESUME_FILE, i + 1, PATH_MAX - 1);
			json_decref(st);
			return -EINVAL;
		}
		strcpy(store[n - 1], s);
		v[n] = store[n - 1];
		n++;
	}
	v[n] = NULL;
	json_decref(st);
	*ac = n;
	*av = v;
	return 0;
}
