// SPDX-License-Identifier: MIT
/*
 * interfere's files from its rows: interference.csv, summary.md's tables
 * and knees, summary.json.  Nothing here measures.
 */
#include "interfere/interfere.h"

#include <errno.h>
#include <math.h>

#include "core/util.h"

const char *const mess_ifr_places[MESS_IFR_NPLACES] = {
	[MESS_IFR_SAME_SOCKET] = "same-socket",
	[MESS_IFR_OTHER_SOCKET] = "other-socket",
	[MESS_IFR_OTHER_NODE] = "other-node",
};

void mess_ifr_ratios(struct mess_ifr_row *r, int n)
{
	for (int i = 0; i < n; i++) {
		double base = NAN;

		for (int j = 0; j < n; j++)
			if (r[j].store_pct == r[i].store_pct && !r[j].aggressors)
				base = r[j].lat.p99;
		r[i].p99_vs_none = isfinite(base) && base > 0 && isfinite(r[i].lat.p99) ?
				   r[i].lat.p99 / base : NAN;
	}
}

int mess_ifr_mix_knee(const struct mess_ifr_row *r, int n, int store_pct)
{
	int a[n ? n : 1], k = 0;
	double p99[n ? n : 1];

	for (int i = 0; i < n; i++)
		if (r[i].store_pct == store_pct) {
			a[k] = r[i].aggressors;
			p99[k++] = r[i].lat.p99;
		}
	return mess_ifr_knee(a, p99, k, MESS_IFR_KNEE_X);
}

int mess_ifr_csv(FILE *f, const struct mess_ifr_about *a,
		 const struct mess_ifr_row *r, int n)
{
	fprintf(f, "%s\n", MESS_IFR_HEADER);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s,%d", mess_ifr_places[a->place], r[i].store_pct);
		mess_csv_num(f, r[i].read_pct, 1);
		fprintf(f, ",%d", r[i].aggressors);
		mess_csv_num(f, r[i].lat.p50, 2);
		mess_csv_num(f, r[i].lat.p90, 2);
		mess_csv_num(f, r[i].lat.p99, 2);
		mess_csv_num(f, r[i].lat.p999, 2);
		mess_csv_num(f, r[i].lat.mean, 2);
		mess_csv_num(f, r[i].lat.p99_spread, 2);
		mess_csv_num(f, r[i].p99_vs_none, 3);
		fprintf(f, ",%u", r[i].lat.windows);
		mess_csv_num(f, r[i].bw_gbs, 3);
		fprintf(f, ",%u,%u", r[i].disturbed, r[i].disturbed_kept);
		mess_csv_num(f, r[i].lost_pct, 2);
		fprintf(f, ",%llu,%u\n", (unsigned long long)r[i].preempted,
			r[i].impossible);
	}
	return ferror(f) ? -EIO : 0;
}

/* The mixes in the rows' order. */
static int mixes(const struct mess_ifr_row *r, int n, int *out)
{
	int m = 0;

	for (int i = 0; i < n; i++) {
		int k;

		for (k = 0; k < m && out[k] != r[i].store_pct; k++)
			;
		if (k == m)
			out[m++] = r[i].store_pct;
	}
	return m;
}

static void md_num(FILE *f, double v, int dec)
{
	if (isfinite(v))
		fprintf(f, " %.*f |", dec, v);
	else
		fprintf(f, " - |");
}

/* "at 3 aggressors", "not reached with 4", "unknown (...)". */
static void md_knee(FILE *f, const struct mess_ifr_row *r, int n, int mix)
{
	int knee = mess_ifr_mix_knee(r, n, mix), most = 0;

	for (int i = 0; i < n; i++)
		if (r[i].store_pct == mix && r[i].aggressors > most)
			most = r[i].aggressors;
	if (knee >= 0)
		fprintf(f, "Knee: **%d aggressor%s** (the fewest at which p99 reached %.0fx its value with none).\n\n",
			knee, knee == 1 ? "" : "s", MESS_IFR_KNEE_X);
	else if (knee == MESS_IFR_KNEE_NOT_REACHED)
		fprintf(f, "Knee: **not reached with %d** (p99 stayed under %.0fx its value with none).\n\n",
			most, MESS_IFR_KNEE_X);
	else
		fprintf(f, "Knee: unknown (no p99 measured with 0 aggressors).\n\n");
}

void mess_ifr_md(FILE *f, const struct mess_ifr_about *a,
		 const struct mess_ifr_row *r, int n)
{
	int mx[n ? n : 1], nm = mixes(r, n, mx);

	fprintf(f, "Victim: core %d (memory node %d); aggressors: %s, cores %s in that order, their arrays on node %d.\n\n",
		a->victim, a->victim_node, mess_ifr_places[a->place],
		a->aggressor_cores[0] ? a->aggressor_cores : "none", a->aggressor_node);
	if (!n) {
		fprintf(f, "Nothing was measured.\n\n");
		return;
	}
	for (int m = 0; m < nm; m++) {
		double rd = NAN;

		for (int i = 0; i < n; i++)
			if (r[i].store_pct == mx[m])
				rd = r[i].read_pct;
		fprintf(f, "## %d %% stores (%.0f %% of the bytes read)\n\n", mx[m], rd);
		fprintf(f, "| aggressors | p50 ns | p90 ns | p99 ns | p99.9 ns | mean ns | p99 / none | aggressors' GB/s | disturbed (kept) |\n"
			   "|---|---|---|---|---|---|---|---|---|\n");
		for (int i = 0; i < n; i++) {
			if (r[i].store_pct != mx[m])
				continue;
			fprintf(f, "| %d |", r[i].aggressors);
			md_num(f, r[i].lat.p50, 1);
			md_num(f, r[i].lat.p90, 1);
			md_num(f, r[i].lat.p99, 1);
			md_num(f, r[i].lat.p999, 1);
			md_num(f, r[i].lat.mean, 1);
			md_num(f, r[i].p99_vs_none, 2);
			md_num(f, r[i].bw_gbs, 2);
			fprintf(f, " %u (%u) |\n", r[i].disturbed, r[i].disturbed_kept);
		}
		fprintf(f, "\n");
		md_knee(f, r, n, mx[m]);
	}
	fprintf(f, "Each figure: the median over the row's distribution windows of the victim's\n"
		"timed dependent-load chase, ns a load (every figure with its p99 spread:\n"
		"%s).  **Bandwidth is accounted**: the aggressors' declared bytes over the\n"
		"row's windows (an ordinary store counted with its write-allocate read), not\n"
		"the memory controllers' counts.\n\n", MESS_IFR_CSV);
}

json_t *mess_ifr_json(const struct mess_ifr_about *a,
		      const struct mess_ifr_row *r, int n)
{
	json_t *rows = json_array(), *knees = json_array();
	int mx[n ? n : 1], nm = mixes(r, n, mx);

	for (int i = 0; rows && i < n; i++)
		json_array_append_new(rows, mess_json_pack(
			"{s:i, s:o, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:i, s:i, s:o, s:I, s:i}",
			"store_pct", r[i].store_pct, "read_pct", mess_json_real(r[i].read_pct, 1),
			"aggressors", r[i].aggressors,
			"lat_p50_ns", mess_json_real(r[i].lat.p50, 2),
			"lat_p90_ns", mess_json_real(r[i].lat.p90, 2),
			"lat_p99_ns", mess_json_real(r[i].lat.p99, 2),
			"lat_p999_ns", mess_json_real(r[i].lat.p999, 2),
			"lat_mean_ns", mess_json_real(r[i].lat.mean, 2),
			"lat_p99_spread_ns", mess_json_real(r[i].lat.p99_spread, 2),
			"p99_vs_none", mess_json_real(r[i].p99_vs_none, 3),
			"windows", (int)r[i].lat.windows,
			"bw_gbs", mess_json_real(r[i].bw_gbs, 3),
			"disturbed", (int)r[i].disturbed, "disturbed_kept", (int)r[i].disturbed_kept,
			"lost_pct", mess_json_real(r[i].lost_pct, 2),
			"preempted", (json_int_t)r[i].preempted,
			"impossible", (int)r[i].impossible));
	for (int m = 0; knees && m < nm; m++) {
		int k = mess_ifr_mix_knee(r, n, mx[m]);

		json_array_append_new(knees, mess_json_pack(
			"{s:i, s:o, s:s}", "store_pct", mx[m],
			"knee_aggressors", k >= 0 ? json_integer(k) : json_null(),
			"knee", k >= 0 ? "reached" : k == MESS_IFR_KNEE_NOT_REACHED ?
			"not reached" : "unknown"));
	}
	return mess_json_pack("{s:s, s:s, s:i, s:i, s:s, s:i, s:i, s:f, s:o, s:o}",
			      "cpu_model", a->cpu_model,
			      "placement", mess_ifr_places[a->place],
			      "victim_core", a->victim, "victim_node", a->victim_node,
			      "aggressor_cores", a->aggressor_cores,
			      "aggressor_node", a->aggressor_node,
			      "max_aggressors", a->max_aggressors,
			      "knee_x", MESS_IFR_KNEE_X,
			      "rows", rows, "knees", knees);
}
