// SPDX-License-Identifier: MIT
/* The competition reason and the next step as a user reads them (issue 46
 * item 1): one item a process, not a thread; whole items only, the rest
 * counted ("and N more processes"); no reason cut inside a word. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/machine/environ.h"
#include "mess/quality.h"

static void task(struct mess_env *e, int pid, int tid, int pu, const char *comm)
{
	struct mess_env_task *t = &e->other[e->nother++];

	*t = (struct mess_env_task){ .pid = pid, .tid = tid, .pu = pu,
				     .state = 'R' };
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	e->others_total++;
}

static const struct mess_reason *rule(const struct mess_verdict *v,
				      const char *name)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->r[i].rule, name))
			return &v->r[i];
	return NULL;
}

/* A VM's vCPU threads (one process, four threads on two PUs) and a
 * second process: two items; the next step names both whole. */
static void test_threads_are_one_process(void **state)
{
	struct mess_env e = { .window_ms = 250 };
	struct mess_verdict v;
	const struct mess_reason *r;
	char next[MESS_REASON_LEN];

	(void)state;
	task(&e, 20024, 20024, 1, "qemu-system-x86");
	task(&e, 20024, 20031, 1, "CPU 0/KVM");
	task(&e, 20024, 20032, 0, "CPU 1/KVM");
	task(&e, 20024, 20040, 1, "worker");
	task(&e, 777, 777, 0, "stress-ng");
	mess_verdict_init(&v);
	mess_env_verdict(&e, &v);
	r = rule(&v, "competition");
	assert_non_null(r);
	assert_non_null(strstr(r->text, "pid 20024 'qemu-system-x86' on PUs 1,0 (4 threads), pid 777 'stress-ng' on PU 0;"));
	assert_null(strstr(r->text, "CPU 0/KVM"));
	mess_verdict_next(&v, next, sizeof(next));
	assert_non_null(strstr(next, ": pid 20024 'qemu-system-x86' on PUs 1,0 (4 threads), pid 777 'stress-ng' on PU 0 competed for the run's cores"));
}

/* Eight processes with long names, more threads beyond those looked at:
 * the items that fit whole, then how many were left out; never a name
 * cut in two. */
static void test_long_list_counted(void **state)
{
	struct mess_env e = { .window_ms = 250 };
	struct mess_verdict v;
	char next[MESS_REASON_LEN];
	int listed = 0;

	(void)state;
	for (int i = 0; i < 8; i++)
		task(&e, 1000 + i, 1000 + i, i % 2, "a-long-mpi-rank-name");
	e.others_total += 5;
	mess_verdict_init(&v);
	mess_env_verdict(&e, &v);
	for (const char *p = v.who; (p = strstr(p, "'a-long-mpi-rank-name' on PU ")); p++)
		listed++;
	assert_true(listed >= 3 && listed < 8);
	assert_true(strlen(v.who) < sizeof(v.who));
	{
		char want[64];

		snprintf(want, sizeof(want), " and %d more processes, 5 more threads not looked at", 8 - listed);
		assert_non_null(strstr(v.who, want));
	}
	mess_verdict_next(&v, next, sizeof(next));
	assert_non_null(strstr(next, "more threads not looked at competed for the run's cores"));
}

/* A reason longer than MESS_REASON_LEN ends at a whole word and says it
 * was cut. */
static void test_reason_cut_at_a_word(void **state)
{
	struct mess_verdict v;
	char text[2 * MESS_REASON_LEN] = "";
	size_t n;

	(void)state;
	while (strlen(text) + 12 < sizeof(text))
		strcat(text, "qui, quiet ");
	mess_verdict_init(&v);
	mess_verdict_add(&v, MESS_WARN, "host_state", "%s", text);
	n = strlen(v.r[0].text);
	assert_true(n < MESS_REASON_LEN);
	assert_string_equal(v.r[0].text + n - 4, " ...");
	/* The word before the mark is whole: "quiet" or "qui", no comma. */
	assert_true(!strcmp(v.r[0].text + n - 9, "quiet ...") ||
		    !strcmp(v.r[0].text + n - 7, "qui ..."));
	mess_verdict_add(&v, MESS_WARN, "steal", "short and whole");
	assert_string_equal(v.r[1].text, "short and whole");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_are_one_process),
		cmocka_unit_test(test_long_list_counted),
		cmocka_unit_test(test_reason_cut_at_a_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
