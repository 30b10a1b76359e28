// SPDX-License-Identifier: MIT
/*
 * libFuzzer target of the run-directory loaders (lib/formats/load_run.c,
 * lib/formats/load_meta.c through mess_set_load): each input is a directory of
 * files (tests/fuzz/fuzz_files.h: curves.csv first, then "@@ meta.json",
 * "@@ summary.json", "@@ plotter.txt", "@@ info.txt", "@@ memory_curves.csv"
 * and the like, FIFOs and links to /dev/zero included), loaded.  Beyond
 * what the sanitizers catch, it aborts when a load breaks the contract:
 * an error other than -EINVAL, -ENOENT or -ENOMEM, an error message that
 * is not one line naming a file of the set, or a family with a negative
 * or infinite figure.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/load.h"
#include "mess/messfmt.h"
#include "fuzz_files.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_files_init("fuzz_rundir");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mess_family f = { 0 };
	struct mess_set_info in;
	char err[1024] = "";
	int ret;

	fuzz_files_write(data, size, "curves.csv");
	ret = mess_set_load(fuzz_dir, 0, &f, &in, err, sizeof(err));
	if (ret) {
		if ((ret != -EINVAL && ret != -ENOENT && ret != -ENOMEM) ||
		    (ret != -ENOMEM && (!err[0] || strchr(err, '\n') ||
					!strstr(err, fuzz_dir)))) {
			fprintf(stderr, "mess_set_load: %d, '%s'\n", ret, err);
			abort();
		}
		mess_family_free(&f);
		return 0;
	}
	if (!f.n || (isfinite(in.unloaded_ns) && !(in.unloaded_ns > 0.0)))
		abort();
	for (size_t i = 0; i < f.n; i++) {
		const struct mess_curve *c = &f.curves[i];

		if (!c->n)
			abort();
		for (size_t j = 0; j < c->n; j++) {
			const struct mess_point *p = &c->pts[j];

			/* a run's curves.csv may leave a figure empty (NAN) */
			if (isinf(p->bw_gbs) || p->bw_gbs < 0.0 ||
			    isinf(p->lat_ns) || p->lat_ns <= 0.0)
				abort();
		}
	}
	mess_family_free(&f);
	return 0;
}
