// SPDX-License-Identifier: MIT
/*
 * PROFET's curves.json, {"<R>": [[MB/s, cycles], ...], ...}.  jansson
 * parses it and says where the syntax is wrong; a wrong shape is only seen
 * after parsing, when jansson no longer knows lines, so the line of the
 * offending key or row is looked up in the text.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "mess/messfmt.h"
#include "mess/parse.h"

/* Far above any curve set (a few hundred rows per read share). */
#define PROFET_MAX_BYTES (64L << 20)

#define PROFET_SHAPE "{\"<read %%>\": [[MB/s, cycles], ...], ...}"

static int slurp(const char *path, char **text, size_t *len, char *err,
		 size_t errlen)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	FILE *fp = mess_fopen_regular(path, err, errlen);
	int ret = 0;

	if (!fp)
		return -errno;
	for (;;) {
		size_t got;

		if (n == cap) {
			char *nb;

			if (cap >= (size_t)PROFET_MAX_BYTES) {
				ret = mess_file_err(err, errlen, path, 0,
						    "larger than %ld MiB: not a curve file",
						    PROFET_MAX_BYTES >> 20);
				break;
			}
			cap = cap ? 2 * cap : 4096;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (got)
			continue;
		if (ferror(fp))
			ret = mess_file_err(err, errlen, path, 0, "read error: %s",
					    strerror(errno));
		break;
	}
	fclose(fp);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

static long line_at(const char *s, size_t off)
{
	long line = 1;
	size_t i;

	for (i = 0; i < off; i++)
		line += s[i] == '\n';
	return line;
}

/* s[i] is '"': the index after the closing quote. */
static size_t skip_string(const char *s, size_t len, size_t i)
{
	for (i++; i < len && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i < len ? i + 1 : len;
}

/*
 * The line of the member `key` of the top-level object (row < 0), or of
 * the row-th element of its array value; 0 when it cannot be found (a key
 * spelled with escapes).  A scan of the JSON that jansson has already
 * accepted, so its strings are well formed.
 */
static long locate(const char *s, size_t len, const char *key, long row)
{
	size_t klen = strlen(key), i = 0, at = 0;
	int depth = 0, found = 0, expect = 0;
	long n = -1;

	while (i < len) {
		char ch = s[i];

		if (found && depth == 2 && expect &&
		    !isspace((unsigned char)ch) && ch != ']') {
			expect = 0;
			if (++n == row)
				return line_at(s, i);
		}
		if (ch == '"') {
			size_t end = skip_string(s, len, i), j = end;

			if (!found && depth == 1 && end - i == klen + 2 &&
			    !memcmp(s + i + 1, key, klen)) {
				while (j < len && isspace((unsigned char)s[j]))
					j++;
				if (j < len && s[j] == ':') {
					found = 1;
					at = i;
					if (row < 0)
						break;
					end = j + 1;
				}
			}
			i = end;
			continue;
		}
		if (ch == '[' || ch == '{') {
			depth++;
			if (found && depth == 2)
				expect = 1;
		} else if (ch == ']' || ch == '}') {
			depth--;
			if (found && depth <= 1)
				break;
		} else if (ch == ',' && found) {
			if (depth == 1)
				break;
			if (depth == 2)
				expect = 1;
		}
		i++;
	}
	return found ? line_at(s, at) : 0;
}

/* What a document's rows are in. */
struct keyed {
	int gbs;		/* bandwidth in GB/s (else MB/s) */
	double ghz;		/* latency in cycles at ghz; 0: in ns */
	const char *row;	/* "[MB/s, cycles]" */
	struct mess_drop *drop;
};

/* One [bandwidth, latency] row; 1: negative bandwidth, to be dropped. */
static int profet_row(const json_t *row, const struct keyed *k, double *gbs,
		      double *ns, double *mbs_out, const char **why)
{
	double mbs, cyc;

	if (!json_is_array(row) || json_array_size(row) != 2 ||
	    !json_is_number(json_array_get(row, 0)) ||
	    !json_is_number(json_array_get(row, 1))) {
		*why = k->gbs ? "expected [GB/s, ns]" : k->ghz > 0 ?
			"expected [MB/s, cycles]" : "expected [MB/s, ns]";
		return -EINVAL;
	}
	mbs = json_number_value(json_array_get(row, 0)) * (k->gbs ? 1e3 : 1.0);
	cyc = json_number_value(json_array_get(row, 1));
	*mbs_out = mbs;
	if (mbs < 0)
		return 1;
	if (mess_num_problem(mbs, MESS_NUM_MBS)) {
		*why = "bandwidth beyond any memory system (at most 1e9 MB/s)";
		return -EINVAL;
	}
	if (mess_num_problem(cyc, MESS_NUM_POS)) {
		*why = k->ghz > 0 ? "latency must be > 0 cycles" :
			"latency must be > 0 ns";
		return -EINVAL;
	}
	*gbs = mbs / 1000.0;
	*ns = k->ghz > 0 ? cyc / k->ghz : cyc;
	/* The bound is on time: what a cycle is worth is the caller's. */
	if (mess_num_problem(*ns, MESS_NUM_NS)) {
		*why = "latency beyond any memory system (at most 1e9 ns at this frequency)";
		return -EINVAL;
	}
	return 0;
}

static int profet_curve(const char *path, const char *text, size_t len,
			const char *key, const json_t *rows, const struct keyed *k,
			struct mess_family *f, char *err, size_t errlen)
{
	const char *why = NULL;
	char q[64];
	struct mess_curve *c;
	json_t *row;
	size_t i, dropped = 0;
	int r;

	mess_quote(q, sizeof(q), key);
	if (mess_parse_pct(key, strlen(key), &r))
		return mess_file_err(err, errlen, path, locate(text, len, key, -1),
				     "key \"%s\" is not an integer read percentage 0..100",
				     q);
	if (!json_is_array(rows) || !json_array_size(rows))
		return mess_file_err(err, errlen, path, locate(text, len, key, -1),
				     "curve \"%s\": expected a non-empty list of %s rows",
				     q, k->gbs ? "[GB/s, ns]" : "[MB/s, cycles]");
	c = mess_family_curve(f, MESS_STORE_PCT_UNKNOWN, r);
	if (!c)
		return -ENOMEM;
	if (c->n)
		return mess_file_err(err, errlen, path, locate(text, len, key, -1),
				     "key \"%s\": read share %d appears twice",
				     q, r);
	json_array_foreach(rows, i, row) {
		struct mess_point p = {
			.store_pct = MESS_STORE_PCT_UNKNOWN,
			.read_pct = r,
			.read_bw_gbs = NAN,
			.write_bw_gbs = NAN,
			.lat_ns_std = NAN,
			/* a set from elsewhere says nothing of trust */
			MESS_POINT_TRUST_NAN,
		};
		double mbs = 0;
		int ret = profet_row(row, k, &p.bw_gbs, &p.lat_ns, &mbs, &why);

		if (ret > 0) {
			mess_drop_note(k->drop, path, locate(text, len, key, (long)i),
				       mbs);
			dropped++;
			continue;
		}
		if (ret)
			return mess_file_err(err, errlen, path,
					     locate(text, len, key, (long)i),
					     "curve \"%s\", row %zu: %s", q,
					     i + 1, why);
		ret = mess_curve_add(c, &p);
		if (ret)
			return ret;
	}
	if (dropped == json_array_size(rows))
		return mess_file_err(err, errlen, path, locate(text, len, key, -1),
				     "curve \"%s\": every row (%zu) has a negative bandwidth, and such rows are dropped: no row left",
				     q, dropped);
	return 0;
}

int mess_profet_read(const char *path, double ghz, struct mess_family *f,
		     struct mess_drop *drop, char *err, size_t errlen)
{
	if (!(ghz > 0.0) || !isfinite(ghz))
		return mess_file_err(err, errlen, path, 0,
				     "a CPU frequency > 0 GHz is needed, got %g", ghz);
	return mess_keyed_json_read(path, 0, ghz, f, drop, err, errlen);
}

int mess_keyed_json_read(const char *path, int gbs, double ghz,
			 struct mess_family *f, struct mess_drop *drop,
			 char *err, size_t errlen)
{
	struct keyed k = { gbs, ghz, NULL, drop };
	json_error_t jerr;
	const char *key;
	json_t *root, *rows;
	char *text = NULL;
	size_t len = 0, skip = 0;
	int ret;

	if (!(ghz >= 0.0) || !isfinite(ghz))
		return mess_file_err(err, errlen, path, 0,
				     "a CPU frequency >= 0 GHz is needed, got %g", ghz);
	ret = slurp(path, &text, &len, err, errlen);
	if (ret)
		return ret;
	if (mess_blank(text) && strlen(text) == len) {
		free(text);
		return mess_file_err(err, errlen, path, 0, "empty file");
	}
	/* A key twice would otherwise silently keep the last curve. */
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		free(text);
		return mess_file_err(err, errlen, path, jerr.line > 0 ? jerr.line : 0,
				     "not valid JSON: %s", jerr.text);
	}
	while (skip < len && isspace((unsigned char)text[skip]))
		skip++;
	if (!json_is_object(root) || !json_object_size(root))
		ret = mess_file_err(err, errlen, path, line_at(text, skip),
				    "expected " PROFET_SHAPE ", got %s",
				    json_is_object(root) ? "an empty object" :
				    "another JSON value");
	json_object_foreach(root, key, rows) {
		if (ret)
			break;
		ret = profet_curve(path, text, len, key, rows, &k, f, err,
				   errlen);
	}
	json_decref(root);
	free(text);
	if (!ret)
		mess_family_sort_read(f);
	return ret;
}
