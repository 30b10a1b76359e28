// SPDX-License-Identifier: MIT
/* The perf ring buffer and aux area (core/pmu/pmu_ring.h). */
#include "core/pmu/pmu_ring.h"

#include "core/pmu/pmu.h"
#include "mess/parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int mess_ring_open(struct mess_ring *r, struct perf_event_attr *attr,
		   pid_t pid, int cpu, unsigned ring_pages, unsigned aux_pages,
		   char *why, size_t whylen)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *mp;
	int e;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!ring_pages || (ring_pages & (ring_pages - 1)) ||
	    (aux_pages & (aux_pages - 1)))
		return mess_fail(why, whylen, -EINVAL, "ring and aux pages must be powers of two");
	attr->size = sizeof(*attr);
	r->fd = (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0) {
		e = -errno;
		/* The reason and its fix, as for every counter. */
		mess_pmu_why(e, "the sampling event", attr, why, whylen);
		return e;
	}
	r->data_size = (size_t)ring_pages * page;
	r->map_len = page + r->data_size;
	r->base = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		e = -errno;
		r->base = NULL;
		mess_ring_close(r);
		return mess_fail(why, whylen, e, "mmap of %u ring pages: %s", ring_pages, strerror(-e));
	}
	if (aux_pages) {
		/* The aux area follows the data pages, placed by aux_offset. */
		mp = r->base;
		r->aux_len = (size_t)aux_pages * page;
		mp->aux_offset = r->map_len;
		mp->aux_size = r->aux_len;
		r->aux = mmap(NULL, r->aux_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
			      (off_t)mp->aux_offset);
		if (r->aux == MAP_FAILED) {
			e = -errno;
			r->aux = NULL;
			mess_ring_close(r);
			return mess_fail(why, whylen, e, "mmap of %u aux pages: %s", aux_pages, strerror(-e));
		}
	}
	r->scratch = malloc(r->data_size);
	if (!r->scratch) {
		mess_ring_close(r);
		return mess_fail(why, whylen, -ENOMEM, "out of memory");
	}
	r->pf.nattrs = 1;
	r->pf.attrs[0].type = attr->type;
	r->pf.attrs[0].sample_type = attr->sample_type;
	r->pf.attrs[0].read_format = attr->read_format;
	r->pf.attrs[0].branch_sample_type = attr->branch_sample_type;
	r->pf.attrs[0].regs_user = attr->sample_regs_user;
	r->pf.attrs[0].regs_intr = attr->sample_regs_intr;
	return 0;
}

int mess_ring_enable(struct mess_ring *r)
{
	return ioctl(r->fd, PERF_EVENT_IOC_ENABLE, 0) ? -errno : 0;
}

int mess_ring_disable(struct mess_ring *r)
{
	return ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0) ? -errno : 0;
}

int mess_ring_drain(struct mess_ring *r, const struct mess_perf_ops *ops,
		    void *ctx)
{
	struct perf_event_mmap_page *mp = r->base;
	const uint8_t *data = (const uint8_t *)r->base + (r->map_len - r->data_size);
	uint64_t head, tail, n, at, first;
	int rc;

	/* The kernel publishes head after the records (acquire pairs with
	 * its release); tail tells it what we consumed. */
	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	tail = mp->data_tail;
	n = head - tail;
	if (n > r->data_size)	/* cannot happen unless the page is damaged */
		n = r->data_size;
	at = tail % r->data_size;
	first = r->data_size - at < n ? r->data_size - at : n;
	memcpy(r->scratch, data + at, first);	/* up to the wrap */
	memcpy(r->scratch + first, data, n - first);	/* after it */
	rc = mess_perf_walk(&r->pf, r->scratch, n, 0, ops, ctx, &r->st);
	__atomic_store_n(&mp->data_tail, head, __ATOMIC_RELEASE);
	return rc;
}

int mess_ring_aux_bytes(const struct mess_ring *r, uint64_t offset, uint64_t size,
			const uint8_t *piece[2], size_t len[2])
{
	uint64_t at, first;

	if (!r->aux || !size || size > r->aux_len)
		return 0;
	at = offset % r->aux_len;
	first = r->aux_len - at < size ? r->aux_len - at : size;
	piece[0] = (const uint8_t *)r->aux + at;
	len[0] = first;
	if (first == size)
		return 1;
	piece[1] = r->aux;	/* the rest, from the area's start */
	len[1] = size - first;
	return 2;
}

void mess_ring_aux_release(struct mess_ring *r, uint64_t end)
{
	struct perf_event_mmap_page *mp = r->base;

	/* After the bytes were read: the kernel may then overwrite them. */
	if (r->aux)
		__atomic_store_n(&mp->aux_tail, end, __ATOMIC_RELEASE);
}

void mess_ring_close(struct mess_ring *r)
{
	if (r->aux)
		munmap(r->aux, r->aux_len);
	if (r->base)
		munmap(r->base, r->map_len);
	if (r->fd >= 0)
		close(r->fd);
	free(r->scratch);
	r->aux = r->base = NULL;
	r->scratch = NULL;
	r->fd = -1;
}
