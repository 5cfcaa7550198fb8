/*
 * plan.c — one plan run (see plan.h): kube-scheduler's scheduling cycle for
 * every pending pod, in queue order, on the in-memory snapshot.
 *
 *  1. load the snapshot, the profiles (--config, else the latest imported
 *     KubeSchedulerConfiguration, else kube's defaults) and evaluate the
 *     static filters in SQL once per scheduling class;
 *  2. queue: priority (high first), creationTimestamp, import order
 *     (PrioritySort; kube-scheduler-semantics.md §3) — a binary heap, here;
 *  3. per pod one scheduling cycle (plan_cycle.c): PreFilter, Filter,
 *     Score, bind; or the FitError and preemption (kube-scheduler-semantics.md §1, §8);
 *  4. batch retry (kube-scheduler-semantics.md §12): when the queue is drained, pods that
 *     failed before a later binding are tried again, in queue order, until a
 *     pass binds nothing; then --mode rebalance's moves, if asked;
 *  5. write run, placement, pod_failure and run_warning in one transaction
 *     (plan_write.c), or roll back a dry run.
 *
 * Here too: a profile's NodeAffinityArgs.addedAffinity, parsed for each
 * cycle.  What the files share is plan_int.h.
 */
#include "plan_int.h"
#include "../common/kube_db.h"
#include "gpu_frag.h"
#include "dra.h"
#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "static.h"
#include "extender.h"
#include "whatif.h"
#include "quality.h"
#include "rebalance.h"
#include "../common/db.h"
#include "../common/json.h"
#include "../common/suggest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- configuration: NodeAffinityArgs.addedAffinity ---- */

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
		return kp_plan_nomem(pl);
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
				return kp_plan_nomem(pl);
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
					return kp_plan_nomem(pl);
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

/* kp_plan_added_affinity (plan_int.h) */
int kp_plan_added_affinity(planner *pl, const kp_profile *pf)
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

/* ---- the queue ---- */

/* PrioritySort for the initial order (kp_sort): DaemonSet pods first, then
 * priority (high first), creation time, import order */
int kp_plan_queue_less(const void *a, const void *b, void *ctx)
{
	const planner *sort_pl = ctx;
	const kp_snap *s = &sort_pl->s;
	const kp_pod *x = &s->pods[*(const int32_t *)a], *y = &s->pods[*(const int32_t *)b];
	if ((x->daemon_node >= 0) != (y->daemon_node >= 0))
		return x->daemon_node >= 0 ? -1 : 1;
	int64_t px = s->classes[x->cls].priority, py = s->classes[y->cls].priority;
	if (px != py)
		return px > py ? -1 : 1;
	/* re-created by a what-if move: created now, after every pod before */
	if (x->requeued != y->requeued)
		return x->requeued ? 1 : -1;
	if (x->created != y->created)
		return x->created < y->created ? -1 : 1;
	/* pods a what-if scenario made (negative ids) come after the imported ones */
	if ((x->db_id < 0) != (y->db_id < 0))
		return x->db_id < 0 ? 1 : -1;
	return (x->db_id > y->db_id) - (x->db_id < y->db_id);
}

/* the heap's order: as queue_less, with the order a pod was queued last */
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
	if (x->requeued != y->requeued)
		return y->requeued;
	if (x->created != y->created)
		return x->created < y->created;
	return pl->order[a] < pl->order[b];
}

int kp_plan_queue_push(planner *pl, int32_t pi)
{
	if (KP_GROW(pl->queue, pl->nqueue, pl->cap_queue, 64))
		return kp_plan_nomem(pl);
	pl->queue[pl->nqueue++] = pi;
	return KP_OK;
}

int kp_plan_heap_push(planner *pl, int32_t pi)
{
	if (KP_GROW(pl->heap, pl->nheap, pl->cap_heap, 1024))
		return KP_NOMEM;
	int i = pl->nheap++;
	pl->heap[i] = pi;
	kp_gang_heap_pushed(pl, pi);
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

/* ---- SQL extenders and rebalance ---- */

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
		return kp_plan_nomem(pl);
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

/* --mode rebalance (rebalance.h): the host's place and undo */
static int rb_undo(void *ctx, int32_t pi, int32_t node)
{
	planner *pl = ctx;
	pod_out *po = &pl->out[pi];
	if (pl->s.pods[pi].node >= 0) {
		kp_snap_remove_pod(&pl->s, pi);
		if (kp_dra_release_owned(&pl->s, pi))   /* what it took where it went */
			return kp_plan_nomem(pl);
	}
	/* its own claims allocated on its node again */
	if (kp_dra_restore(&pl->s, pi, node, &pl->cy) || kp_snap_add_pod(&pl->s, pi, node))
		return kp_plan_nomem(pl);
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
	/* an evicted pod's own claims go with it: the re-created pod's are allocated anew */
	if (kp_dra_release_owned(s, pi))
		return kp_plan_nomem(pl);
	/* no node it may go to has room for its requests (and its GPUs as
	 * devices): the cycle would fail on NodeResourcesFit or DynamicResources
	 * alone; skip it (same outcome, decision order kept) */
	const kp_class *c = &s->classes[s->pods[pi].cls];
	int room = 0;
	for (int n = 0; n < s->nnodes && !room; n++)
		room = !(avoid && avoid[n]) &&
		       kp_plan_requests_fit(s, c, &pl->cfg.profiles[prof], n, &s->used[(size_t)n * (size_t)s->nres], s->node_npods[n]) &&
		       kp_gpus_room(s, pi, n);
	if (!room && !pl->o->reference) {
		pl->out[pi].last_bind_stamp = pl->binds;
		pl->out[pi].seq = ++pl->seq;
		return rb_undo(pl, pi, from);
	}
	pl->avoid = avoid;
	int rc = kp_plan_schedule_one(pl, pi, pl->prof_of_class[pl->s.pods[pi].cls]);
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
		return kp_plan_nomem(pl);
	for (int i = 0; i < s->npods; i++)
		movable[i] = pl->out[i].action == A_KEEP && s->pods[i].orig_node >= 0 && s->pods[i].node >= 0 &&
			     pl->prof_of_class[s->pods[i].cls] >= 0 && !kp_gang_member(pl, i);   /* never split a gang */
	pl->preemption = 0;   /* a move never preempts */
	kp_rb_host h = { s, pl->pdb_allowed, movable, pl, rb_place, rb_undo };
	int rc = kp_rebalance_run(pl->o->rebalance, &h, pl->err);
	kp_free(movable);
	return rc;
}

/* ---- the run ---- */

void kp_plan_warn(kp_plan_result *r, const char *fmt, ...)
{
	if (r->nwarnings == KP_PLAN_MAX_WARNINGS) {   /* the last one says so */
		snprintf(r->warnings[KP_PLAN_MAX_WARNINGS - 1], sizeof r->warnings[0],
			 "warnings: more than %d warnings; the others are left out", KP_PLAN_MAX_WARNINGS - 1);
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->nwarnings++], sizeof r->warnings[0], fmt, ap);
	va_end(ap);
}

/* everything the run holds, also after a failure part way */
static void teardown(planner *pl)
{
	kp_plan_cycle_release(pl);
	kp_gang_release(pl);
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
	kp_free(pl->created0);
	kp_snap_release(&pl->s);
	kp_config_release(&pl->cfg);
}


/* pending pods kplan does not plan or plans with a caveat, for the warnings */
typedef struct pod_counts {
	long gated, volumes, claims, missing_pc, other_sched, not_run;
	int volumes_partial;         /* out of memory reading pod_volume: counted from the classes only */
	int claims_partial;          /* out of memory reading pod_resource_claim */
} pod_counts;

/* The pod ids sql returns, sorted, into *ids (the caller frees it): the
 * pods with rows in pod_volume or pod_resource_claim.  0, or -1 out of
 * memory; a database without the table (imported before it was) has none. */
static int pod_ids(sqlite3 *db, const char *sql, int64_t **ids, size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	*ids = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	int rc = 0;
	while (sqlite3_step(st) == SQLITE_ROW)
		if (KP_GROW(*ids, *n, cap, 256)) {
			rc = -1;
			break;
		} else {
			(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
		}
	sqlite3_finalize(st);
	return rc;
}

/* the run's per-pod and per-class arrays; each class's profile */
static int alloc_run(planner *pl)
{
	kp_snap *s = &pl->s;
	pl->out = kp_calloc((size_t)(s->npods ? s->npods : 1), sizeof *pl->out);
	pl->queue = kp_malloc((size_t)(s->npods ? s->npods : 1) * sizeof *pl->queue);
	pl->prof_of_class = kp_malloc((size_t)(s->nclasses ? s->nclasses : 1) * sizeof *pl->prof_of_class);
	pl->next_start = kp_calloc((size_t)pl->cfg.nprofiles, sizeof *pl->next_start);
	if (!pl->out || !pl->queue || !pl->prof_of_class || !pl->next_start)
		return kp_plan_nomem(pl);
	for (int i = 0; i < s->nclasses; i++) {
		pl->prof_of_class[i] = -1;
		for (int k = 0; k < pl->cfg.nprofiles && pl->prof_of_class[i] < 0; k++)
			if (!strcmp(pl->cfg.profiles[k].scheduler_name, kp_str(&s->strs, s->classes[i].sched)))
				pl->prof_of_class[i] = k;
	}
	return KP_OK;
}

/* Every pod's first outcome: finished or bound to a node that is gone
 * (done), bound (keep), for no profile kplan runs (ignored), gated, or
 * pending: on the queue, its class marked needed. */
static void triage_pods(planner *pl, kp_plan_result *r, pod_counts *n)
{
	kp_snap *s = &pl->s;
	int64_t *vol;
	size_t nvol;
	n->volumes_partial = pod_ids(pl->db, kp_sql_plan_volume_pods, &vol, &nvol) != 0;
	int64_t *dra;
	size_t ndra;
	n->claims_partial = pod_ids(pl->db, kp_sql_plan_dra_pods, &dra, &ndra) != 0;
	for (int i = 0; i < s->npods; i++) {
		kp_pod *p = &s->pods[i];
		pod_out *po = &pl->out[i];
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
		if (pl->prof_of_class[p->cls] < 0) {
			po->action = A_IGNORED;
			r->ignored++;
			/* an imported profile kplan cannot run has its reason (config_merge.c) */
			const char *why = kp_config_skipped(&pl->cfg, kp_str(&s->strs, c->sched));
			kp_sb msg;
			kp_sb_init(&msg);
			if (why)
				kp_sb_printf(&msg, "not planned: %s", why);
			else
				kp_sb_printf(&msg, "not planned: schedulerName '%s' matches no profile", kp_str(&s->strs, c->sched));
			po->message = msg.buf;   /* NULL when out of memory, as kp_strdup */
			n->other_sched += !why;
			n->not_run += why != NULL;
			continue;
		}
		if (c->gated) {
			po->action = A_GATED;
			po->message = kp_strdup("SchedulingGated: the pod has scheduling gates and is not scheduled");
			r->unschedulable++;
			n->gated++;
			continue;
		}
		if (c->pvc || kp_find_i64(vol, nvol, p->db_id) >= 0)
			n->volumes++;
		if (kp_find_i64(dra, ndra, p->db_id) >= 0)
			n->claims++;
		if (c->missing_pc)
			n->missing_pc++;
		c->needed = 1;
		pl->queue[pl->nqueue++] = i;
	}
	kp_free(vol);
	kp_free(dra);
}

/* static filters per profile, over the classes with pending pods it
 * schedules; every queued class has its static verdict after */
static int static_filters(planner *pl)
{
	kp_snap *s = &pl->s;
	int rc = KP_OK;
	uint8_t *pending_class = kp_calloc((size_t)(s->nclasses ? s->nclasses : 1), 1);
	if (!pending_class)
		return kp_plan_nomem(pl);
	for (int i = 0; i < s->nclasses; i++)
		pending_class[i] = s->classes[i].needed;
	for (int k = 0; k < pl->cfg.nprofiles && !rc; k++) {
		int any = 0;
		for (int i = 0; i < s->nclasses; i++) {
			s->classes[i].needed = pending_class[i] && pl->prof_of_class[i] == k;
			any |= s->classes[i].needed;
		}
		if (any && !pl->o->io_floor)
			rc = kp_static_filters(pl->db, s, &pl->cfg.profiles[k], pl->err);
	}
	kp_free(pending_class);
	if (rc)
		return rc;
	for (int q = 0; q < pl->nqueue; q++)
		if (!s->classes[s->pods[pl->queue[q]].cls].feasible && !pl->o->io_floor)
			return kp_err_set(pl->err, KP_ERROR, "internal error: class without static verdict");
	return KP_OK;
}

/* SQL extenders, per profile, over that profile's pending pods */
static int run_extenders(planner *pl)
{
	kp_snap *s = &pl->s;
	int rc = KP_OK;
	for (int k = 0; k < pl->cfg.nprofiles && !rc; k++) {
		const kp_profile *pf = &pl->cfg.profiles[k];
		if (!pf->next)
			continue;
		int32_t *mine = kp_malloc((size_t)(pl->nqueue ? pl->nqueue : 1) * sizeof *mine);
		if (!mine)
			return kp_plan_nomem(pl);
		int nm = 0;
		for (int q = 0; q < pl->nqueue; q++)
			if (pl->prof_of_class[s->pods[pl->queue[q]].cls] == k)
				mine[nm++] = pl->queue[q];
		kp_cycle tmp;
		memset(&tmp, 0, sizeof tmp);
		rc = kp_extenders_run(pl->db, s, pf, mine, nm, &tmp, pl->err);
		kp_free(mine);
		if (!rc)
			rc = merge_extender_rows(pl, &tmp);
		kp_free(tmp.ext_off);
		kp_free(tmp.ext_rows);
	}
	return rc;
}

/* queue order: PrioritySort (priority, creation time), then import order;
 * the budgets' allowances; the whole queue on the heap */
static int fill_queue(planner *pl)
{
	kp_snap *s = &pl->s;
	kp_sort(pl->queue, (size_t)pl->nqueue, sizeof *pl->queue, kp_plan_queue_less, (void *)pl);
	pl->cap_queue = pl->nqueue;
	pl->order = kp_malloc((size_t)(s->npods ? s->npods : 1) * sizeof *pl->order);
	pl->pdb_allowed = kp_malloc((size_t)(s->npdbs ? s->npdbs : 1) * sizeof *pl->pdb_allowed);
	if (!pl->order || !pl->pdb_allowed)
		return kp_plan_nomem(pl);
	for (int k = 0; k < s->npdbs; k++)
		pl->pdb_allowed[k] = s->pdbs[k].allowed;
	for (int q = 0; q < pl->nqueue; q++)
		pl->order[pl->queue[q]] = q;
	pl->next_order = pl->nqueue;
	pl->preemption = !pl->o->no_preemption;
	for (int q = 0; q < pl->nqueue; q++)
		if (kp_plan_heap_push(pl, pl->queue[q]))
			return kp_plan_nomem(pl);
	return KP_OK;
}

/* Pass 1 is the whole queue (and the replacements of evicted pods, as they
 * come); each later pass is every failed pod that failed before some later
 * binding or eviction, in queue order. */
int kp_plan_run_passes(planner *pl, kp_plan_result *r)
{
	const kp_plan_opts *o = pl->o;
	kp_snap *s = &pl->s;
	int rc = KP_OK;
	long total_attempts = 0;
	while (pl->nheap > 0 && !rc) {
		r->passes++;
		while (pl->nheap > 0 && !rc) {
			int32_t pi = heap_pop(pl);
			if (kp_gang_heap_popped(pl, pi))
				continue;   /* its group's cycle took it */
			if (kp_interrupted) {
				rc = kp_err_set(pl->err, KP_INTR, "interrupted");
				break;
			}
			if (o->io_floor) {
				/* the benchmark's I/O floor: no filtering, no scoring;
				 * pods go round-robin over the nodes */
				pl->out[pi].attempts = 1;
				pl->out[pi].seq = ++pl->seq;
				rc = s->nnodes ? kp_plan_bind_pod(pl, pi, (int)(total_attempts % s->nnodes)) : KP_OK;
			} else {
				rc = kp_gang_schedule(pl, pi, pl->prof_of_class[s->pods[pi].cls]);
			}
			total_attempts++;
			if (o->progress && total_attempts % 1000 == 0)
				o->progress(o->progress_ctx, total_attempts, pl->nqueue);
		}
		int gang_changed;   /* 1.35: gangs short of minCount time out at Permit (plan_int.h) */
		if (!rc)
			rc = kp_gang_pass_end(pl, &gang_changed);
		for (int q = 0; q < pl->nqueue && !rc; q++) {
			int32_t pi = pl->queue[q];
			if (pl->out[pi].action == A_UNSCHED && pl->out[pi].last_bind_stamp < pl->binds &&
			    kp_plan_heap_push(pl, pi))
				rc = kp_plan_nomem(pl);
		}
	}
	return rc;
}

/* the run's counts of outcomes */
void kp_plan_count_outcomes(const planner *pl, kp_plan_result *r)
{
	const kp_snap *s = &pl->s;
	r->nodes = kp_snap_nlive(s);
	for (int i = 0; i < s->npods; i++) {
		const pod_out *po = &pl->out[i];
		if (pl->hide && pl->hide[i])
			continue;
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
}

static void add_warnings(const planner *pl, kp_plan_result *r, const pod_counts *n)
{
	const kp_snap *s = &pl->s;
	long broken = 0;
	for (int i = 0; i < pl->nev; i++)
		broken += pl->ev[i].violated;
	if (broken)
		kp_plan_warn(r, "pdb: %ld eviction(s) break a PodDisruptionBudget, as kube-scheduler does when no candidate "
			       "node avoids it (eviction.pdb_violated)", broken);
	/* what kplan does not model, as far as this kube version has it
	 * (docs/kube-versions.md): gates kube.h marks 'F' that are on */
	const kp_kube *k = &s->kube;
	if (n->volumes)
		kp_plan_warn(r, "volumes: %s%ld pending pod(s) use volumes; the four volume plugins judged them; not modelled: "
			       "VolumeAttachment objects (kube 1.33+ also counts them against CSI attach limits), %s%s"
			       "CSI migration of vSphere, Azure File and Portworx volumes (docs/limits.md)",
			    n->volumes_partial ? "at least " : "", n->volumes,
			    kp_kube_on(k, KP_FG_STORAGE_CAPACITY_SCORING) ? "VolumeBinding's Score (StorageCapacityScoring, on "
									    "by default from 1.37), " : "",
			    kp_kube_on(k, KP_FG_VOLUME_LIMIT_SCALING) ? "VolumeLimitScaling (on by default from 1.37), " : "");
	if (n->claims && kp_kube_on(k, KP_FG_DYNAMIC_RESOURCE_ALLOCATION))
		kp_plan_warn(r, "dra: %s%ld pending pod(s) name ResourceClaims; DynamicResources judged them; not modelled: "
			       "%s%sits PostFilter message (docs/limits.md)",
			    n->claims_partial ? "at least " : "", n->claims,
			    kp_kube_on(k, KP_FG_DRA_DEVICE_TAINT_RULES) ? "DeviceTaintRule objects (DRADeviceTaintRules, on "
									  "by default from 1.37), " : "",
			    k->minor >= 35 ? "its Score (firstAvailable preferences, weight 2 from 1.35), " : "");
	kp_plan_kube_warnings(pl, r, n->claims);
	if (n->missing_pc)
		kp_plan_warn(r, "priorityclass: %ld pending pod(s) name a PriorityClass that was not imported: priority 0 "
			       "used (the API server would reject them)", n->missing_pc);
	if (s->warn_unknown_node)
		kp_plan_warn(r, "unknown-node: %d pod(s) are bound to nodes that were not imported: they take no room",
			    s->warn_unknown_node);
	if (n->other_sched)
		kp_plan_warn(r, "scheduler: %ld pending pod(s) name a schedulerName no profile has: left alone", n->other_sched);
	if (n->not_run)
		kp_plan_warn(r, "config: %ld pending pod(s) not planned: an imported profile of theirs kplan cannot run (the "
			       "pods' messages say why; run.config notRun)", n->not_run);
	char ext[400];
	if (kp_plan_extenders_warning(pl, ext, sizeof ext))
		kp_plan_warn(r, "extender: %s", ext);
}

/* kp_plan_dry_quality (plan_int.h) */
int kp_plan_dry_quality(planner *pl, kp_plan_result *r, double t0, int (*on_quality)(void *ctx, sqlite3 *db, int64_t run_id))
{
	int rc = kp_quality_dry_tables(pl->db, pl->err);
	if (!rc)
		rc = kp_plan_write_run(pl, r, t0);
	if (!rc)
		rc = on_quality(pl->o->result_ctx, pl->db, r->run_id);
	return rc;
}

/* After planning: the outcomes to the callbacks, the rows (a dry run with
 * on_quality too, in its transaction, for its plan_quality and
 * plan_stranded rows, into TEMP tables that shadow the main ones), the
 * scenario and the moves, the timings, and the caller's last word before
 * COMMIT. */
static int finish_run(planner *pl, kp_plan_result *r, double t0)
{
	const kp_plan_opts *o = pl->o;
	sqlite3 *db = pl->db;
	int rc = KP_OK;
	if ((o->on_pod || o->on_node) && (rc = kp_plan_report_results(pl)))
		return rc;
	if (!o->dry_run)
		rc = kp_plan_write_run(pl, r, t0);
	else if (o->on_quality)
		rc = kp_plan_dry_quality(pl, r, t0, o->on_quality);
	if (!o->dry_run) {
		if (!rc)
			rc = kp_whatif_record(db, o->whatif, r->run_id, pl->err);
		if (!rc && o->rebalance)
			rc = kp_rebalance_write(db, o->rebalance, &pl->s, r->run_id, pl->err);
		r->t_write = kp_now() - t0 - r->t_load - r->t_static - r->t_schedule;
	}
	if (!rc)
		r->elapsed = kp_now() - t0;
	if (!rc && !o->dry_run && o->before_commit && o->before_commit(o->commit_ctx, r))
		rc = kp_err_set(pl->err, KP_IO, "error writing output");
	return rc;
}

/* everything between loading and writing */
/* the GPU view (gpu_frag.h) of the cluster as loaded: its free milli
 * (capacity's lower bound), -1 without GPUs */
static int gpus_before(planner *pl, kp_plan_result *r)
{
	kp_snap *s = &pl->s;
	r->gpu_free_before = -1;
	if (!s->dra)
		return KP_OK;
	if (kp_gpus_init(s))
		return kp_plan_nomem(pl);
	int64_t free_ = 0;
	int gpus = 0;
	for (int n = 0; n < s->nnodes; n++) {
		int k;
		free_ += kp_gpus_node_free(s, n, &k);
		gpus += k;
	}
	if (gpus)
		r->gpu_free_before = free_;
	return KP_OK;
}

static int plan_pods(planner *pl, kp_plan_result *r, double t0)
{
	const kp_plan_opts *o = pl->o;
	pod_counts n = { 0 };
	int rc = alloc_run(pl);
	if (rc)
		return rc;
	triage_pods(pl, r, &n);
	if ((rc = kp_gang_setup(pl, r)) || (rc = static_filters(pl)))
		return rc;
	if ((rc = gpus_before(pl, r)))
		return rc;
	r->t_static = kp_now() - t0 - r->t_load;
	if ((rc = kp_plan_cycle_setup(pl)) || (rc = run_extenders(pl)) || (rc = fill_queue(pl)) ||
	    (rc = kp_plan_run_passes(pl, r)))
		return rc;
	if (o->rebalance && !o->io_floor && (rc = run_rebalance(pl)))   /* --mode rebalance */
		return rc;
	kp_plan_count_outcomes(pl, r);
	add_warnings(pl, r, &n);
	kp_gang_warnings(pl, r);
	r->t_schedule = kp_now() - t0 - r->t_load - r->t_static;
	r->cycles = pl->ncycles;
	r->bucket_cycles = pl->nbucket;
	return KP_OK;
}

int kp_plan_nodes_to_score(const char *text, int *pct, kp_err *err)
{
	if (!strcmp(text, "all")) {
		*pct = -1;
		return KP_OK;
	}
	if (!strcmp(text, "adaptive")) {
		*pct = 0;
		return KP_OK;
	}
	char *end;
	long v = strtol(text, &end, 10);
	if (end == text || *end || v < 1 || v > 100)
		return kp_err_set(err, KP_USAGE, "--nodes-to-score: '%s' is not all, adaptive or a percentage 1..100", text);
	*pct = (int)v;
	return KP_OK;
}

int kp_plan_tie_break(const char *text, int *rank, kp_err *err)
{
	static const char *const names[] = { "random", "node-rank" };
	for (int i = 0; i < 2; i++)
		if (!strcmp(text, names[i])) {
			*rank = i;
			return KP_OK;
		}
	const char *near = kp_closest(text, names, 2);
	return kp_err_set(err, KP_USAGE, "--tie-break: '%s' is not random or node-rank%s%s%s", text,
			  near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
}

/* --nodes-to-score over every profile's percentageOfNodesToScore, and
 * --tie-break over every profile's (after the what-if strategy: it overrides
 * fgd's node-rank); r->tie_rank says whether some profile ranks */
static int apply_run_options(const kp_plan_opts *o, kp_config *cfg, kp_plan_result *r, kp_err *err)
{
	int pct, rank;
	if (o->nodes_to_score && kp_plan_nodes_to_score(o->nodes_to_score, &pct, err))
		return KP_USAGE;
	if (o->tie_break && kp_plan_tie_break(o->tie_break, &rank, err))
		return KP_USAGE;
	r->tie_rank = 0;
	for (int i = 0; i < cfg->nprofiles; i++) {
		if (o->nodes_to_score)
			cfg->profiles[i].pct_nodes_to_score = pct;
		if (o->tie_break)
			cfg->profiles[i].tie_rank = rank;
		r->tie_rank |= cfg->profiles[i].tie_rank;
	}
	return KP_OK;
}

/* kp_plan_run's and kp_plan_open's run in its transaction: the kube
 * version, the configuration (o's what-if and run options over it), the
 * snapshot, then the plan and its outcomes; created0 (kp_plan_open): each
 * pod's creation time as loaded kept */
static int load_and_plan(planner *pl, kp_plan_result *r, double t0, int created0)
{
	const kp_plan_opts *o = pl->o;
	sqlite3 *db = pl->db;
	kp_err *err = pl->err;
	kp_kube kube;
	int rc;
	if ((rc = kp_kube_resolve(db, o->kube_version, o->feature_gates, o->kube_exact, &kube, err)) ||
	    (rc = kp_config_load(db, o->config_file, &kube, &pl->cfg, err)) || (rc = kp_whatif_apply(db, o->whatif, &pl->cfg, err)) ||
	    (rc = apply_run_options(o, &pl->cfg, r, err)) || (rc = kp_snap_load(db, &pl->s, &kube, err)))
		return rc;
	r->t_load = kp_now() - t0;
	snprintf(r->config_source, sizeof r->config_source, "%s", pl->cfg.source);
	r->kube = kube;
	if (created0) {
		pl->created0 = kp_malloc((size_t)(pl->s.npods ? pl->s.npods : 1) * sizeof *pl->created0);
		if (!pl->created0)
			return kp_plan_nomem(pl);
		for (int i = 0; i < pl->s.npods; i++)
			pl->created0[i] = pl->s.pods[i].created;
	}
	if (!(rc = plan_pods(pl, r, t0)))
		rc = finish_run(pl, r, t0);
	return rc;
}

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
	rc = load_and_plan(&pl, r, t0, 0);
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

/* kp_plan_open (plan_int.h): kp_plan_run's dry run without what-if, whose
 * planner stays (in its read transaction) for kp_plan_close */
int kp_plan_open(sqlite3 *db, const kp_plan_opts *o, kp_plan_result *r, planner **out, kp_err *err)
{
	*out = NULL;
	memset(r, 0, sizeof *r);
	if (!o->dry_run || o->whatif || o->rebalance || o->on_quality)
		return kp_err_set(err, KP_ERROR, "internal error: kp_plan_open takes a plain dry run");
	planner *pl = kp_calloc(1, sizeof *pl);
	if (!pl)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	pl->db = db;
	pl->o = o;
	pl->err = err;
	double t0 = kp_now();
	int rc = kp_db_begin_read(db, err);
	if (rc) {
		kp_free(pl);
		return rc;
	}
	rc = load_and_plan(pl, r, t0, 1);
	if (rc) {
		kp_plan_close(pl);
		return rc;
	}
	*out = pl;
	return KP_OK;
}

void kp_plan_close(planner *pl)
{
	if (!pl)
		return;
	kp_db_rollback(pl->db);
	teardown(pl);
	kp_free(pl);
}
