/*
 * whatif.c — what-if scenarios for one plan run (see whatif.h): the kp_whatif
 * object, the options it holds, and kp_whatif_apply, which builds the
 * scenario in TEMP tables that shadow the imported ones by calling one apply
 * function per option, in the order of whatif.h.  Each option kind lives in a
 * file of its own (whatif_int.h lists them); recording is whatif_record.c.
 *
 * Rules, as docs/what-if.md documents them:
 *  - --remove-nodes: the nodes are gone; their pods become pending (re-placed
 *    by the run: `move` from the removed node, or `unschedulable`), except
 *    DaemonSet pods, static (Node-owned) pods, finished and terminating pods,
 *    which vanish with the node (as do pending DaemonSet pods made for it);
 *  - --cordon: spec.unschedulable;
 *  - --drain: cordon, and its pods become pending, except DaemonSet and static
 *    pods (they stay, as `kubectl drain` leaves them), finished and
 *    terminating pods;
 *  - --add-nodes FILE[:COUNT]: COUNT copies of the Node in FILE, named
 *    TEMPLATE-whatif-1, -2, ... (the first free numbers), label
 *    kubernetes.io/hostname set to that name; every DaemonSet whose pods the
 *    controller would put there gets a pending pod for each;
 *  - --scale NS/[KIND/]NAME=N: the workload's replicas (its live pods and the
 *    pods generated at import, not finished) brought to N: new pending pods
 *    named as the importer names them, or the surplus removed — StatefulSet:
 *    highest ordinal first; others, roughly as the ReplicaSet controller:
 *    pending ones first, then terminating, then the newest, then the last
 *    imported;
 *  - --mode full: every bound pod that is not a DaemonSet or static pod,
 *    not finished and not terminating, becomes pending (keep when it lands
 *    on its node again, move when elsewhere).
 *
 * add-pods (FILE:COUNT, pending copies of a Pod or a workload's pod template)
 * is what `kplan capacity --pod` uses; remove-pods, untaint and relax are what
 * `kplan fix` checks its candidates with (whatif_fix.c); `plan` has no option
 * for them.  from-run N comes first of all: the state run N left.
 */
#include "whatif_int.h"

#include <stdlib.h>
#include <string.h>

const char *const wi_kind_names[WI_NKINDS] = { "from-run", "remove-nodes", "cordon", "drain", "add-nodes", "scale",
					       "add-pods", "remove-pods", "move-pods", "untaint", "relax", "mode", "strategy" };
const char *const wi_strat_names[WI_NSTRATS] = { "least", "most", "balanced", "fgd", "gpu-pack", "kube-1.20" };

kp_whatif *kp_whatif_new(void)
{
	kp_whatif *w = kp_calloc(1, sizeof *w);
	return w;
}

void kp_whatif_set_importer(kp_whatif *w, const kp_whatif_importer *imp)
{
	if (w)
		w->importer = imp;
}

static void op_release(wi_op *op)
{
	kp_free(op->value);
	kp_free(op->node);
	kp_free(op->selector);
	kp_free(op->file);
	kp_free(op->ns);
	kp_free(op->wkind);
	kp_free(op->wname);
	kp_sb_release(&op->effect);
	kp_sb_release(&op->result);
}

void kp_whatif_free(kp_whatif *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->nops; i++)
		op_release(&w->ops[i]);
	kp_free(w->ops);
	kp_free(w);
}

int kp_whatif_empty(const kp_whatif *w) { return !w || !w->nops; }

int kp_whatif_add(kp_whatif *w, const char *option, const char *value, kp_err *err)
{
	int kind = -1;
	for (int i = 0; i < WI_NKINDS; i++)
		if (!strcmp(option, wi_kind_names[i]))
			kind = i;
	if (kind < 0)
		return kp_err_set(err, KP_USAGE, "unknown what-if option '%s'", option);
	value = value ? value : "";
	wi_op op;
	memset(&op, 0, sizeof op);
	op.kind = kind;
	kp_sb_init(&op.effect);
	kp_sb_init(&op.result);
	if (!(op.value = kp_strdup(value)) || wi_parse_op(&op, option, value, err)) {
		op_release(&op);
		return err->code ? err->code : kp_err_set(err, KP_NOMEM, "out of memory");
	}
	/* --from-run, --mode and --strategy: the last one counts; --mode pending is the default */
	if (kind == WI_MODE || kind == WI_STRATEGY || kind == WI_FROM_RUN) {
		for (int i = 0; i < w->nops; i++)
			if (w->ops[i].kind == kind) {
				op_release(&w->ops[i]);
				memmove(&w->ops[i], &w->ops[i + 1], (size_t)(w->nops - i - 1) * sizeof *w->ops);
				w->nops--;
				break;
			}
		if (kind == WI_MODE && !strcmp(value, "pending")) {
			op_release(&op);
			return KP_OK;
		}
	}
	if (KP_GROW(w->ops, w->nops, w->cap, 8)) {
		op_release(&op);
		return kp_err_set(err, KP_NOMEM, "out of memory");
	}
	op.given = w->ngiven++;
	w->ops[w->nops++] = op;
	return KP_OK;
}

void kp_whatif_options_json(const kp_whatif *w, kp_sb *sb)
{
	if (kp_whatif_empty(w))
		return;
	int any = 0;
	for (int i = 0; i < w->nops; i++) {
		const wi_op *op = &w->ops[i];
		if (op->kind == WI_MODE)
			kp_sb_adds(sb, ",\"mode\":\"full\"");
		else if (op->kind == WI_STRATEGY)
			kp_sb_printf(sb, ",\"strategy\":\"%s\"", wi_strat_names[op->strategy]);
		else
			any = 1;
	}
	if (!any)
		return;
	kp_sb_adds(sb, ",\"whatif\":[");
	int n = 0;
	for (int i = 0; i < w->nops; i++) {
		const wi_op *op = &w->ops[i];
		if (op->kind == WI_MODE || op->kind == WI_STRATEGY)
			continue;
		kp_sb_adds(sb, n++ ? ",[" : "[");
		kp_sb_add_json_str(sb, wi_kind_names[op->kind]);
		kp_sb_addc(sb, ',');
		kp_sb_add_json_str(sb, op->value);
		kp_sb_addc(sb, ']');
	}
	kp_sb_addc(sb, ']');
}

/* ops in the order they apply: by kind, then as given */
static int cmp_apply(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const wi_op *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return x->given - y->given;
}

static int apply_one(wctx *c, wi_op *op, kp_config *cfg)
{
	switch (op->kind) {
	case WI_FROM_RUN: return wi_apply_from_run(c, op);
	case WI_REMOVE: return wi_apply_remove(c, op);
	case WI_CORDON: return wi_apply_cordon(c, op, 0);
	case WI_DRAIN: return wi_apply_cordon(c, op, 1);
	case WI_ADD: return wi_apply_add_nodes(c, op);
	case WI_SCALE: return wi_apply_scale(c, op);
	case WI_ADD_PODS: return wi_apply_add_pods(c, op);
	case WI_REMOVE_PODS: return wi_apply_remove_pods(c, op);
	case WI_MOVE_PODS: return wi_apply_move_pods(c, op);
	case WI_UNTAINT: return wi_apply_untaint(c, op);
	case WI_RELAX: return wi_apply_relax(c, op);
	case WI_MODE: return wi_apply_full(c, op);
	case WI_STRATEGY: wi_apply_strategy(cfg, op); return KP_OK;
	}
	return KP_OK;
}

int kp_whatif_apply(sqlite3 *db, kp_whatif *w, kp_config *cfg, kp_err *err)
{
	if (kp_whatif_empty(w))
		return KP_OK;
	kp_sort(w->ops, (size_t)w->nops, sizeof *w->ops, cmp_apply, NULL);
	int tables = 0;
	for (int i = 0; i < w->nops; i++) {
		wi_op *op = &w->ops[i];
		op->seq = i + 1;
		op->nodes = op->pending = op->added = op->removed = 0;
		op->nothing_selected = 0;
		kp_sb_reset(&op->effect);
		kp_sb_reset(&op->result);
		tables |= op->kind != WI_STRATEGY;
	}
	w->nodes_made = w->pods_made = 0;
	wctx c = { db, w, err, { NULL } };
	int rc = KP_OK;
	if (tables && (rc = wi_make_tables(&c)) == KP_OK)
		w->tables = 1;
	for (int i = 0; i < w->nops && !rc; i++) {
		wi_op *op = &w->ops[i];
		rc = apply_one(&c, op, cfg);
		if (!rc && !kp_sb_ok(&op->effect))
			rc = kp_err_set(err, KP_NOMEM, "out of memory");
	}
	for (int i = 0; i < WI_Q_COUNT; i++)
		sqlite3_finalize(c.q[i]);
	return rc;
}
