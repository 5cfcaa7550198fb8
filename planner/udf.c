/*
 * udf.c — kplan's SQL functions, one table, one registration function shared
 * by the CLI (compiled with -DSQLITE_CORE) and the loadable extension
 * build/kplan.so (compiled without it; entry point sqlite3_kplan_init).
 *
 *   sqlite> .load build/kplan
 *   sqlite> SELECT kplan_quantity('1.5Gi'), kplan_quantity('250m', 'cpu');
 *   1610612736|250
 *
 * Every function is DETERMINISTIC and INNOCUOUS; given NULL it returns NULL,
 * given a value it cannot use it raises an SQL error — never a crash.
 */
#include "udf.h"
#ifndef SQLITE_CORE
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#endif

#include <stdio.h>
#include <string.h>
#include "../common/kp.h"
#include "../importers/quantity.h"

/* kplan_quantity(text [, resource]) -> integer in kplan's units:
 * millicores when resource is 'cpu', else the base unit (bytes, counts). */
static void fn_quantity(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL || (argc > 1 && sqlite3_value_type(argv[1]) == SQLITE_NULL))
		return;
	const char *text = (const char *)sqlite3_value_text(argv[0]);
	int milli = argc > 1 && kp_resource_is_milli((const char *)sqlite3_value_text(argv[1]));
	if (!text) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	kp_err err = { 0 };
	int64_t v;
	if (kp_quantity_parse(text, milli, &v, &err) != KP_OK) {
		char msg[1200];
		snprintf(msg, sizeof msg, "kplan_quantity: %s", err.msg);
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	sqlite3_result_int64(ctx, v);
}

static void fn_version(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_text(ctx, KPLAN_VERSION, -1, SQLITE_STATIC);
}

static const struct {
	const char *name;
	int nargs;
	void (*fn)(sqlite3_context *, int, sqlite3_value **);
} functions[] = {
	{ "kplan_quantity", 1, fn_quantity },
	{ "kplan_quantity", 2, fn_quantity },
	{ "kplan_version", 0, fn_version },
};

int kp_udf_register(sqlite3 *db)
{
	for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
		int rc = sqlite3_create_function(db, functions[i].name, functions[i].nargs,
						 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
						 functions[i].fn, NULL, NULL);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

#ifndef SQLITE_CORE
#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_kplan_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi)
{
	SQLITE_EXTENSION_INIT2(pApi);
	(void)pzErrMsg;
	return kp_udf_register(db);
}
#endif
