/* SPDX-License-Identifier: MIT */
/* A port without noise sites yet (its noise_sites.h includes this): every
 * mode but none is refused with -EOPNOTSUPP (kernels/c/noise.c). */
#ifndef MESS_NOISE_NONE_H
#define MESS_NOISE_NONE_H

#define MESS_NOISE_SUPPORTED		0
#define MESS_NOISE_BYTES_fp_add64	0
#define MESS_NOISE_BYTES_int64_add	0
#define MESS_NOISE_BYTES_l1_ld64	0
#define MESS_NOISE_BYTES_memory_ld64	0

#endif
