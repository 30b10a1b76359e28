// SPDX-License-Identifier: MIT
/*
 * The curve-set formats, one row each (include/mess/formats.h): the
 * readers are in load.c's neighbours (load_meta.c, load_run.c), the
 * writers in export.c; this table ties each format's reader to its writer.
 */
#include "mess/formats.h"

#include <string.h>

#include "mess/export.h"
#include "mess/loadset.h"

/*
 * Export's --format list is the rows with a writer, in this order.  The
 * loader tries the rows with a marker file in this order too: run's
 * curves.csv before csv's memory_curves.csv, so that a directory holding
 * both is read as a run of ours, as it always was.  The other kinds are
 * told apart by what a directory holds (load.c), not by their order here.
 */
const struct mess_format mess_formats[] = {
	{ .name = "run", .kind = MESS_SET_RUN, .kind_name = "run",
	  .marker = "curves.csv", .read = mess_load_run,
	  .units = "GB/s, ns" },
	{ .name = "mess", .kind = MESS_SET_BWLAT, .kind_name = "bwlat",
	  .what = "bwlat_0.txt ... bwlat_100.txt for the Mess simulator (MB/s, ns)",
	  .read = mess_load_bwlat, .by_bandwidth = 1, .write = mess_export_mess,
	  .units = "MB/s, ns" },
	{ .name = "profet", .kind = MESS_SET_PROFET, .kind_name = "profet",
	  .what = "curves.json for PROFET (MB/s, CPU cycles: needs the frequency)",
	  .read = mess_load_profet, .by_bandwidth = 1,
	  .write = mess_export_profet, .needs_ghz = 1,
	  .units = "MB/s, ns", .units_cycles = "MB/s, CPU cycles" },
	{ .name = "csv", .kind = MESS_SET_MESS_RESULTS,
	  .kind_name = "mess-results",
	  .what = "memory_curves.csv, the measured points in the Mess-Results layout",
	  .marker = "memory_curves.csv", .read = mess_load_mess_results,
	  .write = mess_export_csv, .units = "GB/s, ns" },
	{ .name = "json", .kind = MESS_SET_MESS_JSON, .kind_name = "mess-json",
	  .what = "mess-curves.json: the 51 curves of the mess format with their sources",
	  .read = mess_load_own_json, .by_bandwidth = 1,
	  .write = mess_export_json, .units = "MB/s, ns" },
	{ .name = "mess-results-json", .kind = MESS_SET_MESS_RESULTS_JSON,
	  .kind_name = "mess-results-json",
	  .read = mess_load_mess_results_json, .by_bandwidth = 1,
	  .units = "GB/s, ns" },
	{ .name = "mess-raw", .kind = MESS_SET_MESS_RAW, .kind_name = "mess-raw",
	  .read = mess_load_raw,
	  .units = "CAS counts x 64 B over time; chase time over accesses" },
	/* Written only: no reader, their kind is the set they hold. */
	{ .name = "mess-json", .kind = MESS_SET_BWLAT, .kind_name = "bwlat",
	  .what = "mess-simulator.json for the newer MessMemCtrl: measuredChannels and the 51 curves (MB/s, ns)",
	  .write = mess_export_mess_json, .units = "MB/s, ns" },
	{ .name = "ramulator2", .kind = MESS_SET_BWLAT, .kind_name = "bwlat",
	  .what = "ramulator2-curves.txt for a Ramulator2 Mess port: read_pct GB/s ns a line",
	  .write = mess_export_ramulator2, .units = "GB/s, ns" },
	{ .name = NULL },
};

const struct mess_format *mess_export_find(const char *name)
{
	for (const struct mess_format *f = mess_formats; f->name; f++)
		if (f->write && name && !strcmp(f->name, name))
			return f;
	return NULL;
}

const struct mess_format *mess_format_of_kind(enum mess_set_kind kind)
{
	for (const struct mess_format *f = mess_formats; f->name; f++)
		if (f->kind == kind && f->read)
			return f;
	return NULL;
}
