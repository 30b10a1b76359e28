// SPDX-License-Identifier: MIT
/*
 * Exports for simulators that read one file of all the shares
 * (include/mess/export.h): the newer MessMemCtrl's JSON document and a
 * Ramulator2 Mess controller port's text lines.
 */
#include "mess/export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mess/json.h"
#include "mess/parse.h"

/* ---- mess-json: {"measuredChannels": N, "curves": {...}} ---- */

struct sim_ctx {
	json_t *curves;
	FILE *fp;
	char *err;
	size_t errlen;
};

/* JSON has no inf, and a text reader takes "inf" for no number: a set
 * made some other way, said, not written. */
static int finite_point(const struct sim_ctx *c, int r, size_t i, double bw,
			double lat)
{
	if (isfinite(bw * 1e3) && isfinite(lat))
		return 0;
	return mess_fail(c->err, c->errlen, -EINVAL,
			 "read share %d%%: point %zu is not finite (%g MB/s, %g ns); not written",
			 r, i + 1, bw * 1e3, lat);
}

static int mess_json_row(void *ctx, int r, const double *bw, const double *lat,
			 size_t n, int src, const char *from)
{
	struct sim_ctx *c = ctx;
	json_t *pts = json_array();
	char key[8];
	int ret;

	(void)src;
	(void)from;
	if (!pts)
		return mess_fail(c->err, c->errlen, -ENOMEM, "out of memory");
	/* Highest bandwidth first, as in its bwlat_<R>.txt files. */
	for (size_t i = n; i-- > 0;) {
		ret = finite_point(c, r, i, bw[i], lat[i]);
		if (!ret && json_array_append_new(pts, json_pack("[ff]", bw[i] * 1e3, lat[i])))
			ret = mess_fail(c->err, c->errlen, -ENOMEM, "out of memory");
		if (ret) {
			json_decref(pts);
			return ret;
		}
	}
	snprintf(key, sizeof(key), "%d", r);
	return json_object_set_new(c->curves, key, pts) ?
		mess_fail(c->err, c->errlen, -ENOMEM, "out of memory") : 0;
}

#define MESS_JSON_FILE "mess-simulator.json"

int mess_export_mess_json(const struct mess_export_in *in, const char *dir,
			  char *err, size_t errlen)
{
	struct sim_ctx c = { .err = err, .errlen = errlen };
	struct mess_export_file o;
	json_t *root;
	int ret;

	/* The reader scales bandwidth by the simulated channels over these:
	 * a guess would scale every curve wrong. */
	if (in->channels <= 0)
		return mess_fail(err, errlen, -EINVAL,
				 "mess-json: the channels the set was measured on are unknown: give --channels N");
	c.curves = json_object();
	root = mess_json_pack("{s:i, s:O}", "measuredChannels", in->channels,
			      "curves", c.curves);
	if (!root || !c.curves) {
		json_decref(root);
		json_decref(c.curves);
		return mess_fail(err, errlen, -ENOMEM, "out of memory");
	}
	ret = mess_export_each_share(in, dir, MESS_JSON_FILE, mess_json_row, &c,
				     err, errlen);
	if (!ret)
		ret = mess_export_file_open(&o, dir, MESS_JSON_FILE, err, errlen);
	if (!ret)
		ret = mess_export_file_close(&o, mess_json_dumpf(root, o.fp), err, errlen);
	json_decref(c.curves);
	json_decref(root);
	return ret ? ret : mess_export_info_write(in, dir, &(struct mess_export_info){
		.format = "mess-json (the Mess simulator's MessMemCtrl, one JSON file)", .lat_unit = "ns",
		.more = "# MessMemCtrl scales the bandwidth by its simulated channels over measuredChannels (CHANNELS); the document has no other top-level key.\n",
		.columns = MESS_JSON_FILE " {\"measuredChannels\": CHANNELS, \"curves\": {\"<R>\": [[bandwidth MB/s, latency ns], ...]}}: R = 0, 2, ..., 100; points highest bandwidth first" },
		err, errlen);
}

/* ---- ramulator2: read_pct bandwidth_GBps latency_ns ---- */

#define RAMULATOR2_FILE "ramulator2-curves.txt"

static int ramulator2_row(void *ctx, int r, const double *bw, const double *lat,
			  size_t n, int src, const char *from)
{
	struct sim_ctx *c = ctx;

	(void)src;
	(void)from;
	for (size_t i = 0; i < n; i++) {
		int ret = finite_point(c, r, i, bw[i], lat[i]);

		if (ret)
			return ret;
		/* GB/s with six decimals: the MB/s of the other formats' three. */
		fprintf(c->fp, "%d %.6f %.3f\n", r, bw[i], lat[i]);
	}
	return 0;
}

int mess_export_ramulator2(const struct mess_export_in *in, const char *dir,
			   char *err, size_t errlen)
{
	struct sim_ctx c = { .err = err, .errlen = errlen };
	struct mess_export_file o;
	int ret = mess_export_file_open(&o, dir, RAMULATOR2_FILE, err, errlen);

	if (ret)
		return ret;
	c.fp = o.fp;
	ret = mess_export_each_share(in, dir, RAMULATOR2_FILE, ramulator2_row, &c,
				     err, errlen);
	ret = mess_export_file_close(&o, ret, err, errlen);
	return ret ? ret : mess_export_info_write(in, dir, &(struct mess_export_info){
		.format = "ramulator2 (a Ramulator2 Mess controller port's curve file)", .lat_unit = "ns",
		.bw_unit = "GB/s (1e9 B/s, the whole system)",
		.more = "LINE_ORDER=by read share 0, 2, ..., 100, and within a share by rising bandwidth; every line three numbers, no header, no comment\n",
		.columns = RAMULATOR2_FILE ": read_pct % (integer), bandwidth GB/s, latency ns; one point a line, separated by one space" },
		err, errlen);
}
