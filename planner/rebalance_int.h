/*
 * rebalance_int.h — what the rebalance modules share (private to
 * planner/rebalance*.c; the public view is rebalance.h):
 *
 *   rebalance.c             the object, command-line options, defaults and
 *                           checks, the effective settings as JSON, the summary
 *   rebalance_config.c      the policy file (--rebalance-config) and the
 *                           settings a run recorded (explain's replay)
 *   rebalance_run.c         the run: the evictor's rules and limits, one move
 *                           simulated with the planner, waves, utilisation
 *   rebalance_strategies.c  the seven descheduler strategies: which pods each
 *                           proposes to move, and where they may not go
 *   rebalance_write.c       the rebalance tables (queries/rebalance/)
 */
#ifndef KP_REBALANCE_INT_H
#define KP_REBALANCE_INT_H

#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "rebalance.h"

#include <stdint.h>

/* the strategies, in the order a run applies them */
enum { S_TAINTS, S_AFFINITY, S_ANTI, S_DUPS, S_SPREAD, S_LOW, S_HIGH, S_COUNT };
/* the resources of the utilisation thresholds */
enum { R_CPU, R_MEM, R_PODS, R_COUNT };

extern const char *const kp_rb_snames[S_COUNT];   /* descheduler's plugin names */
extern const char *const kp_rb_rnames[R_COUNT];   /* "cpu", "memory", "pods" */

typedef struct move {
	int32_t pod, from, to;
	int strategy, wave;
	double gain, cost;
	char *detail;
} move;

struct kp_rebalance {
	unsigned strategies;
	int strategies_set;          /* from --strategies or the policy's plugins */
	long max_moves, max_per_node, max_per_ns;   /* -1: no limit */
	int has_prio;
	int64_t prio;
	char **ns_list;
	int nns, ns_exclude;         /* ns_exclude: ns_list is excluded, else included (nns > 0) */
	/* DefaultEvictor; evict_bare: kplan's evictBarePods (descheduler has only evictFailedBarePods) */
	int evict_local, evict_critical, ignore_pvc, evict_bare;
	/* strategy arguments */
	int taints_prefer;
	char **excluded_taints;
	int nexcluded_taints;
	int spread_soft;             /* constraints: ScheduleAnyway too */
	char **dup_exclude_kinds;
	int ndup_exclude;
	double low_thr[R_COUNT], low_target[R_COUNT], high_thr[R_COUNT];
	int low_set, high_set;
	long low_nodes, high_nodes;  /* numberOfNodes */
	/* results */
	move *moves;
	int nmoves, cap_moves, nwaves;
	long no_home, limited, kept, nodes_freed;   /* kept: by the evictor's rules */
	double cost;
	double mean_b[R_COUNT], sd_b[R_COUNT], mean_a[R_COUNT], sd_a[R_COUNT];
	int nodes_r[R_COUNT];
	/* run state */
	const kp_rb_host *h;
	kp_err *err;
	uint8_t *moved;              /* per pod */
	uint8_t *refused;            /* per pod: 1 a limit or PDB said no, 2 no other home, 4 the evictor's rules */
	uint8_t *avoid;              /* per node, scratch */
	int32_t *out_count;          /* per node: moves out */
	int32_t *ns_count;           /* per namespace sid */
	int nns_count;
	uint8_t *had_app;            /* per node, before */
};

/* ---- rebalance.c ---- */

void kp_rb_free_list(char **v, int n);
/* the S_* index of a strategy name, -1 when none */
int kp_rb_strategy_index(const char *name);
/* KP_USAGE with the message in err */
int kp_rb_usage(kp_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1 and *out for a plain non-negative decimal, else 0 */
int kp_rb_parse_count(const char *v, long *out);
/* the effective settings as one JSON object (run.options $.rebalance, rebalance_run.settings) */
void kp_rb_settings_json(const kp_rebalance *rb, kp_sb *sb);

/* ---- rebalance_run.c: the snapshot as the strategies see it, and moves ---- */

static inline const kp_class *kp_rb_cls(const kp_snap *s, int32_t pi) { return &s->classes[s->pods[pi].cls]; }
/* the pods on node n that are not per-node pods */
int kp_rb_app_pods(const kp_snap *s, int n);
/* node n's utilisation of resource R_* in percent (0 without allocatable) */
double kp_rb_util(const kp_snap *s, int n, int r);
/* The pods on node n in eviction order (lowest priority first, then the
 * newest), a copy the caller frees (kp_free); NULL on out of memory. */
int32_t *kp_rb_sorted_pods_on(const kp_snap *s, int n, int *count);
/* Try to move pod pi off its node (simulated with the planner); the nodes
 * avoid marks (NULL: none) and its own node are excluded.  1 moved (the last
 * of rb->moves), 0 not (left where it is, the reason counted), < 0 error. */
int kp_rb_try_move(kp_rebalance *rb, int32_t pi, const uint8_t *avoid, int strategy, double gain, const char *detail);
/* Forget the last move and put its pod back; KP_OK or the host's error. */
int kp_rb_drop_move(kp_rebalance *rb);
/* KP_NOMEM with "out of memory" in rb->err */
int kp_rb_nomem(kp_rebalance *rb);

/* ---- rebalance_strategies.c ---- */

/* Each strategy by S_*: proposes its moves through kp_rb_try_move; KP_OK,
 * or < 0 / an error code with rb->err set. */
extern int (*const kp_rb_strategy[S_COUNT])(kp_rebalance *rb);

#endif
