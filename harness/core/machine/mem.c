// SPDX-License-Identifier: MIT
#include "core/machine/mem.h"
#include "core/machine/place.h"
#include "core/util.h"

#include <errno.h>
#include <math.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The node numbers an mbind mask here holds. */
#define MESS_MAX_NODES 1024

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

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
	unsigned long long kb;

	return mess_proc_key("/proc/meminfo", "MemAvailable", 10, &kb) ? 0 :
	       (size_t)kb << 10;
}

static const char *node_root(void)
{
	const char *r = getenv("MESS_SYSFS_NODE_ROOT");

	return r && *r ? r : "/sys/devices/system/node";
}

/* One "Node N KEY: V kB" line of the node's meminfo, in bytes; -1 none. */
static long long node_meminfo(int node, const char *key)
{
	char path[256], k[80];
	unsigned long long kb;

	snprintf(path, sizeof(path), "%s/node%d/meminfo", node_root(), node);
	/* The kernel's "Node %d %s:" (node_read_meminfo). */
	snprintf(k, sizeof(k), "Node %d %s", node, key);
	return mess_proc_key(path, k, 10, &kb) ? -1 : (long long)kb << 10;
}

size_t mess_node_total(int node)
{
	long long b = node_meminfo(node, "MemTotal");

	return b > 0 ? (size_t)b : 0;
}

size_t mess_node_free(int node)
{
	long long f = node_meminfo(node, "MemFree");
	long long c = node_meminfo(node, "Inactive(file)");

	return f < 0 ? 0 : (size_t)f + (c > 0 ? (size_t)c : 0);
}

long mess_node_free_hugepages(int node)
{
	char path[256];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path),
		 "%s/node%d/hugepages/hugepages-2048kB/free_hugepages",
		 node_root(), node);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

const char *const mess_wit_names[MESS_NWIT] = { "hwloc", "libnuma", "sysfs" };

/* The largest of v[] within [1, cap] (cap 0: no bound), sysfs first on a
 * tie; -1 none. */
static int largest(const uint64_t *v, uint64_t cap)
{
	static const int order[MESS_NWIT] = { MESS_WIT_SYSFS, MESS_WIT_LIBNUMA, MESS_WIT_HWLOC };
	int best = -1;

	for (int i = 0; i < MESS_NWIT; i++) {
		int w = order[i];

		if (v[w] && (!cap || v[w] <= cap) && (best < 0 || v[w] > v[best]))
			best = w;
	}
	return best;
}

void mess_node_mem_read(int node, uint64_t hwloc_bytes, int kernel,
			struct mess_node_mem *m)
{
	unsigned long long kb;
	long long fr = 0, tot;

	memset(m, 0, sizeof(*m));
	m->node = node;
	m->total[MESS_WIT_HWLOC] = hwloc_bytes;
	if (kernel && node >= 0) {
		m->total[MESS_WIT_SYSFS] = mess_node_total(node);
		m->free[MESS_WIT_SYSFS] = mess_node_free(node);
		/* libnuma reads the real /sys: beside a fixture tree it would
		 * witness another machine. */
		if (!getenv("MESS_SYSFS_NODE_ROOT") && numa_available() >= 0 &&
		    (tot = numa_node_size64(node, &fr)) > 0) {
			m->total[MESS_WIT_LIBNUMA] = (uint64_t)tot;
			m->free[MESS_WIT_LIBNUMA] = fr > 0 ? (uint64_t)fr : 0;
		}
	}
	if (!mess_proc_key("/proc/meminfo", "MemTotal", 10, &kb))
		m->machine = (uint64_t)kb << 10;
	m->total_from = largest(m->total, kernel ? m->machine : 0);
	m->free_from = largest(m->free, mess_node_mem_total(m));
}

uint64_t mess_node_mem_total(const struct mess_node_mem *m)
{
	return m->total_from < 0 ? 0 : m->total[m->total_from];
}

uint64_t mess_node_mem_free(const struct mess_node_mem *m)
{
	return m->free_from < 0 ? 0 : m->free[m->free_from];
}

static json_t *bytes(uint64_t b)
{
	return b ? json_integer((json_int_t)b) : json_null();
}

json_t *mess_node_mem_json(const struct mess_node_mem *m)
{
	json_t *w = json_object();

	for (int i = 0; i < MESS_NWIT; i++)
		json_object_set_new(w, mess_wit_names[i],
			mess_json_pack("{s:o, s:o}", "capacity_bytes", bytes(m->total[i]),
				       "free_bytes", bytes(m->free[i])));
	return mess_json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:s, s:o}",
		"node", m->node,
		"capacity_bytes", bytes(mess_node_mem_total(m)),
		"capacity_from", m->total_from < 0 ? json_null() : json_string(mess_wit_names[m->total_from]),
		"free_bytes", bytes(mess_node_mem_free(m)),
		"free_from", m->free_from < 0 ? json_null() : json_string(mess_wit_names[m->free_from]),
		"machine_bytes", bytes(m->machine),
		"rule", "the largest figure of the three witnesses that is consistent: a capacity no larger than the machine's MemTotal, free memory no larger than the capacity used; on a tie sysfs, then libnuma",
		"witnesses", w);
}

int mess_node_fits(int node, size_t need, char *err, size_t errlen)
{
	struct mess_node_mem m;
	size_t fr;

	mess_node_mem_read(node, 0, 1, &m);
	fr = node < 0 ? 0 : (size_t)mess_node_mem_free(&m);
	/* Tests: a node short of memory on a machine that is not
	 * (MESS_FAULT_NODE_FREE_MIB). */
	if (fr && getenv("MESS_FAULT_NODE_FREE_MIB"))
		fr = (size_t)strtoull(getenv("MESS_FAULT_NODE_FREE_MIB"), NULL, 10) << 20;
	if (!fr || need <= fr)
		return 0;
	return mess_fail(err, errlen, -ENOMEM,
			 "node %d has %zu MiB free of %zu MiB, the run needs %zu MiB",
			 node, fr >> 20, (size_t)mess_node_mem_total(&m) >> 20, need >> 20);
}

int mess_node_fit_arrays(const char *prog, int node, size_t fixed, size_t n,
			 size_t *each, int given, size_t llc, char *err, size_t errlen)
{
	size_t was = *each;
	int rc;

	while ((rc = mess_node_fits(node, fixed + n * *each, err, errlen)) &&
	       !given && *each > (64u << 20))
		*each = MESS_HUGE_ROUND(*each / 2);
	if (!rc && *each < was)
		fprintf(stderr, "%s: generator arrays shrunk from %zu to %zu MiB to fit node %d's free memory (meta.json array_bytes_per_thread)%s\n",
			prog, was >> 20, *each >> 20, node, *each < 2 * llc ?
			"; warning: under 2x the LLC, part of their traffic may stay in the cache" : "");
	return rc;
}

static char hugetlb_note[192];
/* One allocation at a time decides on the node's hugetlb pool and takes
 * its pages: two generator threads must not both count the same ones. */
static pthread_mutex_t hugetlb_lock = PTHREAD_MUTEX_INITIALIZER;

const char *mess_buf_hugetlb_note(void)
{
	return hugetlb_note;
}

/* Whether the hugetlb pool as a whole has pages (what MAP_HUGETLB
 * reserves from). */
static long pool_free_hugepages(void)
{
	unsigned long long n;

	return mess_proc_key("/proc/meminfo", "HugePages_Free", 10, &n) ? -1 :
	       (long)n;
}

/*
 * hugetlb pages bound to the node, faulted in: 0, or -1 (nothing kept)
 * when the node's own pool is short or populating fails.  The pool is
 * the machine's at mmap time but the pages come from the node at fault
 * time: the node's count is checked first, and MADV_POPULATE_WRITE
 * faults them in with an error instead of a SIGBUS where the count
 * raced.
 */
static int hugetlb_on_node(struct mess_buf *b, size_t rlen, int node)
{
	size_t pages = rlen / MESS_HUGE_BYTES;
	long have = mess_node_free_hugepages(node), pool;
	unsigned long mask[(MESS_MAX_NODES + 63) / 64] = { 0 };
	void *m;

	if (have >= 0 && (size_t)have < pages) {
		pool = pool_free_hugepages();
		if (pool > 0 && !hugetlb_note[0]) {
			snprintf(hugetlb_note, sizeof(hugetlb_note),
				 "node %d has %ld free 2 MiB hugetlb pages of the pool's %ld, %zu needed: transparent huge pages or 4 KiB pages instead",
				 node, have, pool, pages);
			fprintf(stderr, "mess: warning: %s (recorded in meta.json)\n", hugetlb_note);
		}
		return -1;
	}
	m = mmap(NULL, rlen, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (m == MAP_FAILED)
		return -1;
	if (node >= MESS_MAX_NODES) {
		munmap(m, rlen);
		return -1;
	}
	mask[node / 64] = 1UL << (node % 64);
	/* Bound before the first touch: MPOL_BIND, no fallback. */
	if (mbind(m, rlen, MPOL_BIND, mask, MESS_MAX_NODES + 1, 0) ||
	    madvise(m, rlen, MADV_POPULATE_WRITE)) {
		if (errno != EINVAL || have < 0) {
			snprintf(hugetlb_note, sizeof(hugetlb_note),
				 "node %d could not give %zu hugetlb pages (%s): transparent huge pages or 4 KiB pages instead",
				 node, pages, strerror(errno));
			munmap(m, rlen);
			return -1;
		}
		/* A kernel before 5.14: the count above said they are there. */
		memset(m, 0, rlen);
	}
	b->map = b->p = m;
	b->map_len = rlen;
	b->hp = MESS_HP_HUGETLB;
	return 0;
}

/* kB of AnonHugePages in the mappings over [p, p + len): a split
 * buffer's bound ranges are a mapping each. */
static long smaps_anon_huge_kb(const void *p, size_t len)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	uintptr_t a = (uintptr_t)p;
	char line[512];
	int in = 0, seen = 0;
	long kb, sum = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		/* Mapping headers start "lo-hi "; keys never parse so. */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = a < hi && a + len > lo;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1) {
			sum += kb;
			seen = 1;
		}
	}
	fclose(f);
	return seen ? sum : -1;
}

double mess_thp_pct(const void *p, size_t len)
{
	long kb = smaps_anon_huge_kb(p, len);

	if (kb < 0 || !len)
		return NAN;
	return 100.0 * (double)kb * 1024 / (double)len;
}

static int alloc(struct mess_buf *b, size_t len, int node,
		 const struct mess_place *pl, int want_huge)
{
	size_t rlen = (len + MESS_HUGE_BYTES - 1) & ~(MESS_HUGE_BYTES - 1);
	void *m = MAP_FAILED;
	int err;

	memset(b, 0, sizeof(*b));
	b->node = -1;
	if (!len)
		return -EINVAL;
	/* A split takes no hugetlb pages, which come from each node's own
	 * pool (one short node would SIGBUS its range); transparent huge
	 * pages follow each range's policy. */
	if (!pl && node >= 0 && numa_available() >= 0) {
		char why[160];

		if (mess_node_fits(node, rlen, why, sizeof(why)))
			return -ENOMEM;
		if (want_huge) {
			pthread_mutex_lock(&hugetlb_lock);
			if (!hugetlb_on_node(b, rlen, node))
				m = b->map;
			pthread_mutex_unlock(&hugetlb_lock);
		}
	} else if (!pl && want_huge) {
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
	if (pl) {
		err = mess_place_apply(pl, b->p, rlen, want_huge ? MESS_HUGE_BYTES :
				       (size_t)sysconf(_SC_PAGESIZE));
		if (err) {
			munmap(b->map, b->map_len);
			memset(b, 0, sizeof(*b));
			b->node = -1;
			return err;
		}
	} else if (node >= 0 && numa_available() >= 0) {
		if (b->hp != MESS_HP_HUGETLB)
			numa_tonode_memory(b->p, rlen, node);
		b->node = node;
	}
	/* Fault everything in now, outside any timed region (hugetlb pages
	 * were, when bound). */
	if (b->hp != MESS_HP_HUGETLB || node < 0)
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

int mess_buf_alloc(struct mess_buf *b, size_t len, int node, int want_huge)
{
	return alloc(b, len, node, NULL, want_huge);
}

int mess_buf_alloc_placed(struct mess_buf *b, size_t len,
			  const struct mess_place *pl, int want_huge)
{
	return alloc(b, len, -1, pl, want_huge);
}

void mess_buf_free(struct mess_buf *b)
{
	if (b->map)
		munmap(b->map, b->map_len);
	memset(b, 0, sizeof(*b));
	b->node = -1;
}
