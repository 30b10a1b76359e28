/* SPDX-License-Identifier: MIT */
/*
 * An application's DRAM traffic over time, read from the counter tools
 * users already run, so that it can be placed on a curve family
 * (`mess position`).  Pure parsing: no counter is read here.
 *
 * Accepted (the format is detected from the file):
 *  - `perf stat -I <ms> -x,` output ("perf-stat"):
 *      time,[aggregation id,[cpus,]]count,unit,event,run_time,pct_running,...
 *    '#' lines and blank lines are comments.  Rows with the same time are
 *    one interval (the time is its end, in s from the start); every row
 *    whose event matches the read (write) expression is summed, so several
 *    channels, PMUs or sockets add up.  An event name holding commas
 *    (pmu/event=0x4,umask=0x3/) is joined back.  The unit column says what
 *    a count is: empty = events, each bytes_per_count bytes (a CAS moves
 *    one 64-byte line); B/Bytes, KiB, MiB, GiB (perf applied the event's
 *    scale); kB, MB, GB.  "<not counted>" and "<not supported>" make the
 *    interval unmeasured, never 0.  perf already scaled multiplexed counts;
 *    the lowest pct_running of the interval is kept.
 *  - likwid-perfctr timeline mode (-t, "likwid-timeline"): the header
 *      # GID|MetricsCount|CpuCount|Total runtime [s]|<metric>|...
 *    then rows "GID MetricsCount CpuCount time value..." (blanks or commas).
 *    Values are matched to names when the header names every value (or
 *    CpuCount is 1): likwid does not document the order of the values of
 *    several CPUs, so a header naming each metric once for several CPUs is
 *    refused.  Other lines (likwid's banner, the program's output) are
 *    skipped.  The time column is cumulative; each row is one interval.
 *  - likwid-perfctr -O CSV ("likwid-csv"): every "TABLE,...Metric..." table
 *    that is not a STAT table (the whole run, or one marker region) is one
 *    interval; its length is the "Runtime (RDTSC) [s]" row (largest over
 *    the threads), the regions laid end to end; the values of the
 *    HWThread columns are summed ("-": not on that thread).
 *  For both likwid formats the metrics are those of the MEM groups:
 *  "Memory read data volume [GBytes]" (preferred) or "Memory read
 *  bandwidth [MBytes/s]" (times the interval), and the write ones; the
 *  unit in brackets says how to read a mapped metric (GBytes, MBytes,
 *  Bytes, or the same per s).  "nan" values make the interval unmeasured.
 *
 * Errors: one line "file:line: what is wrong" (or "file: ..." when no
 * line is to blame).
 */
#ifndef MESS_TRACE_H
#define MESS_TRACE_H

#include <regex.h>
#include <stddef.h>

enum mess_trace_status {
	MESS_TRACE_MEASURED,
	MESS_TRACE_NOT_COUNTED,		/* perf "<not counted>", likwid nan */
	MESS_TRACE_NOT_SUPPORTED,	/* perf "<not supported>" */
};

struct mess_trace_interval {
	double t_end_s;		/* end, s from the start of the trace */
	double dur_s;
	double read_bytes, write_bytes;	/* NAN unless measured */
	double running_pct;	/* lowest perf pct_running, NAN unknown */
	enum mess_trace_status status;
	int line;		/* its first line in the file */
	char label[64];		/* likwid marker region, or "" */
};

struct mess_trace {
	const char *format;	/* "perf-stat", "likwid-timeline", "likwid-csv" */
	size_t n, cap;
	struct mess_trace_interval *iv;
	/* Distinct event (metric) names, ", "-separated, truncated with "...". */
	char read_events[512], write_events[512], ignored_events[512];
};

struct mess_trace_opts {
	const regex_t *read_re, *write_re;	/* NULL: the defaults below */
	double bytes_per_count;			/* > 0 */
};

/* The default expressions (POSIX extended, case-insensitive), for --help
 * and the error that lists unmatched events. */
extern const char mess_trace_perf_read_re[], mess_trace_perf_write_re[];
extern const char mess_trace_likwid_read_re[], mess_trace_likwid_write_re[];

/* Compile an event expression as the readers use it (extended,
 * case-insensitive): 0, or -EINVAL with regerror's text in err. */
int mess_trace_regcomp(regex_t *re, const char *pattern, char *err,
		       size_t errlen);

/*
 * Read the trace at path into t (zeroed by the caller, freed by the caller
 * also on error).  0; -ENOENT or another -errno when the file cannot be
 * read; -EINVAL when it is malformed; -ENOMSG when no read or no write
 * event matches (err lists the events the file holds); -ENOMEM.
 */
int mess_trace_load(const char *path, const struct mess_trace_opts *o,
		    struct mess_trace *t, char *err, size_t errlen);
/* The same from text in memory; name stands for the file in errors. */
int mess_trace_parse(const char *text, const char *name,
		     const struct mess_trace_opts *o, struct mess_trace *t,
		     char *err, size_t errlen);
void mess_trace_free(struct mess_trace *t);

#endif
