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
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	import_once("fuzz.yaml", data, size, NULL, (int)(size & 1));
	return 0;
}
