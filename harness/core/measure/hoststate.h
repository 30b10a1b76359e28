/* SPDX-License-Identifier: MIT */
/*
 * The host's state, seen from the measuring core (issue 32).  A shared
 * host flips a guest between states every 0.1 s to a few seconds, and
 * neither steal time nor lost time sees it: on one Xeon guest the timer's
 * fixed cost read 27 ns in one state and 33-42 ns in the other, DRAM 126
 * and 138-148 ns, the L2's hits 2-4.5 % and 0.1 % of a chase's loads.
 * Two small probes, cheap enough to run beside every measuring window, see
 * it where the memory's own figures cannot:
 *   - the fixed cost of the timed chase's two timer reads, on a chain
 *     resident in L1 (the curves' distribution windows subtract it);
 *   - the latency of a chain resident in L2 (a state that takes the L2
 *     from the core, e.g. a busy SMT sibling on the host, moves it).
 * Each probe records what it measured, so a window is judged against the
 * median of the run so far, not against one figure from one moment.
 * Users: the curves' distribution windows (curves/tail/tail.c) and absorb's
 * pairs (absorb/measure.c: a pair whose two runs straddle a change is
 * measured again).
 */
#ifndef MESS_HOSTSTATE_H
#define MESS_HOSTSTATE_H

#include <stddef.h>
#include <stdint.h>


/* The L1 chain: 64 lines, 4 KiB at 64 B a line, in any L1 data cache. */
#define MESS_HOSTSTATE_L1_LINES 64
/* The L2 chain: a quarter of the L2, at most 256 KiB, and at least four
 * times the L1 data cache (else there is no L2 to tell apart: NAN). */
#define MESS_HOSTSTATE_L2_MAX (256u << 10)
/* A cost probe: the median of 3 repeats of 1000 timed batches beside 8
 * untimed iterations (about 0.1 ms); an L2 probe: one pass to bring the
 * chain back (a DRAM chase evicts it), then the median of 3 repeats of
 * one pass each. */
#define MESS_HOSTSTATE_COST_BATCHES 1000
#define MESS_HOSTSTATE_COST_REPEATS 3
#define MESS_HOSTSTATE_COST_UN_ITERS 8
#define MESS_HOSTSTATE_L2_REPEATS 3

/* Two probes this far apart say the state changed between them: the fixed
 * cost by more than 8 ns (a state flip moves it 6-15 ns; on a quiet Xeon
 * guest, session 16, the probes a pair apart wandered 25-40 ns, and a
 * pair's ratio strayed from its point's median alike anywhere from 0 to
 * 8 ns apart, 1.5-1.75 % typically, against 2.9 % past 8 ns: at 1 ns,
 * 75 % of absorb's pairs were measured again for nothing), the L2
 * latency by more than 2 ns (quiet: within 0.1 ns of its median; the L2
 * taken: 24-120 ns; pairs past 2 ns strayed 3.9 %).  User: absorb's
 * pairs. */
#define MESS_HOSTSTATE_COST_APART_NS 8.0
#define MESS_HOSTSTATE_L2_APART_NS 2.0

/* One look at the state: the fixed cost (ns a batch) and the L2 latency
 * (ns a load; NAN without an L2 chain). */
struct mess_hoststate_probe {
	double cost_ns, l2_ns;
};

struct mess_hoststate {
	double tick_ns;		/* the timer's */
	uint64_t n;		/* loads a timed batch */
	size_t line;		/* bytes a chain's line */
	uint64_t *bins;		/* the timed chase's histogram, scratch */
	void *l1_buf, *l1_p;
	void *l2_buf, *l2_p;
	uint32_t l2_lines;	/* 0: no L2 chain */
	/* the first, longer measurement on the L1 chain */
	double l1_ns, l1_batch_ticks;
	/* everything each probe measured, in order: ns a batch, ns a load */
	double *costs, *l2s;
	size_t ncosts, nl2s, capcosts, capl2s;
};

/*
 * The chains (line bytes a line, from seed), the first fixed cost
 * (repeats x batches timed batches: a longer figure than the windows')
 * and the first L2 latency.  l1_bytes, l2_bytes: the core's L1 data and
 * L2 caches, 0 when unknown (the L2 chain is then 128 KiB).  0 or -errno.
 */
int mess_hoststate_open(struct mess_hoststate *s, double tick_ns, uint64_t n,
			size_t line, uint64_t l1_bytes, uint64_t l2_bytes,
			uint64_t seed, unsigned repeats, uint64_t batches);
/* The fixed cost now, ns a batch; recorded. */
double mess_hoststate_cost(struct mess_hoststate *s);
/* A burst on the L1 chain for a window's own fixed cost (core/tail/
 * window.h): one untimed pass that brings the chain back into L1, then
 * batches timed batches of n loads into bins (not recorded). */
void mess_hoststate_l1_burst(struct mess_hoststate *s, uint64_t batches,
			     uint64_t *bins);
/* The L1 chain's latency, ns a load, as the last cost probe measured it. */
double mess_hoststate_l1_ns(const struct mess_hoststate *s);
/* The L2 chain's latency now, ns a load; recorded; NAN without a chain. */
double mess_hoststate_l2(struct mess_hoststate *s);
/* Both, recorded. */
void mess_hoststate_probe(struct mess_hoststate *s,
			  struct mess_hoststate_probe *p);
/* 1 when the state changed between probes a and b (the rules above; a NAN
 * figure is not judged), else 0. */
int mess_hoststate_apart(const struct mess_hoststate_probe *a,
			 const struct mess_hoststate_probe *b);
/* The median of the costs recorded so far; NAN before any. */
double mess_hoststate_cost_median(const struct mess_hoststate *s);
/* The L2 latency a window is judged by: the 10th percentile of the probes
 * so far, the core's L2 in the host's best state (a state that takes the
 * L2 from the core only slows it: on the AMD guest, probes of 24-82 ns for
 * seconds, against 3.4-3.5 ns; a median pulled up by such seconds would
 * judge the quiet windows after them changed).  NAN before any. */
double mess_hoststate_l2_ref(const struct mess_hoststate *s);
void mess_hoststate_close(struct mess_hoststate *s);

#endif
