// SPDX-License-Identifier: MIT
#include "core/clock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "core/signals.h"

double mess_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double mess_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void mess_sleep_ns(double ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1e9),
			       .tv_nsec = (long)fmod(ns, 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR && !mess_interrupted)
		;
}

void mess_utc_now(char *buf, size_t len, int compact)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ",
		 &tm);
}

void mess_fmt_dur(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

long mess_utc_span_s(const char *a, const char *b)
{
	struct tm ta = { 0 }, tb = { 0 };
	const char *ea, *eb;

	if (!a || !b)
		return -1;
	ea = strptime(a, "%Y-%m-%dT%H:%M:%SZ", &ta);
	eb = strptime(b, "%Y-%m-%dT%H:%M:%SZ", &tb);
	if (!ea || !eb || *ea || *eb)
		return -1;
	return (long)(timegm(&tb) - timegm(&ta));
}
