// SPDX-License-Identifier: MIT
/*
 * `mess --mem-node each`: one curve family per kind of memory the chase
 * core reaches (DDR, HBM, CXL, ...), each a complete run directory of its
 * own under the top directory, then their comparison (core/compare/compare.h):
 * the one-command DDR-vs-HBM characterisation.
 *
 * Each family is measured by a child `mess curves` with --mem-node set to
 * its kind (the node of that kind nearest to the chase core, core/machine/memsel.h,
 * resolved again the same way: its meta.json keeps the rule that chose it)
 * and every other option passed through, so that a family is exactly what
 * a single run with --mem-node KIND would measure, resumable on its own.
 * The children's stdout is not ours: this command prints one line there,
 * the top directory.  Running the
 * same command again skips the complete families and resumes the others.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/compare/compare.h"
#include "core/machine/memsel.h"
#include "core/machine/nodes.h"
#include "core/signals.h"
#include "core/util.h"
#include "curves/measured/measured.h"
#include "mess/json.h"
#include "mess/load.h"

struct family {
	enum mess_kind kind;
	int node;
	char dir[PATH_MAX + 64];
	char label[64];
	int status;		/* child's exit status; -1 not run */
	int complete;
};

/* Whether dir holds a run (its resume.json), complete or not. */
static int run_state(const char *dir, int *complete)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/resume.json", dir);
	if (access(path, F_OK))
		return 0;
	*complete = mess_rundir_complete(dir);
	return 1;
}

/* Run `mess curves` for one family; its exit status, or -errno. */
static int child(struct family *f, int argc, char **argv, int resume)
{
	char **av = calloc(argc + 8, sizeof(char *));
	int n = 0, st;
	pid_t pid;

	if (!av)
		return -ENOMEM;
	av[n++] = "mess";
	av[n++] = "curves";
	if (resume) {
		av[n++] = "--resume";
		av[n++] = f->dir;
	} else {
		/* Every option passed through; the family's own --mem-node
		 * and --out after them win, as the last of an option given
		 * twice does (core/options.c). */
		for (int i = 1; i < argc; i++)
			av[n++] = argv[i];
		av[n++] = "--mem-node";
		av[n++] = (char *)mess_kinds[f->kind].name;
		av[n++] = "--out";
		av[n++] = f->dir;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(av);
		return -errno;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		/* Its run directory on stdout is ours to say, once. */
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execv("/proc/self/exe", av);
		fprintf(stderr, "mess: cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(2);
	}
	free(av);
	/* Ctrl-C reaches the child too (same process group): wait for it to
	 * save its state rather than leave it behind. */
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The families: one per kind that has a node, the nearest of its kind. */
static int plan(struct mess_measured *r, const char *top, struct family *fam,
		int *nfam)
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
		fam[*nfam] = (struct family){ .kind = k, .node = sel.node,
					      .status = -1 };
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

static int compare(const char *top, struct family *fam, int nfam, int no_plots)
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
	struct family fam[MESS_NKINDS];
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
	mess_signals_install();
	for (int i = 0; i < nfam && !mess_interrupted; i++) {
		int complete = 0, exists = run_state(fam[i].dir, &complete);

		if (exists && complete) {
			fprintf(stderr, "mess: %s: complete, kept\n", fam[i].dir);
			fam[i].complete = 1;
			continue;
		}
		fprintf(stderr, "mess: family %d of %d: %s into %s\n", i + 1, nfam,
			fam[i].label, fam[i].dir);
		fam[i].status = child(&fam[i], argc, argv, exists);
		if (fam[i].status == 130 || mess_interrupted)
			return -EINTR;
		fam[i].complete = fam[i].status == 0;
		failed += !fam[i].complete;
	}
	rc = compare(top, fam, nfam, r->cfg.no_plots);
	fprintf(stderr, "mess: --mem-node each: %d famil%s in %s%s\n", nfam,
		nfam == 1 ? "y" : "ies", top, failed ? "; some failed (see above)" : "");
	printf("%s\n", top);
	return rc ? rc : failed ? -EIO : 0;
}
