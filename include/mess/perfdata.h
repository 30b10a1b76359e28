/* SPDX-License-Identifier: MIT */
/*
 * perf.data files and perf's record stream (the kernel's
 * include/uapi/linux/perf_event.h, tools/perf/Documentation/
 * perf.data-file-format.txt).  Pure parsing of bytes in memory: the same
 * record walker reads a file's data section and the records copied out of
 * a live ring buffer (harness/core/pmu/pmu_ring.c).  Every length is checked
 * against the bytes given before it is used; a malformed record stops the
 * walk with a count and an error, never a read past the end.
 */
#ifndef MESS_PERFDATA_H
#define MESS_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

/* perf_event_attr.sample_type bits. */
enum {
	MESS_PS_IP = 1u << 0,
	MESS_PS_TID = 1u << 1,
	MESS_PS_TIME = 1u << 2,
	MESS_PS_ADDR = 1u << 3,
	MESS_PS_READ = 1u << 4,
	MESS_PS_CALLCHAIN = 1u << 5,
	MESS_PS_ID = 1u << 6,
	MESS_PS_CPU = 1u << 7,
	MESS_PS_PERIOD = 1u << 8,
	MESS_PS_STREAM_ID = 1u << 9,
	MESS_PS_RAW = 1u << 10,
	MESS_PS_BRANCH_STACK = 1u << 11,
	MESS_PS_REGS_USER = 1u << 12,
	MESS_PS_STACK_USER = 1u << 13,
	MESS_PS_WEIGHT = 1u << 14,
	MESS_PS_DATA_SRC = 1u << 15,
	MESS_PS_IDENTIFIER = 1u << 16,
	MESS_PS_TRANSACTION = 1u << 17,
	MESS_PS_REGS_INTR = 1u << 18,
	MESS_PS_PHYS_ADDR = 1u << 19,
	MESS_PS_AUX = 1u << 20,
	MESS_PS_CGROUP = 1u << 21,
	MESS_PS_DATA_PAGE_SIZE = 1u << 22,
	MESS_PS_CODE_PAGE_SIZE = 1u << 23,
	MESS_PS_WEIGHT_STRUCT = 1u << 24,
	MESS_PS_KNOWN = (1u << 25) - 1,
};

/* Record types. */
enum {
	MESS_PR_MMAP = 1, MESS_PR_LOST = 2, MESS_PR_COMM = 3, MESS_PR_EXIT = 4,
	MESS_PR_THROTTLE = 5, MESS_PR_UNTHROTTLE = 6, MESS_PR_FORK = 7,
	MESS_PR_READ = 8, MESS_PR_SAMPLE = 9, MESS_PR_MMAP2 = 10,
	MESS_PR_AUX = 11, MESS_PR_ITRACE_START = 12, MESS_PR_LOST_SAMPLES = 13,
	MESS_PR_AUXTRACE_INFO = 70, MESS_PR_AUXTRACE = 71,
};

/* PERF_RECORD_AUX flags. */
enum {
	MESS_AUX_TRUNCATED = 0x1,
	MESS_AUX_OVERWRITE = 0x2,
	MESS_AUX_PARTIAL = 0x4,
	MESS_AUX_COLLISION = 0x8,
};

/* PERF_RECORD_AUXTRACE_INFO types perf writes. */
enum { MESS_AUXTRACE_ARM_SPE = 4 };

struct mess_perf_attr {
	uint32_t type, size;
	uint64_t config, period, sample_type, read_format, flags;
	uint64_t branch_sample_type, regs_user, regs_intr;
	const uint8_t *ids;	/* the ids of this attr's events (u64 each) */
	uint64_t nids;
	char pmu[32];		/* the PMU of its type, from PMU_MAPPINGS */
};

enum { MESS_PERF_MAX_ATTRS = 64, MESS_PERF_MAX_PMUS = 256 };

struct mess_perf_file {
	const uint8_t *buf;
	size_t len;
	uint64_t data_off, data_size;
	struct mess_perf_attr attrs[MESS_PERF_MAX_ATTRS];
	size_t nattrs;
	char cpuid[128];	/* HEADER_CPUID: "GenuineIntel,6,85,4", "0x...410fd0c0" */
	char arch[32];
};

/*
 * Read the header, the attributes (with their ids) and the features this
 * reader uses (arch, cpuid, PMU mappings) of a file-mode perf.data at
 * buf[0..len).  0; -EINVAL not a perf.data, or damaged (err says where);
 * -EOPNOTSUPP a pipe-mode or big-endian file.
 */
int mess_perf_open(const uint8_t *buf, size_t len, struct mess_perf_file *f,
		   char *err, size_t errlen);

/* The cpuid feature as an Arm MIDR (0 when it is not one), and as an x86
 * vendor, family and model (0 when it is not one). */
uint64_t mess_perf_midr(const struct mess_perf_file *f);
int mess_perf_x86(const struct mess_perf_file *f, char *vendor, size_t vlen,
		  unsigned *family, unsigned *model);

struct mess_perf_sample {
	const struct mess_perf_attr *attr;
	uint64_t have;		/* the attr's sample_type */
	uint16_t misc;
	uint64_t ip, time, addr, id, stream_id, period;
	uint32_t pid, tid, cpu;
	uint64_t weight;	/* WEIGHT, or WEIGHT_STRUCT as one word */
	uint32_t weight_var1;	/* WEIGHT_STRUCT: var1_dw (the latency) */
	uint16_t weight_var2, weight_var3;
	uint64_t data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;
	const uint8_t *raw;	/* RAW: its bytes, after the u32 size */
	uint32_t raw_size;
	const uint8_t *aux;
	uint64_t aux_size;
};

/* Parse the body (after the 8-byte header) of a PERF_RECORD_SAMPLE of
 * attr a.  0, or -EBADMSG when the body is shorter than its fields say or
 * the attr has sample bits this parser does not know. */
int mess_perf_sample(const struct mess_perf_attr *a, const uint8_t *body,
		     size_t n, uint16_t misc, struct mess_perf_sample *s);

struct mess_perf_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu;
};

struct mess_perf_stats {
	uint64_t records, samples, bad_samples, unmatched_ids;
	uint64_t lost_records, lost;		/* PERF_RECORD_LOST: records, events */
	uint64_t lost_samples;			/* PERF_RECORD_LOST_SAMPLES */
	uint64_t throttle, unthrottle;
	uint64_t aux, aux_bytes, aux_truncated, aux_collision, aux_partial,
		 aux_overwrite;
	uint64_t auxtrace, auxtrace_bytes;
	uint32_t auxtrace_type;			/* from AUXTRACE_INFO, 0 none */
	uint64_t other;				/* records of other types */
	uint64_t malformed;			/* records that stopped the walk */
	uint64_t malformed_at;			/* their offset in the bytes */
};

struct mess_perf_ops {
	void (*sample)(const struct mess_perf_sample *s, void *ctx);
	/* file mode: the aux data an AUXTRACE record carries after it */
	void (*auxtrace)(const struct mess_perf_auxtrace *a, const uint8_t *data,
			 size_t n, void *ctx);
	void (*aux)(uint64_t offset, uint64_t size, uint64_t flags, void *ctx);
};

/*
 * Walk the records in buf[0..len), with the attributes of f (its data
 * section, or a ring's records with attrs filled by the caller).  file_mode
 * says that AUXTRACE records carry their data after them (perf.data).
 * Totals are added to *st.  0, or -EBADMSG at a record whose size is
 * below its header or beyond the bytes (st->malformed_at says where; the
 * records before it were delivered).
 */
int mess_perf_walk(const struct mess_perf_file *f, const uint8_t *buf,
		   size_t len, int file_mode, const struct mess_perf_ops *ops,
		   void *ctx, struct mess_perf_stats *st);

#endif
