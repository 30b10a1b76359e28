// SPDX-License-Identifier: MIT
/*
 * `mess profile -- CMD ARGS`: a command's DRAM read and write bandwidth
 * over time, from the memory controllers' counters on every package, and
 * its instructions and cycles where the core PMU has them.  The trace is
 * written in `perf stat -I -x,` form (profile.csv), which `mess position`
 * reads as it is; --curves RUN places it on a family in the same step.
 */
#include "profile/cmd.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/pmu/dram.h"
#include "core/options.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/util.h"
#include "mess/json.h"
#include "mess/pmudef.h"

#define MAX_ARGS 256

struct profile_opts {
	uint64_t interval_ms;
	char out[PATH_MAX];
	char counters[256];
	char curves[PATH_MAX];
	int no_plots, help;
};

#define F(field) MESS_OPT_F(struct profile_opts, field)
#define S(field) MESS_OPT_S(struct profile_opts, field)

static const struct mess_opt opts[] = {
	{ "interval-ms", MESS_OPT_UINT, F(interval_ms), 0, 10, 60000, "MS",
	  "sampling interval (default 100)" },
	MESS_OPT_OUT_RUN(S(out), "profile-"),
	{ "counters", MESS_OPT_STR, S(counters), 0, 0, "auto|LIST",
	  "memory-controller families (mess counters --list), or auto: the first that opens (default)" },
	{ "curves", MESS_OPT_STR, S(curves), 0, 0, "RUN",
	  "then place the trace on this curve family (mess position) into DIR/position" },
	MESS_OPT_FLAG_ROW("no-plots", F(no_plots), "with --curves: do not run gnuplot"),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_profile_usage(FILE *f)
{
	fprintf(f,
		"usage: mess profile [OPTION]... -- CMD [ARG]...\n"
		"Run CMD and record its DRAM read and write bandwidth over time, from the\n"
		"memory controllers' counters on every package (so traffic of other processes\n"
		"on the machine is counted too: profile on a quiet node), and CMD's\n"
		"instructions and cycles (its threads and children) where the core PMU has\n"
		"them.  profile.csv is in `perf stat -I MS -x,` form: mess position reads it.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nFiles: profile.csv (time,count,unit,event,run_time,pct_running per interval;\n"
		"counts are bytes for mess_dram_read_bytes / mess_dram_write_bytes), summary.md,\n"
		"meta.json (the command, its exit status, the counters and how they were read),\n"
		"and with --curves, position/ (mess position's files).\n"
		"\nNeeds memory-controller counters: uncore PMUs count whole packages, which\n"
		"takes perf_event_paranoid 0 or CAP_PERFMON.  Where none opens (mess counters\n"
		"says why) it exits 3 before running CMD.\n"
		"\nExamples:\n"
		"  mess profile -- ./stream                           the trace\n"
		"  mess profile --interval-ms 20 -- ./app --size 4G   finer intervals\n"
		"  mess profile --curves results/node1 -- ./app       and where it sits on node1's curves\n"
		"\nExit status: 0 recorded (CMD exited 0), 1 bad usage, 2 failure or CMD failed,\n"
		"3 no memory-controller counters here, 130 interrupted (the trace so far is kept).\n");
}

/* For mess --help: no kernel PMU of any family in sysfs.  Whether one
 * opens is left to the run (that needs perf_event_open). */
const char *mess_profile_unavailable(void)
{
	static char names[4][MESS_PMU_NAME_LEN];

	for (size_t i = 0; i < mess_dram_nfamilies; i++)
		if (mess_pmudef_find(mess_pmu_sysfs_root(),
				     mess_dram_families[i].pmu_glob, names, 4) > 0)
			return NULL;
	return "no memory-controller PMU in sysfs (mess counters says what there is)";
}

/* The per-process core events: instructions and cycles of CMD. */
struct task_ctr {
	struct mess_counter ins, cyc;
	char status[512];
};

static void task_open(struct task_ctr *t, pid_t pid)
{
	const struct mess_core_events *set = NULL;
	char why[256], pfm[256];
	const char *core;

	t->ins.fd = t->cyc.fd = -1;
	core = mess_pmu_pfm_init(pfm, sizeof(pfm)) ? NULL : mess_pmu_core_name();
	if (core)
		set = mess_core_events_for(core);
	if (!set) {
		snprintf(t->status, sizeof(t->status), "no core event set for %s",
			 core ? core : "this CPU (libpfm4 recognises no core PMU)");
		return;
	}
	if (set->instructions &&
	    mess_counter_open_task(&t->ins, set->instructions, pid, why, sizeof(why)))
		snprintf(t->status, sizeof(t->status), "%s", why);
	if (set->cycles &&
	    mess_counter_open_task(&t->cyc, set->cycles, pid, why, sizeof(why)))
		snprintf(t->status, sizeof(t->status), "%s", why);
}

static int row(struct mess_appender *a, double t_s, double v, const char *unit,
	       const char *event, double run_ns, double pct)
{
	char line[256];
	int n;

	if (isfinite(v))
		n = snprintf(line, sizeof(line), "%.6f,%.0f,%s,%s,%.0f,%.2f,,\n",
			     t_s, v, unit, event, run_ns, pct);
	else	/* perf's own word for a counter that gave nothing */
		n = snprintf(line, sizeof(line), "%.6f,<not counted>,%s,%s,0,0.00,,\n",
			     t_s, unit, event);
	return mess_append(a, line, (size_t)n);
}

static double task_delta(const struct mess_counter *c, struct mess_count *last)
{
	struct mess_count now, d;
	double v, f;

	if (c->fd < 0 || mess_counter_read(c, &now))
		return NAN;
	if (mess_count_delta(last, &now, &d)) {
		*last = now;
		return NAN;
	}
	*last = now;
	switch (mess_count_scale(&d, &v, &f)) {
	case MESS_COUNT_OK:
	case MESS_COUNT_SCALED:
		return v;
	default:
		return NAN;
	}
}

struct totals {
	double rd, wr, t_s, peak_gbs;
	unsigned intervals, unmeasured;
};

/* Sample until the command exits or we are interrupted. */
static int sample(struct mess_dram *d, struct task_ctr *tc, pid_t child,
		  uint64_t interval_ms, struct mess_appender *a,
		  struct totals *tot, int *status, int *reaped)
{
	static struct mess_dram_snap s0, s1;
	struct mess_count li = { 0 }, lc = { 0 };
	struct mess_dram_bytes b;
	struct timespec next;
	double t0 = mess_now_ns(), tprev = t0, t;
	int err = 0, done = 0;

	if (mess_dram_snap(d, &s0))
		return -EIO;
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!done && !err) {
		next.tv_nsec += (long)(interval_ms % 1000) * 1000000L;
		next.tv_sec += (time_t)(interval_ms / 1000) + next.tv_nsec / 1000000000L;
		next.tv_nsec %= 1000000000L;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR &&
		       !mess_interrupted)
			;
		/* The command's end closes the last interval, short or not. */
		if (waitpid(child, status, WNOHANG) == child)
			done = *reaped = 1;
		if (mess_interrupted)
			done = 1;
		if (mess_dram_snap(d, &s1))
			return -EIO;
		t = mess_now_ns();
		mess_dram_bytes(d, &s0, &s1, &b);
		s0 = s1;
		double ts = (t - t0) / 1e9, run = t - tprev, pct = 100.0 * b.run_frac;

		err = row(a, ts, b.rd, "B", "mess_dram_read_bytes", run, pct);
		if (!err)
			err = row(a, ts, b.wr, "B", "mess_dram_write_bytes", run, pct);
		if (!err && tc->ins.fd >= 0)
			err = row(a, ts, task_delta(&tc->ins, &li), "", "instructions", run, 100);
		if (!err && tc->cyc.fd >= 0)
			err = row(a, ts, task_delta(&tc->cyc, &lc), "", "cycles", run, 100);
		tot->intervals++;
		if (isfinite(b.rd) && isfinite(b.wr)) {
			tot->rd += b.rd;
			tot->wr += b.wr;
			if ((b.rd + b.wr) / run > tot->peak_gbs)
				tot->peak_gbs = (b.rd + b.wr) / run;
		} else {
			tot->unmeasured++;
		}
		tot->t_s = ts;
		tprev = t;
	}
	return err;
}

static json_t *meta(const struct profile_opts *o, const struct mess_dram *d,
		    const struct task_ctr *tc, char **cmd, int ncmd,
		    const struct totals *tot, int status, int exited)
{
	json_t *argv = json_array();

	for (int i = 0; i < ncmd; i++)
		json_array_append_new(argv, json_string(cmd[i]));
	return mess_json_pack("{s:o, s:o, s:I, s:{s:s, s:i, s:s, s:s}, s:s, s:o, s:o, s:i, s:i}",
		"command", argv,
		"command_exit", exited && WIFEXITED(status) ? json_integer(WEXITSTATUS(status)) :
			exited && WIFSIGNALED(status) ?
			json_string(strsignal(WTERMSIG(status))) : json_null(),
		"interval_ms", (json_int_t)o->interval_ms,
		"counters", "dram_family", d->fam->name, "dram_counters", d->nch,
		"scope", "every package: the whole machine's DRAM traffic, not only the command's",
		"scaling", "enabled/running per counter; pct_running in profile.csv is the least running share of the interval",
		"core_events", tc->ins.fd >= 0 || tc->cyc.fd >= 0 ?
			"instructions and cycles of the command, its threads and children, user time" :
			tc->status,
		"duration_s", mess_json_real(tot->t_s, 3),
		"mean_bw_gbs", mess_json_real(tot->t_s > 0 ? (tot->rd + tot->wr) / tot->t_s / 1e9 : NAN, 3),
		"intervals", (int)tot->intervals, "intervals_unmeasured", (int)tot->unmeasured);
}

static int summary(const char *dir, const struct mess_dram *d, char **cmd,
		   int ncmd, const struct totals *tot, uint64_t interval_ms)
{
	FILE *f = mess_tmp_open(dir, "summary.md");

	if (!f)
		return -errno;
	fprintf(f, "# DRAM profile of `");
	for (int i = 0; i < ncmd; i++)
		fprintf(f, "%s%s", i ? " " : "", cmd[i]);
	fprintf(f, "`\n\nMeasured by the %s memory-controller counters (%d), every %llu ms, on every package.\n\n"
		   "| duration s | intervals | unmeasured | read GB | write GB | mean GB/s | peak GB/s |\n"
		   "|---:|---:|---:|---:|---:|---:|---:|\n"
		   "| %.2f | %u | %u | %.3f | %.3f | %.2f | %.2f |\n",
		d->fam->name, d->nch, (unsigned long long)interval_ms, tot->t_s,
		tot->intervals, tot->unmeasured, tot->rd / 1e9, tot->wr / 1e9,
		tot->t_s > 0 ? (tot->rd + tot->wr) / tot->t_s / 1e9 : NAN, tot->peak_gbs);
	return mess_tmp_commit(dir, "summary.md", f);
}

/* --curves: mess position on the trace, by this very binary. */
static int position(const char *dir, const struct profile_opts *o)
{
	char trace[PATH_MAX + 32], out[PATH_MAX + 32];
	pid_t p;
	int st;

	snprintf(trace, sizeof(trace), "%s/profile.csv", dir);
	snprintf(out, sizeof(out), "%s/position", dir);
	fflush(NULL);
	p = fork();
	if (p < 0)
		return -errno;
	if (p == 0) {
		char *av[] = { "mess", "position", "--curves", (char *)o->curves,
			       "--out", out, trace, o->no_plots ? "--no-plots" : NULL, NULL };

		execv("/proc/self/exe", av);
		_exit(127);
	}
	if (waitpid(p, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}

int mess_profile_main(int argc, char **argv)
{
	static struct mess_dram d;
	struct profile_opts o = { .interval_ms = 100 };
	struct task_ctr tc = { 0 };
	struct totals tot = { 0 };
	struct mess_appender a;
	struct mess_rundir rd;
	struct mess_topo topo;
	char *cmd[MAX_ARGS], err[PATH_MAX + 256];
	int ncmd = 0, rc, status = 0, go[2], reaped = 0;
	pid_t child;

	strcpy(o.counters, "auto");
	rc = mess_cmd_open("mess profile", opts, NOPTS, &o, &o.help,
			   mess_profile_usage, argc, argv, cmd, MAX_ARGS - 1, &ncmd);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (!ncmd) {
		fprintf(stderr, "mess profile: no command; allowed: mess profile [OPTION]... -- CMD [ARG]...\n");
		return -EINVAL;
	}
	cmd[ncmd] = NULL;
	if (strcmp(o.counters, "auto") && strcmp(o.counters, "off") &&
	    mess_dram_check_list("counters", o.counters, "auto or", err, sizeof(err))) {
		fprintf(stderr, "mess profile: %s\n", err);
		return -EINVAL;
	}
	if (!strcmp(o.counters, "off")) {
		fprintf(stderr, "mess profile: --counters: 'off' is not allowed; allowed: auto or memory-controller families (mess counters --list)\n");
		return -EINVAL;
	}
	if (o.out[0] && mess_out_check("out", o.out, err, sizeof(err))) {
		fprintf(stderr, "mess profile: %s\n", err);
		return -EINVAL;
	}
	if (mess_topo_init(&topo)) {
		fprintf(stderr, "mess profile: hwloc could not read the topology\n");
		return -EIO;
	}
	rc = mess_dram_open(&d, &topo, o.counters, NULL, 0);
	mess_topo_fini(&topo);
	if (rc) {
		fprintf(stderr, "mess profile: %s%s\n",
			rc == -EINVAL ? "--counters: " : "cannot profile here: ",
			d.status);
		return rc == -EINVAL ? -EINVAL : -EOPNOTSUPP;
	}
	rc = mess_rundir_open(&rd, "mess profile", "profile", o.out, NULL,
			      "profile.csv", argc, argv);
	if (rc) {
		mess_dram_close(&d);
		return mess_rundir_refused(&rd, rc);
	}
	rc = mess_append_open(&a, rd.dir, "profile.csv");
	if (!rc) {
		static const char head[] =
			"# mess profile: perf stat -I -x, form; counts of mess_dram_*_bytes are bytes\n";

		rc = mess_append(&a, head, sizeof(head) - 1);
	}
	if (rc || pipe(go)) {
		rc = rc ? rc : -errno;
		goto out;
	}
	mess_signals_install();
	fflush(NULL);
	child = fork();
	if (child == 0) {
		char c;

		/* Wait until the counters are on us, then become CMD. */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(cmd[0], cmd);
		fprintf(stderr, "mess profile: cannot run '%s': %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	if (child < 0) {
		rc = -errno;
		close(go[1]);
		goto out;
	}
	task_open(&tc, child);
	if (write(go[1], "g", 1) != 1)
		rc = -EIO;
	close(go[1]);
	fprintf(stderr, "mess profile: %s counting DRAM traffic every %llu ms (%s counters)\n",
		cmd[0], (unsigned long long)o.interval_ms, d.fam->name);
	if (!rc)
		rc = sample(&d, &tc, child, o.interval_ms, &a, &tot, &status,
			    &reaped);
	if (mess_interrupted && !reaped) {
		kill(child, SIGINT);
		waitpid(child, &status, 0);
	}
	if (mess_interrupted) {
		rc = -EINTR;
	} else if (rc && !reaped) {
		/* The profile failed (a counter read, a full disk): the
		 * command is not left running unwatched. */
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
out:
	mess_append_close(&a);
	mess_rundir_stop_clock(&rd);
	{
		int frc = summary(rd.dir, &d, cmd, ncmd, &tot, o.interval_ms), failed = 0;
		int mrc = mess_rundir_write_meta(&rd, meta(&o, &d, &tc, cmd, ncmd, &tot, status,
							   !rc || rc == -EINTR), !rc);

		frc = frc ? frc : mrc;
		if (!rc && WIFEXITED(status) && WEXITSTATUS(status)) {
			fprintf(stderr, "mess profile: %s exited with status %d; its profile is kept\n",
				cmd[0], WEXITSTATUS(status));
			failed = 1;
		} else if (!rc && WIFSIGNALED(status)) {
			fprintf(stderr, "mess profile: %s was killed by %s; its profile is kept\n",
				cmd[0], strsignal(WTERMSIG(status)));
			failed = 1;
		}
		if (!rc && !frc && o.curves[0])
			frc = position(rd.dir, &o);
		rc = mess_rundir_end(&rd, rc, frc);
		/* The profile is whole; the command's failure is the status. */
		if (!rc && failed)
			rc = -ECHILD;
	}
	mess_counter_close(&tc.ins);
	mess_counter_close(&tc.cyc);
	mess_dram_close(&d);
	mess_rundir_close(&rd);
	return rc;
}
