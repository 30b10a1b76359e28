/* SPDX-License-Identifier: MIT */
/* What an export must know of a set beyond its curves (setmeta.c). */
#ifndef MESS_EXPORT_SETMETA_H
#define MESS_EXPORT_SETMETA_H

#include <stddef.h>

#include "mess/curve.h"

/* The memory channels of the set in dir, its source said in src; 0 and
 * why in src where none says it. */
int export_set_channels(const char *dir, char *src, size_t len);

/* The memory's read share, %, of a generator issuing r_pct % loads whose
 * stores allocate: 100 / (2 - R). */
double export_memory_share(double r_pct);

/* Every curve and point of f moved to that share. */
void export_map_memory_axis(struct mess_family *f);

#endif
