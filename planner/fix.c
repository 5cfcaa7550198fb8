/*
 * fix.c — kplan fix's driver (fix.h): the run and its baseline, the
 * unschedulable pods, the checks (dry runs of the baseline plus one change,
 * kp_plan_opts.on_pod reading every target's fate), the candidates in
 * disruption order, the joint change set, and the rows.
 *
 * Per pod, candidates are tried level by level (fix.h) and every one that the
 * check places is kept, until opts.candidates are found: add one node like
 * the template; evict (fix_evict.c: on one node, the fewest lower-priority
 * pods the run left there, within PDBs; the first of FIX_EVICT_TRIES nodes
 * that works); relax-soft, relax-hard, untaint-dedicated (fix_relax.c).
 *
 * The joint set: the pods in queue order; a pod the set so far does not place
 * gets its candidates added one at a time, best first, and keeps the first
 * whose check places it without losing a pod the set placed before.  Then,
 * latest first, a change without which every pod is still placed is dropped.
 * The last check is the set checked for all pods together.
 */
#include "fix_int.h"
#include "plan.h"
#include "whatif.h"
#include "../common/kube_db.h"

#include <string.h>
#include <stdlib.h>
#include <stdio.h>

int kp_fix_nomem(fixer *f) { return kp_err_set(f->err, KP_NOMEM, "out of memory"); }

int kp_fix_dbfail(fixer *f)
{
	if (kp_interrupted)
		return kp_err_set(f->err, KP_INTR, "interrupted");
	return kp_err_set(f->err, KP_IO, "%s", sqlite3_errmsg(f->db));
}

/* append the pair (a, b) to the list *v of *n pairs (*cap strings) */
static int add_pair(fixer *f, char ***v, int *n, int *cap, const char *a, const char *b)
{
	if (KP_GROW(*v, 2 * *n + 1, *cap, 16))
		return kp_fix_nomem(f);
	(*v)[2 * *n] = kp_strdup(a);
	(*v)[2 * *n + 1] = kp_strdup(b);
	(*n)++;
	return (*v)[2 * *n - 2] && (*v)[2 * *n - 1] ? KP_OK : kp_fix_nomem(f);
}

static void free_pairs(char **v, int n)
{
	for (int i = 0; i < 2 * n; i++)
		kp_free(v[i]);
	kp_free(v);
}

static char *col_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return kp_strdup(t ? (const char *)t : "");
}

/* ---- dry runs ---- */

static int cmp_by_id(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	int64_t x = ((const struct kp_fix_by_id *)a)->id, y = ((const struct kp_fix_by_id *)b)->id;
	return x < y ? -1 : x > y;
}

/* index into r->pods of the target with this pod id, or -1 (f->by_id: sorted by id) */
static int target_index(const fixer *f, int64_t id)
{
	int lo = 0, hi = f->r->npods - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		int64_t m = f->by_id[mid].id;
		if (m == id)
			return f->by_id[mid].i;
		if (m < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int on_pod(void *ctx, const kp_plan_pod *p)
{
	fixer *f = ctx;
	kp_fix_result *r = f->r;
	int placed = p->node != NULL && strcmp(p->action, "evict") && strcmp(p->action, "unschedulable");
	for (int lo = 0, hi = f->nwatch - 1; lo <= hi;) {
		int mid = (lo + hi) / 2;
		if (f->watch[mid] == p->pod_id) {
			f->watch_lost += !placed;
			break;
		}
		if (f->watch[mid] < p->pod_id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	int ti = target_index(f, p->pod_id);
	if (ti < 0)
		return KP_OK;
	f->placed[ti] = (uint8_t)placed;
	kp_free(f->placed_node[ti]);
	f->placed_node[ti] = NULL;
	if (placed && !(f->placed_node[ti] = kp_strdup(p->node)))
		return kp_fix_nomem(f);
	if (f->want == -2) {   /* the baseline replay */
		r->pods[ti].still = !placed && !strcmp(p->action, "unschedulable");
		kp_free(r->pods[ti].pinned);
		r->pods[ti].pinned = NULL;
		if (p->pinned && !(r->pods[ti].pinned = kp_strdup(p->pinned)))
			return kp_fix_nomem(f);
	}
	return KP_OK;
}

int kp_fix_plan(fixer *f, char **extra, int n)
{
	kp_whatif *w = NULL;
	if ((f->nw || n) && !(w = kp_whatif_new()))
		return kp_fix_nomem(f);
	kp_whatif_set_importer(w, f->o->importer);
	for (int i = 0; i < f->nw; i++)
		if (kp_whatif_add(w, f->wopts[2 * i], f->wopts[2 * i + 1], f->err) != KP_OK)
			goto fail;
	for (int i = 0; i < n; i++)
		if (kp_whatif_add(w, extra[2 * i], extra[2 * i + 1], f->err) != KP_OK)
			goto fail;
	for (int i = 0; i < f->r->npods; i++) {
		f->placed[i] = 0;
		kp_free(f->placed_node[i]);
		f->placed_node[i] = NULL;
	}
	kp_plan_opts po = { .seed = f->seed, .no_preemption = f->no_preemption, .config_file = f->config, .dry_run = 1,
			    .whatif = w, .on_pod = on_pod, .result_ctx = f };
	po.nodes_to_score = f->nodes_to_score[0] ? f->nodes_to_score : NULL;
	po.tie_break = f->tie_break[0] ? f->tie_break : NULL;
	if (f->kube_exact) {
		po.kube_version = f->kube_version;
		po.feature_gates = f->feature_gates;
		po.kube_exact = 1;
	}
	kp_plan_result pr;
	f->watch_lost = 0;
	int rc = kp_plan_run(f->db, &po, &pr, f->err);
	kp_whatif_free(w);
	if (!rc) {
		f->last_lost = pr.unschedulable + pr.evicted;
		if (f->want == -2)
			f->base_lost = f->last_lost;
	}
	if (!rc && f->want == -2) {
		snprintf(f->r->config, sizeof f->r->config, "%s", pr.config_source);
		kp_kube_describe(&pr.kube, f->r->kube, sizeof f->r->kube);
		f->r->tie_rank = pr.tie_rank;
	}
	f->r->plans++;
	return rc;
fail:
	kp_whatif_free(w);
	return f->err->code;
}

int kp_fix_full(const fixer *f, const kp_fix_pod *t)
{
	return t->ncands >= f->o->candidates;
}

int kp_fix_add_cand(fixer *f, kp_fix_pod *t, const char *kind, int level, const char *detail, const char *victims,
		    const char *wopt, const char *wval, int ti)
{
	kp_fix_cand *v = kp_realloc(t->cands, (size_t)(t->ncands + 1) * sizeof *v);
	if (!v)
		return kp_fix_nomem(f);
	t->cands = v;
	kp_fix_cand *c = &v[t->ncands++];
	memset(c, 0, sizeof *c);
	c->kind = kind;
	c->level = level;
	c->detail = kp_strdup(detail);
	c->victims = kp_strdup(victims ? victims : "[]");
	c->node = kp_strdup(f->placed_node[ti] ? f->placed_node[ti] : "");
	c->wopt = kp_strdup(wopt);
	c->wval = kp_strdup(wval);
	return c->detail && c->victims && c->node && c->wopt && c->wval ? KP_OK : kp_fix_nomem(f);
}

/* ---- the run and its pods ---- */

static int load_scenario(fixer *f, const char *mode, const char *strategy)
{
	int rc = KP_OK, step;
	if (mode && !strcmp(mode, "full"))
		rc = add_pair(f, &f->wopts, &f->nw, &f->capw, "mode", "full");
	if (!rc && strategy)
		rc = add_pair(f, &f->wopts, &f->nw, &f->capw, "strategy", strategy);
	sqlite3_stmt *s;
	if (rc || sqlite3_prepare_v2(f->db, kp_sql_fix_scenario, -1, &s, NULL) != SQLITE_OK)
		return rc ? rc : kp_fix_dbfail(f);
	sqlite3_bind_int64(s, 1, f->r->run);
	while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW) {
		if (sqlite3_column_type(s, 0) != SQLITE_TEXT || sqlite3_column_type(s, 1) != SQLITE_TEXT)
			continue;
		rc = add_pair(f, &f->wopts, &f->nw, &f->capw, (const char *)sqlite3_column_text(s, 0),
			      (const char *)sqlite3_column_text(s, 1));
	}
	if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = kp_fix_dbfail(f);
	sqlite3_finalize(s);
	return rc;
}

static int load_run(fixer *f)
{
	const kp_fix_opts *o = f->o;
	const char *path = o->db_path ? o->db_path : "the database";
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(f->db, kp_sql_fix_run, -1, &s, NULL) != SQLITE_OK)
		return kp_fix_dbfail(f);
	sqlite3_bind_int64(s, 1, o->run);
	int step = sqlite3_step(s), rc = KP_OK;
	char *mode = NULL, *strategy = NULL;
	if (step == SQLITE_ROW) {
		f->r->run = sqlite3_column_int64(s, 0);
		f->seed = (uint64_t)sqlite3_column_int64(s, 1);
		if (sqlite3_column_type(s, 2) == SQLITE_TEXT && !(f->config = col_dup(s, 2)))
			rc = kp_fix_nomem(f);
		f->no_preemption = sqlite3_column_int(s, 3);
		if (sqlite3_column_type(s, 4) == SQLITE_TEXT && !(mode = col_dup(s, 4)))
			rc = kp_fix_nomem(f);
		if (sqlite3_column_type(s, 5) == SQLITE_TEXT && !(strategy = col_dup(s, 5)))
			rc = kp_fix_nomem(f);
		if (sqlite3_column_type(s, 6) == SQLITE_TEXT)
			snprintf(f->nodes_to_score, sizeof f->nodes_to_score, "%s", (const char *)sqlite3_column_text(s, 6));
		if (sqlite3_column_type(s, 7) == SQLITE_TEXT)
			snprintf(f->tie_break, sizeof f->tie_break, "%s", (const char *)sqlite3_column_text(s, 7));
	} else if (step != SQLITE_DONE) {
		rc = kp_fix_dbfail(f);
	} else if (o->run) {
		rc = kp_err_set(f->err, KP_ERROR, "no run %lld in '%s'", (long long)o->run, path);
	} else {
		rc = kp_err_set(f->err, KP_ERROR, "no run in '%s' (run 'kplan plan' first)", path);
	}
	sqlite3_finalize(s);
	if (!rc)
		f->kube_exact = kp_kube_of_run(f->db, f->r->run, f->kube_version, sizeof f->kube_version, f->feature_gates,
					       sizeof f->feature_gates);
	/* the baseline: the run's options, then what the caller overrides */
	f->r->preemption_from_run = o->preemption < 0;
	if (o->preemption >= 0)
		f->no_preemption = !o->preemption;
	f->r->preemption = !f->no_preemption;
	f->r->seed = f->seed;
	if (!rc && o->config_file) {
		kp_free(f->config);
		if (!(f->config = kp_strdup(o->config_file)))
			rc = kp_fix_nomem(f);
	}
	/* the baseline replay names the configuration it loaded; until then, the choice */
	snprintf(f->r->config, sizeof f->r->config, "%s", f->config ? f->config : "the latest imported, else default");
	f->r->from_run = o->from_run;
	if (!rc && o->from_run) {
		char id[32];
		snprintf(id, sizeof id, "%lld", (long long)f->r->run);
		rc = add_pair(f, &f->wopts, &f->nw, &f->capw, "from-run", id);
	} else if (!rc) {
		rc = load_scenario(f, mode, strategy);
	}
	kp_free(mode);
	kp_free(strategy);
	return rc;
}

static int load_targets(fixer *f)
{
	sqlite3_stmt *s;
	kp_fix_result *r = f->r;
	if (sqlite3_prepare_v2(f->db, kp_sql_fix_targets, -1, &s, NULL) != SQLITE_OK)
		return kp_fix_dbfail(f);
	sqlite3_bind_int64(s, 1, r->run);
	sqlite3_bind_int64(s, 2, f->o->limit);
	int step, rc = KP_OK, cap = 0;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (KP_GROW(r->pods, r->npods, cap, 16)) {
			rc = kp_fix_nomem(f);
			break;
		}
		kp_fix_pod *t = &r->pods[r->npods++];
		memset(t, 0, sizeof *t);
		t->id = sqlite3_column_int64(s, 0);
		t->ns = col_dup(s, 1);
		t->name = col_dup(s, 2);
		t->prio = sqlite3_column_int64(s, 3);
		t->class_id = sqlite3_column_int64(s, 4);
		r->unschedulable = (long)sqlite3_column_int64(s, 5);
		if (!t->ns || !t->name) {
			rc = kp_fix_nomem(f);
			break;
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = kp_fix_dbfail(f);
	sqlite3_finalize(s);
	if (!rc && r->npods) {
		f->placed = kp_calloc((size_t)r->npods, 1);
		f->placed_node = kp_calloc((size_t)r->npods, sizeof *f->placed_node);
		f->by_id = kp_malloc((size_t)r->npods * sizeof *f->by_id);
		if (!f->placed || !f->placed_node || !f->by_id)
			return kp_fix_nomem(f);
		for (int i = 0; i < r->npods; i++)
			f->by_id[i] = (struct kp_fix_by_id){ r->pods[i].id, i };
		kp_sort(f->by_id, (size_t)r->npods, sizeof *f->by_id, cmp_by_id, NULL);
	}
	if (!rc && !r->npods) {
		/* nothing in the window: the run's count all the same */
		if (sqlite3_prepare_v2(f->db, kp_sql_fix_unschedulable_count, -1, &s, NULL) != SQLITE_OK)
			return kp_fix_dbfail(f);
		sqlite3_bind_int64(s, 1, r->run);
		if (sqlite3_step(s) == SQLITE_ROW)
			r->unschedulable = (long)sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	return rc;
}

/* ---- candidates ---- */

static int try_add_node(fixer *f, kp_fix_pod *t, int ti)
{
	kp_sb v, d;
	kp_sb_init(&v);
	kp_sb_init(&d);
	kp_sb_printf(&v, "%s:1", f->o->node_template);
	kp_sb_printf(&d, "add one node like %s", f->o->node_template);
	int rc = KP_OK;
	if (!kp_sb_ok(&v) || !kp_sb_ok(&d)) {
		rc = kp_fix_nomem(f);
	} else {
		char *extra[2] = { "add-nodes", (char *)kp_sb_str(&v) };
		rc = kp_fix_plan(f, extra, 1);
		if (!rc && f->placed[ti])
			rc = kp_fix_add_cand(f, t, "add-node", KP_FIX_ADD_NODE, kp_sb_str(&d), "[]", "add-nodes",
					     kp_sb_str(&v), ti);
	}
	kp_sb_release(&v);
	kp_sb_release(&d);
	return rc;
}

static int fix_pod(fixer *f, int ti)
{
	kp_fix_pod *t = &f->r->pods[ti];
	f->want = ti;
	int rc = KP_OK;
	if (f->o->node_template)
		rc = try_add_node(f, t, ti);
	if (!rc && !kp_fix_full(f, t))
		rc = kp_fix_try_evict(f, t, ti);
	if (!rc && !kp_fix_full(f, t))
		rc = kp_fix_try_move_gpu(f, t, ti);
	for (int level = KP_FIX_RELAX_SOFT; level <= KP_FIX_UNTAINT_DEDICATED && !rc && !kp_fix_full(f, t); level++)
		rc = kp_fix_try_relax(f, t, ti, level);
	f->want = -1;
	return rc;
}

/* ---- the joint change set ---- */

/* one plan of every candidate marked joint, plus c when not NULL: the
 * template's nodes counted, the evictions merged into one remove-pods */
static int joint_plan(fixer *f, const kp_fix_cand *extra)
{
	const kp_fix_result *r = f->r;
	char **v = NULL;
	int n = 0, cap = 0, add = 0, rc = KP_OK;
	kp_sb rm, an;
	kp_sb_init(&rm);
	kp_sb_init(&an);
	for (int i = 0; i < r->npods && !rc; i++)
		for (int k = 0; k < r->pods[i].ncands && !rc; k++) {
			const kp_fix_cand *c = &r->pods[i].cands[k];
			if (!c->joint && c != extra)
				continue;
			if (c->level == KP_FIX_ADD_NODE)
				add++;
			else if (!strcmp(c->wopt, "remove-pods"))
				kp_sb_printf(&rm, "%s%s", rm.len ? "," : "", c->wval);
			else
				rc = add_pair(f, &v, &n, &cap, c->wopt, c->wval);
		}
	if (add)
		kp_sb_printf(&an, "%s:%d", f->o->node_template, add);
	if (!rc && (!kp_sb_ok(&rm) || !kp_sb_ok(&an)))
		rc = kp_fix_nomem(f);
	if (!rc && add)
		rc = add_pair(f, &v, &n, &cap, "add-nodes", kp_sb_str(&an));
	if (!rc && rm.len)
		rc = add_pair(f, &v, &n, &cap, "remove-pods", kp_sb_str(&rm));
	if (!rc)
		rc = kp_fix_plan(f, v, n);
	free_pairs(v, n);
	kp_sb_release(&rm);
	kp_sb_release(&an);
	return rc;
}

/* the last plan placed every pod marked in have */
static int keeps_all(const fixer *f, const uint8_t *have)
{
	for (int j = 0; j < f->r->npods; j++)
		if (have[j] && !f->placed[j])
			return 0;
	return 1;
}

/* in queue order, a pod the set does not place yet gets its first candidate
 * that places it without losing one placed before; chosen[] in that order */
static int grow_joint(fixer *f, uint8_t *have, kp_fix_cand **chosen, int *nchosen)
{
	kp_fix_result *r = f->r;
	for (int i = 0; i < r->npods; i++) {
		kp_fix_pod *t = &r->pods[i];
		if (!t->still || !t->ncands || have[i])
			continue;
		for (int k = 0; k < t->ncands; k++) {
			int rc = joint_plan(f, &t->cands[k]);
			if (rc)
				return rc;
			if (!f->placed[i] || !keeps_all(f, have))
				continue;
			t->cands[k].joint = 1;
			chosen[(*nchosen)++] = &t->cands[k];
			for (int j = 0; j < r->npods; j++)
				have[j] |= f->placed[j];
			break;
		}
	}
	return KP_OK;
}

static int build_joint(fixer *f)
{
	kp_fix_result *r = f->r;
	int n = r->npods, rc = KP_OK, nchosen = 0;
	uint8_t *have = kp_calloc((size_t)n + 1, 1);
	kp_fix_cand **chosen = kp_calloc((size_t)n + 1, sizeof *chosen);
	if (!have || !chosen) {
		kp_free(have);
		kp_free(chosen);
		return kp_fix_nomem(f);
	}
	rc = grow_joint(f, have, chosen, &nchosen);
	/* prune, latest first: a change the others make unnecessary goes */
	for (int i = nchosen - 1; i >= 0 && !rc && nchosen > 1; i--) {
		chosen[i]->joint = 0;
		if (!(rc = joint_plan(f, NULL)) && !keeps_all(f, have))
			chosen[i]->joint = 1;
	}
	for (int i = 0; i < nchosen; i++)
		r->joint_changes += chosen[i]->joint;
	/* the pods with a fix, and those the others' changes place */
	for (int i = 0; i < n; i++)
		r->joint_wanted += r->pods[i].still && (r->pods[i].ncands || have[i]);
	kp_free(have);
	kp_free(chosen);
	if (rc || !r->joint_changes)
		return rc;
	/* the set checked for all pods together: where each one lands */
	if ((rc = joint_plan(f, NULL)))
		return rc;
	for (int i = 0; i < n; i++) {
		if (!r->pods[i].still || !f->placed[i])
			continue;
		r->joint_placed++;
		if (!(r->pods[i].joint_node = kp_strdup(f->placed_node[i])))
			return kp_fix_nomem(f);
	}
	return KP_OK;
}

/* ---- the rows ---- */

/* the fix table, made or brought up to date (a table from before rank) */
static int ensure_table(fixer *f)
{
	sqlite3_stmt *s;
	int old = 0;
	if (sqlite3_prepare_v2(f->db, kp_sql_fix_old_table, -1, &s, NULL) != SQLITE_OK)
		return kp_fix_dbfail(f);
	if (sqlite3_step(s) == SQLITE_ROW)
		old = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	int rc = old ? kp_db_exec(f->db, f->err, "cannot rename the old fix table", "ALTER TABLE fix RENAME TO kp_fix_old", "")
		     : KP_OK;
	if (!rc)
		rc = kp_db_schema_section(f->db, "fix", "fix table", f->err);
	if (!rc && old)
		rc = kp_db_exec(f->db, f->err, "cannot copy the old fix rows", kp_sql_fix_migrate, "");
	if (!rc && old)
		rc = kp_db_exec(f->db, f->err, "cannot drop the old fix table", "DROP TABLE kp_fix_old", "");
	return rc;
}

static int insert_rows(fixer *f)
{
	kp_fix_result *r = f->r;
	int rc = kp_db_exec(f->db, f->err, "cannot write the fix rows", "DELETE FROM fix WHERE run_id = ?1", "i", r->run);
	for (int i = 0; i < r->npods && !rc; i++) {
		const kp_fix_pod *t = &r->pods[i];
		for (int k = 0; k < t->ncands && !rc; k++) {
			const kp_fix_cand *c = &t->cands[k];
			rc = kp_db_exec(f->db, f->err, "cannot write the fix rows", kp_sql_fix_insert, "iittitttttit", r->run, t->id,
					t->ns, t->name, (int64_t)(k + 1), kp_fix_level_name(c->level), c->kind, c->detail,
					c->victims, c->node, (int64_t)c->joint, t->joint_node);
		}
	}
	return rc;
}

static int before_commit(fixer *f, const kp_fix_hooks *h)
{
	if (!h || !h->before_commit || !h->before_commit(h->ctx, f->r))
		return KP_OK;
	return f->err->code ? f->err->code : kp_err_set(f->err, KP_IO, "error writing output");
}

static int finish(fixer *f, const kp_fix_hooks *h)
{
	if (f->o->no_record)
		return before_commit(f, h);
	int rc = kp_db_begin(f->db, f->err);
	if (rc)
		return rc;
	if (!(rc = ensure_table(f)))
		rc = insert_rows(f);
	f->r->recorded = 1;   /* when the COMMIT below succeeds */
	if (!rc)
		rc = before_commit(f, h);
	if (rc) {
		kp_db_rollback(f->db);
		return rc;
	}
	return kp_db_commit(f->db, f->err);
}

static void fixer_release(fixer *f)
{
	kp_free(f->config);
	free_pairs(f->wopts, f->nw);
	for (int i = 0; f->placed_node && i < f->r->npods; i++)
		kp_free(f->placed_node[i]);
	kp_free(f->placed_node);
	kp_free(f->placed);
	kp_free(f->by_id);
	kp_free(f->keep);
	kp_free(f->gpu_hold);
	kp_free(f->gpu_hold_off);
	if (f->have_snap)
		kp_snap_release(&f->s);
}

int kp_fix_run(sqlite3 *db, const kp_fix_opts *o, const kp_fix_hooks *h, kp_fix_result *out, kp_err *err)
{
	memset(out, 0, sizeof *out);
	fixer f;
	memset(&f, 0, sizeof f);
	f.db = db;
	f.err = err;
	f.o = o;
	f.r = out;
	f.want = -1;
	int rc = load_run(&f);
	if (!rc)
		rc = load_targets(&f);
	if (!rc && out->npods) {
		f.want = -2;   /* the replay: which of them are still unschedulable */
		rc = kp_fix_plan(&f, NULL, 0);
		f.want = -1;
	}
	if (!rc && out->npods)
		rc = kp_fix_load_cluster(&f);
	for (int i = 0; i < out->npods && !rc; i++) {
		if (out->pods[i].still)
			rc = fix_pod(&f, i);
		if (h && h->progress)
			h->progress(h->ctx, i + 1, out->npods);
	}
	if (!rc)
		rc = build_joint(&f);
	if (!rc)
		rc = finish(&f, h);
	fixer_release(&f);
	if (rc && kp_interrupted)
		rc = kp_err_set(err, KP_INTR, "interrupted");
	return rc;
}

void kp_fix_result_release(kp_fix_result *r)
{
	for (int i = 0; i < r->npods; i++) {
		kp_fix_pod *t = &r->pods[i];
		for (int k = 0; k < t->ncands; k++) {
			kp_fix_cand *c = &t->cands[k];
			kp_free(c->detail);
			kp_free(c->victims);
			kp_free(c->node);
			kp_free(c->wopt);
			kp_free(c->wval);
		}
		kp_free(t->cands);
		kp_free(t->ns);
		kp_free(t->name);
		kp_free(t->joint_node);
		kp_free(t->pinned);
	}
	kp_free(r->pods);
	memset(r, 0, sizeof *r);
}
