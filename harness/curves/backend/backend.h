/* SPDX-License-Identifier: MIT */
/*
 * The curves driver's backends (issue 44): what measures the points is
 * opaque state behind void * and this short table.  The driver
 * (harness/curves/: the sweep, the repeats' rules, the verdict, the
 * files in result/) asks for a load (a store share and an intensity) and
 * gets windows; it never sees a core, a buffer, a counter or a kernel
 * entry.  A backend sees the options (const), its own state and what the
 * driver hands it (struct mess_session); it describes itself to the
 * writers in struct mess_run_desc, and writes its own sections of
 * meta.json and summary.md through json and md.  A GPU, a CXL device or a
 * remote node is one folder and one row of cmd.c's table
 * (docs/adding-a-backend.md).  Hooks that may be NULL say so.
 */
#ifndef MESS_CURVES_BACKEND_H
#define MESS_CURVES_BACKEND_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "core/machine/cpufreq.h"
#include "core/machine/memsel.h"
#include "core/measure/chain.h"
#include "core/measure/gen.h"
#include "core/rundir/rundir.h"
#include "mess/curve.h"
#include "mess/quality.h"

struct mess_cfg {
	char out[PATH_MAX];	/* run directory ("" = results/<host>-<utc>) */
	char resume[PATH_MAX];
	char mixes[512];	/* "default", "all" or a list */
	char cores[512];	/* generator cores; "" = all but the chase core */
	char variant[32];	/* "" = default from the registry */
	int quick;
	int force;	/* --resume with another build (rundir.c) */
	int list;
	int help;
	int no_plots;
	int no_ladder;	/* no LLC_LATENCY_NS (measured/llc.c) */
	int json;	/* summary.json on stdout when done */
	int strict;	/* an INVALID verdict exits 2 */
	uint64_t points;	/* knee: most points per curve; classic: fewest */
	char sweep[16];		/* the sweep's rule: "knee" or "classic" */
	uint64_t repeats;
	int64_t chase_core;
	uint64_t buffer;	/* chase buffer bytes; 0 = auto */
	uint64_t stride;
	uint64_t window;	/* TLB window bytes; 0 = fully random */
	uint64_t gen_bytes;	/* per generator array; 0 = auto */
	double chase_ms;	/* chase time per repeat */
	double peak_gbs;
	double wave_tol;
	char mem_node[MESS_MEMSEL_LEN];	/* "": the chase core's node */
	char mem_place[16];	/* a split's method: "" (auto), weighted, ranges */
	char counters[256];	/* "auto", "off" or memory-controller families */
	int64_t seed;		/* 0..2^63-1: a JSON integer in meta.json */
	uint64_t max_nop;
	/* --replay SET: the sweep against a curve set (replay/); "" none */
	char replay[PATH_MAX];
	double replay_noise, replay_disturb;
	double replay_ghz;	/* --ghz: a set in CPU cycles (PROFET); 0 none */
	int64_t replay_seed;	/* as seed */
	char backend[32];	/* --backend NAME ("" by the options above) */
	/* --device gpu:N: the GPU backend (gpu/); "" this machine */
	char device[32];
	char gpu_timer[16];	/* "globaltimer" (default) or "clock64" */
	/* Resolved after parsing. */
	int nmixes;
	unsigned mix[MESS_GEN_NMIXES];	/* store percentages */
	int gpu;	/* --device's ordinal; -1 none */
};

/* What the sweep asks for: a mix and how hard it presses, never a CPU
 * kernel entry.  intensity is the nop count between groups of memory
 * operations (a replayed set's pause): 0 the heaviest. */
#define MESS_LOAD_IDLE UINT32_MAX	/* store_pct of no load at all */
struct mess_load {
	unsigned store_pct;
	uint64_t intensity;
	/* 1: a point is measured at it next (its windows follow); 0: a
	 * probe, only its bandwidth is wanted */
	int point;
};

/*
 * One raw window of a point, as a backend measured it; the driver
 * (backend/repeats.c) decides which are kept, when there are too few and
 * what the point's latency and trust figures are.  NAN where the backend
 * has no such figure.
 */
struct mess_window {
	double lat_ns;
	double rd_gbs, wr_gbs, bw_gbs;		/* accounted */
	double crd_gbs, cwr_gbs, ctot_gbs;	/* counted */
	double nowalk_ns, run_frac;
	double lost_pct, steal_ms;	/* the worst-hit thread's lost time */
	double ghz0, ghz1;		/* the clock around it */
	const char *who;	/* whose time was lost; NULL: nobody's known */
	int disturbed;
	/* Disturbed windows the backend itself measured again before this
	 * one (the replay's disturbance that lasts the whole point): it is
	 * kept as it is, and counted with them. */
	unsigned redone;
};

/*
 * What the writers say of the run, filled by the backend (open, then
 * start for what only the start knows).  Strings "" where none.
 */
struct mess_run_desc {
	char device[160];	/* meta.json cpu_model: the CPU, "replay of X" */
	char title[320];	/* summary.md's title, before " (partial)" */
	const char *verb;	/* "Measured", "Replayed", "Computed" */
	/* summary.md's "**verb** on HOST (device)WHERE, DATE[, in T]HOW." */
	char where[160], how[320];
	char plot_how[160];	/* the plot title's second line, after the date */
	char banner[PATH_MAX + 160];	/* what the run is not; "" none */
	int nunits;		/* what loads the memory; 0: unloaded only */
	int node;		/* the memory's NUMA node; -1 none */
	unsigned line_bytes;	/* a chase load's bytes */
	int nontemporal;	/* stores bypass the caches (no write-allocate) */
	int chased;		/* 1: a chase ran, its mode is said */
	int read_counted;	/* a counted read share beside the nominal */
	double read_pct[MESS_GEN_NMIXES];	/* each mix's accounted share */
	const char *bw_source;	/* curves.csv's bw_source */
	double peak_gbs;	/* the memory's peak it knows (GB/s); 0 none */
	struct mess_cpufreq clocks;	/* for cycle-based consumers */
	char export_info[512];	/* extra lines of an export's info.txt */
	/* Trust of what was measured (meta.json quality): NAN/0 none. */
	double migrations, trust_ns;
	unsigned trust_points;
	int dist_known;		/* every window's lost time could be read */
};

/* The unloaded latency, as the backend measured it (or the driver over
 * idle windows). */
struct mess_unloaded {
	double ns, std_ns;
	double random_ns, random_std_ns;	/* NAN: no fully random chase */
	double cv_first;	/* before a re-measure; NAN if none */
	unsigned repeats;
};

/* What the driver's repeats keep across points (backend/repeats.c). */
struct mess_wstats {
	unsigned windows, windows_disturbed, windows_kept_disturbed;
	/* Windows outside what the hardware can do, discarded (mess_repeats):
	 * a latency below floor_ns, a bandwidth above ceil_gbs. */
	unsigned windows_impossible;
	unsigned remeasured;	/* points given more repeats for spread */
	int disturb_persists;	/* the last point kept disturbed windows */
	double worst_lost_pct, worst_steal_ms;	/* the worst disturbed window */
	char worst_who[24];
	double clock_lo, clock_hi;	/* the windows' clocks, GHz */
};

struct mess_backend;
struct mess_session;
/* The repeats' rule over one backend's windows, for the driver and for a
 * backend's own sub-measurements (the measured unloaded latency). */
struct mess_repeater {
	const struct mess_backend *be;
	void *bs;
	const struct mess_run_desc *desc;	/* dist_known */
	struct mess_wstats st;
	/* What no window can read (issue 46): a load faster than an L1 hit
	 * (mess_l1_floor: the chase core's own where the backend measured
	 * it, else MESS_L1_FLOOR_NS; floor_source says which), more bandwidth
	 * than the memory's peak allows (INFINITY: unknown).  Such a window
	 * is discarded and counted, and sizes nothing. */
	double floor_ns, ceil_gbs;
	char floor_source[96];
};

/* A counted or replayed bandwidth this far past the theoretical peak is
 * no reading of that memory (the peak's own uncertainty allowed). */
#define MESS_PEAK_CEIL 1.25

/* The run's results, as the backends' sections and the finish read them. */
struct mess_results {
	const struct mess_cfg *cfg;
	const char *dir;
	const struct mess_family *fam;
	const struct mess_unloaded *u;
	double point_ns_total;	/* spent in measured points */
	const struct mess_wstats *st;
	const char *plot_title;	/* "" when no plot */
};

/* Where md writes: inside the verdict, in the how paragraph, after the
 * curves. */
enum mess_md_part { MESS_MD_VERDICT, MESS_MD_HOW, MESS_MD_AFTER };

struct mess_backend {
	const char *name;	/* "measured", "replay", "synthetic" */
	/* the default directory results/<host>[-<kind>]-<UTC>: "" or what
	 * the name must say (a replay) */
	const char *kind;
	int resumable;		/* --resume continues one */
	/* meta.json bw_accounting and summary.md's bandwidth caveat where
	 * the backend has its own; NULL: the generators' accounting */
	const char *accounting, *bw_note;
	/* the verdict's "partial" reason: a run cut short */
	const char *cut_short;
	/* 1: cmd.c picks it when this option is given (--replay) */
	int (*wanted)(const struct mess_cfg *c);
	/* Before the directory, nothing written: *bs its state, d filled.
	 * 0 to go on; *done 1 when the command ends here with that status
	 * (--list, --mem-node each); -errno said in one line. */
	int (*open)(const struct mess_cfg *c, int argc, char **argv, void **bs,
		    struct mess_run_desc *d, int *done);
	/* The directory claimed with status rc: the status to go on with;
	 * NULL: rc as it is. */
	int (*claimed)(void *bs, struct mess_rundir *rd, int rc);
	/* --resume, before anything changes: its own files checked; NULL. */
	int (*resume)(void *bs, const char *dir);
	/* The directory started: pinning, buffers.  0 or -errno. */
	int (*start)(void *bs, const struct mess_session *s);
	/* The unloaded latency before the sweep: 0 or -errno; NULL: the
	 * driver's repeats over idle windows. */
	int (*unloaded)(void *bs, struct mess_unloaded *u);
	/* The load set, and its bandwidth once steady (GB/s); *steady
	 * whether it got so. */
	double (*set_load)(void *bs, const struct mess_load *l, int *steady);
	/* One window at the load set: 0, or -EINTR when a signal cut it. */
	int (*window)(void *bs, struct mess_window *w);
	/* The point's bandwidth figures from its n kept windows. */
	void (*figures)(void *bs, const struct mess_window *w, unsigned n,
			struct mess_point *p);
	/* After a point's repeats (rc theirs): what the backend adds (its
	 * distribution); the point's status.  NULL: rc. */
	int (*point_end)(void *bs, int rc, struct mess_point *p);
	/* Its reasons into the verdict (environment, clocks); NULL. */
	void (*judge)(void *bs, const struct mess_results *res,
		      struct mess_verdict *v);
	/* Its meta.json sections, as one object whose keys take their
	 * places (result/meta.c's order); NULL: none. */
	json_t *(*json)(const void *bs, const struct mess_results *res);
	/* Its summary.md lines at part; NULL: none. */
	void (*md)(const void *bs, FILE *f, enum mess_md_part part,
		   const struct mess_results *res);
	/* The run's files done: its own (histograms, plots); NULL. */
	int (*finish)(void *bs, const struct mess_results *res);
	/* The end with status rc and the writers' frc, as said to the user:
	 * the status main maps; NULL: mess_rundir_end's. */
	int (*end)(void *bs, struct mess_rundir *rd, int rc, int frc);
	/* The traffic stopped, before the files are finished; NULL. */
	void (*stop)(void *bs);
	/* Whatever open and start left. */
	void (*close)(void *bs);
};

/* What the driver hands a backend at its start. */
struct mess_session {
	const char *dir;
	struct mess_repeater *rep;
};

/* A point's repeats grow, up to MESS_SPREAD_ROUNDS times --repeats, while
 * their central width is over MESS_REPEAT_SPREAD_MAX of their median. */
#define MESS_REPEAT_SPREAD_MAX 0.10
#define MESS_SPREAD_ROUNDS 3
#define MESS_MAX_WINDOWS 150	/* MESS_SPREAD_ROUNDS x the largest --repeats */

/* backend/repeats.c: the windows of one point at the load set: a disturbed
 * window measured again (at most as many times as there are repeats, then
 * kept and counted), more repeats while they disagree; p's latency, trust
 * and flags, its bandwidth from be->figures.  0, or -EINTR (p's figures
 * NAN). */
int mess_repeats(struct mess_repeater *rp, unsigned repeats,
		 struct mess_point *p);
void mess_wstats_init(struct mess_wstats *st);

/* The rows (cmd.c's table) */
extern const struct mess_backend mess_measured_backend;
extern const struct mess_backend mess_replay_backend;
extern const struct mess_backend mess_gpu_backend;
/* tests/curves/synthetic.c's, linked into the tests' mess-synthetic
 * only: a weak reference, NULL in mess (no test code in the product). */
extern const struct mess_backend mess_synthetic_backend __attribute__((weak));

#endif
