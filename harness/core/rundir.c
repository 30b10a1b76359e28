// SPDX-License-Identifier: MIT
/*
 * What every command's run directory shares: meta.json's identity and
 * trailer, and the resume state's original options.
 */
#include "core/rundir.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/buildinfo.h"
#include "core/isa.h"
#include "core/util.h"

void mess_meta_close(FILE *f, int resumed, const char *start_utc,
		     const char *end_utc, int complete)
{
	fprintf(f, "  \"resumed\": %d,\n  \"start_utc\": \"%s\",\n  \"end_utc\": %s%s%s,\n  \"complete\": %s\n}\n",
		resumed, start_utc, end_utc[0] ? "\"" : "",
		end_utc[0] ? end_utc : "null", end_utc[0] ? "\"" : "",
		complete ? "true" : "false");
}

void mess_meta_identity(FILE *f, const struct mess_topo *t)
{
	struct utsname u;
	char host[256] = "";

	uname(&u);
	gethostname(host, sizeof(host) - 1);
	fprintf(f, "  \"version\": \"%s\",\n  \"git_revision\": \"%s\",\n",
		mess_version, mess_git_rev);
	fprintf(f, "  \"host\": ");
	mess_json_str(f, host);
	fprintf(f, ",\n  \"kernel\": ");
	mess_json_str(f, u.release);
	fprintf(f, ",\n  \"cpu_model\": ");
	mess_json_str(f, t->cpu_model);
	fprintf(f, ",\n  \"isa\": \"%s\",\n", MESS_ISA);
	fprintf(f, "  \"compiler\": ");
	mess_json_str(f, mess_compiler);
	fprintf(f, ",\n  \"cflags\": ");
	mess_json_str(f, mess_cflags);
	fprintf(f, ",\n");
}

void mess_resume_write_args(FILE *f, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		fprintf(f, "arg %s\n", argv[i]);
}

int mess_resume_read_args(const char *dir, int *argc, char ***argv)
{
	static char store[MESS_RESUME_MAX_ARGS][PATH_MAX];
	static char *av[MESS_RESUME_MAX_ARGS + 2];
	char line[PATH_MAX + 16];
	int ac = 1;
	FILE *f = mess_file_open(dir, "resume.txt", "r");

	if (!f)
		return -errno;
	av[0] = "mess";
	while (fgets(line, sizeof(line), f) && ac <= MESS_RESUME_MAX_ARGS) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "arg ", 4))
			av[ac] = strcpy(store[ac - 1], line + 4), ac++;
	}
	fclose(f);
	av[ac] = NULL;
	*argc = ac;
	*argv = av;
	return 0;
}


/* --resume DIR, alone: the original options of DIR's run. */
int mess_resume_args(int argc, char **argv, const char *dir, int *ac,
		     char ***av, char *err, size_t errlen)
{
	int rc;

	if (argc != 3 && !(argc == 2 && strchr(argv[1], '='))) {
		snprintf(err, errlen, "--resume: takes no other options (the run keeps its original ones)");
		return -EINVAL;
	}
	rc = mess_resume_read_args(dir, ac, av);
	if (rc) {
		snprintf(err, errlen, "--resume: cannot read %s/resume.txt: %s; allowed: a run directory made by this tool",
			 dir, strerror(-rc));
		return -EINVAL;
	}
	return 0;
}

