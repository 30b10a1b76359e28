// SPDX-License-Identifier: MIT
/*
 * How a command takes a directory it writes (the writer contract, issue
 * 31): the path's kind is checked, the directory made if missing and its
 * .lock taken; only then is anything in it deleted, replaced or written.
 * A command that refused touched nothing (an empty directory it made
 * aside), and says why in one line (d->why).
 *
 * Import and export write a whole directory of outputs: they build it
 * aside, in a hidden folder inside the locked directory, and move it in
 * when every file is whole (mess_rundir_aside_*).
 */
#include "core/rundir/rundir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/rundir/outdir.h"
#include "core/util.h"
#include "mess/parse.h"

/* An interrupted build's folder inside a locked directory (_aside). */
#define ASIDE_PREFIX ".mess-partial-"

/* The refusal, one line: "<cmd>: <opt>: <path>: <why>; allowed: ...". */
static int why(struct mess_rundir *d, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why(struct mess_rundir *d, int rc, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(d->why, sizeof(d->why), "%s: ", d->cmd);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(d->why))
		mess_set_verr(d->why + n, sizeof(d->why) - (size_t)n, fmt, ap);
	va_end(ap);
	return rc;
}

/*
 * One process writes a directory: two writers (two runs on one --out, a
 * --resume beside the run, a report beside the run it redraws) would
 * interleave their files and both say "done".  flock, not the file's
 * existence: a killed holder releases it.  The file stays (removing it
 * would let a third process lock a new inode while a second still holds
 * the old one); its text names the holder.
 */
static int take_lock(struct mess_rundir *d, const char *opt)
{
	char path[PATH_MAX + 32], held[128] = "";
	struct stat st = { 0 }, now;
	ssize_t n;
	int fd, tries = 0;

	snprintf(path, sizeof(path), "%s/%s", d->dir, MESS_LOCK_FILE);
again:
	/* Made here (O_EXCL) or found: a refused writer removes the one it
	 * made, and nothing else (mess_rundir_unclaim). */
	d->made_lock = 0;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666);
	if (fd >= 0)
		d->made_lock = 1;
	else if (errno == EEXIST)
		fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT && tries++ < 3)
		goto again;
	/* A hard link's other name is someone's file: the holder's text
	 * below would overwrite it. */
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		int e = fd < 0 ? errno : EINVAL;
		char kind[64];
		const char *what = e == ELOOP ? "a symbolic link" :
				   e == EISDIR ? "a directory" : strerror(e);

		if (e == EINVAL && S_ISREG(st.st_mode))
			snprintf(kind, sizeof(kind), "a hard link (one of %lu names of a file)",
				 (unsigned long)st.st_nlink);
		else if (e == EINVAL)
			snprintf(kind, sizeof(kind), "%s", mess_file_kind(st.st_mode));
		if (e == EINVAL)
			what = kind;
		if (fd >= 0)
			close(fd);
		/* A lock that cannot be a plain file here is the directory's
		 * fault (bad input); one that cannot be written, the
		 * machine's (a read-only mount, permissions). */
		return why(d, e == ELOOP || e == EISDIR || e == EINVAL ? -EINVAL : -e,
			   "%s: cannot take the lock %s: %s; allowed: a directory where this process can create and write %s as a plain file of one name",
			   opt, path, what, MESS_LOCK_FILE);
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno == EWOULDBLOCK ? -EEXIST : -errno;

		/* The holder writes its name just after it locks: a moment
		 * later it is there. */
		for (int i = 0; i < 50; i++) {
			n = pread(fd, held, sizeof(held) - 1, 0);
			if (n > 0 && memchr(held, '\n', (size_t)n))
				break;
			usleep(1000);
		}
		held[n > 0 ? n : 0] = 0;
		/* One line, whatever the file holds. */
		for (char *s = held; *s; s++)
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				*s = *s == '\n' ? 0 : '?';
		close(fd);
		if (err == -EEXIST)
			return why(d, err, "%s: %s is being written by %s (lock %s); allowed: another directory, or this one once that process has ended",
				   opt, d->dir, held[0] ? held : "another process", path);
		return why(d, err, "%s: cannot take the lock %s: %s", opt, path,
			   strerror(-err));
	}
	/* A refused writer that made the lock removes it while holding it:
	 * a lock taken on a name that has since gone is taken again. */
	if (lstat(path, &now) || now.st_ino != st.st_ino || now.st_dev != st.st_dev) {
		close(fd);
		if (tries++ < 3)
			goto again;
		return why(d, -EAGAIN, "%s: cannot take the lock %s: it keeps being replaced",
			   opt, path);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	/* The holder's name is for the message above: not worth failing
	 * the run over on a full disk. */
	n = snprintf(held, sizeof(held), "pid %d (%s)\n", (int)getpid(), d->cmd);
	if (!ftruncate(fd, 0) && pwrite(fd, held, (size_t)n, 0) < 0)
		held[0] = 0;
	d->lock = fd + 1;
	return 0;
}

int mess_rundir_busy(const char *dir)
{
	char path[PATH_MAX + 32];
	int fd, busy;

	snprintf(path, sizeof(path), "%s/%s", dir, MESS_LOCK_FILE);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	/* Shared and at once released: a holder's exclusive lock refuses
	 * it; a free lock is left as it was. */
	busy = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);
	return busy;
}

int mess_rundir_lock(struct mess_rundir *d, const char *cmd, const char *opt,
		     const char *dir)
{
	struct stat st;
	int err;

	d->cmd = cmd;
	d->why[0] = 0;
	if (dir != d->dir &&
	    (size_t)snprintf(d->dir, sizeof(d->dir), "%s", dir) >= sizeof(d->dir))
		return why(d, -EINVAL, "%s: the path is longer than %zu characters",
			   opt, sizeof(d->dir) - 1);
	/* The directory's kind first: a file, a pipe or a link to nothing
	 * is said as what it is, never made or written through. */
	if (!stat(d->dir, &st) && !S_ISDIR(st.st_mode))
		return why(d, -EINVAL, "%s: %s is %s, not a directory; allowed: a new or empty directory you can write",
			   opt, d->dir, mess_file_kind(st.st_mode));
	if (stat(d->dir, &st) && !lstat(d->dir, &st))
		return why(d, -EINVAL, "%s: %s is a link to nothing; allowed: a new or empty directory you can write",
			   opt, d->dir);
	d->made_dir = stat(d->dir, &st) && errno == ENOENT;
	err = mess_mkdir_p(d->dir);
	if (err)
		return why(d, err == -ENOTDIR ? -EINVAL : err,
			   "%s: cannot make %s: %s%s", opt, d->dir, strerror(-err),
			   err == -ENOSPC ? " (disk full)" : "");
	return take_lock(d, opt);
}

/* The command whose run dir holds (resume.json, else meta.json), or NULL;
 * into buf. */
const char *mess_rundir_tool(const char *dir, char *buf, size_t len)
{
	static const char *const files[] = { MESS_RESUME_FILE, "meta.json" };
	char path[PATH_MAX + 32];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		json_t *j;
		const char *t;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		j = mess_json_load(path, 0, NULL);
		t = json_string_value(json_object_get(j, "tool"));
		if (t)
			mess_quote(buf, len, t);
		json_decref(j);
		if (t)
			return buf;
	}
	return NULL;
}

/* name is what the directory's owner leaves beside its outputs: the lock,
 * and an interrupted build's folder. */
int mess_rundir_aside_name(const char *name)
{
	return !strcmp(name, MESS_LOCK_FILE) ||
	       !strncmp(name, ASIDE_PREFIX, sizeof(ASIDE_PREFIX) - 1) ||
	       !strncmp(name, MESS_OUT_PROBE_PREFIX,
			sizeof(MESS_OUT_PROBE_PREFIX) - 1);
}

/*
 * name in the directory at, and what it holds, depth levels deep (an aside
 * folder holds the outputs and their plots/): nothing of it is anyone's
 * once the lock is held.  Relative to descriptors, never descending
 * through a link: a link planted as .mess-partial-x or inside one is
 * removed, and whatever it names is left alone.
 */
static void remove_tree(int at, const char *name, int depth)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW))
		return;
	if (!S_ISDIR(st.st_mode) || depth < 0) {
		unlinkat(at, name, 0);
		return;
	}
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d && fd >= 0)
		close(fd);
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			remove_tree(dirfd(d), e->d_name, depth - 1);
	if (d)
		closedir(d);
	unlinkat(at, name, AT_REMOVEDIR);
}

void mess_rundir_unclaim(struct mess_rundir *d)
{
	char path[PATH_MAX + 32];
	struct stat a, b;

	if (!d->lock)
		return;
	snprintf(path, sizeof(path), "%s/%s", d->dir, MESS_LOCK_FILE);
	/* Removed while still held, and only the very file this process
	 * made: take_lock's holder checks the name is still its file. */
	if (d->made_lock && !fstat(d->lock - 1, &a) && !lstat(path, &b) &&
	    a.st_ino == b.st_ino && a.st_dev == b.st_dev)
		unlink(path);
	close(d->lock - 1);
	d->lock = 0;
	/* Empty once the lock is gone, or it was not the one made here. */
	if (d->made_lock && d->made_dir)
		rmdir(d->dir);
	d->made_lock = d->made_dir = 0;
}

int mess_rundir_empty(struct mess_rundir *d, const char *opt, int logs)
{
	char first[NAME_MAX + 1] = "";
	struct dirent *e;
	DIR *dd = opendir(d->dir);

	if (!dd)
		return why(d, -errno, "%s: %s: %s", opt, d->dir, strerror(errno));
	while ((e = readdir(dd))) {
		size_t n = strlen(e->d_name);

		if (logs && n > 4 && !strcmp(e->d_name + n - 4, ".log"))
			continue;
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    !mess_rundir_aside_name(e->d_name) && !first[0])
			snprintf(first, sizeof(first), "%s", e->d_name);
	}
	closedir(dd);
	if (first[0]) {
		char q[64];

		mess_rundir_unclaim(d);
		return why(d, -EEXIST, "%s: %s is not empty (it holds %s); allowed: a new or empty directory",
			   opt, d->dir, mess_quote(q, sizeof(q), first));
	}
	/* Ours now: what an interrupted build left goes. */
	dd = opendir(d->dir);
	while (dd && (e = readdir(dd)))
		if (strcmp(e->d_name, MESS_LOCK_FILE) && mess_rundir_aside_name(e->d_name))
			remove_tree(dirfd(dd), e->d_name, 2);
	if (dd)
		closedir(dd);
	return 0;
}

int mess_rundir_lock_empty(struct mess_rundir *d, const char *cmd,
			   const char *opt, const char *dir)
{
	int err = mess_rundir_lock(d, cmd, opt, dir);

	return err ? err : mess_rundir_empty(d, opt, 0);
}

int mess_rundir_aside(struct mess_rundir *d, char *tmp, size_t len)
{
	if ((size_t)snprintf(tmp, len, "%s/" ASIDE_PREFIX "XXXXXX", d->dir) >= len)
		return -ENAMETOOLONG;
	if (!mkdtemp(tmp)) {
		int e = errno;

		tmp[0] = 0;
		return -e;
	}
	/* mkdtemp's 0700 is the folder's alone, which goes once its files
	 * are moved into the directory the user chose. */
	return 0;
}

/* A name of the aside folder, for the moves (read before any is moved:
 * readdir over a folder whose entries go is unspecified). */
struct names {
	char (*v)[NAME_MAX + 1];
	size_t n;
};

static int list(const char *dir, struct names *l)
{
	struct dirent *e;
	DIR *dd = opendir(dir);
	size_t cap = 0;

	l->v = NULL;
	l->n = 0;
	if (!dd)
		return -errno;
	while ((e = readdir(dd))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (l->n == cap) {
			void *v = realloc(l->v, (cap = cap ? 2 * cap : 64) * sizeof(*l->v));

			if (!v) {
				closedir(dd);
				return -ENOMEM;
			}
			l->v = v;
		}
		snprintf(l->v[l->n++], NAME_MAX + 1, "%s", e->d_name);
	}
	closedir(dd);
	return 0;
}

int mess_rundir_aside_commit(struct mess_rundir *d, const char *tmp,
			     const char *last)
{
	char a[PATH_MAX + NAME_MAX + 2], b[PATH_MAX + NAME_MAX + 2];
	struct names l;
	sigset_t all, old;
	int err = list(tmp, &l);

	/* Ctrl-C between two renames would leave half a set where a
	 * simulator looks for a whole one: the moves are a few system
	 * calls, signals wait for them. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	/* The marker last: until it is in, the directory holds no result
	 * a reader would take. */
	for (int pass = 0; !err && pass < 2; pass++)
		for (size_t i = 0; !err && i < l.n; i++) {
			if ((pass == 1) != (last && !strcmp(l.v[i], last)))
				continue;
			snprintf(a, sizeof(a), "%s/%s", tmp, l.v[i]);
			snprintf(b, sizeof(b), "%s/%s", d->dir, l.v[i]);
			if (rename(a, b))
				err = -errno;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(l.v);
	if (!err)
		rmdir(tmp);
	return err;
}

void mess_rundir_aside_abandon(const char *tmp)
{
	remove_tree(AT_FDCWD, tmp, 2);
}

void mess_rundir_clear(struct mess_rundir *d)
{
	struct dirent *e;
	DIR *dd = opendir(d->dir);

	while (dd && (e = readdir(dd)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, MESS_LOCK_FILE))
			remove_tree(dirfd(dd), e->d_name, 1);
	if (dd)
		closedir(dd);
	d->holds_run = 0;
}
