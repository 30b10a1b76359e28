/* SPDX-License-Identifier: MIT */
/* The noise sites of ppc64le (kernels/c/noise_asm.h says what a site is). */
#ifndef MESS_NOISE_SITES_H
#define MESS_NOISE_SITES_H

/* None yet: every mode but none is refused with -EOPNOTSUPP. */
#define MESS_NOISE_SUPPORTED		0
#define MESS_NOISE_BYTES_fp_add64	0
#define MESS_NOISE_BYTES_int64_add	0
#define MESS_NOISE_BYTES_l1_ld64	0
#define MESS_NOISE_BYTES_memory_ld64	0

#endif
