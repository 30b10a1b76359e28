// SPDX-License-Identifier: MIT
/* `mess absorb`'s meta.json: how every figure of the run was measured. */
#include <stdio.h>
#include <string.h>

#include "absorb/absorb.h"

static json_t *cores_json(const struct absorb_table *t)
{
	return mess_json_pack("{s:i, s:o, s:s, s:o}", "machine_cores", t->ncores,
		"counts", mess_json_ints(t->counts, (size_t)t->ncounts),
		"placement", "thread i pinned to core i (hwloc logical index), i < the row's count",
		"pus", mess_json_ints(t->core_pu, (size_t)t->ncores));
}

static json_t *noise_json(const struct absorb_table *t)
{
	json_t *bytes = json_object();

	for (int i = 0; i < t->nmodes; i++)
		json_object_set_new(bytes, mess_noise_mode_name(t->modes[i]),
				    json_integer(mess_noise_insn_bytes(t->modes[i])));
	return mess_json_pack("{s:I, s:o, s:s, s:o}",
		"memory_ld64_bytes_per_thread", (json_int_t)t->noise_bytes,
		"memory_ld64_huge_pct_min", mess_json_real(t->noise_huge_pct, 1),
		"memory_ld64_huge_pages", "THP requested (madvise); huge_pct_min is the least share obtained over the threads, null if not measured",
		"insn_bytes", bytes);
}

static json_t *loops_json(const struct absorb_table *t)
{
	json_t *loops = json_object();
	char key[96];

	for (int k = 0; k < MESS_WL_NKERNELS; k++)
		for (int i = 0; i < t->nmodes; i++) {
			const struct loop_census *c = &t->loops[k][t->modes[i]];

			if (!c->clean_body)
				continue;
			snprintf(key, sizeof(key), "%s_%s", mess_wl_kernels[k].symbol,
				 mess_noise_mode_name(t->modes[i]));
			json_object_set_new(loops, key, mess_json_pack(
				"{s:i, s:i, s:i, s:i, s:i}", "sites", c->sites,
				"body", c->body, "clean_body", c->clean_body,
				"overhead", c->overhead, "extra", c->extra));
		}
	return loops;
}

static json_t *not_run_json(const struct absorb_table *t)
{
	json_t *a = json_array();

	for (int i = 0; i < MESS_NOISE_NMODES; i++)
		if (t->mode_on[i] && t->mode_skip[i])
			json_array_append_new(a, mess_json_pack("{s:s, s:s}",
				"mode", mess_noise_mode_name(i), "why", t->mode_skip[i]));
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].skip)
			json_array_append_new(a, mess_json_pack("{s:s, s:s}",
				"row", t->rows[i].id, "why", t->rows[i].skip));
	if (t->ladder_skip)
		json_array_append_new(a, mess_json_pack("{s:s, s:s}",
			"ladder", "lat_mem_rd", "why", t->ladder_skip));
	return a;
}

/* Each measured row's own object, with the work per run of each mode. */
static json_t *rows_json(const struct absorb_table *t)
{
	json_t *a = json_array();

	for (size_t i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		json_t *o, *work = json_object(), *floor = json_object();

		if (!r->meta)
			continue;
		for (int j = 0; j < t->nmodes; j++) {
			const struct pair *pr = &r->pair[t->modes[j]];
			const char *mn = mess_noise_mode_name(t->modes[j]);

			json_object_set_new(work, mn,
				json_integer((json_int_t)pr->iters));
			/* The floor the search's last point took: pooled,
			 * or (null) the baseline's spread. */
			json_object_set_new(floor, mn, mess_json_pack("{s:o, s:i}",
				"pooled_rel", pr->noise_n >= MESS_ABSORB_POOL_MIN ?
				mess_json_real(pr->noise, 5) : json_null(),
				"pairs_pooled", (int)pr->noise_n));
		}
		o = json_deep_copy(r->meta);
		json_object_set_new(o, "work_per_run", work);
		json_object_set_new(o, "noise_floor", floor);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *err_json(int err)
{
	return err ? json_string(strerror(-err)) : json_null();
}

/* The run's disturbance totals; per point in absorption_points.csv. */
static json_t *disturbance_json(const struct absorb_table *t)
{
	return mess_json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:s}",
		"rule", "a pair of runs is disturbed when the steal time of the run's CPUs (/proc/stat, USER_HZ ticks) or a measuring thread was preempted during either run: its involuntary context switches (/proc/thread-self/status, read by the thread outside the timed interval) grew and it lost more than 0.5 % of the run's wall time (wall minus its CLOCK_THREAD_CPUTIME_ID time); it is measured again, at most min_pairs times a point (once past the smallest slow k, where a point cannot move k1: redo_far), then kept and counted",
		"pairs_counted", (json_int_t)t->pairs_total,
		"pairs_disturbed", (json_int_t)t->dist_pairs,
		"pairs_measured_again", (json_int_t)t->dist_redone,
		"pairs_kept_disturbed", (json_int_t)t->dist_kept,
		"steal_ticks", (json_int_t)t->steal_ticks,
		"involuntary_switches", (json_int_t)t->nivcsw,
		"steal_unreadable", err_json(t->steal_err),
		"switches_unreadable", err_json(t->cs_err),
		"freq_mhz_min", mess_json_real(t->mhz_min, 0),
		"freq_mhz_max", mess_json_real(t->mhz_max, 0),
		"freq_source", "cpufreq scaling_cur_freq of the run's first CPU after each run, mean per point; null: not readable here");
}

/* The host's state on core 0 (core/measure/hoststate.h): the pairs that straddled
 * a change, counted among the disturbed ones too. */
static json_t *host_state_json(const struct absorb_table *t)
{
	return mess_json_pack("{s:I, s:I, s:o, s:o, s:o, s:s}",
		"pairs_straddled", (json_int_t)t->state_pairs,
		"probes", (json_int_t)t->state_probes,
		"l2_ns_at_start", mess_json_real(t->state_l2_ref_ns, 3),
		"fixed_cost_ns_at_start", mess_json_real(t->state_cost_ns, 3),
		"not_probed", t->state_why[0] ? json_string(t->state_why) : json_null(),
		"rule", "before and after every pair, on core 0: the timed chase's fixed cost on an L1-resident chain and the latency of an L2-resident one (a quarter of the L2, at most 256 KiB); a pair whose two probes differ by more than 8 ns in cost or 2 ns in L2 latency straddled a change of the host's state, which steal and lost time cannot see, and is disturbed: measured again (disturbance.pairs_measured_again counts it) or kept and counted; pairs_straddled counts this session's");
}

static json_t *seq_json(const struct absorb_table *t)
{
	return mess_json_pack("{s:s, s:f, s:f, s:s, s:i, s:i, s:f, s:i, s:i, s:i, s:s, s:s, s:s}",
		"rule", "pairs (k = 0, then k) are added to a point until the 95 % interval of the median of their ratios, median +- t(n-1) x 1.2533 x max(1.4826 MAD, floor) / sqrt(n), decides it against the line 1 + thr / t0 and the indifference zone z = zone x thr / t0: slow when the median is above the line and the interval above line - z, fast when the median is not and the interval below line + z, else more pairs up to max_pairs (doubtful); per look, not corrected for the repeated looks. floor: the noise of one pair's ratio pooled over this session's points of the search (those with 6 pairs or more and a median within 10 % of 1, each pair as its deviation from its point's median x sqrt(n / (n - 1)); 1.4826 x their median absolute deviation) once 30 deviations are pooled, else the baseline's spread (5 pairs alone: from a sixth to more than twice the noise the search then showed)",
		"confidence", MESS_ABSORB_CONF,
		"zone", t->acfg.zone,
		"zone_rule", "a point whose slowdown lies within zone x thr of the threshold may be called either way (with 2 %: between 1 % and 3 % of t0), one outside it on the wrong side at most 2.5 % of the time per look; without a zone a point on the line is never decided (on a 2-core Xeon guest stream and haccmk sat at +1.8 to +2.2 % from k = 1 to 3 and the entry stayed wide)",
		"min_pairs", (int)t->acfg.min_pairs, "max_pairs", (int)t->acfg.max_pairs,
		"tol_rel", t->acfg.tol_rel,
		"ext_pairs", (int)t->acfg.ext_pairs,
		"ext_entry", (int)t->acfg.ext_entry,
		"redo_far", (int)t->acfg.redo_far,
		"further_rule", "once the bisection has no k left inside a wide bracket, a doubtful point inside it (past k1_lo when nothing is confidently slow) is taken further, its pairs kept, 5 pairs a step up to ext_pairs: of the points whose decision at the side of the threshold its median lies would make the status ok (else the first of two that would together, else one whose decision leaves the bisection a k to place inside the bracket), the one needing the fewest pairs by pairs x (interval half-width / (its median's distance to 1 + thr / t0, plus the zone))^2, none needing more than ext_pairs, estimated again after each step; at most ext_entry pairs past max_pairs a search. Still doubtful, it stays doubtful and the entry wide. Points past the smallest slow k cannot move k1: their disturbed pairs are measured again at most redo_far times",
		"rows_rule", "absorption_points.csv: each step of a point taken further appends a row holding all its pairs and counts so far; a later row for the same (row, mode, table, k) replaces the earlier one, in the tables, the totals and on --resume (a point of an earlier session taken further in this one is measured again from none: its pairs are not on disk)",
		"status", "k1_hi = smallest k confidently slow, k1_lo = largest k below it confidently not slow; none: k1_hi = 1; ok: k1 - k1_lo and (k1_hi - 1) - k1 within max(1, tol_rel x k1) (the true k1 lies in [k1_lo, k1_hi - 1]), or nothing slow and the largest k fast (k1 a lower bound); unclear: no k > 0 decided; wide: otherwise. Speed-ups count as absorbed (speedup_k, speedup_rel). The fit's shape (linear, sublinear, none) and R^2 are reported beside k1, never deciding it");
}

int absorb_write_meta(const struct absorb_table *t, struct mess_rundir *rd,
		      const struct mess_topo *topo, int complete)
{
	json_t *m = mess_rundir_meta(rd, topo, ABSORB_META_SCHEMA);
	json_t *modes = json_array();
	char rule[160], k1src[320];

	for (int i = 0; i < t->nmodes; i++)
		json_array_append_new(modes, json_string(mess_noise_mode_name(t->modes[i])));
	snprintf(rule, sizeof(rule), "a baseline (k = 0) point whose spread exceeds %g of its time is measured again, up to %d times; the least spread one is kept",
		 ABSORB_REMEASURE_REL, ABSORB_REMEASURE_MAX);
	snprintf(k1src, sizeof(k1src), "%s", t->census_note);
	if (!m || mess_json_merge(m, mess_json_pack(
		"{s:o, s:I, s:i, s:i, s:s, s:s, s:s, s:I, s:s, s:f, s:I, s:s, s:s,"
		" s:{s:s, s:f, s:f},"
		" s:{s:i, s:i, s:i, s:f, s:f, s:i, s:s},"
		" s:o, s:o, s:{s:s, s:s}, s:o, s:s, s:o, s:o,"
		" s:b, s:i, s:i, s:i, s:s, s:s}",
		"cores", cores_json(t),
		"llc_bytes", (json_int_t)t->llc_bytes, "llc_level", t->llc_level,
		"numa_nodes", t->numa_nodes,
		"huge_pages", "requested for every mess_buf (hugetlbfs, else THP); what each row obtained is in rows[]",
		"timer", "clock_gettime(CLOCK_MONOTONIC) around each run",
		"time", "ns per inner-loop iteration of the slowest thread; threads pinned, started together by a spinning barrier; a point is pairs of runs (k = 0, then k), as many as the sequential test needs (sequential_test), the baseline repeats pairs: t0 x median of the pairs' ratios (each pair's the median of its slices' sub-pair ratios), t0 the k = 0 point (paired with itself); spread: t0 x the spread of the ratios",
		"repeats", (json_int_t)t->o.repeats,
		"spread", "1.4826 x median absolute deviation (a standard deviation robust to one disturbed repeat)",
		"run_ms", t->o.run_ms,
		"slices", (json_int_t)t->o.slices,
		"interleave", "each run of a pair is cut into slices slices of equal work; the pair runs them as sub-pairs (k = 0 and k, the order of each sub-pair drawn by a fixed-seed coin), so host drift slower than a slice falls on both; a pair's ratio t(k) / t(0) is the median of its sub-pairs' ratios (a slice the host hit moves one of them, not the pair's), its times at k = 0 and at k the means over its slices, disturbed when their summed steal and lost time are (disturbance.rule)",
		"work", "iterations per run chosen at k = 0 of each row and mode so that a run takes run_ms (rows[].work_per_run), the same for every k except where the nearest point measured below k was already 2 x t0 or slower: there divided by that ratio, for both runs of each pair, so that a run at k stays near run_ms",
		"threshold",
		"rule", "slow when t(k) - t0 > max(threshold * t0, sigmas * spread0), decided with confidence (sequential_test); k1 = largest measured k with it and every smaller k not slow. sigmas 0 (the default): a fixed effect size, so that k1 does not move with the host's noise; the noise is the test's",
		"threshold", t->o.threshold, "sigmas", t->o.sigmas,
		"search",
		"kmax", (int)t->acfg.kmax, "K_MAX", MESS_NOISE_KMAX,
		"prec_div", (int)t->acfg.prec_div, "slope_tol", t->acfg.slope_tol,
		"r2_min", t->acfg.r2_min, "stop_slowdown", ABSORB_STOP_SLOWDOWN,
		"stop_rule", "no k past the largest measured once a point is stop_slowdown x t0 and three are 2 x t0 or more",
		"noise", noise_json(t), "modes", modes,
		"k1_rel", "rule", "k1 x sites / clean_body of loops[<kernel>_<mode>]",
		"source", k1src,
		"loops", loops_json(t),
		"perf", "clean kernel, best of repeats trials after a warm-up: stream GB/s with STREAM bytes (triad_gbs_write_allocate adds the write-allocate read), lat_mem_rd ns per load, haccmk GFLOP/s, spmxv GFLOP/s per core",
		"not_run", not_run_json(t), "rows", rows_json(t),
		"quick", t->o.quick, "points_measured", (int)t->points_measured,
		"points_reused", (int)t->points_reused,
		"points_remeasured_for_spread", (int)t->remeasured,
		"remeasure_rule", rule,
		"plots", t->plots_note[0] ? t->plots_note : "pending")) ||
	    mess_json_merge(m, mess_json_pack("{s:o, s:o, s:b, s:o, s:o, s:o, s:i, s:s, s:{s:s, s:s?, s:s}}",
		"environment", t->machine_ok ? mess_env_json(&t->machine) : json_null(),
		"quality", absorb_quality_json(t), "strict", t->o.strict,
		"sequential_test", seq_json(t),
		"disturbance", disturbance_json(t),
		"host_state", host_state_json(t),
		"tables", (int)t->o.tables,
		"tables_rule", "with tables > 1 each row is measured tables times one after the other (interleaved by row), sharing its work per run; absorption_tables.csv gives the spread of k1 per entry",
		"counters",
		"core_events", t->counters_why[0] ? "not counted" : "instructions and cycles on every pool thread, user time",
		"why_not", t->counters_why[0] ? t->counters_why : NULL,
		"points", "absorption_points.csv instr_per_iter and cycles_per_iter: per inner-loop iteration of one thread over the point's runs at k (read outside the timed interval; nan: not counted); against the clean loop, instr_per_iter(k) - instr_per_iter(0) is the noise executed, which checks the k the kernel was built to run"))) {
		json_decref(m);
		m = NULL;
	}
	return mess_rundir_write_meta(rd, m, complete);
}

int mess_absorb_finish(struct mess_absorb *a, int complete)
{
	int err;

	mess_rundir_stop_clock(&a->rd);
	absorb_judge(&a->t, complete);
	err = absorb_write_tables(&a->t, a->rd.dir, a->rd.start_utc, complete);
	/* First of the closing lines: whether to believe the table. */
	mess_verdict_print(stderr, "mess absorb", &a->t.verdict);
	if (a->t.o.no_plots)
		snprintf(a->t.plots_note, sizeof(a->t.plots_note), "skipped: --no-plots");
	else if (!err)
		absorb_plots(&a->t, a->rd.dir, complete);
	if (!err)
		err = absorb_write_meta(&a->t, &a->rd, &a->topo, complete);
	if (!err && a->t.ladder_done)
		err = mess_ladder_write(&a->t.ladder, a->rd.dir, a->t.cpu_model);
	return err;
}
