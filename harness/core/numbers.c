// SPDX-License-Identifier: MIT
/*
 * The option engine's numbers (core/options.h): one grammar for every
 * option and list item, integers exact (a seed of 2^64 - 1 is that, not a
 * double's neighbour), and nothing that silently turns into another value
 * (1e-400 into 0, 0x10 into 16, a cut item into a shorter number).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"

/* Exponents beyond this say nothing more: 1e100000 overflows anything. */
#define EXP_CAP 100000

/* A number of the grammar (options.h), as m x 10^e exactly. */
struct num {
	int neg, zero;
	int big;		/* more significant digits than a uint64_t */
	uint64_t m;		/* significant digits, trailing zeros dropped */
	long e;
};

static int digit(int c)
{
	return c >= '0' && c <= '9';
}

/* The longest number at s; *end after it. */
static int scan_num(const char *s, int sign_ok, struct num *n,
		    const char **end)
{
	const char *p = s, *ip, *fp = "";
	size_t il, fl = 0, total, first, last;
	long ex = 0;

	memset(n, 0, sizeof(*n));
	if (*p == '-' && sign_ok) {
		n->neg = 1;
		p++;
	}
	for (ip = p; digit(*p); p++)
		;
	il = (size_t)(p - ip);
	if (*p == '.')
		for (fp = ++p; digit(*p); p++)
			fl++;
	if (!il && !fl)
		return -EINVAL;
	if (*p == 'e' || *p == 'E') {
		int eneg = 0;

		if (*++p == '+' || *p == '-')
			eneg = *p++ == '-';
		if (!digit(*p))
			return -EINVAL;
		for (; digit(*p); p++)
			if (ex < EXP_CAP)
				ex = ex * 10 + (*p - '0');
		ex = eneg ? -ex : ex;
	}
	*end = p;
	total = il + fl;
#define DIG(i) ((i) < il ? ip[i] : fp[(i) - il])
	for (first = 0; first < total && DIG(first) == '0'; first++)
		;
	if (first == total) {
		n->zero = 1;
		return 0;
	}
	for (last = total - 1; DIG(last) == '0'; last--)
		;
	for (size_t i = first; i <= last && !n->big; i++)
		n->big = __builtin_mul_overflow(n->m, 10, &n->m) ||
			 __builtin_add_overflow(n->m, (uint64_t)(DIG(i) - '0'), &n->m);
#undef DIG
	n->e = ex - (long)fl + (long)(total - 1 - last);
	return 0;
}

/* |n| x 2^shift as an integer: -EINVAL when not whole, -ERANGE too big. */
static int num_u64(const struct num *n, unsigned shift, uint64_t *v)
{
	uint64_t m = n->m;
	long e = n->e;

	if (n->zero) {
		*v = 0;
		return 0;
	}
	if (n->big)
		return -ERANGE;
	for (; e > 0; e--)
		if (__builtin_mul_overflow(m, 10, &m))
			return -ERANGE;
	/* m x 2^shift / (2^d 5^d), d = -e: whole only if 5^d divides m, as
	 * 2^shift has no factor 5, then 2^(d - shift) what is left. */
	for (long d = -e; d > 0; d--) {
		if (m % 5)
			return -EINVAL;
		m /= 5;
	}
	if ((unsigned long)-e > shift) {
		unsigned long r = (unsigned long)-e - shift;

		if (r >= 64 || (m & ((1ULL << r) - 1)))
			return -EINVAL;
		*v = m >> r;
		return 0;
	}
	shift -= (unsigned)-e;
	if (shift >= 64 || (shift && (m >> (64 - shift))))
		return -ERANGE;
	*v = m << shift;
	return 0;
}

int mess_opt_scan_u64(const char *s, const char **end, uint64_t *v)
{
	struct num n;
	int err = scan_num(s, 0, &n, end);

	return err ? err : num_u64(&n, 0, v);
}

int mess_opt_u64(const char *s, uint64_t *v)
{
	struct num n;
	const char *end;
	int err = scan_num(s, 0, &n, &end);

	if (!err && *end)
		err = -EINVAL;
	return err ? err : num_u64(&n, 0, v);
}

int mess_opt_i64(const char *s, int64_t *v)
{
	struct num n;
	const char *end;
	uint64_t u;
	int err = scan_num(s, 1, &n, &end);

	if (!err && *end)
		err = -EINVAL;
	if (!err)
		err = num_u64(&n, 0, &u);
	if (!err && u > (uint64_t)INT64_MAX + n.neg)
		err = -ERANGE;
	if (err)
		return err;
	*v = n.neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

int mess_opt_double(const char *s, double *v)
{
	struct num n;
	const char *end;
	char *dend;
	double x;
	int err = scan_num(s, 1, &n, &end);

	if (err || *end)
		return -EINVAL;
	/* The grammar is a subset of strtod's: no hex, inf or nan reach it. */
	errno = 0;
	x = strtod(s, &dend);
	if (dend != end)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(x) || (x == 0 && !n.zero))
		return -ERANGE;
	*v = x;
	return 0;
}

int mess_opt_size(const char *s, uint64_t *v)
{
	static const char units[] = "KMGT";
	struct num n;
	const char *p, *u;
	unsigned shift = 0;
	int err = scan_num(s, 0, &n, &p);

	if (err)
		return err;
	u = *p ? strchr(units, toupper((unsigned char)*p)) : NULL;
	if (u) {
		shift = 10 * (unsigned)(u - units + 1);
		if (*++p == 'i')
			p++;
	}
	if (*p == 'B')
		p++;
	return *p ? -EINVAL : num_u64(&n, shift, v);
}
