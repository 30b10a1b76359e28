// SPDX-License-Identifier: MIT
/*
 * `mess fleet DIR`: the runs of many nodes (one directory each, as the
 * Slurm batch script tools/slurm/mess-fleet.sbatch leaves them) merged into
 * one table, the nodes that stand out within their group flagged, and the
 * group's median family written as a curve set.  Nothing is measured.
 */
#include "fleet/cmd.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/options.h"
#include "core/rundir/outdir.h"
#include "core/rundir/rundir.h"
#include "core/util.h"
#include "fleet/fleet.h"
#include "mess/fleet.h"
#include "mess/json.h"

#define META_SCHEMA 1

struct fleet_opts {
	char out[PATH_MAX];
	double mad;
	int with_invalid;
	int no_plots;
	int help;
};

#define F(field) MESS_OPT_F(struct fleet_opts, field)
#define S(field) MESS_OPT_S(struct fleet_opts, field)

static const struct mess_opt opts[] = {
	MESS_OPT_OUT(S(out), "DIR",
		     "new or empty directory " MESS_OUT_DEFAULT("fleet-")),
	{ "mad", MESS_OPT_DOUBLE, F(mad), 0, 1, 100, "N",
	  "flag a node beyond N robust standard deviations of its group (default 3.5)" },
	{ "with-invalid", MESS_OPT_FLAG, F(with_invalid), 0, 0, 0, NULL,
	  "compare nodes whose run's verdict is INVALID too (default: listed, left out of the statistics and median sets)" },
	MESS_OPT_NO_PLOTS(F(no_plots)),
	MESS_OPT_HELP(F(help)),
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mess_fleet_usage(FILE *f)
{
	fprintf(f,
		"usage: mess fleet DIR [--out OUT] [--mad N] [--with-invalid] [--no-plots]\n"
		"Merge the runs of many nodes: DIR holds one directory per node (a curve run,\n"
		"with absorb/ or ladder/ beside it where there are), as the Slurm batch script\n"
		"tools/slurm/mess-fleet.sbatch writes them.  Per node: CPU and memory\n"
		"configuration, unloaded latency, maximum bandwidth per mix, saturated-bandwidth\n"
		"range, latency at a common bandwidth, the latency ladder's levels and how each\n"
		"was measured.  Nodes are grouped by configuration; within a group a node is\n"
		"flagged where a figure's robust z-score (median and MAD) is beyond --mad and\n"
		"it is more than 5 %% from the group's median (10 %% for the latency at the\n"
		"common bandwidth, read on a curve's slope).\n"
		"Incomplete runs, runs measured otherwise than their group and other groups are\n"
		"listed, never merged.  Each node's verdict (PASS, WARN, INVALID, pending or\n"
		"none: meta.json quality) is shown and counted; a run whose verdict is INVALID\n"
		"is listed and left out of the statistics and median sets unless --with-invalid.\n\n");
	mess_opts_print(f, opts, NOPTS);
	fprintf(f,
		"\nExamples:\n"
		"  mess fleet results/partition-a                  all nodes of a batch array\n"
		"  mess fleet results/partition-a --mad 5 --out acceptance\n"
		"  mess compare acceptance/median-g1 results/partition-a/node017\n"
		"                                                  a node against its group's median\n"
		"\nFiles: fleet.csv, fleet.md, median-g<k>/ (the median family of group k, a run\n"
		"directory mess export and mess compare read), plots/fleet-curves.png,\n"
		"plots/fleet-bars.png, meta.json (see results/README.md).\n"
		"Exit status: 0 ok (outliers or not), 1 bad usage or no node run in DIR, 2 failure.\n");
}

/* Refused unless new or empty: the files must not mix with others. */
static int used(const char *dir)
{
	DIR *d = dir[0] ? opendir(dir) : NULL;
	struct dirent *e;
	int any = 0;

	/* What a writer keeps beside its outputs (.lock, an interrupted
	 * build's folder) is no content: the lock decides (rundir_lock.c). */
	while (d && !any && (e = readdir(d)))
		any = strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		      !mess_rundir_aside_name(e->d_name);
	if (d)
		closedir(d);
	return any || (dir[0] && !d && errno != ENOENT);
}

static json_t *meta(const struct mess_rundir *rd, const struct fleet *f,
		    const char *plots)
{
	static const struct mess_topo none;
	json_t *m = mess_rundir_meta(rd, &none, META_SCHEMA);
	json_t *groups = json_array(), *verdicts = json_object();
	size_t compared = 0;

	for (int v = 0; v < FV_N; v++)
		mess_json_set(verdicts, fleet_verdict_name[v],
			      json_integer((json_int_t)f->nverdict[v]));
	/* The identity is the build's; each node's CPU is in fleet.csv. */
	json_object_del(m, "cpu_model");
	for (size_t g = 0; g < f->ngroups; g++) {
		compared += f->grp[g].compared;
		json_array_append_new(groups, mess_json_pack(
			"{s:I, s:I, s:o, s:o, s:s}", "nodes", (json_int_t)f->grp[g].nodes,
			"compared", (json_int_t)f->grp[g].compared,
			"common_bw_gbs", mess_json_real(f->grp[g].common_bw, 4),
			"common_bw_store_pct", f->grp[g].mix >= 0 ?
				json_integer(f->grp[g].mix) : json_null(),
			"median_set", f->grp[g].median_dir));
	}
	if (m && mess_json_merge(m, mess_json_pack(
		"{s:s, s:s, s:I, s:I, s:I, s:o, s:b, s:I, s:o, s:I, s:f, s:f, s:f, s:f, s:i, s:f, s:i, s:s, s:s}",
		"measured", "nothing: every figure is read from the node directories' files",
		"fleet", f->dir, "nodes", (json_int_t)f->n,
		"compared", (json_int_t)compared, "missing", (json_int_t)f->nmissing,
		"verdicts", verdicts, "with_invalid", f->with_invalid,
		"invalid_left_out", (json_int_t)f->invalid_left_out,
		"groups", groups, "outliers", (json_int_t)f->noutliers,
		"mad", f->mad, "min_scale_rel", MESS_FLEET_MIN_SCALE_REL,
		"min_effect_rel", FLEET_MIN_EFFECT, "min_effect_lat_common_rel", FLEET_MIN_EFFECT_SLOPE,
		"min_nodes", MESS_FLEET_MIN_NODES, "common_bw_frac", FLEET_COMMON_FRAC,
		"median_steps", FLEET_MEDIAN_STEPS, "plots", plots,
		"files", "fleet.csv, fleet.md, median-g<k>/, plots/fleet-* (results/README.md)"))) {
		json_decref(m);
		return NULL;
	}
	return m;
}

/* One line for the terminal: how many, and who stands out. */
static void say(const struct fleet *f)
{
	size_t compared = 0, shown = 0;

	for (size_t g = 0; g < f->ngroups; g++)
		compared += f->grp[g].compared;
	fprintf(stderr, "mess fleet: %zu node directories, %zu compared in %zu group%s, %zu outlier%s",
		f->n, compared, f->ngroups, f->ngroups == 1 ? "" : "s", f->noutliers,
		f->noutliers == 1 ? "" : "s");
	for (size_t i = 0; i < f->n && shown < 8; i++) {
		for (size_t j = 0; j < f->m; j++)
			if (fleet_flagged(f, i, j)) {
				fprintf(stderr, "%s %s (%s %+.1f)", shown++ ? "," : ":",
					f->node[i].name, f->metric[j].name, f->z[i * f->m + j]);
				break;
			}
	}
	fprintf(stderr, "%s\n", f->noutliers > shown ? ", ..." : "");
	fprintf(stderr, "mess fleet: verdicts: %zu PASS, %zu WARN, %zu INVALID%s, %zu none",
		f->nverdict[FV_PASS], f->nverdict[FV_WARN], f->nverdict[FV_INVALID],
		f->with_invalid ? " (compared: --with-invalid)" : "",
		f->nverdict[FV_NONE]);
	if (f->nverdict[FV_PENDING])
		fprintf(stderr, ", %zu pending", f->nverdict[FV_PENDING]);
	if (f->invalid_left_out)
		fprintf(stderr, "; %zu INVALID run%s left out: see fleet.md, 'Verdicts'",
			f->invalid_left_out, f->invalid_left_out == 1 ? "" : "s");
	fputc('\n', stderr);
	if (compared < f->n || f->nmissing)
		fprintf(stderr, "mess fleet: %zu not compared, %zu missing: see fleet.md, 'Not compared'\n",
			f->n - compared, f->nmissing);
}

static int write_all(struct fleet *f, const char *dir, const struct fleet_opts *o,
		     char *plots, size_t plen, int *have_plots)
{
	char err[600] = "";
	int rc = fleet_write_medians(f, dir, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "mess fleet: median sets: %s\n", err);
		return rc;
	}
	*have_plots = 0;
	if (!o->no_plots) {
		int prc = fleet_plot(f, dir, err, sizeof(err));

		*have_plots = !prc;
		if (prc)
			fprintf(stderr, "mess fleet: no plots: %s\n", err);
		snprintf(plots, plen, "%s%s", prc ? "not made: " : "plots/fleet-curves.png, plots/fleet-bars.png (and .svg)",
			 prc ? err : "");
	}
	rc = fleet_write_csv(f, dir);
	if (!rc)
		rc = fleet_write_md(f, dir, *have_plots, plots);
	/* A file that could not be written is named by the run's last line. */
	if (rc && !mess_write_failed(rc))
		fprintf(stderr, "mess fleet: cannot write into %s: %s\n", dir, strerror(-rc));
	return rc;
}

int mess_fleet_main(int argc, char **argv)
{
	struct fleet_opts o = { .mad = MESS_FLEET_MAD_DEFAULT };
	struct fleet f = { 0 };
	struct mess_rundir rd = { 0 };
	char err[1024] = "", plots[700] = "skipped: --no-plots", *pos[1];
	struct stat st;
	int npos = 0, rc, have_plots = 0;

	rc = mess_cmd_open("mess fleet", opts, NOPTS, &o, &o.help,
			   mess_fleet_usage, argc, argv, pos, 1, &npos);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (!npos) {
		fprintf(stderr, "mess fleet: DIR: missing; allowed: a directory of node run directories\n");
		return -EINVAL;
	}
	if (stat(pos[0], &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "mess fleet: DIR: %s %s; allowed: a directory of node run directories\n",
			pos[0], stat(pos[0], &st) ? "does not exist" : "is a file, not a directory");
		return -EINVAL;
	}
	/* As every command: a path that can never hold the run is bad
	 * input, not a failure after the scan. */
	if (o.out[0] && mess_out_check("out", o.out, err, sizeof(err))) {
		fprintf(stderr, "mess fleet: %s\n", err);
		return -EINVAL;
	}
	if (used(o.out)) {
		fprintf(stderr, "mess fleet: --out: %s exists and is not an empty directory; allowed: a new or empty directory\n",
			o.out);
		return -EEXIST;
	}
	f.dir = pos[0];
	f.mad = o.mad;
	f.with_invalid = o.with_invalid;
	rc = fleet_scan(&f, err, sizeof(err));
	if (!rc)
		rc = fleet_analyse(&f);
	if (rc) {
		fprintf(stderr, "mess fleet: %s\n", rc == -ENOMEM ? "out of memory" : err);
		fleet_free(&f);
		return rc;
	}
	rc = mess_rundir_open_new(&rd, "mess fleet", "fleet", o.out, "fleet.csv", 0,
				  argc, argv);
	if (rc) {
		mess_rundir_close(&rd);
		fleet_free(&f);
		return rc == -EEXIST || (rc == -EINVAL && rd.why[0]) ? rc : -EIO;
	}
	rc = write_all(&f, rd.dir, &o, plots, sizeof(plots), &have_plots);
	if (!rc)
		say(&f);
	mess_rundir_stop_clock(&rd);
	rc = mess_rundir_end(&rd, rc, mess_rundir_write_meta(&rd, meta(&rd, &f, plots), !rc));
	mess_rundir_close(&rd);
	fleet_free(&f);
	return rc ? -EIO : 0;
}
