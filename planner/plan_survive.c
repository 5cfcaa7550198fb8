/*
 * plan_survive.c — kp_survive (survive.h): the baseline's planner kept, and
 * per domain the plan of its end state without the domain's nodes, undone
 * after.
 *
 * rebase: the planner's end state becomes the state a fresh plan of it
 * (`plan --from-run`) loads: pods it placed are bound there (orig_node),
 * its victims without a controller are gone (hidden), those with one and
 * the pods it left unschedulable are pending, with the creation times they
 * were loaded with; pod lists per node in pod order, as a load leaves them.
 *
 * eval: the domain's nodes are gone (kp_snap.gone: never filtered, not
 * counted in "0/N nodes", spread's domains, ImageLocality's spread); its
 * DaemonSet, static and terminating pods, and pending DaemonSet pods made
 * for it, are hidden (gone with it); its other pods pending, taken off
 * those nodes (moved_from).  The run's state is a fresh run's (queue in
 * PrioritySort order, budgets as the disruption controller computes them
 * now, no evictions, no nominations of a gone node), the passes run
 * (kp_plan_run_passes), the outcomes are reported.  undo: every pod back on
 * its node of the rebased state, the per-pod state as it was.
 */
#include "plan_int.h"
#include "survive.h"
#include "quality.h"
#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */

#include <string.h>

struct kp_survive {
	planner *pl;
	int32_t *base_node, *base_orig;       /* per pod, in the rebased state */
	uint8_t *base_action;                 /* A_EVICTED: a victim no controller re-creates, gone (hide) */
	kp_sid *base_nominated;
	uint8_t *hide;                        /* per pod: gone (victims of the baseline; with the domain) */
	int32_t *pending;                     /* pods pending in the rebased state, in pod order */
	int npending;
	uint8_t *gone;                        /* per node */
	int32_t *lost;                        /* the domain's nodes (gone), ascending */
	int nlost;
	int32_t *fixup;                       /* nodes whose pod lists are sorted again after undo */
	int nfixup;
	uint8_t *in_fixup;
	int32_t *hidden;                      /* pods the domain hid, or took off a node and did not queue */
	int nhidden;
	int32_t *nominated;                   /* pods with status.nominatedNodeName */
	int32_t *nominated_node;              /* per pod of nominated: the node it names, -1 none */
	int nnominated;
	int32_t *gated;                       /* pods with scheduling gates: reported (unschedulable) every time */
	int ngated;
	int images;                           /* some node lists images (ImageLocality reads the nodes left) */
	int32_t *pdb_members;                 /* per computed PDB k the pods it selects, */
	int *pdb_start;                       /* pdb_members[pdb_start[k]..pdb_start[k + 1]) */
};

static void sort_node_pods(kp_snap *s, int n)
{
	kp_sort(s->node_pods[n], s->nnode_pods[n], sizeof(int32_t), kp_cmp_i32, NULL);
}

/* a pod's outcome as triage leaves a pod it queues */
static void fresh_out(pod_out *po, uint8_t action)
{
	kp_free(po->message);
	kp_free(po->fails);
	memset(po, 0, sizeof *po);
	po->action = action;
	po->node = po->evicted_from = po->evicted_by = po->nominated = -1;
}

/* what the evaluation does not model; NULL none */
static const char *unsupported(const planner *pl)
{
	const kp_snap *s = &pl->s;
	if (s->st)
		return "volumes (PersistentVolumeClaims or CSI attach limits)";
	if (s->dra)
		return "Dynamic Resource Allocation (ResourceClaims or ResourceSlices)";
	if (pl->gangs.n)
		return "gang scheduling (PodGroups)";
	for (int k = 0; k < pl->cfg.nprofiles; k++) {
		const kp_profile *pf = &pl->cfg.profiles[k];
		if (pf->next || pf->hext)
			return "scheduler extenders";
		if (pf->pct_nodes_to_score >= 0)
			return "percentageOfNodesToScore";
	}
	return NULL;
}

/* per PDB whose allowance is computed, the pods it selects (kp_snap_pdb_selects:
 * what does not change from one domain to the next) */
static int pdb_members(kp_survive *sv)
{
	kp_snap *s = &sv->pl->s;
	sv->pdb_start = kp_calloc((size_t)s->npdbs + 1, sizeof *sv->pdb_start);
	if (!sv->pdb_start)
		return kp_plan_nomem(sv->pl);
	int n = 0, cap = 0;
	for (int k = 0; k < s->npdbs; k++) {
		for (int32_t i = 0; i < s->npods && !s->pdbs[k].from_status; i++) {
			if (!kp_snap_pdb_selects(s, &s->pdbs[k], i))
				continue;
			if (KP_GROW(sv->pdb_members, n, cap, 64))
				return kp_plan_nomem(sv->pl);
			sv->pdb_members[n++] = i;
		}
		sv->pdb_start[k + 1] = n;
	}
	return KP_OK;
}

static int rebase(kp_survive *sv)
{
	planner *pl = sv->pl;
	kp_snap *s = &pl->s;
	int np = s->npods ? s->npods : 1;
	sv->base_node = kp_malloc((size_t)np * sizeof *sv->base_node);
	sv->base_orig = kp_malloc((size_t)np * sizeof *sv->base_orig);
	sv->base_action = kp_malloc((size_t)np);
	sv->base_nominated = kp_malloc((size_t)np * sizeof *sv->base_nominated);
	sv->hide = kp_calloc((size_t)np, 1);
	sv->pending = kp_malloc((size_t)np * sizeof *sv->pending);
	sv->gone = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), 1);
	sv->lost = kp_malloc((size_t)(s->nnodes ? s->nnodes : 1) * sizeof *sv->lost);
	sv->fixup = kp_malloc((size_t)(s->nnodes ? s->nnodes : 1) * sizeof *sv->fixup);
	sv->in_fixup = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), 1);
	sv->hidden = kp_malloc((size_t)np * sizeof *sv->hidden);
	sv->nominated = kp_malloc((size_t)np * sizeof *sv->nominated);
	sv->nominated_node = kp_malloc((size_t)np * sizeof *sv->nominated_node);
	sv->gated = kp_malloc((size_t)np * sizeof *sv->gated);
	if (!sv->base_node || !sv->base_orig || !sv->base_action || !sv->base_nominated || !sv->hide ||
	    !sv->pending || !sv->gone || !sv->lost || !sv->fixup || !sv->in_fixup || !sv->hidden || !sv->nominated ||
	    !sv->nominated_node || !sv->gated)
		return kp_plan_nomem(pl);
	for (int i = 0; i < s->npods; i++) {
		kp_pod *p = &s->pods[i];
		pod_out *po = &pl->out[i];
		p->created = pl->created0[i];
		p->evictions = 0;
		p->no_victim = 0;
		if (po->action == A_BIND) {
			p->orig_node = po->node;
			fresh_out(po, A_KEEP);
		} else if (po->action == A_UNSCHED) {
			p->orig_node = -1;   /* pending: left unschedulable, or a victim its controller re-creates */
			sv->pending[sv->npending++] = i;
		} else if (po->action == A_EVICTED) {
			sv->hide[i] = 1;   /* a victim no controller re-creates: gone */
		} else if (po->action == A_KEEP) {
			fresh_out(po, A_KEEP);
		} else if (po->action == A_GATED) {
			sv->gated[sv->ngated++] = i;
		}
		sv->base_node[i] = p->node;
		sv->base_orig[i] = p->orig_node;
		sv->base_action[i] = po->action;
		sv->base_nominated[i] = p->nominated;
		if (p->nominated >= 0) {
			int32_t nn = -1;
			for (int n = 0; n < s->nnodes && nn < 0; n++)
				if (s->node_name[n] == p->nominated)
					nn = n;
			sv->nominated_node[sv->nnominated] = nn;
			sv->nominated[sv->nnominated++] = i;
		}
	}
	for (int n = 0; n < s->nnodes; n++)
		sort_node_pods(s, n);
	for (int k = 0; k < pl->nev; k++)
		kp_free(pl->ev[k].pdbs);
	pl->nev = 0;
	for (int n = 0; n < s->nnodes && !sv->images; n++)
		sv->images = s->nimages[n] > 0;
	s->gone = sv->gone;   /* a class first queued later gets its static verdicts then (begin_cycle) */
	pl->hide = sv->hide;
	pl->report_changed = 1;   /* from now on each domain's plan: the outcomes that differ */
	return pdb_members(sv);
}

int kp_survive_open(sqlite3 *db, const kp_plan_opts *o, kp_plan_result *r, kp_survive **out, const char **why,
		    kp_err *err)
{
	*out = NULL;
	*why = NULL;
	kp_survive *sv = kp_calloc(1, sizeof *sv);
	if (!sv)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	int rc = kp_plan_open(db, o, r, &sv->pl, err);
	if (!rc && !(*why = unsupported(sv->pl)))
		rc = rebase(sv);
	if (rc) {
		kp_survive_close(sv);
		return rc;
	}
	*out = sv;
	return KP_OK;
}

void kp_survive_close(kp_survive *sv)
{
	if (!sv)
		return;
	if (sv->pl) {
		sv->pl->s.gone = NULL;
		sv->pl->hide = NULL;
		kp_plan_close(sv->pl);
	}
	kp_free(sv->base_node);
	kp_free(sv->base_orig);
	kp_free(sv->base_action);
	kp_free(sv->base_nominated);
	kp_free(sv->hide);
	kp_free(sv->pending);
	kp_free(sv->gone);
	kp_free(sv->lost);
	kp_free(sv->fixup);
	kp_free(sv->in_fixup);
	kp_free(sv->hidden);
	kp_free(sv->nominated);
	kp_free(sv->nominated_node);
	kp_free(sv->gated);
	kp_free(sv->pdb_members);
	kp_free(sv->pdb_start);
	kp_free(sv);
}

/* node n is gone (delta -1) or back (1): its images leave ImageLocality's
 * spread; the node changed (kp_snap_touch: the planner's caches read it
 * again).  See nodes_changed for the other nodes. */
static void node_gone(kp_snap *s, int n, int delta)
{
	s->gone[n] = (uint8_t)(delta < 0);
	s->ngone -= delta;
	s->gone_gen++;
	kp_snap_touch(s, n);
	for (uint32_t k = 0; k < s->nimages[n]; k++)
		if (s->image_names[n][k] >= 0 && s->image_names[n][k] < s->image_nodes_len)
			s->image_nodes[s->image_names[n][k]] += delta;
}

/* nodes went or came back: when some node lists images, every node
 * changed (ImageLocality's score of every node divides by the nodes left,
 * whichever went, and reads the spread) */
static void nodes_changed(kp_survive *sv)
{
	kp_snap *s = &sv->pl->s;
	if (sv->images)
		for (int m = 0; m < s->nnodes; m++)
			kp_snap_touch(s, m);
}

static int queue_pod(kp_survive *sv, int32_t pi)
{
	planner *pl = sv->pl;
	kp_snap *s = &pl->s;
	const kp_class *c = &s->classes[s->pods[pi].cls];
	if (pl->prof_of_class[s->pods[pi].cls] < 0 || c->gated) {
		/* as triage: a scheduler kplan does not run, or scheduling gates */
		fresh_out(&pl->out[pi], c->gated ? A_GATED : A_IGNORED);
		sv->hidden[sv->nhidden++] = pi;   /* for undo */
		pl->out[pi].message = kp_strdup(c->gated ? "SchedulingGated: the pod has scheduling gates and is not scheduled"
							 : "not planned: its schedulerName matches no profile kplan runs");
		return pl->out[pi].message ? KP_OK : kp_plan_nomem(pl);
	}
	fresh_out(&pl->out[pi], A_KEEP);
	return kp_plan_queue_push(pl, pi);
}

/* the domain's nodes gone, their pods hidden or pending, the queue */
static int take_nodes(kp_survive *sv)
{
	planner *pl = sv->pl;
	kp_snap *s = &pl->s;
	pl->nqueue = 0;
	int rc = KP_OK;
	for (int k = 0; k < sv->nlost && !rc; k++) {
		int n = sv->lost[k];
		while (s->nnode_pods[n] && !rc) {
			int32_t pi = s->node_pods[n][s->nnode_pods[n] - 1];
			kp_pod *p = &s->pods[pi];
			kp_snap_remove_pod(s, pi);
			if (kp_snap_pod_per_node(s, p) || p->terminating) {
				sv->hide[pi] = 1;   /* goes with its node */
				sv->hidden[sv->nhidden++] = pi;
				continue;
			}
			p->orig_node = -1;
			p->moved_from = s->node_db_id[n];
			rc = queue_pod(sv, pi);
		}
	}
	for (int k = 0; k < sv->npending && !rc; k++) {
		int32_t pi = sv->pending[k];
		if (s->pods[pi].daemon_node >= 0 && s->gone[s->pods[pi].daemon_node]) {
			sv->hide[pi] = 1;   /* a pending DaemonSet pod made for a gone node */
			sv->hidden[sv->nhidden++] = pi;
		} else {
			rc = queue_pod(sv, pi);
		}
	}
	for (int k = 0; k < sv->nnominated; k++)
		if (sv->nominated_node[k] >= 0 && s->gone[sv->nominated_node[k]])
			s->pods[sv->nominated[k]].nominated = -1;   /* what-if remove-nodes clears it */
	return rc;
}

/* a fresh run's state over the queue */
static int start_run(kp_survive *sv)
{
	planner *pl = sv->pl;
	kp_snap *s = &pl->s;
	kp_sort(pl->queue, (size_t)pl->nqueue, sizeof *pl->queue, kp_plan_queue_less, pl);
	for (int q = 0; q < pl->nqueue; q++)
		pl->order[pl->queue[q]] = q;
	pl->next_order = pl->nqueue;
	pl->binds = 0;
	pl->seq = 0;
	pl->nheap = 0;
	pl->preemption = !pl->o->no_preemption;
	memset(pl->next_start, 0, (size_t)pl->cfg.nprofiles * sizeof *pl->next_start);
	static const int32_t none[1];
	for (int k = 0; k < s->npdbs; k++) {
		const int32_t *m = sv->pdb_members ? sv->pdb_members + sv->pdb_start[k] : none;
		pl->pdb_allowed[k] = s->pdbs[k].from_status ? s->pdbs[k].allowed
			: kp_snap_pdb_computed(s, &s->pdbs[k], sv->hide, m, sv->pdb_start[k + 1] - sv->pdb_start[k]);
	}
	for (int q = 0; q < pl->nqueue; q++)
		if (kp_plan_heap_push(pl, pl->queue[q]))
			return kp_plan_nomem(pl);
	return KP_OK;
}

static void fixup_node(kp_survive *sv, int n)
{
	if (!sv->in_fixup[n]) {
		sv->in_fixup[n] = 1;
		sv->fixup[sv->nfixup++] = n;
	}
}

/* pod pi as in the rebased state, but where it is */
static void undo_pod(kp_survive *sv, int32_t pi)
{
	planner *pl = sv->pl;
	kp_pod *p = &pl->s.pods[pi];
	p->orig_node = sv->base_orig[pi];
	p->moved_from = 0;
	p->created = pl->created0[pi];
	p->evictions = 0;
	p->no_victim = 0;
	sv->hide[pi] = sv->base_action[pi] == A_EVICTED;
	pod_out *po = &pl->out[pi];
	if (po->action != sv->base_action[pi] || po->node >= 0)
		fresh_out(po, sv->base_action[pi]);
}

/* The pods the run may have changed, once each, ascending, in
 * pl->queue[0..*n): those it queued (the lost domain's, the pending ones,
 * victims re-created), evicted (pl->ev), hid or set aside; with the gated
 * pods, the pods without a node that are reported.  The others were not
 * touched, and are kept where they were. */
static int touched(kp_survive *sv, int *n)
{
	planner *pl = sv->pl;
	for (int k = 0; k < pl->nev + sv->nhidden + sv->ngated; k++) {
		int32_t pi = k < pl->nev ? pl->ev[k].pod : k < pl->nev + sv->nhidden ? sv->hidden[k - pl->nev]
						  : sv->gated[k - pl->nev - sv->nhidden];
		if (kp_plan_queue_push(pl, pi))
			return KP_NOMEM;
	}
	kp_sort(pl->queue, (size_t)pl->nqueue, sizeof *pl->queue, kp_cmp_i32, NULL);
	int m = 0;
	for (int k = 0; k < pl->nqueue; k++)
		if (!m || pl->queue[k] != pl->queue[m - 1])
			pl->queue[m++] = pl->queue[k];
	pl->nqueue = *n = m;
	return KP_OK;
}

/* the rebased state again over the nv touched pods v */
static int undo(kp_survive *sv, const int32_t *v, int nv)
{
	planner *pl = sv->pl;
	kp_snap *s = &pl->s;
	for (int k = 0; k < pl->nev; k++)
		kp_free(pl->ev[k].pdbs);
	pl->nev = 0;
	sv->nhidden = 0;
	for (int k = 0; k < nv; k++)
		if (s->pods[v[k]].node >= 0 && s->pods[v[k]].node != sv->base_node[v[k]])
			kp_snap_remove_pod(s, v[k]);
	for (int k = 0; k < nv; k++) {
		int32_t pi = v[k];
		if (s->pods[pi].node != sv->base_node[pi] && sv->base_node[pi] >= 0 && kp_snap_add_pod(s, pi, sv->base_node[pi]))
			return kp_plan_nomem(pl);
		if (sv->base_node[pi] >= 0)
			fixup_node(sv, sv->base_node[pi]);   /* added again, or evicted and bound there again: at the end */
		undo_pod(sv, pi);
	}
	pl->nqueue = 0;
	for (int k = 0; k < sv->nnominated; k++)
		s->pods[sv->nominated[k]].nominated = sv->base_nominated[sv->nominated[k]];
	for (int k = 0; k < sv->nfixup; k++) {
		sort_node_pods(s, sv->fixup[k]);
		sv->in_fixup[sv->fixup[k]] = 0;
	}
	sv->nfixup = 0;
	for (int k = 0; k < sv->nlost; k++)
		node_gone(s, sv->lost[k], 1);
	if (sv->nlost)
		nodes_changed(sv);
	sv->nlost = 0;
	return KP_OK;
}

/* the domain's plan written to the dry-run tables, without its nodes (a
 * TEMP copy of node shadows it), for on_quality */
static int quality(kp_survive *sv, kp_plan_result *r, double t0,
		   int (*on_quality)(void *ctx, sqlite3 *db, int64_t run_id))
{
	planner *pl = sv->pl;
	kp_snap *s = &pl->s;
	sqlite3 *db = pl->db;
	int rc = KP_OK;
	if (sqlite3_exec(db, kp_sql_plan_survive_nodes, NULL, NULL, NULL) != SQLITE_OK)
		rc = kp_err_set(pl->err, KP_IO, "cannot plan (the nodes left): %s", sqlite3_errmsg(db));
	sqlite3_stmt *st = NULL;
	if (!rc && sqlite3_prepare_v2(db, kp_sql_plan_survive_node_gone, -1, &st, NULL) != SQLITE_OK)
		rc = kp_err_set(pl->err, KP_IO, "cannot plan (the nodes left): %s", sqlite3_errmsg(db));
	for (int k = 0; k < sv->nlost && !rc; k++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, s->node_db_id[sv->lost[k]]);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = kp_err_set(pl->err, KP_IO, "cannot plan (the nodes left): %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	if (!rc)
		rc = kp_plan_dry_quality(pl, r, t0, on_quality);
	sqlite3_exec(db, kp_sql_plan_survive_nodes_drop, NULL, NULL, NULL);
	kp_quality_dry_drop(db);
	return rc;
}

int kp_survive_eval(kp_survive *sv, const char *label, const char *value,
		    int (*on_quality)(void *ctx, sqlite3 *db, int64_t run_id), kp_plan_result *r)
{
	planner *pl = sv->pl;
	kp_snap *s = &pl->s;
	double t0 = kp_now();
	memset(r, 0, sizeof *r);
	if (kp_interrupted)
		return kp_err_set(pl->err, KP_INTR, "interrupted");
	kp_sid key = label ? kp_strtab_find(&s->strs, label) : -1, val = kp_strtab_find(&s->strs, value);
	for (int n = 0; n < s->nnodes && val >= 0 && (!label || key >= 0); n++)
		if (label ? kp_labels_get(&s->node_labels[n], key) == val : s->node_name[n] == val) {
			node_gone(s, n, -1);
			sv->lost[sv->nlost++] = n;
		}
	if (sv->nlost)
		nodes_changed(sv);
	int rc = take_nodes(sv);
	if (!rc)
		rc = start_run(sv);
	if (!rc)
		rc = kp_plan_run_passes(pl, r);
	int nv = 0;
	if (!rc)
		rc = touched(sv, &nv);
	if (!rc) {
		snprintf(r->config_source, sizeof r->config_source, "%s", pl->cfg.source);
		r->kube = s->kube;
		r->t_schedule = kp_now() - t0;
		pl->report_pods = pl->queue;
		pl->nreport_pods = nv;
		rc = kp_plan_report_results(pl);
		pl->report_pods = NULL;
	}
	if (!rc && on_quality) {
		kp_plan_count_outcomes(pl, r);   /* the run row's counts (every pod: only here) */
		rc = quality(sv, r, t0, on_quality);
	}
	int urc = undo(sv, pl->queue, nv);
	r->elapsed = kp_now() - t0;
	return rc ? rc : urc;
}
