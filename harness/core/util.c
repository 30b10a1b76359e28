// SPDX-License-Identifier: MIT
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int mkdir_one(const char *dir)
{
	struct stat st;

	if (!mkdir(dir, 0777))
		return 0;
	if (errno != EEXIST)
		return -errno;
	if (stat(dir, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int mess_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	int err;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		err = mkdir_one(tmp);
		if (err)
			return err;
		*p = '/';
	}
	return mkdir_one(tmp);
}

void mess_host_path_name(char *buf, size_t len)
{
	size_t i;

	if (len < 5)
		return;
	if (gethostname(buf, len - 1) || !buf[0])
		snprintf(buf, len, "host");
	buf[len - 1] = 0;
	for (i = 0; buf[i]; i++) {
		char c = buf[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '_' ||
			 (c == '.' && i && buf[i - 1] != '.');

		if (!ok)
			buf[i] = '_';
	}
}

int mess_subdir(const char *path)
{
	struct stat st;

	if (mkdir(path, 0777) && errno != EEXIST)
		return -errno;
	if (lstat(path, &st))
		return -errno;
	return S_ISLNK(st.st_mode) ? -ELOOP : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int mess_open_new(const char *path, int flags)
{
	/* Whatever has the name goes first: a link (symbolic or hard) is
	 * removed, never written through, and O_EXCL then makes a file no
	 * one else names.  A directory stays and refuses (EEXIST). */
	if (unlink(path) && errno != ENOENT && errno != EISDIR && errno != EPERM)
		return -1;
	return open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
}

FILE *mess_fopen_new(const char *path)
{
	int fd = mess_open_new(path, O_WRONLY);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

FILE *mess_file_open(const char *dir, const char *name, const char *mode)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return mode[0] == 'w' && !mode[1] ? mess_fopen_new(path) : fopen(path, mode);
}

/* The first write that failed since the last clear, and its error: the
 * line a command ends with names the file (a full disk) wherever in the
 * command it happened, and no later write (meta.json saying incomplete)
 * takes its place. */
static char failed_path[PATH_MAX + 64];
static int failed_err;

static int note_failed(const char *path, int err)
{
	if (err && !failed_err) {
		snprintf(failed_path, sizeof(failed_path), "%s", path);
		failed_err = err;
	}
	return err;
}

static int note_failed_in(const char *dir, const char *name, int err)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return note_failed(path, err);
}

void mess_write_failed_clear(void)
{
	failed_err = 0;
	failed_path[0] = '\0';
}

const char *mess_write_failed(int err)
{
	return err && err == failed_err ? failed_path : NULL;
}

int mess_write_failed_say(const char *cmd, int err, const char *then)
{
	const char *path = mess_write_failed(err);

	if (!path)
		return 0;
	fprintf(stderr, "%s: %s: cannot write: %s%s; %s\n", cmd, path,
		strerror(-err), err == -ENOSPC ? " (disk full)" : "", then);
	return 1;
}

FILE *mess_tmp_open(const char *dir, const char *name)
{
	char tmp[128];

	char path[PATH_MAX + 64];
	FILE *f;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	snprintf(path, sizeof(path), "%s/%s", dir, tmp);
	/* A link planted as name.tmp, symbolic or hard, is removed, never
	 * written through (the rename then replaces a link, never its
	 * target). */
	fd = mess_open_new(path, O_WRONLY);
	if (fd < 0) {
		int e = errno;

		note_failed_in(dir, name, -e);
		errno = e;
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

int mess_tmp_commit(const char *dir, const char *name, FILE *f)
{
	char a[PATH_MAX + 64], b[PATH_MAX + 64];
	int err = 0;

	/* fflush first: its errno (ENOSPC) is the one worth reporting. */
	if (fflush(f) || ferror(f))
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = errno ? -errno : -EIO;
	snprintf(a, sizeof(a), "%s/%s.tmp", dir, name);
	snprintf(b, sizeof(b), "%s/%s", dir, name);
	if (!err && rename(a, b))
		err = -errno;
	/* A half-written replacement is worth nothing: the old file stays. */
	if (err)
		unlink(a);
	return note_failed(b, err);
}

int mess_tmp_write(const char *dir, const char *name,
		   void (*fn)(FILE *f, const void *arg), const void *arg)
{
	FILE *f = mess_tmp_open(dir, name);

	if (!f)
		return -errno;	/* noted by the open */
	fn(f, arg);
	return mess_tmp_commit(dir, name, f);
}

int mess_json_write(const char *dir, const char *name, json_t *j)
{
	FILE *f;
	int err;

	if (!j)
		return -ENOMEM;
	f = mess_tmp_open(dir, name);
	if (!f) {
		err = -errno;
		json_decref(j);
		return err;
	}
	err = mess_json_dumpf(j, f);
	json_decref(j);
	if (!err)
		return mess_tmp_commit(dir, name, f);
	return mess_tmp_abandon(dir, name, f, err);
}

void mess_csv_num(FILE *f, double v, int dec)
{
	if (isfinite(v))
		fprintf(f, ",%.*f", dec, v);
	else
		fputc(',', f);
}

int mess_tmp_abandon(const char *dir, const char *name, FILE *f, int err)
{
	/* A stream that failed kept no errno: one more byte, flushed, fails
	 * again the same way (ENOSPC), and the file is discarded anyway. */
	if (ferror(f)) {
		clearerr(f);
		errno = 0;
		if ((fputc('\n', f) == EOF || fflush(f)) && errno)
			err = -errno;
	}
	fclose(f);
	mess_tmp_discard(dir, name);
	return note_failed_in(dir, name, err);
}

void mess_tmp_discard(const char *dir, const char *name)
{
	char a[PATH_MAX + 64];

	snprintf(a, sizeof(a), "%s/%s.tmp", dir, name);
	unlink(a);
}

int mess_append_open(struct mess_appender *a, const char *dir,
		     const char *name)
{
	struct stat st;

	snprintf(a->path, sizeof(a->path), "%s/%s", dir, name);
	/* Rows are never appended through a link, out of the run directory:
	 * ELOOP. */
	a->fd = open(a->path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
		     O_CLOEXEC, 0666);
	if (a->fd < 0)
		return note_failed(a->path, -errno);
	/* Nor into a file of another name too (a hard link's other name
	 * is someone else's file). */
	if (fstat(a->fd, &st) || (S_ISREG(st.st_mode) && st.st_nlink != 1)) {
		int err = fstat(a->fd, &st) ? -errno : -EMLINK;

		close(a->fd);
		a->fd = -1;
		return err;
	}
	a->size = st.st_size;
	return 0;
}

int mess_append(struct mess_appender *a, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(a->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -EIO;

			/* Never leave a partial line for the next one to be
			 * appended onto. */
			if (ftruncate(a->fd, a->size))
				return note_failed(a->path, err);
			return note_failed(a->path, err);
		}
		done += (size_t)n;
	}
	a->size += (off_t)len;
	return 0;
}

void mess_append_close(struct mess_appender *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
}

int mess_drop_partial_line(const char *path, long *line)
{
	char buf[4096];
	off_t end, keep = 0, pos = 0;
	long lines = 0;
	int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC), err = 0;
	ssize_t n;

	*line = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	end = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	/* keep: the byte after the last newline. */
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] == '\n') {
				keep = pos + i + 1;
				lines++;
			}
		pos += n;
	}
	if (n < 0)
		err = -errno;
	else if (keep < end) {
		*line = lines + 1;
		if (ftruncate(fd, keep))
			err = -errno;
	}
	close(fd);
	return err;
}

/* The directory of the running executable, without the trailing slash. */
static int exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len);
	char *slash;

	if (n <= 0)
		return -ENOENT;
	if ((size_t)n >= len)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	return 0;
}

static int try_file(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return access(buf, R_OK) ? -ENOENT : 0;
}

int mess_data_file(const char *name, char *buf, size_t len)
{
	const char *env = getenv("MESS_DATADIR");
	char dir[PATH_MAX], sub[PATH_MAX + 32];
	int err;

	if (env && *env)
		return try_file(buf, len, env, name);
	err = exe_dir(dir, sizeof(dir));
	if (err)
		return err;
	/* Installed: <prefix>/bin/mess reads <prefix>/share/mess; in the build
	 * tree the tests (build/<arch>/tests/) reach the staged data the same
	 * way. */
	snprintf(sub, sizeof(sub), "%s/../share/mess", dir);
	if (!try_file(buf, len, sub, name))
		return 0;
	/* The build tree: build/<arch>/mess next to build/<arch>/share/mess. */
	snprintf(sub, sizeof(sub), "%s/share/mess", dir);
	return try_file(buf, len, sub, name);
}

int mess_proc_key(const char *path, const char *key, int base,
		  unsigned long long *v)
{
	FILE *f = fopen(path, "r");
	size_t kl = strlen(key);
	char line[256];
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *end;

		if (strncmp(line, key, kl) || line[kl] != ':')
			continue;
		errno = 0;
		*v = strtoull(line + kl + 1, &end, base);
		err = errno || end == line + kl + 1 ? -EINVAL : 0;
		break;
	}
	fclose(f);
	return err;
}

const char *mess_argv0;

int mess_fault_impossible(unsigned long k)
{
	const char *f = getenv("MESS_FAULT_IMPOSSIBLE");
	char *end;

	while (f && *f) {
		unsigned long v = strtoul(f, &end, 10);

		if (end == f)
			return 0;
		if (v == k)
			return 1;
		f = *end == ',' ? end + 1 : end;
	}
	return 0;
}

const char *mess_invocation(const char *cmd, char *buf, size_t len)
{
	const char *as = getenv("MESS_INVOKED_AS");
	const char *sub = strncmp(cmd, "mess", 4) ? "" : cmd + 4;

	if (!as || !*as)
		as = mess_argv0 && *mess_argv0 ? mess_argv0 : "mess";
	snprintf(buf, len, "%s%s", as, sub);
	return buf;
}
