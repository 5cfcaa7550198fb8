/*
 * rebalance_run.c — one rebalance run (kp_rebalance_run): the evictor's
 * rules and the limits that decide whether a pod may move, one move
 * simulated with the planner (kp_rb_try_move: the host takes the pod off its
 * node and places it elsewhere, or puts it back), the strategies in order,
 * then the waves and the utilisation before and after.  Contract: the moves
 * stay in the snapshot and in rb->moves (kp_rebalance_write records them);
 * the per-run scratch arrays are freed before returning, whatever the
 * outcome, except had_app, which the writer reads.
 */
#include "rebalance_int.h"
#include "preemption.h"

#include <math.h>
#include <string.h>

#define SYSTEM_CRITICAL 2000000000LL

/* ---- the snapshot as the strategies see it ---- */

static int64_t request(const kp_class *c, int res)
{
	for (uint32_t k = 0; k < c->nreq; k++)
		if (c->req_res[k] == res)
			return c->req_val[k];
	return 0;
}

double kp_rb_util(const kp_snap *s, int n, int r)
{
	int res = r == R_PODS ? 3 : r;
	if (res >= s->nres)
		return 0;
	int64_t a = s->alloc[(size_t)n * s->nres + res];
	int64_t u = r == R_PODS ? s->node_npods[n] : s->used[(size_t)n * s->nres + res];
	return a > 0 ? 100.0 * (double)u / (double)a : 0;
}

static int has_alloc(const kp_snap *s, int n, int r)
{
	int res = r == R_PODS ? 3 : r;
	return res < s->nres && s->alloc[(size_t)n * s->nres + res] > 0;
}

static int ns_index(kp_rebalance *rb, kp_sid ns) { return ns >= 0 && ns < rb->nns_count ? ns : -1; }

/* descheduler's DefaultEvictor, kplan's limits and the namespace filters;
 * 0 when the pod may not be evicted, *limited saying why: 1 a limit or PDB,
 * 2 the evictor's rules (bare, DaemonSet, static or terminating pod,
 * system-critical, priority threshold, local storage, PVC, namespaces), 0
 * not a candidate (placed by this run, moved already) */
static int evictable(kp_rebalance *rb, int32_t pi, int *limited)
{
	const kp_rb_host *h = rb->h;
	const kp_snap *s = h->s;
	const kp_pod *p = &s->pods[pi];
	const kp_class *c = &s->classes[p->cls];
	*limited = 0;
	if (!h->movable[pi] || rb->moved[pi] || p->node < 0)
		return 0;
	*limited = 2;
	if (p->terminating || kp_snap_pod_per_node(s, p) || (p->owner_kind < 0 && !rb->evict_bare))
		return 0;
	if (!rb->evict_critical && c->priority >= SYSTEM_CRITICAL)
		return 0;
	if (rb->has_prio && c->priority >= rb->prio)
		return 0;
	if (!rb->evict_local && request(c, 2) > 0)
		return 0;
	if (rb->ignore_pvc && c->pvc)
		return 0;
	if (rb->nns) {
		int in = 0;
		for (int i = 0; i < rb->nns; i++)
			if (!strcmp(rb->ns_list[i], kp_str(&s->strs, p->ns)))
				in = 1;
		if (in == rb->ns_exclude)
			return 0;
	}
	*limited = 1;
	if (rb->max_moves >= 0 && rb->nmoves >= rb->max_moves)
		return 0;
	if (rb->max_per_node >= 0 && rb->out_count[p->node] >= rb->max_per_node)
		return 0;
	int ni = ns_index(rb, p->ns);
	if (rb->max_per_ns >= 0 && ni >= 0 && rb->ns_count[ni] >= rb->max_per_ns)
		return 0;
	for (int k = 0; k < s->npdbs; k++)
		if (h->pdb_allowed[k] < 1 && kp_pdb_matches(s, &s->pdbs[k], p))
			return 0;
	*limited = 0;
	return 1;
}

static double move_cost(const kp_snap *s, int32_t pi)
{
	const kp_pod *p = &s->pods[pi];
	double c = 1;
	if (p->owner_kind >= 0 && !strcmp(kp_str(&s->strs, p->owner_kind), "StatefulSet"))
		c = 2;
	if (kp_rb_cls(s, pi)->pvc)
		c += 1;
	return c;
}

static int add_move(kp_rebalance *rb, int32_t pi, int from, int to, int strategy, double gain, const char *detail)
{
	if (KP_GROW(rb->moves, rb->nmoves, rb->cap_moves, 32))
		return kp_err_set(rb->err, KP_NOMEM, "out of memory");
	char *d = kp_strdup(detail);
	if (!d)
		return kp_err_set(rb->err, KP_NOMEM, "out of memory");
	const kp_snap *s = rb->h->s;
	rb->moves[rb->nmoves++] = (move){ pi, from, to, strategy, 0, gain, move_cost(s, pi), d };
	rb->moved[pi] = 1;
	rb->out_count[from]++;
	int ni = ns_index(rb, s->pods[pi].ns);
	if (ni >= 0)
		rb->ns_count[ni]++;
	return KP_OK;
}

/* forget the last move (HighNodeUtilization's all-or-nothing drain) */
int kp_rb_drop_move(kp_rebalance *rb)
{
	move *m = &rb->moves[--rb->nmoves];
	const kp_snap *s = rb->h->s;
	int rc = rb->h->undo(rb->h->ctx, m->pod, m->from);
	rb->moved[m->pod] = 0;
	rb->out_count[m->from]--;
	int ni = ns_index(rb, s->pods[m->pod].ns);
	if (ni >= 0)
		rb->ns_count[ni]--;
	kp_free(m->detail);
	return rc;
}

/* Try to move pi off its node; avoid (NULL: none) plus its own node are
 * excluded.  1 moved, 0 not (left where it is), < 0 error. */
int kp_rb_try_move(kp_rebalance *rb, int32_t pi, const uint8_t *avoid, int strategy, double gain, const char *detail)
{
	kp_snap *s = rb->h->s;
	int limited;
	if (!evictable(rb, pi, &limited)) {
		rb->refused[pi] |= (uint8_t)(limited == 1 ? 1 : limited == 2 ? 4 : 0);
		return 0;
	}
	int from = s->pods[pi].node;
	for (int n = 0; n < s->nnodes; n++)
		rb->avoid[n] = (uint8_t)(n == from || (avoid && avoid[n]));
	int32_t to = -1;
	int rc = rb->h->place(rb->h->ctx, pi, rb->avoid, &to);
	if (rc)
		return -1;
	if (to < 0) {
		rb->refused[pi] |= 2;
		return 0;
	}
	return add_move(rb, pi, from, to, strategy, gain, detail) ? -1 : 1;
}

/* pods on node n, copied (the node's list changes as pods move) */
static int32_t *pods_on(const kp_snap *s, int n, int *count)
{
	*count = (int)s->nnode_pods[n];
	int32_t *v = kp_malloc((size_t)(*count ? *count : 1) * sizeof *v);
	if (v && *count)
		memcpy(v, s->node_pods[n], (size_t)*count * sizeof *v);
	return v;
}

/* eviction order on a node: lowest priority first, then the newest (highest id) */
static int cmp_evict(const void *a, const void *b, void *ctx)
{
	const kp_snap *cmp_s = ctx;
	const kp_pod *x = &cmp_s->pods[*(const int32_t *)a], *y = &cmp_s->pods[*(const int32_t *)b];
	int64_t px = cmp_s->classes[x->cls].priority, py = cmp_s->classes[y->cls].priority;
	if (px != py)
		return px < py ? -1 : 1;
	return (x->db_id < y->db_id) - (x->db_id > y->db_id);
}

int32_t *kp_rb_sorted_pods_on(const kp_snap *s, int n, int *count)
{
	int32_t *v = pods_on(s, n, count);
	if (v) {
		kp_sort(v, (size_t)*count, sizeof *v, cmp_evict, (void *)s);
	}
	return v;
}

int kp_rb_nomem(kp_rebalance *rb) { return kp_err_set(rb->err, KP_NOMEM, "out of memory"); }

int kp_rb_app_pods(const kp_snap *s, int n)
{
	int k = 0;
	for (uint32_t i = 0; i < s->nnode_pods[n]; i++)
		k += !kp_snap_pod_per_node(s, &s->pods[s->node_pods[n][i]]);
	return k;
}

/* ---- the run ---- */

static void util_stats(const kp_snap *s, double *mean, double *sd, int *nodes)
{
	for (int r = 0; r < R_COUNT; r++) {
		double sum = 0, sq = 0;
		int k = 0;
		for (int n = 0; n < s->nnodes; n++)
			if (has_alloc(s, n, r)) {
				double u = kp_rb_util(s, n, r);
				sum += u;
				sq += u * u;
				k++;
			}
		nodes[r] = k;
		mean[r] = k ? sum / k : 0;
		double var = k ? sq / k - mean[r] * mean[r] : 0;
		sd[r] = var > 0 ? sqrt(var) : 0;
	}
}

/* consecutive waves: a PDB's evictions per wave within its budget; a move
 * landing on a node left in the same wave waits for the next */
static int make_waves(kp_rebalance *rb)
{
	const kp_snap *s = rb->h->s;
	int64_t *used = kp_calloc((size_t)(s->npdbs ? s->npdbs : 1), sizeof *used);
	uint8_t *left = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), 1);
	if (!used || !left) {
		kp_free(used);
		kp_free(left);
		return kp_rb_nomem(rb);
	}
	int wave = rb->nmoves ? 1 : 0;
	for (int i = 0; i < rb->nmoves; i++) {
		move *m = &rb->moves[i];
		const kp_pod *p = &s->pods[m->pod];
		int fits = !left[m->to];
		for (int k = 0; k < s->npdbs && fits; k++)
			if (kp_pdb_matches(s, &s->pdbs[k], p) && used[k] + 1 > rb->h->pdb_allowed[k])
				fits = 0;
		if (!fits) {
			wave++;
			memset(used, 0, (size_t)s->npdbs * sizeof *used);
			memset(left, 0, (size_t)s->nnodes);
		}
		for (int k = 0; k < s->npdbs; k++)
			if (kp_pdb_matches(s, &s->pdbs[k], p))
				used[k]++;
		left[m->from] = 1;
		m->wave = wave;
	}
	rb->nwaves = wave;
	kp_free(used);
	kp_free(left);
	return KP_OK;
}

int kp_rebalance_run(kp_rebalance *rb, const kp_rb_host *h, kp_err *err)
{
	kp_snap *s = h->s;
	rb->h = h;
	rb->err = err;
	int nn = s->nnodes ? s->nnodes : 1;
	rb->nns_count = s->strs.n;
	rb->moved = kp_calloc((size_t)(s->npods ? s->npods : 1), 1);
	rb->refused = kp_calloc((size_t)(s->npods ? s->npods : 1), 1);
	rb->avoid = kp_calloc((size_t)nn, 1);
	rb->out_count = kp_calloc((size_t)nn, sizeof *rb->out_count);
	rb->ns_count = kp_calloc((size_t)(rb->nns_count ? rb->nns_count : 1), sizeof *rb->ns_count);
	rb->had_app = kp_calloc((size_t)nn, 1);
	int rc = KP_OK;
	if (!rb->moved || !rb->refused || !rb->avoid || !rb->out_count || !rb->ns_count || !rb->had_app)
		rc = kp_rb_nomem(rb);
	for (int n = 0; !rc && n < s->nnodes; n++)
		rb->had_app[n] = kp_rb_app_pods(s, n) > 0;
	if (!rc)
		util_stats(s, rb->mean_b, rb->sd_b, rb->nodes_r);
	for (int i = 0; i < S_COUNT && !rc; i++)
		if (rb->strategies & (1u << i))
			rc = kp_rb_strategy[i](rb);
	if (rc < 0)
		rc = err->code ? err->code : KP_ERROR;
	if (!rc) {
		util_stats(s, rb->mean_a, rb->sd_a, rb->nodes_r);
		rc = make_waves(rb);
	}
	rb->cost = 0;
	rb->nodes_freed = 0;
	for (int i = 0; !rc && i < rb->nmoves; i++)
		rb->cost += rb->moves[i].cost;
	for (int n = 0; !rc && n < s->nnodes; n++)
		rb->nodes_freed += rb->had_app[n] && !kp_rb_app_pods(s, n);
	/* pods, not attempts: a pod refused by a limit and later without a home
	 * counts once, as no home; the evictor's rules do not change in a run */
	for (int i = 0; !rc && i < s->npods; i++)
		if (!rb->moved[i] && rb->refused[i]) {
			rb->no_home += (rb->refused[i] & 2) != 0;
			rb->limited += (rb->refused[i] & 3) == 1;
			rb->kept += rb->refused[i] == 4;
		}
	kp_free(rb->moved);
	kp_free(rb->refused);
	kp_free(rb->avoid);
	kp_free(rb->out_count);
	kp_free(rb->ns_count);
	rb->moved = rb->refused = rb->avoid = NULL;
	rb->out_count = rb->ns_count = NULL;
	return rc;
}

