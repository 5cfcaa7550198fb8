/*
 * whatif_import.h — the importer the CLI gives what-if scenarios (planner/
 * whatif.h: --add-nodes and --pod files, the names of generated pods), so
 * that planner/ does not depend on importers/:
 *
 *   kp_whatif_set_importer(w, &kp_cli_whatif_importer);
 *   kp_capacity_opts o = { ..., .importer = &kp_cli_whatif_importer };
 */
#ifndef KP_CLI_WHATIF_IMPORT_H
#define KP_CLI_WHATIF_IMPORT_H

#include "../planner/whatif.h"

extern const kp_whatif_importer kp_cli_whatif_importer;

#endif
