/* SPDX-License-Identifier: MIT */
/* The ISA this binary was built for, from the compiler (never the host):
 * its port, kernels/asm/<isa>/port.h, on the include path the Makefile
 * sets for the ISA it builds for. */
#ifndef MESS_ISA_H
#define MESS_ISA_H

#include "port.h"

#endif
