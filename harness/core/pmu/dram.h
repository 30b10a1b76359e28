/* SPDX-License-Identifier: MIT */
/*
 * DRAM traffic from the memory controllers' counters: the first family of
 * mess_dram_families[] whose kernel PMUs this machine has and lets us open
 * (or the families named), one counter pair per controller instance and
 * package, read as bytes.  Used by the curves (per point), mess profile
 * (per interval) and mess counters (what opens).
 */
#ifndef MESS_DRAM_H
#define MESS_DRAM_H

#include <stddef.h>

#include "core/pmu/pmu.h"
#include "core/machine/topo.h"

#define MESS_DRAM_MAX_CH 512
#define MESS_DRAM_MAX_PKG 64

/* One event on one controller instance: a family may list several
 * events per direction (AMD DF: one per channel), all summed. */
enum { MESS_DRAM_RD, MESS_DRAM_WR };

struct mess_dram_chan {
	struct mess_counter c;
	int dir;		/* MESS_DRAM_RD (or the total, rw_combined) / _WR */
	int package;
};

struct mess_dram {
	const struct mess_dram_family *fam;	/* NULL: nothing counts */
	int nch;
	struct mess_dram_chan ch[MESS_DRAM_MAX_CH];
	double rd_bpc, wr_bpc;		/* bytes per count */
	int npkg;			/* packages counted */
	int pkgs[MESS_DRAM_MAX_PKG];
	char status[1024];		/* what counts, or what was tried and why not */
};

struct mess_dram_snap {
	struct mess_count v[MESS_DRAM_MAX_CH];
};

/* Bytes moved between two snaps, per package and summed; NAN where the
 * counters give no figure (never 0): rd and wr both NAN for a family that
 * counts reads and writes together (tot only), wr NAN for one that counts
 * reads only.  run_frac: the least running/enabled over the counters (1:
 * no multiplexing). */
struct mess_dram_bytes {
	double rd, wr, tot, run_frac;
	int npkg;
	double pkg_rd[MESS_DRAM_MAX_PKG], pkg_wr[MESS_DRAM_MAX_PKG];
	int scaled;			/* some counter was multiplexed */
};

/*
 * want: "auto" (the first family that opens) or a comma-separated list of
 * family names (mess_dram_families[].name).  pkgs/npkgs: the packages to
 * count (npkgs 0: all).  Returns 0 when a family counts, -EOPNOTSUPP when
 * none can (d->status says what was tried and why, with the fix), -EINVAL
 * for a name not in the table (one line in d->status).
 */
/*
 * A --NAME list of memory-controller families (mess_dram_families[]):
 * the list rule of every option (mess_parse_items), so a repeated or
 * empty item is bad input, not a family that later "cannot count".  0,
 * or -EINVAL with one line in err; `also` opens what else is allowed
 * ("auto, off, or").
 */
int mess_dram_check_list(const char *name, const char *s, const char *also,
			 char *err, size_t errlen);
int mess_dram_open(struct mess_dram *d, struct mess_topo *t, const char *want,
		   const int *pkgs, int npkgs);
void mess_dram_close(struct mess_dram *d);
int mess_dram_snap(const struct mess_dram *d, struct mess_dram_snap *s);
void mess_dram_bytes(const struct mess_dram *d, const struct mess_dram_snap *a,
		     const struct mess_dram_snap *b, struct mess_dram_bytes *out);
/* Bytes per count of a sysfs event from its scale and unit ("MiB", "MB",
 * "B", "Bytes", or none: the scale is bytes); NAN for an unknown unit. */
double mess_dram_unit_bytes(double scale, const char *unit);

#endif
