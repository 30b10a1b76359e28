// SPDX-License-Identifier: MIT
#include "curves/registry.h"

#include <stddef.h>
#include <string.h>
#if defined(__riscv) || defined(__powerpc64__)
#include <sys/auxv.h>
#endif
#if defined(__powerpc64__)
#ifndef PPC_FEATURE_HAS_VSX
#define PPC_FEATURE_HAS_VSX 0x00000080
#endif
#ifndef PPC_FEATURE2_ARCH_3_1
#define PPC_FEATURE2_ARCH_3_1 0x00040000
#endif
#endif

#define MESS_VARIANT_ROW(n, d) { .name = #n, .table = mess_gen_##n, .desc = d },
const struct mess_variant mess_variants[] = { MESS_VARIANTS(MESS_VARIANT_ROW) };
const unsigned mess_nvariants = sizeof(mess_variants) / sizeof(mess_variants[0]);

const char *mess_variant_unavailable(const struct mess_variant *v)
{
	if (!v->table[0].fn)
		return "not implemented for " MESS_ISA;
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (v->table[0].width == 64 && !__builtin_cpu_supports("avx512f"))
		return "CPU lacks AVX-512F";
	if (v->table[0].width >= 32 && !__builtin_cpu_supports("avx2"))
		return "CPU lacks AVX2";
#elif defined(__riscv)
	/* Linux (>= 6.5) reports V only for RVV 1.0 it saves and restores:
	 * hardware V under an older kernel traps like no V at all. */
	if (v->table[0].width >= 16 &&
	    !(getauxval(AT_HWCAP) & (1UL << ('V' - 'A'))))
		return "CPU lacks RVV (no V in AT_HWCAP)";
#elif defined(__powerpc64__)
	/* gcc's ppc64le default is POWER8, so the harness itself already
	 * assumes VSX; this catches only a CPU or emulator reporting none. */
	if (v->table[0].width >= 16 &&
	    !(getauxval(AT_HWCAP) & PPC_FEATURE_HAS_VSX))
		return "CPU lacks VSX (no PPC_FEATURE_HAS_VSX in AT_HWCAP)";
	if (v->table[0].width == 32 &&
	    !(getauxval(AT_HWCAP2) & PPC_FEATURE2_ARCH_3_1))
		return "CPU lacks ISA 3.1 (POWER10) lxvp/stxvp";
#endif
	return NULL;
}

const struct mess_variant *mess_variant_find(const char *name)
{
	for (unsigned i = 0; i < mess_nvariants; i++)
		if (!strcmp(mess_variants[i].name, name))
			return &mess_variants[i];
	return NULL;
}

const struct mess_variant *mess_variant_default(void)
{
	for (unsigned i = 0; i < mess_nvariants; i++)
		if (!mess_variant_unavailable(&mess_variants[i]))
			return &mess_variants[i];
	return NULL;
}
