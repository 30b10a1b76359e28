// SPDX-License-Identifier: MIT
/*
 * The matrix's figures from its samples, and its files: matrix.csv, the
 * tables of summary.md, the cells of summary.json.  Nothing here measures
 * (tests/unit/matrix/ checks it with known answers).
 */
#include "matrix/matrix.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/machine/nodes.h"
#include "core/measure/chain.h"
#include "core/util.h"
#include "mess/stats.h"

const char *const mess_mx_labels[4] = {
	[MESS_MX_LOCAL] = "local",
	[MESS_MX_REMOTE] = "remote",
	[MESS_MX_LOCAL_CPULESS] = "local cpu-less",
	[MESS_MX_REMOTE_CPULESS] = "remote cpu-less",
};

enum mess_mx_label mess_mx_label(int local, int has_cpus)
{
	if (has_cpus)
		return local ? MESS_MX_LOCAL : MESS_MX_REMOTE;
	return local ? MESS_MX_LOCAL_CPULESS : MESS_MX_REMOTE_CPULESS;
}

double mess_mx_mibs_gbs(double mibs)
{
	return mibs * MESS_MIBS_TO_GBS;
}

/* Median into *med and the spread (1.4826 x MAD) into *spread; NAN both
 * with no samples. */
static void stats(const double *v, unsigned n, double *med, double *spread)
{
	*med = *spread = NAN;
	if (n)
		*spread = mess_mad_sd(v, n, med);
}

static double ratio(double measured, double fw)
{
	return isfinite(measured) && isfinite(fw) && fw > 0 ? measured / fw : NAN;
}

void mess_mx_finish(struct mess_mx_cell *c, struct mess_mx_samples lat,
		    struct mess_mx_samples bw, struct mess_mx_samples bw21)
{
	stats(lat.v, lat.n, &c->lat_ns, &c->lat_spread_ns);
	stats(bw.v, bw.n, &c->bw_gbs, &c->bw_spread_gbs);
	stats(bw21.v, bw21.n, &c->bw21_gbs, &c->bw21_spread_gbs);
	c->lat_repeats = lat.n;
	c->bw_repeats = bw.n;
	c->bw21_repeats = bw21.n;
	c->lat_vs_hmat = ratio(c->lat_ns, c->hmat_lat_ns);
	c->bw_vs_hmat = ratio(c->bw_gbs, c->hmat_bw_gbs);
}

int mess_mx_csv(FILE *f, const struct mess_mx_cell *c, int n)
{
	fprintf(f, "%s\n", MESS_MX_HEADER);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%d,\"%s\",%d,%d,%s,%s", c[i].init, c[i].init_cores,
			c[i].chase_core, c[i].target, c[i].kind, mess_mx_labels[c[i].label]);
		mess_csv_num(f, c[i].lat_ns, 2);
		mess_csv_num(f, c[i].lat_spread_ns, 2);
		fprintf(f, ",%u", c[i].lat_repeats);
		mess_csv_num(f, c[i].hmat_lat_ns, 0);
		mess_csv_num(f, c[i].lat_vs_hmat, 3);
		mess_csv_num(f, c[i].bw_gbs, 3);
		mess_csv_num(f, c[i].bw_spread_gbs, 3);
		fprintf(f, ",%u,%d", c[i].bw_repeats, c[i].bw_cores);
		mess_csv_num(f, c[i].hmat_bw_gbs, 3);
		mess_csv_num(f, c[i].bw_vs_hmat, 3);
		mess_csv_num(f, c[i].bw21_gbs, 3);
		mess_csv_num(f, c[i].bw21_spread_gbs, 3);
		fprintf(f, ",%u", c[i].bw21_repeats);
		mess_csv_num(f, c[i].bw21_read_pct, 1);
		fprintf(f, ",%s", c[i].huge);
		mess_csv_num(f, c[i].chase_on, 1);
		mess_csv_num(f, c[i].chase_off, 1);
		mess_csv_num(f, c[i].gen_on, 1);
		mess_csv_num(f, c[i].gen_off, 1);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

int mess_mx_distinct(const struct mess_mx_cell *c, int n, int target, int *out)
{
	int m = 0;

	for (int i = 0; i < n; i++) {
		int v = target ? c[i].target : c[i].init, k;

		for (k = 0; k < m && out[k] != v; k++)
			;
		if (k == m)
			out[m++] = v;
	}
	return m;
}

static const struct mess_mx_cell *find(const struct mess_mx_cell *c, int n,
				       int init, int target)
{
	for (int i = 0; i < n; i++)
		if (c[i].init == init && c[i].target == target)
			return &c[i];
	return NULL;
}

/* "81.2 ns (HMAT 100, 0.81x)", "not measured", "81.2 ns" (HMAT not given);
 * the firmware's latency is whole ns. */
static void md_cell(char *buf, size_t len, double v, double fw, double x,
		    int dec, int fw_dec, const char *unit)
{
	if (!isfinite(v))
		snprintf(buf, len, "not measured");
	else if (!isfinite(fw))
		snprintf(buf, len, "%.*f %s", dec, v, unit);
	else
		snprintf(buf, len, "%.*f %s (HMAT %.*f, %.2fx)", dec, v, unit, fw_dec, fw, x);
}

/* Which figure a table shows. */
enum { MD_LAT, MD_BW, MD_BW21 };

static void md_table(FILE *f, const struct mess_mx_cell *c, int n, int what)
{
	int inits[n], targets[n];
	int ni = mess_mx_distinct(c, n, 0, inits), nt = mess_mx_distinct(c, n, 1, targets);
	char cell[96];

	fprintf(f, "| from \\ to |");
	for (int j = 0; j < nt; j++) {
		const struct mess_mx_cell *k = find(c, n, c[0].init, targets[j]);

		fprintf(f, " node %d %s |", targets[j], k ? k->kind : "");
	}
	fprintf(f, "\n|---|");
	for (int j = 0; j < nt; j++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (int i = 0; i < ni; i++) {
		const struct mess_mx_cell *k = find(c, n, inits[i], targets[0]);

		fprintf(f, "| node %d (cores %s) |", inits[i], k ? k->init_cores : "?");
		for (int j = 0; j < nt; j++) {
			k = find(c, n, inits[i], targets[j]);
			if (!k) {
				fprintf(f, " |");
				continue;
			}
			if (what == MD_BW)
				md_cell(cell, sizeof(cell), k->bw_gbs, k->hmat_bw_gbs,
					k->bw_vs_hmat, 1, 1, "GB/s");
			else if (what == MD_BW21)
				md_cell(cell, sizeof(cell), k->bw21_gbs, NAN, NAN, 1, 1, "GB/s");
			else
				md_cell(cell, sizeof(cell), k->lat_ns, k->hmat_lat_ns,
					k->lat_vs_hmat, 1, 0, "ns");
			fprintf(f, " %s, %s |", cell, mess_mx_labels[k->label]);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

static unsigned impossible_runs(const struct mess_mx_cell *c, int n)
{
	unsigned gone = 0;

	for (int i = 0; i < n; i++)
		gone += c[i].lat_impossible;
	return gone;
}

/* The least and most of the measured pairs' floors (NAN: none). */
static void floors(const struct mess_mx_cell *c, int n, double *lo, double *hi)
{
	*lo = *hi = NAN;
	for (int i = 0; i < n; i++)
		if (isfinite(c[i].lat_floor_ns)) {
			*lo = !(c[i].lat_floor_ns >= *lo) ? c[i].lat_floor_ns : *lo;
			*hi = !(c[i].lat_floor_ns <= *hi) ? c[i].lat_floor_ns : *hi;
		}
}

json_t *mess_mx_impossible_json(const struct mess_mx_cell *c, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, mess_json_pack("{s:i, s:i, s:o, s:s}",
			"initiator_node", c[i].init, "target_node", c[i].target,
			"floor_ns", mess_json_real(c[i].lat_floor_ns, 3),
			"source", c[i].lat_floor_src));
	return mess_json_pack("{s:i, s:s, s:o}", "latency_runs_impossible", (int)impossible_runs(c, n),
		"impossible_rule", "a latency run faster than an L1 hit (below the pair's floor: 0.8 x the L1 hit measured on its chase core before its runs, or 0.8 ns, four cycles at 5 GHz, where none was measured; latency_floors) read nothing: discarded, run again up to the repeats, never a figure nor the length of a run; the verdict's rule impossible counts them",
		"latency_floors", a);
}

void mess_mx_md(FILE *f, const struct mess_mx_cell *c, int n)
{
	unsigned gone = impossible_runs(c, n);
	double lo, hi;

	if (!n) {
		fprintf(f, "Nothing was measured.\n\n");
		return;
	}
	fprintf(f, "## Unloaded latency (ns per dependent load)\n\n");
	md_table(f, c, n, MD_LAT);
	floors(c, n, &lo, &hi);
	if (gone && lo == hi)
		fprintf(f, "**%u latency run%s read faster than an L1 hit** (below %.2f ns, %s): discarded, run again up to the repeats, never a figure (meta.json latency_runs_impossible).\n\n",
			gone, gone == 1 ? "" : "s", lo, c[0].lat_floor_src);
	else if (gone)
		fprintf(f, "**%u latency run%s read faster than an L1 hit** (below %.2f to %.2f ns, 0.8 x the L1 hit measured on each pair's chase core; meta.json latency_floors): discarded, run again up to the repeats, never a figure (meta.json latency_runs_impossible).\n\n",
			gone, gone == 1 ? "" : "s", lo, hi);
	fprintf(f, "## Peak bandwidth, read only (GB/s, 1e9 B/s)\n\n");
	md_table(f, c, n, MD_BW);
	fprintf(f, "## Peak bandwidth, 2:1 reads to writes (GB/s; %.0f %% of the bytes read)\n\n",
		c[0].bw21_read_pct);
	md_table(f, c, n, MD_BW21);
	fprintf(f, "Rows: the initiators, NUMA nodes with CPUs; columns: the memory nodes.\n"
		"Beside each figure: the firmware's (the ACPI HMAT table where it is readable,\n"
		"else hwloc's; meta.json hmat_source says which) for the pair and\n"
		"the measured over it, where the firmware gives one.  local: the node's cpuset\n"
		"(hwloc) holds the initiator's cores; cpu-less: the node has no CPU of its own.\n"
		"Every figure with its spread and repeats: %s.\n\n"
		"**Bandwidth is accounted**: the generators' declared bytes over each window,\n"
		"an ordinary store counted with the read its line's write-allocate makes, not\n"
		"the memory controllers' counts (meta.json bandwidth.source).  On a CPU that\n"
		"skips that read the 2:1 figure is overstated.\n\n", MESS_MX_CSV);
}

json_t *mess_mx_json(const struct mess_mx_cell *c, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++) {
		json_array_append_new(a, mess_json_pack(
			"{s:i, s:s, s:i, s:i, s:s, s:s, s:o, s:o, s:i, s:o, s:o, s:o, s:o, s:i, s:i, s:o, s:o, s:s}",
			"initiator_node", c[i].init, "initiator_cores", c[i].init_cores,
			"chase_core", c[i].chase_core, "target_node", c[i].target,
			"target_kind", c[i].kind, "label", mess_mx_labels[c[i].label],
			"lat_ns", mess_json_real(c[i].lat_ns, 2), "lat_spread_ns", mess_json_real(c[i].lat_spread_ns, 2),
			"lat_repeats", (int)c[i].lat_repeats,
			"hmat_lat_ns", mess_json_real(c[i].hmat_lat_ns, 0),
			"lat_vs_hmat", mess_json_real(c[i].lat_vs_hmat, 3),
			"bw_gbs", mess_json_real(c[i].bw_gbs, 3), "bw_spread_gbs", mess_json_real(c[i].bw_spread_gbs, 3),
			"bw_repeats", (int)c[i].bw_repeats, "bw_cores", c[i].bw_cores,
			"hmat_bw_gbs", mess_json_real(c[i].hmat_bw_gbs, 3),
			"bw_vs_hmat", mess_json_real(c[i].bw_vs_hmat, 3), "huge_pages", c[i].huge));
		json_object_update_new(json_array_get(a, (size_t)i), mess_json_pack(
			"{s:o, s:o, s:i, s:o}", "bw21_gbs", mess_json_real(c[i].bw21_gbs, 3),
			"bw21_spread_gbs", mess_json_real(c[i].bw21_spread_gbs, 3),
			"bw21_repeats", (int)c[i].bw21_repeats,
			"bw21_read_pct", mess_json_real(c[i].bw21_read_pct, 1)));
		json_object_update_new(json_array_get(a, (size_t)i), mess_json_pack(
			"{s:o, s:o, s:o, s:o}",
			"chase_mib_on_target", mess_json_real(c[i].chase_on, 1),
			"chase_mib_elsewhere", mess_json_real(c[i].chase_off, 1),
			"gen_mib_on_target", mess_json_real(c[i].gen_on, 1),
			"gen_mib_elsewhere", mess_json_real(c[i].gen_off, 1)));
	}
	return a;
}
