/*
 * fix_gpu.c — kplan fix's GPU candidates (issue 18, docs/gpu-devices.md):
 * for a pod that asks GPUs as devices (gpu_frag.h), pods the run placed on
 * one node's GPUs are moved — taken off and placed again, as re-created pods
 * queued after it (what-if move-pods) — so that it fits there:
 *
 * - a shared pod (one GPU, m < 1000 milli): on one GPU with less than m
 *   free, its shares, largest first, until m is free;
 * - a whole-GPU pod (n GPUs): the n GPUs with the fewest pods on them, all of
 *   those pods;
 *
 * and the node's cpu, memory and other requests must fit with the moved
 * pods' requests given back.  Only the run's own allocations (dra_allocation)
 * move; devices held by claims allocated before the run stay.  Candidates by
 * pods moved, then milli moved, then node name; the first FIX_EVICT_TRIES are
 * checked, and one counts when the dry run places the pod, places every moved
 * pod again and leaves no other pod without a node.
 */
#include "fix_int.h"
#include "gpu_frag.h"
#include "dra.h"

#include <stdio.h>
#include <string.h>

#define MOVE_MAX 16                  /* pods one candidate moves, at most */

typedef struct kp_fix_holder { int32_t node, seq, pod, dev, milli; } holder;

typedef struct mcand {
	int node, gpu;               /* gpu: a kp_dra device (shared pods), -1 whole */
	int n;
	int32_t pods[MOVE_MAX];
	int64_t milli, free_before;
} mcand;

static int cmp_holder(const void *a, const void *b, void *ctx)
{
	const holder *x = a, *y = b;
	(void)ctx;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* the run's allocations of GPU devices, who holds which, read once per fix
 * run and grouped by node (f->gpu_hold, f->gpu_hold_off) */
static int read_holders(fixer *f)
{
	const kp_snap *s = &f->s;
	const kp_gpus *g = s->dra->gpus;
	sqlite3_stmt *st;
	holder *v = NULL;
	int n = 0, cap = 0, rc = KP_OK;
	f->gpu_hold_read = 1;
	if (!(f->gpu_hold_off = kp_calloc((size_t)s->nnodes + 2, sizeof *f->gpu_hold_off)))
		return kp_fix_nomem(f);
	if (sqlite3_prepare_v2(f->db, "SELECT pod_id, node_id, pool, device FROM dra_allocation WHERE run_id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return KP_OK;   /* a database from before the DRA tables: nothing to move */
	sqlite3_bind_int64(st, 1, f->r->run);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		int pi = kp_snap_pod_index(s, sqlite3_column_int64(st, 0));
		int ni = kp_snap_node_index(s, sqlite3_column_int64(st, 1));
		const char *pool = (const char *)sqlite3_column_text(st, 2), *dev = (const char *)sqlite3_column_text(st, 3);
		if (pi < 0 || ni < 0 || !pool || !dev || !g->pod_n[pi])
			continue;
		for (int32_t j = g->node_off[ni]; j < g->node_off[ni + 1]; j++) {
			const kp_device *d = &s->dra->devices[g->node_dev[j]];
			if (strcmp(kp_str(&s->strs, d->name), dev) || strcmp(kp_str(&s->strs, s->dra->pools[d->pool].name), pool))
				continue;
			if (KP_GROW(v, n, cap, 256)) {
				rc = kp_fix_nomem(f);
				break;
			}
			v[n] = (holder){ ni, n, pi, g->node_dev[j], g->pod_milli[pi] };
			n++;
		}
	}
	sqlite3_finalize(st);
	kp_sort(v, (size_t)n, sizeof *v, cmp_holder, NULL);
	for (int i = 0; i < n; i++)
		f->gpu_hold_off[v[i].node + 1]++;
	for (int i = 0; i < s->nnodes; i++)
		f->gpu_hold_off[i + 1] += f->gpu_hold_off[i];
	f->gpu_hold = v;
	return rc;
}

/* the node's free GPU milli after the run, per GPU (in g->node_dev order);
 * h: the node's holders */
static int node_left(const kp_snap *s, const holder *h, int nh, int node, int32_t *left)
{
	const kp_gpus *g = s->dra->gpus;
	int k = kp_gpus_left(s, node, left);
	for (int i = 0; i < nh; i++)
		for (int j = 0; j < k; j++)
			if (h[i].dev == g->node_dev[g->node_off[node] + j])
				left[j] -= h[i].milli;
	return k;
}

/* the pod's requests fit the node with the moved pods' given back */
static int room(const kp_snap *s, int32_t pi, int node, const int32_t *moved, int nm, int64_t *freed)
{
	memset(freed, 0, (size_t)s->nres * sizeof *freed);
	for (int m = 0; m < nm; m++) {
		const kp_class *mc = &s->classes[s->pods[moved[m]].cls];
		for (uint32_t q = 0; q < mc->nreq; q++)
			freed[mc->req_res[q]] += mc->req_val[q];
	}
	int any_pods = s->nres > 3 && s->alloc[(size_t)node * (size_t)s->nres + 3] > 0;
	return kp_fix_fits(s, &s->classes[s->pods[pi].cls], node, freed, nm, any_pods);
}

static int cmp_milli_desc(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const holder *x = a, *y = b;
	return (x->milli < y->milli) - (x->milli > y->milli);
}

static int cmp_mcand(const void *a, const void *b, void *ctx)
{
	const kp_snap *s = ctx;
	const mcand *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	if (x->milli != y->milli)
		return x->milli < y->milli ? -1 : 1;
	return strcmp(kp_str(&s->strs, s->node_name[x->node]), kp_str(&s->strs, s->node_name[y->node]));
}

/* a shared pod: per GPU without room, its shares, largest first, until m is free */
static void shared_cands(const kp_snap *s, int32_t pi, int node, const holder *h, int nh, const int32_t *left, int k,
			 int64_t *freed, mcand *out, int *nout)
{
	const kp_gpus *g = s->dra->gpus;
	int32_t m = g->pod_milli[pi];
	for (int j = 0; j < k; j++) {
		if (left[j] >= m)
			continue;   /* room already: what keeps the pod off is not this GPU */
		holder on[MOVE_MAX * 4];
		int non = 0;
		for (int i = 0; i < nh && non < MOVE_MAX * 4; i++)
			if (h[i].dev == g->node_dev[g->node_off[node] + j])
				on[non++] = h[i];
		kp_sort(on, (size_t)non, sizeof *on, cmp_milli_desc, NULL);
		mcand c = { node, g->node_dev[g->node_off[node] + j], 0, { 0 }, 0, left[j] };
		int64_t free = left[j];
		for (int i = 0; i < non && free < m && c.n < MOVE_MAX; i++) {
			c.pods[c.n++] = on[i].pod;
			c.milli += on[i].milli;
			free += on[i].milli;
		}
		if (free >= m && room(s, pi, node, c.pods, c.n, freed))
			out[(*nout)++] = c;
	}
}

/* a whole-GPU pod: the GPUs with the fewest pods, until n are free */
static void whole_cands(const kp_snap *s, int32_t pi, int node, const holder *h, int nh, const int32_t *left, int k,
			int64_t *freed, mcand *out, int *nout)
{
	const kp_gpus *g = s->dra->gpus;
	int32_t want = g->pod_n[pi];
	int cnt[KP_GPU_MAX_NODE] = { 0 }, used[KP_GPU_MAX_NODE] = { 0 }, full = 0;
	for (int j = 0; j < k; j++) {
		full += left[j] == KP_GPU_MILLI;
		for (int i = 0; i < nh; i++)
			cnt[j] += h[i].dev == g->node_dev[g->node_off[node] + j];
		if (left[j] != KP_GPU_MILLI && !cnt[j])
			cnt[j] = MOVE_MAX + 1;   /* held by a claim from before the run: stays */
	}
	if (k < want || full >= want)
		return;
	mcand c = { node, -1, 0, { 0 }, 0, 0 };
	for (int t = 0; t < want; t++) {
		int best = -1;
		for (int j = 0; j < k; j++)
			if (!used[j] && (best < 0 || cnt[j] < cnt[best]))
				best = j;
		if (best < 0 || cnt[best] > MOVE_MAX)
			return;
		used[best] = 1;
		c.free_before += left[best];
		for (int i = 0; i < nh; i++)
			if (h[i].dev == g->node_dev[g->node_off[node] + best]) {
				if (c.n == MOVE_MAX)
					return;
				c.pods[c.n++] = h[i].pod;
				c.milli += h[i].milli;
			}
	}
	if (room(s, pi, node, c.pods, c.n, freed))
		out[(*nout)++] = c;
}

/* check c: 1 when the dry run places t and every moved pod and loses no other pod */
static int check_move(fixer *f, kp_fix_pod *t, int ti, int32_t pi, const mcand *c)
{
	const kp_snap *s = &f->s;
	const kp_gpus *g = s->dra->gpus;
	kp_sb ids, detail, moved;
	int64_t watch[MOVE_MAX];
	kp_sb_init(&ids);
	kp_sb_init(&detail);
	kp_sb_init(&moved);
	const char *node = kp_str(&s->strs, s->node_name[c->node]);
	/* with --from-run the pods are bound where the run left them and move
	 * off; a replay of the run plans them again, queued after the pod */
	const char *verb = f->o->from_run ? "move" : "queue after it";
	const char *where = f->o->from_run ? "off" : "that the run put on";
	if (c->gpu >= 0)
		kp_sb_printf(&detail, "%s %d shared pod%s %s GPU %s of %s (%lld of 1000 milli free, the pod asks %d):", verb,
			     c->n, c->n == 1 ? "" : "s", where, kp_str(&s->strs, s->dra->devices[c->gpu].name), node,
			     (long long)c->free_before, (int)g->pod_milli[pi]);
	else
		kp_sb_printf(&detail, "%s %d pod%s %s %d GPU%s of %s (the pod asks %d whole):", verb, c->n,
			     c->n == 1 ? "" : "s", where, (int)g->pod_n[pi], g->pod_n[pi] == 1 ? "" : "s", node,
			     (int)g->pod_n[pi]);
	kp_sb_addc(&moved, '[');
	for (int k = 0; k < c->n; k++) {
		const kp_pod *v = &s->pods[c->pods[k]];
		char ref[600];
		snprintf(ref, sizeof ref, "%s/%s", kp_str(&s->strs, v->ns), kp_str(&s->strs, v->name));
		kp_sb_printf(&ids, "%s%lld", k ? "," : "", (long long)v->db_id);
		kp_sb_printf(&detail, " %s (%d milli)", ref, (int)g->pod_milli[c->pods[k]] * (int)g->pod_n[c->pods[k]]);
		if (k)
			kp_sb_addc(&moved, ',');
		kp_sb_add_json_str(&moved, ref);
		watch[k] = v->db_id;
	}
	kp_sb_adds(&detail, "; each placed again");
	kp_sb_addc(&moved, ']');
	kp_sort(watch, (size_t)c->n, sizeof *watch, kp_cmp_i64, NULL);
	int rc = kp_sb_ok(&ids) && kp_sb_ok(&detail) && kp_sb_ok(&moved) ? KP_OK : kp_fix_nomem(f);
	if (!rc) {
		char *extra[2] = { "move-pods", (char *)kp_sb_str(&ids) };
		f->watch = watch;
		f->nwatch = c->n;
		rc = kp_fix_plan(f, extra, 1);
		f->watch = NULL;
		f->nwatch = 0;
	}
	int ok = !rc && f->placed[ti] && !f->watch_lost && f->last_lost <= f->base_lost - 1;
	if (ok)
		rc = kp_fix_add_cand(f, t, "move", KP_FIX_MOVE_GPU, kp_sb_str(&detail), kp_sb_str(&moved), "move-pods",
				     kp_sb_str(&ids), ti);
	kp_sb_release(&ids);
	kp_sb_release(&detail);
	kp_sb_release(&moved);
	return rc ? -1 : ok;
}

int kp_fix_try_move_gpu(fixer *f, kp_fix_pod *t, int ti)
{
	if (!f->have_snap) {
		int rc = kp_fix_load_cluster(f);
		if (rc)
			return rc;
	}
	kp_snap *s = &f->s;
	int32_t pi = kp_snap_pod_index(s, t->id);
	if (!s->dra || pi < 0)
		return KP_OK;
	if (kp_gpus_init(s))
		return kp_fix_nomem(f);
	const kp_gpus *g = s->dra->gpus;
	if (!g->pod_n[pi])
		return KP_OK;
	t->gpu = 1;
	int rc = f->gpu_hold_read ? KP_OK : read_holders(f);
	mcand *c = kp_malloc(((size_t)s->nnodes * KP_GPU_MAX_NODE + 1) * sizeof *c);
	int64_t *freed = kp_malloc(((size_t)s->nres + 1) * sizeof *freed);
	int nc = 0;
	if (!rc && (!c || !freed))
		rc = kp_fix_nomem(f);
	for (int n = 0; !rc && n < s->nnodes; n++) {
		const holder *h = f->gpu_hold ? f->gpu_hold + f->gpu_hold_off[n] : NULL;
		int nh = f->gpu_hold_off[n + 1] - f->gpu_hold_off[n];
		int32_t left[KP_GPU_MAX_NODE];
		int k = node_left(s, h, nh, n, left);
		if (!k)
			continue;
		if (g->pod_n[pi] == 1 && g->pod_milli[pi] < KP_GPU_MILLI)
			shared_cands(s, pi, n, h, nh, left, k, freed, c, &nc);
		else
			whole_cands(s, pi, n, h, nh, left, k, freed, c, &nc);
	}
	if (!rc)
		kp_sort(c, (size_t)nc, sizeof *c, cmp_mcand, s);
	for (int i = 0; !rc && i < nc && i < FIX_EVICT_TRIES; i++) {
		int got = check_move(f, t, ti, pi, &c[i]);
		if (got < 0)
			rc = f->err->code ? f->err->code : KP_ERROR;
		else if (got)
			break;
	}
	kp_free(c);
	kp_free(freed);
	return rc;
}
