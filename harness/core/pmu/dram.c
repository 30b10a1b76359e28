// SPDX-License-Identifier: MIT
/*
 * The memory controllers' traffic counters, opened per controller instance
 * on one CPU of each counted package (the PMU's own cpumask, as the kernel
 * publishes it for uncore PMUs; else hwloc's first PU of the package).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pmu/dram.h"
#include "mess/parse.h"
#include "mess/pmudef.h"

#define MAX_PMUS 128
#define MAX_CPUS 1024

double mess_dram_unit_bytes(double scale, const char *unit)
{
	static const struct {
		const char *unit;
		double bytes;
	} units[] = {
		{ "", 1 }, { "B", 1 }, { "Bytes", 1 }, { "bytes", 1 },
		{ "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
		{ "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].unit))
			return scale * units[i].bytes;
	return NAN;
}

static void say(struct mess_dram *d, const char *fmt, const char *a,
		const char *b)
{
	size_t n = strlen(d->status);

	if (n + 4 >= sizeof(d->status))
		return;
	if (n) {
		memcpy(d->status + n, "; ", 3);
		n += 2;
	}
	snprintf(d->status + n, sizeof(d->status) - n, fmt, a, b);
}

/* The instance number a kernel PMU name ends with (uncore_imc_3 -> 3). */
static int instance(const char *pmu)
{
	const char *e = pmu + strlen(pmu);

	while (e > pmu && isdigit((unsigned char)e[-1]))
		e--;
	return *e ? atoi(e) : 0;
}

/* The event string for one PMU instance: "PMU/EVENT/" for sysfs, the
 * libpfm4 name with %d replaced by the instance for libpfm4.  -ENAMETOOLONG
 * rather than a truncated event. */
static int spec_for(char *out, size_t len, const struct mess_dram_family *f,
		    const char *pmu, const char *event)
{
	const char *p = strstr(event, "%d");
	int n;

	if (f->enc == MESS_ENC_SYSFS)
		n = snprintf(out, len, "%s/%s/", pmu, event);
	else if (!p)
		n = snprintf(out, len, "%s", event);
	else
		n = snprintf(out, len, "%.*s%d%s", (int)(p - event), event,
			     instance(pmu), p + 2);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int wanted(const int *pkgs, int npkgs, int pkg)
{
	if (!npkgs)
		return 1;
	for (int i = 0; i < npkgs; i++)
		if (pkgs[i] == pkg)
			return 1;
	return 0;
}

/* CPUs to open one instance on: its cpumask, else the first PU of each
 * package. */
static int cpus_of(struct mess_topo *t, const struct mess_pmu_def *def,
		   int *cpus, int max)
{
	int n = 0, seen[MESS_DRAM_MAX_PKG] = { 0 };

	if (def->cpumask[0]) {
		n = mess_cpulist_parse(def->cpumask, cpus, max);
		if (n > 0)
			return n;
	}
	for (int c = 0; c < t->ncores && n < max; c++) {
		int p = mess_topo_package_of_core(t, c);

		if (p >= 0 && p < MESS_DRAM_MAX_PKG && !seen[p]) {
			seen[p] = 1;
			cpus[n++] = t->core_pu[c];
		}
	}
	return n;
}

static void note_pkg(struct mess_dram *d, int pkg)
{
	for (int i = 0; i < d->npkg; i++)
		if (d->pkgs[i] == pkg)
			return;
	if (d->npkg < MESS_DRAM_MAX_PKG)
		d->pkgs[d->npkg++] = pkg;
}

/* The table's figure, else the sysfs event's scale and unit. */
static int bytes_per_count(double table, const struct mess_pmu_def *def,
			   const char *event, double *bpc, char *why,
			   size_t whylen)
{
	uint64_t cfg[3];
	double scale = 1;
	char unit[16] = "";
	int err;

	if (table > 0) {
		*bpc = table;
		return 0;
	}
	err = mess_pmudef_encode(def, event, cfg, &scale, unit, sizeof(unit),
				 why, whylen);
	if (err)
		return err;
	*bpc = mess_dram_unit_bytes(scale, unit);
	if (!(*bpc > 0))
		return mess_fail(why, whylen, -EINVAL, "%s/%s: unit '%s' is not a size", def->name,
				 event, unit);
	return 0;
}

/* Open every event of one direction's list on one PMU instance and CPU. */
static int open_events(struct mess_dram *d, const struct mess_dram_family *f,
		       const char *pmu, const char *list, int dir, int cpu,
		       int pkg, char *why, size_t whylen)
{
	char ev[16][MESS_EVENT_LEN], spec[MESS_EVENT_LEN + MESS_PMU_NAME_LEN + 8];
	int n = mess_event_list_split(list, ev, 16);

	if (n < 0)
		return mess_fail(why, whylen, -EINVAL,
				 "%s: the table's event list '%s' is malformed",
				 f->name, list);
	for (int e = 0; e < n; e++) {
		struct mess_dram_chan *ch = &d->ch[d->nch];
		int err;

		if (d->nch >= MESS_DRAM_MAX_CH)
			return mess_fail(why, whylen, -E2BIG, "more than %d controller counters",
					 MESS_DRAM_MAX_CH);
		err = spec_for(spec, sizeof(spec), f, pmu, ev[e]);
		if (err)
			return mess_fail(why, whylen, err,
					 "%.160s on %.64s: the event name is too long",
					 ev[e], pmu);
		err = mess_counter_open(&ch->c, spec, -1, cpu, -1, why, whylen);
		if (err)
			return err;
		ch->dir = dir;
		ch->package = pkg;
		d->nch++;
	}
	return 0;
}

static int open_family(struct mess_dram *d, struct mess_topo *t,
		       const struct mess_dram_family *f, const int *pkgs,
		       int npkgs)
{
	static char names[MAX_PMUS][MESS_PMU_NAME_LEN];
	const char *root = mess_pmu_sysfs_root(), *core;
	char dir[4096], why[512], first[MESS_EVENT_LEN];
	int cpus[MAX_CPUS];
	int n, err = 0;

	if (f->cpu_pmu) {
		core = mess_pmu_pfm_init(why, sizeof(why)) ? NULL :
		       mess_pmu_core_name();
		if (!core || fnmatch(f->cpu_pmu, core, 0)) {
			say(d, "%s: for core PMUs %s only", f->name, f->cpu_pmu);
			return -EOPNOTSUPP;
		}
	}
	n = mess_pmudef_find(root, f->pmu_glob, names, MAX_PMUS);
	if (n <= 0) {
		say(d, "%s: no kernel PMU %s", f->name, f->pmu_glob);
		return -EOPNOTSUPP;
	}
	for (int i = 0; i < n && !err; i++) {
		struct mess_pmu_def def;
		int nc;

		snprintf(dir, sizeof(dir), "%s/%s", root, names[i]);
		err = mess_pmudef_read(dir, &def, why, sizeof(why));
		if (err)
			break;
		/* Bytes per count from the first event of each list. */
		if (i == 0 && f->enc == MESS_ENC_SYSFS) {
			snprintf(first, sizeof(first), "%.*s",
				 (int)strcspn(f->read_event, ";"), f->read_event);
			err = bytes_per_count(f->bytes_per_count, &def, first,
					      &d->rd_bpc, why, sizeof(why));
			if (!err && f->write_event) {
				snprintf(first, sizeof(first), "%.*s",
					 (int)strcspn(f->write_event, ";"), f->write_event);
				err = bytes_per_count(f->write_bytes_per_count > 0 ?
						      f->write_bytes_per_count :
						      f->bytes_per_count, &def, first,
						      &d->wr_bpc, why, sizeof(why));
			}
		} else if (i == 0) {
			d->rd_bpc = f->bytes_per_count;
			d->wr_bpc = f->write_bytes_per_count > 0 ?
				    f->write_bytes_per_count : f->bytes_per_count;
		}
		nc = err ? 0 : cpus_of(t, &def, cpus, MAX_CPUS);
		mess_pmudef_free(&def);
		for (int c = 0; c < nc && !err; c++) {
			int pkg = mess_topo_package_of_pu(t, cpus[c]);

			if (pkg < 0 || !wanted(pkgs, npkgs, pkg))
				continue;
			err = open_events(d, f, names[i], f->read_event,
					  MESS_DRAM_RD, cpus[c], pkg, why, sizeof(why));
			if (!err && f->write_event)
				err = open_events(d, f, names[i], f->write_event,
						  MESS_DRAM_WR, cpus[c], pkg, why,
						  sizeof(why));
			if (!err)
				note_pkg(d, pkg);
		}
	}
	if (!err && !d->nch) {
		snprintf(why, sizeof(why), "no instance on the packages counted");
		err = -EOPNOTSUPP;
	}
	if (err) {
		mess_dram_close(d);
		say(d, "%s: %s", f->name, why);
		return err == -EINVAL ? -EOPNOTSUPP : err;
	}
	d->fam = f;
	return 0;
}

void mess_dram_close(struct mess_dram *d)
{
	for (int i = 0; i < d->nch; i++)
		mess_counter_close(&d->ch[i].c);
	d->nch = 0;
	d->npkg = 0;
	d->fam = NULL;
}

static const struct mess_dram_family *family(const char *name, size_t len)
{
	for (size_t i = 0; i < mess_dram_nfamilies; i++)
		if (strlen(mess_dram_families[i].name) == len &&
		    !strncmp(mess_dram_families[i].name, name, len))
			return &mess_dram_families[i];
	return NULL;
}

int mess_dram_open(struct mess_dram *d, struct mess_topo *t, const char *want,
		   const int *pkgs, int npkgs)
{
	const char *p = want;
	int err = -EOPNOTSUPP;

	memset(d, 0, sizeof(*d));
	if (!strcmp(want, "auto")) {
		for (size_t i = 0; i < mess_dram_nfamilies; i++) {
			err = open_family(d, t, &mess_dram_families[i], pkgs, npkgs);
			if (!err || err == -EINTR)
				break;
		}
		if (err) {
			char tried[sizeof(d->status)];

			snprintf(tried, sizeof(tried), "%s", d->status);
			snprintf(d->status, sizeof(d->status),
				 "no memory-controller counters: %.990s", tried);
		}
		return err ? -EOPNOTSUPP : 0;
	}
	/* Named families: all must exist; the first that opens counts. */
	while (*p) {
		size_t len = strcspn(p, ",");

		if (!family(p, len)) {
			snprintf(d->status, sizeof(d->status),
				 "'%.*s' is not a memory-controller family (mess counters --list names them)",
				 (int)len, p);
			return -EINVAL;
		}
		p += len + (p[len] == ',');
	}
	for (p = want; *p && err;) {
		size_t len = strcspn(p, ",");

		err = open_family(d, t, family(p, len), pkgs, npkgs);
		p += len + (p[len] == ',');
	}
	return err ? -EOPNOTSUPP : 0;
}

int mess_dram_snap(const struct mess_dram *d, struct mess_dram_snap *s)
{
	for (int i = 0; i < d->nch; i++) {
		int err = mess_counter_read(&d->ch[i].c, &s->v[i]);

		if (err)
			return err;
	}
	return 0;
}

static double add(double sum, const struct mess_count *a,
		  const struct mess_count *b, double bpc, double *frac,
		  int *scaled)
{
	struct mess_count dl;
	double v, f;

	if (mess_count_delta(a, b, &dl))
		return NAN;
	switch (mess_count_scale(&dl, &v, &f)) {
	case MESS_COUNT_SCALED:
		*scaled = 1;
		/* fall through */
	case MESS_COUNT_OK:
		if (f < *frac)
			*frac = f;
		return sum + v * bpc;
	default:
		*frac = 0;
		return NAN;
	}
}

void mess_dram_bytes(const struct mess_dram *d, const struct mess_dram_snap *a,
		     const struct mess_dram_snap *b, struct mess_dram_bytes *o)
{
	int combined = d->fam && d->fam->rw_combined;
	int reads_only = d->fam && !d->fam->write_event;

	memset(o, 0, sizeof(*o));
	o->run_frac = 1;
	o->npkg = d->npkg;
	for (int i = 0; i < d->nch; i++) {
		int k = 0, w = d->ch[i].dir == MESS_DRAM_WR;

		while (k < d->npkg && d->pkgs[k] != d->ch[i].package)
			k++;
		if (w)
			o->pkg_wr[k] = add(o->pkg_wr[k], &a->v[i], &b->v[i],
					   d->wr_bpc, &o->run_frac, &o->scaled);
		else
			o->pkg_rd[k] = add(o->pkg_rd[k], &a->v[i], &b->v[i],
					   d->rd_bpc, &o->run_frac, &o->scaled);
	}
	for (int k = 0; k < d->npkg; k++) {
		if (reads_only || combined)
			o->pkg_wr[k] = NAN;
		o->rd += o->pkg_rd[k];
		o->wr += o->pkg_wr[k];
	}
	o->tot = o->rd + (reads_only ? 0 : o->wr);
	if (combined) {
		/* The read list counted everything: a total, no share. */
		o->tot = o->rd;
		o->rd = o->wr = NAN;
		for (int k = 0; k < d->npkg; k++)
			o->pkg_rd[k] = NAN;
	}
	if (reads_only)
		o->tot = NAN;
	if (!d->nch)
		o->rd = o->wr = o->tot = NAN;
}

