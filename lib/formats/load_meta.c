// SPDX-License-Identifier: MIT
/*
 * What the files beside a curve set say it is, the readers that check a
 * set against it (Mess-Results' memory_curves.csv and its plotter.txt, a
 * bwlat directory and an export's info.txt), and the JSON sets whose kind
 * only that decides: PROFET's curves.json (MB/s, CPU cycles) and
 * Mess-Results' processed/memory_curves.json (GB/s, ns) are both keyed by
 * read share, and a file name says nothing (both may be called anything).
 * The metadata decides (plotter.txt, memory_curves.csv, info.txt); where
 * none does, --ghz does (the user says the latency is in cycles); where
 * nothing does, the set is refused with the option that settles it.  The
 * values are then checked against the units decided: a set whose units
 * contradict its metadata is refused with the reason.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#include "mess/json.h"
#include "mess/loadset.h"
#include "mess/parse.h"
#include "mess/messraw.h"
#include "mess/quality.h"

/* The highest bandwidth a set may have in the units decided, beyond which
 * its values are in the other unit: no memory system reaches 20 TB/s, and
 * every one sustains more than 500 MB/s (a set read as MB/s whose curves
 * all stay below that is in GB/s). */
/* What the Mess benchmark's CPU_FREQ is (issue 35: it was called nominal). */
#define PLOTTER_MEASURED "plotter.txt CPU_FREQ, measured by the Mess benchmark"

#define MAX_PLAUSIBLE_GBS 20000.0
#define MIN_PLAUSIBLE_MAX_MBS 500.0

int mess_load_is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int mess_load_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int mess_load_join(struct mess_loadset *s, char *buf, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
		return mess_file_err(s->err, s->errlen, dir, 0, "path too long");
	return 0;
}

/* "Frequency: 2.3GHz" (PROFET's prose): the figure, else NAN. */
static double prose_ghz(const char *line)
{
	const char *at = strcasestr(line, "frequency");
	char *end;
	double v;

	if (!at || !(at = strchr(at, ':')))
		return NAN;
	v = strtod(at + 1, &end);
	while (*end == ' ')
		end++;
	return end > at + 1 && !strncasecmp(end, "GHz", 3) && v > 0 && v < 20 ?
	       v : NAN;
}

/* A KEY=VALUE line: its value for key, else NULL. */
static char *value_of(char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n))
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	return *line == '=' ? mess_trim(line + 1) : NULL;
}

static void copy(char *dst, size_t len, const char *v)
{
	snprintf(dst, len, "%s", v);
}

/* One info.txt line into m and the set's provenance. */
static int info_line(struct mess_loadset *s, struct mess_set_meta *m, struct mess_lines *l,
		     int *keyed)
{
	struct mess_set_info *in = s->info;
	char *t = mess_trim(l->line), *v;
	enum mess_level lv;
	double x;

	if (!*t || *t == '#')
		return 0;
	if (!strchr(t, '=') || !isupper((unsigned char)*t)) {
		x = prose_ghz(t);
		if (isfinite(x))
			m->ghz = x;
		return 0;
	}
	(*keyed)++;
	if ((v = value_of(t, "FORMAT")))
		copy(m->format, sizeof(m->format), v);
	else if ((v = value_of(t, "BANDWIDTH_UNIT")))
		copy(m->bw_unit, sizeof(m->bw_unit), v);
	else if ((v = value_of(t, "CPU_FREQ")))
		return mess_field_num(l, v, "CPU_FREQ", 0, MESS_NUM_GHZ, &m->ghz,
				      s->err, s->errlen);
	else if ((v = value_of(t, "MEASURED_BY")) && strcmp(v, "unknown"))
		copy(in->tool, sizeof(in->tool), v);
	else if ((v = value_of(t, "BANDWIDTH_SOURCE")) && strcmp(v, "unknown"))
		copy(in->bw_source, sizeof(in->bw_source), v);
	else if ((v = value_of(t, "SOURCE_VERDICT")) &&
		 (!strcmp(v, "pending") || !mess_level_parse(v, &lv)))
		copy(in->verdict, sizeof(in->verdict), v);
	else if ((v = value_of(t, "SOURCE_VERDICT_REASON"))) {
		copy(in->verdict_reason, sizeof(in->verdict_reason), v);
		in->verdict_reasons = 1;
	} else if ((v = value_of(t, "UNLOADED_NS")) &&
		   !mess_field_num(l, v, "UNLOADED_NS", 0, MESS_NUM_NS, &x,
				   s->err, s->errlen)) {
		in->unloaded_ns = x;
		in->unloaded_source = "info.txt UNLOADED_NS (the source set's)";
	}
	return 0;
}

static int read_info(struct mess_loadset *s, struct mess_set_meta *m)
{
	char path[PATH_MAX];
	struct mess_lines l;
	int keyed = 0, ret = mess_load_join(s, path, s->dir, "info.txt");

	if (ret || !mess_load_is_file(path))
		return ret;
	m->have_info = 1;
	ret = mess_lines_open(&l, path, s->err, s->errlen);
	while (!ret && (ret = mess_lines_next(&l, s->err, s->errlen)) > 0)
		ret = info_line(s, m, &l, &keyed);
	mess_lines_close(&l);
	m->profet_prose = !ret && !keyed;
	return ret;
}

/* CPU_FREQ of plotter.txt (the Mess benchmark's metadata). */
static int read_plotter(struct mess_loadset *s, struct mess_set_meta *m)
{
	static const char key[] = "CPU_FREQ";
	char path[PATH_MAX];
	struct mess_lines l;
	int ret = mess_load_join(s, path, s->meta_dir, "plotter.txt");

	if (ret || !mess_load_is_file(path))
		return ret;
	m->have_plotter = 1;
	ret = mess_lines_open(&l, path, s->err, s->errlen);
	while (!ret && (ret = mess_lines_next(&l, s->err, s->errlen)) > 0) {
		char *v = value_of(mess_trim(l.line), key);

		ret = v ? mess_field_num(&l, v, key, 0, MESS_NUM_GHZ,
					 &m->plotter_ghz, s->err, s->errlen) : 0;
	}
	mess_lines_close(&l);
	return ret;
}

int mess_load_meta(struct mess_loadset *s, struct mess_set_meta *m)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->ghz = NAN;
	m->plotter_ghz = NAN;
	ret = read_info(s, m);
	return ret ? ret : read_plotter(s, m);
}

int mess_load_info_provenance(struct mess_loadset *s)
{
	struct mess_set_meta m;

	return mess_load_meta(s, &m);
}

/* ---- Mess-Results' memory_curves.csv and bwlat files ---- */

/*
 * An export's info.txt that states another bandwidth unit than the file is
 * in: the metadata or the file is wrong, and which cannot be told.
 */
static int units_agree(struct mess_loadset *s, const char *unit)
{
	struct mess_set_meta m;
	int ret = mess_load_meta(s, &m);

	if (ret || !m.bw_unit[0] || !strncmp(m.bw_unit, unit, strlen(unit)))
		return ret;
	return mess_file_err(s->err, s->errlen, s->file, 0,
			     "is in %s but its info.txt says BANDWIDTH_UNIT=%s: the units contradict the metadata; refused (correct the info.txt that is wrong)",
			     unit, m.bw_unit);
}

int mess_load_mess_results(struct mess_loadset *s)
{
	struct mess_set_meta m = { .plotter_ghz = NAN };
	int ret = mess_reference_read(s->file, s->f, s->err, s->errlen);

	if (ret)
		return ret;
	/* The published curves were measured with uncore counters. */
	snprintf(s->info->bw_source, sizeof(s->info->bw_source), "counters");
	snprintf(s->info->tool, sizeof(s->info->tool), "Mess-Results");
	/* Mess measures the clock it writes there (2.98 GHz on a 2.0 GHz
	 * 8480+): measured, and no nominal is said. */
	ret = read_plotter(s, &m);
	s->info->cpu_ghz_measured = m.plotter_ghz;
	if (isfinite(s->info->cpu_ghz_measured))
		snprintf(s->info->cpu_ghz_measured_source, sizeof(s->info->cpu_ghz_measured_source),
			 "%s", PLOTTER_MEASURED);
	if (!ret)
		ret = units_agree(s, "GB/s");
	return ret;
}

int mess_load_bwlat(struct mess_loadset *s)
{
	int ret = mess_bwlat_read(s->is_dir ? s->dir : s->file, s->f,
				  &s->info->skipped_filled, &s->drop, s->err,
				  s->errlen);

	if (!ret)
		ret = units_agree(s, "MB/s");
	return ret ? ret : mess_load_info_provenance(s);
}

/* ---- JSON sets ---- */

int mess_load_json_kind(struct mess_loadset *s, enum mess_set_kind *kind)
{
	char mc[PATH_MAX], why[256];
	struct mess_set_meta m;
	json_t *j = mess_json_load(s->file, 0, NULL);
	int ret, mess_results, profet;

	/* Not JSON: the reader of the kind the metadata gives says why. */
	ret = json_is_object(j) && json_object_get(j, "schema");
	json_decref(j);
	if (ret) {
		*kind = MESS_SET_MESS_JSON;
		return 0;
	}
	ret = mess_load_meta(s, &m);
	if (!ret)
		ret = mess_load_join(s, mc, s->dir, "memory_curves.csv");
	if (ret)
		return ret;
	mess_results = m.have_plotter || mess_load_is_file(mc);
	/* A clock in info.txt is for latencies in cycles. */
	profet = m.profet_prose || !strcmp(m.format, "profet") ||
		 (m.have_info && isfinite(m.ghz) && !mess_results);
	snprintf(why, sizeof(why), "%s%s%s",
		 m.have_plotter ? "a Mess plotter.txt" : "memory_curves.csv",
		 " is beside it (Mess-Results: GB/s, ns), ",
		 m.profet_prose ? "and PROFET's info.txt" : "and info.txt says FORMAT=profet");
	if (mess_results && profet)
		return mess_file_err(s->err, s->errlen, s->file, 0,
				     "metadata contradicts itself: %s (MB/s, CPU cycles); remove the one that does not belong",
				     why);
	if (mess_results || profet || s->ghz > 0) {
		*kind = mess_results ? MESS_SET_MESS_RESULTS_JSON : MESS_SET_PROFET;
		return 0;
	}
	return mess_file_err(s->err, s->errlen, s->file, 0,
			     "keyed by read share as both PROFET's curves.json (MB/s, CPU cycles) and Mess-Results' processed/memory_curves.json (GB/s, ns) are, and nothing beside it (info.txt, plotter.txt, memory_curves.csv) says which: give --ghz GHZ to read it as PROFET's, or put the Mess run's plotter.txt beside it");
}

/* The highest bandwidth of the family, GB/s. */
static double max_gbs(const struct mess_family *f)
{
	double mx = 0;

	for (size_t i = 0; i < f->n; i++)
		for (size_t k = 0; k < f->curves[i].n; k++)
			if (f->curves[i].pts[k].bw_gbs > mx)
				mx = f->curves[i].pts[k].bw_gbs;
	return mx;
}

int mess_load_keyed_json(struct mess_loadset *s, int gbs)
{
	struct mess_set_info *in = s->info;
	struct mess_set_meta m;
	double ghz = 0, mx;
	int filled[101], ret = mess_load_meta(s, &m);

	if (ret)
		return ret;
	if (!gbs) {
		ghz = s->ghz > 0 ? s->ghz : isfinite(m.ghz) ? m.ghz : m.plotter_ghz;
		if (!(ghz > 0))
			return mess_file_err(s->err, s->errlen, s->file, 0,
					     "latency is in CPU cycles (PROFET) and no frequency is known (info.txt has none): give --ghz");
		in->cpu_ghz = ghz;
		snprintf(in->cpu_ghz_source, sizeof(in->cpu_ghz_source), "%s",
			 s->ghz > 0 ? "--ghz" : isfinite(m.ghz) ?
			 "info.txt CPU_FREQ, the clock its cycles are at" :
			 "plotter.txt CPU_FREQ");
		in->latency_from_cycles = 1;
		if (!in->tool[0])
			snprintf(in->tool, sizeof(in->tool), "PROFET");
	} else {
		in->cpu_ghz_measured = m.plotter_ghz;
		if (isfinite(m.plotter_ghz))
			snprintf(in->cpu_ghz_measured_source, sizeof(in->cpu_ghz_measured_source),
				 "%s", PLOTTER_MEASURED);
		snprintf(in->bw_source, sizeof(in->bw_source), "counters");
		snprintf(in->tool, sizeof(in->tool), "Mess-Results");
	}
	ret = mess_keyed_json_read(s->file, gbs, ghz, s->f, &s->drop, s->err,
				   s->errlen);
	if (ret)
		return ret;
	mx = max_gbs(s->f);
	if (gbs && mx > MAX_PLAUSIBLE_GBS)
		return mess_file_err(s->err, s->errlen, s->file, 0,
				     "read as GB/s (a Mess plotter.txt is beside it) its highest bandwidth is %.0f GB/s, beyond any memory system: the values look like MB/s (PROFET's); refused",
				     mx);
	if (!gbs && mx * 1e3 < MIN_PLAUSIBLE_MAX_MBS)
		return mess_file_err(s->err, s->errlen, s->file, 0,
				     "read as PROFET's MB/s (%s) its highest bandwidth is %.1f MB/s, below any memory system: the values look like GB/s (Mess-Results' processed JSON, in ns); refused: put the Mess run's plotter.txt beside it",
				     s->ghz > 0 ? "--ghz given" : "its info.txt says so", mx * 1e3);
	/* An export of ours: the shares it filled in are not data. */
	ret = mess_sources_filled(s->dir, strrchr(s->file, '/') ?
				  strrchr(s->file, '/') + 1 : s->file, filled,
				  s->err, s->errlen);
	for (size_t i = s->f->n; !ret && i-- > 0;) {
		double r = s->f->curves[i].read_pct;

		if (r >= 0 && r <= 100 && filled[(int)lround(r)]) {
			mess_curve_free(&s->f->curves[i]);
			memmove(&s->f->curves[i], &s->f->curves[i + 1],
				(s->f->n - i - 1) * sizeof(s->f->curves[0]));
			s->f->n--;
			in->skipped_filled++;
		}
	}
	return ret;
}

/* Our own mess-curves.json: {"schema": 1, "bandwidth_unit": "MB/s",
 * "latency_unit": "ns", "curves": {"<R>": {"source", "from", "points"}}}. */
int mess_load_profet(struct mess_loadset *s)
{
	return mess_load_keyed_json(s, 0);
}

int mess_load_mess_results_json(struct mess_loadset *s)
{
	return mess_load_keyed_json(s, 1);
}

int mess_load_own_json(struct mess_loadset *s)
{
	struct mess_set_info *in = s->info;
	json_t *j = mess_json_load(s->file, JSON_REJECT_DUPLICATES, NULL), *c, *v;
	const char *key, *bu, *lu, *sv;
	int ret = 0;

	if (!j || !json_is_object(j))
		ret = mess_file_err(s->err, s->errlen, s->file, 0, "not a JSON object");
	bu = json_string_value(json_object_get(j, "bandwidth_unit"));
	lu = json_string_value(json_object_get(j, "latency_unit"));
	if (!ret && json_integer_value(json_object_get(j, "schema")) != 1)
		ret = mess_file_err(s->err, s->errlen, s->file, 0,
				    "\"schema\" is not 1: not a mess-curves.json this build reads");
	if (!ret && (!bu || strcmp(bu, "MB/s") || !lu || strcmp(lu, "ns")))
		ret = mess_file_err(s->err, s->errlen, s->file, 0,
				    "units \"%s\", \"%s\": allowed \"MB/s\", \"ns\"",
				    bu ? bu : "missing", lu ? lu : "missing");
	sv = json_string_value(json_object_get(json_object_get(j, "source_verdict"),
					       "verdict"));
	if (sv && strcmp(sv, "none"))
		snprintf(in->verdict, sizeof(in->verdict), "%s", sv);
	if (!ret && json_is_number(json_object_get(j, "unloaded_ns"))) {
		in->unloaded_ns = json_number_value(json_object_get(j, "unloaded_ns"));
		in->unloaded_source = "mess-curves.json unloaded_ns (the source set's)";
	}
	c = json_object_get(j, "curves");
	json_object_foreach(c, key, v) {
		const char *src = json_string_value(json_object_get(v, "source"));
		json_t *row, *pts = json_object_get(v, "points");
		struct mess_curve *cv;
		size_t i;
		int r;

		if (ret)
			break;
		if (mess_parse_pct(key, strlen(key), &r) || !src || !json_is_array(pts)) {
			ret = mess_file_err(s->err, s->errlen, s->file, 0,
					    "curve \"%.8s\": expected an integer read share with {\"source\", \"points\"}",
					    key);
			break;
		}
		if (strcmp(src, "measured")) {
			in->skipped_filled++;
			continue;
		}
		cv = mess_family_curve(s->f, MESS_STORE_PCT_UNKNOWN, r);
		if (!cv) {
			ret = -ENOMEM;
			break;
		}
		json_array_foreach(pts, i, row) {
			struct mess_point p = { .store_pct = MESS_STORE_PCT_UNKNOWN,
						.read_pct = r, .read_bw_gbs = NAN,
						.write_bw_gbs = NAN, .lat_ns_std = NAN,
						MESS_POINT_TRUST_NAN };
			double mbs = json_number_value(json_array_get(row, 0));

			p.lat_ns = json_number_value(json_array_get(row, 1));
			if (json_array_size(row) != 2 || !(mbs >= 0) ||
			    mess_num_problem(mbs, MESS_NUM_MBS) ||
			    mess_num_problem(p.lat_ns, MESS_NUM_NS)) {
				ret = mess_file_err(s->err, s->errlen, s->file, 0,
						    "curve \"%d\", point %zu: expected [MB/s >= 0, ns > 0]",
						    r, i + 1);
				break;
			}
			p.bw_gbs = mbs / 1e3;
			ret = mess_curve_add(cv, &p);
			if (ret)
				break;
		}
	}
	json_decref(j);
	if (!ret && !s->f->n)
		ret = mess_file_err(s->err, s->errlen, s->file, 0,
				    "no measured curve (%d filled in)", in->skipped_filled);
	if (!ret)
		mess_family_sort_read(s->f);
	return ret ? ret : mess_load_info_provenance(s);
}

/* ---- a raw Mess benchmark tree ---- */

int mess_load_raw(struct mess_loadset *s)
{
	struct mess_set_info *in = s->info;
	struct mess_raw r;
	int ret = mess_raw_read(s->dir, s->f, &r, s->err, s->errlen);

	if (ret)
		return ret;
	/* Both clocks a raw tree has are measured: the chase's cycles over
	 * its elapsed time, and plotter.txt's (Mess's own); no nominal. */
	in->cpu_ghz_measured = r.ghz_median;
	if (r.ghz_median > 0) {
		in->cpu_ghz_spread_pct = 100 * (r.ghz_max - r.ghz_min) / r.ghz_median;
		snprintf(in->cpu_ghz_measured_source, sizeof(in->cpu_ghz_measured_source),
			 "the chase's cycles over its perf stat elapsed time, median of every repetition; " PLOTTER_MEASURED ": %.3f GHz",
			 r.cpu_ghz);
	} else {
		in->cpu_ghz_measured = r.cpu_ghz;
		snprintf(in->cpu_ghz_measured_source, sizeof(in->cpu_ghz_measured_source),
			 "%s", PLOTTER_MEASURED);
	}
	snprintf(in->bw_source, sizeof(in->bw_source), "counters");
	snprintf(in->tool, sizeof(in->tool), "Mess benchmark (raw tree)");
	return 0;
}
