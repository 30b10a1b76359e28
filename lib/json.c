// SPDX-License-Identifier: MIT
#include "mess/json.h"

#include <errno.h>
#include <math.h>

json_t *mess_json_real(double v, int decimals)
{
	double scale = pow(10, decimals);

	if (!isfinite(v))
		return json_null();
	/* Rounded here, printed with enough digits to show the rounding
	 * only: 12.3457, not 12.345700000000001. */
	if (fabs(v) * scale < 1e15)
		v = round(v * scale) / scale;
	return json_real(v);
}

json_t *mess_json_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

int mess_json_set(json_t *obj, const char *key, json_t *v)
{
	if (!v)
		return -ENOMEM;
	return json_object_set_new(obj, key, v) ? -ENOMEM : 0;
}

int mess_json_dumpf(const json_t *j, FILE *f)
{
	if (json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(15)))
		return -EIO;
	return fputc('\n', f) == EOF ? -EIO : 0;
}
