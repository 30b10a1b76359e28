// SPDX-License-Identifier: MIT
/*
 * The timed chase against a reference that needs no correction (issue 32,
 * "an independent check"): the harness times every batch of n loads and
 * takes the timer's fixed cost, measured in bursts on an L1 chain inside
 * the window (core/tail/window.h, core/measure/hoststate.h), off each batch; a wrong cost, a wrong timer rate or a
 * kernel that adds work of its own moves its figure, by 10-15 % for the
 * cost alone.  The reference is a plain C chase of REF_LOADS dependent
 * loads between two reads of CLOCK_MONOTONIC, whose reads are then under
 * 0.1 % of the time.  Both run on the same chain, well beyond the LLC and
 * in the harness's 2 MiB TLB windows, interleaved finely (R T R ... T R,
 * about 0.5 ms each) since the host's state flips within a second and
 * moves both by up to 10 %: each timed sub-window is judged against the
 * mean of the two reference ones beside it, and the attempt by the median
 * of those differences.  A wide sanity bound (AGREE_PCT), up to ATTEMPTS
 * attempts each with its own cost, for a loaded machine; the figures go
 * to stdout for the notes.  Under an emulator (MESS_EMU, set by the
 * Makefile) time means nothing: SKIPPED, exit 0.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "core/measure/chain.h"
#include "core/measure/hoststate.h"
#include "core/measure/timer.h"
#include "core/tail/window.h"
#include "mess/hist.h"
#include "mess/rng.h"
#include "mess/stats.h"
#include "mess_kernels.h"

/* The harness's --stride default: a chased line 256 B from the next, so
 * that no adjacent-line prefetch serves a load (at 64 B the chain reads
 * about 90 ns here, the harness's 140-150 ns). */
#define LINE 256
#define HUGE_BYTES (2u << 20)		/* the harness's --window 2M */
#define MIN_BYTES (64u << 20)
#define MAX_BYTES (1u << 30)
#define REF_LOADS 4096			/* dependent loads a timestamp */
#define SUB_NS 5e5			/* a sub-window */
#define PAIRS 200			/* about 200 ms an attempt */
/* An attempt fails at random when the host's state flips while the cost
 * is taken (its bursts then read 40-50 ns against 28-35, the timed chase
 * 7-15 % low): 2 of 3 attempts failed here in 1 of 6 runs on a quiet
 * guest, all 3 in the helpers' loaded runs (issue 43).  A wrong cost or
 * timer rate moves every attempt alike, so more attempts keep the check
 * and lose only the chance.  The attempts are spread in time (a pause
 * after each failed one, doubling from 0.25 s to 4 s, 16 s at most in
 * all): in one CI run beside the parallel suites, 8 back-to-back attempts
 * (4 s) all read +5 to +6 % with the cost at 39 ns, the host in its slow
 * state throughout, while the same build passed at once here. */
#define ATTEMPTS 8
#define PAUSE_FIRST_MS 250
#define PAUSE_MAX_MS 4000
#define AGREE_PCT 3.0
/* The harness's first cost and its batch (curves/tail/tail.c, tail.h). */
#define COST_REPEATS 7
#define COST_BATCHES 20000
#define MIN_STEPS 8

/* Not instrumented under the sanitizers (check-sanitize builds this
 * too): a shadow check beside every load would slow the reference only. */
__attribute__((noinline, no_sanitize("address", "undefined")))
static void *ref_chase(void *p, unsigned loads)
{
	for (unsigned i = 0; i < loads; i++) {
		p = *(void **)p;
		__asm__ volatile("" : "+r"(p));	/* every load kept */
	}
	return p;
}

static double mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One reference sub-window: ns a load. */
static double ref_sub(void **p)
{
	double a = mono_ns();

	*p = ref_chase(*p, REF_LOADS);
	return (mono_ns() - a) / REF_LOADS;
}

/* The core's cache of a level (highest level: the LLC), bytes; 0 when
 * sysfs does not say. */
static uint64_t cache_bytes(int cpu, int want_level)
{
	uint64_t best = 0;
	int best_level = 0;

	for (int i = 0; i < 16; i++) {
		char path[128], type[32] = "";
		unsigned long size = 0;
		char unit = 0;
		int level = 0;
		FILE *f;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, i);
		if (!(f = fopen(path, "r")))
			break;
		if (fscanf(f, "%d", &level) != 1)
			level = 0;
		fclose(f);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, i);
		if ((f = fopen(path, "r"))) {
			if (fscanf(f, "%31s", type) != 1)
				type[0] = 0;
			fclose(f);
		}
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu, i);
		if ((f = fopen(path, "r"))) {
			if (fscanf(f, "%lu%c", &size, &unit) < 1)
				size = 0;
			fclose(f);
		}
		if (!strcmp(type, "Instruction"))
			continue;
		if (unit == 'K')
			size <<= 10;
		else if (unit == 'M')
			size <<= 20;
		if (want_level ? level == want_level : level > best_level) {
			best = size;
			best_level = level;
		}
	}
	return best;
}

/* The chase on one CPU, the one it is on: a migration mid-window would
 * move the figures. */
static int pin(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "tail reference: not pinned: %s\n", strerror(errno));
	return cpu;
}

/* The chain over bytes of huge-page-aligned memory, faulted in, in the
 * harness's 2 MiB windows; NULL on failure. */
static void *make_chain(size_t bytes, void **mem, size_t *mem_len)
{
	uint32_t lines = (uint32_t)(bytes / LINE), *order;
	struct mess_rng rng;
	uintptr_t a;
	void *m, *p = NULL;

	*mem_len = bytes + HUGE_BYTES;
	m = mmap(NULL, *mem_len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	*mem = m;
	a = ((uintptr_t)m + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1);
	madvise((void *)a, bytes, MADV_HUGEPAGE);
	memset((void *)a, 0, bytes);
	order = malloc((size_t)lines * sizeof(*order));
	if (!order)
		return NULL;
	mess_rng_seed(&rng, 1);
	if (!mess_chain_order(order, lines, HUGE_BYTES / LINE, &rng))
		p = mess_chain_link((void *)a, LINE, order, lines);
	free(order);
	return p;
}

struct attempt {
	double ref_ns, timed_ns, cost_ns, before, after, diff_pct;
	unsigned pairs;
};

/* R T R ... T R, each T MESS_TAIL_CHUNKS chunks of batches with an L1
 * burst after each, the bursts' cost (preemptions cut) taken off every
 * timed batch, as core/tail/window.c does; the probes before and after for
 * the notes.  h: the batches', the bursts' kept, a sub-window's bursts. */
static void measure(struct mess_hoststate *hs, void **p, double tick_ns,
		    uint64_t n, uint64_t batches, struct mess_hist *h,
		    struct attempt *at)
{
	double ref[PAIRS + 1], ticks[PAIRS], t_ns[PAIRS], d[PAIRS], r_ns[PAIRS];
	uint64_t chunk = batches / MESS_TAIL_CHUNKS, kept = 0;

	batches = chunk * MESS_TAIL_CHUNKS;
	at->before = mess_hoststate_cost(hs);
	memset(h + 1, 0, sizeof(*h));
	ref[0] = ref_sub(p);
	for (unsigned i = 0; i < PAIRS; i++) {
		memset(h, 0, sizeof(*h));
		memset(h + 2, 0, sizeof(*h));
		for (unsigned c = 0; c < MESS_TAIL_CHUNKS; c++) {
			*p = mess_chase_timed(*p, chunk, n, h->bins);
			mess_hoststate_l1_burst(hs, MESS_TAIL_BURST, h[2].bins);
		}
		kept += MESS_TAIL_CHUNKS * MESS_TAIL_BURST -
			mess_tail_cut(h + 1, h + 2, mess_tail_cut_ticks(h + 2, tick_ns), NULL);
		ticks[i] = (double)h->sum;
		ref[i + 1] = ref_sub(p);
	}
	at->after = mess_hoststate_cost(hs);
	at->cost_ns = (double)h[1].sum / (double)kept * tick_ns -
		      (double)n * mess_hoststate_l1_ns(hs);
	for (unsigned i = 0; i < PAIRS; i++) {
		t_ns[i] = (ticks[i] * tick_ns - (double)batches * at->cost_ns) /
			  (double)(batches * n);
		r_ns[i] = (ref[i] + ref[i + 1]) / 2;
		d[i] = 100 * (t_ns[i] - r_ns[i]) / r_ns[i];
	}
	at->pairs = PAIRS;
	at->diff_pct = mess_median(d, PAIRS);
	at->timed_ns = mess_median(t_ns, PAIRS);
	at->ref_ns = mess_median(r_ns, PAIRS);
}

int main(void)
{
	const char *emu = getenv("MESS_EMU");
	/* check-sanitize (MESS_SANITIZED) runs this for the memory errors of
	 * the cost and cut code; its figures are printed, not judged: the
	 * native check-unit judges the same measure, and a second judged run
	 * beside the parallel suites would double the chance of a flip. */
	const char *san = getenv("MESS_SANITIZED");
	int judged = !(san && *san);
	unsigned pause_ms = PAUSE_FIRST_MS;
	struct mess_hoststate hs;
	struct mess_timer timer;
	struct mess_hist *h;
	double tick_ns, lat, warm[8];
	uint64_t llc, bytes, n, batches;
	size_t mem_len;
	void *mem = NULL, *p;
	int cpu, err, ok = 0;

	if (emu && *emu) {
		printf("SKIPPED tail reference: under %s the timing means nothing\n", emu);
		return 0;
	}
	cpu = pin();
	err = mess_timer_open(&timer);
	if (err) {
		printf("FAIL tail reference: the timer: %s\n", strerror(-err));
		return 1;
	}
	tick_ns = 1e9 / timer.hz;
	llc = cache_bytes(cpu, 0);
	bytes = llc ? 4 * llc : 256u << 20;
	bytes = bytes < MIN_BYTES ? MIN_BYTES : bytes > MAX_BYTES ? MAX_BYTES : bytes;
	bytes = bytes / HUGE_BYTES * HUGE_BYTES;
	h = calloc(3, sizeof(*h));	/* the batches', the bursts' (2) */
	p = make_chain(bytes, &mem, &mem_len);
	if (!h || !p) {
		printf("FAIL tail reference: no %llu MiB chain\n",
		       (unsigned long long)(bytes >> 20));
		return 1;
	}
	/* The latency sets the batch as the harness sets it: at least
	 * MIN_STEPS of the timer's steps. */
	for (unsigned i = 0; i < 8; i++)
		warm[i] = ref_sub(&p);
	lat = mess_median(warm, 8);
	n = (uint64_t)ceil(MIN_STEPS * (double)timer.step_ticks * tick_ns / lat);
	n = n < 1 ? 1 : n;
	err = mess_hoststate_open(&hs, tick_ns, n, LINE, cache_bytes(cpu, 1),
				  cache_bytes(cpu, 2), 1, COST_REPEATS, COST_BATCHES);
	if (err) {
		printf("FAIL tail reference: the fixed cost: %s\n", strerror(-err));
		return 1;
	}
	batches = (uint64_t)(SUB_NS / ((double)n * lat + hs.costs[0]));
	batches = batches < 16 ? 16 : batches;
	printf("tail reference: cpu %d, chain %llu MiB (LLC %llu MiB), timer %.4f GHz (%s), "
	       "%llu load(s) a batch, %llu batches a timed sub-window, %u loads a reference one\n",
	       cpu, (unsigned long long)(bytes >> 20), (unsigned long long)(llc >> 20),
	       timer.hz / 1e9, timer.source, (unsigned long long)n,
	       (unsigned long long)batches, REF_LOADS);
	for (unsigned a = 1; a <= (judged ? ATTEMPTS : 1) && !ok; a++) {
		struct attempt at;
		struct timespec pause;

		if (a > 1) {
			pause.tv_sec = pause_ms / 1000;
			pause.tv_nsec = (long)(pause_ms % 1000) * 1000000L;
			nanosleep(&pause, NULL);
			pause_ms = pause_ms * 2 > PAUSE_MAX_MS ? PAUSE_MAX_MS : pause_ms * 2;
		}
		measure(&hs, &p, tick_ns, n, batches, h, &at);
		ok = fabs(at.diff_pct) <= AGREE_PCT;
		printf("attempt %u: reference %.1f ns, timed %.1f ns, cost %.1f ns "
		       "(before %.1f, after %.1f), diff %+.2f %% (median of %u pairs): %s\n",
		       a, at.ref_ns, at.timed_ns, at.cost_ns, at.before, at.after,
		       at.diff_pct, at.pairs, ok ? "ok" : "beyond the bound");
	}
	if (!judged) {
		mess_hoststate_close(&hs);
		munmap(mem, mem_len);
		free(h);
		printf("PASS tail reference: under the sanitizers the figures are not judged "
		       "(check-unit judges them)\n");
		return 0;
	}
	mess_hoststate_close(&hs);
	munmap(mem, mem_len);
	free(h);
	if (ok)
		printf("PASS tail reference: the timed chase within %.0f %% of the timer-free one\n",
		       AGREE_PCT);
	else
		printf("FAIL tail reference: the timed chase beyond %.0f %% of the timer-free one in %u attempts\n",
		       AGREE_PCT, ATTEMPTS);
	return !ok;
}
