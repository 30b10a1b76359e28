// SPDX-License-Identifier: MIT
/*
 * What disturbed a timed run, read around it: steal time of the run's CPUs
 * (/proc/stat), involuntary context switches of each measuring thread
 * (/proc/thread-self/status, read by the thread itself) and the CPU
 * frequency where sysfs gives it.  The parsing is lib's (mess/procstat.h);
 * here only the reads.  Reads happen outside the timed interval.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "absorb/absorb.h"
#include "mess/procstat.h"

/* The start of /proc/stat: the cpu lines come first, the long intr line
 * after them; 1024 CPUs' lines fit. */
#define STAT_BYTES (128 * 1024)

static ssize_t read_at0(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	while (n < len && (r = read(fd, buf + n, len - n)) > 0)
		n += (size_t)r;
	return (ssize_t)n;
}

int absorb_dist_open(struct absorb_dist *d)
{
	d->stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	d->buf = malloc(STAT_BYTES);
	if (!d->buf)
		return -ENOMEM;
	/* Where /proc/stat cannot be read, steal is not known (meta.json
	 * says so); the run goes on. */
	if (d->stat_fd < 0)
		d->steal_err = -errno;
	return 0;
}

void absorb_dist_close(struct absorb_dist *d)
{
	if (d->stat_fd >= 0)
		close(d->stat_fd);
	d->stat_fd = -1;
	free(d->buf);
	d->buf = NULL;
}

int absorb_steal(struct absorb_dist *d, const int *pu, int n, uint64_t *steal)
{
	ssize_t len;

	*steal = 0;
	if (d->stat_fd < 0)
		return d->steal_err ? d->steal_err : -EBADF;
	len = read_at0(d->stat_fd, d->buf, STAT_BYTES);
	if (len < 0)
		return (int)len;
	for (int i = 0; i < n; i++) {
		struct mess_cpu_ticks t;
		int err = mess_procstat_cpu(d->buf, (size_t)len, pu[i], &t);

		if (err) {
			d->steal_err = err;
			return err;
		}
		*steal += t.steal;
	}
	return 0;
}

int absorb_thread_status_open(void)
{
	int fd = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int absorb_nivcsw(int fd, uint64_t *v)
{
	char buf[4096];
	ssize_t len;

	if (fd < 0)
		return -EBADF;
	len = read_at0(fd, buf, sizeof(buf));
	if (len < 0)
		return (int)len;
	return mess_procstatus_u64(buf, (size_t)len, "nonvoluntary_ctxt_switches", v);
}

double absorb_freq_mhz(int pu)
{
	char path[96];
	unsigned long khz;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", pu);
	f = fopen(path, "r");
	if (!f)
		return NAN;
	ok = fscanf(f, "%lu", &khz) == 1;
	fclose(f);
	return ok ? khz / 1e3 : NAN;
}
