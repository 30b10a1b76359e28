// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/pmu/corectr.h"

const char *const mess_cc_names[MESS_CC_N] = {
	"cycles", "instructions", "dtlb_walk_cycles", "stlb_hits",
};

static void add_status(struct mess_corectr *cc, const char *s)
{
	size_t n = strlen(cc->status);

	snprintf(cc->status + n, sizeof(cc->status) - n, "%s%s",
		 n ? "; " : "", s);
}

int mess_corectr_open(struct mess_corectr *cc)
{
	const char *core, *ev[MESS_CC_N];
	char why[512];
	int n = 0, err;

	memset(cc, 0, sizeof(*cc));
	for (int i = 0; i < MESS_CC_N; i++)
		cc->c[i].fd = -1;
	err = mess_pmu_pfm_init(why, sizeof(why));
	if (err) {
		add_status(cc, why);
		return -EOPNOTSUPP;
	}
	core = mess_pmu_core_name();
	if (!core) {
		add_status(cc, "no core PMU: libpfm4 recognises none on this CPU (a virtual machine without a virtual PMU has none; ask for it to be passed through, e.g. KVM -cpu host,pmu=on)");
		return -EOPNOTSUPP;
	}
	/* libpfm4 names a PMU from CPUID; the kernel may have none. */
	if (mess_pmu_core_missing(why, sizeof(why))) {
		add_status(cc, why);
		return -EOPNOTSUPP;
	}
	cc->set = mess_core_events_for(core);
	if (!cc->set) {
		snprintf(why, sizeof(why),
			 "core PMU %s has no row in mess_core_event_sets[] (lib/pmu/counters.c): add one", core);
		add_status(cc, why);
		return -EOPNOTSUPP;
	}
	ev[MESS_CC_CYCLES] = cc->set->cycles;
	ev[MESS_CC_INSTR] = cc->set->instructions;
	ev[MESS_CC_WALK] = cc->set->walk_cycles;
	ev[MESS_CC_STLB] = cc->set->stlb_hits;
	/* Events that fail for the same reason are said once:
	 * "cycles (CYCLES_NOT_IN_HALT), instructions (...): <reason>". */
	char reason[MESS_CC_N][512], named[MESS_CC_N][160];
	int done[MESS_CC_N] = { 0 };

	for (int i = 0; i < MESS_CC_N; i++) {
		const char *r;

		snprintf(named[i], sizeof(named[i]), "%s (%.120s)", mess_cc_names[i],
			 ev[i] ? ev[i] : "-");
		if (!ev[i]) {
			snprintf(reason[i], sizeof(reason[i]),
				 "%s has no such event", core);
			continue;
		}
		if (!mess_counter_open(&cc->c[i], ev[i], 0, -1, -1, why,
				       sizeof(why))) {
			n++;
			done[i] = 1;
			continue;
		}
		/* mess_pmu_why begins with the event: keep the reason. */
		r = strncmp(why, ev[i], strlen(ev[i])) ? why : why + strlen(ev[i]);
		snprintf(reason[i], sizeof(reason[i]), "%s",
			 r[0] == ':' && r[1] == ' ' ? r + 2 : r);
	}
	for (int i = 0; i < MESS_CC_N; i++) {
		char line[768];
		int at;

		if (done[i])
			continue;
		at = snprintf(line, sizeof(line), "%s", named[i]);
		for (int j = i + 1; j < MESS_CC_N; j++)
			if (!done[j] && !strcmp(reason[i], reason[j])) {
				at += snprintf(line + at, sizeof(line) - (size_t)at,
					       ", %s", named[j]);
				done[j] = 1;
				if ((size_t)at >= sizeof(line))
					at = (int)sizeof(line) - 1;
			}
		snprintf(line + at, sizeof(line) - (size_t)at, ": %s", reason[i]);
		add_status(cc, line);
	}
	if (!n) {
		cc->set = NULL;
		return -EOPNOTSUPP;
	}
	return 0;
}

void mess_corectr_close(struct mess_corectr *cc)
{
	for (int i = 0; i < MESS_CC_N; i++)
		mess_counter_close(&cc->c[i]);
	cc->set = NULL;
}

int mess_corectr_snap(const struct mess_corectr *cc, struct mess_corectr_snap *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < MESS_CC_N; i++) {
		int err;

		if (cc->c[i].fd < 0)
			continue;
		err = mess_counter_read(&cc->c[i], &s->v[i]);
		if (err)
			return err;
	}
	s->ok = 1;
	return 0;
}

double mess_corectr_delta(const struct mess_corectr *cc,
			  const struct mess_corectr_snap *a,
			  const struct mess_corectr_snap *b, int i)
{
	struct mess_count d;
	double v, f;
	enum mess_count_state st;

	if (cc->c[i].fd < 0 || !a->ok || !b->ok ||
	    mess_count_delta(&a->v[i], &b->v[i], &d))
		return NAN;
	st = mess_count_scale(&d, &v, &f);
	return st == MESS_COUNT_OK || st == MESS_COUNT_SCALED ? v : NAN;
}
