/*
 * whatif_dra.c — the resourceClaims of the pods a scenario adds (--scale up,
 * add-pods: whatif.h), as the importer gives a pod generated from a
 * workload them (importers/store_dra.c): a resourceClaimName entry uses
 * that claim (every such pod shares it); a resourceClaimTemplateName entry
 * uses a claim of its own, named <pod>-<claim>-<5 characters> (kp_claim_name)
 * and made as the resourceclaim controller makes it — owned by the pod, the
 * template's spec (spec_id, shared with it) — unless a claim of that name
 * exists, or the template does not (the pod then names a claim that is not
 * there: DynamicResources refuses it, as kube would).
 *
 * Rows go into TEMP copies of pod_resource_claim and resource_claim
 * (wi_dra_shadow), which unqualified names reach first; the main schema is
 * only read.  A database without the DRA tables: nothing is copied, and the
 * new pods name no claims, as before the tables.
 */
#include "whatif_int.h"

#include <string.h>

int wi_dra_known(wctx *c, int *known)
{
	int64_t n = 0;
	*known = 0;
	if (wi_query_int(c, kp_sql_whatif_tables_dra_known, 0, NULL, &n))
		return c->err->code;
	*known = n == 4;
	return KP_OK;
}

int wi_dra_shadow(wctx *c)
{
	if (wi_shadow_once(c, "pod_resource_claim") || wi_shadow_once(c, "resource_claim"))
		return c->err->code;
	return KP_OK;
}

void wi_dra_free(wi_claims *cl)
{
	for (size_t i = 0; i < cl->n; i++) {
		kp_free(cl->v[i].name);
		kp_free(cl->v[i].claim_name);
		kp_free(cl->v[i].tmpl);
		kp_free(cl->v[i].containers);
	}
	kp_free(cl->v);
	sqlite3_finalize(cl->ins);
	sqlite3_finalize(cl->gen);
	memset(cl, 0, sizeof *cl);
}

static char *col_dup(sqlite3_stmt *s, int i, int *nomem)
{
	const char *t = (const char *)sqlite3_column_text(s, i);
	char *d = t ? kp_strdup(t) : NULL;
	*nomem |= t && !d;
	return d;
}

int wi_dra_read(wctx *c, sqlite3 *db, int64_t id, int workload, wi_claims *cl)
{
	sqlite3_stmt *s;
	size_t cap = 0;
	int step, nomem = 0;
	memset(cl, 0, sizeof *cl);
	if (sqlite3_prepare_v2(db, kp_sql_whatif_spec_claims, -1, &s, NULL) != SQLITE_OK)
		return db == c->db ? wi_db_fail(c, "reading resource claims")
				   : kp_err_set(c->err, KP_IO, "--pod: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int(s, 2, workload);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (KP_GROW(cl->v, cl->n, cap, 4)) {
			nomem = 1;
			break;
		}
		wi_claim *e = &cl->v[cl->n++];
		memset(e, 0, sizeof *e);
		e->name = col_dup(s, 0, &nomem);
		e->claim_name = col_dup(s, 1, &nomem);
		e->tmpl = col_dup(s, 2, &nomem);
		e->containers = col_dup(s, 3, &nomem);
		e->seq = sqlite3_column_int64(s, 4);
		nomem |= !e->name;
	}
	int rc = KP_OK;
	if (nomem)
		rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
	else if (step != SQLITE_DONE)
		rc = db == c->db ? wi_db_fail(c, "reading resource claims")
				 : kp_err_set(c->err, KP_IO, "--pod: %s", sqlite3_errmsg(db));
	sqlite3_finalize(s);
	if (rc)
		wi_dra_free(cl);
	return rc;
}

int wi_dra_add_pod(wctx *c, wi_claims *cl, int64_t id, const char *ns, const char *pod)
{
	if (!cl->ins && (sqlite3_prepare_v2(c->db, kp_sql_whatif_dra_pod_claim_insert, -1, &cl->ins, NULL) != SQLITE_OK ||
			 sqlite3_prepare_v2(c->db, kp_sql_whatif_dra_claim_generate, -1, &cl->gen, NULL) != SQLITE_OK))
		return wi_db_fail(c, "adding a pod's resource claims");
	for (size_t i = 0; i < cl->n; i++) {
		const wi_claim *e = &cl->v[i];
		char gen[128];
		const char *claim = e->claim_name;
		if (!claim) {
			kp_claim_name(ns, pod, e->name, gen, sizeof gen);
			claim = gen;
		}
		sqlite3_stmt *s = cl->ins;
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, e->name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s, 3, e->seq);
		wi_bind_opt_text(s, 4, e->claim_name);
		wi_bind_opt_text(s, 5, e->tmpl);
		sqlite3_bind_text(s, 6, claim, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 7, e->claim_name ? "spec" : "generated", -1, SQLITE_STATIC);
		wi_bind_opt_text(s, 8, e->containers);
		if (sqlite3_step(s) != SQLITE_DONE)
			return wi_db_fail(c, "adding a pod's resource claims");
		if (e->claim_name || !e->tmpl)
			continue;
		s = cl->gen;
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, ns, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, claim, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 4, e->name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 5, pod, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 6, e->tmpl, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s, 7, WI_ID_BASE);
		if (sqlite3_step(s) != SQLITE_DONE)
			return wi_db_fail(c, "generating a pod's resource claims");
	}
	return KP_OK;
}

int wi_dra_scale(wctx *c, int64_t wid, wi_claims *cl, int *has)
{
	int known = 0;
	int64_t any = 0;
	*has = 0;
	memset(cl, 0, sizeof *cl);
	if (wi_dra_known(c, &known))
		return c->err->code;
	if (!known)
		return KP_OK;
	if (wi_query_int(c, kp_sql_whatif_scale_has_claims, wid, NULL, &any))
		return c->err->code;
	if (!any)
		return KP_OK;
	if (wi_dra_shadow(c) || wi_dra_read(c, c->db, wid, 1, cl))
		return c->err->code;
	*has = 1;
	return KP_OK;
}
