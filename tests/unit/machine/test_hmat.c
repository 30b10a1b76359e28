// SPDX-License-Identifier: MIT
/*
 * The ACPI HMAT read from the table (core/machine/hmat.c) with known
 * answers: a table built here byte by byte (ACPI 6.3 layouts) for two
 * initiators (proximity domains 10 and 11) and three memory domains (10,
 * 11 and a CPU-less 12), remote pairs included, which hwloc's sysfs path
 * never gives; cache-level figures and "not given" entries left out; the
 * SRAT that maps the domains to memory ranges, and a sysfs tree whose
 * nodes 0-2 hold memory blocks in those ranges (domain numbers are not
 * node numbers).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/machine/hmat.h"

struct tbl {
	unsigned char b[4096];
	size_t n;
};

static void put(struct tbl *t, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		t->b[t->n++] = (unsigned char)(v >> (8 * i));
}

/* The ACPI header (36 bytes) and `reserved` bytes; the length at the end. */
static void header(struct tbl *t, const char *sig, int rev, int reserved)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->b, sig, 4);
	t->b[8] = (unsigned char)rev;
	t->n = 36 + reserved;
}

static void close_table(struct tbl *t)
{
	for (int i = 0; i < 4; i++)
		t->b[4 + i] = (unsigned char)(t->n >> (8 * i));
}

/* A type 1 structure: 2 initiators x 3 targets, entries row-major. */
static void locality(struct tbl *t, int flags, int type, uint64_t base,
		     const unsigned e[6])
{
	static const int init[2] = { 10, 11 }, tgt[3] = { 10, 11, 12 };

	put(t, 1, 2);
	put(t, 0, 2);
	put(t, 32 + 4 * 5 + 2 * 6, 4);
	put(t, (uint64_t)flags, 1);
	put(t, (uint64_t)type, 1);
	put(t, 0, 2);
	put(t, 2, 4);
	put(t, 3, 4);
	put(t, 0, 4);
	put(t, base, 8);
	for (int i = 0; i < 2; i++)
		put(t, (uint64_t)init[i], 4);
	for (int i = 0; i < 3; i++)
		put(t, (uint64_t)tgt[i], 4);
	for (int i = 0; i < 6; i++)
		put(t, e[i], 2);
}

static void hmat_table(struct tbl *t)
{
	/* Latency in ps (base 100): 100, 150, 120 ns from 10; 150, 100 and
	 * not given (0xffff) from 11. */
	static const unsigned lat[6] = { 1000, 1500, 1200, 1500, 1000, 0xffff };
	/* Access bandwidth, MB/s (base 1024): 20, 10, 80 and 10, 20, 0 GiB/s
	 * (0: unreachable, not given). */
	static const unsigned bw[6] = { 20, 10, 80, 10, 20, 0 };
	/* Read bandwidth for one pair only: it wins over the access one. */
	static const unsigned rbw[6] = { 0, 0, 0, 0, 0, 18 };
	/* An L3's figures (flags 1): never a memory figure. */
	static const unsigned l3[6] = { 1, 1, 1, 1, 1, 1 };

	header(t, "HMAT", 2, 4);
	/* A type 0 structure (memory domain attributes), skipped. */
	put(t, 0, 2);
	put(t, 0, 2);
	put(t, 40, 4);
	t->n += 32;
	locality(t, 0, 0, 100, lat);
	locality(t, 0, 3, 1024, bw);
	locality(t, 0, 4, 1024, rbw);
	locality(t, 1, 0, 100, l3);
	close_table(t);
}

static void mem_affinity(struct tbl *t, int pxm, uint64_t base, uint64_t len, int flags)
{
	put(t, 1, 1);
	put(t, 40, 1);
	put(t, (uint64_t)pxm, 4);
	put(t, 0, 2);
	put(t, base, 8);
	put(t, len, 8);
	put(t, 0, 4);
	put(t, (uint64_t)flags, 4);
	put(t, 0, 8);
}

static void srat_table(struct tbl *t)
{
	header(t, "SRAT", 3, 12);
	/* A processor affinity structure (type 0), skipped. */
	put(t, 0, 1);
	put(t, 16, 1);
	t->n += 14;
	mem_affinity(t, 10, 0, 0x40000000, 1);
	mem_affinity(t, 11, 0x40000000, 0x40000000, 1);
	mem_affinity(t, 12, 0x100000000ULL, 0x20000000, 1);
	/* Disabled: never a domain. */
	mem_affinity(t, 13, 0x200000000ULL, 0x20000000, 0);
	close_table(t);
}

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void parse(void **state)
{
	struct tbl t;
	struct mess_hmat h;

	hmat_table(&t);
	assert_int_equal(mess_hmat_parse(t.b, t.n, &h), 0);
	/* Domains still: 10 -> 11 is remote, and given. */
	NEAR(mess_hmat_lat(&h, 10, 10), 100);
	NEAR(mess_hmat_lat(&h, 10, 11), 150);
	NEAR(mess_hmat_lat(&h, 10, 12), 120);
	NEAR(mess_hmat_lat(&h, 11, 10), 150);
	assert_true(isnan(mess_hmat_lat(&h, 11, 12)));
	NEAR(mess_hmat_bw(&h, 10, 12), 80 * 1024);
	NEAR(mess_hmat_bw(&h, 11, 10), 10 * 1024);
	/* Only the read bandwidth given for 11 -> 12. */
	NEAR(mess_hmat_bw(&h, 11, 12), 18 * 1024);
	assert_true(isnan(mess_hmat_bw(&h, 10, 13)));
	mess_hmat_free(&h);

	/* Cut short, or no HMAT at all. */
	assert_int_equal(mess_hmat_parse(t.b, t.n - 1, &h), -EINVAL);
	assert_int_equal(mess_hmat_parse(t.b, 20, &h), -EINVAL);
	t.b[0] = 'X';
	assert_int_equal(mess_hmat_parse(t.b, t.n, &h), -EINVAL);
	assert_null(h.p);
	/* A locality structure too short for its own header (24 of 32
	 * bytes, the table's last): refused, nothing read past it. */
	header(&t, "HMAT", 2, 4);
	put(&t, 1, 2);
	put(&t, 0, 2);
	put(&t, 24, 4);
	t.n += 16;
	close_table(&t);
	assert_int_equal(mess_hmat_parse(t.b, t.n, &h), -EINVAL);
}

static void srat(void **state)
{
	struct tbl t;

	srat_table(&t);
	assert_int_equal(mess_srat_pxm_of(t.b, t.n, 0), 10);
	assert_int_equal(mess_srat_pxm_of(t.b, t.n, 0x3fffffff), 10);
	assert_int_equal(mess_srat_pxm_of(t.b, t.n, 0x40000000), 11);
	assert_int_equal(mess_srat_pxm_of(t.b, t.n, 0x110000000ULL), 12);
	assert_int_equal(mess_srat_pxm_of(t.b, t.n, 0x90000000), -ENOENT);
	assert_int_equal(mess_srat_pxm_of(t.b, t.n, 0x200000000ULL), -ENOENT);
	assert_int_equal(mess_srat_pxm_of(t.b, 30, 0), -EINVAL);
}

static void file(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

/* A sysfs tree: the tables, 128 MiB blocks, node0 at 0, node1 at 1 GiB,
 * node2 at 4 GiB (blocks 0, 8 and 32). */
static void read_tree(void **state)
{
	char root[] = "/tmp/mess-hmat.XXXXXX", path[256], cmd[300], why[512];
	struct mess_hmat h;
	struct tbl t;

	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/firmware/acpi/tables %s/sys/devices/system/memory "
		 "%s/sys/devices/system/node/node0/memory0 %s/sys/devices/system/node/node1/memory8 "
		 "%s/sys/devices/system/node/node2/memory32", root, root, root, root, root);
	assert_int_equal(system(cmd), 0);
	/* No table yet: said, and nothing given. */
	assert_int_equal(mess_hmat_read(root, &h, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "no HMAT table"));
	hmat_table(&t);
	snprintf(path, sizeof(path), "%s/sys/firmware/acpi/tables/HMAT", root);
	file(path, t.b, t.n);
	srat_table(&t);
	snprintf(path, sizeof(path), "%s/sys/firmware/acpi/tables/SRAT", root);
	file(path, t.b, t.n);
	snprintf(path, sizeof(path), "%s/sys/devices/system/memory/block_size_bytes", root);
	file(path, "8000000\n", 8);
	assert_int_equal(mess_hmat_read(root, &h, why, sizeof(why)), 0);
	/* By node now: domains 10, 11, 12 are nodes 0, 1, 2. */
	NEAR(mess_hmat_lat(&h, 0, 1), 150);
	NEAR(mess_hmat_lat(&h, 1, 1), 100);
	NEAR(mess_hmat_lat(&h, 0, 2), 120);
	NEAR(mess_hmat_bw(&h, 1, 0), 10 * 1024);
	NEAR(mess_hmat_bw(&h, 0, 2), 80 * 1024);
	assert_true(isnan(mess_hmat_lat(&h, 1, 2)));
	assert_true(isnan(mess_hmat_lat(&h, 10, 11)));
	mess_hmat_free(&h);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(srat),
		cmocka_unit_test(read_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
