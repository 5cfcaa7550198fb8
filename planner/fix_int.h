/*
 * fix_int.h — what the fix modules share (private to planner/fix*.c):
 * fix.c (the run, the checks, ranking, the joint set, the rows),
 * fix_evict.c (the cluster after the run on the snapshot; eviction
 * candidates), fix_relax.c (taints and constraints to relax).
 */
#ifndef KP_FIX_INT_H
#define KP_FIX_INT_H

#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "fix.h"
#include "snapshot.h"
#include "../common/db.h"

#define FIX_EVICT_TRIES 3


typedef struct fixer {
	sqlite3 *db;
	kp_err *err;
	const kp_fix_opts *o;
	kp_fix_result *r;
	uint64_t seed;
	int no_preemption;
	char *config;
	char kube_version[16], feature_gates[2048];   /* the run's (kube_db.h); "" before they were recorded */
	int kube_exact;
	char nodes_to_score[16];     /* the run's --nodes-to-score, "" none */
	char tie_break[16];          /* the run's --tie-break, "" none */
	char **wopts;                /* the run's scenario: option, value pairs */
	int nw, capw;
	/* the dry run being read */
	int want;                    /* index into r->pods, -1 none */
	uint8_t *placed;             /* per target: placed by the last dry run */
	char **placed_node;          /* per target: where (owned) */
	struct kp_fix_by_id { int64_t id; int i; } *by_id;   /* targets' pod ids and indexes, by id */
	/* the cluster after the run (fix_evict.c) */
	int have_snap;
	kp_snap s;
	uint8_t *keep;               /* per snapshot pod: kept on its node by the run (a possible victim) */
	/* pods the last dry run must also place (a move's moved pods): ids,
	 * sorted, and how many of them it left without a node */
	const int64_t *watch;
	int nwatch, watch_lost;
	long base_lost, last_lost;   /* pods without a node after the baseline replay, after the last dry run */
	/* fix_gpu.c: the run's GPU allocations, read once, by node
	 * (gpu_hold[gpu_hold_off[n] .. gpu_hold_off[n + 1])) */
	struct kp_fix_holder *gpu_hold;
	int32_t *gpu_hold_off;
	uint8_t gpu_hold_read;
} fixer;

int kp_fix_nomem(fixer *f);
int kp_fix_dbfail(fixer *f);
/* One dry run of the baseline plus the pairs extra[0..2n) (NULL, 0: none);
 * fills f->placed / f->placed_node for every target. */
int kp_fix_plan(fixer *f, char **extra, int n);
/* Append a checked candidate to pod t (detail, victims copied). */
int kp_fix_add_cand(fixer *f, kp_fix_pod *t, const char *kind, int level, const char *detail, const char *victims,
		    const char *wopt, const char *wval, int ti);
/* 1 when t already has the most candidates asked for */
int kp_fix_full(const fixer *f, const kp_fix_pod *t);

/* fix_evict.c */
int kp_fix_load_cluster(fixer *f);
/* the pod of class c fits on node n with freed[] (per resource) and
 * freed_pods given back; any_pods: it needs a pod slot */
int kp_fix_fits(const kp_snap *s, const kp_class *c, int n, const int64_t *freed, int freed_pods, int any_pods);
int kp_fix_try_evict(fixer *f, kp_fix_pod *t, int ti);
/* 1 when the taint KEY=VALUE (NoSchedule/NoExecute) marks one of its nodes
 * as dedicated to something pod t does not use (fix.h); why in *why */
int kp_fix_dedicated(fixer *f, const kp_fix_pod *t, const char *key, const char *value, kp_sb *why);

/* fix_gpu.c: shared GPU pods moved off one GPU (or whole-GPU pods off
 * GPUs) of one node so the pod fits there, the moved pods placed again */
int kp_fix_try_move_gpu(fixer *f, kp_fix_pod *t, int ti);

/* fix_relax.c */
int kp_fix_try_relax(fixer *f, kp_fix_pod *t, int ti, int level);

#endif
