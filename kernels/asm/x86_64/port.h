/* SPDX-License-Identifier: MIT */
/*
 * What the C code needs of x86_64 (kernels/README.md lists what a port
 * provides; docs/adding-an-isa.md how to add one).  The Makefile puts this
 * folder on the include path for the ISA it builds for, so a port missing
 * a piece fails the build, never falls back to another ISA's.
 */
#ifndef MESS_PORT_H
#define MESS_PORT_H

#include <math.h>
#include <stddef.h>

#include "mess_port.h"

#include <cpuid.h>

#define MESS_ISA "x86_64"

/* The generator variants, X(name, description), the default first (the
 * widest available wins); every variant on every ISA, one that cannot run
 * says why (mess_port_variant_unavailable). */
#define MESS_VARIANTS(X)                                                   \
	X(wide, "64-byte AVX-512 loads/stores")                            \
	X(vec, "32-byte AVX2 loads/stores")                                \
	X(wide_nt, "64-byte AVX-512 loads, non-temporal vmovntpd stores") \
	X(nt, "32-byte AVX2 loads, non-temporal vmovntpd stores")     \
	X(scalar, "8-byte 64-bit integer mov loads/stores")

/* Why a variant of this width (bytes a memory operation; 0 unknown)
 * cannot run on this CPU, NULL when it can. */
static inline const char *mess_port_variant_unavailable(unsigned width)
{
	__builtin_cpu_init();
	if (width == 64 && !__builtin_cpu_supports("avx512f"))
		return "CPU lacks AVX-512F";
	if (width >= 32 && !__builtin_cpu_supports("avx2"))
		return "CPU lacks AVX2";
	return NULL;
}

/* The timer chase_timed.S reads: its instruction and where its rate is
 * stated (mess_port.h). */
#define MESS_PORT_TIMER_NAME "lfence; rdtsc"
#define MESS_PORT_RATE_HOW MESS_PORT_RATE_KHZ_FILE
#define MESS_PORT_RATE_PATH "/sys/devices/system/cpu/cpu0/tsc_freq_khz"
#define MESS_PORT_RATE_KEY ((const char *)0)
/* how the rate's second statement is named where it is used */
#define MESS_PORT_RATE2_NAME "CPUID leaf 0x15"
#define MESS_PORT_RATE2_SOURCE "cpuid leaf 0x15"

/* A second statement of the rate where the ISA has one (x86's CPUID leaf
 * 0x15), in Hz; NAN where there is none. */
static inline double mess_port_timer_hz2(void)
{
	/* TSC = crystal x EBX / EAX, where the crystal (ECX) is stated;
	 * hypervisors often leave it 0. */
	unsigned a, b, c, d;

	if (__get_cpuid_max(0, NULL) >= 0x15) {
		__cpuid(0x15, a, b, c, d);
		if (a && b && c)
			return (double)c * b / a;
	}
	return NAN;
}

/* The core PMU as the kernel names it in /sys/bus/event_source/devices
 * (name prefixes: cpu, or cpu_core and cpu_atom on a hybrid CPU), and the
 * /proc/cpuinfo flag a guest shows: core/pmu/pmu.c says "no core PMU"
 * and why from them. */
#define MESS_PORT_CORE_PMUS "cpu", "cpu_core", "cpu_atom"
#define MESS_PORT_GUEST_FLAG " hypervisor"

/* sqrt as the one instruction it is (kernels/c/haccmk.c says why). */
static inline double mess_port_sqrt(double s)
{
	/* In place: sqrtsd merges into its destination's upper half. */
	__asm__("sqrtsd %0, %0" : "+x"(s));
	return s;
}

#endif
