/* SPDX-License-Identifier: MIT */
/*
 * The run directory every command writes, one lifecycle for all:
 *
 *   open     the directory from --resume, --out or results/<host>[-<kind>]-
 *            <UTC>; a directory that already holds a run of this command is
 *            refused unless resumed; resume.json holds the original options
 *            and, as the command records it, the state a resume needs;
 *   meta     meta.json: identity (build, host, CPU, ISA, compiler), the
 *            command's members, then the trailer (resumes, start and end,
 *            complete), rewritten whole (tmp + rename) whenever it changes;
 *   end      the one end-of-run message (done, interrupted: resume with...,
 *            failed: partial result in ...).
 *
 * Points are not here: each command appends its own CSV and flushes it per
 * point, so an interrupted run loses at most the point in flight.
 */
#ifndef MESS_RUNDIR_H
#define MESS_RUNDIR_H

#include <limits.h>

#include "core/machine/topo.h"
#include "mess/json.h"

#define MESS_RESUME_FILE "resume.json"
#define MESS_RESUME_MAX_ARGS 64

struct mess_rundir {
	char dir[PATH_MAX];
	const char *cmd;	/* "mess", "mess absorb": messages, meta "tool" */
	char start_utc[32], end_utc[32];
	int resumed;		/* sessions that continued this run */
	/*
	 * resume.json: {"schema", "tool", "args": [...], "resumed": [UTC...],
	 * then the command's own members}.  The command edits it and calls
	 * mess_rundir_save().
	 */
	json_t *state;
	int lock;		/* fd + 1 of .lock, held while open; 0: none */
	/* This process made .lock, and the directory itself: a refused
	 * writer leaves neither (mess_rundir_unclaim). */
	int made_lock, made_dir;
	char why[2 * PATH_MAX + 320];	/* a refusal said by mess_rundir_refused */
	/* mess_rundir_claim refused with -EEXIST, the lock held: the
	 * directory holds a run of this very command (its marker). */
	int holds_run;
	/* --json: the file mess_rundir_end prints on stdout when done
	 * (summary.json), instead of the directory's name; NULL: the name. */
	const char *stdout_file;
};

/* In every run directory: flock()ed by the one process that writes it,
 * holding that process's pid and command for the refusal of another. */
#define MESS_LOCK_FILE ".lock"

/*
 * Open the run directory.  kind ("" or "absorb") names a default
 * directory results/<host>-<kind>-<UTC>; marker is the file whose presence
 * means "holds a run" (e.g. "curves.csv").  With resume set, the state of
 * the earlier sessions is loaded and this session recorded, unless the run
 * is complete (-EALREADY, nothing changed) or another build measured it
 * (-EPROTO, said on stderr; accepted when mess_resume_args saw --force).
 * 0; -EEXIST (out already holds a run, of this command or another, or
 * another process writes the directory: the lock); -EINVAL (resume is no
 * run of this command); other -errno.  mess_rundir_refused says which.
 * The lock is held until mess_rundir_close.
 */
int mess_rundir_open(struct mess_rundir *d, const char *cmd, const char *kind,
		     const char *out, const char *resume, const char *marker,
		     int argc, char **argv);
/*
 * mess_rundir_open in its two halves.  Claim: the directory chosen, its
 * kind checked, made, locked, and what it holds judged (another command's
 * run, this command's run: -EEXIST with holds_run set and the lock held,
 * which the caller may replace, e.g. an earlier comparison), the resumed
 * run's state loaded; nothing in it is written but .lock.  Start: this
 * session recorded (resume.json).  Between them a command may do its slow
 * set-up (probes) knowing the directory is its own.
 */
int mess_rundir_claim(struct mess_rundir *d, const char *cmd,
		      const char *kind, const char *out, const char *resume,
		      const char *marker);
int mess_rundir_start(struct mess_rundir *d, int argc, char **argv);

/*
 * The writer contract's one path into a directory (rundir_lock.c), for
 * every command that writes one, run directory or not (report, import,
 * export): dir's kind checked (a file, a pipe, a link to nothing are
 * refused as bad input: -EINVAL), made if missing, then d->dir/.lock
 * flock()ed (-EEXIST when another process holds it; a .lock that is a link
 * or a directory: -EINVAL; a read-only mount: its -errno).  Only then may
 * anything in it be deleted, replaced or written.  Every refusal is one
 * line in d->why naming opt (e.g. "--out") and the path; d->cmd is cmd.
 */
int mess_rundir_lock(struct mess_rundir *d, const char *cmd, const char *opt,
		     const char *dir);
/*
 * 1 when another process holds dir's lock now, 0 otherwise; nothing is
 * made or taken.  For a check made before the lock (compare judges --out
 * before it reads the sets): what a writer has half-written there is not
 * the directory's contents, and the lock's own refusal says who writes.
 */
int mess_rundir_busy(const char *dir);
/*
 * mess_rundir_lock, and the directory new or empty once locked (.lock and
 * an interrupted build's folder aside, which then goes): -EEXIST, said in
 * d->why, naming what it holds.
 */
int mess_rundir_lock_empty(struct mess_rundir *d, const char *cmd,
			   const char *opt, const char *dir);
/* The emptiness check of the above, for a directory already locked;
 * with logs, *.log files do not count (the logs a batch script keeps
 * beside a new run). */
int mess_rundir_empty(struct mess_rundir *d, const char *opt, int logs);
/*
 * A writer refused after it took the lock (the directory not empty,
 * another's run): the .lock it made, and the directory if it made it,
 * removed, the lock released.  What was there before stays.
 */
void mess_rundir_unclaim(struct mess_rundir *d);
/* name is what a directory's owner leaves beside its outputs (.lock, an
 * interrupted build's folder, mess_out_check's probe), which no emptiness
 * check counts. */
int mess_rundir_aside_name(const char *name);
/*
 * A directory of outputs built aside: a hidden folder made in the locked
 * d->dir (its path into tmp), written by the command, then moved in with
 * signals held off and the file `last` (the set's marker; NULL: none)
 * moved last, so that a reader never takes half a set for one and an
 * interrupted build leaves only that folder, which the rerun removes.
 * 0 or -errno; abandon removes the folder after a failure.
 */
int mess_rundir_aside(struct mess_rundir *d, char *tmp, size_t len);
int mess_rundir_aside_commit(struct mess_rundir *d, const char *tmp,
			     const char *last);
void mess_rundir_aside_abandon(const char *tmp);
/*
 * What the locked d->dir holds, .lock aside, removed (plots/ with it): a
 * run of the caller's own that it replaces (holds_run) and has judged
 * worth nothing kept: an earlier comparison redone, a replay that never
 * finished (a replay starts over; it has no --resume).
 */
void mess_rundir_clear(struct mess_rundir *d);
/* The command whose run dir holds (resume.json, else meta.json), quoted
 * into buf, or NULL. */
const char *mess_rundir_tool(const char *dir, char *buf, size_t len);

/* resume.json, written whole (tmp + rename): 0 or -errno. */
int mess_rundir_save(struct mess_rundir *d);
/* A new meta.json object: schema, tool and the identity members. */
/* Whether dir's meta.json says the run is complete (1) or not (0). */
int mess_rundir_complete(const char *dir);
json_t *mess_rundir_meta(const struct mess_rundir *d,
			 const struct mess_topo *t, int schema);
/*
 * Append the trailer (resumed, start_utc, end_utc: null while running,
 * complete) to meta, write it as meta.json (tmp + rename) and release it.
 * 0 or -errno.
 */
int mess_rundir_write_meta(struct mess_rundir *d, json_t *meta, int complete);
/* Stamp the end time (before the final files are written). */
void mess_rundir_stop_clock(struct mess_rundir *d);
/*
 * The end-of-run message on stderr, and the directory on stdout when done;
 * returns rc, or frc when rc is 0 (the final files failed).
 */
int mess_rundir_end(const struct mess_rundir *d, int rc, int frc);
/*
 * What mess_rundir_open refused, said once for every command: -EEXIST (out
 * holds a run), -EALREADY (the resumed run is complete: nothing to do;
 * returns 0), -EPROTO (another build's run; returns -EINVAL), -EINVAL (no
 * run of this command); a refusal unclaims the directory
 * (mess_rundir_unclaim).  Returns what the command should return; other
 * codes are returned unchanged and unsaid.
 */
int mess_rundir_refused(struct mess_rundir *d, int rc);
/*
 * A new run (no --resume) of a command that writes one run directory:
 * mess_rundir_open (cmd "mess c2c", kind, out, marker), stdout_file
 * summary.json when json, and a failure said in one line, a refusal by
 * mess_rundir_refused, anything else as "cannot set up DIR".  0 or what
 * the command should return (-EEXIST refused, other -errno).
 */
int mess_rundir_open_new(struct mess_rundir *d, const char *cmd,
			 const char *kind, const char *out, const char *marker,
			 int json, int argc, char **argv);
void mess_rundir_close(struct mess_rundir *d);

/*
 * --resume DIR given alone (argv holds nothing else): the original
 * options of DIR's run of cmd into *ac, *av (argv[0] "mess", static
 * storage).  0, or -EINVAL with err naming the option and what it allows.
 */
int mess_resume_args(const char *cmd, int argc, char **argv, const char *dir,
		     int *ac, char ***av, char *err, size_t errlen);

#endif
