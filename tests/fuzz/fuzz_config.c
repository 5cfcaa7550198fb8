/*
 * fuzz_config.c — libFuzzer target for the KubeSchedulerConfiguration
 * parser (profile.c on top of ydom.c): kp_config_parse, then, when it
 * succeeds, kp_config_to_json, then kp_config_release; then the same input
 * as an imported configuration (kp_config_parse_imported: profiles it
 * cannot run are skipped, not errors).
 *
 * Extender file names resolve against $KP_FUZZ_BASE_DIR (scripts/fuzz.sh
 * sets tests/data/plan, where the seeds' extender files live).
 */
#include "common/kp.h"
#include "planner/profile.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kp_config cfg;
	kp_err err = { 0 };
	memset(&cfg, 0, sizeof cfg);
	kp_config_set_base_dir(&cfg, getenv("KP_FUZZ_BASE_DIR"));
	if (kp_config_parse((const char *)data, size, "fuzz.yaml", &cfg, &err) == KP_OK) {
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
