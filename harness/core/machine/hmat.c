// SPDX-License-Identifier: MIT
/*
 * The ACPI HMAT read from the table (hmat.h says why not from hwloc).
 * Layouts: ACPI 6.3+ section 5.2.27 (HMAT; its System Locality Latency
 * and Bandwidth Information Structure, type 1) and 5.2.16 (SRAT; its
 * Memory Affinity Structure, type 1); little-endian, as ACPI is.
 */
#include "core/machine/hmat.h"
#include "core/machine/topo.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/parse.h"

#define ACPI_HEADER 36
#define HMAT_FIRST 40		/* the header, 4 bytes reserved */
#define SRAT_FIRST 48		/* the header, 12 bytes reserved */
#define TABLE_MAX (1u << 20)
#define MAX_NODES 1024

static uint64_t le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The table's length from its header, if it is signature sig and len
 * holds it whole; 0 otherwise. */
static size_t table_len(const unsigned char *t, size_t len, const char *sig)
{
	size_t n;

	if (!t || len < ACPI_HEADER || memcmp(t, sig, 4))
		return 0;
	n = le(t + 4, 4);
	return n >= ACPI_HEADER && n <= len ? n : 0;
}

/* Data types: 0-2 access, read, write latency; 3-5 the bandwidths. */
struct acc {
	int init, target;
	double v[6];
};

static struct acc *acc_of(struct acc **a, int *n, int *cap, int init, int target)
{
	for (int i = 0; i < *n; i++)
		if ((*a)[i].init == init && (*a)[i].target == target)
			return &(*a)[i];
	if (*n == *cap) {
		int c = *cap ? 2 * *cap : 64;
		struct acc *b = realloc(*a, sizeof(**a) * (size_t)c);

		if (!b)
			return NULL;
		*a = b;
		*cap = c;
	}
	(*a)[*n] = (struct acc){ init, target, { NAN, NAN, NAN, NAN, NAN, NAN } };
	return &(*a)[(*n)++];
}

/* Linux's hmat_normalize: 0 and 0xffff are "not given". */
static double normalise(unsigned entry, uint64_t base, int rev, int type)
{
	double v = (double)entry * (double)base;

	if (!entry || entry == 0xffff || !base)
		return NAN;
	if (rev == 1)
		return v < 10 ? NAN : ceil(v / 10);
	return type <= 2 ? ceil(v / 1000) : v;
}

/* One type 1 structure (s, n bytes) into the accumulator. */
static int locality(const unsigned char *s, size_t n, int rev,
		    struct acc **a, int *na, int *cap)
{
	uint64_t ni, nt, base;
	const unsigned char *il, *tl, *e;
	int type;

	if (n < 32)
		return -EINVAL;
	type = s[9];
	base = le(s + 24, 8);
	ni = le(s + 12, 4);
	nt = le(s + 16, 4);
	if (ni > 4096 || nt > 4096 || 32 + 4 * (ni + nt) + 2 * ni * nt > n)
		return -EINVAL;
	/* Flags bits 0-3: 0 is memory, 1-3 a cache level's figures. */
	if ((s[8] & 0x0f) || type > 5)
		return 0;
	il = s + 32;
	tl = il + 4 * ni;
	e = tl + 4 * nt;
	for (uint64_t i = 0; i < ni; i++)
		for (uint64_t j = 0; j < nt; j++) {
			double v = normalise((unsigned)le(e + 2 * (i * nt + j), 2), base,
					     rev, type);
			struct acc *p;

			if (isnan(v))
				continue;
			p = acc_of(a, na, cap, (int)le(il + 4 * i, 4), (int)le(tl + 4 * j, 4));
			if (!p)
				return -ENOMEM;
			p->v[type] = v;
		}
	return 0;
}

static double first(double a, double b)
{
	return isnan(a) ? b : a;
}

int mess_hmat_parse(const unsigned char *t, size_t len, struct mess_hmat *h)
{
	size_t n = table_len(t, len, "HMAT"), off = HMAT_FIRST;
	struct acc *a = NULL;
	int na = 0, cap = 0, rc = 0;

	*h = (struct mess_hmat){ 0 };
	if (!n)
		return -EINVAL;
	while (!rc && off + 8 <= n) {
		size_t sl = le(t + off + 4, 4);

		if (sl < 8 || off + sl > n) {
			rc = -EINVAL;
			break;
		}
		if (le(t + off, 2) == 1)
			rc = locality(t + off, sl, t[8], &a, &na, &cap);
		off += sl;
	}
	if (!rc && na) {
		h->p = malloc(sizeof(*h->p) * (size_t)na);
		rc = h->p ? 0 : -ENOMEM;
	}
	for (int i = 0; !rc && i < na; i++)
		h->p[h->n++] = (struct mess_hmat_pair){
			a[i].init, a[i].target, first(a[i].v[0], a[i].v[1]),
			first(a[i].v[4], a[i].v[3]) };
	free(a);
	if (rc)
		mess_hmat_free(h);
	return rc;
}

long mess_srat_pxm_of(const unsigned char *t, size_t len, uint64_t addr)
{
	size_t n = table_len(t, len, "SRAT"), off = SRAT_FIRST;

	if (!n)
		return -EINVAL;
	while (off + 2 <= n) {
		const unsigned char *s = t + off;
		size_t sl = s[1];

		if (sl < 2 || off + sl > n)
			return -EINVAL;
		/* Memory affinity: PXM, base, length, flags (bit 0 enabled). */
		if (s[0] == 1 && sl >= 40 && (le(s + 28, 4) & 1) &&
		    addr >= le(s + 8, 8) && addr - le(s + 8, 8) < le(s + 16, 8))
			return (long)le(s + 2, 4);
		off += sl;
	}
	return -ENOENT;
}

/* The whole file into a malloc'd buffer: 0, or -errno. */
static int slurp(const char *path, unsigned char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0, r;
	unsigned char *b;

	*buf = NULL;
	if (!f)
		return -errno;
	b = malloc(TABLE_MAX);
	if (!b) {
		fclose(f);
		return -ENOMEM;
	}
	while (n < TABLE_MAX && (r = fread(b + n, 1, TABLE_MAX - n, f)))
		n += r;
	r = ferror(f);
	fclose(f);
	if (r) {
		free(b);
		return -EIO;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* The proximity domain of node's memory: its memory blocks looked up in
 * the SRAT until one is found; -1 none. */
static long node_pxm(const char *root, int node, uint64_t block,
		     const unsigned char *srat, size_t sn)
{
	char path[4200];
	struct dirent *d;
	long pxm = -1;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/sys/devices/system/node/node%d", root, node);
	dir = opendir(path);
	if (!dir)
		return -1;
	while (pxm < 0 && (d = readdir(dir))) {
		char *end;
		unsigned long long m;

		if (strncmp(d->d_name, "memory", 6) || !d->d_name[6])
			continue;
		m = strtoull(d->d_name + 6, &end, 10);
		if (!*end)
			pxm = mess_srat_pxm_of(srat, sn, m * block);
	}
	closedir(dir);
	return pxm < 0 ? -1 : pxm;
}

static int read_block(const char *root, uint64_t *block)
{
	char path[4200];
	unsigned long long v = 0;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/sys/devices/system/memory/block_size_bytes", root);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fscanf(f, "%llx", &v) == 1 && v;
	fclose(f);
	*block = v;
	return ok ? 0 : -EINVAL;
}

/* The pairs' domains to nodes; pairs with a domain of no node go. */
static void to_nodes(struct mess_hmat *h, const long *pxm_of_node, int nnodes)
{
	int k = 0;

	for (int i = 0; i < h->n; i++) {
		int in = -1, tn = -1;

		for (int n = 0; n < nnodes; n++) {
			if (pxm_of_node[n] == h->p[i].init && in < 0)
				in = n;
			if (pxm_of_node[n] == h->p[i].target && tn < 0)
				tn = n;
		}
		if (in < 0 || tn < 0)
			continue;
		h->p[k] = h->p[i];
		h->p[k].init = in;
		h->p[k++].target = tn;
	}
	h->n = k;
}

int mess_hmat_read(const char *root, struct mess_hmat *h, char *why, size_t len)
{
	unsigned char *hmat = NULL, *srat = NULL;
	size_t hn = 0, sn = 0;
	char path[4200];
	long *pxm = NULL;
	uint64_t block = 0;
	int rc, mapped = 0;

	*h = (struct mess_hmat){ 0 };
	snprintf(path, sizeof(path), "%s/sys/firmware/acpi/tables/HMAT", root);
	rc = slurp(path, &hmat, &hn);
	if (rc)
		return mess_fail(why, len, rc,
				 rc == -ENOENT ? "the firmware gives no HMAT table (%s)" :
				 rc == -EACCES ? "%s is readable by root only" : "cannot read %s",
				 path);
	snprintf(path, sizeof(path), "%s/sys/firmware/acpi/tables/SRAT", root);
	rc = slurp(path, &srat, &sn);
	if (rc)
		snprintf(why, len, "cannot read %s, which maps the HMAT's domains to nodes: %s",
			 path, strerror(-rc));
	if (!rc) {
		rc = read_block(root, &block);
		if (rc)
			snprintf(why, len, "cannot read the memory block size under %s/sys/devices/system/memory",
				 root);
	}
	if (!rc) {
		rc = mess_hmat_parse(hmat, hn, h);
		if (rc)
			snprintf(why, len, "the HMAT table is not one this reads (cut short?)");
	}
	pxm = rc ? NULL : malloc(sizeof(*pxm) * MAX_NODES);
	if (!rc && !pxm)
		rc = -ENOMEM;
	for (int n = 0; !rc && n < MAX_NODES; n++) {
		pxm[n] = node_pxm(root, n, block, srat, sn);
		mapped += pxm[n] >= 0;
	}
	if (!rc) {
		to_nodes(h, pxm, MAX_NODES);
		if (!mapped || !h->n) {
			rc = -ENOENT;
			snprintf(why, len, "no HMAT pair maps to a node (the SRAT's ranges hold no node's memory)");
		}
	}
	if (rc)
		mess_hmat_free(h);
	free(pxm);
	free(hmat);
	free(srat);
	return rc;
}

static const struct mess_hmat_pair *pair(const struct mess_hmat *h, int init, int target)
{
	for (int i = 0; h && i < h->n; i++)
		if (h->p[i].init == init && h->p[i].target == target)
			return &h->p[i];
	return NULL;
}

int mess_hmat_machine(const struct mess_topo *t, struct mess_hmat *h,
		      char *why, size_t len)
{
	const char *root = getenv("MESS_FIRMWARE_ROOT");

	/* A tree that belongs to the XML (tests, emulated machines); never
	 * in place of this machine's own table. */
	if (!t->this_system && root && *root)
		return mess_hmat_read(root, h, why, len);
	if (!t->this_system)
		return mess_fail(why, len, -ENODEV,
				 "the topology is hwloc's XML (HWLOC_XMLFILE), not this machine: this machine's table would not describe it");
	return mess_hmat_read("", h, why, len);
}

double mess_hmat_lat(const struct mess_hmat *h, int init, int target)
{
	const struct mess_hmat_pair *p = pair(h, init, target);

	return p ? p->lat_ns : NAN;
}

double mess_hmat_bw(const struct mess_hmat *h, int init, int target)
{
	const struct mess_hmat_pair *p = pair(h, init, target);

	return p ? p->bw_mibs : NAN;
}

void mess_hmat_free(struct mess_hmat *h)
{
	free(h->p);
	*h = (struct mess_hmat){ 0 };
}
