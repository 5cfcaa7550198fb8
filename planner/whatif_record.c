/*
 * whatif_record.c — what a scenario was, after the run (whatif.h):
 * kp_whatif_record writes run_scenario (one row per option: what it did and
 * what the run made of it), run_node and run_pod (the nodes and pods that
 * exist only in the scenario, or that it changed) and run.mode, in the run's
 * transaction; kp_whatif_print gives the CLI its lines and warnings.
 *
 * Databases made before schema.sql's what-if section get it here (the
 * section's CREATE TABLE IF NOT EXISTS, and the plan views that name
 * scenario objects).
 */
#include "whatif_int.h"
#include "../common/db.h"

#include <stdio.h>
#include <string.h>

/* Run schema.sql's what-if section (CREATE TABLE IF NOT EXISTS ...) and bring
 * the views that name scenario objects up to date: databases made before
 * the section existed get it here. */
static int ensure_schema(wctx *c)
{
	if (kp_db_schema_section(c->db, "what-if", "what-if tables", c->err))
		return c->err->code;
	static const char *const views[] = { "plan_all", "unschedulable" };
	for (size_t i = 0; i < sizeof views / sizeof *views; i++) {
		int64_t current;
		if (wi_query_int(c, kp_sql_whatif_record_view_current, 0, views[i], &current))
			return c->err->code;
		if (current)
			continue;
		char head[64];
		snprintf(head, sizeof head, "\nCREATE VIEW %s AS", views[i]);
		const char *v = strstr(kp_schema_sql, head), *e = v ? strstr(v, ";\n") : NULL;
		if (!v || !e)
			return kp_err_set(c->err, KP_ERROR, "internal error: no view %s in the schema", views[i]);
		kp_sb sql;
		kp_sb_init(&sql);
		kp_sb_printf(&sql, "DROP VIEW IF EXISTS main.%s;%.*s;", views[i], (int)(e - v), v);
		int rc = kp_sb_ok(&sql) ? sqlite3_exec(c->db, kp_sb_str(&sql), NULL, NULL, NULL) : SQLITE_NOMEM;
		kp_sb_release(&sql);
		if (rc != SQLITE_OK)
			return wi_db_fail(c, "updating the plan views");
	}
	return KP_OK;
}

/* "3 move, 1 unschedulable": the run's actions for the pods a query lists (?1 run, ?2 seq) */
static int add_actions(wctx *c, kp_sb *sb, const char *sql, int64_t run, int seq)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "reading the run");
	sqlite3_bind_int64(s, 1, run);
	sqlite3_bind_int(s, 2, seq);
	int n = 0, rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		kp_sb_printf(sb, "%s%lld %s", n++ ? ", " : "", (long long)sqlite3_column_int64(s, 1),
			     (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return wi_db_fail(c, "reading the run");
	if (!n)
		kp_sb_adds(sb, "none");
	return KP_OK;
}

/* "N pods placed on the added node(s)" */
static int added_nodes_result(wctx *c, wi_op *op, int64_t run)
{
	kp_sb *r = &op->result;
	int64_t pods, used;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_record_added_nodes, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "reading the run");
	sqlite3_bind_int64(s, 1, run);
	sqlite3_bind_int(s, 2, op->seq);
	int step = sqlite3_step(s);
	pods = step == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	used = step == SQLITE_ROW ? sqlite3_column_int64(s, 1) : 0;
	sqlite3_finalize(s);
	if (step != SQLITE_ROW)
		return wi_db_fail(c, "reading the run");
	if (op->nodes == 1)
		kp_sb_printf(r, "%lld pod%s placed on the added node", (long long)pods, pods == 1 ? "" : "s");
	else
		kp_sb_printf(r, "%lld pod%s placed on %lld of the %ld added nodes", (long long)pods, pods == 1 ? "" : "s",
			     (long long)used, (long)op->nodes);
	return KP_OK;
}

/* op->result: what the run made of the option */
static int results(wctx *c, wi_op *op, int64_t run)
{
	kp_sb *r = &op->result;
	if (op->pending) {
		kp_sb_adds(r, "pods made pending: ");
		if (add_actions(c, r, kp_sql_whatif_record_moved_actions, run, op->seq))
			return c->err->code;
	}
	if (op->kind == WI_ADD && added_nodes_result(c, op, run))
		return c->err->code;
	if ((op->kind == WI_SCALE || op->kind == WI_ADD_PODS) && op->added) {
		kp_sb_adds(r, "replicas added: ");
		if (add_actions(c, r, kp_sql_whatif_record_added_pods, run, op->seq))
			return c->err->code;
	}
	return kp_sb_ok(r) ? KP_OK : kp_err_set(c->err, KP_NOMEM, "out of memory");
}

/* one run_scenario row per option */
static int record_options(wctx *c, int64_t run_id)
{
	kp_whatif *w = c->w;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_record_scenario, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "recording the scenario");
	int rc = KP_OK;
	for (int i = 0; i < w->nops && !rc; i++) {
		wi_op *op = &w->ops[i];
		if (w->tables && (rc = results(c, op, run_id)))
			break;
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, run_id);
		sqlite3_bind_int(s, 2, op->seq);
		sqlite3_bind_text(s, 3, wi_kind_names[op->kind], -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, op->value, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 5, op->nodes);
		sqlite3_bind_int64(s, 6, op->pending);
		sqlite3_bind_int64(s, 7, op->added);
		sqlite3_bind_int64(s, 8, op->removed);
		sqlite3_bind_text(s, 9, kp_sb_str(&op->effect), -1, SQLITE_STATIC);
		if (op->result.len)
			sqlite3_bind_text(s, 10, kp_sb_str(&op->result), -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(s, 10);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = wi_db_fail(c, "recording the scenario");
	}
	sqlite3_finalize(s);
	return rc;
}

int kp_whatif_record(sqlite3 *db, kp_whatif *w, int64_t run_id, kp_err *err)
{
	if (kp_whatif_empty(w))
		return KP_OK;
	wctx c = { db, w, err, { NULL } };
	if (ensure_schema(&c) || record_options(&c, run_id))
		return err->code;
	if (w->tables && (wi_exec(&c, kp_sql_whatif_record_run_node, run_id, NULL, NULL) ||
			  wi_exec(&c, kp_sql_whatif_record_run_pod, run_id, NULL, NULL)))
		return err->code;
	for (int i = 0; i < w->nops; i++)
		if (w->ops[i].kind == WI_MODE && wi_exec(&c, kp_sql_whatif_record_mode_full, run_id, NULL, NULL))
			return err->code;
	return KP_OK;
}

void kp_whatif_print(const kp_whatif *w, FILE *out, FILE *warn)
{
	if (kp_whatif_empty(w))
		return;
	for (int i = 0; i < w->nops; i++) {
		const wi_op *op = &w->ops[i];
		if (warn && op->nothing_selected)
			fprintf(warn, "kplan: warning: --%s '%s' selects no node%s\n", wi_kind_names[op->kind], op->value,
				op->node ? " (it is removed by --remove-nodes)" : "");
		if (out)
			fprintf(out, "what-if --%s %s: %s%s%s\n", wi_kind_names[op->kind], op->value, kp_sb_str(&op->effect),
				op->result.len ? "; " : "", kp_sb_str(&op->result));
	}
}
