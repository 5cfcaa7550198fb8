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
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	import_once("fuzz.csv", data, size, (size & 1) ? "openb" : NULL, (int)((size >> 1) & 1));
	return 0;
}
