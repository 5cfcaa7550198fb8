/*
 * fuzz_csv.c — libFuzzer target for the CSV reader (csv.c, libcsv, and the
 * kp_import_* entry points it calls).
 *
 * Each input is imported as "fuzz.csv" into an in-memory kplan database
 * whose batch is rolled back (kp_import_free without kp_import_finish).  The
 * input's length picks the mode, one import per input (kp_import_begin
 * dominates the cost of small inputs): bit 0 set = --format openb, else the
 * format the header row names; bit 1 set = --skip-invalid.  Built by
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
			fprintf(stderr, "fuzz_csv: cannot open the database: %s\n", err.msg);
			abort();   /* setup failure, not a finding */
		}
	}
	return db;
}

static void import_once(const uint8_t *data, size_t size, const char *format, int skip)
{
	kp_import_opts opts = { 0 };
	kp_import *imp = NULL;
	kp_err err = { 0 };
	opts.skip_invalid = skip;
	opts.format = format;
	if (kp_import_begin(fuzz_db(), &opts, &imp, &err) != KP_OK) {
		fprintf(stderr, "fuzz_csv: kp_import_begin: %s\n", err.msg);
		abort();
	}
	kp_import_buffer(imp, "fuzz.csv", (const char *)data, size, &err);
	kp_import_free(imp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	import_once(data, size, (size & 1) ? "openb" : NULL, (int)((size >> 1) & 1));
	return 0;
}
