/*
 * plan_int.h — what the files of one plan run share (private to
 * planner/plan*.c):
 *
 *   plan.c        kp_plan_run: load, the queue (PrioritySort, a binary
 *                 heap), the passes of batch retry, rebalance's host,
 *                 counting and warnings, commit; a profile's
 *                 addedAffinity for the cycle;
 *   plan_cycle.c  one pod's scheduling cycle (PreFilter, Filter with the
 *                 node-local cache, Score, the tie-break, bind), the
 *                 FitError message, preemption and evictions, and the
 *                 cycle's state (setup / teardown);
 *   plan_gang.c   gang scheduling (below);
 *   plan_write.c  the run writer: run, placement, pod_failure, eviction and
 *                 run_warning rows (queries/plan/), and each pod's and
 *                 node's outcome for kp_plan_opts.on_pod / on_node.
 *
 * Errors go to pl->err; functions return its code (KP_OK = 0).
 */
#ifndef KP_PLAN_INT_H
#define KP_PLAN_INT_H

#include "plan.h"
#include "snapshot.h"
#include "profile.h"
#include "cycle.h"
#include "explain.h"

/* gang scheduling (plan_gang.c, docs/gangs.md): pods of one PodGroup
 * (kube 1.36+: spec.schedulingGroup; 1.35: spec.workloadRef) bind at least
 * the group's minCount or none.
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
 *   Gate off: pods are planned one by one, the run warns. */
enum { KP_GANG_OFF = 0, KP_GANG_CYCLE = 1, KP_GANG_PERMIT = 2 };

typedef struct kp_gang {
	char *key;                   /* "ns/name" (1.35: "ns/workload/podGroup[/replicaKey]") */
	int32_t min_count;           /* gang.minCount; 1 for basic */
	uint8_t gang;                /* policy gang */
	uint8_t missing;             /* 1 no PodGroup (1.35: no Workload), 2 (1.35) no such podGroups entry */
	uint8_t disrupt_all;         /* disruptionMode All: a victim of workload-aware preemption whole */
	uint8_t prio_set;            /* the PodGroup names a priority or priorityClassName */
	uint8_t topology;            /* schedulingConstraints.topology (no workload-aware preemption) */
	uint8_t free_nominations;    /* workload-aware preemptions that found no victim (once at most) */
	int64_t priority;            /* the PodGroup's priority (plan_gang_preempt.c) */
	uint8_t permitted;           /* 1.35: minCount reached once, its pods bound */
	int32_t timeouts;            /* 1.35: Permit timeouts so far */
	int32_t size;                /* capacity --pod's copies: pods per gang (0: npods) */
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
	long preemptions, preempt_failed;   /* workload-aware preemption: groups that evicted / that could not */
	int wap;                     /* workload-aware preemption runs (1.37, DefaultPreemption on) */
} kp_gangs;


/* what happened to a pod; A_EVICTED: preempted and not re-created (no controller) */
enum { A_KEEP, A_BIND, A_UNSCHED, A_IGNORED, A_DONE, A_GATED, A_EVICTED };

/* a pod may be evicted this often in one run; then it is never a victim again */
#define MAX_EVICTIONS_PER_POD 3

typedef struct fail_item { int32_t reason; int32_t count; } fail_item;

/* one pod's outcome so far */
typedef struct pod_out {
	uint8_t action;
	int32_t seq, attempts, feasible, node;
	int64_t score;
	int has_score;
	int64_t last_bind_stamp;     /* binds counter at the last attempt */
	int32_t evicted_from;        /* node of the last eviction, -1 */
	int32_t evicted_by;          /* preemptor pod index, -1 */
	int32_t nominated;           /* node preemption freed for it, tried first next time; -1 */
	char *message;
	fail_item *fails;
	int nfails;
} pod_out;

/* one eviction, in order (the eviction table's rows) */
typedef struct eviction_rec { int32_t pod, node, preemptor; uint8_t violated; char *pdbs; } eviction_rec;

typedef struct planner {
	sqlite3 *db;
	const kp_plan_opts *o;
	kp_err *err;
	kp_snap s;
	kp_config cfg;
	kp_cycle cy;
	int32_t *queue;
	int nqueue;
	pod_out *out;
	int64_t binds;
	int32_t seq;
	int32_t *prof_of_class;      /* profile index per class, -1 none */
	int *next_start;             /* per profile: percentageOfNodesToScore rotation */
	int64_t *scores[KP_P_COUNT];
	int64_t *total;
	kp_explain *ex;
	long done_pods;
	/* queue: a binary heap of pod indexes (PrioritySort order) */
	int32_t *heap;
	int nheap, cap_heap, cap_queue;
	int64_t *order;              /* per pod: tie-break after priority and creation */
	int64_t next_order;
	/* preemption */
	int preemption;              /* DefaultPreemption runs (not --no-preemption) */
	int64_t *pdb_allowed;        /* disruptions each PDB still allows */
	eviction_rec *ev;
	int nev, cap_ev;
	/* node-local cache (see filter_cached in plan_cycle.c): the verdicts and
	 * raw scores of the plugins that read only the pod's class and the node,
	 * kept per node and per key (class_key.c: classes reading the same
	 * inputs share one) and profile, in nlslots slots a node, reused while
	 * the node is unchanged */
	int cache;                   /* off with --reference */
	int32_t *lkey;               /* per class: its key (kp_plan_local_key), -1 not yet */
	struct kp_lkeys *lk;
	uint32_t lid;                /* this cycle's (key, profile), from 1 */
	uint32_t nlslots;            /* slots per node, a power of two */
	int8_t lraw_of[KP_P_COUNT];  /* node-local score with NormalizeScore: its index in kp_lslot.raw, -1 */
	struct kp_lslot *lc;         /* slot-major: slot j of node n at [j * nnodes + n] */
	struct kp_bstate *bs;        /* node buckets (plan_bucket.c); NULL with --reference */
	long ncycles, nbucket;       /* cycles run; decided by the buckets */
	const uint8_t *avoid;        /* rebalance: per node, 1 = the pod may not land there; NULL none */
	/* HTTP extenders (plan_extender.c): the client, nodes' JSON, the calls; NULL until one is called */
	struct kp_hext_run *hx;
	kp_gangs gangs;              /* gang scheduling (plan_int.h) */
	/* kp_plan_open: each pod's creationTimestamp as loaded */
	int64_t *created0;
	/* plan_survive.c: per pod, 1 = gone with its node (not counted, not reported); NULL none */
	const uint8_t *hide;
	/* plan_survive.c: on_pod is not called for pods kept where they were
	 * loaded (action keep, not moved): the outcomes that differ only */
	int report_changed;
	/* plan_survive.c: on_pod for these pods only (ascending), NULL every pod */
	const int32_t *report_pods;
	int nreport_pods;
} planner;

/* Add a run warning "kind: text" (run_warning, and the CLI's stderr); past
 * KP_PLAN_MAX_WARNINGS the last one says that others were left out. */
void kp_plan_warn(kp_plan_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int kp_plan_nomem(planner *pl) { return kp_err_set(pl->err, KP_NOMEM, "out of memory while planning"); }

/* plan.c */
/* PrioritySort's order of the initial queue (kp_sort, ctx the planner) */
int kp_plan_queue_less(const void *a, const void *b, void *ctx);
/* the passes over the heap (batch retry) until one binds nothing */
int kp_plan_run_passes(planner *pl, kp_plan_result *r);
/* r's counts of outcomes (pods pl->hide marks left out) */
void kp_plan_count_outcomes(const planner *pl, kp_plan_result *r);
/* a dry run's rows written to TEMP tables that shadow the main ones
 * (kp_quality_dry_tables; the caller drops them, kp_quality_dry_drop), then
 * on_quality over them */
int kp_plan_dry_quality(planner *pl, kp_plan_result *r, double t0, int (*on_quality)(void *ctx, sqlite3 *db, int64_t run_id));
/* A dry run (no what-if, rebalance or on_quality) as kp_plan_run, its
 * outcomes to o->on_pod / on_node, whose planner is kept, in its read
 * transaction, until kp_plan_close (plan_survive.c) */
int kp_plan_open(sqlite3 *db, const kp_plan_opts *o, kp_plan_result *r, planner **out, kp_err *err);
void kp_plan_close(planner *pl);
/* append pod pi to pl->queue (grown as needed); KP_OK or KP_NOMEM (the error set) */
int kp_plan_queue_push(planner *pl, int32_t pi);
/* put pod pi on the queue's heap; KP_OK or KP_NOMEM (nothing set) */
int kp_plan_heap_push(planner *pl, int32_t pi);
/* the profile's NodeAffinityArgs.addedAffinity into the cycle
 * (cy->added_req, cy->added_pref; in the snapshot's arena) */
int kp_plan_added_affinity(planner *pl, const kp_profile *pf);

/* class_key.c: the node-local cache's key of class cls (a dense index,
 * the same for classes whose node-local plugins read the same), -1 out of
 * memory; kp_plan_local_keys_free releases the table */
int32_t kp_plan_local_key(planner *pl, int32_t cls);
void kp_plan_local_keys_free(planner *pl);

/* plan_cycle.c */
/* the cycle's state and caches for the loaded snapshot (after the static
 * filters); kp_plan_cycle_release frees them (also after a failed setup) */
int kp_plan_cycle_setup(planner *pl);
void kp_plan_cycle_release(planner *pl);
/* one scheduling cycle for pod pi under profile profile_idx: bound,
 * unschedulable (with its reasons), or back on the queue after preemption */
int kp_plan_schedule_one(planner *pl, int32_t pi, int profile_idx);
/* the pod is assumed on the node; the next cycle sees it */
int kp_plan_bind_pod(planner *pl, int32_t pi, int node);
/* PreFilter and Filter of pod pi (profile profile_idx) on node n with the
 * snapshot as it is now, without counting an attempt: 1 fits, 0 not, < 0
 * an error code (a preemption's reprieve check) */
int kp_plan_fits_node(planner *pl, int32_t pi, int profile_idx, int n);
/* the victims of candidate c leave for preemptor pi (DefaultPreemption's
 * eviction: eviction rows, PDB allowances, re-created pods re-queued) */
struct kp_candidate;
int kp_plan_evict_victims(planner *pl, int32_t pi, const struct kp_candidate *c);
/* NodeResourcesFit's filter for class c on node n holding npods pods that
 * request used[] (per resource): 1 when it would pass.  Cannot fail. */
int kp_plan_requests_fit(const kp_snap *s, const kp_class *c, const kp_profile *pf, int n, const int64_t *used,
			 int64_t npods);

/* plan_cycle.c: the node-local cache.  One node's cached node-local
 * verdict and scores for one (key, profile) (pl->lid) */
#define KP_LRAW_MAX 4          /* node-local scores with NormalizeScore a slot keeps */
typedef struct kp_lslot {
	uint32_t id;                 /* pl->lid, 0 empty */
	uint32_t fver, sver;         /* node_ver when fpass / lsum and raw were computed */
	uint8_t fhas, shas, fpass;
	int64_t lsum;                /* weighted sum of the node-local scores without NormalizeScore */
	int64_t raw[KP_LRAW_MAX];    /* raw node-local scores that are normalised (pl->lraw_of) */
} kp_lslot;
/* node n passes the node-local filters loc[0..nloc) of this cycle (cached;
 * the cycle's verdict arrays left as they were) */
int kp_plan_local_pass(planner *pl, int n, const int *loc, int nloc);
/* node n's node-local scores of the plugins ks[0..nk) (those whose
 * PreScore did not skip): lsum and raw, cached */
const kp_lslot *kp_plan_local_scores(planner *pl, int n, const int *ks, int nk);

/* plan_bucket.c: the node buckets, the choice of node that visits the
 * buckets and the ties instead of every node.  Setup/release pair (release
 * also after a failed setup). */
typedef struct kp_bstate kp_bstate;
int kp_plan_bucket_setup(planner *pl);
void kp_plan_bucket_release(planner *pl);
/* After PreFilter, for a cycle on the node-local cache: 1 when the buckets
 * decided (*best the node, *nfeas the feasible nodes, *score the winner's
 * total when *nfeas > 1), 0 when the cycle needs the node-by-node path,
 * or an error code (pl->err set). */
int kp_plan_bucket_choose(planner *pl, int profile_idx, int *best, int *nfeas, int64_t *score);

/* plan_extender.c: kube's HTTP extenders (http_extender.h) */
/* findNodesThatPassExtenders over feas[0..*nfeas) (shrunk in place); a
 * non-ignorable extender's error sets cy->abort_msg.  KP_OK or an error. */
int kp_plan_extenders_filter(planner *pl, int32_t *feas, int *nfeas);
/* the extenders' Prioritize scores added to pl->total over cy->feas */
int kp_plan_extenders_score(planner *pl);
/* the run's extender_call rows (not for a dry run) */
int kp_plan_extenders_write(planner *pl, int64_t run_id);
/* 1 and the run's warning in buf when calls failed, else 0 */
int kp_plan_extenders_warning(const planner *pl, char *buf, size_t n);
void kp_plan_extenders_release(planner *pl);

/* plan_extender_preempt.c: callExtenders, between DefaultPreemption's
 * candidates and its pick (pr from kp_preempt for the cycle's pod): the
 * extenders with a preemptVerb replace pr's candidates and pr->chosen is
 * picked again; a non-ignorable extender's error or no candidate left:
 * pr->chosen -1 with kube's message.  KP_OK or out of memory. */
struct kp_preempt_result;
int kp_plan_extenders_preempt(planner *pl, struct kp_preempt_result *pr);

/* plan_write.c */
/* the run's rows, in the open transaction; r->run_id is set */
int kp_plan_write_run(planner *pl, kp_plan_result *r, double t0);
/* every pod's outcome to o->on_pod, every node's resources to o->on_node */
int kp_plan_report_results(planner *pl);

/* plan_gang.c */
/* After triage: load the groups of the pods, apply PreEnqueue (pods taken
 * off the queue, unschedulable with kube's message).  KP_OK or an error. */
int kp_gang_setup(planner *pl, kp_plan_result *r);
void kp_gang_release(planner *pl);
/* the queue's heap took / gave back an entry of pod pi */
void kp_gang_heap_pushed(planner *pl, int32_t pi);
/* pi popped: 1 when the entry is stale (a group cycle took it), skip it */
int kp_gang_heap_popped(planner *pl, int32_t pi);
/* pod pi is a member of an active gang (rebalance never moves one) */
int kp_gang_member(const planner *pl, int32_t pi);
/* Schedule popped pod pi: its group's cycle (1.36+), or pod by pod (1.35,
 * pods without a group). */
int kp_gang_schedule(planner *pl, int32_t pi, int profile_idx);
/* After a pass drained the queue (1.35): gangs short of minCount time out.
 * *changed = 1 when a gang was reverted. */
int kp_gang_pass_end(planner *pl, int *changed);
/* pod pi is placed and a member of a gang (policy gang) with fewer than
 * minCount pods placed now: 1, and why ("its gang NS/NAME has ...") */
int kp_gang_broken(const planner *pl, int32_t pi, char *why, size_t size);
/* pod pi's gang: its key, minCount and size; NULL when none */
const char *kp_gang_of(const planner *pl, int32_t pi, int32_t *min_count, int32_t *size);
/* the run's gang warnings into r */
void kp_gang_warnings(const planner *pl, kp_plan_result *r);
/* the pod-group cycle's algorithm over take[0..nt) of group g (no
 * PostFilter): placed[i] for the pods it assumed, *tried how many it
 * tried, *ok 1 when the group succeeds, else the group's status in msg.
 * KP_OK or an error. */
int kp_gang_try(planner *pl, const kp_gang *g, const int32_t *take, int nt, int profile_idx, uint8_t *placed,
		int *tried, int *ok, kp_sb *msg);
/* pod pi, assumed by a group's cycle, leaves its node again */
int kp_gang_revert_pod(planner *pl, int32_t pi);
/* a failed group's revert: the pods of take[0..tried) that kp_gang_try
 * placed (placed[i]) leave their nodes again, the last first */
int kp_gang_revert(planner *pl, const int32_t *take, int tried, const uint8_t *placed);

/* plan_gang_preempt.c: workload-aware preemption (KEP-5710, kube 1.37) for
 * group g whose cycle over take[0..nt) failed and was reverted: 1 when
 * victims were evicted and the group's pods are back on the queue with
 * their nominated nodes, 0 when preemption cannot help (why: kube's
 * status, without the "pod group preemption: " prefix), < 0 an error. */
int kp_gang_preempt(planner *pl, kp_gang *g, const int32_t *take, int nt, int profile_idx, kp_sb *why);
/* plan_kube.c: the warnings of the kube version planned as (a gate the
 * input needs is off); claims: the pending pods that name ResourceClaims */
void kp_plan_kube_warnings(const planner *pl, kp_plan_result *r, long claims);

#endif
