/*
 * dra_nodes.c — which devices each node sees (dra_int.h): a device's
 * visibility on a node (its slice's nodeName, allNodes or nodeSelector, or
 * with perDeviceNodeSelection the device's own), and the allocator's
 * candidates per node, made for every node in one pass on first use.
 */
#include "dra_int.h"

int kp_dra_visible(const kp_snap *s, const kp_dra *d, const kp_device *v, int n)
{
	const kp_dslice *sl = &d->slices[v->slice];
	if (sl->per_device) {
		return v->all_nodes || v->node == n || kp_nterms_any(s, v->terms, v->nterms, n);
	}
	return sl->all_nodes || sl->node == n || (sl->has_selector && kp_nterms_any(s, sl->terms, sl->nterms, n));
}

int32_t kp_dra_device_node(const kp_dra *d, const kp_device *v)
{
	const kp_dslice *sl = &d->slices[v->slice];
	if (sl->per_device)
		return v->all_nodes || v->nterms ? -1 : v->node;
	return sl->all_nodes || sl->has_selector ? -1 : sl->node;
}

/* The devices of complete, valid pools visible on each node, in search
 * order (device index), and whether it sees an invalid pool: computed for
 * every node on first use and kept for the run (slices and node labels do
 * not change during it).  One pass puts each pinned device on its node; the
 * others are tried on every node (visible). */
/* device i (of pool p) is visible on node m: a candidate there, or the
 * node sees an invalid pool */
static void put(kp_dra *d, const kp_dpool *p, int m, int32_t i)
{
	if (p->invalid)
		d->node_invalid[m] = 1;
	else if (!p->incomplete)
		d->node_cand[m][d->node_ncand[m]++] = i;
}

static int node_devices(const kp_snap *s, kp_dra *d, int n)
{
	if (d->node_cand)
		return d->node_cand[n] ? KP_OK : KP_NOMEM;
	size_t nn = (size_t)s->nnodes + 1;
	int32_t *cnt = kp_calloc(nn, sizeof *cnt), *other = kp_malloc(((size_t)d->ndevices + 1) * sizeof *other);
	d->node_cand = kp_calloc(nn, sizeof *d->node_cand);
	d->node_ncand = kp_calloc(nn, sizeof *d->node_ncand);
	d->node_invalid = kp_calloc(nn, 1);
	int rc = cnt && other && d->node_cand && d->node_ncand && d->node_invalid ? KP_OK : KP_NOMEM;
	int32_t nother = 0;
	for (int i = 0; !rc && i < d->ndevices; i++) {
		int32_t m = kp_dra_device_node(d, &d->devices[i]);
		if (m < 0)
			other[nother++] = i;
		else if (m < s->nnodes)
			cnt[m]++;
	}
	for (int m = 0; !rc && m < s->nnodes; m++) {
		int32_t *v = kp_malloc(((size_t)cnt[m] + (size_t)nother + 1) * sizeof *v);
		if (!v) {
			rc = KP_NOMEM;
			break;
		}
		d->node_cand[m] = v;
	}
	/* in device order: each pinned device on its node, the others where visible */
	for (int i = 0, o = 0; !rc && i < d->ndevices; i++) {
		const kp_device *v = &d->devices[i];
		const kp_dpool *p = &d->pools[v->pool];
		if (o < nother && other[o] == i) {
			o++;
			for (int m = 0; m < s->nnodes; m++)
				if (kp_dra_visible(s, d, v, m))
					put(d, p, m, i);
			continue;
		}
		int32_t m = kp_dra_device_node(d, v);
		if (m < s->nnodes)
			put(d, p, m, i);
	}
	kp_free(cnt);
	kp_free(other);
	if (rc) {
		for (int m = 0; d->node_cand && m < s->nnodes; m++)
			kp_free(d->node_cand[m]);
		kp_free(d->node_cand);
		kp_free(d->node_ncand);
		kp_free(d->node_invalid);
		d->node_cand = NULL;
		d->node_ncand = NULL;
		d->node_invalid = NULL;
	}
	return rc;
}

int kp_dra_candidates(search *x)
{
	if (node_devices(x->s, x->d, x->node))
		return KP_NOMEM;
	x->cand = x->d->node_cand[x->node];
	x->ncand = x->d->node_ncand[x->node];
	return KP_OK;
}
