/*
 * capacity_survive.c — `kplan capacity --survive node|zone|LABEL`: does every
 * pod placed in the baseline find a node again after losing a node, a zone
 * (topology.kubernetes.io/zone) or the nodes with one value of LABEL
 * (docs/capacity-planning.md).
 *
 * The baseline (every imported pod, placed or not), then per domain the
 * plan of the state the baseline leaves with the domain's nodes removed
 * (`plan --from-run BASE --remove-nodes DOMAIN`): the pods placed elsewhere
 * stay, the domain's pods are scheduled again with the pods still pending,
 * as kube-scheduler would when the nodes fail — evaluated from the baseline
 * kept in memory (survive.h), scheduling only those pods.  With
 * --survive-replan, --from-run, or a cluster the incremental evaluation does
 * not model (survive.h), each domain is instead a plan of the cluster as
 * imported without its nodes (what-if remove-nodes), every pending pod
 * planned again ("method": "replan").  The domain survives only when every
 * pod placed in the baseline is placed again.  Pods placed in the
 * baseline that are left without a node are named (lost), and so, apart,
 * are pods without a node in the baseline that find one (gained); DaemonSet
 * and static pods that go with their node are neither.  The overall verdict
 * is false when any domain evaluated loses a pod.  The worst domain loses
 * the most pods, then leaves the least cpu or memory headroom.
 */
#include "capacity_int.h"

#include <string.h>
#include <stdio.h>

typedef struct domain {
	char *name;
	double load;
	long nodes;
} domain;

static int cmp_load(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const domain *x = a, *y = b;
	if (x->load != y->load)
		return x->load < y->load ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* the domains, most loaded first (load: the mean over cpu and memory of
 * requested / allocatable, bound pods); label NULL: nodes */
static int load_domains(cap *c, const char *label, domain **out, int *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *s = cap_prepare(c, label ? kp_sql_capacity_domains_label : kp_sql_capacity_domains_node);
	if (!s)
		return c->err->code;
	if (label)
		sqlite3_bind_text(s, 1, label, -1, SQLITE_STATIC);
	int capn = 0, rc = KP_OK, step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (KP_GROW(*out, *n, capn, 64)) {
			rc = cap_nomem(c);
			break;
		}
		domain *d = &(*out)[(*n)++];
		d->name = kp_strdup((const char *)sqlite3_column_text(s, 0));
		d->load = sqlite3_column_double(s, 1);
		d->nodes = sqlite3_column_int(s, 2);
		if (!d->name) {
			rc = cap_nomem(c);
			break;
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = cap_step_fail(c, s);
	sqlite3_finalize(s);
	if (!rc)
		kp_sort(*out, (size_t)*n, sizeof **out, cmp_load, NULL);
	return rc;
}

/* the survive run's state */
typedef struct surv {
	cap *c;
	const char *what, *label;     /* "node", "zone" or the label key; label NULL for nodes */
	int worst;
	long worst_lost;
	double worst_head;
	long failing;
	qual worst_q;
	char worst_text[1024];
	kp_survive *ks;               /* the kept baseline; NULL: re-plan per domain */
} surv;

/* the headroom over the nodes left: its text (for the worst), rows; *minfrac the least cpu/memory free fraction */
static int headroom(surv *sv, const domain *d, const outcome *o, kp_sb *head, double *minfrac)
{
	*minfrac = 2;
	int nh = 0, rc = KP_OK;
	for (int r = 0; r < o->nres && !rc; r++) {
		const res_total *x = &o->res[r];
		if (strcmp(x->name, "cpu") && strcmp(x->name, "memory") && strcmp(x->name, "pods") && !x->alloc)
			continue;
		char f[64], al[64];
		kp_capacity_fmt_amount(x->name, x->free, f, sizeof f);
		kp_capacity_fmt_amount(x->name, x->alloc, al, sizeof al);
		kp_sb_printf(head, "%s%s %s of %s", nh++ ? ", " : "", x->name, f, al);
		double frac = x->alloc ? (double)x->free / (double)x->alloc : 0;
		if ((!strcmp(x->name, "cpu") || !strcmp(x->name, "memory")) && frac < *minfrac)
			*minfrac = frac;
		rc = cap_add_row(sv->c, T_HEADROOM, d->name, x->name, x->alloc, x->free, 0, 0, 0, 0);
	}
	return rc;
}

/* the rows of the pods that lose (or gain) a node */
static int pod_rows(surv *sv, const domain *d, const char *change, const cap_pod *v, int n)
{
	int rc = KP_OK;
	for (int i = 0; i < n && !rc; i++)
		rc = cap_add_pod_row(sv->c, T_POD, d->name, change, &v[i]);
	return rc;
}

/* one domain's result: JSON, rows, and the worst so far */
static int domain_result(surv *sv, int i, const domain *d, outcome *o)
{
	cap *c = sv->c;
	kp_sb *j = &c->a->result;
	long extra = o->unsched - (c->base_r.unschedulable + c->base_r.evicted);
	int survives = o->lost == 0;
	sv->failing += !survives;
	kp_sb head;
	kp_sb_init(&head);
	double minfrac;
	int rc = headroom(sv, d, o, &head, &minfrac);
	if (!rc)
		rc = pod_rows(sv, d, "loses", o->losts, o->nlosts);
	if (!rc)
		rc = pod_rows(sv, d, "gains", o->gains, o->ngains);
	kp_sb_adds(j, i ? ",{\"domain\":" : "{\"domain\":");
	kp_sb_add_json_str(j, d->name);
	kp_sb_printf(j, ",\"nodes\":%ld,\"pods_displaced\":%ld,\"pods_lost\":%ld,\"pods_gained\":%ld,\"unschedulable\":%ld,"
		     "\"extra_unschedulable\":%ld,\"survives\":%s,\"lost\":", d->nodes, o->displaced, o->lost, o->gained,
		     o->unsched, extra, survives ? "true" : "false");
	cap_pods_json(j, o->losts, o->nlosts);
	kp_sb_adds(j, ",\"gained\":");
	cap_pods_json(j, o->gains, o->ngains);
	kp_sb_adds(j, ",\"headroom\":[");
	for (int r = 0; r < o->nres; r++) {
		kp_sb_adds(j, r ? ",{\"resource\":" : "{\"resource\":");
		kp_sb_add_json_str(j, o->res[r].name);
		kp_sb_printf(j, ",\"allocatable\":%lld,\"free\":%lld}", (long long)o->res[r].alloc, (long long)o->res[r].free);
	}
	kp_sb_adds(j, "]}");
	if (!rc)
		rc = cap_add_row(c, T_DOMAIN, d->name, NULL, d->nodes, o->displaced, o->lost, o->unsched, extra, survives);
	/* worst: the most pods lost, then the least cpu/memory headroom */
	if (o->lost > sv->worst_lost || (o->lost == sv->worst_lost && minfrac < sv->worst_head)) {
		sv->worst = i;
		cap_qual_take(&sv->worst_q, &o->q);
		sv->worst_lost = o->lost;
		sv->worst_head = minfrac;
		snprintf(sv->worst_text, sizeof sv->worst_text, "%s %s: %ld pod%s placed now lose%s %s node (%ld displaced, "
			 "%ld gain one); headroom %s", sv->what, d->name, o->lost, o->lost == 1 ? "" : "s",
			 o->lost == 1 ? "s" : "", o->lost == 1 ? "its" : "their", o->displaced, o->gained, kp_sb_str(&head));
	}
	kp_sb_release(&head);
	return rc;
}

static void progress(cap *c, const char *unit, long done, long total)
{
	if (c->h && c->h->progress)
		c->h->progress(c->h->ctx, unit, done, total);
}

/* one domain's plan: from the kept baseline, or re-planned without its nodes */
static int plan_domain(surv *sv, const domain *d, outcome *o)
{
	cap *c = sv->c;
	if (sv->ks)
		return cap_survive_eval(c, sv->ks, sv->label, d->name, o);
	char sel[1400];
	if (sv->label)
		snprintf(sel, sizeof sel, "%s=%s", sv->label, d->name);
	else
		snprintf(sel, sizeof sel, "%s", d->name);
	const char *wo[2] = { "remove-nodes", sel };
	return cap_plan_once(c, wo, 1, o);
}

/* the domains: each planned without its nodes.  Re-planned, each plan's
 * certificate is read as it runs; from the kept baseline, only the worst
 * domain's, planned once more at the end (its rows are written for it) */
static int evaluate(surv *sv, const domain *d, int neval)
{
	cap *c = sv->c;
	int rc = KP_OK;
	c->track = 1;
	for (int i = 0; i < neval && !rc; i++) {
		outcome o;
		progress(c, sv->what, i, neval);
		c->want_quality = !sv->ks;
		rc = plan_domain(sv, &d[i], &o);
		c->want_quality = 0;
		if (!rc)
			rc = domain_result(sv, i, &d[i], &o);
		cap_outcome_release(&o);
	}
	if (!rc && sv->ks && sv->worst >= 0) {
		outcome o;
		c->want_quality = 1;
		rc = plan_domain(sv, &d[sv->worst], &o);
		c->want_quality = 0;
		if (!rc)
			cap_qual_take(&sv->worst_q, &o.q);
		cap_outcome_release(&o);
	}
	c->track = 0;
	progress(c, sv->what, neval, neval);
	return rc;
}

/* the baseline: every imported pod, and whether it has a node; kept in
 * memory unless re-planning (*why: why re-planned, NULL not) */
static int baseline(cap *c, surv *sv, const char **why)
{
	const kp_capacity_opts *o = c->o;
	outcome base;
	int rc;
	*why = o->survive_replan ? "--survive-replan" : o->from_run > 0 ? "--from-run" : NULL;
	c->collect = 1;
	if (*why) {
		rc = cap_plan_once(c, NULL, 0, &base);
	} else {
		rc = cap_survive_open(c, &base, &sv->ks, why);
		if (!rc && *why) {
			kp_survive_close(sv->ks);   /* what it does not model: re-planned */
			sv->ks = NULL;
		}
	}
	c->collect = 0;
	c->base_r = base.r;
	cap_outcome_release(&base);
	return rc;
}

int cap_survive(cap *c)
{
	const kp_capacity_opts *o = c->o;
	kp_capacity_answer *a = c->a;
	surv sv = { .c = c, .worst = -1, .worst_lost = -1, .worst_head = 2 };
	int zone = !strcmp(o->survive, "zone"), node = !strcmp(o->survive, "node");
	sv.what = o->survive;
	sv.label = node ? NULL : zone ? KP_CAP_ZONE_LABEL : o->survive;
	a->kind = node ? "survive-node" : zone ? "survive-zone" : "survive-label";
	snprintf(a->subject, sizeof a->subject, "%s", o->survive);
	domain *d = NULL;
	int nd = 0, rc = load_domains(c, sv.label, &d, &nd);
	const char *why = NULL;
	if (rc || (rc = baseline(c, &sv, &why)))
		goto out;
	cap_sort_base(c);
	int neval = o->limit > 0 && o->limit < nd ? (int)o->limit : nd;
	long bu = c->base_r.unschedulable;
	kp_sb *j = &a->result;
	kp_sb_adds(j, "{\"kind\":");
	kp_sb_add_json_str(j, a->kind);
	kp_sb_adds(j, ",\"label\":");
	kp_sb_add_json_str(j, sv.label);
	kp_sb_printf(j, ",\"domains\":%d,\"evaluated\":%d,\"baseline_unschedulable\":%ld,\"method\":\"%s\"", nd, neval, bu,
		     why ? "replan" : "incremental");
	if (why) {
		kp_sb_adds(j, ",\"replan_why\":");
		kp_sb_add_json_str(j, why);
	}
	kp_sb_adds(j, ",\"results\":[");
	if ((rc = evaluate(&sv, d, neval)))
		goto out;
	kp_sb_adds(j, "],\"worst\":");
	kp_sb_add_json_str(j, sv.worst >= 0 ? d[sv.worst].name : NULL);
	a->value = neval ? sv.failing == 0 : INT64_MIN;
	a->bound = neval;
	a->status = !neval ? "nothing-to-lose" : sv.failing ? "fails" : "survives";
	if (sv.worst >= 0) {
		a->reason = kp_strdup(sv.worst_text);
		cap_qual_take(&c->q, &sv.worst_q);
		snprintf(c->q_of, sizeof c->q_of, "the plan without %s %s (the worst)", sv.what, d[sv.worst].name);
	}
	if (!neval) {
		/* no verdict: nothing was evaluated */
		kp_sb_printf(j, ",\"survives\":null,\"failing\":0}");
		goto out;
	}
	kp_sb_printf(j, ",\"survives\":%s,\"failing\":%ld}", sv.failing ? "false" : "true", sv.failing);
out:
	kp_survive_close(sv.ks);
	cap_qual_release(&sv.worst_q);
	for (int i = 0; i < nd; i++)
		kp_free(d[i].name);
	kp_free(d);
	return rc;
}
