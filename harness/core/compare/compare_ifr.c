// SPDX-License-Identifier: MIT
/*
 * compare.md's interference section: where every set has mess interfere's
 * interference.csv beside its curves (the set's folder, or its
 * interfere/ subfolder: mess interfere --out RUN/interfere), each mix's
 * knee and the victim's p99 with none and with the most aggressors, side
 * by side.  A set without one, or a file that cannot be read, leaves the
 * section out: nothing is said of what was not measured the same way.
 */
#include "core/compare/compare_files.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mess/interfere.h"
#include "mess/parse.h"
#include "mess/json.h"

/* Mixes: store % 0..100 in steps of 2; rows a file may give: every mix
 * at up to 512 aggressors, more than any socket has cores to add. */
#define IFR_MAX_MIXES 51
#define IFR_MAX_ROWS (IFR_MAX_MIXES * 513)
#define IFR_MAX_FIELDS 32

struct ifr_set {
	char place[32];
	int n;
	int interrupted;	/* its meta.json says complete false */
	int *mix, *aggr;
	double *p99;
};

/* The index of name among the header's fields, -1 none. */
static int column(char **hdr, const char *name)
{
	for (int i = 0; i < IFR_MAX_FIELDS && hdr[i]; i++)
		if (!strcmp(hdr[i], name))
			return i;
	return -1;
}

/* The fields of line into out[0 .. max) (NULL: not there). */
static void fields(char *line, char **out, int max)
{
	int i = 0;

	for (int k = 0; k < max; k++)
		out[k] = NULL;
	for (char *s = line, *f; (f = strsep(&s, ",\n")) && i < max; i++)
		out[i] = f;
}

/* A field as a number: NAN empty or not one. */
static double num(const char *f)
{
	char *end;
	double v;

	if (!f || !*f)
		return NAN;
	v = strtod(f, &end);
	return *end ? NAN : v;
}

static int interrupted(const char *dir)
{
	char path[4300];
	json_t *m;
	int r;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	m = mess_json_load(path, 0, NULL);
	r = json_is_false(json_object_get(m, "complete"));
	json_decref(m);
	return r;
}

static void ifr_free(struct ifr_set *s)
{
	free(s->mix);
	free(s->aggr);
	free(s->p99);
}

/* s from the set's interference.csv or interfere/interference.csv, in
 * the set's folder, or in the folder of the set's file (a set read from
 * its curves file): 0, or -ENOENT (none), -EINVAL (not interfere's),
 * -ENOMEM. */
static int ifr_read(const char *set, struct ifr_set *s)
{
	char dir[4096], path[4200], line[1024], hdr[1024], *h[IFR_MAX_FIELDS], *f[IFR_MAX_FIELDS];
	char *slash, why[4400];
	struct stat st;
	int cp, cm, ca, c99, rc = 0;
	FILE *fp = NULL;

	snprintf(dir, sizeof(dir), "%s", set);
	for (int k = 0; k < 4 && !fp; k++) {
		if (k == 2) {
			if (!(slash = strrchr(dir, '/')))
				break;
			*slash = '\0';
		}
		snprintf(path, sizeof(path), "%s%s", dir, k & 1 ? "/interfere" : "");
		/* a set read from its curves file: no folder of that name */
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(path, sizeof(path), "%s/%sinterference.csv", dir, k & 1 ? "interfere/" : "");
		/* A FIFO of that name held compare (and its lock) for ever. */
		fp = mess_fopen_input(path, MESS_IN_NOFOLLOW, why, sizeof(why));
		if (!fp && errno != ENOENT && errno != ENOTDIR) {
			mess_say("mess compare: warning: %s; the interference section is left out\n",
				 why);
			return -EINVAL;
		}
	}
	if (!fp)
		return -ENOENT;
	memset(s, 0, sizeof(*s));
	/* A run stopped early has rows up to where it stopped: its knee
	 * "not reached" is not an answer (meta.json beside the file). */
	*strrchr(path, '/') = '\0';
	s->interrupted = interrupted(path);
	s->mix = malloc(IFR_MAX_ROWS * sizeof(int));
	s->aggr = malloc(IFR_MAX_ROWS * sizeof(int));
	s->p99 = malloc(IFR_MAX_ROWS * sizeof(double));
	if (!s->mix || !s->aggr || !s->p99)
		rc = -ENOMEM;
	else if (!fgets(hdr, sizeof(hdr), fp))
		rc = -EINVAL;
	if (!rc) {
		fields(hdr, h, IFR_MAX_FIELDS);
		cp = column(h, "placement");
		cm = column(h, "store_pct");
		ca = column(h, "aggressors");
		c99 = column(h, "lat_p99_ns");
		if (cp < 0 || cm < 0 || ca < 0 || c99 < 0)
			rc = -EINVAL;
	}
	while (!rc && s->n < IFR_MAX_ROWS && fgets(line, sizeof(line), fp)) {
		double m, a;

		fields(line, f, IFR_MAX_FIELDS);
		m = num(f[cm]);
		a = num(f[ca]);
		if (!isfinite(m) || !isfinite(a))
			continue;
		if (f[cp])
			snprintf(s->place, sizeof(s->place), "%s", f[cp]);
		s->mix[s->n] = (int)m;
		s->aggr[s->n] = (int)a;
		s->p99[s->n++] = num(f[c99]);
	}
	fclose(fp);
	if (rc)
		ifr_free(s);
	return rc;
}

/* The cell of mix in s: "2 (p99 100 -> 250 ns at 4)", "not reached with
 * 4 (...)", "not measured". */
static void cell(const struct ifr_set *s, int mix, char *buf, size_t len)
{
	int a[s->n ? s->n : 1], k = 0, most = -1, knee;
	double p[s->n ? s->n : 1], none = NAN, at_most = NAN;

	for (int i = 0; i < s->n; i++) {
		if (s->mix[i] != mix)
			continue;
		a[k] = s->aggr[i];
		p[k++] = s->p99[i];
		if (!s->aggr[i])
			none = s->p99[i];
		if (s->aggr[i] > most) {
			most = s->aggr[i];
			at_most = s->p99[i];
		}
	}
	if (!k) {
		snprintf(buf, len, "not measured");
		return;
	}
	knee = mess_ifr_knee(a, p, k, MESS_IFR_KNEE_X);
	if (knee >= 0)
		snprintf(buf, len, "**%d** (p99 %.0f -> %.0f ns at %d)", knee, none, at_most, most);
	else if (knee == MESS_IFR_KNEE_NOT_REACHED && s->interrupted)
		snprintf(buf, len, "unknown: the run was interrupted after %d (p99 %.0f -> %.0f ns)",
			 most, none, at_most);
	else if (knee == MESS_IFR_KNEE_NOT_REACHED)
		snprintf(buf, len, "not reached with %d (p99 %.0f -> %.0f ns)", most, none, at_most);
	else
		snprintf(buf, len, "unknown (no p99 with none)");
}

void mess_compare_ifr_md(const struct mess_compare_ctx *c, FILE *f)
{
	struct ifr_set s[MESS_CMP_MAX_SETS];
	int mixes[IFR_MAX_MIXES], nm = 0, ok = 1;
	size_t i, got = 0;
	char b[160];

	for (i = 0; i < c->n && ok; i++) {
		ok = !ifr_read(c->sets[i].info->path, &s[i]);
		got += ok;
	}
	for (size_t j = 0; j < got; j++)
		for (int r = 0; r < s[j].n; r++) {
			int k;

			for (k = 0; k < nm && mixes[k] != s[j].mix[r]; k++)
				;
			if (k == nm && nm < IFR_MAX_MIXES)
				mixes[nm++] = s[j].mix[r];
		}
	if (ok && nm) {
		fprintf(f, "\n## Interference (mess interfere)\n\n"
			   "The knee: the fewest aggressor cores at which the victim's p99 reached %.0fx its value with none (each set's interference.csv).\n\n| mix |",
			MESS_IFR_KNEE_X);
		for (i = 0; i < c->n; i++)
			fprintf(f, " %s (%s) |", c->labels[i], s[i].place);
		fprintf(f, "\n|---|");
		for (i = 0; i < c->n; i++)
			fprintf(f, "---|");
		for (int k = 0; k < nm; k++) {
			fprintf(f, "\n| %d %% stores |", mixes[k]);
			for (i = 0; i < c->n; i++) {
				cell(&s[i], mixes[k], b, sizeof(b));
				fprintf(f, " %s |", b);
			}
		}
		fprintf(f, "\n");
	}
	for (i = 0; i < got; i++)
		ifr_free(&s[i]);
}
