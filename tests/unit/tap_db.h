/*
 * tap_db.h — what the C unit tests that open a kplan database share.
 */
#ifndef KP_TAP_DB_H
#define KP_TAP_DB_H

#include <stdint.h>
#include <sqlite3.h>

/* the first column of the first row of sql, or -1 */
static inline int64_t tap_count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	int64_t n = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

#endif
