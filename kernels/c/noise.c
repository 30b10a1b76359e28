// SPDX-License-Identifier: MIT
/*
 * Noise state: what the sites of noise_asm.h read.  The sites jump over
 * skip = (KMAX - k) * insn_bytes of their block, so k is a run-time choice.
 */
#include "noise.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_ALIGN	(2UL << 20)

static const char *const names[MESS_NOISE_NMODES] = {
	"none",
#define MESS_NOISE_NAME(m) #m,
	MESS_NOISE_MODES(MESS_NOISE_NAME)
#undef MESS_NOISE_NAME
};

static const unsigned char insn_bytes[MESS_NOISE_NMODES] = {
	0,
#define MESS_NOISE_BYTES(m) MESS_NOISE_BYTES_##m,
	MESS_NOISE_MODES(MESS_NOISE_BYTES)
#undef MESS_NOISE_BYTES
};

/* The largest offset a memory_ld64 slot may use must stay inside a span. */
_Static_assert(255 * MESS_NOISE_MEM_STRIDE + 8 <= MESS_NOISE_SPAN,
	       "memory_ld64 slots leave the span");

const char *mess_noise_mode_name(enum mess_noise_mode m)
{
	return (unsigned)m < MESS_NOISE_NMODES ? names[m] : NULL;
}

int mess_noise_mode_parse(const char *name, enum mess_noise_mode *m)
{
	for (unsigned i = 0; i < MESS_NOISE_NMODES; i++)
		if (!strcmp(name, names[i])) {
			*m = i;
			return 0;
		}
	return -EINVAL;
}

unsigned mess_noise_insn_bytes(enum mess_noise_mode m)
{
	return (unsigned)m < MESS_NOISE_NMODES ? insn_bytes[m] : 0;
}

static void *map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * memory_ld64 touches up to 8 small pages per iteration; on huge pages the
 * noise is DRAM misses rather than DRAM misses plus page walks.  Best
 * effort: without THP the buffer is still correct.
 */
static int alloc_mem(struct mess_noise *nz, size_t mem_bytes)
{
	size_t bytes, total;
	char *p, *lo;

	if (!mem_bytes || mem_bytes > SIZE_MAX / 2)
		return -EINVAL;
	bytes = (mem_bytes + MESS_NOISE_SPAN - 1) / MESS_NOISE_SPAN *
		MESS_NOISE_SPAN;
	total = bytes + HUGE_ALIGN;
	p = map(total);
	if (!p)
		return -ENOMEM;
	lo = (char *)(((uintptr_t)p + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1));
#ifdef MADV_HUGEPAGE
	madvise(lo, bytes, MADV_HUGEPAGE);
#endif
	/* Writing, not reading: untouched pages all map the one zero page. */
	memset(lo, 0x5a, bytes);
	nz->alloc = p;
	nz->alloc_bytes = total;
	nz->mem_lo = nz->mem = lo;
	nz->mem_hi = lo + bytes;
	return 0;
}

/* A page of its own per thread: the line is never shared or written. */
static int alloc_l1(struct mess_noise *nz)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *p = map(page);

	if (!p)
		return -ENOMEM;
	memset(p, 0x5a, MESS_NOISE_L1_BYTES);
	nz->alloc = p;
	nz->alloc_bytes = page;
	nz->l1 = (const uint64_t *)p;
	return 0;
}

int mess_noise_init(struct mess_noise *nz, enum mess_noise_mode mode,
		    unsigned k, size_t mem_bytes)
{
	int err;

	memset(nz, 0, sizeof(*nz));
	if ((unsigned)mode >= MESS_NOISE_NMODES || k > MESS_NOISE_KMAX)
		return -EINVAL;
	if (mode != MESS_NOISE_MODE_none && !MESS_NOISE_SUPPORTED)
		return -EOPNOTSUPP;
	nz->mode = mode;
	if (mode == MESS_NOISE_MODE_l1_ld64)
		err = alloc_l1(nz);
	else if (mode == MESS_NOISE_MODE_memory_ld64)
		err = alloc_mem(nz, mem_bytes);
	else
		err = 0;
	if (!err)
		err = mess_noise_set_k(nz, k);
	if (err) {
		mess_noise_free(nz);
		memset(nz, 0, sizeof(*nz));
	}
	return err;
}

int mess_noise_set_k(struct mess_noise *nz, unsigned k)
{
	if (k > MESS_NOISE_KMAX)
		return -EINVAL;
	nz->k = k;
	nz->skip = (uintptr_t)(MESS_NOISE_KMAX - k) *
		   mess_noise_insn_bytes(nz->mode);
	return 0;
}

void mess_noise_free(struct mess_noise *nz)
{
	if (nz->alloc)
		munmap(nz->alloc, nz->alloc_bytes);
	nz->alloc = NULL;
	nz->alloc_bytes = 0;
	nz->l1 = NULL;
	nz->mem = nz->mem_lo = nz->mem_hi = NULL;
}
