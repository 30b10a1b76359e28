// SPDX-License-Identifier: MIT
/*
 * The raw Mess benchmark tree read into a family (include/mess/messraw.h
 * has the files and the method).
 */
#include "mess/messraw.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mess/messfmt.h"
#include "mess/messraw_group.h"
#include "mess/messraw_perf.h"
#include "mess/parse.h"
#include "mess/stats.h"

/* UPI data flits a cache line: at most this. */
#define MESS_RAW_MAX_UPI_FLITS 64


struct walk {
	const char *dir;
	struct mess_family *f;
	struct mess_raw *r;
	enum mess_raw_processing how;
	struct mess_raw_reps reps;	/* MESS_RAW_MESS: every repetition */
	uint32_t file;
	double *clocks;
	size_t nclocks, capclocks;
	char *err;
	size_t errlen;
};

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
	struct mess_raw_block b[MESS_RAW_MAX_REPS];
	double bw[MESS_RAW_MAX_REPS], share[MESS_RAW_MAX_REPS], lat[MESS_RAW_MAX_REPS], ghz[MESS_RAW_MAX_REPS];
	size_t n, nb = 0, nl = 0;
	char path[PATH_MAX], list[512];
	struct mess_point p = MESS_POINT_INIT;
	struct mess_curve *c;
	int ret;

	snprintf(path, sizeof(path), "%s/bw/%s", w->dir, e->name);
	ret = mess_raw_blocks(path, w->r->line_bytes, w->r->upi_flits_per_line,
			      b, &n, w->err, w->errlen);
	for (size_t i = 0; !ret && i < n; i++) {
		int rw = b[i].combined;
		double t = rw ? b[i].rw : b[i].rd + b[i].wr;

		if (!b[i].family) {
			/* no counter Mess records: a family no row has */
			ret = mess_file_err(w->err, w->errlen, path, 0,
					    "no bandwidth counter of a family Mess records (events found: %s); allowed: %s",
					    b[i].other[0] ? b[i].other : "none",
					    mess_raw_family_list(list, sizeof(list)));
			break;
		}
		if (b[i].bad || !isfinite(t) || !(b[i].elapsed > 0) || !(t > 0)) {
			w->r->reps_left_out++;
			continue;
		}
		if (!w->r->family[0])
			snprintf(w->r->family, sizeof(w->r->family), "%s",
				 b[i].family);
		w->r->socket_lines_left_out += b[i].socket_lines_left_out;
		w->r->line_reps += b[i].lines != 0;
		w->r->flit_reps += b[i].lines == 2;
		bw[nb] = t / b[i].elapsed / 1e9;
		share[nb++] = rw ? R / 100.0 : b[i].rd / t;
	}
	if (!ret && !nb)
		ret = mess_file_err(w->err, w->errlen, path, 0,
				    "no block with a bandwidth counter's reads and writes counted and the elapsed time");
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/lat/lat_%s", w->dir, e->name + 3);
	ret = mess_raw_blocks(path, w->r->line_bytes, w->r->upi_flits_per_line,
			      b, &n, w->err, w->errlen);
	for (size_t i = 0; !ret && i < n; i++) {
		const struct mess_raw_block *k = &b[i];
		double g, walk, stlb;

		if (k->bad || !(k->cycles > 0) || !(k->elapsed > 0) ||
		    !(k->accesses > 0)) {
			w->r->reps_left_out++;
			continue;
		}
		/* A count no counter reaches (1e400 digits read as inf) or a
		 * clock no CPU has (1e291 GHz) is damage, not a figure. */
		if (isinf(k->cycles) || isinf(k->accesses) || isinf(k->elapsed) ||
		    isinf(k->r1012) || isinf(k->r2012)) {
			ret = mess_file_err(w->err, w->errlen, path, 0,
					    "repetition %zu: a count beyond any counter (cycles %g, accesses %g, r1012 %g, r2012 %g, elapsed %g s)",
					    i + 1, k->cycles, k->accesses, k->r1012, k->r2012, k->elapsed);
			break;
		}
		g = k->cycles / k->elapsed / 1e9;
		if (mess_num_problem(g, MESS_NUM_GHZ)) {
			char what[160];

			snprintf(what, sizeof(what), mess_num_problem(g, MESS_NUM_GHZ),
				 "the chase's clock (cycles / elapsed, GHz)", g);
			ret = mess_file_err(w->err, w->errlen, path, 0,
					    "repetition %zu: %s", i + 1, what);
			break;
		}
		w->r->stlb_reps += isfinite(k->r1012) && k->r1012 > 0;
		/* Mess leaves out a TLB event its platform has not. */
		walk = isfinite(k->r2012) ? k->r2012 / g : 0;
		stlb = isfinite(k->r1012) ? w->r->tlb_ns * k->r1012 : 0;
		ghz[nl] = g;
		lat[nl++] = (k->elapsed * 1e9 - walk - stlb) / k->accesses;
		ret = mess_samples_push(&w->clocks, &w->nclocks, &w->capclocks, g);
	}
	if (!ret && !nl)
		ret = mess_file_err(w->err, w->errlen, path, 0,
				    "no block with cycles, accesses and the elapsed time counted");
	if (ret)
		return ret;
	p.store_pct = 100 - R;
	p.nop = pause;
	p.bw_gbs = mess_raw_mean(bw, nb);
	p.bw_gbs_std = mess_raw_sd(bw, nb);
	p.read_pct = 100 * mess_raw_mean(share, nb);
	mess_raw_split(&p);
	p.lat_ns = mess_raw_mean(lat, nl);
	p.lat_ns_std = mess_raw_sd(lat, nl);
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
	if (w->how != MESS_RAW_PER_RATIO) {
		/* grouped once every file is read (messraw_group.h) */
		for (size_t i = 0; !ret && i < nb + nl; i++) {
			struct mess_raw_rep x = { pause, w->file, i >= nb,
				i < nb ? bw[i] : lat[i - nb],
				i < nb ? share[i] : ghz[i - nb] };

			ret = mess_raw_rep_add(&w->reps, &x);
		}
		w->file++;
		return ret;
	}
	w->r->points++;
	c = mess_family_curve(w->f, p.store_pct, NAN);
	return c ? mess_curve_add(c, &p) : -ENOMEM;
}

/* The theoretical peak of r (mess_raw_peak_gbs), whatever its size. */
static double peak_of(const struct mess_raw *r, const char *where,
		      char *how, size_t howlen)
{
	double mts = strtod(r->mem_freq, NULL);

	if (!strncasecmp(r->binding, "remote", 6)) {
		if (r->nvlink_gbs > 0) {
			if (how)
				snprintf(how, howlen, "%s: NVLINK_BW_GB_S %g (remote memory)",
					 where, r->nvlink_gbs);
			return r->nvlink_gbs;
		}
		if (!(r->upi.freq_gts > 0 && r->upi.data_lanes > 0 &&
		      r->upi.flit_bits > 0 && r->upi.data_flit_bits > 0 &&
		      r->upi.links > 0))
			return NAN;
		if (how)
			snprintf(how, howlen, "%s (remote memory): 2 x UPI_FREQ %g GT/s x N_DATA_LANES %g x DATA_FLIT_BIT %g / FLIT_BIT %g x N_UPI_CHANNELS %g / 8",
				 where, r->upi.freq_gts, r->upi.data_lanes,
				 r->upi.data_flit_bits, r->upi.flit_bits, r->upi.links);
		return 2 * r->upi.freq_gts * r->upi.data_lanes *
		       r->upi.data_flit_bits / r->upi.flit_bits * r->upi.links / 8;
	}
	if (!(mts > 0 && r->channels > 0 && r->bus_width > 0))
		return NAN;
	if (how)
		snprintf(how, howlen, "%s: MEM_FREQ %g MT/s x N_CHANNELS %d x BUS_WIDTH %d bits / 8",
			 where, mts, r->channels, r->bus_width);
	return mts * 1e6 * r->channels * r->bus_width / 8 / 1e9;
}

/* x for key at l by rule's range: 0, or -EINVAL with err naming the key,
 * the value and the range. */
static int in_range(const struct mess_lines *l, const char *key, double x,
		    enum mess_num_rule rule, char *err, size_t errlen)
{
	const char *why = mess_num_problem(x, rule);
	char what[160];

	if (!why)
		return 0;
	/* fmt is one of the table's, all "%s ... %g". */
	snprintf(what, sizeof(what), why, key, x);
	return mess_file_err(err, errlen, l->path, l->no, "%s", what);
}

/*
 * A link key of a remote tree's plotter.txt (its theoretical peak,
 * mess_raw_peak_gbs): 1 when t is one, its value kept, or NAN (unknown)
 * when it is no number; -EINVAL for a number no link has (UPI 2.0 is
 * 16 GT/s x 20 lanes of 80-bit flits, 4 links a socket; NVLink-C2C
 * 900 GB/s); 0 when t is none.
 */
static int upi_key(const struct mess_lines *l, struct mess_raw *r,
		   const char *t, const char *v, char *err, size_t errlen)
{
	static const struct {
		const char *key;
		size_t off;
		double lo, hi;
		const char *unit;
	} keys[] = {
		{ "UPI_FREQ", offsetof(struct mess_raw, upi.freq_gts), 0.1, 1000, "GT/s" },
		{ "N_DATA_LANES", offsetof(struct mess_raw, upi.data_lanes), 1, 1024, "lanes" },
		{ "FLIT_BIT", offsetof(struct mess_raw, upi.flit_bits), 8, 4096, "bits" },
		{ "DATA_FLIT_BIT", offsetof(struct mess_raw, upi.data_flit_bits), 8, 4096, "bits" },
		{ "N_UPI_CHANNELS", offsetof(struct mess_raw, upi.links), 1, 64, "links" },
		{ "NVLINK_BW_GB_S", offsetof(struct mess_raw, nvlink_gbs), 0.001, 1e5, "GB/s" },
	};
	char *e;
	double x = strtod(v, &e);

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(t, keys[i].key))
			continue;
		if (!*v || *mess_trim(e))
			x = NAN;
		else if (!(x >= keys[i].lo && x <= keys[i].hi))
			return mess_file_err(err, errlen, l->path, l->no,
					     "%s beyond any link: %g (allowed: %g..%g %s)",
					     t, x, keys[i].lo, keys[i].hi, keys[i].unit);
		*(double *)((char *)r + keys[i].off) = x;
		return 1;
	}
	return 0;
}

/* A count key (N_CHANNELS, BUS_WIDTH) into *out: unknown (left) when it
 * is no number, refused outside rule's range or when not whole. */
static int count_key(const struct mess_lines *l, const char *t, char *v,
		     enum mess_num_rule rule, int *out, char *err, size_t errlen)
{
	char q[64];
	double x;
	int ret;

	if (mess_field_num(l, v, t, 0, MESS_NUM_ANY, &x, NULL, 0))
		return 0;
	ret = in_range(l, t, x, rule, err, errlen);
	if (!ret && x != floor(x))
		ret = mess_file_err(err, errlen, l->path, l->no,
				    "%s is not a whole count: '%s'", t,
				    mess_quote(q, sizeof(q), v));
	if (!ret)
		*out = (int)x;
	return ret;
}

static int plotter(const char *dir, struct mess_raw *r, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct mess_lines l;
	int ret;

	snprintf(path, sizeof(path), "%s/plotter.txt", dir);
	ret = mess_lines_open(&l, path, err, errlen);
	while (!ret && (ret = mess_lines_next(&l, err, errlen)) > 0) {
		char *t = mess_trim(l.line), *v = strchr(t, '='), *e;
		double x;

		ret = 0;
		if (!v)
			continue;
		*v++ = '\0';
		v = mess_trim(v);
		if (!strcmp(t, "CPU_FREQ"))
			ret = mess_field_num(&l, v, t, 0, MESS_NUM_GHZ, &r->cpu_ghz, err, errlen);
		else if (!strcmp(t, "TLB_NS")) {
			ret = mess_field_num(&l, v, t, 0, MESS_NUM_TLB_NS, &r->tlb_ns, err, errlen);
			r->given |= MESS_RAW_GIVEN_TLB_NS;
		} else if (!strcmp(t, "CACHE_LINE_SIZE")) {
			ret = mess_field_num(&l, v, t, 0, MESS_NUM_LINE, &r->line_bytes, err, errlen);
			r->given |= MESS_RAW_GIVEN_LINE;
		} else if (!strcmp(t, "N_CHANNELS"))
			ret = count_key(&l, t, v, MESS_NUM_CHANNELS, &r->channels, err, errlen);
		else if (!strcmp(t, "BUS_WIDTH"))
			ret = count_key(&l, t, v, MESS_NUM_BUS_BITS, &r->bus_width, err, errlen);
		/* UPI data flits a cache line (Mess's default 9): positive,
		 * and no link needs more than MESS_RAW_MAX_UPI_FLITS. */
		else if (!strcmp(t, "UPI_SCALING_FACTOR")) {
			ret = mess_field_num(&l, v, t, 0, MESS_NUM_POS, &x, err, errlen);
			if (!ret && x > MESS_RAW_MAX_UPI_FLITS)
				ret = mess_file_err(err, errlen, path, l.no,
						    "UPI_SCALING_FACTOR beyond any link: %g (allowed: > 0 .. %d flits a cache line)",
						    x, MESS_RAW_MAX_UPI_FLITS);
			if (!ret)
				r->upi_flits_per_line = x;
			r->given |= MESS_RAW_GIVEN_UPI_FLITS;
		} else if ((ret = upi_key(&l, r, t, v, err, errlen)))
			ret = ret < 0 ? ret : 0;
		else if (!strcmp(t, "MEMORY_BINDING"))
			snprintf(r->binding, sizeof(r->binding), "%s", v);
		else if (!strcmp(t, "MEM_FREQ")) {
			/* "4800 MT/s" or "4266": a number is in range; text
			 * leaves the peak unknown, as before */
			x = strtod(v, &e);
			if (e != v)
				ret = in_range(&l, t, x, MESS_NUM_MEM_MTS, err, errlen);
			snprintf(r->mem_freq, sizeof(r->mem_freq), "%s", v);
		} else if (!strcasecmp(t, "TLB_NS"))
			/* Mess's keys are upper-case: tlb_ns is not its
			 * TLB_NS, said where 0 ns is assumed */
			snprintf(r->tlb_key_case, sizeof(r->tlb_key_case), "%s", t);
	}
	mess_lines_close(&l);
	if (!ret) {
		/* each key in range may still make a peak no memory has
		 * (100 GT/s x 4096 channels x 8192 bits) */
		double peak = peak_of(r, NULL, NULL, 0);

		l.no = 0;
		if (isfinite(peak))
			ret = in_range(&l, "the theoretical peak (MEM_FREQ x N_CHANNELS x BUS_WIDTH / 8, or the links')",
				       peak, MESS_NUM_PEAK_GBS, err, errlen);
	}
	return ret;
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
		struct entry x, *ne;

		ret = entry_of(bwdir, de->d_name, &x, err, errlen);
		if (ret <= 0)
			continue;
		ret = 0;
		ne = mess_grow(*e, *n, &cap, sizeof(*ne), 64);
		if (!ne) {
			free(x.name);
			ret = -ENOMEM;
			break;
		}
		*e = ne;
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

void mess_raw_init(struct mess_raw *r)
{
	memset(r, 0, sizeof(*r));
	r->cpu_ghz = NAN;
	r->line_bytes = 64;
	r->upi_flits_per_line = 9;
	r->upi.freq_gts = r->upi.data_lanes = r->upi.flit_bits = NAN;
	r->upi.data_flit_bits = r->upi.links = r->nvlink_gbs = NAN;
	r->channels = r->bus_width = -1;
	r->ghz_median = r->ghz_min = r->ghz_max = NAN;
}

int mess_raw_plotter(const char *dir, struct mess_raw *r, char *err,
		     size_t errlen)
{
	mess_raw_init(r);
	return plotter(dir, r, err, errlen);
}

double mess_raw_peak_gbs(const struct mess_raw *r, const char *where,
			 char *how, size_t howlen)
{
	double peak = peak_of(r, where, how, howlen);

	/* plotter.txt's is in range (plotter()); a meta.json mess_plotter
	 * read back is not checked there: no figure beyond */
	return isnan(peak) || mess_num_problem(peak, MESS_NUM_PEAK_GBS) ? NAN : peak;
}

int mess_raw_read(const char *dir, struct mess_family *f, struct mess_raw *r,
		  char *err, size_t errlen)
{
	return mess_raw_read_as(dir, MESS_RAW_MESS, f, r, err, errlen);
}

int mess_raw_read_as(const char *dir, enum mess_raw_processing how,
		     struct mess_family *f, struct mess_raw *r, char *err,
		     size_t errlen)
{
	struct walk w = { dir, f, r, how, { 0 }, 0, NULL, 0, 0, err, errlen };
	char path[PATH_MAX];
	struct entry *e;
	size_t ne;
	int ret;

	ret = mess_raw_plotter(dir, r, err, errlen);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/bw", dir);
	ret = entries(path, &e, &ne, err, errlen);
	for (size_t i = 0; !ret && i < ne; i++)
		ret = one_point(&w, &e[i]);
	for (size_t i = 0; i < ne; i++)
		free(e[i].name);
	free(e);
	if (!ret && !ne)
		ret = mess_file_err(err, errlen, path, 0, "no bw_<R>_<pause>.txt file");
	if (!ret && how != MESS_RAW_PER_RATIO) {
		struct mess_raw_group_counts c;

		ret = mess_raw_group(&w.reps, how == MESS_RAW_MESS, f, &c);
		r->groups = c.groups;
		r->thinned = c.thinned;
		r->keys_left_out = c.shares_left_out;
		r->points = c.points;
		/* Nothing to write is a refusal, never an empty run. */
		if (!ret && !c.points)
			ret = mess_file_err(err, errlen, dir, 0,
					    "Mess's processing left out every read share (%zu points in %zu shares: under 5 points each after its thinning, or a gap over half a share's span); --processing mess-groups keeps every point",
					    c.groups, c.shares_left_out);
	}
	mess_raw_reps_free(&w.reps);
	if (!ret && w.nclocks) {
		r->ghz_median = mess_median(w.clocks, w.nclocks);
		r->ghz_min = w.clocks[0];
		r->ghz_max = w.clocks[w.nclocks - 1];
	}
	free(w.clocks);
	for (size_t i = 0; !ret && i < f->n; i++) {
		ret = mess_curve_median_read(&f->curves[i]);
		mess_curve_sort_pressure(&f->curves[i]);
	}
	mess_family_sort_store(f);
	return ret;
}
