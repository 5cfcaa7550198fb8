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
 *
 * First the duplicate-key oracle (fuzz_keys.h): ydom's walk over the input
 * must flag an object exactly when libyaml's events, read another way, show
 * a mapping with two equal keys, and the objects it does not flag must hold
 * none.  Then the JSON oracle: an input that starts like JSON must read the
 * same — every object, node by node, and the result — through the JSON fast
 * path (common/ydom_json.c) and through libyaml.
 */
#include "fuzz_import.h"
#include "fuzz_keys.h"
#include "../unit/ydom_dump.h"

typedef struct seen { int flagged; } seen;

static int on_obj(void *ctx, kp_ynode *obj, const kp_yobj_info *info, kp_err *err)
{
	seen *s = ctx;
	long budget = 200000;
	(void)err;
	if (info->dup) {
		if (!info->dup_first || info->dup->n != info->dup_first->n ||
		    memcmp(info->dup->u.str, info->dup_first->u.str, info->dup->n))
			keys_fail("a flagged pair of keys that differ");
		s->flagged = 1;
	} else if (!keys_tree_ok(obj, &budget)) {
		keys_fail("an unflagged object holds two equal keys");
	}
	return KP_OK;
}

static void keys_oracle(const uint8_t *data, size_t size)
{
	kp_arena a;
	kp_err err = { 0 };
	seen s = { 0 };
	kp_arena_init(&a, 16 * 1024);
	int rc = kp_yaml_each_object((const char *)data, size, "fuzz.yaml", &a, on_obj, &s, &err);
	kp_arena_release(&a);
	int scan = rc == KP_OK || keys_is_dup_error(&err) ? keys_scan(data, size, 0) : -1;
	if (scan < 0)
		return;
	if (rc == KP_OK && s.flagged != scan)
		keys_fail(scan ? "libyaml's events repeat a key ydom did not flag" : "ydom flagged a key not repeated");
	if (rc != KP_OK && !scan)
		keys_fail("a duplicate-key error without a repeated key");
}

static void json_oracle(const uint8_t *data, size_t size)
{
	size_t i = 0;
	while (i < size && strchr(" \t\r\n", data[i]) && data[i])
		i++;
	if (i == size || (data[i] != '{' && data[i] != '['))
		return;
	char *slow = read_with("libyaml", (const char *)data, size, 0);
	char *fast = read_with(NULL, (const char *)data, size, 0);
	if (!slow || !fast || strcmp(slow, fast))
		keys_fail("the JSON fast path and libyaml read the input differently");
	kp_free(slow);
	kp_free(fast);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	keys_oracle(data, size);
	json_oracle(data, size);
	import_once("fuzz.yaml", data, size, NULL, (int)(size & 1));
	return 0;
}
