/*
 * balanced_allocation.c — NodeResourcesBalancedAllocation (kube-scheduler-semantics.md §7.5;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/
 * balanced_allocation.go, resource_allocation.go).  Fractions of allocatable
 * requested, with REAL requests (no non-zero defaults), capped at 1;
 * B = (1 - std deviation) * 100, truncated.  Resources with allocatable 0,
 * and scalar resources the pod does not request, are left out.  No
 * normalisation.  Per version (docs/kube-versions.md §3):
 *  - from 1.33 (PR #130260; read in a 1.35 copy) PreScore skips a pod whose
 *    requests of the configured resources are all 0 (best-effort): the
 *    plugin adds nothing;
 *  - up to 1.35 the score is B(node requested + pod);
 *  - from 1.36 (PR #135573, "score will now take into consideration both
 *    balance with and without the requested pod") it is
 *    50 + (50 + B(with the pod) - B(without)) / 2, integer arithmetic.  No
 *    upstream copy of the 1.36 file was read: the formula is the PR's and
 *    CHANGELOG-1.36's, as docs/kube-versions.md quotes it.
 * Under --strategy kube-1.20 (profile bal_1_20) it scores as kube 1.18-1.21
 * did (balancedResourceScorer in the same file of those releases, the
 * framework.MaxNodeScore copies; volumes' BalanceAttachedNodeVolumes was
 * alpha and off): cpu and memory only, with NON-ZERO requests (the node's
 * NonZeroRequested plus the pod's), 0 when either fraction is at least 1,
 * else (1 - |cpu - memory|) * 100; no best-effort skip.  The scores of the
 * FGD paper's simulator (kube 1.20.5; docs/gpu-devices.md).
 */
#include "../cycle.h"

static int64_t pod_request(const kp_class *c, int r)
{
	for (uint32_t k = 0; k < c->nreq; k++)
		if (c->req_res[k] == r)
			return c->req_val[k];
	return 0;
}

static int pre_score(kp_cycle *cy)
{
	if (cy->s->kube.minor < 33 || cy->pf->bal_1_20)
		return KP_OK;
	for (int i = 0; i < cy->pf->nbal_res; i++)
		if (cy->bal_res[i] >= 0 && pod_request(cy->c, cy->bal_res[i]) != 0)
			return KP_OK;
	return KP_SKIP;   /* isBestEffortPod */
}

/* one pass over the resources: B with the pod's requests, and (without
 * not NULL) B of the node's requested alone */
static int64_t balance(kp_cycle *cy, int node, int64_t *without)
{
	const kp_snap *s = cy->s;
	double f[KP_MAX_RES_WEIGHTS], g[KP_MAX_RES_WEIGHTS];
	size_t n = 0;
	for (int i = 0; i < cy->pf->nbal_res; i++) {
		int r = cy->bal_res[i];
		if (r < 0)
			continue;
		int64_t pod = pod_request(cy->c, r);
		if (r > 2 && pod == 0)
			continue;
		size_t at = (size_t)node * (size_t)s->nres + (size_t)r;
		if (s->alloc[at] == 0)
			continue;
		double with = (double)(s->used[at] + pod) / (double)s->alloc[at];
		double alone = (double)s->used[at] / (double)s->alloc[at];
		f[n] = with > 1 ? 1 : with;
		g[n++] = alone > 1 ? 1 : alone;
	}
	if (without)
		*without = kp_balanced_allocation(g, n);
	return kp_balanced_allocation(f, n);
}

/* kube 1.20's: the node's non-zero requests (resources 0 cpu, 1 memory) plus
 * the pod's */
static int64_t score_1_20(kp_cycle *cy, int node)
{
	const kp_snap *s = cy->s;
	double f[2];
	for (int r = 0; r < 2; r++) {
		int64_t alloc = s->alloc[(size_t)node * (size_t)s->nres + (size_t)r];
		int64_t req = s->nz_used[2 * node + r] + (r ? cy->c->nz_mem : cy->c->nz_cpu);
		f[r] = alloc == 0 ? 1 : (double)req / (double)alloc;
	}
	return kp_balanced_allocation_1_20(f[0], f[1]);
}

static int64_t score(kp_cycle *cy, int node)
{
	if (cy->pf->bal_1_20)
		return score_1_20(cy, node);
	if (cy->s->kube.minor < 36)
		return balance(cy, node, NULL);
	int64_t without, with = balance(cy, node, &without);
	return KP_MAX_NODE_SCORE / 2 + (KP_MAX_NODE_SCORE / 2 + with - without) / 2;
}

const kp_plugin kp_plugin_balanced_allocation = {
	.name = "NodeResourcesBalancedAllocation",
	.weight = 1,
	.local_score = 1,
	.pre_score = pre_score,
	.score = score,
};
