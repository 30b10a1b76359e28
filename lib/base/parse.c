// SPDX-License-Identifier: MIT
/* Strict text parsing and the error line of the file readers. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif
#include <unistd.h>

#include "mess/parse.h"

#define QUOTE_MAX 40

/* A message is one line on a terminal: no byte of the input may break it. */
char *mess_one_line(char *s)
{
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

void mess_say(const char *fmt, ...)
{
	va_list ap;
	char *buf = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* the caller's own line end, not one of the text's */
	if (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	fprintf(stderr, "%s\n", mess_one_line(buf));
	free(buf);
}

void mess_set_verr(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
}

void mess_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mess_set_verr(err, errlen, fmt, ap);
	va_end(ap);
}

int mess_fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mess_set_verr(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

int mess_file_verr(char *err, size_t errlen, const char *file, long line,
		   const char *fmt, va_list ap)
{
	size_t used;
	int n;

	if (!err || !errlen)
		return -EINVAL;
	if (line > 0)
		n = snprintf(err, errlen, "%s:%ld: ", file, line);
	else
		n = snprintf(err, errlen, "%s: ", file);
	used = n < 0 ? 0 : (size_t)n;
	if (used < errlen)
		mess_set_verr(err + used, errlen - used, fmt, ap);
	mess_one_line(err);
	return -EINVAL;
}

int mess_file_err(char *err, size_t errlen, const char *file, long line,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mess_file_verr(err, errlen, file, line, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *mess_quote(char *buf, size_t len, const char *s)
{
	size_t n = strnlen(s, QUOTE_MAX + 1);

	if (n > QUOTE_MAX)
		snprintf(buf, len, "%.*s...", QUOTE_MAX, s);
	else
		snprintf(buf, len, "%s", s);
	mess_one_line(buf);
	return buf;
}

char *mess_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int mess_blank(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

size_t mess_split(char *line, char sep, char **fields, size_t max)
{
	size_t n = 0;

	for (;;) {
		char *at = strchr(line, sep);

		if (n < max)
			fields[n] = line;
		n++;
		if (!at)
			return n;
		*at = '\0';
		line = at + 1;
	}
}

int mess_parse_double(char *field, int allow_empty, double *out)
{
	char *s = mess_trim(field), *end;
	double v;

	if (!*s) {
		if (!allow_empty)
			return -EINVAL;
		*out = NAN;
		return 0;
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno == ERANGE || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

const char *mess_number_why(const char *field)
{
	char *end;
	double v;

	while (isspace((unsigned char)*field))
		field++;
	if (!*field)
		return "is empty";
	v = strtod(field, &end);
	if (end == field || !mess_blank(end))
		return "is not a number";
	if (isnan(v))
		return "is NaN";
	return "is infinite or out of range";
}

/* strtoull() would take "-1" and " 7". */
int mess_parse_u64(char *field, uint64_t max, uint64_t *out)
{
	char *s = mess_trim(field);
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned d;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int mess_parse_pct(const char *s, size_t n, int *r)
{
	size_t i;
	int v = 0;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (s[i] - '0');
		if (v > 100)
			return -EINVAL;
	}
	*r = v;
	return 0;
}

const char *mess_file_kind(unsigned m)
{
	switch (m & S_IFMT) {
	case S_IFREG:
		return "a file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a pipe";
	case S_IFSOCK:
		return "a socket";
	default:
		return "a device";
	}
}

/*
 * A kernel file system's files: S_ISREG, st_size 0, and a read may block
 * (/proc/kmsg) or never end (/proc/self/pagemap: 256 GiB of zeros and
 * never a newline, which getline() takes whole).  No input of the suite
 * is one, so an input there is refused at the open, before any read:
 * a deadline between reads could not interrupt one blocked read, and a
 * byte cap alone would still take a gigabyte of /dev/zero-like text.  A
 * regular file on a disk ends: its size, checked against max at the
 * open, bounds its reads.
 */
static int kernel_fs(int fd)
{
#ifdef __linux__
	static const unsigned long magic[] = {
		0x9fa0,		/* proc */
		0x62656572,	/* sysfs */
		0x64626720,	/* debugfs */
		0x74726163,	/* tracefs */
		0x73636673,	/* securityfs */
		0x27e0eb,	/* cgroup */
		0x63677270,	/* cgroup2 */
		0x62656570,	/* configfs */
		0xcafe4a11,	/* bpf */
		0xde5e81e4,	/* efivarfs */
	};
	struct statfs sf;

	if (fstatfs(fd, &sf))
		return 0;
	for (size_t i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if ((unsigned long)sf.f_type == magic[i])
			return 1;
#else
	(void)fd;
#endif
	return 0;
}

int mess_open_input(const char *path, int how, const char *allowed,
		    long long max, int *fd, char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO nobody writes would wait for ever. */
	int f = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
		     (how & MESS_IN_NOFOLLOW ? O_NOFOLLOW : 0)), ret = 0;
	struct stat st;

	if (f < 0) {
		ret = -errno;
		if (ret == -ELOOP && (how & MESS_IN_NOFOLLOW)) {
			if (err)
				mess_file_err(err, errlen, path, 0,
					      "a symbolic link, not followed: a set's own file is never one, and a link could show any file%s%s",
					      allowed ? "; allowed: " : "",
					      allowed ? allowed : "");
			return -EINVAL;
		}
		if (err)
			mess_file_err(err, errlen, path, 0, "%s", strerror(-ret));
		/* A folder of the path that is a file (a raw tree whose lat
		 * is one): the input's layout, bad input like a pipe. */
		return ret == -ENOTDIR ? -EINVAL : ret;
	}
	if (fstat(f, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	else if (!(how & MESS_IN_KERNEL) && kernel_fs(f))
		ret = -ENODATA;
	else if (max > 0 && st.st_size > max)
		ret = -EFBIG;
	else if (fcntl(f, F_SETFL, fcntl(f, F_GETFL) & ~O_NONBLOCK))
		ret = -errno;
	if (ret && err) {
		/* Without allowed, the caller says what it reads there. */
		if (ret == -EFBIG)
			mess_file_err(err, errlen, path, 0,
				      "%lld bytes, more than a reader of mess takes (%lld MiB)%s%s",
				      (long long)st.st_size, max >> 20,
				      allowed ? "; allowed: " : "",
				      allowed ? allowed : "");
		else if (ret == -ENODATA)
			mess_file_err(err, errlen, path, 0,
				      "a kernel file (/proc, /sys), not a regular file: it may never end%s%s",
				      allowed ? "; allowed: " : "",
				      allowed ? allowed : "");
		else if ((ret == -EINVAL || ret == -EISDIR) && allowed)
			mess_file_err(err, errlen, path, 0, "%s; allowed: %s",
				      mess_file_kind(st.st_mode), allowed);
		else if (ret == -EINVAL || ret == -EISDIR)
			mess_file_err(err, errlen, path, 0,
				      "%s, not a regular file",
				      mess_file_kind(st.st_mode));
		else
			mess_file_err(err, errlen, path, 0, "%s", strerror(-ret));
	}
	if (ret) {
		close(f);
		/* bad input, as a pipe is */
		return ret == -ENODATA ? -EINVAL : ret;
	}
	*fd = f;
	return 0;
}

int mess_open_regular(const char *path, const char *allowed, long long max,
		      int *fd, char *err, size_t errlen)
{
	return mess_open_input(path, 0, allowed, max, fd, err, errlen);
}

FILE *mess_fopen_input(const char *path, int how, char *err, size_t errlen)
{
	int fd, ret = mess_open_input(path, how, NULL, MESS_READ_MAX, &fd, err,
				      errlen);
	FILE *fp;

	if (ret) {
		errno = -ret;
		return NULL;
	}
	fp = fdopen(fd, "r");
	if (!fp) {
		ret = errno;
		close(fd);
		if (err)
			mess_file_err(err, errlen, path, 0, "%s", strerror(ret));
		errno = ret;
	}
	return fp;
}

FILE *mess_fopen_regular(const char *path, char *err, size_t errlen)
{
	return mess_fopen_input(path, 0, err, errlen);
}

int mess_lines_open(struct mess_lines *l, const char *path, char *err,
		    size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->path = path;
	l->fp = mess_fopen_regular(path, err, errlen);
	/* a directory is bad input like a pipe, whatever its errno */
	return l->fp ? 0 : errno == EISDIR ? -EINVAL : -errno;
}

int mess_lines_next(struct mess_lines *l, char *err, size_t errlen)
{
	ssize_t n = getline(&l->line, &l->cap, l->fp);

	if (n < 0) {
		if (ferror(l->fp)) {
			mess_file_err(err, errlen, l->path, l->no + 1,
				      "read error: %s", strerror(errno));
			return -EIO;
		}
		return 0;
	}
	l->no++;
	if ((size_t)n != strlen(l->line))
		return mess_file_err(err, errlen, l->path, l->no,
				     "NUL byte: not a text file");
	/* Spreadsheet exports may start with a UTF-8 byte order mark. */
	if (l->no == 1 && !strncmp(l->line, "\xef\xbb\xbf", 3)) {
		n -= 3;
		memmove(l->line, l->line + 3, (size_t)n + 1);
	}
	while (n && (l->line[n - 1] == '\n' || l->line[n - 1] == '\r'))
		l->line[--n] = '\0';
	return 1;
}

void mess_lines_close(struct mess_lines *l)
{
	free(l->line);
	l->line = NULL;
	if (l->fp)
		fclose(l->fp);
	l->fp = NULL;
}

/* A table, not one check per caller.  Every format takes the name, then
 * the value. */
static const struct {
	double lo;
	int lo_open;
	double hi;
	const char *lo_fmt, *hi_fmt;
} num_rules[] = {
	[MESS_NUM_ANY] = { -INFINITY, 0, INFINITY, "", "" },
	[MESS_NUM_NONNEG] = { 0.0, 0, INFINITY, "negative %s: %g", "" },
	[MESS_NUM_POS] = { 0.0, 1, INFINITY, "%s must be > 0: %g", "" },
	[MESS_NUM_PCT] = { 0.0, 0, 100.0, "%s outside 0..100: %g",
			   "%s outside 0..100: %g" },
	[MESS_NUM_GBS] = { 0.0, 0, MESS_MAX_GBS, "negative %s: %g",
			   "%s beyond any memory system: %g (at most 1e6 GB/s)" },
	[MESS_NUM_MBS] = { 0.0, 0, MESS_MAX_GBS * 1e3, "negative %s: %g",
			   "%s beyond any memory system: %g (at most 1e9 MB/s)" },
	[MESS_NUM_NS] = { 0.0, 1, MESS_MAX_NS, "%s must be > 0: %g",
			  "%s beyond any memory system: %g (at most 1e9 ns)" },
	[MESS_NUM_NS0] = { 0.0, 0, MESS_MAX_NS, "negative %s: %g",
			   "%s beyond any memory system: %g (at most 1e9 ns)" },
	[MESS_NUM_GHZ] = { MESS_MIN_GHZ, 0, MESS_MAX_GHZ,
			   "%s below any CPU clock: %g (allowed: 0.1..20 GHz)",
			   "%s beyond any CPU clock: %g (allowed: 0.1..20 GHz)" },
	[MESS_NUM_LINE] = { MESS_MIN_LINE, 0, MESS_MAX_LINE,
			    "%s below any cache line: %g (allowed: 16..1024 bytes)",
			    "%s beyond any cache line: %g (allowed: 16..1024 bytes)" },
	[MESS_NUM_TLB_NS] = { 0.0, 0, MESS_MAX_TLB_NS,
			      "negative %s: %g (allowed: 0..100 ns)",
			      "%s beyond any TLB hit: %g (allowed: 0..100 ns)" },
	[MESS_NUM_MEM_MTS] = { MESS_MIN_MEM_MTS, 0, MESS_MAX_MEM_MTS,
			       "%s below any memory clock: %g (allowed: 10..100000 MT/s)",
			       "%s beyond any memory clock: %g (allowed: 10..100000 MT/s)" },
	[MESS_NUM_CHANNELS] = { 1.0, 0, MESS_MAX_CHANNELS,
				"%s below any memory system: %g (allowed: 1..4096 channels)",
				"%s beyond any memory system: %g (allowed: 1..4096 channels)" },
	[MESS_NUM_BUS_BITS] = { MESS_MIN_BUS_BITS, 0, MESS_MAX_BUS_BITS,
				"%s below any memory bus: %g (allowed: 8..8192 bits)",
				"%s beyond any memory bus: %g (allowed: 8..8192 bits)" },
	[MESS_NUM_PEAK_GBS] = { MESS_MIN_PEAK_GBS, 0, MESS_MAX_PEAK_GBS,
				"%s below any memory system: %g GB/s (allowed: 0.001..1e7 GB/s)",
				"%s beyond any memory system: %g GB/s (allowed: 0.001..1e7 GB/s)" },
};

const char *mess_num_problem(double v, enum mess_num_rule rule)
{
	if (v < num_rules[rule].lo ||
	    (num_rules[rule].lo_open && v == num_rules[rule].lo))
		return num_rules[rule].lo_fmt;
	if (v > num_rules[rule].hi)
		return num_rules[rule].hi_fmt;
	return NULL;
}

int mess_field_num(const struct mess_lines *l, char *field, const char *name,
		   int allow_empty, enum mess_num_rule rule, double *out,
		   char *err, size_t errlen)
{
	const char *why;
	char q[64];
	double v;

	if (mess_parse_double(field, allow_empty, &v))
		return mess_file_err(err, errlen, l->path, l->no, "%s %s: '%s'",
				     name, mess_number_why(field),
				     mess_quote(q, sizeof(q), mess_trim(field)));
	why = isnan(v) ? NULL : mess_num_problem(v, rule);
	if (why) {
		char what[128];

		/* fmt is one of the table's, all "%s ... %g". */
		snprintf(what, sizeof(what), why, name, v);
		return mess_file_err(err, errlen, l->path, l->no, "%s", what);
	}
	*out = v;
	return 0;
}

int mess_field_count(const struct mess_lines *l, char *field,
		     const char *name, uint64_t *out, char *err, size_t errlen)
{
	char q[64];
	double v;
	int ret = mess_field_num(l, field, name, 0, MESS_NUM_NONNEG, &v, err,
				 errlen);

	if (ret)
		return ret;
	if (v != floor(v) || v >= 18446744073709551616.0)
		return mess_file_err(err, errlen, l->path, l->no,
				     "%s is not a whole count: '%s'", name,
				     mess_quote(q, sizeof(q), mess_trim(field)));
	*out = (uint64_t)v;
	return 0;
}

int mess_field_u64(const struct mess_lines *l, char *field, const char *name,
		   uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	char q[64];

	if (mess_parse_u64(field, max, out))
		return mess_file_err(err, errlen, l->path, l->no,
				     "%s is not an integer 0..%llu: '%s'", name,
				     (unsigned long long)max,
				     mess_quote(q, sizeof(q), mess_trim(field)));
	return 0;
}
