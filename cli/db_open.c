/*
 * db_open.c — how a command opens its database: common/db.c's kp_db_open,
 * then kplan's SQL functions (planner/udf.c) on the connection, as the
 * sqlite3 shell registers its built-in extensions right after opening.
 */
#include "cli.h"
#include "../common/db.h"
#include "../planner/udf.h"

int cli_db_open(const char *path, int flags, sqlite3 **db, int *created, kp_err *err)
{
	int made = 0;
	int rc = kp_db_open(path, flags, db, &made, err);
	if (created)
		*created = made;
	if (rc != KP_OK)
		return rc;
	if (kp_udf_register(*db) != SQLITE_OK) {
		kp_db_close(*db);
		*db = NULL;
		if (made)
			kp_db_remove_files(path);
		return kp_err_set(err, KP_NOMEM, "cannot register kplan SQL functions");
	}
	return KP_OK;
}
