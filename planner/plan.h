/*
 * plan.h — one plan run: place every pending pod as kube-scheduler would,
 * one at a time in queue order, and write the run's tables.
 *
 *   kp_plan_opts o = { .seed = 1 };
 *   kp_plan_result r;
 *   kp_plan_run(db, &o, &r, &err);     // appends run r.run_id
 */
#ifndef KP_PLAN_H
#define KP_PLAN_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>
#include "../common/kp.h"
#include "../common/kube.h"

#define KP_DEFAULT_SEED 1
#define KP_PLAN_MAX_WARNINGS 32

struct kp_plan_result;
struct kp_whatif;
struct kp_rebalance;
struct kp_explain;

/* One pod's outcome, for kp_plan_opts.on_pod (capacity: planner/capacity*.c).
 * action: keep, bind, move, evict, unschedulable, ignored (another scheduler)
 * or done (finished, or bound to a node that is not there). */
typedef struct kp_plan_pod {
	int64_t pod_id;              /* pod.id; negative: a pod of the what-if scenario */
	int64_t class_id;
	int64_t priority;            /* resolved, as the queue orders it */
	const char *ns, *name, *action;
	int64_t node_id;             /* where it is after the run; 0 none */
	const char *node;            /* NULL none */
	int displaced;               /* bound before the run, or taken off a node by the scenario */
	int32_t seq;                 /* decision order (0: not attempted) */
	const char *message;         /* kube's message when unschedulable; NULL */
	/* unschedulable: what its volumes pin it to ("pinned to zone a by PV
	 * pv-0 (claim data-db-0)"); NULL none */
	const char *pinned;
	/* unschedulable, with a scenario that added nodes: would the pod pass
	 * the filters that do not depend on other pods (the static ones: taints,
	 * nodeSelector, node affinity; NodeResourcesFit) on the first added node
	 * holding only its DaemonSet pods?  0: no, so no number of such nodes
	 * helps; 1: yes; -1: not judged */
	int fits_empty_added;
	/* its GPU request as devices (gpu_frag.h): GPUs x milli of each; 0 none */
	int64_t gpu_milli;
	/* placed, but a member of a gang with fewer than minCount pods placed
	 * after the run (docs/gangs.md): capacity counts it lost with its gang */
	int gang_broken;
	/* its gang, NULL none: key, minCount, pods per gang (docs/gangs.md) */
	const char *gang;
	int32_t gang_min, gang_size;
} kp_plan_pod;

/* One node and resource after the run, for kp_plan_opts.on_node (resource
 * "pods": pod slots, requested = pods on the node; KP_PLAN_GPU_RES: its GPUs
 * as devices, gpu_frag.h, in milli: allocatable GPUs x 1000, requested the
 * milli allocated). */
#define KP_PLAN_GPU_RES "GPU milli (devices)"
typedef struct kp_plan_node {
	int64_t node_id;             /* negative: added by the scenario */
	const char *node, *resource;
	int64_t allocatable, requested;
} kp_plan_node;

typedef struct kp_plan_opts {
	uint64_t seed;
	int no_preemption;
	const char *config_file;     /* --config; NULL: latest imported, else defaults */
	/* --kube-version, --feature-gates (kube_db.h); NULL: the database's
	 * settings, else the newest version's defaults */
	const char *kube_version, *feature_gates;
	int kube_exact;              /* they are the whole answer (a replayed run): no database settings */
	/* --nodes-to-score: "all", "adaptive" (kube's percentageOfNodesToScore 0)
	 * or a percentage 1..100, for every profile over its configuration's;
	 * NULL: as configured (kplan_nodes_to_score checks the text) */
	const char *nodes_to_score;
	/* --tie-break: "random" (kube's: a seeded hash of pod and node) or
	 * "node-rank" (one seeded ranking of the nodes for every pod, the FGD
	 * paper's simulator's rule) in every profile; NULL: as the profile has it
	 * (--strategy fgd: node-rank).  kp_plan_tie_break checks the text */
	const char *tie_break;
	const char *options_json;    /* recorded in run.options */
	int dry_run;                 /* explain: plan in memory, write nothing */
	int reference;               /* no caches: every plugin on every node for every pod (for checking) */
	int io_floor;                /* benchmark only: load and write as a plan would, no planning (bench/floor.c) */
	struct kp_explain *explain;  /* explain: collect this pod's details (explain.h) */
	struct kp_whatif *whatif;    /* what-if scenario, --mode full, --strategy (whatif.h); NULL: none */
	struct kp_rebalance *rebalance;   /* --mode rebalance (rebalance.h): moves after the pending pods; NULL: none */
	void (*progress)(void *ctx, long done, long total);
	void *progress_ctx;
	/* called just before COMMIT; non-zero rolls the run back (the CLI
	 * prints its summary here: a lost summary means nothing was written) */
	int (*before_commit)(void *ctx, const struct kp_plan_result *r);
	void *commit_ctx;
	/* after planning, before writing (dry runs too): every pod's outcome,
	 * then every node's resources; non-zero stops the run (the callback sets
	 * the error through result_err) */
	int (*on_pod)(void *ctx, const kp_plan_pod *p);
	int (*on_node)(void *ctx, const kp_plan_node *n);
	/* dry runs: the run is written inside its transaction (rolled back at
	 * the end), then on_quality reads its plan_quality and plan_stranded rows
	 * (planner/quality.h); non-zero stops the run */
	int (*on_quality)(void *ctx, sqlite3 *db, int64_t run_id);
	void *result_ctx;
	const char *pool_label;      /* plan_quality's pool label; NULL: KP_QUALITY_POOL_LABEL */
} kp_plan_opts;

typedef struct kp_plan_result {
	int64_t run_id;
	long nodes, pending, bound, unschedulable, kept, ignored, evicted, moved, passes;
	long stayed;                 /* of bound: a pod a scenario took off a node, placed back there ('keep' rows) */
	double elapsed;
	double t_load, t_static, t_schedule, t_write;   /* phases (seconds); KPLAN_TIMING=1 prints them */
	long cycles, bucket_cycles;  /* scheduling cycles; those the node buckets decided (plan_bucket.c) */
	char config_source[1024];
	kp_kube kube;                /* the version and gates planned as */
	int nwarnings;
	char warnings[KP_PLAN_MAX_WARNINGS][512];   /* "kind: text"; kp_plan_warn (plan_int.h) adds one */
	int64_t gpu_free_before;     /* GPU milli free before the run (gpu_frag.h), -1 no GPUs */
	int tie_rank;                /* some profile broke ties by the seeded node ranking */
} kp_plan_result;

int kp_plan_run(sqlite3 *db, const kp_plan_opts *o, kp_plan_result *r, kp_err *err);

/* --nodes-to-score's text as a profile's pct_nodes_to_score: -1 every node,
 * 0 kube's adaptive percentage, 1..100; KP_USAGE (err says why) otherwise. */
int kp_plan_nodes_to_score(const char *text, int *pct, kp_err *err);
/* --tie-break's text: *rank 0 for "random", 1 for "node-rank"; KP_USAGE
 * (err says why, with a "did you mean") otherwise. */
int kp_plan_tie_break(const char *text, int *rank, kp_err *err);

#endif
