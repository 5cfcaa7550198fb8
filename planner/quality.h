/*
 * quality.h — the plan's quality certificate: per node pool, a lower bound on
 * the nodes the placed pods need and the plan's gap to it (plan_quality), and
 * the capacity stranded on the used nodes (plan_stranded).
 * docs/planning.md, "Plan quality", defines every number.
 *
 *   // inside the run's transaction, after its placement rows are written
 *   if (kp_quality_write(db, run_id, NULL, &err) != KP_OK) ...   // then roll back
 */
#ifndef KP_QUALITY_H
#define KP_QUALITY_H

#include <stdint.h>
#include <sqlite3.h>
#include "../common/kp.h"

/* A node's pool is the value of a label, '(none)' without it: this one unless
 * the caller names another (kplan capacity --pool-label). */
#define KP_QUALITY_POOL_LABEL "node.kubernetes.io/instance-type"

/* Write run_id's plan_quality and plan_stranded rows from the placement,
 * pod, class_request, node, node_label and node_resource tables (creating the
 * two tables first in a database made before they existed); pools by the node
 * label pool_label (NULL: KP_QUALITY_POOL_LABEL).  KP_OK, or
 * KP_IO / KP_INTR / KP_NOMEM with a message in err. */
int kp_quality_write(sqlite3 *db, int64_t run_id, const char *pool_label, kp_err *err);

/* A dry run's rows (kp_plan_opts.dry_run with on_quality): TEMP tables of
 * the same names as run, placement, pod_failure, eviction, run_warning,
 * plan_quality and plan_stranded (main's definitions, no rows) shadow the
 * main ones for this connection, so the run's rows and its certificate are
 * written there and the main schema is only read — the database may be
 * read-only.  kp_quality_dry_drop drops them (always safe). */
int kp_quality_dry_tables(sqlite3 *db, kp_err *err);
void kp_quality_dry_drop(sqlite3 *db);

#endif
