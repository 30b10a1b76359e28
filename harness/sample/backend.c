// SPDX-License-Identifier: MIT
/*
 * The backend table of `mess sample` (sample/backend.h).  Every event goes
 * through the PMU layer: the sampling PMUs' config bits are placed by
 * their sysfs format/ files ("arm_spe_0/ts_enable=1,load_filter=1/"), the
 * core events by libpfm4 names, so that a kernel or a model that moves a
 * field is followed, never contradicted by a bit number written here.
 */
#include "sample/backend.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/pmu/pmu.h"
#include "mess/parse.h"
#include "mess/pmudef.h"

uint64_t sample_file_u64(const char *path, uint64_t def)
{
	FILE *f = fopen(path, "r");
	unsigned long long v;

	if (!f)
		return def;
	if (fscanf(f, "%lli", &v) != 1)
		v = def;
	fclose(f);
	return v;
}

/* One number from a file under the PMU's directory; def if the file is
 * absent (older kernels lack caps/). */
static uint64_t pmu_file_u64(const char *pmu, const char *file, uint64_t def)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s", mess_pmu_sysfs_root(), pmu, file);
	return sample_file_u64(path, def);
}

/* Whether the PMU's format/ has term: optional fields (IBS l3missonly,
 * swfilt) exist on some kernels and models only. */
static int pmu_has_term(const char *pmu, const char *term)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/format/%s", mess_pmu_sysfs_root(), pmu, term);
	return !access(path, R_OK);
}

static int encode(const char *spec, struct perf_event_attr *a, char *err,
		  size_t errlen)
{
	memset(a, 0, sizeof(*a));
	return mess_pmu_encode(spec, a, NULL, err, errlen);
}

/* What every sampling event shares: counted from enable, this thread's
 * user code (paranoid 2 allows it), one sample per period. */
static void sampling_common(struct perf_event_attr *a, uint64_t period)
{
	a->size = sizeof(*a);
	a->sample_period = period;
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

static int cpu_clock_setup(const struct sample_cfg *c, const char *pmu,
			   struct sample_setup *s, char *err, size_t errlen)
{
	int rc;

	(void)pmu;
	snprintf(s->samp_spec[0], SAMPLE_SPEC_LEN, "perf::cpu-clock");
	rc = encode(s->samp_spec[0], &s->samp[0], err, errlen);
	if (rc)
		return rc;
	sampling_common(&s->samp[0], c->period);
	s->samp[0].sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 PERF_SAMPLE_PERIOD;
	s->nsamp = 1;
	snprintf(s->count[0], SAMPLE_SPEC_LEN, "perf::task-clock");
	s->ncount = 1;
	s->period_eff = (double)c->period;
	return 0;
}

/*
 * Arm SPE: loads and/or stores (the type filter samples an op of any
 * type enabled), timestamps, physical addresses when asked, the minimum
 * latency filter when given.  The driver rounds the interval down to its
 * PMSIRR_EL1 granule (bits 8 and up) and raises it to caps/min_interval:
 * the effective period is that, not the one asked for.
 */
static int spe_setup(const struct sample_cfg *c, const char *pmu,
		     struct sample_setup *s, char *err, size_t errlen)
{
	char lat[32] = "";
	uint64_t min = pmu_file_u64(pmu, "caps/min_interval", 0), p;
	int rc;

	if (c->min_latency)
		snprintf(lat, sizeof(lat), ",min_latency=%u", c->min_latency);
	snprintf(s->samp_spec[0], SAMPLE_SPEC_LEN,
		 "%s/ts_enable=1,pa_enable=%d,load_filter=%d,store_filter=%d%s/", pmu,
		 c->physical, c->loads, c->stores, lat);
	rc = encode(s->samp_spec[0], &s->samp[0], err, errlen);
	if (rc)
		return rc;
	sampling_common(&s->samp[0], c->period);
	s->samp[0].sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	s->nsamp = 1;
	s->aux = 1;
	/* The paper's baseline: MEM_ACCESS, or the reads or writes alone
	 * when the filter samples only one kind. */
	snprintf(s->count[0], SAMPLE_SPEC_LEN, "%s",
		 c->loads && c->stores ? "MEM_ACCESS" : c->loads ? "MEM_ACCESS_RD" : "MEM_ACCESS_WR");
	s->ncount = 1;
	p = c->period & ~(uint64_t)0xff;
	s->period_eff = (double)(p < min ? min : p ? p : 256);
	return 0;
}

/*
 * AMD IBS op: ops counted (cnt_ctl), raw samples of the op registers,
 * l3missonly where the PMU has it.  IBS filters privilege levels only
 * where the kernel offers swfilt; elsewhere the event must include the
 * kernel (root or paranoid <= 1).  The kernel clears the period's low
 * nibble (the hardware counts in 16s).
 */
static int ibs_setup(const struct sample_cfg *c, const char *pmu,
		     struct sample_setup *s, char *err, size_t errlen)
{
	int swfilt = pmu_has_term(pmu, "swfilt"), rc;
	uint64_t p = c->period & ~(uint64_t)0xf;

	if (c->l3miss && !pmu_has_term(pmu, "l3missonly"))
		return mess_fail(err, errlen, -EOPNOTSUPP, "%s: no l3missonly in format/ (a Zen 4 or later and a 6.1+ kernel have it)", pmu);
	snprintf(s->samp_spec[0], SAMPLE_SPEC_LEN, "%s/cnt_ctl=1%s%s/", pmu,
		 c->l3miss ? ",l3missonly=1" : "", swfilt ? ",swfilt=1" : "");
	rc = encode(s->samp_spec[0], &s->samp[0], err, errlen);
	if (rc)
		return rc;
	sampling_common(&s->samp[0], c->period);
	s->samp[0].exclude_kernel = swfilt;
	s->samp[0].exclude_hv = 0;
	s->samp[0].sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
	s->nsamp = 1;
	snprintf(s->count[0], SAMPLE_SPEC_LEN, "RETIRED_OPS");
	s->ncount = 1;
	s->period_eff = (double)(p ? p : 16);
	return 0;
}

/* Intel's retired loads and stores, by generation: the first that
 * libpfm4 encodes on this model. */
static const struct {
	const char *loads, *stores;
} intel_count[] = {
	{ "MEM_INST_RETIRED:ALL_LOADS", "MEM_INST_RETIRED:ALL_STORES" },	/* Skylake on */
	{ "MEM_UOPS_RETIRED:ALL_LOADS", "MEM_UOPS_RETIRED:ALL_STORES" },	/* Haswell, Broadwell */
};

/*
 * Intel PEBS: the load-latency event (its ldlat threshold in config1,
 * placed by libpfm4) with address, weight and data source, and the
 * precise retired stores where the model has them.  Loads below the
 * threshold are not sampled: the default is the lowest the PMU takes.
 */
static int pebs_setup(const struct sample_cfg *c, const char *pmu,
		      struct sample_setup *s, char *err, size_t errlen)
{
	struct perf_event_attr probe;
	char e2[256];
	size_t i;
	int rc;

	(void)pmu;
	s->nsamp = s->ncount = 0;
	for (i = 0; i < sizeof(intel_count) / sizeof(intel_count[0]); i++)
		if (!encode(intel_count[i].loads, &probe, e2, sizeof(e2)))
			break;
	if (i == sizeof(intel_count) / sizeof(intel_count[0]))
		return mess_fail(err, errlen, -ENOENT, "no retired-loads counting event on this model: %s", e2);
	if (c->loads) {
		int k = s->nsamp++;

		snprintf(s->samp_spec[k], SAMPLE_SPEC_LEN, "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=%u",
			 c->min_latency ? c->min_latency : 3);
		rc = encode(s->samp_spec[k], &s->samp[k], err, errlen);
		if (rc)
			return rc;
		snprintf(s->count[s->ncount++], SAMPLE_SPEC_LEN, "%s", intel_count[i].loads);
	}
	if (c->stores) {
		int k = s->nsamp;

		snprintf(s->samp_spec[k], SAMPLE_SPEC_LEN, "%s", intel_count[i].stores);
		rc = encode(s->samp_spec[k], &s->samp[k], err, errlen);
		if (rc)
			return rc;
		s->nsamp++;
		snprintf(s->count[s->ncount++], SAMPLE_SPEC_LEN, "%s", intel_count[i].stores);
	}
	for (int k = 0; k < s->nsamp; k++) {
		sampling_common(&s->samp[k], c->period);
		s->samp[k].precise_ip = 2;	/* PEBS: the sampled op's own IP and data */
		s->samp[k].sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					 PERF_SAMPLE_CPU | PERF_SAMPLE_ADDR |
					 PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	}
	s->period_eff = (double)c->period;
	return 0;
}

#define HW_PERIODS "1000,2000,3000,4000,5000,10000,20000,50000"
#define HW_QUICK "1000,4000,20000"

const struct sample_backend sample_backends[] = {
	{ "spe", "arm_spe_*",
	  "no arm_spe PMU here (no arm_spe_* in /sys/bus/event_source/devices: not an Arm CPU with SPE, or a kernel without CONFIG_ARM_SPE_PMU)",
	  1, HW_PERIODS, HW_QUICK, "ops", "MEM_ACCESS (or MEM_ACCESS_RD / MEM_ACCESS_WR with one filter), libpfm4", spe_setup },
	{ "ibs", "ibs_op",
	  "no ibs_op PMU here (/sys/bus/event_source/devices/ibs_op is missing: not an AMD CPU with IBS, or a VM that hides it)",
	  1, HW_PERIODS, HW_QUICK, "ops", "RETIRED_OPS (IBS counts dispatched ops: a sample of a wrong-path op has no retired count)", ibs_setup },
	{ "pebs", "cpu",
	  "no Intel core PMU with PEBS here (/sys/bus/event_source/devices/cpu is missing: not an Intel CPU, or a VM without a PMU)",
	  1, HW_PERIODS, HW_QUICK, "ops", "MEM_INST_RETIRED:ALL_LOADS (+ ALL_STORES), libpfm4", pebs_setup },
	{ "cpu-clock", NULL, NULL, 0, "100000,250000,500000,1000000,2000000", "250000,1000000",
	  "ns", "task-clock (ns)", cpu_clock_setup },
};

const size_t sample_nbackends = sizeof(sample_backends) / sizeof(sample_backends[0]);

const struct sample_backend *sample_backend_find(const char *name)
{
	for (size_t i = 0; i < sample_nbackends; i++)
		if (!strcmp(name, sample_backends[i].name))
			return &sample_backends[i];
	return NULL;
}

/* The sysfs PMU of b under mess_pmu_sysfs_root() into pmu (NULL pmu_glob:
 * "" and 0); -ENOENT when it has none. */
static int sample_backend_pmu(const struct sample_backend *b, char *pmu, size_t len)
{
	char names[4][MESS_PMU_NAME_LEN];
	int n;

	*pmu = 0;
	if (!b->pmu_glob)
		return 0;
	n = mess_pmudef_find(mess_pmu_sysfs_root(), b->pmu_glob, names, 4);
	if (n <= 0)
		return -ENOENT;
	/* arm_spe_0 on one-cluster machines; the first on big.LITTLE. */
	snprintf(pmu, len, "%s", names[0]);
	return 0;
}

int sample_backend_setup(const struct sample_backend *b, const struct sample_cfg *c,
			 struct sample_setup *s, char *err, size_t errlen)
{
	int rc;

	memset(s, 0, sizeof(*s));
	rc = sample_backend_pmu(b, s->pmu, sizeof(s->pmu));
	if (rc)
		return mess_fail(err, errlen, rc, "%s", b->absent);
	return b->setup(c, s->pmu, s, err, errlen);
}

const char *sample_backend_why(const struct sample_backend *b, char *buf, size_t len)
{
	struct sample_cfg c = { .period = 4096, .loads = 1, .stores = 1 };
	struct sample_setup s;

	return sample_backend_setup(b, &c, &s, buf, len) ? buf : NULL;
}
