// SPDX-License-Identifier: MIT
/*
 * compare's measurement differences and where memory was (issue 21): runs
 * on different kinds or nodes are measured differently; a set that does
 * not say (a public set) is no difference; meta.json's memory_node and
 * memory_node_choice.kind are read into the set's info.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mess/compare.h"
#include "mess/load.h"
#include "load_util.h"

static size_t warnings(const char *a, const char *b, char (*lines)[MESS_CMP_LINE])
{
	static struct mess_set_info x, y;
	const struct mess_set_info *info[2] = { &x, &y };
	const char *labels[2] = { "A", "B" };

	memset(&x, 0, sizeof(x));
	memset(&y, 0, sizeof(y));
	x.cores = y.cores = 3;
	x.complete = y.complete = 1;
	snprintf(x.memory, sizeof(x.memory), "%s", a);
	snprintf(y.memory, sizeof(y.memory), "%s", b);
	return mess_compare_warnings(info, labels, 2, lines, 8);
}

static int says_memory(char (*lines)[MESS_CMP_LINE], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(lines[i], "memory kinds or nodes differ"))
			return 1;
	return 0;
}

static void differences(void **state)
{
	char lines[8][MESS_CMP_LINE];
	size_t n;

	(void)state;
	n = warnings("dram node 0", "hbm node 2", lines);
	assert_true(says_memory(lines, n));
	for (size_t i = 0; i < n; i++)
		if (strstr(lines[i], "memory kinds"))
			assert_non_null(strstr(lines[i], "A dram node 0; B hbm node 2"));
	n = warnings("hbm node 2", "hbm node 2", lines);
	assert_false(says_memory(lines, n));
	/* A set that does not say where its memory was: nothing shows a
	 * difference, and none is claimed. */
	n = warnings("dram node 0", "", lines);
	assert_false(says_memory(lines, n));

	/* Two runs that say, and a public set that does not: the two still
	 * differ (unknown is left out, as for every other difference). */
	{
		static struct mess_set_info x, y, z;
		const struct mess_set_info *info[3] = { &x, &y, &z };
		const char *labels[3] = { "A", "B", "C" };

		x.cores = y.cores = z.cores = 3;
		x.complete = y.complete = z.complete = 1;
		snprintf(x.memory, sizeof(x.memory), "dram node 0");
		snprintf(y.memory, sizeof(y.memory), "hbm node 2");
		n = mess_compare_warnings(info, labels, 3, lines, 8);
		assert_true(says_memory(lines, n));
	}
}

/* meta.json's memory_node and memory_node_choice.kind, as the loader
 * reads them; a run without them says nothing. */
static void loaded(void **state)
{
	struct mess_family fam;
	struct mess_set_info info;
	char err[256] = "";

	(void)state;
	write_run();
	assert_int_equal(load("run", 0, &fam, &info, err, sizeof(err)), 0);
	mess_family_free(&fam);
	assert_string_equal(info.memory, "");
	put("run/meta.json", "{\"memory_node\": 2, \"memory_node_choice\": {\"given\": \"hbm\", \"kind\": \"hbm\", \"node\": 2, \"rule\": \"the only hbm node\"}}\n");
	assert_int_equal(load("run", 0, &fam, &info, err, sizeof(err)), 0);
	mess_family_free(&fam);
	assert_string_equal(info.memory, "hbm node 2");
	/* The firmware's figures from the chase core, where the run has
	 * them (issue 36): beside the node, in compare's memory line. */
	put("run/meta.json", "{\"memory_node\": 2, \"memory_node_choice\": {\"kind\": \"hbm\", \"node\": 2, \"firmware\": {\"latency_ns\": 120, \"bandwidth_gbs\": 85.899}}}\n");
	assert_int_equal(load("run", 0, &fam, &info, err, sizeof(err)), 0);
	mess_family_free(&fam);
	assert_string_equal(info.memory, "hbm node 2 (HMAT 120 ns, 85.9 GB/s)");
	put("run/meta.json", "{\"memory_node\": 4, \"memory_node_choice\": {\"kind\": \"nvm\", \"node\": 4, \"firmware\": {\"latency_ns\": null, \"bandwidth_gbs\": 4.295}}}\n");
	assert_int_equal(load("run", 0, &fam, &info, err, sizeof(err)), 0);
	mess_family_free(&fam);
	assert_string_equal(info.memory, "nvm node 4 (HMAT 4.3 GB/s)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(differences),
		cmocka_unit_test_setup_teardown(loaded, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
