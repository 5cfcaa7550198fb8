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
 */
#include "whatif_int.h"

#include <stdio.h>
#include <string.h>

/* the class tables, pod_class first (keyed by id, the others by class_id) */
static const char *const class_tables[] = { "pod_class", "class_request", "class_container", "class_node_selector",
					    "class_toleration", "class_node_term", "class_node_expr", "class_pod_affinity",
					    "class_spread", "class_port" };

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
	for (size_t t = 0; t < sizeof class_tables / sizeof *class_tables && !rc; t++)
		if (!(rc = wi_shadow_once(c, class_tables[t])))
			rc = copy_class_rows(c, m, t, class_id);
	return rc;
}

/* the spec in the file: the workload's pod template (as written), else the pod's */
typedef struct spec {
	char *ns, *base, *labels;
	int64_t class_id;
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
		if (!sp->ns || !sp->base || !sp->labels)
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
	} else {
		rc = kp_err_set(c->err, KP_ERROR, "--pod '%s': the workload has no pod template", op->file);
	}
	sqlite3_finalize(s);
	return rc;
}

/* op->count pending copies of the spec, NAME-capacity-N */
static int add_copies(wctx *c, wi_op *op, const spec *sp, int64_t batch)
{
	int rc = KP_OK;
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
		if (made < 5)
			kp_sb_printf(&names, "%s%s", made ? ", " : "", name);
		made++;
		op->added = made;
	}
	if (!rc)
		kp_sb_printf(&op->effect, "%ld pending cop%s of %s/%s added (%s%s)", op->added, op->added == 1 ? "y" : "ies",
			     sp->ns, sp->base, kp_sb_str(&names), op->added > 5 ? ", ..." : "");
	kp_sb_release(&names);
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
	spec sp = { NULL, NULL, NULL, 0 };
	if (!rc)
		rc = read_spec(c, op, m, wls, &sp);
	if (!rc)
		rc = copy_class(c, m, sp.class_id);
	sqlite3_close(m);
	int64_t batch = 0;
	if (!rc && wi_query_int(c, kp_sql_whatif_add_pods_batch, 0, NULL, &batch))
		rc = c->err->code;
	if (!rc)
		rc = add_copies(c, op, &sp, batch);
	kp_free(sp.ns);
	kp_free(sp.base);
	kp_free(sp.labels);
	return rc;
}
