/* SPDX-License-Identifier: MIT */
/*
 * A thread's core counters (cycles, instructions, data-TLB walk cycles,
 * STLB hits) under the names libpfm4 gives them on this microarchitecture
 * (mess_core_event_sets[]): for the chase's latency without page walks and
 * for absorb's exact work counts.  Each event opens on its own, so a PMU
 * without one of them still gives the others.
 */
#ifndef MESS_CORECTR_H
#define MESS_CORECTR_H

#include "core/pmu/pmu.h"

enum { MESS_CC_CYCLES, MESS_CC_INSTR, MESS_CC_WALK, MESS_CC_STLB, MESS_CC_N };

struct mess_corectr {
	const struct mess_core_events *set;	/* NULL: nothing opened */
	struct mess_counter c[MESS_CC_N];	/* fd -1: not counted */
	char status[768];	/* what counts, or why not, per event */
};

struct mess_corectr_snap {
	struct mess_count v[MESS_CC_N];
	int ok;			/* every open counter was read */
};

extern const char *const mess_cc_names[MESS_CC_N];

/* Open on the calling thread (user time only).  0 when at least one event
 * counts; -EOPNOTSUPP with the reason in cc->status otherwise. */
int mess_corectr_open(struct mess_corectr *cc);
void mess_corectr_close(struct mess_corectr *cc);
int mess_corectr_snap(const struct mess_corectr *cc, struct mess_corectr_snap *s);
/* The scaled count of event i between two snaps; NAN when it did not
 * count or either snap failed (never 0, never a delta against nothing). */
double mess_corectr_delta(const struct mess_corectr *cc,
			  const struct mess_corectr_snap *a,
			  const struct mess_corectr_snap *b, int i);

#endif
