/*
 * kube_db.h — the kube version and feature gates of a plan: the database's
 * settings (meta keys kube_version, feature_gates; `kplan settings`), then
 * the command line's --kube-version and --feature-gates (kube_db.c).
 */
#ifndef KP_KUBE_DB_H
#define KP_KUBE_DB_H

#include <sqlite3.h>
#include "kube.h"

#define KP_SETTING_KUBE_VERSION "kube_version"
#define KP_SETTING_FEATURE_GATES "feature_gates"

/* version: --kube-version (NULL: the database's setting, else the newest);
 * gates: --feature-gates (NULL: none), applied after the database's.  db may
 * be NULL (no settings); exact: version and gates are the whole answer (a
 * run replayed as it was recorded), the database's settings are not read.
 * Errors name where the bad value came from. */
int kp_kube_resolve(sqlite3 *db, const char *version, const char *gates, int exact, kp_kube *k, kp_err *err);
/* The version and gates run run_id was planned as (run.kube_version,
 * run.feature_gates) into version and gates: 1 when recorded, 0 when not
 * (a run from before them: version and gates left ""). */
int kp_kube_of_run(sqlite3 *db, int64_t run_id, char *version, size_t vsize, char *gates, size_t gsize);
/* Write one setting (value NULL: remove it), inside the caller's transaction. */
int kp_kube_store_setting(sqlite3 *db, const char *key, const char *value, kp_err *err);
/* One setting's stored text ("" when unset). */
int kp_kube_setting(sqlite3 *db, const char *key, char *buf, size_t size, kp_err *err);

#endif
