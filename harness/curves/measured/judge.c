// SPDX-License-Identifier: MIT
/*
 * What the measured backend says of its run (backend.h's judge, json and
 * md): the machine before the start, its clocks and the distribution's
 * host state in the verdict; its cores, buffers, generator, chase,
 * counters, LLC latency, distribution and environment in meta.json and
 * summary.md.
 */
#include <math.h>
#include <string.h>

#include "curves/measured/measured.h"
#include "mess/json.h"

/* The clock range across the run's windows worth a note. */
#define CLOCK_RANGE_NOTE 0.10
/* A reading under this share of the lowest P-state, or, with no cpufreq
 * to give one, of the highest reading, is no clock: the 0.08 ms chain
 * was descheduled (30 MHz of a 3.4 GHz core on a guest). */
#define CLOCK_DESCHED_OF_PSTATE 0.5
#define CLOCK_DESCHED_OF_HIGH 0.25

/*
 * Why the chase core's clock ranged as it did: the first cause of the
 * table that fits what the machine says (cpufreq's governor and P-states,
 * the nominal clock), so that a guest's descheduled window is never
 * explained as turbo.
 */
struct clock_cause {
	int (*fits)(const struct mess_clock_seen *c);
	const char *why;	/* printf: the lowest reading, the threshold */
};

static int desched_pstate(const struct mess_clock_seen *c)
{
	return c->governor[0] && c->pstate_min_ghz > 0 &&
	       c->lo < CLOCK_DESCHED_OF_PSTATE * c->pstate_min_ghz;
}

static int desched_guest(const struct mess_clock_seen *c)
{
	return !c->governor[0] && c->lo < CLOCK_DESCHED_OF_HIGH * c->hi;
}

static int governed(const struct mess_clock_seen *c)
{
	return c->governor[0] && strcmp(c->governor, "performance");
}

static int turbo(const struct mess_clock_seen *c)
{
	return c->nominal_ghz > 0 && c->hi > c->nominal_ghz * 1.02;
}

static int guest(const struct mess_clock_seen *c)
{
	return !c->governor[0];
}

static int always(const struct mess_clock_seen *c)
{
	(void)c;
	return 1;
}

static const struct clock_cause clock_causes[] = {
	{ desched_pstate, "%.2f GHz is far below the lowest P-state (%.2f GHz): no clock, a window in which the chase core was descheduled (preempted, or its vCPU not run)" },
	{ desched_guest, "no cpufreq here (a guest, or no driver) and %.2f GHz is under a quarter of the highest reading (%.2f GHz): a window in which the chase's vCPU was descheduled, not a clock" },
	{ governed, "the cpufreq governor lets the clock follow the load (not performance)" },
	/* A guest cannot tell from inside: a reading under the others is as
	 * likely a vCPU run for part of a window as a slower clock, one over
	 * the nominal the host's turbo (a 1.59-3.06 GHz range here was called
	 * "turbo under load", which nothing showed). */
	{ guest, "no cpufreq here (a guest, or no driver): the clock is only measured, and from inside a guest its cause cannot be told: the host's power management or turbo, or a vCPU run for part of a window" },
	{ turbo, "above the nominal clock: turbo under load" },
	{ always, "turbo under load, or power and thermal limits" },
};

const char *mess_clock_range_cause(const struct mess_clock_seen *c, char *buf,
				   size_t len)
{
	const struct clock_cause *k = clock_causes;

	while (!k->fits(c))
		k++;
	snprintf(buf, len, k->why, c->lo, k->fits == desched_pstate ?
		 c->pstate_min_ghz : c->hi);
	return buf;
}
/*
 * Distribution windows kept across a change of the host's state
 * (measured/tail.h).  WARN when the unloaded window is one (every tail is
 * read against it) or more than MESS_TAIL_STATE_WARN_SHARE of the windows
 * are: their tails mix two states.  Fewer is a note naming them, as
 * disturbed windows kept as a minority are: on the AMD guest, quiet, 7 of
 * 10 --quick runs kept 1 to 22 of about 30 windows so, the host taking
 * the core's L2 for seconds at a time.
 */
static void host_state(const struct mess_measured *r, struct mess_verdict *v)
{
	const struct mess_tail *t = &r->tail;
	unsigned all = t->windows + 1;

	if (!t->ok || !t->why_count[4])
		return;
	if ((t->idle_why & MESS_TAIL_DIST_STATE) ||
	    t->state_changed > MESS_TAIL_STATE_WARN_SHARE * all)
		mess_verdict_add(v, MESS_WARN, "host_state",
				 "the host's state changed during %u distribution windows and stayed changed in %u of %u after every attempt%s (the L2 latency or the share of L2 hits moved: meta.json distribution.host_state): their tails mix two states of the host, which steal and lost time cannot see; measure again on a quieter node",
				 t->why_count[4], t->state_changed, all,
				 t->idle_why & MESS_TAIL_DIST_STATE ? ", the unloaded one among them" : "");
	else if (t->state_changed)
		mess_verdict_add(v, MESS_PASS, "host_state_minority",
				 "the host's state changed during %u distribution windows; %u of %u stayed changed after every attempt and were kept, under %.0f %% of them, the unloaded one not among them (meta.json distribution.host_state)",
				 t->why_count[4], t->state_changed, all,
				 100 * MESS_TAIL_STATE_WARN_SHARE);
	else
		mess_verdict_add(v, MESS_PASS, "host_state_replaced",
				 "the host's state changed during %u distribution windows (meta.json distribution.host_state); each was measured again and replaced",
				 t->why_count[4]);
}

void mess_measured_judge(void *bs, const struct mess_results *res,
			 struct mess_verdict *v)
{
	struct mess_measured *r = bs;
	double lo = res->st->clock_lo, hi = res->st->clock_hi;

	mess_env_verdict(&r->env, v);
	host_state(r, v);
	mess_split_judge(r, v);
	if (hi > 0 && (hi - lo) > CLOCK_RANGE_NOTE * hi) {
		struct mess_clock_seen c = {
			.lo = lo, .hi = hi,
			.pstate_min_ghz = r->env.hw_min_khz / 1e6,
			.nominal_ghz = r->freq.nominal_ghz,
		};
		char why[MESS_REASON_LEN];

		snprintf(c.governor, sizeof(c.governor), "%s", r->env.governor);
		mess_verdict_add(v, MESS_PASS, "clock_range",
				 "the chase core's clock ranged %.2f-%.2f GHz across the run's windows (curves.csv ghz_min, ghz_max): %s",
				 lo, hi, mess_clock_range_cause(&c, why, sizeof(why)));
	}
}

static json_t *meta_cores(const struct mess_measured *r)
{
	int pus[MESS_MAX_CORES];

	for (int i = 0; i < r->ngen; i++)
		pus[i] = r->topo.core_pu[r->gen_cores[i]];
	return mess_json_pack("{s:i, s:i, s:o, s:o, s:s, s:i}",
			 "chase", r->chase_core,
			 "chase_pu", r->topo.core_pu[r->chase_core],
			 "generators", mess_json_ints(r->gen_cores, (size_t)r->ngen),
			 "generator_pus", mess_json_ints(pus, (size_t)r->ngen),
			 "numbering", "hwloc logical core index; *_pus are OS PU numbers",
			 "machine_cores", r->topo.ncores);
}

/* Which variants this CPU could run, and why not, so a reader knows
 * whether the choice was the widest the hardware offers. */
static json_t *meta_variants(const struct mess_measured *r)
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

json_t *mess_measured_json(const void *bs, const struct mess_results *res)
{
	const struct mess_measured *r = bs;
	const struct mess_gen_kernel *k = &r->var->table[0];
	enum mess_hp ghp = r->gen_hp;

	return mess_json_pack(
		"{s:o, s:I, s:i, s:i, s:i, s:o, s:s, s:{s:s, s:o, s:s, s:o, s:s},"
		" s:{s:s, s:s, s:i, s:b, s:i, s:i, s:I}, s:o,"
		" s:{s:I, s:I, s:I, s:s, s:i, s:i, s:f, s:I},"
		" s:o, s:o, s:o, s:s, s:o}",
		"cores", meta_cores(r),
		"llc_bytes", (json_int_t)r->llc_bytes, "llc_level", r->llc_level,
		"line_bytes", (int)r->topo.line_bytes,
		"numa_nodes", r->topo.nnodes,
		"memory_node_choice", mess_split_json(r),
		"huge_pages", mess_hp_name(r->ngen && ghp < r->chase.hp ? ghp : r->chase.hp),
		"huge_pages_detail",
		"chase", mess_hp_name(r->chase.hp),
		"chase_huge_pct", mess_json_real(r->chase.huge_pct, 1),
		"generators", r->ngen ? mess_hp_name(ghp) : "unused",
		"generators_min_huge_pct", mess_json_real(r->gen_huge_pct, 1),
		"source", "/proc/self/smaps after first touch",
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
		"llc_latency", mess_run_llc_json(r),
		"distribution", mess_tail_json(r, res->fam),
		"counters", mess_run_counters_json(r, res->fam),
		"generator_cores_rule", r->cores_rule,
		"environment", mess_env_json(&r->env));
}

void mess_measured_md(const void *bs, FILE *f, enum mess_md_part part,
		      const struct mess_results *res)
{
	const struct mess_measured *r = bs;

	if (part == MESS_MD_VERDICT) {
		mess_env_md(f, &r->env);
	} else if (part == MESS_MD_HOW) {
		/* How the node was chosen (the rule). */
		fputc('\n', f);
		mess_memsel_md(f, &r->mem);
		if (r->mem.nsplit)
			mess_split_md(f, r);
	} else {
		mess_run_counters_md(f, r, res->fam);
		mess_tail_md(f, r, res);
	}
}
