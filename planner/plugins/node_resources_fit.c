/*
 * node_resources_fit.c — NodeResourcesFit (kube-scheduler-semantics.md §5.6, §7.1-7.4;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/
 * fit.go, resource_allocation.go, least_allocated.go, most_allocated.go,
 * requested_to_capacity_ratio.go).
 *
 * Filter: pod count, then every requested resource against allocatable minus
 * requested; all failures are reported ("Too many pods", "Insufficient cpu",
 * "Insufficient nvidia.com/gpu", ...), code Unschedulable.  Ignored resources
 * (ignoredResources, ignoredResourceGroups) are not checked.
 * Score: LeastAllocated (default), MostAllocated or RequestedToCapacityRatio
 * over the strategy's resources and weights; cpu and memory use the non-zero
 * requests (100m / 200Mi per container that names none).
 */
#include "../cycle.h"
#include "../dra.h"

#include <string.h>
#include <math.h>

int kp_fit_ignored(const kp_profile *pf, const char *name)
{
	for (int i = 0; i < pf->nignored; i++)
		if (!strcmp(pf->ignored[i], name))
			return 1;
	if (!pf->nignored_groups)   /* the usual case: no scan of the name (called per node and resource) */
		return 0;
	const char *slash = strchr(name, '/');
	if (slash)
		for (int i = 0; i < pf->nignored_groups; i++)
			if (strlen(pf->ignored_groups[i]) == (size_t)(slash - name) &&
			    !strncmp(pf->ignored_groups[i], name, (size_t)(slash - name)))
				return 1;
	return 0;
}

static int filter(kp_cycle *cy, int node)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	const int64_t *alloc = &s->alloc[(size_t)node * (size_t)s->nres];
	const int64_t *used = &s->used[(size_t)node * (size_t)s->nres];
	int failed = 0;
	if ((int64_t)s->node_npods[node] + 1 > alloc[3]) {
		kp_cycle_fail(cy, node, KP_P_NODE_RESOURCES_FIT, cy->r_too_many_pods, 0);
		failed = 1;
	}
	/* cpu, memory, ephemeral-storage, then scalar resources in name order */
	for (uint32_t k = 0; k < c->nreq; k++) {
		int r = c->req_res[k];
		int64_t want = c->req_val[k];
		if (want <= 0 || r == 3)
			continue;
		if (r > 2 && kp_fit_ignored(cy->pf, kp_str(&s->strs, s->res_name[r])))
			continue;
		if (r > 2 && kp_dra_delegated(s, r, node))
			continue;   /* an extended resource DRA allocates here (DynamicResources) */
		if (want > alloc[r] - used[r]) {
			kp_cycle_fail(cy, node, KP_P_NODE_RESOURCES_FIT, cy->r_insufficient[r], 0);
			failed = 1;
		}
	}
	return failed;
}

/* the pod's request of resource r for scoring, and the node's requested total */
static int alloc_request(const kp_cycle *cy, int node, int r, int64_t *alloc, int64_t *req)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	if (r < 0)
		return 0;
	int64_t podreq = 0;
	if (r == 0)
		podreq = c->nz_cpu;
	else if (r == 1)
		podreq = c->nz_mem;
	else
		for (uint32_t k = 0; k < c->nreq; k++)
			if (c->req_res[k] == r)
				podreq = c->req_val[k];
	/* scalar (extended, hugepages) resources the pod does not request are skipped */
	if (r > 2 && podreq == 0)
		return 0;
	*alloc = s->alloc[(size_t)node * (size_t)s->nres + (size_t)r];
	if (*alloc == 0)
		return 0;
	int64_t used = r < 2 ? s->nz_used[2 * node + r] : s->used[(size_t)node * (size_t)s->nres + (size_t)r];
	*req = used + podreq;
	return 1;
}

static int64_t score(kp_cycle *cy, int node)
{
	const kp_profile *pf = cy->pf;
	int64_t sum = 0, wsum = 0;
	double fsum = 0;
	for (int i = 0; i < pf->nfit_res; i++) {
		int64_t alloc, req;
		if (!alloc_request(cy, node, cy->fit_res[i], &alloc, &req))
			continue;
		int64_t w = pf->fit_res[i].weight, sr;
		switch (pf->strategy) {
		case KP_STRAT_MOST:
			sr = kp_most_allocated(req, alloc);
			break;
		case KP_STRAT_RTCR:
			sr = kp_rtcr(req, alloc, pf->shape, (size_t)pf->nshape);
			/* only positive resource scores enter the weighted mean (kube-scheduler-semantics.md §7.4) */
			if (sr > 0) {
				fsum += (double)(sr * w);
				wsum += w;
			}
			continue;
		default:
			sr = kp_least_allocated(req, alloc);
			break;
		}
		sum += sr * w;
		wsum += w;
	}
	if (!wsum)
		return 0;
	if (pf->strategy == KP_STRAT_RTCR)
		return (int64_t)llround(fsum / (double)wsum);
	return sum / wsum;
}

const kp_plugin kp_plugin_node_resources_fit = {
	.name = "NodeResourcesFit",
	.weight = 1,
	.local_filter = 1,
	.local_score = 1,
	.filter = filter,
	.score = score,
};
