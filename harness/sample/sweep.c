// SPDX-License-Identifier: MIT
/*
 * `mess sample` with no subcommand: the sweep of sampling periods and aux
 * buffer sizes (issue 11).  Not written yet: it says so and exits 3.
 */
#include <errno.h>
#include <string.h>

#include "sample/sample.h"

void mess_sample_sweep_usage(FILE *f)
{
	fprintf(f,
		"usage: mess sample [OPTION]...       (the sweep: not implemented yet)\n"
		"       mess sample decode FILE [--out F.csv]\n"
		"How precise memory-access sampling (Arm SPE, AMD IBS, Intel PEBS) behaves\n"
		"on this machine, and the decoder of their recordings.\n");
}

int mess_sample_sweep_main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		mess_sample_sweep_usage(stdout);
		return 0;
	}
	fprintf(stderr, "mess sample: the sweep is not implemented yet; mess sample decode FILE reads recordings\n");
	return -EOPNOTSUPP;
}
