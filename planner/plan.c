/*
 * plan.c — one plan run (see plan.h): kube-scheduler's scheduling cycle for
 * every pending pod, in queue order, on the in-memory snapshot.
 *
 *  1. load the snapshot, the profiles (--config, else the latest imported
 *     KubeSchedulerConfiguration, else kube's defaults) and evaluate the
 *     static filters in SQL once per scheduling class;
 *  2. queue: priority (high first), creationTimestamp, import order
 *     (PrioritySort; semantics §3);
 *  3. per pod: PreFilter, Filter on every node (the first failing plugin
 *     gives the node's reasons), then — with two or more feasible nodes —
 *     PreScore, Score, NormalizeScore, weights, and the highest total wins;
 *     ties go to the highest seeded hash of (pod, node) (semantics §1, §8);
 *  4. batch retry (semantics §12): when the queue is drained, pods that
 *     failed before a later binding are tried again, in queue order, until a
 *     pass binds nothing;
 *  5. write run, placement, pod_failure and run_warning in one transaction.
 */
#include "plan.h"
#include "snapshot.h"
#include "profile.h"
#include "static.h"
#include "cycle.h"
#include "../common/json.h"
#include "extender.h"
#include "preemption.h"
#include "whatif.h"
#include "quality.h"
#include "rebalance.h"
#include "explain.h"
#include "decisive.h"
#include "../common/db.h"
#include "../common/read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>

/* what happened to a pod; A_EVICTED: preempted and not re-created (no controller) */
enum { A_KEEP, A_BIND, A_UNSCHED, A_IGNORED, A_DONE, A_GATED, A_EVICTED };

/* a pod may be evicted this often in one run; then it is never a victim again */
#define MAX_EVICTIONS_PER_POD 3

typedef struct fail_item { int32_t reason; int32_t count; } fail_item;

typedef struct pod_out {
	uint8_t action;
	int32_t seq, attempts, feasible, node;
	int64_t score;
	int has_score;
	int64_t last_bind_stamp;     /* binds counter at the last attempt */
	int32_t evicted_from;        /* node of the last eviction, -1 */
	int32_t evicted_by;          /* preemptor pod index, -1 */
	int32_t nominated;           /* node preemption freed for it, tried first next time; -1 */
	char *message;
	fail_item *fails;
	int nfails;
} pod_out;

typedef struct planner {
	sqlite3 *db;
	const kp_plan_opts *o;
	kp_err *err;
	kp_snap s;
	kp_config cfg;
	kp_cycle cy;
	int32_t *queue;
	int nqueue;
	pod_out *out;
	int64_t binds;
	int32_t seq;
	int32_t *prof_of_class;      /* profile index per class, -1 none */
	int *next_start;             /* per profile: percentageOfNodesToScore rotation */
	int64_t *scores[KP_P_COUNT];
	int64_t *total;
	kp_explain *ex;
	long done_pods;
	/* queue: a binary heap of pod indexes (PrioritySort order) */
	int32_t *heap;
	int nheap, cap_heap, cap_queue;
	int64_t *order;              /* per pod: tie-break after priority and creation */
	int64_t next_order;
	/* preemption */
	int preemption;              /* DefaultPreemption runs (not --no-preemption) */
	int64_t *pdb_allowed;        /* disruptions each PDB still allows */
	struct eviction_rec { int32_t pod, node, preemptor; uint8_t violated; char *pdbs; } *ev;
	int nev, cap_ev;
	/* node-local cache (see local_filters): the verdicts and raw scores of
	 * the plugins that read only the pod's class and the node, kept per node
	 * for the class last scheduled and reused while the node is unchanged */
	int cache;                   /* off with --reference */
	uint32_t epoch;              /* bumped when the class or profile changes */
	int32_t cache_cls;
	int cache_profile;
	uint64_t *fstamp;            /* per node: epoch << 32 | node_ver when fpass was computed */
	uint8_t *fpass;
	uint64_t *sstamp;            /* per node: when lsum / lraw were computed */
	int64_t *lsum;               /* per node: weighted sum of the node-local scores without NormalizeScore */
	int64_t *lraw[KP_P_COUNT];   /* per node: raw node-local scores that are normalised */
	const uint8_t *avoid;        /* rebalance: per node, 1 = the pod may not land there; NULL none */
} planner;

/* plugins whose filter verdict / raw score depend only on the pod's class,
 * the profile and the node's own state (its labels, taints, images, and the
 * pods on it); the others (spread, inter-pod affinity, extenders) read other
 * nodes or the pod itself and always run */
static const uint8_t local_filter[KP_P_COUNT] = {
	[KP_P_NODE_UNSCHEDULABLE] = 1, [KP_P_NODE_NAME] = 1, [KP_P_TAINT_TOLERATION] = 1,
	[KP_P_NODE_AFFINITY] = 1, [KP_P_NODE_PORTS] = 1, [KP_P_NODE_RESOURCES_FIT] = 1,
};
static const uint8_t local_score[KP_P_COUNT] = {
	[KP_P_TAINT_TOLERATION] = 1, [KP_P_NODE_AFFINITY] = 1, [KP_P_NODE_RESOURCES_FIT] = 1,
	[KP_P_BALANCED_ALLOCATION] = 1, [KP_P_IMAGE_LOCALITY] = 1,
};

static int nomem(planner *pl) { return kp_err_set(pl->err, KP_NOMEM, "out of memory while planning"); }

/* ---- configuration ---- */

static int load_config(planner *pl)
{
	return kp_config_load(pl->db, pl->o->config_file, &pl->cfg, pl->err);
}

/* NodeAffinityArgs.addedAffinity -> node terms (parsed with the shared JSON reader) */
static int parse_terms(planner *pl, kp_json *list, int preferred, kp_nterm **out, uint32_t *n)
{
	*out = NULL;
	*n = 0;
	if (!list)
		return KP_OK;
	if (list->type != KP_J_ARR)
		return kp_err_set(pl->err, KP_PARSE, "addedAffinity: expected a list of terms");
	*out = kp_arena_alloc(&pl->s.arena, (list->n ? list->n : 1) * sizeof **out);
	if (!*out)
		return nomem(pl);
	for (size_t i = 0; i < list->n; i++) {
		kp_json *t = list->items[i], *pref = t;
		kp_nterm *nt = &(*out)[i];
		if (t->type != KP_J_OBJ)
			return kp_err_set(pl->err, KP_PARSE, "addedAffinity: a term must be a mapping");
		if (preferred) {
			pref = NULL;
			for (size_t k = 0; k < t->n; k++) {
				const char *key = t->items[2 * k]->str;
				if (!strcmp(key, "weight") && t->items[2 * k + 1]->type == KP_J_NUM)
					nt->weight = atoll(t->items[2 * k + 1]->str);
				if (!strcmp(key, "preference"))
					pref = t->items[2 * k + 1];
			}
			if (!pref || pref->type != KP_J_OBJ)
				return kp_err_set(pl->err, KP_PARSE, "addedAffinity: a preferred term needs a preference");
		}
		for (size_t k = 0; k < pref->n; k++) {
			const char *key = pref->items[2 * k]->str;
			kp_json *exprs = pref->items[2 * k + 1];
			int field = !strcmp(key, "matchFields");
			if (!field && strcmp(key, "matchExpressions"))
				return kp_err_set(pl->err, KP_PARSE, "addedAffinity: unknown field '%s'", key);
			if (exprs->type != KP_J_ARR)
				return kp_err_set(pl->err, KP_PARSE, "addedAffinity: %s must be a list", key);
			kp_sreq *r = kp_arena_alloc(&pl->s.arena, (exprs->n ? exprs->n : 1) * sizeof *r);
			if (!r)
				return nomem(pl);
			for (size_t e = 0; e < exprs->n; e++) {
				kp_json *x = exprs->items[e];
				const char *ekey = NULL, *op = NULL;
				kp_json *vals = NULL;
				for (size_t q = 0; x->type == KP_J_OBJ && q < x->n; q++) {
					const char *f = x->items[2 * q]->str;
					if (!strcmp(f, "key"))
						ekey = x->items[2 * q + 1]->str;
					else if (!strcmp(f, "operator"))
						op = x->items[2 * q + 1]->str;
					else if (!strcmp(f, "values"))
						vals = x->items[2 * q + 1];
				}
				static const char *const ops[] = { "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt" };
				int code = -1;
				for (int q = 0; q < 6 && op; q++)
					if (!strcmp(op, ops[q]))
						code = q;
				if (!ekey || code < 0)
					return kp_err_set(pl->err, KP_PARSE, "addedAffinity: an expression needs a key and an operator");
				r[e].key = kp_strtab_intern(&pl->s.strs, ekey);
				r[e].op = (uint8_t)code;
				r[e].nvals = vals && vals->type == KP_J_ARR ? (uint32_t)vals->n : 0;
				r[e].vals = kp_arena_alloc(&pl->s.arena, (r[e].nvals ? r[e].nvals : 1) * sizeof(kp_sid));
				if (!r[e].vals)
					return nomem(pl);
				for (uint32_t q = 0; q < r[e].nvals; q++)
					r[e].vals[q] = kp_strtab_intern(&pl->s.strs, vals->items[q]->str ? vals->items[q]->str : "");
				if ((code == KP_OP_GT || code == KP_OP_LT) && r[e].nvals == 1)
					r[e].num = atoll(kp_str(&pl->s.strs, r[e].vals[0]));
			}
			if (field) {
				nt->fields = r;
				nt->nfields = (uint32_t)exprs->n;
			} else {
				nt->exprs = r;
				nt->nexprs = (uint32_t)exprs->n;
			}
		}
	}
	*n = (uint32_t)list->n;
	return KP_OK;
}

static int prepare_added_affinity(planner *pl, const kp_profile *pf)
{
	kp_cycle *cy = &pl->cy;
	cy->has_added_req = 0;
	cy->nadded_req = cy->nadded_pref = 0;
	if (!pf->added_affinity_json)
		return KP_OK;
	kp_arena tmp;
	kp_arena_init(&tmp, 4096);
	kp_json *j = kp_json_parse(pf->added_affinity_json, &tmp);
	int rc = KP_OK;
	if (!j || j->type != KP_J_OBJ)
		rc = kp_err_set(pl->err, KP_PARSE, "addedAffinity: expected a mapping");
	for (size_t k = 0; !rc && k < j->n; k++) {
		const char *key = j->items[2 * k]->str;
		kp_json *v = j->items[2 * k + 1];
		if (!strcmp(key, "requiredDuringSchedulingIgnoredDuringExecution")) {
			kp_json *terms = NULL;
			for (size_t q = 0; v->type == KP_J_OBJ && q < v->n; q++)
				if (!strcmp(v->items[2 * q]->str, "nodeSelectorTerms"))
					terms = v->items[2 * q + 1];
			cy->has_added_req = 1;
			rc = parse_terms(pl, terms, 0, &cy->added_req, &cy->nadded_req);
		} else if (!strcmp(key, "preferredDuringSchedulingIgnoredDuringExecution")) {
			rc = parse_terms(pl, v, 1, &cy->added_pref, &cy->nadded_pref);
		} else {
			rc = kp_err_set(pl->err, KP_PARSE, "addedAffinity: unknown field '%s'", key);
		}
	}
	kp_arena_release(&tmp);
	return rc;
}

/* ---- queue ---- */


static int queue_less(const void *a, const void *b, void *ctx)
{
	const planner *sort_pl = ctx;
	const kp_snap *s = &sort_pl->s;
	const kp_pod *x = &s->pods[*(const int32_t *)a], *y = &s->pods[*(const int32_t *)b];
	if ((x->daemon_node >= 0) != (y->daemon_node >= 0))
		return x->daemon_node >= 0 ? -1 : 1;
	int64_t px = s->classes[x->cls].priority, py = s->classes[y->cls].priority;
	if (px != py)
		return px > py ? -1 : 1;
	if (x->created != y->created)
		return x->created < y->created ? -1 : 1;
	/* pods a what-if scenario made (negative ids) come after the imported ones */
	if ((x->db_id < 0) != (y->db_id < 0))
		return x->db_id < 0 ? 1 : -1;
	return (x->db_id > y->db_id) - (x->db_id < y->db_id);
}

static int heap_less(const planner *pl, int32_t a, int32_t b)
{
	const kp_snap *s = &pl->s;
	const kp_pod *x = &s->pods[a], *y = &s->pods[b];
	/* DaemonSet pods first: the controller creates them as nodes appear */
	if ((x->daemon_node >= 0) != (y->daemon_node >= 0))
		return x->daemon_node >= 0;
	int64_t px = s->classes[x->cls].priority, py = s->classes[y->cls].priority;
	if (px != py)
		return px > py;
	if (x->created != y->created)
		return x->created < y->created;
	return pl->order[a] < pl->order[b];
}

static int heap_push(planner *pl, int32_t pi)
{
	if (KP_GROW(pl->heap, pl->nheap, pl->cap_heap, 1024))
		return KP_NOMEM;
	int i = pl->nheap++;
	pl->heap[i] = pi;
	while (i > 0 && heap_less(pl, pl->heap[i], pl->heap[(i - 1) / 2])) {
		int32_t t = pl->heap[i];
		pl->heap[i] = pl->heap[(i - 1) / 2];
		pl->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
	return KP_OK;
}

static int32_t heap_pop(planner *pl)
{
	int32_t top = pl->heap[0];
	pl->heap[0] = pl->heap[--pl->nheap];
	for (int i = 0;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < pl->nheap && heap_less(pl, pl->heap[l], pl->heap[m]))
			m = l;
		if (r < pl->nheap && heap_less(pl, pl->heap[r], pl->heap[m]))
			m = r;
		if (m == i)
			break;
		int32_t t = pl->heap[i];
		pl->heap[i] = pl->heap[m];
		pl->heap[m] = t;
		i = m;
	}
	return top;
}

/* ---- the cycle ---- */


/* "0/N nodes are available: <sorted histogram>." and the per-reason counts */
static int fit_error(planner *pl, pod_out *po)
{
	kp_cycle *cy = &pl->cy;
	const kp_snap *s = &pl->s;
	int32_t *counts = kp_calloc((size_t)(s->nreasons ? s->nreasons : 1), sizeof *counts);
	if (!counts)
		return nomem(pl);
	for (int n = 0; n < s->nnodes; n++)
		if (cy->fail[n] >= 0)
			for (int k = 0; k < cy->rcount[n]; k++)
				counts[cy->rbuf[cy->rstart[n] + k]]++;
	int nitems = 0;
	for (int r = 0; r < s->nreasons; r++)
		nitems += counts[r] > 0;
	kp_free(po->fails);
	po->fails = kp_malloc((size_t)(nitems ? nitems : 1) * sizeof *po->fails);
	char **items = kp_malloc((size_t)(nitems ? nitems : 1) * sizeof *items);
	if (!po->fails || !items) {
		kp_free(counts);
		kp_free(items);
		return nomem(pl);
	}
	po->nfails = 0;
	int ok = 1;
	for (int r = 0; r < s->nreasons; r++)
		if (counts[r]) {
			po->fails[po->nfails] = (fail_item){ r, counts[r] };
			items[po->nfails] = kp_malloc(strlen(s->reasons[r].msg) + 24);
			if (!items[po->nfails]) {
				ok = 0;
				break;
			}
			sprintf(items[po->nfails], "%d %s", counts[r], s->reasons[r].msg);
			po->nfails++;
		}
	kp_sb sb;
	kp_sb_init(&sb);
	if (ok) {
		kp_sort(items, (size_t)po->nfails, sizeof *items, kp_cmp_str, NULL);
		if (!s->nnodes)
			kp_sb_adds(&sb, "no nodes available to schedule pods");
		else
			kp_sb_printf(&sb, "0/%d nodes are available: ", s->nnodes);
		for (int i = 0; i < po->nfails; i++) {
			if (i)
				kp_sb_adds(&sb, ", ");
			kp_sb_adds(&sb, items[i]);
		}
		if (s->nnodes)
			kp_sb_addc(&sb, '.');
	}
	for (int i = 0; i < po->nfails && ok; i++)
		kp_free(items[i]);
	kp_free(items);
	kp_free(counts);
	if (!ok || !kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return nomem(pl);
	}
	kp_free(po->message);
	po->message = sb.buf;
	return KP_OK;
}

/* numFeasibleNodesToFind (semantics §9), only when the profile sets a percentage */
static int nodes_to_find(int n, int pct)
{
	if (pct < 0 || n < 100 || pct >= 100)
		return n;
	int p = pct;
	if (p == 0) {
		p = 50 - n / 125;
		if (p < 5)
			p = 5;
	}
	int num = (int)((int64_t)n * p / 100);
	return num < 100 ? 100 : num;
}

/* explain.h: the explained pod's attempt */
static void explain_capture(planner *pl, int profile_idx, int chosen, int scoring, int64_t *const *raw,
			    int64_t *const *norm)
{
	kp_explain_capture(pl->ex, &pl->cy, &pl->cfg.profiles[profile_idx], chosen, scoring, raw, norm, pl->total, pl->avoid);
}

static int push_pod(int32_t **v, int *n, int *cap, int32_t pi)
{
	if (KP_GROW(*v, *n, *cap, 64))
		return KP_NOMEM;
	(*v)[(*n)++] = pi;
	return KP_OK;
}

/* Remember a placed pod with affinity terms: with required anti-affinity it
 * can reject later pods (§5.8); with any term it scores them (§7.9). */
static int add_affinity_pod(planner *pl, int32_t pi)
{
	kp_cycle *cy = &pl->cy;
	const kp_class *c = &pl->s.classes[pl->s.pods[pi].cls];
	/* once each: a pod bound again after an eviction is already listed
	 * (the lists skip pods that are not placed) */
	if (c->has_req_anti && !(cy->listed[pi] & 1)) {
		if (push_pod(&cy->anti_pods, &cy->nanti_pods, &cy->cap_anti_pods, pi) || kp_ipa_add_pod(cy, pi))
			return KP_NOMEM;
		cy->listed[pi] |= 1;
	}
	if (c->npterms && !(cy->listed[pi] & 2)) {
		if (push_pod(&cy->aff_pods, &cy->naff_pods, &cy->cap_aff_pods, pi))
			return KP_NOMEM;
		cy->listed[pi] |= 2;
	}
	return KP_OK;
}

/* A PreFilter plugin rejected the pod for every node: "0/N nodes are available: MSG." */

/* A pod preemption could not help: its message becomes kube's FitError.Error,
 * the filter message and the PostFilter's joined with SeparatorFormat " %v."
 * after the filter message's own final period (kube 1.28-1.31 print ".."). */
static int join_preemption_message(planner *pl, pod_out *po, kp_preempt_result *pr, int explaining)
{
	kp_sb sb;
	kp_sb_init(&sb);
	kp_sb_printf(&sb, "%s preemption: %s.", po->message ? po->message : "", pr->message ? pr->message : "");
	kp_preempt_release(pr);
	if (!kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return nomem(pl);
	}
	kp_free(po->message);
	po->message = sb.buf;
	if (explaining)
		snprintf(pl->ex->message, sizeof pl->ex->message, "%s", po->message);
	return KP_OK;
}

static int prefilter_failed(planner *pl, pod_out *po, int profile_idx, int explaining)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	po->action = A_UNSCHED;
	po->feasible = 0;
	po->has_score = 0;
	int r = kp_reason_intern(s, kp_plugin_names[cy->prefilter_plugin], cy->prefilter_msg, 1);
	kp_free(po->fails);
	po->fails = kp_malloc(sizeof *po->fails);
	kp_free(po->message);
	po->message = kp_malloc(strlen(cy->prefilter_msg) + 64);
	if (r < 0 || !po->fails || !po->message)
		return nomem(pl);
	po->fails[0] = (fail_item){ r, s->nnodes };
	po->nfails = 1;
	sprintf(po->message, "0/%d nodes are available: %s.", s->nnodes, cy->prefilter_msg);
	for (int n = 0; n < s->nnodes; n++)
		kp_cycle_fail(cy, n, cy->prefilter_plugin, r, 1);
	if (explaining) {
		explain_capture(pl, profile_idx, -1, 0, NULL, NULL);
		snprintf(pl->ex->message, sizeof pl->ex->message, "%s", po->message);
	}
	/* PostFilter runs after a PreFilter rejection too (findNodesThatFitPod
	 * returns a FitError); every node is unresolvable, so it cannot help */
	const kp_profile *pf = &pl->cfg.profiles[profile_idx];
	if (!pl->preemption || !pf->post_filter[KP_P_DEFAULT_PREEMPTION])
		return KP_OK;
	kp_preempt_result pr;
	int rc = kp_preempt(cy, pl->pdb_allowed, &pr);
	if (rc) {
		kp_preempt_release(&pr);
		return rc == KP_NOMEM ? nomem(pl) : kp_err_set(pl->err, rc, "preemption failed");
	}
	if (explaining)
		kp_explain_preemption(pl->ex, &pl->cy, &pr);
	return join_preemption_message(pl, po, &pr, explaining);
}

/* The pod is assumed on the node; the next cycle sees it. */
static int bind_pod(planner *pl, int32_t pi, int node)
{
	pod_out *po = &pl->out[pi];
	if (kp_snap_add_pod(&pl->s, pi, node))
		return nomem(pl);
	if (pl->s.classes[pl->s.pods[pi].cls].npterms && add_affinity_pod(pl, pi))
		return nomem(pl);
	po->action = A_BIND;
	po->node = node;
	kp_free(po->message);
	po->message = NULL;
	po->nfails = 0;
	pl->binds++;
	return KP_OK;
}

/* Evict the chosen candidate's victims for preemptor pi: they leave the
 * snapshot, PDB allowances drop, and those a controller re-creates go back
 * to the queue as new pods (created now). */
static int evict_victims(planner *pl, int32_t pi, const kp_candidate *c)
{
	kp_snap *s = &pl->s;
	for (int i = 0; i < c->nvictims; i++) {
		int32_t v = c->victims[i];
		kp_pod *vp = &s->pods[v];
		pod_out *vo = &pl->out[v];
		int from = vp->node;
		kp_snap_remove_pod(s, v);
		kp_sb pdbs;
		kp_sb_init(&pdbs);
		kp_sb_addc(&pdbs, '[');
		int first = 1;
		for (int k = 0; k < s->npdbs; k++)
			if (kp_pdb_matches(s, &s->pdbs[k], vp)) {
				pl->pdb_allowed[k]--;
				kp_sb_adds(&pdbs, first ? "" : ",");
				kp_sb_add_json_str(&pdbs, kp_str(&s->strs, s->pdbs[k].name));
				first = 0;
			}
		kp_sb_addc(&pdbs, ']');
		if (!kp_sb_ok(&pdbs)) {
			kp_sb_release(&pdbs);
			return nomem(pl);
		}
		if (KP_GROW(pl->ev, pl->nev, pl->cap_ev, 64)) {
			kp_sb_release(&pdbs);
			return nomem(pl);
		}
		pl->ev[pl->nev++] = (struct eviction_rec){ v, from, pi, c->violating[i], pdbs.buf };
		if (++vp->evictions >= MAX_EVICTIONS_PER_POD)
			vp->no_victim = 1;
		vo->evicted_from = from;
		vo->evicted_by = pi;
		kp_free(vo->message);
		vo->message = NULL;
		vo->nfails = 0;
		const char *ok = vp->owner_kind >= 0 ? kp_str(&s->strs, vp->owner_kind) : NULL;
		if (ok && strcmp(ok, "Node") != 0) {
			/* its controller creates a replacement: a new pod in the queue */
			vo->action = A_UNSCHED;
			vp->created = INT64_MAX;
			pl->order[v] = pl->next_order++;
			if (pl->nqueue == pl->cap_queue) {
				int cap = pl->cap_queue * 2 + 16;
				int32_t *q = kp_realloc(pl->queue, (size_t)cap * sizeof *q);
				if (!q)
					return nomem(pl);
				pl->queue = q;
				pl->cap_queue = cap;
			}
			pl->queue[pl->nqueue++] = v;
			if (heap_push(pl, v))
				return nomem(pl);
		} else {
			vo->action = A_EVICTED;
		}
	}
	return KP_OK;
}

/* One scheduling cycle for pod pi under profile pf. */
/* Filter every node with the node-local cache: a node's node-local
 * verdict is recomputed only when pods came or went there since the class
 * was last filtered; the other filters run on every node that passes.
 * Fills cy->feas; failure reasons are not kept (see schedule_one). */
static void filter_cached(planner *pl)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	int loc[KP_P_COUNT], other[KP_P_COUNT], nloc = 0, nother = 0;
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (!cy->pf->filter[k] || !pg || !pg->filter || cy->skip[k])
			continue;
		if (local_filter[k])
			loc[nloc++] = k;
		else
			other[nother++] = k;
	}
	uint64_t ep = (uint64_t)pl->epoch << 32;
	cy->nfeas = 0;
	for (int n = 0; n < s->nnodes; n++) {
		uint64_t st = ep | s->node_ver[n];
		cy->fail[n] = -1;
		if (pl->fstamp[n] != st) {
			int ok = !cy->restrict_nodes || cy->allowed[n];
			for (int j = 0; j < nloc && ok; j++)
				ok = !kp_plugins[loc[j]]->filter(cy, n);
			pl->fpass[n] = (uint8_t)ok;
			pl->fstamp[n] = st;
			cy->fail[n] = -1;
		}
		if (!pl->fpass[n])
			continue;
		int ok = 1;
		for (int j = 0; j < nother && ok; j++)
			ok = !kp_plugins[other[j]]->filter(cy, n);
		if (ok)
			cy->feas[cy->nfeas++] = n;
	}
}

/* Scoring with the node-local cache: PreScore of the node-local score
 * plugins, then per feasible node the cached raw scores (recomputed when the
 * node changed): those without NormalizeScore go weighted into pl->total,
 * the others into pl->scores[k] for normalising.  skipped[k]: PreScore said
 * skip (scores 0). */
static int local_scores(planner *pl, const kp_profile *pf, uint8_t *skipped)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	int ks[KP_P_COUNT], nk = 0;
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (!pf->score[k] || !local_score[k] || !pg || !pg->score)
			continue;
		int rc = pg->pre_score ? pg->pre_score(cy) : KP_OK;
		if (rc < 0)
			return rc;
		skipped[k] = rc == KP_SKIP;
		if (skipped[k]) {
			for (int i = 0; i < cy->nfeas; i++)
				pl->scores[k][cy->feas[i]] = 0;
		} else {
			ks[nk++] = k;
		}
	}
	uint64_t ep = (uint64_t)pl->epoch << 32;
	for (int i = 0; i < cy->nfeas; i++) {
		int n = cy->feas[i];
		uint64_t st = ep | s->node_ver[n];
		if (pl->sstamp[n] != st) {
			int64_t sum = 0;
			for (int j = 0; j < nk; j++) {
				int k = ks[j];
				int64_t v = kp_plugins[k]->score(cy, n);
				if (kp_plugins[k]->normalize)
					pl->lraw[k][n] = v;
				else
					sum += pf->weight[k] * v;
			}
			pl->lsum[n] = sum;
			pl->sstamp[n] = st;
		}
		pl->total[n] += pl->lsum[n];
	}
	for (int j = 0; j < nk; j++) {
		int k = ks[j];
		if (!kp_plugins[k]->normalize)
			continue;
		int64_t *dst = pl->scores[k];
		const int64_t *src = pl->lraw[k];
		for (int i = 0; i < cy->nfeas; i++)
			dst[cy->feas[i]] = src[cy->feas[i]];
	}
	return KP_OK;
}

static int schedule_one(planner *pl, int32_t pi, int profile_idx)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	const kp_profile *pf = &pl->cfg.profiles[profile_idx];
	pod_out *po = &pl->out[pi];
	kp_pod *p = &s->pods[pi];
	const kp_class *c = &s->classes[p->cls];
	int explaining = pl->ex && pl->ex->pod_db_id == p->db_id;
	if (!c->feasible) {
		/* a class first seen now (the replacement of an evicted pod): its
		 * static verdicts once, by the same SQL */
		for (int i = 0; i < s->nclasses; i++)
			s->classes[i].needed = 0;
		s->classes[p->cls].needed = 1;
		int rc = kp_static_filters(pl->db, s, pf, pl->err);
		s->classes[p->cls].needed = 0;
		if (rc)
			return rc;
	}
	po->attempts++;
	po->last_bind_stamp = pl->binds;
	po->seq = ++pl->seq;
	kp_arena_reset(&cy->arena);
	cy->pf = pf;
	if (cy->res_pf != pf) {
		/* resource names -> indexes, once per profile, not per node */
		for (int i = 0; i < pf->nfit_res || i < pf->nbal_res; i++) {
			for (int k = 0; k < 2; k++) {
				const char *name = k ? (i < pf->nbal_res ? pf->bal_res[i].name : NULL)
						     : (i < pf->nfit_res ? pf->fit_res[i].name : NULL);
				if (!name)
					continue;
				kp_sid sid = kp_strtab_find(&s->strs, name);
				int idx = -1;
				for (int r = 0; r < s->nres && sid >= 0 && idx < 0; r++)
					if (s->res_name[r] == sid)
						idx = r;
				if (k)
					cy->bal_res[i] = idx;
				else
					cy->fit_res[i] = idx;
			}
		}
		cy->res_pf = pf;
	}
	cy->pi = pi;
	cy->p = p;
	cy->c = c;
	cy->nfeas = 0;
	cy->rlen = 0;
	cy->spread_built = 0;
	cy->restrict_nodes = 0;
	cy->prefilter_msg = NULL;
	memset(cy->skip, 0, sizeof cy->skip);
	memset(cy->fail, -1, (size_t)s->nnodes);
	memset(cy->unres, 0, (size_t)s->nnodes);
	if (prepare_added_affinity(pl, pf))
		return pl->err->code;

	/* PreFilter */
	int prc = kp_cycle_prefilter(cy);
	if (prc == KP_PREFILTER_FAIL)
		return prefilter_failed(pl, po, profile_idx, explaining);
	if (prc < 0)
		return prc == KP_NOMEM ? nomem(pl) : kp_err_set(pl->err, prc, "pre-filter failed");
	/* a DaemonSet pod carries required node affinity to its node (the
	 * controller sets matchFields metadata.name): only that node is filtered */
	if (p->daemon_node >= 0) {
		for (int n = 0; n < s->nnodes; n++)
			cy->allowed[n] = (uint8_t)(n == p->daemon_node && (!cy->restrict_nodes || cy->allowed[n]));
		cy->restrict_nodes = 1;
	}
	if (pl->avoid) {   /* rebalance (rebalance.h): never back to the node it left, nor where the strategy says */
		for (int n = 0; n < s->nnodes; n++)
			cy->allowed[n] = (uint8_t)(!pl->avoid[n] && (!cy->restrict_nodes || cy->allowed[n]));
		cy->restrict_nodes = 1;
	}
	/* a node preemption freed for this pod is evaluated first, alone; if it
	 * passes it is used without scoring (semantics §9, §11.7) */
	if (po->nominated >= 0) {
		int n = po->nominated;
		po->nominated = -1;
		if (kp_cycle_filter_node(cy, n)) {
			if (explaining)
				explain_capture(pl, profile_idx, n, 0, NULL, NULL);
			po->feasible = 1;
			po->has_score = 0;
			return bind_pod(pl, pi, n);
		}
		cy->fail[n] = -1;
	}
	/* Filter, node by node; every node unless percentageOfNodesToScore
	 * says otherwise.  With the node-local cache, the nodes' cached verdicts
	 * first; when no node passes, every node again without the cache, for
	 * the reasons (FitError, preemption) */
	int fast = pl->cache && !explaining && pf->pct_nodes_to_score < 0 && p->daemon_node < 0 && !pl->avoid;
	if (fast && (pl->cache_cls != p->cls || pl->cache_profile != profile_idx)) {
		if (++pl->epoch == 0) {
			memset(pl->fstamp, 0, (size_t)s->nnodes * sizeof *pl->fstamp);
			memset(pl->sstamp, 0, (size_t)s->nnodes * sizeof *pl->sstamp);
			pl->epoch = 1;
		}
		pl->cache_cls = p->cls;
		pl->cache_profile = profile_idx;
	}
	if (fast) {
		filter_cached(pl);
		if (cy->nfeas == 0) {
			memset(cy->fail, -1, (size_t)s->nnodes);
			memset(cy->unres, 0, (size_t)s->nnodes);
			cy->rlen = 0;
		}
	}
	int want = nodes_to_find(s->nnodes, pf->pct_nodes_to_score);
	int start = pf->pct_nodes_to_score >= 0 ? pl->next_start[profile_idx] : 0, processed = 0;
	for (int i = 0; i < s->nnodes && cy->nfeas < want && !(fast && cy->nfeas); i++) {
		int n = (start + i) % s->nnodes;
		processed++;
		int passed = kp_cycle_filter_node(cy, n);
		if (passed)
			cy->feas[cy->nfeas++] = n;
	}
	if (pf->pct_nodes_to_score >= 0 && s->nnodes)
		pl->next_start[profile_idx] = (start + processed) % s->nnodes;

	if (cy->nfeas == 0) {
		po->action = A_UNSCHED;
		po->feasible = 0;
		po->has_score = 0;
		int rc = fit_error(pl, po);
		if (explaining) {
			explain_capture(pl, profile_idx, -1, 0, NULL, NULL);
			snprintf(pl->ex->message, sizeof pl->ex->message, "%s", po->message ? po->message : "");
		}
		if (rc || !pl->preemption || !pf->post_filter[KP_P_DEFAULT_PREEMPTION])
			return rc;
		/* PostFilter: DefaultPreemption */
		kp_preempt_result pr;
		rc = kp_preempt(cy, pl->pdb_allowed, &pr);
		if (rc) {
			kp_preempt_release(&pr);
			return rc == KP_NOMEM ? nomem(pl) : kp_err_set(pl->err, rc, "preemption failed");
		}
		if (explaining)
			kp_explain_preemption(pl->ex, &pl->cy, &pr);
		if (pr.chosen < 0) {
			return join_preemption_message(pl, po, &pr, explaining);
		}
		/* victims go; the preemptor is re-queued with its nominated node */
		const kp_candidate *cand = &pr.cands[pr.chosen];
		rc = evict_victims(pl, pi, cand);
		po->nominated = cand->node;
		kp_preempt_release(&pr);
		if (!rc && heap_push(pl, pi))
			rc = nomem(pl);
		pl->binds++;   /* evictions are cluster events: failed pods may fit now */
		return rc;
	}
	int best = cy->feas[0];
	po->feasible = cy->nfeas;
	po->has_score = 0;
	int scoring = cy->nfeas > 1;
	int64_t *ex_raw[KP_P_COUNT] = { 0 }, *ex_norm[KP_P_COUNT] = { 0 };
	if (scoring) {
		for (int i = 0; i < cy->nfeas; i++)
			pl->total[cy->feas[i]] = 0;
		uint8_t local_skip[KP_P_COUNT] = { 0 };
		if (fast) {
			int rc = local_scores(pl, pf, local_skip);
			if (rc < 0)
				return rc == KP_NOMEM ? nomem(pl) : kp_err_set(pl->err, rc, "pre-score failed");
		}
		for (int k = 0; k < KP_P_COUNT; k++) {
			const kp_plugin *pg = kp_plugins[k];
			if (!pf->score[k] || !pg || !pg->score)
				continue;
			int64_t *sc = pl->scores[k];
			if (fast && local_score[k]) {
				/* local_scores added it, or left its raw scores in sc */
				if (!pg->normalize)
					continue;
				if (!local_skip[k])
					pg->normalize(cy, sc);
				for (int i = 0; i < cy->nfeas; i++) {
					int n = cy->feas[i];
					pl->total[n] += pf->weight[k] * sc[n];
				}
				continue;
			}
			int skip = 0;
			if (pg->pre_score) {
				int rc = pg->pre_score(cy);
				if (rc == KP_SKIP)
					skip = 1;
				else if (rc < 0)
					return rc == KP_NOMEM ? nomem(pl) : kp_err_set(pl->err, rc, "pre-score %s failed", kp_plugin_names[k]);
			}
			for (int i = 0; i < cy->nfeas; i++)
				sc[cy->feas[i]] = skip ? 0 : pg->score(cy, cy->feas[i]);
			if (explaining) {
				ex_raw[k] = kp_arena_alloc(&cy->arena, (size_t)s->nnodes * sizeof(int64_t));
				if (!ex_raw[k])
					return nomem(pl);
				memcpy(ex_raw[k], sc, (size_t)s->nnodes * sizeof(int64_t));
			}
			if (!skip && pg->normalize)
				pg->normalize(cy, sc);
			if (explaining) {
				ex_norm[k] = kp_arena_alloc(&cy->arena, (size_t)s->nnodes * sizeof(int64_t));
				if (!ex_norm[k])
					return nomem(pl);
				memcpy(ex_norm[k], sc, (size_t)s->nnodes * sizeof(int64_t));
			}
			for (int i = 0; i < cy->nfeas; i++) {
				int n = cy->feas[i];
				pl->total[n] += pf->weight[k] * sc[n];
			}
		}
		/* the highest total; among equal totals the highest seeded hash
		 * (computed only for ties) */
		uint32_t best_tb = 0;
		int best_tb_valid = 0;
		for (int i = 1; i < cy->nfeas; i++) {
			int n = cy->feas[i];
			if (pl->total[n] > pl->total[best]) {
				best = n;
				best_tb_valid = 0;
			} else if (pl->total[n] == pl->total[best]) {
				if (!best_tb_valid) {
					best_tb = kp_tiebreak(cy->seed, p->db_id, s->node_db_id[best]);
					best_tb_valid = 1;
				}
				uint32_t tb = kp_tiebreak(cy->seed, p->db_id, s->node_db_id[n]);
				if (tb > best_tb) {
					best = n;
					best_tb = tb;
				}
			}
		}
		po->score = pl->total[best];
		po->has_score = 1;
	}
	if (explaining)
		explain_capture(pl, profile_idx, best, scoring, ex_raw, ex_norm);
	return bind_pod(pl, pi, best);
}

/* Merge extender rows of another profile (disjoint pods) into the cycle's. */
static int merge_extender_rows(planner *pl, kp_cycle *tmp)
{
	kp_cycle *cy = &pl->cy;
	int np = pl->s.npods;
	if (!tmp->ext_off)
		return KP_OK;
	if (!cy->ext_off) {
		cy->ext_off = tmp->ext_off;
		cy->ext_rows = tmp->ext_rows;
		tmp->ext_off = NULL;
		tmp->ext_rows = NULL;
		return KP_OK;
	}
	int32_t *off = kp_calloc((size_t)np + 1, sizeof *off);
	size_t total = (size_t)cy->ext_off[np] + (size_t)tmp->ext_off[np];
	struct kp_ext_row *rows = kp_malloc((total ? total : 1) * sizeof *rows);
	if (!off || !rows) {
		kp_free(off);
		kp_free(rows);
		return nomem(pl);
	}
	size_t m = 0;
	for (int i = 0; i < np; i++) {
		off[i] = (int32_t)m;
		for (int32_t k = cy->ext_off[i]; k < cy->ext_off[i + 1]; k++)
			rows[m++] = cy->ext_rows[k];
		for (int32_t k = tmp->ext_off[i]; k < tmp->ext_off[i + 1]; k++)
			rows[m++] = tmp->ext_rows[k];
	}
	off[np] = (int32_t)m;
	kp_free(cy->ext_off);
	kp_free(cy->ext_rows);
	cy->ext_off = off;
	cy->ext_rows = rows;
	return KP_OK;
}

/* ---- setup ---- */

static int setup(planner *pl)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	int n = s->nnodes ? s->nnodes : 1;
	cy->s = s;
	cy->seed = pl->o->seed;
	kp_arena_init(&cy->arena, 64 * 1024);
	cy->feas = kp_malloc((size_t)n * sizeof *cy->feas);
	cy->fail = kp_malloc((size_t)n);
	cy->unres = kp_malloc((size_t)n);
	cy->rstart = kp_malloc((size_t)n * sizeof *cy->rstart);
	cy->rcount = kp_calloc((size_t)n, sizeof *cy->rcount);
	cy->raw = kp_calloc((size_t)n, sizeof *cy->raw);
	cy->spread_ignored = kp_calloc((size_t)n, 1);
	cy->allowed = kp_calloc((size_t)n, 1);
	cy->min_prio = kp_malloc((size_t)n * sizeof *cy->min_prio);
	cy->min_prio_stamp = kp_calloc((size_t)n, sizeof *cy->min_prio_stamp);
	if (!cy->allowed || !cy->min_prio || !cy->min_prio_stamp)
		return nomem(pl);
	pl->total = kp_calloc((size_t)n, sizeof *pl->total);
	if (!cy->feas || !cy->fail || !cy->unres || !cy->rstart || !cy->rcount || !cy->raw || !cy->spread_ignored ||
	    !pl->total)
		return nomem(pl);
	for (int k = 0; k < KP_P_COUNT; k++)
		if (!(pl->scores[k] = kp_calloc((size_t)n, sizeof(int64_t))))
			return nomem(pl);
	pl->cache = !pl->o->reference;
	pl->cache_cls = -1;
	pl->cache_profile = -1;
	if (pl->cache) {
		pl->fstamp = kp_calloc((size_t)n, sizeof *pl->fstamp);
		pl->fpass = kp_calloc((size_t)n, 1);
		if (!pl->fstamp || !pl->fpass)
			return nomem(pl);
		pl->sstamp = kp_calloc((size_t)n, sizeof *pl->sstamp);
		pl->lsum = kp_calloc((size_t)n, sizeof *pl->lsum);
		if (!pl->sstamp || !pl->lsum)
			return nomem(pl);
		for (int k = 0; k < KP_P_COUNT; k++)
			if (local_score[k] && kp_plugins[k] && kp_plugins[k]->normalize &&
			    !(pl->lraw[k] = kp_calloc((size_t)n, sizeof(int64_t))))
				return nomem(pl);
	}
	if (kp_dmap_init(&cy->aff_counts, 64) || kp_dmap_init(&cy->anti_counts, 64) ||
	    kp_dmap_init(&cy->existing_anti, 64) || kp_dmap_init(&cy->topo_score, 64) ||
	    kp_dmap_init(&cy->anti_memo, 64) || kp_dmap_init(&cy->agroup_index, 64) ||
	    !(cy->listed = kp_calloc((size_t)(s->npods ? s->npods : 1), 1)))
		return nomem(pl);
	const char *const *P = kp_plugin_names;
	cy->r_insufficient = kp_malloc((size_t)s->nres * sizeof *cy->r_insufficient);
	if (!cy->r_insufficient)
		return nomem(pl);
	for (int r = 0; r < s->nres; r++) {
		char msg[600];
		snprintf(msg, sizeof msg, "Insufficient %s", kp_str(&s->strs, s->res_name[r]));
		if ((cy->r_insufficient[r] = kp_reason_intern(s, P[KP_P_NODE_RESOURCES_FIT], msg, 0)) < 0)
			return nomem(pl);
	}
	cy->r_too_many_pods = kp_reason_intern(s, P[KP_P_NODE_RESOURCES_FIT], "Too many pods", 0);
	cy->r_ports = kp_reason_intern(s, P[KP_P_NODE_PORTS], "node(s) didn't have free ports for the requested pod ports", 0);
	cy->r_spread_missing = kp_reason_intern(s, P[KP_P_POD_TOPOLOGY_SPREAD],
						"node(s) didn't match pod topology spread constraints (missing required label)", 1);
	cy->r_spread = kp_reason_intern(s, P[KP_P_POD_TOPOLOGY_SPREAD], "node(s) didn't match pod topology spread constraints", 0);
	cy->r_aff = kp_reason_intern(s, P[KP_P_INTER_POD_AFFINITY], "node(s) didn't match pod affinity rules", 1);
	cy->r_anti = kp_reason_intern(s, P[KP_P_INTER_POD_AFFINITY], "node(s) didn't match pod anti-affinity rules", 0);
	cy->r_existing_anti = kp_reason_intern(s, P[KP_P_INTER_POD_AFFINITY],
					       "node(s) didn't satisfy existing pods anti-affinity rules", 0);
	cy->r_added_affinity = kp_reason_intern(s, P[KP_P_NODE_AFFINITY], "node(s) didn't match scheduler-enforced node affinity", 1);
	cy->r_prefilter_out = kp_reason_intern(s, P[KP_P_NODE_AFFINITY], "node is filtered out by the prefilter result", 1);
	cy->r_no_victims = kp_reason_intern(s, P[KP_P_DEFAULT_PREEMPTION], "No preemption victims found for incoming pod", 1);
	cy->r_not_helpful = kp_reason_intern(s, P[KP_P_DEFAULT_PREEMPTION], "Preemption is not helpful for scheduling", 1);
	if (cy->r_no_victims < 0 || cy->r_not_helpful < 0)
		return nomem(pl);
	if (cy->r_prefilter_out < 0)
		return nomem(pl);
	if (cy->r_too_many_pods < 0 || cy->r_ports < 0 || cy->r_spread_missing < 0 || cy->r_spread < 0 || cy->r_aff < 0 ||
	    cy->r_anti < 0 || cy->r_existing_anti < 0 || cy->r_added_affinity < 0)
		return nomem(pl);
	/* pods already running with required anti-affinity */
	for (int i = 0; i < s->npods; i++)
		if (s->pods[i].node >= 0 && s->classes[s->pods[i].cls].npterms && add_affinity_pod(pl, i))
			return nomem(pl);
	return KP_OK;
}

static void teardown(planner *pl)
{
	kp_cycle *cy = &pl->cy;
	kp_free(pl->fstamp);
	kp_free(pl->fpass);
	kp_free(pl->sstamp);
	kp_free(pl->lsum);
	for (int k = 0; k < KP_P_COUNT; k++)
		kp_free(pl->lraw[k]);
	kp_free(cy->feas);
	kp_free(cy->fail);
	kp_free(cy->unres);
	kp_free(cy->rstart);
	kp_free(cy->rcount);
	kp_free(cy->rbuf);
	kp_free(cy->raw);
	kp_free(cy->spread_ignored);
	kp_free(cy->allowed);
	kp_free(cy->r_insufficient);
	kp_free(cy->anti_pods);
	kp_free(cy->aff_pods);
	kp_free(cy->ext_off);
	kp_free(cy->ext_rows);
	for (int i = 0; i < cy->cap_cs; i++) {
		kp_free(cy->cs[i].dcnt);
		kp_free(cy->cs[i].dpres);
	}
	kp_free(cy->cs);
	kp_dmap_release(&cy->aff_counts);
	kp_dmap_release(&cy->anti_counts);
	kp_dmap_release(&cy->existing_anti);
	kp_dmap_release(&cy->anti_memo);
	kp_ipa_release(cy);
	kp_free(cy->listed);
	kp_free(cy->min_prio);
	kp_free(cy->min_prio_stamp);
	kp_dmap_release(&cy->topo_score);
	kp_arena_release(&cy->arena);
	for (int k = 0; k < KP_P_COUNT; k++)
		kp_free(pl->scores[k]);
	kp_free(pl->total);
	if (pl->out)
		for (int i = 0; i < pl->s.npods; i++) {
			kp_free(pl->out[i].message);
			kp_free(pl->out[i].fails);
		}
	kp_free(pl->out);
	kp_free(pl->queue);
	kp_free(pl->heap);
	kp_free(pl->order);
	kp_free(pl->pdb_allowed);
	for (int i = 0; i < pl->nev; i++)
		kp_free(pl->ev[i].pdbs);
	kp_free(pl->ev);
	kp_free(pl->prof_of_class);
	kp_free(pl->next_start);
	kp_snap_release(&pl->s);
	kp_config_release(&pl->cfg);
}

/* ---- writing ---- */

/* pod i's pod_failure rows, each marked decisive or not (decisive.h) */
static int write_failures(planner *pl, sqlite3_stmt *fail, int64_t run_id, int i)
{
	const kp_snap *s = &pl->s;
	const pod_out *po = &pl->out[i];
	int dynamic = 0;
	for (int k = 0; k < po->nfails; k++)
		dynamic |= !kp_decisive_static_plugin(s->reasons[po->fails[k].reason].plugin);
	for (int k = 0; k < po->nfails; k++) {
		const kp_reason *rs = &s->reasons[po->fails[k].reason];
		sqlite3_reset(fail);
		sqlite3_bind_int64(fail, 1, run_id);
		sqlite3_bind_int64(fail, 2, s->pods[i].db_id);
		sqlite3_bind_text(fail, 3, rs->plugin, -1, SQLITE_STATIC);
		sqlite3_bind_text(fail, 4, rs->msg, -1, SQLITE_STATIC);
		sqlite3_bind_int(fail, 5, po->fails[k].count);
		sqlite3_bind_int(fail, 6, kp_decisive(rs->plugin, dynamic));
		if (sqlite3_step(fail) != SQLITE_DONE)
			return KP_IO;
	}
	return KP_OK;
}

static int write_run(planner *pl, kp_plan_result *r, double t0)
{
	sqlite3 *db = pl->db;
	kp_snap *s = &pl->s;
	sqlite3_stmt *st = NULL, *fail = NULL, *warn = NULL;
	int rc = KP_OK;
	char now[32];
	kp_format_time((int64_t)time(NULL), now, sizeof now);
	if (kp_config_to_json(&pl->cfg))
		return nomem(pl);
#define DBFAIL(what) do { rc = kp_interrupted || sqlite3_errcode(db) == SQLITE_INTERRUPT \
		? kp_err_set(pl->err, KP_INTR, "interrupted") \
		: kp_err_set(pl->err, KP_IO, "cannot write the plan (%s): %s", what, sqlite3_errmsg(db)); goto out; } while (0)
	if (sqlite3_prepare_v2(db, "INSERT INTO run(started, options, config, config_source, seed, kplan) "
				   "VALUES(?1, ?2, ?3, ?4, ?5, ?6)", -1, &st, NULL) != SQLITE_OK)
		DBFAIL("run");
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, pl->o->options_json ? pl->o->options_json : "{}", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, pl->cfg.json, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, pl->cfg.source, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)pl->o->seed);
	sqlite3_bind_text(st, 6, KPLAN_VERSION, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		DBFAIL("run");
	sqlite3_finalize(st);
	st = NULL;
	r->run_id = sqlite3_last_insert_rowid(db);
	if ((rc = kp_decisive_schema(db, pl->err)))   /* pod_failure.decisive on older databases */
		goto out;
	if (sqlite3_prepare_v2(db, "INSERT INTO placement(run_id, pod_id, seq, action, node_id, from_node_id, score, "
				   "feasible, attempts, reason) VALUES(?1, ?2, ?3, ?4, ?5, ?10, ?6, ?7, ?8, ?9)", -1, &st,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO pod_failure(run_id, pod_id, plugin, reason, nodes, decisive) "
				   "VALUES(?1, ?2, ?3, ?4, ?5, ?6)", -1, &fail, NULL) != SQLITE_OK)
		DBFAIL("placement");
	for (int i = 0; i < s->npods; i++) {
		const kp_pod *p = &s->pods[i];
		const pod_out *po = &pl->out[i];
		int was_bound = p->orig_node >= 0;
		const char *action;
		int node = -1, from = -1;
		char *reason = NULL;
		switch (po->action) {
		case A_BIND:
			action = was_bound ? "move" : "bind";
			node = po->node;
			from = was_bound ? p->orig_node : -1;
			break;
		case A_UNSCHED:
			/* a bound pod evicted whose replacement found no home is an eviction */
			action = was_bound ? "evict" : "unschedulable";
			from = was_bound ? p->orig_node : -1;
			break;
		case A_EVICTED:
			action = "evict";
			from = was_bound ? p->orig_node : po->evicted_from;
			break;
		case A_GATED:
			action = "unschedulable";
			break;
		default:
			action = "keep";
			node = p->orig_node;
			break;
		}
		/* what-if (whatif.h): a pod the scenario took off a node moves, stays
		 * (keep: --mode full put it back there) or is unschedulable */
		int64_t moved_from = !was_bound && (po->action == A_BIND || po->action == A_UNSCHED) ? p->moved_from : 0;
		if (moved_from && po->action == A_BIND) {
			action = s->node_db_id[node] == moved_from ? "keep" : "move";
			if (s->node_db_id[node] == moved_from)
				moved_from = 0;
		}
		if (po->evicted_by >= 0 && (po->action == A_EVICTED || (po->action == A_UNSCHED && was_bound))) {
			const kp_pod *by = &s->pods[po->evicted_by];
			kp_sb sb;
			kp_sb_init(&sb);
			kp_sb_printf(&sb, "preempted by %s/%s on %s", kp_str(&s->strs, by->ns), kp_str(&s->strs, by->name),
				     kp_str(&s->strs, s->node_name[po->evicted_from]));
			if (po->action == A_EVICTED)
				kp_sb_adds(&sb, "; no controller re-creates it");
			else
				kp_sb_printf(&sb, "; its replacement found no node: %s", po->message ? po->message : "");
			if (!kp_sb_ok(&sb)) {
				kp_sb_release(&sb);
				rc = nomem(pl);
				goto out;
			}
			reason = sb.buf;
		}
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		sqlite3_bind_int64(st, 1, r->run_id);
		sqlite3_bind_int64(st, 2, p->db_id);
		sqlite3_bind_text(st, 4, action, -1, SQLITE_STATIC);
		if (node >= 0)
			sqlite3_bind_int64(st, 5, s->node_db_id[node]);
		if (from >= 0)
			sqlite3_bind_int64(st, 10, s->node_db_id[from]);
		else if (moved_from)
			sqlite3_bind_int64(st, 10, moved_from);
		if (po->action == A_BIND || po->action == A_UNSCHED || po->action == A_EVICTED) {
			sqlite3_bind_int(st, 3, po->seq);
			if (po->has_score && po->action == A_BIND)
				sqlite3_bind_int64(st, 6, po->score);
			sqlite3_bind_int(st, 7, po->feasible);
			sqlite3_bind_int(st, 8, po->attempts);
		}
		if (reason)
			sqlite3_bind_text(st, 9, reason, -1, SQLITE_TRANSIENT);
		else if (po->message)
			sqlite3_bind_text(st, 9, po->message, -1, SQLITE_STATIC);
		kp_free(reason);
		if (sqlite3_step(st) != SQLITE_DONE)
			DBFAIL("placement");
		if (po->action == A_UNSCHED && write_failures(pl, fail, r->run_id, i))
			DBFAIL("pod_failure");
	}
	sqlite3_finalize(fail);
	fail = NULL;
	if (sqlite3_prepare_v2(db, "INSERT INTO eviction(run_id, seq, pod_id, node_id, preemptor_pod_id, pdb_violated, pdbs) "
				   "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &fail, NULL) != SQLITE_OK)
		DBFAIL("eviction");
	for (int i = 0; i < pl->nev; i++) {
		const struct eviction_rec *e = &pl->ev[i];
		sqlite3_reset(fail);
		sqlite3_bind_int64(fail, 1, r->run_id);
		sqlite3_bind_int(fail, 2, i + 1);
		sqlite3_bind_int64(fail, 3, s->pods[e->pod].db_id);
		sqlite3_bind_int64(fail, 4, s->node_db_id[e->node]);
		sqlite3_bind_int64(fail, 5, s->pods[e->preemptor].db_id);
		sqlite3_bind_int(fail, 6, e->violated);
		sqlite3_bind_text(fail, 7, e->pdbs, -1, SQLITE_STATIC);
		if (sqlite3_step(fail) != SQLITE_DONE)
			DBFAIL("eviction");
	}
	if (sqlite3_prepare_v2(db, "INSERT INTO run_warning(run_id, kind, message, pods) VALUES(?1, ?2, ?3, ?4)", -1, &warn,
			       NULL) != SQLITE_OK)
		DBFAIL("run_warning");
	for (int i = 0; i < r->nwarnings; i++) {
		char kind[64];
		const char *colon = strchr(r->warnings[i], ':');
		snprintf(kind, sizeof kind, "%.*s", colon ? (int)(colon - r->warnings[i]) : 20, r->warnings[i]);
		sqlite3_reset(warn);
		sqlite3_bind_int64(warn, 1, r->run_id);
		sqlite3_bind_text(warn, 2, kind, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(warn, 3, colon ? colon + 2 : r->warnings[i], -1, SQLITE_STATIC);
		sqlite3_bind_int64(warn, 4, atoll(colon ? colon + 2 : "0"));
		if (sqlite3_step(warn) != SQLITE_DONE)
			DBFAIL("run_warning");
	}
	if ((rc = kp_quality_write(db, r->run_id, pl->o->pool_label, pl->err)))   /* plan_quality, plan_stranded */
		goto out;
	sqlite3_finalize(st);
	st = NULL;
	r->elapsed = kp_now() - t0;
	if (sqlite3_prepare_v2(db, "UPDATE run SET nodes = ?2, pending = ?3, bound = ?4, unschedulable = ?5, kept = ?6, "
				   "ignored = ?7, passes = ?8, elapsed = ?9, evicted = ?10, moved = ?11 WHERE id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		DBFAIL("run");
	sqlite3_bind_int64(st, 1, r->run_id);
	sqlite3_bind_int64(st, 2, r->nodes);
	sqlite3_bind_int64(st, 3, r->pending);
	sqlite3_bind_int64(st, 4, r->bound);
	sqlite3_bind_int64(st, 5, r->unschedulable);
	sqlite3_bind_int64(st, 6, r->kept);
	sqlite3_bind_int64(st, 7, r->ignored);
	sqlite3_bind_int64(st, 8, r->passes);
	sqlite3_bind_double(st, 9, r->elapsed);
	sqlite3_bind_int64(st, 10, r->evicted);
	sqlite3_bind_int64(st, 11, r->moved);
	if (sqlite3_step(st) != SQLITE_DONE)
		DBFAIL("run");
out:
#undef DBFAIL
	sqlite3_finalize(st);
	sqlite3_finalize(fail);
	sqlite3_finalize(warn);
	return rc;
}

/* kp_plan_opts.on_pod / on_node: each pod's outcome and each node after the run */
/* NodeResourcesFit's filter for class c on node n holding npods pods that
 * request used[] (per resource): 1 when it would pass */
static int requests_fit(const kp_snap *s, const kp_class *c, const kp_profile *pf, int n, const int64_t *used,
			int64_t npods)
{
	if (!pf->filter[KP_P_NODE_RESOURCES_FIT])
		return 1;
	const int64_t *alloc = &s->alloc[(size_t)n * (size_t)s->nres];
	if (npods + 1 > alloc[3])
		return 0;
	for (uint32_t k = 0; k < c->nreq; k++) {
		int r = c->req_res[k];
		int64_t want = c->req_val[k];
		if (want <= 0 || r == 3 || (r > 2 && kp_fit_ignored(pf, kp_str(&s->strs, s->res_name[r]))))
			continue;
		if (want > alloc[r] - used[r])
			return 0;
	}
	return 1;
}

/* kp_plan_pod.fits_empty_added for class c (profile prof) on added node a,
 * whose DaemonSet pods request over[] (per resource) and number nds */
static int fits_empty_node(const planner *pl, const kp_class *c, int prof, int a, const int64_t *over, int64_t nds)
{
	if (c->feasible && !(c->feasible[a >> 6] >> (a & 63) & 1))
		return 0;   /* a static filter rejects the node */
	return requests_fit(&pl->s, c, &pl->cfg.profiles[prof], a, over, nds);
}

static int report_results(planner *pl)
{
	const kp_plan_opts *o = pl->o;
	kp_snap *s = &pl->s;
	/* the first node the scenario added, and what its DaemonSet pods take */
	int added = -1;
	int64_t nds = 0, *over = NULL;
	for (int n = 0; o->on_pod && n < s->nnodes && added < 0; n++)
		if (s->node_db_id[n] < 0)
			added = n;
	if (added >= 0) {
		if (!(over = kp_calloc((size_t)s->nres, sizeof *over)))
			return nomem(pl);
		for (int i = 0; i < s->npods; i++) {
			const kp_pod *q = &s->pods[i];
			if (q->node != added || q->daemon_node != added)
				continue;
			const kp_class *qc = &s->classes[q->cls];
			for (uint32_t k = 0; k < qc->nreq; k++)
				over[qc->req_res[k]] += qc->req_val[k];
			nds++;
		}
	}
	for (int i = 0; o->on_pod && i < s->npods; i++) {
		const kp_pod *p = &s->pods[i];
		const pod_out *po = &pl->out[i];
		int was_bound = p->orig_node >= 0;
		kp_plan_pod r = { .pod_id = p->db_id, .class_id = s->classes[p->cls].db_id,
				  .priority = s->classes[p->cls].priority, .ns = kp_str(&s->strs, p->ns),
				  .name = kp_str(&s->strs, p->name), .displaced = was_bound || p->moved_from != 0,
				  .seq = po->seq, .message = po->message };
		int node = -1;
		switch (po->action) {
		case A_BIND:
			node = po->node;
			r.action = was_bound || (p->moved_from && s->node_db_id[node] != p->moved_from) ? "move" : "bind";
			if (!was_bound && p->moved_from && s->node_db_id[node] == p->moved_from)
				r.action = "keep";
			break;
		case A_UNSCHED: r.action = was_bound ? "evict" : "unschedulable"; break;
		case A_EVICTED: r.action = "evict"; break;
		case A_GATED: r.action = "unschedulable"; break;
		case A_IGNORED: r.action = "ignored"; break;
		case A_DONE: r.action = "done"; break;
		default:
			r.action = "keep";
			node = p->orig_node >= 0 ? p->orig_node : p->node;
			break;
		}
		if (node >= 0) {
			r.node_id = s->node_db_id[node];
			r.node = kp_str(&s->strs, s->node_name[node]);
		}
		r.fits_empty_added = -1;
		if (added >= 0 && po->action == A_UNSCHED && pl->prof_of_class[p->cls] >= 0)
			r.fits_empty_added = fits_empty_node(pl, &s->classes[p->cls], pl->prof_of_class[p->cls], added, over, nds);
		if (o->on_pod(o->result_ctx, &r)) {
			kp_free(over);
			return pl->err->code ? pl->err->code : kp_err_set(pl->err, KP_ERROR, "stopped");
		}
	}
	kp_free(over);
	for (int n = 0; o->on_node && n < s->nnodes; n++)
		for (int k = 0; k < s->nres; k++) {
			kp_plan_node r = { .node_id = s->node_db_id[n], .node = kp_str(&s->strs, s->node_name[n]),
					   .resource = kp_str(&s->strs, s->res_name[k]), .allocatable = s->alloc[n * s->nres + k],
					   .requested = k == 3 ? s->node_npods[n] : s->used[n * s->nres + k] };
			if ((r.allocatable || r.requested) && o->on_node(o->result_ctx, &r))
				return pl->err->code ? pl->err->code : kp_err_set(pl->err, KP_ERROR, "stopped");
		}
	return KP_OK;
}

/* --mode rebalance (rebalance.h): the host's place and undo */
static int rb_undo(void *ctx, int32_t pi, int32_t node)
{
	planner *pl = ctx;
	pod_out *po = &pl->out[pi];
	if (pl->s.pods[pi].node >= 0)
		kp_snap_remove_pod(&pl->s, pi);
	if (kp_snap_add_pod(&pl->s, pi, node))
		return nomem(pl);
	kp_free(po->message);
	po->message = NULL;
	po->action = A_KEEP;
	po->node = -1;
	po->nfails = po->attempts = po->feasible = po->has_score = 0;
	return KP_OK;
}

static int rb_place(void *ctx, int32_t pi, const uint8_t *avoid, int32_t *node)
{
	planner *pl = ctx;
	kp_snap *s = &pl->s;
	int from = s->pods[pi].node, prof = pl->prof_of_class[s->pods[pi].cls];
	*node = -1;
	kp_snap_remove_pod(s, pi);
	/* no node it may go to has room for its requests: the cycle would fail
	 * on NodeResourcesFit alone; skip it (same outcome, decision order kept) */
	const kp_class *c = &s->classes[s->pods[pi].cls];
	int room = 0;
	for (int n = 0; n < s->nnodes && !room; n++)
		room = !(avoid && avoid[n]) &&
		       requests_fit(s, c, &pl->cfg.profiles[prof], n, &s->used[(size_t)n * (size_t)s->nres], s->node_npods[n]);
	if (!room && !pl->o->reference) {
		pl->out[pi].last_bind_stamp = pl->binds;
		pl->out[pi].seq = ++pl->seq;
		return rb_undo(pl, pi, from);
	}
	pl->avoid = avoid;
	int rc = schedule_one(pl, pi, pl->prof_of_class[pl->s.pods[pi].cls]);
	pl->avoid = NULL;
	if (rc)
		return rc;
	if (pl->out[pi].action == A_BIND) {
		*node = pl->out[pi].node;
		return KP_OK;
	}
	return rb_undo(pl, pi, from);
}

static int run_rebalance(planner *pl)
{
	kp_snap *s = &pl->s;
	uint8_t *movable = kp_calloc((size_t)(s->npods ? s->npods : 1), 1);
	if (!movable)
		return nomem(pl);
	for (int i = 0; i < s->npods; i++)
		movable[i] = pl->out[i].action == A_KEEP && s->pods[i].orig_node >= 0 && s->pods[i].node >= 0 &&
			     pl->prof_of_class[s->pods[i].cls] >= 0;
	pl->preemption = 0;   /* a move never preempts */
	kp_rb_host h = { s, pl->pdb_allowed, movable, pl, rb_place, rb_undo };
	int rc = kp_rebalance_run(pl->o->rebalance, &h, pl->err);
	kp_free(movable);
	return rc;
}

static void add_warning(kp_plan_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_warning(kp_plan_result *r, const char *fmt, ...)
{
	if (r->nwarnings >= 8)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->nwarnings++], sizeof r->warnings[0], fmt, ap);
	va_end(ap);
}

/* ---- the run ---- */

int kp_plan_run(sqlite3 *db, const kp_plan_opts *o, kp_plan_result *r, kp_err *err)
{
	planner pl;
	memset(&pl, 0, sizeof pl);
	memset(r, 0, sizeof *r);
	pl.db = db;
	pl.o = o;
	pl.err = err;
	pl.ex = o->explain;
	double t0 = kp_now();
	/* a dry run only reads the main schema: a read transaction, so that
	 * explain and capacity work on a database opened read-only (with
	 * on_quality its rows go to TEMP tables, kp_quality_dry_tables) */
	int rc = o->dry_run ? kp_db_begin_read(db, err) : kp_db_begin(db, err);
	if (rc)
		return rc;
	if ((rc = load_config(&pl)) || (rc = kp_whatif_apply(db, o->whatif, &pl.cfg, err)) ||
	    (rc = kp_snap_load(db, &pl.s, err)))
		goto out;
	r->t_load = kp_now() - t0;
	snprintf(r->config_source, sizeof r->config_source, "%s", pl.cfg.source);
	kp_snap *s = &pl.s;
	pl.out = kp_calloc((size_t)(s->npods ? s->npods : 1), sizeof *pl.out);
	pl.queue = kp_malloc((size_t)(s->npods ? s->npods : 1) * sizeof *pl.queue);
	pl.prof_of_class = kp_malloc((size_t)(s->nclasses ? s->nclasses : 1) * sizeof *pl.prof_of_class);
	pl.next_start = kp_calloc((size_t)pl.cfg.nprofiles, sizeof *pl.next_start);
	if (!pl.out || !pl.queue || !pl.prof_of_class || !pl.next_start) {
		rc = nomem(&pl);
		goto out;
	}
	for (int i = 0; i < s->nclasses; i++) {
		pl.prof_of_class[i] = -1;
		for (int k = 0; k < pl.cfg.nprofiles && pl.prof_of_class[i] < 0; k++)
			if (!strcmp(pl.cfg.profiles[k].scheduler_name, kp_str(&s->strs, s->classes[i].sched)))
				pl.prof_of_class[i] = k;
	}
	long gated = 0, pvc = 0, missing_pc = 0, other_sched = 0, not_run = 0;
	for (int i = 0; i < s->npods; i++) {
		kp_pod *p = &s->pods[i];
		pod_out *po = &pl.out[i];
		po->node = -1;
		po->evicted_from = po->evicted_by = po->nominated = -1;
		kp_class *c = &s->classes[p->cls];
		if (p->ignored == KP_POD_DONE) {
			po->action = A_DONE;
			po->message = kp_strdup("finished (Succeeded or Failed): takes no room");
			continue;
		}
		if (p->ignored == KP_POD_UNKNOWN_NODE) {
			po->action = A_DONE;
			char msg[600];
			if (p->daemon_node < 0 && p->bound_name < 0)
				snprintf(msg, sizeof msg, "a DaemonSet pod for a node that is gone: not planned");
			else
				snprintf(msg, sizeof msg, "bound to node '%s', which was not imported: takes no room",
					 kp_str(&s->strs, p->bound_name));
			po->message = kp_strdup(msg);
			continue;
		}
		if (p->orig_node >= 0 || p->node >= 0) {
			po->action = A_KEEP;   /* counted in r->kept at the end: preemption may evict it */
			continue;
		}
		r->pending++;
		if (pl.prof_of_class[p->cls] < 0) {
			po->action = A_IGNORED;
			r->ignored++;
			/* an imported profile kplan cannot run has its reason (config_merge.c) */
			const char *why = kp_config_skipped(&pl.cfg, kp_str(&s->strs, c->sched));
			kp_sb msg;
			kp_sb_init(&msg);
			if (why)
				kp_sb_printf(&msg, "not planned: %s", why);
			else
				kp_sb_printf(&msg, "not planned: schedulerName '%s' matches no profile", kp_str(&s->strs, c->sched));
			po->message = msg.buf;   /* NULL when out of memory, as kp_strdup */
			other_sched += !why;
			not_run += why != NULL;
			continue;
		}
		if (c->gated) {
			po->action = A_GATED;
			po->message = kp_strdup("SchedulingGated: the pod has scheduling gates and is not scheduled");
			r->unschedulable++;
			gated++;
			continue;
		}
		if (c->pvc)
			pvc++;
		if (c->missing_pc)
			missing_pc++;
		c->needed = 1;
		pl.queue[pl.nqueue++] = i;
	}
	/* static filters per profile, over the classes with pending pods it schedules */
	uint8_t *pending_class = kp_calloc((size_t)(s->nclasses ? s->nclasses : 1), 1);
	if (!pending_class) {
		rc = nomem(&pl);
		goto out;
	}
	for (int i = 0; i < s->nclasses; i++)
		pending_class[i] = s->classes[i].needed;
	for (int k = 0; k < pl.cfg.nprofiles && !rc; k++) {
		int any = 0;
		for (int i = 0; i < s->nclasses; i++) {
			s->classes[i].needed = pending_class[i] && pl.prof_of_class[i] == k;
			any |= s->classes[i].needed;
		}
		if (any && !o->io_floor)
			rc = kp_static_filters(db, s, &pl.cfg.profiles[k], err);
	}
	kp_free(pending_class);
	if (rc)
		goto out;
	/* every queued class must have its static verdict now */
	for (int q = 0; q < pl.nqueue; q++)
		if (!s->classes[s->pods[pl.queue[q]].cls].feasible && !o->io_floor) {
			rc = kp_err_set(err, KP_ERROR, "internal error: class without static verdict");
			goto out;
		}
	r->t_static = kp_now() - t0 - r->t_load;
	if ((rc = setup(&pl)))
		goto out;
	/* SQL extenders, per profile, over that profile's pending pods */
	for (int k = 0; k < pl.cfg.nprofiles && !rc; k++) {
		const kp_profile *pf = &pl.cfg.profiles[k];
		if (!pf->next)
			continue;
		int32_t *mine = kp_malloc((size_t)(pl.nqueue ? pl.nqueue : 1) * sizeof *mine);
		if (!mine) {
			rc = nomem(&pl);
			break;
		}
		int nm = 0;
		for (int q = 0; q < pl.nqueue; q++)
			if (pl.prof_of_class[s->pods[pl.queue[q]].cls] == k)
				mine[nm++] = pl.queue[q];
		kp_cycle tmp;
		memset(&tmp, 0, sizeof tmp);
		rc = kp_extenders_run(db, s, pf, mine, nm, &tmp, err);
		kp_free(mine);
		if (!rc)
			rc = merge_extender_rows(&pl, &tmp);
		kp_free(tmp.ext_off);
		kp_free(tmp.ext_rows);
	}
	if (rc)
		goto out;
	/* queue order: PrioritySort (priority, creation time), then import order */
	kp_sort(pl.queue, (size_t)pl.nqueue, sizeof *pl.queue, queue_less, (void *)&pl);
	pl.cap_queue = pl.nqueue;
	pl.order = kp_malloc((size_t)(s->npods ? s->npods : 1) * sizeof *pl.order);
	pl.pdb_allowed = kp_malloc((size_t)(s->npdbs ? s->npdbs : 1) * sizeof *pl.pdb_allowed);
	if (!pl.order || !pl.pdb_allowed) {
		rc = nomem(&pl);
		goto out;
	}
	for (int k = 0; k < s->npdbs; k++)
		pl.pdb_allowed[k] = s->pdbs[k].allowed;
	for (int q = 0; q < pl.nqueue; q++)
		pl.order[pl.queue[q]] = q;
	pl.next_order = pl.nqueue;
	pl.preemption = !o->no_preemption;

	/* pass 1 is the whole queue (and the replacements of evicted pods, as they
	 * come); each later pass is every failed pod that failed before some later
	 * binding or eviction, in queue order */
	for (int q = 0; q < pl.nqueue && !rc; q++)
		if (heap_push(&pl, pl.queue[q]))
			rc = nomem(&pl);
	long total_attempts = 0;
	while (pl.nheap > 0 && !rc) {
		r->passes++;
		while (pl.nheap > 0 && !rc) {
			int32_t pi = heap_pop(&pl);
			if (kp_interrupted) {
				rc = kp_err_set(err, KP_INTR, "interrupted");
				break;
			}
			if (o->io_floor) {
				/* the benchmark's I/O floor: no filtering, no scoring;
				 * pods go round-robin over the nodes */
				pl.out[pi].attempts = 1;
				pl.out[pi].seq = ++pl.seq;
				rc = s->nnodes ? bind_pod(&pl, pi, (int)(total_attempts % s->nnodes)) : KP_OK;
			} else {
				rc = schedule_one(&pl, pi, pl.prof_of_class[s->pods[pi].cls]);
			}
			total_attempts++;
			if (o->progress && total_attempts % 1000 == 0)
				o->progress(o->progress_ctx, total_attempts, pl.nqueue);
		}
		for (int q = 0; q < pl.nqueue && !rc; q++) {
			int32_t pi = pl.queue[q];
			if (pl.out[pi].action == A_UNSCHED && pl.out[pi].last_bind_stamp < pl.binds && heap_push(&pl, pi))
				rc = nomem(&pl);
		}
	}
	if (rc || (o->rebalance && !o->io_floor && (rc = run_rebalance(&pl))))   /* --mode rebalance */
		goto out;
	r->nodes = s->nnodes;
	for (int i = 0; i < s->npods; i++) {
		const pod_out *po = &pl.out[i];
		int was_bound = s->pods[i].orig_node >= 0;
		if (po->action == A_KEEP)   /* the 'keep' rows: not victims, not moved by rebalance */
			r->kept++;
		else if (po->action == A_BIND && was_bound)
			r->moved++;
		else if (po->action == A_BIND) {
			r->bound++;
			int64_t from = s->pods[i].moved_from;
			r->stayed += from && s->node_db_id[po->node] == from;
		}
		else if (po->action == A_EVICTED || (po->action == A_UNSCHED && was_bound))
			r->evicted++;
		else if (po->action == A_UNSCHED)
			r->unschedulable++;
	}
	long broken = 0;
	for (int i = 0; i < pl.nev; i++)
		broken += pl.ev[i].violated;
	if (broken)
		add_warning(r, "pdb: %ld eviction(s) break a PodDisruptionBudget, as kube-scheduler does when no candidate "
			       "node avoids it (eviction.pdb_violated)", broken);
	if (pvc)
		add_warning(r, "volumes: %ld pending pod(s) use PersistentVolumeClaims: volume binding and limits are not "
			       "modelled, they were placed as if they had no volumes", pvc);
	if (missing_pc)
		add_warning(r, "priorityclass: %ld pending pod(s) name a PriorityClass that was not imported: priority 0 "
			       "used (the API server would reject them)", missing_pc);
	if (s->warn_unknown_node)
		add_warning(r, "unknown-node: %d pod(s) are bound to nodes that were not imported: they take no room",
			    s->warn_unknown_node);
	if (other_sched)
		add_warning(r, "scheduler: %ld pending pod(s) name a schedulerName no profile has: left alone", other_sched);
	if (not_run)
		add_warning(r, "config: %ld pending pod(s) not planned: an imported profile of theirs kplan cannot run (the "
			       "pods' messages say why; run.config notRun)", not_run);
	(void)gated;
	r->t_schedule = kp_now() - t0 - r->t_load - r->t_static;
	if ((o->on_pod || o->on_node) && (rc = report_results(&pl)))
		goto out;
	if (!o->dry_run || o->on_quality) {
		/* a dry run with on_quality is written too, in its transaction
		 * (rolled back below), for its plan_quality and plan_stranded rows,
		 * into TEMP tables that shadow the main ones */
		if (o->dry_run)
			rc = kp_quality_dry_tables(db, err);
		if (!rc)
			rc = write_run(&pl, r, t0);
		if (!rc && o->dry_run)
			rc = o->on_quality(o->result_ctx, db, r->run_id);
	}
	if (!o->dry_run) {
		if (!rc)
			rc = kp_whatif_record(db, o->whatif, r->run_id, err);
		if (!rc && o->rebalance)
			rc = kp_rebalance_write(db, o->rebalance, &pl.s, r->run_id, err);
		r->t_write = kp_now() - t0 - r->t_load - r->t_static - r->t_schedule;
		if (getenv("KPLAN_TIMING"))
			fprintf(stderr, "kplan: timing: load %.3f s, static filters %.3f s, scheduling %.3f s, write %.3f s\n",
				r->t_load, r->t_static, r->t_schedule, r->t_write);
	}
	if (!rc)
		r->elapsed = kp_now() - t0;
	if (!rc && !o->dry_run && o->before_commit && o->before_commit(o->commit_ctx, r))
		rc = kp_err_set(err, KP_IO, "error writing output");
out:
	if (o->whatif)
		kp_whatif_cleanup(db);
	if (o->dry_run && o->on_quality)
		kp_quality_dry_drop(db);
	if (rc || o->dry_run)
		kp_db_rollback(db);
	else
		rc = kp_db_commit(db, err);
	teardown(&pl);
	return rc;
}
