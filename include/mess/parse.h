/* SPDX-License-Identifier: MIT */
/*
 * Strict text parsing shared by the file readers (messfmt, profet, load):
 * numbers that must fill their field, a line reader that counts lines, and
 * the one error line every reader writes, "<file>:<line>: <what>", so that
 * a user can open the file at the place that is wrong.
 */
#ifndef MESS_PARSE_H
#define MESS_PARSE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Write "<file>:<line>: <what>" to err (line 0: "<file>: <what>"), one line
 * however odd the input: control characters become '?'.  err may be NULL.
 * Returns -EINVAL, the code of malformed input, so that a reader can
 * `return mess_file_err(...)`.
 */
int mess_file_err(char *err, size_t errlen, const char *file, long line,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
int mess_file_verr(char *err, size_t errlen, const char *file, long line,
		   const char *fmt, va_list ap);

/* err (when given room; err may be NULL) is the printf-formatted reason:
 * the one formatter of every error the library and the harness word. */
void mess_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void mess_set_verr(char *err, size_t errlen, const char *fmt, va_list ap);
/* The same, returning ret: `return mess_fail(err, errlen, -EINVAL, ...)`. */
int mess_fail(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* s (NUL-terminated) quoted for an error message: at most 40 characters,
 * control characters as '?', "..." when cut.  Returns buf. */
const char *mess_quote(char *buf, size_t len, const char *s);

/* s made one line in place: control characters (newline, tab, ESC...)
 * as '?'.  For a message, or a value of a one-line-per-record file that
 * came from a file someone sent.  Returns s. */
char *mess_one_line(char *s);
/*
 * A message on stderr, one line whatever a file or a path put in it: the
 * formatted text through mess_one_line (ESC, BEL, CR, newline as '?'), one
 * line end after it.  The printer of every message that names a path or
 * shows text taken from a file.
 */
void mess_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Leading and trailing white space removed (in place). */
char *mess_trim(char *s);
/* Only white space. */
int mess_blank(const char *s);

/*
 * Split a line in place at every sep.  Returns the field count, which may
 * exceed max (only the first max are stored).  No quoting: the files read
 * here never quote.
 */
size_t mess_split(char *line, char sep, char **fields, size_t max);

/*
 * A finite number filling the whole (trimmed) field: 0, or -EINVAL.  An
 * empty field is NAN when allow_empty, else -EINVAL.  "nan" and "inf" are
 * refused: a missing value is an empty field, a spelled-out one corruption.
 */
int mess_parse_double(char *field, int allow_empty, double *out);
/* Why mess_parse_double() refused field: "is empty", "is not a number",
 * "is NaN" or "is infinite or out of range". */
const char *mess_number_why(const char *field);
/* Decimal digits only (no sign, no blank inside), at most max. */
int mess_parse_u64(char *field, uint64_t max, uint64_t *out);

/* A read percentage naming a curve (file name, JSON key): the n bytes at s
 * are decimal digits only (n >= 1) worth 0..100.  0 or -EINVAL. */
int mess_parse_pct(const char *s, size_t n, int *r);

/*
 * The most a curve value can be: far beyond any memory system (a DRAM
 * channel moves tens of GB/s, a whole HBM machine some TB/s; a load that
 * misses everything waits microseconds), yet small enough that every sum,
 * product and %.3f the model and the exports make of it stays finite.
 * A file holding more (1e308, once: bwlat_100.txt began "inf") is damaged.
 */
#define MESS_MAX_GBS 1e6	/* GB/s: 1 PB/s */
#define MESS_MAX_NS 1e9		/* ns: one second for one access */
/*
 * What describes the machine: a CPU clock (the fastest ever overclocked
 * ran under 10 GHz), a cache line (16 B on the smallest cores, 256 B on
 * A64FX), the time of one second-level TLB hit (some ns; Mess assumes
 * 10).  Beyond these a figure computed from them is made up.
 */
#define MESS_MIN_GHZ 0.1	/* no core Mess runs on clocks under 100 MHz */
#define MESS_MAX_GHZ 20.0
#define MESS_MIN_LINE 16.0
#define MESS_MAX_LINE 1024.0
#define MESS_MAX_TLB_NS 100.0
/*
 * plotter.txt's memory system, which makes the theoretical peak: a
 * transfer rate from SDR's 10 MHz to 100 GT/s (DDR5 is 4800-8800 MT/s,
 * HBM3E 9600), 1..4096 channels (a node's sockets' DDR channels or HBM
 * pseudo-channels), a channel's bus 8 (LPDDR's x8) to 8192 bits (HBM's
 * 1024 x 8); the peak they give, as --peak-gbs's range
 * (harness/core/options.h): 1 MB/s to 10 PB/s.
 */
#define MESS_MIN_MEM_MTS 10.0
#define MESS_MAX_MEM_MTS 1e5
#define MESS_MAX_CHANNELS 4096.0
#define MESS_MIN_BUS_BITS 8.0
#define MESS_MAX_BUS_BITS 8192.0
#define MESS_MIN_PEAK_GBS 0.001
#define MESS_MAX_PEAK_GBS 1e7

/* What a value must be, beyond finite. */
enum mess_num_rule {
	MESS_NUM_ANY,
	MESS_NUM_NONNEG,	/* spreads, counts */
	MESS_NUM_POS,		/* clocks */
	MESS_NUM_PCT,		/* a read share naming a curve: 0..100 */
	MESS_NUM_GBS,		/* a bandwidth: 0..MESS_MAX_GBS GB/s */
	MESS_NUM_MBS,		/* the same in MB/s (bwlat, PROFET) */
	MESS_NUM_NS,		/* a latency: > 0 (a load never takes no
				 * time) .. MESS_MAX_NS */
	MESS_NUM_NS0,		/* a latency's spread: 0..MESS_MAX_NS */
	MESS_NUM_GHZ,		/* a CPU clock: MESS_MIN_GHZ..MESS_MAX_GHZ */
	MESS_NUM_LINE,		/* a cache line's bytes */
	MESS_NUM_TLB_NS,	/* one TLB hit: 0..MESS_MAX_TLB_NS ns */
	MESS_NUM_MEM_MTS,	/* a memory transfer rate, MT/s */
	MESS_NUM_CHANNELS,	/* memory channels: 1..MESS_MAX_CHANNELS */
	MESS_NUM_BUS_BITS,	/* a channel's data bus, bits */
	MESS_NUM_PEAK_GBS,	/* a theoretical peak, GB/s */
};

/* NULL when v obeys rule, else a format of what is wrong, taking the
 * value's name and the value ("negative %s: %g"). */
const char *mess_num_problem(double v, enum mess_num_rule rule);

/*
 * The most a reader takes of one file: a text or JSON file of the suite
 * holds some hundred MB at most (10^6 points); more is not one of ours,
 * and no reader may fill memory with it.
 */
#define MESS_READ_MAX ((long long)1 << 30)

/* What a file of mode m is, for a message: "a pipe", "a directory",
 * "a device", "a socket", "a file". */
const char *mess_file_kind(unsigned m);

/*
 * path opened for reading, a regular file only (a symlink to one is one):
 * the one opener of every file a user or a run directory gives a reader.
 * 0 and *fd (O_CLOEXEC, blocking reads), or -errno with "<path>: <why>" in
 * err (may be NULL): a pipe, device or socket -EINVAL ("<path>: a pipe,
 * not a regular file", or with allowed "<path>: a pipe; allowed:
 * <allowed>"), a directory -EISDIR, more than max bytes (0: no cap)
 * -EFBIG.  A FIFO never blocks the open: it is opened O_NONBLOCK and
 * refused after fstat.
 */
int mess_open_regular(const char *path, const char *allowed, long long max,
		      int *fd, char *err, size_t errlen);
/*
 * The same with how: MESS_IN_NOFOLLOW for a name the suite writes in a
 * set (meta.json, interference.csv) or copies into a page (system.md,
 * plotter.txt): a symbolic link there is refused (-EINVAL, "<path>: a
 * symbolic link, not read"), never followed out of the set; a set's own
 * directory may be a link, which is the user's choice.  Every input is
 * refused on a kernel file system (/proc, /sys: -EINVAL, "a kernel file"),
 * whose files are S_ISREG but may block or never end, unless how holds
 * MESS_IN_KERNEL (the readers of this machine's sysfs).
 */
#define MESS_IN_NOFOLLOW 1
#define MESS_IN_KERNEL 2
int mess_open_input(const char *path, int how, const char *allowed,
		    long long max, int *fd, char *err, size_t errlen);
FILE *mess_fopen_input(const char *path, int how, char *err, size_t errlen);
/* The same, at most MESS_READ_MAX bytes, as a stream: NULL with errno set
 * and the reason in err. */
FILE *mess_fopen_regular(const char *path, char *err, size_t errlen);

/* A file read line by line, counting lines for the error messages. */
struct mess_lines {
	FILE *fp;
	const char *path;
	char *line;		/* the current line, without its line end */
	size_t cap;
	long no;		/* its number, from 1 */
};

/* 0, or -errno of mess_fopen_regular() (a directory -EINVAL, not
 * -EISDIR: bad input) with "<path>: <why>" in err. */
int mess_lines_open(struct mess_lines *l, const char *path, char *err,
		    size_t errlen);
/*
 * The next line in l->line, "\n" or "\r\n" removed, and a UTF-8 byte
 * order mark before the first (an editor's, not part of a key): 1, 0 at the end,
 * -EINVAL for a line holding a NUL byte (not a text file) or -EIO, with the
 * error in err.
 */
int mess_lines_next(struct mess_lines *l, char *err, size_t errlen);
void mess_lines_close(struct mess_lines *l);

/*
 * Checked fields of the current line of l, each 0 or -EINVAL with
 * "<file>:<line>: <name> <what is wrong>: <value>" in err.
 * mess_field_num: a number obeying rule; an empty field is NAN when
 * allow_empty.  mess_field_count: a whole number >= 0, which may be written
 * as a float ("400000.0").  mess_field_u64: decimal digits, at most max.
 */
int mess_field_num(const struct mess_lines *l, char *field, const char *name,
		   int allow_empty, enum mess_num_rule rule, double *out,
		   char *err, size_t errlen);
int mess_field_count(const struct mess_lines *l, char *field,
		     const char *name, uint64_t *out, char *err,
		     size_t errlen);
int mess_field_u64(const struct mess_lines *l, char *field, const char *name,
		   uint64_t max, uint64_t *out, char *err, size_t errlen);

#endif
