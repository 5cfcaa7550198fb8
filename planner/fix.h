/*
 * fix.h — `kplan fix` as library code (docs/why-not.md):
 * for each unschedulable pod of a run, candidate fixes ranked by how much they
 * disturb, each checked with a dry-run plan of the baseline plus the change,
 * and one change set checked for all of them together.
 *
 *   kp_fix_opts o = { .limit = 20, .candidates = 3, .preemption = -1 };
 *   kp_fix_result r;
 *   kp_fix_run(db, &o, NULL, &r, &err);      // r.pods[i].cands, r.joint
 *   kp_fix_result_release(&r);
 *
 * Disruption order (enum kp_fix_level, lowest first): add one node like the
 * template < evict lower-priority pods within their PDBs < relax a soft rule
 * (loosen without dropping: a spread constraint's maxSkew + 1) < relax a hard
 * rule (drop a nodeSelector key, a required node affinity expression or all
 * of it, a required pod (anti-)affinity term; remove a taint the pod does not
 * tolerate) < untaint a node dedicated to something the pod does not use.
 * A taint KEY[=VALUE] counts as dedicated for a pod when, on a node that has
 * it, (a) KEY names an extended resource the node has (allocatable > 0) that
 * the pod does not request (nvidia.com/gpu on a GPU node, for a web pod), or
 * (b) KEY marks a role — `dedicated`, a key ending in `/dedicated`, or
 * `node-role.kubernetes.io/ROLE` — and the pod's nodeSelector and required
 * node affinity name neither KEY nor VALUE (nor ROLE) as a key or value.
 *
 * The baseline: the run's own options (seed, --config, preemption, what-if
 * scenario), with opts.preemption and opts.config_file overriding the run's;
 * with opts.from_run, the state the run left instead (what-if from-run: its
 * placements bound, its unschedulable pods pending), so a check plans only
 * the pods still pending there.
 * Every check is a dry run (kp_plan_opts.dry_run, a read transaction): with
 * no_record nothing is written and the database may be read-only; else the
 * rows go to the fix table in one transaction, replacing the run's.
 */
#ifndef KP_FIX_H
#define KP_FIX_H

#include <stdint.h>
#include <sqlite3.h>
#include "../common/kp.h"
#include "../common/fix_result.h"   /* kp_fix_result, kp_fix_level: the data */

struct kp_whatif_importer;

typedef struct kp_fix_opts {
	int64_t run;                 /* 0: the latest */
	const char *db_path;         /* for messages */
	const char *node_template;   /* NULL: no add-node candidate */
	long limit;                  /* at most this many unschedulable pods, in queue order */
	int candidates;              /* at most this many checked fixes per pod (>= 1) */
	int preemption;              /* -1: as the run; 0: off; 1: on */
	const char *config_file;     /* NULL: as the run */
	int no_record;               /* write nothing */
	int from_run;                /* 1: the baseline is the state run left (plan --from-run), its
	                              * unschedulable pods pending there, not a replay of the run */
	/* reads the node template and the run's own --add-nodes files, names
	 * the run's --scale replicas (whatif.h; the CLI's: cli/whatif_import.h);
	 * NULL: a check that needs it fails */
	const struct kp_whatif_importer *importer;
} kp_fix_opts;

typedef struct kp_fix_hooks {
	void (*progress)(void *ctx, long done, long total);
	/* called before COMMIT (or at the end with no_record); non-zero rolls back */
	int (*before_commit)(void *ctx, const kp_fix_result *r);
	void *ctx;
} kp_fix_hooks;

int kp_fix_run(sqlite3 *db, const kp_fix_opts *o, const kp_fix_hooks *h, kp_fix_result *out, kp_err *err);
void kp_fix_result_release(kp_fix_result *r);

#endif
