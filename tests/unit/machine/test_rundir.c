// SPDX-License-Identifier: MIT
/*
 * The run-directory lifecycle every command uses: a new run, a refused
 * second run, resume state that survives, its options back, the meta.json
 * trailer; and the pinned pool's calls and barrier.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/measure/pool.h"
#include "core/rundir/rundir.h"
#include "core/machine/topo.h"
#include "core/util.h"

static char base[PATH_MAX];

static int setup(void **state)
{
	snprintf(base, sizeof(base), "/tmp/mess-test-rundir.XXXXXX");
	return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd);
}

static json_t *load(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];
	json_error_t e;
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	j = json_load_file(path, 0, &e);
	if (!j)
		fail_msg("%s: %s", path, e.text);
	return j;
}

static void touch(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
}

static void test_lifecycle(void **state)
{
	char dir[PATH_MAX + 8], *argv[] = { "mess", "--quick", "--out", dir };
	struct mess_rundir d, e;
	struct mess_topo t = { .cpu_model = "Test CPU" };
	json_t *st, *m;
	char err[256], **av;
	int ac;

	snprintf(dir, sizeof(dir), "%s/a/b", base);
	assert_int_equal(mess_rundir_open(&d, "mess test", "test", dir, NULL,
					  "points.csv", 4, argv), 0);
	/* The state a resume needs is on disk before anything is measured. */
	st = load(dir, MESS_RESUME_FILE);
	assert_string_equal(json_string_value(json_object_get(st, "tool")), "mess test");
	assert_int_equal(json_array_size(json_object_get(st, "args")), 3);
	json_decref(st);
	json_object_set_new(d.state, "done", json_integer(42));
	assert_int_equal(mess_rundir_save(&d), 0);

	/* meta.json: identity first, the command's members, the trailer. */
	m = mess_rundir_meta(&d, &t, 7);
	json_object_set_new(m, "mine", json_true());
	assert_int_equal(mess_rundir_write_meta(&d, m, 0), 0);
	m = load(dir, "meta.json");
	assert_int_equal(json_integer_value(json_object_get(m, "schema")), 7);
	assert_string_equal(json_string_value(json_object_get(m, "cpu_model")), "Test CPU");
	assert_true(json_is_true(json_object_get(m, "mine")));
	assert_true(json_is_null(json_object_get(m, "end_utc")));
	assert_true(json_is_false(json_object_get(m, "complete")));
	assert_int_equal(json_integer_value(json_object_get(m, "resumed")), 0);
	assert_string_equal(json_object_iter_key(json_object_iter(m)), "schema");
	json_decref(m);
	mess_rundir_close(&d);

	/* A second run into a directory holding one is refused... */
	touch(dir, "points.csv");
	assert_int_equal(mess_rundir_open(&e, "mess test", "test", dir, NULL,
					  "points.csv", 4, argv), -EEXIST);
	mess_rundir_close(&e);
	/* ...a resume gets the original options and the recorded state... */
	char *rargv[] = { "mess", "--resume", dir };
	assert_int_equal(mess_resume_args("mess test", 3, rargv, dir, &ac, &av, err,
					  sizeof(err)), 0);
	assert_int_equal(ac, 4);
	assert_string_equal(av[1], "--quick");
	assert_string_equal(av[3], dir);
	assert_null(av[4]);
	assert_int_equal(mess_rundir_open(&e, "mess test", "test", NULL, dir,
					  "points.csv", 3, rargv), 0);
	assert_int_equal(e.resumed, 1);
	assert_int_equal(json_integer_value(json_object_get(e.state, "done")), 42);
	mess_rundir_stop_clock(&e);
	assert_int_equal(mess_rundir_write_meta(&e, mess_rundir_meta(&e, &t, 1), 1), 0);
	m = load(dir, "meta.json");
	assert_true(json_is_string(json_object_get(m, "end_utc")));
	assert_true(json_is_true(json_object_get(m, "complete")));
	assert_int_equal(json_integer_value(json_object_get(m, "resumed")), 1);
	json_decref(m);
	mess_rundir_close(&e);
	/* ...but not as another command's run. */
	assert_int_equal(mess_rundir_open(&e, "mess other", "", NULL, dir,
					  "points.csv", 3, rargv), -EINVAL);
	mess_rundir_close(&e);
	/* Nor resumed as another command. */
	assert_int_equal(mess_resume_args("mess other", 3, rargv, dir, &ac, &av,
					  err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is a run of 'mess test'"));
	/* --resume takes no other options. */
	char *bad[] = { "mess", "--resume", dir, "--quick" };
	assert_int_equal(mess_resume_args("mess test", 4, bad, dir, &ac, &av, err,
					  sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "takes no other options"));
}

/* A resume state that is not ours is refused with the reason. */
static void test_resume_args_hostile(void **state)
{
	char dir[PATH_MAX + 8], path[PATH_MAX + 32], err[512], **av;
	char *rargv[] = { "mess", "--resume", dir };
	FILE *f;
	int ac;

	snprintf(dir, sizeof(dir), "%s/h", base);
	assert_int_equal(mkdir(dir, 0777), 0);
	assert_int_equal(mess_resume_args("mess test", 3, rargv, dir, &ac, &av, err,
					  sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "No such file"));
	snprintf(path, sizeof(path), "%s/%s", dir, MESS_RESUME_FILE);
	f = fopen(path, "w");
	fprintf(f, "{\"args\": [\"--quick\", 3]}");
	fclose(f);
	assert_int_equal(mess_resume_args("mess test", 3, rargv, dir, &ac, &av, err,
					  sizeof(err)), -EINVAL);
	f = fopen(path, "w");
	fprintf(f, "{\"args\": [");
	for (int i = 0; i < MESS_RESUME_MAX_ARGS + 1; i++)
		fprintf(f, "%s\"--quick\"", i ? ", " : "");
	fprintf(f, "]}");
	fclose(f);
	assert_int_equal(mess_resume_args("mess test", 3, rargv, dir, &ac, &av, err,
					  sizeof(err)), -EINVAL);
	f = fopen(path, "w");
	fprintf(f, "not json");
	fclose(f);
	assert_int_equal(mess_resume_args("mess test", 3, rargv, dir, &ac, &av, err,
					  sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not valid JSON"));
}

struct count {
	atomic_int calls, after_barrier_early;
	atomic_int arrived;
};

/* Nobody leaves the barrier before every active thread has reached it. */
static void job_count(struct mess_pool_thread *t, void *arg)
{
	struct count *c = arg;

	atomic_fetch_add(&c->arrived, 1);
	mess_pool_barrier(t);
	if (atomic_load(&c->arrived) != t->p->nactive)
		atomic_fetch_add(&c->after_barrier_early, 1);
	atomic_fetch_add(&c->calls, 1);
	t->err = t->idx == 1 ? -EDOM : 0;
}

static void test_pool(void **state)
{
	struct mess_topo t;
	struct mess_pool p;
	struct count c = { 0 };
	int n;

	assert_int_equal(mess_topo_init(&t), 0);
	n = t.ncores < 4 ? t.ncores : 4;
	assert_int_equal(mess_pool_start(&p, &t, NULL, n), 0);
	for (int round = 0; round < 50; round++) {
		int want = n > 1 ? -EDOM : 0;

		atomic_store(&c.arrived, 0);
		assert_int_equal(mess_pool_call(&p, n, job_count, &c), want);
	}
	assert_int_equal(atomic_load(&c.calls), 50 * n);
	assert_int_equal(atomic_load(&c.after_barrier_early), 0);
	/* Fewer active threads: the others sit the call out. */
	atomic_store(&c.calls, 0);
	atomic_store(&c.arrived, 0);
	assert_int_equal(mess_pool_call(&p, 1, job_count, &c), 0);
	assert_int_equal(atomic_load(&c.calls), 1);
	mess_pool_stop(&p);
	/* A core that does not exist cannot be pinned: no thread is left. */
	int bogus = t.ncores + 5;
	assert_true(mess_pool_start(&p, &t, &bogus, 1) < 0);
	assert_int_equal(p.n, 0);
	mess_topo_fini(&t);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static long size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

/* Whole lines or nothing, and a cut line cut off. */
static void test_appender(void **state)
{
	char dir[] = "/tmp/test_append.XXXXXX", path[PATH_MAX];
	struct mess_appender a;
	long line;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/points.csv", dir);
	assert_int_equal(mess_append_open(&a, dir, "points.csv"), 0);
	assert_int_equal(a.size, 0);
	assert_int_equal(mess_append(&a, "h\n", 2), 0);
	assert_int_equal(mess_append(&a, "1,2\n", 4), 0);
	mess_append_close(&a);
	assert_int_equal(size_of(path), 6);
	/* Reopened, it appends after what is there. */
	assert_int_equal(mess_append_open(&a, dir, "points.csv"), 0);
	assert_int_equal(a.size, 6);
	mess_append_close(&a);
	/* A full device: the error is ENOSPC, said as such. */
	assert_int_equal(mess_append_open(&a, "/dev", "full"), 0);
	assert_int_equal(mess_append(&a, "x\n", 2), -ENOSPC);
	mess_append_close(&a);

	put(path, "h\n1,2\n3,");
	assert_int_equal(mess_drop_partial_line(path, &line), 0);
	assert_int_equal(line, 3);
	assert_int_equal(size_of(path), 6);
	assert_int_equal(mess_drop_partial_line(path, &line), 0);
	assert_int_equal(line, 0);
	assert_int_equal(size_of(path), 6);
	put(path, "no newline at all");
	assert_int_equal(mess_drop_partial_line(path, &line), 0);
	assert_int_equal(line, 1);
	assert_int_equal(size_of(path), 0);
	unlink(path);
	assert_int_equal(mess_drop_partial_line(path, &line), 0);
	assert_int_equal(line, 0);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lifecycle),
		cmocka_unit_test(test_resume_args_hostile),
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_appender),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
