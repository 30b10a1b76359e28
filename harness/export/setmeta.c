// SPDX-License-Identifier: MIT
/*
 * What an export must know of a set that its curves do not say: the
 * memory channels it was measured on, and what its read share is.
 */
#include "export/setmeta.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/json.h"
#include "mess/parse.h"

/* KEY=N of dir/name (a Mess plotter.txt's N_CHANNELS, our info.txt's
 * CHANNELS, which says more after the figure), 0 where it has none. */
static int key_channels(const char *dir, const char *name, const char *key)
{
	char path[PATH_MAX + 32], line[256], *end;
	FILE *f;
	long n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		const char *v = line + strlen(key);

		if (strncmp(line, key, strlen(key)))
			continue;
		n = strtol(v, &end, 10);
		if (end == v || (*end && !strchr(" \r\n", *end)) ||
		    n < 1 || n > MESS_MAX_CHANNELS)
			n = 0;
	}
	fclose(f);
	return (int)n;
}

static int plotter_channels(const char *dir, const char *name)
{
	return key_channels(dir, name, "N_CHANNELS=");
}

/*
 * The set's plotter.txt (a Mess-Results set or raw tree; a processed/
 * folder's is the tree's), an import's meta.json mess_plotter.channels,
 * an export's info.txt CHANNELS, or, for a replay run, the replayed
 * set's: the figure, its source said
 * in src; 0 and why where none says it.
 */
int export_set_channels(const char *dir, char *src, size_t len)
{
	char path[PATH_MAX + 16];
	json_t *meta, *ch;
	const char *set;
	int n;

	if ((n = plotter_channels(dir, "plotter.txt"))) {
		snprintf(src, len, "plotter.txt N_CHANNELS, the Mess benchmark's metadata");
		return n;
	}
	if ((n = plotter_channels(dir, "../plotter.txt"))) {
		snprintf(src, len, "the tree's plotter.txt N_CHANNELS, the Mess benchmark's metadata");
		return n;
	}
	if ((n = key_channels(dir, "info.txt", "CHANNELS="))) {
		snprintf(src, len, "info.txt CHANNELS of the export read");
		return n;
	}
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	meta = mess_json_load(path, 0, NULL);
	ch = json_object_get(json_object_get(meta, "mess_plotter"), "channels");
	set = json_string_value(json_object_get(json_object_get(meta, "replay"), "set"));
	if (json_is_integer(ch) && json_integer_value(ch) >= 1 &&
	    json_integer_value(ch) <= MESS_MAX_CHANNELS) {
		n = (int)json_integer_value(ch);
		snprintf(src, len, "meta.json mess_plotter.channels, the imported tree's plotter.txt N_CHANNELS");
	} else if (set && strcmp(set, dir)) {
		char *slash;

		/* The set as it was read: a file (memory_curves.csv) names
		 * its folder. */
		snprintf(path, sizeof(path), "%s", set);
		slash = strrchr(path, '/');
		if (slash && strchr(slash, '.'))
			*slash = '\0';
		n = plotter_channels(path, "plotter.txt");
		if (!n)
			n = plotter_channels(path, "../plotter.txt");
		if (n)
			snprintf(src, len, "the replayed set's plotter.txt N_CHANNELS (meta.json replay.set): the memory this replay ran against");
	}
	json_decref(meta);
	if (!n)
		snprintf(src, len, "the set states none: no plotter.txt N_CHANNELS, info.txt CHANNELS or meta.json mess_plotter.channels, and a run of mess records none; give --channels N");
	return n;
}

/*
 * --read-axis memory: each curve at the memory's read share.  A store
 * that allocates reads its line before it writes it back, so a generator
 * issuing a fraction R of loads puts R + (1 - R) reads and (1 - R) writes
 * on the memory: a read share of 1 / (2 - R).
 */
double export_memory_share(double r_pct)
{
	return 100.0 / (2.0 - r_pct / 100.0);
}

void export_map_memory_axis(struct mess_family *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct mess_curve *c = &f->curves[i];

		c->read_pct = export_memory_share(c->read_pct);
		for (size_t k = 0; k < c->n; k++)
			if (c->pts[k].read_pct == c->pts[k].read_pct)
				c->pts[k].read_pct = export_memory_share(c->pts[k].read_pct);
	}
}
