/*
 * whatif_tables.c — the tables a scenario lives in (whatif.h): TEMP copies of
 * the node and pod tables (and, on demand, of class tables) that shadow the
 * imported ones for the run's connection, the scenario's own TEMP tables
 * (kp_whatif_moved, _node, _pod, _sel, _dsfail), kp_whatif_cleanup, the
 * copies of the volume and claim tables (--scale, add-pods), and adding a
 * pending pod that exists only in the scenario.
 *
 * Contract: the main schema is only read (a read-only database works); every
 * DROP is schema-qualified; scenario objects get negative ids (WI_ID_BASE).
 */
#include "whatif_int.h"
#include "../common/db.h"

#include <stdio.h>
#include <string.h>

static const char *const shadowed[] = { "node", "node_resource", "node_label", "node_taint", "node_image", "pod",
					"pod_label" };

void kp_whatif_cleanup(sqlite3 *db)
{
	sqlite3_exec(db, kp_sql_whatif_tables_drop, NULL, NULL, NULL);
}

/* main.T's definition (and its indexes') made TEMP: how each kind of DDL
 * sqlite_schema holds is rewritten */
static const struct { const char *from, *to; } temp_ddl[] = {
	{ "CREATE TABLE ", "CREATE TEMP TABLE " },
	{ "CREATE INDEX ", "CREATE INDEX temp." },
	{ "CREATE UNIQUE INDEX ", "CREATE UNIQUE INDEX temp." },
};

/* CREATE TEMP TABLE T with main.T's own definition and indexes, and its rows */
int wi_shadow(wctx *c, const char *table)
{
	sqlite3_stmt *s;
	int rc = KP_OK;
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_tables_schema, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "reading the schema");
	sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
	int tables = 0;
	while (!rc && sqlite3_step(s) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(s, 0), *sql = (const char *)sqlite3_column_text(s, 1);
		size_t k = 0;
		/* the first rule is for tables only */
		while (k < sizeof temp_ddl / sizeof *temp_ddl &&
		       (strncmp(sql, temp_ddl[k].from, strlen(temp_ddl[k].from)) || (k == 0 && strcmp(type, "table"))))
			k++;
		if (k == sizeof temp_ddl / sizeof *temp_ddl)
			continue;
		tables += k == 0;
		kp_sb ddl;
		kp_sb_init(&ddl);
		kp_sb_printf(&ddl, "%s%s", temp_ddl[k].to, sql + strlen(temp_ddl[k].from));
		if (!kp_sb_ok(&ddl))
			rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
		else if (sqlite3_exec(c->db, kp_sb_str(&ddl), NULL, NULL, NULL) != SQLITE_OK)
			rc = wi_db_fail(c, "copying the cluster");
		kp_sb_release(&ddl);
	}
	sqlite3_finalize(s);
	if (rc)
		return rc;
	if (tables != 1)
		return kp_err_set(c->err, KP_IO, "what-if: the database has no table '%s'", table);
	char sql[128];
	snprintf(sql, sizeof sql, "INSERT INTO temp.%s SELECT * FROM main.%s", table, table);
	if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return wi_db_fail(c, "copying the cluster");
	return KP_OK;
}

int wi_shadow_once(wctx *c, const char *table)
{
	int64_t have = 0;
	if (wi_query_int(c, kp_sql_whatif_tables_temp_exists, 0, table, &have))
		return c->err->code;
	return !have && wi_shadow(c, table) ? c->err->code : KP_OK;
}

int wi_storage_known(wctx *c, int *known)
{
	int64_t n = 0;
	*known = 0;
	if (wi_query_int(c, kp_sql_whatif_tables_storage_known, 0, NULL, &n))
		return c->err->code;
	*known = n == 4;
	return KP_OK;
}

int wi_storage_shadow(wctx *c)
{
	static const char *const tables[] = { "pod_volume", "pvc", "workload_volume", "workload_claim_template" };
	static const char *const cols[][3] = {
		{ "pod_volume", "monitors", "TEXT" },
		{ "workload_volume", "monitors", "TEXT" },
		{ "workload_claim_template", "attributes_class", "TEXT" },
		{ "pvc", "bind_completed", "INTEGER NOT NULL DEFAULT 0" },
		{ "pvc", "attributes_class", "TEXT" },
	};
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		if (wi_shadow_once(c, tables[i]))
			return c->err->code;
	for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
		if (kp_db_add_column(c->db, cols[i][0], cols[i][1], cols[i][2], c->err))
			return c->err->code;
	return KP_OK;
}

int wi_make_tables(wctx *c)
{
	kp_whatif_cleanup(c->db);
	for (size_t i = 0; i < sizeof shadowed / sizeof *shadowed; i++)
		if (wi_shadow(c, shadowed[i]))
			return c->err->code;
	return wi_exec_all(c, "creating the scenario tables", kp_sql_whatif_tables_scenario);
}

/* ---- adding pods ---- */

/* the creationTimestamp of added pods: just after the newest pod or workload */
static int created_now(wctx *c)
{
	kp_whatif *w = c->w;
	if (w->have_created)
		return KP_OK;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_pod_created, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "reading the cluster");
	w->created = INT64_MIN;
	if (sqlite3_step(s) == SQLITE_ROW) {
		for (int i = 0; i < 3; i++)
			if (sqlite3_column_type(s, i) != SQLITE_NULL) {
				w->created = sqlite3_column_int64(s, i) + 1;
				break;
			}
	}
	sqlite3_finalize(s);
	w->have_created = 1;
	return KP_OK;
}

/* its labels: the template's (a JSON object) and the controller's (extra) */
static int add_labels(wctx *c, int64_t id, const wi_pod *p)
{
	sqlite3_stmt *s;
	if (p->labels) {
		if (!(s = wi_stmt(c, WI_Q_POD_LABELS)))
			return c->err->code;
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, p->labels, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s) != SQLITE_DONE)
			return wi_db_fail(c, "adding a pod");
	}
	for (int k = 0; k + 1 < p->nextra; k += 2) {
		if (!(s = wi_stmt(c, WI_Q_POD_LABEL)))
			return c->err->code;
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, p->extra[k], -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, p->extra[k + 1], -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s) != SQLITE_DONE)
			return wi_db_fail(c, "adding a pod");
	}
	return KP_OK;
}

int wi_add_pod(wctx *c, wi_op *op, const wi_pod *p)
{
	if (created_now(c))
		return c->err->code;
	int64_t id = WI_ID_BASE + ++c->w->pods_made;
	sqlite3_stmt *s = wi_stmt(c, WI_Q_POD_INS);
	if (!s)
		return c->err->code;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, p->ns, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, p->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 4, p->class_id);
	if (c->w->created != INT64_MIN)
		sqlite3_bind_int64(s, 5, c->w->created);
	wi_bind_opt_text(s, 6, p->owner_kind);
	wi_bind_opt_text(s, 7, p->owner_name);
	wi_bind_opt_text(s, 8, p->owner_uid);
	if (p->workload_id)
		sqlite3_bind_int64(s, 9, p->workload_id);
	wi_bind_opt_text(s, 10, p->daemon_node);
	sqlite3_bind_int64(s, 11, p->batch);
	if (sqlite3_step(s) != SQLITE_DONE)
		return wi_db_fail(c, "adding a pod");
	if (add_labels(c, id, p))
		return c->err->code;
	if (!(s = wi_stmt(c, WI_Q_POD_REC)))
		return c->err->code;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, p->ns, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, p->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 4, p->class_id);
	if (p->workload_id)
		sqlite3_bind_int64(s, 5, p->workload_id);
	wi_bind_opt_text(s, 6, p->daemon_node);
	sqlite3_bind_int(s, 7, op->seq);
	if (sqlite3_step(s) != SQLITE_DONE)
		return wi_db_fail(c, "adding a pod");
	return KP_OK;
}

int wi_pod_name_used(wctx *c, const char *ns, const char *name)
{
	sqlite3_stmt *s = wi_stmt(c, WI_Q_NAME_USED);
	if (!s)
		return c->err->code;
	sqlite3_bind_text(s, 1, ns, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, name, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : wi_db_fail(c, "reading pods");
}
