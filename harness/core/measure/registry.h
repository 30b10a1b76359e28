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

/* MESS_VARIANTS(X): the port's list (kernels/asm/<isa>/port.h). */

extern const struct mess_variant mess_variants[];
extern const unsigned mess_nvariants;

/* NULL if the variant runs on this CPU, else the reason it cannot. */
const char *mess_variant_unavailable(const struct mess_variant *v);
const struct mess_variant *mess_variant_find(const char *name);
/* First available variant in registry order; NULL if none. */
const struct mess_variant *mess_variant_default(void);

#endif
