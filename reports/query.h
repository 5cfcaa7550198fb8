/*
 * query.h — the result sets of `kplan query` (reports/query.c): the rows of
 * one statement read as text, and rendered as an aligned table, CSV, JSON or
 * Markdown.  The statements are the user's; cli/cmd_query.c prepares them
 * under the read-only guard and calls these:
 *
 *   kp_report_rows r = { 0 };
 *   if (kp_report_rows_read(db, stmt, &r, &err) == KP_OK)
 *           kp_report_rows_render(&r, KP_ROWS_CSV, 1, 1, &out);
 *   kp_report_rows_release(&r);
 */
#ifndef KP_REPORT_QUERY_H
#define KP_REPORT_QUERY_H

#include <sqlite3.h>
#include "../common/kp.h"

enum { KP_ROWS_TABLE, KP_ROWS_CSV, KP_ROWS_JSON, KP_ROWS_MARKDOWN };

typedef struct kp_report_rows {
	int ncols;
	char **names;        /* the column names */
	char **cells;        /* nrows * ncols: the text, NULL = SQL NULL, a blob as x'hex' */
	int *types;          /* SQLITE_INTEGER, ... per cell */
	size_t nrows, cap;
} kp_report_rows;

/* Step s to its end, keeping every row in r (zeroed by the caller).  KP_OK;
 * KP_BUSY or KP_ERROR with SQLite's message; KP_NOMEM.  r is the caller's to
 * release in any case. */
int kp_report_rows_read(sqlite3 *db, sqlite3_stmt *s, kp_report_rows *r, kp_err *err);
void kp_report_rows_release(kp_report_rows *r);

/* Append r in format fmt (KP_ROWS_*) to out; header 0 leaves out the header
 * row (table, csv, markdown); first 0 puts a blank line before a JSON array
 * (the second result set on).  KP_OK, or KP_NOMEM. */
int kp_report_rows_render(const kp_report_rows *r, int fmt, int header, int first, kp_sb *out);

#endif
