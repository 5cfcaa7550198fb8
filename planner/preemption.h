/*
 * preemption.h — DefaultPreemption (plugins/default_preemption.c), called by
 * the plan loop when no node passed the filters.
 */
#ifndef KP_PREEMPTION_H
#define KP_PREEMPTION_H

#include "cycle.h"

typedef struct kp_candidate {
	int node;
	int32_t *victims;            /* pod indexes, most important first */
	uint8_t *violating;          /* per victim: its eviction breaks a PDB */
	int nvictims, npdb_violations;
	int64_t highest;             /* priority of victims[0] (kube: Pods[0]) */
	int64_t sum, earliest;       /* sum of priority + 2^31; earliest start among the highest-priority victims */
} kp_candidate;

typedef struct kp_preempt_result {
	int chosen;                  /* index into cands, -1 when preemption cannot help */
	kp_candidate *cands;
	int ncands;
	char *message;               /* when chosen < 0: the text after "preemption: " */
} kp_preempt_result;

/* Run DefaultPreemption for cy's pod after its filters found no node (cy's
 * verdicts are the filter statuses).  allowed: disruptions each PDB allows
 * now (s->npdbs entries).  The snapshot is unchanged on return. */
int kp_preempt(kp_cycle *cy, const int64_t *allowed, kp_preempt_result *out);
void kp_preempt_release(kp_preempt_result *r);

/* pickOneNodeForPreemption over c[0..n): fewest PDB violations, lowest
 * highest, smallest sum, fewest victims, latest earliest, then the seeded
 * hash of (pod_id, node); the index into c */
int kp_preempt_pick(const kp_candidate *c, int n, uint64_t seed, int64_t pod_id, const kp_snap *s);

/* The PDB covers this pod for preemption (same namespace, non-empty selector
 * matching its labels, not already in status.disruptedPods). */
int kp_pdb_matches(const kp_snap *s, const kp_pdb *d, const kp_pod *p);

/* For victims in order, which evictions break a PDB (filterPodsWithPDBViolation). */
int kp_pdb_violations(const kp_snap *s, const int64_t *allowed, int32_t *victims, int n, uint8_t *violating);

#endif
