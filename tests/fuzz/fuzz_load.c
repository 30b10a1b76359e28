// SPDX-License-Identifier: MIT
/*
 * libFuzzer target of mess_set_load (make fuzz, make check-fuzz): every
 * input is written as each file the loader reads, a bwlat file, a
 * memory_curves.csv, a curves.csv and a PROFET json, and as each file it
 * reads beside a valid set (meta.json, summary.json, curve-sources.tsv,
 * plotter.txt, info.txt), and loaded.  Beyond what the sanitizers catch,
 * it aborts when a load breaks the contract: a family with a negative or
 * infinite figure, an error that is not -EINVAL, -ENOENT or -ENOMEM, or an
 * error message that is not one line naming a file of the set.
 */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mess/load.h"
#include "mess/messfmt.h"

static char base[256];

static void put(const char *rel, const uint8_t *data, size_t n)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	fp = fopen(path, "w");
	if (!fp || fwrite(data, 1, n, fp) != n || fclose(fp)) {
		perror(path);
		abort();
	}
}

static void put_text(const char *rel, const char *text)
{
	put(rel, (const uint8_t *)text, strlen(text));
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

static void cleanup(void)
{
	nftw(base, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* Valid sets, each beside the file a fuzzed input replaces. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const dirs[] = {
		"b", "m", "r", "p", "r2", "r3", "b2", "m2", "p2",
	};
	const char *tmp = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
	char path[512];
	size_t i;

	snprintf(base, sizeof(base), "%s/fuzz_load.XXXXXX", tmp);
	if (!mkdtemp(base))
		abort();
	atexit(cleanup);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", base, dirs[i]);
		if (mkdir(path, 0777))
			abort();
	}
	put_text("r2/curves.csv", MESS_CURVES_CSV_HEADER_V1 "\n"
		 "0,99.5,1000,1.5,1.5,0,120.5,0.1,3,accounted\n");
	put_text("r3/curves.csv", MESS_CURVES_CSV_HEADER_V1 "\n"
		 "0,99.5,1000,1.5,1.5,0,120.5,0.1,3,accounted\n");
	put_text("b2/bwlat_0.txt", "1000 120\n");
	put_text("b2/bwlat_50.txt", "2000 130\n");
	put_text("m2/memory_curves.csv",
		 "read_pct_rounded,pause,bandwidth_mean,latency_mean\n50,100,1.0,120\n");
	put_text("p2/curves.json", "{\"50\": [[1000, 240]]}\n");
	return 0;
}

static void check(const char *rel, double ghz)
{
	struct mess_family f = { 0 };
	struct mess_set_info in;
	char path[512], err[1024];
	size_t i, j;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	ret = mess_set_load(path, ghz, &f, &in, err, sizeof(err));
	if (ret) {
		if ((ret != -EINVAL && ret != -ENOENT && ret != -ENOMEM) ||
		    !err[0] || strchr(err, '\n') || !strstr(err, base)) {
			fprintf(stderr, "%s: %d, '%s'\n", rel, ret, err);
			abort();
		}
		mess_family_free(&f);
		return;
	}
	if (!f.n || (isfinite(in.unloaded_ns) && !(in.unloaded_ns > 0.0)))
		abort();
	for (i = 0; i < f.n; i++) {
		const struct mess_curve *c = &f.curves[i];

		if (!c->n)
			abort();
		for (j = 0; j < c->n; j++) {
			const struct mess_point *p = &c->pts[j];

			/* A run's curves.csv may leave a figure empty (NAN). */
			if (isinf(p->bw_gbs) || p->bw_gbs < 0.0 ||
			    isinf(p->lat_ns) || p->lat_ns <= 0.0)
				abort();
			if (in.kind != MESS_SET_RUN &&
			    (!isfinite(p->bw_gbs) || !isfinite(p->lat_ns)))
				abort();
		}
	}
	mess_family_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Where the input goes, and the set then loaded. */
	static const struct {
		const char *file, *set;
		double ghz;
	} uses[] = {
		{ "b/bwlat_50.txt", "b", 0 },
		{ "m/memory_curves.csv", "m", 0 },
		{ "r/curves.csv", "r", 0 },
		{ "p/curves.json", "p", 2.0 },
		{ "r2/meta.json", "r2", 0 },
		{ "r3/summary.json", "r3", 0 },
		{ "b2/curve-sources.tsv", "b2", 0 },
		{ "m2/plotter.txt", "m2", 0 },
		{ "p2/info.txt", "p2", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(uses) / sizeof(uses[0]); i++) {
		put(uses[i].file, data, size);
		check(uses[i].set, uses[i].ghz);
	}
	return 0;
}
