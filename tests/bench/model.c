// SPDX-License-Identifier: MIT
/*
 * Cost of one curve-model query, as a simulator would pay it: random read
 * shares and bandwidths (up to 20% past the maximum, so extrapolation is
 * timed too) over a public curve set, one thread and then every CPU at once
 * on the one shared model (queries only read it).
 *
 * usage: bench-model memory_curves.csv [queries]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "mess/messfmt.h"
#include "mess/model.h"

struct job {
	const struct mess_model *m;
	size_t n;
	uint64_t seed;
	double ns_per_query, sink;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* xorshift: cheap next to a query, so it barely adds to the figure. */
static double rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (*s >> 11) * 0x1.0p-53;
}

static void *run(void *arg)
{
	struct job *j = arg;
	double top, t0, lat, sum = 0;

	mess_model_max_bw(j->m, 100, &top);
	t0 = now();
	for (size_t i = 0; i < j->n; i++) {
		double r = 100 * rnd(&j->seed), bw = 1.2 * top * rnd(&j->seed);

		if (mess_model_latency(j->m, r, bw, &lat) >= 0)
			sum += lat;
	}
	j->ns_per_query = (now() - t0) / j->n;
	j->sink = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	struct mess_family f = { 0 };
	struct mess_model *m;
	size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 2000000;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct job one = { .n = n, .seed = 88172645463325252ull };
	struct job *jobs;
	pthread_t *tid;
	double worst = 0;

	if (argc < 2 || mess_reference_read(argv[1], &f, NULL, 0) ||
	    mess_model_new(&f, &m)) {
		fprintf(stderr, "usage: %s memory_curves.csv [queries]\n", argv[0]);
		return 1;
	}
	one.m = m;
	run(&one);
	printf("model query: %.1f ns (1 thread, %zu queries, %zu curves)\n",
	       one.ns_per_query, n, mess_model_ncurves(m));
	if (ncpu < 1)
		ncpu = 1;
	jobs = calloc(ncpu, sizeof(*jobs));
	tid = calloc(ncpu, sizeof(*tid));
	for (long i = 0; i < ncpu; i++) {
		jobs[i] = one;
		jobs[i].seed += i + 1;
		pthread_create(&tid[i], NULL, run, &jobs[i]);
	}
	for (long i = 0; i < ncpu; i++) {
		pthread_join(tid[i], NULL);
		if (jobs[i].ns_per_query > worst)
			worst = jobs[i].ns_per_query;
	}
	printf("model query: %.1f ns (slowest of %ld threads on one model)\n",
	       worst, ncpu);
	free(jobs);
	free(tid);
	mess_model_free(m);
	mess_family_free(&f);
	return 0;
}
