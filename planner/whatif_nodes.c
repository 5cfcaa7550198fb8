/*
 * whatif_nodes.c — --remove-nodes, --cordon and --drain (whatif.h): the
 * imported nodes still present that a name or a label selector chooses
 * (temp.kp_whatif_sel), recorded for run_node, and what happens to them and
 * to their pods.
 *
 *  - remove: the nodes are gone; their pods become pending, except DaemonSet
 *    and static (Node-owned) pods, finished and terminating ones, which vanish
 *    with the node (as do pending DaemonSet pods made for it);
 *  - cordon: spec.unschedulable;
 *  - drain: cordon, and the pods become pending, except DaemonSet and static
 *    pods (they stay, as `kubectl drain` leaves them), finished and
 *    terminating ones.
 * Added nodes (negative ids) are never selected.  A name that selects nothing
 * because --remove-nodes took the node is a warning (kp_whatif_print), an
 * unknown name an error.
 */
#include "whatif_int.h"

/* temp.kp_whatif_sel := the imported nodes (still present) op names or selects */
static int select_nodes(wctx *c, wi_op *op, const char *option)
{
	long n = 0;
	if (wi_exec(c, kp_sql_whatif_nodes_sel_clear, 0, NULL, NULL))
		return c->err->code;
	if (op->node) {
		if (wi_exec(c, kp_sql_whatif_nodes_sel_name, 0, op->node, &n))
			return c->err->code;
		if (!n) {
			int64_t known;
			if (wi_query_int(c, kp_sql_whatif_nodes_known, 0, op->node, &known))
				return c->err->code;
			if (!known)
				return kp_err_set(c->err, KP_ERROR, "--%s '%s': no node named '%s' (a label selector needs =, !=, "
						  "in, notin, ! or a comma)", option, op->value, op->node);
			op->nothing_selected = 1;   /* removed by --remove-nodes */
		}
		return KP_OK;
	}
	if (wi_exec(c, kp_sql_whatif_nodes_sel_selector, 0, op->selector, &n))
		return c->err->code;
	op->nothing_selected = n == 0;
	return KP_OK;
}

static int record_nodes(wctx *c, wi_op *op, const char *change)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, kp_sql_whatif_nodes_record, -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "recording the scenario");
	sqlite3_bind_int(s, 1, op->seq);
	sqlite3_bind_text(s, 2, change, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return wi_db_fail(c, "recording the scenario");
	op->nodes = sqlite3_changes(c->db);
	return KP_OK;
}

/* bound pods on the selected nodes that become pending (not DaemonSet, static, finished or terminating) */
static int make_pending(wctx *c, wi_op *op)
{
	long n;
	if (wi_exec(c, kp_sql_whatif_nodes_pending, op->seq, NULL, &n) ||
	    wi_exec(c, kp_sql_whatif_pods_unbind_moved, op->seq, NULL, NULL))
		return c->err->code;
	op->pending = n;
	return KP_OK;
}

static void effect_nodes(wctx *c, wi_op *op, const char *verb)
{
	kp_sb_printf(&op->effect, "%ld node%s %s", op->nodes, op->nodes == 1 ? "" : "s", verb);
	if (op->nodes) {
		kp_sb_adds(&op->effect, " (");
		wi_add_names(c, &op->effect, kp_sql_whatif_nodes_sel_names, 0);
		kp_sb_adds(&op->effect, ")");
	}
}

int wi_apply_remove(wctx *c, wi_op *op)
{
	if (select_nodes(c, op, "remove-nodes") || record_nodes(c, op, "removed"))
		return c->err->code;
	long gone = 0;
	/* pods that vanish with their node: DaemonSet and static pods, finished and
	 * terminating ones, and pending DaemonSet pods made for it */
	if (wi_exec(c, kp_sql_whatif_nodes_remove_gone, op->seq, NULL, &gone) ||
	    wi_exec(c, kp_sql_whatif_pods_removed_labels, op->seq, NULL, NULL) ||
	    wi_exec(c, kp_sql_whatif_pods_removed_delete, op->seq, NULL, NULL) ||
	    make_pending(c, op) ||
	    wi_exec(c, kp_sql_whatif_nodes_nominated_clear, 0, NULL, NULL))
		return c->err->code;
	op->removed = gone;
	if (wi_exec_all(c, "building the scenario", kp_sql_whatif_nodes_delete))
		return c->err->code;
	effect_nodes(c, op, "removed");
	kp_sb_printf(&op->effect, "; %ld pod%s made pending", op->pending, op->pending == 1 ? "" : "s");
	if (gone)
		kp_sb_printf(&op->effect, "; %ld pod%s gone with %s (DaemonSet, static, finished or terminating)", gone,
			     gone == 1 ? "" : "s", op->nodes == 1 ? "it" : "them");
	return KP_OK;
}

int wi_apply_cordon(wctx *c, wi_op *op, int drain)
{
	const char *opt = drain ? "drain" : "cordon";
	int64_t already = 0;
	if (select_nodes(c, op, opt) || record_nodes(c, op, drain ? "drained" : "cordoned") ||
	    wi_query_int(c, kp_sql_whatif_nodes_cordoned_count, 0, NULL, &already) ||
	    wi_exec(c, kp_sql_whatif_nodes_cordon, 0, NULL, NULL))
		return c->err->code;
	if (!drain) {
		effect_nodes(c, op, "cordoned");
		if (already)
			kp_sb_printf(&op->effect, "; %lld of them already", (long long)already);
		return KP_OK;
	}
	int64_t staying = 0;
	if (make_pending(c, op) || wi_query_int(c, kp_sql_whatif_nodes_staying_count, 0, NULL, &staying))
		return c->err->code;
	effect_nodes(c, op, "drained");
	kp_sb_printf(&op->effect, "; %ld pod%s made pending", op->pending, op->pending == 1 ? "" : "s");
	if (staying)
		kp_sb_printf(&op->effect, "; %lld DaemonSet or static pod%s stay%s", (long long)staying,
			     staying == 1 ? "" : "s", staying == 1 ? "s" : "");
	return KP_OK;
}
