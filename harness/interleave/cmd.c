// SPDX-License-Identifier: MIT
/*
 * `mess interleave NODE_A NODE_B`: curve families with the pages split
 * between two memory nodes in a list of ratios (curves' --mem-node
 * A:wa,B:wb), one family a split under a top directory, measured and
 * resumed by the runner --mem-node each uses (core/rundir/families.h),
 * then their comparison and the answer (answer.c): which split gives the
 * most bandwidth per read share, and which serves an application best.
 *
 * Every option but interleave's own is the curves' and goes to each
 * child as given; it is checked first by a child that only parses it
 * (curves --help), so that bad input writes nothing.
 */
#include "interleave/cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/machine/nodes.h"
#include "core/machine/topo.h"
#include "core/options.h"
#include "core/rundir/outdir.h"
#include "core/util.h"
#include "interleave/interleave.h"
#include "mess/compare.h"

#define PROG "mess interleave"
#define DEFAULT_SPLITS "1:0,3:1,1:1,1:3,0:1"
#define SPLITS_ALLOWED "2 to 8 splits WA:WB, the pages on NODE_A to those on NODE_B, integers 0..255 not both 0 (1:0 all on NODE_A), none the same ratio as another (e.g. " DEFAULT_SPLITS ")"
#define APP_ALLOWED "R:BW, R the read share 0..100 % and BW the bandwidth in GB/s > 0 (e.g. 70:150; repeat --app or separate with commas), each once"

void mess_interleave_usage(FILE *f)
{
	fprintf(f,
		"usage: mess interleave NODE_A NODE_B [OPTION]... [CURVES OPTION]...\n"
		"Curve families with the memory split page by page between two NUMA nodes\n"
		"in a list of ratios (mess curves --mem-node A:WA,B:WB; a 0 weight puts\n"
		"every page on the other node), one family a split, then their comparison:\n"
		"per read share the split with the most bandwidth, the latency at common\n"
		"bandwidths, and with --app the split that serves an application at the\n"
		"lowest latency and whether any sustains it.  Running it again keeps the\n"
		"complete families and resumes the others.  NODE_A and NODE_B come first.\n\n"
		"  --splits LIST     the splits, WA:WB[,WA:WB]... (default " DEFAULT_SPLITS ")\n"
		"  --app R:BW[,R:BW] an application moving BW GB/s at R %% reads: the split that\n"
		"                    serves it at the lowest latency (repeatable)\n"
		"  --out DIR         top directory (default results/<host>-interleave-<UTC timestamp>)\n"
		"  --help            this text\n"
		"Every other option is mess curves' (mess curves --help), given to each family\n"
		"as it is: --quick, --mixes, --points, --cores, --buffer, --no-plots, ...\n"
		"\nExamples:\n"
		"  mess interleave 0 2 --quick      DDR node 0 and HBM node 2: five splits, quick\n"
		"  mess interleave 0 1 --splits 1:0,1:1,0:1 --app 70:150\n"
		"                                    three splits; which serves 150 GB/s at 70 %% reads\n"
		"  mess interleave 0 1 --out results/ddr-cxl   again: complete splits kept\n"
		"\nFiles (results/README.md): split-A<WA>-B<WB>/ (a run directory each),\n"
		"compare/ (mess compare's files), interleave.json, summary.md, report.html;\n"
		"the top directory is printed on stdout, the answer first in each file.\n"
		"Exit status: 0 ok, 1 bad usage, 2 failure, 3 the machine has one memory\n"
		"node, 130 interrupted (rerun to resume).\n");
}

/* WA:WB, both in the grammar of every option, as one value. */
static int split_item(const char *w, void *ctx, double *v)
{
	const char *c = strchr(w, ':');
	char a[MESS_ITEM_MAX + 1];
	uint64_t x, y;

	(void)ctx;
	if (!c)
		return -EINVAL;
	snprintf(a, sizeof(a), "%.*s", (int)(c - w), w);
	if (mess_opt_u64(a, &x) || mess_opt_u64(c + 1, &y) ||
	    x > MESS_IL_WEIGHT_MAX || y > MESS_IL_WEIGHT_MAX || (!x && !y))
		return -EINVAL;
	*v = (double)(x * 256 + y);
	return 0;
}

static int splits(struct mess_il *il, const char *s, char *err, size_t errlen)
{
	const struct mess_items it = { "splits", split_item, NULL,
				       "is not allowed", SPLITS_ALLOWED };
	double v[MESS_IL_MAX_SPLITS];
	int n;

	if (mess_parse_items(&it, s, v, MESS_IL_MAX_SPLITS, &n, err, errlen))
		return -EINVAL;
	if (n < 2)
		return mess_fail(err, errlen, -EINVAL, "--splits: '%s' is one split; allowed: %s",
				 s, SPLITS_ALLOWED);
	for (int i = 0; i < n; i++) {
		int wa = (int)v[i] / 256, wb = (int)v[i] % 256;

		/* 2:2 is 1:1: the same family twice. */
		for (int j = 0; j < i; j++)
			if (wa * il->split[j].wb == wb * il->split[j].wa)
				return mess_fail(err, errlen, -EINVAL, "--splits: '%d:%d' is the ratio of '%d:%d'; allowed: %s",
						 wa, wb, il->split[j].wa, il->split[j].wb,
						 SPLITS_ALLOWED);
		il->split[i].wa = wa;
		il->split[i].wb = wb;
	}
	il->nsplit = n;
	return 0;
}

/* NODE_A, NODE_B: OS indices as --mem-node takes them. */
static int node_arg(const char *s, const char *which, int *node)
{
	int64_t v;

	if (mess_opt_i64(s, &v) || v < 0 || v > 4095) {
		mess_say(PROG ": %s: '%s' is not allowed; allowed: a memory node's number (see mess nodes)\n",
			 which, s);
		return -EINVAL;
	}
	*node = (int)v;
	return 0;
}

/* Options of curves that interleave gives itself, or that would make a
 * child do something other than measure its family. */
static const char *const not_passed[] = { "mem-node", "resume", "force", "list", "json" };

/* --name VALUE or --name=VALUE at argv[*i]: the value, or NULL. */
static const char *own(int argc, char **argv, int *i, const char *name, int *bad)
{
	const char *a = argv[*i];
	size_t l = strlen(name);

	if (strncmp(a, "--", 2) || strncmp(a + 2, name, l))
		return NULL;
	if (a[2 + l] == '=')
		return a + 3 + l;
	if (a[2 + l])
		return NULL;
	if (*i + 1 >= argc) {
		mess_say(PROG ": --%s needs a value\n", name);
		*bad = 1;
		return NULL;
	}
	return argv[++*i];
}

/*
 * The curves options checked by a child that parses them and stops
 * (curves --help, its text thrown away): its one line, said as ours.
 * 0, -EINVAL (said), -errno.
 */
static int check_passed(int argc, char **argv)
{
	char **av = calloc(argc + 4, sizeof(char *)), buf[4096];
	int p[2], st, n = 0;
	ssize_t got = 0, r;
	pid_t pid;

	if (!av || pipe(p)) {
		free(av);
		return -ENOMEM;
	}
	av[n++] = "mess";
	av[n++] = "curves";
	for (int i = 1; i < argc; i++)
		av[n++] = argv[i];
	av[n++] = "--help";
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(av);
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		execv("/proc/self/exe", av);
		_exit(2);
	}
	free(av);
	close(p[1]);
	while ((r = read(p[0], buf + got, sizeof(buf) - 1 - got)) > 0 ||
	       (r < 0 && errno == EINTR))
		got += r > 0 ? r : 0;
	close(p[0]);
	buf[got] = 0;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	/* "mess: --mixes: ..." is ours to say: one line, our name. */
	buf[strcspn(buf, "\n")] = 0;
	mess_say(PROG ": %s\n", !strncmp(buf, "mess: ", 6) ? buf + 6 :
		 buf[0] ? buf : "the curves options were refused");
	return WIFEXITED(st) && WEXITSTATUS(st) == 1 ? -EINVAL : -EIO;
}

/* The nodes on this machine: 0, -EOPNOTSUPP (one node), -EINVAL (a node
 * not here), -EIO; said. */
static int machine(const struct mess_il *il)
{
	struct mess_topo t;
	struct mess_node *nodes;
	int n, have_a = 0, have_b = 0;

	if (mess_topo_init_said(&t, PROG))
		return -EIO;
	n = mess_nodes_list(&t, &nodes);
	mess_topo_fini(&t);
	if (n < 0) {
		mess_say(PROG ": cannot list the memory nodes: %s\n", strerror(-n));
		return -EIO;
	}
	for (int i = 0; i < n; i++) {
		have_a |= nodes[i].os == il->a;
		have_b |= nodes[i].os == il->b;
	}
	free(nodes);
	if (n < 2) {
		mess_say(PROG ": this machine has one memory node, nothing to split\n");
		return -EOPNOTSUPP;
	}
	if (!have_a || !have_b) {
		mess_say(PROG ": %s: node %d is not a memory node of this machine; allowed: one of its %d nodes (see mess nodes)\n",
			 have_a ? "NODE_B" : "NODE_A", have_a ? il->b : il->a, n);
		return -EINVAL;
	}
	return 0;
}

static void plan(struct mess_il *il)
{
	for (int i = 0; i < il->nsplit; i++) {
		struct mess_il_split *s = &il->split[i];
		struct mess_family_job *j = &s->job;

		*j = (struct mess_family_job){ .status = -1 };
		snprintf(j->dir, sizeof(j->dir), "%s/split-A%d-B%d", il->top, s->wa, s->wb);
		/* The nodes in the label: it titles every figure. */
		if (!s->wb || !s->wa) {
			snprintf(j->mem_node, sizeof(j->mem_node), "%d", s->wb ? il->b : il->a);
			snprintf(j->label, sizeof(j->label), "all on node %d", s->wb ? il->b : il->a);
		} else {
			snprintf(j->mem_node, sizeof(j->mem_node), "%d:%d,%d:%d",
				 il->a, s->wa, il->b, s->wb);
			snprintf(j->label, sizeof(j->label), "nodes %s", j->mem_node);
		}
	}
}

int mess_interleave_main(int argc, char **argv)
{
	static struct mess_il il;
	char **pass = calloc(argc + 2, sizeof(char *));
	char top[PATH_MAX], out[PATH_MAX] = "", err[1024], host[256] = "host", now[32];
	const char *spl = DEFAULT_SPLITS;
	int npass = 0, npos = 0, bad = 0, rc, failed = 0;

	if (!pass)
		return -ENOMEM;
	memset(&il, 0, sizeof(il));
	pass[npass++] = argv[0];
	for (int i = 1; i < argc && !bad; i++) {
		const char *v;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			mess_interleave_usage(stdout);
			free(pass);
			return 0;
		}
		if (i <= 2 && npos == i - 1 && argv[i][0] != '-') {
			bad = node_arg(argv[i], npos ? "NODE_B" : "NODE_A",
				       npos ? &il.b : &il.a) != 0;
			npos++;
		} else if ((v = own(argc, argv, &i, "splits", &bad))) {
			spl = v;
		} else if ((v = own(argc, argv, &i, "out", &bad))) {
			snprintf(out, sizeof(out), "%s", v);
		} else if ((v = own(argc, argv, &i, "app", &bad))) {
			if (mess_compare_parse_apps(v, il.app_r, il.app_bw,
						    MESS_COMPARE_MAX_APPS, &il.napps,
						    err, sizeof(err))) {
				mess_say(PROG ": %s\n", err);
				bad = 1;
			}
		} else if (!bad) {
			for (size_t k = 0; k < sizeof(not_passed) / sizeof(not_passed[0]); k++)
				if (!strncmp(argv[i], "--", 2) &&
				    !strncmp(argv[i] + 2, not_passed[k], strlen(not_passed[k])) &&
				    (!argv[i][2 + strlen(not_passed[k])] ||
				     argv[i][2 + strlen(not_passed[k])] == '=')) {
					mess_say(PROG ": --%s is not allowed here; allowed: the curves options but --mem-node, --resume, --force, --list, --json (the splits place the memory; a rerun resumes)\n",
						 not_passed[k]);
					bad = 1;
				}
			il.no_plots |= !strcmp(argv[i], "--no-plots");
			pass[npass++] = argv[i];
		}
	}
	for (size_t i = 0; !bad && i < il.napps; i++)
		for (size_t j = 0; j < i; j++)
			if (il.app_r[i] == il.app_r[j] && il.app_bw[i] == il.app_bw[j]) {
				mess_say(PROG ": --app: '%g:%g' is given twice; allowed: %s\n",
					 il.app_r[i], il.app_bw[i], APP_ALLOWED);
				bad = 1;
				break;
			}
	if (!bad && npos < 2) {
		mess_say(PROG ": %s missing; allowed: mess interleave NODE_A NODE_B [OPTION]..., two memory nodes first (see mess nodes)\n",
			 npos ? "NODE_B" : "NODE_A and NODE_B");
		bad = 1;
	}
	if (!bad && il.a == il.b) {
		mess_say(PROG ": NODE_B: node %d is NODE_A too; allowed: two different memory nodes\n",
			 il.b);
		bad = 1;
	}
	if (!bad && splits(&il, spl, err, sizeof(err))) {
		mess_say(PROG ": %s\n", err);
		bad = 1;
	}
	if (!bad && out[0] && mess_out_check("out", out, err, sizeof(err))) {
		mess_say(PROG ": %s\n", err);
		bad = 1;
	}
	rc = bad ? -EINVAL : check_passed(npass, pass);
	if (!rc)
		rc = machine(&il);
	if (rc) {
		free(pass);
		return rc;
	}
	if (out[0]) {
		snprintf(top, sizeof(top), "%s", out);
	} else {
		mess_host_path_name(host, sizeof(host));
		mess_utc_now(now, sizeof(now), 1);
		snprintf(top, sizeof(top), "results/%s-interleave-%s", host, now);
	}
	il.top = top;
	plan(&il);
	rc = mess_mkdir_p(top);
	if (rc) {
		mess_say(PROG ": --out: cannot create %s: %s\n", top, strerror(-rc));
		free(pass);
		return -EINVAL;
	}
	{
		struct mess_family_job jobs[MESS_IL_MAX_SPLITS];

		for (int i = 0; i < il.nsplit; i++)
			jobs[i] = il.split[i].job;
		rc = mess_families_run(PROG, jobs, il.nsplit, npass, pass, &failed);
		for (int i = 0; i < il.nsplit; i++)
			il.split[i].job = jobs[i];
	}
	free(pass);
	if (rc)
		return rc;
	rc = mess_il_answer(&il);
	mess_say(PROG ": %d split%s of nodes %d and %d in %s%s\n", il.nsplit,
		 il.nsplit == 1 ? "" : "s", il.a, il.b, top,
		 failed ? "; some failed (see above)" : "");
	printf("%s\n", top);
	return rc ? rc : failed ? -EIO : 0;
}
