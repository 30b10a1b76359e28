/* SPDX-License-Identifier: MIT */
/*
 * The one registry of traffic-generator variants: it drives --variant,
 * --list, --help and the default choice.  Every variant is listed on every
 * ISA; one that cannot run here says why instead of disappearing.
 */
#ifndef MESS_REGISTRY_H
#define MESS_REGISTRY_H

#include "mess_kernels.h"

struct mess_variant {
	const char *name;
	const struct mess_gen_kernel *table;	/* MESS_GEN_NMIXES entries */
	const char *desc;
};

/* X(name, description): default first (widest available wins). */
#if defined(__x86_64__)
#define MESS_ISA "x86_64"
#define MESS_VARIANTS(X)                                                   \
	X(wide, "64-byte AVX-512 loads/stores")                            \
	X(vec, "32-byte AVX2 loads/stores")                                \
	X(wide_nt, "64-byte AVX-512 loads, non-temporal vmovntpd stores") \
	X(nt, "32-byte AVX2 loads, non-temporal vmovntpd stores")
#elif defined(__aarch64__)
#define MESS_ISA "aarch64"
#define MESS_VARIANTS(X)                                                   \
	X(wide, "32-byte NEON ldp q/stp q pairs")                          \
	X(vec, "16-byte NEON ldr q/str q")                                 \
	X(wide_nt, "non-temporal stores (not on this ISA yet)")            \
	X(nt, "non-temporal stores (not on this ISA yet)")
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
