// SPDX-License-Identifier: MIT
/*
 * What a set's read share is (core/report/readaxis.h): export and compare
 * both say it.
 */
#include "core/report/readaxis.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/report/html.h"
#include "mess/json.h"

/*
 * Whether the set's read share is the traffic generator's read fraction
 * R rather than the memory's: Mess on AMD's data fabric counts reads and
 * writes together and takes R as the share (an import records the
 * counters family in meta.json method.bw_counters; a Mess-Results set
 * names its CPU in system.md; a replay run is at its set's shares).  1
 * with what it is in why, 0.
 */
static int axis(const char *dir, char *why, size_t len, int depth)
{
	char path[PATH_MAX + 16], model[128];
	json_t *meta;
	const char *fam, *set;
	int gen = 0;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	meta = mess_json_load(path, 0, NULL);
	fam = json_string_value(json_object_get(json_object_get(meta, "method"), "bw_counters"));
	set = json_string_value(json_object_get(json_object_get(meta, "replay"), "set"));
	if (fam && !strncmp(fam, "amd-df", 6)) {
		snprintf(why, len, "the generator's read fraction R, NOT the memory's read share (meta.json method.bw_counters %s: AMD's data fabric counts reads and writes together, and Mess takes R as the share)",
			 fam);
		gen = 1;
	} else if (set && depth < 4) {
		/* A replay runs at the replayed set's shares; a file
		 * (memory_curves.csv) names its folder. */
		char *slash;

		snprintf(path, sizeof(path), "%s", set);
		slash = strrchr(path, '/');
		if (slash && strchr(slash, '.'))
			*slash = '\0';
		gen = strcmp(path, dir) && axis(path, why, len, depth + 1);
	} else if (!meta && !mess_system_md_field(dir, "Model", model, sizeof(model)) &&
		   strstr(model, "AMD")) {
		snprintf(why, len, "the generator's read fraction R, NOT the memory's read share (system.md Model %s: Mess's AMD sets count reads and writes together at the data fabric, and take R as the share)",
			 model);
		gen = 1;
	}
	json_decref(meta);
	return gen;
}

int mess_read_axis_generator(const char *dir, char *why, size_t len)
{
	return axis(dir, why, len, 0);
}
