// SPDX-License-Identifier: MIT
/*
 * Arm SPE packets and records (include/mess/spe.h).  The packet formats
 * are the Arm ARM's; one table row per header form, so that a new packet
 * type is a row, not a branch.
 */
#include "mess/spe.h"

#include <errno.h>
#include <string.h>

#define ADDR_MASK ((UINT64_C(1) << 56) - 1)

/*
 * Short headers: (byte & mask) == value.  A sized row takes its payload
 * size from bits [5:4] (1, 2, 4 or 8 bytes); idx_mask selects the index
 * bits; ext says an extended header may prefix it.
 */
static const struct hdr_row {
	uint8_t mask, value;
	enum mess_spe_pkt_type type;
	uint8_t fixed_len;	/* payload bytes of an unsized row */
	uint8_t sized, idx_mask, ext;
} hdrs[] = {
	{ 0xff, 0x00, MESS_SPE_PAD, 0, 0, 0, 0 },
	{ 0xff, 0x01, MESS_SPE_END, 0, 0, 0, 0 },
	{ 0xff, 0x71, MESS_SPE_TIMESTAMP, 8, 0, 0, 0 },
	{ 0xcf, 0x42, MESS_SPE_EVENTS, 0, 1, 0, 0 },
	{ 0xcf, 0x43, MESS_SPE_DATA_SOURCE, 0, 1, 0, 0 },
	{ 0xfc, 0x64, MESS_SPE_CONTEXT, 0, 1, 0x3, 0 },
	{ 0xfc, 0x48, MESS_SPE_OP_TYPE, 0, 1, 0x3, 0 },
	{ 0xf8, 0xb0, MESS_SPE_ADDRESS, 0, 1, 0x7, 1 },
	{ 0xf8, 0x98, MESS_SPE_COUNTER, 0, 1, 0x7, 1 },
};

static const char *const type_names[MESS_SPE_NTYPES] = {
	[MESS_SPE_PAD] = "PAD",
	[MESS_SPE_END] = "END",
	[MESS_SPE_TIMESTAMP] = "TIMESTAMP",
	[MESS_SPE_EVENTS] = "EVENTS",
	[MESS_SPE_DATA_SOURCE] = "DATA-SOURCE",
	[MESS_SPE_CONTEXT] = "CONTEXT",
	[MESS_SPE_OP_TYPE] = "OP-TYPE",
	[MESS_SPE_ADDRESS] = "ADDRESS",
	[MESS_SPE_COUNTER] = "COUNTER",
};

const char *mess_spe_pkt_name(enum mess_spe_pkt_type t)
{
	return (unsigned)t < MESS_SPE_NTYPES ? type_names[t] : "?";
}

static const struct hdr_row *find_hdr(uint8_t b)
{
	for (size_t i = 0; i < sizeof(hdrs) / sizeof(hdrs[0]); i++)
		if ((b & hdrs[i].mask) == hdrs[i].value)
			return &hdrs[i];
	return NULL;
}

int mess_spe_pkt(const uint8_t *b, size_t n, struct mess_spe_pkt *p)
{
	const struct hdr_row *h;
	unsigned hl = 1, hi_idx = 0, plen;

	if (!n)
		return -EAGAIN;
	/* Extended header 0b001000xx: the next byte is the short header. */
	if ((b[0] & 0xfc) == 0x20) {
		if (n < 2)
			return -EAGAIN;
		h = find_hdr(b[1]);
		if (!h || !h->ext)
			return -EBADMSG;
		hi_idx = (b[0] & 0x3u) << 3;
		hl = 2;
	} else {
		h = find_hdr(b[0]);
		if (!h)
			return -EBADMSG;
	}
	plen = h->sized ? 1u << ((b[hl - 1] >> 4) & 0x3) : h->fixed_len;
	if (n < hl + plen)
		return -EAGAIN;
	memset(p, 0, sizeof(*p));
	p->type = h->type;
	p->index = hi_idx | (b[hl - 1] & h->idx_mask);
	p->len = hl + plen;
	p->payload_len = plen;
	for (unsigned i = 0; i < plen; i++)	/* little endian */
		p->payload |= (uint64_t)b[hl + i] << (8 * i);
	return (int)p->len;
}

const char *mess_spe_op_name(const struct mess_spe_rec *r)
{
	if (!(r->have & MESS_SPE_HAVE_OP))
		return "";
	switch (r->op_class) {
	case MESS_SPE_OP_LDST:
		return r->op_sub & 1 ? "store" : "load";
	case MESS_SPE_OP_BRANCH:
		return "branch";
	default:
		return "other";
	}
}

/* Load/store subclasses: (payload & mask) == value, first match. */
static const struct {
	uint8_t mask, value;
	const char *name;
} ldst_subs[] = {
	{ 0xfe, 0x00, "gp" },
	{ 0xfe, 0x04, "simd-fp" },
	{ 0xfe, 0x10, "unspec-reg" },
	{ 0xfe, 0x30, "nv-sysreg" },
	{ 0xe2, 0x02, "extended" },	/* atomic, exclusive, acquire/release */
	{ 0x0a, 0x08, "sve" },
};

const char *mess_spe_op_sub(const struct mess_spe_rec *r)
{
	if (!(r->have & MESS_SPE_HAVE_OP))
		return "";
	if (r->op_class == MESS_SPE_OP_BRANCH)
		return r->op_sub & 2 ? (r->op_sub & 1 ? "indirect-cond" : "indirect") :
				       (r->op_sub & 1 ? "cond" : "direct");
	if (r->op_class != MESS_SPE_OP_LDST)
		return r->op_sub & 1 ? "cond-select" : "";
	for (size_t i = 0; i < sizeof(ldst_subs) / sizeof(ldst_subs[0]); i++)
		if ((r->op_sub & ldst_subs[i].mask) == ldst_subs[i].value)
			return ldst_subs[i].name;
	return "other";
}

/*
 * Data-source codes by MIDR (implementer [31:24], part number [15:4];
 * variant and revision do not change the encoding).  The Neoverse-family
 * cores share one encoding (their TRMs, and Linux's arm-spe.c list).  A
 * code or a core not here is reported as unknown, never guessed.
 */
#define MIDR_PART_MASK UINT64_C(0xff00fff0)
#define ARM_PART(p) ((UINT64_C(0x41) << 24) | ((uint64_t)(p) << 4))

static const uint64_t neoverse_midrs[] = {
	ARM_PART(0xd0c),	/* Neoverse N1 (Ampere Altra) */
	ARM_PART(0xd49),	/* Neoverse N2 */
	ARM_PART(0xd40),	/* Neoverse V1 */
	ARM_PART(0xd4f),	/* Neoverse V2 */
	ARM_PART(0xd47),	/* Cortex-A710 */
	ARM_PART(0xd44),	/* Cortex-X1 */
	ARM_PART(0xd4b),	/* Cortex-A78C */
};

static const struct {
	uint16_t code;
	const char *level, *name;
} neoverse_sources[] = {
	{ 0x0, "L1", "L1D" },
	{ 0x8, "L2", "L2" },
	{ 0x9, "peer-core", "a peer core's cache" },
	{ 0xa, "cluster", "the local cluster's cache" },
	{ 0xb, "LLC", "the system level cache" },
	{ 0xc, "peer-cluster", "a peer cluster's cache" },
	{ 0xd, "remote", "remote (another chip)" },
	{ 0xe, "DRAM", "DRAM" },
};

int mess_spe_source(uint64_t midr, uint16_t ds, const char **level,
		    const char **name)
{
	*level = *name = "unknown";
	for (size_t i = 0; i < sizeof(neoverse_midrs) / sizeof(neoverse_midrs[0]); i++) {
		if ((midr & MIDR_PART_MASK) != neoverse_midrs[i])
			continue;
		for (size_t k = 0; k < sizeof(neoverse_sources) / sizeof(neoverse_sources[0]); k++)
			if (neoverse_sources[k].code == ds) {
				*level = neoverse_sources[k].level;
				*name = neoverse_sources[k].name;
				return 0;
			}
		return -ENOENT;
	}
	return -ENOENT;
}

void mess_spe_init(struct mess_spe_dec *d, mess_spe_emit_fn emit, void *ctx)
{
	memset(d, 0, sizeof(*d));
	d->emit = emit;
	d->ctx = ctx;
}

static void emit(struct mess_spe_dec *d)
{
	if (d->cur.have) {
		d->st.records++;
		if (d->emit)
			d->emit(&d->cur, d->ctx);
	}
	memset(&d->cur, 0, sizeof(d->cur));
}

/* What each packet puts in the record. */
static void apply(struct mess_spe_dec *d, const struct mess_spe_pkt *p)
{
	struct mess_spe_rec *r = &d->cur;
	uint64_t v = p->payload;

	switch (p->type) {
	case MESS_SPE_END:
	case MESS_SPE_TIMESTAMP:
		if (p->type == MESS_SPE_TIMESTAMP) {
			r->ts = v;
			r->have |= MESS_SPE_HAVE_TS;
		}
		emit(d);
		break;
	case MESS_SPE_ADDRESS:
		switch (p->index) {
		case MESS_SPE_ADDR_PC:
			/* A second PC: the previous record lost its end. */
			if (r->have & MESS_SPE_HAVE_PC) {
				d->st.unterminated++;
				emit(d);
			}
			r->pc = v & ADDR_MASK;
			r->pc_el = (v >> 61) & 0x3;
			r->pc_ns = (v >> 63) & 0x1;
			r->have |= MESS_SPE_HAVE_PC;
			break;
		case MESS_SPE_ADDR_BR_TGT:
			r->tgt = v & ADDR_MASK;
			r->have |= MESS_SPE_HAVE_TGT;
			break;
		case MESS_SPE_ADDR_DATA_VA:
			r->vaddr = v & ADDR_MASK;
			r->have |= MESS_SPE_HAVE_VA;
			break;
		case MESS_SPE_ADDR_DATA_PA:
			r->paddr = v & ADDR_MASK;
			r->have |= MESS_SPE_HAVE_PA;
			break;
		case MESS_SPE_ADDR_PREV_BR:
			r->prev_br = v & ADDR_MASK;
			r->have |= MESS_SPE_HAVE_PREV_BR;
			break;
		}
		break;
	case MESS_SPE_COUNTER:
		if (p->index == MESS_SPE_CNT_TOTAL) {
			r->lat_total = (uint16_t)v;
			r->have |= MESS_SPE_HAVE_TOTAL;
		} else if (p->index == MESS_SPE_CNT_ISSUE) {
			r->lat_issue = (uint16_t)v;
			r->have |= MESS_SPE_HAVE_ISSUE;
		} else if (p->index == MESS_SPE_CNT_XLAT) {
			r->lat_xlat = (uint16_t)v;
			r->have |= MESS_SPE_HAVE_XLAT;
		}
		break;
	case MESS_SPE_EVENTS:
		r->events = v;
		r->have |= MESS_SPE_HAVE_EVENTS;
		break;
	case MESS_SPE_DATA_SOURCE:
		r->ds = (uint16_t)v;
		r->have |= MESS_SPE_HAVE_DS;
		break;
	case MESS_SPE_CONTEXT:
		r->context = (uint32_t)v;
		r->context_el2 = p->index == 1;
		r->have |= MESS_SPE_HAVE_CONTEXT;
		break;
	case MESS_SPE_OP_TYPE:
		r->op_class = p->index;
		r->op_sub = (unsigned)(v & 0xff);
		r->have |= MESS_SPE_HAVE_OP;
		break;
	default:
		break;
	}
}

/* One packet at b[0..n): bytes consumed, or 0 when n cuts it. */
static size_t step(struct mess_spe_dec *d, const uint8_t *b, size_t n)
{
	struct mess_spe_pkt p;
	int rc = mess_spe_pkt(b, n, &p);

	if (rc == -EAGAIN)
		return 0;
	if (rc < 0) {
		if (!d->in_skip)
			d->st.resyncs++;
		d->in_skip = 1;
		d->st.skipped++;
		return 1;
	}
	d->in_skip = 0;
	d->st.packets++;
	d->st.by_type[p.type]++;
	apply(d, &p);
	return (size_t)rc;
}

void mess_spe_feed(struct mess_spe_dec *d, const uint8_t *b, size_t n)
{
	size_t off = 0, r;

	d->st.bytes += n;
	if (d->ncarry) {
		/* Complete the packet the last piece cut, from this one. */
		uint8_t tmp[sizeof(d->carry) + 16];
		size_t take = n < 16 ? n : 16, tn = d->ncarry + take, pos = 0;

		memcpy(tmp, d->carry, d->ncarry);
		memcpy(tmp + d->ncarry, b, take);
		while (pos < d->ncarry) {
			r = step(d, tmp + pos, tn - pos);
			if (!r) {
				/* Still cut (a tiny piece): keep it all. */
				memmove(d->carry, tmp + pos, tn - pos);
				d->ncarry = tn - pos;
				return;
			}
			pos += r;
		}
		off = pos - d->ncarry;
		d->ncarry = 0;
	}
	while (off < n) {
		r = step(d, b + off, n - off);
		if (!r) {
			memcpy(d->carry, b + off, n - off);
			d->ncarry = n - off;
			return;
		}
		off += r;
	}
}

void mess_spe_finish(struct mess_spe_dec *d)
{
	if (d->ncarry)
		d->st.truncated++;
	d->ncarry = 0;
	if (d->cur.have)
		d->st.unterminated++;
	emit(d);
	d->in_skip = 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long mess_spe_hex(const char *s, size_t n, uint8_t *out, size_t max,
		  size_t *bad)
{
	size_t i = 0, k = 0;

	while (i < n) {
		char c = s[i];

		if (c == '#') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',') {
			i++;
			continue;
		}
		if (i + 1 >= n || hexval(c) < 0 || hexval(s[i + 1]) < 0) {
			if (bad)
				*bad = hexval(c) < 0 ? i : i + 1;
			return -EINVAL;
		}
		if (k >= max)
			return -E2BIG;
		out[k++] = (uint8_t)(hexval(c) << 4 | hexval(s[i + 1]));
		i += 2;
	}
	return (long)k;
}
