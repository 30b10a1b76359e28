// SPDX-License-Identifier: MIT
/*
 * The verdict of mess matrix, c2c and interfere (judge.h): the look at
 * the machine the curves and the ladder take, and a table of shares for
 * the command's own evidence, so that each command keeps its thresholds
 * in one table and all of them write the verdict the same way.
 */
#include "core/machine/judge.h"

#include <errno.h>
#include <string.h>

#include "mess/json.h"

void mess_judge_count(const struct mess_judge_rule *r, unsigned n,
		      unsigned all, struct mess_verdict *v)
{
	double share = all ? (double)n / all : 0;
	enum mess_level l = share > r->invalid ? MESS_INVALID :
			    share >= r->warn ? MESS_WARN : MESS_PASS;

	char warn[32] = "WARN from any", bound[40] = ", never INVALID";

	if (!n)
		return;
	if (r->warn > 0)
		snprintf(warn, sizeof(warn), "WARN from %.0f %%", 100 * r->warn);
	if (r->invalid < 1)
		snprintf(bound, sizeof(bound), ", INVALID above %.0f %%", 100 * r->invalid);
	mess_verdict_add(v, l, r->rule, "%u of %u %s (%.0f %%; %s%s): %s",
			 n, all, r->what, 100 * share, warn, bound, r->means);
}

json_t *mess_judge_rules_json(const struct mess_judge_rule *r, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, mess_json_pack("{s:s, s:f, s:o, s:s}",
			"rule", r[i].rule, "warn_share", r[i].warn,
			"invalid_share", r[i].invalid < 1 ? json_real(r[i].invalid) : json_null(),
			"what", r[i].what));
	return a;
}

int mess_judge_look(struct mess_judge *j, struct mess_topo *t, const int *cores,
		    int n, int node, const char *prog)
{
	struct mess_verdict v;
	char pre[64];
	int rc = mess_env_probe(&j->env, t, cores, n, node, 250);

	j->looked = !rc;
	if (rc) {
		fprintf(stderr, "%s: cannot look at the machine: %s\n", prog, strerror(-rc));
		return rc;
	}
	mess_verdict_init(&v);
	mess_env_verdict(&j->env, &v);
	snprintf(pre, sizeof(pre), "%s: ", prog);
	mess_verdict_warn(stderr, pre, &v);
	return 0;
}

void mess_judge_begin(struct mess_judge *j, int complete, const char *what)
{
	mess_verdict_init(&j->v);
	if (j->looked)
		mess_env_verdict(&j->env, &j->v);
	else
		mess_verdict_add(&j->v, MESS_WARN, "host_state",
				 "the machine could not be looked at before the start: competition and steal are unknown");
	if (!complete)
		mess_verdict_add(&j->v, MESS_WARN, "partial_rerun",
				 "the run was cut short: only the %s written were measured (it is measured again, not resumed)",
				 what);
	j->judged = 1;
}

json_t *mess_judge_quality(const struct mess_judge *j, json_t *rules, int strict)
{
	json_t *q;

	if (!j->judged) {
		json_decref(rules);
		return mess_json_pack("{s:s}", "verdict", "pending");
	}
	q = mess_verdict_json(&j->v);
	if (q && mess_json_merge(q, mess_json_pack("{s:o, s:b}", "rules",
				 rules ? rules : json_array(), "strict", strict))) {
		json_decref(q);
		return NULL;
	}
	return q;
}

json_t *mess_judge_env_json(const struct mess_judge *j)
{
	return j->looked ? mess_env_json(&j->env) : json_null();
}

void mess_judge_md(FILE *f, const struct mess_judge *j)
{
	if (j->judged)
		mess_verdict_md(f, &j->v);
	else
		fprintf(f, "## Verdict: pending\n\nThe run is being measured; its verdict is written when it ends.\n\n");
	if (j->looked)
		mess_env_md(f, &j->env);
}

const char *mess_judge_prefix(const struct mess_judge *j, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", j->judged ? mess_level_name(j->v.level) : "",
		 j->judged ? ": " : "");
	return buf;
}

int mess_judge_end(const struct mess_judge *j, const char *prog, const char *dir,
		   int strict, int rc)
{
	if (!j->judged)
		return rc;
	mess_verdict_print(stderr, prog, &j->v);
	if (!rc && strict && j->v.level == MESS_INVALID) {
		fprintf(stderr, "%s: --strict: the verdict is INVALID (the results are kept in %s)\n",
			prog, dir);
		return -EIO;
	}
	return rc;
}

void mess_judge_fini(struct mess_judge *j)
{
	mess_env_free(&j->env);
}
