// SPDX-License-Identifier: MIT
/*
 * The raw Mess benchmark tree read into a family (include/mess/messraw.h
 * has the files and the method).
 */
#include "mess/messraw.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mess/messfmt.h"
#include "mess/parse.h"

/* plotter.txt's channel count and bus width: at most this. */
#define MESS_RAW_MAX_COUNT 65536

#define MAX_REPS 64

/* One perf stat block: what its counters said (NAN: absent or not
 * counted). */
struct block {
	double rd, wr, cycles, accesses, instructions, r1012, r2012, elapsed;
	int bad;		/* a counter said <not counted> / <not supported> */
};

static void block_init(struct block *b)
{
	b->rd = b->wr = b->cycles = b->accesses = b->instructions = NAN;
	b->r1012 = b->r2012 = b->elapsed = NAN;
	b->bad = 0;
}

/* "608,198,304" or "608198304": the count, else NAN. */
static double count_of(const char *t)
{
	char buf[64], *e;
	size_t k = 0;

	for (; *t && k + 1 < sizeof(buf); t++)
		if (*t != ',')
			buf[k++] = *t;
	buf[k] = '\0';
	if (!k || !isdigit((unsigned char)buf[0]))
		return NAN;
	double v = strtod(buf, &e);

	return *e ? NAN : v;
}

static void add(double *acc, double v)
{
	*acc = isnan(*acc) ? v : *acc + v;
}

/* The event name without a ":u"-like modifier into ev. */
static void event_name(const char *t, char *ev, size_t len)
{
	snprintf(ev, len, "%s", t);
	if (strchr(ev, ':'))
		*strchr(ev, ':') = '\0';
}

/* One line of a block. */
static void block_line(struct block *b, char *line)
{
	char *tok[8], *save = NULL, *t, ev[64];
	size_t n = 0, at = 0;
	double v;

	for (t = strtok_r(line, " \t\r", &save); t && n < 8;
	     t = strtok_r(NULL, " \t\r", &save))
		tok[n++] = t;
	if (n >= 4 && !strcmp(tok[1], "seconds") && !strcmp(tok[2], "time") &&
	    !strcmp(tok[3], "elapsed")) {
		b->elapsed = count_of(tok[0]);
		return;
	}
	/* --per-socket: "S0 <units> <count> <event>" */
	if (n >= 4 && tok[0][0] == 'S' && isdigit((unsigned char)tok[0][1]))
		at = 2;
	if (n < at + 2)
		return;
	if (tok[at][0] == '<') {
		/* "<not counted>" / "<not supported>": the event is after */
		if (n >= at + 3)
			b->bad = 1;
		return;
	}
	v = count_of(tok[at]);
	if (isnan(v))
		return;
	event_name(tok[at + 1], ev, sizeof(ev));
	if (!strcmp(ev, "unc_m_cas_count.rd"))
		add(&b->rd, v);
	else if (!strcmp(ev, "unc_m_cas_count.wr"))
		add(&b->wr, v);
	else if (!strcmp(ev, "cycles"))
		b->cycles = v;
	else if (!strcmp(ev, "accesses"))
		b->accesses = v;
	else if (!strcmp(ev, "instructions"))
		b->instructions = v;
	else if (!strcmp(ev, "r1012"))
		b->r1012 = v;
	else if (!strcmp(ev, "r2012"))
		b->r2012 = v;
}

/* Every block of a perf stat file: how many into b (at most MAX_REPS). */
static int read_blocks(const char *path, struct block *b, size_t *n,
		       char *err, size_t errlen)
{
	struct mess_lines l;
	int ret = mess_lines_open(&l, path, err, errlen);

	*n = 0;
	while (!ret && (ret = mess_lines_next(&l, err, errlen)) > 0) {
		ret = 0;
		if (strstr(l.line, "Performance counter stats")) {
			if (*n == MAX_REPS)
				ret = mess_file_err(err, errlen, path, l.no,
						    "more than %d perf stat blocks",
						    MAX_REPS);
			else
				block_init(&b[(*n)++]);
		} else if (*n) {
			block_line(&b[*n - 1], l.line);
		}
	}
	mess_lines_close(&l);
	if (!ret && !*n)
		ret = mess_file_err(err, errlen, path, 0,
				    "no 'Performance counter stats' block: not perf stat output");
	return ret;
}

static double mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : NAN;
}

/* Sample standard deviation (n - 1), as Mess's pandas; NAN below 2. */
static double sd(const double *v, size_t n)
{
	double m = mean(v, n), s = 0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (double)(n - 1));
}

struct walk {
	const char *dir;
	struct mess_family *f;
	struct mess_raw *r;
	double *clocks;
	size_t nclocks, capclocks;
	char *err;
	size_t errlen;
};

static int clock_add(struct walk *w, double g)
{
	if (w->nclocks == w->capclocks) {
		size_t cap = w->capclocks ? 2 * w->capclocks : 256;
		double *nc = realloc(w->clocks, cap * sizeof(double));

		if (!nc)
			return -ENOMEM;
		w->clocks = nc;
		w->capclocks = cap;
	}
	w->clocks[w->nclocks++] = g;
	return 0;
}

/* A bw/ file of a point: its name as the directory has it (bw_050_100.txt
 * is not bw_50_100.txt), and the numbers it names. */
struct entry {
	char *name;
	unsigned R;
	uint64_t pause;
};

/* bw/<name> and its lat/lat_<name less "bw_">: one point. */
static int one_point(struct walk *w, const struct entry *e)
{
	unsigned R = e->R;
	uint64_t pause = e->pause;
	struct block b[MAX_REPS];
	double bw[MAX_REPS], share[MAX_REPS], lat[MAX_REPS], ghz[MAX_REPS];
	size_t n, nb = 0, nl = 0;
	char path[PATH_MAX];
	struct mess_point p = MESS_POINT_INIT;
	struct mess_curve *c;
	int ret;

	snprintf(path, sizeof(path), "%s/bw/%s", w->dir, e->name);
	ret = read_blocks(path, b, &n, w->err, w->errlen);
	for (size_t i = 0; !ret && i < n; i++) {
		double t = b[i].rd + b[i].wr;

		if (b[i].bad || !isfinite(t) || !(b[i].elapsed > 0) || !(t > 0)) {
			w->r->reps_left_out++;
			continue;
		}
		bw[nb] = t * w->r->line_bytes / b[i].elapsed / 1e9;
		share[nb++] = b[i].rd / t;
	}
	if (!ret && !nb)
		ret = mess_file_err(w->err, w->errlen, path, 0,
				    "no block with both unc_m_cas_count.rd and .wr counted and the elapsed time");
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/lat/lat_%s", w->dir, e->name + 3);
	ret = read_blocks(path, b, &n, w->err, w->errlen);
	for (size_t i = 0; !ret && i < n; i++) {
		const struct block *k = &b[i];
		double g, walk, stlb;

		if (k->bad || !(k->cycles > 0) || !(k->elapsed > 0) ||
		    !(k->accesses > 0)) {
			w->r->reps_left_out++;
			continue;
		}
		g = k->cycles / k->elapsed / 1e9;
		/* Mess leaves out a TLB event its platform has not. */
		walk = isfinite(k->r2012) ? k->r2012 / g : 0;
		stlb = isfinite(k->r1012) ? w->r->tlb_ns * k->r1012 : 0;
		ghz[nl] = g;
		lat[nl++] = (k->elapsed * 1e9 - walk - stlb) / k->accesses;
		ret = clock_add(w, g);
	}
	if (!ret && !nl)
		ret = mess_file_err(w->err, w->errlen, path, 0,
				    "no block with cycles, accesses and the elapsed time counted");
	if (ret)
		return ret;
	p.store_pct = 100 - R;
	p.nop = pause;
	p.bw_gbs = mean(bw, nb);
	p.bw_gbs_std = sd(bw, nb);
	p.read_pct = 100 * mean(share, nb);
	p.read_bw_gbs = p.bw_gbs * p.read_pct / 100;
	p.write_bw_gbs = p.bw_gbs - p.read_bw_gbs;
	p.lat_ns = mean(lat, nl);
	p.lat_ns_std = sd(lat, nl);
	p.repeats = (uint32_t)(nb < nl ? nb : nl);
	p.ghz_min = ghz[0];
	p.ghz_max = ghz[0];
	for (size_t i = 1; i < nl; i++) {
		p.ghz_min = fmin(p.ghz_min, ghz[i]);
		p.ghz_max = fmax(p.ghz_max, ghz[i]);
	}
	/* what import writes, by the rules its readers apply */
	snprintf(path, sizeof(path), "%s/bw/%s and lat/lat_%s", w->dir,
		 e->name, e->name + 3);
	ret = mess_point_check(&p, path, w->err, w->errlen);
	if (ret)
		return ret;
	w->r->bw_reps += nb;
	w->r->lat_reps += nl;
	w->r->points++;
	c = mess_family_curve(w->f, p.store_pct, NAN);
	return c ? mess_curve_add(c, &p) : -ENOMEM;
}

static int plotter(const char *dir, struct mess_raw *r, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct mess_lines l;
	int ret;

	snprintf(path, sizeof(path), "%s/plotter.txt", dir);
	ret = mess_lines_open(&l, path, err, errlen);
	while (!ret && (ret = mess_lines_next(&l, err, errlen)) > 0) {
		char *t = mess_trim(l.line), *v = strchr(t, '=');
		double x;

		ret = 0;
		if (!v)
			continue;
		*v++ = '\0';
		v = mess_trim(v);
		if (!strcmp(t, "CPU_FREQ"))
			ret = mess_field_num(&l, v, t, 0, MESS_NUM_GHZ, &r->cpu_ghz, err, errlen);
		else if (!strcmp(t, "TLB_NS"))
			ret = mess_field_num(&l, v, t, 0, MESS_NUM_TLB_NS, &r->tlb_ns, err, errlen);
		else if (!strcmp(t, "CACHE_LINE_SIZE"))
			ret = mess_field_num(&l, v, t, 0, MESS_NUM_LINE, &r->line_bytes, err, errlen);
		/* Counts no machine exceeds (the fuzzer's 8.8e31 channels
		 * overflowed the int); beyond, the key is unknown, as
		 * unreadable. */
		else if (!strcmp(t, "N_CHANNELS") && !mess_field_num(&l, v, t, 0, MESS_NUM_POS, &x, NULL, 0) &&
			 x <= MESS_RAW_MAX_COUNT)
			r->channels = (int)x;
		else if (!strcmp(t, "BUS_WIDTH") && !mess_field_num(&l, v, t, 0, MESS_NUM_POS, &x, NULL, 0) &&
			 x <= MESS_RAW_MAX_COUNT)
			r->bus_width = (int)x;
		else if (!strcmp(t, "MEMORY_BINDING"))
			snprintf(r->binding, sizeof(r->binding), "%s", v);
		else if (!strcmp(t, "MEM_FREQ"))
			snprintf(r->mem_freq, sizeof(r->mem_freq), "%s", v);
	}
	mess_lines_close(&l);
	return ret;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->R != y->R)
		return x->R < y->R ? -1 : 1;
	if (x->pause != y->pause)
		return x->pause < y->pause ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * bw/<name>: 1 and *e for bw_<R>_<pause>.txt, 0 for a name of another
 * shape (not a point's), -EINVAL for a point's name whose fields are not
 * a read ratio 0..100 and a pause (decimal digits), named as written.
 */
static int entry_of(const char *bwdir, const char *name, struct entry *e,
		    char *err, size_t errlen)
{
	size_t n = strlen(name);
	const char *r = name + 3, *us;
	char field[64], q[64];
	int pct;

	if (n < 8 || strncmp(name, "bw_", 3) || strcmp(name + n - 4, ".txt"))
		return 0;
	us = memchr(r, '_', n - 7);
	if (!us || us == r || us + 1 == name + n - 4 ||
	    memchr(us + 1, '_', (size_t)(name + n - 4 - (us + 1))))
		return 0;
	snprintf(field, sizeof(field), "%.*s", (int)(us - r), r);
	if (mess_parse_pct(r, (size_t)(us - r), &pct))
		return mess_file_err(err, errlen, bwdir, 0,
				     "%s: read ratio '%s' is not 0..100",
				     mess_quote(q, sizeof(q), name), field);
	snprintf(field, sizeof(field), "%.*s", (int)(name + n - 4 - (us + 1)),
		 us + 1);
	if (mess_parse_u64(field, UINT64_MAX, &e->pause))
		return mess_file_err(err, errlen, bwdir, 0,
				     "%s: pause '%s' is not a whole number of decimal digits",
				     mess_quote(q, sizeof(q), name), field);
	e->R = (unsigned)pct;
	e->name = strdup(name);
	return e->name ? 1 : -ENOMEM;
}

/* Every point's file of bw/, sorted by (R, pause): *e, *n.  Two names of
 * one point (bw_0_0100.txt, bw_0_100.txt) are refused: which is the
 * point? */
static int entries(const char *bwdir, struct entry **e, size_t *n, char *err,
		   size_t errlen)
{
	DIR *d = opendir(bwdir);
	struct dirent *de;
	size_t cap = 0;
	int ret = 0;

	*e = NULL;
	*n = 0;
	if (!d) {
		mess_file_err(err, errlen, bwdir, 0, "%s", strerror(errno));
		return -ENOENT;
	}
	while (!ret && (de = readdir(d))) {
		struct entry x;

		ret = entry_of(bwdir, de->d_name, &x, err, errlen);
		if (ret <= 0)
			continue;
		ret = 0;
		if (*n == cap) {
			struct entry *ne;

			cap = cap ? 2 * cap : 64;
			ne = realloc(*e, cap * sizeof(**e));
			if (!ne) {
				free(x.name);
				ret = -ENOMEM;
				break;
			}
			*e = ne;
		}
		(*e)[(*n)++] = x;
	}
	closedir(d);
	if (*n)
		qsort(*e, *n, sizeof(**e), cmp_entry);
	for (size_t i = 1; !ret && i < *n; i++) {
		char q[64], q2[64];

		if ((*e)[i].R == (*e)[i - 1].R && (*e)[i].pause == (*e)[i - 1].pause)
			ret = mess_file_err(err, errlen, bwdir, 0,
					    "%s and %s name one point (read ratio %u, pause %llu); allowed: one file per point",
					    mess_quote(q, sizeof(q), (*e)[i - 1].name),
					    mess_quote(q2, sizeof(q2), (*e)[i].name),
					    (*e)[i].R, (unsigned long long)(*e)[i].pause);
	}
	return ret;
}

int mess_raw_read(const char *dir, struct mess_family *f, struct mess_raw *r,
		  char *err, size_t errlen)
{
	struct walk w = { dir, f, r, NULL, 0, 0, err, errlen };
	char path[PATH_MAX];
	struct entry *e;
	size_t ne;
	int ret;

	memset(r, 0, sizeof(*r));
	r->cpu_ghz = NAN;
	r->line_bytes = 64;
	r->channels = r->bus_width = -1;
	r->ghz_median = r->ghz_min = r->ghz_max = NAN;
	ret = plotter(dir, r, err, errlen);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/bw", dir);
	ret = entries(path, &e, &ne, err, errlen);
	for (size_t i = 0; !ret && i < ne; i++)
		ret = one_point(&w, &e[i]);
	for (size_t i = 0; i < ne; i++)
		free(e[i].name);
	free(e);
	if (!ret && !r->points)
		ret = mess_file_err(err, errlen, path, 0, "no bw_<R>_<pause>.txt file");
	if (!ret && w.nclocks) {
		qsort(w.clocks, w.nclocks, sizeof(double), cmp_d);
		r->ghz_min = w.clocks[0];
		r->ghz_max = w.clocks[w.nclocks - 1];
		r->ghz_median = w.nclocks % 2 ? w.clocks[w.nclocks / 2] :
			(w.clocks[w.nclocks / 2 - 1] + w.clocks[w.nclocks / 2]) / 2;
	}
	free(w.clocks);
	for (size_t i = 0; !ret && i < f->n; i++) {
		ret = mess_curve_median_read(&f->curves[i]);
		mess_curve_sort_pressure(&f->curves[i]);
	}
	mess_family_sort_store(f);
	return ret;
}
