// SPDX-License-Identifier: MIT
/* /proc/stat and /proc/<tid>/status text, parsed (mess/procstat.h). */
#include "mess/procstat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The next line of text: [*p, end), *p moved past its newline. */
static const char *next_line(const char **p, const char *end,
			     const char **eol)
{
	const char *s = *p, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	*eol = nl ? nl : end;
	*p = nl ? nl + 1 : end;
	return s;
}

/* One decimal number at *s (spaces first); 0 or -EINVAL. */
static int number(const char **s, const char *eol, uint64_t *v)
{
	const char *c = *s;
	uint64_t x = 0;

	while (c < eol && (*c == ' ' || *c == '\t'))
		c++;
	if (c >= eol || *c < '0' || *c > '9')
		return -EINVAL;
	for (; c < eol && *c >= '0' && *c <= '9'; c++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		x = x * 10 + (uint64_t)(*c - '0');
	}
	*s = c;
	*v = x;
	return 0;
}

int mess_procstat_cpu(const char *text, size_t len, int cpu,
		      struct mess_cpu_ticks *out)
{
	const char *p = text, *end = text + len, *line, *eol;
	char name[24];
	size_t nl;

	if (!text || !out)
		return -EINVAL;
	if (cpu < 0)
		snprintf(name, sizeof(name), "cpu");
	else
		snprintf(name, sizeof(name), "cpu%d", cpu);
	nl = strlen(name);
	while ((line = next_line(&p, end, &eol))) {
		uint64_t v[8] = { 0 };
		const char *s = line + nl;
		int n = 0;

		if ((size_t)(eol - line) <= nl || memcmp(line, name, nl) ||
		    (line[nl] != ' ' && line[nl] != '\t'))
			continue;
		/* Newer kernels print guest and guest_nice after steal:
		 * numbers too, not kept. */
		for (uint64_t x; !number(&s, eol, n < 8 ? &v[n] : &x);)
			n++;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (n < 4 || s < eol)
			return -EINVAL;
		*out = (struct mess_cpu_ticks){ v[0], v[1], v[2], v[3], v[4],
						v[5], v[6], v[7] };
		return 0;
	}
	return -ENOENT;
}

int mess_procstatus_u64(const char *text, size_t len, const char *key,
			uint64_t *out)
{
	const char *p = text, *end = text + len, *line, *eol;
	size_t kl;

	if (!text || !key || !out)
		return -EINVAL;
	kl = strlen(key);
	while ((line = next_line(&p, end, &eol))) {
		const char *s = line + kl;
		uint64_t v;

		if ((size_t)(eol - line) <= kl || memcmp(line, key, kl))
			continue;
		/* /proc/<tid>/sched pads the key before its ':'. */
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (s == eol || *s++ != ':')
			continue;
		if (number(&s, eol, &v))
			return -EINVAL;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (s < eol)
			return -EINVAL;
		*out = v;
		return 0;
	}
	return -ENOENT;
}

int mess_procstat_task(const char *text, size_t len, char *state, int *ppid,
		       int *cpu, char *comm, size_t commlen)
{
	const char *end = text + len, *open, *close = NULL, *s;
	uint64_t v = 0;

	if (!text || !len)
		return -EINVAL;
	open = memchr(text, '(', len);
	/* The name may hold spaces and parentheses: it ends at the last ')'. */
	for (s = text; s < end; s++)
		if (*s == ')')
			close = s;
	if (!open || !close || close < open || close + 2 >= end)
		return -EINVAL;
	if (comm && commlen) {
		size_t n = (size_t)(close - open - 1);

		if (n >= commlen)
			n = commlen - 1;
		memcpy(comm, open + 1, n);
		comm[n] = 0;
	}
	s = close + 2;
	*state = *s++;
	if (s < end && *s == ' ')
		s++;
	if (number(&s, end, &v) || v > INT32_MAX)
		return -EINVAL;
	*ppid = (int)v;
	/* Fields 5 .. 38 follow the state (proc(5)), some negative, some
	 * UINT64_MAX: skipped as words; 39 is the CPU. */
	for (int field = 5; field <= 38; field++) {
		while (s < end && *s == ' ')
			s++;
		if (s == end || *s == '\n')
			return -EINVAL;
		while (s < end && *s != ' ' && *s != '\n')
			s++;
	}
	{
		const char *eol = memchr(s, '\n', (size_t)(end - s));

		if (number(&s, eol ? eol : end, &v) || v > INT32_MAX)
			return -EINVAL;
	}
	*cpu = (int)v;
	return 0;
}

int mess_cpulist(const char *s, int cpu, int *has, int *count)
{
	*has = 0;
	*count = 0;
	while (*s && *s != '\n') {
		uint64_t a, b;
		const char *eol = s + strcspn(s, ",\n");

		if (number(&s, eol, &a))
			return -EINVAL;
		b = a;
		if (s < eol && *s == '-') {
			s++;
			if (number(&s, eol, &b) || b < a)
				return -EINVAL;
		}
		if (s != eol)
			return -EINVAL;
		*count += (int)(b - a + 1);
		if (cpu >= 0 && (uint64_t)cpu >= a && (uint64_t)cpu <= b)
			*has = 1;
		if (*s == ',')
			s++;
	}
	return 0;
}
