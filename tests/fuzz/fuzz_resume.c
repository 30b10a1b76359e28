// SPDX-License-Identifier: MIT
/*
 * libFuzzer target of the resume state (make fuzz, make check-fuzz): the
 * input is written as a run directory's resume.json, read back through
 * mess_resume_args as `mess --resume DIR` and `mess absorb --resume DIR`
 * do, and the options it yields parsed by each command's own parser, as
 * a resumed run's are.  Beyond what the sanitizers catch, it aborts when
 * the contract breaks: a status other than 0 or -EINVAL, an error that is
 * empty, or options handed back that are not NUL-terminated strings.
 * Every error must also be one line (MESS_FUZZ_ONE_LINE=0 lifts that).
 */
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "absorb/absorb.h"
#include "core/rundir/rundir.h"
#include "curves/result/run.h"

static char base[256];
static int one_line;

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

static void cleanup(void)
{
	nftw(base, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";

	snprintf(base, sizeof(base), "%s/fuzz_resume.XXXXXX", tmp);
	if (!mkdtemp(base))
		abort();
	atexit(cleanup);
	one_line = !(getenv("MESS_FUZZ_ONE_LINE") && !strcmp(getenv("MESS_FUZZ_ONE_LINE"), "0"));
	return 0;
}

static void die(const char *what, const char *s)
{
	fprintf(stderr, "contract broken: %s: '%s'\n", what, s);
	abort();
}

static void check_err(int rc, const char *err)
{
	if (rc != -EINVAL || !err[0] || (one_line && strchr(err, '\n')))
		die("error", err);
}

/* As mess_curves_main and mess_absorb_main do it. */
static void resume(const char *cmd)
{
	static struct mess_cfg cfg;
	static struct mess_absorb_opts ao;
	char *argv[] = { "mess", "--resume", base, NULL }, **av, err[1024] = "";
	int ac = -1, rc;

	rc = mess_resume_args(cmd, 3, argv, base, &ac, &av, err, sizeof(err));
	if (rc) {
		check_err(rc, err);
		return;
	}
	if (ac < 1 || ac > MESS_RESUME_MAX_ARGS + 1 || av[ac])
		die("option count", cmd);
	for (int i = 0; i < ac; i++)
		if (strnlen(av[i], PATH_MAX) >= PATH_MAX)
			die("option", av[i]);
	err[0] = 0;
	rc = strcmp(cmd, "mess") ?
		mess_absorb_parse(&ao, ac, av, err, sizeof(err)) :
		mess_options_parse(&cfg, ac, av, err, sizeof(err));
	if (rc)
		check_err(rc, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", base, MESS_RESUME_FILE);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	resume("mess");
	resume("mess absorb");
	return 0;
}
