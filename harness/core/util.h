/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the result writers. */
#ifndef MESS_UTIL_H
#define MESS_UTIL_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

#include "mess/json.h"
#include "mess/parse.h"	/* mess_set_err */

/* mkdir -p: 0, or -errno (-ENOTDIR if a component is a file). */
int mess_mkdir_p(const char *path);
/*
 * This host's name as a part of a path (results/<host>-<UTC>): only
 * [A-Za-z0-9._-], no leading dot, no "..", the rest '_'; "host" when it
 * has none.  A hostname is anyone's to set (../../esc, a tab).
 */
void mess_host_path_name(char *buf, size_t len);
/*
 * The one way to write a file into a directory this process holds: the
 * name's old entry removed (a link planted there, symbolic or hard, goes;
 * what it names is never written), then a new file made with O_EXCL and
 * O_NOFOLLOW.  open's fd or -1 with errno; the FILE or NULL with errno.
 */
int mess_open_new(const char *path, int flags);
FILE *mess_fopen_new(const char *path);
/* path made if missing (its parent exists) and a directory that is no
 * link (plots/ linked elsewhere is never written through): 0, -ELOOP, or
 * -errno. */
int mess_subdir(const char *path);
/* fopen(dir/name, mode); "w" is mess_fopen_new's. */
FILE *mess_file_open(const char *dir, const char *name, const char *mode);
/* Write dir/name.tmp, then rename it over dir/name, so that a reader never
 * sees half a file: 0 or -errno (-ENOSPC: disk full); f is closed either
 * way, and a failed dir/name.tmp removed, the old dir/name kept. */
FILE *mess_tmp_open(const char *dir, const char *name);
int mess_tmp_commit(const char *dir, const char *name, FILE *f);
/* Close f and remove dir/name.tmp after writing into it failed with err:
 * the stream's own error (ENOSPC) when it has one, else err. */
int mess_tmp_abandon(const char *dir, const char *name, FILE *f, int err);
/* The writes above note the first that fails (its path and error) until
 * the next clear (a run directory opened), so that the one line a command
 * ends with names the file, not only the error. */
void mess_write_failed_clear(void);
/* The failed file's path if the first failure was err, else NULL. */
const char *mess_write_failed(int err);
/* If err was that failure, say so in one line (the file, "disk full",
 * then what to do): 1, else 0. */
int mess_write_failed_say(const char *cmd, int err, const char *then);
/* Remove dir/name.tmp (after its FILE was closed): a replacement given up. */
void mess_tmp_discard(const char *dir, const char *name);
/* dir/name written whole by fn (mess_tmp_open, then mess_tmp_commit,
 * which takes a failed write from the stream's error): 0 or -errno. */
int mess_tmp_write(const char *dir, const char *name,
		   void (*fn)(FILE *f, const void *arg), const void *arg);
/* j (stolen; NULL: -ENOMEM) written whole as dir/name: 0 or -errno. */
int mess_json_write(const char *dir, const char *name, json_t *j);
/* A CSV field after its comma: v with dec decimals, or empty where it
 * is unknown (never 0). */
void mess_csv_num(FILE *f, double v, int dec);

/*
 * A results file that grows one whole line (or row) at a time, flushed to
 * the kernel at once: a failed write (disk full) is undone, so the file
 * always ends with a complete line and nothing already written is lost.
 */
struct mess_appender {
	int fd;
	off_t size;		/* bytes of complete lines */
	char path[PATH_MAX + 64];
};

/* Open dir/name for appending (created if missing): 0 or -errno. */
int mess_append_open(struct mess_appender *a, const char *dir,
		     const char *name);
/* Append buf (whole lines) or nothing: 0 or -errno (-ENOSPC: disk full). */
int mess_append(struct mess_appender *a, const char *buf, size_t len);
void mess_append_close(struct mess_appender *a);
/*
 * Cut a file that does not end with a newline back to its last complete
 * line (a run killed or stopped by a full disk mid-write): *line is the
 * 1-based number of the line dropped, 0 when there was none.  A missing
 * file is 0.  0 or -errno.
 */
int mess_drop_partial_line(const char *path, long *line);
/*
 * The data file `name` the harness reads at run time (e.g.
 * "plots/curves.gp", "noise-loops.tsv"): in $MESS_DATADIR when set, else in
 * <executable's dir>/../share/mess (installed: <prefix>/bin/mess and
 * <prefix>/share/mess), else in <executable's dir>/share/mess (the build
 * tree: build/<arch>/mess, staged by make).  0 with its path in buf;
 * -ENOENT, or -ENAMETOOLONG when a path does not fit in buf.
 */
int mess_data_file(const char *name, char *buf, size_t len);

/* The value of the first "KEY: value" line of a /proc file such as
 * /proc/meminfo or /proc/self/status (base 10, or 16 for the capability
 * masks; a unit after it is ignored): 0; -ENOENT without that key, or
 * the file's -errno. */
int mess_proc_key(const char *path, const char *key, int base,
		  unsigned long long *v);

/* argv[0] as mess was invoked (main sets it; NULL: "mess"). */
extern const char *mess_argv0;
/*
 * The command line that runs cmd ("mess", "mess absorb") again, as the
 * user can type it: $MESS_INVOKED_AS where a wrapper exports it (run.sh:
 * "./run.sh"), else argv[0] as invoked (build/x86_64/mess when mess is
 * not on PATH), then cmd's subcommand.  Into buf, which it returns.
 */
const char *mess_invocation(const char *cmd, char *buf, size_t len);

/* Whether MESS_FAULT_IMPOSSIBLE ("3,7") names reading k: the tests' hook
 * that makes a chase read what no hardware can (tests/replay.sh,
 * tests/matrix.sh). */
int mess_fault_impossible(unsigned long k);

#endif
