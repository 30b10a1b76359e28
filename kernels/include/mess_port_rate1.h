/* SPDX-License-Identifier: MIT */
/* A port whose ISA states the timer's rate in one place only (every ISA
 * but x86, which has CPUID leaf 0x15 beside the kernel's figure): its
 * port.h includes this for the second statement's pieces. */
#ifndef MESS_PORT_RATE1_H
#define MESS_PORT_RATE1_H

#include <math.h>

#define MESS_PORT_RATE2_NAME ((const char *)0)
#define MESS_PORT_RATE2_SOURCE ((const char *)0)

/* The second statement of the rate, in Hz: none. */
static inline double mess_port_timer_hz2(void)
{
	return NAN;
}

#endif
