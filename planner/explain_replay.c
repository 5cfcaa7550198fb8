/*
 * explain_replay.c — kp_explain_run (explain.h): find the pod and the run,
 * rebuild the run's options from run.options (what `plan` recorded: seed,
 * config, no_preemption, reference, mode, strategy, whatif, rebalance),
 * replay it as a dry run with the pod's attempts captured, compare the
 * replay's outcome with the run's placement row, and order the nodes,
 * closest first.
 */
#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "explain.h"
#include "plan.h"
#include "whatif.h"
#include "rebalance.h"
#include "../common/kube_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int db_fail(sqlite3 *db, kp_err *err, const char *what)
{
	return kp_err_set(err, kp_interrupted ? KP_INTR : KP_IO, "cannot read %s: %s", what, sqlite3_errmsg(db));
}

static void copy_col(sqlite3_stmt *st, int i, char *dst, size_t size)
{
	const char *v = (const char *)sqlite3_column_text(st, i);
	snprintf(dst, size, "%s", v ? v : "");
}

/* the pod: imported, else one the run's scenario added (a negative id; the
 * replay makes it again with the same id) */
static int find_pod(sqlite3 *db, const kp_explain_opts *o, int64_t run, int64_t *id)
{
	static const char *const sql[] = { kp_sql_explain_pod, kp_sql_explain_added_pod };
	*id = 0;
	for (int i = 0; i < 2 && !*id; i++) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, sql[i], -1, &st, NULL) != SQLITE_OK)
			continue;   /* no run_pod: a database made before what-if */
		sqlite3_bind_text(st, 1, o->ns, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, o->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, run);
		if (sqlite3_step(st) == SQLITE_ROW)
			*id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return KP_OK;
}

/* the run's options -> a plan's options (cmd_plan.c writes them) */
typedef struct replay {
	kp_plan_opts o;
	kp_whatif *w;
	kp_rebalance *rb;
	kp_sb scenario;
	const struct kp_whatif_importer *importer;
	char kube_version[16], feature_gates[2048];   /* the run's (kube_db.h) */
	char nodes_to_score[16];                      /* the run's --nodes-to-score, "" none */
	char tie_break[16];                           /* the run's --tie-break, "" none */
} replay;

static int add_whatif(replay *rp, const char *option, const char *value, kp_err *err)
{
	if (!rp->w) {
		if (!(rp->w = kp_whatif_new()))
			return kp_err_set(err, KP_NOMEM, "out of memory");
		kp_whatif_set_importer(rp->w, rp->importer);
	}
	kp_sb_printf(&rp->scenario, "%s--%s %s", rp->scenario.len ? " " : "", option, value);
	return kp_whatif_add(rp->w, option, value, err);
}

/* the what-if options, in the order given */
static int read_whatif(sqlite3 *db, const char *options, replay *rp, kp_err *err)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, kp_sql_explain_whatif_options, -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, err, "the run's options");
	sqlite3_bind_text(st, 1, options, -1, SQLITE_STATIC);
	int rc = KP_OK;
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		const char *opt = (const char *)sqlite3_column_text(st, 0), *val = (const char *)sqlite3_column_text(st, 1);
		if (opt && val)
			rc = add_whatif(rp, opt, val, err);
	}
	sqlite3_finalize(st);
	return rc;
}

static int read_options(sqlite3 *db, const char *options, kp_explain_result *x, replay *rp, kp_err *err)
{
	int rc = read_whatif(db, options, rp, err);
	sqlite3_stmt *st;
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(db, kp_sql_explain_run_options, -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, err, "the run's options");
	sqlite3_bind_text(st, 1, options, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_NULL && !(x->config = kp_strdup((const char *)sqlite3_column_text(st, 0))))
			rc = kp_err_set(err, KP_NOMEM, "out of memory");
		x->no_preemption = sqlite3_column_int(st, 1);
		x->reference = sqlite3_column_int(st, 2);
		if (sqlite3_column_text(st, 7))
			snprintf(rp->nodes_to_score, sizeof rp->nodes_to_score, "%s", (const char *)sqlite3_column_text(st, 7));
		if (sqlite3_column_text(st, 8))
			snprintf(rp->tie_break, sizeof rp->tie_break, "%s", (const char *)sqlite3_column_text(st, 8));
		const char *mode = (const char *)sqlite3_column_text(st, 3), *strategy = (const char *)sqlite3_column_text(st, 4);
		const char *rebalance = (const char *)sqlite3_column_text(st, 5);
		snprintf(x->mode, sizeof x->mode, "%s", mode ? mode : "pending");
		if (!rc && mode && !strcmp(mode, "full"))
			rc = add_whatif(rp, "mode", "full", err);
		if (!rc && strategy)
			rc = add_whatif(rp, "strategy", strategy, err);
		if (!rc && mode && !strcmp(mode, "rebalance")) {
			kp_sb_printf(&rp->scenario, "%s--mode rebalance --strategies %s", rp->scenario.len ? " " : "",
				     sqlite3_column_text(st, 6) ? (const char *)sqlite3_column_text(st, 6) : "(none)");
			if (!(rp->rb = kp_rebalance_new()))
				rc = kp_err_set(err, KP_NOMEM, "out of memory");
			else
				rc = kp_rebalance_load_settings(rp->rb, rebalance ? rebalance : "{}", err);
		}
	}
	sqlite3_finalize(st);
	if (!rc && !kp_sb_ok(&rp->scenario))
		rc = kp_err_set(err, KP_NOMEM, "out of memory");
	if (!rc && rp->scenario.len && !(x->scenario = kp_strdup(kp_sb_str(&rp->scenario))))
		rc = kp_err_set(err, KP_NOMEM, "out of memory");
	return rc;
}

/* the run (o->run, else the latest), its seed and options; x->run 0: none */
static int read_run(sqlite3 *db, const kp_explain_opts *o, kp_explain_result *x, replay *rp, kp_err *err)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, kp_sql_explain_run, -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, err, "the runs");
	sqlite3_bind_int64(st, 1, o->run);
	char *options = NULL;
	if (sqlite3_step(st) == SQLITE_ROW) {
		x->run = sqlite3_column_int64(st, 0);
		x->seed = (uint64_t)sqlite3_column_int64(st, 1);
		options = kp_strdup(sqlite3_column_type(st, 2) == SQLITE_NULL ? "{}" : (const char *)sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
	if (!x->run && o->run)
		return kp_err_set(err, KP_ERROR, "no run %lld in '%s'", (long long)o->run, o->db_name ? o->db_name : "the database");
	if (!x->run)
		return KP_OK;
	if (!options)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	int rc = read_options(db, options, x, rp, err);
	kp_free(options);
	return rc;
}

/* the run's placement row for the pod */
static int read_recorded(sqlite3 *db, kp_explain_result *x, kp_err *err)
{
	sqlite3_stmt *st = NULL;
	/* a database made before what-if has no run_node */
	if (sqlite3_prepare_v2(db, kp_sql_explain_placement, -1, &st, NULL) != SQLITE_OK &&
	    sqlite3_prepare_v2(db, kp_sql_explain_placement_before_whatif, -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, err, "the run's placements");
	sqlite3_bind_int64(st, 1, x->run);
	sqlite3_bind_int64(st, 2, x->pod_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		x->recorded = 1;
		copy_col(st, 0, x->rec.action, sizeof x->rec.action);
		copy_col(st, 1, x->rec.node, sizeof x->rec.node);
		copy_col(st, 2, x->rec.from_node, sizeof x->rec.from_node);
		copy_col(st, 3, x->rec.message, sizeof x->rec.message);
	}
	sqlite3_finalize(st);
	return KP_OK;
}

/* kp_plan_opts.on_pod: the pod's outcome in the replay */
static int on_pod(void *ctx, const kp_plan_pod *p)
{
	kp_explain_result *x = ctx;
	if (p->pod_id != x->pod_id)
		return 0;
	snprintf(x->got.action, sizeof x->got.action, "%s", p->action);
	snprintf(x->got.node, sizeof x->got.node, "%s", p->node ? p->node : "");
	snprintf(x->got.message, sizeof x->got.message, "%s", p->message ? p->message : "");
	return 0;
}

/* ---- closest nodes (explain.h) ---- */


/* 0 passed, 1 failed filters that depend on other pods or resources only,
 * 2 failed a static filter (or is not a target of a rebalance move), 3 not evaluated */
static int node_class(const kp_explain_node *n)
{
	static const uint32_t statics = 1u << KP_P_NODE_UNSCHEDULABLE | 1u << KP_P_NODE_NAME |
					1u << KP_P_TAINT_TOLERATION | 1u << KP_P_NODE_AFFINITY;
	if (n->feasible)
		return 0;
	if (!n->evaluated)
		return 3;
	return (n->failed & statics) || !n->failed ? 2 : 1;
}

static int popcount(uint32_t v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static int cmp_closest(const void *a, const void *b, void *ctx)
{
	const kp_explain *rank_ex = ctx;
	const kp_explain_node *x = &rank_ex->nodes[*(const int *)a], *y = &rank_ex->nodes[*(const int *)b];
	int cx = node_class(x), cy = node_class(y);
	if (cx != cy)
		return cx - cy;
	if (!cx) {
		if (x->total != y->total)
			return x->total > y->total ? -1 : 1;
		if (x->tiebreak != y->tiebreak)
			return x->tiebreak > y->tiebreak ? -1 : 1;
	} else {
		int fx = popcount(x->failed), fy = popcount(y->failed);
		if (fx != fy)
			return fx - fy;
		if (x->too_small != y->too_small)
			return x->too_small - y->too_small;
		if (x->shortfall != y->shortfall)
			return x->shortfall < y->shortfall ? -1 : 1;
	}
	return strcmp(x->node, y->node);
}

static int rank(kp_explain_result *x, kp_err *err)
{
	int n = x->ex.nnodes;
	if (!(x->order = kp_malloc((size_t)(n ? n : 1) * sizeof *x->order)))
		return kp_err_set(err, KP_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		x->order[i] = i;
	kp_sort(x->order, (size_t)n, sizeof *x->order, cmp_closest, (void *)&x->ex);
	return KP_OK;
}

/* ---- the replay ---- */

/* the recorded decision and the replay's: same action, same node (placement
 * records a pod left to another scheduler, or finished, as keep) */
static int same_outcome(const kp_explain_outcome *rec, const kp_explain_outcome *got)
{
	int kept = !strcmp(rec->action, "keep") && (!strcmp(got->action, "ignored") || !strcmp(got->action, "done"));
	return (kept || !strcmp(rec->action, got->action)) && !strcmp(rec->node, got->node);
}

static int replay_run(sqlite3 *db, kp_explain_result *x, replay *rp, kp_err *err)
{
	kp_plan_opts *o = &rp->o;
	o->seed = x->seed;
	o->no_preemption = x->no_preemption;
	o->reference = x->reference;
	o->config_file = x->config;
	o->nodes_to_score = rp->nodes_to_score[0] ? rp->nodes_to_score : NULL;
	o->tie_break = rp->tie_break[0] ? rp->tie_break : NULL;
	/* as the run was planned: its version and gates, not today's settings */
	if (x->run && kp_kube_of_run(db, x->run, rp->kube_version, sizeof rp->kube_version, rp->feature_gates,
				     sizeof rp->feature_gates)) {
		o->kube_version = rp->kube_version;
		o->feature_gates = rp->feature_gates;
		o->kube_exact = 1;
	}
	o->dry_run = 1;
	o->explain = &x->ex;
	o->whatif = rp->w;
	o->rebalance = rp->rb;
	o->on_pod = on_pod;
	o->result_ctx = x;
	x->ex.pod_db_id = x->pod_id;
	kp_plan_result r;
	int rc = kp_plan_run(db, o, &r, err);
	if (rc && x->run) {
		char msg[2048];
		kp_err_format(err, msg, sizeof msg);
		kp_err_clear(err);
		int files = x->config || (x->scenario && strstr(x->scenario, "--add-nodes"));
		return kp_err_set(err, rc, "cannot replay run %lld: %s%s", (long long)x->run, msg,
				  files ? " (the replay reads the files the run named, --config and --add-nodes, as they are "
					  "now, relative to the current directory)" : "");
	}
	if (rc)
		return rc;
	snprintf(x->config_source, sizeof x->config_source, "%s", r.config_source);
	kp_kube_describe(&r.kube, x->kube, sizeof x->kube);
	if (x->ex.found && !strcmp(x->got.action, "move"))
		snprintf(x->got.from_node, sizeof x->got.from_node, "%s", x->ex.from_node);
	x->agrees = x->recorded && same_outcome(&x->rec, &x->got);
	return KP_OK;
}

int kp_explain_run(sqlite3 *db, const kp_explain_opts *o, kp_explain_result *x, kp_err *err)
{
	memset(x, 0, sizeof *x);
	x->seed = KP_DEFAULT_SEED;
	x->ex.chosen = -1;
	snprintf(x->mode, sizeof x->mode, "pending");
	replay rp;
	memset(&rp, 0, sizeof rp);
	rp.importer = o->importer;
	kp_sb_init(&rp.scenario);
	int rc = read_run(db, o, x, &rp, err);
	if (!rc)
		rc = find_pod(db, o, x->run, &x->pod_id);
	if (!rc && !x->pod_id)
		rc = kp_err_set(err, KP_ERROR, "no pod '%s/%s' in '%s'", o->ns, o->name, o->db_name ? o->db_name : "the database");
	if (!rc && x->run)
		rc = read_recorded(db, x, err);
	if (!rc)
		rc = replay_run(db, x, &rp, err);
	if (!rc)
		rc = rank(x, err);
	kp_whatif_free(rp.w);
	kp_rebalance_free(rp.rb);
	kp_sb_release(&rp.scenario);
	return rc;
}

void kp_explain_result_release(kp_explain_result *x)
{
	if (!x)
		return;
	kp_explain_release(&x->ex);
	kp_free(x->scenario);
	kp_free(x->config);
	kp_free(x->order);
	x->scenario = x->config = NULL;
	x->order = NULL;
}
