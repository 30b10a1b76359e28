// SPDX-License-Identifier: MIT
/*
 * `mess sample decode FILE [--out F.csv]`: the records of a perf.data
 * recorded anywhere (SPE aux data, IBS op raw samples, PEBS samples with
 * address, weight and data source, plain samples) or of a raw SPE aux dump
 * (bytes, or hex text), one CSV row each.  The decoders are lib's
 * (mess/spe.h, mess/ibs.h, mess/datasrc.h, mess/perfdata.h); this file
 * picks them, writes the rows and says what could not be decoded.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/options.h"
#include "core/util.h"
#include "mess/datasrc.h"
#include "mess/ibs.h"
#include "mess/parse.h"
#include "mess/perfdata.h"
#include "mess/spe.h"
#include "sample/sample.h"

#define CSV_HEADER "backend,time,cpu,tid,pc,vaddr,paddr,op,level,source," \
	"lat_total,lat_issue,lat_xlat,lat_cache,events"

struct decode_opts {
	char out[PATH_MAX];
	char format[16];
	char midr[32];
	int force, help;
};

#define F(field) MESS_OPT_F(struct decode_opts, field)
#define S(field) MESS_OPT_S(struct decode_opts, field)

static const struct mess_opt opts[] = {
	MESS_OPT_OUT(S(out), "F.csv", "write the rows to F.csv (default: standard output)"),
	{ "format", MESS_OPT_STR, S(format), 0, 0, "F",
	  "auto, perf, spe-raw or spe-hex (default auto: PERFILE2 magic, else hex text, else raw bytes)" },
	{ "midr", MESS_OPT_STR, S(midr), 0, 0, "HEX",
	  "MIDR of the Arm CPU that recorded SPE data (default: the perf.data's cpuid)" },
	MESS_OPT_FLAG_ROW("force", F(force),
	  "replace an existing --out file that is not a CSV this command wrote"),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_sample_decode_usage(FILE *f)
{
	fprintf(f,
		"usage: mess sample decode FILE [--out F.csv] [--format F] [--midr HEX]\n"
		"Decode a sampling recording, from this machine or another: a perf.data\n"
		"(Arm SPE aux data, AMD IBS op raw samples, Intel PEBS samples with\n"
		"address, weight and data source, any other samples), or a raw SPE aux\n"
		"buffer (bytes, or hex text with '#' comments).  One CSV row per record:\n"
		"  %s\n"
		"time is the record's (SPE: its timestamp packet); addresses in hex; the\n"
		"latencies in cycles: SPE total/issue/translation, IBS tag-to-retire,\n"
		"TLB refill and data-cache miss, PEBS the weight.  SPE data sources are\n"
		"decoded by the recording CPU's MIDR; a code this table does not have is\n"
		"'unknown'.  Unknown or damaged packets and records are skipped, counted\n"
		"and reported on standard error.\n\n", CSV_HEADER);
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nExamples:\n"
		"  mess sample decode spe.perf.data --out spe.csv\n"
		"  mess sample decode aux.hex --format spe-hex --midr 0x410fd0c0\n"
		"Exit status: 0 decoded (counted losses included), 1 bad usage or an\n"
		"unreadable file, 2 a damaged perf.data (the rows before the damage are written).\n");
}

struct spe_stream {
	uint32_t idx, cpu, tid;
	int have_cpu;
	struct mess_spe_dec dec;
	struct decode_ctx *ctx;
};

struct decode_ctx {
	FILE *out;
	uint64_t midr;
	char vendor[32];
	unsigned family, model;
	uint64_t rows, spe_unknown_ds, ibs_bad, write_err;
	struct spe_stream **spe;
	size_t nspe;
	uint32_t auxtrace_type;
	uint64_t foreign_aux;	/* aux bytes of a tracer this does not decode */
	const struct mess_perf_stats *pst;
};

/* Events packet bits, named. */
static const char *const spe_events[] = {
	"exception", "retired", "l1d-access", "l1d-refill", "tlb-access",
	"tlb-walk", "not-taken", "mispred", "llc-access", "llc-miss", "remote",
	"misaligned",
};

static void put_events(FILE *o, uint64_t ev, const char *const *names, size_t n)
{
	int first = 1;

	for (size_t b = 0; b < 64; b++) {
		if (!(ev >> b & 1))
			continue;
		if (b < n)
			fprintf(o, "%s%s", first ? "" : "|", names[b]);
		else
			fprintf(o, "%sbit%zu", first ? "" : "|", b);
		first = 0;
	}
}

/* A CSV cell and its comma: the figure, or nothing where the record has
 * none. */
static void dec_cell(FILE *o, uint64_t have, uint64_t v)
{
	if (have)
		fprintf(o, "%" PRIu64, v);
	fputc(',', o);
}

static void hex_cell(FILE *o, uint64_t have, uint64_t v)
{
	if (have)
		fprintf(o, "0x%" PRIx64, v);
	fputc(',', o);
}

static void spe_row(const struct mess_spe_rec *r, void *arg)
{
	struct spe_stream *s = arg;
	struct decode_ctx *c = s->ctx;
	const char *level = "", *name = "";
	FILE *o = c->out;

	if (r->have & MESS_SPE_HAVE_DS && mess_spe_source(c->midr, r->ds, &level, &name))
		c->spe_unknown_ds++;
	fprintf(o, "spe,");
	dec_cell(o, r->have & MESS_SPE_HAVE_TS, r->ts);
	dec_cell(o, s->have_cpu, s->cpu);
	dec_cell(o, s->have_cpu, s->tid);
	hex_cell(o, r->have & MESS_SPE_HAVE_PC, r->pc);
	hex_cell(o, r->have & MESS_SPE_HAVE_VA, r->vaddr);
	hex_cell(o, r->have & MESS_SPE_HAVE_PA, r->paddr);
	fprintf(o, "%s%s%s,%s,", mess_spe_op_name(r), *mess_spe_op_sub(r) ? "-" : "",
		mess_spe_op_sub(r), level);
	if (r->have & MESS_SPE_HAVE_DS)
		fprintf(o, "%s (0x%x)", name, r->ds);
	fprintf(o, ",");
	dec_cell(o, r->have & MESS_SPE_HAVE_TOTAL, r->lat_total);
	dec_cell(o, r->have & MESS_SPE_HAVE_ISSUE, r->lat_issue);
	dec_cell(o, r->have & MESS_SPE_HAVE_XLAT, r->lat_xlat);
	fprintf(o, ",");
	put_events(o, r->events, spe_events, sizeof(spe_events) / sizeof(spe_events[0]));
	fprintf(o, "\n");
	c->rows++;
}

static struct spe_stream *spe_stream(struct decode_ctx *c, uint32_t idx)
{
	struct spe_stream **grown, *s;

	for (size_t i = 0; i < c->nspe; i++)
		if (c->spe[i]->idx == idx)
			return c->spe[i];
	grown = realloc(c->spe, (c->nspe + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	c->spe = grown;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->idx = idx;
	s->ctx = c;
	mess_spe_init(&s->dec, spe_row, s);
	c->spe[c->nspe++] = s;
	return s;
}

static void on_auxtrace(const struct mess_perf_auxtrace *a, const uint8_t *data,
			size_t n, void *arg)
{
	struct decode_ctx *c = arg;
	struct spe_stream *s;

	if (c->pst->auxtrace_type != MESS_AUXTRACE_ARM_SPE) {
		c->foreign_aux += n;
		return;
	}
	s = spe_stream(c, a->idx);
	if (!s) {
		c->write_err = ENOMEM;
		return;
	}
	s->cpu = a->cpu;
	s->tid = a->tid;
	s->have_cpu = 1;
	mess_spe_feed(&s->dec, data, n);
}

static const char *const ibs_flag_names[] = {
	"dc-miss", "l2-miss", "dtlb-l1-miss", "dtlb-l2-miss", "uncached",
	"write-combining", "locked", "sw-prefetch", "rip-invalid",
};

static void ibs_row(struct decode_ctx *c, const struct mess_perf_sample *s)
{
	struct mess_ibs_op o;
	const char *level, *name;
	FILE *f = c->out;
	uint64_t flags;

	if (mess_ibs_op_decode(s->raw, s->raw_size, c->family, c->model, &o)) {
		c->ibs_bad++;
		return;
	}
	mess_ibs_source(&o, &level, &name);
	flags = (uint64_t)o.dc_miss | (uint64_t)(o.l2_miss && o.l2_miss_valid) << 1 |
		(uint64_t)o.dc_l1tlb_miss << 2 | (uint64_t)o.dc_l2tlb_miss << 3 |
		(uint64_t)o.uc << 4 | (uint64_t)o.wc << 5 | (uint64_t)o.locked << 6 |
		(uint64_t)o.sw_pf << 7 | (uint64_t)o.rip_invalid << 8;
	fprintf(f, "ibs,%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",", s->time, s->cpu, s->tid);
	hex_cell(f, !o.rip_invalid, o.rip);
	hex_cell(f, o.lin_valid && o.nregs > 5, o.lin_addr);
	hex_cell(f, o.phy_valid && o.nregs > 6, o.phys_addr);
	fprintf(f, "%s,%s,", mess_ibs_op_name(&o), level);
	if (o.data2_valid)
		fprintf(f, "%s (%u)", *name ? name : "none", o.data_src);
	fprintf(f, ",%u,,", o.tag_to_ret);
	dec_cell(f, o.ld || o.st, o.tlb_refill_lat);
	dec_cell(f, o.ld && o.dc_miss, o.dc_miss_lat);
	put_events(f, flags, ibs_flag_names, sizeof(ibs_flag_names) / sizeof(ibs_flag_names[0]));
	fprintf(f, "\n");
	c->rows++;
}

static void on_sample(const struct mess_perf_sample *s, void *arg)
{
	struct decode_ctx *c = arg;
	const char *pmu = s->attr->pmu;
	int mem = !!(s->have & (MESS_PS_DATA_SRC | MESS_PS_WEIGHT | MESS_PS_WEIGHT_STRUCT));
	char level[48] = "";
	FILE *f = c->out;

	/* IBS op: by its PMU's name, or raw samples of an AMD recording. */
	if (s->raw && (!strcmp(pmu, "ibs_op") ||
		       (!*pmu && !strcmp(c->vendor, "AuthenticAMD")))) {
		ibs_row(c, s);
		return;
	}
	fprintf(f, "%s,", mem ? (!strcmp(c->vendor, "GenuineIntel") ? "pebs" : "mem") :
		*pmu ? pmu : "sample");
	dec_cell(f, s->have & MESS_PS_TIME, s->time);
	dec_cell(f, s->have & MESS_PS_CPU, s->cpu);
	dec_cell(f, s->have & MESS_PS_TID, s->tid);
	hex_cell(f, s->have & MESS_PS_IP, s->ip);
	hex_cell(f, s->have & MESS_PS_ADDR, s->addr);
	hex_cell(f, s->have & MESS_PS_PHYS_ADDR, s->phys_addr);
	if (s->have & MESS_PS_DATA_SRC)
		mess_datasrc_level(s->data_src, level, sizeof(level));
	fprintf(f, "%s,%s,", s->have & MESS_PS_DATA_SRC ? mess_datasrc_op(s->data_src) : "",
		level);
	hex_cell(f, s->have & MESS_PS_DATA_SRC, s->data_src);
	if (s->have & MESS_PS_WEIGHT_STRUCT)
		fprintf(f, "%" PRIu32, s->weight_var1);
	else if (s->have & MESS_PS_WEIGHT)
		fprintf(f, "%" PRIu64, s->weight);
	fprintf(f, ",,,,\n");
	c->rows++;
}

#define DECODE_ALLOWED "a perf.data file, a raw SPE aux buffer or its hex text"

/* The whole file, mapped read-only (a regular file only: no cap, it is
 * mapped, not read): 0, or -errno with "<path>: <why>" in err. */
static int map_file(const char *path, const uint8_t **buf, size_t *n,
		    char *err, size_t errlen)
{
	struct stat st;
	void *p;
	int fd, ret = mess_open_regular(path, DECODE_ALLOWED, 0, &fd, err,
					errlen);

	if (ret)
		return ret;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!st.st_size)
		ret = -ENODATA;
	p = ret ? MAP_FAILED :
		mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (!ret && p == MAP_FAILED)
		ret = -errno;
	close(fd);
	if (ret)
		return mess_fail(err, errlen, ret, "%s: %s; allowed: " DECODE_ALLOWED, path,
			ret == -ENODATA ? "empty" : strerror(-ret));
	*buf = p;
	*n = (size_t)st.st_size;
	return 0;
}

/* Hex text: only hex digits, blanks, commas and '#' comments. */
static int looks_hex(const uint8_t *b, size_t n)
{
	int comment = 0;

	for (size_t i = 0; i < n && i < 65536; i++) {
		if (comment) {
			comment = b[i] != '\n';
			continue;
		}
		if (b[i] == '#')
			comment = 1;
		else if (!strchr("0123456789abcdefABCDEF \t\r\n,", b[i]) || !b[i])
			return 0;
	}
	return 1;
}

/* The input is one this command reads: the header and the progress line
 * only now, so that a refused file costs one line and writes nothing. */
static void accepted(struct decode_ctx *c, const char *path)
{
	fprintf(c->out, "%s\n", CSV_HEADER);
	fprintf(stderr, "mess sample decode: %s\n", path);
}

static void report_spe(const char *what, const struct mess_spe_stats *st)
{
	fprintf(stderr, "  %s: %" PRIu64 " bytes, %" PRIu64 " packets, %" PRIu64
		" records; %" PRIu64 " unknown-header runs (%" PRIu64 " bytes skipped), %"
		PRIu64 " truncated packets, %" PRIu64 " unterminated records\n", what,
		st->bytes, st->packets, st->records, st->resyncs, st->skipped,
		st->truncated, st->unterminated);
}

/* Decode the raw SPE bytes of one buffer (no perf.data around it). */
static int decode_spe_raw(struct decode_ctx *c, const uint8_t *b, size_t n,
			  int hex, const char *path)
{
	struct spe_stream s = { .ctx = c };
	uint8_t *bytes = NULL;

	if (hex) {
		size_t bad = 0;
		long k;

		bytes = malloc(n / 2 + 1);
		if (!bytes)
			return -ENOMEM;
		k = mess_spe_hex((const char *)b, n, bytes, n / 2 + 1, &bad);
		if (k < 0) {
			fprintf(stderr, "mess sample decode: %s: byte %zu: not hex text; allowed: pairs of hex digits, blanks, '#' comments (or --format spe-raw)\n",
				path, bad);
			free(bytes);
			return -EINVAL;
		}
		b = bytes;
		n = (size_t)k;
	}
	accepted(c, path);
	mess_spe_init(&s.dec, spe_row, &s);
	mess_spe_feed(&s.dec, b, n);
	mess_spe_finish(&s.dec);
	report_spe("SPE", &s.dec.st);
	free(bytes);
	return 0;
}

static int decode_perf(struct decode_ctx *c, const uint8_t *b, size_t n,
		       const char *path)
{
	static struct mess_perf_file pf;	/* large: not on the stack */
	struct mess_perf_stats st = { 0 };
	struct mess_perf_ops ops = { .sample = on_sample, .auxtrace = on_auxtrace };
	char err[256];
	int rc = mess_perf_open(b, n, &pf, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "mess sample decode: %s: %s\n", path, err);
		return rc == -EOPNOTSUPP ? rc : -EINVAL;
	}
	accepted(c, path);
	if (!c->midr)
		c->midr = mess_perf_midr(&pf);
	mess_perf_x86(&pf, c->vendor, sizeof(c->vendor), &c->family, &c->model);
	c->pst = &st;
	rc = mess_perf_walk(&pf, b + pf.data_off, (size_t)pf.data_size, 1, &ops, c, &st);
	for (size_t i = 0; i < c->nspe; i++) {
		char what[64];

		mess_spe_finish(&c->spe[i]->dec);
		snprintf(what, sizeof(what), "SPE aux of cpu %" PRIu32, c->spe[i]->cpu);
		report_spe(what, &c->spe[i]->dec.st);
		free(c->spe[i]);
	}
	free(c->spe);
	c->spe = NULL;
	c->nspe = 0;
	fprintf(stderr, "  perf.data: %" PRIu64 " records, %" PRIu64 " samples (%" PRIu64
		" unparsable, %" PRIu64 " IBS too short), %" PRIu64 " AUXTRACE (%" PRIu64
		" bytes%s), lost %" PRIu64 " in %" PRIu64 " records, lost samples %" PRIu64
		", throttled %" PRIu64 ", AUX records %" PRIu64 " (collision %" PRIu64
		", truncated %" PRIu64 ", partial %" PRIu64 ")\n",
		st.records, st.samples, st.bad_samples, c->ibs_bad, st.auxtrace,
		st.auxtrace_bytes, c->foreign_aux ? ", not SPE: not decoded" : "",
		st.lost, st.lost_records, st.lost_samples, st.throttle, st.aux,
		st.aux_collision, st.aux_truncated, st.aux_partial);
	if (rc) {
		fprintf(stderr, "mess sample decode: %s: a damaged record at byte %" PRIu64
			" of the data section; the records before it are decoded\n",
			path, st.malformed_at);
		return -EIO;
	}
	return 0;
}

/*
 * --out before any work: a file, not a directory; an existing one only
 * when it is a CSV this command wrote (decoding again) or --force says
 * so, since another run's curves.csv looks just like a new name.
 */
static int check_out(const char *out, int force)
{
	char line[sizeof(CSV_HEADER) + 1] = "";
	size_t len = strlen(out);
	struct stat st;
	FILE *f;

	if (out[len - 1] == '/' || (!stat(out, &st) && S_ISDIR(st.st_mode))) {
		fprintf(stderr, "mess sample decode: --out: %s is a directory; allowed: a file name (F.csv)\n",
			out);
		return -EINVAL;
	}
	if (lstat(out, &st))
		return 0;
	/* the one reader: lstat's regular file may be swapped for a FIFO */
	f = S_ISREG(st.st_mode) ? mess_fopen_input(out, MESS_IN_NOFOLLOW, NULL, 0) : NULL;
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	if (!force && strcmp(line, CSV_HEADER "\n")) {
		fprintf(stderr, "mess sample decode: --out: %s exists and is not a CSV mess sample decode wrote; allowed: a new file, such a CSV (replaced), or --force to replace it\n",
			out);
		return -EINVAL;
	}
	return 0;
}

int mess_sample_decode_main(int argc, char **argv)
{
	struct decode_opts o = { .format = "auto" };
	struct decode_ctx c = { 0 };
	char err[1024], *pos[2], dir[PATH_MAX], *slash;
	const char *base = NULL;
	const uint8_t *buf = NULL;
	size_t n = 0;
	double t0;
	int npos, rc;

	rc = mess_cmd_open("mess sample decode", opts, NOPTS, &o, &o.help,
			   mess_sample_decode_usage, argc, argv, pos, 2, &npos);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (npos != 1) {
		fprintf(stderr, "mess sample decode: %s\n", npos ?
			"one FILE only; allowed: mess sample decode FILE [--out F.csv]" :
			"FILE: missing; allowed: a perf.data or a raw SPE aux buffer");
		return -EINVAL;
	}
	if (strcmp(o.format, "auto") && strcmp(o.format, "perf") &&
	    strcmp(o.format, "spe-raw") && strcmp(o.format, "spe-hex")) {
		fprintf(stderr, "mess sample decode: --format: '%s' is not allowed; allowed: auto, perf, spe-raw, spe-hex\n",
			o.format);
		return -EINVAL;
	}
	if (o.midr[0]) {
		char *end;

		errno = 0;
		c.midr = strtoull(o.midr, &end, 16);
		if (errno || *end || end == o.midr || o.midr[0] == '-' || !c.midr) {
			fprintf(stderr, "mess sample decode: --midr: '%s' is not allowed; allowed: a MIDR in hex (0x410fd0c0)\n",
				o.midr);
			return -EINVAL;
		}
	}
	if (o.out[0] && check_out(o.out, o.force))
		return -EINVAL;
	rc = map_file(pos[0], &buf, &n, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "mess sample decode: FILE: %s\n", err);
		return -EINVAL;
	}
	if (o.out[0]) {
		snprintf(dir, sizeof(dir), "%s", o.out);
		slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			base = o.out + (slash - dir) + 1;
			if (!dir[0])
				snprintf(dir, sizeof(dir), "/");
		} else {
			snprintf(dir, sizeof(dir), ".");
			base = o.out;
		}
		c.out = *base ? mess_tmp_open(dir, base) : NULL;
		if (!c.out) {
			fprintf(stderr, "mess sample decode: --out: %s: %s; allowed: a file in a directory you can write\n",
				o.out, *base ? strerror(errno) : "a directory");
			munmap((void *)buf, n);
			return -EINVAL;
		}
	} else {
		c.out = stdout;
	}
	t0 = mess_now_ns() * 1e-9;
	if (!strcmp(o.format, "perf") ||
	    (!strcmp(o.format, "auto") && n >= 8 && !memcmp(buf, "PERFILE2", 8)))
		rc = decode_perf(&c, buf, n, pos[0]);
	else
		rc = decode_spe_raw(&c, buf, n, !strcmp(o.format, "spe-hex") ||
				    (!strcmp(o.format, "auto") && looks_hex(buf, n)), pos[0]);
	if (c.spe_unknown_ds)
		fprintf(stderr, "  %" PRIu64 " SPE records with a data source unknown for MIDR 0x%" PRIx64
			" (written as unknown; --midr names the recording CPU)\n",
			c.spe_unknown_ds, c.midr);
	if (rc != -EINVAL && rc != -EOPNOTSUPP) {
		double dt = mess_now_ns() * 1e-9 - t0;

		fprintf(stderr, "  %" PRIu64 " rows in %.3f s (%.0f records/s, single thread)\n",
			c.rows, dt, dt > 0 ? (double)c.rows / dt : 0.0);
	}
	munmap((void *)buf, n);
	if (c.out != stdout && (rc == -EINVAL || rc == -EOPNOTSUPP)) {
		/* Nothing of a refused input is left behind. */
		fclose(c.out);
		mess_tmp_discard(dir, base);
	} else if (c.out != stdout) {
		int wrc = mess_tmp_commit(dir, base, c.out);

		if (wrc) {
			fprintf(stderr, "mess sample decode: --out: %s: %s\n", o.out, strerror(-wrc));
			return wrc;
		}
		if (!rc)
			fprintf(stderr, "  -> %s\n", o.out);
	}
	return rc == -EINVAL ? -EINVAL : rc;
}
