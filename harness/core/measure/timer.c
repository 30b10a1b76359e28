// SPDX-License-Identifier: MIT
#include "core/measure/timer.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/isa.h"
#include "mess_kernels.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

enum stated { FROM_REGISTER, FROM_KHZ_FILE, FROM_BE32_FILE, FROM_CPUINFO };

/* Where each ISA's timer states its rate (the register: mess_timer_hz). */
static const struct {
	const char *isa, *name, *path, *key;
	enum stated how;
} timers[] = {
	{ "x86_64", "lfence; rdtsc", "/sys/devices/system/cpu/cpu0/tsc_freq_khz",
	  NULL, FROM_KHZ_FILE },
	{ "aarch64", "isb; mrs cntvct_el0", "cntfrq_el0", NULL, FROM_REGISTER },
	{ "riscv64", "rdtime", "/proc/device-tree/cpus/timebase-frequency",
	  NULL, FROM_BE32_FILE },
	{ "ppc64le", "mftb", "/proc/cpuinfo", "timebase", FROM_CPUINFO },
};

static double read_stated(int i)
{
	FILE *f;
	double hz = NAN;

	if (timers[i].how == FROM_REGISTER) {
		uint64_t r = mess_timer_hz();

		return r ? (double)r : NAN;
	}
	f = fopen(timers[i].path, timers[i].how == FROM_BE32_FILE ? "rb" : "r");
	if (!f)
		return NAN;
	if (timers[i].how == FROM_KHZ_FILE) {
		double khz;

		if (fscanf(f, "%lf", &khz) == 1 && khz > 0)
			hz = khz * 1e3;
	} else if (timers[i].how == FROM_BE32_FILE) {
		unsigned char b[4];

		if (fread(b, 1, 4, f) == 4)
			hz = (double)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
				      (uint32_t)b[2] << 8 | b[3]);
	} else {
		char line[256], *c;
		size_t kl = strlen(timers[i].key);

		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, timers[i].key, kl) &&
			    (c = strchr(line, ':')) && atof(c + 1) > 0) {
				hz = atof(c + 1);
				break;
			}
	}
	fclose(f);
	return hz > 0 ? hz : NAN;
}

/* CPUID leaf 0x15: TSC = crystal x EBX / EAX, where the crystal (ECX) is
 * stated; hypervisors often leave it 0. */
static double cpuid_tsc_hz(void)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;

	if (__get_cpuid_max(0, NULL) >= 0x15) {
		__cpuid(0x15, a, b, c, d);
		if (a && b && c)
			return (double)c * b / a;
	}
#endif
	return NAN;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/* Deltas of reads a varying spin apart: one that is no multiple of a
 * step brings the divisor down to the true one (1 at worst). */
static uint64_t timer_step(void)
{
	uint64_t g = 0, prev = mess_timer_now();

	for (int i = 0; i < 20000 && g != 1; i++) {
		for (volatile int k = 0; k < i % 37; k++)
			;
		uint64_t now = mess_timer_now();

		g = gcd(g, now - prev);
		prev = now;
	}
	return g ? g : 1;
}

static void sleep_ms(double ms)
{
	struct timespec ts = { 0, (long)(ms * 1e6) };

	nanosleep(&ts, NULL);
}

int mess_timer_open(struct mess_timer *t)
{
	int i = 0;
	double n0, n1;
	uint64_t t0, t1;

	for (size_t k = 0; k < sizeof(timers) / sizeof(timers[0]); k++)
		if (!strcmp(timers[k].isa, MESS_ISA))
			i = (int)k;
	memset(t, 0, sizeof(*t));
	t->name = timers[i].name;
	/* Both clocks read twice each, the timer's reads inside the
	 * monotonic ones: the error is a read of each over 20 ms. */
	n0 = mess_now_ns();
	t0 = mess_timer_now();
	sleep_ms(20);
	t1 = mess_timer_now();
	n1 = mess_now_ns();
	t->calibrated_hz = (double)(t1 - t0) / (n1 - n0) * 1e9;
	if (!(t->calibrated_hz > 0))
		return -ENOTSUP;
	t->step_ticks = timer_step();
	t->stated_hz = read_stated(i);
	snprintf(t->source, sizeof(t->source), "%s", timers[i].path);
	if (isnan(t->stated_hz) && !strcmp(MESS_ISA, "x86_64")) {
		t->stated_hz = cpuid_tsc_hz();
		snprintf(t->source, sizeof(t->source), "cpuid leaf 0x15");
	}
	if (isfinite(t->stated_hz) &&
	    fabs(t->stated_hz - t->calibrated_hz) <= MESS_TIMER_AGREE * t->stated_hz) {
		t->hz = t->stated_hz;
		return 0;
	}
	t->hz = t->calibrated_hz;
	if (isfinite(t->stated_hz))
		snprintf(t->source, sizeof(t->source),
			 "calibrated against CLOCK_MONOTONIC (20 ms; the stated %.0f Hz disagreed)",
			 t->stated_hz);
	else
		snprintf(t->source, sizeof(t->source),
			 "calibrated against CLOCK_MONOTONIC (20 ms; no rate from %s%s)",
			 timers[i].path, strcmp(MESS_ISA, "x86_64") ? "" :
			 " nor CPUID leaf 0x15");
	return 0;
}
