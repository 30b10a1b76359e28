// SPDX-License-Identifier: MIT
/*
 * The figures of a comparison (mess/compare.h): per-set metrics, per-share
 * model answers, the application verdict and the measurement differences.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "mess/compare.h"
#include "mess/metrics.h"

const double mess_cmp_shares[MESS_CMP_NSHARES] = { 50, 60, 70, 80, 90, 100 };

static const struct mess_cmp_val none = { NAN, -1 };

static struct mess_cmp_val answer(int src, double v)
{
	return src < 0 ? none : (struct mess_cmp_val){ v, src };
}

/* The summary metrics of one family (mess_summarise, section II.C). */
static int summarise(const struct mess_family *f, struct mess_cmp_set *s)
{
	struct mess_summary sum;
	/* Without an unloaded latency no threshold is reachable, so the
	 * summary still gives the maximum bandwidth and latency range; the
	 * saturation figures are then reported unknown, not "never". */
	double unl = isfinite(s->unloaded_ns) ? s->unloaded_ns : 1e300;
	int err = mess_summarise(f, unl, 0, 0.02, &sum);

	if (err)
		return err;
	s->max_bw_gbs = sum.max_bw_gbs;
	s->have_sat = isfinite(s->unloaded_ns) && sum.have_sat;
	s->sat_bw_min_gbs = s->have_sat ? sum.sat_bw_min_gbs : NAN;
	s->sat_bw_max_gbs = s->have_sat ? sum.sat_bw_max_gbs : NAN;
	s->max_lat_min_ns = sum.max_lat_min_ns;
	s->max_lat_max_ns = sum.max_lat_max_ns;
	mess_summary_free(&sum);
	return 0;
}

static int set_new(const struct mess_family *f, struct mess_cmp_set *s)
{
	double v;
	int err;

	s->unloaded_from_family = f->unloaded_ns > 0 && isfinite(f->unloaded_ns);
	v = s->unloaded_from_family ? f->unloaded_ns : mess_unloaded_from_curves(f);
	s->unloaded_ns = v > 0 ? v : NAN;
	err = mess_model_new(f, &s->model);
	if (err)
		return err;
	s->ncurves = mess_model_ncurves(s->model);
	mess_model_curve(s->model, 0, &s->read_min_pct, NULL, NULL, NULL, NULL);
	mess_model_curve(s->model, s->ncurves - 1, &s->read_max_pct, NULL, NULL,
			 NULL, NULL);
	err = summarise(f, s);
	for (size_t k = 0; !err && k < MESS_CMP_NSHARES; k++) {
		int src = mess_model_max_bw(s->model, mess_cmp_shares[k], &v);

		s->max_bw[k] = answer(src, v);
		s->bw_2x[k] = none;
		if (!isfinite(s->unloaded_ns))
			continue;
		src = mess_model_bw_at_latency(s->model, mess_cmp_shares[k],
					       MESS_CMP_SAT_FACTOR * s->unloaded_ns,
					       &v);
		s->bw_2x[k] = answer(src, v);
	}
	return err;
}

int mess_compare_new(const struct mess_family *const *f, size_t n,
		     struct mess_cmp *c, size_t *bad)
{
	int err;

	memset(c, 0, sizeof(*c));
	if (n < 1 || n > MESS_CMP_MAX_SETS)
		return -EINVAL;
	c->n = n;
	for (size_t i = 0; i < n; i++) {
		err = set_new(f[i], &c->set[i]);
		if (err) {
			if (bad)
				*bad = i;
			return err;
		}
	}
	for (size_t k = 0; k < MESS_CMP_NSHARES; k++) {
		size_t lo = 0;

		for (size_t i = 1; i < n; i++)
			if (c->set[i].max_bw[k].v < c->set[lo].max_bw[k].v)
				lo = i;
		c->common_set[k] = lo;
		c->common_src[k] = c->set[lo].max_bw[k].src;
		c->common_bw_gbs[k] = MESS_CMP_COMMON_FRAC * c->set[lo].max_bw[k].v;
		for (size_t i = 0; i < n; i++) {
			double v;
			int src = mess_model_latency(c->set[i].model,
						     mess_cmp_shares[k],
						     c->common_bw_gbs[k], &v);

			c->set[i].lat_common[k] = answer(src, v);
		}
	}
	return 0;
}

void mess_compare_free(struct mess_cmp *c)
{
	for (size_t i = 0; i < MESS_CMP_MAX_SETS; i++) {
		mess_model_free(c->set[i].model);
		c->set[i].model = NULL;
	}
}

struct mess_cmp_val mess_cmp_ratio(struct mess_cmp_val a, struct mess_cmp_val b)
{
	if (a.src < 0 || b.src < 0 || !(b.v > 0) || !isfinite(a.v))
		return none;
	return (struct mess_cmp_val){ a.v / b.v, a.src | b.src };
}

int mess_compare_app(const struct mess_cmp *c, double read_pct, double bw_gbs,
		     struct mess_cmp_app *out)
{
	int any = 0, found = 0;

	memset(out, 0, sizeof(*out));
	if (!(read_pct >= 0 && read_pct <= 100) || !(bw_gbs > 0) ||
	    !(bw_gbs <= MESS_CMP_APP_MAX_GBS))
		return -EINVAL;
	out->read_pct = read_pct;
	out->bw_gbs = bw_gbs;
	out->n = c->n;
	for (size_t i = 0; i < c->n; i++) {
		double v;
		int src = mess_model_latency(c->set[i].model, read_pct, bw_gbs, &v);

		out->set[i].lat = answer(isfinite(v) ? src : -1, v);
		src = mess_model_max_bw(c->set[i].model, read_pct, &v);
		out->set[i].max_bw = answer(src, v);
		out->set[i].sustains = out->set[i].lat.src >= 0 &&
				       bw_gbs <= out->set[i].max_bw.v;
		any |= out->set[i].sustains;
		found |= out->set[i].lat.src >= 0;
	}
	if (!found)
		return -EINVAL;
	/* A set that cannot move bw_gbs does not win on an extrapolation. */
	found = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (out->set[i].lat.src < 0 || (any && !out->set[i].sustains))
			continue;
		if (!found || out->set[i].lat.v < out->set[out->best].lat.v)
			out->best = i;
		found = 1;
	}
	out->best_sustains = any;
	for (size_t i = 0; i < c->n; i++) {
		double d = out->set[i].lat.v - out->set[out->best].lat.v;

		/* Identical figures (one run compared with itself) are a tie,
		 * never "0.0 ns lower". */
		out->set[i].tie = i != out->best && out->set[i].lat.src >= 0 &&
				  out->set[i].sustains == out->set[out->best].sustains &&
				  fabs(d) < MESS_CMP_TIE_NS;
		out->set[i].lower_ns = d;
		out->set[i].lower_pct = d / out->set[i].lat.v * 100;
	}
	return 0;
}

static int put(char *buf, size_t len, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int put(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*o >= len)
		return -ENOSPC;
	va_start(ap, fmt);
	k = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	*o += k > 0 ? (size_t)k : 0;
	return 0;
}

const char *mess_cmp_src(int src)
{
	static const char *const extrap[4] = {
		NULL, "extrapolated in bandwidth", "extrapolated in read share",
		"extrapolated in bandwidth and read share",
	};
	int k = (src & MESS_SRC_EXTRAP_BW ? 1 : 0) | (src & MESS_SRC_EXTRAP_READ ? 2 : 0);

	if (src < 0)
		return "none";
	return k ? extrap[k] : src ? "interpolated" : "measured";
}

static int ties(const struct mess_cmp_app *a)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->set[i].tie)
			return 1;
	return 0;
}

void mess_compare_app_text(const struct mess_cmp_app *a,
			   const char *const *labels, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	buf[0] = 0;
	put(buf, len, &o, "%g%% reads at %g GB/s: ", a->read_pct, a->bw_gbs);
	if (!a->best_sustains)
		put(buf, len, &o, "beyond every set's maximum bandwidth at this share: no set sustains it; ");
	put(buf, len, &o, "%s", labels[a->best]);
	for (size_t i = 0; i < a->n; i++)
		if (a->set[i].tie)
			put(buf, len, &o, " and %s", labels[i]);
	put(buf, len, &o, "%s, %.1f ns (%s)",
	    a->best_sustains ? (ties(a) ? " tie: serve it at the same latency" :
			       " serves it at the lower latency") :
			       (ties(a) ? " tie on the extrapolation" :
			       " would be lowest on the extrapolation"),
	    a->set[a->best].lat.v, mess_cmp_src(a->set[a->best].lat.src));
	for (size_t i = 0; i < a->n; i++) {
		if (i == a->best || a->set[i].tie)
			continue;
		if (a->set[i].lat.src < 0)
			put(buf, len, &o, "; %s: no answer", labels[i]);
		else if (!a->best_sustains)
			put(buf, len, &o, "; %s: %.1f ns on the extrapolation (its maximum at this share is %.1f GB/s)",
			    labels[i], a->set[i].lat.v, a->set[i].max_bw.v);
		else if (!a->set[i].sustains)
			put(buf, len, &o, "; %s cannot sustain it (its maximum at this share is %.1f GB/s; extrapolated latency %.1f ns)",
			    labels[i], a->set[i].max_bw.v, a->set[i].lat.v);
		else
			put(buf, len, &o, "; %.1f ns (%.1f%%) lower than %s (%.1f ns, %s)",
			    a->set[i].lower_ns, a->set[i].lower_pct, labels[i],
			    a->set[i].lat.v, mess_cmp_src(a->set[i].lat.src));
	}
	put(buf, len, &o, ".");
}

int mess_compare_parse_apps(const char *s, double *r, double *bw, size_t max,
			    size_t *n, char *err, size_t errlen)
{
	const char *p = s;

	do {
		size_t item = strcspn(p, ",");
		char *end;
		double x = strtod(p, &end), y = NAN;

		if (end > p && *end == ':') {
			const char *q = end + 1;

			y = strtod(q, &end);
			if (end == q)
				y = NAN;
		}
		if (!(x >= 0 && x <= 100) || !(y > 0) || !(y <= MESS_CMP_APP_MAX_GBS) ||
		    end != p + item || *n >= max) {
			if (*n >= max)
				snprintf(err, errlen, "--app: '%.*s' is one too many; allowed: at most %zu applications",
					 (int)item, p, max);
			else
				snprintf(err, errlen, "--app: '%.*s' is not allowed; allowed: R:BW, R the read share 0..100 %% and BW the bandwidth in GB/s > 0 and at most %g, beyond any memory system (e.g. 70:150; repeat --app or separate with commas)",
					 (int)item, p, MESS_CMP_APP_MAX_GBS);
			return -EINVAL;
		}
		r[*n] = x;
		bw[(*n)++] = y;
		p += item;
	} while (*p++ == ',');
	return 0;
}

/* ---- how the sets were measured ---- */

static void fmt_str(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s[0] ? s : "unknown");
}

static void w_cores(const struct mess_set_info *i, char *b, size_t l)
{
	if (i->cores < 0)
		snprintf(b, l, "unknown");
	else
		snprintf(b, l, "%d", i->cores);
}

static void fmt_bytes(double v, char *b, size_t l)
{
	if (isfinite(v))
		snprintf(b, l, "%.0f B", v);
	else
		snprintf(b, l, "unknown");
}

static void w_stride(const struct mess_set_info *i, char *b, size_t l)
{
	fmt_bytes(i->stride_bytes, b, l);
}

static void w_window(const struct mess_set_info *i, char *b, size_t l)
{
	if (i->window_bytes == 0)
		snprintf(b, l, "none (random over the buffer)");
	else
		fmt_bytes(i->window_bytes, b, l);
}

static void w_cycles(const struct mess_set_info *i, char *b, size_t l)
{
	if (i->latency_from_cycles == 1)
		snprintf(b, l, "converted from CPU cycles at %.3f GHz", i->cpu_ghz);
	else
		snprintf(b, l, "ns as measured");
}

static void w_complete(const struct mess_set_info *i, char *b, size_t l)
{
	snprintf(b, l, "%s", i->complete == 1 ? "complete" :
			     i->complete == 0 ? "partial (interrupted)" : "unknown");
}

/* only: a difference counts only when some set has this value (NULL: any
 * difference between values the files give; "unknown" is no value, so
 * never a difference: a set that does not say is not shown to differ).
 * With no fmt, the value is the string member at str, as it is. */
static const struct {
	const char *what;
	void (*fmt)(const struct mess_set_info *, char *, size_t);
	const char *only;
	size_t str;
} diffs[] = {
#define STR(m) offsetof(struct mess_set_info, m)
	{ "bandwidth measured differently (bw_source: accounted by the generator vs memory counters)", NULL, NULL, STR(bw_source) },
	{ "huge pages differ", NULL, NULL, STR(huge_pages) },
	/* A public set says nothing of its memory: unknown, never a difference. */
	{ "memory kinds or nodes differ (meta.json memory_node_choice)", NULL, NULL, STR(memory) },
	{ "traffic-generator core counts differ", w_cores, NULL, 0 },
	{ "chase strides differ", w_stride, NULL, 0 },
	{ "chase windows differ", w_window, NULL, 0 },
	{ "measured by different tools or versions", NULL, NULL, STR(tool) },
	{ "latency units differ", w_cycles, NULL, 0 },
	{ "a set is a partial run", w_complete, "partial (interrupted)", 0 },
#undef STR
};

size_t mess_compare_warnings(const struct mess_set_info *const *info,
			     const char *const *labels, size_t n,
			     char (*lines)[MESS_CMP_LINE], size_t max)
{
	char v[MESS_CMP_MAX_SETS][160];
	size_t count = 0;

	if (n > MESS_CMP_MAX_SETS)
		n = MESS_CMP_MAX_SETS;
	for (size_t d = 0; d < sizeof(diffs) / sizeof(diffs[0]); d++) {
		int differ = 0, only = !diffs[d].only;
		size_t o = 0, known = SIZE_MAX;

		for (size_t i = 0; i < n; i++) {
			if (diffs[d].fmt)
				diffs[d].fmt(info[i], v[i], sizeof(v[i]));
			else
				fmt_str((const char *)info[i] + diffs[d].str, v[i],
					sizeof(v[i]));
			only |= diffs[d].only && !strcmp(v[i], diffs[d].only);
			if (!strncmp(v[i], "unknown", 7))
				continue;
			if (known == SIZE_MAX)
				known = i;
			differ |= strcmp(v[i], v[known]) != 0;
		}
		if (!differ || !only)
			continue;
		if (count < max) {
			lines[count][0] = 0;
			put(lines[count], MESS_CMP_LINE, &o, "%s:", diffs[d].what);
			for (size_t i = 0; i < n; i++)
				put(lines[count], MESS_CMP_LINE, &o, "%s %s %s",
				    i ? ";" : "", labels[i], v[i]);
		}
		count++;
	}
	return count;
}
