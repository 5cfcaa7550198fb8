/*
 * fix_result.h — what `kplan fix` found (planner/fix.c makes it, reports/
 * fix_text.c renders it): plain data every layer may read, as
 * explain_result.h is for explain.
 */
#ifndef KP_FIX_RESULT_H
#define KP_FIX_RESULT_H

#include <stdint.h>

/* Disruption order, lowest first (planner/fix.h says what each means). */
enum kp_fix_level {
	KP_FIX_ADD_NODE = 1,
	KP_FIX_EVICT,
	KP_FIX_MOVE_GPU,
	KP_FIX_RELAX_SOFT,
	KP_FIX_RELAX_HARD,
	KP_FIX_UNTAINT_DEDICATED,
};
/* "add-node", "evict", "move-gpu", "relax-soft", "relax-hard",
 * "untaint-dedicated"; "" for another value */
static inline const char *kp_fix_level_name(int level)
{
	static const char *const names[] = { "", "add-node", "evict", "move-gpu", "relax-soft", "relax-hard",
					     "untaint-dedicated" };
	return level >= KP_FIX_ADD_NODE && level <= KP_FIX_UNTAINT_DEDICATED ? names[level] : "";
}

typedef struct kp_fix_cand {
	const char *kind;            /* evict | add-node | move | relax */
	int level;                   /* kp_fix_level */
	char *detail;                /* in words */
	char *victims;               /* JSON array of "namespace/name" */
	char *node;                  /* where the check placed the pod */
	char *wopt, *wval;           /* the what-if option it was checked with */
	int joint;                   /* part of the joint change set */
} kp_fix_cand;

typedef struct kp_fix_pod {
	int64_t id, prio, class_id;
	char *ns, *name;
	int still;                   /* unschedulable in the replay of the baseline */
	int gpu;                     /* asks GPUs as devices: move-gpu candidates were looked for */
	int ncands;
	kp_fix_cand *cands;          /* best first */
	char *joint_node;            /* where the joint check placed it; NULL: not placed */
	char *pinned;                /* what its volumes pin it to, in the baseline replay ("pinned to zone a by
	                              * PV pv-0 (claim data)"); NULL none */
} kp_fix_pod;

typedef struct kp_fix_result {
	int64_t run;
	uint64_t seed;
	int preemption;              /* the baseline's: 1 on */
	int preemption_from_run;     /* 1: as the run recorded it */
	int from_run;                /* 1: the baseline is the state the run left */
	char config[1024];           /* the configuration the checks used */
	char kube[1100];             /* "kube 1.37 (feature gates: ...)": the run's, as the checks used it */
	int tie_rank;                /* the baseline broke ties by the seeded node ranking (--tie-break node-rank) */
	long unschedulable;          /* in the run */
	int npods;                   /* examined */
	kp_fix_pod *pods;
	long plans;                  /* dry runs */
	int joint_changes, joint_placed, joint_wanted;   /* the joint set: changes, pods placed of wanted */
	int recorded;                /* rows written */
} kp_fix_result;

#endif
