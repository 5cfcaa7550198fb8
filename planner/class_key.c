/*
 * class_key.c — the node-local cache's key (plan_cycle.c, issue 18): classes
 * whose node-local filters and scores (registry.h local_filter /
 * local_score) read the same inputs share one key, so a pod finds the
 * verdicts and raw scores another class's pod left on a node.
 *
 * Those plugins read of the class: its effective and non-zero requests
 * (NodeResourcesFit, BalancedAllocation), its static verdicts (NodeAffinity,
 * NodeUnschedulable, TaintToleration: the arrays classes with the same
 * static spec share, compared by address), its tolerations
 * (TaintToleration's score), its preferred node affinity (compared by
 * address: only a class without any shares it), its host ports, the node
 * features it requires, its container count and images (ImageLocality;
 * the images only when some node lists images) and its version-dependent
 * inputs.  On the openb trace every pod is a class of its own (its image is
 * its name), yet 8,152 pods have 151 such keys.
 */
#include "plan_int.h"
#include "../common/kp.h"

#include <string.h>

struct kp_lkeys {
	int32_t *tab;                /* open addressing: a class index per key, -1 empty */
	uint32_t mask;
	int32_t nkeys;
	int images;                  /* some node lists images: ImageLocality reads them */
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t class_hash(const kp_class *c, int images)
{
	uint64_t h = mix(0x51ed27f3a1c4b9e5ull, c->nreq);
	for (uint32_t k = 0; k < c->nreq; k++)
		h = mix(mix(h, c->req_res[k]), (uint64_t)c->req_val[k]);
	h = mix(mix(h, (uint64_t)c->nz_cpu), (uint64_t)c->nz_mem);
	h = mix(h, (uint64_t)(uintptr_t)c->static_reason);
	h = mix(mix(h, c->ntols), c->npreferred ? (uint64_t)(uintptr_t)c->preferred : 0);
	h = mix(mix(h, c->nports), c->nfeatures);
	h = mix(mix(h, c->ncontainers), c->kube_inputs);
	for (uint32_t i = 0; images && i < c->nimages; i++)
		h = mix(h, (uint64_t)c->images[i]);
	return h;
}

static int same_tol(const kp_tol *a, const kp_tol *b)
{
	return a->key == b->key && a->value == b->value && a->exists == b->exists && a->effect == b->effect &&
	       a->cmp == b->cmp && a->num_ok == b->num_ok && a->num == b->num;
}

static int same_local(const kp_class *a, const kp_class *b, int images)
{
	if (a->nreq != b->nreq || a->nz_cpu != b->nz_cpu || a->nz_mem != b->nz_mem || a->static_reason != b->static_reason ||
	    a->ntols != b->ntols || a->npreferred != b->npreferred || (a->npreferred && a->preferred != b->preferred) ||
	    a->nports != b->nports || a->nfeatures != b->nfeatures || a->ncontainers != b->ncontainers ||
	    a->kube_inputs != b->kube_inputs || (images && a->nimages != b->nimages))
		return 0;
	if (a->nreq && (memcmp(a->req_res, b->req_res, a->nreq * sizeof *a->req_res) ||
			memcmp(a->req_val, b->req_val, a->nreq * sizeof *a->req_val)))
		return 0;   /* (no memcmp of 0 bytes: the arrays may be NULL) */
	for (uint32_t i = 0; i < a->ntols; i++)
		if (!same_tol(&a->tols[i], &b->tols[i]))
			return 0;
	for (uint32_t i = 0; i < a->nports; i++)
		if (a->ports[i].ip != b->ports[i].ip || a->ports[i].proto != b->ports[i].proto ||
		    a->ports[i].port != b->ports[i].port)
			return 0;
	if (a->nfeatures && memcmp(a->features, b->features, a->nfeatures * sizeof *a->features))
		return 0;
	return !images || !a->nimages || !memcmp(a->images, b->images, a->nimages * sizeof *a->images);
}

int32_t kp_plan_local_key(planner *pl, int32_t cls)
{
	kp_snap *s = &pl->s;
	if (pl->lkey[cls] >= 0)
		return pl->lkey[cls];
	struct kp_lkeys *t = pl->lk;
	if (!t) {
		if (!(t = pl->lk = kp_calloc(1, sizeof *t)))
			return -1;
		uint32_t size = 16;
		while (size < 2u * (uint32_t)s->nclasses)
			size *= 2;
		if (!(t->tab = kp_malloc(size * sizeof *t->tab)))
			return -1;
		memset(t->tab, -1, size * sizeof *t->tab);
		t->mask = size - 1;
		for (int n = 0; n < s->nnodes && !t->images; n++)
			t->images = s->nimages[n] > 0;
	}
	const kp_class *c = &s->classes[cls];
	for (uint32_t i = (uint32_t)class_hash(c, t->images) & t->mask;; i = (i + 1) & t->mask) {
		int32_t o = t->tab[i];
		if (o < 0) {
			t->tab[i] = cls;
			return pl->lkey[cls] = t->nkeys++;
		}
		if (same_local(&s->classes[o], c, t->images))
			return pl->lkey[cls] = pl->lkey[o];
	}
}

void kp_plan_local_keys_free(planner *pl)
{
	if (pl->lk)
		kp_free(pl->lk->tab);
	kp_free(pl->lk);
	pl->lk = NULL;
}
