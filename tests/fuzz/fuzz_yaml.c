/*
 * fuzz_yaml.c — libFuzzer target for the YAML/JSON importer (ydom.c, k8s.c,
 * and the kp_import_* entry points they call).
 *
 * Each input is imported as "fuzz.yaml" into an in-memory kplan database;
 * inputs of odd length run with --skip-invalid (so the reader also goes on
 * past bad objects), even ones stop at the first.  One import per input:
 * kp_import_begin (prepared statements, BEGIN) dominates the cost of small
 * inputs.  The batch is never finished and kp_import_free rolls it back, so
 * every input starts from the same empty database.  Built by
 * scripts/fuzz.sh.
 */
#include "common/kp.h"
#include "common/db.h"
#include "importers/import.h"

#include <stdio.h>
#include <stdlib.h>

static sqlite3 *fuzz_db(void)
{
	static sqlite3 *db;
	if (!db) {
		kp_err err = { 0 };
		if (kp_db_open(":memory:", KP_DB_CREATE, &db, NULL, &err) != KP_OK) {
			fprintf(stderr, "fuzz_yaml: cannot open the database: %s\n", err.msg);
			abort();   /* setup failure, not a finding */
		}
	}
	return db;
}

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	import_once("fuzz.yaml", data, size, NULL, (int)(size & 1));
	return 0;
}
