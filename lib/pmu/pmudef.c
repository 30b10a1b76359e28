// SPDX-License-Identifier: MIT
/*
 * Kernel PMU definitions read from sysfs (mess/pmudef.h).  The layout is
 * the kernel's ABI (Documentation/ABI/testing/sysfs-bus-event_source-devices-*):
 *   type                  the perf_event_attr.type to use
 *   format/<term>         "config:0-7,32-35", "config1:0-15", "config:46"
 *   events/<name>         "event=0x04,umask=0x03" (terms, values in hex
 *                         or decimal; "?" where the user must supply one)
 *   events/<name>.scale   a multiplier for the count ("6.103515625e-5")
 *   events/<name>.unit    what the scaled count is in ("MiB")
 *   cpumask               the CPUs an uncore PMU is opened on
 * A machine's sysfs is outside data: a malformed entry is skipped and
 * counted, so one odd file never hides the PMU's other events.
 */
#include "mess/pmudef.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/parse.h"
#include "mess/stats.h"

/* Read a small sysfs file whole, without its trailing newline.  0, or
 * -errno; -EFBIG if it does not fit (no sysfs attribute we read is long). */
static int read_small(const char *dir, const char *name, char *buf,
		      size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	f = mess_fopen_input(path, MESS_IN_KERNEL, NULL, 0);
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	if (n == len - 1 && fgetc(f) != EOF) {
		fclose(f);
		return -EFBIG;
	}
	fclose(f);
	buf[n] = 0;
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	return 0;
}

static void mark_bad(struct mess_pmu_def *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->bad++) {
		va_start(ap, fmt);
		vsnprintf(d->bad_first, sizeof(d->bad_first), fmt, ap);
		va_end(ap);
	}
}

/* An unsigned number in C notation (0x.., decimal), nothing else. */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

/* perf's own terms that set a whole config word. */
static int raw_word(const char *name, size_t len)
{
	static const char *const words[] = { "config", "config1", "config2" };

	for (int i = 0; i < 3; i++)
		if (strlen(words[i]) == len && !strncmp(words[i], name, len))
			return i;
	return -1;
}

/* "config:0-7,32-35" into f; NULL on success, else why not. */
static const char *parse_format(const char *text, struct mess_pmu_format *f)
{
	const char *colon = strchr(text, ':'), *p;
	uint64_t used = 0;
	int cfg;

	if (!colon)
		return "no 'config:' prefix";
	cfg = raw_word(text, (size_t)(colon - text));
	if (cfg < 0)
		return "not config, config1 or config2";
	f->nranges = 0;
	for (p = colon + 1;; p++) {
		unsigned long lo, hi;
		char *end;
		uint64_t bits;

		if (!isdigit((unsigned char)*p))
			return "a range is not a number";
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return "a range is not a number";
			hi = strtoul(end + 1, &end, 10);
		}
		if (lo > hi || hi > 63)
			return "a range is reversed or past bit 63";
		if (f->nranges == MESS_PMU_MAX_RANGES)
			return "too many ranges";
		bits = (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) & ~((1ULL << lo) - 1);
		if (used & bits)
			return "ranges overlap";
		used |= bits;
		f->r[f->nranges++] = (struct mess_pmu_range){ cfg, lo, hi };
		p = end;
		if (!*p)
			return NULL;
		if (*p != ',')
			return "garbage after a range";
	}
}

static const struct mess_pmu_format *find_format(const struct mess_pmu_def *d,
						 const char *name, size_t len)
{
	for (unsigned i = 0; i < d->nformats; i++)
		if (strlen(d->formats[i].name) == len &&
		    !strncmp(d->formats[i].name, name, len))
			return &d->formats[i];
	return NULL;
}

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct mess_pmu_format *)a)->name,
		      ((const struct mess_pmu_format *)b)->name);
}

static void read_formats(const char *dir, struct mess_pmu_def *d)
{
	char sub[PATH_MAX], text[256];
	struct dirent *e;
	DIR *dp;

	if ((size_t)snprintf(sub, sizeof(sub), "%s/format", dir) >= sizeof(sub))
		return;
	dp = opendir(sub);
	if (!dp)
		return;	/* a PMU without terms (software PMUs) */
	while ((e = readdir(dp))) {
		struct mess_pmu_format f = { 0 };
		const char *why;

		if (e->d_name[0] == '.')
			continue;
		if (strlen(e->d_name) >= sizeof(f.name)) {
			mark_bad(d, "format/%.60s: name too long", e->d_name);
			continue;
		}
		if (d->nformats == MESS_PMU_MAX_FORMATS) {
			mark_bad(d, "format/%s: more than %d formats", e->d_name,
				 MESS_PMU_MAX_FORMATS);
			continue;
		}
		if (read_small(sub, e->d_name, text, sizeof(text))) {
			mark_bad(d, "format/%s: unreadable", e->d_name);
			continue;
		}
		if ((why = parse_format(text, &f))) {
			mark_bad(d, "format/%s: %s: '%.40s'", e->d_name, why, text);
			continue;
		}
		strcpy(f.name, e->d_name);
		d->formats[d->nformats++] = f;
	}
	closedir(dp);
	/* readdir order is the file system's: sorted, a fixture and a
	 * machine read the same. */
	qsort(d->formats, d->nformats, sizeof(*d->formats), cmp_format);
}

/* Check an event's terms against the formats: NULL, or why not. */
static const char *check_terms(const struct mess_pmu_def *d, const char *terms)
{
	const char *p = terms;

	if (!*p)
		return "no terms";
	while (*p) {
		size_t n = strcspn(p, ","), name = strcspn(p, "=,");
		uint64_t v;
		char val[64];

		if (!name)
			return "an empty term";
		if (!find_format(d, p, name) && raw_word(p, name) < 0)
			return "a term that is not in format/";
		if (name < n) {
			size_t vl = n - name - 1;

			if (!vl || vl >= sizeof(val))
				return "a term with a bad value";
			memcpy(val, p + name + 1, vl);
			val[vl] = 0;
			if (strcmp(val, "?") && parse_u64(val, &v))
				return "a term with a bad value";
		}
		p += n;
		if (*p == ',' && !*++p)
			return "a trailing comma";
	}
	return NULL;
}

static int is_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n > k && !strcmp(s + n - k, suf);
}

static int cmp_event(const void *a, const void *b)
{
	return strcmp(((const struct mess_pmu_event *)a)->name,
		      ((const struct mess_pmu_event *)b)->name);
}

static int read_events(const char *dir, struct mess_pmu_def *d)
{
	/* Files beside an event that describe it, not events themselves. */
	static const char *const aux[] = { ".scale", ".unit", ".per-pkg",
					   ".snapshot" };
	char sub[PATH_MAX], text[256], name[80];
	size_t cap = 0;
	struct dirent *e;
	DIR *dp;

	if ((size_t)snprintf(sub, sizeof(sub), "%s/events", dir) >= sizeof(sub))
		return 0;
	dp = opendir(sub);
	if (!dp)
		return 0;	/* a PMU may name no events (amd_df, amd_umc) */
	while ((e = readdir(dp))) {
		struct mess_pmu_event ev = { .scale = 1 }, *n;
		const char *why;
		size_t k;
		int skip = 0;

		if (e->d_name[0] == '.')
			continue;
		for (k = 0; k < sizeof(aux) / sizeof(*aux); k++)
			skip |= is_suffix(e->d_name, aux[k]);
		if (skip)
			continue;
		if (strlen(e->d_name) >= sizeof(ev.name)) {
			mark_bad(d, "events/%.60s: name too long", e->d_name);
			continue;
		}
		strcpy(ev.name, e->d_name);
		if (read_small(sub, ev.name, ev.terms, sizeof(ev.terms))) {
			mark_bad(d, "events/%s: unreadable or too long", ev.name);
			continue;
		}
		if ((why = check_terms(d, ev.terms))) {
			mark_bad(d, "events/%s: %s: '%.40s'", ev.name, why, ev.terms);
			continue;
		}
		snprintf(name, sizeof(name), "%s.scale", ev.name);
		if (!read_small(sub, name, text, sizeof(text))) {
			char *end;

			ev.scale = strtod(text, &end);
			if (end == text || *end || !(ev.scale > 0)) {
				mark_bad(d, "events/%s: bad scale '%.40s'", name, text);
				continue;
			}
		}
		snprintf(name, sizeof(name), "%s.unit", ev.name);
		if (!read_small(sub, name, text, sizeof(text))) {
			if (strlen(text) >= sizeof(ev.unit)) {
				mark_bad(d, "events/%s: unit too long", name);
				continue;
			}
			strcpy(ev.unit, text);
		}
		n = mess_grow(d->events, d->nevents, &cap, sizeof(*n), 16);
		if (!n) {
			closedir(dp);
			return -ENOMEM;
		}
		d->events = n;
		d->events[d->nevents++] = ev;
	}
	closedir(dp);
	qsort(d->events, d->nevents, sizeof(*d->events), cmp_event);
	return 0;
}

int mess_pmudef_read(const char *dir, struct mess_pmu_def *d, char *err,
		     size_t errlen)
{
	const char *base = strrchr(dir, '/');
	char text[64];
	uint64_t type;
	int ret;

	memset(d, 0, sizeof(*d));
	base = base ? base + 1 : dir;
	snprintf(d->name, sizeof(d->name), "%s", base);
	ret = read_small(dir, "type", text, sizeof(text));
	if (ret == -ENOENT) {
		/* Tell a missing PMU from a PMU without a type. */
		DIR *dp = opendir(dir);

		if (!dp)
			return mess_fail(err, errlen, -ENOENT,
					 "%s: no such PMU", dir);
		closedir(dp);
	}
	if (ret || parse_u64(text, &type) || type > INT_MAX)
		return mess_fail(err, errlen, -EINVAL, "%s/type: %s", dir,
				 ret ? "missing or unreadable" :
				 "not a perf_event type");
	d->type = (int)type;
	read_formats(dir, d);
	ret = read_events(dir, d);
	if (ret) {
		snprintf(err, errlen, "%s/events: %s", dir, strerror(-ret));
		mess_pmudef_free(d);
		return ret;
	}
	if (read_small(dir, "cpumask", d->cpumask, sizeof(d->cpumask)))
		d->cpumask[0] = 0;
	return 0;
}

void mess_pmudef_free(struct mess_pmu_def *d)
{
	free(d->events);
	d->events = NULL;
	d->nevents = 0;
}

/* Put v in f's bits of config, low bits in the first range. */
static int put_field(const struct mess_pmu_format *f, uint64_t v,
		     uint64_t config[3])
{
	unsigned width = 0;

	for (unsigned i = 0; i < f->nranges; i++)
		width += f->r[i].hi - f->r[i].lo + 1;
	if (width < 64 && v >> width)
		return -EINVAL;
	for (unsigned i = 0; i < f->nranges; i++) {
		const struct mess_pmu_range *r = &f->r[i];
		unsigned w = r->hi - r->lo + 1;
		uint64_t mask = w == 64 ? ~0ULL : (1ULL << w) - 1;

		config[r->cfg] &= ~(mask << r->lo);
		config[r->cfg] |= (v & mask) << r->lo;
		v = w == 64 ? 0 : v >> w;
	}
	return 0;
}

static const struct mess_pmu_event *find_event(const struct mess_pmu_def *d,
					       const char *name, size_t len)
{
	for (unsigned i = 0; i < d->nevents; i++)
		if (strlen(d->events[i].name) == len &&
		    !strncmp(d->events[i].name, name, len))
			return &d->events[i];
	return NULL;
}

/* Whether the terms of spec give name (len) a value. */
static int spec_sets(const char *spec, const char *name, size_t len)
{
	for (const char *p = spec; *p;) {
		size_t n = strcspn(p, ","), k = strcspn(p, "=,");

		if (k == len && k < n && !strncmp(p, name, len))
			return 1;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Apply the terms of s; a named event (depth 0 only) expands to its own,
 * whose "?" values the user's spec must supply. */
static int apply_terms(const struct mess_pmu_def *d, const char *s,
		       const char *spec, int depth, uint64_t config[3],
		       const struct mess_pmu_event **named, char *err,
		       size_t errlen)
{
	const char *p = s;

	while (*p) {
		size_t n = strcspn(p, ","), name = strcspn(p, "=,");
		const struct mess_pmu_format *f = find_format(d, p, name);
		const struct mess_pmu_event *ev;
		uint64_t v = 1;
		char val[64] = "";
		int w = raw_word(p, name), ret;

		if (name < n) {
			size_t vl = n - name - 1;

			if (vl >= sizeof(val))
				vl = sizeof(val) - 1;
			memcpy(val, p + name + 1, vl);
			val[vl] = 0;
			if (!strcmp(val, "?") && spec_sets(spec, p, name))
				goto next;	/* the user's value comes later */
			if (!strcmp(val, "?"))
				return mess_fail(err, errlen, -EINVAL,
						 "%s: term '%.*s' needs a value (%.*s=?)",
						 d->name, (int)name, p, (int)name, p);
			if (parse_u64(val, &v))
				return mess_fail(err, errlen, -EINVAL,
						 "%s: term '%.*s': bad value '%s'",
						 d->name, (int)name, p, val);
		} else if (!f && w < 0 && depth == 0 &&
			   (ev = find_event(d, p, name))) {
			ret = apply_terms(d, ev->terms, spec, 1, config, named,
					  err, errlen);
			if (ret)
				return ret;
			*named = ev;
			goto next;
		}
		if (w >= 0) {
			config[w] = v;
		} else if (!f) {
			return mess_fail(err, errlen, -EINVAL,
					 "%s: no event or term '%.*s'",
					 d->name, (int)name, p);
		} else if (put_field(f, v, config)) {
			return mess_fail(err, errlen, -EINVAL,
					 "%s: %.*s=%s is wider than its field",
					 d->name, (int)name, p, val);
		}
next:
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

int mess_pmudef_encode(const struct mess_pmu_def *d, const char *spec,
		       uint64_t config[3], double *scale, char *unit,
		       size_t unitlen, char *err, size_t errlen)
{
	const struct mess_pmu_event *named = NULL;
	int ret;

	config[0] = config[1] = config[2] = 0;
	if (!*spec)
		return mess_fail(err, errlen, -EINVAL, "%s: empty event",
				 d->name);
	ret = apply_terms(d, spec, spec, 0, config, &named, err, errlen);
	if (ret)
		return ret;
	if (scale)
		*scale = named ? named->scale : 1;
	if (unit && unitlen)
		snprintf(unit, unitlen, "%s", named ? named->unit : "");
	return 0;
}

/* Natural order: digit runs compare as numbers (imc_2 before imc_10). */
static int natcmp(const void *pa, const void *pb)
{
	const char *a = pa, *b = pb;

	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long long x = strtoull(a, (char **)&a, 10);
			unsigned long long y = strtoull(b, (char **)&b, 10);

			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++, b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int mess_pmudef_find(const char *root, const char *glob,
		     char names[][MESS_PMU_NAME_LEN], int max)
{
	struct dirent *e;
	DIR *dp = opendir(root);
	int n = 0;

	if (!dp)
		return -errno;
	while ((e = readdir(dp)) && n < max)
		if (e->d_name[0] != '.' && strlen(e->d_name) < MESS_PMU_NAME_LEN &&
		    !fnmatch(glob, e->d_name, 0))
			strcpy(names[n++], e->d_name);
	closedir(dp);
	qsort(names, n, sizeof(*names), natcmp);
	return n;
}

int mess_cpulist_parse(const char *s, int *cpus, int max)
{
	int n = 0;

	while (isspace((unsigned char)*s))
		s++;
	while (*s && !isspace((unsigned char)*s)) {
		unsigned long lo, hi;
		char *end;

		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		lo = hi = strtoul(s, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -EINVAL;
			hi = strtoul(end + 1, &end, 10);
		}
		if (lo > hi || hi > INT_MAX)
			return -EINVAL;
		for (unsigned long c = lo; c <= hi && n < max; c++)
			cpus[n++] = (int)c;
		s = end;
		if (*s == ',' && isdigit((unsigned char)s[1]))
			s++;
		else if (*s && !isspace((unsigned char)*s))
			return -EINVAL;
	}
	while (isspace((unsigned char)*s))
		s++;
	return *s ? -EINVAL : n;
}
