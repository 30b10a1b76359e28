// SPDX-License-Identifier: MIT
/*
 * Event strings to perf_event_attr (core/pmu/pmu.h): libpfm4 for the PMUs it
 * knows, the kernel's sysfs definitions (mess/pmudef.h) for "PMU/TERMS/".
 * Only type, config, config1, config2 and size are set: what to count is
 * decided here, how (privilege levels, grouping, read format) by the
 * caller that opens it.
 */
#include "core/pmu/pmu.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib_perf_event.h>

#include "mess/parse.h"
#include "mess/pmudef.h"

const char *mess_pmu_sysfs_root(void)
{
	const char *r = getenv("MESS_SYSFS_PMU_ROOT");

	return r && *r ? r : "/sys/bus/event_source/devices";
}

/* pfm_initialize's result, kept: libpfm4 reads LIBPFM_FORCE_PMU and
 * detects the PMUs once, so a second call would say nothing new. */
static int pfm_state = 1;	/* 1: not tried yet */

int mess_pmu_pfm_init(char *err, size_t errlen)
{
	if (pfm_state == 1)
		pfm_state = pfm_initialize();
	if (pfm_state != PFM_SUCCESS)
		return mess_fail(err, errlen, -ENODEV, "libpfm4: pfm_initialize: %s",
				 pfm_strerror(pfm_state));
	return 0;
}

const char *mess_pmu_core_name(void)
{
	char err[128];

	if (mess_pmu_pfm_init(err, sizeof(err)))
		return NULL;
	/* The first core PMU libpfm4 finds present (or was forced to). */
	for (int p = PFM_PMU_NONE + 1; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t info = { .size = sizeof(info) };

		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && info.is_present &&
		    info.type == PFM_PMU_TYPE_CORE)
			return info.name;
	}
	return NULL;
}

/* "amd_umc_0/event=0x0a,rdwrmask=1/" through the PMU's sysfs definition. */
static int encode_sysfs(const char *spec, const char *slash,
			struct perf_event_attr *attr, double *scale, char *err,
			size_t errlen)
{
	char pmu[MESS_PMU_NAME_LEN], dir[PATH_MAX], terms[256], why[256];
	size_t plen = slash - spec, tlen = strlen(slash + 1);
	struct mess_pmu_def d;
	uint64_t config[3];
	double s = 1;
	int ret;

	if (!plen || plen >= sizeof(pmu) || !tlen || slash[tlen] != '/' ||
	    tlen - 1 >= sizeof(terms) || memchr(slash + 1, '/', tlen - 1))
		return mess_fail(err, errlen, -EINVAL, "%s: not PMU/TERMS/", spec);
	memcpy(pmu, spec, plen);
	pmu[plen] = 0;
	memcpy(terms, slash + 1, tlen - 1);
	terms[tlen - 1] = 0;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", mess_pmu_sysfs_root(), pmu) >=
	    sizeof(dir))
		return mess_fail(err, errlen, -EINVAL, "%s: path too long", spec);
	ret = mess_pmudef_read(dir, &d, why, sizeof(why));
	if (ret)
		return mess_fail(err, errlen, ret, "%s: %s", spec, why);
	ret = mess_pmudef_encode(&d, terms, config, &s, NULL, 0, why, sizeof(why));
	if (!ret) {
		attr->type = d.type;
		attr->config = config[0];
		attr->config1 = config[1];
		attr->config2 = config[2];
		attr->size = sizeof(*attr);
		if (scale)
			*scale = s;
	} else {
		snprintf(err, errlen, "%s: %s", spec, why);
	}
	mess_pmudef_free(&d);
	return ret;
}

int mess_pmu_encode(const char *spec, struct perf_event_attr *attr,
		    double *scale, char *err, size_t errlen)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	pfm_perf_encode_arg_t arg = { .attr = &a, .size = sizeof(arg) };
	const char *slash = strchr(spec, '/');
	int ret;

	if (slash)
		return encode_sysfs(spec, slash, attr, scale, err, errlen);
	ret = mess_pmu_pfm_init(err, errlen);
	if (ret)
		return ret;
	/* PFM_PLM3 (user) only so that libpfm4 accepts the string: the
	 * exclude_* bits it sets are not copied (see the file comment). */
	ret = pfm_get_os_event_encoding(spec, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS) {
		/* NOTSUPP is what libpfm4 says for an uncore PMU whose
		 * kernel PMU (…/devices/<perf_name>/type) is missing. */
		snprintf(err, errlen, "%s: libpfm4: %s%s", spec, pfm_strerror(ret),
			 ret == PFM_ERR_NOTSUPP ? " (no such kernel PMU here?)" : "");
		return ret == PFM_ERR_NOTFOUND || ret == PFM_ERR_NOTSUPP ? -ENOENT
									 : -EINVAL;
	}
	attr->type = a.type;
	attr->config = a.config;
	attr->config1 = a.config1;
	attr->config2 = a.config2;
	attr->size = sizeof(*attr);
	if (scale)
		*scale = 1;
	return 0;
}
