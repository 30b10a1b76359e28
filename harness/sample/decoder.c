// SPDX-License-Identifier: MIT
/*
 * One sample of any backend into what the sweep accumulates (sample/
 * backend.h): the existing decoders of lib/ do the work (SPE packets,
 * IBS registers, perf's data source); this file only says, per backend,
 * which decoded field is the time, the address, the level and the latency.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/datasrc.h"
#include "mess/ibs.h"
#include "mess/perfdata.h"
#include "mess/spe.h"
#include "sample/backend.h"

/* This x86 machine's family and model, for the IBS errata. */
static void read_family(unsigned *family, unsigned *model)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	*family = *model = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && (!*family || !*model)) {
		if (!strncmp(line, "cpu family", 10))
			sscanf(strchr(line, ':') + 1, "%u", family);
		else if (!strncmp(line, "model\t", 6))
			sscanf(strchr(line, ':') + 1, "%u", model);
	}
	fclose(f);
}

/* SPE's short levels as the sweep names them. */
static void spe_emit(const struct mess_spe_rec *r, void *ctx)
{
	struct sample_decoder *d = ctx;
	struct sample_rec o = { 0 };
	const char *level = NULL, *name;

	d->records++;
	o.time = r->have & MESS_SPE_HAVE_TS ? r->ts : 0;
	o.addr = r->have & MESS_SPE_HAVE_VA ? r->vaddr : 0;
	if (r->have & MESS_SPE_HAVE_DS)
		mess_spe_source(d->midr, r->ds, &level, &name);
	o.level = level;
	o.has_lat = !!(r->have & MESS_SPE_HAVE_TOTAL);
	o.lat = r->lat_total;
	d->emit(&o, d->ctx);
}

int sample_decoder_init(struct sample_decoder *d, const struct sample_backend *b,
			sample_emit_fn *emit, void *ctx)
{
	memset(d, 0, sizeof(*d));
	d->b = b;
	d->emit = emit;
	d->ctx = ctx;
	if (!strcmp(b->name, "spe")) {
		d->spe = malloc(sizeof(struct mess_spe_dec));
		if (!d->spe)
			return -1;
		mess_spe_init(d->spe, spe_emit, d);
		/* This machine's: SPE data sources are implementation defined. */
		d->midr = sample_file_u64("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", 0);
	}
	if (!strcmp(b->name, "ibs"))
		read_family(&d->family, &d->model);
	return 0;
}

/* The level word of perf's data source ("L3 hit" -> "L3"). */
static const char *datasrc_level(uint64_t v, char *buf, size_t len)
{
	mess_datasrc_level(v, buf, len);
	buf[strcspn(buf, " ")] = 0;
	return *buf ? buf : NULL;
}

void sample_decode_sample(struct sample_decoder *d, const struct mess_perf_sample *s)
{
	struct sample_rec o = { .time = s->time };
	static __thread char lvl[48];

	if (s->have & MESS_PS_RAW) {			/* IBS */
		struct mess_ibs_op op;
		const char *level, *name;

		if (mess_ibs_op_decode(s->raw, s->raw_size, d->family, d->model, &op)) {
			d->undecodable++;
			return;
		}
		mess_ibs_source(&op, &level, &name);
		o.level = level && *level ? level : NULL;
		o.addr = op.lin_valid ? op.lin_addr : 0;
		o.has_lat = op.ld && op.dc_miss;
		o.lat = op.dc_miss_lat;
	} else if (s->have & MESS_PS_DATA_SRC) {	/* PEBS */
		o.addr = s->have & MESS_PS_ADDR ? s->addr : 0;
		o.level = datasrc_level(s->data_src, lvl, sizeof(lvl));
		o.has_lat = !!(s->have & (MESS_PS_WEIGHT | MESS_PS_WEIGHT_STRUCT)) &&
			    (s->weight_var1 || s->weight);
		o.lat = s->have & MESS_PS_WEIGHT_STRUCT ? s->weight_var1 : (uint32_t)s->weight;
	}
	/* cpu-clock: the time alone; no address, no level, no latency. */
	d->records++;
	d->emit(&o, d->ctx);
}

void sample_decode_aux(struct sample_decoder *d, const uint8_t *b, size_t n)
{
	if (d->spe)
		mess_spe_feed(d->spe, b, n);
}

void sample_decoder_finish(struct sample_decoder *d)
{
	if (d->spe) {
		struct mess_spe_dec *sd = d->spe;

		mess_spe_finish(sd);
		d->undecodable += sd->st.resyncs + sd->st.truncated;
		free(d->spe);
		d->spe = NULL;
	}
}
