/*
 * rebalance.h — `kplan plan --mode rebalance`: descheduler-style strategies
 * proposing moves of bound pods, each move simulated with the real planner.
 *
 *   kp_rebalance *rb = kp_rebalance_new();
 *   kp_rebalance_set(rb, "strategies", "LowNodeUtilization", &err);  // CLI options
 *   kp_rebalance_load_config(rb, "policy.yaml", &err);               // --rebalance-config
 *   kp_plan_opts o = { .seed = 1, .rebalance = rb };
 *   kp_plan_run(db, &o, &r, &err);   // pending pods first, then kp_rebalance_run, kp_rebalance_write
 *   kp_rebalance_free(rb);
 *
 * The planner (plan.c) owns the snapshot and the scheduling cycle; it gives
 * kp_rebalance_run a host: `place` takes a bound pod off its node and places
 * it with the real planner (filters, scores, no preemption) on a node `avoid`
 * allows — or, when no node fits, puts it back and says so (-1); `undo`
 * puts a moved pod back on its node.  A moved pod becomes a `move` row in
 * placement (from_node = where it was); the rebalance modules (listed in
 * rebalance_int.h) keep the move plan and write move_wave, rebalance_run,
 * rebalance_util and rebalance_node (schema.sql, "rebalance").
 * docs/rebalance.md is the user's view.
 */
#ifndef KP_REBALANCE_H
#define KP_REBALANCE_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>
#include "../common/kp.h"
#include "snapshot.h"

typedef struct kp_rebalance kp_rebalance;

kp_rebalance *kp_rebalance_new(void);    /* NULL on out of memory */
void kp_rebalance_free(kp_rebalance *rb); /* NULL ok */

/* A command-line option without dashes: strategies, max-moves,
 * max-moves-per-node, max-moves-per-namespace, priority-threshold,
 * namespaces, exclude-namespaces, evict-bare-pods (a flag: value "true" or
 * "false").  KP_USAGE naming the option when the value is bad.  Options
 * override the --rebalance-config file. */
int kp_rebalance_set(kp_rebalance *rb, const char *option, const char *value, kp_err *err);
/* A descheduler policy (descheduler/v1alpha2 DeschedulerPolicy, YAML or
 * JSON), or kplan's flat form; KP_USAGE / KP_IO with file, line, column. */
int kp_rebalance_load_config(kp_rebalance *rb, const char *file, kp_err *err);
/* The effective settings a run recorded (run.options $.rebalance, the JSON
 * kp_rebalance_options_json writes), for replaying the run (explain);
 * kp_rebalance_finish included. */
int kp_rebalance_load_settings(kp_rebalance *rb, const char *json, kp_err *err);
/* After every option: defaults, consistency checks (KP_USAGE). */
int kp_rebalance_finish(kp_rebalance *rb, kp_err *err);
/* ,"mode":"rebalance","rebalance":{...the effective settings...} */
void kp_rebalance_options_json(const kp_rebalance *rb, kp_sb *sb);

typedef struct kp_rb_host {
	kp_snap *s;
	const int64_t *pdb_allowed;  /* disruptions each PDB allows after the pending pods were planned */
	const uint8_t *movable;      /* per pod: bound, kept by the run, planned by one of the profiles */
	void *ctx;
	/* KP_OK with *node >= 0 (moved) or -1 (no home: the pod is back where it was); else an error */
	int (*place)(void *ctx, int32_t pod, const uint8_t *avoid, int32_t *node);
	int (*undo)(void *ctx, int32_t pod, int32_t node);
} kp_rb_host;

/* Run the enabled strategies on the snapshot (moves stay in the snapshot). */
int kp_rebalance_run(kp_rebalance *rb, const kp_rb_host *h, kp_err *err);
/* In the run's transaction, after its placement rows: the rebalance tables. */
int kp_rebalance_write(sqlite3 *db, kp_rebalance *rb, const kp_snap *s, int64_t run_id, kp_err *err);
/* Moves proposed (after kp_rebalance_run). */
long kp_rebalance_moves(const kp_rebalance *rb);
/* One summary line ("rebalance: 3 moves in 2 waves ..."). */
void kp_rebalance_print(const kp_rebalance *rb, FILE *out);

#endif
