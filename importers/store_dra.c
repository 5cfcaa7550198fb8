/*
 * store_dra.c — Dynamic Resource Allocation objects written as rows (issue
 * 17; imported, not planned yet): DeviceClass, ResourceSlice,
 * ResourceClaim, ResourceClaimTemplate (the kp_import_* calls of store.h,
 * tables in schema/dra.sql); a pod's and a workload template's resource
 * claims (for store_objects.c and store_expand.c); and, when the batch
 * finishes, the claims the resourceclaim controller would make from
 * templates (kp_store_dra_claims).
 *
 * Contract: as store_objects.c — an object replaces the row of the same
 * name (and namespace) read by an earlier import, its child rows rewritten;
 * the same object twice in one batch is an error naming both places.  A
 * claim or template read gets a new claim_spec row; the one it replaces
 * goes when the batch finishes.  Generated claims (resource_claim.generated
 * = 1) never replace an imported one and share their template's spec; they
 * are made again by every import:
 *
 *   Pod web-0 (ns ml) with resourceClaims [{name: gpu, resourceClaimTemplateName: one-gpu}]
 *     -> pod_resource_claim (gpu, template one-gpu, claim web-0-gpu-XXXXX, generated)
 *     -> resource_claim ml/web-0-gpu-XXXXX (generated, owner Pod web-0, spec of one-gpu)
 */
#include "store_int.h"

#include <stdio.h>
#include <string.h>

/* ---- DeviceClass ---- */

int kp_import_device_class(kp_import *imp, const char *file, const kp_device_class_in *d, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_DRA_CLASS_FIND, d->name, NULL, file, d->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_DRA_CLASS_UPSERT);
	bind_text(s, 1, d->name);
	bind_text(s, 2, d->extended_resource);
	bind_text(s, 3, d->config);
	bind_text(s, 4, d->api_version);
	bind_text(s, 5, file);
	sqlite3_bind_int(s, 6, (int)d->pos.line);
	sqlite3_bind_int64(s, 7, imp->batch_id);
	if (sqlite3_step(s) != SQLITE_ROW)
		return kp_store_db_fail(imp, err, "storing a device class");
	int64_t id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	s = stmt(imp, S_DRA_CLASS_SEL_DEL);
	sqlite3_bind_int64(s, 1, id);
	if (exec(imp, s, err, "replacing a device class"))
		return err->code;
	for (size_t i = 0; i < d->selectors.n; i++) {
		const kp_cel *x = &d->selectors.v[i];
		s = stmt(imp, S_DRA_CLASS_SEL_INS);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		bind_text(s, 3, x->expr);
		bind_text(s, 4, x->path);
		sqlite3_bind_int(s, 5, (int)x->line);
		sqlite3_bind_int(s, 6, (int)x->col);
		sqlite3_bind_int(s, 7, x->block);
		if (exec(imp, s, err, "storing device class selectors"))
			return err->code;
	}
	imp->stats.device_classes++;
	return KP_OK;
}

/* ---- ResourceSlice ---- */

/* one counter row (a slice's shared counter or a device's consumed one) */
static int counter_row(kp_import *imp, int which, int64_t owner, const kp_dra_counter *k, kp_err *err)
{
	sqlite3_stmt *s = stmt(imp, which);
	sqlite3_bind_int64(s, 1, owner);
	bind_text(s, 2, k->set);
	bind_text(s, 3, k->name);
	sqlite3_bind_int64(s, 4, k->value);
	bind_text(s, 5, k->text);
	return exec(imp, s, err, "storing counters") ? err->code : KP_OK;
}

static int capacity_row(kp_import *imp, int64_t dev, const kp_dra_capacity *k, kp_err *err)
{
	sqlite3_stmt *s = stmt(imp, S_DRA_DEV_CAP_INS);
	sqlite3_bind_int64(s, 1, dev);
	bind_text(s, 2, k->q.domain);
	bind_text(s, 3, k->q.name);
	sqlite3_bind_int64(s, 4, k->q.value);
	bind_text(s, 5, k->q.text);
	if (k->has_default)
		sqlite3_bind_int64(s, 6, k->def);
	if (k->has_min)
		sqlite3_bind_int64(s, 7, k->min);
	if (k->has_max)
		sqlite3_bind_int64(s, 8, k->max);
	if (k->has_step)
		sqlite3_bind_int64(s, 9, k->step);
	if (k->has_valid) {
		kp_sb_reset(&imp->json);
		for (size_t i = 0; i < k->nvalid; i++)
			kp_sb_printf(&imp->json, "%c%lld", i ? ',' : '[', (long long)k->valid[i]);
		kp_sb_addc(&imp->json, ']');
		bind_text(s, 10, kp_sb_str(&imp->json));
	}
	return exec(imp, s, err, "storing device capacity") ? err->code : KP_OK;
}

/* one device of slice slice_id and its attributes, capacity, counters, taints */
static int device_rows(kp_import *imp, int64_t slice_id, size_t seq, const kp_dra_device *d, kp_err *err)
{
	sqlite3_stmt *s = stmt(imp, S_DRA_DEV_INS);
	sqlite3_bind_int64(s, 1, slice_id);
	bind_text(s, 2, d->name);
	sqlite3_bind_int64(s, 3, (int64_t)seq);
	sqlite3_bind_int(s, 4, d->allow_multiple);
	sqlite3_bind_int(s, 5, d->binds_to_node);
	bind_text(s, 6, d->node_name);
	if (d->has_selector)
		bind_text(s, 7, kp_store_terms_json(imp, d->terms, d->nterms, "matchExpressions"));
	sqlite3_bind_int(s, 8, d->all_nodes);
	if (exec(imp, s, err, "storing a device"))
		return err->code;
	int64_t id = sqlite3_last_insert_rowid(imp->db);
	for (size_t i = 0; i < d->nattrs; i++) {
		const kp_dra_attr *a = &d->attrs[i];
		s = stmt(imp, S_DRA_DEV_ATTR_INS);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, a->domain);
		bind_text(s, 3, a->name);
		bind_text(s, 4, a->type);
		if (a->sval)
			bind_text(s, 5, a->sval);
		else
			sqlite3_bind_int64(s, 5, a->ival);
		if (exec(imp, s, err, "storing device attributes"))
			return err->code;
	}
	for (size_t i = 0; i < d->ncaps; i++)
		if (capacity_row(imp, id, &d->caps[i], err) != KP_OK)
			return err->code;
	for (size_t i = 0; i < d->ncounters; i++)
		if (counter_row(imp, S_DRA_DEV_CNT_INS, id, &d->counters[i], err) != KP_OK)
			return err->code;
	for (size_t i = 0; i < d->ntaints; i++) {
		const kp_dra_taint *t = &d->taints[i];
		s = stmt(imp, S_DRA_DEV_TAINT_INS);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		bind_text(s, 3, t->key);
		bind_text(s, 4, t->value ? t->value : "");
		bind_text(s, 5, t->effect);
		bind_time(s, 6, t->time_added);
		if (exec(imp, s, err, "storing device taints"))
			return err->code;
	}
	return KP_OK;
}

int kp_import_resource_slice(kp_import *imp, const char *file, const kp_resource_slice_in *sl, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_DRA_SLICE_FIND, sl->name, NULL, file, sl->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_DRA_SLICE_UPSERT);
	bind_text(s, 1, sl->name);
	bind_text(s, 2, sl->driver);
	bind_text(s, 3, sl->pool);
	sqlite3_bind_int64(s, 4, sl->generation);
	sqlite3_bind_int64(s, 5, sl->slice_count);
	bind_text(s, 6, sl->node_name);
	if (sl->has_selector)
		bind_text(s, 7, kp_store_terms_json(imp, sl->terms, sl->nterms, "matchExpressions"));
	sqlite3_bind_int(s, 8, sl->all_nodes);
	sqlite3_bind_int(s, 9, sl->per_device);
	bind_text(s, 10, sl->api_version);
	bind_text(s, 11, file);
	sqlite3_bind_int(s, 12, (int)sl->pos.line);
	sqlite3_bind_int64(s, 13, imp->batch_id);
	if (sqlite3_step(s) != SQLITE_ROW)
		return kp_store_db_fail(imp, err, "storing a resource slice");
	int64_t id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (rc == 1)
		for (int k = S_DRA_SLICE_DEL_ATTR; k <= S_DRA_SLICE_DEL_SHARED; k++) {
			s = stmt(imp, k);
			sqlite3_bind_int64(s, 1, id);
			if (exec(imp, s, err, "replacing a resource slice"))
				return err->code;
		}
	for (size_t i = 0; i < sl->ncounters; i++)
		if (counter_row(imp, S_DRA_SLICE_CNT_INS, id, &sl->counters[i], err) != KP_OK)
			return err->code;
	for (size_t i = 0; i < sl->ndevices; i++)
		if (device_rows(imp, id, i, &sl->devices[i], err) != KP_OK)
			return err->code;
	imp->stats.resource_slices++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

/* ---- claim specs ---- */

/* the selectors, tolerations and capacity requests of request r of spec_id */
static int request_rows(kp_import *imp, int64_t spec_id, const kp_dra_request *r, kp_err *err)
{
	sqlite3_stmt *s;
	for (size_t i = 0; i < r->selectors.n; i++) {
		const kp_cel *x = &r->selectors.v[i];
		s = stmt(imp, S_DRA_REQ_SEL_INS);
		sqlite3_bind_int64(s, 1, spec_id);
		bind_text(s, 2, r->name);
		bind_text(s, 3, r->sub);
		sqlite3_bind_int64(s, 4, (int64_t)i);
		bind_text(s, 5, x->expr);
		bind_text(s, 6, x->path);
		sqlite3_bind_int(s, 7, (int)x->line);
		sqlite3_bind_int(s, 8, (int)x->col);
		sqlite3_bind_int(s, 9, x->block);
		if (exec(imp, s, err, "storing request selectors"))
			return err->code;
	}
	for (size_t i = 0; i < r->ntols; i++) {
		const kp_toleration *t = &r->tols[i];
		s = stmt(imp, S_DRA_REQ_TOL_INS);
		sqlite3_bind_int64(s, 1, spec_id);
		bind_text(s, 2, r->name);
		bind_text(s, 3, r->sub);
		sqlite3_bind_int64(s, 4, (int64_t)i);
		bind_text(s, 5, t->key ? t->key : "");
		bind_text(s, 6, t->op);
		bind_text(s, 7, t->value ? t->value : "");
		bind_text(s, 8, t->effect ? t->effect : "");
		bind_time(s, 9, t->seconds);
		if (exec(imp, s, err, "storing request tolerations"))
			return err->code;
	}
	for (size_t i = 0; i < r->ncaps; i++) {
		s = stmt(imp, S_DRA_REQ_CAP_INS);
		sqlite3_bind_int64(s, 1, spec_id);
		bind_text(s, 2, r->name);
		bind_text(s, 3, r->sub);
		bind_text(s, 4, r->caps[i].name);
		sqlite3_bind_int64(s, 5, r->caps[i].value);
		bind_text(s, 6, r->caps[i].text);
		if (exec(imp, s, err, "storing request capacity"))
			return err->code;
	}
	return KP_OK;
}

/* a new claim_spec row for claim spec sp of kind ns/name; *id its id */
static int spec_rows(kp_import *imp, const char *kind, const char *ns, const char *name, const char *file,
		     unsigned line, const kp_device_claim *sp, int64_t *id, kp_err *err)
{
	sqlite3_stmt *s = stmt(imp, S_DRA_SPEC_INS);
	bind_text(s, 1, kind);
	bind_text(s, 2, ns);
	bind_text(s, 3, name);
	bind_text(s, 4, sp->config);
	bind_text(s, 5, file);
	sqlite3_bind_int(s, 6, (int)line);
	if (exec(imp, s, err, "storing a claim spec"))
		return err->code;
	*id = sqlite3_last_insert_rowid(imp->db);
	for (size_t i = 0; i < sp->nreqs; i++) {
		const kp_dra_request *r = &sp->reqs[i];
		s = stmt(imp, S_DRA_REQ_INS);
		sqlite3_bind_int64(s, 1, *id);
		bind_text(s, 2, r->name);
		bind_text(s, 3, r->sub);
		sqlite3_bind_int64(s, 4, r->seq);
		sqlite3_bind_int64(s, 5, r->sub_seq);
		sqlite3_bind_int(s, 6, r->first_available);
		bind_text(s, 7, r->device_class);
		bind_text(s, 8, r->mode);
		if (r->mode)
			sqlite3_bind_int64(s, 9, r->count);
		sqlite3_bind_int(s, 10, r->admin_access);
		if (exec(imp, s, err, "storing claim requests") || request_rows(imp, *id, r, err) != KP_OK)
			return err->code;
	}
	for (size_t i = 0; i < sp->ncons; i++) {
		const kp_dra_constraint *k = &sp->cons[i];
		s = stmt(imp, S_DRA_CONS_INS);
		sqlite3_bind_int64(s, 1, *id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		if (k->requests.n)
			bind_text(s, 3, kp_store_strs_text(imp, &k->requests));
		bind_text(s, 4, k->match);
		bind_text(s, 5, k->distinct);
		if (exec(imp, s, err, "storing claim constraints"))
			return err->code;
	}
	return KP_OK;
}

/* ---- ResourceClaim, ResourceClaimTemplate ---- */

/* the status of claim id: results with their consumed capacity, reservedFor */
static int claim_status_rows(kp_import *imp, int64_t id, const kp_resource_claim_in *c, kp_err *err)
{
	sqlite3_stmt *s;
	for (size_t i = 0; i < c->nresults; i++) {
		const kp_dra_result *r = &c->results[i];
		s = stmt(imp, S_DRA_CLAIM_RES_INS);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		bind_text(s, 3, r->request);
		bind_text(s, 4, r->driver);
		bind_text(s, 5, r->pool);
		bind_text(s, 6, r->device);
		sqlite3_bind_int(s, 7, r->admin_access);
		bind_text(s, 8, r->share_id);
		bind_text(s, 9, r->tolerations);
		if (exec(imp, s, err, "storing allocation results"))
			return err->code;
		for (size_t k = 0; k < r->nconsumed; k++) {
			s = stmt(imp, S_DRA_CLAIM_CONS_INS);
			sqlite3_bind_int64(s, 1, id);
			sqlite3_bind_int64(s, 2, (int64_t)i);
			bind_text(s, 3, r->consumed[k].domain);
			bind_text(s, 4, r->consumed[k].name);
			sqlite3_bind_int64(s, 5, r->consumed[k].value);
			bind_text(s, 6, r->consumed[k].text);
			if (exec(imp, s, err, "storing consumed capacity"))
				return err->code;
		}
	}
	for (size_t i = 0; i < c->nreserved; i++) {
		const kp_dra_consumer *u = &c->reserved[i];
		s = stmt(imp, S_DRA_CLAIM_RSV_INS);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		bind_text(s, 3, u->api_group);
		bind_text(s, 4, u->resource);
		bind_text(s, 5, u->name);
		bind_text(s, 6, u->uid);
		if (exec(imp, s, err, "storing reservedFor"))
			return err->code;
	}
	return KP_OK;
}

int kp_import_resource_claim(kp_import *imp, const char *file, const kp_resource_claim_in *c, kp_err *err)
{
	int64_t spec_id;
	int rc = kp_store_find_dup(imp, S_DRA_CLAIM_FIND, c->namespace_, c->name, file, c->pos, err);
	if (rc < 0)
		return rc;
	if (spec_rows(imp, "ResourceClaim", c->namespace_, c->name, file, c->pos.line, &c->spec, &spec_id, err) != KP_OK)
		return err->code;
	sqlite3_stmt *s = stmt(imp, S_DRA_CLAIM_UPSERT);
	bind_text(s, 1, c->namespace_);
	bind_text(s, 2, c->name);
	bind_text(s, 3, c->uid);
	sqlite3_bind_int64(s, 4, spec_id);
	bind_text(s, 5, c->pod_claim);
	bind_text(s, 6, c->owner.kind);
	bind_text(s, 7, c->owner.name);
	sqlite3_bind_int(s, 8, c->deleting);
	sqlite3_bind_int(s, 9, c->allocated);
	if (c->has_selector)
		bind_text(s, 10, kp_store_terms_json(imp, c->terms, c->nterms, "matchExpressions"));
	bind_text(s, 11, c->api_version);
	bind_text(s, 12, file);
	sqlite3_bind_int(s, 13, (int)c->pos.line);
	sqlite3_bind_int64(s, 14, imp->batch_id);
	if (sqlite3_step(s) != SQLITE_ROW)
		return kp_store_db_fail(imp, err, "storing a resource claim");
	int64_t id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (rc == 1)
		for (int k = S_DRA_CLAIM_DEL_RES; k <= S_DRA_CLAIM_DEL_RSV; k++) {
			s = stmt(imp, k);
			sqlite3_bind_int64(s, 1, id);
			if (exec(imp, s, err, "replacing a resource claim"))
				return err->code;
		}
	if (claim_status_rows(imp, id, c, err) != KP_OK)
		return err->code;
	imp->stats.resource_claims++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

int kp_import_claim_template(kp_import *imp, const char *file, const kp_resource_claim_template_in *t, kp_err *err)
{
	int64_t spec_id;
	int rc = kp_store_find_dup(imp, S_DRA_TMPL_FIND, t->namespace_, t->name, file, t->pos, err);
	if (rc < 0)
		return rc;
	if (spec_rows(imp, "ResourceClaimTemplate", t->namespace_, t->name, file, t->pos.line, &t->spec, &spec_id,
		      err) != KP_OK)
		return err->code;
	sqlite3_stmt *s = stmt(imp, S_DRA_TMPL_UPSERT);
	bind_text(s, 1, t->namespace_);
	bind_text(s, 2, t->name);
	sqlite3_bind_int64(s, 3, spec_id);
	bind_text(s, 4, t->api_version);
	bind_text(s, 5, file);
	sqlite3_bind_int(s, 6, (int)t->pos.line);
	sqlite3_bind_int64(s, 7, imp->batch_id);
	if (exec(imp, s, err, "storing a resource claim template"))
		return err->code;
	imp->stats.claim_templates++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

/* ---- pods' resource claims ---- */

/* one pod_resource_claim row: the claim a template's entry resolves to is
 * its status's when the status has it, else the name kplan generates */
static int pod_claim_row(kp_import *imp, int64_t pod_id, const char *ns, const char *pod, size_t seq, const char *name,
			 const char *claim_name, const char *tmpl, int has_status, const char *status_claim,
			 const char *containers, kp_err *err)
{
	char gen[128];
	const char *claim = claim_name, *from = "spec";
	if (!claim_name && has_status) {
		claim = status_claim;
		from = status_claim ? "status" : "none";
	} else if (!claim_name) {
		kp_claim_name(ns, pod, name, gen, sizeof gen);
		claim = gen;
		from = "generated";
	}
	sqlite3_stmt *s = stmt(imp, S_DRA_POD_INS);
	sqlite3_bind_int64(s, 1, pod_id);
	bind_text(s, 2, name);
	sqlite3_bind_int64(s, 3, (int64_t)seq);
	bind_text(s, 4, claim_name);
	bind_text(s, 5, tmpl);
	bind_text(s, 6, claim);
	bind_text(s, 7, from);
	bind_text(s, 8, containers);
	return exec(imp, s, err, "storing pod resource claims") ? err->code : KP_OK;
}

int kp_store_pod_claims(kp_import *imp, int64_t owner_id, int workload, int replace, const kp_pod_in *p,
			kp_err *err)
{
	sqlite3_stmt *s;
	if (replace) {
		s = stmt(imp, workload ? S_DRA_WL_DEL : S_DRA_POD_DEL);
		sqlite3_bind_int64(s, 1, owner_id);
		if (exec(imp, s, err, "replacing resource claims"))
			return err->code;
	}
	for (size_t i = 0; i < p->nclaims; i++) {
		const kp_pod_claim *c = &p->claims[i];
		if (!workload) {
			if (pod_claim_row(imp, owner_id, p->namespace_, p->name, i, c->name, c->claim_name, c->template_name,
					  c->has_status, c->status_claim, c->containers, err) != KP_OK)
				return err->code;
			continue;
		}
		s = stmt(imp, S_DRA_WL_INS);
		sqlite3_bind_int64(s, 1, owner_id);
		bind_text(s, 2, c->name);
		sqlite3_bind_int64(s, 3, (int64_t)i);
		bind_text(s, 4, c->claim_name);
		bind_text(s, 5, c->template_name);
		bind_text(s, 6, c->containers);
		if (exec(imp, s, err, "storing workload resource claims"))
			return err->code;
	}
	return KP_OK;
}

void kp_free_wl_claims(kp_wl_claim *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		kp_free(v[i].name);
		kp_free(v[i].claim_name);
		kp_free(v[i].template_name);
		kp_free(v[i].containers);
	}
	kp_free(v);
}

static char *col_dup(sqlite3_stmt *s, int i, int *nomem)
{
	const char *t = (const char *)sqlite3_column_text(s, i);
	char *d = t ? kp_strdup(t) : NULL;
	*nomem |= t && !d;
	return d;
}

int kp_store_wl_claims(kp_import *imp, int64_t workload_id, kp_wl_claim **out, size_t *n, kp_err *err)
{
	size_t cap = 0;
	int rc, nomem = 0;
	*out = NULL;
	*n = 0;
	sqlite3_stmt *s = stmt(imp, S_DRA_WL_CLAIMS);
	sqlite3_bind_int64(s, 1, workload_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (KP_GROW(*out, *n, cap, 4)) {
			nomem = 1;
			break;
		}
		kp_wl_claim *c = &(*out)[(*n)++];
		c->name = col_dup(s, 0, &nomem);
		c->claim_name = col_dup(s, 1, &nomem);
		c->template_name = col_dup(s, 2, &nomem);
		c->containers = col_dup(s, 3, &nomem);
	}
	sqlite3_reset(s);
	if (nomem || (rc != SQLITE_DONE && rc != SQLITE_ROW)) {
		kp_free_wl_claims(*out, *n);
		*out = NULL;
		*n = 0;
		return nomem ? kp_err_set(err, KP_NOMEM, "out of memory")
			     : kp_store_db_fail(imp, err, "reading workload resource claims");
	}
	return KP_OK;
}

int kp_store_pod_claims_from(kp_import *imp, int64_t pod_id, const char *ns, const char *name, int replace,
			     const kp_wl_claim *v, size_t n, kp_err *err)
{
	if (replace) {
		sqlite3_stmt *s = stmt(imp, S_DRA_POD_DEL);
		sqlite3_bind_int64(s, 1, pod_id);
		if (exec(imp, s, err, "replacing resource claims"))
			return err->code;
	}
	for (size_t i = 0; i < n; i++)
		if (pod_claim_row(imp, pod_id, ns, name, i, v[i].name, v[i].claim_name, v[i].template_name, 0, NULL,
				  v[i].containers, err) != KP_OK)
			return err->code;
	return KP_OK;
}

/* ---- generated claims ---- */

int kp_store_dra_claims(kp_import *imp, kp_err *err)
{
	kp_store_reset_all(imp);
	if (sqlite3_exec(imp->db, kp_sql_import_dra_claims_want, NULL, NULL, NULL) != SQLITE_OK)
		return kp_store_db_fail(imp, err, "generating resource claims");
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(imp->db, kp_sql_import_dra_claims_generate, -1, &s, NULL) != SQLITE_OK)
		return kp_store_db_fail(imp, err, "generating resource claims");
	sqlite3_bind_int64(s, 1, imp->batch_id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		imp->stats.generated_claims += sqlite3_changes(imp->db);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return kp_store_db_fail(imp, err, "generating resource claims");
	if (sqlite3_exec(imp->db, kp_sql_import_dra_orphan_specs, NULL, NULL, NULL) != SQLITE_OK)
		return kp_store_db_fail(imp, err, "removing unused claim specs");
	return KP_OK;
}
