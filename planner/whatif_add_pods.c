/*
 * whatif_add_pods.c — add-pods FILE:COUNT, what `kplan capacity --pod` asks
 * (`plan` has no option for it): COUNT pending copies of the Pod, or of the
 * workload's pod template, in FILE, named NAME-capacity-1, -2, ... (the first
 * free numbers).
 *
 * Contract: FILE is read with the importer itself (through the caller's
 * importer: whatif.h) and holds exactly one Pod or one workload and nothing
 * else.  When the spec's scheduling class is not in the database, its rows
 * are copied into TEMP copies of the class tables: the main schema is only
 * read, so capacity works on a read-only database.
 *
 * Volumes: when the spec has volumes (or volumeClaimTemplates) and the
 * database has storage tables, every copy gets them, in TEMP copies of
 * pod_volume and pvc (wi_storage_shadow), as the API server and the
 * controllers would give a pod made from the spec: a persistentVolumeClaim
 * volume the same claim, looked up in the copy's namespace (every copy
 * shares it: a claim pinned to a zone pins them all, a ReadWriteOncePod one
 * takes one); an in-tree or inline CSI volume as it is; a generic ephemeral
 * volume its own claim <copy>-<volume>, owned by the copy; a StatefulSet's
 * volumeClaimTemplate its own claim <template>-<copy> (the copies are not
 * the set's replicas, but each gets a claim as a replica would).  Claims
 * are made from the spec (generated = 1, negative ids) unless one of that
 * name exists.  A database without storage tables: copies without volumes,
 * as before them.
 *
 * Resource claims: when the spec names resourceClaims and the database has
 * DRA tables, every copy gets them (whatif_dra.c), in TEMP copies of
 * pod_resource_claim and resource_claim: a resourceClaimName entry the same
 * claim, in the copy's namespace (every copy shares it: a claim allocated to
 * a device lets them all use it, on the node it allows); a
 * resourceClaimTemplateName entry a claim of its own, named as the importer
 * names it, owned by the copy, the cluster's template's spec.  The
 * templates are the database's (FILE holds only the spec).
 */
#include "whatif_int.h"

#include <stdio.h>
#include <string.h>

/* the class tables, pod_class first (keyed by id, the others by class_id);
 * the last KUBE_TABLES are schema.sql's kube section, which a database
 * imported before it does not have (then the copies go without them) */
static const char *const class_tables[] = { "pod_class", "class_request", "class_container", "class_node_selector",
					    "class_toleration", "class_node_term", "class_node_expr", "class_pod_affinity",
					    "class_spread", "class_port", "class_request_alt", "class_feature",
					    "class_kube_input" };
#define KUBE_TABLES 3

/* 1 when the main schema has table t */
static int main_has(wctx *c, const char *t)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = ?1", -1, &s, NULL) !=
	    SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, t, -1, SQLITE_STATIC);
	int has = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return has;
}

/* the rows of table t for class_id, from the file's database m into its TEMP copy */
static int copy_class_rows(wctx *c, sqlite3 *m, size_t t, int64_t class_id)
{
	int rc = KP_OK;
	char sql[160];
	snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE %s = ?1", class_tables[t], t ? "class_id" : "id");
	sqlite3_stmt *src = NULL, *dst = NULL;
	if (sqlite3_prepare_v2(m, sql, -1, &src, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "--pod: %s", sqlite3_errmsg(m));
	sqlite3_bind_int64(src, 1, class_id);
	int ncols = sqlite3_column_count(src);
	kp_sb ins;
	kp_sb_init(&ins);
	kp_sb_printf(&ins, "INSERT OR IGNORE INTO temp.%s VALUES(?1", class_tables[t]);
	for (int j = 1; j < ncols; j++)
		kp_sb_printf(&ins, ", ?%d", j + 1);
	kp_sb_adds(&ins, ")");
	if (!kp_sb_ok(&ins))
		rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
	else if (sqlite3_prepare_v2(c->db, kp_sb_str(&ins), -1, &dst, NULL) != SQLITE_OK)
		rc = wi_db_fail(c, "adding the pod spec");
	kp_sb_release(&ins);
	while (!rc && sqlite3_step(src) == SQLITE_ROW) {
		sqlite3_reset(dst);
		for (int j = 0; j < ncols; j++)
			sqlite3_bind_value(dst, j + 1, sqlite3_column_value(src, j));
		if (sqlite3_step(dst) != SQLITE_DONE)
			rc = wi_db_fail(c, "adding the pod spec");
	}
	sqlite3_finalize(src);
	sqlite3_finalize(dst);
	return rc;
}

static int copy_class(wctx *c, sqlite3 *m, int64_t class_id)
{
	int64_t have;
	if (wi_query_int(c, kp_sql_whatif_add_pods_class_known, class_id, NULL, &have))
		return c->err->code;
	if (have)
		return KP_OK;
	int rc = KP_OK;
	size_t n = sizeof class_tables / sizeof *class_tables;
	for (size_t t = 0; t < n && !rc; t++) {
		if (t >= n - KUBE_TABLES && !main_has(c, class_tables[t]))
			continue;
		if (!(rc = wi_shadow_once(c, class_tables[t])))
			rc = copy_class_rows(c, m, t, class_id);
	}
	return rc;
}

/* the spec in the file: the workload's pod template (as written), else the pod's */
typedef struct spec {
	char *ns, *base, *labels;
	int64_t class_id, id;        /* id: the Pod's or workload's, in the file's database */
	int volumes;                 /* its volumes are in temp.kp_whatif_spec_volume */
	wi_claims claims;            /* its resourceClaims (none: no DRA tables in the database) */
	wi_gang gang;                /* its scheduling group: the copies come in gangs (whatif_gang.c) */
} spec;

static int read_spec(wctx *c, wi_op *op, sqlite3 *m, long wls, spec *sp)
{
	sqlite3_stmt *s = NULL;
	int rc = KP_OK;
	const char *sql = wls ? kp_sql_whatif_add_pods_spec_workload : kp_sql_whatif_add_pods_spec_pod;
	if (sqlite3_prepare_v2(m, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW) {
		sp->ns = kp_strdup((const char *)sqlite3_column_text(s, 0));
		sp->base = kp_strdup((const char *)sqlite3_column_text(s, 1));
		sp->class_id = sqlite3_column_int64(s, 2);
		sp->labels = kp_strdup(sqlite3_column_type(s, 3) == SQLITE_NULL ? "{}" : (const char *)sqlite3_column_text(s, 3));
		sp->id = sqlite3_column_int64(s, 4);
		if (!sp->ns || !sp->base || !sp->labels)
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
	} else {
		rc = kp_err_set(c->err, KP_ERROR, "--pod '%s': the workload has no pod template", op->file);
	}
	sqlite3_finalize(s);
	return rc;
}

/* the spec's volumes, from the file's database m into
 * temp.kp_whatif_spec_volume (sp->volumes = 1 when it has some and the
 * database has storage tables; the TEMP copies are then made) */
static int copy_volumes(wctx *c, wi_op *op, sqlite3 *m, int workload, spec *sp)
{
	int known = 0, rc = KP_OK;
	if (wi_storage_known(c, &known))
		return c->err->code;
	if (!known)
		return KP_OK;   /* a database made before the storage tables: copies without volumes */
	sqlite3_stmt *src = NULL, *dst = NULL;
	if (sqlite3_prepare_v2(m, kp_sql_whatif_add_pods_spec_volumes, -1, &src, NULL) != SQLITE_OK)
		return kp_err_set(c->err, KP_IO, "--pod: %s", sqlite3_errmsg(m));
	sqlite3_bind_int64(src, 1, sp->id);
	sqlite3_bind_int(src, 2, workload);
	int ncols = sqlite3_column_count(src), step = SQLITE_DONE;
	while (!rc && (step = sqlite3_step(src)) == SQLITE_ROW) {
		if (!dst && (wi_storage_shadow(c) ||
			     wi_exec_all(c, "adding the pod spec", kp_sql_whatif_add_pods_volumes_table))) {
			rc = c->err->code;
			break;
		}
		if (!dst && sqlite3_prepare_v2(c->db, kp_sql_whatif_add_pods_volume_insert, -1, &dst, NULL) != SQLITE_OK) {
			rc = wi_db_fail(c, "adding the pod spec");
			break;
		}
		sqlite3_reset(dst);
		sqlite3_bind_int(dst, 1, op->seq);
		for (int j = 0; j < ncols; j++)
			sqlite3_bind_value(dst, j + 2, sqlite3_column_value(src, j));
		if (sqlite3_step(dst) != SQLITE_DONE)
			rc = wi_db_fail(c, "adding the pod spec");
		sp->volumes = 1;
	}
	if (!rc && step != SQLITE_DONE)
		rc = kp_err_set(c->err, KP_IO, "--pod: %s", sqlite3_errmsg(m));
	sqlite3_finalize(src);
	sqlite3_finalize(dst);
	return rc;
}

/* the spec's resourceClaims, from the file's database m, when the database
 * has DRA tables (the TEMP copies are then made) */
static int copy_claims(wctx *c, sqlite3 *m, int workload, spec *sp)
{
	int known = 0;
	if (wi_dra_known(c, &known))
		return c->err->code;
	if (!known || wi_dra_read(c, m, sp->id, workload, &sp->claims))
		return known ? c->err->code : KP_OK;
	return sp->claims.n ? wi_dra_shadow(c) : KP_OK;
}

/* copy id (ns/name) gets the spec's volumes and the claims made for it:
 * st[0] add_pods_copy_volumes.sql, st[1] add_pods_copy_claims.sql */
static int copy_add_volumes(wctx *c, wi_op *op, sqlite3_stmt *const *st, int64_t id, const spec *sp,
			    const char *name)
{
	sqlite3_stmt *s = st[0];
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 3, op->seq);
	if (sqlite3_step(s) != SQLITE_DONE)
		return wi_db_fail(c, "adding a copy's volumes");
	s = st[1];
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 3, op->seq);
	sqlite3_bind_text(s, 4, sp->ns, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, sp->base, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 6, WI_ID_BASE);
	if (sqlite3_step(s) != SQLITE_DONE)
		return wi_db_fail(c, "adding a copy's claims");
	return KP_OK;
}

/* op->count pending copies of the spec, NAME-capacity-N */
static int add_copies(wctx *c, wi_op *op, spec *sp, int64_t batch)
{
	int rc = KP_OK;
	sqlite3_stmt *vst[2] = { NULL, NULL };
	if (sp->volumes && (sqlite3_prepare_v2(c->db, kp_sql_whatif_add_pods_copy_volumes, -1, &vst[0], NULL) != SQLITE_OK ||
			    sqlite3_prepare_v2(c->db, kp_sql_whatif_add_pods_copy_claims, -1, &vst[1], NULL) != SQLITE_OK))
		rc = wi_db_fail(c, "adding a copy's volumes");
	kp_sb names;
	kp_sb_init(&names);
	int64_t idx = 0;
	for (long made = 0; !rc && made < op->count;) {
		if (kp_interrupted) {
			rc = kp_err_set(c->err, KP_INTR, "interrupted");
			break;
		}
		char name[800];
		snprintf(name, sizeof name, "%s-capacity-%lld", sp->base, (long long)++idx);
		int used = wi_pod_name_used(c, sp->ns, name);
		if (used < 0) {
			rc = c->err->code;
			break;
		}
		if (used)
			continue;
		wi_pod p;
		memset(&p, 0, sizeof p);
		p.ns = sp->ns;
		p.name = name;
		p.class_id = sp->class_id;
		p.batch = batch;
		p.labels = sp->labels;
		if ((rc = wi_add_pod(c, op, &p)))
			break;
		/* wi_add_pod gave it the scenario's next pod id */
		if (sp->volumes && (rc = copy_add_volumes(c, op, vst, WI_ID_BASE + c->w->pods_made, sp, name)))
			break;
		if (sp->claims.n && (rc = wi_dra_add_pod(c, &sp->claims, WI_ID_BASE + c->w->pods_made, sp->ns, name)))
			break;
		if ((rc = wi_gang_add_pod(c, &sp->gang, sp->ns, WI_ID_BASE + c->w->pods_made, made)))
			break;
		if (made < 5)
			kp_sb_printf(&names, "%s%s", made ? ", " : "", name);
		made++;
		op->added = made;
	}
	if (!rc)
		kp_sb_printf(&op->effect, "%ld pending cop%s of %s/%s added (%s%s)%s%s", op->added,
			     op->added == 1 ? "y" : "ies", sp->ns, sp->base, kp_sb_str(&names), op->added > 5 ? ", ..." : "",
			     sp->volumes ? ", with the spec's volumes" : "",
			     sp->claims.n ? (sp->volumes ? " and resource claims" : ", with the spec's resource claims") : "");
	if (!rc && sp->gang.on)
		kp_sb_printf(&op->effect, ", in gangs of %lld like pod group %s/%s (minCount %lld)", (long long)sp->gang.size,
			     sp->ns, sp->gang.group, (long long)sp->gang.min_count);
	kp_sb_release(&names);
	sqlite3_finalize(vst[0]);
	sqlite3_finalize(vst[1]);
	return rc;
}

int wi_apply_add_pods(wctx *c, wi_op *op)
{
	sqlite3 *m = NULL;
	kp_whatif_counts n;
	int rc = wi_import(c, op->file, "--pod", op->file, &m, &n);
	if (rc == KP_NOMEM && !m)
		return rc;
	long pods = n.pods, wls = n.workloads, others = n.nodes + n.others;
	if (!rc && (!((pods == 1 && wls == 0) || wls == 1) || others)) {
		rc = kp_err_set(c->err, KP_ERROR, "--pod '%s': the file holds exactly one Pod or one workload (Deployment, "
				"StatefulSet, ReplicaSet, ReplicationController, Job, DaemonSet) and nothing else (it holds %ld "
				"pod%s, %ld workload%s and %ld other object%s)", op->file, pods, pods == 1 ? "" : "s", wls,
				wls == 1 ? "" : "s", others, others == 1 ? "" : "s");
	}
	spec sp;
	memset(&sp, 0, sizeof sp);
	if (!rc)
		rc = read_spec(c, op, m, wls, &sp);
	if (!rc)
		rc = copy_class(c, m, sp.class_id);
	if (!rc)
		rc = copy_volumes(c, op, m, wls != 0, &sp);
	if (!rc)
		rc = copy_claims(c, m, wls != 0, &sp);
	if (!rc)
		rc = wi_gang_spec(c, op, m, wls != 0, sp.id, sp.ns, &sp.gang);
	sqlite3_close(m);
	int64_t batch = 0;
	if (!rc && wi_query_int(c, kp_sql_whatif_add_pods_batch, 0, NULL, &batch))
		rc = c->err->code;
	if (!rc)
		rc = add_copies(c, op, &sp, batch);
	kp_free(sp.ns);
	kp_free(sp.base);
	kp_free(sp.labels);
	kp_free(sp.gang.group);
	wi_dra_free(&sp.claims);
	return rc;
}
