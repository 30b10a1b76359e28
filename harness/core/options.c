// SPDX-License-Identifier: MIT
#include "core/options.h"
#include "mess/parse.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void mess_opt_quote(const char *s, size_t n, char *buf, size_t len)
{
	size_t at = 0, i;

	if (!len)
		return;
	for (i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[8];
		size_t w;

		if (c == '\n' || c == '\t' || c == '\r')
			snprintf(e, sizeof(e), "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else if (c < 0x20 || c == 0x7f)
			snprintf(e, sizeof(e), "\\x%02x", c);
		else
			snprintf(e, sizeof(e), "%c", c);
		w = strlen(e);
		if (at + w + 1 > len)
			break;
		memcpy(buf + at, e, w);
		at += w;
	}
	if (i < n && s[i] && len >= 4) {
		at = at + 4 <= len ? at : len - 4;
		memcpy(buf + at, "...", 3);
		at += 3;
	}
	buf[at] = 0;
}

/* The table's bounds as integers: 0x1p64 (or (double)UINT64_MAX) is
 * UINT64_MAX, never a value rounded through a double. */
static uint64_t ubound(double x)
{
	return x <= 0 ? 0 : x >= 0x1p64 ? UINT64_MAX : (uint64_t)x;
}

static int64_t ibound(double x)
{
	return x <= -0x1p63 ? INT64_MIN : x >= 0x1p63 ? INT64_MAX : (int64_t)x;
}

static const char *allowed(const struct mess_opt *o, char *buf, size_t len)
{
	unsigned long long lo = ubound(o->min), hi = ubound(o->max);

	switch (o->type) {
	case MESS_OPT_UINT:
		snprintf(buf, len, "an integer from %llu to %llu", lo, hi);
		break;
	case MESS_OPT_INT:
		snprintf(buf, len, "an integer from %lld to %lld",
			 (long long)ibound(o->min), (long long)ibound(o->max));
		break;
	case MESS_OPT_SIZE:
		if (o->len)
			snprintf(buf, len, "a multiple of %zu bytes from %llu to %llu",
				 o->len, lo, hi);
		else
			snprintf(buf, len,
				 "a size from %llu to %llu bytes, with optional K, M, G or T suffix (powers of 1024)",
				 lo, hi);
		break;
	case MESS_OPT_DOUBLE:
		snprintf(buf, len, "a number from %g to %g", o->min, o->max);
		break;
	default:
		snprintf(buf, len, "%s, %s", o->arg ? o->arg : "a value",
			 o->help);
	}
	return buf;
}

static int has_ctrl(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

static int set_opt(void *cfg, const struct mess_opt *o, const char *val,
		   char *err, size_t errlen)
{
	char *p = (char *)cfg + o->off, buf[512], q[160];
	uint64_t u = 0;
	int64_t i = 0;
	double x = 0;

	if (o->type == MESS_OPT_FLAG) {
		*(int *)p = 1;
		return 0;
	}
	/* Refused for every type: an empty value is no default, and a
	 * control character in a path silently breaks what reads it. */
	mess_opt_quote(val, SIZE_MAX, q, sizeof(q));
	if (!*val)
		return mess_fail(err, errlen, -EINVAL,
				 "--%s: an empty value is not allowed; allowed: %s",
				 o->name, allowed(o, buf, sizeof(buf)));
	if (has_ctrl(val))
		return mess_fail(err, errlen, -EINVAL,
				 "--%s: '%s' has a control character; allowed: %s",
				 o->name, q, allowed(o, buf, sizeof(buf)));
	switch (o->type) {
	case MESS_OPT_STR:
		if (strlen(val) >= o->len)
			return mess_fail(err, errlen, -EINVAL,
					 "--%s: value too long (at most %zu characters)",
					 o->name, o->len - 1);
		strcpy(p, val);
		return 0;
	case MESS_OPT_SIZE:
		if (mess_opt_size(val, &u) || u < ubound(o->min) ||
		    u > ubound(o->max) || (o->len && u % o->len))
			goto bad;
		*(uint64_t *)p = u;
		return 0;
	case MESS_OPT_UINT:
		if (mess_opt_u64(val, &u) || u < ubound(o->min) ||
		    u > ubound(o->max))
			goto bad;
		*(uint64_t *)p = u;
		return 0;
	case MESS_OPT_INT:
		if (mess_opt_i64(val, &i) || i < ibound(o->min) ||
		    i > ibound(o->max))
			goto bad;
		*(int64_t *)p = i;
		return 0;
	case MESS_OPT_DOUBLE:
		if (mess_opt_double(val, &x) || x < o->min || x > o->max)
			goto bad;
		*(double *)p = x;
		return 0;
	default:
		break;
	}
bad:
	return mess_fail(err, errlen, -EINVAL, "--%s: '%s' is not allowed; allowed: %s", o->name, q,
			 allowed(o, buf, sizeof(buf)));
}

/* One item "A" or "A-B" of mess_parse_list. */
static int range(const char *w, uint64_t *a, uint64_t *b)
{
	const char *end;

	if (mess_opt_scan_u64(w, &end, a))
		return -EINVAL;
	*b = *a;
	if (*end == '-' && mess_opt_scan_u64(end + 1, &end, b))
		return -EINVAL;
	return *end ? -EINVAL : 0;
}

int mess_parse_list(const char *s, int *out, int max, int limit, int step,
		    int *n, char *why, size_t whylen)
{
	char w[MESS_ITEM_MAX + 1], q[96];

	*n = 0;
	if (!*s)
		return mess_fail(why, whylen, -EINVAL, "an empty list");
	for (const char *p = s;; p++) {
		size_t len = strcspn(p, ",");
		uint64_t a, b;

		mess_opt_quote(p, len, q, sizeof(q));
		if (!len)
			return mess_fail(why, whylen, -EINVAL, "an empty item");
		if (len > MESS_ITEM_MAX)
			return mess_fail(why, whylen, -EINVAL,
					 "'%s' is too long (%zu characters; at most %d)",
					 q, len, MESS_ITEM_MAX);
		memcpy(w, p, len);
		w[len] = 0;
		if (range(w, &a, &b))
			return mess_fail(why, whylen, -EINVAL,
					 "'%s' is not a whole number or a range A-B", q);
		if (b < a)
			return mess_fail(why, whylen, -EINVAL, "'%s' runs backwards", q);
		if (a % (uint64_t)step || b % (uint64_t)step)
			return mess_fail(why, whylen, -EINVAL,
					 "'%s' is not a multiple of %d", q, step);
		if (b >= (uint64_t)limit)
			return mess_fail(why, whylen, -ERANGE,
					 "'%s' is out of range (at most %d)", q, limit - 1);
		for (uint64_t v = a; v <= b; v += (uint64_t)step) {
			for (int j = 0; j < *n; j++)
				if (out[j] == (int)v)
					return mess_fail(why, whylen, -EINVAL,
							 "'%d' is given twice", (int)v);
			if (*n >= max)
				return mess_fail(why, whylen, -ERANGE,
						 "too many values (at most %d)", max);
			out[(*n)++] = (int)v;
		}
		p += len;
		if (!*p)
			return 0;
	}
}

int mess_parse_items(const struct mess_items *it, const char *s, double *v,
		     int max, int *n, char *err, size_t errlen)
{
	char w[MESS_ITEM_MAX + 1], q[96], ql[160];

	*n = 0;
	mess_opt_quote(s, SIZE_MAX, ql, sizeof(ql));
	for (const char *p = s;; p++) {
		size_t len = strcspn(p, ",");
		double x;

		mess_opt_quote(p, len, q, sizeof(q));
		if (!len)
			return mess_fail(err, errlen, -EINVAL,
					 "--%s: '%s' has an empty item; allowed: %s",
					 it->name, ql, it->allowed);
		if (len > MESS_ITEM_MAX)
			return mess_fail(err, errlen, -EINVAL,
					 "--%s: '%s' is too long (%zu characters; at most %d); allowed: %s",
					 it->name, q, len, MESS_ITEM_MAX, it->allowed);
		if (*n >= max)
			return mess_fail(err, errlen, -EINVAL,
					 "--%s: too many values (at most %d); allowed: %s",
					 it->name, max, it->allowed);
		memcpy(w, p, len);
		w[len] = 0;
		if (it->item(w, it->ctx, &x))
			return mess_fail(err, errlen, -EINVAL, "--%s: '%s' %s; allowed: %s",
					 it->name, q, it->bad, it->allowed);
		for (int j = 0; j < *n; j++)
			if (v[j] == x)
				return mess_fail(err, errlen, -EINVAL,
						 "--%s: '%s' is given twice; allowed: %s",
						 it->name, q, it->allowed);
		v[(*n)++] = x;
		p += len;
		if (!*p)
			return 0;
	}
}

int mess_format_list(const int *v, int n, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		int j = i;
		int w;

		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		w = j > i ? snprintf(buf + at, len - at, "%s%d-%d", i ? "," : "", v[i], v[j])
			  : snprintf(buf + at, len - at, "%s%d", i ? "," : "", v[i]);
		if (w < 0 || (size_t)w >= len - at) {
			if (len >= 4)
				strcpy(buf + (at + 4 <= len ? at : len - 4), "...");
			return -ENOSPC;
		}
		at += (size_t)w;
		i = j;
	}
	return 0;
}

int mess_opts_given(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--", 2) && !strcmp(argv[i] + 2, name))
			return 1;
	return 0;
}

int mess_opts_parse_pos(const struct mess_opt *opts, size_t nopts, void *cfg,
			int argc, char **argv, char **pos, int maxpos,
			int *npos, char *err, size_t errlen)
{
	int only_pos = 0;

	if (npos)
		*npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		const struct mess_opt *o = NULL;
		char q[160];
		size_t nl;

		if (!strcmp(a, "-h") && !only_pos)
			a = "--help";
		if (!strcmp(a, "--") && !only_pos && maxpos) {
			only_pos = 1;	/* a path may start with -- */
			continue;
		}
		if (only_pos || strncmp(a, "--", 2)) {
			if (*npos >= maxpos) {
				mess_opt_quote(a, SIZE_MAX, q, sizeof(q));
				return mess_fail(err, errlen, -EINVAL,
						 maxpos ?
						 "unexpected argument '%s': at most %d allowed (see --help)" :
						 "unexpected argument '%s' (options start with --; see --help)",
						 q, maxpos);
			}
			pos[(*npos)++] = argv[i];
			continue;
		}
		a += 2;
		nl = strcspn(a, "=");
		for (size_t j = 0; j < nopts; j++)
			if (strlen(opts[j].name) == nl &&
			    !strncmp(opts[j].name, a, nl))
				o = &opts[j];
		if (!o) {
			const char *best = NULL;
			size_t bd = SIZE_MAX;

			for (size_t j = 0; j < nopts; j++) {
				size_t d = mess_edit_distance(a, nl, opts[j].name);

				/* A start of a name counts as close. */
				if (nl >= 3 && !strncmp(opts[j].name, a, nl))
					d = 1;
				if (d < bd) {
					bd = d;
					best = opts[j].name;
				}
			}
			mess_opt_quote(a, nl, q, sizeof(q));
			if (best && mess_close_enough(bd, nl))
				snprintf(err, errlen, "unknown option '--%s' (did you mean --%s? see --help)",
					 q, best);
			else
				snprintf(err, errlen, "unknown option '--%s' (see --help)", q);
			return -EINVAL;
		}
		if (a[nl] == '=')
			val = a + nl + 1;
		if (o->type == MESS_OPT_FLAG) {
			if (val)
				return mess_fail(err, errlen, -EINVAL, "--%s takes no value",
						 o->name);
		} else if (!val) {
			if (i + 1 >= argc)
				return mess_fail(err, errlen, -EINVAL, "--%s needs a value (%s)",
						 o->name, o->arg);
			val = argv[++i];
		}
		if (set_opt(cfg, o, val, err, errlen))
			return -EINVAL;
	}
	return 0;
}

int mess_opts_parse(const struct mess_opt *opts, size_t nopts, void *cfg,
		    int argc, char **argv, char *err, size_t errlen)
{
	int n;

	return mess_opts_parse_pos(opts, nopts, cfg, argc, argv, NULL, 0, &n,
				   err, errlen);
}

int mess_cmd_open(const char *prog, const struct mess_opt *opts, size_t nopts,
		  void *cfg, const int *help, void (*usage)(FILE *f),
		  int argc, char **argv, char **pos, int maxpos, int *npos)
{
	/* Room for an option that quotes a whole value (a path, a list). */
	char err[PATH_MAX + 512];
	int rc = maxpos ? mess_opts_parse_pos(opts, nopts, cfg, argc, argv, pos,
					      maxpos, npos, err, sizeof(err)) :
			  mess_opts_parse(opts, nopts, cfg, argc, argv, err,
					  sizeof(err));

	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return -EINVAL;
	}
	if (*help) {
		usage(stdout);
		return 1;
	}
	return 0;
}

void mess_opts_print(FILE *f, const struct mess_opt *opts, size_t nopts)
{
	int numbers = 0;

	for (size_t i = 0; i < nopts; i++) {
		numbers |= opts[i].type != MESS_OPT_FLAG && opts[i].type != MESS_OPT_STR;
		char lhs[64];

		snprintf(lhs, sizeof(lhs), "--%s%s%s", opts[i].name,
			 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-22s %s\n", lhs, opts[i].help);
	}
	if (numbers)
		fprintf(f, "\nNumbers are decimal, with an optional fraction and exponent (1000, 0.25,\n"
			   "1e6); sizes take K, M, G or T (powers of 1024).  Every value and list item\n"
			   "must be non-empty, and a list must not give an item twice.\n");
}

/* Optimal string alignment: insertions, deletions, substitutions and
 * swaps of neighbours cost 1 ("quikc" is 1 from "quick"). */
size_t mess_edit_distance(const char *a, size_t al, const char *b)
{
	size_t bl = strlen(b), d[3][64], *p2 = d[0], *p1 = d[1], *c = d[2];

	if (al >= 63 || bl >= 63)
		return SIZE_MAX;
	for (size_t j = 0; j <= bl; j++)
		p1[j] = j;
	for (size_t i = 1; i <= al; i++) {
		c[0] = i;
		for (size_t j = 1; j <= bl; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = p1[j - 1] + cost;

			if (p1[j] + 1 < v)
				v = p1[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && p2[j - 2] + 1 < v)
				v = p2[j - 2] + 1;
			c[j] = v;
		}
		size_t *t = p2;

		p2 = p1;
		p1 = c;
		c = t;
	}
	return p1[bl];
}

int mess_close_enough(size_t dist, size_t len)
{
	return dist <= 2 && dist * 3 <= len;
}
