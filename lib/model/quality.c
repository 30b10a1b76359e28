// SPDX-License-Identifier: MIT
/* The consistency rules and verdicts (mess/quality.h). */
#include "mess/quality.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <string.h>

#include "mess/json.h"
#include "mess/stats.h"

const struct mess_qrule_def mess_qrules[MESS_QR_N] = {
	[MESS_QR_DISTURBED] = { "disturbed",
		"chase windows disturbed (time lost to steal or preemption, or a clock change) were kept at the bound on measuring again, as half or more of its repeats" },
	[MESS_QR_SPREAD] = { "spread",
		"its repeats still disagree by more than 10 % of their median with three times the repeats" },
	[MESS_QR_UNSTEADY] = { "unsteady",
		"the generators' bandwidth never settled before the chase" },
	[MESS_QR_NON_MONOTONE] = { "non_monotone",
		"more bandwidth than a point under more pressure, beyond both points' spread (below the curve's maximum bandwidth, where no wave can be)" },
	[MESS_QR_STALL] = { "stall",
		"a higher latency than a point under more pressure, beyond both points' spread" },
	[MESS_QR_BELOW_UNLOADED] = { "below_unloaded",
		"a latency below the unloaded chase's by more than both spreads" },
	[MESS_QR_DIST_DISAGREES] = { "dist_disagrees",
		"its latency distribution disagrees with its mean: a p99 below the mean, or the distribution window's mean more than 3 % from it" },
};

const char *mess_qflags_str(uint32_t flags, char *buf, size_t len)
{
	size_t at = 0;

	if (len)
		buf[0] = 0;
	for (int r = 0; r < MESS_QR_N && len; r++) {
		if (!(flags & MESS_QF(r)))
			continue;
		at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s",
				       at ? ";" : "", mess_qrules[r].name);
		if (at >= len)
			break;
	}
	return buf;
}

int mess_qflags_parse(const char *s, uint32_t *flags)
{
	*flags = 0;
	while (*s) {
		size_t n = strcspn(s, ";");
		int r;

		for (r = 0; r < MESS_QR_N; r++)
			if (strlen(mess_qrules[r].name) == n &&
			    !strncmp(mess_qrules[r].name, s, n))
				break;
		if (r == MESS_QR_N)
			return -EINVAL;
		*flags |= MESS_QF(r);
		s += n;
		if (*s == ';' && !*++s)
			return -EINVAL;	/* a trailing ';' names nothing */
	}
	return 0;
}

size_t mess_curve_flagged(const struct mess_curve *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		n += (c->pts[i].flags & ~MESS_QF_TAIL) != 0;
	return n;
}

int mess_point_dist_disagrees(const struct mess_point *p)
{
	/* NAN compares false both ways: a point without them agrees. */
	return p->lat_p99_ns < p->lat_ns ||
	       fabs(p->dist_mean_diff_pct) > MESS_Q_DIST_DIFF_PCT;
}

size_t mess_family_dist_flag(struct mess_family *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		for (size_t j = 0; j < f->curves[i].n; j++) {
			struct mess_point *p = &f->curves[i].pts[j];

			p->flags &= ~MESS_QF(MESS_QR_DIST_DISAGREES);
			if (mess_point_dist_disagrees(p)) {
				p->flags |= MESS_QF(MESS_QR_DIST_DISAGREES);
				n++;
			}
		}
	return n;
}

/* A standard deviation that was not measured counts as none: the floor
 * alone then decides (a 1-repeat point). */
static double sd0(double sd)
{
	return isfinite(sd) && sd > 0 ? sd : 0;
}

double mess_qcomb(double a, double b)
{
	return sqrt(sd0(a) * sd0(a) + sd0(b) * sd0(b));
}

/* ---- verdicts ---- */

static const char *const level_names[] = { "PASS", "WARN", "INVALID" };
static const char *const level_status[] = { "ok", "warn", "invalid" };

const char *mess_level_name(enum mess_level l)
{
	return l <= MESS_INVALID ? level_names[l] : "?";
}

const char *mess_level_status(enum mess_level l)
{
	return l <= MESS_INVALID ? level_status[l] : "?";
}

int mess_level_parse(const char *s, enum mess_level *l)
{
	for (int i = 0; i <= MESS_INVALID; i++)
		if (s && !strcmp(s, level_names[i])) {
			*l = (enum mess_level)i;
			return 0;
		}
	return -EINVAL;
}

void mess_verdict_init(struct mess_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->level = MESS_PASS;
}

void mess_verdict_add(struct mess_verdict *v, enum mess_level level,
		      const char *rule, const char *fmt, ...)
{
	struct mess_reason *r;
	va_list ap;
	int n;

	if (level > v->level)
		v->level = level;
	if (v->n == MESS_VERDICT_MAX) {
		v->dropped++;
		return;
	}
	r = &v->r[v->n++];
	r->level = level;
	snprintf(r->rule, sizeof(r->rule), "%s", rule);
	va_start(ap, fmt);
	n = vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
	/* Too long: cut at the last word that fits whole, and say so; a
	 * word cut in two ("measure again on a qui") reads as a typo and
	 * hides what it was. */
	if (n >= (int)sizeof(r->text)) {
		size_t end = sizeof(r->text) - sizeof(" ...");

		while (end && r->text[end] != ' ')
			end--;
		while (end && strchr(",;: ", r->text[end - 1]))
			end--;
		memcpy(r->text + end, " ...", sizeof(" ..."));
	}
}

/* A reason's level as written: one at PASS changes nothing, a note. */
static const char *reason_level(enum mess_level l)
{
	return l == MESS_PASS ? "note" : mess_level_name(l);
}

/* Reasons worst first, in the order they were added within a level. */
static size_t ordered(const struct mess_verdict *v, size_t *idx)
{
	size_t m = 0;

	for (int l = MESS_INVALID; l >= MESS_PASS; l--)
		for (size_t i = 0; i < v->n; i++)
			if ((int)v->r[i].level == l)
				idx[m++] = i;
	return m;
}

json_t *mess_verdict_json(const struct mess_verdict *v)
{
	json_t *a = json_array();
	size_t idx[MESS_VERDICT_MAX], m = ordered(v, idx);

	for (size_t k = 0; k < m; k++) {
		const struct mess_reason *r = &v->r[idx[k]];

		json_array_append_new(a, mess_json_pack("{s:s, s:s, s:s}",
			"level", reason_level(r->level), "rule", r->rule,
			"text", r->text));
	}
	char next[MESS_REASON_LEN];

	return mess_json_pack("{s:s, s:o, s:I, s:s}", "verdict",
			      mess_level_name(v->level), "reasons", a,
			      "reasons_dropped", (json_int_t)v->dropped,
			      "next_step", mess_verdict_next(v, next, sizeof(next)));
}

void mess_verdict_md(FILE *f, const struct mess_verdict *v)
{
	size_t idx[MESS_VERDICT_MAX], m = ordered(v, idx);
	char next[MESS_REASON_LEN];

	fprintf(f, "## Verdict: %s\n\n", mess_level_name(v->level));
	if (v->level == MESS_PASS)
		fprintf(f, "Every rule held: no figure rests on a disturbed measurement, and every curve is consistent (meta.json `quality`).\n%s",
			v->n ? "\n" : "");
	for (size_t k = 0; k < m; k++)
		fprintf(f, "- **%s** (`%s`): %s\n", reason_level(v->r[idx[k]].level),
			v->r[idx[k]].rule, v->r[idx[k]].text);
	if (v->dropped)
		fprintf(f, "- and %zu more reasons (see meta.json `quality`)\n",
			v->dropped);
	fprintf(f, "\n**Next step:** %s.\n\n", mess_verdict_next(v, next, sizeof(next)));
}

void mess_verdict_warn(FILE *f, const char *prefix, const struct mess_verdict *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->r[i].level > MESS_PASS)
			fprintf(f, "%swarning: %s\n", prefix, v->r[i].text);
}

void mess_verdict_print(FILE *f, const char *prog, const struct mess_verdict *v)
{
	size_t idx[MESS_VERDICT_MAX], m = ordered(v, idx), shown = 0;
	char next[MESS_REASON_LEN];

	fprintf(f, "%s: verdict %s%s\n", prog, mess_level_name(v->level),
		v->level == MESS_PASS ? ": every rule held" : "");
	for (size_t k = 0; k < m; k++) {
		if (v->r[idx[k]].level == MESS_PASS)
			continue;
		fprintf(f, "%s:   %s: %s\n", prog, mess_level_name(v->r[idx[k]].level),
			v->r[idx[k]].text);
		shown++;
	}
	if (v->dropped)
		fprintf(f, "%s:   and %zu more (meta.json quality)\n", prog,
			v->dropped);
	fprintf(f, "%s: next step: %s\n", prog, mess_verdict_next(v, next, sizeof(next)));
}

/* ---- the curves' run ---- */

static int window_slower(const struct mess_quality_in *in)
{
	return isfinite(in->random_ns) && in->unloaded_ns > 0 &&
	       in->unloaded_ns - in->random_ns >
		       MESS_Q_WINDOW_SLOWER * in->random_ns +
			       2 * mess_qcomb(in->unloaded_sd_ns, in->random_sd_ns);
}

int mess_quality_unloaded_ok(const struct mess_quality_in *in)
{
	return !(in->unloaded_sd_ns > MESS_Q_UNLOADED_CV_WARN * in->unloaded_ns) &&
	       !window_slower(in);
}

/* A list of store shares, "0, 10, 30", into l (at its length *at); one
 * too long for it ends in "..." (the reason has a length too). */
static void pct_list(char *l, size_t len, size_t *at, unsigned pct)
{
	if (*at + 10 < len)
		*at += (size_t)snprintf(l + *at, len - *at, "%s%u", *at ? ", " : "", pct);
	else if (*at < len)
		*at += (size_t)snprintf(l + *at, len - *at, ", ...") + len;
}

/*
 * Each mix's status, and one reason for the mixes with flagged points,
 * not one per mix: eleven near-identical lines hid the rest of the
 * verdict.  Each mix's counts are meta.json quality.mixes' and
 * summary.md's table.
 */
static void flagged_mixes(const struct mess_family *f, struct mess_verdict *v,
			  enum mess_level *mix)
{
	size_t nmix = 0, ninv = 0, nflag = 0, npts = 0, at_inv = 0, at_warn = 0;
	enum mess_level worst = MESS_PASS;
	char names[160], inv[72] = "", warn[72] = "";
	uint32_t any = 0;

	for (size_t i = 0; i < f->n; i++) {
		const struct mess_curve *c = &f->curves[i];
		size_t nf = mess_curve_flagged(c), nu = mess_curve_usable(c);

		for (size_t j = 0; j < c->n; j++)
			any |= c->pts[j].flags & ~MESS_QF_TAIL;
		mix[i] = !nf ? MESS_PASS :
			 (double)nf > MESS_Q_MIX_FLAGGED_INVALID * (double)nu ?
			 MESS_INVALID : MESS_WARN;
		if (!nu) {
			mix[i] = MESS_INVALID;
			mess_verdict_add(v, MESS_INVALID, "mix_empty",
					 "mix %u %% stores: no point was measured",
					 c->store_pct);
			continue;
		}
		npts += nu;
		if (!nf)
			continue;
		nmix++;
		nflag += nf;
		if (mix[i] > worst)
			worst = mix[i];
		if (mix[i] == MESS_INVALID) {
			ninv++;
			pct_list(inv, sizeof(inv), &at_inv, c->store_pct);
		} else {
			pct_list(warn, sizeof(warn), &at_warn, c->store_pct);
		}
	}
	if (!nmix)
		return;
	mess_verdict_add(v, worst, "mix_flagged",
			 "points flagged after measuring them again (%s): %zu mix%s, %zu of %zu points; %s%s%s%s%s%s%s (each mix: meta.json quality.mixes)",
			 mess_qflags_str(any, names, sizeof(names)), nmix,
			 nmix == 1 ? "" : "es", nflag, npts,
			 ninv ? "invalid, more than a third of the mix: " : "",
			 ninv ? inv : "", ninv ? " % stores" : "",
			 ninv && nmix > ninv ? "; " : "",
			 nmix > ninv ? "a warning, a third or fewer: " : "",
			 nmix > ninv ? warn : "", nmix > ninv ? " % stores" : "");
}

void mess_quality_family(const struct mess_family *f,
			 const struct mess_quality_in *in,
			 struct mess_verdict *v, enum mess_level *mix)
{
	double cv = in->unloaded_sd_ns / in->unloaded_ns;

	if (in->unloaded_ns > 0 && isfinite(cv)) {
		if (cv > MESS_Q_UNLOADED_CV_INVALID)
			mess_verdict_add(v, MESS_INVALID, "unloaded_spread",
					 "the unloaded latency %.1f ns varies by %.1f ns (%.1f %%) over its repeats: every curve is read against it",
					 in->unloaded_ns, in->unloaded_sd_ns, 100 * cv);
		else if (cv > MESS_Q_UNLOADED_CV_WARN)
			mess_verdict_add(v, MESS_WARN, "unloaded_spread",
					 "the unloaded latency %.1f ns varies by %.1f ns (%.1f %%) over its repeats (above %.0f %%)",
					 in->unloaded_ns, in->unloaded_sd_ns, 100 * cv,
					 100 * MESS_Q_UNLOADED_CV_WARN);
	}
	if (window_slower(in))
		mess_verdict_add(v, MESS_INVALID, "window_slower",
				 "the TLB-window chase (%.1f ns) was slower than the fully random one (%.1f ns), which also pays page walks: the machine was disturbed while they were measured",
				 in->unloaded_ns, in->random_ns);
	if (isfinite(in->unloaded_end_ns) && in->unloaded_ns > 0 &&
	    fabs(in->unloaded_end_ns - in->unloaded_ns) >
		    MESS_Q_DRIFT_WARN * in->unloaded_ns +
			    2 * mess_qcomb(in->unloaded_sd_ns, in->unloaded_end_sd_ns))
		mess_verdict_add(v, MESS_WARN, "drift",
				 "the unloaded latency was %.1f ns at the start and %.1f ns at the end (%+.1f %%): the machine changed while the curves were measured",
				 in->unloaded_ns, in->unloaded_end_ns,
				 100 * (in->unloaded_end_ns / in->unloaded_ns - 1));
	if (isfinite(in->clock_spread_pct) &&
	    in->clock_spread_pct > MESS_Q_CLOCK_SPREAD_WARN)
		mess_verdict_add(v, MESS_WARN, "clock_unstable",
				 "the chase core's clock varied by %.1f %% while it was measured (above %.0f %%): cycle figures (PROFET's export) are doubtful",
				 in->clock_spread_pct, MESS_Q_CLOCK_SPREAD_WARN);

	flagged_mixes(f, v, mix);
}

/* ---- against the host's earlier runs ---- */

size_t mess_quality_history(double max_bw, double unloaded, const double *bw,
			    const double *unl, size_t n, struct mess_verdict *v,
			    double *bw_med, double *unl_med)
{
	size_t nb, nu;
	double b = mess_median_finite(bw, n, &nb), u = mess_median_finite(unl, n, &nu);
	double db, du;

	*bw_med = *unl_med = NAN;
	if (nb < MESS_Q_HISTORY_MIN || nu < MESS_Q_HISTORY_MIN ||
	    !(max_bw > 0) || !(unloaded > 0))
		return 0;
	*bw_med = b;
	*unl_med = u;
	db = max_bw / b - 1;
	du = unloaded / u - 1;
	if (fabs(db) > MESS_Q_HISTORY_BW || fabs(du) > MESS_Q_HISTORY_UNLOADED)
		mess_verdict_add(v, MESS_WARN, "history",
				 "unlike this host's %zu earlier PASS runs of the same kind: maximum bandwidth %.1f GB/s against their median %.1f (%+.0f %%), unloaded latency %.1f ns against %.1f (%+.1f %%); the run is consistent in itself, but the machine is not in its usual state (or was not then)",
				 nb < nu ? nb : nu, max_bw, b, 100 * db, unloaded, u, 100 * du);
	else
		mess_verdict_add(v, MESS_PASS, "history",
				 "like this host's %zu earlier PASS runs of the same kind: maximum bandwidth %+.0f %% and unloaded latency %+.1f %% from their medians",
				 nb < nu ? nb : nu, 100 * db, 100 * du);
	return nb < nu ? nb : nu;
}
