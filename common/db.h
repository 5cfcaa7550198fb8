/*
 * db.h — opening a kplan database: schema creation, version check, pragmas,
 * and transactions that report "busy" clearly.
 *
 *   sqlite3 *db;
 *   if (kp_db_open("cluster.db", KP_DB_CREATE, &db, &err) != KP_OK) ...
 *   kp_db_close(db);
 */
#ifndef KP_DB_H
#define KP_DB_H

#include <sqlite3.h>
#include "kp.h"

#define KP_SCHEMA_VERSION 1

enum {
	KP_DB_READONLY = 1,   /* open an existing database read-only (works on a
	                       * read-only file or mount: see kp_db_open) */
	KP_DB_CREATE = 2,     /* create the file and schema when missing */
};

/* Open path.  A new (empty) file gets the schema; a database whose
 * user_version is newer than KP_SCHEMA_VERSION, or that is not a kplan
 * database, is refused.  *created is set to 1 when this call created the
 * file (may be NULL).  kplan's SQL functions are not registered here: the
 * caller that opens the database for a command registers them
 * (kp_udf_register, planner/udf.h), as the sqlite3 shell does. */
int kp_db_open(const char *path, int flags, sqlite3 **db, int *created, kp_err *err);
/* Remove PATH and its -wal, -shm and -journal files (a database this run created). */
void kp_db_remove_files(const char *path);
/* Close.  A connection that may write first checkpoints the WAL into the
 * database file and truncates it (PRAGMA wal_checkpoint(TRUNCATE), without
 * waiting: readers are never blocked), then closes without SQLite's own
 * checkpoint on close, which holds an exclusive lock that makes a reader
 * without a busy timeout fail with "database is locked".  DB-wal (empty when
 * the checkpoint could finish) and DB-shm stay beside the database. */
void kp_db_close(sqlite3 *db);

/* Statements run on a user's behalf (SQL extenders, `kplan query`) run under
 * an authorizer that allows reading only.  KP_GUARD_READ: SELECT, reads and
 * functions, nothing else (no write to any schema, no transaction control,
 * no PRAGMA, no ATTACH).  KP_GUARD_QUERY: as READ, plus writes to the TEMP
 * schema, transactions and read-only PRAGMAs, for a read-only `kplan query`
 * (main is opened read-only anyway; ATTACH and DETACH stay refused).  A
 * refused statement fails to prepare (SQLITE_AUTH); g->denied then says what
 * it would have done ("delete from node_label").  g must outlive the guard. */
enum { KP_GUARD_READ = 1, KP_GUARD_QUERY = 2 };
typedef struct kp_db_guard {
	int mode;
	char denied[160];    /* the first refused action, "" when none */
} kp_db_guard;
void kp_db_guard_on(sqlite3 *db, kp_db_guard *g, int mode);
void kp_db_guard_off(sqlite3 *db);

/* BEGIN IMMEDIATE with a bounded wait; KP_BUSY names the cause. */
int kp_db_begin(sqlite3 *db, kp_err *err);
/* BEGIN DEFERRED: the reads that follow see one snapshot; no write lock */
int kp_db_begin_read(sqlite3 *db, kp_err *err);
int kp_db_commit(sqlite3 *db, kp_err *err);
void kp_db_rollback(sqlite3 *db);
/* 1 when db, opened to write, can be written: not a read-only file, mount or
 * directory (another writer holding the lock does not make it unwritable);
 * else 0.  Tries kp_db_begin and rolls it back. */
int kp_db_can_write(sqlite3 *db);

/* The embedded schema (build/gen/schema_sql.c). */
extern const char kp_schema_sql[];

/* Run one section of schema.sql — the lines from "----...---- NAME" to
 * "-- end of NAME", CREATE ... IF NOT EXISTS — so that a database made
 * before the section existed gets its tables.  `what` names them in the
 * error ("cannot write the capacity tables: ...").  KP_OK or an error. */
int kp_db_schema_section(sqlite3 *db, const char *name, const char *what, kp_err *err);

/* Add column `column` (declared `decl`) to `table` when the table lacks it:
 * a database made before the column existed gets it.  KP_OK or an error. */
int kp_db_add_column(sqlite3 *db, const char *table, const char *column, const char *decl, kp_err *err);

/* Run one statement with parameters: fmt has a letter per parameter, 't'
 * (const char *; NULL binds NULL), 'i' (int64_t), 'n' (int64_t; INT64_MIN
 * binds NULL), 'd' (double); a letter past the statement's parameters binds
 * nothing.  KP_OK, or KP_INTR / KP_BUSY / KP_NOMEM / KP_IO with "WHAT: the
 * SQLite message" in err. */
int kp_db_exec(sqlite3 *db, kp_err *err, const char *what, const char *sql, const char *fmt, ...);

#endif
