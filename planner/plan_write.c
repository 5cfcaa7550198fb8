/*
 * plan_write.c — the run writer of a plan run (plan_int.h): in the open
 * transaction, one run row, then per pod its placement row (keep, bind,
 * move, evict, unschedulable; with seq, score, feasible nodes, attempts and
 * kube's message) and an unschedulable pod's pod_failure rows, the eviction
 * rows in eviction order, the run_warning rows, plan_quality and
 * plan_stranded (quality.h), and last the run's counts.  The statements are
 * in queries/plan/.  A failed write is KP_IO (KP_INTR when interrupted)
 * with SQLite's message; the caller rolls back.
 *
 * Also kp_plan_report_results: every pod's outcome and every node's
 * resources to kp_plan_opts.on_pod / on_node (explain, capacity), dry runs
 * too.
 */
#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "plan_int.h"
#include "gpu_frag.h"
#include "decisive.h"
#include "quality.h"
#include "storage.h"
#include "dra.h"
#include "../common/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the error of a failed write of `what` (sets pl->err, returns its code) */
static int db_fail(planner *pl, const char *what)
{
	sqlite3 *db = pl->db;
	return kp_interrupted || sqlite3_errcode(db) == SQLITE_INTERRUPT
		? kp_err_set(pl->err, KP_INTR, "interrupted")
		: kp_err_set(pl->err, KP_IO, "cannot write the plan (%s): %s", what, sqlite3_errmsg(db));
}

/* run.kube_version and run.feature_gates (the gates set explicitly); the
 * columns are added to a database from before them (a dry run, which may
 * hold a read-only database, writes them only when they exist) */
static int record_kube(planner *pl, const kp_plan_result *r)
{
	sqlite3 *db = pl->db;
	if (!pl->o->dry_run && (kp_db_add_column(db, "run", "kube_version", "TEXT", pl->err) ||
				kp_db_add_column(db, "run", "feature_gates", "TEXT", pl->err)))
		return pl->err->code;
	char v[16], gates[2048];
	snprintf(v, sizeof v, "1.%d", r->kube.minor);
	kp_kube_gates_text(&r->kube, gates, sizeof gates);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "UPDATE run SET kube_version = ?1, feature_gates = ?2 WHERE id = ?3", -1, &st, NULL) !=
	    SQLITE_OK)
		return pl->o->dry_run ? KP_OK : db_fail(pl, "run");
	sqlite3_bind_text(st, 1, v, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, gates, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, r->run_id);
	int rc = sqlite3_step(st) != SQLITE_DONE ? db_fail(pl, "run") : KP_OK;
	sqlite3_finalize(st);
	return rc;
}

/* the run row: started now, the options, the configuration as JSON; sets r->run_id */
static int insert_run(planner *pl, kp_plan_result *r)
{
	sqlite3 *db = pl->db;
	sqlite3_stmt *st;
	char now[32];
	kp_format_time((int64_t)time(NULL), now, sizeof now);
	if (kp_config_to_json(&pl->cfg))
		return kp_plan_nomem(pl);
	if (sqlite3_prepare_v2(db, kp_sql_plan_run_insert, -1, &st, NULL) != SQLITE_OK)
		return db_fail(pl, "run");
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, pl->o->options_json ? pl->o->options_json : "{}", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, pl->cfg.json, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, pl->cfg.source, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)pl->o->seed);
	sqlite3_bind_text(st, 6, KPLAN_VERSION, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st) != SQLITE_DONE ? db_fail(pl, "run") : KP_OK;
	sqlite3_finalize(st);
	if (!rc)
		r->run_id = sqlite3_last_insert_rowid(db);
	return rc ? rc : record_kube(pl, r);
}

/* pod i's pod_failure rows, each marked decisive or not (decisive.h) */
static int write_failures(planner *pl, sqlite3_stmt *fail, int64_t run_id, int i)
{
	const kp_snap *s = &pl->s;
	const pod_out *po = &pl->out[i];
	int dynamic = 0;
	for (int k = 0; k < po->nfails; k++)
		dynamic |= !kp_decisive_static_plugin(s->reasons[po->fails[k].reason].plugin);
	for (int k = 0; k < po->nfails; k++) {
		const kp_reason *rs = &s->reasons[po->fails[k].reason];
		sqlite3_reset(fail);
		sqlite3_bind_int64(fail, 1, run_id);
		sqlite3_bind_int64(fail, 2, s->pods[i].db_id);
		sqlite3_bind_text(fail, 3, rs->plugin, -1, SQLITE_STATIC);
		sqlite3_bind_text(fail, 4, rs->msg, -1, SQLITE_STATIC);
		sqlite3_bind_int(fail, 5, po->fails[k].count);
		sqlite3_bind_int(fail, 6, kp_decisive(rs->plugin, dynamic));
		if (sqlite3_step(fail) != SQLITE_DONE)
			return KP_IO;
	}
	return KP_OK;
}

/* A placement row: what pod i's outcome is called, the node it is on
 * (-1 none), the node it left (-1 none; moved_from: the db id of the node
 * a what-if scenario took it off, 0 none) and, for a preemption victim, why
 * (*reason, owned; NULL otherwise). */
typedef struct placement_row {
	const char *action;
	int node, from;
	int64_t moved_from;
	char *reason;
} placement_row;

static int placement_of(planner *pl, int i, placement_row *row)
{
	const kp_snap *s = &pl->s;
	const kp_pod *p = &s->pods[i];
	const pod_out *po = &pl->out[i];
	int was_bound = p->orig_node >= 0;
	row->node = row->from = -1;
	row->reason = NULL;
	switch (po->action) {
	case A_BIND:
		row->action = was_bound ? "move" : "bind";
		row->node = po->node;
		row->from = was_bound ? p->orig_node : -1;
		break;
	case A_UNSCHED:
		/* a bound pod evicted whose replacement found no home is an eviction */
		row->action = was_bound ? "evict" : "unschedulable";
		row->from = was_bound ? p->orig_node : -1;
		break;
	case A_EVICTED:
		row->action = "evict";
		row->from = was_bound ? p->orig_node : po->evicted_from;
		break;
	case A_GATED:
		row->action = "unschedulable";
		break;
	default:
		row->action = "keep";
		row->node = p->orig_node;
		break;
	}
	/* what-if (whatif.h): a pod the scenario took off a node moves, stays
	 * (keep: --mode full put it back there) or is unschedulable */
	row->moved_from = !was_bound && (po->action == A_BIND || po->action == A_UNSCHED) ? p->moved_from : 0;
	if (row->moved_from && po->action == A_BIND) {
		row->action = s->node_db_id[row->node] == row->moved_from ? "keep" : "move";
		if (s->node_db_id[row->node] == row->moved_from)
			row->moved_from = 0;
	}
	if (po->evicted_by >= 0 && (po->action == A_EVICTED || (po->action == A_UNSCHED && was_bound))) {
		const kp_pod *by = &s->pods[po->evicted_by];
		kp_sb sb;
		kp_sb_init(&sb);
		kp_sb_printf(&sb, "preempted by %s/%s on %s", kp_str(&s->strs, by->ns), kp_str(&s->strs, by->name),
			     kp_str(&s->strs, s->node_name[po->evicted_from]));
		if (po->action == A_EVICTED)
			kp_sb_adds(&sb, "; no controller re-creates it");
		else
			kp_sb_printf(&sb, "; its replacement found no node: %s", po->message ? po->message : "");
		if (!kp_sb_ok(&sb)) {
			kp_sb_release(&sb);
			return kp_plan_nomem(pl);
		}
		row->reason = sb.buf;
	}
	return KP_OK;
}

/* every pod's placement row, and an unschedulable pod's pod_failure rows */
static int write_placements(planner *pl, int64_t run_id)
{
	sqlite3 *db = pl->db;
	const kp_snap *s = &pl->s;
	sqlite3_stmt *st = NULL, *fail = NULL;
	int rc = KP_OK;
	if (sqlite3_prepare_v2(db, kp_sql_plan_placement_insert, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, kp_sql_plan_pod_failure_insert, -1, &fail, NULL) != SQLITE_OK)
		rc = db_fail(pl, "placement");
	for (int i = 0; i < s->npods && !rc; i++) {
		const kp_pod *p = &s->pods[i];
		const pod_out *po = &pl->out[i];
		placement_row row;
		if (pl->hide && pl->hide[i])
			continue;   /* gone with its node (plan_survive.c) */
		if ((rc = placement_of(pl, i, &row)))
			break;
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, p->db_id);
		sqlite3_bind_text(st, 4, row.action, -1, SQLITE_STATIC);
		if (row.node >= 0)
			sqlite3_bind_int64(st, 5, s->node_db_id[row.node]);
		if (row.from >= 0)
			sqlite3_bind_int64(st, 10, s->node_db_id[row.from]);
		else if (row.moved_from)
			sqlite3_bind_int64(st, 10, row.moved_from);
		if (po->action == A_BIND || po->action == A_UNSCHED || po->action == A_EVICTED) {
			sqlite3_bind_int(st, 3, po->seq);
			if (po->has_score && po->action == A_BIND)
				sqlite3_bind_int64(st, 6, po->score);
			sqlite3_bind_int(st, 7, po->feasible);
			sqlite3_bind_int(st, 8, po->attempts);
		}
		if (row.reason)
			sqlite3_bind_text(st, 9, row.reason, -1, SQLITE_TRANSIENT);
		else if (po->message)
			sqlite3_bind_text(st, 9, po->message, -1, SQLITE_STATIC);
		kp_free(row.reason);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(pl, "placement");
		else if (po->action == A_UNSCHED && write_failures(pl, fail, run_id, i))
			rc = db_fail(pl, "pod_failure");
	}
	sqlite3_finalize(st);
	sqlite3_finalize(fail);
	return rc;
}

/* the eviction rows, in eviction order */
static int write_evictions(planner *pl, int64_t run_id)
{
	const kp_snap *s = &pl->s;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_eviction_insert, -1, &st, NULL) != SQLITE_OK)
		return db_fail(pl, "eviction");
	int rc = KP_OK;
	for (int i = 0; i < pl->nev && !rc; i++) {
		const eviction_rec *e = &pl->ev[i];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, i + 1);
		sqlite3_bind_int64(st, 3, s->pods[e->pod].db_id);
		sqlite3_bind_int64(st, 4, s->node_db_id[e->node]);
		sqlite3_bind_int64(st, 5, s->pods[e->preemptor].db_id);
		sqlite3_bind_int(st, 6, e->violated);
		sqlite3_bind_text(st, 7, e->pdbs, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(pl, "eviction");
	}
	sqlite3_finalize(st);
	return rc;
}

/* VolumeBinding's decisions (volume_decision); the table is made on a
 * database from before it (a dry run writes only into its TEMP copy) */
static int write_volume_decisions(planner *pl, int64_t run_id)
{
	const kp_snap *s = &pl->s;
	const kp_storage *st = s->st;
	if (!st || !st->ndec)
		return KP_OK;
	if (!pl->o->dry_run && kp_db_schema_section(pl->db, "storage", "storage tables", pl->err))
		return pl->err->code;
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_volume_decision_insert, -1, &q, NULL) != SQLITE_OK)
		return pl->o->dry_run ? KP_OK : db_fail(pl, "volume_decision");
	int rc = KP_OK;
	for (int i = 0; i < st->ndec && !rc; i++) {
		const kp_vdecision *d = &st->dec[i];
		const kp_claim *c = &st->claims[d->claim];
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, run_id);
		sqlite3_bind_int(q, 2, i + 1);
		sqlite3_bind_int64(q, 3, s->pods[d->pod].db_id);
		sqlite3_bind_int64(q, 4, c->db_id);
		sqlite3_bind_text(q, 5, kp_str(&s->strs, c->ns), -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 6, kp_str(&s->strs, c->name), -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 7, d->pv >= 0 ? "bind" : "provision", -1, SQLITE_STATIC);
		if (d->pv >= 0)
			sqlite3_bind_text(q, 8, kp_str(&s->strs, st->pvs[d->pv].name), -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 9, s->node_db_id[d->node]);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = db_fail(pl, "volume_decision");
	}
	sqlite3_finalize(q);
	return rc;
}

/* the devices the run allocated (dra_allocation); the table is made on a
 * database from before it (a dry run writes only into its TEMP copy) */
static int write_dra_allocations(planner *pl, int64_t run_id)
{
	const kp_snap *s = &pl->s;
	const kp_dra *d = s->dra;
	if (!d || (!d->nrun && !d->next_run))
		return KP_OK;
	if (!pl->o->dry_run && (kp_db_schema_section(pl->db, "dra", "DRA tables", pl->err) ||
				kp_db_add_column(pl->db, "dra_allocation", "consumed", "TEXT", pl->err)))
		return pl->err->code;
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_dra_allocation_insert, -1, &q, NULL) != SQLITE_OK)
		return pl->o->dry_run ? KP_OK : db_fail(pl, "dra_allocation");
	int rc = KP_OK, seq = 0;
	/* per claim, the last of the run's allocations of it */
	int32_t *last = kp_malloc(((size_t)d->nclaims + 1) * sizeof *last);
	if (!last) {
		sqlite3_finalize(q);
		return kp_plan_nomem(pl);
	}
	for (int i = 0; i < d->nrun; i++)
		last[d->run[i].claim] = i;
	for (int i = 0; i < d->nrun && !rc; i++) {
		const kp_dclaim *c = &d->claims[d->run[i].claim];
		/* what the run holds at its end: an allocation given back (the pod
		 * evicted, or a rebalance proposal undone) or made again later is
		 * not the run's */
		if (!c->run_allocated || last[d->run[i].claim] != i)
			continue;
		for (uint32_t k = 0; k < c->nresults && !rc; k++) {
			const kp_device *v = &d->devices[c->results[k].device];
			const kp_dpool *p = &d->pools[v->pool];
			sqlite3_reset(q);
			sqlite3_bind_int64(q, 1, run_id);
			sqlite3_bind_int(q, 2, ++seq);
			sqlite3_bind_int64(q, 3, s->pods[d->run[i].pod].db_id);
			sqlite3_bind_int64(q, 4, c->db_id);
			sqlite3_bind_text(q, 5, kp_str(&s->strs, c->ns), -1, SQLITE_STATIC);
			sqlite3_bind_text(q, 6, kp_str(&s->strs, c->name), -1, SQLITE_STATIC);
			sqlite3_bind_text(q, 7, kp_str(&s->strs, c->results[k].request), -1, SQLITE_STATIC);
			sqlite3_bind_text(q, 8, kp_str(&s->strs, p->driver), -1, SQLITE_STATIC);
			sqlite3_bind_text(q, 9, kp_str(&s->strs, p->name), -1, SQLITE_STATIC);
			sqlite3_bind_text(q, 10, kp_str(&s->strs, v->name), -1, SQLITE_STATIC);
			sqlite3_bind_int(q, 11, c->results[k].admin);
			sqlite3_bind_int64(q, 12, s->node_db_id[d->run[i].node]);
			kp_sb js;
			kp_sb_init(&js);
			if (c->results[k].share && c->results[k].consumed) {
				/* a share: what it consumes, so --from-run gives the device back as shared */
				kp_sb_addc(&js, '[');
				for (uint32_t m = 0; m < v->ncaps; m++) {
					kp_sb_adds(&js, m ? ",[" : "[");
					kp_sb_add_json_str(&js, kp_str(&s->strs, v->caps[m].domain));
					kp_sb_addc(&js, ',');
					kp_sb_add_json_str(&js, kp_str(&s->strs, v->caps[m].name));
					kp_sb_printf(&js, ",%lld]", (long long)c->results[k].consumed[m]);
				}
				kp_sb_addc(&js, ']');
				if (!kp_sb_ok(&js))
					rc = db_fail(pl, "dra_allocation");
				sqlite3_bind_text(q, 13, kp_sb_str(&js), -1, SQLITE_TRANSIENT);
			} else {
				sqlite3_bind_null(q, 13);
			}
			kp_sb_release(&js);
			if (!rc && sqlite3_step(q) != SQLITE_DONE)
				rc = db_fail(pl, "dra_allocation");
		}
	}
	/* extended resources (§16.8): kube's claim <pod>-extended-resources-* */
	for (int i = 0; i < d->next_run && !rc; i++) {
		const struct kp_dext *e = &d->ext_run[i];
		if (e->released)
			continue;
		const kp_device *v = &d->devices[e->device];
		const kp_dpool *p = &d->pools[v->pool];
		char claim[600];
		snprintf(claim, sizeof claim, "%s-extended-resources", kp_str(&s->strs, s->pods[e->pod].name));
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, run_id);
		sqlite3_bind_int(q, 2, ++seq);
		sqlite3_bind_int64(q, 3, s->pods[e->pod].db_id);
		sqlite3_bind_int64(q, 4, 0);
		sqlite3_bind_text(q, 5, kp_str(&s->strs, s->pods[e->pod].ns), -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 6, claim, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 7, kp_str(&s->strs, e->request), -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 8, kp_str(&s->strs, p->driver), -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 9, kp_str(&s->strs, p->name), -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 10, kp_str(&s->strs, v->name), -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 11, 0);
		sqlite3_bind_int64(q, 12, s->node_db_id[e->node]);
		sqlite3_bind_null(q, 13);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = db_fail(pl, "dra_allocation");
	}
	kp_free(last);
	sqlite3_finalize(q);
	return rc;
}

/* the run_warning rows: "kind: message" (the message's leading number is
 * the pods it is about) */
static int write_warnings(planner *pl, const kp_plan_result *r)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_run_warning_insert, -1, &st, NULL) != SQLITE_OK)
		return db_fail(pl, "run_warning");
	int rc = KP_OK;
	for (int i = 0; i < r->nwarnings && !rc; i++) {
		char kind[64];
		const char *colon = strchr(r->warnings[i], ':');
		snprintf(kind, sizeof kind, "%.*s", colon ? (int)(colon - r->warnings[i]) : 20, r->warnings[i]);
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, r->run_id);
		sqlite3_bind_text(st, 2, kind, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, colon ? colon + 2 : r->warnings[i], -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, atoll(colon ? colon + 2 : "0"));
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(pl, "run_warning");
	}
	sqlite3_finalize(st);
	return rc;
}

/* the run's counts and elapsed time (r->elapsed: since t0) */
static int update_run(planner *pl, kp_plan_result *r, double t0)
{
	sqlite3_stmt *st;
	r->elapsed = kp_now() - t0;
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_run_update, -1, &st, NULL) != SQLITE_OK)
		return db_fail(pl, "run");
	sqlite3_bind_int64(st, 1, r->run_id);
	sqlite3_bind_int64(st, 2, r->nodes);
	sqlite3_bind_int64(st, 3, r->pending);
	sqlite3_bind_int64(st, 4, r->bound);
	sqlite3_bind_int64(st, 5, r->unschedulable);
	sqlite3_bind_int64(st, 6, r->kept);
	sqlite3_bind_int64(st, 7, r->ignored);
	sqlite3_bind_int64(st, 8, r->passes);
	sqlite3_bind_double(st, 9, r->elapsed);
	sqlite3_bind_int64(st, 10, r->evicted);
	sqlite3_bind_int64(st, 11, r->moved);
	int rc = sqlite3_step(st) != SQLITE_DONE ? db_fail(pl, "run") : KP_OK;
	sqlite3_finalize(st);
	return rc;
}

/* temp.kp_q_attach_in for plan quality: per node and driver with a CSINode
 * limit, the limit and the unique volumes of the app pods (not DaemonSet or
 * static pods) there, each volume counted on the first node that has it */
static int write_attach_slots(planner *pl)
{
	kp_snap *s = &pl->s;
	const kp_storage *st = s->st;
	if (sqlite3_exec(pl->db, kp_sql_plan_attach_table, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(pl->db, "DELETE FROM temp.kp_q_attach_in", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(pl, "plan quality (attach slots)");
	if (!st || !st->limit_off[s->nnodes])
		return KP_OK;
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(pl->db, kp_sql_plan_attach_insert, -1, &q, NULL) != SQLITE_OK)
		return db_fail(pl, "plan quality (attach slots)");
	kp_dmap seen;
	int rc = kp_dmap_init(&seen, 256) ? kp_plan_nomem(pl) : KP_OK;
	for (int n = 0; n < s->nnodes && !rc; n++) {
		for (int32_t l = st->limit_off[n]; l < st->limit_off[n + 1] && !rc; l++) {
			int64_t app = 0;
			for (uint32_t j = 0; j < s->nnode_pods[n]; j++) {
				int32_t pi = s->node_pods[n][j];
				if (kp_snap_pod_per_node(s, &s->pods[pi]))
					continue;
				for (int32_t v = st->vol_off[pi]; v < st->vol_off[pi + 1]; v++) {
					kp_volkey k = kp_storage_volkey(s, &st->vols[v], n);
					if (k.unique < 0 || k.driver != st->limit_drv[l] || kp_dmap_get(&seen, k.unique))
						continue;
					if (!kp_dmap_put(&seen, k.unique)) {
						rc = kp_plan_nomem(pl);
						break;
					}
					app++;
				}
			}
			sqlite3_reset(q);
			sqlite3_bind_int64(q, 1, s->node_db_id[n]);
			sqlite3_bind_text(q, 2, kp_str(&s->strs, st->limit_drv[l]), -1, SQLITE_STATIC);
			sqlite3_bind_int64(q, 3, st->limit_cnt[l]);
			sqlite3_bind_int64(q, 4, app);
			if (!rc && sqlite3_step(q) != SQLITE_DONE)
				rc = db_fail(pl, "plan quality (attach slots)");
		}
	}
	kp_dmap_release(&seen);
	sqlite3_finalize(q);
	return rc;
}

int kp_plan_write_run(planner *pl, kp_plan_result *r, double t0)
{
	int rc = insert_run(pl, r);
	if (!rc)
		rc = kp_decisive_schema(pl->db, pl->err);   /* pod_failure.decisive on older databases */
	if (!rc)
		rc = write_placements(pl, r->run_id);
	if (!rc)
		rc = write_evictions(pl, r->run_id);
	if (!rc)
		rc = write_volume_decisions(pl, r->run_id);
	if (!rc)
		rc = write_dra_allocations(pl, r->run_id);
	/* gpu_fragmentation, gpu_typical_shape: a dry run's answers do not read them */
	if (!rc && pl->s.dra && !pl->o->dry_run)
		rc = kp_db_schema_section(pl->db, "dra", "DRA tables", pl->err) ? pl->err->code
			: kp_gpus_write(&pl->s, pl->db, r->run_id, pl->err);
	if (!rc)
		rc = write_warnings(pl, r);
	if (!rc)
		rc = kp_plan_extenders_write(pl, r->run_id);   /* extender_call */
	if (!rc)
		rc = write_attach_slots(pl);
	if (!rc)
		rc = kp_quality_write(pl->db, r->run_id, pl->o->pool_label, pl->err);   /* plan_quality, plan_stranded */
	sqlite3_exec(pl->db, "DROP TABLE IF EXISTS temp.kp_q_attach_in", NULL, NULL, NULL);
	if (!rc)
		rc = update_run(pl, r, t0);
	return rc;
}

/* kp_plan_pod.fits_empty_added for class c (profile prof) on added node a,
 * whose DaemonSet pods request over[] (per resource) and number nds */
static int fits_empty_node(const planner *pl, int32_t pi, const kp_class *c, int prof, int a, const int64_t *over, int64_t nds)
{
	if (c->feasible && !(c->feasible[a >> 6] >> (a & 63) & 1))
		return 0;   /* a static filter rejects the node */
	if (!kp_storage_node_possible((kp_snap *)&pl->s, pi, a))
		return 0;   /* a PV's node affinity or zone, or a class's allowedTopologies */
	if (!kp_dra_fits_node((kp_cycle *)&pl->cy, pi, a))
		return 0;   /* its ResourceClaims find no devices there */
	return kp_plan_requests_fit(&pl->s, c, &pl->cfg.profiles[prof], a, over, nds);
}

int kp_plan_report_results(planner *pl)
{
	const kp_plan_opts *o = pl->o;
	kp_snap *s = &pl->s;
	/* the first node the scenario added, and what its DaemonSet pods take */
	int added = -1;
	int64_t nds = 0, *over = NULL;
	for (int n = 0; o->on_pod && n < s->nnodes && added < 0; n++)
		if (s->node_db_id[n] < 0)
			added = n;
	if (added >= 0) {
		if (!(over = kp_calloc((size_t)s->nres, sizeof *over)))
			return kp_plan_nomem(pl);
		for (int i = 0; i < s->npods; i++) {
			const kp_pod *q = &s->pods[i];
			if (q->node != added || q->daemon_node != added)
				continue;
			const kp_class *qc = &s->classes[q->cls];
			for (uint32_t k = 0; k < qc->nreq; k++)
				over[qc->req_res[k]] += qc->req_val[k];
			nds++;
		}
	}
	int npods = pl->report_pods ? pl->nreport_pods : s->npods;
	for (int k = 0; o->on_pod && k < npods; k++) {
		int i = pl->report_pods ? pl->report_pods[k] : k;
		const kp_pod *p = &s->pods[i];
		const pod_out *po = &pl->out[i];
		if ((pl->hide && pl->hide[i]) || (pl->report_changed && po->action == A_KEEP && p->node == p->orig_node))
			continue;   /* gone with its node; kept (plan_survive.c) */
		int was_bound = p->orig_node >= 0;
		char gang_why[600];
		kp_plan_pod r = { .pod_id = p->db_id, .class_id = s->classes[p->cls].db_id,
				  .priority = s->classes[p->cls].priority, .ns = kp_str(&s->strs, p->ns),
				  .name = kp_str(&s->strs, p->name), .displaced = was_bound || p->moved_from != 0,
				  .seq = po->seq, .message = po->message };
		r.gang = kp_gang_of(pl, i, &r.gang_min, &r.gang_size);
		int node = -1;
		switch (po->action) {
		case A_BIND:
			node = po->node;
			r.action = was_bound || (p->moved_from && s->node_db_id[node] != p->moved_from) ? "move" : "bind";
			if (!was_bound && p->moved_from && s->node_db_id[node] == p->moved_from)
				r.action = "keep";
			break;
		case A_UNSCHED: r.action = was_bound ? "evict" : "unschedulable"; break;
		case A_EVICTED: r.action = "evict"; break;
		case A_GATED: r.action = "unschedulable"; break;
		case A_IGNORED: r.action = "ignored"; break;
		case A_DONE: r.action = "done"; break;
		default:
			r.action = "keep";
			node = p->orig_node >= 0 ? p->orig_node : p->node;
			break;
		}
		if (node >= 0) {
			r.node_id = s->node_db_id[node];
			r.node = kp_str(&s->strs, s->node_name[node]);
			if ((r.gang_broken = kp_gang_broken(pl, i, gang_why, sizeof gang_why)))
				r.message = gang_why;
		}
		if (s->dra && s->dra->gpus)
			r.gpu_milli = (int64_t)s->dra->gpus->pod_n[i] * s->dra->gpus->pod_milli[i];
		r.fits_empty_added = -1;
		if (added >= 0 && po->action == A_UNSCHED && pl->prof_of_class[p->cls] >= 0)
			r.fits_empty_added = fits_empty_node(pl, i, &s->classes[p->cls], pl->prof_of_class[p->cls], added, over, nds);
		kp_sb pin;
		kp_sb_init(&pin);
		if (po->action == A_UNSCHED && kp_storage_pin_text(s, i, &pin) && kp_sb_ok(&pin))
			r.pinned = kp_sb_str(&pin);
		int stop = o->on_pod(o->result_ctx, &r);
		kp_sb_release(&pin);
		if (stop) {
			kp_free(over);
			return pl->err->code ? pl->err->code : kp_err_set(pl->err, KP_ERROR, "stopped");
		}
	}
	kp_free(over);
	for (int n = 0; o->on_node && n < s->nnodes; n++)
		for (int k = 0; k < s->nres && !kp_snap_gone(s, n); k++) {
			kp_plan_node r = { .node_id = s->node_db_id[n], .node = kp_str(&s->strs, s->node_name[n]),
					   .resource = kp_str(&s->strs, s->res_name[k]), .allocatable = s->alloc[n * s->nres + k],
					   .requested = k == 3 ? s->node_npods[n] : s->used[n * s->nres + k] };
			if ((r.allocatable || r.requested) && o->on_node(o->result_ctx, &r))
				return pl->err->code ? pl->err->code : kp_err_set(pl->err, KP_ERROR, "stopped");
		}
	/* the GPUs as devices, per node */
	for (int n = 0; o->on_node && s->dra && s->dra->gpus && n < s->nnodes; n++) {
		int k;
		int64_t free_ = kp_gpus_node_free(s, n, &k);
		kp_plan_node r = { .node_id = s->node_db_id[n], .node = kp_str(&s->strs, s->node_name[n]),
				   .resource = KP_PLAN_GPU_RES, .allocatable = (int64_t)k * KP_GPU_MILLI,
				   .requested = (int64_t)k * KP_GPU_MILLI - free_ };
		if (k && o->on_node(o->result_ctx, &r))
			return pl->err->code ? pl->err->code : kp_err_set(pl->err, KP_ERROR, "stopped");
	}
	return KP_OK;
}
