/*
 * kube_db.c — the kube version and feature gates a database is planned as
 * (kube.h): the settings kept in its meta table (`kplan settings`), then
 * what the command line says.
 */
#include "kube_db.h"
#include "db.h"

#include <string.h>

/* meta.value of key into buf ("" when absent); KP_OK or an error */
static int meta_get(sqlite3 *db, const char *key, char *buf, size_t size, kp_err *err)
{
	sqlite3_stmt *st;
	buf[0] = 0;
	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?1", -1, &st, NULL) != SQLITE_OK)
		return kp_err_set(err, KP_IO, "cannot read the settings: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return kp_err_set(err, KP_IO, "cannot read the settings: %s", sqlite3_errmsg(db));
	return KP_OK;
}

int kp_kube_setting(sqlite3 *db, const char *key, char *buf, size_t size, kp_err *err)
{
	return meta_get(db, key, buf, size, err);
}

int kp_kube_resolve(sqlite3 *db, const char *version, const char *gates, int exact, kp_kube *k, kp_err *err)
{
	char dbv[64], dbg[2048];
	if (db && exact)
		db = NULL;
	if (db && (meta_get(db, KP_SETTING_KUBE_VERSION, dbv, sizeof dbv, err) ||
		   meta_get(db, KP_SETTING_FEATURE_GATES, dbg, sizeof dbg, err)))
		return KP_IO;
	if (!db)
		dbv[0] = dbg[0] = 0;
	int minor = KP_KUBE_NEWEST;
	if (version) {
		if (kp_kube_parse_version(version, &minor, err))
			return KP_USAGE;
	} else if (dbv[0] && kp_kube_parse_version(dbv, &minor, err)) {
		kp_err_locate(err, NULL, 0, 0, "the database's kube-version setting (kplan settings)");
		return KP_USAGE;
	}
	kp_kube_init(k, minor);
	if (dbg[0] && kp_kube_set_gates(k, dbg, "the database's feature-gates setting (kplan settings)", err))
		return KP_USAGE;
	if (gates && kp_kube_set_gates(k, gates, "--feature-gates", err))
		return KP_USAGE;
	return KP_OK;
}

int kp_kube_of_run(sqlite3 *db, int64_t run_id, char *version, size_t vsize, char *gates, size_t gsize)
{
	sqlite3_stmt *st;
	version[0] = gates[0] = 0;
	/* a database from before the columns: its runs were planned as the newest */
	if (sqlite3_prepare_v2(db, "SELECT kube_version, feature_gates FROM run WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, run_id);
	int found = 0;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
		snprintf(version, vsize, "%s", (const char *)sqlite3_column_text(st, 0));
		if (sqlite3_column_text(st, 1))
			snprintf(gates, gsize, "%s", (const char *)sqlite3_column_text(st, 1));
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

int kp_kube_store_setting(sqlite3 *db, const char *key, const char *value, kp_err *err)
{
	return value ? kp_db_exec(db, err, "cannot write the setting",
				  "INSERT INTO meta(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
				  "tt", key, value)
		     : kp_db_exec(db, err, "cannot remove the setting", "DELETE FROM meta WHERE key = ?1", "t", key);
}
