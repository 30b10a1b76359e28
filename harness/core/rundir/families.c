// SPDX-License-Identifier: MIT
/*
 * The children of mess_families_run: each a `mess curves` of this very
 * binary, so that a family is exactly what a single run with its
 * --mem-node would measure, resumable on its own.
 */
#include "core/rundir/families.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/rundir/rundir.h"
#include "core/signals.h"

/* Whether dir holds a run (its resume.json), complete or not. */
static int run_state(const char *dir, int *complete)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/resume.json", dir);
	if (access(path, F_OK))
		return 0;
	*complete = mess_rundir_complete(dir);
	return 1;
}

/* Run `mess curves` for one family; its exit status, or -errno. */
static int child(struct mess_family_job *f, int argc, char **argv, int resume)
{
	char **av = calloc(argc + 8, sizeof(char *));
	int n = 0, st;
	pid_t pid;

	if (!av)
		return -ENOMEM;
	av[n++] = "mess";
	av[n++] = "curves";
	if (resume) {
		av[n++] = "--resume";
		av[n++] = f->dir;
	} else {
		/* Every option passed through; the family's own --mem-node
		 * and --out after them win, as the last of an option given
		 * twice does (core/options.c). */
		for (int i = 1; i < argc; i++)
			av[n++] = argv[i];
		av[n++] = "--mem-node";
		av[n++] = f->mem_node;
		av[n++] = "--out";
		av[n++] = f->dir;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(av);
		return -errno;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		/* Its run directory on stdout is ours to say, once. */
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execv("/proc/self/exe", av);
		fprintf(stderr, "mess: cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(2);
	}
	free(av);
	/* Ctrl-C reaches the child too (same process group): wait for it to
	 * save its state rather than leave it behind. */
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int mess_families_run(const char *prog, struct mess_family_job *jobs, int n,
		      int argc, char **argv, int *failed)
{
	*failed = 0;
	mess_signals_install();
	for (int i = 0; i < n && !mess_interrupted; i++) {
		struct mess_family_job *f = &jobs[i];
		int complete = 0, exists = run_state(f->dir, &complete);

		f->status = -1;
		f->complete = 0;
		if (exists && complete) {
			fprintf(stderr, "%s: %s: complete, kept\n", prog, f->dir);
			f->complete = 1;
			continue;
		}
		fprintf(stderr, "%s: family %d of %d: %s into %s\n", prog, i + 1,
			n, f->label, f->dir);
		f->status = child(f, argc, argv, exists);
		if (f->status == 130 || mess_interrupted)
			return -EINTR;
		f->complete = f->status == 0;
		*failed += !f->complete;
	}
	return mess_interrupted ? -EINTR : 0;
}
