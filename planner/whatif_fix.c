/*
 * whatif_fix.c — the options `kplan fix` checks its candidates with
 * (planner/fix*.c; `plan` has no option for them):
 *  - remove-pods ID,...: those pods deleted, as evicted and not re-created;
 *  - move-pods ID,...: those pods re-created: they queue after every pod
 *    pending before, and those bound are taken off their nodes (a GPU fix
 *    moves shared pods: in a replay of a run, the pods the run placed are
 *    pending, and queued later they leave the GPU to the pod);
 *  - untaint KEY[=VALUE]: the NoSchedule/NoExecute taints with that key (and
 *    value) removed from every node;
 *  - relax CLASS:WHAT:ARG: one constraint of a scheduling class relaxed, in
 *    TEMP copies of the class tables (like the node and pod tables):
 *    node-selector:KEY drops the nodeSelector key, spread:SEQ adds 1 to the
 *    spread constraint's maxSkew, affinity:SEQ drops the required pod
 *    (anti-)affinity term, node-affinity:TERM.SEQ one matchExpression of a
 *    required nodeSelectorTerm, node-affinity:all the whole required node
 *    affinity.
 */
#include "whatif_int.h"

#include <string.h>

/* remove-pods: the pods deleted (with their labels), recorded as removed */
int wi_apply_remove_pods(wctx *c, wi_op *op)
{
	long gone = 0;
	if (wi_exec(c, kp_sql_whatif_fix_remove_pods, op->seq, op->value, &gone) ||
	    wi_exec(c, kp_sql_whatif_pods_removed_labels, op->seq, NULL, NULL) ||
	    wi_exec(c, kp_sql_whatif_pods_removed_delete, op->seq, NULL, NULL))
		return c->err->code;
	op->removed = gone;
	kp_sb_printf(&op->effect, "%ld pod%s removed", gone, gone == 1 ? "" : "s");
	return KP_OK;
}

/* move-pods: the pods re-created, queued after the pods pending before;
 * the bound ones off their nodes (n: those) */
int wi_apply_move_pods(wctx *c, wi_op *op)
{
	long n = 0;
	if (wi_exec(c, kp_sql_whatif_fix_move_pods_requeue, op->seq, op->value, NULL) ||
	    wi_exec(c, kp_sql_whatif_fix_move_pods, op->seq, op->value, &n) ||
	    wi_exec(c, kp_sql_whatif_pods_unbind_moved, op->seq, NULL, NULL))
		return c->err->code;
	op->pending = n;
	kp_sb_printf(&op->effect, "pods re-created and queued last, %ld of them taken off their nodes", n);
	return KP_OK;
}

/* untaint: the NoSchedule/NoExecute taints with the key (and value) removed from every node */
int wi_apply_untaint(wctx *c, wi_op *op)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_fix_untaint, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "removing taints");
	sqlite3_bind_text(s, 1, op->node, -1, SQLITE_STATIC);
	wi_bind_opt_text(s, 2, op->selector);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return wi_db_fail(c, "removing taints");
	long n = sqlite3_changes(c->db);
	op->nodes = n;
	kp_sb_printf(&op->effect, "%ld taint%s removed", n, n == 1 ? "" : "s");
	return KP_OK;
}

/* relax node-affinity: in TEMP copies of class_node_expr, class_node_term and
 * pod_class (the static filter's SQL and its shared-verdict key in
 * planner/static.c read exactly these, so the class gets a key, and verdict,
 * of its own).  TERM.SEQ: that matchExpression (or matchField) of that
 * required term dropped; a term left with none is dropped too (an empty term
 * matches nothing), and with no required term left the class has no required
 * node affinity.  all: every required term dropped. */
static int relax_node_affinity(wctx *c, wi_op *op)
{
	if (wi_shadow_once(c, "class_node_expr") || wi_shadow_once(c, "class_node_term") ||
	    wi_shadow_once(c, "pod_class"))
		return c->err->code;
	long n = 0, m = 0;
	int64_t id = op->replicas;
	if (!strcmp(op->wname, "all")) {
		if (wi_exec(c, kp_sql_whatif_fix_relax_affinity_all, id, NULL, &n) ||
		    wi_exec(c, kp_sql_whatif_fix_relax_affinity_all_exprs, id, NULL, NULL) ||
		    wi_exec(c, kp_sql_whatif_fix_relax_affinity_all_terms, id, NULL, NULL))
			return c->err->code;
	} else {
		if (wi_exec(c, kp_sql_whatif_fix_relax_affinity_expr, id, op->wname, &n))
			return c->err->code;
		if (n && (wi_exec(c, kp_sql_whatif_fix_relax_affinity_term, id, op->wname, &m) ||
			  (m && wi_exec(c, kp_sql_whatif_fix_relax_affinity_class, id, NULL, NULL))))
			return c->err->code;
	}
	op->removed = n;
	kp_sb_printf(&op->effect, "%ld constraint%s relaxed", n, n == 1 ? "" : "s");
	return KP_OK;
}

/* relax: one constraint of a class, in a TEMP copy of its table */
int wi_apply_relax(wctx *c, wi_op *op)
{
	if (!strcmp(op->wkind, "node-affinity"))
		return relax_node_affinity(c, op);
	const char *table, *sql;
	if (!strcmp(op->wkind, "node-selector")) {
		table = "class_node_selector";
		sql = kp_sql_whatif_fix_relax_node_selector;
	} else if (!strcmp(op->wkind, "spread")) {
		table = "class_spread";
		sql = kp_sql_whatif_fix_relax_spread;
	} else {
		table = "class_pod_affinity";
		sql = kp_sql_whatif_fix_relax_pod_affinity;
	}
	if (wi_shadow_once(c, table))
		return c->err->code;
	long n = 0;
	if (wi_exec(c, sql, op->replicas, op->wname, &n))
		return c->err->code;
	op->removed = n;
	kp_sb_printf(&op->effect, "%ld constraint%s relaxed", n, n == 1 ? "" : "s");
	return KP_OK;
}
