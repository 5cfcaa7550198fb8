/*
 * requests.c — a pod's effective resource requests (kube-scheduler-semantics.md §4.1, §4.2).
 *
 *   request(R) = max(Σ app containers + Σ sidecars,
 *                    max over init containers of (its request + sidecars started before it))
 *                + overhead(R)
 * Sidecars are init containers with restartPolicy Always.  A container that
 * has a limit but no request for R requests the limit (API defaulting).
 * The non-zero variant (scoring only) gives each container without a cpu
 * (memory) request 100m (200Mi) and returns cpu and memory only.
 * Resized containers' status resources and pod-level requests: model.h,
 * kp_pod_requests (kube's PodRequests, component-helpers/resource/helpers.go).
 */
#include "model.h"
#include "../common/kp.h"

#include <string.h>
#include <stdlib.h>

typedef struct acc {
	const char *name;
	int64_t sum, sidecars, init_max;
	int64_t overhead;
} acc;

static acc *find(acc *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

static int add(int64_t *x, int64_t y)
{
	return !__builtin_add_overflow(*x, y, x);
}

/* *v = the amount of `name` in r; 1 when present */
static int res_get(const kp_ress *r, const char *name, int64_t *v)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].name, name) == 0) {
			*v = r->v[i].value;
			return 1;
		}
	return 0;
}

/* kp_container_status (model.h) */
const kp_ctr_status *kp_container_status(const kp_pod_in *pod, const kp_container *c, int allow_init)
{
	if ((c->kind == KP_CONTAINER_INIT && !allow_init) || !c->name)
		return NULL;
	for (size_t i = 0; i < pod->nstatuses; i++)
		if (pod->statuses[i].init == (c->kind != KP_CONTAINER_APP) && pod->statuses[i].name &&
		    strcmp(pod->statuses[i].name, c->name) == 0)
			return &pod->statuses[i];
	return NULL;
}

/* the container's request for `name`: request, else limit (API
 * defaulting); with a status (resize), the max of that, the status's
 * requests and allocated resources (without the spec when the resize is
 * Infeasible: helpers.go determineContainerReqs); else absent.  With
 * nonzero, an absent cpu/memory request becomes the default. */
static int64_t container_amount(const kp_pod_in *pod, const kp_container *c, const char *name, int flags)
{
	int nonzero = flags & KP_REQ_NONZERO, have = 0;
	int64_t best = 0, v;
	const kp_ctr_status *st = flags & KP_REQ_NO_STATUS ? NULL : kp_container_status(pod, c, 0);
	if (!st || !pod->resize_infeasible) {
		if (res_get(&c->requests, name, &v) || res_get(&c->limits, name, &v))
			best = v, have = 1;
	}
	if (st && res_get(&st->requests, name, &v) && (!have || v > best))
		best = v, have = 1;
	if (st && res_get(&st->allocated, name, &v) && (!have || v > best))
		best = v, have = 1;
	if (have)
		return best;
	if (nonzero && strcmp(name, "cpu") == 0)
		return KP_DEFAULT_MILLI_CPU_REQUEST;
	if (nonzero && strcmp(name, "memory") == 0)
		return KP_DEFAULT_MEMORY_REQUEST;
	return 0;
}

/* cpu, memory and hugepages-*: the resources a pod-level request may set
 * (helpers.go IsSupportedPodLevelResource) */
static int pod_level_resource(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "memory") || !strncmp(name, "hugepages-", 10);
}

/* the pod-level request of `name` after API defaulting (core/v1
 * defaults.go defaultPodRequests): the request, else the pod-level limit —
 * except hugepages some container requests, which default to the
 * containers' aggregate (the same as not replacing it) */
static int pod_level_amount(const kp_pod_in *pod, const char *name, int64_t *v)
{
	if (!pod_level_resource(name))
		return 0;
	if (res_get(&pod->pod_requests, name, v))
		return 1;
	if (!res_get(&pod->pod_limits, name, v))
		return 0;
	if (!strncmp(name, "hugepages-", 10))
		for (size_t i = 0; i < pod->ncontainers; i++) {
			int64_t x;
			if (res_get(&pod->containers[i].requests, name, &x) || res_get(&pod->containers[i].limits, name, &x))
				return 0;
		}
	return 1;
}

/* every name of r not yet in v */
static size_t add_names(acc *v, size_t n, const kp_ress *r)
{
	for (size_t j = 0; j < r->n; j++)
		if (!find(v, n, r->v[j].name))
			v[n++].name = r->v[j].name;
	return n;
}

static int cmp_res(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(((const kp_res *)a)->name, ((const kp_res *)b)->name);
}

int kp_pod_requests(const kp_pod_in *pod, int flags, kp_arena *a, kp_ress *out, kp_err *err)
{
	int nonzero = flags & KP_REQ_NONZERO;
	int pod_level = !(flags & KP_REQ_NO_POD_LEVEL);
	memset(out, 0, sizeof *out);
	/* collect resource names */
	size_t cap = pod->overhead.n + 2 + pod->pod_requests.n + pod->pod_limits.n;
	for (size_t i = 0; i < pod->ncontainers; i++)
		cap += pod->containers[i].requests.n + pod->containers[i].limits.n;
	for (size_t i = 0; i < pod->nstatuses; i++)
		cap += pod->statuses[i].requests.n + pod->statuses[i].allocated.n;
	acc *v = kp_calloc(cap, sizeof *v);
	if (!v)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	size_t n = 0;
	if (nonzero) {
		v[n++].name = "cpu";
		v[n++].name = "memory";
	} else {
		for (size_t i = 0; i < pod->ncontainers; i++) {
			const kp_container *c = &pod->containers[i];
			for (int l = 0; l < 2; l++) {
				const kp_ress *r = l ? &c->limits : &c->requests;
				for (size_t j = 0; j < r->n; j++)
					if (!find(v, n, r->v[j].name))
						v[n++].name = r->v[j].name;
			}
		}
		n = add_names(v, n, &pod->overhead);
		if (!(flags & KP_REQ_NO_STATUS))
			for (size_t i = 0; i < pod->nstatuses; i++) {
				n = add_names(v, n, &pod->statuses[i].requests);
				n = add_names(v, n, &pod->statuses[i].allocated);
			}
		if (pod_level) {
			n = add_names(v, n, &pod->pod_requests);
			n = add_names(v, n, &pod->pod_limits);
		}
	}
	int ok = 1;
	for (size_t k = 0; k < n && ok; k++) {
		acc *r = &v[k];
		for (size_t i = 0; i < pod->ncontainers && ok; i++) {
			const kp_container *c = &pod->containers[i];
			int64_t amt = container_amount(pod, c, r->name, flags);
			if (c->kind == KP_CONTAINER_APP) {
				ok = add(&r->sum, amt);
			} else if (c->kind == KP_CONTAINER_SIDECAR) {
				ok = add(&r->sum, amt) && add(&r->sidecars, amt);
				if (ok && r->sidecars > r->init_max)
					r->init_max = r->sidecars;
			} else {
				int64_t stage = amt;
				ok = add(&stage, r->sidecars);
				if (ok && stage > r->init_max)
					r->init_max = stage;
			}
		}
		for (size_t j = 0; j < pod->overhead.n && ok; j++)
			if (strcmp(pod->overhead.v[j].name, r->name) == 0)
				r->overhead = pod->overhead.v[j].value;
	}
	if (!ok) {
		kp_free(v);
		return kp_err_set(err, KP_RANGE, "resource requests add up to more than int64");
	}
	out->v = n ? kp_arena_alloc(a, n * sizeof *out->v) : NULL;
	if (n && !out->v) {
		kp_free(v);
		return kp_err_set(err, KP_NOMEM, "out of memory");
	}
	size_t m = 0;
	for (size_t k = 0; k < n; k++) {
		int64_t val = v[k].sum > v[k].init_max ? v[k].sum : v[k].init_max, pl;
		if (pod_level && pod_level_amount(pod, v[k].name, &pl))
			val = pl;   /* helpers.go PodRequests: the pod-level request replaces the aggregate */
		if (!add(&val, v[k].overhead)) {
			kp_free(v);
			return kp_err_set(err, KP_RANGE, "resource requests add up to more than int64");
		}
		if (val == 0 && !nonzero)
			continue;
		out->v[m].name = v[k].name;
		out->v[m].value = val;
		m++;
	}
	out->n = m;
	kp_free(v);
	if (m > 1)
		kp_sort(out->v, m, sizeof *out->v, cmp_res, NULL);
	return KP_OK;
}
