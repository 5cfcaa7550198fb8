/*
 * store_storage.c — storage objects written as rows (issue 16; imported,
 * not planned yet): StorageClass, PersistentVolume (+ labels),
 * PersistentVolumeClaim, CSINode, CSIDriver, CSIStorageCapacity (the
 * kp_import_* calls of store.h); a pod's and a workload template's volumes
 * and a StatefulSet's volumeClaimTemplates (for store_objects.c and
 * store_expand.c); and, when the batch finishes, the claims the
 * controllers would make (kp_store_claims).
 *
 * Contract: as store_objects.c — an object replaces the row of the same
 * name (and namespace) read by an earlier import, the same object twice in
 * one batch is an error naming both places.  Generated claims
 * (pvc.generated = 1) never replace an imported one; they are made again
 * by every import from the pods and StatefulSets in the database:
 *
 *   StatefulSet web (replicas 3) with volumeClaimTemplates [www]
 *     -> pods web-0..2 with volume www (claim www-web-0..2)
 *     -> pvc www-web-0, www-web-1, www-web-2 (owner StatefulSet web)
 */
#include "store_int.h"

#include <stdio.h>
#include <string.h>

/* JSON of node selector terms in imp->scratch (store_int.h; also store_dra.c's) */
const char *kp_store_terms_json(kp_import *imp, const kp_node_term *t, size_t n, const char *key)
{
	kp_sb_reset(&imp->json);
	kp_sb_addc(&imp->json, '[');
	for (size_t i = 0; i < n; i++) {
		kp_sb_printf(&imp->json, "%s{\"%s\":", i ? "," : "", key);
		kp_store_json_reqs(&imp->json, t[i].exprs, t[i].nexprs);
		if (t[i].nfields) {
			kp_sb_adds(&imp->json, ",\"matchFields\":");
			kp_store_json_reqs(&imp->json, t[i].fields, t[i].nfields);
		}
		kp_sb_addc(&imp->json, '}');
	}
	kp_sb_addc(&imp->json, ']');
	return kp_arena_strdup(&imp->scratch, kp_sb_str(&imp->json));
}

/* JSON of a claim spec (pod_volume.claim_spec) in imp->scratch */
static const char *claim_json(kp_import *imp, const kp_claim_spec *cs)
{
	const char *sel = kp_store_selector_text(imp, &cs->selector);
	kp_sb_reset(&imp->json);
	kp_sb_adds(&imp->json, "{\"storage_class\":");
	kp_sb_add_json_str(&imp->json, cs->storage_class);
	kp_sb_printf(&imp->json, ",\"request\":%lld,\"access_modes\":", (long long)cs->request);
	kp_sb_add_json_str(&imp->json, cs->access_modes ? cs->access_modes : "");
	kp_sb_adds(&imp->json, ",\"volume_mode\":");
	kp_sb_add_json_str(&imp->json, cs->volume_mode ? cs->volume_mode : "Filesystem");
	kp_sb_printf(&imp->json, ",\"selector\":%s,\"attributes_class\":", sel ? sel : "null");
	if (cs->attributes_class)
		kp_sb_add_json_str(&imp->json, cs->attributes_class);
	else
		kp_sb_adds(&imp->json, "null");
	kp_sb_addc(&imp->json, '}');
	return kp_arena_strdup(&imp->scratch, kp_sb_str(&imp->json));
}

int kp_import_storage_class(kp_import *imp, const char *file, const kp_storage_class_in *sc, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_STC_FIND, sc->name, NULL, file, sc->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_STC_UPSERT);
	bind_text(s, 1, sc->name);
	bind_text(s, 2, sc->provisioner);
	bind_text(s, 3, sc->binding_mode ? sc->binding_mode : "Immediate");
	sqlite3_bind_int(s, 4, sc->is_default);
	if (sc->has_topologies)
		bind_text(s, 5, kp_store_terms_json(imp, sc->topologies, sc->ntopologies, "matchLabelExpressions"));
	bind_text(s, 6, file);
	sqlite3_bind_int(s, 7, (int)sc->pos.line);
	sqlite3_bind_int64(s, 8, imp->batch_id);
	if (exec(imp, s, err, "storing a storage class"))
		return err->code;
	imp->stats.storage_classes++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

int kp_import_pv(kp_import *imp, const char *file, const kp_pv_in *pv, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_PV_FIND, pv->name, NULL, file, pv->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_PV_UPSERT);
	bind_text(s, 1, pv->name);
	bind_text(s, 2, pv->storage_class);
	sqlite3_bind_int64(s, 3, pv->capacity);
	bind_text(s, 4, pv->access_modes);
	bind_text(s, 5, pv->volume_mode ? pv->volume_mode : "Filesystem");
	bind_text(s, 6, pv->phase ? pv->phase : "Available");
	bind_text(s, 7, pv->claim_ns);
	bind_text(s, 8, pv->claim_name);
	bind_text(s, 9, pv->claim_uid);
	bind_text(s, 10, pv->source);
	bind_text(s, 11, pv->driver);
	bind_text(s, 12, pv->handle);
	if (pv->has_affinity)
		bind_text(s, 13, kp_store_terms_json(imp, pv->terms, pv->nterms, "matchExpressions"));
	bind_text(s, 14, file);
	sqlite3_bind_int(s, 15, (int)pv->pos.line);
	sqlite3_bind_int64(s, 16, imp->batch_id);
	sqlite3_bind_int(s, 17, pv->deleting);
	bind_text(s, 18, pv->attributes_class);
	if (sqlite3_step(s) != SQLITE_ROW)
		return kp_store_db_fail(imp, err, "storing a persistent volume");
	int64_t id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	s = stmt(imp, S_PV_DEL_LABEL);
	sqlite3_bind_int64(s, 1, id);
	if (exec(imp, s, err, "replacing persistent volume labels"))
		return err->code;
	for (size_t i = 0; i < pv->labels.n; i++) {
		s = stmt(imp, S_PV_LABEL);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, pv->labels.v[i].key);
		bind_text(s, 3, pv->labels.v[i].value);
		if (exec(imp, s, err, "storing persistent volume labels"))
			return err->code;
	}
	imp->stats.pvs++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

int kp_import_pvc(kp_import *imp, const char *file, const kp_pvc_in *c, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_PVC_FIND, c->namespace_, c->name, file, c->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_PVC_UPSERT);
	bind_text(s, 1, c->namespace_);
	bind_text(s, 2, c->name);
	bind_text(s, 3, c->spec.storage_class);
	sqlite3_bind_int64(s, 4, c->spec.request);
	bind_text(s, 5, c->spec.access_modes ? c->spec.access_modes : "");
	bind_text(s, 6, c->spec.volume_mode ? c->spec.volume_mode : "Filesystem");
	bind_text(s, 7, c->spec.volume_name);
	bind_text(s, 8, c->phase ? c->phase : "Pending");
	bind_text(s, 9, kp_store_selector_text(imp, &c->spec.selector));
	bind_text(s, 10, c->selected_node && c->selected_node[0] ? c->selected_node : NULL);
	sqlite3_bind_int(s, 11, c->deleting);
	bind_text(s, 12, c->owner.kind);
	bind_text(s, 13, c->owner.name);
	bind_text(s, 14, file);
	sqlite3_bind_int(s, 15, (int)c->pos.line);
	sqlite3_bind_int64(s, 16, imp->batch_id);
	sqlite3_bind_int(s, 17, c->bind_completed);
	bind_text(s, 18, c->spec.attributes_class);
	if (exec(imp, s, err, "storing a persistent volume claim"))
		return err->code;
	imp->stats.pvcs++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

int kp_import_csi_node(kp_import *imp, const char *file, const kp_csi_node_in *n, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_CSIN_FIND, n->name, NULL, file, n->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_CSIN_INFO);
	bind_text(s, 1, n->name);
	bind_text(s, 2, n->migrated_plugins ? n->migrated_plugins : "");
	bind_text(s, 3, file);
	sqlite3_bind_int(s, 4, (int)n->pos.line);
	sqlite3_bind_int64(s, 5, imp->batch_id);
	if (exec(imp, s, err, "storing a CSI node"))
		return err->code;
	s = stmt(imp, S_CSIN_DEL);
	bind_text(s, 1, n->name);
	if (exec(imp, s, err, "replacing a CSI node"))
		return err->code;
	for (size_t i = 0; i < n->ndrivers; i++) {
		const kp_csi_node_driver *d = &n->drivers[i];
		s = stmt(imp, S_CSIN_INS);
		bind_text(s, 1, n->name);
		bind_text(s, 2, d->name);
		if (d->has_allocatable)
			sqlite3_bind_int64(s, 3, d->allocatable);
		bind_text(s, 4, d->topology_keys ? d->topology_keys : "");
		bind_text(s, 5, file);
		sqlite3_bind_int(s, 6, (int)n->pos.line);
		sqlite3_bind_int64(s, 7, imp->batch_id);
		if (exec(imp, s, err, "storing a CSI node"))
			return err->code;
	}
	imp->stats.csi_nodes++;
	return KP_OK;
}

int kp_import_csi_driver(kp_import *imp, const char *file, const kp_csi_driver_in *d, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_CSID_FIND, d->name, NULL, file, d->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_CSID_UPSERT);
	bind_text(s, 1, d->name);
	sqlite3_bind_int(s, 2, d->attach_required);
	sqlite3_bind_int(s, 3, d->storage_capacity);
	bind_text(s, 4, d->lifecycle_modes ? d->lifecycle_modes : "Persistent");
	bind_text(s, 5, file);
	sqlite3_bind_int(s, 6, (int)d->pos.line);
	sqlite3_bind_int64(s, 7, imp->batch_id);
	if (exec(imp, s, err, "storing a CSI driver"))
		return err->code;
	imp->stats.csi_drivers++;
	return KP_OK;
}

int kp_import_csi_capacity(kp_import *imp, const char *file, const kp_csi_capacity_in *c, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_CSIC_FIND, c->namespace_, c->name, file, c->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_CSIC_UPSERT);
	bind_text(s, 1, c->namespace_);
	bind_text(s, 2, c->name);
	bind_text(s, 3, c->storage_class);
	bind_text(s, 4, kp_store_selector_text(imp, &c->node_topology));
	if (c->has_capacity)
		sqlite3_bind_int64(s, 5, c->capacity);
	if (c->has_maximum)
		sqlite3_bind_int64(s, 6, c->maximum);
	bind_text(s, 7, file);
	sqlite3_bind_int(s, 8, (int)c->pos.line);
	sqlite3_bind_int64(s, 9, imp->batch_id);
	if (exec(imp, s, err, "storing a CSI storage capacity"))
		return err->code;
	imp->stats.csi_capacities++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

/* ---- volumes of pods and workloads ---- */

int kp_store_volumes(kp_import *imp, int64_t owner_id, int workload, const kp_pod_in *p, kp_err *err)
{
	sqlite3_stmt *s = stmt(imp, workload ? S_WLVOL_DEL : S_PODVOL_DEL);
	sqlite3_bind_int64(s, 1, owner_id);
	if (exec(imp, s, err, "replacing volumes"))
		return err->code;
	for (size_t i = 0; i < p->nvolumes; i++) {
		const kp_volume *v = &p->volumes[i];
		int eph = !strcmp(v->kind, "ephemeral");
		const char *claim = v->claim;
		if (eph && !workload && !(claim = kp_arena_printf(&imp->scratch, "%s-%s", p->name, v->name)))
			return kp_err_set(err, KP_NOMEM, "out of memory");
		s = stmt(imp, workload ? S_WLVOL_INS : S_PODVOL_INS);
		sqlite3_bind_int64(s, 1, owner_id);
		bind_text(s, 2, v->name);
		bind_text(s, 3, v->kind);
		bind_text(s, 4, claim);
		sqlite3_bind_int(s, 5, v->read_only);
		bind_text(s, 6, v->source);
		bind_text(s, 7, v->driver);
		bind_text(s, 8, v->handle);
		if (eph)
			bind_text(s, 9, claim_json(imp, &v->claim_spec));
		bind_text(s, 10, v->monitors);
		if (exec(imp, s, err, "storing volumes"))
			return err->code;
	}
	return KP_OK;
}

int kp_store_claim_templates(kp_import *imp, int64_t workload_id, const kp_workload_in *w, kp_err *err)
{
	sqlite3_stmt *s = stmt(imp, S_VCT_DEL);
	sqlite3_bind_int64(s, 1, workload_id);
	if (exec(imp, s, err, "replacing volume claim templates"))
		return err->code;
	for (size_t i = 0; i < w->nclaims; i++) {
		const kp_claim_template *t = &w->claims[i];
		s = stmt(imp, S_VCT_INS);
		sqlite3_bind_int64(s, 1, workload_id);
		bind_text(s, 2, t->name);
		bind_text(s, 3, t->spec.storage_class);
		sqlite3_bind_int64(s, 4, t->spec.request);
		bind_text(s, 5, t->spec.access_modes ? t->spec.access_modes : "");
		bind_text(s, 6, t->spec.volume_mode ? t->spec.volume_mode : "Filesystem");
		bind_text(s, 7, kp_store_selector_text(imp, &t->spec.selector));
		sqlite3_bind_int64(s, 8, (int64_t)i);
		bind_text(s, 9, t->spec.attributes_class);
		if (exec(imp, s, err, "storing volume claim templates"))
			return err->code;
	}
	return KP_OK;
}

int kp_store_pod_volumes_from(kp_import *imp, int64_t pod_id, const char *pod_name, int64_t workload_id,
			      kp_err *err)
{
	sqlite3_stmt *s = stmt(imp, S_PODVOL_DEL);
	sqlite3_bind_int64(s, 1, pod_id);
	if (exec(imp, s, err, "replacing volumes"))
		return err->code;
	for (int k = S_PODVOL_TMPL; k <= S_PODVOL_CLAIMS; k++) {
		s = stmt(imp, k);
		sqlite3_bind_int64(s, 1, pod_id);
		bind_text(s, 2, pod_name);
		sqlite3_bind_int64(s, 3, workload_id);
		if (exec(imp, s, err, "storing the volumes of a generated pod"))
			return err->code;
	}
	return KP_OK;
}

int kp_store_claims(kp_import *imp, kp_err *err)
{
	kp_store_reset_all(imp);
	if (sqlite3_exec(imp->db, kp_sql_import_pvc_want, NULL, NULL, NULL) != SQLITE_OK)
		return kp_store_db_fail(imp, err, "generating volume claims");
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(imp->db, kp_sql_import_pvc_generate, -1, &s, NULL) != SQLITE_OK)
		return kp_store_db_fail(imp, err, "generating volume claims");
	sqlite3_bind_int64(s, 1, imp->batch_id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		imp->stats.generated_pvcs += sqlite3_changes(imp->db);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return kp_store_db_fail(imp, err, "generating volume claims");
	return KP_OK;
}
