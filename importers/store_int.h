/*
 * store_int.h — the state of one import batch and what the files that make
 * up the batch share (private to importers/): store.c (statements, helpers,
 * bookkeeping), store_class.c (pod classes), store_objects.c (one object's
 * rows), store_storage.c (storage objects, volumes, generated claims),
 * store_expand.c (workloads into generated pods), import.c (begin,
 * finish) and import_read.c (paths and formats).  The format readers see
 * only store.h.
 *
 * Every statement of the batch is prepared once, when it begins (store.c,
 * kp_store_prepare), from queries/import/<name>.sql; stmt() hands one out
 * reset and unbound.
 */
#ifndef KP_STORE_INT_H
#define KP_STORE_INT_H

#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "store.h"

#include <sqlite3.h>

/* the prepared statements (store.c names their SQL) */
enum {
	S_NODE_FIND, S_NODE_INS, S_NODE_UPD, S_NODE_DEL_RES, S_NODE_DEL_LABEL, S_NODE_DEL_TAINT, S_NODE_DEL_IMAGE,
	S_NODE_DEL_FEAT,
	S_NODE_RES, S_NODE_LABEL, S_NODE_TAINT, S_NODE_IMAGE, S_NODE_FEAT,
	S_CLASS_FIND, S_CLASS_INS, S_CLASS_REQ, S_CLASS_CONT, S_CLASS_NSEL, S_CLASS_TOL, S_CLASS_NTERM,
	S_CLASS_NEXPR, S_CLASS_PAFF, S_CLASS_SPREAD, S_CLASS_PORT, S_CLASS_FEAT, S_CLASS_REQ_ALT, S_CLASS_KINPUT,
	S_POD_FIND, S_POD_INS, S_POD_UPD, S_POD_DEL_LABEL, S_POD_LABEL,
	S_WL_FIND, S_WL_INS, S_WL_UPD,
	S_PC_FIND, S_PC_UPSERT, S_PDB_FIND, S_PDB_UPSERT, S_SVC_FIND, S_SVC_UPSERT,
	S_NS_FIND, S_NS_UPSERT, S_NS_DEL_LABEL, S_NS_LABEL, S_SC_FIND, S_SC_UPSERT,
	/* storage (store_storage.c); S_PODVOL_TMPL, S_PODVOL_CLAIMS run in this order */
	S_STC_FIND, S_STC_UPSERT, S_PV_FIND, S_PV_UPSERT, S_PV_DEL_LABEL, S_PV_LABEL, S_PVC_FIND, S_PVC_UPSERT,
	S_CSIN_FIND, S_CSIN_INFO, S_CSIN_DEL, S_CSIN_INS, S_CSID_FIND, S_CSID_UPSERT, S_CSIC_FIND, S_CSIC_UPSERT,
	S_PODVOL_DEL, S_PODVOL_INS, S_WLVOL_DEL, S_WLVOL_INS, S_VCT_DEL, S_VCT_INS, S_PODVOL_TMPL, S_PODVOL_CLAIMS,
	/* DRA (store_dra.c); the *_DEL ranges run in this order */
	S_DRA_CLASS_FIND, S_DRA_CLASS_UPSERT, S_DRA_CLASS_SEL_DEL, S_DRA_CLASS_SEL_INS,
	S_DRA_SLICE_FIND, S_DRA_SLICE_UPSERT, S_DRA_SLICE_DEL_ATTR, S_DRA_SLICE_DEL_CAP, S_DRA_SLICE_DEL_CNT,
	S_DRA_SLICE_DEL_TAINT, S_DRA_SLICE_DEL_DEV, S_DRA_SLICE_DEL_SHARED, S_DRA_SLICE_CNT_INS, S_DRA_DEV_INS,
	S_DRA_DEV_ATTR_INS, S_DRA_DEV_CAP_INS, S_DRA_DEV_CNT_INS, S_DRA_DEV_TAINT_INS,
	S_DRA_SPEC_INS, S_DRA_REQ_INS, S_DRA_REQ_SEL_INS, S_DRA_REQ_TOL_INS, S_DRA_REQ_CAP_INS, S_DRA_CONS_INS,
	S_DRA_CLAIM_FIND, S_DRA_CLAIM_UPSERT, S_DRA_CLAIM_DEL_RES, S_DRA_CLAIM_DEL_CONS, S_DRA_CLAIM_DEL_RSV,
	S_DRA_CLAIM_RES_INS, S_DRA_CLAIM_CONS_INS, S_DRA_CLAIM_RSV_INS, S_DRA_TMPL_FIND, S_DRA_TMPL_UPSERT,
	S_DRA_POD_DEL, S_DRA_POD_INS, S_DRA_WL_DEL, S_DRA_WL_INS, S_DRA_WL_CLAIMS,
	/* the Workload API (store_gang.c) */
	S_PG_FIND, S_PG_UPSERT, S_SWL_FIND, S_SWL_UPSERT, S_SWL_TMPL_DEL, S_SWL_TMPL_INS,
	S_GANG_POD_DEL, S_GANG_POD_INS, S_GANG_WL_DEL, S_GANG_WL_INS,
	S_COUNT
};

/* classes already verified in this batch: id -> canonical spec */
typedef struct kp_class_slot { int64_t id; char *spec; } kp_class_slot;

struct kp_import {
	sqlite3 *db;
	kp_import_opts opts;
	sqlite3_stmt *st[S_COUNT];
	int64_t batch_id;
	int in_txn, finished;
	kp_arena arena;          /* per object (readers) */
	kp_arena scratch;        /* per object (store) */
	kp_sb spec, json;
	kp_class_slot *classes;
	size_t nclasses, cap_classes;
	kp_import_stats stats;
	char **once;             /* kp_import_first_time's keys */
	size_t nonce, cap_once;
	kp_sb sources;           /* JSON array of the paths given */
	kp_sb skipped;           /* JSON object kind -> count */
	char **skipped_kinds; long *skipped_counts; size_t nskipped;
	/* progress: the buffer being read and how far its objects got */
	const char *cur_data;
	size_t cur_len, cur_off;
	unsigned cur_line;
	long long cur_base;      /* bytes of the files before it */
	long objects;
	/* secondary indexes dropped for a first import, built again at its end
	 * (queries/import/deferred_indexes.sql): their CREATE statements */
	char **index_sql;
	size_t nindex_sql;
};

/* A row a *_FIND statement found: its id, batch, "source:line" and, for a
 * pod, the workload that generated it (0: read from the input). */
typedef struct kp_found { int64_t id, batch_id, workload_id; char where[600]; } kp_found;

/* ---- store.c ---- */

/* Prepare every statement of the batch; KP_OK or the database's error. */
int kp_store_prepare(kp_import *imp, kp_err *err);
/* Finalize them (NULL after); cannot fail. */
void kp_store_finalize(kp_import *imp);
/* Reset them: DDL (temp tables) needs every statement of the connection idle. */
void kp_store_reset_all(kp_import *imp);
/* The database's last error as err (KP_INTR, KP_BUSY or KP_IO); returns its code. */
int kp_store_db_fail(kp_import *imp, kp_err *err, const char *what);
/* Step a *_FIND statement (already bound): 1 = a row in *f, 0 = none, < 0 error. */
int kp_store_find_row(kp_import *imp, sqlite3_stmt *s, kp_found *f, kp_err *err);
/* Find with statement `which` bound to a (and b unless NULL); an object
 * read earlier in this batch is a duplicate error located at file/pos.
 * Returns 1 existing, 0 new, < 0 error (store_objects.c). */
int kp_store_find_dup(kp_import *imp, int which, const char *a, const char *b, const char *file, kp_pos pos,
		      kp_err *err);
/* The skipped kinds, most first, then by name. */
void kp_store_sort_skipped(kp_import *imp);

/* statement i, reset and unbound */
static inline sqlite3_stmt *stmt(kp_import *imp, int i)
{
	sqlite3_stmt *s = imp->st[i];
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

/* v, or NULL when v is */
static inline void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* Unix seconds, or NULL for INT64_MIN (absent) */
static inline void bind_time(sqlite3_stmt *s, int i, int64_t t)
{
	if (t == INT64_MIN)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, t);
}

/* step a statement that returns no row */
static inline int exec(kp_import *imp, sqlite3_stmt *s, kp_err *err, const char *what)
{
	int rc = sqlite3_step(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return kp_store_db_fail(imp, err, what);
	return KP_OK;
}

/* ---- store_class.c ---- */

/* Find or create the class of pod p (by its canonical spec, left in
 * imp->spec); *out = its id.  KP_OK, KP_NOMEM, KP_RANGE or a database error. */
int kp_store_class(kp_import *imp, const kp_pod_in *p, int64_t *out, kp_err *err);
/* JSON texts in imp->scratch (valid until it is reset): a selector (NULL for
 * a null one), a string list, a string map. */
const char *kp_store_selector_text(kp_import *imp, const kp_selector *s);
const char *kp_store_strs_text(kp_import *imp, const kp_strs *s);
const char *kp_store_kvs_text(kp_import *imp, const kp_kvs *kv);
/* requirements as [["key","In",["v"]],...] appended to sb */
void kp_store_json_reqs(kp_sb *sb, const kp_req *r, size_t n);

/* ---- store_objects.c ---- */

/* Write (insert, or update row `existing`) pod p of class class_id and its
 * labels; workload_id 0 = a pod read from the input.  *id_out = its id. */
int kp_store_write_pod(kp_import *imp, int64_t existing, const kp_pod_in *p, int64_t class_id, int64_t workload_id,
		       const char *daemon_node, const char *file, int64_t *id_out, kp_err *err);

/* ---- store_storage.c ---- */

/* Replace the volumes of pod owner_id (workload = 0: its pod_volume rows;
 * an ephemeral volume's claim is <pod>-<volume>) or of workload owner_id's
 * template (workload = 1: workload_volume) with p's.  KP_OK or an error. */
int kp_store_volumes(kp_import *imp, int64_t owner_id, int workload, const kp_pod_in *p, kp_err *err);
/* Replace a StatefulSet's volumeClaimTemplates with w's. */
int kp_store_claim_templates(kp_import *imp, int64_t workload_id, const kp_workload_in *w, kp_err *err);
/* A generated pod's volumes: its workload's template volumes and claim templates. */
int kp_store_pod_volumes_from(kp_import *imp, int64_t pod_id, const char *pod_name, int64_t workload_id,
			      kp_err *err);
/* After the expansion: the claims the controllers would make, generated
 * where no claim of that name exists; generated ones nobody wants go. */
int kp_store_claims(kp_import *imp, kp_err *err);

/* JSON of node selector terms (key names the expression list) in imp->scratch */
const char *kp_store_terms_json(kp_import *imp, const kp_node_term *t, size_t n, const char *key);

/* ---- store_dra.c ---- */

/* Write the resource claims of pod owner_id (workload = 0: pod_resource_claim,
 * a template's claim named as its status says or as kp_claim_name makes it)
 * or of workload owner_id's template (workload = 1); replace: delete the
 * rows it had first.  KP_OK or an error. */
int kp_store_pod_claims(kp_import *imp, int64_t owner_id, int workload, int replace, const kp_pod_in *p,
			kp_err *err);
/* A workload template's resource claims (workload_resource_claim), for its
 * generated pods: loaded once per expansion (kp_free_wl_claims). */
typedef struct kp_wl_claim { char *name, *claim_name, *template_name, *containers; } kp_wl_claim;
int kp_store_wl_claims(kp_import *imp, int64_t workload_id, kp_wl_claim **out, size_t *n, kp_err *err);
void kp_free_wl_claims(kp_wl_claim *v, size_t n);
/* Generated pod pod_id (ns/name) gets its workload's claims v. */
int kp_store_pod_claims_from(kp_import *imp, int64_t pod_id, const char *ns, const char *name, int replace,
			     const kp_wl_claim *v, size_t n, kp_err *err);
/* After the expansion: the claims the resourceclaim controller would make
 * from templates, generated where none exists; generated ones nobody wants
 * go; claim specs nobody uses go. */
int kp_store_dra_claims(kp_import *imp, kp_err *err);
/* dra_cel_check.c: every imported DRA selector compiles with kplan's CEL
 * subset, else KP_PARSE with FILE:LINE:COL and what is wrong */
int kp_import_check_cel(kp_import *imp, kp_err *err);

/* ---- store_gang.c ---- */

/* Replace the scheduling group of pod owner_id (workload = 0) or of
 * workload owner_id's template (workload = 1) with p's (none: deleted). */
int kp_store_gang_member(kp_import *imp, int64_t owner_id, int workload, const kp_pod_in *p, kp_err *err);

/* ---- store_expand.c ---- */

/* Bring the generated pods of every workload in line with its desired
 * count; drop the generated pods of workloads that are gone. */
int kp_store_expand(kp_import *imp, kp_err *err);

#endif
