// SPDX-License-Identifier: MIT
/*
 * libFuzzer target of the sampling decoders (make fuzz, make check-fuzz):
 * every input is decoded as a raw SPE buffer (whole, and fed in two pieces
 * split where its first byte says, as an aux ring's wrap splits it), as
 * a perf.data (header, attributes, features, then the record walk with
 * the IBS and data-source decoders on each sample), and as a record
 * stream with a fixed attribute, as a live ring's records are.  Beyond
 * what the sanitizers catch, it aborts when a count breaks the contract:
 * more packets or records than bytes, an error that is not documented.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mess/datasrc.h"
#include "mess/ibs.h"
#include "mess/perfdata.h"
#include "mess/spe.h"

static void on_rec(const struct mess_spe_rec *r, void *ctx)
{
	const char *level, *name;

	mess_spe_source(UINT64_C(0x410fd0c0), r->ds, &level, &name);
	if (!*mess_spe_op_name(r) && (r->have & MESS_SPE_HAVE_OP))
		abort();
	(*(uint64_t *)ctx)++;
}

static void on_sample(const struct mess_perf_sample *s, void *ctx)
{
	struct mess_ibs_op o;
	const char *level, *name;
	char buf[48];

	if (s->raw && !mess_ibs_op_decode(s->raw, s->raw_size, 0x19, 0x01, &o))
		mess_ibs_source(&o, &level, &name);
	mess_datasrc_level(s->data_src, buf, sizeof(buf));
	mess_datasrc_op(s->data_src);
}

static void on_auxtrace(const struct mess_perf_auxtrace *a, const uint8_t *d,
			size_t n, void *ctx)
{
	struct mess_spe_dec dec;
	uint64_t recs = 0;

	mess_spe_init(&dec, on_rec, &recs);
	mess_spe_feed(&dec, d, n);
	mess_spe_finish(&dec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mess_perf_file f;
	const struct mess_perf_ops ops = { on_sample, on_auxtrace, NULL };
	struct mess_perf_stats st = { 0 };
	struct mess_spe_dec dec;
	uint64_t recs = 0;
	size_t cut = size ? data[0] % (size + 1) : 0;
	char err[256];
	int rc;

	mess_spe_init(&dec, on_rec, &recs);
	mess_spe_feed(&dec, data, cut);
	mess_spe_feed(&dec, data + cut, size - cut);
	mess_spe_finish(&dec);
	if (dec.st.packets > size || recs != dec.st.records || dec.st.bytes != size ||
	    dec.st.records > dec.st.packets + dec.st.unterminated)
		abort();

	rc = mess_perf_open(data, size, &f, err, sizeof(err));
	if (rc && rc != -EINVAL && rc != -EOPNOTSUPP)
		abort();
	if (!rc) {
		rc = mess_perf_walk(&f, data + f.data_off, (size_t)f.data_size, 1, &ops, NULL, &st);
		if (rc && (rc != -EBADMSG || st.malformed != 1))
			abort();
		if (st.records > size / 8)
			abort();
	}

	/* The bytes as a ring's records, one attribute of many sample bits. */
	memset(&f, 0, sizeof(f));
	f.nattrs = 1;
	f.attrs[0].sample_type = MESS_PS_IP | MESS_PS_TID | MESS_PS_TIME | MESS_PS_ADDR |
				 MESS_PS_CPU | MESS_PS_PERIOD | MESS_PS_READ |
				 MESS_PS_RAW | MESS_PS_WEIGHT_STRUCT | MESS_PS_DATA_SRC;
	f.attrs[0].read_format = 8 | 4;
	memset(&st, 0, sizeof(st));
	rc = mess_perf_walk(&f, data, size, 0, &ops, NULL, &st);
	if (rc && rc != -EBADMSG)
		abort();
	return 0;
}
