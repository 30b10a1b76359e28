// SPDX-License-Identifier: MIT
/*
 * Arm SPE packets and records (mess/spe.h): known answers for every packet
 * type built by hand from the Arm ARM's formats, extended headers, the
 * data-source table by MIDR, and damaged streams (unknown headers, cut
 * packets, records without an end, pieces split anywhere) that must be
 * counted and resynchronised, never crash.  The recorded fixture bytes of
 * ../shared/fixtures/sampling/google_spe.hex give the expected fields of
 * its README (skipped when the fixtures are absent).
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

#include "mess/spe.h"

#define N1_MIDR UINT64_C(0x410fd0c0)

static void one(const uint8_t *b, size_t n, enum mess_spe_pkt_type t,
		unsigned idx, uint64_t payload)
{
	struct mess_spe_pkt p;

	assert_int_equal(mess_spe_pkt(b, n, &p), (int)n);
	assert_int_equal(p.type, t);
	assert_int_equal(p.index, idx);
	assert_true(p.payload == payload);
	/* Every shorter prefix is a cut packet, never a wrong one. */
	for (size_t k = 0; k < n; k++)
		assert_int_equal(mess_spe_pkt(b, k, &p), -EAGAIN);
}

static void test_packet_types(void **state)
{
	static const uint8_t pad[] = { 0x00 }, end[] = { 0x01 };
	static const uint8_t ts[] = { 0x71, 0x2e, 0x65, 0x2f, 0x6a, 0x0a, 0, 0, 0 };
	static const uint8_t ev1[] = { 0x42, 0x16 }, ev2[] = { 0x52, 0x16, 0x01 };
	static const uint8_t ev4[] = { 0x62, 1, 2, 3, 4 };
	static const uint8_t ev8[] = { 0x72, 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t ds1[] = { 0x43, 0x0e }, ds2[] = { 0x53, 0x0b, 0x00 };
	static const uint8_t ctx1[] = { 0x64, 0x80, 0x5f, 0, 0 }, ctx2[] = { 0x65, 0x0e, 0, 0, 0 };
	static const uint8_t op_ld[] = { 0x49, 0x00 }, op_br[] = { 0x4a, 0x01 }, op_other[] = { 0x48, 0x01 };
	static const uint8_t pc[] = { 0xb0, 0xd0, 0xc2, 0xa1, 0xed, 0x66, 0xba, 0xff, 0xc0 };
	static const uint8_t tgt[] = { 0xb1, 1, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t va[] = { 0xb2, 0x28, 0x6b, 0x09, 0x03, 0x37, 0x0e, 0xff, 0x00 };
	static const uint8_t pa[] = { 0xb3, 0, 0x20, 0x30, 0x40, 5, 0, 0, 0x80 };
	static const uint8_t prev[] = { 0xb4, 8, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t lat_tot[] = { 0x98, 0x0c, 0x00 }, lat_iss[] = { 0x99, 0x04, 0x00 };
	static const uint8_t lat_xl[] = { 0x9a, 0x01, 0x01 };
	/* Extended headers: two more index bits in front of the short one. */
	static const uint8_t ext_va[] = { 0x20, 0xb2, 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t ext_idx[] = { 0x21, 0xb2, 1, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t ext_cnt[] = { 0x23, 0x9f, 0x34, 0x12 };

	one(pad, sizeof(pad), MESS_SPE_PAD, 0, 0);
	one(end, sizeof(end), MESS_SPE_END, 0, 0);
	one(ts, sizeof(ts), MESS_SPE_TIMESTAMP, 0, UINT64_C(44731163950));
	one(ev1, sizeof(ev1), MESS_SPE_EVENTS, 0, 0x16);
	one(ev2, sizeof(ev2), MESS_SPE_EVENTS, 0, 0x116);
	one(ev4, sizeof(ev4), MESS_SPE_EVENTS, 0, 0x04030201);
	one(ev8, sizeof(ev8), MESS_SPE_EVENTS, 0, UINT64_C(0x0807060504030201));
	one(ds1, sizeof(ds1), MESS_SPE_DATA_SOURCE, 0, 0xe);
	one(ds2, sizeof(ds2), MESS_SPE_DATA_SOURCE, 0, 0xb);
	one(ctx1, sizeof(ctx1), MESS_SPE_CONTEXT, 0, 0x5f80);
	one(ctx2, sizeof(ctx2), MESS_SPE_CONTEXT, 1, 0xe);
	one(op_ld, sizeof(op_ld), MESS_SPE_OP_TYPE, MESS_SPE_OP_LDST, 0);
	one(op_br, sizeof(op_br), MESS_SPE_OP_TYPE, MESS_SPE_OP_BRANCH, 1);
	one(op_other, sizeof(op_other), MESS_SPE_OP_TYPE, MESS_SPE_OP_OTHER, 1);
	one(pc, sizeof(pc), MESS_SPE_ADDRESS, MESS_SPE_ADDR_PC, UINT64_C(0xc0ffba66eda1c2d0));
	one(tgt, sizeof(tgt), MESS_SPE_ADDRESS, MESS_SPE_ADDR_BR_TGT, 1);
	one(va, sizeof(va), MESS_SPE_ADDRESS, MESS_SPE_ADDR_DATA_VA, UINT64_C(0x00ff0e3703096b28));
	one(pa, sizeof(pa), MESS_SPE_ADDRESS, MESS_SPE_ADDR_DATA_PA, UINT64_C(0x8000000540302000));
	one(prev, sizeof(prev), MESS_SPE_ADDRESS, MESS_SPE_ADDR_PREV_BR, 8);
	one(lat_tot, sizeof(lat_tot), MESS_SPE_COUNTER, MESS_SPE_CNT_TOTAL, 12);
	one(lat_iss, sizeof(lat_iss), MESS_SPE_COUNTER, MESS_SPE_CNT_ISSUE, 4);
	one(lat_xl, sizeof(lat_xl), MESS_SPE_COUNTER, MESS_SPE_CNT_XLAT, 0x101);
	one(ext_va, sizeof(ext_va), MESS_SPE_ADDRESS, 2, UINT64_C(0x0807060504030201));
	one(ext_idx, sizeof(ext_idx), MESS_SPE_ADDRESS, 8 + 2, 1);
	one(ext_cnt, sizeof(ext_cnt), MESS_SPE_COUNTER, 24 + 7, 0x1234);
	assert_string_equal(mess_spe_pkt_name(MESS_SPE_DATA_SOURCE), "DATA-SOURCE");
}

static void test_bad_headers(void **state)
{
	/* Not headers: 0x02..0x1f, 0x24 (no extended form), an extended
	 * header before a header that takes none (events, op type). */
	static const uint8_t bad[][2] = {
		{ 0x02, 0 }, { 0x1f, 0 }, { 0x80, 0 }, { 0x90, 0 }, { 0x24, 0 },
		{ 0x20, 0x42 }, { 0x20, 0x49 }, { 0x20, 0x00 }, { 0xff, 0 },
	};
	struct mess_spe_pkt p;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(mess_spe_pkt(bad[i], 2, &p), -EBADMSG);
	assert_int_equal(mess_spe_pkt(bad[0], 0, &p), -EAGAIN);
}

struct got {
	struct mess_spe_rec r[16];
	int n;
};

static void keep(const struct mess_spe_rec *r, void *ctx)
{
	struct got *g = ctx;

	if (g->n < 16)
		g->r[g->n] = *r;
	g->n++;
}

/* The fixture's two records, as the hex file has them. */
static const char google_hex[] =
	"b0 d0 c2 a1 ed 66 ba ff c0\n00 00 00 00 00\n65 80 5f 00 00\n49 00\n"
	"52 16 00\n99 04 00\n98 0c 00\nb2 28 6b 09 03 37 0e ff 00\n9a 01 00\n"
	"00 00 00 00 00 00 00 00 00\n43 00\n00 00\n71 2e 65 2f 6a 0a 00 00 00\n"
	"b0 e0 b0 ef ed 66 ba ff c0\n00 00 00 00 00\n65 0e 00 00 00\n4a 01\n"
	"52 42 00\n99 10 00\n98 11 00\nb1 e4 b0 ef ed 66 ba ff c0\n"
	"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n71 8d 65 2f 6a 0a 00 00 00\n";

static void check_google(const struct got *g)
{
	const struct mess_spe_rec *a = &g->r[0], *b = &g->r[1];
	const char *level, *name;

	assert_int_equal(g->n, 2);
	assert_true(a->pc == UINT64_C(0xffba66eda1c2d0));
	assert_int_equal(a->pc_el, 2);
	assert_int_equal(a->pc_ns, 1);
	assert_true(a->vaddr == UINT64_C(0xff0e3703096b28));
	assert_false(a->have & MESS_SPE_HAVE_PA);
	assert_int_equal(a->context, 0x5f80);
	assert_true(a->context_el2);
	assert_string_equal(mess_spe_op_name(a), "load");
	assert_string_equal(mess_spe_op_sub(a), "gp");
	assert_true(a->events == (MESS_SPE_EV_RETIRED | MESS_SPE_EV_L1D_ACCESS |
				  MESS_SPE_EV_TLB_ACCESS));
	assert_int_equal(a->lat_issue, 4);
	assert_int_equal(a->lat_total, 12);
	assert_int_equal(a->lat_xlat, 1);
	assert_true(a->have & MESS_SPE_HAVE_DS);
	assert_int_equal(a->ds, 0);
	assert_true(a->ts == UINT64_C(44731163950));
	assert_int_equal(mess_spe_source(N1_MIDR, a->ds, &level, &name), 0);
	assert_string_equal(level, "L1");

	assert_true(b->pc == UINT64_C(0xffba66edefb0e0));
	assert_string_equal(mess_spe_op_name(b), "branch");
	assert_string_equal(mess_spe_op_sub(b), "cond");
	assert_true(b->events == (MESS_SPE_EV_RETIRED | MESS_SPE_EV_NOT_TAKEN));
	assert_int_equal(b->lat_issue, 16);
	assert_int_equal(b->lat_total, 17);
	assert_true(b->tgt == UINT64_C(0xffba66edefb0e4));
	assert_false(b->have & (MESS_SPE_HAVE_VA | MESS_SPE_HAVE_DS | MESS_SPE_HAVE_XLAT));
	assert_true(b->ts == UINT64_C(44731164045));
}

static size_t google_bytes(uint8_t *buf, size_t max)
{
	long n = mess_spe_hex(google_hex, strlen(google_hex), buf, max, NULL);

	assert_int_equal(n, 128);
	return (size_t)n;
}

static void test_records(void **state)
{
	uint8_t buf[256];
	size_t n = google_bytes(buf, sizeof(buf));
	struct mess_spe_dec d;
	struct got g = { .n = 0 };

	mess_spe_init(&d, keep, &g);
	mess_spe_feed(&d, buf, n);
	mess_spe_finish(&d);
	check_google(&g);
	assert_true(d.st.records == 2 && d.st.resyncs == 0 && d.st.truncated == 0 &&
		    d.st.unterminated == 0 && d.st.bytes == 128);
	assert_true(d.st.by_type[MESS_SPE_PAD] == 5 + 9 + 2 + 5 + 16);
	assert_true(d.st.by_type[MESS_SPE_ADDRESS] == 4);
	assert_true(d.st.by_type[MESS_SPE_COUNTER] == 5);
	assert_true(d.st.by_type[MESS_SPE_TIMESTAMP] == 2);
}

/* Fed in pieces cut at every position (as an aux ring wraps): the same. */
static void test_split_anywhere(void **state)
{
	uint8_t buf[256];
	size_t n = google_bytes(buf, sizeof(buf));

	for (size_t cut = 0; cut <= n; cut++) {
		for (size_t cut2 = cut; cut2 <= n; cut2 += 7) {
			struct mess_spe_dec d;
			struct got g = { .n = 0 };

			mess_spe_init(&d, keep, &g);
			mess_spe_feed(&d, buf, cut);
			mess_spe_feed(&d, buf + cut, cut2 - cut);
			mess_spe_feed(&d, buf + cut2, n - cut2);
			mess_spe_finish(&d);
			check_google(&g);
			assert_true(d.st.truncated == 0 && d.st.resyncs == 0);
		}
	}
	/* One byte at a time. */
	struct mess_spe_dec d;
	struct got g = { .n = 0 };

	mess_spe_init(&d, keep, &g);
	for (size_t i = 0; i < n; i++)
		mess_spe_feed(&d, buf + i, 1);
	mess_spe_feed(&d, buf, 0);
	mess_spe_finish(&d);
	check_google(&g);
}

static void test_resync_and_truncation(void **state)
{
	uint8_t buf[512];
	size_t n = google_bytes(buf, sizeof(buf));
	struct mess_spe_dec d;
	struct got g = { .n = 0 };
	uint8_t bad[300];

	/* Unknown bytes before and between the records: skipped as runs. */
	bad[0] = 0x02;
	bad[1] = 0x03;
	memcpy(bad + 2, buf, 64);
	bad[66] = 0x1f;
	memcpy(bad + 67, buf + 64, 64);
	mess_spe_init(&d, keep, &g);
	mess_spe_feed(&d, bad, 131);
	mess_spe_finish(&d);
	check_google(&g);
	assert_true(d.st.resyncs == 2 && d.st.skipped == 3);

	/* Cut inside the last timestamp: counted; the record is unterminated. */
	g.n = 0;
	mess_spe_init(&d, keep, &g);
	mess_spe_feed(&d, buf, n - 3);
	mess_spe_finish(&d);
	assert_int_equal(g.n, 2);
	assert_true(d.st.truncated == 1 && d.st.unterminated == 1);
	assert_false(g.r[1].have & MESS_SPE_HAVE_TS);

	/* A record without its end: the next PC ends it. */
	static const uint8_t two_pcs[] = { 0xb0, 1, 0, 0, 0, 0, 0, 0, 0, 0x49, 0x01,
					   0xb0, 2, 0, 0, 0, 0, 0, 0, 0, 0x01 };
	g.n = 0;
	mess_spe_init(&d, keep, &g);
	mess_spe_feed(&d, two_pcs, sizeof(two_pcs));
	mess_spe_finish(&d);
	assert_int_equal(g.n, 2);
	assert_true(d.st.unterminated == 1);
	assert_string_equal(mess_spe_op_name(&g.r[0]), "store");
	assert_true(g.r[1].pc == 2);

	/* Zero bytes, and garbage of every byte value: no crash, counted. */
	mess_spe_init(&d, NULL, NULL);
	mess_spe_feed(&d, NULL, 0);
	for (int i = 0; i < 256; i++)
		bad[i] = (uint8_t)(255 - i);
	mess_spe_feed(&d, bad, 256);
	mess_spe_finish(&d);
	assert_true(d.st.resyncs > 0);
	assert_true(d.st.bytes == 256);
}

static void test_sources(void **state)
{
	static const struct {
		uint16_t code;
		const char *level;
	} nv[] = {
		{ 0x0, "L1" }, { 0x8, "L2" }, { 0x9, "peer-core" }, { 0xa, "cluster" },
		{ 0xb, "LLC" }, { 0xc, "peer-cluster" }, { 0xd, "remote" }, { 0xe, "DRAM" },
	};
	const char *level, *name;

	for (size_t i = 0; i < sizeof(nv) / sizeof(nv[0]); i++) {
		assert_int_equal(mess_spe_source(N1_MIDR, nv[i].code, &level, &name), 0);
		assert_string_equal(level, nv[i].level);
		/* Any variant and revision of the part: the same encoding. */
		assert_int_equal(mess_spe_source(UINT64_C(0x413fd0c1), nv[i].code, &level, &name), 0);
		/* Neoverse V2 */
		assert_int_equal(mess_spe_source(UINT64_C(0x410fd4f0), nv[i].code, &level, &name), 0);
	}
	/* A code the table has no row for, and a core it does not know. */
	assert_int_equal(mess_spe_source(N1_MIDR, 0x5, &level, &name), -ENOENT);
	assert_string_equal(level, "unknown");
	assert_int_equal(mess_spe_source(UINT64_C(0xc00fac30), 0x0, &level, &name), -ENOENT);
	assert_string_equal(name, "unknown");
	assert_int_equal(mess_spe_source(0, 0x0, &level, &name), -ENOENT);
}

static void test_op_subclasses(void **state)
{
	static const struct {
		unsigned cls, sub;
		const char *op, *name;
	} ops[] = {
		{ MESS_SPE_OP_LDST, 0x00, "load", "gp" },
		{ MESS_SPE_OP_LDST, 0x01, "store", "gp" },
		{ MESS_SPE_OP_LDST, 0x04, "load", "simd-fp" },
		{ MESS_SPE_OP_LDST, 0x1f, "store", "extended" },
		{ MESS_SPE_OP_LDST, 0x08, "load", "sve" },
		{ MESS_SPE_OP_LDST, 0x30, "load", "nv-sysreg" },
		{ MESS_SPE_OP_BRANCH, 0x00, "branch", "direct" },
		{ MESS_SPE_OP_BRANCH, 0x03, "branch", "indirect-cond" },
		{ MESS_SPE_OP_OTHER, 0x01, "other", "cond-select" },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct mess_spe_rec r = { .have = MESS_SPE_HAVE_OP, .op_class = ops[i].cls,
					  .op_sub = ops[i].sub };

		assert_string_equal(mess_spe_op_name(&r), ops[i].op);
		assert_string_equal(mess_spe_op_sub(&r), ops[i].name);
	}
}

static void test_hex(void **state)
{
	uint8_t out[8];
	size_t bad = 0;

	assert_int_equal(mess_spe_hex("# c\n01 ff,0A\n", 13, out, 8, NULL), 3);
	assert_true(out[0] == 1 && out[1] == 0xff && out[2] == 0x0a);
	assert_int_equal(mess_spe_hex("01 zz", 5, out, 8, &bad), -EINVAL);
	assert_int_equal(bad, 3);
	assert_int_equal(mess_spe_hex("0", 1, out, 8, &bad), -EINVAL);
	assert_int_equal(mess_spe_hex("01 02 03", 8, out, 2, &bad), -E2BIG);
}

/* The fixture file, read in place: the fields its README states. */
static void test_fixture(void **state)
{
	const char *dir = getenv("MESS_SAMPLING_FIXTURES");
	char path[512], text[4096];
	uint8_t buf[1024];
	struct mess_spe_dec d;
	struct got g = { .n = 0 };
	FILE *f;
	size_t n;
	long k;

	snprintf(path, sizeof(path), "%s/google_spe.hex",
		 dir ? dir : "../shared/fixtures/sampling");
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "SKIPPED: no %s (the sampling fixtures)\n", path);
		skip();
	}
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	k = mess_spe_hex(text, n, buf, sizeof(buf), NULL);
	assert_int_equal(k, 128);
	mess_spe_init(&d, keep, &g);
	mess_spe_feed(&d, buf, (size_t)k);
	mess_spe_finish(&d);
	check_google(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_packet_types),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_split_anywhere),
		cmocka_unit_test(test_resync_and_truncation),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_op_subclasses),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
