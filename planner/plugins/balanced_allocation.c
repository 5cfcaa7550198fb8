/*
 * balanced_allocation.c — NodeResourcesBalancedAllocation (kube-scheduler-semantics.md §7.5;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/
 * balanced_allocation.go, resource_allocation.go).  Fractions of allocatable
 * requested after placing the pod, with REAL requests (no non-zero
 * defaults), capped at 1; score = (1 - std deviation) * 100, truncated.
 * Resources with allocatable 0, and scalar resources the pod does not
 * request, are left out.  No normalisation.
 */
#include "../cycle.h"

static int64_t score(kp_cycle *cy, int node)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	double f[KP_MAX_RES_WEIGHTS];
	size_t n = 0;
	for (int i = 0; i < cy->pf->nbal_res; i++) {
		int r = cy->bal_res[i];
		if (r < 0)
			continue;
		int64_t pod = 0;
		for (uint32_t k = 0; k < c->nreq; k++)
			if (c->req_res[k] == r)
				pod = c->req_val[k];
		if (r > 2 && pod == 0)
			continue;
		int64_t alloc = s->alloc[(size_t)node * (size_t)s->nres + (size_t)r];
		if (alloc == 0)
			continue;
		double fr = (double)(s->used[(size_t)node * (size_t)s->nres + (size_t)r] + pod) / (double)alloc;
		f[n++] = fr > 1 ? 1 : fr;
	}
	return kp_balanced_allocation(f, n);
}

const kp_plugin kp_plugin_balanced_allocation = {
	.name = "NodeResourcesBalancedAllocation",
	.weight = 1,
	.local_score = 1,
	.score = score,
};
