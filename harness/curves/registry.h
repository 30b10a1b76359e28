/* SPDX-License-Identifier: MIT */
/*
 * The one registry of traffic-generator variants: it drives --variant,
 * --list, --help and the default choice.  Every variant is listed on every
 * ISA; one that cannot run here says why instead of disappearing.
 */
#ifndef MESS_REGISTRY_H
#define MESS_REGISTRY_H

#include "core/isa.h"
#include "mess_kernels.h"

struct mess_variant {
	const char *name;
	const struct mess_gen_kernel *table;	/* MESS_GEN_NMIXES entries */
	const char *desc;
};

/* X(name, description): default first (widest available wins). */
#if defined(__x86_64__)
#define MESS_VARIANTS(X)                                                   \
	X(wide, "64-byte AVX-512 loads/stores")                            \
	X(vec, "32-byte AVX2 loads/stores")                                \
	X(wide_nt, "64-byte AVX-512 loads, non-temporal vmovntpd stores") \
	X(nt, "32-byte AVX2 loads, non-temporal vmovntpd stores")     \
	X(scalar, "8-byte 64-bit integer mov loads/stores")
#elif defined(__aarch64__)
#define MESS_VARIANTS(X)                                                   \
	X(wide, "32-byte NEON ldp q/stp q pairs")                          \
	X(vec, "16-byte NEON ldr q/str q")                                 \
	X(scalar, "8-byte ldr x/str x")                                    \
	X(wide_nt, "non-temporal stores (not on this ISA yet)")            \
	X(nt, "non-temporal stores (not on this ISA yet)")
#elif defined(__riscv) && __riscv_xlen == 64
#define MESS_VARIANTS(X)                                                   \
	X(wide, "64-byte RVV vle64/vse64, LMUL=4 (needs V)")              \
	X(vec, "16-byte RVV vle64/vse64, LMUL=1 (needs V)")               \
	X(scalar, "8-byte ld/sd, base RV64GC")                            \
	X(wide_nt, "non-temporal stores (not on this ISA)")                \
	X(nt, "non-temporal stores (not on this ISA)")
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define MESS_VARIANTS(X)                                                   \
	X(wide, "32-byte lxvp/stxvp pairs (needs POWER10)")               \
	X(vec, "16-byte VSX lxvd2x/stxvd2x (POWER8)")                     \
	X(scalar, "8-byte ld/std, base ISA")                              \
	X(wide_nt, "non-temporal stores (not on this ISA)")                \
	X(nt, "non-temporal stores (not on this ISA)")
#else
#error "no kernels for this ISA: add kernels/asm/<isa>/ and a registry entry"
#endif

extern const struct mess_variant mess_variants[];
extern const unsigned mess_nvariants;

/* NULL if the variant runs on this CPU, else the reason it cannot. */
const char *mess_variant_unavailable(const struct mess_variant *v);
const struct mess_variant *mess_variant_find(const char *name);
/* First available variant in registry order; NULL if none. */
const struct mess_variant *mess_variant_default(void);

#endif
