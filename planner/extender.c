/*
 * extender.c — SQL extenders (see plugins/sql_extender.c and the README).
 *
 * Contract: kplan fills temp.kp_pending(pod_id) with the pending pods of the
 * profile; a FILTER extender returns rows (pod_id, node_id, reason) — each
 * pair it wants excluded, with the reason shown in messages; a SCORE
 * extender returns rows (pod_id, node_id, score) with score in 0..100 (pairs
 * it leaves out score 0).  Column names do not matter, their order does.
 * Rows naming unknown pods or nodes are ignored; a score outside 0..100 or a
 * SQL error stops the run with a message naming the extender.
 */
#include "extender.h"
#include "static.h"
#include "../common/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct row { int32_t pod, node, reason; int64_t score; } row;

static int cmp_row(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const row *x = a, *y = b;
	if (x->pod != y->pod)
		return x->pod < y->pod ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* past blanks and SQL comments */
static const char *skip_blank(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f')
			p++;
		if (p[0] == '-' && p[1] == '-') {
			while (*p && *p != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 2 : p + strlen(p);
		} else {
			return p;
		}
	}
}

/* The extender's one statement, which may only read (db.h's guard and
 * sqlite3_stmt_readonly both say so): a write, a PRAGMA, ATTACH or a
 * transaction statement is refused before it runs, and so is SQL after the
 * first statement (it would never run). */
static int prepare_one(sqlite3 *db, const struct kp_extender *x, kp_db_guard *g, sqlite3_stmt **out, kp_err *err)
{
	const char *tail = NULL;
	*out = NULL;
	if (sqlite3_prepare_v2(db, x->sql, -1, out, &tail) != SQLITE_OK) {
		if (g->denied[0])
			return kp_err_set(err, KP_ERROR, "SQL extender %s: extenders may only read the database; "
					  "this one would %s", x->origin, g->denied);
		return kp_err_set(err, KP_ERROR, "SQL extender %s: %s", x->origin, sqlite3_errmsg(db));
	}
	if (*out && !sqlite3_stmt_readonly(*out)) {
		sqlite3_finalize(*out);
		*out = NULL;
		return kp_err_set(err, KP_ERROR, "SQL extender %s: extenders may only read the database", x->origin);
	}
	/* what follows the first statement: blanks and comments only */
	const char *rest = tail;
	while (rest && *rest) {
		sqlite3_stmt *more = NULL;
		const char *next = NULL;
		int prc = sqlite3_prepare_v2(db, rest, -1, &more, &next);
		sqlite3_finalize(more);
		if (prc != SQLITE_OK || more || !next || next == rest)
			break;
		rest = next;
	}
	g->denied[0] = 0;
	if (rest && *rest) {
		rest = skip_blank(rest);
		int line = 1;
		for (const char *p = x->sql; p < rest; p++)
			line += *p == '\n';
		sqlite3_finalize(*out);
		*out = NULL;
		return kp_err_set(err, KP_ERROR, "SQL extender %s: one statement only; more SQL follows on line %d",
				  x->origin, line);
	}
	return KP_OK;
}

int kp_extenders_run(sqlite3 *db, kp_snap *s, const kp_profile *pf, const int32_t *pods, int n, kp_cycle *cy,
		     kp_err *err)
{
	int rc = KP_OK;
	kp_free(cy->ext_off);
	kp_free(cy->ext_rows);
	cy->ext_off = NULL;
	cy->ext_rows = NULL;
	if (!pf->next)
		return KP_OK;
	if (sqlite3_exec(db, "CREATE TEMP TABLE IF NOT EXISTS kp_pending(pod_id INTEGER PRIMARY KEY);"
			     "DELETE FROM temp.kp_pending;", NULL, NULL, NULL) != SQLITE_OK)
		return kp_err_set(err, KP_IO, "SQL extenders: %s", sqlite3_errmsg(db));
	sqlite3_stmt *ins;
	if (sqlite3_prepare_v2(db, "INSERT INTO temp.kp_pending(pod_id) VALUES(?1)", -1, &ins, NULL) != SQLITE_OK)
		return kp_err_set(err, KP_IO, "SQL extenders: %s", sqlite3_errmsg(db));
	for (int i = 0; i < n; i++) {
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, s->pods[pods[i]].db_id);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			sqlite3_finalize(ins);
			return kp_err_set(err, KP_IO, "SQL extenders: %s", sqlite3_errmsg(db));
		}
	}
	sqlite3_finalize(ins);
	row *rows = NULL;
	size_t nrows = 0, cap = 0;
	kp_db_guard guard;
	kp_db_guard_on(db, &guard, KP_GUARD_READ);
	for (int k = 0; k < pf->next && !rc; k++) {
		const struct kp_extender *x = &pf->ext[k];
		sqlite3_stmt *st;
		if ((rc = prepare_one(db, x, &guard, &st, err)))
			break;
		if (!st || sqlite3_column_count(st) < 3) {
			sqlite3_finalize(st);
			rc = kp_err_set(err, KP_ERROR, "SQL extender %s: must return (pod_id, node_id, %s)", x->origin,
					x->score ? "score" : "reason");
			break;
		}
		int step;
		while ((step = sqlite3_step(st)) == SQLITE_ROW) {
			int pi = kp_snap_pod_index(s, sqlite3_column_int64(st, 0));
			int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 1));
			if (pi < 0 || ni < 0)
				continue;
			if (nrows == cap) {
				cap = cap ? cap * 2 : 1024;
				row *v = kp_realloc(rows, cap * sizeof *v);
				if (!v) {
					rc = kp_err_set(err, KP_NOMEM, "out of memory");
					break;
				}
				rows = v;
			}
			row *r = &rows[nrows++];
			r->pod = pi;
			r->node = ni;
			r->reason = -1;
			r->score = 0;
			if (x->score) {
				int64_t v = sqlite3_column_int64(st, 2);
				if (sqlite3_column_type(st, 2) != SQLITE_INTEGER || v < 0 || v > 100) {
					rc = kp_err_set(err, KP_ERROR, "SQL extender %s: score for pod %lld node %lld must be an "
							"integer in 0..100, got '%s'", x->origin,
							(long long)sqlite3_column_int64(st, 0), (long long)sqlite3_column_int64(st, 1),
							sqlite3_column_text(st, 2) ? (const char *)sqlite3_column_text(st, 2) : "NULL");
					break;
				}
				r->score = v * x->weight;
			} else {
				const char *why = (const char *)sqlite3_column_text(st, 2);
				char msg[600];
				snprintf(msg, sizeof msg, "%s", why && *why ? why : "excluded by a SQL extender");
				r->reason = kp_reason_intern(s, kp_plugin_names[KP_P_SQL_EXTENDER], msg, 1);
				if (r->reason < 0) {
					rc = kp_err_set(err, KP_NOMEM, "out of memory");
					break;
				}
			}
		}
		if (!rc && step != SQLITE_DONE)
			rc = kp_err_set(err, KP_ERROR, "SQL extender %s: %s", x->origin, sqlite3_errmsg(db));
		sqlite3_finalize(st);
	}
	kp_db_guard_off(db);
	if (rc)
		goto out;
	/* sort and merge rows of the same pair: an exclusion wins, scores add up */
	kp_sort(rows, nrows, sizeof *rows, cmp_row, NULL);
	size_t m = 0;
	for (size_t i = 0; i < nrows; i++) {
		if (m && rows[m - 1].pod == rows[i].pod && rows[m - 1].node == rows[i].node) {
			if (rows[i].reason >= 0 && rows[m - 1].reason < 0)
				rows[m - 1].reason = rows[i].reason;
			rows[m - 1].score += rows[i].score;
			continue;
		}
		rows[m++] = rows[i];
	}
	cy->ext_off = kp_calloc((size_t)s->npods + 1, sizeof *cy->ext_off);
	cy->ext_rows = kp_malloc((m ? m : 1) * sizeof *cy->ext_rows);
	if (!cy->ext_off || !cy->ext_rows) {
		rc = kp_err_set(err, KP_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < m; i++) {
		cy->ext_rows[i] = (struct kp_ext_row){ rows[i].node, rows[i].reason, rows[i].score };
		cy->ext_off[rows[i].pod + 1]++;
	}
	for (int i = 0; i < s->npods; i++)
		cy->ext_off[i + 1] += cy->ext_off[i];
out:
	kp_free(rows);
	return rc;
}
