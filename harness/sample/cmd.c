// SPDX-License-Identifier: MIT
/*
 * `mess sample`: how precise memory-access sampling (Arm SPE, AMD IBS,
 * Intel PEBS, and the kernel's cpu-clock where none is present) behaves on
 * this machine, and `mess sample decode`, which reads recordings of any
 * machine.  One row per subcommand; no subcommand is the sweep.
 */
#include "sample/cmd.h"

#include <string.h>

#include "sample/sample.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *f);
} subs[] = {
	{ "decode", mess_sample_decode_main, mess_sample_decode_usage },
};

#define NSUBS (sizeof(subs) / sizeof(subs[0]))

void mess_sample_usage(FILE *f)
{
	mess_sample_sweep_usage(f);
	for (size_t i = 0; i < NSUBS; i++) {
		fprintf(f, "\n");
		subs[i].usage(f);
	}
}

int mess_sample_main(int argc, char **argv)
{
	if (argc > 1)
		for (size_t i = 0; i < NSUBS; i++)
			if (!strcmp(argv[1], subs[i].name))
				return subs[i].run(argc - 1, argv + 1);
	return mess_sample_sweep_main(argc, argv, mess_sample_usage);
}
