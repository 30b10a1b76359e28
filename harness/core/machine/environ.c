// SPDX-License-Identifier: MIT
/* The pre-run look at the machine (core/machine/environ.h). */
#include "core/machine/environ.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "mess/json.h"
#include "mess/procstat.h"

#define STAT_BYTES (128 * 1024)

/* A whole small file into buf (NUL-terminated): its length or -errno. */
static ssize_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0, r;

	if (fd < 0)
		return -errno;
	while ((size_t)n < len - 1 && (r = read(fd, buf + n, len - 1 - (size_t)n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	return n;
}

/* A one-word sysfs file, the [selected] word where it lists choices. */
static void sysfs_word(const char *path, char *out, size_t len)
{
	char buf[256], *a, *b;

	out[0] = 0;
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return;
	a = strchr(buf, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b) {
		*b = 0;
		snprintf(out, len, "%.*s", (int)len - 1, a + 1);
		return;
	}
	buf[strcspn(buf, "\n")] = 0;
	snprintf(out, len, "%.*s", (int)len - 1, buf);
}

static double sysfs_num(const char *path)
{
	char buf[64];

	return slurp(path, buf, sizeof(buf)) > 0 ? strtod(buf, NULL) : NAN;
}

static long sysfs_long(const char *path)
{
	double v = sysfs_num(path);

	return isfinite(v) ? (long)v : -1;
}

/* Each PU's busy and steal ticks from one read of /proc/stat. */
static int ticks(const struct mess_env *e, char *buf, uint64_t *busy,
		 uint64_t *steal, uint64_t *total)
{
	ssize_t len = slurp("/proc/stat", buf, STAT_BYTES);

	if (len < 0)
		return (int)len;
	for (int i = 0; i < e->npu; i++) {
		struct mess_cpu_ticks t;

		if (mess_procstat_cpu(buf, (size_t)len, e->pu[i].pu, &t))
			return -EINVAL;
		busy[i] = t.user + t.nice + t.system + t.irq + t.softirq;
		steal[i] = t.steal;
		total[i] = busy[i] + t.idle + t.iowait + t.steal;
	}
	return 0;
}

static void busy_window(struct mess_env *e)
{
	char *buf = malloc(STAT_BYTES);
	uint64_t *v = calloc(6 * (size_t)e->npu + 1, sizeof(*v));
	uint64_t sst = 0, stot = 0;

	for (int i = 0; i < e->npu; i++)
		e->pu[i].busy_pct = e->pu[i].steal_pct = NAN;
	e->steal_pct = NAN;
	if (!buf || !v || ticks(e, buf, v, v + e->npu, v + 2 * e->npu))
		goto out;
	mess_sleep_ns(e->window_ms * 1e6);
	if (ticks(e, buf, v + 3 * e->npu, v + 4 * e->npu, v + 5 * e->npu))
		goto out;
	for (int i = 0; i < e->npu; i++) {
		uint64_t tot = v[5 * e->npu + i] - v[2 * e->npu + i];
		uint64_t st = v[4 * e->npu + i] - v[e->npu + i];

		if (!tot)
			continue;
		e->pu[i].busy_pct = 100.0 * (double)(v[3 * e->npu + i] - v[i]) / (double)tot;
		e->pu[i].steal_pct = 100.0 * (double)st / (double)tot;
		if (!e->pu[i].sibling) {
			sst += st;
			stot += tot;
		}
	}
	if (stot)
		e->steal_pct = 100.0 * (double)sst / (double)stot;
out:
	free(buf);
	free(v);
}

static int our_pu(const struct mess_env *e, int pu)
{
	for (int i = 0; i < e->npu; i++)
		if (e->pu[i].pu == pu)
			return 1;
	return 0;
}

/* Other user tasks running, runnable or bound on the PUs looked at. */
static void scan_tasks(struct mess_env *e)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	DIR *pd = opendir("/proc");
	struct dirent *p;
	pid_t self = getpid();
	char path[128], buf[4096];

	if (!pd)
		return;
	while ((p = readdir(pd))) {
		int pid = atoi(p->d_name);
		struct dirent *t;
		DIR *td;

		if (pid <= 0 || pid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		td = opendir(path);
		if (!td)
			continue;	/* gone meanwhile */
		while ((t = readdir(td))) {
			int tid = atoi(t->d_name), ppid, cpu, bound = 0;
			int has = 0, count = 0;
			char state, comm[24], *al;
			ssize_t len;

			if (tid <= 0)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
			len = slurp(path, buf, sizeof(buf));
			if (len <= 0 || mess_procstat_task(buf, (size_t)len, &state,
							   &ppid, &cpu, comm, sizeof(comm)))
				continue;
			/* Kernel threads (children of kthreadd) are per-CPU
			 * by design and not competition. */
			if (pid == 2 || ppid == 2 || !our_pu(e, cpu))
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
			if (slurp(path, buf, sizeof(buf)) > 0 &&
			    (al = strstr(buf, "Cpus_allowed_list:")) &&
			    !mess_cpulist(al + 18 + strspn(al + 18, " \t"), cpu,
					  &has, &count))
				bound = count < ncpu;
			if (state != 'R' && !bound)
				continue;
			if (state != 'R') {
				e->bound_sleeping++;
				continue;
			}
			if (e->nother < MESS_ENV_MAX_TASKS) {
				struct mess_env_task *o = &e->other[e->nother++];

				*o = (struct mess_env_task){ .pid = pid, .tid = tid,
					.pu = cpu, .state = state, .bound = bound };
				snprintf(o->comm, sizeof(o->comm), "%s", comm);
			}
			e->others_total++;
		}
		closedir(td);
	}
	closedir(pd);
}

static void cpufreq(struct mess_env *e)
{
	char path[160], g[32];
	int pu0 = e->pu[0].pu;

#define CPUF(pu, f) (snprintf(path, sizeof(path), \
		"/sys/devices/system/cpu/cpu%d/cpufreq/%s", (pu), (f)), path)
	sysfs_word(CPUF(pu0, "scaling_governor"), e->governor, sizeof(e->governor));
	sysfs_word(CPUF(pu0, "scaling_driver"), e->driver, sizeof(e->driver));
	e->min_khz = sysfs_num(CPUF(pu0, "scaling_min_freq"));
	e->max_khz = sysfs_num(CPUF(pu0, "scaling_max_freq"));
	e->hw_min_khz = sysfs_num(CPUF(pu0, "cpuinfo_min_freq"));
	e->hw_max_khz = sysfs_num(CPUF(pu0, "cpuinfo_max_freq"));
	for (int i = 1; i < e->npu; i++) {
		sysfs_word(CPUF(e->pu[i].pu, "scaling_governor"), g, sizeof(g));
		if (strcmp(g, e->governor))
			e->governors_mixed = 1;
	}
#undef CPUF
	sysfs_word("/sys/devices/system/cpu/cpufreq/boost", e->boost, sizeof(e->boost));
	if (!e->boost[0]) {
		char nt[16];

		sysfs_word("/sys/devices/system/cpu/intel_pstate/no_turbo", nt, sizeof(nt));
		if (nt[0])
			snprintf(e->boost, sizeof(e->boost), "%s", nt[0] == '0' ? "1" : "0");
	}
}

static void hugepages(struct mess_env *e)
{
	char path[160];

	sysfs_word("/sys/kernel/mm/transparent_hugepage/enabled", e->thp, sizeof(e->thp));
	sysfs_word("/sys/kernel/mm/transparent_hugepage/defrag", e->thp_defrag,
		   sizeof(e->thp_defrag));
#define HP(sz, f) (snprintf(path, sizeof(path), \
		"/sys/devices/system/node/node%d/hugepages/hugepages-%s/%s", e->node, (sz), (f)), path)
	e->hp2m_total = sysfs_long(HP("2048kB", "nr_hugepages"));
	e->hp2m_free = sysfs_long(HP("2048kB", "free_hugepages"));
	e->hp1g_total = sysfs_long(HP("1048576kB", "nr_hugepages"));
	e->hp1g_free = sysfs_long(HP("1048576kB", "free_hugepages"));
#undef HP
}

int mess_env_probe(struct mess_env *e, struct mess_topo *t, const int *cores,
		   int n, int node, double window_ms)
{
	char buf[256];
	int cap = 0;

	memset(e, 0, sizeof(*e));
	e->window_ms = window_ms;
	e->node = node;
	e->load[0] = e->load[1] = e->load[2] = NAN;
	for (int i = 0; i < n; i++) {
		int pus[16], k = mess_topo_pus_of_core(t, cores[i], pus, 16);

		if (e->npu + k > cap) {
			struct mess_env_pu *np;

			cap = 2 * (e->npu + k) + 8;
			np = realloc(e->pu, (size_t)cap * sizeof(*np));
			if (!np)
				return -ENOMEM;
			e->pu = np;
		}
		/* The PU the run pins to first; the others are siblings. */
		e->pu[e->npu++] = (struct mess_env_pu){ .pu = t->core_pu[cores[i]],
						       .core = cores[i] };
		for (int j = 0; j < k; j++)
			if (pus[j] != t->core_pu[cores[i]])
				e->pu[e->npu++] = (struct mess_env_pu){
					.pu = pus[j], .core = cores[i], .sibling = 1 };
	}
	if (!e->npu)
		return 0;
	if (slurp("/proc/loadavg", buf, sizeof(buf)) > 0)
		sscanf(buf, "%lf %lf %lf %d/%d", &e->load[0], &e->load[1],
		       &e->load[2], &e->runnable, &e->tasks);
	busy_window(e);
	scan_tasks(e);
	cpufreq(e);
	hugepages(e);
	return 0;
}

void mess_env_free(struct mess_env *e)
{
	free(e->pu);
	e->pu = NULL;
	e->npu = 0;
}

static json_t *str_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

static json_t *khz_ghz(double khz)
{
	return mess_json_real(khz / 1e6, 3);
}

static json_t *count_or_null(long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

json_t *mess_env_json(const struct mess_env *e)
{
	json_t *pus = json_array(), *others = json_array();

	for (int i = 0; i < e->npu; i++)
		json_array_append_new(pus, mess_json_pack("{s:i, s:i, s:s, s:o, s:o}",
			"pu", e->pu[i].pu, "core", e->pu[i].core,
			"role", e->pu[i].sibling ? "smt sibling (unused)" : "used",
			"busy_pct", mess_json_real(e->pu[i].busy_pct, 1),
			"steal_pct", mess_json_real(e->pu[i].steal_pct, 1)));
	for (int i = 0; i < e->nother; i++)
		json_array_append_new(others, mess_json_pack("{s:i, s:i, s:s, s:i, s:b}",
			"pid", e->other[i].pid, "tid", e->other[i].tid,
			"comm", e->other[i].comm, "pu", e->other[i].pu,
			"bound", e->other[i].bound));
	return mess_json_pack(
		"{s:o, s:[o,o,o], s:i, s:i, s:o, s:o,"
		" s:{s:i, s:o, s:i, s:s},"
		" s:{s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o},"
		" s:{s:o, s:o, s:i, s:o, s:o, s:o, s:o}, s:s}",
		"window_ms", mess_json_real(e->window_ms, 0),
		"loadavg", mess_json_real(e->load[0], 2), mess_json_real(e->load[1], 2),
		mess_json_real(e->load[2], 2),
		"runnable_tasks", e->runnable, "tasks", e->tasks,
		"pus", pus, "steal_pct", mess_json_real(e->steal_pct, 2),
		"other_tasks", "running_or_runnable", e->others_total,
		"listed", others, "bound_sleeping", e->bound_sleeping,
		"rule", "user tasks of other processes whose last CPU is one of the pus above, running or runnable (state R), or bound there by their affinity; kernel threads left out",
		"cpufreq", "governor", str_or_null(e->governor),
		"driver", str_or_null(e->driver), "governors_differ", e->governors_mixed,
		"scaling_min_ghz", khz_ghz(e->min_khz), "scaling_max_ghz", khz_ghz(e->max_khz),
		"hardware_min_ghz", khz_ghz(e->hw_min_khz),
		"hardware_max_ghz", khz_ghz(e->hw_max_khz),
		"boost", e->boost[0] ? json_boolean(e->boost[0] == '1') : json_null(),
		"huge_pages", "thp_enabled", str_or_null(e->thp),
		"thp_defrag", str_or_null(e->thp_defrag), "node", e->node,
		"hugetlb_2m_total", count_or_null(e->hp2m_total),
		"hugetlb_2m_free", count_or_null(e->hp2m_free),
		"hugetlb_1g_total", count_or_null(e->hp1g_total),
		"hugetlb_1g_free", count_or_null(e->hp1g_free),
		"source", "/proc/loadavg, /proc/stat over window_ms, /proc/*/task/*/stat and status, sysfs cpufreq and hugepages, hwloc for the SMT siblings");
}

/* The busiest used PU and the busiest sibling: -1 when none known. */
static void busiest(const struct mess_env *e, int *used, int *sib)
{
	*used = *sib = -1;
	for (int i = 0; i < e->npu; i++) {
		int *b = e->pu[i].sibling ? sib : used;

		if (isfinite(e->pu[i].busy_pct) &&
		    (*b < 0 || e->pu[i].busy_pct > e->pu[*b].busy_pct))
			*b = i;
	}
}

/*
 * The tasks on the run's cores, one item a process (an MPI rank with its
 * OpenMP threads, a VM with its vCPUs, is one competitor): "pid P 'comm'
 * on PUs a,b (N threads)".  Items are added only whole, and what does
 * not fit is counted: "and N more processes".
 */
static void others_text(const struct mess_env *e, char *buf, size_t len)
{
	int procs = 0, listed = 0, extra = e->others_total - e->nother;
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < e->nother; i++) {
		const struct mess_env_task *t = &e->other[i];
		char item[128], pus[48] = "";
		int threads = 0, npu = 0, bound = 1, j;
		size_t pl = 0;

		for (j = 0; j < i && e->other[j].pid != t->pid; j++)
			;
		if (j < i)
			continue;	/* its process is an item already */
		procs++;
		for (j = i; j < e->nother; j++) {
			const struct mess_env_task *u = &e->other[j];
			int k;

			if (u->pid != t->pid)
				continue;
			threads++;
			bound &= u->bound;
			for (k = i; k < j && (e->other[k].pid != t->pid ||
					      e->other[k].pu != u->pu); k++)
				;
			if (k == j && pl < sizeof(pus) - 12) {
				pl += (size_t)snprintf(pus + pl, sizeof(pus) - pl,
						       "%s%d", npu ? "," : "", u->pu);
				npu++;
			}
		}
		snprintf(item, sizeof(item), "%spid %d '%s' on PU%s %s%s%s",
			 listed ? ", " : "", t->pid, t->comm, npu > 1 ? "s" : "",
			 pus, bound ? " (bound there)" : "",
			 threads > 1 ? " (" : "");
		if (threads > 1)
			snprintf(item + strlen(item), sizeof(item) - strlen(item),
				 "%d threads)", threads);
		/* Room kept for the count of what is left out. */
		if (at + strlen(item) + 64 > len)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s", item);
		listed++;
	}
	if (procs > listed)
		at += (size_t)snprintf(buf + at, len - at, " and %d more process%s",
				       procs - listed, procs - listed == 1 ? "" : "es");
	if (extra > 0 && at < len)
		snprintf(buf + at, len - at, "%s %d more thread%s not looked at",
			 procs > listed ? "," : " and", extra, extra == 1 ? "" : "s");
}

void mess_env_verdict(const struct mess_env *e, struct mess_verdict *v)
{
	char who[200];
	int u, s;

	busiest(e, &u, &s);
	others_text(e, who, sizeof(who));
	/* The next step names them again (mess_verdict_next). */
	if (e->others_total)
		snprintf(v->who, sizeof(v->who), "%s", who);
	if (e->others_total ||
	    (u >= 0 && e->pu[u].busy_pct > MESS_ENV_BUSY_PCT))
		mess_verdict_add(v, MESS_WARN, "competition",
				 "competition before the start: %s%s; PU %d was %.0f %% busy over %.0f ms",
				 e->others_total ? "other tasks running on the run's cores: " : "",
				 e->others_total ? who : "no other task seen runnable",
				 u >= 0 ? e->pu[u].pu : -1,
				 u >= 0 ? e->pu[u].busy_pct : NAN, e->window_ms);
	if (isfinite(e->steal_pct) && e->steal_pct > MESS_ENV_STEAL_PCT)
		mess_verdict_add(v, MESS_WARN, "steal",
				 "the hypervisor stole %.1f %% of the run's CPUs' time over %.0f ms before the start",
				 e->steal_pct, e->window_ms);
	if (s >= 0 && e->pu[s].busy_pct > MESS_ENV_BUSY_PCT)
		mess_verdict_add(v, MESS_WARN, "smt_busy",
				 "PU %d, an SMT sibling of core %d, was %.0f %% busy before the start: it shares that core's pipeline and caches",
				 e->pu[s].pu, e->pu[s].core, e->pu[s].busy_pct);
	if (e->governor[0] && strcmp(e->governor, "performance"))
		mess_verdict_add(v, MESS_PASS, "governor",
				 "the cpufreq governor is %s%s: the clock may follow the load",
				 e->governor, e->governors_mixed ? " (not the same on every core)" : "");
	if (!e->governor[0])
		mess_verdict_add(v, MESS_PASS, "governor",
				 "no cpufreq in sysfs (a VM, or no driver): the clock cannot be read, only measured");
}

void mess_env_md(FILE *f, const struct mess_env *e)
{
	char who[200], gov[96];
	int u, s;

	busiest(e, &u, &s);
	others_text(e, who, sizeof(who));
	fprintf(f, "Before the start, over %.0f ms: load %.2f %.2f %.2f", e->window_ms,
		e->load[0], e->load[1], e->load[2]);
	if (u >= 0)
		fprintf(f, "; the busiest used PU (%d) %.0f %% busy", e->pu[u].pu,
			e->pu[u].busy_pct);
	if (s >= 0)
		fprintf(f, ", the busiest SMT sibling (PU %d) %.0f %%", e->pu[s].pu,
			e->pu[s].busy_pct);
	else
		fprintf(f, ", no SMT siblings");
	if (isfinite(e->steal_pct))
		fprintf(f, "; steal %.1f %%", e->steal_pct);
	fprintf(f, "; other tasks on these cores: %s.\n", e->others_total ? who : "none");
	if (e->governor[0])
		snprintf(gov, sizeof(gov), "governor %s (%s), %.2f-%.2f GHz",
			 e->governor, e->driver[0] ? e->driver : "driver unknown",
			 e->min_khz / 1e6, e->max_khz / 1e6);
	else
		snprintf(gov, sizeof(gov), "no cpufreq in sysfs (a VM, or no driver)");
	fprintf(f, "Clock: %s. Huge pages: THP %s (defrag %s); hugetlb 2 MiB pages on node %d: %ld free of %ld.\n\n",
		gov, e->thp[0] ? e->thp : "unknown",
		e->thp_defrag[0] ? e->thp_defrag : "unknown", e->node,
		e->hp2m_free, e->hp2m_total);
}
