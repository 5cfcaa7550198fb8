/*
 * dra_int.h — what the DynamicResources files share (private to planner/dra*.c):
 * dra.c (PreFilter, the structured allocator, Filter, Reserve, release),
 * dra_nodes.c (the devices each node sees) and dra_explain.c (explain's
 * devices block).
 */
#ifndef KP_DRA_INT_H
#define KP_DRA_INT_H

#include "dra.h"
#include "cycle.h"

/* one device of a solution: for which claim and request */
typedef struct pick { int32_t device, claim; kp_sid request; uint8_t admin; } pick;

typedef struct search {
	kp_cycle *cy;
	kp_snap *s;
	kp_dra *d;
	int node;
	const int32_t *claims;       /* the claims to allocate, in order */
	int nclaims;
	pick *sol;                   /* the solution so far */
	int nsol, cap;
	int32_t *cand;               /* the node's candidate devices, in search order */
	int ncand;
	char *err;                   /* an allocator error (CEL): the search stops */
	size_t err_size;
	int failed_err;
} search;

/* dra_nodes.c: device v can be used on node n (its slice's or its own node selection) */
int kp_dra_visible(const kp_snap *s, const kp_dra *d, const kp_device *v, int n);
/* the one node device v is visible on (its slice's nodeName, or with
 * perDeviceNodeSelection its own), -1 when it is all nodes' or selected */
int32_t kp_dra_device_node(const kp_dra *d, const kp_device *v);
/* the devices of complete, valid pools visible on x->node, in search order (x->cand) */
int kp_dra_candidates(search *x);
/* device dev passes request r's class and own selectors: 1, 0, -1 error (x->err) */
int kp_dra_selected(search *x, int32_t ci, const kp_dreq *r, int32_t dev);
/* a share of request r fits device dev's free capacity (dev allows multiple allocations) */
int kp_dra_share_fits(const search *x, const kp_dreq *r, int32_t dev);
/* an allocated claim can be used on node n */
int kp_dra_claim_on_node(const kp_snap *s, const kp_dra *d, const kp_dclaim *c, int n);
/* the allocator for pod pi on node n: 1 found (x->sol; the caller frees it), 0 not, -1 error (err), -2 out of memory */
int kp_dra_allocate(search *x, kp_cycle *cy, int32_t pi, int n, char *err, size_t size);

/* dra_memo.c: Filter's verdict for pod pi on node n, if known (1: *result
 * 0 fits / 1 does not, *msg); *key for kp_dra_memo_put (0: not memoised) */
int kp_dra_memo_get(kp_dra *d, const kp_snap *s, int32_t pi, int n, uint64_t *key, int *result, const char **msg);
void kp_dra_memo_put(kp_dra *d, const kp_snap *s, int32_t pi, int n, uint64_t key, int result, const char *msg);
/* device dev's state changed (in use, consumed): the verdicts of the nodes that see it are stale */
void kp_dra_touched(kp_dra *d, int32_t dev);

#endif
