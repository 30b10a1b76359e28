/* SPDX-License-Identifier: MIT */
/* The ISA this binary was built for, from the compiler (never the host). */
#ifndef MESS_ISA_H
#define MESS_ISA_H

#if defined(__x86_64__)
#define MESS_ISA "x86_64"
#elif defined(__aarch64__)
#define MESS_ISA "aarch64"
#elif defined(__riscv) && __riscv_xlen == 64
#define MESS_ISA "riscv64"
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define MESS_ISA "ppc64le"
#else
#error "no kernels for this ISA: add kernels/asm/<isa>/ and a registry entry"
#endif

#endif
