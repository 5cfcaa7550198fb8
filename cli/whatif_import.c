/*
 * whatif_import.c — kp_cli_whatif_importer (whatif_import.h): a what-if
 * scenario's files read by the importer itself, with every check and message
 * of `kplan import`, at most KP_READ_SMALL_LIMIT bytes, into the database in
 * memory the scenario made.
 */
#include "whatif_import.h"
#include "../importers/import.h"
#include "../common/read.h"

#include <string.h>

/* the scenario's limit is the importer's: a --scale or --pod count the
 * importer could not have generated is refused by both */
_Static_assert(KP_WHATIF_MAX_PODS == KP_MAX_WORKLOAD_PODS, "what-if and import disagree on the most pods");

static int import_file(sqlite3 *db, const char *file, kp_whatif_counts *counts, kp_err *err)
{
	kp_import_opts io;
	memset(&io, 0, sizeof io);
	memset(counts, 0, sizeof *counts);
	io.max_input_size = KP_READ_SMALL_LIMIT;
	io.size_hint = "the most kplan reads for a --add-nodes or --pod file";
	kp_import *imp = NULL;
	if (kp_import_begin(db, &io, &imp, err) == KP_OK && kp_import_path(imp, file, err) == KP_OK) {
		const kp_import_stats *st = kp_import_get_stats(imp);
		counts->nodes = st->nodes;
		counts->pods = st->pods;
		counts->workloads = st->workloads;
		counts->others = st->priority_classes + st->pdbs + st->services + st->namespaces + st->scheduler_configs +
				 st->storage_classes + st->pvs + st->pvcs + st->csi_nodes + st->csi_drivers + st->csi_capacities +
				 st->device_classes + st->resource_slices + st->resource_claims + st->claim_templates +
				 st->skipped_kinds;
		kp_import_finish(imp, err);
	}
	kp_import_free(imp);
	return err->code;
}

const kp_whatif_importer kp_cli_whatif_importer = { import_file };
