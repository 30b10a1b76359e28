/* SPDX-License-Identifier: MIT */
/*
 * The GPU kernels (kernels/ptx/), as the host sees them: the PTX texts,
 * NUL-terminated, embedded by kernels/ptx/embed.S for the driver to JIT;
 * their entry names and parameter lists; and the bytes a generator
 * iteration moves, declared here beside the text as gen.S's are beside
 * its code.  tests/gpu-ptx.py checks every figure below against the PTX
 * (the entries, their parameters in order, the loop's ld/st widths and
 * trip count), and harness/curves/gpu/ passes exactly these parameters.
 */
#ifndef MESS_PTX_H
#define MESS_PTX_H

extern const char mess_ptx_chase[];	/* kernels/ptx/chase.ptx */
extern const char mess_ptx_gen[];	/* kernels/ptx/gen.ptx */

/* (u64 start, u64 loads, u64 out): out[4] of u64 (chase.ptx says what) */
#define MESS_PTX_CHASE "mess_chase"		/* %globaltimer, ns */
#define MESS_PTX_CHASE_CLK "mess_chase_clk"	/* %clock64, SM cycles */
#define MESS_PTX_CHASE_PARAMS "u64 u64 u64"
#define MESS_PTX_CHASE_LOAD_BYTES 8	/* ld.global.cg.u64 */

/* (u64 ld, u64 st, u64 mask, u32 stores, u32 spin, u32 every, u64 stop,
 * u64 count) */
#define MESS_PTX_GEN "mess_gen"
#define MESS_PTX_GEN_PARAMS "u64 u64 u64 u32 u32 u32 u64 u64"
#define MESS_PTX_GEN_OPS 100		/* operations per iteration */
#define MESS_PTX_GEN_LD_BYTES 16	/* ld.global.v4.u32 */
#define MESS_PTX_GEN_ST_BYTES 16	/* st.global.v4.u32 */
#define MESS_PTX_GEN_SPIN_EVERY 4	/* slots a pass, one spin after it */
/* An iteration of s % stores: s stores and 100 - s loads (Bresenham). */
#define MESS_PTX_GEN_RD_BYTES(s) ((MESS_PTX_GEN_OPS - (s)) * MESS_PTX_GEN_LD_BYTES)
#define MESS_PTX_GEN_WR_BYTES(s) ((s) * MESS_PTX_GEN_ST_BYTES)
#define MESS_PTX_GEN_WARP 32		/* lanes per count[] slot */

#endif
