/*
 * fix_evict.c — kplan fix's eviction candidates, on the planner's snapshot
 * (snapshot.h) brought to the state the run left: the pods it binds or moves
 * on their nodes, the pods it evicts (or a scenario took off) gone.
 *
 * On one node, the fewest lower-priority pods the run kept there, taken
 * lowest priority first (then latest started, then highest id) until the
 * pod's requests fit, never past a PodDisruptionBudget's allowed disruptions
 * (kp_pdb_matches, the snapshot's allowed counts), then the more important
 * ones given back while it still fits (DefaultPreemption's reprieve).  Nodes
 * by k, then name; the first FIX_EVICT_TRIES are checked (what-if
 * remove-pods); the first that places the pod is its eviction candidate.
 */
#include "fix_int.h"
#include "preemption.h"
#include "../common/kube_db.h"

#include <string.h>
#include <stdio.h>

enum { RES_PODS = 3 };

int kp_fix_load_cluster(fixer *f)
{
	kp_snap *s = &f->s;
	int rc = kp_db_begin_read(f->db, f->err);
	if (rc)
		return rc;
	kp_kube kube;
	rc = kp_kube_resolve(f->db, f->kube_exact ? f->kube_version : NULL, f->kube_exact ? f->feature_gates : NULL,
			     f->kube_exact, &kube, f->err);
	if (!rc)
		rc = kp_snap_load(f->db, s, &kube, f->err);
	f->have_snap = 1;
	sqlite3_stmt *st = NULL;
	if (!rc && !(f->keep = kp_calloc((size_t)s->npods + 1, 1)))
		rc = kp_fix_nomem(f);
	if (!rc && sqlite3_prepare_v2(f->db, kp_sql_fix_run_placement, -1, &st, NULL) != SQLITE_OK)
		rc = kp_fix_dbfail(f);
	if (!rc)
		sqlite3_bind_int64(st, 1, f->r->run);
	int step = SQLITE_DONE;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int pi = kp_snap_pod_index(s, sqlite3_column_int64(st, 0));
		const char *a = (const char *)sqlite3_column_text(st, 1);
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 2));
		if (pi < 0 || !a || s->pods[pi].ignored)
			continue;
		if (!strcmp(a, "keep")) {
			f->keep[pi] = ni >= 0 && s->pods[pi].node == ni;
		} else if (!strcmp(a, "bind") || !strcmp(a, "move") || !strcmp(a, "evict") || !strcmp(a, "unschedulable")) {
			kp_snap_remove_pod(s, pi);
			s->pods[pi].node = -1;
			if ((!strcmp(a, "bind") || !strcmp(a, "move")) && ni >= 0 && kp_snap_add_pod(s, pi, ni))
				rc = kp_fix_nomem(f);
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = kp_fix_dbfail(f);
	sqlite3_finalize(st);
	kp_db_rollback(f->db);
	return rc;
}

/* ---- candidates ---- */

typedef struct ecand {
	int node, k;
	int32_t *v;                  /* snapshot pod indexes, in eviction order */
} ecand;

/* least important first: lower priority, then later start, then higher id */
static int cmp_least_important(const void *a, const void *b, void *ctx)
{
	const kp_snap *sort_s = ctx;
	const kp_pod *x = &sort_s->pods[*(const int32_t *)a], *y = &sort_s->pods[*(const int32_t *)b];
	int64_t px = sort_s->classes[x->cls].priority, py = sort_s->classes[y->cls].priority;
	if (px != py)
		return px < py ? -1 : 1;
	if (x->start_time != y->start_time)
		return x->start_time > y->start_time ? -1 : 1;
	return x->db_id > y->db_id ? -1 : x->db_id < y->db_id;
}

static int cmp_cand(const void *a, const void *b, void *ctx)
{
	const kp_snap *sort_s = ctx;
	const ecand *x = a, *y = b;
	if (x->k != y->k)
		return x->k - y->k;
	return strcmp(kp_str(&sort_s->strs, sort_s->node_name[x->node]), kp_str(&sort_s->strs, sort_s->node_name[y->node]));
}

int kp_fix_fits(const kp_snap *s, const kp_class *c, int n, const int64_t *freed, int freed_pods, int any_pods)
{
	size_t base = (size_t)n * (size_t)s->nres;
	for (uint32_t k = 0; k < c->nreq; k++) {
		int r = c->req_res[k];
		if (r != RES_PODS && c->req_val[k] > 0 && s->alloc[base + r] - s->used[base + r] + freed[r] < c->req_val[k])
			return 0;
	}
	return !any_pods || s->alloc[base + RES_PODS] - s->node_npods[n] + freed_pods >= 1;
}

static int victim_ok(const fixer *f, int32_t pi, int64_t prio)
{
	const kp_pod *p = &f->s.pods[pi];
	return f->keep[pi] && p->orig_node >= 0 && !p->terminating && !p->ignored && f->s.classes[p->cls].priority < prio;
}

/* the victims on node n for a pod of class c and priority prio, in order[]; their count, 0 none */
static int node_victims(fixer *f, const kp_class *c, int64_t prio, int n, int any_pods, int32_t *order, int64_t *budget,
			int64_t *freed)
{
	kp_snap *s = &f->s;
	int no = 0;
	for (uint32_t i = 0; i < s->nnode_pods[n]; i++)
		if (victim_ok(f, s->node_pods[n][i], prio))
			order[no++] = s->node_pods[n][i];
	kp_sort(order, (size_t)no, sizeof *order, cmp_least_important, (void *)s);
	for (int k = 0; k < s->npdbs; k++)
		budget[k] = s->pdbs[k].allowed;
	memset(freed, 0, (size_t)s->nres * sizeof *freed);
	int taken = 0, ok = 0;
	for (int i = 0; i < no && !ok; i++) {
		const kp_pod *v = &s->pods[order[i]];
		int allowed = 1;
		for (int k = 0; k < s->npdbs && allowed; k++)
			allowed = !kp_pdb_matches(s, &s->pdbs[k], v) || budget[k] > 0;
		if (!allowed)
			continue;   /* a budget forbids it */
		for (int k = 0; k < s->npdbs; k++)
			budget[k] -= kp_pdb_matches(s, &s->pdbs[k], v);
		const kp_class *vc = &s->classes[v->cls];
		for (uint32_t k = 0; k < vc->nreq; k++)
			freed[vc->req_res[k]] += vc->req_val[k];
		order[taken++] = order[i];
		ok = kp_fix_fits(s, c, n, freed, taken, any_pods);
	}
	if (!ok)
		return 0;
	/* reprieve: give back the more important ones while it still fits */
	for (int i = taken - 1; i >= 0; i--) {
		const kp_class *vc = &s->classes[s->pods[order[i]].cls];
		for (uint32_t k = 0; k < vc->nreq; k++)
			freed[vc->req_res[k]] -= vc->req_val[k];
		if (kp_fix_fits(s, c, n, freed, taken - 1, any_pods)) {
			memmove(&order[i], &order[i + 1], (size_t)(taken - i - 1) * sizeof *order);
			taken--;
		} else {
			for (uint32_t k = 0; k < vc->nreq; k++)
				freed[vc->req_res[k]] += vc->req_val[k];
		}
	}
	return taken;
}

static int class_index(const kp_snap *s, int64_t db_id)
{
	for (int i = 0; i < s->nclasses; i++)
		if (s->classes[i].db_id == db_id)
			return i;
	return -1;
}

/* the eviction candidates of t, by k then node name; *out owned by the caller */
static int evict_candidates(fixer *f, const kp_fix_pod *t, ecand **out, int *nout)
{
	kp_snap *s = &f->s;
	*out = NULL;
	*nout = 0;
	int ci = class_index(s, t->class_id);
	if (ci < 0)
		return KP_OK;
	const kp_class *c = &s->classes[ci];
	int any_pods = 0;
	for (int n = 0; n < s->nnodes && !any_pods && s->nres > RES_PODS; n++)
		any_pods = s->alloc[(size_t)n * (size_t)s->nres + RES_PODS] > 0;
	int32_t *order = kp_malloc((size_t)(s->npods + 1) * sizeof *order);
	int64_t *budget = kp_malloc((size_t)(s->npdbs + 1) * sizeof *budget);
	int64_t *freed = kp_calloc((size_t)s->nres + 1, sizeof *freed);
	ecand *e = kp_calloc((size_t)s->nnodes + 1, sizeof *e);
	int rc = order && budget && freed && e ? KP_OK : kp_fix_nomem(f);
	for (int n = 0; n < s->nnodes && !rc; n++) {
		if (s->unschedulable[n])
			continue;
		memset(freed, 0, (size_t)s->nres * sizeof *freed);
		if (kp_fix_fits(s, c, n, freed, 0, any_pods))
			continue;   /* it fails there for something eviction does not change */
		int k = node_victims(f, c, t->prio, n, any_pods, order, budget, freed);
		if (!k)
			continue;
		ecand *x = &e[(*nout)++];
		x->node = n;
		x->k = k;
		if (!(x->v = kp_malloc((size_t)k * sizeof *x->v))) {
			rc = kp_fix_nomem(f);
			break;
		}
		memcpy(x->v, order, (size_t)k * sizeof *order);
	}
	kp_free(order);
	kp_free(budget);
	kp_free(freed);
	if (e)
		kp_sort(e, (size_t)*nout, sizeof *e, cmp_cand, (void *)s);
	*out = e;
	return rc;
}

static void cands_release(ecand *c, int n)
{
	for (int i = 0; i < n; i++)
		kp_free(c[i].v);
	kp_free(c);
}

/* check candidate c: 1 when it places t (the candidate added), 0 not, < 0 error */
static int check_evict(fixer *f, kp_fix_pod *t, int ti, const ecand *c)
{
	const kp_snap *s = &f->s;
	kp_sb ids, detail, victims;
	kp_sb_init(&ids);
	kp_sb_init(&detail);
	kp_sb_init(&victims);
	kp_sb_printf(&detail, "evict %d lower-priority pod%s on %s:", c->k, c->k == 1 ? "" : "s",
		     kp_str(&s->strs, s->node_name[c->node]));
	kp_sb_addc(&victims, '[');
	for (int k = 0; k < c->k; k++) {
		const kp_pod *v = &s->pods[c->v[k]];
		char ref[600];
		snprintf(ref, sizeof ref, "%s/%s", kp_str(&s->strs, v->ns), kp_str(&s->strs, v->name));
		kp_sb_printf(&ids, "%s%lld", k ? "," : "", (long long)v->db_id);
		kp_sb_printf(&detail, " %s", ref);
		if (k)
			kp_sb_addc(&victims, ',');
		kp_sb_add_json_str(&victims, ref);
	}
	kp_sb_addc(&victims, ']');
	int rc = kp_sb_ok(&ids) && kp_sb_ok(&detail) && kp_sb_ok(&victims) ? KP_OK : kp_fix_nomem(f);
	if (!rc) {
		char *extra[2] = { "remove-pods", (char *)kp_sb_str(&ids) };
		rc = kp_fix_plan(f, extra, 1);
	}
	int placed = !rc && f->placed[ti];
	if (placed)
		rc = kp_fix_add_cand(f, t, "evict", KP_FIX_EVICT, kp_sb_str(&detail), kp_sb_str(&victims), "remove-pods",
				     kp_sb_str(&ids), ti);
	kp_sb_release(&ids);
	kp_sb_release(&detail);
	kp_sb_release(&victims);
	return rc ? -1 : placed;
}

int kp_fix_try_evict(fixer *f, kp_fix_pod *t, int ti)
{
	ecand *c;
	int n, rc = evict_candidates(f, t, &c, &n);
	for (int i = 0; i < n && i < FIX_EVICT_TRIES && !rc; i++) {
		int got = check_evict(f, t, ti, &c[i]);
		if (got < 0)
			rc = f->err->code ? f->err->code : KP_ERROR;
		else if (got)
			break;
	}
	cands_release(c, n);
	return rc;
}
