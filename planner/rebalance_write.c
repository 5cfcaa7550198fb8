/*
 * rebalance_write.c — the rebalance tables of one run (kp_rebalance_write):
 * rebalance_run (the settings and totals), move_wave (one row a move),
 * rebalance_util (utilisation before and after, per resource) and
 * rebalance_node (nodes moved from, to, or freed), and run.mode.  The
 * statements are in queries/rebalance/.  Contract: inside the run's
 * transaction, after its placement rows; KP_OK, or KP_IO / KP_INTR /
 * KP_NOMEM with a message in err (the caller rolls back).
 */
#include "rebalance_int.h"
#include "../common/db.h"

#include <math.h>
#include <string.h>

/* the schema's rebalance section, for a database made before it existed */
static int ensure_tables(sqlite3 *db, kp_err *err)
{
	int rc = kp_db_schema_section(db, "rebalance", "plan (rebalance tables)", err);
	/* rebalance_run.kept came later: add it to a table made without it */
	sqlite3_stmt *st;
	if (!rc && sqlite3_prepare_v2(db, "SELECT kept FROM rebalance_run LIMIT 0", -1, &st, NULL) != SQLITE_OK &&
	    sqlite3_exec(db, "ALTER TABLE rebalance_run ADD COLUMN kept INTEGER NOT NULL DEFAULT 0", NULL, NULL, NULL) !=
		    SQLITE_OK)
		return kp_err_set(err, KP_IO, "cannot write the plan (rebalance tables): %s", sqlite3_errmsg(db));
	if (!rc)
		sqlite3_finalize(st);
	return rc;
}

int kp_rebalance_write(sqlite3 *db, kp_rebalance *rb, const kp_snap *s, int64_t run_id, kp_err *err)
{
	int rc = ensure_tables(db, err);
	if (rc)
		return rc;
	sqlite3_stmt *st = NULL;
	kp_sb sb, names;
	kp_sb_init(&sb);
	kp_sb_init(&names);
	kp_rb_settings_json(rb, &sb);
	for (int i = 0, first = 1; i < S_COUNT; i++)
		if (rb->strategies & (1u << i)) {
			kp_sb_printf(&names, "%s%s", first ? "" : ",", kp_rb_snames[i]);
			first = 0;
		}
	int32_t *in = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), sizeof *in);
	int32_t *out = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), sizeof *out);
#define FAIL(what) do { rc = kp_err_set(err, kp_interrupted ? KP_INTR : KP_IO, "cannot write the plan (%s): %s", what, \
				       sqlite3_errmsg(db)); goto done; } while (0)
	if (!kp_sb_ok(&sb) || !kp_sb_ok(&names) || !in || !out) {
		rc = kp_err_set(err, KP_NOMEM, "out of memory");
		goto done;
	}
	if (sqlite3_prepare_v2(db, kp_sql_rebalance_insert_run, -1, &st, NULL) != SQLITE_OK)
		FAIL("rebalance_run");
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, kp_sb_str(&names), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, kp_sb_str(&sb), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, rb->nmoves);
	sqlite3_bind_int(st, 5, rb->nwaves);
	sqlite3_bind_int64(st, 6, rb->nodes_freed);
	sqlite3_bind_double(st, 7, rb->cost);
	sqlite3_bind_int64(st, 8, rb->no_home);
	sqlite3_bind_int64(st, 9, rb->limited);
	sqlite3_bind_int64(st, 10, rb->kept);
	if (sqlite3_step(st) != SQLITE_DONE)
		FAIL("rebalance_run");
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, kp_sql_rebalance_insert_move, -1, &st, NULL) != SQLITE_OK)
		FAIL("move_wave");
	for (int i = 0; i < rb->nmoves; i++) {
		const move *m = &rb->moves[i];
		out[m->from]++;
		in[m->to]++;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, i + 1);
		sqlite3_bind_int(st, 3, m->wave);
		sqlite3_bind_int64(st, 4, s->pods[m->pod].db_id);
		sqlite3_bind_int64(st, 5, s->node_db_id[m->from]);
		sqlite3_bind_int64(st, 6, s->node_db_id[m->to]);
		sqlite3_bind_text(st, 7, kp_rb_snames[m->strategy], -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 8, round(m->gain * 1000) / 1000);
		sqlite3_bind_double(st, 9, m->cost);
		sqlite3_bind_text(st, 10, m->detail, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 11, kp_str(&s->strs, s->pods[m->pod].ns), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 12, kp_str(&s->strs, s->pods[m->pod].name), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 13, kp_str(&s->strs, s->node_name[m->from]), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 14, kp_str(&s->strs, s->node_name[m->to]), -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			FAIL("move_wave");
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, kp_sql_rebalance_insert_util, -1, &st, NULL) != SQLITE_OK)
		FAIL("rebalance_util");
	for (int r = 0; r < R_COUNT; r++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, kp_rb_rnames[r], -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, rb->nodes_r[r]);
		sqlite3_bind_double(st, 4, rb->mean_b[r]);
		sqlite3_bind_double(st, 5, rb->sd_b[r]);
		sqlite3_bind_double(st, 6, rb->mean_a[r]);
		sqlite3_bind_double(st, 7, rb->sd_a[r]);
		if (sqlite3_step(st) != SQLITE_DONE)
			FAIL("rebalance_util");
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, kp_sql_rebalance_insert_node, -1, &st, NULL) != SQLITE_OK)
		FAIL("rebalance_node");
	for (int n = 0; n < s->nnodes; n++) {
		int freed = rb->had_app && rb->had_app[n] && !kp_rb_app_pods(s, n);
		if (!in[n] && !out[n] && !freed)
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, s->node_db_id[n]);
		sqlite3_bind_int(st, 3, out[n]);
		sqlite3_bind_int(st, 4, in[n]);
		sqlite3_bind_int(st, 5, freed);
		if (sqlite3_step(st) != SQLITE_DONE)
			FAIL("rebalance_node");
	}
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(db, kp_sql_rebalance_set_mode, -1, &st, NULL) != SQLITE_OK)
		FAIL("run");
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) != SQLITE_DONE)
		FAIL("run");
done:
#undef FAIL
	sqlite3_finalize(st);
	kp_sb_release(&sb);
	kp_sb_release(&names);
	kp_free(in);
	kp_free(out);
	return rc;
}

