// SPDX-License-Identifier: MIT
#include "core/options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *allowed(const struct mess_opt *o, char *buf, size_t len)
{
	switch (o->type) {
	case MESS_OPT_UINT:
	case MESS_OPT_INT:
		snprintf(buf, len, "an integer from %.0f to %.0f", o->min,
			 o->max);
		break;
	case MESS_OPT_SIZE:
		if (o->len) {
			snprintf(buf, len, "a multiple of %zu bytes from %.0f",
				 o->len, o->min);
			break;
		}
		snprintf(buf, len,
			 "a size from %.0f bytes, with optional K, M, G or T suffix (powers of 1024)",
			 o->min);
		break;
	case MESS_OPT_DOUBLE:
		snprintf(buf, len, "a number from %g to %g", o->min, o->max);
		break;
	default:
		snprintf(buf, len, "a value");
	}
	return buf;
}

static int parse_size(const char *s, double *v)
{
	char *end;
	double x = strtod(s, &end);

	if (end == s || !isfinite(x))
		return -EINVAL;
	const char *units = "KMGT", *u = *end ? strchr(units, toupper(*end)) : NULL;

	if (u) {
		x *= pow(1024, (double)(u - units + 1));
		if (*++end == 'i')
			end++;
	}
	if (*end == 'B')
		end++;
	if (*end || x != floor(x))
		return -EINVAL;
	*v = x;
	return 0;
}

static int set_opt(void *cfg, const struct mess_opt *o, const char *val,
		   char *err, size_t errlen)
{
	char *p = (char *)cfg + o->off, *end, buf[128];
	double x = 0;

	switch (o->type) {
	case MESS_OPT_FLAG:
		*(int *)p = 1;
		return 0;
	case MESS_OPT_STR:
		if (strlen(val) >= o->len) {
			snprintf(err, errlen, "--%s: value too long (at most %zu characters)",
				 o->name, o->len - 1);
			return -EINVAL;
		}
		strcpy(p, val);
		return 0;
	case MESS_OPT_SIZE:
		if (parse_size(val, &x))
			goto bad;
		break;
	case MESS_OPT_UINT:
	case MESS_OPT_INT:
		errno = 0;
		x = (double)strtoll(val, &end, 10);
		if (errno || end == val || *end)
			goto bad;
		break;
	case MESS_OPT_DOUBLE:
		x = strtod(val, &end);
		if (end == val || *end || !isfinite(x))
			goto bad;
		break;
	}
	if (x < o->min || x > o->max ||
	    (o->type == MESS_OPT_SIZE && o->len && fmod(x, (double)o->len)))
		goto bad;
	if (o->type == MESS_OPT_INT)
		*(int64_t *)p = (int64_t)x;
	else if (o->type == MESS_OPT_DOUBLE)
		*(double *)p = x;
	else
		*(uint64_t *)p = (uint64_t)x;
	return 0;
bad:
	snprintf(err, errlen, "--%s: '%s' is not allowed; allowed: %s", o->name,
		 val, allowed(o, buf, sizeof(buf)));
	return -EINVAL;
}

int mess_parse_list(const char *s, int *out, int max, int limit, int step,
		    int *n)
{
	const char *p = s;

	*n = 0;
	if (!*s)
		return -EINVAL;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0)
			return -EINVAL;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return -EINVAL;
			p = end;
		}
		if (a % step || b % step)
			return -EINVAL;
		for (long v = a; v <= b; v += step) {
			if (v >= limit || *n >= max)
				return -ERANGE;
			out[(*n)++] = (int)v;
		}
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
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
		size_t nl;

		if (!strcmp(a, "-h") && !only_pos)
			a = "--help";
		if (!strcmp(a, "--") && !only_pos && maxpos) {
			only_pos = 1;	/* a path may start with -- */
			continue;
		}
		if (only_pos || strncmp(a, "--", 2)) {
			if (*npos >= maxpos) {
				snprintf(err, errlen, maxpos ?
					 "unexpected argument '%s': at most %d allowed (see --help)" :
					 "unexpected argument '%s' (options start with --; see --help)",
					 a, maxpos);
				return -EINVAL;
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
			snprintf(err, errlen, "unknown option '--%.*s' (see --help)",
				 (int)nl, a);
			return -EINVAL;
		}
		if (a[nl] == '=')
			val = a + nl + 1;
		if (o->type == MESS_OPT_FLAG) {
			if (val) {
				snprintf(err, errlen, "--%s takes no value", o->name);
				return -EINVAL;
			}
		} else if (!val) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "--%s needs a value (%s)",
					 o->name, o->arg);
				return -EINVAL;
			}
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

void mess_opts_print(FILE *f, const struct mess_opt *opts, size_t nopts)
{
	for (size_t i = 0; i < nopts; i++) {
		char lhs[64];

		snprintf(lhs, sizeof(lhs), "--%s%s%s", opts[i].name,
			 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-22s %s\n", lhs, opts[i].help);
	}
}
