/*
 * fuzz_import.h — what the importer targets (fuzz_yaml.c, fuzz_csv.c) share:
 * one in-memory kplan database for the whole run, and one import per input
 * whose batch is never finished, so kp_import_free rolls it back and every
 * input starts from the same empty database.
 */
#ifndef KP_FUZZ_IMPORT_H
#define KP_FUZZ_IMPORT_H

#include "common/kp.h"
#include "common/db.h"
#include "planner/udf.h"
#include "importers/import.h"

#include <stdio.h>
#include <stdlib.h>

static sqlite3 *fuzz_db(void)
{
	static sqlite3 *db;
	if (!db) {
		kp_err err = { 0 };
		if (kp_db_open(":memory:", KP_DB_CREATE, &db, NULL, &err) != KP_OK || kp_udf_register(db) != SQLITE_OK) {
			fprintf(stderr, "fuzz: cannot open the database: %s\n", err.msg);
			abort();   /* setup failure, not a finding */
		}
	}
	return db;
}

/* import data as file NAME (format NULL: by name/content), then roll back */
static void import_once(const char *name, const uint8_t *data, size_t size, const char *format, int skip)
{
	kp_import_opts opts = { 0 };
	kp_import *imp = NULL;
	kp_err err = { 0 };
	opts.skip_invalid = skip;
	opts.format = format;
	if (kp_import_begin(fuzz_db(), &opts, &imp, &err) != KP_OK) {
		fprintf(stderr, "fuzz: kp_import_begin: %s\n", err.msg);
		abort();
	}
	kp_import_buffer(imp, name, (const char *)data, size, &err);
	kp_import_free(imp);
}

#endif
