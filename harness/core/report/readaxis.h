/* SPDX-License-Identifier: MIT */
/* What a set's read share is (readaxis.c). */
#ifndef MESS_CORE_READAXIS_H
#define MESS_CORE_READAXIS_H

#include <stddef.h>

/*
 * 1 where the read share of the set in dir is the traffic generator's
 * read fraction R, not the memory's read share (Mess on AMD's data
 * fabric), with what it is said in why (one line); 0 where it is the
 * memory's.
 */
int mess_read_axis_generator(const char *dir, char *why, size_t len);

#endif
