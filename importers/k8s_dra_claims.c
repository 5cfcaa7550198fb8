/*
 * k8s_dra_claims.c — the readers of the Dynamic Resource Allocation kinds
 * that ask for devices (resource.k8s.io, issue 17; imported, not planned
 * yet): ResourceClaim (spec and status: allocation, reservedFor) and
 * ResourceClaimTemplate; and the DRA parts of a pod: spec.resourceClaims,
 * its containers' resources.claims, status.resourceClaimStatuses.
 *
 * Contract: as k8s_dra.c.  A claim spec is read into v1's form: a
 * v1beta1 request's deviceClassName, selectors, allocationMode, count,
 * adminAccess, tolerations and capacity (any of them set) become its
 * `exactly`, as Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest
 * does; then defaulted (allocationMode ExactCount, count 1) and checked as
 * validateDeviceClaim checks it: a request has exactly one of `exactly` and
 * `firstAvailable`, a class, a known allocation mode (clients must refuse
 * unknown modes), a count > 0 only with ExactCount; constraints and configs
 * name requests of the claim (REQUEST or REQUEST/SUBREQUEST).  A pod's
 * claim names exactly one of resourceClaimName and
 * resourceClaimTemplateName; a container's claim names one of them.
 *
 *   requests: [{name: gpu, deviceClassName: gpu.example.com}]      (v1beta1)
 *     -> request gpu: exactly {deviceClassName gpu.example.com,
 *        allocationMode ExactCount, count 1}
 */
#include "k8s_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* paths in messages: DPATH bytes, cut to fit */
#define DPATH (PATHMAX * 2)
static void pathf(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pathf(char *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, DPATH, fmt, ap);
	va_end(ap);
}

/* ---- requests ---- */

/* the fields of an exact request (or subrequest) at m into r */
static int read_exact(kctx *c, const kp_ynode *m, const char *path, int sub, kp_dra_request *r)
{
	static const char *const modes[] = { "ExactCount", "All", NULL };
	const kp_ynode *cap, *req;
	char p[DPATH];
	int has;
	pathf(p, "%s.deviceClassName", path);
	if (kp_k8s_get_str(c, m, "deviceClassName", p, &r->device_class) != KP_OK)
		return KP_PARSE;
	if (!r->device_class || !r->device_class[0])
		return kp_k8s_bad(c, m, "%s: required", p);
	if (kp_k8s_dra_selectors(c, m, path, &r->selectors) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.allocationMode", path);
	if (kp_k8s_one_of(c, m, "allocationMode", p, modes, &r->mode) != KP_OK)
		return KP_PARSE;
	if (!r->mode)
		r->mode = "ExactCount";
	pathf(p, "%s.count", path);
	if (kp_k8s_get_int(c, m, "count", p, &r->count, &has) != KP_OK)
		return KP_PARSE;
	if (!strcmp(r->mode, "All") && has && r->count)
		return kp_k8s_bad(c, kp_ymap_get(m, "count"), "%s: must not be specified when allocationMode is 'All'", p);
	if (!strcmp(r->mode, "ExactCount") && (!has || !r->count))
		r->count = 1;   /* the API's default */
	if (r->count < 0)
		return kp_k8s_bad(c, kp_ymap_get(m, "count"), "%s: must be greater than zero", p);
	pathf(p, "%s.adminAccess", path);
	if (!sub && kp_k8s_get_bool(c, m, "adminAccess", p, &r->admin_access) != KP_OK)
		return KP_PARSE;
	if (kp_k8s_dra_tolerations(c, m, path, &r->tols, &r->ntols) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.capacity", path);
	if (kp_k8s_get_map(c, m, "capacity", p, &cap) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.capacity.requests", path);
	if (kp_k8s_get_map(c, cap, "requests", p, &req) != KP_OK)
		return KP_PARSE;
	if (!req || !req->n)
		return KP_OK;
	if (!(r->caps = kp_arena_alloc(c->a, req->n * sizeof *r->caps)))
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < req->n; i++) {
		kp_dra_qty *q = &r->caps[i];
		char qp[DPATH];
		const char *d;
		memset(q, 0, sizeof *q);
		q->name = req->u.pairs[i].key->u.str;
		pathf(qp, "%s.%s", p, q->name);
		if (kp_k8s_dra_qualify(c, req->u.pairs[i].key, qp, q->name, NULL, &d, &q->name) != KP_OK)
			return KP_PARSE;
		q->name = req->u.pairs[i].key->u.str;   /* kept as written: a bare name is the device's driver's */
		if (kp_k8s_dra_quantity(c, req->u.pairs[i].value, qp, &q->value, &q->text) != KP_OK)
			return KP_PARSE;
	}
	r->ncaps = req->n;
	return KP_OK;
}

/* the v1beta1 request fields that make an `exactly` (hasAnyMainRequestFieldsSet) */
static int beta1_main_fields(const kp_ynode *e)
{
	static const char *const keys[] = { "deviceClassName", "selectors", "allocationMode", "count", "adminAccess",
					    "tolerations", "capacity" };
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (kp_ymap_get(e, keys[i]))
			return 1;
	return 0;
}

/* request e (index i) into reqs[*n...]: the request and its subrequests */
static int read_request(kctx *c, const kp_ynode *e, const char *path, int beta1, int64_t i, kp_dra_request *reqs,
			size_t *n)
{
	const kp_ynode *ex = NULL, *fa;
	const char *name;
	char p[DPATH], xp[DPATH];
	if (e->type != KP_Y_MAP)
		return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(e));
	pathf(p, "%s.name", path);
	if (kp_k8s_get_str(c, e, "name", p, &name) != KP_OK)
		return KP_PARSE;
	if (!name || !name[0])
		return kp_k8s_bad(c, e, "%s: required", p);
	if (strchr(name, '/'))
		return kp_k8s_bad(c, kp_ymap_get(e, "name"), "%s: '%s' must not contain '/'", p, name);
	pathf(xp, "%s%s", path, beta1 ? "" : ".exactly");
	if (beta1)
		ex = beta1_main_fields(e) ? e : NULL;
	else if (kp_k8s_get_map(c, e, "exactly", xp, &ex) != KP_OK)
		return KP_PARSE;
	pathf(p, "%s.firstAvailable", path);
	if (kp_k8s_get_seq(c, e, "firstAvailable", p, &fa) != KP_OK)
		return KP_PARSE;
	if (fa && !fa->n)
		fa = NULL;
	if (!ex == !fa)
		return kp_k8s_bad(c, e, "%s: exactly one of `exactly` or `firstAvailable` is required%s%s", path,
				  ex ? ", but both are set" : "",
				  !beta1 && !ex && kp_ymap_get(e, "deviceClassName")
					  ? " (deviceClassName directly in the request is the v1beta1 form: apiVersion "
					    "resource.k8s.io/v1beta1)" : "");
	kp_dra_request *r = &reqs[(*n)++];
	memset(r, 0, sizeof *r);
	r->name = name;
	r->sub = "";
	r->seq = i;
	if (ex)
		return read_exact(c, ex, xp, 0, r);
	r->first_available = 1;
	if (fa->n > 8)
		return kp_k8s_bad(c, fa, "%s: must have at most 8 subrequests, got %zu", p, fa->n);
	for (size_t k = 0; k < fa->n; k++) {
		const kp_ynode *s = fa->u.items[k];
		kp_dra_request *sr = &reqs[(*n)++];
		char q[DPATH], qn[DPATH];
		memset(sr, 0, sizeof *sr);
		pathf(q, "%s[%zu]", p, k);
		if (s->type != KP_Y_MAP)
			return kp_k8s_bad(c, s, "%s: expected a mapping, got a %s", q, kp_ynode_type_name(s));
		pathf(qn, "%s.name", q);
		if (kp_k8s_get_str(c, s, "name", qn, &sr->sub) != KP_OK)
			return KP_PARSE;
		if (!sr->sub || !sr->sub[0])
			return kp_k8s_bad(c, s, "%s: required", qn);
		for (size_t j = *n - 1 - k; j < *n - 1; j++)
			if (!strcmp(reqs[j].sub, sr->sub))
				return kp_k8s_bad(c, kp_ymap_get(s, "name"), "%s: '%s' twice", qn, sr->sub);
		sr->name = name;
		sr->seq = i;
		sr->sub_seq = (int64_t)k + 1;
		if (read_exact(c, s, q, 1, sr) != KP_OK)
			return KP_PARSE;
	}
	return KP_OK;
}

/* 1 when ref names a request ("req") or a subrequest ("req/sub") of spec */
static int request_ref(const kp_device_claim *spec, const char *ref)
{
	const char *slash = strchr(ref, '/');
	size_t len = slash ? (size_t)(slash - ref) : strlen(ref);
	if (slash && strchr(slash + 1, '/'))
		return 0;
	for (size_t i = 0; i < spec->nreqs; i++) {
		const kp_dra_request *r = &spec->reqs[i];
		if (strlen(r->name) != len || strncmp(r->name, ref, len) != 0)
			continue;
		if (!slash ? !r->sub[0] : r->sub[0] && !strcmp(r->sub, slash + 1))
			return 1;
	}
	return 0;
}

/* m.requests: names of requests of spec (none: every request) */
static int read_refs(kctx *c, const kp_ynode *m, const char *path, const kp_device_claim *spec, kp_strs *out)
{
	char p[DPATH];
	pathf(p, "%s.requests", path);
	if (kp_k8s_get_strs(c, m, "requests", p, out) != KP_OK)
		return KP_PARSE;
	for (size_t i = 0; spec && i < out->n; i++)
		if (!request_ref(spec, out->v[i]))
			return kp_k8s_bad(c, kp_ymap_get(m, "requests")->u.items[i], "%s[%zu]: '%s' must be the name of a request "
					  "in the claim or the name of a request and a subrequest separated by '/'", p, i,
					  out->v[i]);
	return KP_OK;
}

int kp_k8s_dra_config(kctx *c, const kp_ynode *seq, const char *path, const kp_device_claim *spec)
{
	for (size_t i = 0; seq && i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i], *op, *par;
		char p[DPATH], q[DPATH];
		const char *driver;
		kp_strs refs;
		pathf(p, "%s[%zu]", path, i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		if (spec && read_refs(c, e, p, spec, &refs) != KP_OK)
			return KP_PARSE;
		pathf(q, "%s.opaque", p);
		if (kp_k8s_get_map(c, e, "opaque", q, &op) != KP_OK)
			return KP_PARSE;
		if (!op)
			return kp_k8s_bad(c, e, "%s: required", q);
		pathf(q, "%s.opaque.driver", p);
		if (kp_k8s_get_str(c, op, "driver", q, &driver) != KP_OK)
			return KP_PARSE;
		if (!driver || !driver[0])
			return kp_k8s_bad(c, op, "%s: required", q);
		pathf(q, "%s.opaque.parameters", p);
		if (kp_k8s_get_map(c, op, "parameters", q, &par) != KP_OK)
			return KP_PARSE;
		if (!par)
			return kp_k8s_bad(c, op, "%s: required (a JSON object)", q);
	}
	return KP_OK;
}

static int read_constraints(kctx *c, const kp_ynode *seq, const char *path, kp_device_claim *out)
{
	if (!seq || !seq->n)
		return KP_OK;
	if (seq->n > 32)
		return kp_k8s_bad(c, seq, "%s: must have at most 32 entries", path);
	if (!(out->cons = kp_arena_alloc(c->a, seq->n * sizeof *out->cons)))
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		kp_dra_constraint *k = &out->cons[i];
		char p[DPATH], q[DPATH];
		memset(k, 0, sizeof *k);
		pathf(p, "%s[%zu]", path, i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		if (read_refs(c, e, p, out, &k->requests) != KP_OK)
			return KP_PARSE;
		pathf(q, "%s.matchAttribute", p);
		if (kp_k8s_get_str(c, e, "matchAttribute", q, &k->match) != KP_OK)
			return KP_PARSE;
		pathf(q, "%s.distinctAttribute", p);
		if (kp_k8s_get_str(c, e, "distinctAttribute", q, &k->distinct) != KP_OK)
			return KP_PARSE;
		if (!k->match == !k->distinct)
			return kp_k8s_bad(c, e, "%s: exactly one of matchAttribute or distinctAttribute is required", p);
		const char *a = k->match ? k->match : k->distinct, *d, *id;
		pathf(q, "%s.%s", p, k->match ? "matchAttribute" : "distinctAttribute");
		const kp_ynode *at = kp_ymap_get(e, k->match ? "matchAttribute" : "distinctAttribute");
		if (!strchr(a, '/'))
			return kp_k8s_bad(c, at, "%s: '%s' must be a domain and a name separated by a slash", q, a);
		if (kp_k8s_dra_qualify(c, at, q, a, NULL, &d, &id) != KP_OK)
			return KP_PARSE;
	}
	out->ncons = seq->n;
	return KP_OK;
}

/* A claim spec (spec.devices of the mapping spec, path names spec); beta1 as
 * kp_k8s_dra_beta1 (-1: told by shape) */
static int read_claim_spec(kctx *c, const kp_ynode *spec, const char *path, int beta1, kp_device_claim *out)
{
	const kp_ynode *dev, *reqs, *cons, *cfg;
	char p[DPATH], q[DPATH];
	memset(out, 0, sizeof *out);
	pathf(p, "%s.devices", path);
	if (kp_k8s_get_map(c, spec, "devices", p, &dev) != KP_OK)
		return KP_PARSE;
	pathf(q, "%s.requests", p);
	if (kp_k8s_get_seq(c, dev, "requests", q, &reqs) != KP_OK)
		return KP_PARSE;
	if (reqs && reqs->n > 32)
		return kp_k8s_bad(c, reqs, "%s: must have at most 32 requests, got %zu", q, reqs->n);
	size_t room = 0;
	for (size_t i = 0; reqs && i < reqs->n; i++) {
		const kp_ynode *fa = kp_ymap_get(reqs->u.items[i], "firstAvailable");
		room += 1 + (fa && fa->type == KP_Y_SEQ ? fa->n : 0);
	}
	if (room && !(out->reqs = kp_arena_alloc(c->a, room * sizeof *out->reqs)))
		return kp_k8s_nomem(c);
	for (size_t i = 0; reqs && i < reqs->n; i++) {
		const kp_ynode *e = reqs->u.items[i];
		char r[DPATH];
		pathf(r, "%s[%zu]", q, i);
		int b1 = beta1 >= 0 ? beta1 : e->type == KP_Y_MAP && kp_ymap_get(e, "deviceClassName") != NULL;
		size_t first = out->nreqs;
		if (read_request(c, e, r, b1, (int64_t)i, out->reqs, &out->nreqs) != KP_OK)
			return KP_PARSE;
		for (size_t j = 0; j < first; j++)
			if (!out->reqs[j].sub[0] && !strcmp(out->reqs[j].name, out->reqs[first].name))
				return kp_k8s_bad(c, kp_ymap_get(e, "name"), "%s.name: '%s' twice in the claim", r,
						  out->reqs[first].name);
	}
	pathf(q, "%s.constraints", p);
	if (kp_k8s_get_seq(c, dev, "constraints", q, &cons) != KP_OK || read_constraints(c, cons, q, out) != KP_OK)
		return KP_PARSE;
	pathf(q, "%s.config", p);
	if (kp_k8s_get_seq(c, dev, "config", q, &cfg) != KP_OK)
		return KP_PARSE;
	if (cfg && cfg->n > 32)
		return kp_k8s_bad(c, cfg, "%s: must have at most 32 entries", q);
	if (kp_k8s_dra_config(c, cfg, q, out) != KP_OK)
		return KP_PARSE;
	if (cfg && !(out->config = kp_k8s_dra_json(c, cfg)))
		return KP_NOMEM;
	return KP_OK;
}

/* ---- ResourceClaim ---- */

/* status.allocation.devices.results */
static int read_results(kctx *c, const kp_ynode *seq, const char *path, kp_resource_claim_in *rc)
{
	static const char *const req[] = { "request", "driver", "pool", "device" };
	if (!seq || !seq->n)
		return KP_OK;
	if (seq->n > 32)
		return kp_k8s_bad(c, seq, "%s: must have at most 32 results", path);
	if (!(rc->results = kp_arena_alloc(c->a, seq->n * sizeof *rc->results)))
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i], *cc;
		kp_dra_result *r = &rc->results[i];
		const char **vals[] = { &r->request, &r->driver, &r->pool, &r->device };
		char p[DPATH], q[DPATH];
		memset(r, 0, sizeof *r);
		pathf(p, "%s[%zu]", path, i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		for (int k = 0; k < 4; k++) {
			pathf(q, "%s.%s", p, req[k]);
			if (kp_k8s_get_str(c, e, req[k], q, vals[k]) != KP_OK)
				return KP_PARSE;
			if (!*vals[k] || !(*vals[k])[0])
				return kp_k8s_bad(c, e, "%s: required", q);
		}
		if (!request_ref(&rc->spec, r->request))
			return kp_k8s_bad(c, kp_ymap_get(e, "request"), "%s.request: '%s' is not a request of the claim", p,
					  r->request);
		pathf(q, "%s.adminAccess", p);
		if (kp_k8s_get_bool(c, e, "adminAccess", q, &r->admin_access) != KP_OK)
			return KP_PARSE;
		pathf(q, "%s.shareID", p);
		if (kp_k8s_get_str(c, e, "shareID", q, &r->share_id) != KP_OK)
			return KP_PARSE;
		kp_toleration *tols;
		size_t ntols;
		if (kp_k8s_dra_tolerations(c, e, p, &tols, &ntols) != KP_OK)
			return KP_PARSE;
		if (ntols && !(r->tolerations = kp_k8s_dra_json(c, kp_ymap_get(e, "tolerations"))))
			return KP_NOMEM;
		pathf(q, "%s.consumedCapacity", p);
		if (kp_k8s_get_map(c, e, "consumedCapacity", q, &cc) != KP_OK)
			return KP_PARSE;
		if (!cc || !cc->n)
			continue;
		if (!(r->consumed = kp_arena_alloc(c->a, cc->n * sizeof *r->consumed)))
			return kp_k8s_nomem(c);
		for (size_t k = 0; k < cc->n; k++) {
			kp_dra_qty *x = &r->consumed[k];
			char qp[DPATH];
			pathf(qp, "%s.%s", q, cc->u.pairs[k].key->u.str);
			if (kp_k8s_dra_qualify(c, cc->u.pairs[k].key, qp, cc->u.pairs[k].key->u.str, r->driver, &x->domain,
					       &x->name) != KP_OK ||
			    kp_k8s_dra_quantity(c, cc->u.pairs[k].value, qp, &x->value, &x->text) != KP_OK)
				return KP_PARSE;
		}
		r->nconsumed = cc->n;
	}
	rc->nresults = seq->n;
	return KP_OK;
}

static int read_reserved(kctx *c, const kp_ynode *seq, kp_resource_claim_in *rc)
{
	static const char *const keys[] = { "apiGroup", "resource", "name", "uid" };
	if (!seq || !seq->n)
		return KP_OK;
	if (!rc->allocated)
		return kp_k8s_bad(c, seq, "status.reservedFor: may not be set when status.allocation is not");
	if (seq->n > 256)
		return kp_k8s_bad(c, seq, "status.reservedFor: must have at most 256 entries");
	if (!(rc->reserved = kp_arena_alloc(c->a, seq->n * sizeof *rc->reserved)))
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		kp_dra_consumer *u = &rc->reserved[i];
		const char **vals[] = { &u->api_group, &u->resource, &u->name, &u->uid };
		char p[DPATH], q[DPATH];
		pathf(p, "status.reservedFor[%zu]", i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		for (int k = 0; k < 4; k++) {
			pathf(q, "%s.%s", p, keys[k]);
			if (kp_k8s_get_str(c, e, keys[k], q, vals[k]) != KP_OK)
				return KP_PARSE;
			if (k && (!*vals[k] || !(*vals[k])[0]))
				return kp_k8s_bad(c, e, "%s: required", q);
		}
		if (!u->api_group)
			u->api_group = "";
	}
	rc->nreserved = seq->n;
	return KP_OK;
}

int kp_k8s_read_resource_claim(kctx *c, const objhead *h)
{
	kp_resource_claim_in rc;
	const kp_ynode *ann, *alloc = NULL, *devs, *results, *reserved;
	memset(&rc, 0, sizeof rc);
	rc.pos = (kp_pos){ h->obj->line, h->obj->col };
	rc.namespace_ = h->namespace_;
	rc.name = h->name;
	rc.api_version = h->api_version ? h->api_version : "resource.k8s.io/v1";
	if (read_claim_spec(c, h->spec, "spec", kp_k8s_dra_beta1(h), &rc.spec) != KP_OK ||
	    kp_k8s_get_str(c, h->meta, "uid", "metadata.uid", &rc.uid) != KP_OK ||
	    kp_k8s_get_owner(c, h->meta, &rc.owner) != KP_OK ||
	    kp_k8s_get_map(c, h->meta, "annotations", "metadata.annotations", &ann) != KP_OK ||
	    kp_k8s_get_str(c, ann, "resource.kubernetes.io/pod-claim-name",
			   "metadata.annotations.resource.kubernetes.io/pod-claim-name", &rc.pod_claim) != KP_OK ||
	    kp_k8s_get_map(c, h->status, "allocation", "status.allocation", &alloc) != KP_OK ||
	    kp_k8s_get_map(c, alloc, "devices", "status.allocation.devices", &devs) != KP_OK ||
	    kp_k8s_get_seq(c, devs, "results", "status.allocation.devices.results", &results) != KP_OK ||
	    read_results(c, results, "status.allocation.devices.results", &rc) != KP_OK ||
	    kp_k8s_dra_node_selector(c, alloc, "nodeSelector", "status.allocation.nodeSelector", &rc.has_selector,
				     &rc.terms, &rc.nterms) != KP_OK)
		return KP_PARSE;
	rc.allocated = alloc != NULL;
	rc.deleting = kp_ymap_get(h->meta, "deletionTimestamp") != NULL;
	if (kp_k8s_get_seq(c, h->status, "reservedFor", "status.reservedFor", &reserved) != KP_OK ||
	    read_reserved(c, reserved, &rc) != KP_OK)
		return KP_PARSE;
	return kp_import_resource_claim(c->imp, c->file, &rc, c->err);
}

int kp_k8s_read_claim_template(kctx *c, const objhead *h)
{
	kp_resource_claim_template_in t;
	const kp_ynode *inner;
	memset(&t, 0, sizeof t);
	t.pos = (kp_pos){ h->obj->line, h->obj->col };
	t.namespace_ = h->namespace_;
	t.name = h->name;
	t.api_version = h->api_version ? h->api_version : "resource.k8s.io/v1";
	if (kp_k8s_get_map(c, h->spec, "spec", "spec.spec", &inner) != KP_OK ||
	    read_claim_spec(c, inner, "spec.spec", kp_k8s_dra_beta1(h), &t.spec) != KP_OK)
		return KP_PARSE;
	return kp_import_claim_template(c->imp, c->file, &t, c->err);
}

/* ---- pods ---- */

/* the containers' resources.claims naming pod claim k, as JSON */
static int container_claims(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	static const char *const lists[] = { "initContainers", "containers" };
	kp_sb *sbs = kp_arena_alloc(c->a, (pod->nclaims ? pod->nclaims : 1) * sizeof *sbs);
	if (!sbs)
		return kp_k8s_nomem(c);
	for (size_t k = 0; k < pod->nclaims; k++)
		kp_sb_init(&sbs[k]);
	int rc = KP_OK;
	for (int l = 0; l < 2 && rc == KP_OK; l++) {
		const kp_ynode *seq = kp_ymap_get(spec, lists[l]);
		for (size_t i = 0; seq && seq->type == KP_Y_SEQ && i < seq->n && rc == KP_OK; i++) {
			const kp_ynode *ct = seq->u.items[i], *res = kp_ymap_get(ct, "resources"), *cl;
			char p[DPATH];
			pathf(p, "spec.%s[%zu].resources.claims", lists[l], i);
			if ((rc = kp_k8s_get_seq(c, res, "claims", p, &cl)) != KP_OK)
				break;
			for (size_t j = 0; cl && j < cl->n && rc == KP_OK; j++) {
				const kp_ynode *e = cl->u.items[j];
				const char *name, *req;
				char q[DPATH], r[DPATH];
				size_t k = 0;
				pathf(q, "%s[%zu]", p, j);
				if (e->type != KP_Y_MAP) {
					rc = kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", q, kp_ynode_type_name(e));
					break;
				}
				pathf(r, "%s.name", q);
				if ((rc = kp_k8s_get_str(c, e, "name", r, &name)) != KP_OK)
					break;
				pathf(r, "%s.request", q);
				if ((rc = kp_k8s_get_str(c, e, "request", r, &req)) != KP_OK)
					break;
				while (name && k < pod->nclaims && strcmp(pod->claims[k].name, name) != 0)
					k++;
				if (!name || k == pod->nclaims) {
					rc = kp_k8s_bad(c, name ? kp_ymap_get(e, "name") : e, "%s.name: must be the name of "
							"one entry in spec.resourceClaims", q);
					break;
				}
				kp_sb *sb = &sbs[k];
				kp_sb_addc(sb, sb->len ? ',' : '[');
				kp_sb_adds(sb, "{\"container\":");
				kp_sb_add_json_str(sb, kp_ymap_get(ct, "name") && kp_ymap_get(ct, "name")->type == KP_Y_SCALAR
								  ? kp_ymap_get(ct, "name")->u.str : "");
				kp_sb_adds(sb, ",\"request\":");
				kp_sb_add_json_str(sb, req && req[0] ? req : NULL);
				kp_sb_addc(sb, '}');
			}
		}
	}
	for (size_t k = 0; k < pod->nclaims; k++) {
		if (rc == KP_OK && sbs[k].len) {
			kp_sb_addc(&sbs[k], ']');
			if (!kp_sb_ok(&sbs[k]) || !(pod->claims[k].containers = kp_arena_strdup(c->a, kp_sb_str(&sbs[k]))))
				rc = kp_k8s_nomem(c);
		}
		kp_sb_release(&sbs[k]);
	}
	return rc;
}

int kp_k8s_get_pod_claims(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	const kp_ynode *seq;
	if (kp_k8s_get_seq(c, spec, "resourceClaims", "spec.resourceClaims", &seq) != KP_OK)
		return KP_PARSE;
	if (seq && seq->n) {
		if (!(pod->claims = kp_arena_alloc(c->a, seq->n * sizeof *pod->claims)))
			return kp_k8s_nomem(c);
		for (size_t i = 0; i < seq->n; i++) {
			const kp_ynode *e = seq->u.items[i];
			kp_pod_claim *pc = &pod->claims[i];
			char p[DPATH], q[DPATH];
			memset(pc, 0, sizeof *pc);
			pathf(p, "spec.resourceClaims[%zu]", i);
			if (e->type != KP_Y_MAP)
				return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
			pathf(q, "%s.name", p);
			if (kp_k8s_get_str(c, e, "name", q, &pc->name) != KP_OK)
				return KP_PARSE;
			if (!pc->name || !pc->name[0])
				return kp_k8s_bad(c, e, "%s: required", q);
			for (size_t j = 0; j < i; j++)
				if (!strcmp(pod->claims[j].name, pc->name))
					return kp_k8s_bad(c, kp_ymap_get(e, "name"), "%s: '%s' twice", q, pc->name);
			pathf(q, "%s.resourceClaimName", p);
			if (kp_k8s_get_str(c, e, "resourceClaimName", q, &pc->claim_name) != KP_OK)
				return KP_PARSE;
			pathf(q, "%s.resourceClaimTemplateName", p);
			if (kp_k8s_get_str(c, e, "resourceClaimTemplateName", q, &pc->template_name) != KP_OK)
				return KP_PARSE;
			if ((pc->claim_name && pc->claim_name[0]) == (pc->template_name && pc->template_name[0]))
				return kp_k8s_bad(c, e, "%s: exactly one of resourceClaimName and resourceClaimTemplateName is "
						  "required", p);
			if (pc->claim_name && !pc->claim_name[0])
				pc->claim_name = NULL;
			if (pc->template_name && !pc->template_name[0])
				pc->template_name = NULL;
		}
		pod->nclaims = seq->n;
	}
	/* containers naming claims the pod does not have are refused also without any */
	return container_claims(c, spec, pod);
}

int kp_k8s_get_claim_statuses(kctx *c, const kp_ynode *status, kp_pod_in *pod)
{
	const kp_ynode *seq;
	if (kp_k8s_get_seq(c, status, "resourceClaimStatuses", "status.resourceClaimStatuses", &seq) != KP_OK)
		return KP_PARSE;
	for (size_t i = 0; seq && i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		const char *name, *claim;
		char p[DPATH], q[DPATH];
		pathf(p, "status.resourceClaimStatuses[%zu]", i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		pathf(q, "%s.name", p);
		if (kp_k8s_get_str(c, e, "name", q, &name) != KP_OK)
			return KP_PARSE;
		pathf(q, "%s.resourceClaimName", p);
		if (kp_k8s_get_str(c, e, "resourceClaimName", q, &claim) != KP_OK)
			return KP_PARSE;
		for (size_t k = 0; name && k < pod->nclaims; k++)
			if (!strcmp(pod->claims[k].name, name)) {
				pod->claims[k].has_status = 1;
				pod->claims[k].status_claim = claim && claim[0] ? claim : NULL;
			}
	}
	return KP_OK;
}
