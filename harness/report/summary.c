// SPDX-License-Identifier: MIT
/*
 * `mess report --peak-gbs` on a run's own directory: its summary.md and
 * summary.json given the peak too, so that the files and report.html
 * never disagree (the theoretical peak unknown in summary.md pointed at
 * this command).
 */
#include "report/summary.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/html_int.h"
#include "core/util.h"
#include "mess/json.h"
#include "mess/load.h"
#include "mess/metrics.h"

/*
 * Past n lines from at: the run's section is as many lines as the one
 * written again (mess_summary_write_md's lines do not depend on the
 * peak, only what they say), and ends with a table row.  NULL when the
 * file has not that many, or it ends elsewhere.
 */
static char *lines_past(char *at, size_t n)
{
	char *last = at;

	while (n-- && at) {
		last = at;
		at = strchr(at, '\n');
		at = at ? at + 1 : NULL;
	}
	return at && *last == '|' ? at : NULL;
}

/*
 * Each curve's read share as the run gave it (summary.json: the mix's
 * nominal share): curves.csv's curve carries its points' median, which
 * summary.md shows in a column of its own ("read share, measured"),
 * never under the nominal share's header.
 */
static void nominal_shares(struct mess_family *fam, const json_t *old)
{
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(old, "curves"), i, c) {
		json_int_t st = json_integer_value(json_object_get(c, "store_pct"));
		const json_t *rd = json_object_get(c, "read_pct");

		for (size_t k = 0; k < fam->n && json_is_number(rd); k++)
			if (fam->curves[k].store_pct != MESS_STORE_PCT_UNKNOWN &&
			    (json_int_t)fam->curves[k].store_pct == st)
				fam->curves[k].read_pct = json_number_value(rd);
	}
}

/*
 * A run's summary.md and summary.json given the peak now (--peak-gbs on
 * the run's own directory): the curve section and the family's figures
 * summarised again from curves.csv against it, the rest of both files as
 * the run wrote it, so that the files and the page never disagree.  Runs
 * with no such section (absorb, ladder, a set of another tool) are left
 * alone.  0 or -errno, said.
 */
int mess_report_peak_summary(const char *dir, const json_t *meta, double peak)
{
	char path[PATH_MAX + 32], err[600] = "", *md = NULL, *start, *end;
	char *buf = NULL, *sec = NULL;
	size_t lines = 0;
	struct mess_set_info *info = calloc(1, sizeof(*info));
	struct mess_family fam = { 0 };
	struct mess_summary s = { 0 };
	json_t *old, *extra = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	old = mess_json_load(path, 0, NULL);
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	md = mess_h_slurp(path, 1 << 24, &len);
	start = md ? strstr(md, "\n## Curves\n") : NULL;
	if (!info || !json_is_object(old) || !start) {
		ret = info ? 0 : -ENOMEM;
		goto out;
	}
	ret = mess_set_load(dir, 0, &fam, info, err, sizeof(err));
	if (!ret) {
		nominal_shares(&fam, old);
		ret = mess_summarise(&fam, json_number_value(json_object_get(old, "unloaded_ns")),
				     peak, json_number_value(json_object_get(old, "wave_tol_pct")) / 100,
				     &s);
	}
	if (ret)
		goto out;
	/* The measured share's column where the run gave it one. */
	s.read_counted = strstr(start, "| read share, measured [%] |") != NULL;
	s.gen_cores = (unsigned)json_array_size(json_object_get(
			json_object_get(meta, "cores"), "generators"));
	/* The run's own keys (verdict, next step, ...) stay; the figures
	 * the peak changes are the summary's. */
	extra = json_deep_copy(old);
	for (const char *const *k = (const char *const[]){ "schema", "unloaded_ns",
	     "peak_gbs", "wave_tol_pct", "family", "curves", NULL }; *k; k++)
		json_object_del(extra, *k);
	f = open_memstream(&sec, &len);
	if (!f) {
		ret = -errno;
		goto out;
	}
	mess_summary_write_md(f, &s, "Curves");
	if (fclose(f)) {
		ret = -ENOMEM;
		goto out;
	}
	for (const char *c = sec; *c; c++)
		lines += *c == '\n';
	end = lines_past(start + 1, lines);
	if (!end) {
		snprintf(err, sizeof(err), "its curve section is not the one mess writes");
		ret = -EINVAL;
		goto out;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		ret = -errno;
		goto out;
	}
	fwrite(md, 1, (size_t)(start + 1 - md), f);
	fputs(sec, f);
	fputs(end, f);
	if (fclose(f)) {
		ret = -ENOMEM;
		goto out;
	}
	f = mess_tmp_open(dir, "summary.md");
	if (!f) {
		ret = -errno;
		goto out;
	}
	fputs(buf, f);
	ret = mess_tmp_commit(dir, "summary.md", f);
	if (!ret)
		ret = mess_json_write(dir, "summary.json", mess_summary_json(&s, extra));
out:
	if (ret)
		fprintf(stderr, "mess report: %s: summary.md not given the peak: %s\n",
			dir, err[0] ? err : strerror(-ret));
	json_decref(extra);
	json_decref(old);
	mess_summary_free(&s);
	mess_family_free(&fam);
	free(info);
	free(buf);
	free(sec);
	free(md);
	return ret;
}
