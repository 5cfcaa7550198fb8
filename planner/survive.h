/*
 * survive.h — losing a domain of nodes without re-planning the cluster
 * (`kplan capacity --survive`, planner/capacity_survive.c).
 *
 * The baseline is planned once and kept in memory as the state it leaves
 * (the pods it placed bound there, its victims gone or re-created and
 * pending: what `plan --from-run` starts from).  Each domain is then the
 * plan of that state with the domain's nodes removed (what-if
 * remove-nodes): its DaemonSet, static and terminating pods go with their
 * nodes, the others are pending again and scheduled with the pods the
 * baseline left pending, in queue order, with preemption and batch retry,
 * by the planner's own cycle; the pods bound elsewhere stay (unless
 * preempted).  The answer is that of `kplan plan --from-run BASE
 * --remove-nodes DOMAIN` (tests/t/45-capacity-survive.t checks it); only the
 * cost differs: the domain's pods, not the cluster's, are scheduled, and the
 * baseline state is restored after each domain.
 *
 *   kp_survive *sv;
 *   const char *why;
 *   kp_survive_open(db, &o, &base, &sv, &why, &err);   // o->on_pod: the baseline's pods
 *   if (!why) kp_survive_eval(sv, "topology.kubernetes.io/zone", "a", NULL, &r);
 *   kp_survive_close(sv);
 */
#ifndef KP_SURVIVE_H
#define KP_SURVIVE_H

#include "plan.h"

typedef struct kp_survive kp_survive;

/* The baseline: a dry plan run with o (dry_run, no what-if, no on_quality;
 * o must outlive sv), its outcomes to o->on_pod / on_node.  *why NULL when
 * the domains can be evaluated here, else what the evaluation does not
 * model (volumes, ResourceClaims, extenders, gangs, percentageOfNodesToScore)
 * and *out is kept only so that it can be closed. */
int kp_survive_open(sqlite3 *db, const kp_plan_opts *o, kp_plan_result *r, kp_survive **out, const char **why,
		    kp_err *err);
/* The plan without the nodes whose label (NULL: the node named value)
 * has value: its outcomes to o->on_pod (only the pods whose outcome is not
 * 'keep' where the baseline left them: a pod kept, or gone with the nodes,
 * is not reported) and on_node (the nodes left); with on_quality (NULL:
 * none), r's counts and on_quality (its rows written to the dry-run tables
 * as kp_plan_run would, without the nodes).  The baseline state is back
 * after. */
int kp_survive_eval(kp_survive *sv, const char *label, const char *value,
		    int (*on_quality)(void *ctx, sqlite3 *db, int64_t run_id), kp_plan_result *r);
void kp_survive_close(kp_survive *sv);   /* NULL ok */

#endif
