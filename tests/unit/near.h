/* SPDX-License-Identifier: MIT */
/* Floating-point comparison for cmocka tests (include after cmocka.h). */
#ifndef MESS_TEST_NEAR_H
#define MESS_TEST_NEAR_H

#include <math.h>

/* cmocka 1.1.5 (Debian 12) has no assert_double_equal. */
#define assert_near(a, b, eps) \
	check_near((a), (b), (eps), #a, __FILE__, __LINE__)

static inline void check_near(double a, double b, double eps,
			      const char *expr, const char *file, int line)
{
	if (fabs(a - b) <= eps)
		return;
	print_error("%s = %.12g, expected %.12g (+-%g)\n", expr, a, b, eps);
	_fail(file, line);
}

#endif
