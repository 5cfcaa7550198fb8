/*
 * store.c — the batch's statements and the helpers every writer shares
 * (store_int.h), and the reader-facing bookkeeping of store.h: the per-object
 * arena, bad objects (kp_import_invalid), skipped kinds and notes.
 *
 * Contract: kp_store_prepare() prepares every statement once, persistent,
 * from queries/import/<name>.sql (embedded as kp_sql_import_<name>); the
 * writers take them with stmt() and never prepare them again.  A database
 * error becomes KP_IO (KP_BUSY when locked, KP_INTR when interrupted) with
 * "database error while WHAT: SQLite's message".
 */
#include "store_int.h"

#include <stdio.h>
#include <string.h>

static const char *const sql[S_COUNT] = {
	[S_NODE_FIND] = kp_sql_import_node_find,
	[S_NODE_INS] = kp_sql_import_node_insert,
	[S_NODE_UPD] = kp_sql_import_node_update,
	[S_NODE_DEL_RES] = kp_sql_import_node_delete_resources,
	[S_NODE_DEL_LABEL] = kp_sql_import_node_delete_labels,
	[S_NODE_DEL_TAINT] = kp_sql_import_node_delete_taints,
	[S_NODE_DEL_IMAGE] = kp_sql_import_node_delete_images,
	[S_NODE_DEL_FEAT] = kp_sql_import_node_delete_features,
	[S_NODE_FEAT] = kp_sql_import_node_feature,
	[S_CLASS_FEAT] = kp_sql_import_class_feature,
	[S_CLASS_REQ_ALT] = kp_sql_import_class_request_alt,
	[S_CLASS_KINPUT] = kp_sql_import_class_kube_input,
	[S_NODE_RES] = kp_sql_import_node_resource,
	[S_NODE_LABEL] = kp_sql_import_node_label,
	[S_NODE_TAINT] = kp_sql_import_node_taint,
	[S_NODE_IMAGE] = kp_sql_import_node_image,
	[S_CLASS_FIND] = kp_sql_import_class_find,
	[S_CLASS_INS] = kp_sql_import_class_insert,
	[S_CLASS_REQ] = kp_sql_import_class_request,
	[S_CLASS_CONT] = kp_sql_import_class_container,
	[S_CLASS_NSEL] = kp_sql_import_class_node_selector,
	[S_CLASS_TOL] = kp_sql_import_class_toleration,
	[S_CLASS_NTERM] = kp_sql_import_class_node_term,
	[S_CLASS_NEXPR] = kp_sql_import_class_node_expr,
	[S_CLASS_PAFF] = kp_sql_import_class_pod_affinity,
	[S_CLASS_SPREAD] = kp_sql_import_class_spread,
	[S_CLASS_PORT] = kp_sql_import_class_port,
	[S_POD_FIND] = kp_sql_import_pod_find,
	[S_POD_INS] = kp_sql_import_pod_insert,
	[S_POD_UPD] = kp_sql_import_pod_update,
	[S_POD_DEL_LABEL] = kp_sql_import_pod_delete_labels,
	[S_POD_LABEL] = kp_sql_import_pod_label,
	[S_WL_FIND] = kp_sql_import_workload_find,
	[S_WL_INS] = kp_sql_import_workload_insert,
	[S_WL_UPD] = kp_sql_import_workload_update,
	[S_PC_FIND] = kp_sql_import_priority_class_find,
	[S_PC_UPSERT] = kp_sql_import_priority_class_upsert,
	[S_PDB_FIND] = kp_sql_import_pdb_find,
	[S_PDB_UPSERT] = kp_sql_import_pdb_upsert,
	[S_SVC_FIND] = kp_sql_import_service_find,
	[S_SVC_UPSERT] = kp_sql_import_service_upsert,
	[S_NS_FIND] = kp_sql_import_namespace_find,
	[S_NS_UPSERT] = kp_sql_import_namespace_upsert,
	[S_NS_DEL_LABEL] = kp_sql_import_namespace_delete_labels,
	[S_NS_LABEL] = kp_sql_import_namespace_label,
	[S_SC_FIND] = kp_sql_import_sched_config_find,
	[S_SC_UPSERT] = kp_sql_import_sched_config_upsert,
	[S_STC_FIND] = kp_sql_import_storage_class_find,
	[S_STC_UPSERT] = kp_sql_import_storage_class_upsert,
	[S_PV_FIND] = kp_sql_import_pv_find,
	[S_PV_UPSERT] = kp_sql_import_pv_upsert,
	[S_PV_DEL_LABEL] = kp_sql_import_pv_delete_labels,
	[S_PV_LABEL] = kp_sql_import_pv_label,
	[S_PVC_FIND] = kp_sql_import_pvc_find,
	[S_PVC_UPSERT] = kp_sql_import_pvc_upsert,
	[S_CSIN_FIND] = kp_sql_import_csi_node_find,
	[S_CSIN_INFO] = kp_sql_import_csi_node_info_upsert,
	[S_CSIN_DEL] = kp_sql_import_csi_node_delete,
	[S_CSIN_INS] = kp_sql_import_csi_node_insert,
	[S_CSID_FIND] = kp_sql_import_csi_driver_find,
	[S_CSID_UPSERT] = kp_sql_import_csi_driver_upsert,
	[S_CSIC_FIND] = kp_sql_import_csi_capacity_find,
	[S_CSIC_UPSERT] = kp_sql_import_csi_capacity_upsert,
	[S_PODVOL_DEL] = kp_sql_import_pod_volume_delete,
	[S_PODVOL_INS] = kp_sql_import_pod_volume_insert,
	[S_WLVOL_DEL] = kp_sql_import_workload_volume_delete,
	[S_WLVOL_INS] = kp_sql_import_workload_volume_insert,
	[S_VCT_DEL] = kp_sql_import_claim_template_delete,
	[S_VCT_INS] = kp_sql_import_claim_template_insert,
	[S_PODVOL_TMPL] = kp_sql_import_pod_volume_from_template,
	[S_PODVOL_CLAIMS] = kp_sql_import_pod_volume_from_claims,
	[S_DRA_CLASS_FIND] = kp_sql_import_dra_class_find,
	[S_DRA_CLASS_UPSERT] = kp_sql_import_dra_class_upsert,
	[S_DRA_CLASS_SEL_DEL] = kp_sql_import_dra_class_selector_delete,
	[S_DRA_CLASS_SEL_INS] = kp_sql_import_dra_class_selector_insert,
	[S_DRA_SLICE_FIND] = kp_sql_import_dra_slice_find,
	[S_DRA_SLICE_UPSERT] = kp_sql_import_dra_slice_upsert,
	[S_DRA_SLICE_DEL_ATTR] = kp_sql_import_dra_slice_delete_attributes,
	[S_DRA_SLICE_DEL_CAP] = kp_sql_import_dra_slice_delete_capacity,
	[S_DRA_SLICE_DEL_CNT] = kp_sql_import_dra_slice_delete_counters,
	[S_DRA_SLICE_DEL_TAINT] = kp_sql_import_dra_slice_delete_taints,
	[S_DRA_SLICE_DEL_DEV] = kp_sql_import_dra_slice_delete_devices,
	[S_DRA_SLICE_DEL_SHARED] = kp_sql_import_dra_slice_delete_shared,
	[S_DRA_SLICE_CNT_INS] = kp_sql_import_dra_slice_counter_insert,
	[S_DRA_DEV_INS] = kp_sql_import_dra_device_insert,
	[S_DRA_DEV_ATTR_INS] = kp_sql_import_dra_device_attribute_insert,
	[S_DRA_DEV_CAP_INS] = kp_sql_import_dra_device_capacity_insert,
	[S_DRA_DEV_CNT_INS] = kp_sql_import_dra_device_counter_insert,
	[S_DRA_DEV_TAINT_INS] = kp_sql_import_dra_device_taint_insert,
	[S_DRA_SPEC_INS] = kp_sql_import_dra_spec_insert,
	[S_DRA_REQ_INS] = kp_sql_import_dra_request_insert,
	[S_DRA_REQ_SEL_INS] = kp_sql_import_dra_request_selector_insert,
	[S_DRA_REQ_TOL_INS] = kp_sql_import_dra_request_toleration_insert,
	[S_DRA_REQ_CAP_INS] = kp_sql_import_dra_request_capacity_insert,
	[S_DRA_CONS_INS] = kp_sql_import_dra_constraint_insert,
	[S_DRA_CLAIM_FIND] = kp_sql_import_dra_claim_find,
	[S_DRA_CLAIM_UPSERT] = kp_sql_import_dra_claim_upsert,
	[S_DRA_CLAIM_DEL_RES] = kp_sql_import_dra_claim_delete_results,
	[S_DRA_CLAIM_DEL_CONS] = kp_sql_import_dra_claim_delete_consumed,
	[S_DRA_CLAIM_DEL_RSV] = kp_sql_import_dra_claim_delete_reserved,
	[S_DRA_CLAIM_RES_INS] = kp_sql_import_dra_claim_result_insert,
	[S_DRA_CLAIM_CONS_INS] = kp_sql_import_dra_claim_consumed_insert,
	[S_DRA_CLAIM_RSV_INS] = kp_sql_import_dra_claim_reserved_insert,
	[S_DRA_TMPL_FIND] = kp_sql_import_dra_template_find,
	[S_DRA_TMPL_UPSERT] = kp_sql_import_dra_template_upsert,
	[S_DRA_POD_DEL] = kp_sql_import_dra_pod_claim_delete,
	[S_DRA_POD_INS] = kp_sql_import_dra_pod_claim_insert,
	[S_DRA_WL_DEL] = kp_sql_import_dra_workload_claim_delete,
	[S_DRA_WL_INS] = kp_sql_import_dra_workload_claim_insert,
	[S_DRA_WL_CLAIMS] = kp_sql_import_dra_workload_claims,
	[S_PG_FIND] = kp_sql_import_gang_pod_group_find,
	[S_PG_UPSERT] = kp_sql_import_gang_pod_group_upsert,
	[S_SWL_FIND] = kp_sql_import_gang_workload_find,
	[S_SWL_UPSERT] = kp_sql_import_gang_workload_upsert,
	[S_SWL_TMPL_DEL] = kp_sql_import_gang_template_delete,
	[S_SWL_TMPL_INS] = kp_sql_import_gang_template_insert,
	[S_GANG_POD_DEL] = kp_sql_import_gang_member_pod_delete,
	[S_GANG_POD_INS] = kp_sql_import_gang_member_pod_insert,
	[S_GANG_WL_DEL] = kp_sql_import_gang_member_workload_delete,
	[S_GANG_WL_INS] = kp_sql_import_gang_member_workload_insert,
};

int kp_store_prepare(kp_import *imp, kp_err *err)
{
	for (int i = 0; i < S_COUNT; i++)
		if (sqlite3_prepare_v3(imp->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &imp->st[i], NULL) != SQLITE_OK)
			return kp_store_db_fail(imp, err, "preparing statements");
	return KP_OK;
}

void kp_store_finalize(kp_import *imp)
{
	for (int i = 0; i < S_COUNT; i++) {
		sqlite3_finalize(imp->st[i]);
		imp->st[i] = NULL;
	}
}

void kp_store_reset_all(kp_import *imp)
{
	for (int i = 0; i < S_COUNT; i++)
		if (imp->st[i])
			sqlite3_reset(imp->st[i]);
}

int kp_store_db_fail(kp_import *imp, kp_err *err, const char *what)
{
	int rc = sqlite3_errcode(imp->db);
	if (rc == SQLITE_INTERRUPT || kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	return kp_err_set(err, rc == SQLITE_BUSY || rc == SQLITE_LOCKED ? KP_BUSY : KP_IO,
			  "database error while %s: %s", what, sqlite3_errmsg(imp->db));
}

int kp_store_find_row(kp_import *imp, sqlite3_stmt *s, kp_found *f, kp_err *err)
{
	int rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return kp_store_db_fail(imp, err, "looking up an object");
	f->id = sqlite3_column_int64(s, 0);
	f->batch_id = sqlite3_column_int64(s, 1);
	const char *src = (const char *)sqlite3_column_text(s, 2);
	snprintf(f->where, sizeof f->where, "%s:%lld", src ? src : "?", (long long)sqlite3_column_int64(s, 3));
	f->workload_id = sqlite3_column_count(s) > 4 && sqlite3_column_type(s, 4) != SQLITE_NULL
				 ? sqlite3_column_int64(s, 4) : 0;
	return 1;
}

/* ---- for the format readers (store.h) ---- */

kp_arena *kp_import_arena(kp_import *imp) { return &imp->arena; }

int kp_import_first_time(kp_import *imp, const char *key)
{
	for (size_t i = 0; i < imp->nonce; i++)
		if (strcmp(imp->once[i], key) == 0)
			return 0;
	if (imp->nonce == imp->cap_once) {
		size_t cap = imp->cap_once ? imp->cap_once * 2 : 16;
		char **v = kp_realloc(imp->once, cap * sizeof *v);
		if (!v)
			return -1;
		imp->once = v;
		imp->cap_once = cap;
	}
	if (!(imp->once[imp->nonce] = kp_strdup(key)))
		return -1;
	imp->nonce++;
	return 1;
}

int kp_import_invalid(kp_import *imp, kp_err *err)
{
	if (!imp->opts.skip_invalid)
		return err->code ? err->code : KP_PARSE;
	imp->stats.invalid++;
	if (imp->opts.warn)
		imp->opts.warn(imp->opts.warn_ctx, err);
	kp_err_clear(err);
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

void kp_import_skipped(kp_import *imp, const char *kind)
{
	imp->stats.skipped_kinds++;
	for (size_t i = 0; i < imp->nskipped; i++)
		if (!strcmp(imp->skipped_kinds[i], kind)) {
			imp->skipped_counts[i]++;
			return;
		}
	char **k = kp_realloc(imp->skipped_kinds, (imp->nskipped + 1) * sizeof *k);
	if (!k)
		return;
	imp->skipped_kinds = k;
	long *c = kp_realloc(imp->skipped_counts, (imp->nskipped + 1) * sizeof *c);
	if (!c)
		return;
	imp->skipped_counts = c;
	if (!(k[imp->nskipped] = kp_strdup(kind)))
		return;
	c[imp->nskipped++] = 1;
}

void kp_import_note(kp_import *imp, kp_err *err)
{
	if (imp->opts.note)
		imp->opts.note(imp->opts.note_ctx, err);
	kp_err_clear(err);
}

/* insertion sort: a few kinds */
void kp_store_sort_skipped(kp_import *imp)
{
	for (size_t i = 1; i < imp->nskipped; i++)
		for (size_t j = i; j > 0; j--) {
			long a = imp->skipped_counts[j - 1], b = imp->skipped_counts[j];
			if (a > b || (a == b && strcmp(imp->skipped_kinds[j - 1], imp->skipped_kinds[j]) <= 0))
				break;
			char *k = imp->skipped_kinds[j];
			imp->skipped_kinds[j] = imp->skipped_kinds[j - 1];
			imp->skipped_kinds[j - 1] = k;
			imp->skipped_counts[j] = a;
			imp->skipped_counts[j - 1] = b;
		}
}
