// SPDX-License-Identifier: MIT
/*
 * What compare.json, compare.md and the plots all say the same way: where
 * a set's unloaded latency comes from, its verdict, whether every set
 * covers a read share, and how each figure is computed.  A file of its
 * own, below the three writers, so that none calls back into another.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "core/compare/compare_files.h"
#include "mess/metrics.h"

const char *mess_compare_unloaded_source(const struct mess_compare_ctx *c,
					 size_t i)
{
	const struct mess_cmp_set *s = &c->cmp.set[i];
	const char *src = c->sets[i].info->unloaded_source;

	if (!isfinite(s->unloaded_ns))
		return "none";
	if (s->unloaded_from_family && src && src[0] && strcmp(src, "none"))
		return src;
	return s->unloaded_from_family ? "the set's own" : "lowest-bandwidth points";
}

const char *mess_compare_verdict(const struct mess_compare_ctx *c, size_t i)
{
	return mess_set_verdict(c->sets[i].info);
}

int mess_compare_verdict_said(const struct mess_compare_ctx *c, size_t i)
{
	const char *v = mess_compare_verdict(c, i);

	return strcmp(v, "PASS") && strcmp(v, "none");
}

/*
 * The Glossary's words for a set's read shares: a run's accounted shares
 * are the mixes' by construction (nominal), only counted ones measured.
 */
const char *mess_compare_share_kind(const struct mess_compare_ctx *c, size_t i)
{
	const char *src = c->sets[i].info->bw_source;

	if (!strcmp(src, "accounted"))
		return "nominal";
	if (!strcmp(src, "counters"))
		return "measured";
	return "as the set gives them";
}

/*
 * The Glossary's word for a set without a saturated range: "not
 * saturated" only where no curve loaded the memory; "unknown" where a
 * latency doubled only at points that cannot say; else "none".
 */
const char *mess_compare_saturation(const struct mess_compare_ctx *c, size_t i)
{
	const struct mess_cmp_set *cs = &c->cmp.set[i];
	struct mess_summary s;
	const char *w = "none";

	if (!isfinite(cs->unloaded_ns))
		return "unknown";
	if (cs->have_sat)
		return "saturated";
	if (mess_summarise(c->sets[i].fam, cs->unloaded_ns, 0, 0.05, &s))
		return "none";
	if (!s.loaded_curves)
		w = "not saturated";
	for (size_t k = 0; k < s.ncurves && s.loaded_curves; k++)
		if (s.curves[k].sat_unknown)
			w = "unknown";
	mess_summary_free(&s);
	return w;
}

/* How little a verdict lets a set be trusted: none is unknown, below WARN. */
static int distrust(const char *v)
{
	static const char *const order[] = { "PASS", "none", "WARN", "pending", "INVALID" };

	for (int k = 4; k > 0; k--)
		if (!strcmp(v, order[k]))
			return k;
	return 0;
}

json_t *mess_compare_inherited(const struct mess_set_info *const *info,
			       const char *const *labels, size_t n)
{
	json_t *sets = json_array(), *from = json_array();
	const char *v = "PASS", *why = NULL;
	char dir[PATH_MAX];

	for (size_t i = 0; i < n; i++)
		if (distrust(mess_set_verdict(info[i])) > distrust(v))
			v = mess_set_verdict(info[i]);
	for (size_t i = 0; sets && from && i < n; i++) {
		if (strcmp(mess_set_verdict(info[i]), v))
			continue;
		mess_set_dir(info[i], dir, sizeof(dir));
		json_array_append_new(sets, json_string(labels[i]));
		json_array_append_new(from, json_string(dir));
		if (!why && info[i]->verdict_reason[0])
			why = info[i]->verdict_reason;
	}
	return mess_json_pack("{s:s, s:o, s:o, s:o, s:o}", "verdict", v,
		"sets", sets, "inherited_from", from,
		"reason", why ? json_string(why) : json_null(),
		"means", distrust(v) >= 3 ?
			json_string("not a result to act on: a set compared is not to be trusted, nor what is read against it; measure it again and compare the new run") :
			distrust(v) == 2 ? json_string("a set compared holds only within its stated spread, and so does what is read against it") :
			json_null());
}

int mess_compare_covered(const struct mess_compare_ctx *c, size_t k)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->cmp.set[i].max_bw[k].src & MESS_SRC_EXTRAP_READ)
			return 0;
	return 1;
}

const char *const mess_compare_method[][2] = {
	{ "unloaded", "the set's chase-only latency when it has one, else the lowest latency among the points at <= 2% of its maximum bandwidth" },
	{ "summary", "max bandwidth, saturated-bandwidth range (first point per curve at >= 2x unloaded) and maximum-latency range over the whole family, as summary.json" },
	{ "model", "latency(bandwidth, read share) of include/mess/model.h: linear along a curve, mixed between the two curves around a read share at the same fraction of their maximum bandwidth, a monotonic line past the maximum" },
	{ "common_bw", "per read share, 0.5 x the lowest maximum bandwidth among the sets there, so that every set answers inside its own range" },
	{ "bw_at_2x_unloaded", "per read share, the lowest bandwidth at which the model's latency reaches 2x the set's unloaded latency" },
	{ "sources", "measured: a point; interpolated: between points or curves; extrapolated in bandwidth: beyond the curve's measured bandwidths (past the maximum: a line rising at least as steeply as the curve); extrapolated in read share: outside the set's read shares, its nearest curve as it is" },
	{ "ratios", "each set's figure over the first set's" },
	{ "apps", "latency of each set at the application's read share and bandwidth; the lowest among the sets that sustain that bandwidth wins; a set within 0.05 ns of it that sustains it as it does ties (ties_best); best_lower_by_pct = (set - best) / set x 100; a bandwidth above 100000 GB/s is refused" },
	{ NULL, NULL },
};
