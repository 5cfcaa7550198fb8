/*
 * capacity_nodes.c — `kplan capacity --nodes-needed --node-template FILE...`:
 * how many nodes like the template must be added so that every pending pod
 * that can fit on one does (docs/capacity-planning.md).
 *
 * Per template: plans with K template nodes added (what-if add-nodes FILE:K).
 * K = 0 is the baseline; K = 1 checks the template, gives its shape and the
 * pods that can never fit on it (kp_plan_pod.fits_empty_added == 0: not even
 * an empty node like it passes their static filters or has room for their
 * requests) — those are listed and left out, and the answer is the count for
 * every other pod: the smallest K whose plan leaves none of them without a
 * node.  The lower bound (queries/capacity/lower_bound.sql, without the
 * never-fit pods), then the search: exponential, then binary, K - 1 checked.
 * The template option may be repeated: an answer per template, and the
 * smallest is the answer.
 */
#include "capacity_int.h"

#include <string.h>
#include <stdio.h>

typedef struct search_ctx {
	cap *c;
	const char *tmpl;
	outcome last;                 /* of the latest evaluation */
	long ks[64], us[64];          /* evaluated: nodes added, pods left out that could fit */
	int nk;
	long last_k;                  /* nodes added in the latest evaluation */
	qual best;                    /* the certificate of the fewest nodes added that fit every pod */
	long best_k;                  /* -1: none yet */
	int frozen;                   /* the answer is known: keep best */
	cap_pod *nevers;              /* the never-fit pods left out, of the plan giving the answer (first 50) */
	int nnevers;
	long never;
	int64_t tmpl_gpu;             /* the template's GPUs as devices, milli (0 none) */
} search_ctx;

/* one template's answer */
typedef struct tmpl_answer {
	const char *status;           /* found | not-found */
	long nodes;                   /* -1: none */
	int64_t lb;
	long never;
	kp_sb json;
	qual q;
	char q_of[1200];
	char *reason;
} tmpl_answer;

static int cached(const search_ctx *sc, long k, long *u)
{
	for (int i = 0; i < sc->nk; i++)
		if (sc->ks[i] == k) {
			*u = sc->us[i];
			return 1;
		}
	return 0;
}

static void note(search_ctx *sc, long k, long others)
{
	if (sc->nk < 64) {
		sc->ks[sc->nk] = k;
		sc->us[sc->nk++] = others;
	}
}

/* plan with k template nodes added; *others: imported pods left without a
 * node that an empty template node would take */
static int eval_k(search_ctx *sc, long k, long *others)
{
	cap *c = sc->c;
	char opt[2200];
	const char *wo[2] = { "add-nodes", opt };
	snprintf(opt, sizeof opt, "%s:%ld", sc->tmpl, k);
	cap_outcome_release(&sc->last);
	int rc = cap_plan_once(c, wo, 1, &sc->last);
	if (rc) {
		/* name the template as the user gave it, not the scenario's option */
		char pre[2300];
		snprintf(pre, sizeof pre, "--add-nodes '%s': ", opt);
		if (!strncmp(c->err->msg, pre, strlen(pre))) {
			char rest[sizeof c->err->msg];
			snprintf(rest, sizeof rest, "%s", c->err->msg + strlen(pre));
			int code = c->err->code;
			c->err->code = KP_OK;
			kp_err_set(c->err, code, "--node-template '%s': %s", sc->tmpl, rest);
		}
		return rc;
	}
	*others = sc->last.unsched - sc->last.never;
	sc->last_k = k;
	if (!sc->frozen && *others == 0 && (sc->best_k < 0 || k < sc->best_k)) {
		cap_qual_take(&sc->best, &sc->last.q);
		sc->best_k = k;
		cap_pods_release(sc->nevers, sc->nnevers);
		sc->nevers = sc->last.nevers;
		sc->nnevers = sc->last.nnevers;
		sc->never = sc->last.never;
		sc->last.nevers = NULL;
		sc->last.nnevers = 0;
	}
	note(sc, k, *others);
	return cap_add_row(c, T_SEARCH, NULL, NULL, ++c->step, k, *others, *others == 0, 0, 0);
}

/* plan with k, 2k, 4k, ... nodes added (at most cap, planned last) while
 * below stop: the first count that fits every pod sets *hi, each that does
 * not *lo */
static int double_until_fit(search_ctx *sc, long k, long cap, long stop, long *lo, long *hi)
{
	for (; k < stop; k = k > cap / 2 ? cap : k * 2) {
		long u;
		int rc = eval_k(sc, k, &u);
		if (rc)
			return rc;
		if (u == 0) {
			*hi = k;
			return KP_OK;
		}
		*lo = k;
		if (k == cap)
			break;
	}
	return KP_OK;
}

/* temp.kp_cap_never := ids (the lower bound leaves those pods out) */
static int set_never(cap *c, const int64_t *ids, long n)
{
	if (sqlite3_exec(c->db, kp_sql_capacity_never_reset, NULL, NULL, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "%s", sqlite3_errmsg(c->db));
	sqlite3_stmt *s = cap_prepare(c, kp_sql_capacity_never_add);
	if (!s)
		return c->err->code;
	int rc = KP_OK;
	for (long i = 0; i < n && !rc; i++) {
		sqlite3_bind_int64(s, 1, ids[i]);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = cap_step_fail(c, s);
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return rc;
}

/* the template's GPUs as devices, milli (KP_PLAN_GPU_RES); 0 none */
static int64_t tmpl_gpu_milli(const outcome *tmpl)
{
	for (int i = 0; i < tmpl->ntmpl; i++)
		if (!strcmp(tmpl->tmpl[i].name, KP_PLAN_GPU_RES))
			return tmpl->tmpl[i].alloc;
	return 0;
}

/* the lower bound's GPU term (GPUs as devices, gpu_frag.h): the GPU milli the
 * pending pods ask against the milli free before the run, per node what the
 * template's GPUs hold; in GPUs */
static int gpu_bound(cap *c, const outcome *tmpl, int64_t *bound, char *by, size_t nby, kp_sb *detail, int n)
{
	int64_t need = tmpl->gpu_need, free = c->base_r.gpu_free_before, per = tmpl_gpu_milli(tmpl);
	if (free < 0 || need <= 0)
		return KP_OK;
	int64_t k = need <= free ? 0 : per > 0 ? (need - free + per - 1) / per : -1;
	kp_sb_printf(detail, "%sGPUs (devices): pending %.1f, free %.1f, per node %.1f -> ", n ? "; " : "",
		     (double)need / 1000, (double)free / 1000, (double)per / 1000);
	if (k < 0)
		kp_sb_adds(detail, "the template has none");
	else
		kp_sb_printf(detail, "%lld", (long long)k);
	if (k > *bound) {
		*bound = k;
		snprintf(by, nby, "%s", "GPUs (devices)");
	}
	return KP_OK;
}

/* per resource: ceil((pending requests - free capacity) / template allocatable), the max, >= 0 */
static int lower_bound(cap *c, const outcome *tmpl, int64_t *bound, char *by, size_t nby, kp_sb *detail)
{
	*bound = 0;
	snprintf(by, nby, "%s", "");
	sqlite3_stmt *s = cap_prepare(c, kp_sql_capacity_lower_bound);
	if (!s)
		return c->err->code;
	int n = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *res = (const char *)sqlite3_column_text(s, 0);
		int64_t need = sqlite3_column_int64(s, 1), free = sqlite3_column_int64(s, 2), per = 0;
		for (int i = 0; i < tmpl->ntmpl; i++)
			if (!strcmp(tmpl->tmpl[i].name, res))
				per = tmpl->tmpl[i].alloc;
		char a1[64], a2[64], a3[64];
		kp_capacity_fmt_amount(res, need, a1, sizeof a1);
		kp_capacity_fmt_amount(res, free, a2, sizeof a2);
		kp_capacity_fmt_amount(res, per, a3, sizeof a3);
		int64_t k = need <= free ? 0 : per > 0 ? (need - free + per - 1) / per : -1;
		kp_sb_printf(detail, "%s%s: pending %s, free %s, per node %s -> %s", n++ ? "; " : "", res, a1, a2, a3,
			     k < 0 ? "the template has none" : "");
		if (k >= 0)
			kp_sb_printf(detail, "%lld", (long long)k);
		if (k > *bound) {
			*bound = k;
			snprintf(by, nby, "%s", res);
		}
	}
	sqlite3_finalize(s);
	return gpu_bound(c, tmpl, bound, by, nby, detail, n);
}

/* how many of the sorted ids a are not in b (b sorted in place) */
static long not_in(const int64_t *a, long na, int64_t *b, long nb)
{
	kp_sort(b, (size_t)nb, sizeof *b, kp_cmp_i64, NULL);
	long n = 0;
	for (long i = 0, k = 0; i < na; i++) {
		while (k < nb && b[k] < a[i])
			k++;
		n += !(k < nb && b[k] == a[i]);
	}
	return n;
}

/* the reason of an answer that leaves never-fit pods out: the first of them */
static void never_reason(search_ctx *sc, tmpl_answer *ta)
{
	long nv = sc->never;
	if (!nv)
		return;
	kp_sb sb;
	kp_sb_init(&sb);
	kp_sb_printf(&sb, "%ld pending pod%s never fit on nodes like this: %s/%s: %s", nv, nv == 1 ? "" : "s",
		     sc->nnevers ? sc->nevers[0].ns : "", sc->nnevers ? sc->nevers[0].name : "",
		     sc->nnevers ? sc->nevers[0].msg : "");
	ta->reason = kp_sb_ok(&sb) ? kp_strdup(kp_sb_str(&sb)) : NULL;
	kp_sb_release(&sb);
}

/* the search once more than 0 nodes are needed: *found (-1 not found within
 * max_nodes), *below and *below_u (K - 1, checked) */
static int search(search_ctx *sc, long others0, long u1, int64_t lb, long max_nodes, long *found, long *below,
		  long *below_u)
{
	/* one added node per pod left out (at least the bound) */
	long kcheck = others0 > lb ? others0 : (long)lb, uc;
	if (kcheck > max_nodes)
		kcheck = max_nodes;
	if (u1 == 0)
		kcheck = 1;
	int rc = KP_OK;
	if (!cached(sc, kcheck, &uc) && (rc = eval_k(sc, kcheck, &uc)))
		return rc;
	/* lo: does not fit; hi: fits (-1: not found yet) */
	long lo, hi = -1;
	if (uc > 0) {
		/* the added nodes also took pods that fit elsewhere before, so
		 * more may help: double until all fit */
		lo = kcheck;
		if (kcheck < max_nodes)
			rc = double_until_fit(sc, kcheck > max_nodes / 2 ? max_nodes : kcheck * 2, max_nodes, max_nodes + 1,
					      &lo, &hi);
	} else {
		/* by the plan 1 does not fit, by the bound lb - 1 does not */
		hi = kcheck;
		lo = lb - 1 > 1 ? (long)lb - 1 : 1;
		if (lo >= hi)
			lo = hi - 1;
		rc = double_until_fit(sc, lb > 2 ? (long)lb : 2, hi, hi, &lo, &hi);
	}
	*found = -1;
	if (rc || hi < 0)
		return rc;
	while (hi - lo > 1) {
		long mid = lo + (hi - lo) / 2, um;
		if ((rc = eval_k(sc, mid, &um)))
			return rc;
		if (um == 0)
			hi = mid;
		else
			lo = mid;
	}
	*found = hi;
	sc->frozen = 1;
	/* K - 1 with the planner too (the search assumes more nodes never hurt) */
	*below = hi - 1;
	if (*below == 0) {
		*below_u = others0;
		return KP_OK;
	}
	if (!cached(sc, *below, below_u))
		rc = eval_k(sc, *below, below_u);
	return rc;
}

/* one template's answer, in its JSON */
static void tmpl_summary(search_ctx *sc, tmpl_answer *ta, long others0, const char *by, const kp_sb *detail,
			 long found, long below, long below_u, long max_nodes)
{
	cap *c = sc->c;
	kp_sb *j = &ta->json;
	const char *tmpl = sc->tmpl;
	long nv = sc->never;
	kp_sb_adds(j, "{\"kind\":\"nodes-needed\",\"template\":");
	kp_sb_add_json_str(j, tmpl);
	kp_sb_printf(j, ",\"pending_unschedulable\":%ld,\"unschedulable_fitting\":%ld,\"lower_bound\":%lld,\"lower_bound_by\":",
		     c->base_r.unschedulable, others0, (long long)ta->lb);
	kp_sb_add_json_str(j, *by ? by : NULL);
	kp_sb_adds(j, ",\"lower_bound_detail\":");
	kp_sb_add_json_str(j, kp_sb_str(detail));
	if (sc->tmpl_gpu > 0)
		kp_sb_printf(j, ",\"template_gpus\":%g", (double)sc->tmpl_gpu / 1000);
	if (found == 0) {
		kp_sb_printf(j, ",\"status\":\"found\",\"nodes\":0");
	} else if (found > 0) {
		kp_sb_printf(j, ",\"status\":\"found\",\"nodes\":%ld,\"checked_below\":%ld,\"unschedulable_below\":%ld", found,
			     below, below_u);
	} else {
		char why[2600];
		snprintf(why, sizeof why, "not found: with %ld nodes like %s (--max-nodes) pods are still unschedulable; lower "
			 "bound %lld\n", max_nodes, tmpl, (long long)ta->lb);
		ta->reason = kp_strdup(why);
		/* the pods left out pass the static filters on an empty node like
		 * the template and have room there: the pods queued before them
		 * took the room, or filters that depend on other pods keep them off */
		const outcome *l = &sc->last;
		long left = l->unsched - l->never;
		kp_sb_printf(j, ",\"status\":\"not-found\",\"nodes\":null,\"max_nodes\":%ld,\"left_out_with\":%ld,"
			     "\"left_out_count\":%ld,\"left_out\":", max_nodes, sc->last_k, left);
		kp_sb_adds(j, "[");
		for (int i = 0, k = 0; i < l->nunfits && k < 5; i++)
			if (!l->unfits[i].never) {
				kp_sb_adds(j, k++ ? "," : "");
				cap_pod_json(j, &l->unfits[i]);
			}
		kp_sb_adds(j, "]");
	}
	if (found >= 0 && !ta->reason)
		never_reason(sc, ta);
	kp_sb_printf(j, ",\"never_fit_count\":%ld,\"never_fit\":", found >= 0 ? nv : 0L);
	cap_pods_json(j, sc->nevers, found >= 0 ? sc->nnevers : 0);
	kp_sb_adds(j, "}");
	if (found >= 0)
		for (int i = 0; i < sc->nnevers; i++)
			if (cap_add_pod_row(c, T_UNFIT, NULL, NULL, &sc->nevers[i]))
				break;
}

/* one template: its answer in *ta (base: the baseline, with its ids sorted) */
static int one_template(cap *c, const outcome *base, const char *tmpl, long max_nodes, tmpl_answer *ta)
{
	search_ctx sc;
	memset(&sc, 0, sizeof sc);
	sc.c = c;
	sc.tmpl = tmpl;
	sc.best_k = -1;
	ta->nodes = -1;
	long u1, others0 = 0, found = -1, below = -1, below_u = -1;
	int step0 = ++c->step;
	kp_sb detail;
	kp_sb_init(&detail);
	char by[64] = "";
	int rc = eval_k(&sc, 1, &u1);
	outcome one = sc.last;
	memset(&sc.last, 0, sizeof sc.last);
	if (!rc)
		rc = set_never(c, one.never_ids, one.nnever_ids);
	if (!rc) {
		others0 = not_in(base->unsched_ids, base->nunsched_ids, one.never_ids, one.nnever_ids);
		note(&sc, 0, others0);
		rc = cap_add_row(c, T_SEARCH, NULL, NULL, step0, 0, others0, others0 == 0, 0, 0);
	}
	sc.tmpl_gpu = tmpl_gpu_milli(&one);
	if (!rc)
		rc = lower_bound(c, &one, &ta->lb, by, sizeof by, &detail);
	if (!rc && others0 == 0) {
		found = 0;
		/* the never-fit pods: of the plan with one node added (eval_k
		 * took them when every other pod fits with it) */
		if (sc.best_k < 0) {
			sc.nevers = one.nevers;
			sc.nnevers = one.nnevers;
			sc.never = one.never;
			one.nevers = NULL;
			one.nnevers = 0;
		}
	} else if (!rc) {
		rc = search(&sc, others0, u1, ta->lb, max_nodes, &found, &below, &below_u);
	}
	if (!rc) {
		ta->nodes = found;
		ta->never = sc.never;
		ta->status = found >= 0 ? "found" : "not-found";
		tmpl_summary(&sc, ta, others0, by, &detail, found, below, below_u, max_nodes);
		if (found > 0 && sc.best_k == found) {
			cap_qual_take(&ta->q, &sc.best);
			snprintf(ta->q_of, sizeof ta->q_of, "the plan with %ld node%s like %s added", found,
				 found == 1 ? "" : "s", tmpl);
		}
		if (!kp_sb_ok(&ta->json))
			rc = cap_nomem(c);
	}
	kp_sb_release(&detail);
	cap_outcome_release(&one);
	cap_outcome_release(&sc.last);
	cap_qual_release(&sc.best);
	cap_pods_release(sc.nevers, sc.nnevers);
	return rc;
}

/* the answer of several templates: the smallest, and each (JSON templates) */
static void several(cap *c, tmpl_answer *ta, int n, int best)
{
	kp_capacity_answer *a = c->a;
	kp_sb *j = &a->result;
	kp_sb_adds(j, "{\"kind\":\"nodes-needed\",\"status\":");
	kp_sb_add_json_str(j, best >= 0 ? "found" : "not-found");
	kp_sb_adds(j, ",\"template\":");
	kp_sb_add_json_str(j, best >= 0 ? c->o->templates[best] : NULL);
	if (best >= 0)
		kp_sb_printf(j, ",\"nodes\":%ld", ta[best].nodes);
	else
		kp_sb_adds(j, ",\"nodes\":null");
	kp_sb_adds(j, ",\"templates\":[");
	for (int i = 0; i < n; i++) {
		kp_sb_adds(j, i ? "," : "");
		kp_sb_adds(j, kp_sb_str(&ta[i].json));
	}
	kp_sb_adds(j, "]}");
}

int cap_nodes_needed(cap *c)
{
	const kp_capacity_opts *o = c->o;
	kp_capacity_answer *a = c->a;
	int n = o->ntemplates, best = -1, rc;
	long max_nodes = o->max_nodes > 0 ? o->max_nodes : 1000;
	tmpl_answer ta[KP_CAPACITY_MAX_TEMPLATES];
	memset(ta, 0, sizeof ta);
	a->kind = "nodes-needed";
	kp_sb subj;
	kp_sb_init(&subj);
	for (int i = 0; i < n; i++)
		kp_sb_printf(&subj, "%s%s", i ? ", " : "", o->templates[i]);
	snprintf(a->subject, sizeof a->subject, "%s", kp_sb_str(&subj));
	kp_sb_release(&subj);
	/* the baseline: K = 0 for every template */
	outcome base;
	c->want_quality = c->want_ids = 1;
	rc = cap_plan_once(c, NULL, 0, &base);
	c->base_r = base.r;
	kp_sort(base.unsched_ids, (size_t)base.nunsched_ids, sizeof *base.unsched_ids, kp_cmp_i64, NULL);
	for (int i = 0; i < n && !rc; i++) {
		rc = one_template(c, &base, o->templates[i], max_nodes, &ta[i]);
		/* the smallest: the fewest pods left out as never-fit, then the fewest nodes */
		if (!rc && ta[i].nodes >= 0 && (best < 0 || ta[i].never < ta[best].never ||
						(ta[i].never == ta[best].never && ta[i].nodes < ta[best].nodes)))
			best = i;
	}
	c->want_quality = c->want_ids = 0;
	sqlite3_exec(c->db, "DROP TABLE IF EXISTS temp.kp_cap_never", NULL, NULL, NULL);
	if (!rc) {
		const tmpl_answer *b = &ta[best >= 0 ? best : 0];
		a->status = b->status;
		a->bound = b->lb;
		a->value = best >= 0 ? b->nodes : INT64_MIN;
		a->reason = b->reason ? kp_strdup(b->reason) : NULL;
		if (best >= 0 && b->nodes == 0) {
			cap_qual_take(&c->q, &base.q);
			snprintf(c->q_of, sizeof c->q_of, "%s", "the plan of the cluster as it is");
		} else if (best >= 0 && b->q_of[0]) {
			cap_qual_take(&c->q, &ta[best].q);
			snprintf(c->q_of, sizeof c->q_of, "%s", b->q_of);
		}
		if (n == 1) {
			kp_sb_adds(&a->result, kp_sb_str(&ta[0].json));
		} else {
			several(c, ta, n, best);
		}
		if (a->result.len && a->result.buf[a->result.len - 1] == '}') {
			a->result.buf[--a->result.len] = 0;
			kp_sb_printf(&a->result, ",\"plans\":%ld}", a->plans);
		}
	}
	for (int i = 0; i < n; i++) {
		kp_sb_release(&ta[i].json);
		cap_qual_release(&ta[i].q);
		kp_free(ta[i].reason);
	}
	cap_outcome_release(&base);
	return rc;
}
