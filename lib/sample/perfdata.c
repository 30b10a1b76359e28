// SPDX-License-Identifier: MIT
/*
 * perf.data files and the perf record stream (include/mess/perfdata.h).
 * Layouts from the kernel's uapi perf_event.h and perf's documented file
 * format.  Every read goes through a cursor that refuses to pass its end.
 */
#include "mess/parse.h"
#include "mess/perfdata.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cur {
	const uint8_t *p;
	size_t n, off;
	int bad;
};

static uint64_t rd(const uint8_t *p, unsigned k)
{
	uint64_t v = 0;

	while (k--)
		v = v << 8 | p[k];
	return v;
}

static const uint8_t *take(struct cur *c, uint64_t k)
{
	const uint8_t *p;

	if (c->bad || c->n - c->off < k) {
		c->bad = 1;
		c->off = c->n;
		return NULL;
	}
	p = c->p + c->off;
	c->off += (size_t)k;
	return p;
}

static uint64_t get(struct cur *c, unsigned k)
{
	const uint8_t *p = take(c, k);

	return p ? rd(p, k) : 0;
}

/* Skip nr items of k bytes, refusing a count that overflows. */
static void skip_n(struct cur *c, uint64_t nr, uint64_t k)
{
	if (k && nr > (c->n - c->off) / k) {
		c->bad = 1;
		c->off = c->n;
		return;
	}
	take(c, nr * k);
}

static unsigned popcount64(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

/* read_format bits */
enum { RF_ENABLED = 1, RF_RUNNING = 2, RF_ID = 4, RF_GROUP = 8, RF_LOST = 16 };
#define BRANCH_HW_INDEX (UINT64_C(1) << 17)

int mess_perf_sample(const struct mess_perf_attr *a, const uint8_t *body,
		     size_t n, uint16_t misc, struct mess_perf_sample *s)
{
	struct cur c = { body, n, 0, 0 };
	uint64_t t = a->sample_type, v;

	memset(s, 0, sizeof(*s));
	s->attr = a;
	s->have = t;
	s->misc = misc;
	if (t & ~(uint64_t)MESS_PS_KNOWN)
		return -EBADMSG;
	if (t & MESS_PS_IDENTIFIER)
		s->id = get(&c, 8);
	if (t & MESS_PS_IP)
		s->ip = get(&c, 8);
	if (t & MESS_PS_TID) {
		s->pid = (uint32_t)get(&c, 4);
		s->tid = (uint32_t)get(&c, 4);
	}
	if (t & MESS_PS_TIME)
		s->time = get(&c, 8);
	if (t & MESS_PS_ADDR)
		s->addr = get(&c, 8);
	if (t & MESS_PS_ID)
		s->id = get(&c, 8);
	if (t & MESS_PS_STREAM_ID)
		s->stream_id = get(&c, 8);
	if (t & MESS_PS_CPU) {
		s->cpu = (uint32_t)get(&c, 4);
		get(&c, 4);
	}
	if (t & MESS_PS_PERIOD)
		s->period = get(&c, 8);
	if (t & MESS_PS_READ) {
		uint64_t rf = a->read_format;
		unsigned per = 8 * (1 + !!(rf & RF_ID) + !!(rf & RF_LOST));

		if (rf & RF_GROUP) {
			v = get(&c, 8);
			skip_n(&c, !!(rf & RF_ENABLED) + !!(rf & RF_RUNNING), 8);
			skip_n(&c, v, per);
		} else {
			skip_n(&c, 1 + !!(rf & RF_ENABLED) + !!(rf & RF_RUNNING) +
				   !!(rf & RF_ID) + !!(rf & RF_LOST), 8);
		}
	}
	if (t & MESS_PS_CALLCHAIN)
		skip_n(&c, get(&c, 8), 8);
	if (t & MESS_PS_RAW) {
		s->raw_size = (uint32_t)get(&c, 4);
		s->raw = take(&c, s->raw_size);
	}
	if (t & MESS_PS_BRANCH_STACK) {
		v = get(&c, 8);
		if (a->branch_sample_type & BRANCH_HW_INDEX)
			get(&c, 8);
		skip_n(&c, v, 24);
	}
	if (t & MESS_PS_REGS_USER && get(&c, 8))
		skip_n(&c, popcount64(a->regs_user), 8);
	if (t & MESS_PS_STACK_USER) {
		v = get(&c, 8);
		skip_n(&c, v, 1);
		if (v)
			get(&c, 8);
	}
	if (t & (MESS_PS_WEIGHT | MESS_PS_WEIGHT_STRUCT)) {
		s->weight = get(&c, 8);
		s->weight_var1 = (uint32_t)s->weight;
		s->weight_var2 = (uint16_t)(s->weight >> 32);
		s->weight_var3 = (uint16_t)(s->weight >> 48);
	}
	if (t & MESS_PS_DATA_SRC)
		s->data_src = get(&c, 8);
	if (t & MESS_PS_TRANSACTION)
		s->transaction = get(&c, 8);
	if (t & MESS_PS_REGS_INTR && get(&c, 8))
		skip_n(&c, popcount64(a->regs_intr), 8);
	if (t & MESS_PS_PHYS_ADDR)
		s->phys_addr = get(&c, 8);
	if (t & MESS_PS_CGROUP)
		s->cgroup = get(&c, 8);
	if (t & MESS_PS_DATA_PAGE_SIZE)
		s->data_page_size = get(&c, 8);
	if (t & MESS_PS_CODE_PAGE_SIZE)
		s->code_page_size = get(&c, 8);
	if (t & MESS_PS_AUX) {
		s->aux_size = get(&c, 8);
		s->aux = take(&c, s->aux_size);
	}
	return c.bad ? -EBADMSG : 0;
}

/* The attr of a sample: by its id when the file has several. */
static const struct mess_perf_attr *attr_of(const struct mess_perf_file *f,
					    const uint8_t *body, size_t n,
					    struct mess_perf_stats *st)
{
	uint64_t t, id, pos;

	if (!f->nattrs)
		return NULL;
	if (f->nattrs == 1)
		return &f->attrs[0];
	t = f->attrs[0].sample_type;
	if (t & MESS_PS_IDENTIFIER)
		pos = 0;
	else if (t & MESS_PS_ID)
		pos = 8 * (!!(t & MESS_PS_IP) + !!(t & MESS_PS_TID) +
			   !!(t & MESS_PS_TIME) + !!(t & MESS_PS_ADDR));
	else
		return &f->attrs[0];
	if (n < pos + 8)
		return &f->attrs[0];
	id = rd(body + pos, 8);
	for (size_t i = 0; i < f->nattrs; i++)
		for (uint64_t k = 0; k < f->attrs[i].nids; k++)
			if (rd(f->attrs[i].ids + 8 * k, 8) == id)
				return &f->attrs[i];
	st->unmatched_ids++;
	return &f->attrs[0];
}

int mess_perf_walk(const struct mess_perf_file *f, const uint8_t *buf,
		   size_t len, int file_mode, const struct mess_perf_ops *ops,
		   void *ctx, struct mess_perf_stats *st)
{
	size_t off = 0;

	while (off < len) {
		const uint8_t *h = buf + off, *body = h + 8;
		uint32_t type;
		uint16_t misc, size;
		size_t bn;

		if (len - off < 8)
			goto bad;
		type = (uint32_t)rd(h, 4);
		misc = (uint16_t)rd(h + 4, 2);
		size = (uint16_t)rd(h + 6, 2);
		if (size < 8 || size > len - off)
			goto bad;
		bn = size - 8u;
		st->records++;
		switch (type) {
		case MESS_PR_SAMPLE: {
			const struct mess_perf_attr *a = attr_of(f, body, bn, st);
			struct mess_perf_sample s;

			if (a && !mess_perf_sample(a, body, bn, misc, &s)) {
				st->samples++;
				if (ops && ops->sample)
					ops->sample(&s, ctx);
			} else {
				st->bad_samples++;
			}
			break;
		}
		case MESS_PR_LOST:
			if (bn >= 16) {
				st->lost_records++;
				st->lost += rd(body + 8, 8);
			}
			break;
		case MESS_PR_LOST_SAMPLES:
			if (bn >= 8)
				st->lost_samples += rd(body, 8);
			break;
		case MESS_PR_THROTTLE:
			st->throttle++;
			break;
		case MESS_PR_UNTHROTTLE:
			st->unthrottle++;
			break;
		case MESS_PR_AUX:
			if (bn >= 24) {
				uint64_t flags = rd(body + 16, 8);

				st->aux++;
				st->aux_bytes += rd(body + 8, 8);
				st->aux_truncated += !!(flags & MESS_AUX_TRUNCATED);
				st->aux_collision += !!(flags & MESS_AUX_COLLISION);
				st->aux_partial += !!(flags & MESS_AUX_PARTIAL);
				st->aux_overwrite += !!(flags & MESS_AUX_OVERWRITE);
				if (ops && ops->aux)
					ops->aux(rd(body, 8), rd(body + 8, 8), flags, ctx);
			}
			break;
		case MESS_PR_AUXTRACE_INFO:
			if (bn >= 4)
				st->auxtrace_type = (uint32_t)rd(body, 4);
			break;
		case MESS_PR_AUXTRACE: {
			struct mess_perf_auxtrace a;

			if (bn < 40)
				goto bad;
			a.size = rd(body, 8);
			a.offset = rd(body + 8, 8);
			a.reference = rd(body + 16, 8);
			a.idx = (uint32_t)rd(body + 24, 4);
			a.tid = (uint32_t)rd(body + 28, 4);
			a.cpu = (uint32_t)rd(body + 32, 4);
			st->auxtrace++;
			if (file_mode) {
				/* The data follows the record, outside its size. */
				if (a.size > len - off - size)
					goto bad;
				st->auxtrace_bytes += a.size;
				if (ops && ops->auxtrace)
					ops->auxtrace(&a, h + size, (size_t)a.size, ctx);
				off += (size_t)a.size;
			}
			break;
		}
		default:
			st->other++;
			break;
		}
		off += size;
	}
	return 0;
bad:
	st->malformed++;
	st->malformed_at = off;
	return -EBADMSG;
}

/* A feature string: u32 length, then that many bytes (NUL padded). */
static void feat_str(struct cur *c, char *out, size_t outlen)
{
	uint64_t k = get(c, 4);
	const uint8_t *p = take(c, k);
	size_t i;

	out[0] = '\0';
	if (!p)
		return;
	for (i = 0; i < k && i + 1 < outlen && p[i]; i++)
		out[i] = (char)p[i];
	out[i] = '\0';
}

enum { FEAT_ARCH = 6, FEAT_CPUID = 9, FEAT_PMU_MAPPINGS = 16 };

/* Names of the fixed PMU types, for files without PMU_MAPPINGS. */
static const char *const fixed_pmus[] = {
	"hardware", "software", "tracepoint", "hw_cache", "raw", "breakpoint",
};

static void read_features(struct mess_perf_file *f, const uint8_t *bitmap)
{
	uint64_t at = f->data_off + f->data_size;
	unsigned k = 0;

	for (unsigned b = 0; b < 256; b++) {
		struct cur sec, c;
		uint64_t off, size;

		if (!(bitmap[b / 8] & (1u << (b % 8))))
			continue;
		sec = (struct cur){ f->buf, f->len, 0, 0 };
		if (at > f->len || 16 * (uint64_t)k > f->len - at)
			return;
		sec.off = (size_t)(at + 16 * (uint64_t)k++);
		off = get(&sec, 8);
		size = get(&sec, 8);
		if (sec.bad || off > f->len || size > f->len - off)
			continue;
		c = (struct cur){ f->buf + off, (size_t)size, 0, 0 };
		if (b == FEAT_ARCH) {
			feat_str(&c, f->arch, sizeof(f->arch));
		} else if (b == FEAT_CPUID) {
			feat_str(&c, f->cpuid, sizeof(f->cpuid));
		} else if (b == FEAT_PMU_MAPPINGS) {
			uint64_t nr = get(&c, 4);

			for (uint64_t i = 0; i < nr && i < MESS_PERF_MAX_PMUS && !c.bad; i++) {
				uint32_t type = (uint32_t)get(&c, 4);
				char name[32];

				feat_str(&c, name, sizeof(name));
				for (size_t a = 0; !c.bad && a < f->nattrs; a++)
					if (f->attrs[a].type == type)
						snprintf(f->attrs[a].pmu, sizeof(f->attrs[a].pmu),
							 "%s", name);
			}
		}
	}
}

int mess_perf_open(const uint8_t *buf, size_t len, struct mess_perf_file *f,
		   char *err, size_t errlen)
{
	struct cur c = { buf, len, 0, 0 };
	uint64_t hsize, attr_size, aoff, asz, n;
	const uint8_t *bitmap;

	memset(f, 0, sizeof(*f));
	f->buf = buf;
	f->len = len;
	if (len >= 8 && !memcmp(buf, "2ELIFREP", 8))
		return mess_fail(err, errlen, -EOPNOTSUPP,
				 "a big-endian perf.data: not supported");
	if (len < 16 || memcmp(buf, "PERFILE2", 8))
		return mess_fail(err, errlen, -EINVAL,
				 "not a perf.data (no PERFILE2 magic)");
	c.off = 8;
	hsize = get(&c, 8);
	if (hsize == 16)
		return mess_fail(err, errlen, -EOPNOTSUPP,
				 "a pipe-mode perf.data: not supported (record with -o FILE)");
	if (hsize < 104 || len < 104)
		return mess_fail(err, errlen, -EINVAL,
				 "perf.data header of %llu bytes: too short",
				 (unsigned long long)hsize);
	attr_size = get(&c, 8);
	aoff = get(&c, 8);
	asz = get(&c, 8);
	f->data_off = get(&c, 8);
	f->data_size = get(&c, 8);
	get(&c, 8);
	get(&c, 8);
	bitmap = take(&c, 32);
	if (c.bad || aoff > len || asz > len - aoff || f->data_off > len ||
	    f->data_size > len - f->data_off)
		return mess_fail(err, errlen, -EINVAL,
				 "perf.data sections past the end of the file (%zu bytes)",
				 len);
	if (asz && (attr_size < 16 + 64 || attr_size > 4096))
		return mess_fail(err, errlen, -EINVAL,
				 "perf.data attribute entries of %llu bytes: not allowed",
				 (unsigned long long)attr_size);
	n = asz ? asz / attr_size : 0;
	for (uint64_t i = 0; i < n && f->nattrs < MESS_PERF_MAX_ATTRS; i++) {
		const uint8_t *e = buf + aoff + i * attr_size;
		struct mess_perf_attr *a = &f->attrs[f->nattrs];
		uint64_t have = attr_size - 16, io, isz;

		a->type = (uint32_t)rd(e, 4);
		a->size = (uint32_t)rd(e + 4, 4);
		if (a->size && a->size < have)
			have = a->size;
		a->config = rd(e + 8, 8);
		a->period = rd(e + 16, 8);
		a->sample_type = rd(e + 24, 8);
		a->read_format = rd(e + 32, 8);
		a->flags = rd(e + 40, 8);
		a->branch_sample_type = have >= 80 ? rd(e + 72, 8) : 0;
		a->regs_user = have >= 88 ? rd(e + 80, 8) : 0;
		a->regs_intr = have >= 104 ? rd(e + 96, 8) : 0;
		io = rd(e + attr_size - 16, 8);
		isz = rd(e + attr_size - 8, 8);
		if (io <= len && isz <= len - io) {
			a->ids = buf + io;
			a->nids = isz / 8;
		}
		if (a->type < sizeof(fixed_pmus) / sizeof(fixed_pmus[0]))
			snprintf(a->pmu, sizeof(a->pmu), "%s", fixed_pmus[a->type]);
		f->nattrs++;
	}
	read_features(f, bitmap);
	return 0;
}

uint64_t mess_perf_midr(const struct mess_perf_file *f)
{
	if (strncmp(f->cpuid, "0x", 2))
		return 0;
	return strtoull(f->cpuid + 2, NULL, 16);
}

int mess_perf_x86(const struct mess_perf_file *f, char *vendor, size_t vlen,
		  unsigned *family, unsigned *model)
{
	const char *comma = strchr(f->cpuid, ',');
	unsigned fam = 0, mod = 0;

	*family = *model = 0;
	if (!comma || sscanf(comma + 1, "%u,%u", &fam, &mod) != 2)
		return -ENOENT;
	snprintf(vendor, vlen, "%.*s", (int)(comma - f->cpuid), f->cpuid);
	*family = fam;
	*model = mod;
	return 0;
}
