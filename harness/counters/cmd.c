// SPDX-License-Identifier: MIT
/*
 * `mess counters`: what this machine's PMUs offer the suite, tried rather
 * than guessed: every needed event is opened once, and what cannot be
 * used is said with its one-line fix.  Nothing is measured or written.
 */
#include "counters/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/pmu/corectr.h"
#include "core/pmu/dram.h"
#include "core/options.h"
#include "core/machine/topo.h"
#include "core/util.h"
#include "mess/json.h"
#include "mess/pmudef.h"

struct counters_opts {
	int json, list, help;
};

#define F(field) MESS_OPT_F(struct counters_opts, field)

static const struct mess_opt opts[] = {
	{ "list", MESS_OPT_FLAG, F(list), 0, 0, 0, NULL,
	  "the tables: memory-controller families and core event sets" },
	MESS_OPT_FLAG_ROW("json", F(json), "print JSON on stdout instead of text"),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_counters_usage(FILE *f)
{
	fprintf(f,
		"usage: mess counters [OPTION]...\n"
		"What this machine's PMUs offer: perf_event_paranoid and capabilities, the core\n"
		"PMU (libpfm4) and whether cycles, instructions and the data-TLB walk events\n"
		"open, the packages, and the memory-controller (DRAM) PMUs of every family mess\n"
		"knows with whether their read and write events open.  Each event is opened\n"
		"once; where one cannot be, the reason and its fix are given.  Nothing is\n"
		"measured or written.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nWith DRAM counters, curves measure bandwidth and read share by counters\n"
		"(bw_source counters); without, they are accounted from the generators' work.\n"
		"\nExamples:\n"
		"  mess counters                      what counts here, and why not\n"
		"  mess counters --list               the families and event sets mess knows\n"
		"  mess counters --json | jq .dram.family\n"
		"\nEnvironment: MESS_SYSFS_PMU_ROOT reads kernel PMUs from another tree than\n"
		"/sys/bus/event_source/devices (tests, or a tree copied from another machine).\n"
		"\nExit status: 0 reported (whatever it found), 1 bad usage, 2 failure.\n");
}

static const char *enc_name(enum mess_enc e)
{
	return e == MESS_ENC_PFM ? "libpfm4" : "sysfs";
}

static int list_tables(int json)
{
	if (json) {
		json_t *fam = json_array(), *core = json_array(), *j;
		int rc;

		for (size_t i = 0; i < mess_dram_nfamilies; i++) {
			const struct mess_dram_family *d = &mess_dram_families[i];

			json_array_append_new(fam, mess_json_pack(
				"{s:s, s:s, s:s, s:s, s:s, s:s?, s:o, s:b, s:s}",
				"name", d->name, "desc", d->desc, "pmu", d->pmu_glob,
				"encoding", enc_name(d->enc), "read", d->read_event,
				"write", d->write_event,
				"bytes_per_count", d->bytes_per_count > 0 ?
					json_real(d->bytes_per_count) : json_string("from sysfs scale and unit"),
				"free_running", d->free_running, "source", d->source));
		}
		for (size_t i = 0; i < mess_core_nsets; i++) {
			const struct mess_core_events *c = &mess_core_event_sets[i];

			json_array_append_new(core, mess_json_pack(
				"{s:s, s:s?, s:s?, s:s?, s:s?}", "pmu", c->pfm_pmu,
				"cycles", c->cycles, "instructions", c->instructions,
				"dtlb_walk_cycles", c->walk_cycles, "stlb_hits", c->stlb_hits));
		}
		j = mess_json_pack("{s:o, s:o}", "dram_families", fam,
				   "core_event_sets", core);
		if (!j)
			return -ENOMEM;
		rc = mess_json_dumpf(j, stdout);
		json_decref(j);
		return rc;
	}
	printf("Memory-controller families (the first that opens is used; --counters NAME picks):\n");
	for (size_t i = 0; i < mess_dram_nfamilies; i++) {
		const struct mess_dram_family *d = &mess_dram_families[i];

		printf("  %s: %s\n    PMUs %s (%s%s): read %s, write %s, ", d->name,
		       d->desc, d->pmu_glob, enc_name(d->enc),
		       d->free_running ? ", free-running" : "", d->read_event,
		       d->write_event ? d->write_event : "none");
		if (d->bytes_per_count > 0)
			printf("%g bytes per count\n", d->bytes_per_count);
		else
			printf("bytes per count from the event's sysfs scale and unit\n");
		printf("    source: %s\n", d->source);
	}
	printf("\nCore event sets (libpfm4 names; '-': the PMU has no such event):\n");
	for (size_t i = 0; i < mess_core_nsets; i++) {
		const struct mess_core_events *c = &mess_core_event_sets[i];

		printf("  %-22s cycles %s, instructions %s, walk cycles %s, STLB hits %s\n",
		       c->pfm_pmu, c->cycles ? c->cycles : "-",
		       c->instructions ? c->instructions : "-",
		       c->walk_cycles ? c->walk_cycles : "-",
		       c->stlb_hits ? c->stlb_hits : "-");
	}
	return 0;
}

/* CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in the effective set. */
static int has_cap(void)
{
	unsigned long long eff;

	return !mess_proc_key("/proc/self/status", "CapEff", 16, &eff) &&
	       (eff & (1ULL << 38 | 1ULL << 21));
}

struct family_state {
	int npmu;
	int opens;
	char why[1024];
	int nch, npkg;
};

static void probe_family(struct mess_topo *t, const struct mess_dram_family *f,
			 struct family_state *s)
{
	static char names[128][MESS_PMU_NAME_LEN];
	static struct mess_dram d;

	memset(s, 0, sizeof(*s));
	s->npmu = mess_pmudef_find(mess_pmu_sysfs_root(), f->pmu_glob, names, 128);
	if (s->npmu <= 0) {
		s->npmu = 0;
		return;
	}
	s->opens = !mess_dram_open(&d, t, f->name, NULL, 0);
	if (s->opens) {
		s->nch = d.nch;
		s->npkg = d.npkg;
		mess_dram_close(&d);
	} else {
		snprintf(s->why, sizeof(s->why), "%s", d.status);
	}
}

int mess_counters_main(int argc, char **argv)
{
	struct counters_opts o = { 0 };
	struct family_state fs[64];
	struct mess_corectr cc;
	struct mess_counter sw;
	struct mess_topo topo;
	char swwhy[512] = "", pfmwhy[256] = "";
	const char *core, *picked = NULL;
	int rc, par, cap, sw_ok, ccrc, npkg;

	rc = mess_cmd_open("mess counters", opts, NOPTS, &o, &o.help,
			   mess_counters_usage, argc, argv, NULL, 0, NULL);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (o.list)
		return list_tables(o.json) ? -EIO : 0;
	if (mess_topo_init_said(&topo, "mess counters"))
		return -EIO;
	par = mess_pmu_paranoid();
	cap = has_cap() || geteuid() == 0;
	if (mess_pmu_pfm_init(pfmwhy, sizeof(pfmwhy)))
		core = NULL;
	else
		core = mess_pmu_core_name();
	/* perf_event itself, with an event every Linux has. */
	sw_ok = !mess_counter_open(&sw, "perf::task-clock", 0, -1, -1, swwhy,
				   sizeof(swwhy));
	mess_counter_close(&sw);
	ccrc = mess_corectr_open(&cc);
	npkg = mess_topo_npackages(&topo);
	for (size_t i = 0; i < mess_dram_nfamilies && i < 64; i++) {
		probe_family(&topo, &mess_dram_families[i], &fs[i]);
		if (fs[i].opens && !picked)
			picked = mess_dram_families[i].name;
	}

	if (o.json) {
		json_t *fam = json_array(), *ev = json_object(), *j;

		for (size_t i = 0; i < mess_dram_nfamilies && i < 64; i++)
			json_array_append_new(fam, mess_json_pack(
				"{s:s, s:i, s:b, s:i, s:i, s:s?}",
				"name", mess_dram_families[i].name, "pmus", fs[i].npmu,
				"opens", fs[i].opens, "channels", fs[i].nch,
				"packages", fs[i].npkg,
				"why_not", fs[i].opens || !fs[i].npmu ? NULL : fs[i].why));
		for (int i = 0; i < MESS_CC_N; i++)
			json_object_set_new(ev, mess_cc_names[i],
					    json_boolean(cc.c[i].fd >= 0));
		j = mess_json_pack("{s:s, s:i, s:b, s:s, s:{s:b, s:s?}, s:{s:s?, s:s?, s:o, s:s?}, s:i, s:{s:s?, s:o}}",
			"cpu_model", topo.cpu_model, "perf_event_paranoid", par,
			"cap_perfmon", cap, "sysfs_root", mess_pmu_sysfs_root(),
			"software_events", "opens", sw_ok, "why_not", sw_ok ? NULL : swwhy,
			"core_pmu", "libpfm4_name", core, "event_set",
			cc.set ? cc.set->pfm_pmu : NULL, "events", ev,
			"status", cc.status[0] ? cc.status : NULL,
			"packages", npkg,
			"dram", "family", picked, "families", fam);
		mess_corectr_close(&cc);
		mess_topo_fini(&topo);
		if (!j)
			return -ENOMEM;
		rc = mess_json_dumpf(j, stdout);
		json_decref(j);
		return rc ? -EIO : 0;
	}

	printf("%s, %d package%s, %d cores\n", topo.cpu_model, npkg,
	       npkg == 1 ? "" : "s", topo.ncores);
	printf("perf_event_paranoid %d%s; %s\n", par,
	       par >= 2 ? " (own user-space counting only; uncore needs 0 or CAP_PERFMON)" :
	       par >= 1 ? " (own counting; uncore needs 0 or CAP_PERFMON)" : "",
	       cap ? "privileged (root or CAP_PERFMON)" : "no CAP_PERFMON");
	printf("perf_event: %s\n", sw_ok ? "software events open (task-clock)" : swwhy);
	printf("core PMU: %s\n", core ? core : pfmwhy[0] ? pfmwhy :
	       "none recognised by libpfm4 (a virtual machine without a virtual PMU has none)");
	printf("core events:");
	for (int i = 0; i < MESS_CC_N; i++)
		printf(" %s %s%s", mess_cc_names[i], cc.c[i].fd >= 0 ? "yes" : "no",
		       i + 1 < MESS_CC_N ? "," : "\n");
	if (ccrc || cc.status[0])
		printf("  %s\n", cc.status);
	printf("\nmemory-controller PMUs (under %s):\n", mess_pmu_sysfs_root());
	for (size_t i = 0; i < mess_dram_nfamilies && i < 64; i++) {
		const struct mess_dram_family *f = &mess_dram_families[i];

		if (!fs[i].npmu)
			printf("  %-24s none here (%s)\n", f->name, f->pmu_glob);
		else if (fs[i].opens)
			printf("  %-24s counts: %d counter%s on %d package%s\n", f->name,
			       fs[i].nch, fs[i].nch == 1 ? "" : "s", fs[i].npkg,
			       fs[i].npkg == 1 ? "" : "s");
		else
			printf("  %-24s %d PMU%s, cannot count: %s\n", f->name, fs[i].npmu,
			       fs[i].npmu == 1 ? "" : "s", fs[i].why);
	}
	printf("\ncurves here: ");
	if (picked)
		printf("bandwidth measured by counters (--counters auto picks %s)\n", picked);
	else
		printf("bandwidth accounted from the generators' work (no memory-controller counters open)\n");
	printf("chase latency without page walks: %s\n",
	       cc.c[MESS_CC_WALK].fd >= 0 && cc.c[MESS_CC_CYCLES].fd >= 0 ?
	       "yes" : "no (no walk-cycle counter opens)");
	mess_corectr_close(&cc);
	mess_topo_fini(&topo);
	return 0;
}
