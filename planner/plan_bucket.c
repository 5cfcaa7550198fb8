/*
 * plan_bucket.c — the choice of node without visiting every node (issue 20;
 * docs/performance.md "Node buckets").
 *
 * A pod's total on node n is L(n), the weighted node-local scores that are
 * not normalised (NodeResourcesFit, BalancedAllocation, ImageLocality), plus
 * the weighted normalised scores, whose raw values depend on a few node
 * properties only: the raw node-local scores that are normalised
 * (TaintToleration, NodeAffinity: fixed for a class) and, for each
 * PodTopologySpread constraint, the node's domain (or, for a soft one by
 * hostname, its count of matching pods).  Nodes with equal properties form
 * a bucket; a bucket's normalised part is one number per pod, computed on
 * one node of it (the normalisations take minima and maxima over the
 * feasible nodes, which the buckets give), and a hard constraint passes or
 * fails the whole bucket.  Inside a bucket the nodes are grouped by L, the
 * groups kept in a heap by L; so the best total is found among buckets, and
 * only the nodes of the winning groups — the ties — are visited, for the
 * seeded tie-break, exactly as best_node (plan_cycle.c) breaks them.
 *
 * A structure (a slot) serves a class and profile — the node-local
 * verdicts, L and keys are the class's, and classes whose node-local
 * plugins read the same inputs (class_key.c) share one — and the shape of its spread
 * constraints; up to NSLOT are kept, least recently used replaced.  A slot
 * is built by one pass over the nodes and then kept current from the
 * snapshot's change log (kp_snap.chg: every node a pod came to or left),
 * node by node, when it is used again; the hostname counts in its keys
 * follow the selectors of the pod at hand (the nodes with a non-zero count
 * under the old or the new selectors are keyed again).  A pod whose cycle
 * needs anything else — a filter that is not node-local and not skipped
 * (required inter-pod affinity, hostname spread, volumes, claims, SQL
 * extenders), an inter-pod affinity score, another non-local score, a
 * PreFilter restriction to some nodes, no feasible node at all — takes the
 * node-by-node path, which gives the same answer.  KPLAN_BUCKETS=0 turns the
 * buckets off, `--reference` every cache; tests/t/44-node-buckets.t and
 * 44-fast-vs-reference.t compare the tables.
 */
#include "plan_int.h"

#include <string.h>

#define MAX_KEY 12               /* properties per bucket key */
#define NSLOT 32                 /* structures kept */

typedef struct bgroup {
	int64_t L;
	int32_t bucket, head, count;
	uint8_t in_heap;
} bgroup;

typedef struct bbucket {
	int32_t nfeas;
	int32_t *heap;               /* group indexes, a max-heap by L (groups may be empty: lazy) */
	int nheap, cap_heap;
} bbucket;

typedef struct bslot {
	int in_use, valid;
	uint64_t used_at;
	/* what it serves */
	int32_t ident;               /* the class's node-local key (class_key.c) */
	int profile;
	uint8_t skipped[KP_P_COUNT];
	int ncs, nkey;
	kp_sid cs_topo[MAX_KEY];
	uint8_t cs_host[MAX_KEY], cs_hard[MAX_KEY];
	int32_t cs_counter[MAX_KEY]; /* the counters its hostname counts follow */
	uint64_t logpos;             /* kp_snap.nchg when last current */
	/* per node: its group (which holds its bucket and L), the group's list;
	 * keyed by a non-zero hostname count */
	int32_t *ng, *next, *prev;
	uint8_t *hot;
	int32_t *hotl;
	int nhot, cap_hot;
	/* buckets and groups */
	bbucket *b;
	int64_t *bkey;               /* nkey per bucket */
	int nbk, cap_b;
	bgroup *g;
	int ngr, cap_g;
	kp_dmap bmap, gmap;
	int64_t total;               /* feasible nodes */
} bslot;

struct kp_bstate {
	bslot slot[NSLOT];
	bslot *cur;
	uint64_t clock;
	/* this cycle's plugins: node-local filters, node-local scores (L: those
	 * without NormalizeScore), the keyed normalised ones among them */
	int loc[KP_P_COUNT], nloc;
	int ks[KP_P_COUNT], nks;
	int key_k[KP_P_COUNT], nkey_k;
	/* per query */
	int64_t *mult, *tot_b;
	int32_t *tmp;
};

/* ---- groups and their heaps ---- */

static int heap_less(const bslot *sl, int32_t a, int32_t b)
{
	return sl->g[a].L < sl->g[b].L;
}

static int heap_push(bslot *sl, bbucket *bk, int32_t gi)
{
	if (KP_GROW(bk->heap, bk->nheap, bk->cap_heap, 8))
		return KP_NOMEM;
	int i = bk->nheap++;
	bk->heap[i] = gi;
	while (i > 0 && heap_less(sl, bk->heap[(i - 1) / 2], bk->heap[i])) {
		int32_t t = bk->heap[i];
		bk->heap[i] = bk->heap[(i - 1) / 2];
		bk->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
	sl->g[gi].in_heap = 1;
	return KP_OK;
}

static void heap_pop(bslot *sl, bbucket *bk)
{
	sl->g[bk->heap[0]].in_heap = 0;
	bk->heap[0] = bk->heap[--bk->nheap];
	for (int i = 0;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < bk->nheap && heap_less(sl, bk->heap[m], bk->heap[l]))
			m = l;
		if (r < bk->nheap && heap_less(sl, bk->heap[m], bk->heap[r]))
			m = r;
		if (m == i)
			break;
		int32_t t = bk->heap[i];
		bk->heap[i] = bk->heap[m];
		bk->heap[m] = t;
		i = m;
	}
}

/* the bucket's group with the highest L that has nodes; -1 none */
static int32_t top_group(bslot *sl, bbucket *bk)
{
	while (bk->nheap && sl->g[bk->heap[0]].count == 0)
		heap_pop(sl, bk);
	return bk->nheap ? bk->heap[0] : -1;
}

static int same_key(const int64_t *a, const int64_t *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static int32_t find_bucket(bslot *sl, const int64_t *key)
{
	uint64_t h = 0x6275636b;
	for (int i = 0; i < sl->nkey; i++) {
		h = (h ^ (uint64_t)key[i]) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	for (uint64_t probe = 0;; probe++) {
		int64_t hk = (int64_t)(h + probe * 0x9e3779b97f4a7c15ULL);
		int64_t *v = kp_dmap_get(&sl->bmap, hk);
		if (v && same_key(&sl->bkey[*v * sl->nkey], key, sl->nkey))
			return (int32_t)*v;
		if (v)
			continue;   /* another key with this hash: the next probe */
		if (KP_GROW(sl->b, sl->nbk, sl->cap_b, 16))
			return -1;
		int64_t *nk = kp_realloc(sl->bkey, (size_t)sl->cap_b * (size_t)(sl->nkey ? sl->nkey : 1) * sizeof *nk);
		if (!nk)
			return -1;
		sl->bkey = nk;
		if (!(v = kp_dmap_put(&sl->bmap, hk)))
			return -1;
		int32_t bi = sl->nbk++;
		memset(&sl->b[bi], 0, sizeof sl->b[bi]);
		memcpy(&sl->bkey[bi * sl->nkey], key, (size_t)sl->nkey * sizeof *key);
		*v = bi;
		return bi;
	}
}

static int32_t find_group(bslot *sl, int32_t bi, int64_t L)
{
	int64_t gk = ((int64_t)bi << 40) ^ L;
	int64_t *v = kp_dmap_get(&sl->gmap, gk);
	if (v)
		return (int32_t)*v;
	if (KP_GROW(sl->g, sl->ngr, sl->cap_g, 64) || !(v = kp_dmap_put(&sl->gmap, gk)))
		return -1;
	int32_t gi = sl->ngr++;
	sl->g[gi] = (bgroup){ L, bi, -1, 0, 0 };
	*v = gi;
	return gi;
}

static void unlink_node(bslot *sl, int n)
{
	int32_t gi = sl->ng[n];
	if (gi < 0)
		return;
	bgroup *g = &sl->g[gi];
	if (sl->prev[n] >= 0)
		sl->next[sl->prev[n]] = sl->next[n];
	else
		g->head = sl->next[n];
	if (sl->next[n] >= 0)
		sl->prev[sl->next[n]] = sl->prev[n];
	g->count--;
	sl->b[g->bucket].nfeas--;
	sl->total--;
	sl->ng[n] = -1;
}

static int link_node(bslot *sl, int n, int32_t bi, int64_t L)
{
	int32_t gi = find_group(sl, bi, L);
	if (gi < 0)
		return KP_NOMEM;
	bgroup *g = &sl->g[gi];
	sl->prev[n] = -1;
	sl->next[n] = g->head;
	if (g->head >= 0)
		sl->prev[g->head] = n;
	g->head = n;
	g->count++;
	sl->b[bi].nfeas++;
	sl->total++;
	sl->ng[n] = gi;
	if (!g->in_heap && heap_push(sl, &sl->b[bi], gi))
		return KP_NOMEM;
	return KP_OK;
}

/* ---- one node ---- */

/* node n into slot sl as it is now: its node-local verdict and scores
 * (the node-local cache's, plan_cycle.c), L and bucket */
static int place_node(planner *pl, bslot *sl, int n)
{
	kp_bstate *bs = pl->bs;
	kp_cycle *cy = &pl->cy;
	unlink_node(sl, n);
	if (kp_snap_gone(&pl->s, n) || !kp_plan_local_pass(pl, n, bs->loc, bs->nloc))
		return KP_OK;
	const kp_lslot *e = kp_plan_local_scores(pl, n, bs->ks, bs->nks);
	int64_t L = e->lsum, key[MAX_KEY];
	int nk = 0, hot = 0;
	for (int j = 0; j < bs->nkey_k; j++)
		key[nk++] = e->raw[pl->lraw_of[bs->key_k[j]]];
	for (int k = 0; k < sl->ncs; k++) {
		const kp_cstate *c = &cy->cs[k];
		if (c->tv[n] < 0) {
			key[nk++] = INT64_MIN;
		} else if (c->is_host && !c->hard) {
			key[nk] = kp_spread_count(cy, c, n);
			hot |= key[nk++] != 0;
		} else {
			key[nk++] = c->dom[n];
		}
	}
	if (hot && !sl->hot[n]) {
		if (KP_GROW(sl->hotl, sl->nhot, sl->cap_hot, 64))
			return KP_NOMEM;
		sl->hotl[sl->nhot++] = n;
		sl->hot[n] = 1;
	}
	if (L < 0 || L >= ((int64_t)1 << 40))
		return KP_SKIP;   /* outside the group key's range: the node-by-node path */
	int32_t bi = find_bucket(sl, key);
	if (bi < 0)
		return KP_NOMEM;
	return link_node(sl, n, bi, L);
}

/* ---- slots ---- */

static void slot_clear(bslot *sl)
{
	for (int i = 0; i < sl->nbk; i++)
		kp_free(sl->b[i].heap);
	sl->nbk = 0;
	sl->ngr = 0;
	sl->total = 0;
	kp_dmap_clear(&sl->bmap);
	kp_dmap_clear(&sl->gmap);
	for (int i = 0; i < sl->nhot; i++)
		sl->hot[sl->hotl[i]] = 0;
	sl->nhot = 0;
	sl->valid = 0;
}

static void slot_free(bslot *sl)
{
	if (!sl->in_use)
		return;
	slot_clear(sl);
	kp_free(sl->b);
	kp_free(sl->bkey);
	kp_free(sl->g);
	kp_dmap_release(&sl->bmap);
	kp_dmap_release(&sl->gmap);
	kp_free(sl->ng);
	kp_free(sl->next);
	kp_free(sl->prev);
	kp_free(sl->hot);
	kp_free(sl->hotl);
	memset(sl, 0, sizeof *sl);
}

static int slot_alloc(bslot *sl, int nnodes)
{
	size_t n = (size_t)(nnodes ? nnodes : 1);
	memset(sl, 0, sizeof *sl);
	sl->in_use = 1;
	sl->ng = kp_malloc(n * sizeof *sl->ng);
	sl->next = kp_malloc(n * sizeof *sl->next);
	sl->prev = kp_malloc(n * sizeof *sl->prev);
	sl->hot = kp_calloc(n, 1);
	if (!sl->ng || !sl->next || !sl->prev || !sl->hot || kp_dmap_init(&sl->bmap, 64) ||
	    kp_dmap_init(&sl->gmap, 256))
		return KP_NOMEM;
	return KP_OK;
}

/* the slot serves this cycle's class, profile, skipped scores and spread shape */
static int slot_serves(const bslot *sl, const kp_cycle *cy, int32_t ident, int profile, const uint8_t *skipped,
		       int keyed)
{
	if (!sl->valid || sl->ident != ident || sl->profile != profile || memcmp(sl->skipped, skipped, KP_P_COUNT))
		return 0;
	if (sl->ncs != (keyed ? cy->ncs : 0))
		return 0;
	for (int k = 0; k < sl->ncs; k++)
		if (cy->cs[k].topo != sl->cs_topo[k] || cy->cs[k].hard != sl->cs_hard[k] ||
		    cy->cs[k].is_host != sl->cs_host[k])
			return 0;
	return 1;
}

static int build(planner *pl, bslot *sl, int32_t ident, int profile, const uint8_t *skipped, int keyed)
{
	kp_bstate *bs = pl->bs;
	kp_cycle *cy = &pl->cy;
	const kp_snap *s = &pl->s;
	slot_clear(sl);
	sl->ident = ident;
	sl->profile = profile;
	memcpy(sl->skipped, skipped, KP_P_COUNT);
	sl->ncs = keyed ? cy->ncs : 0;
	sl->nkey = bs->nkey_k + sl->ncs;   /* at most MAX_KEY: activate checked */
	for (int k = 0; k < sl->ncs; k++) {
		sl->cs_topo[k] = cy->cs[k].topo;
		sl->cs_host[k] = cy->cs[k].is_host;
		sl->cs_hard[k] = cy->cs[k].hard;
		sl->cs_counter[k] = cy->cs[k].counter;
	}
	for (int n = 0; n < s->nnodes; n++)
		sl->ng[n] = -1;
	for (int n = 0; n < s->nnodes; n++) {
		int rc = place_node(pl, sl, n);
		if (rc)
			return rc;
	}
	sl->logpos = s->nchg;
	sl->valid = 1;
	return KP_OK;
}

/* the nodes the snapshot changed since the slot was last current, again;
 * KP_SKIP when the log no longer holds them all or a build is cheaper */
static int sync(planner *pl, bslot *sl)
{
	const kp_snap *s = &pl->s;
	uint64_t behind = s->nchg - sl->logpos;
	if (behind > (uint64_t)s->chg_mask + 1 || behind > (uint64_t)s->nnodes)
		return KP_SKIP;
	for (uint64_t i = sl->logpos; i < s->nchg; i++) {
		int rc = place_node(pl, sl, s->chg[i & s->chg_mask]);
		if (rc)
			return rc;
	}
	sl->logpos = s->nchg;
	return KP_OK;
}

/* the hostname counts in the keys follow this pod's selectors: the nodes
 * with a non-zero count under the old ones or the new ones, keyed again */
static int rekey(planner *pl, bslot *sl)
{
	kp_bstate *bs = pl->bs;
	kp_cycle *cy = &pl->cy;
	int same = 1;
	for (int k = 0; k < sl->ncs; k++)
		if (sl->cs_host[k] && !sl->cs_hard[k] && cy->cs[k].counter != sl->cs_counter[k])
			same = 0;
	if (same)
		return KP_OK;
	int nold = sl->nhot;
	if (nold)
		memcpy(bs->tmp, sl->hotl, (size_t)nold * sizeof *bs->tmp);
	for (int i = 0; i < nold; i++)
		sl->hot[bs->tmp[i]] = 0;
	sl->nhot = 0;
	for (int i = 0; i < nold; i++) {
		int rc = place_node(pl, sl, bs->tmp[i]);
		if (rc)
			return rc;
	}
	for (int k = 0; k < sl->ncs; k++) {
		sl->cs_counter[k] = cy->cs[k].counter;
		if (!sl->cs_host[k] || sl->cs_hard[k])
			continue;
		const kp_counter *ct = kp_snap_counter(&pl->s, cy->cs[k].counter);
		kp_counter_it it;
		for (int ok = kp_counter_first(ct, &it); ok; ok = kp_counter_next(ct, &it)) {
			int rc = sl->hot[it.node] ? KP_OK : place_node(pl, sl, it.node);
			if (rc)
				return rc;
		}
	}
	return KP_OK;
}

/* the slot for this cycle, current; NULL: the node-by-node path (*rc set on error) */
static bslot *activate(planner *pl, int profile_idx, const uint8_t *skipped, int keyed, int *rc)
{
	kp_bstate *bs = pl->bs;
	kp_cycle *cy = &pl->cy;
	/* classes whose node-local plugins read the same inputs share a slot
	 * (class_key.c; the cycle computed the key) */
	int32_t ident = pl->lkey[cy->p->cls];
	*rc = KP_OK;
	if (bs->nkey_k + (keyed ? cy->ncs : 0) > MAX_KEY)
		return NULL;   /* too many key properties: before a slot is taken */
	bslot *sl = NULL, *lru = NULL;
	for (int i = 0; i < NSLOT && !sl; i++) {
		bslot *x = &bs->slot[i];
		if (slot_serves(x, cy, ident, profile_idx, skipped, keyed))
			sl = x;
		else if (!lru || !x->in_use || (lru->in_use && x->used_at < lru->used_at))
			lru = x;
	}
	if (sl && (*rc = sync(pl, sl)) == KP_OK)
		*rc = rekey(pl, sl);
	if (!sl || *rc == KP_SKIP) {
		if (!sl) {
			sl = lru;
			if (!sl->in_use && slot_alloc(sl, pl->s.nnodes)) {
				slot_free(sl);
				*rc = KP_NOMEM;
				return NULL;
			}
		}
		*rc = build(pl, sl, ident, profile_idx, skipped, keyed);
	}
	if (*rc) {
		slot_clear(sl);
		if (*rc == KP_SKIP)
			*rc = KP_OK;
		return NULL;
	}
	sl->used_at = ++bs->clock;
	return sl;
}

/* ---- eligibility ---- */

/* the plugins of this pod's cycle, sorted for the structure; 0 when the
 * cycle needs the node-by-node path.  *spread_on: soft spread constraints
 * are scored; *hard_on: PodTopologySpread filters (hard constraints, none
 * by hostname: their verdict is one per domain). */
static int classify(planner *pl, uint8_t *skipped, int *spread_on, int *hard_on)
{
	kp_bstate *bs = pl->bs;
	kp_cycle *cy = &pl->cy;
	const kp_profile *pf = cy->pf;
	if (cy->restrict_nodes)
		return 0;
	bs->nloc = bs->nks = bs->nkey_k = 0;
	*hard_on = *spread_on = 0;
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (!pf->filter[k] || !pg || !pg->filter || cy->skip[k])
			continue;
		if (k == KP_P_POD_TOPOLOGY_SPREAD) {
			for (int j = 0; j < cy->ncs; j++)
				if (cy->cs[j].hard && cy->cs[j].is_host)
					return 0;
			*hard_on = 1;
			continue;
		}
		if (!pg->local_filter)
			return 0;
		bs->loc[bs->nloc++] = k;
	}
	/* a score plugin the buckets do not key: decided before any PreScore runs */
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (pf->score[k] && pg && pg->score && !pg->local_score && k != KP_P_POD_TOPOLOGY_SPREAD &&
		    k != KP_P_INTER_POD_AFFINITY)
			return 0;
	}
	memset(skipped, 0, KP_P_COUNT);
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (!pf->score[k] || !pg || !pg->score)
			continue;
		if (pg->local_score) {
			int rc = pg->pre_score ? pg->pre_score(cy) : KP_OK;
			if (rc < 0)
				return rc;
			skipped[k] = rc == KP_SKIP;
			if (skipped[k])
				continue;
			bs->ks[bs->nks++] = k;
			if (pg->normalize)
				bs->key_k[bs->nkey_k++] = k;
		} else if (k == KP_P_POD_TOPOLOGY_SPREAD) {
			int rc = kp_spread_prepare(cy);
			if (rc < 0)
				return rc;
			*spread_on = rc == KP_OK;
			/* hard constraints not filtered (the filter disabled): keep it simple */
			for (int j = 0; j < cy->ncs && *spread_on && !*hard_on; j++)
				if (cy->cs[j].hard)
					return 0;
		} else if (k == KP_P_INTER_POD_AFFINITY) {
			int rc = pg->pre_score(cy);
			if (rc < 0)
				return rc;
			if (rc != KP_SKIP)
				return 0;
			skipped[k] = 1;
		}
	}
	return 1;
}

/* ---- the choice ---- */

/* one node per bucket with feasible nodes, at the top of its L, into
 * cy->feas (their nodes in bs->mult); the hard spread constraints pass or
 * fail a whole bucket (its domains).  The feasible nodes left. */
static int64_t representatives(planner *pl, bslot *sl, int hard_on, int *nr)
{
	kp_bstate *bs = pl->bs;
	kp_cycle *cy = &pl->cy;
	const kp_plugin *sp = kp_plugins[KP_P_POD_TOPOLOGY_SPREAD];
	int64_t total = 0;
	*nr = 0;
	for (int32_t bi = 0; bi < sl->nbk; bi++) {
		if (!sl->b[bi].nfeas)
			continue;
		int32_t rep = sl->g[top_group(sl, &sl->b[bi])].head;
		cy->probing = 1;   /* the verdict only */
		int fails = hard_on && sp->filter(cy, rep);
		cy->probing = 0;
		if (fails)
			continue;
		cy->feas[*nr] = rep;
		bs->mult[*nr] = sl->b[bi].nfeas;
		total += sl->b[bi].nfeas;
		(*nr)++;
	}
	return total;
}

/* each representative's bucket total (its L plus the weighted normalised
 * scores) into bs->tot_b; the best of them */
static int bucket_totals(planner *pl, bslot *sl, int nr, int64_t total, int spread_on, int64_t *top)
{
	kp_bstate *bs = pl->bs;
	kp_cycle *cy = &pl->cy;
	const kp_profile *pf = cy->pf;
	cy->nfeas = nr;
	for (int i = 0; i < nr; i++)
		bs->tot_b[i] = sl->g[sl->ng[cy->feas[i]]].L;
	for (int j = 0; j < bs->nkey_k; j++) {
		int k = bs->key_k[j];
		int64_t *sc = pl->scores[k];
		for (int i = 0; i < nr; i++)
			sc[cy->feas[i]] = sl->bkey[sl->g[sl->ng[cy->feas[i]]].bucket * sl->nkey + j];
		kp_plugins[k]->normalize(cy, sc);
		for (int i = 0; i < nr; i++)
			bs->tot_b[i] += pf->weight[k] * sc[cy->feas[i]];
	}
	if (spread_on) {
		const kp_plugin *pg = kp_plugins[KP_P_POD_TOPOLOGY_SPREAD];
		int rc = kp_spread_pre_score_summary(cy, cy->feas, bs->mult, nr, total);
		if (rc < 0)
			return rc;
		if (rc == KP_OK) {
			int64_t *sc = pl->scores[KP_P_POD_TOPOLOGY_SPREAD];
			for (int i = 0; i < nr; i++)
				sc[cy->feas[i]] = pg->score(cy, cy->feas[i]);
			pg->normalize(cy, sc);
			for (int i = 0; i < nr; i++)
				bs->tot_b[i] += pf->weight[KP_P_POD_TOPOLOGY_SPREAD] * sc[cy->feas[i]];
		}
	}
	*top = INT64_MIN;
	for (int i = 0; i < nr; i++)
		if (bs->tot_b[i] > *top)
			*top = bs->tot_b[i];
	return KP_OK;
}

/* kp_plan_bucket_choose (plan_int.h) */
int kp_plan_bucket_choose(planner *pl, int profile_idx, int *best, int *nfeas, int64_t *score)
{
	kp_cycle *cy = &pl->cy;
	const kp_pod *p = cy->p;
	kp_bstate *bs = pl->bs;
	if (!bs)
		return 0;
	uint8_t skipped[KP_P_COUNT];
	int spread_on = 0, hard_on = 0;
	int rc = classify(pl, skipped, &spread_on, &hard_on);
	if (rc <= 0)
		return rc < 0 ? (rc == KP_NOMEM ? kp_plan_nomem(pl) : kp_err_set(pl->err, rc, "pre-score failed")) : 0;
	bslot *sl = activate(pl, profile_idx, skipped, spread_on || hard_on, &rc);
	if (!sl)
		return rc ? kp_plan_nomem(pl) : 0;
	if (sl->total == 0)
		return 0;   /* FitError: the reasons come from the node-by-node path */
	int nr;
	int64_t total = representatives(pl, sl, hard_on, &nr);
	if (total == 0)
		return 0;
	*nfeas = (int)total;
	if (total == 1) {
		*best = cy->feas[0];
		cy->nfeas = 0;
		return 1;
	}
	int64_t top;
	if (bucket_totals(pl, sl, nr, total, spread_on, &top))
		return kp_plan_nomem(pl);
	/* the ties: best_node's rule, the highest seeded hash, then the lowest index */
	int b = -1;
	uint32_t btb = 0;
	uint64_t ph = kp_tiebreak_pod_of(cy, p->db_id);
	for (int i = 0; i < nr; i++) {
		if (bs->tot_b[i] != top)
			continue;
		for (int32_t n = sl->g[sl->ng[cy->feas[i]]].head; n >= 0; n = sl->next[n]) {
			uint32_t tb = kp_tiebreak_node(ph, pl->s.node_db_id[n]);
			if (b < 0 || tb > btb || (tb == btb && n < b)) {
				b = n;
				btb = tb;
			}
		}
	}
	cy->nfeas = 0;
	*best = b;
	*score = top;
	return 1;
}

/* ---- the state ---- */

int kp_plan_bucket_setup(planner *pl)
{
	kp_snap *s = &pl->s;
	int n = s->nnodes ? s->nnodes : 1;
	kp_bstate *bs = kp_calloc(1, sizeof *bs);
	if (!bs)
		return kp_plan_nomem(pl);
	pl->bs = bs;
	bs->mult = kp_malloc((size_t)n * sizeof *bs->mult);
	bs->tot_b = kp_malloc((size_t)n * sizeof *bs->tot_b);
	bs->tmp = kp_malloc((size_t)n * sizeof *bs->tmp);
	uint32_t cap = 1024;
	while (cap < 2u * (uint32_t)n)
		cap *= 2;
	kp_free(s->chg);
	s->chg = kp_malloc((size_t)cap * sizeof *s->chg);
	s->chg_mask = cap - 1;
	s->nchg = 0;
	if (!bs->mult || !bs->tot_b || !bs->tmp || !s->chg)
		return kp_plan_nomem(pl);
	return KP_OK;
}

void kp_plan_bucket_release(planner *pl)
{
	kp_bstate *bs = pl->bs;
	kp_free(pl->s.chg);
	pl->s.chg = NULL;
	pl->s.nchg = 0;
	if (!bs)
		return;
	for (int i = 0; i < NSLOT; i++)
		slot_free(&bs->slot[i]);
	kp_free(bs->mult);
	kp_free(bs->tot_b);
	kp_free(bs->tmp);
	kp_free(bs);
	pl->bs = NULL;
}
