/*
 * dra.h — Dynamic Resource Allocation in the snapshot (issue 17;
 * kube-scheduler-semantics.md §16): device classes, the devices of the
 * ResourceSlices grouped in pools, the ResourceClaims with their requests
 * and allocations, each pod's claims, and what one run allocates.
 *
 * Loaded by snapshot_dra.c into kp_snap.dra (NULL when the database has no
 * DRA objects and no pod names a claim: the DynamicResources plugin then
 * skips every pod).  The structured allocator (dra_alloc.c) searches, for one
 * pod and one node, the devices of the node's pools as kube's does (§16.4):
 * depth first, claims in the pod's order, requests in spec order, candidate
 * devices in pool order (driver, pool name), slice order (name) and spec
 * order, the first complete solution wins.
 */
#ifndef KP_DRA_H
#define KP_DRA_H

#include "snapshot.h"
#include "../common/cel.h"
#include "../common/names.h"   /* KP_OPENB_GPU_CLASS */

/* an attribute or capacity of a device, by qualified name */
typedef struct kp_dattr {
	kp_sid domain, name;
	kp_cel_val v;                /* attributes: INT, BOOL, STRING, VERSION; capacity: QUANTITY */
} kp_dattr;

typedef struct kp_dcounter { kp_sid set, name; int64_t value; } kp_dcounter;

/* a device capacity's requestPolicy (consumable capacity), base units; -1 none */
typedef struct kp_dpolicy {
	int64_t def, min, max, step;
	uint32_t nvalid;
	int64_t *valid;              /* validValues, ascending */
} kp_dpolicy;

typedef struct kp_dtaint { kp_sid key, value; uint8_t effect; } kp_dtaint;   /* effect: KP_EFFECT_* or 0 None */

typedef struct kp_device {
	kp_sid name;
	int32_t pool;                /* index into kp_dra.pools */
	int32_t slice;               /* index into kp_dra.slices */
	uint32_t nattrs, ncaps, nconsumes, ntaints;
	kp_dattr *attrs, *caps;
	int64_t *cap_base;           /* per capacity: its value in base units */
	kp_dpolicy *policy;          /* per capacity: its requestPolicy */
	int32_t cap_off;             /* index of its first capacity in kp_dra.consumed */
	kp_dcounter *consumes;
	kp_dtaint *taints;
	uint8_t allow_multiple;
	uint8_t binds_to_node;       /* bindsToNode: its allocation is for the node it was made on */
	/* per-device node selection (perDeviceNodeSelection slices) */
	int32_t node;                /* nodeName's node, -1 */
	uint8_t all_nodes;
	uint32_t nterms;
	kp_nterm *terms;
} kp_device;

typedef struct kp_dslice {
	kp_sid name;
	int32_t pool;
	int32_t node;                /* spec.nodeName's node, -1 */
	uint8_t all_nodes, per_device, has_selector;
	uint32_t nterms;
	kp_nterm *terms;             /* spec.nodeSelector */
	int32_t first_device, ndevices;
} kp_dslice;

typedef struct kp_dpool {
	kp_sid driver, name;
	int64_t generation;          /* the highest seen */
	uint8_t incomplete, invalid;
	uint32_t ncounters;
	kp_dcounter *counters;       /* sharedCounters of the pool (set, counter, value) */
	int32_t first_slice, nslices;   /* its slices of the highest generation, by name */
} kp_dpool;

/* the reasons DynamicResources' Filter gives (kube's), besides allocator
 * errors: kp_dra_filter returns these very pointers (dra_memo.c) */
enum { KP_DRA_MSG_CANNOT, KP_DRA_MSG_INVALID_POOLS, KP_DRA_MSG_NOT_ON_NODE, KP_DRA_NMSGS };
extern const char *const kp_dra_msgs[KP_DRA_NMSGS];


/* how a request's devices are chosen among those that fit: AUTO, kube's
 * allocator order, best fit for the openb class (KP_OPENB_GPU_CLASS); FGD,
 * under --strategy fgd or gpu-pack, the GPU the score picked first, then
 * best fit, for every request with a capacity request */
enum { KP_DCHOICE_AUTO, KP_DCHOICE_FGD };

typedef struct kp_dclass {
	kp_sid name;
	uint8_t openb;               /* KP_OPENB_GPU_CLASS: best fit under KP_DCHOICE_AUTO */
	int32_t bad_selector;        /* a selector kplan cannot compile: its index, -1 none (msg in bad_msg) */
	const char *bad_msg;
	uint32_t nselectors;
	kp_cel **selectors;
} kp_dclass;

typedef struct kp_dtol { kp_sid key, value; uint8_t exists, effect; } kp_dtol;

/* one request, or one subrequest of a firstAvailable request */
typedef struct kp_dreq {
	int32_t id;                  /* index over every request of every claim (the selection cache's key) */
	kp_sid name;                 /* "req" or "req/sub" */
	int32_t bad_selector;        /* as kp_dclass */
	const char *bad_msg;
	int32_t cls;                 /* kp_dra.classes index, -1 not found */
	kp_sid cls_name;
	uint32_t nselectors;
	kp_cel **selectors;
	uint8_t all, admin;
	int64_t count;
	uint32_t ntols;
	kp_dtol *tols;
	uint32_t ncaps;              /* capacity.requests (consumable capacity) */
	kp_sid *cap_domain, *cap_name;   /* cap_domain -1: the device's driver's */
	int64_t *cap_value;
} kp_dreq;

typedef struct kp_dconstraint {
	uint32_t nreqs;
	kp_sid *reqs;                /* request names (a parent name covers its subrequests); 0: all */
	kp_sid domain, attr;         /* matchAttribute, or distinctAttribute when distinct */
	uint8_t distinct;
} kp_dconstraint;

typedef struct kp_drequest {
	kp_sid name;
	uint32_t nalts;              /* 1 for exactly, the subrequests for firstAvailable */
	kp_dreq *alts;
} kp_drequest;

/* an allocation result: the device, and for which request; a share of a
 * multi-allocatable device consumes capacity (consumed: per capacity of the
 * device, NULL for a dedicated device) */
typedef struct kp_dresult { int32_t device; kp_sid request; uint8_t admin, share; int64_t *consumed; } kp_dresult;

typedef struct kp_dclaim {
	int64_t db_id;
	kp_sid ns, name;
	uint8_t deleting, generated;
	uint8_t spec_shared;         /* its requests and constraints are another claim's (one template's spec) */
	kp_sid owner_kind, owner_name;   /* the controller ownerReference (a template's claim: Pod) */
	uint32_t nrequests, nconstraints;
	kp_drequest *requests;
	kp_dconstraint *constraints;
	/* allocation: imported (status.allocation) or made by this run */
	uint8_t allocated, run_allocated;
	uint32_t nresults;
	kp_dresult *results;
	uint32_t nterms;             /* its nodeSelector (0 and node -1: every node) */
	kp_nterm *terms;
	int32_t node;                /* node-local allocation: that node, -1 */
} kp_dclaim;

/* one entry of Filter's memo (dra_memo.c): the verdict for one key of
 * claims on one node */
typedef struct kp_dmemo {
	uint64_t key;                /* 0: empty */
	uint32_t node_gen;
	int8_t result, msg;          /* msg: index into kp_dra_msgs, -1 none (the node fits) */
} kp_dmemo;

typedef struct kp_dra {
	int nclasses, npools, nslices, ndevices, nclaims;
	kp_dclass *classes;
	kp_dpool *pools;             /* sorted by (driver, name) */
	kp_dslice *slices;
	kp_device *devices;
	kp_dclaim *claims;
	/* per pod: its claims, claim[claim_off[i] .. claim_off[i + 1]) (index into claims, -1 missing) */
	int32_t *claim_off, *claim;
	kp_sid *claim_name;          /* the name the pod uses, for messages */
	uint8_t *claim_err;          /* per pod claim: bit 0 not created yet (template not imported), bit 1 made from a template */
	/* devices in use: allocations of imported claims and of this run (non-admin) */
	int32_t *in_use;             /* per device: count (dedicated allocations; shares are not) */
	int64_t *consumed;           /* per device capacity (kp_device.cap_off): consumed by shares */
	int32_t ncaps_total;
	/* the run's allocations, in order: (pod, claim, node) */
	struct kp_dalloc { int32_t pod, claim, node; } *run;
	int nrun, cap_run;
	/* consumption of each pool counter by the devices in use: per device, its
	 * consumes[] against the pool's counters (dra.c) */
	int64_t *pool_used;          /* per pool counter (counter_off[pool] .. ) */
	int32_t *counter_off;        /* per pool: first index into pool_used (npools + 1) */
	int nreqs;                   /* kp_dreq ids */
	void *cache;                 /* dra.c: the selection cache ((request, device) -> match) */
	uint8_t *sel;                /* the same, dense (nreqs x ndevices), when small enough; NULL: cache */
	/* DRA-backed extended resources (§16.8): per snapshot resource, the
	 * DeviceClass mapping it (extendedResourceName, or the implicit
	 * deviceclass.resource.kubernetes.io/<class>), -1 none; per scheduling
	 * class, its requests of mapped resources as DRA requests
	 * (ext[ext_off[c] .. ext_off[c + 1]), ext_res their resources); the
	 * in-memory claim of the pod being allocated is claims[nclaims] */
	int32_t *res_cls;
	int32_t *ext_off, *ext_res;
	kp_dreq *ext;
	/* the devices the run allocated for extended resources, per pod */
	struct kp_dext { int32_t pod, node, device; kp_sid request; uint8_t released; } *ext_run;
	int next_run, cap_ext_run;
	/* per node, its usable devices in search order (dra.c node_devices,
	 * computed on first use), and whether it sees an invalid pool */
	int32_t **node_cand;
	int32_t *node_ncand;
	uint8_t *node_invalid;
	/* Filter's memo (dra_memo.c): per node its entries (one block), per
	 * node its generation and the global one its entries were made at (two
	 * per node), the run's global generation; no_memo: plan --reference */
	kp_dmemo *memo;
	uint32_t *node_gen, gen;
	uint8_t no_memo;
	uint8_t choice;              /* KP_DCHOICE_* (set by the plan from its profiles' scores) */
	int reason_idx[KP_DRA_NMSGS];   /* per kp_dra_msgs[] message: its kp_reason index, -1 not yet */
	struct kp_gpus *gpus;        /* the GPU view (gpu_frag.h), made on first use */
	void (*gpus_free)(struct kp_gpus *);   /* its release (set by gpu_frag.c) */
	/* FGDScore's pick (plugins/fgd_score.c): per node the device its score
	 * chose for pod fgd_pi (-1 none), taken first under KP_DCHOICE_FGD */
	int32_t *fgd_dev;
	int32_t fgd_pi;
	int32_t memo_pi;             /* the pod (+ 1, 0 none) whose key memo_key is */
	uint64_t memo_key;
	struct kp_dmap *memo_ids;    /* the memo's keys -> dense index (dra_memo.c) */
	const kp_dmemo *memo_hot;    /* the row of pod memo_hot_pi - 1 (key memo_hot_key), for kp_dra_memo_hot */
	uint64_t memo_hot_key;
	int32_t memo_hot_pi;
	uint64_t memo_key_id;        /* the key whose row memo_slot is (0 none) */
	int32_t memo_slot;
} kp_dra;

/* NodeResourcesFit leaves resource r on node n to DRA: a DeviceClass maps
 * it and the node does not advertise it (kube 1.36+, DRAExtendedResource) */
static inline int kp_dra_delegated(const kp_snap *s, int r, int n)
{
	const kp_dra *d = s->dra;
	return d && d->res_cls && d->res_cls[r] >= 0 && s->alloc[(size_t)n * (size_t)s->nres + (size_t)r] == 0;
}

/* Filter's memo for pod pi on node n without a call, once the pod's row is
 * at hand (dra_memo.c): -1 not known (kp_dra_filter decides), 0 the node
 * fits, 1 + k it does not, kp_dra_msgs[k] */
static inline int kp_dra_memo_hot(const kp_dra *d, int32_t pi, int n)
{
	if (d->memo_pi != pi + 1 || d->memo_hot_pi != pi + 1)
		return -1;
	const kp_dmemo *m = &d->memo_hot[n];
	if (m->key != d->memo_hot_key || m->node_gen != d->node_gen[2 * n] || d->node_gen[2 * n + 1] != d->gen)
		return -1;
	return m->msg < 0 ? 0 : 1 + m->msg;
}

/* dra.c */
struct kp_cycle;
/* the pod's claims as PreFilter finds them: KP_OK, KP_SKIP (no claims), or
 * KP_PREFILTER_FAIL with *msg (arena of the cycle) */
int kp_dra_prefilter(struct kp_cycle *cy, const char **msg);
/* Filter: 0 the node can take the pod's claims (allocated ones' node
 * selectors, the others allocated by the structured allocator); 1 with
 * *msg: kube's reason; -1 out of memory */
int kp_dra_filter(struct kp_cycle *cy, int node, const char **msg);
/* Reserve: the pod pi was bound to node n: its unallocated claims take the
 * devices the allocator finds there; recorded in run.  KP_OK or KP_NOMEM. */
int kp_dra_reserve(kp_snap *s, int32_t pi, int n, struct kp_cycle *cy);
/* The pod's claims could be used on node n were it empty (allocated ones'
 * node selectors, the allocator for the others, with the devices local to
 * n free — those a node template gave it, whoever the run gave them to): 1
 * yes, 0 no — for an empty added node (kp_plan_pod.fits_empty_added) */
int kp_dra_fits_node(struct kp_cycle *cy, int32_t pi, int n);
/* device dev passes the class and selectors of request r of claim ci
 * (the allocator's selection, cached): 1 yes, 0 no or a selector error */
int kp_dra_request_selects(kp_snap *s, int32_t ci, const kp_dreq *r, int32_t dev);
/* Pod pi left its node for good (evicted by preemption, or taken off by a
 * what-if scenario): the claims it owns (made from its templates) go with
 * it, as the claim controller deletes them — their devices are free, and a
 * re-created pod's claim is allocated anew.  Shared claims stay allocated.
 * KP_OK or KP_NOMEM. */
int kp_dra_release_owned(kp_snap *s, int32_t pi);
/* rebalance's undo: pod pi goes back to node n, its own claims allocated
 * there again (not recorded as the run's).  KP_OK or KP_NOMEM. */
int kp_dra_restore(kp_snap *s, int32_t pi, int n, struct kp_cycle *cy);
/* explain's "devices:" block for the cycle's pod (node: the chosen one, -1
 * none): each claim, allocated or what it asks, and the devices the
 * allocator takes on the node.  KP_OK or KP_NOMEM. */
int kp_dra_explain(struct kp_cycle *cy, int node, kp_sb *sb);

#endif
