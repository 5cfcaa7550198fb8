/*
 * plan_extender_preempt.c — the HTTP extenders' say over preemption: an
 * extender's preemptVerb, called as kube-scheduler calls it
 * (kubernetes/kubernetes pkg/scheduler/framework/preemption/preemption.go
 * Evaluator.callExtenders; pkg/scheduler/extender.go ProcessPreemption,
 * convertToVictims, convertPodUIDToPod):
 *
 *   After DefaultPreemption found its candidates (at least one) and before
 *   it picks one, each extender in order (the not ignorable ones first)
 *   that has a preemptVerb and is interested in the pod gets the
 *   candidates as ExtenderPreemptionArgs: {"Pod", "NodeNameToVictims":
 *   {node: {"Pods": [v1.Pod...], "NumPDBViolations"}}} or,
 *   nodeCacheCapable, {"Pod", "NodeNameToMetaVictims": {node: {"Pods":
 *   [{"UID"}...], ...}}} (node names in Go's map order: sorted).  Its reply,
 *   ExtenderPreemptionResult {"NodeNameToMetaVictims"}, replaces the
 *   candidates: a node it leaves out is no candidate any more, a node it
 *   adds (any node of the cluster) becomes one, each with the victims and
 *   the NumPDBViolations it says; the next extender is sent that.  When no
 *   candidate is left, the others are not called.
 *
 *   Errors: the call's (transport, status, JSON), a node not in the
 *   cluster ("nodeinfo not found for node name"), a UID that is no pod on
 *   that node (convertPodUIDToPod's error), then a node with no victims
 *   ("expected at least one victim pod on node"; an ignorable extender's
 *   such node is dropped instead).  An ignorable extender's error skips
 *   it; any other ends the preemption: the pod stays unschedulable with
 *   "preemption: <error>" after its FitError, and nothing is evicted.
 *
 *   Then kube's pickOneNodeForPreemption over what is left; none left:
 *   "no candidate node for preemption".  The highest-victim criterion reads
 *   the first victim the extender listed (kube: Pods[0]), the start-time
 *   one the highest-priority victims wherever they are listed
 *   (GetEarliestPodStartTime).
 *
 * kplan's own rules: a pod named twice on one node is one victim (kube
 * would delete it twice); a candidate naming a pod this plan already
 * evicted MAX_EVICTIONS_PER_POD times is dropped (the plan's guard against
 * eviction loops).  Every call is an extender_call row, verb preempt:
 * nodes = candidates sent, passed = candidates returned.
 */
#include "plan_extender_int.h"
#include "preemption.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pctx {
	planner *pl;
	const kp_hext *x;
	char **uids;                 /* per pod index, filled on first use (cycle arena) */
	char *msg;
	size_t nmsg;
} pctx;

static int cmp_node_name(const void *a, const void *b, void *ctx)
{
	const planner *pl = ctx;
	const kp_candidate *x = *(kp_candidate *const *)a, *y = *(kp_candidate *const *)b;
	return strcmp(kp_str(&pl->s.strs, pl->s.node_name[x->node]), kp_str(&pl->s.strs, pl->s.node_name[y->node]));
}

/* pod pi's UID (or stand-in), looked up once per call */
static const char *uid_of(pctx *c, int32_t pi)
{
	if (!c->uids[pi]) {
		char buf[256];
		kp_hx_pod_uid(c->pl, pi, buf, sizeof buf);
		c->uids[pi] = kp_arena_strdup(&c->pl->cy.arena, buf);
	}
	return c->uids[pi];
}

/* ExtenderPreemptionArgs for the candidates into the request body */
static int build_args(pctx *c, const kp_preempt_result *pr)
{
	planner *pl = c->pl;
	const char *pod = kp_hx_cycle_pod(pl);
	const kp_candidate **order = kp_malloc((size_t)pr->ncands * sizeof *order);
	if (!pod || !order) {
		kp_free(order);
		return KP_NOMEM;
	}
	for (int i = 0; i < pr->ncands; i++)
		order[i] = &pr->cands[i];
	kp_sort(order, (size_t)pr->ncands, sizeof *order, cmp_node_name, pl);
	int meta = c->x->node_cache_capable, rc = KP_OK;
	kp_sb *b = kp_hx_body(pl);
	kp_sb_adds(b, "{\"Pod\":");
	kp_sb_adds(b, pod);
	kp_sb_adds(b, meta ? ",\"NodeNameToVictims\":null,\"NodeNameToMetaVictims\":{" : ",\"NodeNameToVictims\":{");
	for (int i = 0; i < pr->ncands && !rc; i++) {
		const kp_candidate *k = order[i];
		kp_sb_adds(b, i ? "," : "");
		kp_sb_add_json_str(b, kp_str(&pl->s.strs, pl->s.node_name[k->node]));
		kp_sb_adds(b, ":{\"Pods\":[");
		for (int v = 0; v < k->nvictims && !rc; v++) {
			kp_sb_adds(b, v ? "," : "");
			if (meta) {
				const char *uid = uid_of(c, k->victims[v]);
				kp_sb_adds(b, "{\"UID\":");
				kp_sb_add_json_str(b, uid ? uid : "");
				kp_sb_addc(b, '}');
				rc = uid ? KP_OK : KP_NOMEM;
			} else {
				char *pj = kp_hx_pod_json(pl, k->victims[v]);
				kp_sb_adds(b, pj ? pj : "");
				rc = pj ? KP_OK : KP_NOMEM;
				kp_free(pj);
			}
		}
		kp_sb_printf(b, "],\"NumPDBViolations\":%d}", k->npdb_violations);
	}
	kp_sb_adds(b, meta ? "}}" : "},\"NodeNameToMetaVictims\":null}");
	kp_free(order);
	return rc ? rc : kp_sb_ok(b) ? KP_OK : KP_NOMEM;
}

static const char *json_type(const kp_json *j)
{
	static const char *const tn[] = { "null", "bool", "number", "string", "array", "object" };
	return tn[j->type];
}

/* -1 with Go's decoding error for a member of the wrong type */
static int bad_type(pctx *c, const kp_json *j, const char *field, const char *go_type)
{
	snprintf(c->msg, c->nmsg, "json: cannot unmarshal %s into Go struct field %s of type %s",
		 j->type == KP_J_NUM ? "number" : json_type(j), field, go_type);
	return -1;
}

/* the victims of one node of the reply (convertToVictims), into k; -1 with msg */
static int convert_node(pctx *c, int node, const kp_json *v, kp_candidate *k)
{
	planner *pl = c->pl;
	const kp_snap *s = &pl->s;
	const kp_json *pods = kp_hx_member(v, "Pods"), *np = kp_hx_member(v, "NumPDBViolations");
	if (v->type != KP_J_OBJ && v->type != KP_J_NULL)
		return bad_type(c, v, "ExtenderPreemptionResult.NodeNameToMetaVictims", "v1.MetaVictims");
	if (pods && pods->type != KP_J_ARR && pods->type != KP_J_NULL)
		return bad_type(c, pods, "MetaVictims.NodeNameToMetaVictims.Pods", "[]*v1.MetaPod");
	if (np && np->type != KP_J_NULL && (np->type != KP_J_NUM || strpbrk(np->str, ".eE")))
		return bad_type(c, np, "MetaVictims.NodeNameToMetaVictims.NumPDBViolations", "int64");
	memset(k, 0, sizeof *k);
	k->node = node;
	long long npdb = np && np->type == KP_J_NUM ? strtoll(np->str, NULL, 10) : 0;
	k->npdb_violations = npdb > INT_MAX ? INT_MAX : npdb < INT_MIN ? INT_MIN : (int)npdb;
	size_t n = pods && pods->type == KP_J_ARR ? pods->n : 0;
	k->victims = kp_malloc((n ? n : 1) * sizeof *k->victims);
	k->violating = kp_calloc(n ? n : 1, 1);
	if (!k->victims || !k->violating)
		return KP_NOMEM;
	for (size_t i = 0; i < n; i++) {
		const kp_json *u = kp_hx_member(pods->items[i], "UID");
		if (u && u->type != KP_J_STR && u->type != KP_J_NULL)
			return bad_type(c, u, "MetaVictims.NodeNameToMetaVictims.Pods.UID", "string");
		const char *uid = u && u->type == KP_J_STR ? u->str : "";
		int32_t found = -1;
		for (uint32_t j = 0; j < s->nnode_pods[node] && found < 0; j++) {
			const char *have = uid_of(c, s->node_pods[node][j]);
			if (!have)
				return KP_NOMEM;
			if (!strcmp(have, uid))
				found = s->node_pods[node][j];
		}
		if (found < 0) {
			snprintf(c->msg, c->nmsg, "extender: %s claims to preempt pod (UID: &{%s}) on node: %s, but the pod is "
				 "not found on that node", c->x->url_prefix, uid, kp_str(&s->strs, s->node_name[node]));
			return -1;
		}
		int dup = 0;
		for (int j = 0; j < k->nvictims && !dup; j++)
			dup = k->victims[j] == found;
		if (!dup)
			k->victims[k->nvictims++] = found;
	}
	return KP_OK;
}

/* the criteria pickOneNodeForPreemption reads, for victims as listed */
static int fill_criteria(planner *pl, kp_candidate *k)
{
	const kp_snap *s = &pl->s;
	if (!k->nvictims)
		return KP_OK;
	k->highest = s->classes[s->pods[k->victims[0]].cls].priority;
	int64_t maxp = k->highest;
	k->earliest = s->pods[k->victims[0]].start_time;
	k->sum = 0;
	for (int i = 0; i < k->nvictims; i++) {
		const kp_pod *v = &s->pods[k->victims[i]];
		int64_t p = s->classes[v->cls].priority;
		k->sum += p + 2147483648LL;
		if (p > maxp) {
			maxp = p;
			k->earliest = v->start_time;
		} else if (p == maxp && v->start_time < k->earliest) {
			k->earliest = v->start_time;
		}
	}
	return kp_pdb_violations(s, pl->pdb_allowed, k->victims, k->nvictims, k->violating);
}

static void free_cands(kp_candidate *v, int n)
{
	for (int i = 0; i < n; i++) {
		kp_free(v[i].victims);
		kp_free(v[i].violating);
	}
	kp_free(v);
}

/* ProcessPreemption's reply and callExtenders' check into *out (*nout
 * candidates, allocated); KP_OK, -1 with msg, or KP_NOMEM */
static int fold_reply(pctx *c, const kp_json *j, kp_candidate **out, int *nout)
{
	planner *pl = c->pl;
	const kp_snap *s = &pl->s;
	const kp_json *m = kp_hx_member(j, "NodeNameToMetaVictims");
	*out = NULL;
	*nout = 0;
	if (m && m->type != KP_J_OBJ && m->type != KP_J_NULL)
		return bad_type(c, m, "ExtenderPreemptionResult.NodeNameToMetaVictims", "map[string]*v1.MetaVictims");
	size_t n = m && m->type == KP_J_OBJ ? m->n : 0;
	kp_candidate *v = kp_calloc(n ? n : 1, sizeof *v);
	if (!v)
		return KP_NOMEM;
	int rc = KP_OK, nv = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const char *name = m->items[2 * i]->str;
		int node = kp_hx_node_named(pl, name);
		if (node < 0) {
			snprintf(c->msg, c->nmsg, "nodeinfo not found for node name \"%s\"", name);
			rc = -1;
			break;
		}
		int at = nv;   /* a name given twice: the last one (Go's map) */
		for (int k = 0; k < nv; k++)
			if (v[k].node == node)
				at = k;
		kp_candidate k = { 0 };
		rc = convert_node(c, node, m->items[2 * i + 1], &k);
		if (at < nv) {
			kp_free(v[at].victims);
			kp_free(v[at].violating);
		}
		v[at] = k;
		nv += at == nv;
	}
	/* callExtenders: every node must keep a victim */
	for (int i = 0; i < nv && !rc; i++)
		if (!v[i].nvictims && !c->x->ignorable) {
			snprintf(c->msg, c->nmsg, "expected at least one victim pod on node \"%s\"",
				 kp_str(&s->strs, s->node_name[v[i].node]));
			rc = -1;
		}
	if (rc) {
		free_cands(v, nv);
		return rc;
	}
	/* an ignorable extender's empty nodes are dropped; so is a node
	 * naming a pod evicted too often (kplan's guard) */
	int w = 0;
	for (int i = 0; i < nv; i++) {
		int guard = 0;
		for (int k = 0; k < v[i].nvictims; k++)
			guard |= s->pods[v[i].victims[k]].no_victim;
		if (!v[i].nvictims || guard) {
			kp_free(v[i].victims);
			kp_free(v[i].violating);
			continue;
		}
		v[w] = v[i];
		if (fill_criteria(pl, &v[w++]))
			rc = KP_NOMEM;
	}
	if (rc) {
		free_cands(v, w);
		return rc;
	}
	*out = v;
	*nout = w;
	return KP_OK;
}

/* the preemption ends without a candidate: text after "preemption: " */
static int no_candidate(kp_preempt_result *pr, const char *msg)
{
	free_cands(pr->cands, pr->ncands);
	pr->cands = NULL;
	pr->ncands = 0;
	pr->chosen = -1;
	kp_free(pr->message);
	pr->message = kp_strdup(msg);
	return pr->message ? KP_OK : KP_NOMEM;
}

/* one extender's ProcessPreemption over pr's candidates: KP_OK (pr
 * replaced), -1 with msg, or KP_NOMEM */
static int call_one(pctx *c, kp_preempt_result *pr)
{
	planner *pl = c->pl;
	if (build_args(c, pr))
		return KP_NOMEM;
	double t0 = kp_hx_now_ms();
	int rc = kp_hx_post(pl, c->x, c->x->preempt_verb, c->msg, c->nmsg);
	kp_json *j = rc ? NULL : kp_hx_reply(pl, KP_J_OBJ, "v1.ExtenderPreemptionResult", c->msg, c->nmsg);
	kp_candidate *nc = NULL;
	int nn = 0;
	if (!rc && !j)
		rc = -1;
	if (!rc)
		rc = fold_reply(c, j, &nc, &nn);
	if (rc > 0)
		return rc;
	if (kp_hx_record(pl, c->x, KP_HX_PREEMPT, rc ? (c->x->ignorable ? KP_HX_SKIPPED : KP_HX_ERROR) : KP_HX_OK,
			 pr->ncands, nn, t0, rc ? c->msg : NULL)) {
		free_cands(nc, nn);
		return KP_NOMEM;
	}
	if (rc)
		return rc;
	free_cands(pr->cands, pr->ncands);
	pr->cands = nc;
	pr->ncands = nn;
	return KP_OK;
}

int kp_plan_extenders_preempt(planner *pl, kp_preempt_result *pr)
{
	kp_cycle *cy = &pl->cy;
	const kp_hexts *l = cy->pf->hext;
	if (!l || pr->chosen < 0 || !pr->ncands)
		return KP_OK;
	char msg[2048];
	pctx c = { pl, NULL, NULL, msg, sizeof msg };
	int called = 0;
	for (int k = 0; k < l->n && pr->ncands; k++) {
		const kp_hext *x = &l->v[k];
		if (!x->preempt_verb[0] || !kp_hx_interested(pl, x))
			continue;
		if (!kp_hx_run(pl))
			return kp_plan_nomem(pl);
		size_t nu = (size_t)(pl->s.npods ? pl->s.npods : 1) * sizeof *c.uids;
		if (!c.uids) {
			if (!(c.uids = kp_arena_alloc(&cy->arena, nu)))
				return kp_plan_nomem(pl);
			memset(c.uids, 0, nu);
		}
		c.x = x;
		called = 1;
		int rc = call_one(&c, pr);
		if (rc > 0)
			return kp_plan_nomem(pl);
		if (rc < 0 && !x->ignorable)
			return no_candidate(pr, msg) ? kp_plan_nomem(pl) : KP_OK;
		/* an ignorable extender's error: "Skipped extender as it returned error and has ignorable flag set" */
	}
	if (!called)
		return KP_OK;
	if (!pr->ncands)
		return no_candidate(pr, "no candidate node for preemption") ? kp_plan_nomem(pl) : KP_OK;
	pr->chosen = kp_preempt_pick(pr->cands, pr->ncands, cy->seed, cy->p->db_id, &pl->s);
	return KP_OK;
}
