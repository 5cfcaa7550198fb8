/*
 * gpu_frag.c — GPUs as shareable devices and their fragmentation
 * (gpu_frag.h; issue 18; docs/gpu-devices.md).  Ported from the FGD
 * simulator's pkg/utils/frag.go (GetNodePodFrag, NodeGpuShareFragAmount,
 * GetTypicalPods with the openb configuration: cpu-only pods included,
 * popularity 95 %, step 1, no GPU weight), on kplan's DRA state.
 */
#include "gpu_frag.h"
#include "cycle.h"
#include "../common/kp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TYPICAL_PCT 95

/* node-local, in a usable pool */
static int node_local(const kp_dra *d, const kp_device *v)
{
	const kp_dslice *sl = &d->slices[v->slice];
	return !sl->per_device && sl->node >= 0 && !d->pools[v->pool].incomplete && !d->pools[v->pool].invalid;
}

static int shareable(const kp_device *v)
{
	return v->allow_multiple && v->ncaps >= 1 && v->cap_base[0] > 0;
}

/* a device is a GPU: node-local, of a driver some pod's request selects
 * (g->gpu_driver), shareable with a capacity or dedicated */
static int is_gpu(const kp_dra *d, const kp_gpus *g, const kp_device *v)
{
	if (!node_local(d, v) || (v->allow_multiple && !shareable(v)))
		return 0;
	for (int i = 0; i < g->ndrivers; i++)
		if (g->gpu_driver[i] == d->pools[v->pool].driver)
			return 1;
	return 0;
}

/* which drivers' devices the pods' requests select: per request id, the
 * first node-local device of a driver it selects (a driver's first device
 * stands for its devices), -1 none; those drivers' devices are the GPUs */
static int request_devices(kp_snap *s, kp_gpus *g)
{
	kp_dra *d = s->dra;
	int32_t *rep = kp_malloc(((size_t)d->npools + 1) * sizeof *rep);
	int nrep = 0;
	g->req_dev = kp_malloc(((size_t)d->nreqs + 1) * sizeof *g->req_dev);
	g->gpu_driver = kp_malloc(((size_t)d->npools + 1) * sizeof *g->gpu_driver);
	if (!rep || !g->req_dev || !g->gpu_driver) {
		kp_free(rep);
		return KP_NOMEM;
	}
	for (int i = 0; i < d->nreqs; i++)
		g->req_dev[i] = -2;   /* not looked at */
	for (int i = 0; i < d->ndevices; i++) {
		const kp_device *v = &d->devices[i];
		int seen = 0;
		for (int j = 0; j < nrep && !seen; j++)
			seen = d->pools[d->devices[rep[j]].pool].driver == d->pools[v->pool].driver;
		if (!seen && node_local(d, v))
			rep[nrep++] = i;
	}
	for (int32_t ci = 0; ci < d->nclaims; ci++) {
		const kp_dclaim *c = &d->claims[ci];
		for (uint32_t r = 0; r < c->nrequests; r++) {
			const kp_dreq *q = &c->requests[r].alts[0];
			if (q->id < 0 || q->id >= d->nreqs || g->req_dev[q->id] != -2)
				continue;
			g->req_dev[q->id] = -1;
			for (int j = 0; j < nrep && g->req_dev[q->id] < 0; j++)
				if (kp_dra_request_selects(s, ci, q, rep[j]))
					g->req_dev[q->id] = rep[j];
			kp_sid drv = g->req_dev[q->id] >= 0 ? d->pools[d->devices[g->req_dev[q->id]].pool].driver : -1;
			int known = drv < 0;
			for (int k = 0; k < g->ndrivers && !known; k++)
				known = g->gpu_driver[k] == drv;
			if (!known)
				g->gpu_driver[g->ndrivers++] = drv;
		}
	}
	kp_free(rep);
	/* every device of those drivers node-local: the view sees all a pod could take */
	g->all_local = 1;
	for (int i = 0; i < d->ndevices && g->all_local; i++)
		for (int k = 0; k < g->ndrivers; k++)
			if (g->gpu_driver[k] == d->pools[d->devices[i].pool].driver && !node_local(d, &d->devices[i]))
				g->all_local = 0;
	return KP_OK;
}

static int node_gpus(kp_snap *s, kp_gpus *g)
{
	const kp_dra *d = s->dra;
	int nn = s->nnodes;
	g->node_off = kp_calloc((size_t)nn + 2, sizeof *g->node_off);
	g->node_dev = kp_malloc(((size_t)(d ? d->ndevices : 0) + 1) * sizeof *g->node_dev);
	if (!g->node_off || !g->node_dev)
		return KP_NOMEM;
	for (int i = 0; d && i < d->ndevices; i++)
		if (is_gpu(d, g, &d->devices[i]) && g->node_off[d->slices[d->devices[i].slice].node + 1] < KP_GPU_MAX_NODE)
			g->node_off[d->slices[d->devices[i].slice].node + 1]++;
	for (int n = 0; n < nn; n++)
		g->node_off[n + 1] += g->node_off[n];
	int32_t *fill = kp_calloc((size_t)nn + 1, sizeof *fill);
	if (!fill)
		return KP_NOMEM;
	/* devices are loaded by pool, slice and spec order: a node's GPUs keep it */
	for (int i = 0; d && i < d->ndevices; i++) {
		int n = is_gpu(d, g, &d->devices[i]) ? d->slices[d->devices[i].slice].node : -1;
		if (n >= 0 && fill[n] < g->node_off[n + 1] - g->node_off[n])
			g->node_dev[g->node_off[n] + fill[n]++] = i;
	}
	kp_free(fill);
	return KP_OK;
}

/* the pod's GPU shape: its first request that selects GPUs: n devices, and
 * of each its capacity request as milli of the device (a dedicated device,
 * or no capacity request: 1000) */
static void pod_shape(const kp_snap *s, const kp_gpus *g, int32_t pi, int32_t *n, int32_t *milli)
{
	const kp_dra *d = s->dra;
	*n = *milli = 0;
	for (int32_t k = d->claim_off[pi]; k < d->claim_off[pi + 1]; k++) {
		if (d->claim[k] < 0)
			continue;
		const kp_dclaim *c = &d->claims[d->claim[k]];
		for (uint32_t r = 0; r < c->nrequests; r++) {
			const kp_dreq *q = &c->requests[r].alts[0];
			if (c->requests[r].nalts != 1 || q->all || q->count < 1 || q->count > KP_GPU_MAX_NODE ||
			    q->id < 0 || q->id >= d->nreqs || g->req_dev[q->id] < 0)
				continue;
			const kp_device *v = &d->devices[g->req_dev[q->id]];
			int64_t m = KP_GPU_MILLI;
			if (shareable(v) && q->ncaps >= 1 && v->caps[0].name == q->cap_name[0])
				m = q->cap_value[0] * KP_GPU_MILLI / v->cap_base[0];
			*n = (int32_t)q->count;
			*milli = (int32_t)(m > KP_GPU_MILLI ? KP_GPU_MILLI : m < 1 ? 1 : m);
			return;
		}
	}
}

int64_t kp_gpus_pod_cpu(const kp_snap *s, int32_t pi)
{
	const kp_class *c = &s->classes[s->pods[pi].cls];
	for (uint32_t k = 0; k < c->nreq; k++)
		if (c->req_res[k] == 0)
			return c->req_val[k];
	return 0;
}

/* shapes: count desc, then cpu, milli, n desc, then class (the simulator's GpuType) */
static int shape_cmp(const void *a, const void *b, void *ctx)
{
	const kp_gshape *p = a, *q = b;
	(void)ctx;
	if (p->count != q->count)
		return p->count > q->count ? -1 : 1;
	if (p->cpu != q->cpu)
		return p->cpu > q->cpu ? -1 : 1;
	if (p->milli != q->milli)
		return p->milli > q->milli ? -1 : 1;
	if (p->n != q->n)
		return p->n > q->n ? -1 : 1;
	return (p->cls < q->cls) - (p->cls > q->cls);
}

static int typical(kp_snap *s, kp_gpus *g)
{
	kp_gshape *v = NULL;
	int n = 0, cap = 0;
	int64_t total = 0;
	kp_dmap idx;
	if (kp_dmap_init(&idx, 256))
		return KP_NOMEM;
	for (int32_t pi = 0; pi < s->npods; pi++) {
		const kp_pod *p = &s->pods[pi];
		if (p->daemon_node >= 0 || p->ignored)
			continue;
		const kp_class *c = &s->classes[p->cls];
		kp_gshape e = { kp_gpus_pod_cpu(s, pi), g->pod_n[pi], g->pod_milli[pi],
				c->has_required_affinity || c->nnsel ? p->cls : -1, 0, 0 };
		/* one key per shape: cpu, n, milli, class */
		int64_t key = (int64_t)((((uint64_t)e.cpu * 1000003u + (uint64_t)e.n) * 1000003u + (uint64_t)e.milli) * 1000003u +
					(uint64_t)(e.cls + 1));
		int64_t *slot = kp_dmap_get(&idx, key);
		int j = slot ? (int)*slot : -1;
		while (j >= 0 && (v[j].cpu != e.cpu || v[j].n != e.n || v[j].milli != e.milli || v[j].cls != e.cls))
			j = -1;   /* a key collision: a shape of its own (rare; counted apart) */
		if (j < 0) {
			if (KP_GROW(v, n, cap, 32)) {
				kp_dmap_release(&idx);
				kp_free(v);
				return KP_NOMEM;
			}
			j = n;
			v[n++] = e;
			if (!slot && (slot = kp_dmap_put(&idx, key)))
				*slot = j;
		}
		v[j].count++;
		total++;
	}
	kp_dmap_release(&idx);
	kp_sort(v, (size_t)n, sizeof *v, shape_cmp, NULL);
	/* the simulator's cut: whole shapes, most frequent first, until 95 % */
	double expected = TYPICAL_PCT * (double)total / 100.0, cum = 0;
	int i = 0;
	while (cum < expected && i < n) {
		cum += (double)v[i].count;
		v[i].p = (double)v[i].count / (double)total;
		i++;
	}
	if (i < n)
		for (int j = 0; j < i; j++)
			v[j].p /= cum / (double)total;
	g->shapes = v;
	g->nshapes = i;
	return KP_OK;
}

static void gpus_free(kp_gpus *g)
{
	kp_free(g->node_off);
	kp_free(g->node_dev);
	kp_free(g->pod_n);
	kp_free(g->pod_milli);
	kp_free(g->shapes);
	kp_free(g->memo);
	kp_free(g->req_dev);
	kp_free(g->gpu_driver);
	kp_free(g);
}

int kp_gpus_init(kp_snap *s)
{
	kp_dra *d = s->dra;
	if (!d || d->gpus)
		return KP_OK;
	kp_gpus *g = kp_calloc(1, sizeof *g);
	if (!g)
		return KP_NOMEM;
	d->gpus = g;
	d->gpus_free = gpus_free;
	d->fgd_pi = -1;
	if (request_devices(s, g) || node_gpus(s, g))
		return KP_NOMEM;
	g->pod_n = kp_calloc((size_t)s->npods + 1, sizeof *g->pod_n);
	g->pod_milli = kp_calloc((size_t)s->npods + 1, sizeof *g->pod_milli);
	d->fgd_dev = kp_malloc(((size_t)s->nnodes + 1) * sizeof *d->fgd_dev);
	if (!g->pod_n || !g->pod_milli || !d->fgd_dev)
		return KP_NOMEM;
	for (int n = 0; n < s->nnodes; n++)
		d->fgd_dev[n] = -1;
	double cpu = 0, milli = 0;
	for (int32_t pi = 0; pi < s->npods; pi++) {
		pod_shape(s, g, pi, &g->pod_n[pi], &g->pod_milli[pi]);
		if (g->pod_n[pi] && s->pods[pi].daemon_node < 0) {
			cpu += (double)kp_gpus_pod_cpu(s, pi);
			milli += (double)g->pod_n[pi] * g->pod_milli[pi];
		}
	}
	g->cpu_per_milli = milli > 0 ? cpu / milli : 0;
	return typical(s, g);
}

int kp_gpus_left(const kp_snap *s, int n, int32_t *left)
{
	const kp_dra *d = s->dra;
	const kp_gpus *g = d ? d->gpus : NULL;
	if (!g)
		return 0;
	int k = 0;
	for (int32_t j = g->node_off[n]; j < g->node_off[n + 1]; j++) {
		const kp_device *v = &d->devices[g->node_dev[j]];
		if (!shareable(v) || d->in_use[g->node_dev[j]] > 0) {
			left[k++] = d->in_use[g->node_dev[j]] > 0 ? 0 : KP_GPU_MILLI;   /* dedicated, or taken whole */
			continue;
		}
		int64_t cap = v->cap_base[0], used = d->consumed[v->cap_off];
		left[k++] = (int32_t)((cap - used) * KP_GPU_MILLI / cap);
	}
	return k;
}

int64_t kp_gpus_node_free(const kp_snap *s, int n, int *ngpus)
{
	int32_t left[KP_GPU_MAX_NODE];
	int64_t free_ = 0;
	*ngpus = kp_gpus_left(s, n, left);
	for (int i = 0; i < *ngpus; i++)
		free_ += left[i];
	return free_;
}

int64_t kp_gpus_cpu_left(const kp_snap *s, int n)
{
	size_t at = (size_t)n * (size_t)s->nres;
	return s->alloc[at] - s->used[at];
}

/* the shape can use node n (the simulator's IsNodeAccessibleToPodByType: its
 * pod's node selector and required node affinity) */
static int can_access(const kp_snap *s, const kp_gshape *k, int n)
{
	if (k->cls < 0)
		return 1;
	const kp_class *c = &s->classes[k->cls];
	if (c->affinity_ok)
		return kp_bit(c->affinity_ok, n);
	return !c->nrequired || kp_nterms_any(s, c->required, c->nrequired, n);
}

enum { Q1, Q2, Q3, Q4, XL, XR, NA, NCAT };

double kp_gpus_frag(const kp_snap *s, int n, int64_t cpu_left, const int32_t *left, int ndev)
{
	const kp_gpus *g = s->dra ? s->dra->gpus : NULL;
	double data[NCAT] = { 0 };
	int64_t total = 0;
	if (!g || !ndev)
		return 0;
	for (int i = 0; i < ndev; i++)
		total += left[i];
	for (int j = 0; j < g->nshapes; j++) {
		const kp_gshape *k = &g->shapes[j];
		int cpu_ok = cpu_left >= k->cpu, cat;
		if (k->milli == 0)
			cat = cpu_ok ? XL : XR;
		else if (!can_access(s, k, n))
			cat = NA;
		else {
			int fit = 0;
			for (int i = 0; i < ndev && fit < k->n; i++)
				fit += left[i] >= k->milli;
			cat = fit >= k->n ? (cpu_ok ? Q3 : Q4) : (cpu_ok ? Q2 : Q1);
		}
		if (cat == Q3) {
			int64_t frag = 0;
			for (int i = 0; i < ndev; i++)
				if (left[i] < k->milli)
					frag += left[i];
			data[Q2] += k->p * (double)frag;
			data[Q3] += k->p * (double)(total - frag);
		} else {
			data[cat] += k->p * (double)total;
		}
	}
	return data[Q1] + data[Q2] + data[Q4] + data[XL] + data[XR] + data[NA];
}

static int write_shapes(kp_snap *s, sqlite3 *db, int64_t run_id, kp_err *err)
{
	const kp_gpus *g = s->dra->gpus;
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(db, "INSERT INTO gpu_typical_shape VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1, &q, NULL))
		return kp_err_set(err, KP_IO, "gpu_typical_shape: %s", sqlite3_errmsg(db));
	int rc = KP_OK;
	for (int j = 0; j < g->nshapes && !rc; j++) {
		const kp_gshape *k = &g->shapes[j];
		char ex[600] = "";
		for (int32_t pi = 0; pi < s->npods && !ex[0]; pi++)
			if (g->pod_n[pi] == k->n && g->pod_milli[pi] == k->milli && kp_gpus_pod_cpu(s, pi) == k->cpu &&
			    (k->cls < 0 || s->pods[pi].cls == k->cls) && s->pods[pi].daemon_node < 0)
				snprintf(ex, sizeof ex, "%s/%s", kp_str(&s->strs, s->pods[pi].ns), kp_str(&s->strs, s->pods[pi].name));
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, run_id);
		sqlite3_bind_int(q, 2, j + 1);
		sqlite3_bind_int64(q, 3, k->cpu);
		sqlite3_bind_int(q, 4, k->n);
		sqlite3_bind_int(q, 5, k->milli);
		sqlite3_bind_int64(q, 6, k->count);
		sqlite3_bind_double(q, 7, k->p);
		sqlite3_bind_text(q, 8, ex, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = kp_err_set(err, KP_IO, "gpu_typical_shape: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(q);
	return rc;
}

int kp_gpus_write(kp_snap *s, sqlite3 *db, int64_t run_id, kp_err *err)
{
	if (!s->dra)
		return KP_OK;
	if (kp_gpus_init(s))
		return kp_err_set(err, KP_NOMEM, "out of memory");
	const kp_gpus *g = s->dra->gpus;
	if (!g->node_off[s->nnodes])
		return KP_OK;
	int rc = write_shapes(s, db, run_id, err);
	sqlite3_stmt *q;
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(db, "INSERT INTO gpu_fragmentation VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1, &q, NULL))
		return kp_err_set(err, KP_IO, "gpu_fragmentation: %s", sqlite3_errmsg(db));
	for (int n = 0; n < s->nnodes && !rc; n++) {
		int32_t left[KP_GPU_MAX_NODE];
		int k = kp_gpus_left(s, n, left);
		if (!k)
			continue;
		int64_t cpu = kp_gpus_cpu_left(s, n), free_ = 0;
		char list[KP_GPU_MAX_NODE * 6 + 3];
		size_t at = 0;
		list[at++] = '[';
		for (int i = 0; i < k; i++) {
			free_ += left[i];
			at += (size_t)snprintf(list + at, sizeof list - at, "%s%d", i ? "," : "", (int)left[i]);
		}
		snprintf(list + at, sizeof list - at, "]");
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, run_id);
		sqlite3_bind_int64(q, 2, s->node_db_id[n]);
		sqlite3_bind_int(q, 3, k);
		sqlite3_bind_int64(q, 4, (int64_t)k * KP_GPU_MILLI);
		sqlite3_bind_int64(q, 5, free_);
		sqlite3_bind_double(q, 6, kp_gpus_frag(s, n, cpu, left, k));
		sqlite3_bind_int64(q, 7, cpu);
		sqlite3_bind_text(q, 8, list, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = kp_err_set(err, KP_IO, "gpu_fragmentation: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(q);
	return rc;
}

/* ---- the GPU scores ---- */

/* GPU milli a node cannot use for lack of cpu, at the GPU pods' cpu per milli */
static double stranded(const kp_gpus *g, int64_t cpu_left, const int32_t *left, int k)
{
	double free_ = 0;
	for (int i = 0; i < k; i++)
		free_ += left[i];
	if (g->cpu_per_milli <= 0)
		return 0;
	double usable = (double)(cpu_left > 0 ? cpu_left : 0) / g->cpu_per_milli;
	return free_ > usable ? free_ - usable : 0;
}

/* the simulator's NodeResource.Sub for whole GPUs: GPUs by free milli
 * ascending (the lowest on ties), each with enough free taken until n are */
static void take_whole(int32_t *left, int k, int32_t n, int32_t m)
{
	uint8_t used[KP_GPU_MAX_NODE] = { 0 };
	for (int32_t t = 0; t < n; t++) {
		int best = -1;
		for (int i = 0; i < k; i++)
			if (!used[i] && left[i] >= m && (best < 0 || left[i] < left[best]))
				best = i;
		if (best < 0)
			return;
		used[best] = 1;
		left[best] -= m;
	}
}

/* one choice's score: before (frag f0, stranded st0) against the state after */
static int64_t choice_score(const kp_snap *s, const kp_gpus *g, int n, int mode, double f0, double st0,
			    int64_t cpu_after, const int32_t *left, int k)
{
	double d = f0 - kp_gpus_frag(s, n, cpu_after, left, k);
	if (mode == KP_GPUS_FGD)
		return (int64_t)(1.0 / (1.0 + exp(-(d / 1000.0))) * 100.0);
	d += st0 - stranded(g, cpu_after, left, k);
	return (int64_t)((d + 1e7) * 100.0);   /* the drop, 0.01 milli steps, positive */
}

/* kp_gpus_score's memo: a node's score for a pod shape (mode, cpu, GPUs,
 * milli) while the node holds the same pods (kp_snap.node_ver: every pod
 * that comes or goes there bumps it; its GPUs are node-local, so only such a
 * pod changes them) */
#define GPU_MEMO 16
typedef struct kp_gmemo { uint64_t key; uint32_t ver; int32_t dev; int64_t score; } kp_gmemo;

static uint64_t shape_key(int mode, int64_t cpu, int32_t n, int32_t m)
{
	uint64_t h = (uint64_t)mode * 0x9e3779b97f4a7c15ull;
	h = (h ^ (uint64_t)cpu) * 0xff51afd7ed558ccdull;
	h = (h ^ (uint64_t)n) * 0xc4ceb9fe1a85ec53ull;
	h = (h ^ (uint64_t)m) * 0xff51afd7ed558ccdull;
	return h | 1;
}

static int64_t score_of(const kp_snap *s, int32_t pi, int n, int mode, int32_t *dev);

int64_t kp_gpus_score(kp_snap *s, int32_t pi, int n, int mode, int32_t *dev)
{
	kp_gpus *g = s->dra ? s->dra->gpus : NULL;
	*dev = -1;
	if (!g)
		return mode == KP_GPUS_FGD ? 50 : (int64_t)(1e7 * 100.0);
	if (s->dra->no_memo || (!g->memo && !(g->memo = kp_calloc((size_t)s->nnodes * GPU_MEMO + 1, sizeof *g->memo))))
		return score_of(s, pi, n, mode, dev);   /* plan --reference: every score computed */
	uint64_t key = shape_key(mode, kp_gpus_pod_cpu(s, pi), g->pod_n[pi], g->pod_milli[pi]);
	kp_gmemo *e = &g->memo[(size_t)n * GPU_MEMO + key % GPU_MEMO];
	if (e->key == key && e->ver == s->node_ver[n]) {
		*dev = e->dev;
		return e->score;
	}
	int64_t sc = score_of(s, pi, n, mode, dev);
	*e = (kp_gmemo){ key, s->node_ver[n], *dev, sc };
	return sc;
}

static int64_t score_of(const kp_snap *s, int32_t pi, int n, int mode, int32_t *dev)
{
	const kp_gpus *g = s->dra->gpus;
	*dev = -1;
	int32_t left[KP_GPU_MAX_NODE];
	int k = kp_gpus_left(s, n, left);
	int64_t cpu_left = kp_gpus_cpu_left(s, n), cpu = kp_gpus_pod_cpu(s, pi);
	int32_t gn = g->pod_n[pi], m = g->pod_milli[pi];
	double f0 = kp_gpus_frag(s, n, cpu_left, left, k), st0 = mode == KP_GPUS_PACK ? stranded(g, cpu_left, left, k) : 0;
	if (gn == 1 && m < KP_GPU_MILLI) {
		int64_t best = 0;
		for (int i = 0; i < k; i++) {
			if (left[i] < m)
				continue;
			left[i] -= m;
			int64_t sc = choice_score(s, g, n, mode, f0, st0, cpu_left - cpu, left, k);
			left[i] += m;
			if (*dev < 0 || sc > best) {
				best = sc;
				*dev = g->node_dev[g->node_off[n] + i];
			}
		}
		return best;
	}
	if (gn > 0)
		take_whole(left, k, gn, m);
	return choice_score(s, g, n, mode, f0, st0, cpu_left - cpu, left, k);
}

int kp_gpus_pre_score(kp_cycle *cy)
{
	if (!cy->s->dra)
		return KP_OK;
	if (kp_gpus_init(cy->s))
		return KP_NOMEM;
	cy->s->dra->fgd_pi = cy->pi;
	return KP_OK;
}

int64_t kp_gpus_plugin_score(kp_cycle *cy, int node, int mode)
{
	int32_t dev;
	int64_t sc = kp_gpus_score(cy->s, cy->pi, node, mode, &dev);
	if (cy->s->dra && cy->s->dra->fgd_dev)
		cy->s->dra->fgd_dev[node] = dev;
	return sc;
}

int kp_gpus_room(const kp_snap *s, int32_t pi, int n)
{
	const kp_gpus *g = s->dra ? s->dra->gpus : NULL;
	if (!g || !g->all_local || !g->pod_n[pi])
		return 1;
	int32_t left[KP_GPU_MAX_NODE];
	int k = kp_gpus_left(s, n, left), fit = 0;
	for (int i = 0; i < k; i++)
		fit += left[i] >= g->pod_milli[pi];
	return fit >= g->pod_n[pi];
}
