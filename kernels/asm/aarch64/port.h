/* SPDX-License-Identifier: MIT */
/*
 * What the C code needs of aarch64 (kernels/README.md lists what a port
 * provides; docs/adding-an-isa.md how to add one).  The Makefile puts this
 * folder on the include path for the ISA it builds for, so a port missing
 * a piece fails the build, never falls back to another ISA's.
 */
#ifndef MESS_PORT_H
#define MESS_PORT_H

#include <math.h>
#include <stddef.h>

#include "mess_port.h"

#define MESS_ISA "aarch64"

/* The generator variants, X(name, description), the default first (the
 * widest available wins); every variant on every ISA, one that cannot run
 * says why (mess_port_variant_unavailable). */
#define MESS_VARIANTS(X)                                                   \
	X(wide, "32-byte NEON ldp q/stp q pairs")                          \
	X(vec, "16-byte NEON ldr q/str q")                                 \
	X(scalar, "8-byte ldr x/str x")                                    \
	X(wide_nt, "non-temporal stores (not on this ISA yet)")            \
	X(nt, "non-temporal stores (not on this ISA yet)")

/* Why a variant of this width (bytes a memory operation; 0 unknown)
 * cannot run on this CPU, NULL when it can. */
static inline const char *mess_port_variant_unavailable(unsigned width)
{
	(void)width;	/* NEON is in every ARMv8-A core */
	return NULL;
}

/* The timer chase_timed.S reads: its instruction and where its rate is
 * stated (mess_port.h). */
#define MESS_PORT_TIMER_NAME "isb; mrs cntvct_el0"
#define MESS_PORT_RATE_HOW MESS_PORT_RATE_REGISTER
#define MESS_PORT_RATE_PATH "cntfrq_el0"
#define MESS_PORT_RATE_KEY ((const char *)0)
/* No second statement of the rate. */
#include "mess_port_rate1.h"

/* The core PMU as the kernel names it in /sys/bus/event_source/devices
 * (name prefixes: it is named after the core, armv8_pmuv3_0,
 * armv8_cortex_a72, armv9_...), and the /proc/cpuinfo flag a guest shows
 * (none on arm64): core/pmu/pmu.c says "no core PMU" and why from them. */
#define MESS_PORT_CORE_PMUS "armv8_", "armv9_"
#define MESS_PORT_GUEST_FLAG ((const char *)0)

/* sqrt as the one instruction it is (kernels/c/haccmk.c says why). */
static inline double mess_port_sqrt(double s)
{
	__asm__("fsqrt %d0, %d0" : "+w"(s));
	return s;
}

#endif
