/*
 * import.c — one import batch's life (import.h): begin (a transaction, the
 * batch's row, its statements prepared), finish (workloads expanded, volume
 * claims generated (store_storage.c), resource claims generated
 * (store_dra.c), unused
 * pod classes dropped, the batch's counts written, COMMIT) and free
 * (ROLLBACK unless finished).
 *
 * The batch is made of: import_read.c (paths and formats), the readers
 * (csv.c, k8s*.c, through store.h), store_objects.c and store_class.c (rows
 * of one object), store_expand.c (generated pods) and store.c (statements,
 * shared helpers), all sharing struct kp_import (store_int.h).
 */
#include "import.h"
#include "store_int.h"
#include "../common/db.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* The storage columns that came after the storage section (schema.sql says
 * which), added to a database made before them: last in their tables, as in
 * the schema. */
static int add_storage_columns(sqlite3 *db, kp_err *err)
{
	static const char *const cols[][3] = {
		{ "pv", "deleting", "INTEGER NOT NULL DEFAULT 0" },
		{ "pv", "attributes_class", "TEXT" },
		{ "pvc", "bind_completed", "INTEGER NOT NULL DEFAULT 0" },
		{ "pvc", "attributes_class", "TEXT" },
		{ "pod_volume", "monitors", "TEXT" },
		{ "workload_volume", "monitors", "TEXT" },
		{ "workload_claim_template", "attributes_class", "TEXT" },
	};
	for (size_t i = 0; i < sizeof cols / sizeof *cols; i++) {
		int rc = kp_db_add_column(db, cols[i][0], cols[i][1], cols[i][2], err);
		if (rc != KP_OK)
			return rc;
	}
	return KP_OK;
}

/* a first import: drop pod's and pod_label's secondary indexes, keeping
 * their CREATE statements for restore_indexes */
static int defer_indexes(kp_import *imp, kp_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(imp->db, kp_sql_import_deferred_indexes, -1, &s, NULL) != SQLITE_OK)
		return kp_store_db_fail(imp, err, "reading the indexes");
	kp_sb drops;   /* the DROP statements, run once the read is done */
	kp_sb_init(&drops);
	int rc = KP_OK, step;
	while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW) {
		char **v = kp_realloc(imp->index_sql, (imp->nindex_sql + 1) * sizeof *v);
		if (!v || !(v[imp->nindex_sql] = kp_strdup((const char *)sqlite3_column_text(s, 1)))) {
			imp->index_sql = v ? v : imp->index_sql;
			rc = kp_err_set(err, KP_NOMEM, "out of memory");
			break;
		}
		imp->index_sql = v;
		imp->nindex_sql++;
		char *drop = sqlite3_mprintf("DROP INDEX \"%w\";", (const char *)sqlite3_column_text(s, 0));
		if (drop)
			kp_sb_adds(&drops, drop);
		else
			rc = kp_err_set(err, KP_NOMEM, "out of memory");
		sqlite3_free(drop);
	}
	if (!rc && step != SQLITE_DONE)
		rc = kp_store_db_fail(imp, err, "reading the indexes");
	sqlite3_finalize(s);
	if (!rc && !kp_sb_ok(&drops))
		rc = kp_err_set(err, KP_NOMEM, "out of memory");
	if (!rc && drops.len && sqlite3_exec(imp->db, kp_sb_str(&drops), NULL, NULL, NULL) != SQLITE_OK)
		rc = kp_store_db_fail(imp, err, "deferring the indexes");
	kp_sb_release(&drops);
	return rc;
}

/* build the deferred indexes again (before the end of import queries that use them) */
static int restore_indexes(kp_import *imp, kp_err *err)
{
	if (!imp->nindex_sql)
		return KP_OK;
	kp_store_reset_all(imp);
	for (size_t i = 0; i < imp->nindex_sql; i++) {
		if (sqlite3_exec(imp->db, imp->index_sql[i], NULL, NULL, NULL) != SQLITE_OK)
			return kp_store_db_fail(imp, err, "building the indexes");
		kp_free(imp->index_sql[i]);
	}
	kp_free(imp->index_sql);
	imp->index_sql = NULL;
	imp->nindex_sql = 0;
	return KP_OK;
}

int kp_import_begin(sqlite3 *db, const kp_import_opts *opts, kp_import **out, kp_err *err)
{
	kp_import *imp = kp_calloc(1, sizeof *imp);
	*out = NULL;
	if (!imp)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	imp->db = db;
	if (opts)
		imp->opts = *opts;
	kp_arena_init(&imp->arena, 64 * 1024);
	kp_arena_init(&imp->scratch, 16 * 1024);
	kp_sb_init(&imp->spec);
	kp_sb_init(&imp->json);
	kp_sb_init(&imp->sources);
	kp_sb_addc(&imp->sources, '[');
	int rc = kp_db_begin(db, err);
	if (rc != KP_OK) {
		kp_import_free(imp);
		return rc;
	}
	imp->in_txn = 1;
	/* scheduler_config.yaml, yaml_file came later: add them to an older database */
	if ((rc = kp_db_add_column(db, "scheduler_config", "yaml", "TEXT", err)) ||
	    (rc = kp_db_add_column(db, "scheduler_config", "yaml_file", "TEXT", err)) ||
	    /* the storage tables came later too (issue 16), and some of their columns later still */
	    (rc = kp_db_schema_section(db, "storage", "storage tables", err)) ||
	    (rc = add_storage_columns(db, err)) ||
	    /* and the DRA tables (issue 17) */
	    (rc = kp_db_schema_section(db, "dra", "DRA tables", err)) ||
	    /* and the Workload API tables (docs/gangs.md) */
	    (rc = kp_db_schema_section(db, "gang", "Workload API tables", err)) ||
	    /* and what kube versions read differently (class_port.sidecar, the kube section) */
	    (rc = kp_db_add_column(db, "class_port", "sidecar", "INTEGER NOT NULL DEFAULT 0", err)) ||
	    (rc = kp_db_schema_section(db, "kube", "kube-version tables", err))) {
		kp_import_free(imp);
		return rc;
	}
	if ((rc = defer_indexes(imp, err)) || (rc = kp_store_prepare(imp, err)) != KP_OK) {
		kp_import_free(imp);
		return rc;
	}
	char now[32];
	kp_format_time((int64_t)time(NULL), now, sizeof now);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, kp_sql_import_batch_start, -1, &s, NULL) != SQLITE_OK) {
		rc = kp_store_db_fail(imp, err, "starting the import");
		kp_import_free(imp);
		return rc;
	}
	sqlite3_bind_text(s, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, KPLAN_VERSION, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		rc = kp_store_db_fail(imp, err, "starting the import");
		kp_import_free(imp);
		return rc;
	}
	imp->batch_id = sqlite3_last_insert_rowid(db);
	*out = imp;
	return KP_OK;
}

/* The batch's counts as JSON (import_batch.counts) into counts. */
static void counts_json(const kp_import *imp, kp_sb *counts)
{
	const kp_import_stats *st = &imp->stats;
	kp_sb_printf(counts,
		     "{\"nodes\":%ld,\"pods\":%ld,\"generated_pods\":%ld,\"workloads\":%ld,\"priority_classes\":%ld,"
		     "\"pdbs\":%ld,\"services\":%ld,\"namespaces\":%ld,\"scheduler_configs\":%ld,\"invalid\":%ld,"
		     "\"storage_classes\":%ld,\"pvs\":%ld,\"pvcs\":%ld,\"generated_pvcs\":%ld,\"csi_nodes\":%ld,"
		     "\"csi_drivers\":%ld,\"csi_storage_capacities\":%ld,\"device_classes\":%ld,"
		     "\"resource_slices\":%ld,\"resource_claims\":%ld,\"generated_resource_claims\":%ld,"
		     "\"resource_claim_templates\":%ld,"
		     "\"files\":%ld,\"bytes\":%lld,\"skipped\":{",
		     st->nodes, st->pods, st->generated_pods, st->workloads, st->priority_classes, st->pdbs,
		     st->services, st->namespaces, st->scheduler_configs, st->invalid, st->storage_classes, st->pvs,
		     st->pvcs, st->generated_pvcs, st->csi_nodes, st->csi_drivers, st->csi_capacities,
		     st->device_classes, st->resource_slices, st->resource_claims, st->generated_claims,
		     st->claim_templates, st->files, st->bytes);
	/* "skipped": per kind (as before apiVersions were kept), summed over
	 * apiVersions; "skipped_api": per "apiVersion Kind" */
	int first = 1;
	for (size_t i = 0; i < imp->nskipped; i++) {
		const char *kind = strrchr(imp->skipped_kinds[i], ' ');
		kind = kind ? kind + 1 : imp->skipped_kinds[i];
		size_t j = 0;
		for (; j < i; j++) {
			const char *k2 = strrchr(imp->skipped_kinds[j], ' ');
			if (!strcmp(k2 ? k2 + 1 : imp->skipped_kinds[j], kind))
				break;
		}
		if (j < i)
			continue;   /* summed at its first apiVersion */
		long n = 0;
		for (j = i; j < imp->nskipped; j++) {
			const char *k2 = strrchr(imp->skipped_kinds[j], ' ');
			n += strcmp(k2 ? k2 + 1 : imp->skipped_kinds[j], kind) ? 0 : imp->skipped_counts[j];
		}
		if (!first)
			kp_sb_addc(counts, ',');
		first = 0;
		kp_sb_add_json_str(counts, kind);
		kp_sb_printf(counts, ":%ld", n);
	}
	kp_sb_adds(counts, "},\"skipped_api\":{");
	for (size_t i = 0; i < imp->nskipped; i++) {
		if (i)
			kp_sb_addc(counts, ',');
		kp_sb_add_json_str(counts, imp->skipped_kinds[i]);
		kp_sb_printf(counts, ":%ld", imp->skipped_counts[i]);
	}
	kp_sb_adds(counts, "}}");
}

int kp_import_finish(kp_import *imp, kp_err *err)
{
	if (kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	if (restore_indexes(imp, err) != KP_OK || kp_store_expand(imp, err) != KP_OK || kp_store_claims(imp, err) != KP_OK ||
	    kp_store_dra_claims(imp, err) != KP_OK || kp_import_check_cel(imp, err) != KP_OK)
		return err->code;
	kp_sb_addc(&imp->sources, ']');
	kp_sb counts;
	kp_sb_init(&counts);
	counts_json(imp, &counts);
	sqlite3_stmt *s;
	int rc = KP_OK;
	if (!kp_sb_ok(&counts) || !kp_sb_ok(&imp->sources)) {
		rc = kp_err_set(err, KP_NOMEM, "out of memory");
	} else if (sqlite3_prepare_v2(imp->db, kp_sql_import_batch_finish, -1, &s, NULL) != SQLITE_OK) {
		rc = kp_store_db_fail(imp, err, "finishing the import");
	} else {
		sqlite3_bind_text(s, 1, kp_sb_str(&imp->sources), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, kp_sb_str(&counts), -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s, 3, imp->batch_id);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = kp_store_db_fail(imp, err, "finishing the import");
		sqlite3_finalize(s);
	}
	kp_sb_release(&counts);
	if (rc != KP_OK)
		return rc;
	/* unused classes go (a re-import may have orphaned them) */
	kp_store_reset_all(imp);
	if (sqlite3_exec(imp->db, kp_sql_import_unused_classes, NULL, NULL, NULL) != SQLITE_OK)
		return kp_store_db_fail(imp, err, "removing unused pod classes");
	kp_store_finalize(imp);
	kp_store_sort_skipped(imp);
	imp->stats.nskipped = imp->nskipped;
	imp->stats.skipped_names = (const char *const *)imp->skipped_kinds;
	imp->stats.skipped_counts = imp->skipped_counts;
	if (imp->opts.before_commit && imp->opts.before_commit(imp->opts.commit_ctx, &imp->stats, imp->batch_id))
		return kp_err_set(err, KP_IO, "error writing output");
	rc = kp_db_commit(imp->db, err);
	if (rc != KP_OK)
		return rc;
	imp->in_txn = 0;
	imp->finished = 1;
	return KP_OK;
}

void kp_import_free(kp_import *imp)
{
	if (!imp)
		return;
	kp_store_finalize(imp);
	if (imp->in_txn)
		kp_db_rollback(imp->db);
	for (size_t i = 0; i < imp->nclasses; i++)
		kp_free(imp->classes[i].spec);
	kp_free(imp->classes);
	for (size_t i = 0; i < imp->nonce; i++)
		kp_free(imp->once[i]);
	kp_free(imp->once);
	for (size_t i = 0; i < imp->nindex_sql; i++)
		kp_free(imp->index_sql[i]);
	kp_free(imp->index_sql);
	for (size_t i = 0; i < imp->nskipped; i++)
		kp_free(imp->skipped_kinds[i]);
	kp_free(imp->skipped_kinds);
	kp_free(imp->skipped_counts);
	kp_arena_release(&imp->arena);
	kp_arena_release(&imp->scratch);
	kp_sb_release(&imp->spec);
	kp_sb_release(&imp->json);
	kp_sb_release(&imp->sources);
	kp_free(imp);
}

const kp_import_stats *kp_import_get_stats(const kp_import *imp) { return &imp->stats; }
int64_t kp_import_batch_id(const kp_import *imp) { return imp->batch_id; }
