/* SPDX-License-Identifier: MIT */
/*
 * What the C code needs of ppc64le (kernels/README.md lists what a port
 * provides; docs/adding-an-isa.md how to add one).  The Makefile puts this
 * folder on the include path for the ISA it builds for, so a port missing
 * a piece fails the build, never falls back to another ISA's.
 */
#ifndef MESS_PORT_H
#define MESS_PORT_H

#include <math.h>
#include <stddef.h>

#include "mess_port.h"

#include <sys/auxv.h>
#ifndef PPC_FEATURE_HAS_VSX
#define PPC_FEATURE_HAS_VSX 0x00000080
#endif
#ifndef PPC_FEATURE2_ARCH_3_1
#define PPC_FEATURE2_ARCH_3_1 0x00040000
#endif

#define MESS_ISA "ppc64le"

/* The generator variants, X(name, description), the default first (the
 * widest available wins); every variant on every ISA, one that cannot run
 * says why (mess_port_variant_unavailable). */
#define MESS_VARIANTS(X)                                                   \
	X(wide, "32-byte lxvp/stxvp pairs (needs POWER10)")               \
	X(vec, "16-byte VSX lxvd2x/stxvd2x (POWER8)")                     \
	X(scalar, "8-byte ld/std, base ISA")                              \
	X(wide_nt, "non-temporal stores (not on this ISA)")                \
	X(nt, "non-temporal stores (not on this ISA)")

/* Why a variant of this width (bytes a memory operation; 0 unknown)
 * cannot run on this CPU, NULL when it can. */
static inline const char *mess_port_variant_unavailable(unsigned width)
{
	/* gcc's ppc64le default is POWER8, so the harness itself already
	 * assumes VSX; this catches only a CPU or emulator reporting none. */
	if (width >= 16 && !(getauxval(AT_HWCAP) & PPC_FEATURE_HAS_VSX))
		return "CPU lacks VSX (no PPC_FEATURE_HAS_VSX in AT_HWCAP)";
	if (width == 32 && !(getauxval(AT_HWCAP2) & PPC_FEATURE2_ARCH_3_1))
		return "CPU lacks ISA 3.1 (POWER10) lxvp/stxvp";
	return NULL;
}

/* The timer chase_timed.S reads: its instruction and where its rate is
 * stated (mess_port.h). */
#define MESS_PORT_TIMER_NAME "mftb"
#define MESS_PORT_RATE_HOW MESS_PORT_RATE_KEY_LINE
#define MESS_PORT_RATE_PATH "/proc/cpuinfo"
#define MESS_PORT_RATE_KEY "timebase"
/* No second statement of the rate. */
#include "mess_port_rate1.h"

/* The core PMU as the kernel names it in /sys/bus/event_source/devices
 * (name prefixes: cpu), and the /proc/cpuinfo flag a guest shows (none:
 * POWER names its platform instead): core/pmu/pmu.c says "no core PMU"
 * and why from them. */
#define MESS_PORT_CORE_PMUS "cpu"
#define MESS_PORT_GUEST_FLAG ((const char *)0)

/* sqrt as the one instruction it is (kernels/c/haccmk.c says why). */
static inline double mess_port_sqrt(double s)
{
	__asm__("fsqrt %0, %0" : "+d"(s));
	return s;
}

#endif
