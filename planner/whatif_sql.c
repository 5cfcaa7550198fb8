/*
 * whatif_sql.c — how the what-if modules run their SQL (queries/whatif/,
 * embedded as kp_sql_whatif_*) and read files: statements with the two
 * parameters a scenario step needs, the statements prepared once per apply,
 * the error a failed statement becomes ("what-if: WHAT: sqlite's message",
 * or "interrupted"), and files read through the importer the caller supplied
 * (kp_whatif_set_importer: planner/ does not depend on importers/).
 */
#include "whatif_int.h"
#include "udf.h"
#include "../common/db.h"

#include <stdio.h>
#include <string.h>

/* the statements wi_stmt prepares once per kp_whatif_apply (whatif_tables.c,
 * whatif_add_nodes.c run them per added pod or node) */
static const char *const stmt_sql[WI_Q_COUNT] = {
	[WI_Q_POD_INS] = kp_sql_whatif_pod_insert,
	[WI_Q_POD_LABELS] = kp_sql_whatif_pod_labels_insert,
	[WI_Q_POD_LABEL] = kp_sql_whatif_pod_label_insert,
	[WI_Q_POD_REC] = kp_sql_whatif_pod_record_added,
	[WI_Q_NAME_USED] = kp_sql_whatif_pod_name_used,
	[WI_Q_NODE_USED] = kp_sql_whatif_add_nodes_name_used,
};

int wi_db_fail(wctx *c, const char *what)
{
	if (kp_interrupted || sqlite3_errcode(c->db) == SQLITE_INTERRUPT)
		return kp_err_set(c->err, KP_INTR, "interrupted");
	return kp_err_set(c->err, KP_IO, "what-if: %s: %s", what, sqlite3_errmsg(c->db));
}

sqlite3_stmt *wi_stmt(wctx *c, int i)
{
	if (!c->q[i] && sqlite3_prepare_v2(c->db, stmt_sql[i], -1, &c->q[i], NULL) != SQLITE_OK) {
		wi_db_fail(c, "preparing a statement");
		return NULL;
	}
	sqlite3_reset(c->q[i]);
	sqlite3_clear_bindings(c->q[i]);
	return c->q[i];
}

void wi_bind_opt_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* Run one statement with ?1 = a (integer) and ?2 = b (text, may be NULL):
 * *out = the first row's first column as an integer (0 when no row), and
 * *changes = rows changed (each may be NULL); `what` names it in errors. */
static int run2(wctx *c, const char *what, const char *sql, int64_t a, const char *b, int64_t *out, long *changes)
{
	sqlite3_stmt *s;
	if (out)
		*out = 0;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, what);
	if (sqlite3_bind_parameter_count(s) >= 1)
		sqlite3_bind_int64(s, 1, a);
	if (sqlite3_bind_parameter_count(s) >= 2)
		wi_bind_opt_text(s, 2, b);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && out)
		*out = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return wi_db_fail(c, what);
	if (changes)
		*changes = sqlite3_changes(c->db);
	return KP_OK;
}

int wi_exec(wctx *c, const char *sql, int64_t a, const char *b, long *changes)
{
	return run2(c, "building the scenario", sql, a, b, NULL, changes);
}

int wi_query_int(wctx *c, const char *sql, int64_t a, const char *b, int64_t *out)
{
	return run2(c, "reading the cluster", sql, a, b, out, NULL);
}

int wi_exec_all(wctx *c, const char *what, const char *sql)
{
	if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return wi_db_fail(c, what);
	return KP_OK;
}

int wi_add_names(wctx *c, kp_sb *sb, const char *sql, int64_t a)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "reading the cluster");
	sqlite3_bind_int64(s, 1, a);
	int n = 0, rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n < 5)
			kp_sb_printf(sb, "%s%s", n ? ", " : "", (const char *)sqlite3_column_text(s, 0));
		n++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return wi_db_fail(c, "reading the cluster");
	if (n > 5)
		kp_sb_printf(sb, ", ... (%d)", n);
	return KP_OK;
}

/* Import FILE with the importer itself (every check and message of `kplan
 * import`, through the caller's importer) into a new database in memory. */
int wi_import(wctx *c, const char *file, const char *option, const char *shown, sqlite3 **out, kp_whatif_counts *n)
{
	const kp_whatif_importer *imp = c->w->importer;
	sqlite3 *m = NULL;
	kp_err ierr = { 0 };
	memset(n, 0, sizeof *n);
	*out = NULL;
	if (!imp || !imp->import)   /* a library caller that did not say how to read files */
		return kp_err_set(c->err, KP_ERROR, "%s '%s': internal error: no importer to read the file with "
				  "(kp_whatif_set_importer)", option, shown);
	if (sqlite3_open_v2(":memory:", &m, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK ||
	    sqlite3_exec(m, kp_schema_sql, NULL, NULL, NULL) != SQLITE_OK || kp_udf_register(m) != SQLITE_OK) {
		sqlite3_close(m);
		return kp_err_set(c->err, KP_NOMEM, "%s: cannot make a database in memory", option);
	}
	*out = m;
	int irc = imp->import(m, file, n, &ierr);
	if (!irc && !ierr.code)
		return KP_OK;
	if (!ierr.code)
		kp_err_set(&ierr, irc, "internal error: the importer failed without a message");
	char buf[2048];
	return kp_err_set(c->err, ierr.code == KP_NOMEM || ierr.code == KP_INTR ? ierr.code : KP_ERROR, "%s '%s': %s",
			  option, shown, kp_err_format(&ierr, buf, sizeof buf));
}

