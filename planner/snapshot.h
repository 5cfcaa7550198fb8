/*
 * snapshot.h — the cluster in memory for one plan run.
 *
 * Loaded once from the database (snapshot_load.c, snapshot_classes.c); the per-pod loop then touches
 * only these arrays: no SQL, no allocation in the filter/score loop.  Strings
 * are interned (kp_sid); nodes are indexed 0..nnodes-1 in name order, with
 * per-node resource arrays in struct-of-arrays form (alloc[n * nres + r]).
 * Scheduling classes carry the pod spec; pods carry identity, labels and
 * where they are.
 */
#ifndef KP_SNAPSHOT_H
#define KP_SNAPSHOT_H

#include <stdint.h>
#include <stddef.h>
#include <sqlite3.h>
#include "../common/kp.h"
#include "../common/kube.h"
#include "counters.h"

typedef int32_t kp_sid;          /* interned string; -1 = none */

typedef struct kp_strtab {
	char **strs;
	int32_t n, cap;
	int32_t *slots;              /* open addressing, -1 = empty */
	uint32_t nslots;
} kp_strtab;

kp_sid kp_strtab_intern(kp_strtab *t, const char *s);   /* -1 on out of memory */
kp_sid kp_strtab_find(const kp_strtab *t, const char *s);
static inline const char *kp_str(const kp_strtab *t, kp_sid id) { return id >= 0 ? t->strs[id] : ""; }

typedef struct kp_label { kp_sid key, value; } kp_label;
typedef struct kp_labels { kp_label *v; uint32_t n; } kp_labels;   /* sorted by key */

/* value of key, or -1 when absent */
kp_sid kp_labels_get(const kp_labels *l, kp_sid key);

enum { KP_OP_IN, KP_OP_NOTIN, KP_OP_EXISTS, KP_OP_DNE, KP_OP_GT, KP_OP_LT };

typedef struct kp_sreq {
	kp_sid key;
	uint8_t op;
	uint32_t nvals;
	kp_sid *vals;
	int64_t num;                 /* Gt/Lt operand */
	uint8_t invalid;             /* In/NotIn with a value kube cannot parse: never matches */
} kp_sreq;

typedef struct kp_sel {
	uint8_t present;             /* 0: null selector, matches nothing */
	uint32_t n;
	kp_sreq *reqs;
} kp_sel;

/* 1 when the selector matches labels (a label selector; Gt/Lt compare ints) */
int kp_sel_match(const kp_sel *s, const kp_labels *l, const kp_strtab *strs);
int kp_sreq_match(const kp_sreq *r, kp_sid value, const kp_strtab *strs);

enum { KP_EFFECT_ANY = 0, KP_EFFECT_NOSCHEDULE, KP_EFFECT_PREFER, KP_EFFECT_NOEXECUTE };

/* cmp: KP_TOL_* (scores.h): Gt/Lt compare num with the taint's (both must
 * parse: num_ok), KP_TOL_NEVER a Gt/Lt with the gate off */
typedef struct kp_tol { kp_sid key, value; uint8_t exists, effect, cmp, num_ok; int64_t num; } kp_tol;
typedef struct kp_taint { kp_sid key, value; uint8_t effect, num_ok; int64_t num; } kp_taint;

int kp_tolerates(const kp_tol *t, const kp_taint *x);

typedef struct kp_nterm {
	int64_t weight;
	uint32_t nexprs, nfields;
	kp_sreq *exprs, *fields;
} kp_nterm;

typedef struct kp_pterm {
	uint8_t anti, required;
	int64_t weight;
	kp_sid topo;
	kp_sel sel;
	uint32_t nns;
	kp_sid *ns;                  /* namespaces */
	kp_sel ns_sel;               /* present=0: none given */
	uint32_t nmlk, nmmlk;
	kp_sid *mlk, *mmlk;          /* matchLabelKeys, mismatchLabelKeys */
} kp_pterm;

typedef struct kp_spread {
	int64_t max_skew, min_domains;
	kp_sid topo;
	uint8_t hard;                /* DoNotSchedule */
	uint8_t honor_affinity, honor_taints;
	kp_sel sel;
	uint32_t nmlk;
	kp_sid *mlk;
} kp_spread;

typedef struct kp_hport { kp_sid ip; kp_sid proto; int32_t port; } kp_hport;

typedef struct kp_class {
	int64_t db_id;
	kp_sid ns, sched;
	int64_t priority;            /* resolved (pod_priority view) */
	uint8_t preempt_never;
	uint8_t gated, has_required_affinity, missing_pc;
	int32_t pvc;
	uint32_t nreq;               /* sparse effective requests */
	uint16_t *req_res;
	int64_t *req_val;
	int64_t nz_cpu, nz_mem;      /* non-zero requests for scoring */
	uint32_t nnsel;
	kp_label *nsel;              /* nodeSelector */
	uint32_t ntols;
	kp_tol *tols;
	uint32_t nrequired, npreferred;
	kp_nterm *required, *preferred;
	uint32_t npterms;
	kp_pterm *pterms;
	uint8_t has_req_aff, has_req_anti, has_pref_pod;   /* summaries of pterms */
	uint32_t nspreads;
	kp_spread *spreads;
	uint32_t nports;
	kp_hport *ports;
	uint32_t nimages, ncontainers;
	kp_sid *images;              /* normalised image names of all containers */
	uint32_t nfeatures;
	kp_sid *features;            /* node features its pods require (NodeDeclaredFeatures), sorted */
	uint8_t kube_inputs;         /* KP_KIN_*: version-dependent inputs (snapshot_kube.c) */
	/* static feasibility (SQL predicates), for classes of pending pods */
	uint64_t *feasible;          /* bitset over nodes */
	uint64_t *affinity_ok;       /* nodeSelector + required node affinity pass (spread nodeAffinityPolicy) */
	uint64_t *taints_ok;         /* NoSchedule/NoExecute taints tolerated (spread nodeTaintsPolicy) */
	int32_t *static_reason;      /* per node: index into kp_snap.reasons, -1 = passed */
	int64_t *static_rank;
	uint8_t static_shared;       /* the five arrays above belong to another class with the same static spec */
	uint8_t needed;              /* has pending pods */
} kp_class;

enum { KP_POD_BOUND = 0, KP_POD_PENDING, KP_POD_DONE, KP_POD_UNKNOWN_NODE };
/* kp_class.kube_inputs: spec.resources set; status resources reported;
 * status kube 1.36+ may read and kplan does not (a non-sidecar init
 * container's resources, pod-level status.resources) */
enum { KP_KIN_POD_LEVEL = 1, KP_KIN_RESIZE = 2, KP_KIN_RESIZE_UNMODELLED = 4 };

typedef struct kp_pod {
	int64_t db_id;
	kp_sid ns, name;
	int32_t cls;
	int32_t node;                /* current node, -1 when not placed */
	int32_t orig_node;           /* node at load, -1 pending */
	int64_t created;             /* INT64_MAX when unknown */
	int64_t start_time;
	uint8_t terminating, ignored;
	uint8_t no_victim;           /* evicted too often in this run: never a victim again */
	uint8_t evictions;
	kp_labels labels;
	kp_sid owner_kind, owner_name;
	kp_sid bound_name;           /* spec.nodeName as given (also when the node is unknown) */
	kp_sid nominated;            /* status.nominatedNodeName, -1 none */
	int32_t daemon_node;         /* DaemonSet pod: the node it was made for (node index), -1 */
	int32_t owner_sel;           /* index into kp_snap.owner_sels of the controller's selector, -1 none */
	int64_t moved_from;          /* what-if: db id of the node the scenario took it off (whatif.h), 0 none */
	uint8_t requeued;            /* what-if move-pods: re-created, queued after the pods pending before */
} kp_pod;

/* A static failure reason: plugin name + message + status code. */
typedef struct kp_reason { const char *plugin; char *msg; uint8_t unresolvable; } kp_reason;

/* A PodDisruptionBudget: its selector and how many disruptions it allows now
 * (status.disruptionsAllowed, or computed as the disruption controller would). */
typedef struct kp_pdb {
	int64_t db_id;
	kp_sid ns, name;
	kp_sel sel;
	int64_t allowed;
	uint8_t from_status;
	kp_sid min_avail, max_unavail;   /* spec.minAvailable, maxUnavailable as given; -1 none */
	uint32_t ndisrupted;
	kp_sid *disrupted;           /* status.disruptedPods: already counted */
} kp_pdb;

/* Selectors that select pods for kube's default spreading (Service, RC, RS, STS). */
typedef struct kp_owner_sel { kp_sid ns; kp_sel sel; } kp_owner_sel;

typedef struct kp_snap {
	kp_strtab strs;
	kp_arena arena;              /* everything loaded lives here */
	/* resources: 0 cpu, 1 memory, 2 ephemeral-storage, 3 pods, then the others */
	int nres;
	kp_sid *res_name;
	/* nodes */
	int nnodes;
	int64_t *node_db_id;
	int64_t *node_id_map;        /* (db id, index) pairs sorted by db id */
	kp_sid *node_name;
	uint8_t *unschedulable;
	kp_labels *node_labels;
	uint32_t *ntaints;
	kp_taint **taints;
	int64_t *alloc;              /* nnodes * nres */
	int64_t *used;               /* nnodes * nres, effective requests of pods on the node */
	int64_t *nz_used;            /* nnodes * 2: non-zero cpu, memory */
	int32_t *node_npods;         /* pods on each node (the `pods` resource) */
	/* images per node: sorted names with sizes; spread of each image name */
	uint32_t *nimages;
	kp_sid **image_names;
	int64_t **image_sizes;
	int32_t *image_nodes;        /* indexed by sid: nodes that have the image (0 if none) */
	int32_t image_nodes_len;
	/* status.declaredFeatures per node, sorted (snapshot_kube.c) */
	uint32_t *nnode_features;
	kp_sid **node_features;
	/* ports in use per node (grows as pods land) */
	uint32_t *nports, *cap_ports;
	kp_hport **ports;
	/* pods on each node (grows/shrinks as pods land / leave) */
	uint32_t *nnode_pods, *cap_node_pods;
	int32_t **node_pods;
	/* classes and pods */
	int nclasses;
	kp_class *classes;
	int npods;
	kp_pod *pods;
	/* static reasons */
	int nreasons, cap_reasons;
	kp_reason *reasons;
	/* default spreading (kube-scheduler-semantics.md §10.1, helper/spread.go DefaultSelector):
	 * every Service selector, and per pod its controller's selector */
	int nservice_sels;
	kp_owner_sel *service_sels;
	int nowner_sels;
	kp_owner_sel *owner_sels;
	/* namespaces' labels (for namespaceSelector) */
	int nnamespaces;
	kp_sid *ns_name;
	kp_labels *ns_labels;
	/* well-known strings */
	kp_sid s_hostname, s_zone, s_default_scheduler, s_tcp, s_any_ip;
	/* disruption budgets */
	int npdbs;
	kp_pdb *pdbs;
	/* incremental topology counters (counters.h), kept current by add/remove */
	kp_counters counters;
	/* node label values per topology key, built on first use (kp_snap_topo) */
	int ntopo, cap_topo;
	struct kp_topo *topo;
	/* per node: bumped by every kp_snap_add_pod / kp_snap_remove_pod there
	 * (the planner's per-node cache of node-local verdicts keys on it) */
	uint32_t *node_ver;
	/* nodes gone for a moment (planner/plan_survive.c): never filtered,
	 * counted nowhere; NULL none.  gone_gen moves whenever one comes or goes */
	uint8_t *gone;
	int32_t ngone;
	uint32_t gone_gen;
	/* the change log: a ring of the last chg_mask + 1 nodes whose node_ver
	 * moved, nchg of them ever; the planner's node buckets (plan_bucket.c)
	 * read it.  NULL when nobody reads it. */
	int32_t *chg;
	uint32_t chg_mask;
	uint64_t nchg;
	/* volumes (storage.h), NULL when no pod has one and no CSINode was imported */
	struct kp_storage *st;
	/* Dynamic Resource Allocation (dra.h), NULL when no pod names a claim and no slice was imported */
	struct kp_dra *dra;
	/* the kube-scheduler version and feature gates planned as (kube.h) */
	kp_kube kube;
	/* warnings met while loading (unsupported features) */
	int warn_pvc, warn_gated, warn_daemonset, warn_missing_pc, warn_unknown_node;
} kp_snap;

/* Load every node and pod of the database, for kube version and gates kube
 * (NULL: the newest version's defaults).  Returns KP_OK or an error. */
int kp_snap_load(sqlite3 *db, kp_snap *s, const kp_kube *kube, kp_err *err);
/* Evaluate the static predicates (queries/filters) for the classes of pending pods. */
int kp_snap_static_filters(sqlite3 *db, kp_snap *s, kp_err *err);
void kp_snap_release(kp_snap *s);

/* a PDB's allowance as the disruption controller computes it from the pods
 * now (bound: orig_node; pods hide marks left out, NULL none), over the
 * pods it selects: members[0..nmembers) when given (those
 * kp_snap_pdb_selects), else every pod tested */
int64_t kp_snap_pdb_computed(const kp_snap *s, const kp_pdb *d, const uint8_t *hide, const int32_t *members, int nmembers);
/* pod i counts for d: planned, in its namespace, its selector matches */
int kp_snap_pdb_selects(const kp_snap *s, const kp_pdb *d, int32_t i);

/* the nodes not gone (kp_snap.gone): kube's numAllNodes */
static inline int kp_snap_nlive(const kp_snap *s) { return s->nnodes - s->ngone; }
static inline int kp_snap_gone(const kp_snap *s, int n) { return s->gone && s->gone[n]; }

/* Index of the node / pod with this database id, or -1. */
int kp_snap_node_index(const kp_snap *s, int64_t db_id);
int kp_snap_pod_index(const kp_snap *s, int64_t db_id);
/* a pod that goes with its node: a DaemonSet's (daemon_node, or its owner
 * kind), a static or mirror pod's (owner kind Node) */
int kp_snap_pod_per_node(const kp_snap *s, const kp_pod *p);

/* Place / remove a pod on a node: resources, ports, pod lists.  May allocate
 * (the per-node lists grow geometrically); returns KP_OK or KP_NOMEM. */
int kp_snap_add_pod(kp_snap *s, int32_t pod, int32_t node);
/* node's state changed: node_ver moves, and the change log (when kept) names it */
static inline void kp_snap_touch(kp_snap *s, int32_t node)
{
	s->node_ver[node]++;
	if (s->chg)
		s->chg[s->nchg++ & s->chg_mask] = node;
}
void kp_snap_remove_pod(kp_snap *s, int32_t pod);

/* storage.c: pod pi came to (delta 1) or left (delta -1) node n — its
 * claims' users and the node's CSI attach counts (kp_snap_add_pod and
 * kp_snap_remove_pod call it when s->st is set); KP_OK or KP_NOMEM.
 * kp_snap_storage_release frees the run's storage state (kp_snap_release). */
int kp_snap_volumes_moved(kp_snap *s, int32_t pi, int n, int delta);
void kp_snap_storage_release(kp_snap *s);
/* dra.c: frees the DRA part's run state and compiled selectors (kp_snap_release) */
void kp_snap_dra_release(kp_snap *s);

/* Topology counters (counters.h, snapshot_counters.c): the counter for
 * (ns, sel), created (and filled by one scan) when new; returns its index
 * into s->counters.v, or -1 on out of memory.  kp_counters_update: pod pi
 * was added to (delta 1) or removed from (delta -1) node (kp_snap_add_pod
 * and kp_snap_remove_pod call it); KP_OK, or KP_NOMEM (never going down).
 * Read one node's count with kp_counter_count, or iterate the non-zero
 * nodes with kp_counter_first / kp_counter_next, on kp_snap_counter
 * (counters.h). */
int kp_counter_get(kp_snap *s, int32_t ns, const kp_sel *sel, int terminating);
int kp_counters_update(kp_snap *s, int32_t pi, int node, int delta);
static inline const kp_counter *kp_snap_counter(const kp_snap *s, int counter) { return &s->counters.v[counter]; }

/* A topology key's values over the nodes: per node the label value (-1 when
 * the node has no such label) and a dense domain index (0..ndom-1, -1). */
typedef struct kp_topo {
	kp_sid key;
	int32_t ndom;
	kp_sid *val;
	int32_t *dom;
} kp_topo;

/* Built once per key and run; NULL on out of memory. */
const kp_topo *kp_snap_topo(kp_snap *s, kp_sid key);

static inline int kp_bit(const uint64_t *bits, int i) { return (int)((bits[i >> 6] >> (i & 63)) & 1); }

#endif
