/* SPDX-License-Identifier: MIT */
/*
 * The C view of the hand-written kernels in kernels/asm/<isa>/, whose
 * assembly includes the constants from here (no mirrored numbers).  Every ISA
 * exports exactly these symbols with these prototypes; an ISA that lacks a
 * variant still exports its table, with every entry's fn left NULL, so the
 * harness registry never has gaps.
 */
#ifndef MESS_KERNELS_H
#define MESS_KERNELS_H


/* Dependent loads per iteration of mess_chase: loop overhead is one
 * decrement and one branch per this many loads (< 0.1 %). */
#define MESS_CHASE_UNROLL 1024

/* The timed chase's histogram: the layout of include/mess/hist.h (the
 * kernels include nothing of lib/, so the harness asserts the two agree).
 * Bin of a delta v: shift = msb(v | 2^S) - S, bin = shift * 2^S + (v >> shift);
 * the word after the last bin holds the sum of the deltas. */
#define MESS_CHASE_HIST_SUB_BITS 5
#define MESS_CHASE_HIST_NBINS ((64 - MESS_CHASE_HIST_SUB_BITS + 1) << MESS_CHASE_HIST_SUB_BITS)

/* Memory operations per generator iteration, and mixes from 0 % to 100 %
 * stores in steps of 2 %. */
#define MESS_GEN_OPS 100
#define MESS_GEN_MIX_STEP 2
#define MESS_GEN_NMIXES (MESS_GEN_OPS / MESS_GEN_MIX_STEP + 1)
/* The nop spin runs after every this many memory operations. */
#define MESS_GEN_SPIN_EVERY 4

/* The count that tells mess_c2c_pong_* to return: all ones as a uint64_t,
 * odd (so the responder looks at it) and never reached by a count. */
#define MESS_C2C_STOP (-1)

/* The rest is C only: the assembly includes the constants above. */
#ifndef __ASSEMBLER__
#include <stdint.h>

/*
 * Follow the chain starting at p for iters * MESS_CHASE_UNROLL dependent
 * loads (each line holds the address of the next); returns where it stopped.
 */
void *mess_chase(void *p, uint64_t iters);

/*
 * The same chain, timed: batches x n dependent loads; the ISA's timer is
 * read before and after every n loads (ordered against them), and the
 * delta in ticks is counted into bins[bin(delta)] (the layout above) and
 * added to bins[MESS_CHASE_HIST_NBINS].  Nothing else is touched, no
 * division, no call.  Returns where it stopped.  Timers:
 *   x86_64  lfence; rdtsc; lfence   at the TSC rate
 *   aarch64 isb; mrs cntvct_el0     at cntfrq_el0
 *   riscv64 rdtime                  at the device tree's timebase
 *   ppc64le mftb                    at /proc/cpuinfo's timebase
 */
void *mess_chase_timed(void *p, uint64_t batches, uint64_t n, uint64_t *bins);
/* That timer, read with the same ordering, and its rate as the hardware
 * states it (aarch64: cntfrq_el0; 0 where the ISA has no such register
 * and the harness must ask the kernel or calibrate). */
uint64_t mess_timer_now(void);
uint64_t mess_timer_hz(void);

/*
 * One traffic generator kernel: iters iterations, each of MESS_GEN_OPS
 * vector memory operations of which `stores` are stores (placed by
 * mess_mix_is_store) and the rest loads.  Loads walk ld sequentially and are
 * XOR-folded into *cksum (the XOR of every 64-bit word loaded, so tests can
 * prove which bytes were read); stores write the 64-bit pattern to st
 * sequentially.  After every MESS_GEN_SPIN_EVERY operations a spin of `nops`
 * nop instructions runs (0: none, maximum pressure).  ld and st must be
 * aligned to the kernel's width.
 */
typedef void mess_gen_fn(const void *ld, void *st, uint64_t iters,
			 uint64_t nops, uint64_t pattern, uint64_t *cksum);

/*
 * Per-iteration traffic, declared in the assembly beside each kernel (the
 * harness accounts bandwidth from it, never from a formula of its own).
 * Layout is shared with the assembly: keep the static assert below.
 */
struct mess_gen_kernel {
	mess_gen_fn *fn;	/* NULL: variant not built for this ISA */
	uint32_t store_pct;	/* issued store share, % */
	uint32_t width;		/* bytes per memory operation */
	uint32_t loads;		/* per iteration */
	uint32_t stores;	/* per iteration */
	uint32_t bytes_loaded;	/* per iteration */
	uint32_t bytes_stored;	/* per iteration */
	uint32_t nontemporal;	/* stores bypass the caches (no write-allocate) */
	uint32_t reserved;
};
_Static_assert(sizeof(struct mess_gen_kernel) == 40, "layout shared with asm");

/* One table per variant, MESS_GEN_NMIXES entries ordered by store_pct.
 *  scalar:  64-bit integer loads/stores of the base ISA, 8 B (runs on any
 *           CPU of the ISA: RV64GC, POWER8, ...)
 *  vec:     the ISA's base vector width (x86_64 AVX2 32 B, aarch64 ldr q
 *           16 B, riscv64 RVV 16 B, ppc64le VSX 16 B)
 *  wide:    the widest (x86_64 AVX-512 64 B, aarch64 ldp q 32 B, riscv64
 *           RVV LMUL=4 64 B, ppc64le POWER10 lxvp/stxvp 32 B)
 *  nt:      base width, non-temporal stores (x86_64 vmovntpd)
 *  wide_nt: widest, non-temporal stores (x86_64 AVX-512 vmovntpd) */
extern const struct mess_gen_kernel mess_gen_scalar[MESS_GEN_NMIXES];
extern const struct mess_gen_kernel mess_gen_vec[MESS_GEN_NMIXES];
extern const struct mess_gen_kernel mess_gen_wide[MESS_GEN_NMIXES];
extern const struct mess_gen_kernel mess_gen_nt[MESS_GEN_NMIXES];
extern const struct mess_gen_kernel mess_gen_wide_nt[MESS_GEN_NMIXES];

/*
 * The core-to-core ping-pong of `mess c2c`, in assembly so that what is
 * timed is the same instructions on every build and compiler: two threads
 * pinned to two PUs hand one 64-bit count back and forth in one line, and
 * each wait is one transfer of the line between their caches.  The
 * initiator (ping), for each of `rounds` round trips, writes the odd count
 * v (start + 1, start + 3, ...) and spins until it reads v + 1; it returns
 * the last count read, start + 2 rounds.  start must be even.  The
 * responder (pong) spins until it reads an odd count v and writes v + 1,
 * until it reads MESS_C2C_STOP (which someone else writes once the
 * initiator is done); it returns the number of counts it answered.  So
 * neither moves on before it has seen the other's write: no hand-over is
 * lost or made twice, and the line ends at start + 2 rounds.
 *   _store: release stores, acquire loads (x86_64 mov; aarch64 stlr/ldar;
 *           ppc64le lwsync; std and ld; isync; riscv64 fence rw,w; sd and
 *           ld; fence r,rw)
 *   _xchg:  the count written by an atomic exchange, acquire-release
 *           (x86_64 xchg, implicitly locked; aarch64 ldaxr/stlxr, the
 *           ARMv8.0 baseline, not LSE; ppc64le ldarx/stdcx.; riscv64
 *           amoswap.d.aqrl); the loads as _store's
 * Nothing is timed here: the harness times a call of ping (a batch).
 */
uint64_t mess_c2c_ping_store(volatile uint64_t *line, uint64_t rounds, uint64_t start);
uint64_t mess_c2c_pong_store(volatile uint64_t *line);
uint64_t mess_c2c_ping_xchg(volatile uint64_t *line, uint64_t rounds, uint64_t start);
uint64_t mess_c2c_pong_xchg(volatile uint64_t *line);

/*
 * Bresenham placement of s stores among MESS_GEN_OPS operations: operation
 * i is a store iff floor((i+1)s/100) > floor(i s/100).  The assembly
 * templates evaluate the same expression with assembler arithmetic.
 */
static inline int mess_mix_is_store(unsigned s, unsigned i)
{
	return (i + 1) * s / MESS_GEN_OPS != i * s / MESS_GEN_OPS;
}

#endif /* __ASSEMBLER__ */

#endif
