/*
 * whatif.h — what-if scenarios: `kplan plan` options that change the cluster
 * for one run only (--remove-nodes, --cordon, --drain, --add-nodes, --scale),
 * --mode full (every pod planned from scratch) and --strategy.
 *
 *   kp_whatif *w = kp_whatif_new();
 *   kp_whatif_add(w, "drain", "node-3", &err);          // syntax checked here
 *   kp_plan_opts o = { .seed = 1, .whatif = w };
 *   kp_plan_run(db, &o, &r, &err);                       // applied and recorded there
 *   kp_whatif_free(w);
 *
 * How a scenario exists for its run only: inside the run's transaction,
 * kp_whatif_apply copies the node and pod tables (node, node_resource,
 * node_label, node_taint, node_image, pod, pod_label) into TEMP tables of the
 * same names and changes the copies.  SQLite resolves unqualified names to
 * the temp schema first, so everything the run reads on its connection — the
 * snapshot loader, the static filters (queries/filters), SQL extenders —
 * sees the scenario, while the views of the main schema and every other
 * connection see the imported tables, which are never written.
 * kp_whatif_cleanup drops the copies.
 *
 * Nodes and pods that exist only in a scenario (added nodes, added replicas,
 * DaemonSet pods of added nodes) get NEGATIVE ids, never an imported row's;
 * placement refers to them and run_node / run_pod (schema.sql, "what-if")
 * name them, so the plan view shows them.  Pods the scenario takes off a
 * node are listed in temp.kp_whatif_moved(pod_id, node_id, seq): the
 * snapshot loader marks them (kp_pod.moved_from) and write_run makes them
 * `move` (or `keep` when they land on the same node, or `unschedulable`).
 *
 * Order of application (whatever the order on the command line):
 *   0. --from-run N (the state run N left: its placements bound, its victims
 *      gone or pending again; not a what-if run)
 *   1. --remove-nodes   2. --cordon   3. --drain   4. --add-nodes
 *   5. --scale          6. add-pods     7. remove-pods, untaint, relax (kplan fix's, below)
 *   8. --mode full
 * add-pods FILE:COUNT (COUNT pending copies of the Pod, or of the workload's
 * pod template, in FILE, named NAME-capacity-N) is kplan capacity's: `plan`
 * has no option for it.  When the spec's class is missing it writes its rows
 * to TEMP copies of the class tables (the main schema is only read, so a
 * read-only database works).  --scale NS/W=+N adds N to the current replicas.
 * remove-pods ID,..., untaint KEY[=VALUE] and relax CLASS:node-selector:KEY |
 * CLASS:spread:SEQ | CLASS:affinity:SEQ are kplan fix's (cli/cmd_fix.c): pods
 * deleted, a NoSchedule/NoExecute taint removed from every node, one class
 * constraint relaxed in TEMP copies of class_node_selector, class_spread,
 * class_pod_affinity.
 * each option kind in the order given.  Node selectors (1-3) choose among the
 * imported nodes still present: added nodes are never removed, cordoned or
 * drained by the same run.
 *
 * The code: planner/whatif.c and one planner/whatif_*.c per option kind
 * (whatif_int.h says which holds what); the SQL: queries/whatif/.
 */
#ifndef KP_WHATIF_H
#define KP_WHATIF_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>
#include "../common/kp.h"
#include "profile.h"

typedef struct kp_whatif kp_whatif;

kp_whatif *kp_whatif_new(void);          /* NULL on out of memory */
void kp_whatif_free(kp_whatif *w);       /* NULL ok */

/* What a scenario borrows from the importer, supplied by the caller (the CLI:
 * cli/whatif_import.c), so that planner/ does not depend on importers/.
 *
 * import: read FILE into db — a new database in memory, with kplan's schema
 * and SQL functions — with every check and message of `kplan import` (at
 * most KP_READ_SMALL_LIMIT bytes); on KP_OK *counts says what it held.  Errors
 * go to err as the importer words them; the scenario prefixes the option
 * ("--add-nodes 'FILE': ...").  Used by --add-nodes and add-pods.
 *
 * Without an importer those options fail with an internal error. */
typedef struct kp_whatif_counts {
	long nodes, pods, workloads;
	long others;                 /* everything else: priority classes, PDBs, services, namespaces,
	                              * scheduler configurations, kinds skipped */
} kp_whatif_counts;
typedef int (*kp_whatif_import_fn)(sqlite3 *db, const char *file, kp_whatif_counts *counts, kp_err *err);
typedef struct kp_whatif_importer {
	kp_whatif_import_fn import;
} kp_whatif_importer;

/* the most pods --scale and add-pods make for one workload: the importer's
 * KP_MAX_WORKLOAD_PODS (cli/whatif_import.c checks that they agree) */
#define KP_WHATIF_MAX_PODS 2000000

/* imp is borrowed: it must outlive w (a static table).  NULL w: nothing. */
void kp_whatif_set_importer(kp_whatif *w, const kp_whatif_importer *imp);

/* One command-line option: option is "add-nodes", "remove-nodes", "drain",
 * "cordon", "scale", "mode" or "strategy" (without dashes).  Syntax errors are
 * KP_USAGE with a message naming the option and the value; what needs the
 * database (unknown node or workload, a bad template) is checked by
 * kp_whatif_apply. */
int kp_whatif_add(kp_whatif *w, const char *option, const char *value, kp_err *err);
/* 1 when nothing was added */
int kp_whatif_empty(const kp_whatif *w);
/* Append the scenario to run.options, as ,"mode":..,"strategy":..,"whatif":[[option, value], ...]
 * (nothing for an empty scenario). */
void kp_whatif_options_json(const kp_whatif *w, kp_sb *sb);

/* Inside the run's transaction, before the snapshot is loaded: --strategy on
 * every profile of cfg, and the temp tables of the scenario. */
int kp_whatif_apply(sqlite3 *db, kp_whatif *w, kp_config *cfg, kp_err *err);
/* After the run's rows are written (same transaction): run_scenario, run_node,
 * run_pod, run.mode; creates those tables on databases made before them. */
int kp_whatif_record(sqlite3 *db, kp_whatif *w, int64_t run_id, kp_err *err);
/* Drop the temp tables (always safe). */
void kp_whatif_cleanup(sqlite3 *db);

/* For the CLI, after the run: one line per option applied ("drain node-3: 1 node
 * drained ..."), and warnings (a selector that selects no node). */
void kp_whatif_print(const kp_whatif *w, FILE *out, FILE *warn);

#endif
