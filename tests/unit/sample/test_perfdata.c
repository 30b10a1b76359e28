// SPDX-License-Identifier: MIT
/*
 * The perf record stream and perf.data reader (mess/perfdata.h), the IBS
 * op decoder (mess/ibs.h) and the data-source word (mess/datasrc.h):
 * records built here byte by byte from the uapi layouts, with known
 * answers; every truncation of a sample refused; damaged streams stopped
 * with a count, the records before them delivered.  The recorded fixtures
 * (../shared/fixtures/sampling/: the Zen 4 IBS sample, the Skylake-SP PEBS
 * recording) are read in place and skipped when absent.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mess/datasrc.h"
#include "mess/ibs.h"
#include "mess/perfdata.h"

struct buf {
	uint8_t b[4096];
	size_t n;
};

static void put(struct buf *b, uint64_t v, unsigned k)
{
	for (unsigned i = 0; i < k; i++)
		b->b[b->n++] = (uint8_t)(v >> (8 * i));
}

/* A record header; returns where its size goes. */
static size_t rec(struct buf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->n;

	put(b, type, 4);
	put(b, misc, 2);
	put(b, 0, 2);
	return at;
}

static void rec_end(struct buf *b, size_t at)
{
	uint16_t size = (uint16_t)(b->n - at);

	b->b[at + 6] = (uint8_t)size;
	b->b[at + 7] = (uint8_t)(size >> 8);
}

#define PEBS_TYPE (MESS_PS_IP | MESS_PS_TID | MESS_PS_TIME | MESS_PS_ADDR | MESS_PS_ID | \
		   MESS_PS_CPU | MESS_PS_DATA_SRC | MESS_PS_WEIGHT_STRUCT)

static void pebs_sample(struct buf *b)
{
	size_t at = rec(b, MESS_PR_SAMPLE, 0x4001);

	put(b, UINT64_C(0xffffffffa4470d46), 8);	/* ip */
	put(b, 20132, 4);				/* pid */
	put(b, 20144, 4);				/* tid */
	put(b, UINT64_C(13166196585610), 8);		/* time */
	put(b, UINT64_C(0x55ffba5cda08), 8);		/* addr */
	put(b, 3168, 8);				/* id */
	put(b, 28, 4);					/* cpu */
	put(b, 0, 4);
	put(b, UINT64_C(0x00030002000000e1), 8);		/* weight: 225, 2, 3 */
	put(b, UINT64_C(0x11868100242), 8);		/* data_src */
	rec_end(b, at);
}

static void test_sample_fields(void **state)
{
	struct mess_perf_attr a = { .sample_type = PEBS_TYPE };
	struct mess_perf_sample s;
	struct buf b = { .n = 0 };

	pebs_sample(&b);
	assert_int_equal(mess_perf_sample(&a, b.b + 8, b.n - 8, 0x4001, &s), 0);
	assert_true(s.ip == UINT64_C(0xffffffffa4470d46));
	assert_true(s.pid == 20132 && s.tid == 20144 && s.cpu == 28);
	assert_true(s.time == UINT64_C(13166196585610));
	assert_true(s.addr == UINT64_C(0x55ffba5cda08));
	assert_true(s.id == 3168);
	assert_true(s.weight_var1 == 225 && s.weight_var2 == 2 && s.weight_var3 == 3);
	assert_true(s.data_src == UINT64_C(0x11868100242));
	/* Every cut body is refused, never read past. */
	for (size_t k = 0; k < b.n - 8; k++) {
		uint8_t *copy = malloc(k ? k : 1);

		memcpy(copy, b.b + 8, k);
		assert_int_equal(mess_perf_sample(&a, copy, k, 0, &s), -EBADMSG);
		free(copy);
	}
	/* A sample bit this parser does not know: refused. */
	a.sample_type |= UINT64_C(1) << 40;
	assert_int_equal(mess_perf_sample(&a, b.b + 8, b.n - 8, 0, &s), -EBADMSG);
}

/* The variable-length fields between the fixed ones are stepped over. */
static void test_sample_variable_fields(void **state)
{
	struct mess_perf_attr a = {
		.sample_type = MESS_PS_IDENTIFIER | MESS_PS_READ | MESS_PS_CALLCHAIN |
			       MESS_PS_RAW | MESS_PS_BRANCH_STACK | MESS_PS_REGS_USER |
			       MESS_PS_STACK_USER | MESS_PS_DATA_SRC | MESS_PS_PHYS_ADDR |
			       MESS_PS_AUX,
		.read_format = 1 | 4 | 8,	/* enabled, id, group */
		.regs_user = 0x7,		/* three registers */
	};
	struct mess_perf_sample s;
	struct buf b = { .n = 0 };

	put(&b, 77, 8);			/* identifier */
	put(&b, 2, 8);			/* read: nr 2 */
	put(&b, 1000, 8);		/* time enabled */
	put(&b, 1, 8); put(&b, 11, 8);	/* value, id */
	put(&b, 2, 8); put(&b, 12, 8);
	put(&b, 3, 8);			/* callchain: 3 ips */
	put(&b, 1, 8); put(&b, 2, 8); put(&b, 3, 8);
	put(&b, 12, 4);			/* raw: 12 bytes */
	put(&b, 0xaaaaaaaa, 4); put(&b, 0xbbbbbbbb, 4); put(&b, 0xcccccccc, 4);
	put(&b, 1, 8);			/* branch stack: 1 entry of 24 bytes */
	put(&b, 0, 8); put(&b, 0, 8); put(&b, 0, 8);
	put(&b, 2, 8);			/* regs abi 64, 3 regs */
	put(&b, 0, 8); put(&b, 0, 8); put(&b, 0, 8);
	put(&b, 16, 8);			/* stack: 16 bytes, then dyn size */
	put(&b, 0, 8); put(&b, 0, 8); put(&b, 16, 8);
	put(&b, UINT64_C(0x10268100142), 8);	/* data_src */
	put(&b, UINT64_C(0x12345000), 8);	/* phys addr */
	put(&b, 8, 8);			/* aux: 8 bytes */
	put(&b, UINT64_C(0x0102030405060708), 8);
	assert_int_equal(mess_perf_sample(&a, b.b, b.n, 0, &s), 0);
	assert_true(s.id == 77);
	assert_int_equal(s.raw_size, 12);
	assert_true(s.raw[0] == 0xaa && s.raw[11] == 0xcc);
	assert_true(s.data_src == UINT64_C(0x10268100142));
	assert_true(s.phys_addr == UINT64_C(0x12345000));
	assert_true(s.aux_size == 8 && s.aux[0] == 8);
	assert_int_equal(mess_perf_sample(&a, b.b, b.n - 1, 0, &s), -EBADMSG);
	/* A count that overflows (2^61 callchain entries): refused. */
	b.b[8 + 8 + 8 + 32 + 7] = 0x20;
	assert_int_equal(mess_perf_sample(&a, b.b, b.n, 0, &s), -EBADMSG);
}

struct seen {
	int samples, aux, auxtrace;
	uint64_t aux_flags;
	size_t aux_n;
	uint8_t aux_first;
};

static void on_sample(const struct mess_perf_sample *s, void *ctx)
{
	((struct seen *)ctx)->samples++;
}

static void on_aux(uint64_t off, uint64_t size, uint64_t flags, void *ctx)
{
	struct seen *w = ctx;

	w->aux++;
	w->aux_flags |= flags;
}

static void on_auxtrace(const struct mess_perf_auxtrace *a, const uint8_t *d,
			size_t n, void *ctx)
{
	struct seen *w = ctx;

	w->auxtrace++;
	w->aux_n = n;
	w->aux_first = n ? d[0] : 0;
	assert_int_equal(a->cpu, 3);
	assert_int_equal(a->idx, 1);
}

static const struct mess_perf_ops ops = { on_sample, on_auxtrace, on_aux };

static void build_stream(struct buf *b, struct mess_perf_file *f)
{
	size_t at;

	memset(f, 0, sizeof(*f));
	f->nattrs = 1;
	f->attrs[0].sample_type = PEBS_TYPE;
	pebs_sample(b);
	at = rec(b, MESS_PR_LOST, 0);
	put(b, 1, 8);
	put(b, 5, 8);
	rec_end(b, at);
	at = rec(b, MESS_PR_THROTTLE, 0);
	put(b, 1, 8); put(b, 1, 8); put(b, 1, 8);
	rec_end(b, at);
	at = rec(b, MESS_PR_UNTHROTTLE, 0);
	put(b, 2, 8); put(b, 1, 8); put(b, 1, 8);
	rec_end(b, at);
	at = rec(b, MESS_PR_AUX, 0);
	put(b, 0, 8); put(b, 4096, 8); put(b, MESS_AUX_COLLISION | MESS_AUX_TRUNCATED, 8);
	rec_end(b, at);
	at = rec(b, MESS_PR_AUX, 0);
	put(b, 4096, 8); put(b, 512, 8); put(b, MESS_AUX_PARTIAL, 8);
	rec_end(b, at);
	at = rec(b, MESS_PR_LOST_SAMPLES, 0);
	put(b, 9, 8);
	rec_end(b, at);
	at = rec(b, MESS_PR_AUXTRACE_INFO, 0);
	put(b, MESS_AUXTRACE_ARM_SPE, 4); put(b, 0, 4);
	rec_end(b, at);
	at = rec(b, MESS_PR_AUXTRACE, 0);
	put(b, 8, 8); put(b, 0, 8); put(b, 0, 8);	/* size 8, offset, ref */
	put(b, 1, 4); put(b, 7, 4); put(b, 3, 4); put(b, 0, 4);	/* idx tid cpu */
	rec_end(b, at);
	put(b, UINT64_C(0x00000000000000b0), 8);	/* its data, outside its size */
	at = rec(b, 1234, 0);				/* a type not known here */
	put(b, 0, 8);
	rec_end(b, at);
	pebs_sample(b);
}

static void test_walk(void **state)
{
	static struct mess_perf_file f;
	struct mess_perf_stats st = { 0 };
	struct seen w = { 0 };
	struct buf b = { .n = 0 };

	build_stream(&b, &f);
	assert_int_equal(mess_perf_walk(&f, b.b, b.n, 1, &ops, &w, &st), 0);
	assert_int_equal(w.samples, 2);
	assert_true(st.samples == 2 && st.records == 11);
	assert_true(st.lost_records == 1 && st.lost == 5 && st.lost_samples == 9);
	assert_true(st.throttle == 1 && st.unthrottle == 1);
	assert_true(st.aux == 2 && st.aux_bytes == 4608);
	assert_true(st.aux_collision == 1 && st.aux_truncated == 1 && st.aux_partial == 1);
	assert_int_equal(w.aux, 2);
	assert_true(st.auxtrace == 1 && st.auxtrace_bytes == 8 &&
		    st.auxtrace_type == MESS_AUXTRACE_ARM_SPE);
	assert_true(w.auxtrace == 1 && w.aux_n == 8 && w.aux_first == 0xb0);
	assert_true(st.other == 1 && st.malformed == 0);

	/* Cut anywhere: no read past the end; cut inside a record it stops
	 * with a count, the records before delivered. */
	for (size_t k = 0; k < b.n; k++) {
		struct mess_perf_stats s2 = { 0 };
		struct seen w2 = { 0 };
		uint8_t *copy = malloc(k ? k : 1);
		int rc;

		memcpy(copy, b.b, k);
		rc = mess_perf_walk(&f, copy, k, 1, &ops, &w2, &s2);
		assert_true(rc == 0 || (rc == -EBADMSG && s2.malformed == 1));
		assert_true(s2.records <= 11);
		free(copy);
	}
}

static void test_walk_malformed(void **state)
{
	static struct mess_perf_file f;
	struct mess_perf_stats st = { 0 };
	struct seen w = { 0 };
	struct buf b = { .n = 0 };
	size_t at;

	build_stream(&b, &f);
	/* A zero-sized record after the first sample. */
	at = b.n;
	put(&b, MESS_PR_SAMPLE, 4);
	put(&b, 0, 4);
	(void)at;
	assert_int_equal(mess_perf_walk(&f, b.b, b.n, 1, &ops, &w, &st), -EBADMSG);
	assert_true(st.malformed == 1 && st.malformed_at == at && st.samples == 2);

	/* An AUXTRACE whose data runs past the end. */
	b.n = 0;
	memset(&st, 0, sizeof(st));
	at = rec(&b, MESS_PR_AUXTRACE, 0);
	put(&b, 4096, 8); put(&b, 0, 8); put(&b, 0, 8);
	put(&b, 1, 4); put(&b, 7, 4); put(&b, 3, 4); put(&b, 0, 4);
	rec_end(&b, at);
	put(&b, 0, 8);
	assert_int_equal(mess_perf_walk(&f, b.b, b.n, 1, &ops, &w, &st), -EBADMSG);
	assert_true(st.malformed == 1 && st.auxtrace_bytes == 0);
}

static void test_open_refuses(void **state)
{
	static struct mess_perf_file f;
	uint8_t h[128] = { 0 };
	char err[128];

	assert_int_equal(mess_perf_open(h, sizeof(h), &f, err, sizeof(err)), -EINVAL);
	memcpy(h, "PERFILE2", 8);
	h[8] = 16;		/* pipe mode: a 16-byte header */
	assert_int_equal(mess_perf_open(h, sizeof(h), &f, err, sizeof(err)), -EOPNOTSUPP);
	assert_non_null(strstr(err, "pipe-mode"));
	h[8] = 104;
	h[40] = 200;		/* data section past the end */
	h[48] = 100;
	assert_int_equal(mess_perf_open(h, sizeof(h), &f, err, sizeof(err)), -EINVAL);
	memcpy(h, "2ELIFREP", 8);
	assert_int_equal(mess_perf_open(h, sizeof(h), &f, err, sizeof(err)), -EOPNOTSUPP);
	assert_int_equal(mess_perf_open(h, 4, &f, err, sizeof(err)), -EINVAL);
}

/* The Zen 4 sample of the fixture, as register values. */
static const uint64_t zen4_regs[] = {
	UINT64_C(0x000005410007f424), UINT64_C(0xffffffff81143526),
	UINT64_C(0x0000000004f70200), UINT64_C(0x23),
	UINT64_C(0x000001dc14d700a1), UINT64_C(0xffff899f7c3b5784),
	UINT64_C(0x0000011f7c3b5784), UINT64_C(0xffffffff81143534),
};

static size_t ibs_raw(uint8_t *raw, uint32_t caps, const uint64_t *regs, size_t n)
{
	struct buf b = { .n = 0 };

	put(&b, caps, 4);
	for (size_t i = 0; i < n; i++)
		put(&b, regs[i], 8);
	put(&b, 0, 4);		/* the kernel's padding to 8 bytes */
	memcpy(raw, b.b, b.n);
	return b.n;
}

static void test_ibs(void **state)
{
	uint8_t raw[128];
	uint64_t regs[8];
	size_t n = ibs_raw(raw, 0x0bff, zen4_regs, 8);
	struct mess_ibs_op o;
	const char *level, *name;

	assert_int_equal(mess_ibs_op_decode(raw, n, 0x19, 0x11, &o), 0);
	assert_int_equal(o.nregs, 8);
	assert_int_equal(o.max_cnt, 1000000);
	assert_int_equal(o.cur_cnt, 1345);
	assert_true(o.en && o.val && !o.cnt_ctl);
	assert_true(o.rip == UINT64_C(0xffffffff81143526) && !o.rip_invalid);
	assert_int_equal(o.comp_to_ret, 512);
	assert_int_equal(o.tag_to_ret, 1271);
	assert_true(o.data2_valid && o.data_src == 3 && !o.rmt_node && o.cache_hit_st);
	assert_true(o.ld && !o.st && o.dc_miss && o.l2_miss && o.l2_miss_valid);
	assert_true(o.lin_valid && o.phy_valid);
	assert_int_equal(o.mem_width, 4);
	assert_int_equal(o.open_mem_reqs, 5);
	assert_int_equal(o.dc_miss_lat, 476);
	assert_int_equal(o.tlb_refill_lat, 0);
	assert_true(o.lin_addr == UINT64_C(0xffff899f7c3b5784));
	assert_true(o.phys_addr == UINT64_C(0x0000011f7c3b5784));
	assert_true(o.has_br_target && o.br_target == UINT64_C(0xffffffff81143534));
	assert_string_equal(mess_ibs_op_name(&o), "load");
	mess_ibs_source(&o, &level, &name);
	assert_string_equal(level, "DRAM");
	assert_string_equal(name, "DRAM");

	/* Erratum #1293 (family 19h models 0-Fh): DcMissNoMabAlloc is set in
	 * this sample, so L2Miss and OpData2 are not to be trusted there. */
	assert_int_equal(mess_ibs_op_decode(raw, n, 0x19, 0x01, &o), 0);
	assert_true(!o.l2_miss_valid && !o.data2_valid && !o.open_mem_reqs);
	mess_ibs_source(&o, &level, &name);
	assert_string_equal(level, "beyond-L2");

	/* The earlier encoding (no Zen 4 caps): DataSrc 2 is the node's cache;
	 * the remote bit makes DRAM remote. */
	memcpy(regs, zen4_regs, sizeof(regs));
	regs[3] = 0x2;
	n = ibs_raw(raw, 0x3ff & ~MESS_IBS_CAPS_OPDATA4, regs, 8);
	assert_int_equal(mess_ibs_op_decode(raw, n, 0x17, 0x31, &o), 0);
	mess_ibs_source(&o, &level, &name);
	assert_string_equal(level, "L3");
	regs[3] = 0x13;
	n = ibs_raw(raw, 0x3ff & ~MESS_IBS_CAPS_OPDATA4, regs, 8);
	assert_int_equal(mess_ibs_op_decode(raw, n, 0x17, 0x31, &o), 0);
	mess_ibs_source(&o, &level, &name);
	assert_string_equal(level, "remote-DRAM");

	/* A store that hit L1; an uncached load; an op without memory. */
	regs[4] = 0x2;
	n = ibs_raw(raw, 0x0bff, regs, 8);
	assert_int_equal(mess_ibs_op_decode(raw, n, 0x19, 0x11, &o), 0);
	mess_ibs_source(&o, &level, &name);
	assert_string_equal(mess_ibs_op_name(&o), "store");
	assert_string_equal(level, "L1");
	assert_false(o.data2_valid);
	assert_true(!o.lin_valid && o.lin_addr == 0);
	regs[4] = 0x1 | 0x80 | 1u << 14;
	n = ibs_raw(raw, 0x0bff, regs, 8);
	assert_int_equal(mess_ibs_op_decode(raw, n, 0x19, 0x11, &o), 0);
	mess_ibs_source(&o, &level, &name);
	assert_string_equal(level, "uncached");
	regs[4] = 0;
	n = ibs_raw(raw, 0x0bff, regs, 8);
	assert_int_equal(mess_ibs_op_decode(raw, n, 0x19, 0x11, &o), 0);
	mess_ibs_source(&o, &level, &name);
	assert_string_equal(mess_ibs_op_name(&o), "other");
	assert_string_equal(level, "");

	/* Too short for the three first registers: refused; only some of the
	 * later ones: those present. */
	assert_int_equal(mess_ibs_op_decode(raw, 4 + 8 * 2, 0x19, 0x11, &o), -EINVAL);
	assert_int_equal(mess_ibs_op_decode(raw, 4 + 8 * 4, 0x19, 0x11, &o), 0);
	assert_int_equal(o.nregs, 4);
	assert_false(o.ld || o.has_br_target);
}

static void test_datasrc(void **state)
{
	static const struct {
		uint64_t v;
		const char *op, *level;
	} known[] = {
		/* the recording's words, as perf script names them */
		{ UINT64_C(0x11868100242), "load", "LFB hit" },
		{ UINT64_C(0x10268100142), "load", "L1 hit" },
		{ UINT64_C(0x10468100442), "load", "L2 hit" },
		{ UINT64_C(0x10650100842), "load", "L3 hit" },
		/* the older level bits alone: local RAM, remote, a miss */
		{ 2 | (0x80 | 0x2) << 5, "load", "RAM hit" },
		{ 4 | (0x100 | 0x2) << 5, "store", "remote-RAM hit" },
		{ 2 | (0x40 | 0x4) << 5, "load", "L3 miss" },
		/* a level number with the remote bit */
		{ 2 | (UINT64_C(0xd) << 33) | (UINT64_C(1) << 37), "load", "remote-RAM" },
		{ 1, "", "" },
	};
	struct mess_datasrc d;
	char buf[48];

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		assert_string_equal(mess_datasrc_op(known[i].v), known[i].op);
		mess_datasrc_level(known[i].v, buf, sizeof(buf));
		assert_string_equal(buf, known[i].level);
	}
	mess_datasrc_decode(UINT64_C(0x1026a100142), &d);
	assert_int_equal(d.lock, 2);		/* LCK Yes */
	assert_int_equal(d.dtlb, 0x1a);		/* L1 or L2 hit */
	assert_int_equal(d.snoop, 2);		/* none */
	assert_int_equal(d.blk, 1);		/* N/A */
}

static uint8_t *slurp(const char *name, size_t *n)
{
	const char *dir = getenv("MESS_SAMPLING_FIXTURES");
	char path[512];
	uint8_t *b;
	long sz;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "../shared/fixtures/sampling", name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "SKIPPED: no %s (the sampling fixtures)\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)sz);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)sz, f), (size_t)sz);
	fclose(f);
	*n = (size_t)sz;
	return b;
}

struct pebs_seen {
	int n, found;
};

static void pebs_check(const struct mess_perf_sample *s, void *ctx)
{
	struct pebs_seen *p = ctx;
	char level[48];

	p->n++;
	assert_true(s->have & MESS_PS_WEIGHT_STRUCT);
	assert_true(s->attr->type == 4);
	if (s->time != UINT64_C(13166196585610))
		return;
	p->found++;
	assert_true(s->cpu == 28 && s->pid == 20132 && s->tid == 20144);
	assert_true(s->ip == UINT64_C(0xffffffffa4470d46));
	assert_true(s->addr == UINT64_C(0x55ffba5cda08));
	assert_int_equal(s->weight_var1, 225);
	assert_true(s->data_src == UINT64_C(0x11868100242));
	assert_true(s->period == 0);
	mess_datasrc_level(s->data_src, level, sizeof(level));
	assert_string_equal(level, "LFB hit");
}

static void test_fixture_pebs(void **state)
{
	static struct mess_perf_file f;
	struct mess_perf_stats st = { 0 };
	struct mess_perf_ops o = { .sample = pebs_check };
	struct pebs_seen p = { 0 };
	char err[256], vendor[32];
	unsigned fam, mod;
	size_t n;
	uint8_t *b = slurp("perf.data.weight_struct", &n);

	if (!b)
		skip();
	assert_int_equal(mess_perf_open(b, n, &f, err, sizeof(err)), 0);
	assert_int_equal(f.nattrs, 2);
	assert_true(f.attrs[0].sample_type == PEBS_TYPE);
	assert_string_equal(f.attrs[0].pmu, "cpu");
	assert_int_equal(mess_perf_x86(&f, vendor, sizeof(vendor), &fam, &mod), 0);
	assert_string_equal(vendor, "GenuineIntel");
	assert_true(fam == 6 && mod == 85);
	assert_true(mess_perf_midr(&f) == 0);
	assert_int_equal(mess_perf_walk(&f, b + f.data_off, (size_t)f.data_size, 1, &o, &p, &st), 0);
	assert_int_equal(p.n, 14);
	assert_int_equal(p.found, 1);
	assert_true(st.samples == 14 && st.bad_samples == 0 && st.unmatched_ids == 0);
	free(b);
}

static void ibs_check(const struct mess_perf_sample *s, void *ctx)
{
	struct mess_ibs_op o;

	(*(int *)ctx)++;
	assert_string_equal(s->attr->pmu, "ibs_op");
	assert_int_equal(s->raw_size, 68);
	assert_int_equal(mess_ibs_op_decode(s->raw, s->raw_size, 25, 17, &o), 0);
	assert_true(o.lin_addr == UINT64_C(0xffff899f7c3b5784));
	assert_int_equal(o.dc_miss_lat, 476);
}

static void test_fixture_ibs(void **state)
{
	static struct mess_perf_file f;
	struct mess_perf_stats st = { 0 };
	struct mess_perf_ops o = { .sample = ibs_check };
	char err[256], vendor[32];
	unsigned fam, mod;
	int seen = 0;
	size_t n;
	uint8_t *b = slurp("ibs_zen4.perf.data", &n);

	if (!b)
		skip();
	assert_int_equal(mess_perf_open(b, n, &f, err, sizeof(err)), 0);
	assert_string_equal(f.arch, "x86_64");
	assert_int_equal(mess_perf_x86(&f, vendor, sizeof(vendor), &fam, &mod), 0);
	assert_true(fam == 25 && mod == 17);
	assert_int_equal(mess_perf_walk(&f, b + f.data_off, (size_t)f.data_size, 1, &o, &seen, &st), 0);
	assert_int_equal(seen, 1);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_fields),
		cmocka_unit_test(test_sample_variable_fields),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_walk_malformed),
		cmocka_unit_test(test_open_refuses),
		cmocka_unit_test(test_ibs),
		cmocka_unit_test(test_datasrc),
		cmocka_unit_test(test_fixture_pebs),
		cmocka_unit_test(test_fixture_ibs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
