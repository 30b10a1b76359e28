/* SPDX-License-Identifier: MIT */
/* The pointer-chase chain: a single random cycle over the chased lines. */
#ifndef MESS_CHAIN_H
#define MESS_CHAIN_H

#include <stddef.h>
#include <stdint.h>

/* Reproducible chains from --seed (lib/base/rng.c). */
#include "mess/rng.h"

/*
 * The chase's layout, one for every command that reports an unloaded
 * latency (the curves' --stride and --window defaults, the matrix, the
 * victim of mess interfere), so their figures for a node are one
 * measurement.  Lines 256 B apart: no adjacent-line prefetch serves a
 * load.  One 2 MiB huge page a window: one TLB entry, so no page walk, and
 * its 8192 lines come in an order where the 16 of one 4 KiB page are far
 * apart in time.  Smaller windows let cache hits into the unloaded chase:
 * under 20 ns were 0.8 % of its loads with 256 KiB, 4.4-4.8 % with 64 KiB
 * and 0.010-0.013 % with 2 MiB (AMD Zen 5 guest, 4 runs each), a
 * state-dependent bias of a ns or two (issue 32).
 */
#define MESS_CHAIN_STRIDE 256
#define MESS_CHAIN_WINDOW (2u << 20)
/* Four cycles at 5 GHz: below any L1 hit of any CPU mess runs on.  A
 * chase that reads faster read nothing (a clock glitch, a preempted
 * timer): discarded and counted, never a figure (issue 46).  The floor
 * where no L1 hit was measured on the chase core (a replay). */
#define MESS_L1_FLOOR_NS 0.8
/* The floor where one was: this share of it.  An L1 hit probe lasts a
 * fraction of a millisecond and may run at a lower clock than the
 * windows after it (the governor raising it meanwhile): a load may then
 * take up to a fifth less than the probe read, never less than that. */
#define MESS_L1_FLOOR_SHARE 0.8

/* An L1 hit's latency on the calling thread's core, ns a load: the
 * median of 3 chases of a 64-line chain resident in L1 (3 x 65536 loads:
 * 0.2 ms at 1 ns a load); NAN when its buffer cannot be had. */
double mess_l1_hit_ns(uint64_t seed);
/*
 * The floor under which a chase read nothing: MESS_L1_FLOOR_SHARE x l1_ns
 * (the L1 hit measured on the chase core), else MESS_L1_FLOOR_NS where
 * l1_ns is no figure (NAN).  What it came from into src, for meta.json.
 * MESS_FAULT_L1_NS (ns) stands for the measured L1 hit: the tests' hook.
 */
double mess_l1_floor(double l1_ns, char *src, size_t len);

/* Sattolo's algorithm: next[] becomes one cycle through all n indices. */
void mess_sattolo(uint32_t *next, uint32_t n, struct mess_rng *r);

/*
 * Visit order of the chase: `order` receives all n line indices once.  With
 * per_window == 0 (or >= n) the order is one Sattolo cycle over every line
 * (fully random: TLB misses included).  Otherwise lines are grouped in
 * windows of per_window consecutive lines; the windows are visited in one
 * Sattolo cycle order and the lines of each window in random order, so the
 * chase stays inside one TLB-reach window before moving on.
 */
int mess_chain_order(uint32_t *order, uint32_t n, uint32_t per_window,
		     struct mess_rng *r);

/*
 * Write the chain into buf: line order[i] (at buf + order[i] * stride)
 * points to line order[i+1], the last back to the first.  Returns the
 * start address.
 */
void *mess_chain_link(void *buf, size_t stride, const uint32_t *order,
		      uint32_t n);

/*
 * Both in one: n lines stride bytes apart in buf, in windows of
 * per_window lines (0: one random cycle over all), the order drawn from
 * seed.  The start address, or NULL with *err -errno (0 when made).
 */
void *mess_chain_make(void *buf, size_t stride, uint32_t n,
		      uint32_t per_window, uint64_t seed, int *err);

#endif
