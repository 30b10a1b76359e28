// SPDX-License-Identifier: MIT
/*
 * `mess import MESS_DIR --out RUN`: a raw Mess benchmark tree (bw/, lat/,
 * plotter.txt: what every Mess user has on disk after a run) as one of our
 * run directories (curves.csv, meta.json), so that compare, export,
 * position, fleet and the model take Mess users' own runs.  The figures
 * are Mess's own, computed as its processing does (include/mess/messraw.h);
 * our curve rules then judge them (meta.json quality).
 */
#include "import/cmd.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "core/report/html.h"
#include "core/report/plot.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/util.h"
#include "mess/json.h"
#include "mess/messfmt.h"
#include "mess/messraw.h"
#include "mess/parse.h"
#include "mess/metrics.h"
#include "mess/quality.h"

struct import_opts {
	char out[PATH_MAX];
	char processing[16];
	int no_plots;
	int help;
};

#define F(field) MESS_OPT_F(struct import_opts, field)
#define S(field) MESS_OPT_S(struct import_opts, field)

static const struct mess_opt opts[] = {
	MESS_OPT_OUT(S(out), "RUN", "run directory to write: new or empty (required)"),
	{ "processing", MESS_OPT_STR, S(processing), 0, 0, "P",
	  "how repetitions become points: mess (default: Mess's own processing, each repetition under its own measured read share rounded to 1 %, the points thinned as processed/memory_curves.csv has them), mess-groups (the same grouping, every point kept) or per-ratio (a curve per generator read ratio, a point per file: its repetitions together)" },
	MESS_OPT_NO_PLOTS(F(no_plots)),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

#define BW_METHOD "the tree's bandwidth counters (method.bw_counters: the counters family) of the first socket perf stat lists (S0; Mess's processing skips S1's lines: the generators, the chase and their memory are on one socket; repetitions.other_socket_lines counts those left out), in bytes: CAS counts (unc_m_cas_count.rd + .wr; AMD's UMC and data fabric) x CACHE_LINE_SIZE (plotter.txt, 64 B without), Grace's cmem_rd_data x 32 B + cmem_wr_total_bytes (remote_socket_rd_data and _wr_total_bytes alike), Granite Rapids' sub-channel CAS counts (unc_m_cas_count_schN) x CACHE_LINE_SIZE, A64FX's a64fx_read/write_effective x 256 B, Intel PCM's CXL MB/s x the elapsed time; a remote tree's UPI data flits (unc_upi_rxl_flits.all_data received as reads + unc_upi_txl_flits.all_data sent as writes) / UPI_SCALING_FACTOR (9 without) x CACHE_LINE_SIZE; over the block's elapsed time; read share rd / (rd + wr) (AMD's data fabric, reads and writes together: the generator's R, as Mess takes it); mean of the repetitions"
#define V1_BW_METHOD "a Mess-benchmark v1 tree (measuring/bw/bw_perf_<R>_<pause>.txt): the mean of each repetition's 'BW (GB/s)' line, as the run printed it; read share the mean of its 'rd_percentage' line x 100. Mess-benchmark's own v1 processing (its processing/calculator.py) instead recomputes (MEM Read + MEM Write) x 256 B / 'time seconds', which differs from the printed line on the A64FX tree: the printed one is kept, the counts are not read"
#define V1_LAT_METHOD "a Mess-benchmark v1 tree (measuring/lat/lat_perf_<R>_<pause>.txt): the mean of each repetition's 'mem latency is: <ns>ns' line as the chase printed it (its '(based on time)' twin left out); no TLB correction (Mess-benchmark's v1 processing takes 17 cycles per tlb1miss off the cycles, at a CPU_FREQ a v1 tree does not record)"

/* What the export's LLC_LATENCY_NS says for an import (harness/export). */
#define LLC_WHY "not in a Mess benchmark tree: Mess measures no last-cache latency (plotter.txt's TLB_NS is the STLB hit's time, not a cache's); mess ladder measures one on the machine"
#define LAT_METHOD "Mess's processing (Mess-2.0 utils/libs/processor.py): the chase's elapsed time less r2012 cycles at its own clock (cycles / elapsed) less TLB_NS per r1012 event, over accesses; mean of the repetitions. Mess names r1012 the STLB hits and r2012 the walk cycles; on Sapphire Rapids Intel's event list has 0x12/0x20 STLB_HIT and 0x12/0x10 WALK_PENDING, the other way round: kept as Mess computes it, so that the figures are the ones Mess publishes"

void mess_import_usage(FILE *f)
{
	fprintf(f,
		"usage: mess import MESS_DIR --out RUN [--processing mess|mess-groups|per-ratio] [--no-plots]\n"
		"Turn a raw Mess benchmark tree (bw/bw_<R>_<pause>.txt, lat/lat_<R>_<pause>.txt,\n"
		"plotter.txt) into a run directory of mess: curves.csv and meta.json, which\n"
		"compare, export, position, fleet and the model read like a run of mess,\n"
		"with its curve figure (plots/, the tree's theoretical peak from plotter.txt)\n"
		"and report.html.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nBandwidth: the memory controllers' counters Mess records (Intel's CAS counts\n"
		"x 64 B, NVIDIA Grace's SCF bytes, AMD's data fabric or UMC, A64FX's, PCM's CXL\n"
		"rates; a remote tree's UPI data flits), the first socket's, over each\n"
		"repetition's time.  Latency: the chase's time per access less Mess's TLB correction\n"
		"(TLB_NS), as Mess's own processing computes it.  Points as Mess makes them\n"
		"(--processing mess): a curve per measured read share rounded to 1 %%, a point\n"
		"per pause, thinned as Mess's processed/memory_curves.csv is (a point kept 5 GB/s\n"
		"and 5 %% latency above the last; a share with under 5 points or a gap over half\n"
		"its span left out); every such point (--processing mess-groups); or a curve\n"
		"per generator read ratio R (--processing per-ratio, store_pct 100 - R), a point\n"
		"per file.  meta.json says the method, how many points and shares were left out,\n"
		"the source and the verdict of mess's curve rules on the imported points;\n"
		"summary.md the same in short, with the shares kept beyond the tree's own\n"
		"processed/memory_curves.csv (--processing mess drops them).  A Mess-benchmark\n"
		"v1 tree (measuring/bw/bw_perf_<R>_<pause>.txt, lat/lat_perf_*, no plotter.txt)\n"
		"is read per ratio from its printed 'BW (GB/s)' and 'mem latency is' lines.\n"
		"\nExample:\n"
		"  mess import Mess-Results/Systems/MN5/MN5-GPP/regular/AVX2/local --out runs/mn5-gpp\n"
		"  mess import Mess-Results/Systems/Grace/local --processing mess-groups --out runs/grace-all\n"
		"Exit status: 0 ok, 1 bad usage or a tree that cannot be read, 2 failure.\n");
}

/* Our curve rules on the imported points, and the run rules that apply
 * (the clock; no chase-only or random chase was measured). */
static json_t *judge(struct mess_family *f, const struct mess_raw *r,
		     double unloaded, char *level, size_t len, size_t dropped)
{
	struct mess_qtol tol = MESS_QTOL_DEFAULT;
	struct mess_quality_in in = {
		.unloaded_ns = unloaded, .unloaded_sd_ns = NAN,
		.random_ns = NAN, .random_sd_ns = NAN,
		.clock_spread_pct = r->ghz_median > 0 ?
			100 * (r->ghz_max - r->ghz_min) / r->ghz_median : NAN,
		.unloaded_end_ns = NAN, .unloaded_end_sd_ns = NAN,
	};
	enum mess_level *mix = calloc(f->n ? f->n : 1, sizeof(*mix));
	struct mess_verdict v;
	char more[96] = "";

	if (!mix)
		return NULL;
	mess_verdict_init(&v);
	for (size_t i = 0; i < f->n; i++)
		mess_quality_curve(&f->curves[i], unloaded, 0, &tol, NULL);
	mess_quality_family(f, &in, &v, mix);
	mess_verdict_add(&v, MESS_PASS, "imported",
			 "imported from a Mess benchmark tree: no chase-only run, so the unloaded latency is the lowest-bandwidth points' and its rules are not applied; the points were measured once by Mess, not again (the mix reasons' wording is that of a run of mess)");
	if (dropped)
		snprintf(more, sizeof(more), ", and %zu more that processed/memory_curves.csv lacks",
			 dropped);
	if (r->thinned)
		/* The thinning keeps only rising latencies: a point our rules
		 * would flag is likelier among those it left out. */
		mess_verdict_add(&v, MESS_PASS, "thinned",
				 "Mess's processing kept %zu of its %zu grouped points (the thinning keeps a point 5 GB/s and 5 %% latency above the last kept; %zu shares left out whole%s): the rules judged those, and cannot see a point it left out; --processing mess-groups judges every point",
				 r->points, r->groups, r->keys_left_out, more);
	/* A key Mess's processing needs, missing: its default changed
	 * the figures, said with the value taken. */
	if (r->stlb_reps && !(r->given & MESS_RAW_GIVEN_TLB_NS))
		mess_verdict_add(&v, MESS_WARN, "tlb_ns_missing",
				 "plotter.txt has no TLB_NS%s%s%s: 0 ns assumed (no STLB hit's time taken off the latency; Mess's processing assumes 10 ns), though %zu repetitions counted r1012 STLB hits",
				 r->tlb_key_case[0] ? " (" : "", r->tlb_key_case,
				 r->tlb_key_case[0] ? " is not it: Mess's keys are upper-case)" : "",
				 r->stlb_reps);
	if (r->line_reps && !(r->given & MESS_RAW_GIVEN_LINE))
		mess_verdict_add(&v, MESS_WARN, "cache_line_size_missing",
				 "plotter.txt has no CACHE_LINE_SIZE: 64 bytes assumed (Mess's default) for each counted cache line of %zu repetitions",
				 r->line_reps);
	if (r->flit_reps && !(r->given & MESS_RAW_GIVEN_UPI_FLITS))
		mess_verdict_add(&v, MESS_WARN, "upi_scaling_factor_missing",
				 "plotter.txt has no UPI_SCALING_FACTOR: 9 UPI data flits a cache line assumed (Mess's default) in %zu repetitions",
				 r->flit_reps);
	free(mix);
	snprintf(level, len, "%s", mess_level_name(v.level));
	return mess_verdict_json(&v);
}

/* --processing's words, as meta.json names them, and what each does. */
static const struct {
	const char *name;
	enum mess_raw_processing how;
	const char *method;
} processings[] = {
	{ "mess", MESS_RAW_MESS, "Mess's own processing (Mess-2.0 utils/libs/processor.py calculate_mean_curves, perread, step 1): each bandwidth repetition under its own measured read share rounded to 1 % (half to even), a file's latency repetitions under every share its bandwidth ones took; a point per (share, pause): the means and sample deviations there. Then thinned as Mess-Results' processed/memory_curves.csv files are (Mess's filter_clustered_points and is_valid_curve; on both raw trees of the public reference it gives every processed row and no other, share by share): in bandwidth order from the share's least-loaded point, a point kept when 5 GB/s and 5 % latency above the last kept one; a share left with under 5 points, or with a gap between kept neighbours (the first at 0 GB/s) over half its span, left out. Mess writes the least-loaded point at 0 GB/s with the share's least latency: kept here as measured. A curve per share (store_pct 100 - share); processing.groups, thinned and read_shares_left_out count what was left out" },
	{ "per-ratio", MESS_RAW_PER_RATIO, "a curve per generator read ratio R (store_pct 100 - R), a point per bw_<R>_<pause>.txt: the means and sample deviations of its repetitions, kept together whatever their measured shares" },
	{ "mess-groups", MESS_RAW_MESS_GROUPS, "Mess's own grouping (Mess-2.0 utils/libs/processor.py calculate_mean_curves, perread, step 1): each bandwidth repetition under its own measured read share rounded to 1 % (half to even), a file's latency repetitions under every share its bandwidth ones took; a point per (share, pause): the means and sample deviations there; every point and every share kept (no thinning). A curve per share (store_pct 100 - share)" },
};

#define NPROC (sizeof(processings) / sizeof(processings[0]))

/*
 * The shares the import kept that the tree's own processed/memory_curves.csv
 * (Mess's processing, run where the tree was measured) lacks: our
 * thinning and share check keep a few Mess's did not (MN5-GPP's public raw
 * tree: 50, 94 and 97 %).  --processing mess drops them, so that its shares
 * are Mess's; mess-groups keeps and counts them.
 */
struct beyond {
	int known;		/* the tree has a processed file */
	size_t shares, points;	/* kept beyond it (or dropped) */
	int dropped;
	char list[400];		/* "50, 94, 97" */
};

static int beyond_processed(const char *src, struct mess_family *f,
			    struct mess_raw *r, int drop, struct beyond *b,
			    char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct mess_family ref = { 0 };
	int have[101] = { 0 }, rc;
	size_t keep = 0, len = 0;

	memset(b, 0, sizeof(*b));
	snprintf(path, sizeof(path), "%s/processed/memory_curves.csv", src);
	if (access(path, F_OK))
		return 0;
	rc = mess_reference_read(path, &ref, err, errlen);
	for (size_t i = 0; !rc && i < ref.n; i++)
		if (ref.curves[i].read_pct >= 0 && ref.curves[i].read_pct <= 100)
			have[lround(ref.curves[i].read_pct)] = 1;
	mess_family_free(&ref);
	if (rc)
		return rc;
	b->known = 1;
	b->dropped = drop;
	for (size_t i = 0; i < f->n; i++) {
		struct mess_curve *c = &f->curves[i];
		int share = 100 - (int)c->store_pct;

		if (share < 0 || share > 100 || have[share]) {
			f->curves[keep++] = *c;
			continue;
		}
		b->shares++;
		b->points += c->n;
		if (len < sizeof(b->list))
			len += (size_t)snprintf(b->list + len, sizeof(b->list) - len,
						"%s%d", len ? ", " : "", share);
		if (drop)
			mess_curve_free(c);
		else
			f->curves[keep++] = *c;
	}
	f->n = keep;
	if (drop)
		r->points -= b->points;
	return 0;
}

static json_t *meta(const char *src, const struct mess_raw *r, json_t *quality,
		    int proc, const char *plots, const struct beyond *b)
{
	char real[PATH_MAX];
	json_t *m, *p;

	m = mess_json_pack(
		"{s:i, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:s}, "
		"s:{s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o, s:o, s:o}, s:s, s:s, s:o, s:o}, "
		"s:{s:o, s:s, s:o, s:o, s:s}, "
		"s:I, s:{s:I, s:I, s:I, s:I}, s:{s:s, s:s, s:o, s:o, s:I}, s:o, s:o, s:b, s:s}",
		"schema", 1, "tool", "mess import",
		"measured_by", "Mess benchmark import",
		"source", realpath(src, real) ? real : src,
		"bw_source", "counters",
		"method", "bandwidth", BW_METHOD, "latency", LAT_METHOD,
		"bw_counters", r->family,
		"mess_plotter", "cpu_ghz", mess_json_real(r->cpu_ghz, 6),
		"tlb_ns", mess_json_real(r->tlb_ns, 5),
		"cache_line_bytes", mess_json_real(r->line_bytes, 0),
		/* the factor only where UPI flits were counted */
		"upi_flits_per_line", strcmp(r->family, "intel-upi-flits") ? json_null() :
			mess_json_real(r->upi_flits_per_line, 3),
		"upi", "freq_gts", mess_json_real(r->upi.freq_gts, 3),
		"data_lanes", mess_json_real(r->upi.data_lanes, 0),
		"flit_bits", mess_json_real(r->upi.flit_bits, 0),
		"data_flit_bits", mess_json_real(r->upi.data_flit_bits, 0),
		"links", mess_json_real(r->upi.links, 0),
		"memory_binding", r->binding, "mem_freq", r->mem_freq,
		"channels", r->channels > 0 ? json_integer(r->channels) : json_null(),
		"bus_width", r->bus_width > 0 ? json_integer(r->bus_width) : json_null(),
		/* plotter.txt's CPU_FREQ is a clock Mess measured (2.78 GHz
		 * on a 2.3 GHz Xeon): kept in mess_plotter, never nominal. */
		"cpu_frequency", "nominal_ghz", json_null(),
		"nominal_source", "unknown: Mess records no nominal clock (plotter.txt CPU_FREQ, mess_plotter.cpu_ghz, is one it measured)",
		"measured_ghz", mess_json_real(r->ghz_median, 4),
		"measured_spread_pct", mess_json_real(r->ghz_median > 0 ?
			100 * (r->ghz_max - r->ghz_min) / r->ghz_median : NAN, 2),
		"measured_method", "the chase's cycles over its perf stat elapsed time: median, and (max - min) / median, over every repetition",
		"points", (json_int_t)r->points,
		"repetitions", "bw", (json_int_t)r->bw_reps, "lat", (json_int_t)r->lat_reps,
		"left_out", (json_int_t)r->reps_left_out,
		"other_socket_lines", (json_int_t)r->socket_lines_left_out,
		"processing", "name", processings[proc].name,
		"method", processings[proc].method,
		/* per-ratio forms no (share, pause) groups: null, not 0 */
		"groups", processings[proc].how == MESS_RAW_PER_RATIO ?
			json_null() : json_integer((json_int_t)r->groups),
		"thinned", processings[proc].how == MESS_RAW_MESS ?
			json_integer((json_int_t)r->thinned) : json_null(),
		"read_shares_left_out", (json_int_t)r->keys_left_out,
		"unloaded_ns", json_null(),
		"quality", quality,
		"complete", 1, "plots", plots);
	if (m && !strcmp(r->family, "mess-v1-bw-lines")) {
		json_object_set_new(m, "tree_format", json_string("mess-benchmark v1"));
		json_object_set_new(m, "bw_source", json_string("mess-v1-bw-lines"));
		json_object_set_new(m, "method", mess_json_pack("{s:s, s:s}",
			"bandwidth", V1_BW_METHOD, "latency", V1_LAT_METHOD));
	} else if (m) {
		json_object_set_new(m, "tree_format", json_string("mess-2.0 raw"));
	}
	p = json_object_get(m, "processing");
	if (p)
		json_object_set_new(p, "beyond_processed", !b->known ?
			mess_json_pack("{s:n, s:s}", "shares",
				       "why", "the tree has no processed/memory_curves.csv to compare with") :
			mess_json_pack("{s:I, s:I, s:s, s:b, s:s}",
				       "shares", (json_int_t)b->shares,
				       "points", (json_int_t)b->points,
				       "read_shares", b->list, "dropped", b->dropped,
				       "source", "processed/memory_curves.csv: the shares Mess's own processing kept"));
	if (m)
		json_object_set_new(m, "llc_latency", mess_json_pack("{s:n, s:s}", "ns",
			"why", LLC_WHY));
	return m;
}

/* The clocks, never "nan": plotter.txt may lack CPU_FREQ. */
static const char *clock_said(const struct mess_raw *r, char *buf, size_t len)
{
	if (isnan(r->ghz_median))
		snprintf(buf, len, "clock unknown (a Mess-benchmark v1 tree: the chase's latency is its own ns figure, no cycles read)");
	else if (isnan(r->cpu_ghz))
		snprintf(buf, len, "measured clock %.3f GHz (the chase's; plotter.txt's CPU_FREQ: unknown, not given)",
			 r->ghz_median);
	else
		snprintf(buf, len, "measured clock %.3f GHz (the chase's; plotter.txt's, Mess's own, %.3f)",
			 r->ghz_median, r->cpu_ghz);
	return buf;
}

static const char *beyond_said(const struct beyond *b, char *buf, size_t len)
{
	if (!b->known)
		snprintf(buf, len, "no processed/memory_curves.csv to compare the shares with");
	else if (!b->shares)
		snprintf(buf, len, "every share is one of processed/memory_curves.csv's");
	else
		snprintf(buf, len, "%zu shares (%s %%, %zu points) beyond processed/memory_curves.csv %s",
			 b->shares, b->list, b->points, b->dropped ?
			 "dropped, as Mess's processing left them out" :
			 "kept (--processing mess drops them)");
	return buf;
}

/* summary.md: what a reader of the run sees first, as a run of mess has. */
static int summary(const char *out, const char *src, const struct mess_family *f,
		   const struct mess_raw *r, int proc, const char *level,
		   const struct beyond *b)
{
	char buf[1024], real[PATH_MAX];
	FILE *fp = mess_file_open(out, "summary.md", "w");
	int rc;

	if (!fp)
		return -errno;
	fprintf(fp, "# mess import: %s\n\n", realpath(src, real) ? real : src);
	fprintf(fp, "- verdict: %s (meta.json quality)\n", level);
	if (!strcmp(r->family, "mess-v1-bw-lines"))
		fprintf(fp, "- tree: Mess-benchmark v1 (measuring/bw/bw_perf_<R>_<pause>.txt, lat/lat_perf_*, no plotter.txt): bandwidth the runs' own 'BW (GB/s)' lines, read share their 'rd_percentage', latency the chase's 'mem latency is' lines, each a mean of the repetitions (meta.json method)\n");
	else
		fprintf(fp, "- tree: Mess-2.0 raw (bw/, lat/, plotter.txt): bandwidth from the memory controllers' counters (%s), latency as Mess's processing computes it (meta.json method)\n",
			r->family);
	fprintf(fp, "- processing: %s; %zu curves, %zu points\n",
		processings[proc].name, f->n, r->points);
	fprintf(fp, "- shares beyond Mess's processed files: %s\n",
		beyond_said(b, buf, sizeof(buf)));
	fprintf(fp, "- clock: %s%s\n", clock_said(r, buf, sizeof(buf)),
		isnan(r->cpu_ghz) ? "; latencies are the chase's time per access, converted at no nominal clock, so no figure here is in cycles of CPU_FREQ" : "");
	fprintf(fp, "- LLC_LATENCY_NS: unknown (%s)\n", LLC_WHY);
	errno = 0;
	rc = fflush(fp) || ferror(fp) ? (errno ? -errno : -EIO) : 0;
	if (fclose(fp) && !rc)
		rc = -errno;
	return rc;
}

/*
 * The curve figure, as a run draws its own, at the tree's theoretical
 * peak (its plotter.txt, read as compare and report read it); what
 * meta.json plots says of it into note.
 */
static void draw(const char *src, const char *out, struct mess_family *f,
		 double unloaded, const char *level, int no_plots, char *note,
		 size_t len)
{
	char err[400] = "", title[PATH_MAX + 96], real[PATH_MAX];
	double peak = mess_plotter_peak_gbs(src, NULL, 0);

	if (no_plots) {
		snprintf(note, len, "skipped: --no-plots");
		return;
	}
	snprintf(title, sizeof(title), "%s: Mess benchmark tree %s\nimported by mess import, bandwidth counters",
		 level, realpath(src, real) ? real : src);
	/* curves.csv, written, numbers a curve 100 - share as its store %,
	 * a mix no one asked for: the figure names it by its read share, as
	 * the page's table and mess report's figure do (the Glossary's
	 * words; a 50 % read curve was keyed '50 % stores'). */
	for (size_t i = 0; i < f->n; i++)
		f->curves[i].store_pct = MESS_STORE_PCT_UNKNOWN;
	if (mess_plot(out, f, unloaded, peak > 0 ? peak : 0, title, NULL, err,
		      sizeof(err)))
		snprintf(note, len, "skipped: %s", err[0] ? err : "gnuplot failed");
	else
		snprintf(note, len, "plots/curves.png, plots/curves.svg");
}

static int write_run(const char *src, const char *out, struct mess_family *f,
		     const struct mess_raw *r, int proc, int no_plots, char *level,
		     size_t len, const char **failed, const struct beyond *b)
{
	char plots[512];

	FILE *csv;
	double unloaded = mess_unloaded_from_curves(f);
	int rc = mess_mkdir_p(out);

	csv = rc ? NULL : mess_file_open(out, "curves.csv", "w");
	if (!csv)
		return rc ? rc : -errno;
	rc = mess_curves_csv_write_header(csv);
	/* judged first: the flags go into curves.csv */
	json_t *q = judge(f, r, unloaded, level, len,
			  b->dropped ? b->shares : 0);

	for (size_t i = 0; !rc && i < f->n; i++)
		for (size_t k = 0; !rc && k < f->curves[i].n; k++)
			rc = mess_curves_csv_write_row(csv, &f->curves[i].pts[k],
						       "counters");
	/* The stream's own error (a full disk), not the rows' -EIO: a
	 * stream that failed kept no errno, one more byte flushed fails
	 * again the same way (the file is thrown away either way). */
	errno = 0;
	if (!rc && fflush(csv))
		rc = errno ? -errno : -EIO;
	if (rc == -EIO && ferror(csv)) {
		clearerr(csv);
		errno = 0;
		if ((fputc('\n', csv) == EOF || fflush(csv)) && errno)
			rc = -errno;
	}
	if (fclose(csv) && !rc)
		rc = -errno;
	*failed = "curves.csv";
	if (!q && !rc)
		rc = -ENOMEM;
	if (!rc) {
		draw(src, out, f, unloaded, level, no_plots, plots, sizeof(plots));
		*failed = "summary.md";
		rc = summary(out, src, f, r, proc, level, b);
	}
	if (!rc) {
		*failed = "meta.json";
		rc = mess_json_write(out, "meta.json", meta(src, r, q, proc, plots, b));
	} else {
		json_decref(q);
	}
	return rc;
}

/*
 * The writer contract: --out locked and new or empty, the run built aside
 * in it and moved in whole, meta.json last (what makes it a run), so that
 * a second import into the same --out is refused in one line, and a full
 * disk or Ctrl-C leaves nothing that blocks the rerun.
 */
static int write_whole(const char *src, const char *out, struct mess_family *f,
		       const struct mess_raw *r, int proc, int no_plots, char *level,
		       size_t len, const char **failed, const struct beyond *b)
{
	struct mess_rundir rd;
	char tmp[PATH_MAX] = "", page[1024];
	int rc;

	memset(&rd, 0, sizeof(rd));
	mess_write_failed_clear();
	mess_signals_install();
	rc = mess_rundir_lock_empty(&rd, "mess import", "--out", out);
	if (rc) {
		if (rd.why[0])
			mess_say("%s\n", rd.why);
		mess_rundir_close(&rd);
		return rc == -EEXIST || rc == -EINVAL ? rc : -EIO;
	}
	rc = mess_rundir_aside(&rd, tmp, sizeof(tmp));
	if (!rc)
		rc = write_run(src, tmp, f, r, proc, no_plots, level, len, failed, b);
	if (!rc && mess_interrupted)
		rc = -EINTR;
	if (!rc)
		rc = mess_rundir_aside_commit(&rd, tmp, "meta.json");
	if (rc && tmp[0])
		mess_rundir_aside_abandon(tmp);
	/* Its page, as every run has one: written once the run is whole,
	 * from its files (the figure, the peak from meta.json), and under
	 * the lock: a report DIR --peak-gbs let in before it would have its
	 * page replaced by this one. */
	if (!rc && mess_html_report(out, NULL, 0, page, sizeof(page)))
		mess_say("mess import: warning: report.html not written: %s", page);
	mess_rundir_close(&rd);
	return rc;
}

/*
 * A Mess-benchmark v1 tree: MESS_DIR/measuring/bw, or MESS_DIR without
 * plotter.txt whose bw/ holds bw_perf_* files.  1 with base its measuring
 * directory, else 0.
 */
static int v1_base(const char *src, char *base, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int v1 = 0;

	snprintf(path, sizeof(path), "%s/measuring/bw", src);
	d = opendir(path);
	if (d) {
		closedir(d);
		snprintf(base, len, "%s/measuring", src);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/plotter.txt", src);
	if (!access(path, F_OK))
		return 0;
	snprintf(path, sizeof(path), "%s/bw", src);
	d = opendir(path);
	while (d && !v1 && (de = readdir(d)))
		v1 = !strncmp(de->d_name, "bw_perf_", 8);
	if (d)
		closedir(d);
	snprintf(base, len, "%s", src);
	return v1;
}

int mess_import_main(int argc, char **argv)
{
	struct import_opts o = { 0 };
	struct mess_family fam = { 0 };
	struct mess_raw r;
	struct beyond b = { 0 };
	char err[1024], level[16] = "", *src[1], clock[160], base[PATH_MAX];
	const char *failed = "";
	int n, rc, proc, v1;

	rc = mess_cmd_open("mess import", opts, NOPTS, &o, &o.help,
			   mess_import_usage, argc, argv, src, 1, &n);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (!n || !o.out[0]) {
		mess_say("mess import: %s\n", !n ?
			"MESS_DIR: missing; allowed: a Mess benchmark tree (bw/, lat/, plotter.txt)" :
			"--out: missing; allowed: a new or empty directory");
		return -EINVAL;
	}
	for (proc = 0; proc < (int)NPROC; proc++)
		if (!strcmp(o.processing[0] ? o.processing : "mess",
			    processings[proc].name))
			break;
	if (proc == (int)NPROC) {
		mess_say("mess import: --processing: '%s' is not allowed; allowed: mess (Mess's own processing), mess-groups (its grouping, every point) or per-ratio (a curve per generator read ratio)\n",
			mess_quote(err, sizeof(err), o.processing));
		return -EINVAL;
	}
	if (mess_out_check_empty("out", o.out, err, sizeof(err))) {
		mess_say("mess import: %s\n", err);
		return -EINVAL;
	}
	v1 = v1_base(src[0], base, sizeof(base));
	if (v1 && processings[proc].how != MESS_RAW_PER_RATIO) {
		if (o.processing[0]) {
			mess_say("mess import: --processing: '%s' is not allowed for a Mess-benchmark v1 tree (%s); allowed: per-ratio (its files hold each repetition's figures, not the counts Mess's grouping rounds)\n",
				 o.processing, base);
			return -EINVAL;
		}
		for (proc = 0; processings[proc].how != MESS_RAW_PER_RATIO; proc++)
			;
	}
	if (v1)
		rc = mess_raw_v1_read(base, &fam, &r, err, sizeof(err));
	else
		rc = mess_raw_read_as(src[0], processings[proc].how, &fam, &r,
				      err, sizeof(err));
	if (!rc && processings[proc].how != MESS_RAW_PER_RATIO)
		rc = beyond_processed(src[0], &fam, &r,
				      processings[proc].how == MESS_RAW_MESS, &b,
				      err, sizeof(err));
	if (rc) {
		mess_say("mess import: %s\n", rc == -ENOMEM ? "out of memory" : err);
		mess_family_free(&fam);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	rc = write_whole(src[0], o.out, &fam, &r, proc, o.no_plots, level,
			 sizeof(level), &failed, &b);
	if (rc == -EINTR)
		mess_say("mess import: interrupted; nothing written to %s (run it again with the same --out)\n",
			o.out);
	else if (rc == -EEXIST || rc == -EINVAL)
		;	/* said by write_whole */
	else if (rc)
		mess_say("mess import: %s/%s: cannot write: %s%s; nothing written (%srun it again with the same --out)\n",
			o.out, failed, strerror(-rc), rc == -ENOSPC ? " (disk full)" : "",
			rc == -ENOSPC ? "free space, then " : "");
	else
		mess_say("mess import: %s -> %s: %zu curves, %zu points (%zu + %zu repetitions%s), %s; %s; verdict %s (meta.json quality)\n",
			src[0], o.out, fam.n, r.points, r.bw_reps, r.lat_reps,
			r.reps_left_out ? ", some left out: a counter not counted" : "",
			clock_said(&r, clock, sizeof(clock)),
			beyond_said(&b, err, sizeof(err)), level);
	mess_family_free(&fam);
	return rc == -EINTR || rc == -EEXIST || rc == -EINVAL ? rc : rc ? -EIO : 0;
}
