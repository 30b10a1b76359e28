// SPDX-License-Identifier: MIT
#include "core/mem.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

const char *mess_hp_name(enum mess_hp hp)
{
	switch (hp) {
	case MESS_HP_HUGETLB:
		return "hugetlb";
	case MESS_HP_THP:
		return "thp";
	default:
		return "none";
	}
}

size_t mess_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (size_t)kb << 10;
}

/* kB of AnonHugePages in the mapping that holds p. */
static long smaps_anon_huge_kb(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0;
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		/* Mapping headers start "lo-hi "; keys never parse so. */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

double mess_thp_pct(const void *p, size_t len)
{
	long kb = smaps_anon_huge_kb(p);

	if (kb < 0 || !len)
		return NAN;
	return 100.0 * (double)kb * 1024 / (double)len;
}

int mess_buf_alloc(struct mess_buf *b, size_t len, int node, int want_huge)
{
	size_t rlen = (len + MESS_HUGE_BYTES - 1) & ~(MESS_HUGE_BYTES - 1);
	void *m = MAP_FAILED;

	memset(b, 0, sizeof(*b));
	b->node = -1;
	if (!len)
		return -EINVAL;
	if (want_huge) {
		m = mmap(NULL, rlen, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (m != MAP_FAILED) {
			b->map = b->p = m;
			b->map_len = rlen;
			b->hp = MESS_HP_HUGETLB;
		}
	}
	if (m == MAP_FAILED) {
		/* Over-allocate so the buffer can start on a 2 MiB boundary,
		 * the precondition for THP backing its first page. */
		size_t mlen = rlen + MESS_HUGE_BYTES;
		uintptr_t a;

		m = mmap(NULL, mlen, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return -errno;
		a = ((uintptr_t)m + MESS_HUGE_BYTES - 1) &
		    ~(uintptr_t)(MESS_HUGE_BYTES - 1);
		if (a > (uintptr_t)m)
			munmap(m, a - (uintptr_t)m);
		if (a + rlen < (uintptr_t)m + mlen)
			munmap((void *)(a + rlen),
			       (uintptr_t)m + mlen - (a + rlen));
		b->map = b->p = (void *)a;
		b->map_len = rlen;
		if (want_huge)
			madvise(b->p, rlen, MADV_HUGEPAGE);
	}
	b->len = rlen;
	if (node >= 0 && numa_available() >= 0) {
		numa_tonode_memory(b->p, rlen, node);
		b->node = node;
	}
	/* Fault everything in now, outside any timed region. */
	memset(b->p, 0, rlen);

	if (b->hp == MESS_HP_HUGETLB) {
		b->huge_pct = 100.0;
	} else {
		b->huge_pct = mess_thp_pct(b->p, rlen);
		if (!(b->huge_pct > 0))
			b->huge_pct = 0;
		b->hp = b->huge_pct > 0 ? MESS_HP_THP : MESS_HP_NONE;
	}
	return 0;
}

void mess_buf_free(struct mess_buf *b)
{
	if (b->map)
		munmap(b->map, b->map_len);
	memset(b, 0, sizeof(*b));
	b->node = -1;
}
