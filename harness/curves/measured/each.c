// SPDX-License-Identifier: MIT
/*
 * `mess --mem-node each`: one curve family per kind of memory the chase
 * core reaches (DDR, HBM, CXL, ...), each a complete run directory of its
 * own under the top directory, then their comparison (core/compare/compare.h):
 * the one-command DDR-vs-HBM characterisation.
 *
 * Each family is measured by a child `mess curves` (core/rundir/families.h)
 * with --mem-node set to its kind (the node of that kind nearest to the chase core, core/machine/memsel.h,
 * resolved again the same way: its meta.json keeps the rule that chose it)
 * and every other option passed through, so that a family is exactly what
 * a single run with --mem-node KIND would measure, resumable on its own.
 * The children's stdout is not ours: this command prints one line there,
 * the top directory.  Running the
 * same command again skips the complete families and resumes the others.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/compare/compare.h"
#include "core/machine/memsel.h"
#include "core/machine/nodes.h"
#include "core/rundir/families.h"
#include "core/util.h"
#include "curves/measured/measured.h"
#include "mess/json.h"
#include "mess/load.h"

/* The families: one per kind that has a node, the nearest of its kind. */
static int plan(struct mess_measured *r, const char *top,
		struct mess_family_job *fam, int *nfam)
{
	struct mess_node *nodes;
	int n = mess_nodes_list(&r->topo, &nodes);
	char err[256];

	if (n < 0)
		return n;
	*nfam = 0;
	for (int k = 0; k < MESS_NKINDS; k++) {
		struct mess_memsel sel;
		int have = 0;

		for (int i = 0; i < n; i++)
			have |= nodes[i].kind == (enum mess_kind)k;
		if (!have || k == MESS_KIND_UNKNOWN ||
		    mess_memsel_resolve(&r->topo, mess_kinds[k].name,
					r->chase_core, &sel, err, sizeof(err)))
			continue;
		fam[*nfam] = (struct mess_family_job){ .status = -1 };
		snprintf(fam[*nfam].mem_node, sizeof(fam[*nfam].mem_node), "%s",
			 mess_kinds[k].name);
		snprintf(fam[*nfam].dir, sizeof(fam[*nfam].dir), "%s/%s-node%d",
			 top, mess_kinds[k].name, sel.node);
		snprintf(fam[*nfam].label, sizeof(fam[*nfam].label), "%s node %d",
			 mess_kinds[k].name, sel.node);
		fprintf(stderr, "mess: --mem-node each: %s: node %d (%s)\n",
			mess_kinds[k].name, sel.node, sel.rule);
		(*nfam)++;
	}
	free(nodes);
	return 0;
}

static int compare(const char *top, struct mess_family_job *fam, int nfam,
		   int no_plots)
{
	struct mess_family fams[MESS_NKINDS] = { 0 };
	struct mess_set_info info[MESS_NKINDS];
	struct mess_compare_set sets[MESS_NKINDS];
	struct mess_compare_opts o = { .cmd = "mess", .no_plots = no_plots };
	char out[PATH_MAX + 16], err[512];
	int n = 0, rc = 0;

	for (int i = 0; i < nfam && !rc; i++) {
		if (!fam[i].complete)
			continue;
		rc = mess_set_load(fam[i].dir, 0, &fams[n], &info[n], err, sizeof(err));
		if (rc)
			fprintf(stderr, "mess: %s\n", err);
		sets[n] = (struct mess_compare_set){ &fams[n], &info[n], fam[i].label };
		n++;
	}
	snprintf(out, sizeof(out), "%s/compare", top);
	if (!rc && n >= 2)
		rc = mess_compare_write(out, sets, n, &o);
	else if (!rc)
		fprintf(stderr, "mess: --mem-node each: %d complete famil%s: nothing to compare\n",
			n, n == 1 ? "y" : "ies");
	for (int i = 0; i < n; i++)
		mess_family_free(&fams[i]);
	return rc;
}

int mess_curves_each(struct mess_measured *r, int argc, char **argv)
{
	struct mess_family_job fam[MESS_NKINDS];
	char top[PATH_MAX], host[256] = "host", now[32];
	int nfam = 0, rc, failed = 0;

	if (r->cfg.out[0]) {
		snprintf(top, sizeof(top), "%s", r->cfg.out);
	} else {
		mess_host_path_name(host, sizeof(host));
		mess_utc_now(now, sizeof(now), 1);
		snprintf(top, sizeof(top), "results/%s-each-%s", host, now);
	}
	/* Counters asked for by name that cannot count here: every family
	 * would fail the same way; said once, nothing created. */
	rc = mess_run_counters_open(r);
	mess_run_counters_close(r);
	if (rc)
		return rc;
	rc = plan(r, top, fam, &nfam);
	if (rc)
		return rc;
	rc = mess_mkdir_p(top);
	if (rc) {
		fprintf(stderr, "mess: --out: cannot create %s: %s\n", top, strerror(-rc));
		return -EINVAL;
	}
	rc = mess_families_run("mess", fam, nfam, argc, argv, &failed);
	if (rc)
		return rc;
	rc = compare(top, fam, nfam, r->cfg.no_plots);
	fprintf(stderr, "mess: --mem-node each: %d famil%s in %s%s\n", nfam,
		nfam == 1 ? "y" : "ies", top, failed ? "; some failed (see above)" : "");
	printf("%s\n", top);
	return rc ? rc : failed ? -EIO : 0;
}
