// SPDX-License-Identifier: MIT
/*
 * mess: memory-system characterisation.  The command table, and the one
 * place that turns a command's result into an exit status (core/cmd.h):
 * 0 ok, 1 usage, 2 failure, 3 not supported here, 130 interrupted.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "absorb/cmd.h"
#include "c2c/cmd.h"
#include "check/cmd.h"
#include "compare/cmd.h"
#include "core/buildinfo.h"
#include "core/cmd.h"
#include "core/options.h"
#include "core/util.h"
#include "counters/cmd.h"
#include "curves/cmd.h"
#include "export/cmd.h"
#include "fleet/cmd.h"
#include "import/cmd.h"
#include "interfere/cmd.h"
#include "interleave/cmd.h"
#include "ladder/cmd.h"
#include "matrix/cmd.h"
#include "nodes/cmd.h"
#include "position/cmd.h"
#include "profile/cmd.h"
#include "report/cmd.h"
#include "sample/cmd.h"

enum { EXIT_USAGE = 1, EXIT_FAIL = 2, EXIT_SKIP = 3, EXIT_INTR = 130 };

/* The first row runs when no command is named. */
static const struct mess_cmd cmds[] = {
	{ "curves", "bandwidth-latency curve families (the Mess method); the default",
	  mess_curves_main, mess_curves_usage, mess_curves_unavailable },
	{ "absorb", "noise-absorption tables (STREAM, lat_mem_rd, HACCmk, SPMXV) and the latency ladder",
	  mess_absorb_main, mess_absorb_usage, mess_absorb_unavailable },
	{ "ladder", "the lat_mem_rd latency ladder: cache and memory latency plateaus",
	  mess_ladder_main, mess_ladder_usage, NULL },
	{ "export", "write a curve set for the Mess simulator, PROFET or people",
	  mess_export_main, mess_export_usage, NULL },
	{ "import", "a raw Mess benchmark tree (bw/, lat/, plotter.txt) as a run directory", mess_import_main, mess_import_usage, NULL },
	{ "nodes", "the NUMA nodes: kind of memory (DRAM, HBM, CXL, ...), capacity, cores, firmware figures",
	  mess_nodes_main, mess_nodes_usage, NULL },
	{ "matrix", "latency and peak bandwidth from every node with CPUs to every memory node, beside the HMAT's",
	  mess_matrix_main, mess_matrix_usage, NULL },
	{ "c2c", "core-to-core latency: a cache line between two pinned threads, per pair and grouped",
	  mess_c2c_main, mess_c2c_usage, NULL },
	{ "interfere", "a victim core's latency distribution as aggressor cores load the memory: the knee",
	  mess_interfere_main, mess_interfere_usage, NULL },
	{ "interleave", "curve families with the pages split between two memory nodes in a list of ratios: the best split",
	  mess_interleave_main, mess_interleave_usage, NULL },
	{ "position", "place an application's DRAM traffic (perf, likwid) on a curve family",
	  mess_position_main, mess_position_usage, NULL },
	{ "compare", "curve families side by side (runs, public sets): figures, ratios, application verdicts",
	  mess_compare_main, mess_compare_usage, NULL },
	{ "check", "a CI gate: whether a run got worse than a baseline beyond both runs' spreads (exit 1)",
	  mess_check_main, mess_check_usage, NULL },
	{ "fleet", "merge the runs of many nodes (a Slurm array): one table, outlier nodes, the median family",
	  mess_fleet_main, mess_fleet_usage, NULL },
	{ "counters", "what this machine's PMUs offer: core events, memory-controller counters, and why not",
	  mess_counters_main, mess_counters_usage, NULL },
	{ "profile", "a command's DRAM read/write bandwidth over time from the memory-controller counters",
	  mess_profile_main, mess_profile_usage, mess_profile_unavailable },
	{ "report", "report.html again for a run, or for a public curve set: verdict, key figures, every figure",
	  mess_report_main, mess_report_usage, NULL },
	{ "sample", "memory-access sampling (SPE, IBS, PEBS): accuracy, overhead, losses; decode recordings",
	  mess_sample_main, mess_sample_usage, NULL },
};

#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static const struct mess_cmd *find(const char *name)
{
	for (size_t i = 0; i < NCMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: mess [COMMAND] [OPTION]...\n"
		   "       mess help COMMAND | mess COMMAND --help | mess --version\n\n"
		   "Commands:\n");
	/* The man pages (tools/gen-docs.sh) are this text as installed: they
	 * say what a command does, not what the build machine lacks. */
	int w = 0, docs = getenv("MESS_DOCS") != NULL;

	/* The summaries in one column, however long the longest name. */
	for (size_t i = 0; i < NCMDS; i++)
		if ((int)strlen(cmds[i].name) > w)
			w = (int)strlen(cmds[i].name);
	for (size_t i = 0; i < NCMDS; i++) {
		const char *why = cmds[i].unavailable && !docs ?
				  cmds[i].unavailable() : NULL;

		fprintf(f, "  %-*s  %s", w, cmds[i].name, cmds[i].summary);
		if (why)
			fprintf(f, "\n  %-*s  unavailable here: %s", w, "", why);
		fprintf(f, "\n");
	}
	fprintf(f, "\nWith no command, or with an option first, mess runs '%s':\n\n",
		cmds[0].name);
	cmds[0].usage(f);
}

static int exit_code(int rc)
{
	switch (rc) {
	case 0:
		return 0;
	case -EINVAL:
	case -EEXIST:
		return EXIT_USAGE;
	case -EOPNOTSUPP:
		return EXIT_SKIP;
	case -EINTR:
		return EXIT_INTR;
	default:
		return EXIT_FAIL;
	}
}

static int dispatch(int argc, char **argv)
{
	const struct mess_cmd *c = &cmds[0];

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc == 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))) {
		printf("mess %s (git %s)\n", mess_version, mess_git_rev);
		return 0;
	}
	/* For the man pages and shell completion make generates: the
	 * command table, one "name<TAB>summary" a line. */
	if (argc == 2 && !strcmp(argv[1], "--list-commands")) {
		for (size_t i = 0; i < NCMDS; i++)
			printf("%s\t%s\n", cmds[i].name, cmds[i].summary);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "help")) {
		if (argc == 2) {
			usage(stdout);
			return 0;
		}
		c = find(argv[2]);
		if (!c || argc > 3) {
			fprintf(stderr, "mess help: '%s' is not a command; allowed: one of",
				argc > 3 ? argv[3] : argv[2]);
			for (size_t i = 0; i < NCMDS; i++)
				fprintf(stderr, " %s", cmds[i].name);
			fprintf(stderr, "\n");
			return EXIT_USAGE;
		}
		c->usage(stdout);
		return 0;
	}
	/* A leading option (or nothing) keeps the original CLI: curves. */
	if (argc > 1 && argv[1][0] != '-') {
		c = find(argv[1]);
		if (!c) {
			const char *best = NULL;
			size_t bd = SIZE_MAX;

			for (size_t i = 0; i < NCMDS; i++) {
				size_t d = mess_edit_distance(argv[1], strlen(argv[1]),
							      cmds[i].name);

				if (d < bd) {
					bd = d;
					best = cmds[i].name;
				}
			}
			if (best && mess_close_enough(bd, strlen(argv[1])))
				fprintf(stderr, "mess: unexpected argument '%s': not a command (did you mean %s?); allowed: one of",
					argv[1], best);
			else
				fprintf(stderr, "mess: unexpected argument '%s': not a command; allowed: one of",
					argv[1]);
			for (size_t i = 0; i < NCMDS; i++)
				fprintf(stderr, " %s", cmds[i].name);
			fprintf(stderr, ", or options first (see mess --help)\n");
			return EXIT_USAGE;
		}
		argc--;
		argv++;
	}
	return exit_code(c->run(argc, argv));
}

int main(int argc, char **argv)
{
	/* glibc reports a failed write of stdout once, when its buffer
	 * overflows, and leaves errno 0 at the final fflush: a buffer larger
	 * than any help or list keeps the one failure for the check below
	 * (--help passed 4 KiB, the default buffer, with the sample row).  A
	 * terminal keeps its line buffering. */
	static char outbuf[1 << 16];
	int code;

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	/* For the hints that name a command to run again (--resume). */
	mess_argv0 = argv[0];
	code = dispatch(argc, argv);

	/* Help, a list, the run directory's name: output that never reached
	 * stdout (a full disk, /dev/full) is a failure, said once here (a
	 * command that saw it may have failed without a word); a command
	 * that failed otherwise keeps its status. */
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "mess: cannot write the output: %s\n",
			errno ? strerror(errno) : "a write to standard output failed");
		code = code ? code : EXIT_FAIL;
	}
	return code;
}
