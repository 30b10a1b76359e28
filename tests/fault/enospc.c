// SPDX-License-Identifier: MIT
/*
 * A full disk on demand, for tests/faults.sh: LD_PRELOAD this and the
 * write(2) calls to any file whose name ends in $MESS_FAULT_FILE succeed
 * for $MESS_FAULT_BYTES bytes in all, then write what is left of that
 * budget (a write cut short, as a real disk gives) and fail with ENOSPC.
 * Other files, and every file when the variables are unset, are untouched.
 * stdio's writes do not go through write(2) here (glibc calls its own), so
 * fopen() of such a file opens /dev/full instead: every flush fails with
 * ENOSPC, the disk full from the first byte (MESS_FAULT_BYTES is not used).
 * open(2) of such a file for writing (the run directory's name.tmp, opened
 * then fdopen()ed) does the same: /dev/full, without the flags it refuses.
 * With $MESS_FAULT_OPENS=N the first N such whole-file opens go through:
 * the disk fills after N rewrites of a file rewritten a point at a time.
 * With $MESS_FAULT_SLOW_FILE, an open(2) of a file whose name ends so
 * first waits $MESS_FAULT_SLOW_MS (a slow disk): a test looks at the
 * writer while it is about to write that file (which lock it holds).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long budget = -1;

static int watched(int fd)
{
	const char *want = getenv("MESS_FAULT_FILE");
	char link[64], path[4096];
	ssize_t n;
	size_t w;

	if (!want || !*want)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	w = strlen(want);
	return (size_t)n >= w && !strcmp(path + n - w, want);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (!watched(fd))
		return real(fd, buf, len);
	if (budget < 0)
		budget = getenv("MESS_FAULT_BYTES") ? atol(getenv("MESS_FAULT_BYTES")) : 0;
	if (budget == 0) {
		errno = ENOSPC;
		return -1;
	}
	if ((long)len > budget)
		len = (size_t)budget;
	ssize_t n = real(fd, buf, len);

	if (n > 0)
		budget -= n;
	return n;
}

static int named(const char *path)
{
	const char *want = getenv("MESS_FAULT_FILE");
	size_t n = path ? strlen(path) : 0, w = want ? strlen(want) : 0;

	return w && n >= w && !strcmp(path + n - w, want);
}

FILE *fopen(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);

	if (!real)
		real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	return real(named(path) && strchr(mode, 'w') ? "/dev/full" : path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	return fopen(path, mode);
}

/* Whole-file writes go open() + fdopen(): /dev/full takes no O_CREAT,
 * O_EXCL, O_TRUNC or O_NOFOLLOW meaning, so they are dropped.  Appends
 * (O_APPEND) keep their file: write() above spends the byte budget. */
static void slow(const char *path)
{
	const char *want = getenv("MESS_FAULT_SLOW_FILE");
	size_t n = path ? strlen(path) : 0, w = want ? strlen(want) : 0;

	if (w && n >= w && !strcmp(path + n - w, want))
		usleep(1000 * (useconds_t)atol(getenv("MESS_FAULT_SLOW_MS") ?
						getenv("MESS_FAULT_SLOW_MS") : "1000"));
}

static const char *redirect(const char *path, int *flags)
{
	static long opens = -1;

	slow(path);
	if (!named(path) || (*flags & O_ACCMODE) == O_RDONLY || (*flags & O_APPEND))
		return path;
	if (opens < 0)
		opens = getenv("MESS_FAULT_OPENS") ? atol(getenv("MESS_FAULT_OPENS")) : 0;
	if (opens > 0) {
		opens--;
		return path;
	}
	*flags &= ~(O_CREAT | O_EXCL | O_TRUNC | O_NOFOLLOW);
	return "/dev/full";
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ?
	       (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	if (!real)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	path = redirect(path, &flags);
	return real(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	if (!real)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
	path = redirect(path, &flags);
	return real(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	if (!real)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	path = redirect(path, &flags);
	return real(dirfd, path, flags, mode);
}
