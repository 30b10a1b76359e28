// SPDX-License-Identifier: MIT
#include "core/machine/cpufreq.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "mess/json.h"
#include "mess/stats.h"

#define METHOD "chain of dependent register-register integer adds (1 cycle each), 8 per loop iteration, on the chase core; median of 5 runs of ~10 ms"

/* A sysfs frequency file in kHz; NAN when absent or unreadable. */
static double sysfs_khz(int pu, const char *name)
{
	char path[128];
	double khz = NAN;
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/%s",
		 pu, name);
	fp = fopen(path, "r");
	if (!fp)
		return NAN;
	if (fscanf(fp, "%lf", &khz) != 1 || !(khz > 0))
		khz = NAN;
	fclose(fp);
	return khz;
}

double mess_cpufreq_cur_mhz(int pu)
{
	return sysfs_khz(pu, "scaling_cur_freq") / 1e3;
}

double mess_cpufreq_cpuinfo_ghz(const char *path, const char **what)
{
	char line[512], *at, *colon;
	double ghz = NAN, mhz = NAN, v;
	FILE *fp = fopen(path, "r");

	*what = NULL;
	if (!fp)
		return NAN;
	while (fgets(line, sizeof(line), fp)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		/* Every CPU repeats both: the first of each is enough. */
		if (!strncmp(line, "model name", 10) && !isfinite(ghz)) {
			at = strstr(colon, "@ ");
			if (at && sscanf(at + 2, "%lfGHz", &v) == 1 && v > 0)
				ghz = v;
		} else if (!strncmp(line, "cpu MHz", 7) && !isfinite(mhz) &&
			   sscanf(colon + 1, "%lf", &v) == 1 && v > 0) {
			mhz = v;
		}
	}
	fclose(fp);
	if (isfinite(ghz)) {
		*what = "/proc/cpuinfo model name";
		return ghz;
	}
	if (isfinite(mhz)) {
		*what = "/proc/cpuinfo cpu MHz: the clock the kernel or hypervisor states (no cpufreq in sysfs, no clock in the model name)";
		return mhz / 1e3;
	}
	return NAN;
}

void mess_cpufreq_nominal(int pu, struct mess_cpufreq *f)
{
	static const struct {
		const char *file, *what;
	} sysfs[] = {
		/* Intel pstate states the base clock; elsewhere only the
		 * maximum (turbo included) is there. */
		{ "base_frequency", "sysfs cpufreq base_frequency" },
		{ "cpuinfo_max_freq", "sysfs cpufreq cpuinfo_max_freq (the maximum, not the base)" },
	};
	const char *what;
	double v;

	for (size_t i = 0; i < sizeof(sysfs) / sizeof(sysfs[0]); i++) {
		v = sysfs_khz(pu, sysfs[i].file);
		if (isfinite(v)) {
			f->nominal_ghz = v / 1e6;
			snprintf(f->nominal_source, sizeof(f->nominal_source),
				 "%s", sysfs[i].what);
			return;
		}
	}
	v = mess_cpufreq_cpuinfo_ghz("/proc/cpuinfo", &what);
	f->nominal_ghz = v;
	snprintf(f->nominal_source, sizeof(f->nominal_source), "%s",
		 what ? what : "unknown: no cpufreq in sysfs, no clock in /proc/cpuinfo");
}

/* 8 dependent adds; the empty asm keeps each one a real instruction and
 * the inc a register operand (an immediate add may be folded at rename). */
#define ADD1(x, y) do { (x) += (y); __asm__ volatile("" : "+r"(x)); } while (0)

static double clock_once(uint64_t iters)
{
	volatile uint64_t one = 1;
	uint64_t x = 0, y = one, t0, t1;

	t0 = mess_now_ns();
	for (uint64_t i = 0; i < iters; i++) {
		ADD1(x, y); ADD1(x, y); ADD1(x, y); ADD1(x, y);
		ADD1(x, y); ADD1(x, y); ADD1(x, y); ADD1(x, y);
	}
	t1 = mess_now_ns();
	if (x != 8 * iters || t1 <= t0)
		return NAN;
	return 8.0 * iters / (double)(t1 - t0);
}

void mess_cpufreq_measure(struct mess_cpufreq *f)
{
	double g[5], lo = INFINITY, hi = 0;
	uint64_t iters = 1 << 20;

	/* Size the runs to ~10 ms from a short first one. */
	double first = clock_once(iters);
	if (isfinite(first) && first > 0)
		iters = (uint64_t)(first * 1e7 / 8) + 1;
	for (int i = 0; i < 5; i++) {
		g[i] = clock_once(iters);
		if (!isfinite(g[i])) {
			f->measured_ghz = NAN;
			return;
		}
		lo = fmin(lo, g[i]);
		hi = fmax(hi, g[i]);
	}
	f->measured_ghz = mess_median(g, 5);
	f->measured_spread_pct = 100 * (hi - lo) / f->measured_ghz;
}

double mess_cpufreq_quick_ghz(void)
{
	double best = NAN;

	/* Three chains of 80k adds, ~25 us each at 3 GHz (the clock's read
	 * costs ~20 ns: 0.1 %): an interrupt or a preemption must hit all
	 * three to pass for a slower clock. */
	for (int i = 0; i < 3; i++) {
		double g = clock_once(10000);

		if (!isfinite(g))
			return NAN;
		best = i ? fmax(best, g) : g;
	}
	return best;
}

double mess_cpufreq_ghz(const struct mess_cpufreq *f)
{
	return isfinite(f->measured_ghz) ? f->measured_ghz : f->nominal_ghz;
}

json_t *mess_cpufreq_json(const struct mess_cpufreq *f)
{
	return mess_json_pack("{s:o, s:s, s:o, s:o, s:s}",
			      "nominal_ghz", mess_json_real(f->nominal_ghz, 3),
			      "nominal_source", f->nominal_source,
			      "measured_ghz", mess_json_real(f->measured_ghz, 3),
			      "measured_spread_pct", mess_json_real(f->measured_spread_pct, 1),
			      "measured_method", f->measured_source[0] ?
			      f->measured_source : METHOD);
}
