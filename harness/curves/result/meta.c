// SPDX-License-Identifier: MIT
/*
 * The run directory's meta.json: how the curves were measured, written at
 * the start, after each mix and at the end.  Its keys' order is the
 * file's, here; the backend's sections (cores, huge pages, generator,
 * chase, counters, the host's state: backend.h's json) take their places
 * in it, and those it has not stay null.
 */
#include <errno.h>
#include <string.h>

#include "curves/result/run.h"
#include "core/machine/topo.h"
#include "core/rundir/rundir.h"
#include "core/util.h"

/* 2: curves.csv's counter columns, meta.json counters and
 * generator_cores_rule; 3: curves.csv's trust columns, meta.json quality
 * and environment; 4: curves.csv's distribution and fairness columns,
 * meta.json distribution. */
#define META_SCHEMA 4

/* The backend's sections, where they stand in the file: null until its
 * json says otherwise. */
static const char *const backend_keys[] = {
	"cores", "llc_bytes", "llc_level", "line_bytes", "numa_nodes",
	"memory_node_choice", "huge_pages", "huge_pages_detail", "counters",
	"generator", "variant_selection", "chase",
};
static const char *const backend_keys_late[] = {
	"replay", "llc_latency", "distribution", "generator_cores_rule",
	"environment",
};

static int put_nulls(json_t *m, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (json_object_set_new(m, keys[i], json_null()))
			return -ENOMEM;
	return 0;
}

json_t *mess_run_meta(struct mess_run *r)
{
	static const struct mess_topo none;
	json_t *m = mess_rundir_meta(&r->rd, &none, META_SCHEMA);
	json_t *mixes = json_array();
	struct mess_results res;
	char acc[512];

	mess_run_results(r, &res);
	for (int i = 0; i < r->cfg.nmixes; i++)
		json_array_append_new(mixes, json_integer(r->cfg.mix[i]));
	snprintf(acc, sizeof(acc), "generator bytes per iteration (declared beside each kernel) x iterations per thread over the chase window, plus one %u-byte line per chase load; ordinary stores count one read and one write (write-allocate), non-temporal stores one write; GB/s = 1e9 B/s",
		 r->desc.line_bytes);
	if (r->be->accounting)
		snprintf(acc, sizeof(acc), "%s", r->be->accounting);
	if (m && (json_object_set_new(m, "cpu_model", json_string(r->desc.device)) ||
		  put_nulls(m, backend_keys, 5) ||
		  json_object_set_new(m, "memory_node", json_integer(r->desc.node)) ||
		  put_nulls(m, backend_keys + 5, 3) ||
		  json_object_set_new(m, "bw_source", json_string(r->desc.bw_source)) ||
		  json_object_set_new(m, "bw_accounting", json_string(acc)) ||
		  put_nulls(m, backend_keys + 8, 4))) {
		json_decref(m);
		m = NULL;
	}
	if (m && mess_json_merge(m, mess_json_pack(
		"{s:I, s:s, s:I, s:I, s:o, s:b, s:o, s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:o}",
		"repeats", (json_int_t)r->cfg.repeats,
		"sweep", r->cfg.sweep,
		"points_min", (json_int_t)r->cfg.points,
		/* the knee rule stops at --points, classic up to 3 past it */
		"points_max", (json_int_t)r->cfg.points +
			(strcmp(r->cfg.sweep, "classic") ? 0 : MESS_SWEEP_EXTRA_POINTS),
		"mixes", mixes,
		"quick", r->cfg.quick,
		"unloaded_ns", mess_json_real(r->u.ns, 3),
		"unloaded_std_ns", mess_json_real(r->u.std_ns, 3),
		"unloaded_random_ns", mess_json_real(r->u.random_ns, 3),
		"points_measured", (int)r->points_measured,
		"points_reused", (int)r->points_reused,
		"points_remeasured_for_spread", (int)r->rep.st.remeasured,
		"points_generators_unsteady", (int)r->unsteady,
		"probes", (int)r->probes,
		"plots", r->plots_note[0] ? r->plots_note : "pending",
		"mess_export", r->export_note[0] ? r->export_note : "pending",
		"cpu_frequency", mess_cpufreq_json(&r->desc.clocks)))) {
		json_decref(m);
		m = NULL;
	}
	if (m && (put_nulls(m, backend_keys_late,
			    sizeof(backend_keys_late) / sizeof(backend_keys_late[0])) ||
		  json_object_set_new(m, "quality", r->judged ? mess_run_quality_json(r) :
				      mess_json_pack("{s:s}", "verdict", "pending")) ||
		  (r->be->json && mess_json_merge(m, r->be->json(r->bs, &res))))) {
		json_decref(m);
		m = NULL;
	}
	return m;
}

int mess_run_write_meta(struct mess_run *r, int complete)
{
	return mess_rundir_write_meta(&r->rd, mess_run_meta(r), complete);
}
