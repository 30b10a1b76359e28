// SPDX-License-Identifier: MIT
/*
 * The curves' counters (--counters): opened once on the packages loaded,
 * and what they say about the run in meta.json and summary.md: which
 * family counted and where, or what was tried and why it failed; the
 * measured/accounted bandwidth ratio per mix; the latency without page
 * walks beside the TLB-window figure.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "curves/measured/measured.h"
#include "mess/counters.h"
#include "mess/json.h"
#include "mess/stats.h"

int mess_run_counters_open(struct mess_measured *r)
{
	int err;

	if (!strcmp(r->cfg.counters, "off")) {
		snprintf(r->dram.status, sizeof(r->dram.status),
			 "not tried: --counters off");
		snprintf(r->cc.status, sizeof(r->cc.status),
			 "not tried: --counters off");
		return 0;
	}
	err = mess_dram_open(&r->dram, &r->topo, r->cfg.counters,
			     r->pkgs_loaded, r->npkgs_loaded);
	if (err && strcmp(r->cfg.counters, "auto")) {
		/* Asked for by name: a run without them is not what was
		 * asked for. */
		fprintf(stderr, "mess: --counters %s cannot count here: %s\n",
			r->cfg.counters, r->dram.status);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* On the chase thread, once setup() has pinned it; and what counts. */
void mess_run_corectr_open(struct mess_measured *r)
{
	int off = !strcmp(r->cfg.counters, "off");

	if (off)
		fprintf(stderr, "mess: bandwidth accounted from the generators' work (--counters off)\n");
	else if (!r->dram.fam)
		fprintf(stderr, "mess: bandwidth accounted from the generators' work: no memory-controller counters here (meta.json counters says what was tried; mess counters)\n");
	else
		fprintf(stderr, "mess: bandwidth measured by %s counters (%d on %d package%s)\n",
			r->dram.fam->name, r->dram.nch, r->dram.npkg,
			r->dram.npkg == 1 ? "" : "s");
	if (!off && mess_corectr_open(&r->cc))
		fprintf(stderr, "mess: no core counters on the chase, so no latency without page walks: %s\n",
			r->cc.status);
}

void mess_run_counters_close(struct mess_measured *r)
{
	mess_dram_close(&r->dram);
	mess_corectr_close(&r->cc);
}

/* Per mix: the median of the points' counted/accounted ratio. */
static double mix_ratio(const struct mess_curve *c, size_t *used)
{
	double v[512];
	size_t n = 0;

	for (size_t i = 0; i < c->n && n < 512; i++)
		v[n++] = mess_bw_ratio(c->pts[i].bw_gbs, c->pts[i].acc_read_bw_gbs +
				       c->pts[i].acc_write_bw_gbs);
	return mess_bw_ratio_median(v, n, used);
}

json_t *mess_run_counters_json(const struct mess_measured *r,
			       const struct mess_family *fam)
{
	json_t *ratios = json_object(), *ev = json_object();
	const struct mess_dram *d = &r->dram;
	char key[16];

	for (size_t i = 0; d->fam && i < fam->n; i++) {
		size_t used;
		double q = mix_ratio(&fam->curves[i], &used);

		snprintf(key, sizeof(key), "%u", fam->curves[i].store_pct);
		json_object_set_new(ratios, key, mess_json_real(q, 4));
	}
	for (int i = 0; i < MESS_CC_N; i++)
		json_object_set_new(ev, mess_cc_names[i], json_boolean(r->cc.c[i].fd >= 0));
	return mess_json_pack(
		"{s:s, s:s, s:s, s:s?, s:s, s:o, s:o, s:o, s:o, s:i, s:o, s:{s:s?, s:o, s:s}, s:s}",
		"requested", r->cfg.counters,
		"bw_source", d->fam ? "counters" : "accounted",
		/* A family without a read/write split falls back to the
		 * accounted share: recorded, not implied. */
		"read_pct_source", d->fam && !d->fam->rw_combined ? "counters" : "accounted",
		"dram_family", d->fam ? d->fam->name : NULL,
		"dram_status", d->fam ? "counting" : d->status,
		"dram_counters", json_integer(d->nch),
		"packages_counted", mess_json_ints(d->pkgs, (size_t)(d->npkg)),
		"bytes_per_count", d->fam ? mess_json_pack("{s:f, s:o}", "read", d->rd_bpc,
			"write", d->fam->write_event ? json_real(d->wr_bpc) : json_null()) : json_null(),
		"measured_over_accounted_by_store_pct", ratios,
		"windows_dram_read_zero", (int)r->dram_zero_windows,
		"packages_loaded", mess_json_ints(r->pkgs_loaded, (size_t)(r->npkgs_loaded)),
		"core", "event_set", r->cc.set ? r->cc.set->pfm_pmu : NULL,
		"events", ev, "status", r->cc.status[0] ? r->cc.status : "counting",
		"scaling", "each counter is read with its enabled and running times; a multiplexed count is scaled by enabled/running, and curves.csv counter_run_frac gives the least running fraction behind each point (1: not multiplexed); a counter that never ran gives no figure, never 0");
}

void mess_run_counters_md(FILE *f, const struct mess_measured *r,
			  const struct mess_family *fam)
{
	const struct mess_dram *d = &r->dram;

	fprintf(f, "\n## Counters\n\n");
	if (!d->fam) {
		fprintf(f, "Bandwidth is accounted from the generators' work, not measured: %s.\n",
			d->status);
	} else {
		fprintf(f, "Bandwidth and read share are measured by the memory controllers' counters (%s, %d counter%s on package%s",
			d->fam->name, d->nch, d->nch == 1 ? "" : "s",
			d->npkg == 1 ? "" : "s");
		for (int i = 0; i < d->npkg; i++)
			fprintf(f, "%s%d", i ? "," : " ", d->pkgs[i]);
		fprintf(f, ") over each chase window; the accounted figures are beside them in curves.csv (acc_read_bw_gbs, acc_write_bw_gbs).\n\n"
			   "| stores %% | measured / accounted (median of points) | points |\n"
			   "|---:|---:|---:|\n");
		for (size_t i = 0; i < fam->n; i++) {
			size_t used;
			double q = mix_ratio(&fam->curves[i], &used);

			if (isfinite(q))
				fprintf(f, "| %u | %.3f | %zu |\n",
					fam->curves[i].store_pct, q, used);
			else
				fprintf(f, "| %u | no figure | 0 |\n",
					fam->curves[i].store_pct);
		}
		if (d->fam->rw_combined)
			fprintf(f, "\n%s counts reads and writes together: `bw_gbs` is counted, `read_bw_gbs` and `write_bw_gbs` are empty, and `read_pct` is the accounted share.\n",
				d->fam->name);
		if (r->dram_zero_windows)
			fprintf(f, "\n%u chase window%s read no DRAM traffic at all: not counted as 0, left out.\n",
				r->dram_zero_windows, r->dram_zero_windows == 1 ? "" : "s");
	}
	if (r->cc.set && r->cc.c[MESS_CC_WALK].fd >= 0) {
		double v[4096];
		size_t n = 0;

		for (size_t i = 0; i < fam->n; i++)
			for (size_t j = 0; j < fam->curves[i].n && n < 4096; j++)
				if (isfinite(fam->curves[i].pts[j].lat_nowalk_ns))
					v[n++] = fam->curves[i].pts[j].lat_ns -
						 fam->curves[i].pts[j].lat_nowalk_ns;
		fprintf(f, "\nLatency: the headline is the TLB-window chase latency (`lat_ns`). The latency with data-TLB walk cycles subtracted, as Mess computes it, is `lat_nowalk_ns`; ");
		if (n)
			fprintf(f, "the walks cost a median %.2f ns per load over %zu points.\n",
				mess_median(v, (unsigned)n), n);
		else
			fprintf(f, "no point has it.\n");
	} else {
		fprintf(f, "\nLatency: the TLB-window chase latency only; no walk-cycle counter: %s.\n",
			r->cc.status[0] ? r->cc.status : "not opened");
	}
}
