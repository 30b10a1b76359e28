/* SPDX-License-Identifier: MIT */
/*
 * A kernel PMU as sysfs defines it (/sys/bus/event_source/devices/<pmu>/):
 * its perf_event type, the format fields that place each term's bits in
 * config/config1/config2, its named events with their scale and unit, and
 * the CPUs an uncore PMU counts on.  Read at run time, never hard-coded:
 * this is how PMUs that libpfm4 lacks (amd_umc_*, amd_df, nvidia_scf_pmu_*,
 * arm_cmn_*, hv_24x7, ...) are encoded.  Pure file parsing: a fixture tree
 * laid out as on those machines reads the same as the real one.
 */
#ifndef MESS_PMUDEF_H
#define MESS_PMUDEF_H

#include <stddef.h>
#include <stdint.h>

#define MESS_PMU_NAME_LEN 64
#define MESS_PMU_MAX_FORMATS 32
#define MESS_PMU_MAX_RANGES 4

/* One contiguous run of bits of config (cfg 0), config1 (1) or config2 (2). */
struct mess_pmu_range {
	unsigned char cfg, lo, hi;
};

/* "event" -> "config:0-7,32-35": a term's value is spread over its ranges
 * in order, low bits first. */
struct mess_pmu_format {
	char name[32];
	unsigned nranges;
	struct mess_pmu_range r[MESS_PMU_MAX_RANGES];
};

struct mess_pmu_event {
	char name[64];
	char terms[160];	/* "event=0x04,umask=0x03" as the file says */
	double scale;		/* events/<name>.scale, 1 if absent */
	char unit[16];		/* events/<name>.unit, "" if absent */
};

struct mess_pmu_def {
	char name[MESS_PMU_NAME_LEN];
	int type;		/* the 'type' file: perf_event_attr.type */
	unsigned nformats;
	struct mess_pmu_format formats[MESS_PMU_MAX_FORMATS];
	unsigned nevents;
	struct mess_pmu_event *events;	/* malloc'd */
	char cpumask[256];	/* "0,48" or "0-3": "" if the PMU has none */
	unsigned bad;		/* malformed entries skipped */
	char bad_first[160];	/* the first of them: "format/umask: ..." */
};

/* Read the PMU in dir (…/devices/<name>).  0, or -errno with one line in
 * err: -ENOENT no such PMU, -EINVAL no usable type.  Malformed format or
 * event files are skipped and counted in bad, never fatal. */
int mess_pmudef_read(const char *dir, struct mess_pmu_def *d, char *err,
		     size_t errlen);
void mess_pmudef_free(struct mess_pmu_def *d);

/* Encode spec into config[0..2]: a named event ("cas_count_read"),
 * optionally followed by terms that override ("cas_count_read,umask=0x1"),
 * or terms alone ("event=0x0a,rdwrmask=1").  A term without a value is 1.
 * scale gets the named event's scale (1 otherwise), unit its unit.
 * -EINVAL with one line in err for an unknown event or term, or a value
 * wider than its field. */
int mess_pmudef_encode(const struct mess_pmu_def *d, const char *spec,
		       uint64_t config[3], double *scale, char *unit,
		       size_t unitlen, char *err, size_t errlen);

/* The PMU names under root (…/event_source/devices) that match the shell
 * pattern glob, sorted by name in natural order (imc_2 before imc_10).
 * Returns how many (at most max), or -errno. */
int mess_pmudef_find(const char *root, const char *glob,
		     char names[][MESS_PMU_NAME_LEN], int max);

/* Parse a sysfs CPU list ("0-3,8,10-11") into cpus; returns how many
 * (at most max), or -EINVAL. */
int mess_cpulist_parse(const char *s, int *cpus, int max);

#endif
