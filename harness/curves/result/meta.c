// SPDX-License-Identifier: MIT
/*
 * The run directory's meta.json: how the curves were measured (cores,
 * huge pages, generator, chase, accounting, the host's state, counters,
 * the verdict), written at the start, after each mix and at the end.
 */
#include "curves/run.h"
#include "core/rundir/rundir.h"
#include "core/util.h"

/* 2: curves.csv's counter columns, meta.json counters and
 * generator_cores_rule; 3: curves.csv's trust columns, meta.json quality
 * and environment; 4: curves.csv's distribution and fairness columns,
 * meta.json distribution. */
#define META_SCHEMA 4

static json_t *int_array(const int *v, int n, const int *map)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(map ? map[v[i]] : v[i]));
	return a;
}

static json_t *meta_cores(const struct mess_run *r)
{
	return mess_json_pack("{s:i, s:i, s:o, s:o, s:s, s:i}",
			 "chase", r->chase_core,
			 "chase_pu", r->topo.core_pu[r->chase_core],
			 "generators", int_array(r->gen_cores, r->ngen, NULL),
			 "generator_pus", int_array(r->gen_cores, r->ngen, r->topo.core_pu),
			 "numbering", "hwloc logical core index; *_pus are OS PU numbers",
			 "machine_cores", r->topo.ncores);
}

/* Which variants this CPU could run, and why not, so a reader knows
 * whether the choice was the widest the hardware offers. */
static json_t *meta_variants(const struct mess_run *r)
{
	json_t *v = json_object();

	for (unsigned i = 0; i < mess_nvariants; i++) {
		const char *why = mess_variant_unavailable(&mess_variants[i]);

		json_object_set_new(v, mess_variants[i].name,
				    json_string(why ? why : "available"));
	}
	return mess_json_pack("{s:s, s:o}", "chosen_by", r->cfg.variant[0] ? "--variant" :
			 "default: widest available (run-time CPU features)",
			 "variants", v);
}

int mess_run_write_meta(struct mess_run *r, int complete)
{
	enum mess_hp ghp = r->gen_hp;
	const struct mess_gen_kernel *k = &r->var->table[0];
	json_t *m = mess_rundir_meta(&r->rd, &r->topo, META_SCHEMA);
	json_t *mixes = json_array();
	char acc[512];

	for (int i = 0; i < r->cfg.nmixes; i++)
		json_array_append_new(mixes, json_integer(r->cfg.mix[i]));
	snprintf(acc, sizeof(acc), "generator bytes per iteration (declared beside each kernel) x iterations per thread over the chase window, plus one %u-byte line per chase load; ordinary stores count one read and one write (write-allocate), non-temporal stores one write; GB/s = 1e9 B/s",
		 r->topo.line_bytes);
	if (r->be->accounting)
		snprintf(acc, sizeof(acc), "%s", r->be->accounting);
	if (m && mess_json_merge(m, mess_json_pack(
		"{s:o, s:I, s:i, s:i, s:i, s:i, s:o, s:s, s:{s:s, s:o, s:s, s:o, s:s}, s:s, s:s, s:n,"
		" s:{s:s, s:s, s:i, s:b, s:i, s:i, s:I}, s:o,"
		" s:{s:I, s:I, s:I, s:s, s:i, s:i, s:f, s:I},"
		" s:I, s:I, s:o, s:b, s:o, s:o, s:o,"
		" s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:o}",
		"cores", meta_cores(r),
		"llc_bytes", (json_int_t)r->llc_bytes, "llc_level", r->llc_level,
		"line_bytes", (int)r->topo.line_bytes,
		"numa_nodes", r->topo.nnodes, "memory_node", r->node,
		"memory_node_choice", mess_memsel_json(&r->mem),
		"huge_pages", mess_hp_name(r->ngen && ghp < r->chase.hp ? ghp : r->chase.hp),
		"huge_pages_detail",
		"chase", mess_hp_name(r->chase.hp),
		"chase_huge_pct", mess_json_real(r->chase.huge_pct, 1),
		"generators", r->ngen ? mess_hp_name(ghp) : "unused",
		"generators_min_huge_pct", mess_json_real(r->gen_huge_pct, 1),
		"source", "/proc/self/smaps after first touch",
		"bw_source", MESS_RUN_BW_SOURCE(r), "bw_accounting", acc, "counters",
		"generator", "variant", r->var->name, "description", r->var->desc,
		"vector_width_bytes", (int)k->width,
		"nontemporal_stores", k->nontemporal,
		"ops_per_iteration", MESS_GEN_OPS,
		"nop_spin_every_ops", MESS_GEN_SPIN_EVERY,
		"array_bytes_per_thread", (json_int_t)r->gen_bytes,
		"variant_selection", meta_variants(r),
		"chase", "buffer_bytes", (json_int_t)r->chase.len,
		"stride_bytes", (json_int_t)r->cfg.stride,
		"window_bytes", (json_int_t)r->cfg.window,
		"mode", r->cfg.window ? "tlb-window" : "random",
		"lines", (int)r->nlines, "loads_per_iteration", MESS_CHASE_UNROLL,
		"ms_per_repeat", r->cfg.chase_ms, "seed", (json_int_t)r->cfg.seed,
		"repeats", (json_int_t)r->cfg.repeats,
		"points_min", (json_int_t)r->cfg.points, "mixes", mixes,
		"quick", r->cfg.quick,
		"unloaded_ns", mess_json_real(r->unloaded_ns, 3),
		"unloaded_std_ns", mess_json_real(r->unloaded_std_ns, 3),
		"unloaded_random_ns", mess_json_real(r->unloaded_random_ns, 3),
		"points_measured", (int)r->points_measured,
		"points_reused", (int)r->points_reused,
		"points_remeasured_for_spread", (int)r->remeasured,
		"points_generators_unsteady", (int)r->unsteady,
		"probes", (int)r->probes,
		"plots", r->plots_note[0] ? r->plots_note : "pending",
		"mess_export", r->export_note[0] ? r->export_note : "pending",
		"cpu_frequency", mess_cpufreq_json(&r->freq)))) {
		json_decref(m);
		m = NULL;
	}
	if (m && mess_json_merge(m, mess_json_pack("{s:o, s:o, s:o, s:o, s:s, s:o, s:o}",
		"replay", r->be->json ? r->be->json(r) : json_null(),
		"llc_latency", mess_run_llc_json(r),
		"distribution", mess_tail_json(r),
		"counters", mess_run_counters_json(r),
		"generator_cores_rule", r->cores_rule,
		"environment", r->be->machine ? mess_env_json(&r->env) : json_null(),
		"quality", r->judged ? mess_run_quality_json(r) :
			mess_json_pack("{s:s}", "verdict", "pending")))) {
		json_decref(m);
		m = NULL;
	}
	return mess_rundir_write_meta(&r->rd, m, complete);
}
