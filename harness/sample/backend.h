/* SPDX-License-Identifier: MIT */
/*
 * The backends of `mess sample`, one table row each: where the sampling
 * PMU is (its sysfs definition), how the sampling event and the counting
 * events for accuracy are encoded through the PMU layer (core/pmu/pmu.h), and
 * how a sample is decoded into what the sweep accumulates (data source,
 * latency, address, time).  Attribute construction is a pure function of
 * the options and the sysfs tree ($MESS_SYSFS_PMU_ROOT in tests), so that
 * it is tested against fixtures of machines this one is not.
 */
#ifndef MESS_SAMPLE_BACKEND_H
#define MESS_SAMPLE_BACKEND_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

/* What the user asked of the sampler (the filters a backend honours). */
struct sample_cfg {
	uint64_t period;
	int loads, stores;	/* op filters: both 1 unless --filter says */
	unsigned min_latency;	/* cycles; 0: no latency filter */
	int l3miss;		/* IBS l3missonly, where the PMU has it */
	int physical;		/* ask for physical addresses (privileged) */
};

#define SAMPLE_MAX_EV 2
#define SAMPLE_SPEC_LEN 192

/* What one thread opens for one sampled run. */
struct sample_setup {
	int nsamp;		/* sampling events, one ring each */
	struct perf_event_attr samp[SAMPLE_MAX_EV];
	char samp_spec[SAMPLE_MAX_EV][SAMPLE_SPEC_LEN];
	int ncount;		/* counting events, summed: "counted" */
	char count[SAMPLE_MAX_EV][SAMPLE_SPEC_LEN];
	int aux;		/* the sampling event writes an aux area */
	double period_eff;	/* the period the PMU really uses */
	char pmu[64];		/* the sysfs PMU, "" for cpu-clock */
};

/* One sample as the sweep accumulates it. */
struct sample_rec {
	uint64_t time;		/* perf clock ns (SPE: its timestamp) */
	uint64_t addr;		/* data virtual address, 0 if none */
	const char *level;	/* "L1", "L2", "LLC", "DRAM", "remote", ... or NULL */
	int has_lat;
	uint32_t lat;		/* cycles (SPE total, IBS dc-miss, PEBS weight) */
};

typedef void sample_emit_fn(const struct sample_rec *r, void *ctx);

struct sample_backend {
	const char *name;
	const char *pmu_glob;	/* sysfs PMU that must exist; NULL: none */
	const char *absent;	/* why, when it does not */
	int memory;		/* memory-access sampling (cpu-clock: 0) */
	const char *periods, *quick_periods;
	const char *unit;	/* what a period counts */
	const char *counted_by;	/* the counting events, in words */
	int (*setup)(const struct sample_cfg *c, const char *pmu,
		     struct sample_setup *s, char *err, size_t errlen);
};

extern const struct sample_backend sample_backends[];
extern const size_t sample_nbackends;

const struct sample_backend *sample_backend_find(const char *name);
/* The number (decimal, or hex with 0x) a sysfs file holds; def when the
 * file is absent or holds none. */
uint64_t sample_file_u64(const char *path, uint64_t def);
/* Why b cannot run here (one line), or NULL.  Checks the PMU in sysfs
 * and, for those with one, that the event encodes. */
const char *sample_backend_why(const struct sample_backend *b, char *buf,
			       size_t len);
/* Fill s for b with c: 0, or -errno with err. */
int sample_backend_setup(const struct sample_backend *b,
			 const struct sample_cfg *c, struct sample_setup *s,
			 char *err, size_t errlen);

/*
 * Decoding: a sample record of one of s's events (its index ev), or the
 * bytes of an aux area (SPE), into emit.  The machine identity decoders
 * need (MIDR, family/model) is read once from this machine.
 */
struct sample_decoder {
	const struct sample_backend *b;
	sample_emit_fn *emit;
	void *ctx;
	void *spe;		/* struct mess_spe_dec, SPE only */
	uint64_t midr;
	unsigned family, model;
	uint64_t records, undecodable;
};

int sample_decoder_init(struct sample_decoder *d, const struct sample_backend *b,
			sample_emit_fn *emit, void *ctx);
struct mess_perf_sample;
void sample_decode_sample(struct sample_decoder *d, const struct mess_perf_sample *s);
void sample_decode_aux(struct sample_decoder *d, const uint8_t *b, size_t n);
void sample_decoder_finish(struct sample_decoder *d);

#endif
