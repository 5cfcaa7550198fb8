/*
 * explain.h — `kplan explain`: why a pod went where it went in a run.
 *
 *   kp_explain_opts o = { .run = 0, .ns = "shop", .name = "web-1" };
 *   kp_explain_result x;
 *   if (kp_explain_run(db, &o, &x, &err) == KP_OK)
 *           ...x.ex.nodes[x.order[0]] is the closest node...
 *   kp_explain_result_release(&x);
 *
 * The run is replayed in memory (a dry run in a read transaction; the
 * scenario in TEMP tables: a read-only database will do) with what it
 * recorded in run.options: seed, --config, --no-preemption, --reference,
 * the what-if options, --mode full, --strategy and the rebalance settings,
 * so that the replay reaches the decision the run recorded.  When it does
 * not (the database changed since the run), agrees is 0.
 *
 * The planner calls kp_explain_capture at every scheduling attempt of the
 * pod (kp_plan_opts.explain); the last one is kept: each node's verdict, and
 * — with every filter run on the node, not only up to the first failure —
 * the numbers behind it: requested against free per resource
 * (NodeResourcesFit), matching pods per domain and the skew
 * (PodTopologySpread), the pods that match the (anti-)affinity terms
 * (InterPodAffinity).
 *
 * Closest nodes (kp_explain_result.order): the nodes that passed every
 * filter, highest total score first; then the others by (1) a static filter
 * failing (taints, nodeSelector / node affinity, cordon) after the rest,
 * (2) fewer failing filter plugins, (3) nodes too small for the pod even
 * empty (allocatable below a request) after the rest, (4) a smaller
 * resource shortfall — the sum over short resources of (requested - free) /
 * requested — (5) name; nodes not evaluated (percentageOfNodesToScore, a
 * nominated node tried alone) last.
 */
#ifndef KP_EXPLAIN_H
#define KP_EXPLAIN_H

#include <stdint.h>
#include <sqlite3.h>
#include "../common/kp.h"
#include "../common/explain_result.h"   /* kp_explain, kp_explain_result: the data */

struct kp_whatif_importer;

struct kp_cycle;
struct kp_profile;
struct kp_preempt_result;

/* Called by the planner (plan_cycle.c) at the end of each attempt of the pod:
 * chosen node (-1 none), scoring, raw / normalised scores per plugin (NULL
 * when not scoring), totals per node, avoid (rebalance: nodes the move may
 * not use; NULL). */
void kp_explain_capture(kp_explain *ex, struct kp_cycle *cy, const struct kp_profile *pf, int chosen, int scoring,
			int64_t *const *raw, int64_t *const *norm, const int64_t *total, const uint8_t *avoid);
/* DefaultPreemption's candidates and choice, for people. */
void kp_explain_preemption(kp_explain *ex, const struct kp_cycle *cy, const struct kp_preempt_result *r);
void kp_explain_release(kp_explain *e);

typedef struct kp_explain_opts {
	int64_t run;                 /* 0: the latest */
	const char *ns, *name;
	const char *db_name;         /* for messages; NULL: "the database" */
	/* reads the files a what-if run named (--add-nodes) when it is
	 * replayed: the caller's (whatif.h; the CLI's is cli/whatif_import.c) */
	const struct kp_whatif_importer *importer;
} kp_explain_opts;

/* Replay and explain.  KP_ERROR with a message for an unknown pod or run;
 * the replay's own errors (a --config or --add-nodes file that cannot be
 * read any more) are returned with "cannot replay run N: " first. */
int kp_explain_run(sqlite3 *db, const kp_explain_opts *o, kp_explain_result *out, kp_err *err);
void kp_explain_result_release(kp_explain_result *x);

#endif
