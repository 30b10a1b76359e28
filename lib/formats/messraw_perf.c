// SPDX-License-Identifier: MIT
/*
 * The perf stat output of a raw Mess benchmark tree read into blocks, one
 * per repetition (include/mess/messraw_perf.h).
 */
#include "mess/messraw_perf.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/counters.h"
#include "mess/parse.h"

/*
 * The bandwidth counters Mess records, as perf stat prints them (Mess-2.0
 * utils/libs/parser.py parse_bandwidth_file names them; src/
 * BenchmarkExecutor.cpp format_bandwidth_output writes one S0 line an
 * event, the count summed over the channels, named by the first channel's
 * event): one row per event, tied to the counters layer's family
 * (include/mess/counters.h) for what a count is where one counts the
 * same.  A count of cache lines is read x CACHE_LINE_SIZE, as Mess reads
 * it; Grace's are 32 B read beats and write bytes (the family's
 * bytes_per_count and write_bytes_per_count).  AMD's Zen 2/3 data-fabric
 * events count reads and writes together: the read share is then the
 * generator's R, as Mess takes it.  A tree measured across the sockets
 * (plotter.txt MEMORY_BINDING=remote) has Intel's UPI data flits instead,
 * received as reads and sent as writes: UPI_SCALING_FACTOR (9 without)
 * flits a cache line, as Mess reads them; no counters-layer family counts
 * links, so their row names its own, as every row whose counter no
 * counters-layer family has.
 *
 * Left out, their count's unit not established by Mess's sources: IBM
 * Power's PM_MBA<N>_READ_BYTES / _WRITE_BYTES (named bytes, yet read as
 * cache lines by MeasurementStorage.cpp and by neither rule of
 * parser.py), AMD's data_from_local_dram / data_from_remote_dram and
 * amd_df remote events (parser.py reads the remote ones as UPI flits, the
 * local one has no write event), uncore_imc/cas_count_read/ (perf prints
 * it in MiB, which Mess's own perf reader skips), Graviton3's and SiFive's
 * (Mess names no event of theirs).
 */
static void add(double *acc, double v)
{
	*acc = isnan(*acc) ? v : *acc + v;
}

enum role { RD, WR, RW };
enum unit { PER_FAMILY, PER_LINE, PER_UPI_FLIT, PER_BYTES, PER_MB_S };
static const struct raw_event {
	const char *event;	/* a part of the printed event name */
	const char *suffix;	/* NULL, or how the name ends: a name with
				 * a channel or PMU instance number between
				 * (unc_m_cas_count_sch3.rd) */
	const char *family;	/* its mess_dram_families[] row, or the
				 * family's own name (no such row) */
	enum role role;
	enum unit unit;		/* what a count is */
	double bytes;		/* PER_BYTES: bytes a count */
} raw_events[] = {
	{ "unc_m_cas_count.rd", NULL, "intel-skx-imc", RD, PER_LINE, 0 },
	{ "unc_m_cas_count.wr", NULL, "intel-skx-imc", WR, PER_LINE, 0 },
	/* Granite Rapids' sub-channel CAS counts, N up to 31
	 * (src/arch/x86/counters/IntelGraniteRapidsCounters.cpp), a cache
	 * line a count as every CAS count (MeasurementStorage.cpp, parser.py) */
	{ "unc_m_cas_count_sch", ".rd", "intel-gnr-imc-sch", RD, PER_LINE, 0 },
	{ "unc_m_cas_count_sch", ".wr", "intel-gnr-imc-sch", WR, PER_LINE, 0 },
	/* the SCF PMU with or without its instance (nvidia_scf_pmu_1/...:
	 * src/arch/BandwidthCounterStrategy.cpp names the target node's) */
	{ "nvidia_scf_pmu", "/cmem_rd_data/", "nvidia-grace-scf", RD, PER_FAMILY, 0 },
	{ "nvidia_scf_pmu", "/cmem_wr_total_bytes/", "nvidia-grace-scf", WR, PER_FAMILY, 0 },
	/* Grace's other-socket traffic: 32 B read beats and write bytes as
	 * cmem's (MeasurementStorage.cpp, parser.py: rd x 32 + wr) */
	{ "nvidia_scf_pmu", "/remote_socket_rd_data/", "nvidia-grace-scf-remote", RD, PER_BYTES, 32 },
	{ "nvidia_scf_pmu", "/remote_socket_wr_total_bytes/", "nvidia-grace-scf-remote", WR, PER_BYTES, 1 },
	{ "dram_channel_data_controller_", NULL, "amd-df-zen2-3", RW, PER_LINE, 0 },
	{ "umc_cas_cmd.rd", NULL, "amd-umc", RD, PER_LINE, 0 },
	{ "umc_cas_cmd.wr", NULL, "amd-umc", WR, PER_LINE, 0 },
	{ "unc_upi_rxl_flits.all_data", NULL, "intel-upi-flits", RD, PER_UPI_FLIT, 0 },
	{ "unc_upi_txl_flits.all_data", NULL, "intel-upi-flits", WR, PER_UPI_FLIT, 0 },
	/* A64FX's L2 refills less swaps and prefetch mismatches, and its
	 * write-backs, 256 B each (src/arch/arm/counters/A64FXCounters.cpp) */
	{ "a64fx_read_effective", NULL, "fujitsu-a64fx-l2", RD, PER_BYTES, 256 },
	{ "a64fx_write_effective", NULL, "fujitsu-a64fx-l2", WR, PER_BYTES, 256 },
	/* Intel PCM's CXL rates, MB/s over the block (BenchmarkExecutor.cpp;
	 * MeasurementStorage.cpp reads MB/s / 1000 as GB/s); their
	 * pcm_cxl_total_mbps is the two together */
	{ "pcm_cxl_read_mbps", NULL, "intel-pcm-cxl", RD, PER_MB_S, 0 },
	{ "pcm_cxl_write_mbps", NULL, "intel-pcm-cxl", WR, PER_MB_S, 0 },
};
#define NRAW_EVENTS (sizeof(raw_events) / sizeof(raw_events[0]))


static void block_init(struct mess_raw_block *b, double line_bytes,
		       double upi_flits_per_line)
{
	b->rd = b->wr = b->rw = b->cycles = b->accesses = b->instructions = NAN;
	b->r1012 = b->r2012 = b->elapsed = NAN;
	b->bad = 0;
	b->family = NULL;
	b->combined = 0;
	b->rate = 0;
	b->lines = 0;
	b->line_bytes = line_bytes;
	b->upi_flits_per_line = upi_flits_per_line;
	b->socket = -1;
	b->socket_lines_left_out = 0;
	b->other[0] = '\0';
}

static const struct mess_dram_family *family_of(const char *name)
{
	for (size_t i = 0; i < mess_dram_nfamilies; i++)
		if (!strcmp(mess_dram_families[i].name, name))
			return &mess_dram_families[i];
	return NULL;
}

/* Whether row e names the printed event ev. */
static int names(const struct raw_event *e, const char *ev)
{
	size_t n = strlen(ev), k = e->suffix ? strlen(e->suffix) : 0;

	return strstr(ev, e->event) &&
	       (!k || (n > k && !strcmp(ev + n - k, e->suffix)));
}

/* A bandwidth event's count v into b: 1, or 0 when no row names ev or
 * the row is of another family than the block's first. */
static int bw_event(struct mess_raw_block *b, const char *ev, double v)
{
	for (size_t i = 0; i < NRAW_EVENTS; i++) {
		const struct raw_event *e = &raw_events[i];
		const struct mess_dram_family *d;
		double per;

		if (!names(e, ev))
			continue;
		if (b->family && strcmp(b->family, e->family))
			return 0;
		if (e->unit == PER_LINE)
			per = b->line_bytes;
		else if (e->unit == PER_UPI_FLIT)
			per = b->line_bytes / b->upi_flits_per_line;
		else if (e->unit == PER_BYTES)
			per = e->bytes;
		else if (e->unit == PER_MB_S)
			per = 1e6;	/* bytes a second; x elapsed at the end */
		else if (!(d = family_of(e->family)))
			return 0;
		else
			per = e->role == WR && d->write_bytes_per_count > 0 ?
			      d->write_bytes_per_count : d->bytes_per_count;
		b->family = e->family;
		b->rate = e->unit == PER_MB_S;
		b->lines = e->unit == PER_LINE ? 1 : e->unit == PER_UPI_FLIT ? 2 : 0;
		b->combined = e->role == RW;
		add(e->role == RD ? &b->rd : e->role == WR ? &b->wr : &b->rw,
		    v * per);
		return 1;
	}
	return 0;
}

/* "a + b; c; ...": the events of raw_events[] by family, for a message. */
const char *mess_raw_family_list(char *list, size_t len)
{
	size_t at = 0;

	list[0] = '\0';
	for (size_t i = 0; i < NRAW_EVENTS && at < len; i++)
		at += (size_t)snprintf(list + at, len - at, "%s%s%s%s",
				       i ? (strcmp(raw_events[i].family,
						   raw_events[i - 1].family) ?
					    "; " : " + ") : "",
				       raw_events[i].event,
				       raw_events[i].suffix ? "*" : "",
				       raw_events[i].suffix ? raw_events[i].suffix :
				       raw_events[i].role == RW ? "N" : "");
	return list;
}

/* ev into b->other, once, as long as it fits. */
static void other_event(struct mess_raw_block *b, const char *ev)
{
	size_t at = strlen(b->other);

	if (strstr(b->other, ev) || at + strlen(ev) + 3 >= sizeof(b->other))
		return;
	snprintf(b->other + at, sizeof(b->other) - at, "%s%s", at ? ", " : "", ev);
}

/* "608,198,304" or "608198304": the count, else NAN; INFINITY for more
 * digits than the buffer holds (it read the first 63 of 400 as 1e62). */
static double count_of(const char *t)
{
	char buf[64], *e;
	size_t k = 0;

	for (; *t && k + 1 < sizeof(buf); t++)
		if (*t != ',')
			buf[k++] = *t;
	buf[k] = '\0';
	if (!k || !isdigit((unsigned char)buf[0]))
		return NAN;
	if (*t)
		return INFINITY;
	double v = strtod(buf, &e);

	return *e ? NAN : v;
}

/* The event name without a ":u"-like modifier into ev. */
static void event_name(const char *t, char *ev, size_t len)
{
	snprintf(ev, len, "%s", t);
	if (strchr(ev, ':'))
		*strchr(ev, ':') = '\0';
}

/* One line of a block. */
static void block_line(struct mess_raw_block *b, char *line)
{
	char *tok[8], *save = NULL, *t, ev[64];
	size_t n = 0, at = 0;
	double v;

	for (t = strtok_r(line, " \t\r", &save); t && n < 8;
	     t = strtok_r(NULL, " \t\r", &save))
		tok[n++] = t;
	if (n >= 4 && !strcmp(tok[1], "seconds") && !strcmp(tok[2], "time") &&
	    !strcmp(tok[3], "elapsed")) {
		b->elapsed = count_of(tok[0]);
		return;
	}
	/* --per-socket: "S0 <units> <count> <event>".  The first socket
	 * listed only (S0 where it is): the generators, the chase and their
	 * memory are on one socket, and Mess's processing skips S1's lines;
	 * another socket's controllers carry other work. */
	if (n >= 4 && tok[0][0] == 'S' && isdigit((unsigned char)tok[0][1])) {
		long sock = strtol(tok[0] + 1, NULL, 10);

		if (b->socket < 0)
			b->socket = sock;
		if (sock != b->socket) {
			b->socket_lines_left_out++;
			return;
		}
		at = 2;
	}
	if (n < at + 2)
		return;
	if (tok[at][0] == '<') {
		/* "<not counted>" / "<not supported>": the event is after */
		if (n >= at + 3) {
			b->bad = 1;
			event_name(tok[at + 2], ev, sizeof(ev));
			bw_event(b, ev, NAN);
		}
		return;
	}
	v = count_of(tok[at]);
	if (isnan(v))
		return;
	event_name(tok[at + 1], ev, sizeof(ev));
	if (bw_event(b, ev, v))
		return;
	if (!strcmp(ev, "cycles"))
		b->cycles = v;
	else if (!strcmp(ev, "accesses"))
		b->accesses = v;
	else if (!strcmp(ev, "instructions"))
		b->instructions = v;
	else if (!strcmp(ev, "r1012"))
		b->r1012 = v;
	else if (!strcmp(ev, "r2012"))
		b->r2012 = v;
	else
		other_event(b, ev);
}

/* Every block of a perf stat file (include/mess/messraw_perf.h). */
int mess_raw_blocks(const char *path, double line_bytes,
		    double upi_flits_per_line, struct mess_raw_block *b,
		    size_t *n, char *err, size_t errlen)
{
	struct mess_lines l;
	int ret = mess_lines_open(&l, path, err, errlen);

	*n = 0;
	while (!ret && (ret = mess_lines_next(&l, err, errlen)) > 0) {
		ret = 0;
		if (strstr(l.line, "Performance counter stats")) {
			if (*n == MESS_RAW_MAX_REPS)
				ret = mess_file_err(err, errlen, path, l.no,
						    "more than %d perf stat blocks",
						    MESS_RAW_MAX_REPS);
			else
				block_init(&b[(*n)++], line_bytes,
					   upi_flits_per_line);
		} else if (*n) {
			block_line(&b[*n - 1], l.line);
		}
	}
	mess_lines_close(&l);
	/* a rate's bytes over the block's time, read after its counts */
	for (size_t i = 0; i < *n; i++)
		if (b[i].rate) {
			b[i].rd *= b[i].elapsed;
			b[i].wr *= b[i].elapsed;
		}
	if (!ret && !*n)
		ret = mess_file_err(err, errlen, path, 0,
				    "no 'Performance counter stats' block: not perf stat output");
	return ret;
}
