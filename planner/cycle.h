/*
 * cycle.h — kube-scheduler's CycleState for kplan: everything one pod's
 * scheduling cycle computes (PreFilter state, per-node verdicts and reasons,
 * scores), passed to every plugin.  The plugin descriptor and the registry
 * are in registry.h.
 */
#ifndef KP_CYCLE_H
#define KP_CYCLE_H

#include "snapshot.h"
#include "profile.h"
#include "registry.h"

#define KP_SKIP 1        /* PreFilter/PreScore: the plugin sits out this pod */
#define KP_PREFILTER_FAIL 2  /* PreFilter: the pod fits nowhere; cy->prefilter_msg says why */

/* int64 -> int64 hash map cleared in O(1) by generation; keys listed in insertion order */
typedef struct kp_dmap {
	uint32_t mask, gen, n, cap_list;
	int64_t *keys, *vals;
	uint32_t *stamp;
	int64_t *list;
} kp_dmap;

int kp_dmap_init(kp_dmap *m, uint32_t expected);
void kp_dmap_release(kp_dmap *m);
void kp_dmap_clear(kp_dmap *m);
int64_t *kp_dmap_get(const kp_dmap *m, int64_t key);
int64_t *kp_dmap_put(kp_dmap *m, int64_t key);     /* 0-initialised when new; NULL on OOM */

static inline int64_t kp_pair_key(kp_sid a, kp_sid b) { return ((int64_t)a << 32) | (uint32_t)b; }

/* one topology spread constraint of the incoming pod, prepared */
typedef struct kp_cstate {
	kp_sid topo;
	const kp_sid *tv;        /* per node: its value of topo (kp_snap_topo) */
	const int32_t *dom;      /* per node: its domain index, -1 without the label */
	int32_t ndom;
	int64_t *dcnt;           /* per domain (ndom: the absent label): matching pods */
	uint8_t *dpres;          /* per domain: hard: an eligible node is in it; soft: a scored node */
	int32_t dcap;            /* capacity of dcnt / dpres (they outlive the cycle) */
	int64_t dsize;           /* domains present */
	int64_t max_skew, min_domains;
	uint8_t hard, honor_affinity, honor_taints, self_match, is_host;
	kp_sel sel;
	int32_t counter;         /* kp_snap.counters index: matching pods per node */
	/* soft hostname constraint: the counter's counts per node for Score,
	 * set by PreScore: the counter's dense array, or host_cnt, a per-node
	 * scratch (outlives the cycle) the sparse counter is scattered into;
	 * host_scattered: the counter last scattered there (-1 none), unscattered
	 * before the next */
	const int32_t *host_view;
	int32_t *host_cnt;
	int32_t host_scattered;
	/* a hard constraint: the nodes PreFilter counts (every hard key, its
	 * inclusion policies) and the domains they make present, found once
	 * for a class, profile and set of nodes (kp_cycle.elig_*); outlive the cycle */
	uint8_t *elig, *elig_dpres;
	int64_t elig_dsize;
	int64_t min_match;
	double weight;
} kp_cstate;

typedef struct kp_cycle {
	kp_snap *s;
	const kp_profile *pf;
	uint64_t seed;
	kp_arena arena;          /* reset per pod */
	int32_t pi;
	const kp_pod *p;
	const kp_class *c;
	/* verdicts */
	int32_t *feas;
	int nfeas;
	int8_t *fail;            /* per node: -1 passed, else the failing plugin */
	uint8_t verdicts_dirty;  /* some fail / unres entry may be set (kp_cycle_fail); the next cycle clears them */
	uint8_t probing;         /* a filter asked for its answer only: kp_cycle_fail records nothing */
	uint8_t *unres;          /* per node: UnschedulableAndUnresolvable */
	int32_t *rstart;
	uint16_t *rcount;
	int32_t *rbuf;
	size_t rlen, rcap;
	uint8_t skip[KP_P_COUNT];
	/* PreFilterResult (NodeAffinity matchFields metadata.name): only these nodes are filtered */
	uint8_t restrict_nodes;
	uint8_t *allowed;        /* per node */
	int r_prefilter_out;     /* "node is filtered out by the prefilter result" */
	const char *prefilter_msg;
	int prefilter_plugin;
	/* a filter returned an Error status (DynamicResources' allocator): the
	 * whole cycle fails with this message, whatever other nodes did */
	const char *abort_msg;
	int abort_plugin;        /* whose: DynamicResources, or Extender (an HTTP extender's error) */
	/* reasons interned at plan start */
	int r_too_many_pods, r_ports, r_spread_missing, r_spread, r_aff, r_anti, r_existing_anti, r_added_affinity;
	int r_no_victims, r_not_helpful;   /* DefaultPreemption's per-node verdicts */
	/* the volume plugins' (kube-scheduler-semantics.md §15) */
	int r_disk, r_rwop, r_max_volumes, r_vb_node, r_vb_bind, r_vb_space, r_vb_pv, r_zone;
	int *r_insufficient;     /* per resource */
	/* PodTopologySpread */
	kp_cstate *cs;
	int ncs, cap_cs, nhard;
	uint8_t spread_built;    /* constraints prepared this cycle (the plan loop resets it) */
	uint8_t *spread_ignored; /* per node (score) */
	/* what the constraints' elig arrays were found for: class index (-1
	 * none), profile, kp_snap.gone_gen */
	int32_t elig_cls;
	const kp_profile *elig_pf;
	uint32_t elig_gone;
	/* InterPodAffinity */
	kp_dmap aff_counts, anti_counts, existing_anti, topo_score;
	kp_dmap anti_memo;       /* (class, namespace) of a placed pod -> which of its terms match the incoming pod */
	int aff_empty, self_matches_all;
	int32_t *anti_pods;      /* placed pods whose class has required anti-affinity */
	int nanti_pods, cap_anti_pods;
	/* the same pods grouped by (class, namespace), each group found through
	 * the (key, value) labels its terms require (kp_ipa_add_pod) */
	struct kp_agroup *agroups;
	int nagroups, cap_agroups;
	kp_dmap agroup_index;    /* (class, namespace) -> group */
	kp_multimap agroup_trig; /* (key, value) -> groups */
	int32_t *agroup_always;  /* groups with a term that requires no label value */
	int nagroup_always, cap_agroup_always;
	uint32_t agroup_stamp;
	uint8_t *listed;         /* per pod: bit 0 in anti_pods, bit 1 in aff_pods */
	/* DefaultPreemption: per node the lowest priority among its pods that
	 * may be victims, valid while min_prio_stamp[n] == node_ver[n] + 1 */
	int64_t *min_prio;
	uint64_t *min_prio_stamp;
	int32_t *aff_pods;       /* placed pods with a term that scores (kube's PodsWithAffinity less those with only required anti-affinity) */
	int naff_pods, cap_aff_pods;
	/* NodeAffinity addedAffinity (profile), parsed once */
	kp_nterm *added_req, *added_pref;
	uint32_t nadded_req, nadded_pref;
	int has_added_req;
	/* SQL extenders: per pod, rows sorted by node (NULL when the profile has none) */
	int32_t *ext_off;        /* npods + 1 */
	struct kp_ext_row { int32_t node, reason; int64_t score; } *ext_rows;
	/* the profile's score resources as resource indexes (-1: no node has it) */
	const kp_profile *res_pf;
	int fit_res[KP_MAX_RES_WEIGHTS], bal_res[KP_MAX_RES_WEIGHTS];
	/* scores */
	int64_t *raw;
	double *fscore;
} kp_cycle;

/* The cycle's state for snapshot s (kplan's _init/_release pair): per-node
 * arrays, the maps, kube's reasons interned in the snapshot in a fixed order,
 * and the placed pods with affinity terms listed.  KP_OK or KP_NOMEM; call
 * kp_cycle_release after either.  Used by the plan (plan_cycle.c) and by the
 * plugin unit tests (tests/unit/tap_snap.h). */
int kp_cycle_init(kp_cycle *cy, kp_snap *s, uint64_t seed);
void kp_cycle_release(kp_cycle *cy);
/* A placed pod with affinity terms joins the cycle's lists, once: with
 * required anti-affinity it can reject later pods (kube-scheduler-semantics.md
 * §5.8); with any term it scores them (§7.9).  KP_OK or KP_NOMEM. */
int kp_cycle_add_affinity_pod(kp_cycle *cy, int32_t pi);

/* Run every enabled PreFilter plugin of cy->pf for cy->p (again after the
 * snapshot changed, as in a preemption dry run).  Returns KP_OK,
 * KP_PREFILTER_FAIL (cy->prefilter_msg) or an error. */
int kp_cycle_prefilter(kp_cycle *cy);
/* Run the enabled filters on one node, first failure wins; 1 passed, 0 failed
 * (reasons recorded in cy).  Clears the node's earlier verdict first. */
int kp_cycle_filter_node(kp_cycle *cy, int node);

/* Record that `node` failed `plugin` with reason index `reason`. */
int kp_cycle_fail(kp_cycle *cy, int node, int plugin, int reason, int unresolvable);

/* Static filters (NodeUnschedulable, TaintToleration, NodeAffinity) read the
 * SQL verdict of the pod's class: fail when the node's first static failure
 * belongs to `plugin`. */
int kp_static_filter(kp_cycle *cy, int node, int plugin);

/* The seeded hash that breaks ties between equal totals (kube-scheduler-semantics.md §8):
 * the highest wins. */
uint32_t kp_tiebreak(uint64_t seed, int64_t pod, int64_t node);
/* the same in two steps, the pod's part once: kp_tiebreak_node(kp_tiebreak_pod(seed, pod), node) */
uint64_t kp_tiebreak_pod(uint64_t seed, int64_t pod);
/* the pod's half as the cycle's profile breaks ties: kp_tiebreak_pod of the
 * pod, or under --tie-break node-rank of one fixed id, so every pod sees the
 * same seeded ranking of the nodes */
uint64_t kp_tiebreak_pod_of(const kp_cycle *cy, int64_t pod);
uint32_t kp_tiebreak_node(uint64_t h, int64_t node);

/* kube's DefaultNormalizeScore(MaxNodeScore, reverse) over the feasible nodes */
void kp_default_normalize(kp_cycle *cy, int64_t *scores, int reverse);

/* A pod (anti-)affinity term of `owner` matches pod `target` (namespaces,
 * selector, matchLabelKeys / mismatchLabelKeys with owner's labels). */
int kp_term_matches(const kp_snap *s, const kp_pterm *t, const kp_pod *owner, const kp_pod *target);
/* A node selector term matches node n (expressions on labels, fields on the name); empty matches nothing. */
int kp_nterm_matches(const kp_snap *s, const kp_nterm *t, int n);
/* some of the nterms terms matches node n (none: 0; what an empty list
 * means is the caller's) */
int kp_nterms_any(const kp_snap *s, const kp_nterm *terms, uint32_t nterms, int n);

/* InterPodAffinity: placed pod pi, whose class has required anti-affinity,
 * joins its (class, namespace) group.  KP_OK or KP_NOMEM. */
int kp_ipa_add_pod(kp_cycle *cy, int32_t pi);
void kp_ipa_release(kp_cycle *cy);

/* PodTopologySpread for the node buckets (plan_bucket.c): prepare the
 * constraints (KP_OK: soft ones exist, KP_SKIP: none, KP_NOMEM); a node's
 * matching pods; PreScore from a summary of the feasible nodes, reps[i]
 * standing for mult[i] nodes (total in all).  pod_topology_spread.c. */
int kp_spread_prepare(kp_cycle *cy);
int64_t kp_spread_count(const kp_cycle *cy, const kp_cstate *c, int node);
int kp_spread_pre_score_summary(kp_cycle *cy, const int32_t *reps, const int64_t *mult, int nreps, int64_t total);
/* NodeResourcesFit: resource name is one the profile's ignoredResources or
 * ignoredResourceGroups leave unchecked */
int kp_fit_ignored(const kp_profile *pf, const char *name);

#endif
