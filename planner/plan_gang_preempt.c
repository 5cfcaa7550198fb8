/*
 * plan_gang_preempt.c — workload-aware preemption (KEP-5710; kube 1.37,
 * GenericWorkload on): a pod group whose cycle failed looks for victims over
 * the whole cluster as one preemptor (plan_int.h kp_gang_preempt,
 * docs/gangs.md "Preemption").
 *
 * Read in kubernetes/kubernetes (docs/gangs.md names the copies):
 * pkg/scheduler/framework/preemption/podgrouppreemption.go (PodGroupEvaluator
 * selectVictimsOnDomain, moreImportantVictim, newDomainForWorkloadPreemption),
 * plugins/defaultpreemption PodGroupPostFilter ("pod group preemption: "),
 * schedule_one_podgroup.go (runWorkloadAwarePreemption; the status appended
 * to the group's).  In order:
 *  1. eligibility: a pod of the group with preemptionPolicy Never (the
 *     PodGroup's own preemptionPolicy needs PodGroupPreemptionPolicy, which
 *     kplan refuses); a PodGroup with topology constraints does not preempt;
 *  2. preemption units: a pod, or every placed pod of a PodGroup whose
 *     disruptionMode is All; a unit's priority is its PodGroup's, else its
 *     pod's; units of lower priority than the group's are the potential
 *     victims ("No preemption victims found for incoming preemptor");
 *  3. every potential victim leaves the snapshot and the group's cycle runs
 *     as a dry run (no PostFilter); failing, its status is the answer;
 *  4. the units in importance order (priority, a group before a pod, then a
 *     pod's earlier start, a group's more pods and earlier start; kplan ends
 *     ties on the lowest pod id), those whose eviction breaks a PDB first:
 *     each comes back and is reprieved when every pod the dry run placed
 *     still passes Filter on its node (earlier pods of the group assumed);
 *  5. the rest are evicted (plan_cycle.c's eviction: rows, PDB allowances,
 *     re-created pods queued), the group's pods are queued again with the
 *     dry run's nodes nominated.
 * Delayed preemption (KEP-4671 "Delayed Preemption") is not modelled: the
 * dry run placed the group whole, so the retry binds it unless the queue's
 * order lets another pod take the room first.
 */
#include "plan_int.h"
#include "preemption.h"

#include <stdlib.h>
#include <string.h>

/* one preemption unit (kube: victim) */
typedef struct gp_unit {
	int32_t first, n;            /* its pods: st->pods[first .. first + n) */
	int64_t prio, start, id;     /* priority; earliest start; lowest pod id (kplan's last tie-break) */
	uint8_t group, violating, victim;
} gp_unit;

typedef struct gp_state {
	planner *pl;
	kp_gang *g;
	const int32_t *take;
	int nt, profile_idx;
	int64_t prio;                /* the preemptor's */
	gp_unit *u;
	int nu, ucap;
	int32_t *pods, *from;        /* the units' pods and their nodes */
	int np, pcap, fcap;
	int32_t *assigned;           /* per take[i]: the dry run's node, -1 */
	uint8_t *done;               /* per pod of the snapshot: in a unit already */
} gp_state;

/* the priority a unit has: its PodGroup's (an active group), else the pod's */
static int64_t unit_priority(const planner *pl, int32_t pi)
{
	const kp_gangs *gs = &pl->gangs;
	if (gs->of && gs->of[pi] >= 0 && !gs->v[gs->of[pi]].missing)
		return gs->v[gs->of[pi]].priority;
	return pl->s.classes[pl->s.pods[pi].cls].priority;
}

static int add_unit(gp_state *st, int group)
{
	if (KP_GROW(st->u, st->nu, st->ucap, 16))
		return KP_NOMEM;
	gp_unit *u = st->u;
	memset(&u[st->nu], 0, sizeof *u);
	u[st->nu].first = st->np;
	u[st->nu].group = (uint8_t)group;
	u[st->nu].start = INT64_MAX;
	u[st->nu].id = INT64_MAX;
	st->nu++;
	return KP_OK;
}

/* pod pi joins the last unit */
static int add_pod(gp_state *st, int32_t pi)
{
	const kp_snap *s = &st->pl->s;
	if (KP_GROW(st->pods, st->np, st->pcap, 16) || KP_GROW(st->from, st->np, st->fcap, 16))
		return KP_NOMEM;
	st->pods[st->np] = pi;
	st->from[st->np++] = s->pods[pi].node;
	gp_unit *u = &st->u[st->nu - 1];
	u->n++;
	u->prio = unit_priority(st->pl, pi);
	if (s->pods[pi].start_time < u->start)
		u->start = s->pods[pi].start_time;
	if (s->pods[pi].db_id < u->id)
		u->id = s->pods[pi].db_id;
	st->done[pi] = 1;
	return KP_OK;
}

/* the whole groups first (disruptionMode All), then single pods */
static int collect_units(gp_state *st)
{
	planner *pl = st->pl;
	const kp_snap *s = &pl->s;
	const kp_gangs *gs = &pl->gangs;
	for (int k = 0; k < gs->n; k++) {
		const kp_gang *v = &gs->v[k];
		if (v == st->g || !v->disrupt_all || v->missing || v->priority >= st->prio)
			continue;
		int placed = 0, blocked = 0;
		for (int i = 0; i < v->npods; i++) {
			const kp_pod *p = &s->pods[v->pods[i]];
			placed += p->node >= 0;
			blocked |= p->node >= 0 && p->no_victim;
		}
		for (int i = 0; i < v->npods; i++)
			st->done[v->pods[i]] = 1;   /* never a unit of its own */
		if (!placed || blocked)
			continue;
		if (add_unit(st, 1))
			return KP_NOMEM;
		for (int i = 0; i < v->npods; i++)
			if (s->pods[v->pods[i]].node >= 0 && add_pod(st, v->pods[i]))
				return KP_NOMEM;
	}
	for (int32_t pi = 0; pi < s->npods; pi++) {
		const kp_pod *p = &s->pods[pi];
		if (st->done[pi] || p->node < 0 || p->no_victim || unit_priority(pl, pi) >= st->prio)
			continue;
		if (gs->of && gs->of[pi] >= 0 && &gs->v[gs->of[pi]] == st->g)
			continue;   /* the group's own placed pods */
		if (add_unit(st, 0) || add_pod(st, pi))
			return KP_NOMEM;
	}
	return KP_OK;
}

/* moreImportantVictim; kplan's last tie-break: the lowest pod id */
static int cmp_units(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const gp_unit *x = a, *y = b;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->group != y->group)
		return x->group ? -1 : 1;
	if (x->group && x->n != y->n)
		return x->n > y->n ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static void remove_unit(gp_state *st, const gp_unit *u)
{
	for (int i = 0; i < u->n; i++)
		kp_snap_remove_pod(&st->pl->s, st->pods[u->first + i]);
}

static int restore_unit(gp_state *st, const gp_unit *u)
{
	for (int i = 0; i < u->n; i++)
		if (kp_snap_add_pod(&st->pl->s, st->pods[u->first + i], st->from[u->first + i]))
			return KP_NOMEM;
	return KP_OK;
}

/* The group's cycle as a dry run on the snapshot without the potential
 * victims: *ok and st->assigned, or the group's status in why.  The pods'
 * outcomes, the run's counters and the rotation of percentageOfNodesToScore
 * are as before afterwards; the pods it assumed leave again. */
static int dry_run(gp_state *st, int *ok, kp_sb *why)
{
	planner *pl = st->pl;
	int nt = st->nt, tried = 0, rc, nprof = pl->cfg.nprofiles;
	pod_out *saved = kp_malloc((size_t)nt * sizeof *saved);
	int *starts = kp_malloc((size_t)(nprof ? nprof : 1) * sizeof *starts);
	uint8_t *placed = kp_calloc((size_t)nt, 1);
	if (!saved || !starts || !placed) {
		kp_free(saved);
		kp_free(starts);
		kp_free(placed);
		return KP_NOMEM;
	}
	for (int i = 0; i < nt; i++) {
		pod_out *po = &pl->out[st->take[i]];
		saved[i] = *po;
		po->message = NULL;
		po->fails = NULL;
		po->nfails = 0;
	}
	memcpy(starts, pl->next_start, (size_t)nprof * sizeof *starts);
	int64_t binds = pl->binds;
	int32_t seq = pl->seq;
	kp_explain *ex = pl->ex;
	pl->ex = NULL;   /* the explained attempt is the real one */
	rc = kp_gang_try(pl, st->g, st->take, nt, st->profile_idx, placed, &tried, ok, why);
	pl->ex = ex;
	for (int i = 0; i < nt; i++)
		st->assigned[i] = !rc && *ok && placed[i] ? pl->out[st->take[i]].node : -1;
	if (!rc)
		rc = kp_gang_revert(pl, st->take, tried, placed);
	for (int i = 0; i < nt; i++) {
		pod_out *po = &pl->out[st->take[i]];
		kp_free(po->message);
		kp_free(po->fails);
		*po = saved[i];
	}
	memcpy(pl->next_start, starts, (size_t)nprof * sizeof *starts);
	pl->binds = binds;
	pl->seq = seq;
	kp_free(saved);
	kp_free(starts);
	kp_free(placed);
	return rc;
}

/* with the unit just put back: every pod the dry run placed still passes
 * Filter on its node, in the group's order, the earlier ones assumed (kube:
 * reprieveVictim).  1 yes, 0 no, < 0 an error. */
static int still_fits(gp_state *st)
{
	planner *pl = st->pl;
	int fits = 1, i, rc = KP_OK;
	for (i = 0; i < st->nt && fits; i++) {
		int n = st->assigned[i];
		if (n < 0)
			continue;
		int f = kp_plan_fits_node(pl, st->take[i], st->profile_idx, n);
		if (f < 0) {
			rc = f;
			break;
		}
		if (!f)
			fits = 0;
		else if (kp_snap_add_pod(&pl->s, st->take[i], n)) {
			rc = KP_NOMEM;
			break;
		}
	}
	for (int k = i - 1; k >= 0; k--)
		if (st->assigned[k] >= 0 && pl->s.pods[st->take[k]].node >= 0)
			kp_snap_remove_pod(&pl->s, st->take[k]);
	return rc < 0 ? rc : fits;
}

/* the PDB-violating units first, then the others, each in importance
 * order: put back, kept when the group still fits */
static int reprieve(gp_state *st)
{
	const kp_snap *s = &st->pl->s;
	int32_t *flat = kp_malloc((size_t)(st->np ? st->np : 1) * sizeof *flat);
	uint8_t *viol = kp_malloc((size_t)(st->np ? st->np : 1));
	int rc = flat && viol ? KP_OK : KP_NOMEM, n = 0;
	for (int k = 0; k < st->nu && !rc; k++)
		for (int i = 0; i < st->u[k].n; i++)
			flat[n++] = st->pods[st->u[k].first + i];
	if (!rc)
		rc = kp_pdb_violations(s, st->pl->pdb_allowed, flat, n, viol);
	n = 0;
	for (int k = 0; k < st->nu && !rc; k++)
		for (int i = 0; i < st->u[k].n; i++)
			st->u[k].violating |= viol[n++];
	kp_free(flat);
	kp_free(viol);
	for (int pass = 1; pass >= 0 && !rc; pass--)
		for (int k = 0; k < st->nu && !rc; k++) {
			gp_unit *u = &st->u[k];
			if (u->violating != pass)
				continue;
			if ((rc = restore_unit(st, u)))
				break;
			int f = still_fits(st);
			if (f < 0)
				rc = f;
			else if (!f) {
				remove_unit(st, u);
				u->victim = 1;
			}
		}
	return rc;
}

/* the victims go, most important first; each eviction's preemptor is the
 * group's pod the dry run put on the victim's node, else the first one */
static int evict(gp_state *st)
{
	planner *pl = st->pl;
	for (int k = 0; k < st->nu; k++) {
		const gp_unit *u = &st->u[k];
		if (!u->victim)
			continue;
		for (int i = 0; i < u->n; i++) {
			int32_t v = st->pods[u->first + i], by = st->take[0];
			for (int j = 0; j < st->nt; j++)
				if (st->assigned[j] == st->from[u->first + i]) {
					by = st->take[j];
					break;
				}
			uint8_t violating = u->violating;
			kp_candidate c = { .node = st->from[u->first + i], .victims = &v, .violating = &violating,
					   .nvictims = 1, .npdb_violations = violating };
			int rc = kp_plan_evict_victims(pl, by, &c);
			if (rc)
				return rc;
		}
	}
	return KP_OK;
}

/* 1.-2.: eligibility and the potential victims; 0 with why when none */
static int find_units(gp_state *st, kp_sb *why)
{
	const kp_snap *s = &st->pl->s;
	for (int i = 0; i < st->nt; i++)
		if (s->classes[s->pods[st->take[i]].cls].preempt_never) {
			kp_sb_adds(why, "not eligible due to preemptionPolicy=Never.");
			return 0;
		}
	if (st->g->topology) {
		kp_sb_adds(why, "not supported with topology constraints");
		return 0;
	}
	if (collect_units(st))
		return KP_NOMEM;
	if (!st->nu) {
		kp_sb_adds(why, "No preemption victims found for incoming preemptor");
		return 0;
	}
	kp_sort(st->u, (size_t)st->nu, sizeof *st->u, cmp_units, NULL);
	return 1;
}

/* 3.-5. over the units found */
static int select_and_evict(gp_state *st, kp_sb *why)
{
	planner *pl = st->pl;
	int ok = 0, rc, nvictims = 0;
	for (int k = 0; k < st->nu; k++)
		remove_unit(st, &st->u[k]);
	rc = dry_run(st, &ok, why);
	if (!rc && ok)
		rc = reprieve(st);
	for (int k = 0; k < st->nu && !rc; k++)
		if (!ok || st->u[k].victim)
			rc = restore_unit(st, &st->u[k]);
	if (rc || !ok)
		return rc ? rc : 0;
	for (int k = 0; k < st->nu; k++)
		nvictims += st->u[k].victim;
	if (!nvictims && st->g->free_nominations++) {
		/* kplan: a second dry run that needs no victim nominates no more */
		kp_sb_adds(why, "No preemption victims found for incoming preemptor");
		return 0;
	}
	if ((rc = evict(st)))
		return rc;
	for (int i = 0; i < st->nt; i++) {
		pl->out[st->take[i]].nominated = st->assigned[i];
		if (kp_plan_heap_push(pl, st->take[i]))
			return KP_NOMEM;
	}
	return 1;
}

int kp_gang_preempt(planner *pl, kp_gang *g, const int32_t *take, int nt, int profile_idx, kp_sb *why)
{
	gp_state st = { .pl = pl, .g = g, .take = take, .nt = nt, .profile_idx = profile_idx, .prio = g->priority };
	st.assigned = kp_malloc((size_t)(nt ? nt : 1) * sizeof *st.assigned);
	st.done = kp_calloc((size_t)(pl->s.npods ? pl->s.npods : 1), 1);
	int rc = st.assigned && st.done ? find_units(&st, why) : KP_NOMEM;
	if (rc > 0)
		rc = select_and_evict(&st, why);
	if (!rc && !kp_sb_ok(why))
		rc = KP_NOMEM;
	kp_free(st.assigned);
	kp_free(st.done);
	kp_free(st.u);
	kp_free(st.pods);
	kp_free(st.from);
	return rc;
}
