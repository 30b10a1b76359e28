// SPDX-License-Identifier: MIT
/*
 * libFuzzer target of the raw Mess tree reader (mess_raw_read, what
 * `mess import` and every reader of a raw tree use): each input is a tree
 * (tests/fuzz/fuzz_files.h: plotter.txt first, then "@@ bw/bw_0_100.txt"
 * and the like, FIFOs and links to /dev/zero included), read.  Beyond
 * what the sanitizers catch, it aborts when a read breaks the contract:
 * an error other than -EINVAL, -ENOENT or -ENOMEM, an error message that
 * is not one line naming a file of the tree, or a point whose figures the
 * suite's own curves.csv reader would refuse (what import writes).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/messfmt.h"
#include "mess/messraw.h"
#include "fuzz_files.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_files_init("fuzz_messraw");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mess_family f = { 0 };
	struct mess_raw r;
	char err[1024] = "", why[1024];
	int ret;

	fuzz_files_write(data, size, "plotter.txt");
	ret = mess_raw_read(fuzz_dir, &f, &r, err, sizeof(err));
	if (ret) {
		if ((ret != -EINVAL && ret != -ENOENT && ret != -ENOMEM) ||
		    (ret != -ENOMEM && (!err[0] || strchr(err, '\n') ||
					!strstr(err, fuzz_dir)))) {
			fprintf(stderr, "mess_raw_read: %d, '%s'\n", ret, err);
			abort();
		}
		mess_family_free(&f);
		return 0;
	}
	if (!f.n || !r.points)
		abort();
	for (size_t i = 0; i < f.n; i++) {
		if (!f.curves[i].n)
			abort();
		for (size_t j = 0; j < f.curves[i].n; j++)
			if (mess_point_check(&f.curves[i].pts[j], "point", why,
					     sizeof(why))) {
				fprintf(stderr, "a point import would write: %s\n", why);
				abort();
			}
	}
	mess_family_free(&f);
	return 0;
}
