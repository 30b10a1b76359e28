/* SPDX-License-Identifier: MIT */
/*
 * The curves driver's backends (issue 33): what differs between a run
 * measured on this machine and one replayed from a curve set, as two rows
 * of one table (cmd.c's backends: measured.c's row and replay.c's).  The
 * driver (cmd.c), the sweep, the points and the writers call through
 * r->be and never ask which row it is; a GPU or a remote node is one more
 * file and one more row (docs/adding-a-backend.md).  Hooks that may be
 * NULL say so.
 *
 * Issue 44 narrows this table to opaque state behind void * and a few
 * hooks (open, set_load, window, unloaded, json, md, close) that never
 * see a CPU: the draft, and every hook and struct mess_run member mapped
 * to the driver or the measured backend, is in docs/adding-a-backend.md.
 */
#ifndef MESS_CURVES_BACKEND_H
#define MESS_CURVES_BACKEND_H

#include <jansson.h>

struct mess_run;
struct mess_gen_kernel;
struct mess_point;

/*
 * One raw window of a point, as a backend measured it; the driver
 * (repeats.c) decides which are kept, when there are too few and what
 * the point's latency and trust figures are.  NAN where the backend has
 * no such figure.
 */
struct mess_window {
	double lat_ns;
	double rd_gbs, wr_gbs, bw_gbs;		/* accounted */
	double crd_gbs, cwr_gbs, ctot_gbs;	/* counted */
	double nowalk_ns, run_frac;
	double lost_pct, steal_ms;	/* the worst-hit thread's lost time */
	double ghz0, ghz1;		/* the clock around it */
	const char *who;	/* whose time was lost; NULL: nobody's known */
	int disturbed;
	/* Disturbed windows the backend itself measured again before this
	 * one (the replay's disturbance that lasts the whole point): it is
	 * kept as it is, and counted with them. */
	unsigned redone;
};

struct mess_curves_backend {
	const char *name;	/* "measured", "replay" */
	/* mess_rundir_claim's kind of run: "" or "replay" (a replay's
	 * directory must say so) */
	const char *kind;
	int resumable;		/* --resume continues one */
	/* It looks at this machine: its environment before the start is
	 * judged and written, its node rule and counters said; 0: nothing
	 * of this host is (a replay) */
	int machine;
	/* meta.json bw_accounting and summary.md's bandwidth caveat where
	 * the backend has its own; NULL: the generators' accounting */
	const char *accounting, *bw_note;
	/* the verdict's "partial" reason: a run cut short */
	const char *cut_short;
	/* Before the directory (nothing written): the machine or the set,
	 * the cores, the buffers' sizes.  0 to go on; *done 1 when the
	 * command ends here with that status (--list, --mem-node each);
	 * -errno said in one line. */
	int (*prepare)(struct mess_run *r, int argc, char **argv, int *done);
	/* The directory claimed with status rc: the status the driver
	 * goes on with (a replay starts an unfinished one over); may be
	 * NULL: rc as it is. */
	int (*claimed)(struct mess_run *r, int rc);
	/* The directory started: pinning, buffers, generators.  0 or -errno. */
	int (*start)(struct mess_run *r);
	/* The unloaded latency before the sweep (and what the sweep's
	 * points need of it), and again after: 0 or -errno. */
	int (*unloaded)(struct mess_run *r);
	void (*unloaded_end)(struct mess_run *r);
	/* The load set, kernel k at nop (k NULL: idle), and its bandwidth
	 * once steady (GB/s), *steady whether it got so; one point measured
	 * at kernel k: 0 or -errno. */
	double (*set_load)(struct mess_run *r, const struct mess_gen_kernel *k,
			   uint64_t nop, int *steady);
	int (*measure_point)(struct mess_run *r, const struct mess_gen_kernel *k,
			     struct mess_point *p);
	/* One window at kernel k (NULL: the chase alone), for the driver's
	 * repeats (mess_repeats): 0, or -EINTR when a signal cut it short
	 * (a replay's windows take no time, and are never); the bandwidth
	 * figures of p from the n windows it kept. */
	int (*window)(struct mess_run *r, const struct mess_gen_kernel *k,
		      struct mess_window *w);
	void (*figures)(struct mess_run *r, const struct mess_window *w,
			unsigned n, struct mess_point *p);
	/* curves.csv's bw_source */
	const char *(*bw_source)(const struct mess_run *r);
	/* One line that says what the run is not (a replay: NOT A
	 * MEASUREMENT), first in summary.md and on stderr; NULL none. */
	const char *(*describe)(const struct mess_run *r);
	/* meta.json's "replay" object; NULL hook: null */
	json_t *(*json)(const struct mess_run *r);
	/* The run's end with status rc and the writers' frc, as said to the
	 * user: the status main maps. */
	int (*end)(struct mess_run *r, int rc, int frc);
	/* The traffic stopped, before the files are finished; may be NULL. */
	void (*stop)(struct mess_run *r);
	/* Whatever start and prepare left running or allocated. */
	void (*close)(struct mess_run *r);
};

/* the rows: measured.c's and replay.c's */
extern const struct mess_curves_backend mess_measured_backend;
extern const struct mess_curves_backend mess_replay_backend;

#endif
