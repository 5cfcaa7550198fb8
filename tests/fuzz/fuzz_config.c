/*
 * fuzz_config.c — libFuzzer target for the KubeSchedulerConfiguration
 * parser (profile.c on top of ydom.c): kp_config_parse, then, when it
 * succeeds, kp_config_to_json, then kp_config_release; then the same input
 * as an imported configuration (kp_config_parse_imported: profiles it
 * cannot run are skipped, not errors).
 *
 * Extender file names resolve against $KP_FUZZ_BASE_DIR (scripts/fuzz.sh
 * sets tests/data/plan, where the seeds' extender files live).
 *
 * The duplicate-key oracle (fuzz_keys.h) first: kp_yaml_parse_one refuses
 * the document exactly when libyaml's events show a mapping with two equal
 * keys in it, a tree it returns holds none, and kp_config_parse refuses it
 * with the same message.
 */
#include "common/kp.h"
#include "planner/profile.h"
#include "fuzz_keys.h"

#include <stdlib.h>
#include <string.h>

/* 1 when parse_one refused the document for a duplicate key (dup: its message) */
static int keys_oracle(const uint8_t *data, size_t size, kp_err *dup)
{
	kp_arena a;
	kp_ynode *doc = NULL;
	long budget = 200000;
	kp_arena_init(&a, 16 * 1024);
	int rc = kp_yaml_parse_one((const char *)data, size, "fuzz.yaml", &a, &doc, dup);
	if (rc == KP_OK && !keys_tree_ok(doc, &budget))
		keys_fail("a tree holds two equal keys");
	kp_arena_release(&a);
	int refused = rc != KP_OK && keys_is_dup_error(dup);
	int scan = rc == KP_OK || refused ? keys_scan(data, size, 1) : -1;
	if (scan >= 0 && scan != refused)
		keys_fail(scan ? "libyaml's events repeat a key kp_yaml_parse_one accepted"
			       : "kp_yaml_parse_one refused a key not repeated");
	return refused;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kp_config cfg;
	kp_err err = { 0 }, dup = { 0 };
	int refused = keys_oracle(data, size, &dup);
	memset(&cfg, 0, sizeof cfg);
	kp_config_set_base_dir(&cfg, getenv("KP_FUZZ_BASE_DIR"));
	int rc = kp_config_parse((const char *)data, size, "fuzz.yaml", &cfg, &err);
	if (refused && (rc == KP_OK || strcmp(err.msg, dup.msg)))
		keys_fail("kp_config_parse did not refuse a duplicate key as kp_yaml_parse_one did");
	if (rc == KP_OK) {
		kp_config_to_json(&cfg);
		kp_config_release(&cfg);
	}
	/* on failure kp_config_parse has released cfg itself; releasing a
	 * zeroed config again must be harmless */
	kp_config_release(&cfg);
	kp_config_set_base_dir(&cfg, getenv("KP_FUZZ_BASE_DIR"));
	if (kp_config_parse_imported((const char *)data, size, "fuzz.yaml", &cfg, &err) == KP_OK) {
		kp_config_to_json(&cfg);
		kp_config_release(&cfg);
	}
	kp_config_release(&cfg);
	return 0;
}
