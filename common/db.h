/*
 * db.h — opening a kplan database: schema creation, version check, pragmas,
 * UDF registration, and transactions that report "busy" clearly.
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
	KP_DB_READONLY = 1,   /* open an existing database read-only */
	KP_DB_CREATE = 2,     /* create the file and schema when missing */
};

/* Open path.  A new (empty) file gets the schema; a database whose
 * user_version is newer than KP_SCHEMA_VERSION, or that is not a kplan
 * database, is refused.  *created is set to 1 when this call created the
 * file (may be NULL).  UDFs are registered on the connection. */
int kp_db_open(const char *path, int flags, sqlite3 **db, int *created, kp_err *err);
/* Remove PATH and its -wal, -shm and -journal files (a database this run created). */
void kp_db_remove_files(const char *path);
void kp_db_close(sqlite3 *db);

/* BEGIN IMMEDIATE with a bounded wait; KP_BUSY names the cause. */
int kp_db_begin(sqlite3 *db, kp_err *err);
int kp_db_commit(sqlite3 *db, kp_err *err);
void kp_db_rollback(sqlite3 *db);

/* The embedded schema (build/gen/schema_sql.c). */
extern const char kp_schema_sql[];

/* Run one section of schema.sql — the lines from "----...---- NAME" to
 * "-- end of NAME", CREATE ... IF NOT EXISTS — so that a database made
 * before the section existed gets its tables.  `what` names them in the
 * error ("cannot write the capacity tables: ...").  KP_OK or an error. */
int kp_db_schema_section(sqlite3 *db, const char *name, const char *what, kp_err *err);

/* Run one statement with parameters: fmt has a letter per parameter, 't'
 * (const char *; NULL binds NULL), 'i' (int64_t), 'n' (int64_t; INT64_MIN
 * binds NULL), 'd' (double); a letter past the statement's parameters binds
 * nothing.  KP_OK, or KP_INTR / KP_BUSY / KP_NOMEM / KP_IO with "WHAT: the
 * SQLite message" in err. */
int kp_db_exec(sqlite3 *db, kp_err *err, const char *what, const char *sql, const char *fmt, ...);

#endif
