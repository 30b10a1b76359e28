// SPDX-License-Identifier: MIT
/* A simulator's memory model in 30 lines: load a curve set once, then ask
 * for the latency of each window's traffic.  Build against the installed
 * library:  cc simulator.c $(pkg-config --cflags --libs mess)
 * usage: simulator CURVES [READ_PCT]   (a run directory, bwlat dir, ...) */
#include <stdio.h>
#include <stdlib.h>
#include <mess/load.h>
#include <mess/model.h>

int main(int argc, char **argv)
{
	struct mess_family fam = { 0 };
	struct mess_set_info info;
	struct mess_model *m;
	double read = argc > 2 ? atof(argv[2]) : 100, max, lat;
	char err[512];

	if (argc < 2 || mess_set_load(argv[1], 0, &fam, &info, err, sizeof(err)) ||
	    mess_model_new(&fam, &m)) {
		fprintf(stderr, "usage: %s CURVES [READ_PCT]: %s\n", argv[0], argc < 2 ? "" : err);
		return 1;
	}
	mess_model_max_bw(m, read, &max);
	for (int i = 0; i <= 10; i++) {	/* one line per 10% of the maximum */
		int src = mess_model_latency(m, read, max * i / 10, &lat);
		printf("%5.1f%% reads %8.2f GB/s %8.1f ns %s\n", read, max * i / 10, lat, mess_src_name(src));
	}
	mess_model_free(m);
	mess_family_free(&fam);
	return 0;
}
