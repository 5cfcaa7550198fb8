/*
 * db.c — opening kplan databases (see db.h).
 */
#include "db.h"
#include "priority.h"

#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define BUSY_TIMEOUT_MS 10000
#define READONLY_FOR_USER "the file is read-only for this user (its permissions or attributes); kplan needs to " \
	"write it and, in its directory, its -wal and -shm files"

/* Wait up to BUSY_TIMEOUT_MS for another writer, 10 ms at a time, giving up at
 * once on Ctrl-C (sqlite3_busy_timeout would sleep through it). */
static int on_busy(void *ctx, int count)
{
	(void)ctx;
	if (kp_interrupted || count * 10 >= BUSY_TIMEOUT_MS)
		return 0;
	sqlite3_sleep(10);
	return 1;
}

/* what the operating system said, when it explains an SQLite failure better */
static const char *os_reason(sqlite3 *db)
{
	switch (db ? sqlite3_system_errno(db) : 0) {
	case ENOSPC: return "the disk is full (no space left on the device)";
	case EDQUOT: return "disk quota exceeded";
	case EFBIG: return "file size limit reached (ulimit -f)";
	case EROFS: return "the file system is read-only";
	case EACCES: case EPERM: return "permission denied";
	default: return NULL;
	}
}

/* 1 when path (or its directory, for a new file) is on a read-only file system */
static int on_readonly_fs(const char *path)
{
	struct statvfs sv;
	if (statvfs(path, &sv) == 0)
		return (sv.f_flag & ST_RDONLY) != 0;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof dir, ".");
	return statvfs(dir, &sv) == 0 && (sv.f_flag & ST_RDONLY);
}

static int fail(sqlite3 *db, kp_err *err, const char *path, const char *what)
{
	int rc = db ? sqlite3_errcode(db) : SQLITE_CANTOPEN;
	const char *why = os_reason(db);
	if (!why && (rc == SQLITE_CANTOPEN || rc == SQLITE_READONLY || rc == SQLITE_IOERR) && on_readonly_fs(path))
		why = "the file system is read-only (kplan needs to write the database and its WAL files)";
	if (!why && rc == SQLITE_READONLY)
		why = READONLY_FOR_USER;
	if (why)
		return kp_err_set(err, KP_IO, "%s '%s': %s", what, path, why);
	if (rc == SQLITE_FULL)
		return kp_err_set(err, KP_IO, "%s '%s': the disk is full", what, path);
	int code = rc == SQLITE_BUSY || rc == SQLITE_LOCKED ? KP_BUSY : KP_IO;
	if (rc == SQLITE_NOTADB)
		return kp_err_set(err, KP_IO, "'%s' is not a database", path);
	if (code == KP_BUSY)
		return kp_err_set(err, KP_BUSY, "database '%s' is busy (another kplan is writing to it); "
				  "waited %d s", path, BUSY_TIMEOUT_MS / 1000);
	return kp_err_set(err, code, "%s '%s': %s", what, path, db ? sqlite3_errmsg(db) : "out of memory");
}

/* SQLite opened PATH read-only although kplan asked to write (the file or
 * its file system is read-only): say so before the first write fails */
static int fail_readonly(kp_err *err, const char *path)
{
	if (on_readonly_fs(path))
		return kp_err_set(err, KP_IO, "cannot write database '%s': the file system is read-only", path);
	return kp_err_set(err, KP_IO, "cannot write database '%s': %s", path, READONLY_FOR_USER);
}

static int query_int(sqlite3 *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(s, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

void kp_db_remove_files(const char *path)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	char buf[4200];
	for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++) {
		snprintf(buf, sizeof buf, "%s%s", path, sfx[i]);
		unlink(buf);
	}
}

/* 1 when PATH-wal is missing or empty: the database file holds every commit */
static int wal_empty(const char *path)
{
	char buf[4200];
	struct stat st;
	snprintf(buf, sizeof buf, "%s-wal", path);
	return stat(buf, &st) != 0 || st.st_size == 0;
}

/* PATH as an SQLite URI with immutable=1 (file:///abs or file:rel, with %, ?
 * and # escaped) */
static void immutable_uri(const char *path, char *out, size_t n)
{
	size_t o = (size_t)snprintf(out, n, "%s", path[0] == '/' ? "file://" : "file:");
	for (const char *p = path; *p && o + 4 < n; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			o += (size_t)snprintf(out + o, n - o, "%%%02X", (unsigned char)*p);
		else
			out[o++] = *p;
	}
	snprintf(out + o, n - o, "?immutable=1");
}

static void setup(sqlite3 *db, int flags)
{
	sqlite3_busy_handler(db, on_busy, NULL);
	sqlite3_extended_result_codes(db, 0);
	/* the WAL is checkpointed by kp_db_close without blocking readers */
	if (!(flags & KP_DB_READONLY))
		sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
}

/* Read user_version and the table count.  A read-only open of a WAL database
 * whose -wal and -shm files are missing and cannot be created (a read-only
 * mount or directory) fails with CANTOPEN: when no -wal file holds commits,
 * the database file alone is the database, and it is read as immutable. */
static int read_header(sqlite3 **db, const char *path, int flags, int64_t *version, int64_t *tables)
{
	setup(*db, flags);
	int rc = query_int(*db, "PRAGMA user_version", version);
	if ((rc == SQLITE_CANTOPEN || rc == SQLITE_READONLY) && (flags & KP_DB_READONLY) && wal_empty(path)) {
		char uri[8500];
		immutable_uri(path, uri, sizeof uri);
		sqlite3 *im = NULL;
		if (sqlite3_open_v2(uri, &im, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
			sqlite3_close(im);
			return rc;
		}
		sqlite3_close(*db);
		*db = im;
		setup(im, flags);
		rc = query_int(im, "PRAGMA user_version", version);
	}
	if (rc == SQLITE_OK)
		rc = query_int(*db, "SELECT count(*) FROM sqlite_schema", tables);
	return rc;
}

/* close, and when this open created the file, remove it and its WAL files */
static void close_new(sqlite3 *db, const char *path, int made)
{
	sqlite3_close(db);
	if (made)
		kp_db_remove_files(path);
}

/* Bring the pod_priority view of a database an older kplan made up to date
 * (the built-in PriorityClasses, common/priority.h).  Best effort: when
 * another writer holds the lock or the file is read-only it stays as it was
 * (the planner resolves priorities without it). */
static void update_views(sqlite3 *db)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'view' AND name = 'pod_priority' "
			       "AND instr(sql, ?1) = 0", -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, KP_KNOWN_PRIORITY_CLASSES, -1, SQLITE_STATIC);
	int stale = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	const char *v = strstr(kp_schema_sql, "\nCREATE VIEW pod_priority AS"), *e = v ? strstr(v, ";\n") : NULL;
	if (!stale || !e)
		return;
	char *sql = sqlite3_mprintf("BEGIN IMMEDIATE; DROP VIEW pod_priority;%.*s; COMMIT", (int)(e - v), v);
	sqlite3_busy_handler(db, NULL, NULL);
	if (!sql || sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_busy_handler(db, on_busy, NULL);
	sqlite3_free(sql);
}

int kp_db_open(const char *path, int flags, sqlite3 **out, int *created, kp_err *err)
{
	sqlite3 *db = NULL;
	struct stat st;
	int existed = stat(path, &st) == 0;
	*out = NULL;
	if (created)
		*created = 0;
	if (existed && S_ISDIR(st.st_mode))
		return kp_err_set(err, KP_IO, "'%s' is a directory, not a database file", path);
	if (!existed && !(flags & KP_DB_CREATE))
		return kp_err_set(err, KP_IO, "no such database '%s' (create it with 'kplan init %s' or "
				  "'kplan import %s FILE...')", path, path, path);
	int oflags = (flags & KP_DB_READONLY) ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	if (sqlite3_open_v2(path, &db, oflags, NULL) != SQLITE_OK) {
		int rc = fail(db, err, path, "cannot open database");
		close_new(db, path, !existed);
		return rc;
	}
	if (!existed && created)
		*created = 1;
	int made = !existed;   /* this call created the file: a failure removes it again */
	int64_t version = 0, tables = 0;
	int rc = read_header(&db, path, flags, &version, &tables);
	if (rc != SQLITE_OK) {
		rc = fail(db, err, path, "cannot read database");
		close_new(db, path, made);
		return rc;
	}
	if (version > KP_SCHEMA_VERSION) {
		close_new(db, path, made);
		return kp_err_set(err, KP_IO, "database '%s' has schema version %lld, newer than this kplan "
				  "understands (%d): upgrade kplan", path, (long long)version, KP_SCHEMA_VERSION);
	}
	if (version == 0 && tables > 0) {
		close_new(db, path, made);
		return kp_err_set(err, KP_IO, "'%s' is an SQLite database but not a kplan database", path);
	}
	if (version == 0) {
		if (flags & KP_DB_READONLY) {
			close_new(db, path, made);
			return kp_err_set(err, KP_IO, "'%s' is empty, not a kplan database", path);
		}
		/* a new database: WAL first (it cannot change inside a transaction) */
		char *msg = NULL;
		if (sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, &msg) != SQLITE_OK ||
		    kp_db_begin(db, err) != KP_OK ||
		    sqlite3_exec(db, kp_schema_sql, NULL, NULL, &msg) != SQLITE_OK) {
			if (!err->code)
				kp_err_set(err, KP_IO, "cannot create the schema in '%s': %s", path,
					   msg ? msg : sqlite3_errmsg(db));
			sqlite3_free(msg);
			kp_db_rollback(db);
			close_new(db, path, made);
			return err->code;
		}
		char sql[160];
		snprintf(sql, sizeof sql,
			 "PRAGMA user_version=%d; INSERT INTO meta(key, value) VALUES('created_by', 'kplan %s');",
			 KP_SCHEMA_VERSION, KPLAN_VERSION);
		if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK || kp_db_commit(db, err) != KP_OK) {
			if (!err->code)
				kp_err_set(err, KP_IO, "cannot create the schema in '%s': %s", path, msg ? msg : "");
			sqlite3_free(msg);
			kp_db_rollback(db);
			close_new(db, path, made);
			return err->code;
		}
	}
	if (!(flags & KP_DB_READONLY)) {
		sqlite3_exec(db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
		update_views(db);
	}
	*out = db;
	return KP_OK;
}

void kp_db_close(sqlite3 *db)
{
	if (!db)
		return;
	if (sqlite3_db_readonly(db, "main") == 0) {
		/* no waiting: with a reader on an older snapshot the checkpoint
		 * does what it can and the rest waits for the next writer */
		sqlite3_busy_handler(db, NULL, NULL);
		sqlite3_exec(db, "PRAGMA main.wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
	}
	sqlite3_close(db);
}

int kp_db_begin(sqlite3 *db, kp_err *err)
{
	if (sqlite3_db_readonly(db, "main") == 1)
		return fail_readonly(err, sqlite3_db_filename(db, "main"));
	int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		return KP_OK;
	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return kp_err_set(err, KP_BUSY, "database is busy (another kplan is writing to it); waited %d s",
				  BUSY_TIMEOUT_MS / 1000);
	if (rc == SQLITE_READONLY)
		return kp_err_set(err, KP_IO, "database is read-only: %s", os_reason(db) ? os_reason(db) : sqlite3_errmsg(db));
	if (kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	const char *why = os_reason(db);
	return kp_err_set(err, KP_IO, "cannot start a transaction: %s", why ? why : sqlite3_errmsg(db));
}

int kp_db_begin_read(sqlite3 *db, kp_err *err)
{
	if (sqlite3_exec(db, "BEGIN DEFERRED", NULL, NULL, NULL) == SQLITE_OK)
		return KP_OK;
	if (kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	return kp_err_set(err, KP_IO, "cannot start a transaction: %s", sqlite3_errmsg(db));
}

int kp_db_commit(sqlite3 *db, kp_err *err)
{
	if (kp_interrupted) {
		kp_db_rollback(db);
		return kp_err_set(err, KP_INTR, "interrupted");
	}
	int rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		return KP_OK;
	int code = rc == SQLITE_BUSY ? KP_BUSY : KP_IO;
	const char *why = os_reason(db);
	kp_err_set(err, code, "cannot commit: %s", why ? why : rc == SQLITE_FULL ? "the disk is full" : sqlite3_errmsg(db));
	kp_db_rollback(db);
	return code;
}

void kp_db_rollback(sqlite3 *db)
{
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

int kp_db_can_write(sqlite3 *db)
{
	kp_err e = { 0 };
	int rc = kp_db_begin(db, &e);
	kp_db_rollback(db);
	return rc == KP_OK || rc == KP_BUSY;
}

int kp_db_schema_section(sqlite3 *db, const char *name, const char *what, kp_err *err)
{
	char begin[160], end[160];
	snprintf(begin, sizeof begin, "\n------------------------------------------------------------------ %s\n", name);
	snprintf(end, sizeof end, "\n-- end of %s\n", name);
	const char *b = strstr(kp_schema_sql, begin);
	const char *e = b ? strstr(b, end) : NULL;
	if (!e)
		return kp_err_set(err, KP_ERROR, "internal error: no %s section in the schema", name);
	char *ddl = kp_strndup(b, (size_t)(e - b));
	if (!ddl)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	int rc = sqlite3_exec(db, ddl, NULL, NULL, NULL);
	kp_free(ddl);
	if (rc != SQLITE_OK)
		return kp_err_set(err, kp_interrupted ? KP_INTR : KP_IO, "cannot write the %s: %s", what,
				  sqlite3_errmsg(db));
	return KP_OK;
}

int kp_db_add_column(sqlite3 *db, const char *table, const char *column, const char *decl, kp_err *err)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1, &st, NULL) != SQLITE_OK)
		return kp_err_set(err, KP_IO, "cannot read the schema: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
	int step = sqlite3_step(st);
	sqlite3_finalize(st);
	if (step == SQLITE_ROW)
		return KP_OK;
	char *alter = step == SQLITE_DONE ? sqlite3_mprintf("ALTER TABLE \"%w\" ADD COLUMN \"%w\" %s", table, column, decl)
					  : NULL;
	int rc = step != SQLITE_DONE || !alter || sqlite3_exec(db, alter, NULL, NULL, NULL) != SQLITE_OK;
	sqlite3_free(alter);
	if (rc)
		return kp_err_set(err, kp_interrupted ? KP_INTR : KP_IO, "cannot add column %s.%s: %s", table, column,
				  sqlite3_errmsg(db));
	return KP_OK;
}

int kp_db_exec(sqlite3 *db, kp_err *err, const char *what, const char *sql, const char *fmt, ...)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
	if (rc == SQLITE_OK) {
		va_list ap;
		va_start(ap, fmt);
		for (int i = 0; fmt[i]; i++) {
			if (fmt[i] == 't') {
				const char *v = va_arg(ap, const char *);
				if (v)
					sqlite3_bind_text(s, i + 1, v, -1, SQLITE_TRANSIENT);
			} else if (fmt[i] == 'd') {
				sqlite3_bind_double(s, i + 1, va_arg(ap, double));
			} else {
				int64_t v = va_arg(ap, int64_t);
				if (fmt[i] == 'i' || v != INT64_MIN)
					sqlite3_bind_int64(s, i + 1, v);
			}
		}
		va_end(ap);
		rc = sqlite3_step(s);
		sqlite3_finalize(s);
	}
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return KP_OK;
	if (kp_interrupted || rc == SQLITE_INTERRUPT)
		return kp_err_set(err, KP_INTR, "%s: interrupted", what);
	return kp_err_set(err, rc == SQLITE_BUSY ? KP_BUSY : rc == SQLITE_NOMEM ? KP_NOMEM : KP_IO, "%s: %s", what,
			  sqlite3_errmsg(db));
}

/* ---- statements run on a user's behalf ---- */

/* what an authorizer action would do, for the message */
static void describe(char *out, size_t n, int action, const char *a1, const char *a2, const char *dbn)
{
	const char *tbl = a1 ? a1 : "?";
	switch (action) {
	case SQLITE_INSERT: snprintf(out, n, "insert into %s", tbl); break;
	case SQLITE_UPDATE: snprintf(out, n, "update %s.%s", tbl, a2 ? a2 : "?"); break;
	case SQLITE_DELETE: snprintf(out, n, "delete from %s", tbl); break;
	case SQLITE_ATTACH: snprintf(out, n, "attach '%s'", a1 ? a1 : ""); break;
	case SQLITE_DETACH: snprintf(out, n, "detach %s", tbl); break;
	case SQLITE_PRAGMA: snprintf(out, n, "run PRAGMA %s%s%s", tbl, a2 ? "=" : "", a2 ? a2 : ""); break;
	case SQLITE_TRANSACTION:
		snprintf(out, n, "%s a transaction", !a1 ? "control" : !sqlite3_stricmp(a1, "BEGIN") ? "begin"
			 : !sqlite3_stricmp(a1, "COMMIT") ? "commit" : "roll back");
		break;
	case SQLITE_SAVEPOINT: snprintf(out, n, "use savepoint %s", a2 ? a2 : "?"); break;
	case SQLITE_CREATE_TABLE: case SQLITE_CREATE_TEMP_TABLE: snprintf(out, n, "create table %s", tbl); break;
	case SQLITE_CREATE_INDEX: case SQLITE_CREATE_TEMP_INDEX: snprintf(out, n, "create index %s", tbl); break;
	case SQLITE_CREATE_VIEW: case SQLITE_CREATE_TEMP_VIEW: snprintf(out, n, "create view %s", tbl); break;
	case SQLITE_CREATE_TRIGGER: case SQLITE_CREATE_TEMP_TRIGGER: snprintf(out, n, "create trigger %s", tbl); break;
	case SQLITE_CREATE_VTABLE: snprintf(out, n, "create virtual table %s", tbl); break;
	case SQLITE_DROP_TABLE: case SQLITE_DROP_TEMP_TABLE: snprintf(out, n, "drop table %s", tbl); break;
	case SQLITE_DROP_INDEX: case SQLITE_DROP_TEMP_INDEX: snprintf(out, n, "drop index %s", tbl); break;
	case SQLITE_DROP_VIEW: case SQLITE_DROP_TEMP_VIEW: snprintf(out, n, "drop view %s", tbl); break;
	case SQLITE_DROP_TRIGGER: case SQLITE_DROP_TEMP_TRIGGER: snprintf(out, n, "drop trigger %s", tbl); break;
	case SQLITE_DROP_VTABLE: snprintf(out, n, "drop virtual table %s", tbl); break;
	case SQLITE_ALTER_TABLE: snprintf(out, n, "alter table %s", a2 ? a2 : "?"); break;
	case SQLITE_REINDEX: snprintf(out, n, "reindex %s", tbl); break;
	case SQLITE_ANALYZE: snprintf(out, n, "analyze %s", tbl); break;
	default: snprintf(out, n, "change the database (action %d)", action); break;
	}
	if (dbn && strcmp(dbn, "main") && action != SQLITE_ATTACH && action != SQLITE_DETACH &&
	    action != SQLITE_TRANSACTION && action != SQLITE_SAVEPOINT && action != SQLITE_PRAGMA) {
		size_t l = strlen(out);
		snprintf(out + l, n - l, " (schema %s)", dbn);
	}
}

/* PRAGMAs that take an argument and only read */
static int reading_pragma(const char *name)
{
	static const char *const reads[] = {
		"table_info", "table_xinfo", "table_list", "index_info", "index_xinfo", "index_list",
		"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check", "function_list",
		"pragma_list", "module_list", "collation_list", "database_list", "compile_options", NULL,
	};
	for (int i = 0; name && reads[i]; i++)
		if (!sqlite3_stricmp(name, reads[i]))
			return 1;
	return 0;
}

static int authorize(void *ctx, int action, const char *a1, const char *a2, const char *dbn, const char *trig)
{
	kp_db_guard *g = ctx;
	(void)trig;
	switch (action) {
	case SQLITE_SELECT: case SQLITE_READ: case SQLITE_FUNCTION: case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_TRANSACTION: case SQLITE_SAVEPOINT:
		if (g->mode == KP_GUARD_QUERY)
			return SQLITE_OK;
		break;
	case SQLITE_PRAGMA:
		if (g->mode == KP_GUARD_QUERY && (!a2 || reading_pragma(a1)))
			return SQLITE_OK;
		break;
	case SQLITE_ATTACH: case SQLITE_DETACH:
		break;
	case SQLITE_UPDATE: case SQLITE_INSERT: case SQLITE_DELETE:
		/* the schema table: SQLite asks for UPDATE when a pragma
		 * table-valued function (a read) reads the schema, and for INSERT
		 * or DELETE before or after the CREATE or DROP it also asks for
		 * (refused then, by name); a statement that writes the schema
		 * table itself is refused by SQLite (PRAGMA writable_schema is
		 * refused here) */
		if (a1 && (!strcmp(a1, "sqlite_master") || !strcmp(a1, "sqlite_temp_master")))
			return SQLITE_OK;
		/* fall through */
	default:
		/* every other action writes: in TEMP only, and only for a query */
		if (g->mode == KP_GUARD_QUERY && dbn && !strcmp(dbn, "temp"))
			return SQLITE_OK;
		break;
	}
	if (!g->denied[0])
		describe(g->denied, sizeof g->denied, action, a1, a2, dbn);
	return SQLITE_DENY;
}

void kp_db_guard_on(sqlite3 *db, kp_db_guard *g, int mode)
{
	g->mode = mode;
	g->denied[0] = 0;
	sqlite3_set_authorizer(db, authorize, g);
}

void kp_db_guard_off(sqlite3 *db)
{
	sqlite3_set_authorizer(db, NULL, NULL);
}
