/*
 * dra_cel_check.c — the DRA selectors an import brought, compiled with
 * kplan's CEL subset (common/cel.h, docs/cel.md) before the import commits:
 * an expression outside the subset, or not CEL at all, is refused with its
 * file, line and column and what is wrong, and the database stays as it was.
 */
#include "store_int.h"
#include "kp_queries.h"
#include "../common/cel.h"

#include <stdio.h>
#include <string.h>

int kp_import_check_cel(kp_import *imp, kp_err *err)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(imp->db, kp_sql_import_dra_cel_all, -1, &q, NULL) != SQLITE_OK)
		return KP_OK;   /* no DRA tables: nothing to check */
	int rc = KP_OK;
	while (rc == KP_OK && sqlite3_step(q) == SQLITE_ROW) {
		const char *kind = (const char *)sqlite3_column_text(q, 0), *ns = (const char *)sqlite3_column_text(q, 1),
			   *name = (const char *)sqlite3_column_text(q, 2), *path = (const char *)sqlite3_column_text(q, 3),
			   *src = (const char *)sqlite3_column_text(q, 4), *file = (const char *)sqlite3_column_text(q, 5);
		kp_cel *e = NULL;
		kp_cel_pos pos = { 1, 1 };
		char msg[400];
		if (kp_cel_compile(src ? src : "", &e, &pos, msg, sizeof msg) == KP_OK) {
			kp_cel_free(e);
			continue;
		}
		int line = sqlite3_column_int(q, 6), col = sqlite3_column_int(q, 7);
		/* the expression's position in the file, then the error's within it */
		if (pos.line > 1) {
			line += pos.line - 1 + sqlite3_column_int(q, 8);   /* a block scalar starts on the next line */
			col = col + pos.col - 1;
		} else {
			line += sqlite3_column_int(q, 8);
			col += pos.col - 1;
		}
		rc = kp_err_set(err, KP_PARSE, "%s:%d:%d: %s %s%s%s: %s: CEL: %s", file ? file : "?", line, col, kind ? kind : "?",
				ns ? ns : "", ns ? "/" : "", name ? name : "?", path ? path : "?", msg);
	}
	sqlite3_finalize(q);
	return rc;
}
