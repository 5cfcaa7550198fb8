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

/* the container's request for `name`: request, else limit, else 0;
 * with nonzero, a missing cpu/memory request becomes the default */
static int64_t container_amount(const kp_container *c, const char *name, int nonzero)
{
	for (size_t i = 0; i < c->requests.n; i++)
		if (strcmp(c->requests.v[i].name, name) == 0)
			return c->requests.v[i].value;
	for (size_t i = 0; i < c->limits.n; i++)
		if (strcmp(c->limits.v[i].name, name) == 0)
			return c->limits.v[i].value;
	if (nonzero && strcmp(name, "cpu") == 0)
		return KP_DEFAULT_MILLI_CPU_REQUEST;
	if (nonzero && strcmp(name, "memory") == 0)
		return KP_DEFAULT_MEMORY_REQUEST;
	return 0;
}

static int cmp_res(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(((const kp_res *)a)->name, ((const kp_res *)b)->name);
}

int kp_pod_requests(const kp_pod_in *pod, int nonzero, kp_arena *a, kp_ress *out, kp_err *err)
{
	memset(out, 0, sizeof *out);
	/* collect resource names */
	size_t cap = pod->overhead.n + 2;
	for (size_t i = 0; i < pod->ncontainers; i++)
		cap += pod->containers[i].requests.n + pod->containers[i].limits.n;
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
		for (size_t j = 0; j < pod->overhead.n; j++)
			if (!find(v, n, pod->overhead.v[j].name))
				v[n++].name = pod->overhead.v[j].name;
	}
	int ok = 1;
	for (size_t k = 0; k < n && ok; k++) {
		acc *r = &v[k];
		for (size_t i = 0; i < pod->ncontainers && ok; i++) {
			const kp_container *c = &pod->containers[i];
			int64_t amt = container_amount(c, r->name, nonzero);
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
		int64_t val = v[k].sum > v[k].init_max ? v[k].sum : v[k].init_max;
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
