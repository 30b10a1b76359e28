/* SPDX-License-Identifier: MIT */
/*
 * Arm Statistical Profiling Extension (SPE): the packets of the profiling
 * buffer (Arm ARM, "Statistical Profiling Extension", packet formats) and
 * the records they make up.  Pure decoding: no PMU is touched here.
 *
 * Every packet is read from its header: a short header (one byte) gives the
 * type and the payload size (1 << bits[5:4] bytes for the sized types); an
 * extended header (0b001000xx) prefixes an address or counter header and
 * adds two high bits to its index.  Nothing is read at a fixed offset, so
 * records of any layout (optional packets left out, padding, an
 * implementation's own order) decode the same.
 *
 * A record ends with an END or a TIMESTAMP packet.  A header this decoder
 * does not know is skipped one byte at a time until a known header follows
 * (a resynchronisation, counted once per run of skipped bytes); a packet
 * cut by the end of the data is counted as truncated (or, fed in pieces,
 * completed by the next piece).  Nothing here can read past the bytes
 * given.
 */
#ifndef MESS_SPE_H
#define MESS_SPE_H

#include <stddef.h>
#include <stdint.h>

enum mess_spe_pkt_type {
	MESS_SPE_PAD,
	MESS_SPE_END,
	MESS_SPE_TIMESTAMP,
	MESS_SPE_EVENTS,
	MESS_SPE_DATA_SOURCE,
	MESS_SPE_CONTEXT,
	MESS_SPE_OP_TYPE,
	MESS_SPE_ADDRESS,
	MESS_SPE_COUNTER,
	MESS_SPE_NTYPES
};

/* Address packet indexes (the architecture's). */
enum {
	MESS_SPE_ADDR_PC = 0,		/* the sampled instruction */
	MESS_SPE_ADDR_BR_TGT = 1,	/* branch target */
	MESS_SPE_ADDR_DATA_VA = 2,
	MESS_SPE_ADDR_DATA_PA = 3,
	MESS_SPE_ADDR_PREV_BR = 4,	/* previous branch target */
};

/* Counter packet indexes. */
enum {
	MESS_SPE_CNT_TOTAL = 0,		/* issue to complete */
	MESS_SPE_CNT_ISSUE = 1,		/* dispatch to issue */
	MESS_SPE_CNT_XLAT = 2,		/* translation table walk */
};

/* Op type classes (header index bits [1:0]). */
enum {
	MESS_SPE_OP_OTHER = 0,
	MESS_SPE_OP_LDST = 1,		/* load, store or atomic */
	MESS_SPE_OP_BRANCH = 2,
};

struct mess_spe_pkt {
	enum mess_spe_pkt_type type;
	unsigned index;		/* address/counter/context/op class index */
	unsigned len;		/* header(s) + payload, bytes */
	unsigned payload_len;
	uint64_t payload;
};

/* Decode the packet at b[0..n).  Returns its length (> 0), -EAGAIN when
 * the header is known but n cuts it (or its payload), -EBADMSG when b[0]
 * (or the header an extended header prefixes) is no known header. */
int mess_spe_pkt(const uint8_t *b, size_t n, struct mess_spe_pkt *p);

/* The packet type's name ("ADDRESS"), for reports and tests. */
const char *mess_spe_pkt_name(enum mess_spe_pkt_type t);

/* What a record carried: one bit per field. */
enum {
	MESS_SPE_HAVE_PC = 1 << 0,
	MESS_SPE_HAVE_TGT = 1 << 1,
	MESS_SPE_HAVE_VA = 1 << 2,
	MESS_SPE_HAVE_PA = 1 << 3,
	MESS_SPE_HAVE_TS = 1 << 4,
	MESS_SPE_HAVE_EVENTS = 1 << 5,
	MESS_SPE_HAVE_OP = 1 << 6,
	MESS_SPE_HAVE_DS = 1 << 7,
	MESS_SPE_HAVE_CONTEXT = 1 << 8,
	MESS_SPE_HAVE_TOTAL = 1 << 9,
	MESS_SPE_HAVE_ISSUE = 1 << 10,
	MESS_SPE_HAVE_XLAT = 1 << 11,
	MESS_SPE_HAVE_PREV_BR = 1 << 12,
};

/* Events packet bits (architectural). */
enum {
	MESS_SPE_EV_EXCEPTION = 1 << 0,
	MESS_SPE_EV_RETIRED = 1 << 1,
	MESS_SPE_EV_L1D_ACCESS = 1 << 2,
	MESS_SPE_EV_L1D_REFILL = 1 << 3,
	MESS_SPE_EV_TLB_ACCESS = 1 << 4,
	MESS_SPE_EV_TLB_WALK = 1 << 5,
	MESS_SPE_EV_NOT_TAKEN = 1 << 6,
	MESS_SPE_EV_MISPRED = 1 << 7,
	MESS_SPE_EV_LLC_ACCESS = 1 << 8,
	MESS_SPE_EV_LLC_MISS = 1 << 9,
	MESS_SPE_EV_REMOTE = 1 << 10,
	MESS_SPE_EV_ALIGNMENT = 1 << 11,
};

struct mess_spe_rec {
	unsigned have;		/* MESS_SPE_HAVE_* */
	uint64_t pc, tgt, prev_br;	/* bits [55:0] */
	unsigned pc_el, pc_ns;	/* exception level, non-secure of the PC */
	uint64_t vaddr;		/* bits [55:0]; the tag byte is dropped */
	uint64_t paddr;		/* bits [55:0] */
	uint64_t ts;		/* the timestamp packet, raw */
	uint64_t events;
	uint32_t context;
	unsigned context_el2;	/* CONTEXTIDR_EL2 rather than _EL1 */
	unsigned op_class;	/* MESS_SPE_OP_* */
	unsigned op_sub;	/* the op type payload byte */
	uint16_t ds;		/* data source, implementation defined */
	uint16_t lat_total, lat_issue, lat_xlat;
};

/* The record's op as one word: "load", "store", "branch", "other". */
const char *mess_spe_op_name(const struct mess_spe_rec *r);
/* The load/store subclass: "gp", "simd-fp", "atomic", "sve", ...; "" for
 * other classes. */
const char *mess_spe_op_sub(const struct mess_spe_rec *r);

/*
 * Data sources are implementation defined: decoded by the MIDR of the CPU
 * that recorded them (one table row per MIDR set and code).  *level is a
 * short level ("L1", "L2", "LLC", "DRAM", "remote", "peer-core",
 * "cluster"); the name says more.  Returns 0, or -ENOENT when this table
 * has no row for the MIDR and code: *level and *name are then "unknown".
 */
int mess_spe_source(uint64_t midr, uint16_t ds, const char **level,
		    const char **name);

struct mess_spe_stats {
	uint64_t bytes;		/* fed */
	uint64_t packets;	/* decoded */
	uint64_t by_type[MESS_SPE_NTYPES];
	uint64_t records;	/* emitted */
	uint64_t resyncs;	/* runs of unknown header bytes skipped */
	uint64_t skipped;	/* bytes in those runs */
	uint64_t truncated;	/* packets cut by the end of the data */
	uint64_t unterminated;	/* records cut (a new PC before END/TS) */
};

typedef void (*mess_spe_emit_fn)(const struct mess_spe_rec *r, void *ctx);

/*
 * A streaming decoder: feed it the bytes of one buffer in any pieces (aux
 * chunks, a ring split at its wrap); a packet cut between two pieces is
 * completed by the next one.  mess_spe_finish() ends the stream: a packet
 * still cut is counted truncated, a record with fields but no END or
 * TIMESTAMP is emitted and counted unterminated.
 */
struct mess_spe_dec {
	struct mess_spe_rec cur;
	int in_skip;		/* inside a run of unknown bytes */
	uint8_t carry[32];	/* the start of a packet cut by a piece's end */
	size_t ncarry;
	struct mess_spe_stats st;
	mess_spe_emit_fn emit;
	void *ctx;
};

void mess_spe_init(struct mess_spe_dec *d, mess_spe_emit_fn emit, void *ctx);
void mess_spe_feed(struct mess_spe_dec *d, const uint8_t *b, size_t n);
void mess_spe_finish(struct mess_spe_dec *d);

/* Parse hex text (pairs of hex digits, blanks between bytes, '#' to the
 * end of a line is a comment) into out[0..max).  Returns the byte count,
 * or -EINVAL (a character that is no hex digit; *bad its offset) or
 * -E2BIG. */
long mess_spe_hex(const char *s, size_t n, uint8_t *out, size_t max,
		  size_t *bad);

#endif
