/*
 * plan_cycle.c — one pod's scheduling cycle in a plan run (plan_int.h), as
 * kube-scheduler's scheduleOne runs it (kube-scheduler-semantics.md §1, §8, §9):
 *
 *   PreFilter (kp_cycle_prefilter; a rejection fails every node), a node
 *   preemption nominated tried first and alone, Filter on every node (the
 *   first failing plugin gives the node's reasons) unless
 *   percentageOfNodesToScore says otherwise, then — with two or more
 *   feasible nodes — PreScore, Score, NormalizeScore and weights; the
 *   highest total wins, ties go to the highest seeded hash of (pod, node).
 *   No feasible node: the FitError message, then PostFilter
 *   (DefaultPreemption): the chosen candidate's victims are evicted (those a
 *   controller re-creates go back on the queue) and the pod is re-queued.
 *
 * The node-local cache: the plugins whose verdict and raw score read only
 * the pod's class and the node (local_filter, local_score) keep them per
 * node while the node is unchanged (kp_snap.node_ver) and the class and
 * profile are those of the last cycle; --reference turns it off.  Also the
 * cycle's state (kp_plan_cycle_setup / _release): per-node arrays, the
 * interned dynamic reasons, the pods already placed with affinity terms.
 * The shared pieces the plugins use are cycle.c; the plugins are plugins/.
 */
#include "plan_int.h"
#include "static.h"
#include "preemption.h"
#include "storage.h"
#include "dra.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* plugins whose filter verdict / raw score depend only on the pod's class,
 * the profile and the node's own state (its labels, taints, images, and the
 * pods on it); the others (spread, inter-pod affinity, extenders) read other
 * nodes or the pod itself and always run */
/* the plugins whose verdict or raw score the node cache keeps: their
 * descriptors say so (registry.h, local_filter / local_score) */
static int local_filter(int k)
{
	return kp_plugins[k] && kp_plugins[k]->local_filter;
}

static int local_score(int k)
{
	return kp_plugins[k] && kp_plugins[k]->local_score;
}

/* ---- outcomes: the FitError, preemption, binding ---- */

/* "0/N nodes are available: <sorted histogram>." and the per-reason counts */
static int fit_error(planner *pl, pod_out *po)
{
	kp_cycle *cy = &pl->cy;
	const kp_snap *s = &pl->s;
	int32_t *counts = kp_calloc((size_t)(s->nreasons ? s->nreasons : 1), sizeof *counts);
	if (!counts)
		return kp_plan_nomem(pl);
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
		return kp_plan_nomem(pl);
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
		if (!kp_snap_nlive(s))
			kp_sb_adds(&sb, "no nodes available to schedule pods");
		else
			kp_sb_printf(&sb, "0/%d nodes are available: ", kp_snap_nlive(s));
		for (int i = 0; i < po->nfails; i++) {
			if (i)
				kp_sb_adds(&sb, ", ");
			kp_sb_adds(&sb, items[i]);
		}
		if (kp_snap_nlive(s))
			kp_sb_addc(&sb, '.');
	}
	for (int i = 0; i < po->nfails && ok; i++)
		kp_free(items[i]);
	kp_free(items);
	kp_free(counts);
	if (!ok || !kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return kp_plan_nomem(pl);
	}
	kp_free(po->message);
	po->message = sb.buf;
	return KP_OK;
}

/* numFeasibleNodesToFind (kube-scheduler-semantics.md §9), only when the profile sets a percentage */
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
		return kp_plan_nomem(pl);
	}
	kp_free(po->message);
	po->message = sb.buf;
	if (explaining)
		snprintf(pl->ex->message, sizeof pl->ex->message, "%s", po->message);
	return KP_OK;
}

/* The pod fails on every node for one reason (plugin, msg): unschedulable
 * with message (allocated, taken over), one failure item; its reason index
 * into *r.  KP_OK or out of memory. */
static int fail_everywhere(planner *pl, pod_out *po, int plugin, const char *msg, char *message, int *r)
{
	kp_snap *s = &pl->s;
	po->action = A_UNSCHED;
	po->feasible = 0;
	po->has_score = 0;
	*r = kp_reason_intern(s, kp_plugin_names[plugin], msg, 1);
	kp_free(po->fails);
	po->fails = kp_malloc(sizeof *po->fails);
	kp_free(po->message);
	po->message = message;
	if (*r < 0 || !po->fails || !po->message)
		return kp_plan_nomem(pl);
	po->fails[0] = (fail_item){ *r, kp_snap_nlive(s) };
	po->nfails = 1;
	return KP_OK;
}

/* A PreFilter plugin rejected the pod for every node: "0/N nodes are available: MSG." */
static int prefilter_failed(planner *pl, pod_out *po, int profile_idx, int explaining)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	char *message = kp_malloc(strlen(cy->prefilter_msg) + 64);
	if (message)
		sprintf(message, "0/%d nodes are available: %s.", kp_snap_nlive(s), cy->prefilter_msg);
	int r;
	if (fail_everywhere(pl, po, cy->prefilter_plugin, cy->prefilter_msg, message, &r))
		return pl->err->code;
	for (int n = 0; n < s->nnodes; n++)
		if (!kp_snap_gone(s, n))
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
		return rc == KP_NOMEM ? kp_plan_nomem(pl) : kp_err_set(pl->err, rc, "preemption failed");
	}
	if (explaining)
		kp_explain_preemption(pl->ex, &pl->cy, &pr);
	return join_preemption_message(pl, po, &pr, explaining);
}

/* A filter returned an Error status (cy->abort_msg): kube's cycle ends with
 * that error, not a FitError, whatever the other nodes said, and no
 * PostFilter runs; the pod stays pending with the error as its message. */
static int cycle_error(planner *pl, pod_out *po, int profile_idx, int explaining)
{
	kp_cycle *cy = &pl->cy;
	int r;
	if (fail_everywhere(pl, po, cy->abort_plugin, cy->abort_msg, kp_strdup(cy->abort_msg), &r))
		return pl->err->code;
	if (explaining) {
		explain_capture(pl, profile_idx, -1, 0, NULL, NULL);
		snprintf(pl->ex->message, sizeof pl->ex->message, "%s", po->message);
	}
	return KP_OK;
}

/* kp_plan_bind_pod (plan_int.h) */
int kp_plan_bind_pod(planner *pl, int32_t pi, int node)
{
	pod_out *po = &pl->out[pi];
	/* VolumeBinding's Reserve: the PVs chosen on this node are taken, the
	 * claims to provision are pinned to it (before the pod lands: the
	 * attach counts key a claim by how it is bound) */
	if (kp_storage_reserve(&pl->s, pi, node) || kp_dra_reserve(&pl->s, pi, node, &pl->cy) ||
	    kp_snap_add_pod(&pl->s, pi, node))
		return kp_plan_nomem(pl);
	if (pl->s.classes[pl->s.pods[pi].cls].npterms && kp_cycle_add_affinity_pod(&pl->cy, pi))
		return kp_plan_nomem(pl);
	po->action = A_BIND;
	po->node = node;
	kp_free(po->message);
	po->message = NULL;
	po->nfails = 0;
	pl->binds++;
	return KP_OK;
}

/* kp_plan_evict_victims (plan_int.h): the chosen candidate's victims for
 * preemptor pi leave the snapshot, PDB allowances drop, and those a
 * controller re-creates go back to the queue as new pods (created now). */
int kp_plan_evict_victims(planner *pl, int32_t pi, const kp_candidate *c)
{
	kp_snap *s = &pl->s;
	for (int i = 0; i < c->nvictims; i++) {
		int32_t v = c->victims[i];
		kp_pod *vp = &s->pods[v];
		pod_out *vo = &pl->out[v];
		int from = vp->node;
		kp_snap_remove_pod(s, v);
		if (kp_dra_release_owned(s, v))
			return kp_plan_nomem(pl);
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
			return kp_plan_nomem(pl);
		}
		if (KP_GROW(pl->ev, pl->nev, pl->cap_ev, 64)) {
			kp_sb_release(&pdbs);
			return kp_plan_nomem(pl);
		}
		pl->ev[pl->nev++] = (eviction_rec){ v, from, pi, c->violating[i], pdbs.buf };
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
			if (kp_plan_queue_push(pl, v))
				return KP_NOMEM;
			if (kp_plan_heap_push(pl, v))
				return kp_plan_nomem(pl);
		} else {
			vo->action = A_EVICTED;
		}
	}
	return KP_OK;
}

/* ---- the node-local cache ---- */

/* the cycle's row of slots (the node's slot is row[n]), claimed for pl->lid */
static kp_lslot *slot_row(const planner *pl)
{
	return &pl->lc[(size_t)(pl->lid & (pl->nlslots - 1)) * (size_t)pl->s.nnodes];
}

static void claim(kp_lslot *e, uint32_t id)
{
	if (e->id != id) {
		e->id = id;
		e->fhas = e->shas = 0;
	}
}

/* kp_plan_local_pass (plan_int.h) */
int kp_plan_local_pass(planner *pl, int n, const int *loc, int nloc)
{
	kp_cycle *cy = &pl->cy;
	kp_lslot *e = &slot_row(pl)[n];
	uint32_t ver = pl->s.node_ver[n];
	claim(e, pl->lid);
	if (!e->fhas || e->fver != ver) {
		int ok = 1;
		cy->probing = 1;   /* the verdict only: the cycle's arrays stay as they were */
		for (int j = 0; j < nloc && ok; j++)
			ok = !kp_plugins[loc[j]]->filter(cy, n);
		cy->probing = 0;
		e->fpass = (uint8_t)ok;
		e->fver = ver;
		e->fhas = 1;
	}
	return e->fpass;
}

/* kp_plan_local_scores (plan_int.h) */
const kp_lslot *kp_plan_local_scores(planner *pl, int n, const int *ks, int nk)
{
	kp_cycle *cy = &pl->cy;
	kp_lslot *e = &slot_row(pl)[n];
	uint32_t ver = pl->s.node_ver[n];
	claim(e, pl->lid);
	if (!e->shas || e->sver != ver) {
		int64_t sum = 0;
		for (int j = 0; j < nk; j++) {
			int k = ks[j];
			int64_t v = kp_plugins[k]->score(cy, n);
			if (kp_plugins[k]->normalize)
				e->raw[pl->lraw_of[k]] = v;
			else
				sum += cy->pf->weight[k] * v;
		}
		e->lsum = sum;
		e->sver = ver;
		e->shas = 1;
	}
	return e;
}

/* Filter every node with the node-local cache: a node's node-local
 * verdict is recomputed only when pods came or went there since a pod of
 * the same key and profile was last filtered there; the other filters run
 * on every node that passes.  Fills cy->feas; failure reasons are not kept
 * (see filter_nodes). */
static void filter_cached(planner *pl)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	int loc[KP_P_COUNT], other[KP_P_COUNT], nloc = 0, nother = 0;
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (!cy->pf->filter[k] || !pg || !pg->filter || cy->skip[k])
			continue;
		if (local_filter(k))
			loc[nloc++] = k;
		else
			other[nother++] = k;
	}
	cy->nfeas = 0;
	for (int n = 0; n < s->nnodes; n++) {
		cy->fail[n] = -1;
		/* the pod's own restriction (a PreFilterResult: VolumeBinding's
		 * local PVs are the pod's claims') is not its class's: not cached */
		if ((cy->restrict_nodes && !cy->allowed[n]) || kp_snap_gone(s, n))
			continue;
		if (!kp_plan_local_pass(pl, n, loc, nloc))
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
 * skip (the plugin adds 0; its pl->scores[k] are left as they are). */
static int local_scores(planner *pl, const kp_profile *pf, uint8_t *skipped)
{
	kp_cycle *cy = &pl->cy;
	int ks[KP_P_COUNT], nk = 0, norm[KP_P_COUNT], nnorm = 0;
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (!pf->score[k] || !local_score(k) || !pg || !pg->score)
			continue;
		int rc = pg->pre_score ? pg->pre_score(cy) : KP_OK;
		if (rc < 0)
			return rc;
		skipped[k] = rc == KP_SKIP;
		if (!skipped[k]) {   /* a skipped plugin adds 0: score_nodes passes it by */
			ks[nk++] = k;
			if (pg->normalize)
				norm[nnorm++] = k;
		}
	}
	for (int i = 0; i < cy->nfeas; i++) {
		int n = cy->feas[i];
		const kp_lslot *e = kp_plan_local_scores(pl, n, ks, nk);
		pl->total[n] += e->lsum;
		for (int j = 0; j < nnorm; j++)
			pl->scores[norm[j]][n] = e->raw[pl->lraw_of[norm[j]]];
	}
	return KP_OK;
}

/* ---- the cycle ---- */

/* The cycle's state for pod pi under profile pf: a class first seen now
 * gets its static verdicts, the profile's resource names their indexes, and
 * the per-pod fields of the cycle start afresh. */
static int setup_cycle(planner *pl, int32_t pi, const kp_profile *pf)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	kp_pod *p = &s->pods[pi];
	const kp_class *c = &s->classes[p->cls];
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
	cy->abort_msg = NULL;
	cy->abort_plugin = KP_P_DYNAMIC_RESOURCES;
	memset(cy->skip, 0, sizeof cy->skip);
	/* every node's verdict starts as passed: cleared only when a cycle
	 * left some set (a node-buckets cycle undoes its own, plan_bucket.c) */
	if (cy->verdicts_dirty) {
		memset(cy->fail, -1, (size_t)s->nnodes);
		memset(cy->unres, 0, (size_t)s->nnodes);
		cy->verdicts_dirty = 0;
	}
	if (kp_plan_added_affinity(pl, pf))
		return pl->err->code;
	return KP_OK;
}

/* an attempt of pod pi: counted, stamped, then the cycle's state */
static int begin_cycle(planner *pl, int32_t pi, const kp_profile *pf)
{
	pod_out *po = &pl->out[pi];
	po->attempts++;
	po->last_bind_stamp = pl->binds;
	po->seq = ++pl->seq;
	return setup_cycle(pl, pi, pf);
}

/* kp_plan_fits_node (plan_int.h): PreFilter and Filter of pod pi on node n
 * with the snapshot as it is, no attempt counted */
int kp_plan_fits_node(planner *pl, int32_t pi, int profile_idx, int n)
{
	int rc = setup_cycle(pl, pi, &pl->cfg.profiles[profile_idx]);
	if (rc)
		return rc;
	int prc = kp_cycle_prefilter(&pl->cy);
	if (prc == KP_PREFILTER_FAIL)
		return 0;
	if (prc < 0)
		return prc;
	return kp_cycle_filter_node(&pl->cy, n);
}

/* After PreFilter: a DaemonSet pod carries required node affinity to its
 * node (the controller sets matchFields metadata.name), so only that node
 * is filtered; rebalance (rebalance.h) never moves a pod back to the node it
 * left, nor where the strategy says. */
static void restrict_nodes(planner *pl, const kp_pod *p)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	if (p->daemon_node >= 0) {
		for (int n = 0; n < s->nnodes; n++)
			cy->allowed[n] = (uint8_t)(n == p->daemon_node && (!cy->restrict_nodes || cy->allowed[n]));
		cy->restrict_nodes = 1;
	}
	if (pl->avoid) {
		for (int n = 0; n < s->nnodes; n++)
			cy->allowed[n] = (uint8_t)(!pl->avoid[n] && (!cy->restrict_nodes || cy->allowed[n]));
		cy->restrict_nodes = 1;
	}
}

/* Filter, node by node, into cy->feas; every node unless
 * percentageOfNodesToScore says otherwise.  fast: with the node-local cache,
 * the nodes' cached verdicts first; when no node passes, every node again
 * without the cache, for the reasons (FitError, preemption). */
static void filter_nodes(planner *pl, int profile_idx, int fast)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	const kp_profile *pf = &pl->cfg.profiles[profile_idx];
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
		if (kp_snap_gone(s, n))
			continue;   /* kplan survive: only with every node scored (no rotation) */
		processed++;
		int passed = kp_cycle_filter_node(cy, n);
		if (passed)
			cy->feas[cy->nfeas++] = n;
	}
	if (pf->pct_nodes_to_score >= 0 && s->nnodes)
		pl->next_start[profile_idx] = (start + processed) % s->nnodes;
}

/* No node passed: the FitError, then PostFilter (DefaultPreemption): when
 * a candidate is chosen its victims go and the pod is re-queued with its
 * nominated node. */
static int no_fit(planner *pl, int32_t pi, int profile_idx, int explaining)
{
	kp_cycle *cy = &pl->cy;
	const kp_profile *pf = &pl->cfg.profiles[profile_idx];
	pod_out *po = &pl->out[pi];
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
		return rc == KP_NOMEM ? kp_plan_nomem(pl) : kp_err_set(pl->err, rc, "preemption failed");
	}
	/* the extenders' ProcessPreemption, before the pick (plan_extender_preempt.c) */
	if (pf->hext && kp_plan_extenders_preempt(pl, &pr)) {
		kp_preempt_release(&pr);
		return pl->err->code;
	}
	if (explaining)
		kp_explain_preemption(pl->ex, &pl->cy, &pr);
	if (pr.chosen < 0) {
		return join_preemption_message(pl, po, &pr, explaining);
	}
	/* victims go; the preemptor is re-queued with its nominated node */
	const kp_candidate *cand = &pr.cands[pr.chosen];
	rc = kp_plan_evict_victims(pl, pi, cand);
	po->nominated = cand->node;
	kp_preempt_release(&pr);
	if (!rc && kp_plan_heap_push(pl, pi))
		rc = kp_plan_nomem(pl);
	pl->binds++;   /* evictions are cluster events: failed pods may fit now */
	return rc;
}

/* PreScore, Score, NormalizeScore and weights over the feasible nodes into
 * pl->total; fast: the node-local scores from the cache (local_scores).
 * explaining: each plugin's raw and normalised scores copied to ex_raw /
 * ex_norm (the cycle's arena). */
static int score_nodes(planner *pl, const kp_profile *pf, int fast, int explaining, int64_t **ex_raw,
		       int64_t **ex_norm)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	for (int i = 0; i < cy->nfeas; i++)
		pl->total[cy->feas[i]] = 0;
	uint8_t local_skip[KP_P_COUNT] = { 0 };
	if (fast) {
		int rc = local_scores(pl, pf, local_skip);
		if (rc < 0)
			return rc == KP_NOMEM ? kp_plan_nomem(pl) : kp_err_set(pl->err, rc, "pre-score failed");
	}
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (!pf->score[k] || !pg || !pg->score)
			continue;
		int64_t *sc = pl->scores[k];
		if (fast && local_score(k)) {
			/* local_scores added it, or left its raw scores in sc */
			if (!pg->normalize || local_skip[k])
				continue;   /* a skipped plugin adds 0 */
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
				return rc == KP_NOMEM ? kp_plan_nomem(pl) : kp_err_set(pl->err, rc, "pre-score %s failed", kp_plugin_names[k]);
		}
		if (skip)
			for (int i = 0; i < cy->nfeas; i++)
				sc[cy->feas[i]] = 0;
		else
			for (int i = 0; i < cy->nfeas; i++)
				sc[cy->feas[i]] = pg->score(cy, cy->feas[i]);
		if (explaining) {
			ex_raw[k] = kp_arena_alloc(&cy->arena, (size_t)s->nnodes * sizeof(int64_t));
			if (!ex_raw[k])
				return kp_plan_nomem(pl);
			memcpy(ex_raw[k], sc, (size_t)s->nnodes * sizeof(int64_t));
		}
		if (!skip && pg->normalize)
			pg->normalize(cy, sc);
		if (explaining) {
			ex_norm[k] = kp_arena_alloc(&cy->arena, (size_t)s->nnodes * sizeof(int64_t));
			if (!ex_norm[k])
				return kp_plan_nomem(pl);
			memcpy(ex_norm[k], sc, (size_t)s->nnodes * sizeof(int64_t));
		}
		for (int i = 0; i < cy->nfeas && !skip; i++) {   /* skipped: 0 each */
			int n = cy->feas[i];
			pl->total[n] += pf->weight[k] * sc[n];
		}
	}
	return KP_OK;
}

/* the feasible node with the highest total; among equal totals the highest
 * seeded hash of (pod, node) (computed only for ties) */
static int best_node(const planner *pl, const kp_pod *p)
{
	const kp_snap *s = &pl->s;
	const kp_cycle *cy = &pl->cy;
	int best = cy->feas[0];
	uint32_t best_tb = 0;
	int best_tb_valid = 0;
	uint64_t ph = kp_tiebreak_pod_of(cy, p->db_id);
	for (int i = 1; i < cy->nfeas; i++) {
		int n = cy->feas[i];
		if (pl->total[n] > pl->total[best]) {
			best = n;
			best_tb_valid = 0;
		} else if (pl->total[n] == pl->total[best]) {
			if (!best_tb_valid) {
				best_tb = kp_tiebreak_node(ph, s->node_db_id[best]);
				best_tb_valid = 1;
			}
			uint32_t tb = kp_tiebreak_node(ph, s->node_db_id[n]);
			if (tb > best_tb) {
				best = n;
				best_tb = tb;
			}
		}
	}
	return best;
}

int kp_plan_schedule_one(planner *pl, int32_t pi, int profile_idx)
{
	kp_cycle *cy = &pl->cy;
	const kp_profile *pf = &pl->cfg.profiles[profile_idx];
	pod_out *po = &pl->out[pi];
	const kp_pod *p = &pl->s.pods[pi];
	int explaining = pl->ex && pl->ex->pod_db_id == p->db_id;
	pl->ncycles++;
	int rc = begin_cycle(pl, pi, pf);
	if (rc)
		return rc;

	/* PreFilter */
	int prc = kp_cycle_prefilter(cy);
	if (prc == KP_PREFILTER_FAIL)
		return prefilter_failed(pl, po, profile_idx, explaining);
	if (prc < 0)
		return prc == KP_NOMEM ? kp_plan_nomem(pl) : kp_err_set(pl->err, prc, "pre-filter failed");
	restrict_nodes(pl, p);
	/* a node preemption freed for this pod is evaluated first, alone; if it
	 * passes it is used without scoring (kube-scheduler-semantics.md §9, §11.7) */
	if (po->nominated >= 0) {
		int n = po->nominated;
		po->nominated = -1;
		/* evaluateNominatedNode: the filters, then the extenders (an
		 * extender's error there only means the full search runs) */
		int32_t one = n;
		int none = kp_cycle_filter_node(cy, n);
		const char *abort0 = cy->abort_msg;
		if (none && pf->hext && (rc = kp_plan_extenders_filter(pl, &one, &none)))
			return rc;
		cy->abort_msg = abort0;
		cy->abort_plugin = KP_P_DYNAMIC_RESOURCES;
		if (none) {
			if (explaining)
				explain_capture(pl, profile_idx, n, 0, NULL, NULL);
			po->feasible = 1;
			po->has_score = 0;
			return kp_plan_bind_pod(pl, pi, n);
		}
		cy->fail[n] = -1;
	}
	/* Filter; with HTTP extenders, every node's verdict is needed when the
	 * extenders leave none: no node-local cache */
	int fast = pl->cache && !explaining && pf->pct_nodes_to_score < 0 && p->daemon_node < 0 && !pl->avoid && !pf->hext;
	if (fast) {
		/* the node-local cache's (key, profile) of this cycle: keys are dense, profiles few */
		int32_t key = kp_plan_local_key(pl, p->cls);
		if (key < 0)
			return kp_plan_nomem(pl);
		pl->lid = (uint32_t)key * (uint32_t)pl->cfg.nprofiles + (uint32_t)profile_idx + 1;
		/* the node buckets decide when the cycle allows (plan_bucket.c) */
		int nfeas;
		int64_t total;
		int best;
		if ((rc = kp_plan_bucket_choose(pl, profile_idx, &best, &nfeas, &total)) < 0)
			return rc;
		if (rc == 1) {
			pl->nbucket++;
			po->feasible = nfeas;
			po->has_score = nfeas > 1;
			po->score = nfeas > 1 ? total : 0;
			return kp_plan_bind_pod(pl, pi, best);
		}
	}
	filter_nodes(pl, profile_idx, fast);
	if (!cy->abort_msg && pf->hext && (rc = kp_plan_extenders_filter(pl, cy->feas, &cy->nfeas)))
		return rc;
	if (cy->abort_msg)
		return cycle_error(pl, po, profile_idx, explaining);
	if (cy->nfeas == 0)
		return no_fit(pl, pi, profile_idx, explaining);
	/* with two or more feasible nodes: Score, and the highest total wins */
	int best = cy->feas[0];
	po->feasible = cy->nfeas;
	po->has_score = 0;
	int scoring = cy->nfeas > 1;
	int64_t *ex_raw[KP_P_COUNT] = { 0 }, *ex_norm[KP_P_COUNT] = { 0 };
	if (scoring) {
		if ((rc = score_nodes(pl, pf, fast, explaining, ex_raw, ex_norm)))
			return rc;
		if (pf->hext && (rc = kp_plan_extenders_score(pl)))
			return rc;
		best = best_node(pl, p);
		po->score = pl->total[best];
		po->has_score = 1;
	}
	if (explaining)
		explain_capture(pl, profile_idx, best, scoring, ex_raw, ex_norm);
	return kp_plan_bind_pod(pl, pi, best);
}

/* ---- the cycle's state ---- */

int kp_plan_cycle_setup(planner *pl)
{
	kp_snap *s = &pl->s;
	int n = s->nnodes ? s->nnodes : 1;
	if (kp_cycle_init(&pl->cy, s, pl->o->seed))
		return kp_plan_nomem(pl);
	pl->total = kp_calloc((size_t)n, sizeof *pl->total);
	if (!pl->total)
		return kp_plan_nomem(pl);
	for (int k = 0; k < KP_P_COUNT; k++)
		if (!(pl->scores[k] = kp_calloc((size_t)n, sizeof(int64_t))))
			return kp_plan_nomem(pl);
	pl->cache = !pl->o->reference;
	if (s->dra) {
		s->dra->no_memo = (uint8_t)!pl->cache;
		for (int k = 0; k < pl->cfg.nprofiles; k++)
			if (pl->cfg.profiles[k].score[KP_P_FGD_SCORE] || pl->cfg.profiles[k].score[KP_P_GPU_PACK_SCORE])
				s->dra->choice = KP_DCHOICE_FGD;
	}
	if (pl->cache) {
		/* slots per node: up to 256, about 2^18 in all */
		uint32_t per = 1;
		while (per < 256 && (size_t)per * 2 * (size_t)n <= (1u << 18))
			per *= 2;
		pl->nlslots = per;
		int nraw = 0;
		for (int k = 0; k < KP_P_COUNT; k++) {
			pl->lraw_of[k] = -1;
			if (local_score(k) && kp_plugins[k] && kp_plugins[k]->normalize)
				pl->lraw_of[k] = (int8_t)nraw++;
		}
		if (nraw > KP_LRAW_MAX)
			return kp_err_set(pl->err, KP_ERROR, "node-local cache: %d normalised scores, room for %d", nraw,
					  KP_LRAW_MAX);
		pl->lc = kp_calloc((size_t)per * (size_t)n, sizeof *pl->lc);
		pl->lkey = kp_malloc(((size_t)s->nclasses + 1) * sizeof *pl->lkey);
		if (!pl->lc || !pl->lkey)
			return kp_plan_nomem(pl);
		memset(pl->lkey, -1, ((size_t)s->nclasses + 1) * sizeof *pl->lkey);
		/* KPLAN_BUCKETS=0: the node-local cache without the buckets (to measure them) */
		const char *nb = getenv("KPLAN_BUCKETS");
		if (!(nb && !strcmp(nb, "0")) && kp_plan_bucket_setup(pl))
			return pl->err->code;
	}
	return KP_OK;
}

void kp_plan_cycle_release(planner *pl)
{
	kp_plan_extenders_release(pl);
	kp_plan_bucket_release(pl);
	kp_free(pl->lc);
	kp_free(pl->lkey);
	kp_plan_local_keys_free(pl);
	kp_cycle_release(&pl->cy);
	for (int k = 0; k < KP_P_COUNT; k++)
		kp_free(pl->scores[k]);
	kp_free(pl->total);
}

/* kp_plan_requests_fit (plan_int.h): NodeResourcesFit's filter alone */
int kp_plan_requests_fit(const kp_snap *s, const kp_class *c, const kp_profile *pf, int n, const int64_t *used,
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
		if (r > 2 && kp_dra_delegated(s, r, n))
			continue;
		if (want > alloc[r] - used[r])
			return 0;
	}
	return 1;
}

