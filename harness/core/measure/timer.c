// SPDX-License-Identifier: MIT
#include "core/measure/timer.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/isa.h"
#include "mess_kernels.h"

/* Where the ISA's timer states its rate: its port's row
 * (kernels/asm/<isa>/port.h; the register is mess_timer_hz's). */
static const struct {
	const char *name, *path, *key;
	int how;
} timer = {
	MESS_PORT_TIMER_NAME, MESS_PORT_RATE_PATH, MESS_PORT_RATE_KEY,
	MESS_PORT_RATE_HOW,
};

static double read_stated(void)
{
	FILE *f;
	double hz = NAN;

	if (timer.how == MESS_PORT_RATE_REGISTER) {
		uint64_t r = mess_timer_hz();

		return r ? (double)r : NAN;
	}
	f = fopen(timer.path, timer.how == MESS_PORT_RATE_BE32_FILE ? "rb" : "r");
	if (!f)
		return NAN;
	if (timer.how == MESS_PORT_RATE_KHZ_FILE) {
		double khz;

		if (fscanf(f, "%lf", &khz) == 1 && khz > 0)
			hz = khz * 1e3;
	} else if (timer.how == MESS_PORT_RATE_BE32_FILE) {
		unsigned char b[4];

		if (fread(b, 1, 4, f) == 4)
			hz = (double)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
				      (uint32_t)b[2] << 8 | b[3]);
	} else {
		char line[256], *c;
		size_t kl = strlen(timer.key);

		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, timer.key, kl) &&
			    (c = strchr(line, ':')) && atof(c + 1) > 0) {
				hz = atof(c + 1);
				break;
			}
	}
	fclose(f);
	return hz > 0 ? hz : NAN;
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

int mess_timer_open(struct mess_timer *t)
{
	double n0, n1;
	uint64_t t0, t1;

	memset(t, 0, sizeof(*t));
	t->name = timer.name;
	/* Both clocks read twice each, the timer's reads inside the
	 * monotonic ones: the error is a read of each over 20 ms. */
	n0 = mess_now_ns();
	t0 = mess_timer_now();
	mess_sleep_ns(20e6);
	t1 = mess_timer_now();
	n1 = mess_now_ns();
	t->calibrated_hz = (double)(t1 - t0) / (n1 - n0) * 1e9;
	if (!(t->calibrated_hz > 0))
		return -ENOTSUP;
	t->step_ticks = timer_step();
	t->stated_hz = read_stated();
	snprintf(t->source, sizeof(t->source), "%s", timer.path);
	if (isnan(t->stated_hz) && MESS_PORT_RATE2_NAME) {
		t->stated_hz = mess_port_timer_hz2();
		snprintf(t->source, sizeof(t->source), "%s", MESS_PORT_RATE2_SOURCE);
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
			 "calibrated against CLOCK_MONOTONIC (20 ms; no rate from %s%s%s)",
			 timer.path, MESS_PORT_RATE2_NAME ? " nor " : "",
			 MESS_PORT_RATE2_NAME ? MESS_PORT_RATE2_NAME : "");
	return 0;
}
