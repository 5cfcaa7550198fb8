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
		if (v->all_nodes || v->node == n)
			return 1;
		for (uint32_t t = 0; t < v->nterms; t++)
			if (kp_nterm_matches(s, &v->terms[t], n))
				return 1;
		return 0;
	}
	if (sl->all_nodes || sl->node == n)
		return 1;
	if (!sl->has_selector)
		return 0;
	for (uint32_t t = 0; t < sl->nterms; t++)
		if (kp_nterm_matches(s, &sl->terms[t], n))
			return 1;
	return 0;
}

/* a device whose slice names one node and nothing else (not per device, no
 * selector, not all nodes) is visible there only */
static int pinned(const kp_dra *d, const kp_device *v)
{
	const kp_dslice *sl = &d->slices[v->slice];
	return !sl->per_device && !sl->all_nodes && !sl->has_selector;
}

/* The devices of complete, valid pools visible on each node, in search
 * order (device index), and whether it sees an invalid pool: computed for
 * every node on first use and kept for the run (slices and node labels do
 * not change during it).  One pass puts each pinned device on its node; the
 * others are tried on every node (visible). */
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
		const kp_device *v = &d->devices[i];
		if (!pinned(d, v))
			other[nother++] = i;
		else if (d->slices[v->slice].node >= 0 && d->slices[v->slice].node < s->nnodes)
			cnt[d->slices[v->slice].node]++;
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
		int usable = !p->incomplete && !p->invalid;
		if (o < nother && other[o] == i) {
			o++;
			for (int m = 0; m < s->nnodes; m++) {
				if (!kp_dra_visible(s, d, v, m))
					continue;
				if (p->invalid)
					d->node_invalid[m] = 1;
				if (usable)
					d->node_cand[m][d->node_ncand[m]++] = i;
			}
			continue;
		}
		int m = d->slices[v->slice].node;
		if (m < 0 || m >= s->nnodes)
			continue;
		if (p->invalid)
			d->node_invalid[m] = 1;
		if (usable)
			d->node_cand[m][d->node_ncand[m]++] = i;
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
