/*
 * plan_gang.c — gang scheduling in a plan run (plan_int.h, docs/gangs.md): the
 * groups of the pods, PreEnqueue, the pod-group cycle of kube 1.36+ and the
 * Permit wait of 1.35, a failed group's revert, and the run's warnings.
 *
 * Read in kubernetes/kubernetes (docs/gangs.md names the copies):
 * pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go
 * (PreEnqueue, PlacementFeasible, 1.35-1.36 Permit), pkg/scheduler/
 * schedule_one_podgroup.go and algorithm_podgroup.go (podGroupInfoForPod:
 * the group's queued pods popped together, sorted by priority then
 * InitialAttemptTimestamp; podGroupSchedulingDefaultAlgorithm: each pod
 * filtered and scored without PostFilter, assumed, PlacementFeasible after
 * each; a group that fails is reverted).
 */
#include "plan_int.h"
#include "static.h"
#include "dra.h"
#include "kp_queries.h"
#include "../common/priority.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#define PERMIT_TIMEOUT "5m0s"       /* gangscheduling.go permitTimeoutDuration (1.35) */
#define MAX_PERMIT_TIMEOUTS 3       /* a 1.35 gang is tried again at most this often */

/* ---- loading ---- */

/* why the Workload API does not act in this run, NULL when it does */
static const char *gang_off_why(const kp_kube *k, int *mode)
{
	int gw = kp_kube_on(k, KP_FG_GENERIC_WORKLOAD);
	*mode = KP_GANG_OFF;
	if (k->minor < 35)
		return "the Workload API does not exist before kube 1.35";
	if (k->minor <= 36 && !(gw && kp_kube_on(k, KP_FG_GANG_SCHEDULING)))
		return k->minor == 35 ? "the gates GenericWorkload and GangScheduling are off (kube 1.35 needs both)"
				      : "the gates GenericWorkload and GangScheduling are off (kube 1.36 needs both)";
	if (k->minor >= 37 && !gw)
		return "the gate GenericWorkload is off (the default)";
	*mode = k->minor == 35 ? KP_GANG_PERMIT : KP_GANG_CYCLE;
	return NULL;
}

static int add_member(planner *pl, kp_gang *g, int32_t pi)
{
	int32_t *v = kp_realloc(g->pods, (size_t)(g->npods + 1) * sizeof *v);
	if (!v)
		return kp_plan_nomem(pl);
	g->pods = v;
	g->pods[g->npods++] = pi;
	pl->gangs.of[pi] = (int32_t)(g - pl->gangs.v);
	return KP_OK;
}

/* one row of gang_members.sql into its group (a new one when the key changes) */
static int load_row(planner *pl, sqlite3_stmt *st, int *cap)
{
	kp_gangs *gs = &pl->gangs;
	int32_t pi = kp_snap_pod_index(&pl->s, sqlite3_column_int64(st, 0));
	int v135 = sqlite3_column_int(st, 8);
	if (pi < 0)
		return KP_OK;
	if (v135 != (gs->mode == KP_GANG_PERMIT)) {
		gs->other_form++;   /* the field this version's API server drops */
		return KP_OK;
	}
	const char *ns = (const char *)sqlite3_column_text(st, 1), *pg = (const char *)sqlite3_column_text(st, 2);
	const char *wl = (const char *)sqlite3_column_text(st, 3), *rk = (const char *)sqlite3_column_text(st, 4);
	kp_sb key;
	kp_sb_init(&key);
	if (wl)
		kp_sb_printf(&key, "%s/%s/%s%s%s", ns, wl, pg, rk && rk[0] ? "/" : "", rk ? rk : "");
	else
		kp_sb_printf(&key, "%s/%s", ns, pg);
	if (!kp_sb_ok(&key))
		return kp_plan_nomem(pl);
	if (!gs->n || strcmp(gs->v[gs->n - 1].key, key.buf)) {
		if (KP_GROW(gs->v, gs->n, *cap, 16)) {
			kp_sb_release(&key);
			return kp_plan_nomem(pl);
		}
		kp_gang *g = &gs->v[gs->n++];
		memset(g, 0, sizeof *g);
		g->key = key.buf;
		g->gang = !strcmp((const char *)sqlite3_column_text(st, 5), "gang");
		g->min_count = g->gang ? sqlite3_column_int(st, 6) : 1;
		/* 1: no PodGroup (1.35: no Workload), 2: 1.35's Workload lacks the pod group */
		g->missing = sqlite3_column_int(st, 7) ? 0 : wl && sqlite3_column_int(st, 10) ? 2 : 1;
		g->disrupt_all = !strcmp((const char *)sqlite3_column_text(st, 9), "All");
		g->priority = sqlite3_column_int64(st, 11);
		g->prio_set = (uint8_t)sqlite3_column_int(st, 12);
		g->topology = (uint8_t)sqlite3_column_int(st, 13);
		g->size = 0;
	} else {
		kp_sb_release(&key);
	}
	return add_member(pl, &gs->v[gs->n - 1], pi);
}

/* a gang of copies (key "NS/GROUP (copy N)") takes its PodGroup's priority,
 * topology flag and disruptionMode (workload-aware preemption); st is
 * gang_copy_group.sql, NULL when it did not prepare */
static void copy_group(sqlite3_stmt *st, kp_gang *g)
{
	const char *slash = strchr(g->key, '/'), *end = strstr(g->key, " (copy ");
	if (!st || !slash || !end || end < slash)
		return;
	sqlite3_bind_text(st, 1, g->key, (int)(slash - g->key), SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, slash + 1, (int)(end - slash - 1), SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		g->priority = sqlite3_column_int64(st, 0);
		g->prio_set = (uint8_t)sqlite3_column_int(st, 1);
		g->topology = (uint8_t)sqlite3_column_int(st, 2);
		g->disrupt_all = !strcmp((const char *)sqlite3_column_text(st, 3), "All");
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* the gangs of kplan capacity --pod's copies (whatif_gang.c), one per key */
static int load_copies(planner *pl, int *cap)
{
	kp_gangs *gs = &pl->gangs;
	sqlite3_stmt *st, *grp;
	if (sqlite3_prepare_v2(pl->db, "SELECT pod_id, gang, min_count, gang_size FROM temp.kp_whatif_gang "
				       "ORDER BY gang, pod_id", -1, &st, NULL) != SQLITE_OK)
		return KP_OK;   /* no copies in gangs */
	/* gang_copy_group.sql spells out KP_KNOWN_PRIORITY_CLASSES, as
	 * gang_members.sql and snapshot/classes.sql do: all resolve alike */
	assert(strstr(kp_sql_plan_gang_copy_group, KP_KNOWN_PRIORITY_CLASSES));
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_gang_copy_group, -1, &grp, NULL) != SQLITE_OK)
		grp = NULL;   /* the copies keep the defaults */
	int rc = KP_OK, step;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int32_t pi = kp_snap_pod_index(&pl->s, sqlite3_column_int64(st, 0));
		const char *key = (const char *)sqlite3_column_text(st, 1);
		if (pi < 0)
			continue;
		if (!gs->n || strcmp(gs->v[gs->n - 1].key, key)) {
			if (KP_GROW(gs->v, gs->n, *cap, 16)) {
				rc = kp_plan_nomem(pl);
				break;
			}
			kp_gang *g = &gs->v[gs->n];
			memset(g, 0, sizeof *g);
			if (!(g->key = kp_strdup(key))) {
				rc = kp_plan_nomem(pl);
				break;
			}
			gs->n++;
			g->min_count = sqlite3_column_int(st, 2);
			g->gang = g->min_count > 1;
			g->size = sqlite3_column_int(st, 3);
			copy_group(grp, g);
		}
		rc = add_member(pl, &gs->v[gs->n - 1], pi);
	}
	if (!rc && step != SQLITE_DONE)
		rc = kp_interrupted ? kp_err_set(pl->err, KP_INTR, "interrupted")
				    : kp_err_set(pl->err, KP_IO, "reading the copies' gangs: %s", sqlite3_errmsg(pl->db));
	sqlite3_finalize(grp);
	sqlite3_finalize(st);
	return rc;
}

static int load_gangs(planner *pl)
{
	sqlite3_stmt *st;
	/* gang_members.sql spells out KP_KNOWN_PRIORITY_CLASSES (a PodGroup may
	 * name a built-in class), as snapshot/classes.sql does */
	assert(strstr(kp_sql_plan_gang_members, KP_KNOWN_PRIORITY_CLASSES));
	/* a database made before the Workload API tables has no gangs */
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_gang_members, -1, &st, NULL) != SQLITE_OK)
		return KP_OK;
	int rc = KP_OK, cap = 0, step;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = load_row(pl, st, &cap);
	if (!rc && step != SQLITE_DONE)
		rc = kp_interrupted ? kp_err_set(pl->err, KP_INTR, "interrupted")
				    : kp_err_set(pl->err, KP_IO, "reading the pods' groups: %s", sqlite3_errmsg(pl->db));
	sqlite3_finalize(st);
	if (!rc && pl->gangs.mode == KP_GANG_CYCLE)
		rc = load_copies(pl, &cap);
	return rc;
}

/* gate off: how many pods have a group, how many PodGroups / Workloads */
static void count_off(planner *pl)
{
	kp_gangs *gs = &pl->gangs;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(pl->db, "SELECT count(*) FROM pod_gang g JOIN pod p ON p.id = g.pod_id "
				       "WHERE p.node_name IS NULL AND p.phase NOT IN ('Succeeded', 'Failed')",
			       -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		gs->off_pods = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_gang_counts, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		gs->off_groups = sqlite3_column_int64(st, 0) + sqlite3_column_int64(st, 1);
		gs->jobs_with_workload = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
}

/* ---- PreEnqueue ---- */

/* pods of gang g that are not finished (kube's AllPodsCount: queued,
 * gated and bound) */
static int all_pods_count(const planner *pl, const kp_gang *g)
{
	int n = 0;
	for (int i = 0; i < g->npods; i++)
		n += pl->out[g->pods[i]].action != A_DONE;
	return n;
}

/* 1.35: key "ns/workload/podGroup[/replicaKey]" */
static void missing_135(kp_sb *m, const kp_gang *g)
{
	const char *wl = strchr(g->key, '/') + 1, *pg = strchr(wl, '/') + 1, *end = strchr(pg, '/');
	if (g->missing == 1)
		kp_sb_printf(m, "waiting for pods's workload \"%.*s\" to appear in scheduling queue", (int)(pg - 1 - wl), wl);
	else
		kp_sb_printf(m, "pod group \"%.*s\" doesn't exist for a workload \"%.*s\"",
			     (int)(end ? end - pg : (ptrdiff_t)strlen(pg)), pg, (int)(pg - 1 - wl), wl);
}

/* PreEnqueue rejects the queued pods of groups without their PodGroup or
 * with fewer than minCount pods: off the queue, with kube's message */
static int pre_enqueue(planner *pl, kp_plan_result *r)
{
	kp_gangs *gs = &pl->gangs;
	for (int k = 0; k < gs->n; k++) {
		kp_gang *g = &gs->v[k];
		int shortg = !g->missing && g->gang && all_pods_count(pl, g) < g->min_count;
		if (!g->missing && !shortg)
			continue;
		const char *slash = strrchr(g->key, '/');
		for (int i = 0; i < g->npods; i++) {
			pod_out *po = &pl->out[g->pods[i]];
			if (po->action != A_UNSCHED || po->node >= 0 || pl->s.pods[g->pods[i]].orig_node >= 0)
				continue;   /* only pods still to be queued (triage: pending, queued) */
			kp_sb m;
			kp_sb_init(&m);
			if (g->missing && gs->mode == KP_GANG_CYCLE)
				kp_sb_printf(&m, "waiting for pod's pod group \"%s\" to appear in scheduling queue", slash + 1);
			else if (g->missing)   /* 1.35 (v1alpha1 gangscheduling.go PreEnqueue), kube's "pods's" */
				missing_135(&m, g);
			else
				kp_sb_adds(&m, "waiting for minCount pods from a gang to appear in scheduling queue");
			if (!kp_sb_ok(&m))
				return kp_plan_nomem(pl);
			kp_free(po->message);
			po->message = m.buf;
			po->action = A_GATED;
			r->unschedulable++;
			if (g->missing)
				gs->missing_pods++;
			else
				gs->short_pods++;
		}
	}
	/* the queue keeps the others */
	int n = 0;
	for (int q = 0; q < pl->nqueue; q++)
		if (pl->out[pl->queue[q]].action != A_GATED)
			pl->queue[n++] = pl->queue[q];
	pl->nqueue = n;
	return KP_OK;
}

int kp_gang_setup(planner *pl, kp_plan_result *r)
{
	kp_gangs *gs = &pl->gangs;
	kp_snap *s = &pl->s;
	gs->off_why = gang_off_why(&s->kube, &gs->mode);
	/* workload-aware preemption (KEP-5710): 1.37's pod-group cycle; 1.36's
	 * alpha gate WorkloadAwarePreemption is refused (kube.h 'F') */
	gs->wap = gs->mode == KP_GANG_CYCLE && s->kube.minor >= 37;
	count_off(pl);
	if (kp_interrupted)
		return kp_err_set(pl->err, KP_INTR, "interrupted");
	if (gs->mode == KP_GANG_OFF)
		return KP_OK;
	gs->of = kp_malloc((size_t)(s->npods ? s->npods : 1) * sizeof *gs->of);
	if (!gs->of)
		return kp_plan_nomem(pl);
	for (int i = 0; i < s->npods; i++)
		gs->of[i] = -1;
	int rc = load_gangs(pl);
	if (rc)
		return rc;
	/* triage left queued pods A_KEEP (0) with node -1: mark them so
	 * pre_enqueue can tell them apart */
	for (int q = 0; q < pl->nqueue; q++)
		pl->out[pl->queue[q]].action = A_UNSCHED;
	rc = pre_enqueue(pl, r);
	for (int q = 0; q < pl->nqueue; q++)
		pl->out[pl->queue[q]].action = A_KEEP;
	if (rc)
		return rc;
	for (int k = 0; k < gs->n; k++)
		gs->disrupt_all += gs->v[k].disrupt_all;
	if (gs->n && (!(gs->in_heap = kp_calloc((size_t)s->npods, sizeof *gs->in_heap)) ||
		      !(gs->stale = kp_calloc((size_t)s->npods, sizeof *gs->stale))))
		return kp_plan_nomem(pl);
	return KP_OK;
}

void kp_gang_release(planner *pl)
{
	kp_gangs *gs = &pl->gangs;
	for (int k = 0; k < gs->n; k++) {
		kp_free(gs->v[k].key);
		kp_free(gs->v[k].pods);
	}
	kp_free(gs->v);
	kp_free(gs->of);
	kp_free(gs->in_heap);
	kp_free(gs->stale);
	memset(gs, 0, sizeof *gs);
}

/* ---- the queue ---- */

void kp_gang_heap_pushed(planner *pl, int32_t pi)
{
	if (pl->gangs.in_heap)
		pl->gangs.in_heap[pi]++;
}

int kp_gang_heap_popped(planner *pl, int32_t pi)
{
	kp_gangs *gs = &pl->gangs;
	if (!gs->in_heap)
		return 0;
	gs->in_heap[pi]--;
	if (gs->stale[pi] > 0) {
		gs->stale[pi]--;
		return 1;
	}
	return 0;
}

int kp_gang_member(const planner *pl, int32_t pi)
{
	return pl->gangs.of && pl->gangs.of[pi] >= 0;
}

int kp_gang_broken(const planner *pl, int32_t pi, char *why, size_t size)
{
	const kp_gangs *gs = &pl->gangs;
	if (!gs->of || gs->of[pi] < 0 || pl->s.pods[pi].node < 0)
		return 0;
	const kp_gang *g = &gs->v[gs->of[pi]];
	int placed = 0;
	for (int i = 0; g->gang && i < g->npods; i++)
		placed += pl->s.pods[g->pods[i]].node >= 0;
	if (!g->gang || placed >= g->min_count)
		return 0;
	snprintf(why, size, "its gang %s has %d of minCount %d pods placed", g->key, placed, g->min_count);
	return 1;
}

const char *kp_gang_of(const planner *pl, int32_t pi, int32_t *min_count, int32_t *size)
{
	const kp_gangs *gs = &pl->gangs;
	if (!gs->of || gs->of[pi] < 0)
		return NULL;
	const kp_gang *g = &gs->v[gs->of[pi]];
	*min_count = g->min_count;
	*size = g->size ? g->size : g->npods;
	return g->key;
}

/* ---- outcomes ---- */

static const char gang_plugin[] = "GangScheduling";

/* kp_gang_revert_pod (plan_int.h): pod pi, placed in this run, leaves its
 * node again (a reverted group) */
int kp_gang_revert_pod(planner *pl, int32_t pi)
{
	kp_snap_remove_pod(&pl->s, pi);
	if (kp_dra_release_owned(&pl->s, pi))
		return kp_plan_nomem(pl);
	pod_out *po = &pl->out[pi];
	po->action = A_UNSCHED;
	po->node = -1;
	po->has_score = 0;
	return KP_OK;
}

/* pod pi fails for its group: msg on every node (plugin GangScheduling) */
static int fail_pod(planner *pl, int32_t pi, const char *msg)
{
	kp_snap *s = &pl->s;
	pod_out *po = &pl->out[pi];
	int r = kp_reason_intern(s, gang_plugin, msg, 0);
	kp_free(po->fails);
	kp_free(po->message);
	po->fails = kp_malloc(sizeof *po->fails);
	po->message = kp_strdup(msg);
	if (r < 0 || !po->fails || !po->message)
		return kp_plan_nomem(pl);
	po->fails[0] = (fail_item){ r, s->nnodes };
	po->nfails = 1;
	po->action = A_UNSCHED;
	po->feasible = 0;
	po->has_score = 0;
	return KP_OK;
}

/* ---- the pod-group cycle (1.36+) ---- */

/* the group's order: priority (high first), then queue order (kube: the
 * InitialAttemptTimestamp; the popped pod first among equals) */
static int group_less(const void *a, const void *b, void *ctx)
{
	const planner *pl = ctx;
	const kp_snap *s = &pl->s;
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	int64_t px = s->classes[s->pods[x].cls].priority, py = s->classes[s->pods[y].cls].priority;
	if (px != py)
		return px > py ? -1 : 1;
	if (s->pods[x].requeued != s->pods[y].requeued)
		return s->pods[x].requeued ? 1 : -1;
	if (s->pods[x].created != s->pods[y].created)
		return s->pods[x].created < s->pods[y].created ? -1 : 1;
	return (pl->order[x] > pl->order[y]) - (pl->order[x] < pl->order[y]);
}

/* the group's pods still on the queue (the popped one first), taken off it */
static int take_queued(planner *pl, const kp_gang *g, int32_t first, int32_t *take)
{
	kp_gangs *gs = &pl->gangs;
	int nt = 0;
	take[nt++] = first;
	for (int i = 0; i < g->npods; i++) {
		int32_t m = g->pods[i];
		if (m == first || gs->in_heap[m] <= gs->stale[m] || pl->s.pods[m].node >= 0)
			continue;
		gs->stale[m] = gs->in_heap[m];
		take[nt++] = m;
	}
	kp_sort(take, (size_t)nt, sizeof *take, group_less, pl);
	return nt;
}

/* frameworkForPodGroup: every pod of a group names the same scheduler */
static const char *mixed_schedulers(planner *pl, const int32_t *take, int nt, kp_sb *msg)
{
	const kp_snap *s = &pl->s;
	kp_sid first = s->classes[s->pods[take[0]].cls].sched;
	for (int i = 1; i < nt; i++) {
		kp_sid other = s->classes[s->pods[take[i]].cls].sched;
		if (other != first) {
			kp_sb_printf(msg, "all pods in a single pod group should have the same .spec.schedulerName set, "
				     "got: \"%s\" and \"%s\"", kp_str(&s->strs, other), kp_str(&s->strs, first));
			return msg->buf;
		}
	}
	return NULL;
}

/* PlacementFeasible (gangscheduling.go): 1 go on, 0 the group cannot reach
 * minCount (message in msg) */
static int placement_feasible(const kp_gang *g, int scheduled, int remaining, kp_sb *msg)
{
	if (scheduled + remaining >= g->min_count)
		return 1;
	kp_sb_reset(msg);
	kp_sb_printf(msg, "minCount (%d) cannot be satisfied: %d scheduled, %d remaining", g->min_count, scheduled,
		     remaining);
	return 0;
}

/* kp_gang_revert (plan_int.h): the group failed, its pods placed in this
 * cycle leave again */
int kp_gang_revert(planner *pl, const int32_t *take, int tried, const uint8_t *placed)
{
	int rc = KP_OK;
	for (int i = tried - 1; i >= 0 && !rc; i--)
		if (placed[i])
			rc = kp_gang_revert_pod(pl, take[i]);
	return rc;
}

/* the failed group's pods (reverted) and the ones not tried get the
 * group's message, the ones that failed keep their own; none is tried
 * again before another binding.  The run's binding count is binds0 again
 * (nothing bound), plus one when the group preempted (the evictions are a
 * cluster event; the group's pods were queued again). */
static int group_failed(planner *pl, const int32_t *take, int nt, int tried, const uint8_t *placed,
			const char *msg, int64_t binds0, int preempted)
{
	int rc = KP_OK;
	for (int i = 0; i < nt && !rc; i++) {
		pod_out *po = &pl->out[take[i]];
		if (i >= tried) {
			po->attempts++;
			po->seq = ++pl->seq;
		}
		if (i >= tried || placed[i] || !po->message)
			rc = fail_pod(pl, take[i], msg);
		po->last_bind_stamp = binds0 + preempted;
	}
	pl->binds = binds0 + preempted;
	pl->gangs.failed++;
	return rc;
}

/* kp_gang_try (plan_int.h): podGroupSchedulingDefaultAlgorithm */
int kp_gang_try(planner *pl, const kp_gang *g, const int32_t *take, int nt, int profile_idx, uint8_t *placed,
		int *tried, int *ok, kp_sb *msg)
{
	const kp_snap *s = &pl->s;
	int scheduled = 0, any = 0, rc = KP_OK;
	for (int i = 0; i < g->npods; i++)
		scheduled += s->pods[g->pods[i]].node >= 0;
	memset(placed, 0, (size_t)nt);
	*tried = 0;
	*ok = 0;
	if (!placement_feasible(g, scheduled, nt, msg))
		return KP_OK;
	int preemption = pl->preemption;
	pl->preemption = 0;   /* no PostFilter in a pod-group cycle */
	while (*tried < nt && !rc) {
		int32_t pi = take[*tried];
		rc = kp_plan_schedule_one(pl, pi, profile_idx);
		placed[*tried] = !rc && pl->out[pi].action == A_BIND;
		scheduled += placed[*tried];
		any |= placed[*tried];
		(*tried)++;
		if (!placement_feasible(g, scheduled, nt - *tried, msg))
			break;
	}
	pl->preemption = preemption;
	if (rc)
		return rc;
	*ok = scheduled >= g->min_count && any;
	if (!any && scheduled >= g->min_count) {
		kp_sb_reset(msg);
		kp_sb_adds(msg, "no pods were schedulable");
	}
	return KP_OK;
}

/* the group failed (reverted): workload-aware preemption when it runs
 * (1.37); its status is appended to the group's ("MSG, pod group
 * preemption: WHY"), or the group's pods are back on the queue */
static int group_preempt(planner *pl, kp_gang *g, const int32_t *take, int nt, int profile_idx, kp_sb *msg,
			 int *preempted)
{
	*preempted = 0;
	if (!pl->gangs.wap || !pl->preemption || !pl->cfg.profiles[profile_idx].post_filter[KP_P_DEFAULT_PREEMPTION])
		return KP_OK;
	kp_sb why;
	kp_sb_init(&why);
	int r = kp_gang_preempt(pl, g, take, nt, profile_idx, &why);
	if (r > 0) {
		*preempted = 1;
		pl->gangs.preemptions++;
	} else if (!r && why.len) {
		pl->gangs.preempt_failed++;
		kp_sb_printf(msg, ", pod group preemption: %s", why.buf);
	}
	kp_sb_release(&why);
	if (r < 0)
		return r == KP_NOMEM ? kp_plan_nomem(pl) : r;
	return kp_sb_ok(msg) ? KP_OK : kp_plan_nomem(pl);
}

static int group_cycle(planner *pl, int32_t first, int profile_idx)
{
	kp_gangs *gs = &pl->gangs;
	kp_gang *g = &gs->v[gs->of[first]];
	int32_t *take = kp_malloc((size_t)g->npods * sizeof *take);
	uint8_t *placed = kp_calloc((size_t)g->npods, 1);
	kp_sb msg;
	kp_sb_init(&msg);
	if (!take || !placed) {
		kp_free(take);
		kp_free(placed);
		return kp_plan_nomem(pl);
	}
	int nt = take_queued(pl, g, first, take), tried = 0, rc = KP_OK, ok = 0, preempted = 0;
	int64_t binds0 = pl->binds;
	if (mixed_schedulers(pl, take, nt, &msg)) {
		rc = group_failed(pl, take, nt, 0, placed, kp_sb_ok(&msg) ? msg.buf : "out of memory", binds0, 0);
		goto done;
	}
	rc = kp_gang_try(pl, g, take, nt, profile_idx, placed, &tried, &ok, &msg);
	if (rc || ok)
		goto done;
	rc = kp_gang_revert(pl, take, tried, placed);
	if (!rc)
		rc = group_preempt(pl, g, take, nt, profile_idx, &msg, &preempted);
	if (!rc)
		rc = group_failed(pl, take, nt, tried, placed, kp_sb_ok(&msg) ? msg.buf : "out of memory", binds0,
				  preempted);
done:
	kp_sb_release(&msg);
	kp_free(take);
	kp_free(placed);
	return rc;
}

int kp_gang_schedule(planner *pl, int32_t pi, int profile_idx)
{
	kp_gangs *gs = &pl->gangs;
	if (gs->mode != KP_GANG_CYCLE || !gs->of || gs->of[pi] < 0)
		return kp_plan_schedule_one(pl, pi, profile_idx);
	return group_cycle(pl, pi, profile_idx);
}

/* ---- the Permit wait (1.35) ---- */

int kp_gang_pass_end(planner *pl, int *changed)
{
	kp_gangs *gs = &pl->gangs;
	kp_snap *s = &pl->s;
	*changed = 0;
	if (gs->mode != KP_GANG_PERMIT)
		return KP_OK;
	for (int k = 0; k < gs->n; k++) {
		kp_gang *g = &gs->v[k];
		int bound = 0, waiting = 0;
		for (int i = 0; i < g->npods; i++) {
			int32_t m = g->pods[i];
			bound += s->pods[m].node >= 0;
			waiting += pl->out[m].action == A_BIND && s->pods[m].orig_node < 0;
		}
		if (g->permitted || !waiting)
			continue;
		if (bound >= g->min_count) {
			g->permitted = 1;   /* minCount waiting: all of them bind */
			continue;
		}
		/* the waiting pods time out at Permit and leave their nodes */
		g->timeouts++;
		gs->failed++;
		pl->binds++;
		*changed = 1;
		for (int i = 0; i < g->npods; i++) {
			int32_t m = g->pods[i];
			if (pl->out[m].action != A_BIND || s->pods[m].orig_node >= 0)
				continue;
			int rc = kp_gang_revert_pod(pl, m);
			if (!rc)
				rc = fail_pod(pl, m, "rejected due to timeout after waiting " PERMIT_TIMEOUT
						     " at plugin GangScheduling");
			if (rc)
				return rc;
		}
		/* tried again after another binding, a few times at most */
		for (int i = 0; i < g->npods; i++)
			if (pl->out[g->pods[i]].action == A_UNSCHED)
				pl->out[g->pods[i]].last_bind_stamp = g->timeouts >= MAX_PERMIT_TIMEOUTS ? INT64_MAX : pl->binds;
	}
	return KP_OK;
}

/* ---- warnings ---- */


/* gangs left short of minCount that a lower-priority bound pod might make
 * room for, where kplan does not model kube's preemption (1.36's inside
 * the cycle; 1.37's workload-aware preemption is plan_gang_preempt.c) */
static long gangs_wanting_preemption(const planner *pl)
{
	const kp_gangs *gs = &pl->gangs;
	const kp_snap *s = &pl->s;
	int64_t minp = INT64_MAX;
	for (int i = 0; i < s->npods; i++)
		if (s->pods[i].node >= 0 && s->classes[s->pods[i].cls].priority < minp)
			minp = s->classes[s->pods[i].cls].priority;
	long n = 0;
	for (int k = 0; k < gs->n; k++) {
		const kp_gang *g = &gs->v[k];
		int64_t prio = INT64_MIN;
		int left = 0;
		for (int i = 0; i < g->npods; i++) {
			int32_t m = g->pods[i];
			left += pl->out[m].action == A_UNSCHED && s->pods[m].node < 0;
			if (s->classes[s->pods[m].cls].priority > prio)
				prio = s->classes[s->pods[m].cls].priority;
		}
		n += left && prio > minp;
	}
	return n;
}

/* 1.37: groups left short whose PodGroup names no priority while their pods
 * have a higher one (workload-aware preemption ranks the PodGroup's) */
static long gangs_without_priority(const planner *pl)
{
	const kp_gangs *gs = &pl->gangs;
	const kp_snap *s = &pl->s;
	long n = 0;
	for (int k = 0; k < gs->n; k++) {
		const kp_gang *g = &gs->v[k];
		int left = 0, higher = 0;
		for (int i = 0; i < g->npods && !g->prio_set && !g->missing; i++) {
			int32_t m = g->pods[i];
			left |= pl->out[m].action == A_UNSCHED && s->pods[m].node < 0;
			higher |= s->classes[s->pods[m].cls].priority > g->priority;
		}
		n += left && higher;
	}
	return n;
}

void kp_gang_warnings(const planner *pl, kp_plan_result *r)
{
	const kp_gangs *gs = &pl->gangs;
	if (gs->mode == KP_GANG_OFF) {
		if (gs->off_pods || gs->off_groups)
			kp_plan_warn(r, "gang: %ld pending pod(s) name a scheduling group and %ld PodGroup/Workload object(s) were "
				"imported, but %s: pods planned one by one, as kube does without the Workload API "
				"(--feature-gates GenericWorkload=true%s; docs/gangs.md)", gs->off_pods, gs->off_groups,
			     gs->off_why, pl->s.kube.minor <= 36 ? ",GangScheduling=true" : "");
		if (gs->jobs_with_workload)
			kp_plan_warn(r, "gang-job: %ld Job(s) are the controllerRef of a Workload without a PodGroup: the Job controller's PodGroups "
				"(WorkloadWithJob, alpha, off) are not modelled; import the PodGroups (docs/gangs.md)",
			     gs->jobs_with_workload);
		return;
	}
	if (gs->missing_pods || gs->short_pods)
		kp_plan_warn(r, "gang-waiting: %ld pod(s) wait outside the queue (PreEnqueue): %ld for a PodGroup that was not "
			"imported, %ld for a gang with fewer pods than its minCount", gs->missing_pods + gs->short_pods,
		     gs->missing_pods, gs->short_pods);
	if (gs->other_form)
		kp_plan_warn(r, "gang-field: %ld pod(s) name their group with %s, which kube 1.%d drops: planned one by one",
		     gs->other_form, gs->mode == KP_GANG_PERMIT ? "spec.schedulingGroup (1.36+)" : "spec.workloadRef (1.35)",
		     pl->s.kube.minor);
	long pre = pl->preemption && !gs->wap ? gangs_wanting_preemption(pl) : 0;
	if (pre)
		kp_plan_warn(r, "gang-preemption: %ld gang(s) left short of minCount while lower-priority pods run: "
			"kube 1.%d's preemption for a pod group is not modelled; kplan's gangs preempt only in 1.37 "
			"(workload-aware preemption; docs/gangs.md)", pre, pl->s.kube.minor);
	long noprio = pl->preemption && gs->wap ? gangs_without_priority(pl) : 0;
	if (noprio)
		kp_plan_warn(r, "gang-priority: %ld gang(s) left short of minCount have a PodGroup without priority or "
			"priorityClassName while their pods have a higher priority: workload-aware preemption takes the "
			"PodGroup's (the global default, else 0), as kube does (docs/gangs.md)", noprio);
	if (gs->disrupt_all)
		kp_plan_warn(r, "gang-disruption: %ld pod group(s) have disruptionMode All: %stheir pods may still be preempted "
			"one by one by a single pod's preemption here (docs/gangs.md)", gs->disrupt_all,
		     gs->wap ? "a pod group's preemption evicts them whole, but " : "");
	if (gs->jobs_with_workload)
		kp_plan_warn(r, "gang-job: %ld Job(s) are the controllerRef of a Workload without a PodGroup: the Job controller's PodGroups "
			"(WorkloadWithJob, alpha, off) are not modelled; import the PodGroups (docs/gangs.md)",
		     gs->jobs_with_workload);
}
