// SPDX-License-Identifier: MIT
/*
 * The family plot.  We write the data, gnuplot (an optional dependency)
 * draws it; a missing gnuplot is reported, never fatal.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/report/plot.h"
#include "core/signals.h"
#include "core/util.h"

/*
 * Bandwidth order: store % rising (the mixes asked for, 0 % stores the
 * fastest), then curves without a store % by read share falling (the
 * same order for a set that names only its shares), NAN last.
 */
static int draw_before(const struct mess_curve *a, const struct mess_curve *b)
{
	int ua = a->store_pct == MESS_STORE_PCT_UNKNOWN;
	int ub = b->store_pct == MESS_STORE_PCT_UNKNOWN;

	if (ua != ub)
		return ub;
	if (!ua)
		return a->store_pct < b->store_pct;
	if (isnan(a->read_pct) || isnan(b->read_pct))
		return !isnan(a->read_pct) && isnan(b->read_pct);
	return a->read_pct > b->read_pct;
}

static int mix_invalid(const struct mess_curve *c, const unsigned char *invalid)
{
	return invalid && c->store_pct < MESS_PLOT_MIXES && invalid[c->store_pct];
}

/* 1 when at least one point was written, 0 when none, or -errno. */
static int write_dat(const char *path, const struct mess_family *f,
		     const unsigned char *invalid)
{
	size_t i, j, k, n, maxn = 0, *idx, *order, blocks = 0;
	FILE *fp;
	int ret = 0;

	for (i = 0; i < f->n; i++)
		if (f->curves[i].n > maxn)
			maxn = f->curves[i].n;
	idx = malloc((maxn ? maxn : 1) * sizeof(*idx));
	order = malloc((f->n ? f->n : 1) * sizeof(*order));
	if (!idx || !order) {
		ret = -ENOMEM;
		goto out;
	}
	/* Blocks in bandwidth order: the key, the hues and the labels read
	 * in one direction instead of zig-zagging. */
	for (i = 0; i < f->n; i++) {
		for (j = i; j > 0 && draw_before(&f->curves[i],
						 &f->curves[order[j - 1]]); j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	fp = mess_fopen_new(path);
	if (!fp) {
		ret = -errno;
		goto out;
	}
	fputs("# bw_gbs lat_ns read_pct(-1: unknown) store_pct(-1: unknown) flagged(0/1) invalid(0/1: the whole mix)\n", fp);
	for (i = 0; i < f->n; i++) {
		const struct mess_curve *c = &f->curves[order[i]];
		long store = c->store_pct == MESS_STORE_PCT_UNKNOWN ?
				     -1 : (long)c->store_pct;
		int bad = mix_invalid(c, invalid);

		/* The family need not be sorted: order a copy of indices. */
		for (j = 0, n = 0; j < c->n; j++) {
			if (!mess_point_usable(&c->pts[j]))
				continue;
			for (k = n; k > 0 && c->pts[idx[k - 1]].nop < c->pts[j].nop; k--)
				idx[k] = idx[k - 1];
			idx[k] = j;
			n++;
		}
		/* An empty block would shift every later gnuplot index. */
		if (!n)
			continue;
		fprintf(fp, "%s# curve read %.2f%% store %ld%s\n",
			blocks++ ? "\n\n" : "", c->read_pct, store,
			bad ? " INVALID" : "");
		for (j = 0; j < n; j++) {
			const struct mess_point *p = &c->pts[idx[j]];

			/* A mix INVALID as a whole is greyed, not ringed
			 * point by point. */
			fprintf(fp, "%.6f %.4f %.3f %ld %d %d\n", p->bw_gbs,
				p->lat_ns, isfinite(c->read_pct) ? c->read_pct : -1.0,
				store, !bad && p->flags, bad);
		}
	}
	/* The stream's own error (a full disk): a stream that failed kept
	 * no errno, one more byte flushed fails again the same way. */
	errno = 0;
	if ((fflush(fp) || ferror(fp)) && !(ret = errno ? -errno : 0)) {
		clearerr(fp);
		ret = (fputc('\n', fp) == EOF || fflush(fp)) && errno ? -errno : -EIO;
	}
	if (fclose(fp) && !ret)
		ret = -errno;
out:
	free(idx);
	free(order);
	return ret ? ret : (int)(blocks > 0);
}

/* First executable "gnuplot" on $PATH, into buf. */
static int find_gnuplot(char *buf, size_t len)
{
	const char *path = getenv("PATH");
	const char *p, *e;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = e + 1) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		/* An empty PATH entry means the current directory. */
		if (e == p)
			snprintf(buf, len, "./gnuplot");
		else
			snprintf(buf, len, "%.*s/gnuplot", (int)(e - p), p);
		if (!access(buf, X_OK))
			return 0;
		if (!*e)
			return -ENOENT;
	}
}

static int find_script(char *buf, size_t len, const char *name)
{
	char rel[64];
	int n = snprintf(rel, sizeof(rel), "plots/%s", name);

	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	return mess_data_file(rel, buf, len);
}

void mess_gp_quote(char *dst, size_t len, const char *src)
{
	size_t o = 0;

	if (!len)
		return;
	for (; src && *src && o + 3 < len; src++) {
		if (*src == '\n' || *src == '\r')
			continue;
		if (*src == '\'')
			dst[o++] = '\'';
		dst[o++] = *src;
	}
	dst[o] = '\0';
}

/*
 * An image gnuplot finished: PNG ends with its IEND chunk, SVG with its
 * closing tag.  A full disk leaves a truncated file behind a gnuplot that
 * still exits 0, and a truncated image must not pass for a plot.
 */
static int nonempty(const char *path)
{
	static const unsigned char iend[8] = { 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82 };
	unsigned char tail[64] = { 0 };
	struct stat st;
	size_t len = strlen(path), n;
	FILE *f;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return 0;
	f = fopen(path, "rb");
	if (!f)
		return 0;
	n = st.st_size < (off_t)sizeof(tail) ? (size_t)st.st_size : sizeof(tail);
	fseek(f, -(long)n, SEEK_END);
	n = fread(tail, 1, n, f);
	fclose(f);
	if (len > 4 && !strcmp(path + len - 4, ".png"))
		return n >= 8 && !memcmp(tail + n - 8, iend, 8);
	if (len > 4 && !strcmp(path + len - 4, ".svg"))
		return memmem(tail, n, "</svg>", 6) != NULL;
	return 1;
}

/*
 * gnuplot opens its outputs by name (set output), and would follow a link
 * planted there out of the directory.  Before it runs, what in its
 * directory could be one goes: symbolic links, files of more than one name
 * (a hard link's other name is someone's file), pipes and devices; the
 * directory itself must be no link.  It is a directory this process holds
 * (its writer's .lock) and made as no link (mess_subdir): the names gnuplot
 * then opens are new files.  We make nothing of that kind there ourselves.
 */
static int sweep(const char *dir)
{
	struct dirent *e;
	struct stat st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (!d) {
		int err = -errno;

		if (fd >= 0)
			close(fd);
		return err;
	}
	while ((e = readdir(d))) {
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) && st.st_nlink == 1))
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
	return 0;
}

/* Seconds gnuplot may take before it is killed: one that never exits
 * (a hung font lookup, a stalled filesystem) must not hold the run's lock
 * for ever.  Generous: the biggest figure draws in a few seconds. */
static double gnuplot_timeout_s(void)
{
	const char *env = getenv("MESS_GNUPLOT_TIMEOUT_S");
	char *end;
	double t;

	if (!env || !*env)
		return 120;
	t = strtod(env, &end);
	return *end || !(t > 0) || t > 86400 ? 120 : t;
}

static int run_gnuplot(const char *gnuplot, const char *script,
		       const char *expr, const char *log, double limit_s)
{
	char *const argv[] = { (char *)gnuplot, "-e", (char *)expr,
			       (char *)script, NULL };
	int status, logfd, nullfd;
	double waited = 0;
	pid_t pid, r;

	/* Opened before fork: the child only dup2()s and exec()s. */
	logfd = mess_open_new(log, O_WRONLY);
	if (logfd < 0)
		return -errno;
	nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (nullfd < 0) {
		close(logfd);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		int ret = -errno;

		close(logfd);
		close(nullfd);
		return ret;
	}
	if (!pid) {
		if (dup2(nullfd, 0) < 0 || dup2(logfd, 1) < 0 ||
		    dup2(logfd, 2) < 0)
			_exit(126);
		execv(gnuplot, argv);
		_exit(127);
	}
	close(logfd);
	close(nullfd);
	/* Polled: a figure takes seconds, 20 ms is nothing beside it. */
	while ((r = waitpid(pid, &status, WNOHANG)) == 0 || (r < 0 && errno == EINTR)) {
		/* A command interrupted (SIGTERM to mess alone, not its
		 * process group) does not wait for the figure either. */
		if (waited >= limit_s || mess_interrupted) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return mess_interrupted ? -EINTR : -ETIMEDOUT;
		}
		usleep(20000);
		waited += 0.02;
	}
	if (r < 0)
		return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* Paths live on the heap: together they are too big for a thread stack. */
struct gp_paths {
	char gnuplot[PATH_MAX], script[PATH_MAX], dir[PATH_MAX];
};

int mess_gnuplot(const char *script, const char *expr, const char *log,
		 char *err, size_t errlen)
{
	struct gp_paths *gp = malloc(sizeof(*gp));
	double limit = gnuplot_timeout_s();
	int ret;

	if (!gp)
		return mess_fail(err, errlen, -ENOMEM, "out of memory");
	if (find_gnuplot(gp->gnuplot, sizeof(gp->gnuplot))) {
		ret = mess_fail(err, errlen, -ENOENT, "gnuplot not found in PATH");
		goto out;
	}
	if (find_script(gp->script, sizeof(gp->script), script)) {
		mess_set_err(err, errlen,
			"plots/%s not found in the data directory (set MESS_DATADIR)",
			script);
		ret = -ENOENT;
		goto out;
	}
	snprintf(gp->dir, sizeof(gp->dir), "%s", log);
	if (strrchr(gp->dir, '/'))
		*strrchr(gp->dir, '/') = 0;
	else
		snprintf(gp->dir, sizeof(gp->dir), ".");
	ret = sweep(gp->dir);
	if (ret) {
		mess_set_err(err, errlen, "%s: %s%s", gp->dir, ret == -ELOOP ?
			     "a symbolic link, not followed" : strerror(-ret),
			     ret == -ELOOP ? "" : " (gnuplot not run)");
		goto out;
	}
	ret = run_gnuplot(gp->gnuplot, gp->script, expr, log, limit);
	if (ret == -EINTR) {
		mess_set_err(err, errlen, "interrupted: gnuplot stopped, figure skipped");
	} else if (ret == -ETIMEDOUT) {
		mess_set_err(err, errlen, "gnuplot did not finish in %g s (MESS_GNUPLOT_TIMEOUT_S): killed, figure skipped",
			     limit);
	} else if (ret < 0) {
		mess_set_err(err, errlen, "cannot run %s: %s", gp->gnuplot,
			strerror(-ret));
	} else if (ret == 127) {
		ret = mess_fail(err, errlen, -ENOENT, "cannot execute %s", gp->gnuplot);
	} else if (ret) {
		ret = mess_fail(err, errlen, -EIO, "gnuplot failed (status %d), see %s", ret, log);
	}
out:
	free(gp);
	return ret;
}

struct plot_paths {
	char dir[PATH_MAX - 16];	/* room for the names appended to it */
	char dat[PATH_MAX], base[PATH_MAX], png[PATH_MAX], svg[PATH_MAX];
	char log[PATH_MAX];
	char qdat[2 * PATH_MAX], qbase[2 * PATH_MAX], qtitle[512], qsub[512];
	char line1[512];
	char expr[5 * PATH_MAX + 1280];
};

#define NEW ".curves-new"

/* The new figure's three files renamed over curves.{dat,png,svg}: the
 * image last, so that a figure is never newer than its data. */
static int commit(struct plot_paths *pp, char *err, size_t errlen)
{
	static const char *const ext[] = { "dat", "svg", "png" };
	char from[PATH_MAX + 32], to[PATH_MAX + 32];

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(from, sizeof(from), "%s/" NEW ".%s", pp->dir, ext[i]);
		snprintf(to, sizeof(to), "%s/curves.%s", pp->dir, ext[i]);
		if (rename(from, to)) {
			int e = errno;

			mess_set_err(err, errlen, "cannot rename %s to %s: %s",
				     from, to, strerror(e));
			return -e;
		}
	}
	return 0;
}

int mess_plot(const char *rundir, const struct mess_family *f,
	      double unloaded_ns, double peak_gbs, const char *title,
	      const unsigned char *invalid, char *err, size_t errlen)
{
	struct plot_paths *pp;
	int ret;

	mess_set_err(err, errlen, "%s", "");
	if (!rundir || !*rundir || !f)
		return mess_fail(err, errlen, -EINVAL, "no run directory or no curves");
	pp = calloc(1, sizeof(*pp));
	if (!pp)
		return mess_fail(err, errlen, -ENOMEM, "out of memory");
	if ((size_t)snprintf(pp->dir, sizeof(pp->dir), "%s/plots", rundir) >=
	    sizeof(pp->dir)) {
		ret = mess_fail(err, errlen, -ENAMETOOLONG, "run directory path too long");
		goto out;
	}
	/* Drawn under new names and renamed over the old figure once whole:
	 * a redraw that fails (no gnuplot, a full disk) keeps the figure
	 * there was. */
	snprintf(pp->dat, sizeof(pp->dat), "%s/" NEW ".dat", pp->dir);
	snprintf(pp->base, sizeof(pp->base), "%s/" NEW, pp->dir);
	snprintf(pp->png, sizeof(pp->png), "%s/" NEW ".png", pp->dir);
	snprintf(pp->svg, sizeof(pp->svg), "%s/" NEW ".svg", pp->dir);
	snprintf(pp->log, sizeof(pp->log), "%s/gnuplot.log", pp->dir);

	ret = mess_mkdir_p(rundir);
	if (!ret)
		ret = mess_subdir(pp->dir);
	if (!ret)
		ret = write_dat(pp->dat, f, invalid);
	if (ret < 0) {
		mess_set_err(err, errlen, "cannot write %s: %s%s", pp->dat,
			strerror(-ret), ret == -ENOSPC ? " (disk full)" : "");
		goto out;
	}
	/* gnuplot's stats fails on a file without data: say why instead. */
	if (!ret) {
		ret = mess_fail(err, errlen, -ENODATA, "no points to plot");
		goto out;
	}
	mess_gp_quote(pp->qdat, sizeof(pp->qdat), pp->dat);
	mess_gp_quote(pp->qbase, sizeof(pp->qbase), pp->base);
	/* Two lines: what was measured, then how. */
	snprintf(pp->line1, sizeof(pp->line1), "%.*s",
		 title ? (int)strcspn(title, "\n") : 0, title ? title : "");
	mess_gp_quote(pp->qtitle, sizeof(pp->qtitle), pp->line1);
	mess_gp_quote(pp->qsub, sizeof(pp->qsub),
		      title && strchr(title, '\n') ? strchr(title, '\n') + 1 : "");
	if (!isfinite(unloaded_ns) || unloaded_ns < 0.0)
		unloaded_ns = 0.0;
	if (!isfinite(peak_gbs) || peak_gbs < 0.0)
		peak_gbs = 0.0;
	snprintf(pp->expr, sizeof(pp->expr),
		 "datafile='%s'; outbase='%s'; unloaded=%.3f; peak=%.3f; plottitle='%s'; plotsub='%s'",
		 pp->qdat, pp->qbase, unloaded_ns, peak_gbs, pp->qtitle, pp->qsub);
	ret = mess_gnuplot("curves.gp", pp->expr, pp->log, err, errlen);
	if (!ret && (!nonempty(pp->png) || !nonempty(pp->svg)))
		ret = mess_fail(err, errlen, -EIO, "gnuplot wrote no whole %s or %s, see %s",
				pp->png, pp->svg, pp->log);
	if (!ret)
		ret = commit(pp, err, errlen);
out:
	/* No half image left to pass for a plot: what was not renamed
	 * goes. */
	if (ret && pp->png[0]) {
		unlink(pp->dat);
		unlink(pp->png);
		unlink(pp->svg);
	}
	free(pp);
	return ret;
}
