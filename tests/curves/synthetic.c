// SPDX-License-Identifier: MIT
/*
 * The tests' synthetic backend (issue 44): one file and one row of
 * harness/curves/cmd.c's table, the interface's proof and the example of
 * docs/adding-a-backend.md.  Linked into build/<arch>/mess-synthetic only
 * (the row is a weak reference, NULL in mess), where `--backend
 * synthetic` drives the real driver (sweep, repeats, rules, verdict,
 * files) over windows from a formula with known answers:
 * tests/synthetic.sh checks the whole path against numbers worked out by
 * hand.  Not a measurement, and every output says so.
 *
 * The formula, a queue in front of a memory of peak P: at intensity n
 * (nop count) a mix of s % stores offers B(n) = P / (1 + n / N0) GB/s
 * (its read share that of write-allocate stores: 100 / (1 + s/100) %),
 * and the latency is L(B) = L0 / (1 - B / (P (1 + 1/Q))): flat when idle,
 * rising towards the peak, never infinite.  No noise: every window of a
 * point is the same, so a point's figures are the formula's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "curves/backend/backend.h"

#define SYN_PEAK_GBS 100.0	/* P */
#define SYN_UNLOADED_NS 80.0	/* L0 */
#define SYN_HALF_NOP 64.0	/* N0: half the peak offered */
#define SYN_HEADROOM 0.25	/* Q: at the peak, L = L0 (1 + 1/Q) */

struct synthetic {
	double bw, read_pct;	/* the load set; bw 0 idle */
};

static double syn_lat(double bw)
{
	return SYN_UNLOADED_NS / (1 - bw / (SYN_PEAK_GBS * (1 + 1 / SYN_HEADROOM)));
}

static int syn_open(const struct mess_cfg *c, int argc, char **argv,
		    void **bs, struct mess_run_desc *d, int *done)
{
	static struct synthetic s;

	(void)argc;
	(void)argv;
	(void)done;
	if (c->resume[0]) {
		fprintf(stderr, "mess: --resume: a synthetic run is not resumed; allowed: run it again\n");
		return -EINVAL;
	}
	*bs = &s;
	snprintf(d->device, sizeof(d->device), "synthetic memory");
	snprintf(d->title, sizeof(d->title), "synthetic memory (a formula)");
	snprintf(d->banner, sizeof(d->banner),
		 "SYNTHETIC: a formula (peak %.0f GB/s, unloaded %.0f ns), not a measurement of this machine",
		 SYN_PEAK_GBS, SYN_UNLOADED_NS);
	d->verb = "Computed";
	snprintf(d->how, sizeof(d->how), ": nothing was measured");
	d->nunits = 1;
	d->bw_source = "synthetic";
	d->peak_gbs = SYN_PEAK_GBS;
	for (int i = 0; i < MESS_GEN_NMIXES; i++)
		d->read_pct[i] = 100.0 * 100 / (100 + i * MESS_GEN_MIX_STEP);
	return 0;
}

static int syn_start(void *bs, const struct mess_session *s)
{
	(void)bs;
	(void)s;
	return 0;
}

static double syn_set_load(void *bs, const struct mess_load *l, int *steady)
{
	struct synthetic *s = bs;

	*steady = 1;
	s->bw = 0;
	if (l->store_pct == MESS_LOAD_IDLE)
		return 0;
	s->read_pct = 100.0 * 100 / (100 + l->store_pct);
	s->bw = SYN_PEAK_GBS / (1 + (double)l->intensity / SYN_HALF_NOP);
	return s->bw;
}

static int syn_window(void *bs, struct mess_window *w)
{
	struct synthetic *s = bs;

	*w = (struct mess_window){
		.lat_ns = syn_lat(s->bw), .bw_gbs = s->bw,
		.rd_gbs = s->bw * s->read_pct / 100,
		.wr_gbs = s->bw * (100 - s->read_pct) / 100,
		.crd_gbs = NAN, .cwr_gbs = NAN, .ctot_gbs = NAN,
		.nowalk_ns = NAN, .run_frac = NAN, .lost_pct = 0,
		.steal_ms = NAN, .ghz0 = NAN, .ghz1 = NAN };
	return 0;
}

static void syn_figures(void *bs, const struct mess_window *w, unsigned n,
			struct mess_point *p)
{
	struct synthetic *s = bs;

	(void)n;
	p->bw_gbs = w[0].bw_gbs;
	p->bw_gbs_std = 0;
	p->read_pct = s->read_pct;
	p->read_bw_gbs = p->acc_read_bw_gbs = w[0].rd_gbs;
	p->write_bw_gbs = p->acc_write_bw_gbs = w[0].wr_gbs;
}

/* meta.json's synthetic section: the formula and its constants, so that
 * a reader can check every figure. */
static json_t *syn_json(const void *bs, const struct mess_results *res)
{
	(void)bs;
	(void)res;
	return json_pack("{s:{s:s, s:f, s:f, s:f, s:f}}", "synthetic",
		"formula", "bw = peak_gbs / (1 + nop / half_nop); lat = unloaded_ns / (1 - bw / (peak_gbs (1 + 1 / headroom))); read share 100 / (1 + store_pct / 100) %",
		"peak_gbs", SYN_PEAK_GBS, "unloaded_ns", SYN_UNLOADED_NS,
		"half_nop", SYN_HALF_NOP, "headroom", SYN_HEADROOM);
}

static void syn_close(void *bs)
{
	(void)bs;
}

const struct mess_backend mess_synthetic_backend = {
	.name = "synthetic", .kind = "synthetic", .resumable = 0,
	.accounting = "none: a formula (tests/curves/synthetic.c)",
	.bw_note = ": the formula's figures; nothing was measured.",
	.cut_short = "the synthetic run was cut short: run it again",
	.open = syn_open, .start = syn_start, .set_load = syn_set_load,
	.window = syn_window, .figures = syn_figures, .json = syn_json,
	.close = syn_close,
};
