// SPDX-License-Identifier: MIT
/*
 * The files every export format writes alike (include/mess/export.h):
 * each replaced whole, and info.txt, what a set's files hold and how it
 * was measured, one KEY=value a line.
 */
#include "mess/export.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mess/parse.h"

int mess_export_file_open(struct mess_export_file *o, const char *dir,
			  const char *name, char *err, size_t errlen)
{
	int n = snprintf(o->path, sizeof(o->path), "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= sizeof(o->path))
		return mess_fail(err, errlen, -ENAMETOOLONG, "%s/%s: name too long",
				 dir, name);
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp", o->path);
	o->fp = fopen(o->tmp, "w");
	if (!o->fp)
		return mess_fail(err, errlen, -errno, "%s: %s", o->tmp, strerror(errno));
	return 0;
}

/* Close and rename into place; on any earlier error (ret) or a failed
 * write or close, remove the partial file instead.  A failed write is
 * said whatever ret is: the caller's -EIO or -errno (mess_json_dumpf) carries no
 * message, and "disk full" is what the user must read. */
int mess_export_file_close(struct mess_export_file *o, int ret, char *err,
			   size_t errlen)
{
	int bad = ferror(o->fp), e = errno;

	errno = 0;
	if (fclose(o->fp) || bad) {
		e = errno ? errno : bad && e ? e : EIO;
		if (!ret || ret == -EIO || ret == -e)
			ret = mess_fail(err, errlen, -e, "%s: cannot write: %s%s",
					o->path, strerror(e),
					e == ENOSPC ? " (disk full)" : "");
	}
	if (!ret && rename(o->tmp, o->path))
		ret = mess_fail(err, errlen, -errno, "%s: %s", o->path, strerror(errno));
	if (ret)
		remove(o->tmp);
	return ret;
}

/* "KEY=value\n" into buf; the value one line whatever it holds. */
static void vkv(char *buf, size_t len, const char *key, const char *fmt,
		va_list ap)
{
	int n = snprintf(buf, len, "%s=", key);

	if (n < 0 || (size_t)n + 2 > len)
		return;
	vsnprintf(buf + n, len - (size_t)n - 1, fmt, ap);
	mess_one_line(buf + n);
	strcat(buf, "\n");
}

void mess_export_kv(char *buf, size_t len, const char *key, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vkv(buf + used, len - used, key, fmt, ap);
	va_end(ap);
}

/* One line of info.txt: its values come from files someone may have
 * sent (meta.json "version"), and a newline in one would add a key. */
static __attribute__((format(printf, 3, 4)))
void put_kv(FILE *fp, const char *key, const char *fmt, ...)
{
	char line[4608];
	va_list ap;

	va_start(ap, fmt);
	vkv(line, sizeof(line), key, fmt, ap);
	va_end(ap);
	fputs(line, fp);
}

/* A clock named as what it is: nominal (what the system states) or
 * measured (what the run timed), or unknown. */
static void put_clock(FILE *fp, const char *key, double ghz, const char *src)
{
	if (ghz > 0)
		put_kv(fp, key, "%.3f GHz (%s)", ghz, src ? src : "source not said");
	else if (src && !strncmp(src, "unknown", 7))
		put_kv(fp, key, "%s", src);	/* it says so itself */
	else
		put_kv(fp, key, "unknown (%s)", src ? src : "the set does not say");
}

int mess_export_info_write(const struct mess_export_in *in, const char *dir,
			   const struct mess_export_info *x, char *err,
			   size_t errlen)
{
	struct mess_export_file o;
	int ret = mess_export_file_open(&o, dir, "info.txt", err, errlen);
	double u = mess_model_unloaded_ns(in->m);

	if (ret)
		return ret;
	fprintf(o.fp, "# mess export: what these files hold and how they were measured\n");
	put_kv(o.fp, "FORMAT", "%s", x->format);
	put_kv(o.fp, "SOURCE", "%s", in->origin ? in->origin : "unknown");
	put_kv(o.fp, "MEASURED_BY", "%s", in->tool ? in->tool : "unknown");
	put_kv(o.fp, "BANDWIDTH_SOURCE", "%s", in->bw_source ? in->bw_source : "unknown");
	put_kv(o.fp, "BANDWIDTH_UNIT", "%s",
	       x->bw_unit ? x->bw_unit : "MB/s (1e6 B/s, the whole system)");
	put_kv(o.fp, "LATENCY_UNIT", "%s", x->lat_unit);
	if (x->columns)
		put_kv(o.fp, "COLUMNS", "%s", x->columns);
	if (in->ghz > 0) {
		put_kv(o.fp, "CPU_FREQ", "%.6f", in->ghz);
		put_kv(o.fp, "CPU_FREQ_SOURCE", "%s",
		       in->ghz_source ? in->ghz_source : "unknown");
	}
	/* Both clocks as such: a consumer converting cycles must know
	 * whether the figure is the one the system states or the one the
	 * run timed (Mess's plotter.txt CPU_FREQ, 2.78 GHz on a 2.3 GHz
	 * Xeon, is measured). */
	put_clock(o.fp, "CPU_FREQ_NOMINAL", in->nominal_ghz, in->nominal_source);
	put_clock(o.fp, "CPU_FREQ_MEASURED", in->measured_ghz, in->measured_source);
	if (isfinite(u))
		put_kv(o.fp, "UNLOADED_NS", "%.3f", u);
	if (in->channels > 0)
		put_kv(o.fp, "CHANNELS", "%d (%s)", in->channels,
		       in->channels_source ? in->channels_source : "source not said");
	else
		put_kv(o.fp, "CHANNELS", "unknown (%s)", in->channels_source ?
		       in->channels_source : "not given to the writer of these files; mess export finds it where the set states it, or takes --channels N");
	if (in->unloaded_row)
		put_kv(o.fp, "UNLOADED_ROW", "yes: each read share's least-loaded point is put at 0 GB/s with the share's least latency, as Mess's processing writes it (--unloaded-row); without it that point stays as measured and a 0 GB/s point with its latency comes before it");
	put_kv(o.fp, "READ_AXIS", "%s", in->read_axis ? in->read_axis :
	       "the memory's read share, as measured");
	/* Lines made with mess_export_kv. */
	if (in->extra_info)
		fputs(in->extra_info, o.fp);
	if (in->verdict)
		put_kv(o.fp, "SOURCE_VERDICT", "%s", in->verdict);
	if (in->verdict && in->verdict_reason && in->verdict_reason[0])
		put_kv(o.fp, "SOURCE_VERDICT_REASON", "%s", in->verdict_reason);
	if (in->verdict && in->verdict_note && in->verdict_note[0])
		put_kv(o.fp, "SOURCE_VERDICT_NOTE", "%s", in->verdict_note);
	if (x->more)
		fputs(x->more, o.fp);
	if (!x->no_sources) {
		fprintf(o.fp, "SOURCES=curve-sources.tsv (measured, interpolated or extrapolated per read share)\n");
		fprintf(o.fp, "SNAPPING=a read share R is the measured curve nearest it when that curve is within 0.1 %% of share of R, else interpolated at R between the measured curves around it (as libmess answers), or outside them the nearest curve as it is (extrapolated); curve-sources.tsv says which, the curves' shares with two decimals\n");
	}
	return mess_export_file_close(&o, 0, err, errlen);
}
