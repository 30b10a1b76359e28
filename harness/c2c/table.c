// SPDX-License-Identifier: MIT
/*
 * The core-to-core figures from their samples, the groups, the sampled
 * pairs of a large machine, and the files.  Nothing here measures
 * (tests/unit/c2c/ checks it with known answers).
 */
#include "c2c/c2c.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "mess/stats.h"

const char *const mess_c2c_groups[MESS_NSHARES] = {
	[MESS_SHARE_CORE] = "smt",
	[MESS_SHARE_CACHE] = "same cache",
	[MESS_SHARE_PACKAGE] = "same socket",
	[MESS_SHARE_NONE] = "other socket",
};

/* Nearest rank: the smallest sample with at least q of them at or below. */
static double rank(const double *sorted, unsigned n, double q)
{
	unsigned k = (unsigned)ceil(q * n);

	return sorted[k ? k - 1 : 0];
}

double mess_c2c_estimate(int pairs, unsigned samples, unsigned batch,
			 double one_way_ns, double fixed_s)
{
	return pairs * (fixed_s + (samples + 1.0) * batch * 2 * one_way_ns / 1e9);
}

void mess_c2c_finish(struct mess_c2c_pair *p, double *s, unsigned n)
{
	p->samples = n;
	p->median_ns = p->p99_ns = p->min_ns = NAN;
	if (!n)
		return;
	p->median_ns = mess_median(s, n);	/* sorts s */
	p->p99_ns = rank(s, n, 0.99);
	p->min_ns = s[0];
}

void mess_c2c_group(const struct mess_c2c_pair *p, int n,
		    struct mess_c2c_sum *sum)
{
	double *v = malloc(sizeof(*v) * (size_t)(n ? n : 1));

	for (int g = 0; g < MESS_NSHARES; g++) {
		struct mess_c2c_sum *s = &sum[g];

		*s = (struct mess_c2c_sum){ 0, NAN, NAN, NAN, NAN };
		for (int i = 0; i < n && v; i++) {
			if (p[i].group != g || !isfinite(p[i].median_ns))
				continue;
			v[s->pairs++] = p[i].median_ns;
			s->min_ns = isnan(s->min_ns) ? p[i].median_ns : fmin(s->min_ns, p[i].median_ns);
			s->max_ns = isnan(s->max_ns) ? p[i].median_ns : fmax(s->max_ns, p[i].median_ns);
			s->p99_max_ns = isnan(s->p99_max_ns) ? p[i].p99_ns : fmax(s->p99_max_ns, p[i].p99_ns);
		}
		if (s->pairs)
			s->median_ns = mess_median(v, s->pairs);
	}
	free(v);
}

int mess_c2c_pick(int npu, int max, int (*out)[2])
{
	long all = (long)npu * (npu - 1) / 2, k = 1, at = 0;
	int n = 0;

	if (max > 0 && all > max)
		k = (all + max - 1) / max;
	for (int i = 0; i < npu; i++)
		for (int j = i + 1; j < npu; j++, at++)
			if (at % k == 0) {
				out[n][0] = i;
				out[n][1] = j;
				n++;
			}
	return n;
}

int mess_c2c_csv(FILE *f, const struct mess_c2c_pair *p, int n)
{
	fprintf(f, "%s\n", MESS_C2C_HEADER);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%d,%d,%d,%d,%s", p[i].a, p[i].b, p[i].core_a, p[i].core_b,
			mess_c2c_groups[p[i].group]);
		mess_csv_num(f, p[i].median_ns, 1);
		mess_csv_num(f, p[i].p99_ns, 1);
		mess_csv_num(f, p[i].min_ns, 1);
		fprintf(f, ",%u\n", p[i].samples);
	}
	return ferror(f) ? -EIO : 0;
}

void mess_c2c_md(FILE *f, const struct mess_c2c_pair *p, int n)
{
	struct mess_c2c_sum s[MESS_NSHARES];

	mess_c2c_group(p, n, s);
	fprintf(f, "## Core-to-core latency (one way, ns)\n\n"
		"| pairs sharing | pairs | median | least | most | p99, worst pair |\n"
		"|---|---|---|---|---|---|\n");
	for (int g = 0; g < MESS_NSHARES; g++) {
		if (!s[g].pairs)
			continue;
		fprintf(f, "| %s | %u | %.1f | %.1f | %.1f | %.1f |\n", mess_c2c_groups[g],
			s[g].pairs, s[g].median_ns, s[g].min_ns, s[g].max_ns, s[g].p99_max_ns);
	}
	fprintf(f, "\nOne cache line handed back and forth between two threads pinned to the\n"
		"pair's PUs: half a round trip, the mean of a batch of round trips per sample;\n"
		"median, least and most over the group's pairs' medians.  smt: the same core;\n"
		"same cache: a shared L2 or L3 (CCX); same socket: the same package, no shared\n"
		"cache; other socket.  Every pair: %s.\n\n", MESS_C2C_CSV);
}

json_t *mess_c2c_json(const struct mess_c2c_pair *p, int n)
{
	struct mess_c2c_sum s[MESS_NSHARES];
	json_t *groups = json_object(), *pairs = json_array();

	mess_c2c_group(p, n, s);
	for (int g = 0; groups && g < MESS_NSHARES; g++)
		if (s[g].pairs)
			json_object_set_new(groups, mess_c2c_groups[g], mess_json_pack(
				"{s:i, s:o, s:o, s:o, s:o}", "pairs", (int)s[g].pairs,
				"median_ns", mess_json_real(s[g].median_ns, 1),
				"min_ns", mess_json_real(s[g].min_ns, 1),
				"max_ns", mess_json_real(s[g].max_ns, 1),
				"p99_max_ns", mess_json_real(s[g].p99_max_ns, 1)));
	for (int i = 0; pairs && i < n; i++)
		json_array_append_new(pairs, mess_json_pack(
			"{s:i, s:i, s:i, s:i, s:s, s:o, s:o, s:o, s:i}",
			"pu_a", p[i].a, "pu_b", p[i].b, "core_a", p[i].core_a,
			"core_b", p[i].core_b, "group", mess_c2c_groups[p[i].group],
			"median_ns", mess_json_real(p[i].median_ns, 1),
			"p99_ns", mess_json_real(p[i].p99_ns, 1),
			"min_ns", mess_json_real(p[i].min_ns, 1), "samples", (int)p[i].samples));
	return mess_json_pack("{s:o, s:o}", "groups", groups, "pairs", pairs);
}
