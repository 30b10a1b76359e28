// SPDX-License-Identifier: MIT
/*
 * Semantic tests of the core-to-core ping-pong kernels of one ISA (both
 * variants): two threads hand the count over for N round trips, in
 * batches as mess c2c times them, and the line ends at exactly start + 2N
 * with the responder having answered N times: no hand-over lost or made
 * twice.  Then the stop handling and an empty batch, on one thread.
 *
 * Rounds stay few: on a loaded machine (or under qemu-user) the two
 * spinning threads may share one CPU, and each hand-over then waits for
 * the scheduler to switch them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>

#include "mess_kernels.h"

struct variant {
	uint64_t (*ping)(volatile uint64_t *line, uint64_t rounds, uint64_t start);
	uint64_t (*pong)(volatile uint64_t *line);
};

static const struct variant store = { mess_c2c_ping_store, mess_c2c_pong_store };
static const struct variant xchg = { mess_c2c_ping_xchg, mess_c2c_pong_xchg };

/* The line alone in its 128 bytes, as mess c2c has it. */
static struct {
	_Alignas(128) volatile uint64_t v;
} line;

struct pong_arg {
	const struct variant *k;
	uint64_t answered;
};

static void *pong(void *arg)
{
	struct pong_arg *a = arg;

	a->answered = a->k->pong(&line.v);
	return NULL;
}

static void test_pingpong(void **state)
{
	/* Batches of several sizes, a restart from 0 as mess c2c does each
	 * sample, and a start far past 32 bits. */
	static const struct {
		uint64_t start, rounds;
	} batch[] = { { 0, 1 }, { 2, 7 }, { 16, 50 }, { 0, 150 }, { 300, 3 },
		      { (1ULL << 40) + 2, 40 } };
	const struct variant *k = *state;
	struct pong_arg a = { .k = k };
	uint64_t n = 0;
	pthread_t th;

	line.v = 0;
	assert_int_equal(pthread_create(&th, NULL, pong, &a), 0);
	for (size_t i = 0; i < sizeof(batch) / sizeof(batch[0]); i++) {
		uint64_t end = batch[i].start + 2 * batch[i].rounds;

		assert_int_equal(k->ping(&line.v, batch[i].rounds, batch[i].start), end);
		/* The responder is waiting for an odd count: nothing moves. */
		assert_int_equal(line.v, end);
		n += batch[i].rounds;
	}
	line.v = (uint64_t)MESS_C2C_STOP;
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(a.answered, n);
}

/* The stop value is odd and never a count; a responder that finds it
 * returns at once, having answered nothing and written nothing. */
static void test_stop(void **state)
{
	const struct variant *k = *state;

	assert_true((uint64_t)MESS_C2C_STOP & 1);
	line.v = (uint64_t)MESS_C2C_STOP;
	assert_int_equal(k->pong(&line.v), 0);
	assert_int_equal(line.v, (uint64_t)MESS_C2C_STOP);
}

/* No round trip: the initiator neither writes nor waits. */
static void test_no_rounds(void **state)
{
	const struct variant *k = *state;

	line.v = 12345;
	assert_int_equal(k->ping(&line.v, 0, 40), 40);
	assert_int_equal(line.v, 12345);
}

#define C2C_TESTS(var)							\
	{ .name = "mess_c2c_" #var "_pingpong", .test_func = test_pingpong, \
	  .initial_state = (void *)&var },				\
	{ .name = "mess_c2c_" #var "_stop", .test_func = test_stop,	\
	  .initial_state = (void *)&var },				\
	{ .name = "mess_c2c_" #var "_no_rounds", .test_func = test_no_rounds, \
	  .initial_state = (void *)&var }

int main(void)
{
	const struct CMUnitTest tests[] = {
		C2C_TESTS(store),
		C2C_TESTS(xchg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
