// SPDX-License-Identifier: MIT
/*
 * report.html's figures: the order they are shown in, and why there is
 * none when plots/ holds none (what the files say, never a guess).
 */
#include <string.h>

#include "core/report/html_int.h"

/*
 * Why plots/ holds no figure, as the files say it: what mess report was
 * told or met (why), else meta.json plots (a skip's reason, or figures
 * said and gone), else that the command draws none.  Never a guess.
 */
void mess_h_no_figure(FILE *f, const json_t *meta, const char *why)
{
	const char *note = json_string_value(json_object_get(meta, "plots"));
	const char *tool = json_string_value(json_object_get(meta, "tool"));

	fputs("<p>No figure in plots/: ", f);
	if (why) {
		mess_h_esc(f, why);
		fputs(".</p>\n", f);
	} else if (note && !strncmp(note, "skipped", 7)) {
		mess_h_put(f, "the run ", note, " (meta.json <code>plots</code>).</p>\n");
	} else if (note && strcmp(note, "pending")) {
		mess_h_put(f, "meta.json <code>plots</code> says ", note,
			   ", but they are gone from plots/ (moved or deleted).</p>\n");
	} else if (note) {
		fputs("the run stopped before it drew them (meta.json <code>plots</code> pending).</p>\n", f);
	} else if (meta) {
		mess_h_esc(f, tool ? tool : "the command that wrote it");
		fputs(" draws none (its meta.json has no <code>plots</code>).</p>\n", f);
	} else {
		fputs("none was drawn for this set.</p>\n", f);
	}
}

/*
 * A figure's place on the page: the curves first, then the figures a
 * command names after itself (compare.svg: the sets' curves), then those
 * derived from them (compare-ratio.svg), each in name order, where name
 * order alone would put compare-ratio before compare ('-' < '.').
 */
int mess_h_fig_rank(const char *name)
{
	if (!strncmp(name, "curves", 6))
		return 0;
	return strcspn(name, "-") < strcspn(name, ".") ? 2 : 1;
}
