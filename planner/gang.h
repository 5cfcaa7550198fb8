/*
 * gang.h — gang scheduling as kube-scheduler does it with the Workload API
 * (docs/gangs.md): pods of one PodGroup (kube 1.36+: spec.schedulingGroup;
 * 1.35: spec.workloadRef) bind at least the group's minCount or none.
 *
 *   1.36+ (GenericWorkload on; 1.36 also GangScheduling): the pod-group
 *         cycle — when the queue pops a group's first pod, every pod of the
 *         group still queued is scheduled in one cycle, without preemption,
 *         in the group's order (priority, then queue order); PlacementFeasible
 *         ends it early; a group that does not reach minCount is reverted.
 *   1.35  (GenericWorkload and GangScheduling on): pod by pod; placed pods
 *         wait at Permit until minCount of the group are placed; a group
 *         still short when the queue drains times out (5m0s) and is reverted.
 *   PreEnqueue (both): a pod whose PodGroup is missing, or whose group has
 *         fewer pods than minCount, never enters the queue.
 *   Gate off: pods are planned one by one, the run warns.
 *
 * Private to the planner's plan run (planner/plan*.c, gang.c).
 */
#ifndef KP_GANG_H
#define KP_GANG_H

#include <stddef.h>
#include <stdint.h>

struct planner;
struct kp_plan_result;

enum { KP_GANG_OFF = 0, KP_GANG_CYCLE = 1, KP_GANG_PERMIT = 2 };

typedef struct kp_gang {
	char *key;                   /* "ns/name" (1.35: "ns/workload/podGroup[/replicaKey]") */
	int32_t min_count;           /* gang.minCount; 1 for basic */
	uint8_t gang;                /* policy gang */
	uint8_t missing;             /* no PodGroup (1.35: Workload template) imported */
	uint8_t disrupt_all;         /* disruptionMode All (not modelled: warned) */
	uint8_t permitted;           /* 1.35: minCount reached once, its pods bound */
	int32_t timeouts;            /* 1.35: Permit timeouts so far */
	int32_t npods;
	int32_t *pods;               /* members, pod indexes ascending */
} kp_gang;

typedef struct kp_gangs {
	int mode;                    /* KP_GANG_* */
	int n;
	kp_gang *v;
	int32_t *of;                 /* per pod: its gang, -1 none (NULL: no gangs) */
	int32_t *in_heap;            /* per pod: its entries on the queue's heap */
	int32_t *stale;              /* per pod: entries a group cycle took, skipped when popped */
	/* for the warnings */
	long off_pods, off_groups;   /* gate off: pods with a group and PodGroups / Workloads imported */
	const char *off_why;         /* why off */
	long missing_pods, short_pods, failed, need_preempt, jobs_with_workload, disrupt_all, other_form;
} kp_gangs;

/* After triage: load the groups of the pods, apply PreEnqueue (pods taken
 * off the queue, unschedulable with kube's message).  KP_OK or an error. */
int kp_gang_setup(struct planner *pl, struct kp_plan_result *r);
void kp_gang_release(struct planner *pl);
/* the queue's heap took / gave back an entry of pod pi */
void kp_gang_heap_pushed(struct planner *pl, int32_t pi);
/* pi popped: 1 when the entry is stale (a group cycle took it), skip it */
int kp_gang_heap_popped(struct planner *pl, int32_t pi);
/* pod pi is a member of an active gang (rebalance never moves one) */
int kp_gang_member(const struct planner *pl, int32_t pi);
/* Schedule popped pod pi: its group's cycle (1.36+), or pod by pod (1.35,
 * pods without a group). */
int kp_gang_schedule(struct planner *pl, int32_t pi, int profile_idx);
/* After a pass drained the queue (1.35): gangs short of minCount time out.
 * *changed = 1 when a gang was reverted. */
int kp_gang_pass_end(struct planner *pl, int *changed);
/* pod pi is placed and a member of a gang (policy gang) with fewer than
 * minCount pods placed now: 1, and why ("its gang NS/NAME has ...") */
int kp_gang_broken(const struct planner *pl, int32_t pi, char *why, size_t size);
/* the run's gang warnings into r */
void kp_gang_warnings(const struct planner *pl, struct kp_plan_result *r);

#endif
