/* SPDX-License-Identifier: MIT */
/* The noise sites of riscv64: none yet (kernels/c/noise_asm.h says what a
 * site is). */
#ifndef MESS_NOISE_SITES_H
#define MESS_NOISE_SITES_H

#include "noise_none.h"

#endif
