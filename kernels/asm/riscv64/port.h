/* SPDX-License-Identifier: MIT */
/*
 * What the C code needs of riscv64 (kernels/README.md lists what a port
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

#define MESS_ISA "riscv64"

/* The generator variants, X(name, description), the default first (the
 * widest available wins); every variant on every ISA, one that cannot run
 * says why (mess_port_variant_unavailable). */
#define MESS_VARIANTS(X)                                                   \
	X(wide, "64-byte RVV vle64/vse64, LMUL=4 (needs V)")              \
	X(vec, "16-byte RVV vle64/vse64, LMUL=1 (needs V)")               \
	X(scalar, "8-byte ld/sd, base RV64GC")                            \
	X(wide_nt, "non-temporal stores (not on this ISA)")                \
	X(nt, "non-temporal stores (not on this ISA)")

/* Why a variant of this width (bytes a memory operation; 0 unknown)
 * cannot run on this CPU, NULL when it can. */
static inline const char *mess_port_variant_unavailable(unsigned width)
{
	/* Linux (>= 6.5) reports V only for RVV 1.0 it saves and restores:
	 * hardware V under an older kernel traps like no V at all. */
	if (width >= 16 && !(getauxval(AT_HWCAP) & (1UL << ('V' - 'A'))))
		return "CPU lacks RVV (no V in AT_HWCAP)";
	return NULL;
}

/* The timer chase_timed.S reads: its instruction and where its rate is
 * stated (mess_port.h). */
#define MESS_PORT_TIMER_NAME "rdtime"
#define MESS_PORT_RATE_HOW MESS_PORT_RATE_BE32_FILE
#define MESS_PORT_RATE_PATH "/proc/device-tree/cpus/timebase-frequency"
#define MESS_PORT_RATE_KEY ((const char *)0)
/* No second statement of the rate. */
#include "mess_port_rate1.h"

/* The core PMU as the kernel names it in /sys/bus/event_source/devices
 * (name prefixes: cpu, the SBI PMU driver's), and the /proc/cpuinfo flag
 * a guest shows (none on RISC-V): core/pmu/pmu.c says "no core PMU" and
 * why from them. */
#define MESS_PORT_CORE_PMUS "cpu"
#define MESS_PORT_GUEST_FLAG ((const char *)0)

/* sqrt as the one instruction it is (kernels/c/haccmk.c says why). */
static inline double mess_port_sqrt(double s)
{
#if defined(__riscv_d)
	__asm__("fsqrt.d %0, %0" : "+f"(s));
	return s;
#else
	return sqrt(s);
#endif
}

#endif
