/*
 * plan_bucket.c — the choice of node without visiting every node (issue 20;
 * docs/performance.md "Node buckets").
 *
 * A pod's total on node n is L(n), the weighted node-local scores that are
 * not normalised (NodeResourcesFit, BalancedAllocation, ImageLocality), plus
 * the weighted normalised scores, whose raw values depend on a few node
 * properties only: the raw node-local scores that are normalised
 * (TaintToleration, NodeAffinity: fixed for a class) and, for each soft
 * PodTopologySpread constraint, the node's domain (or, by hostname, its
 * count of matching pods).  Nodes with equal properties form a bucket; a
 * bucket's normalised part is one number per pod, computed on one node of
 * it (the normalisations take minima and maxima over the feasible nodes,
 * which the buckets give).  Inside a bucket the nodes are grouped by L, the
 * groups kept in a heap by L; so the best total is found among buckets, and
 * only the nodes of the winning groups — the ties — are visited, for the
 * seeded tie-break, exactly as best_node (plan_cycle.c) breaks them.
 *
 * The structure belongs to the class (and profile) being scheduled: it is
 * built when the class changes, by one pass over the nodes as the node-local
 * cache would make, and then kept current node by node from the snapshot's
 * change log (kp_snap.chg: every node a pod came to or left).  A pod whose
 * cycle needs anything else — a filter that is not node-local and not
 * skipped (hard spread, required inter-pod affinity, volumes, claims, SQL
 * extenders), an inter-pod affinity score, another non-local score, a
 * PreFilter restriction to some nodes, no feasible node at all — takes the
 * node-by-node path, which gives the same answer.  `--reference` turns both
 * off; tests/t/44-fast-vs-reference.t compares the tables.
 */
#include "plan_int.h"

#include <string.h>

#define MAX_KEY 12               /* properties per bucket key */

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

struct kp_bstate {
	int valid;
	int32_t cls;
	int profile;
	uint32_t epoch;
	int nnodes;
	/* the plugins: node-local filters, L's scores, keyed normalised scores */
	int loc[KP_P_COUNT], nloc;
	int lsum_k[KP_P_COUNT], nlsum;
	int key_k[KP_P_COUNT], nkey_k;
	uint8_t skipped[KP_P_COUNT];
	/* the spread constraints the structure was built for (keyed: soft ones
	 * scored, or hard ones filtered) */
	int keyed;
	int ncs;
	int32_t cs_counter[MAX_KEY];
	kp_sid cs_topo[MAX_KEY];
	uint8_t cs_host[MAX_KEY], cs_hard[MAX_KEY];
	int64_t *zsum[MAX_KEY];      /* per soft non-hostname constraint: matching pods per domain */
	int32_t zcap[MAX_KEY];
	int64_t *contrib[MAX_KEY];   /* per node: its part of zsum */
	int nkey;
	/* per node */
	int32_t *nb, *ng, *next, *prev;
	int64_t *L;
	/* buckets and groups */
	bbucket *b;
	int64_t *bkey;               /* nkey per bucket */
	int nbk, cap_b;
	bgroup *g;
	int ngr, cap_g;
	kp_dmap bmap, gmap;
	int64_t total;               /* feasible nodes */
	/* per query */
	int64_t *mult;
	int64_t *tot_b;
};

/* ---- groups and their heaps ---- */

static int heap_less(const kp_bstate *bs, int32_t a, int32_t b)
{
	return bs->g[a].L < bs->g[b].L;
}

static int heap_push(kp_bstate *bs, bbucket *bk, int32_t gi)
{
	if (KP_GROW(bk->heap, bk->nheap, bk->cap_heap, 8))
		return KP_NOMEM;
	int i = bk->nheap++;
	bk->heap[i] = gi;
	while (i > 0 && heap_less(bs, bk->heap[(i - 1) / 2], bk->heap[i])) {
		int32_t t = bk->heap[i];
		bk->heap[i] = bk->heap[(i - 1) / 2];
		bk->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
	bs->g[gi].in_heap = 1;
	return KP_OK;
}

static void heap_pop(kp_bstate *bs, bbucket *bk)
{
	bs->g[bk->heap[0]].in_heap = 0;
	bk->heap[0] = bk->heap[--bk->nheap];
	for (int i = 0;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < bk->nheap && heap_less(bs, bk->heap[m], bk->heap[l]))
			m = l;
		if (r < bk->nheap && heap_less(bs, bk->heap[m], bk->heap[r]))
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
static int32_t top_group(kp_bstate *bs, bbucket *bk)
{
	while (bk->nheap && bs->g[bk->heap[0]].count == 0)
		heap_pop(bs, bk);
	return bk->nheap ? bk->heap[0] : -1;
}

static int32_t find_bucket(kp_bstate *bs, const int64_t *key)
{
	uint64_t h = 0x6275636b;
	for (int i = 0; i < bs->nkey; i++) {
		h = (h ^ (uint64_t)key[i]) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	for (uint64_t probe = 0;; probe++) {
		int64_t hk = (int64_t)(h + probe * 0x9e3779b97f4a7c15ULL);
		int64_t *v = kp_dmap_get(&bs->bmap, hk);
		if (v && !memcmp(&bs->bkey[*v * bs->nkey], key, (size_t)bs->nkey * sizeof *key))
			return (int32_t)*v;
		if (v)
			continue;   /* another key with this hash: the next probe */
		if (KP_GROW(bs->b, bs->nbk, bs->cap_b, 16))
			return -1;
		int64_t *nk = kp_realloc(bs->bkey, (size_t)bs->cap_b * (size_t)(bs->nkey ? bs->nkey : 1) * sizeof *nk);
		if (!nk)
			return -1;
		bs->bkey = nk;
		if (!(v = kp_dmap_put(&bs->bmap, hk)))
			return -1;
		int32_t bi = bs->nbk++;
		memset(&bs->b[bi], 0, sizeof bs->b[bi]);
		memcpy(&bs->bkey[bi * bs->nkey], key, (size_t)bs->nkey * sizeof *key);
		*v = bi;
		return bi;
	}
}

static int32_t find_group(kp_bstate *bs, int32_t bi, int64_t L)
{
	int64_t gk = ((int64_t)bi << 40) ^ L;
	int64_t *v = kp_dmap_get(&bs->gmap, gk);
	if (v)
		return (int32_t)*v;
	if (KP_GROW(bs->g, bs->ngr, bs->cap_g, 64) || !(v = kp_dmap_put(&bs->gmap, gk)))
		return -1;
	int32_t gi = bs->ngr++;
	bs->g[gi] = (bgroup){ L, bi, -1, 0, 0 };
	*v = gi;
	return gi;
}

static void unlink_node(kp_bstate *bs, int n)
{
	int32_t gi = bs->ng[n];
	if (gi < 0)
		return;
	bgroup *g = &bs->g[gi];
	if (bs->prev[n] >= 0)
		bs->next[bs->prev[n]] = bs->next[n];
	else
		g->head = bs->next[n];
	if (bs->next[n] >= 0)
		bs->prev[bs->next[n]] = bs->prev[n];
	g->count--;
	bs->b[g->bucket].nfeas--;
	bs->total--;
	bs->ng[n] = -1;
	bs->nb[n] = -1;
}

static int link_node(kp_bstate *bs, int n, int32_t bi, int64_t L)
{
	int32_t gi = find_group(bs, bi, L);
	if (gi < 0)
		return KP_NOMEM;
	bgroup *g = &bs->g[gi];
	bs->prev[n] = -1;
	bs->next[n] = g->head;
	if (g->head >= 0)
		bs->prev[g->head] = n;
	g->head = n;
	g->count++;
	bs->b[bi].nfeas++;
	bs->total++;
	bs->ng[n] = gi;
	bs->nb[n] = bi;
	bs->L[n] = L;
	if (!g->in_heap && heap_push(bs, &bs->b[bi], gi))
		return KP_NOMEM;
	return KP_OK;
}

/* ---- one node ---- */

/* node n into the structure as it is now: its share of the spread counts,
 * its node-local verdict, L and bucket */
static int place_node(planner *pl, int n)
{
	kp_bstate *bs = pl->bs;
	kp_cycle *cy = &pl->cy;
	unlink_node(bs, n);
	for (int k = 0; k < bs->ncs; k++) {
		if (!bs->zsum[k])
			continue;
		int32_t d;
		int64_t c = kp_spread_contrib(cy, k, n, &d);
		bs->zsum[k][d] += c - bs->contrib[k][n];
		bs->contrib[k][n] = c;
	}
	int ok = 1;
	for (int j = 0; j < bs->nloc && ok; j++)
		ok = !kp_plugins[bs->loc[j]]->filter(cy, n);
	cy->fail[n] = -1;
	if (!ok)
		return KP_OK;
	int64_t L = 0, key[MAX_KEY];
	for (int j = 0; j < bs->nlsum; j++)
		L += cy->pf->weight[bs->lsum_k[j]] * kp_plugins[bs->lsum_k[j]]->score(cy, n);
	int nk = 0;
	for (int j = 0; j < bs->nkey_k; j++)
		key[nk++] = kp_plugins[bs->key_k[j]]->score(cy, n);
	for (int k = 0; k < bs->ncs; k++) {
		const kp_cstate *c = &cy->cs[k];
		if (c->tv[n] < 0)
			key[nk++] = INT64_MIN;
		else if (c->is_host && !c->hard)
			key[nk++] = kp_spread_count(cy, c, n);
		else
			key[nk++] = c->dom[n];
	}
	if (L < 0 || L >= ((int64_t)1 << 40))
		return KP_SKIP;   /* outside the group key's range: the node-by-node path */
	int32_t bi = find_bucket(bs, key);
	if (bi < 0)
		return KP_NOMEM;
	return link_node(bs, n, bi, L);
}

/* ---- building ---- */

static void reset(kp_bstate *bs)
{
	for (int i = 0; i < bs->nbk; i++)
		kp_free(bs->b[i].heap);
	bs->nbk = 0;
	bs->ngr = 0;
	bs->total = 0;
	kp_dmap_clear(&bs->bmap);
	kp_dmap_clear(&bs->gmap);
	for (int k = 0; k < MAX_KEY; k++) {
		kp_free(bs->contrib[k]);
		bs->contrib[k] = NULL;
		kp_free(bs->zsum[k]);
		bs->zsum[k] = NULL;
	}
	bs->valid = 0;
}

/* the spread constraints of this cycle equal those the structure holds */
static int same_spread(const kp_bstate *bs, const kp_cycle *cy, int keyed)
{
	if (keyed != bs->keyed)
		return 0;
	if (!keyed)
		return 1;
	if (cy->ncs != bs->ncs)
		return 0;
	for (int k = 0; k < cy->ncs; k++)
		if (cy->cs[k].counter != bs->cs_counter[k] || cy->cs[k].topo != bs->cs_topo[k] ||
		    cy->cs[k].hard != bs->cs_hard[k])
			return 0;
	return 1;
}

static int build(planner *pl, int profile_idx, int keyed, const uint8_t *skipped)
{
	kp_bstate *bs = pl->bs;
	kp_cycle *cy = &pl->cy;
	const kp_snap *s = &pl->s;
	reset(bs);
	bs->cls = cy->p->cls;
	bs->profile = profile_idx;
	bs->epoch = pl->epoch;
	memcpy(bs->skipped, skipped, sizeof bs->skipped);
	bs->keyed = keyed;
	bs->ncs = keyed ? cy->ncs : 0;
	bs->nkey = bs->nkey_k;
	for (int k = 0; k < bs->ncs; k++) {
		const kp_cstate *c = &cy->cs[k];
		bs->cs_counter[k] = c->counter;
		bs->cs_topo[k] = c->topo;
		bs->cs_host[k] = c->is_host;
		bs->cs_hard[k] = c->hard;
		bs->nkey++;
		if (c->is_host || c->hard)
			continue;
		bs->zsum[k] = kp_calloc((size_t)c->ndom + 1, sizeof *bs->zsum[k]);
		bs->contrib[k] = kp_calloc((size_t)s->nnodes, sizeof *bs->contrib[k]);
		if (!bs->zsum[k] || !bs->contrib[k])
			return KP_NOMEM;
	}
	if (bs->nkey > MAX_KEY)
		return KP_SKIP;
	for (int n = 0; n < s->nnodes; n++) {
		bs->nb[n] = bs->ng[n] = -1;
		int rc = place_node(pl, n);
		if (rc)
			return rc;
	}
	pl->s.nchg = 0;
	pl->s.chg_lost = 0;
	bs->valid = 1;
	return KP_OK;
}

/* the nodes the snapshot changed since the last cycle, again */
static int sync(planner *pl)
{
	kp_snap *s = &pl->s;
	for (int i = 0; i < s->nchg; i++) {
		int rc = place_node(pl, s->chg[i]);
		if (rc)
			return rc;
	}
	s->nchg = 0;
	return KP_OK;
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
	bs->nloc = bs->nlsum = bs->nkey_k = 0;
	*hard_on = 0;
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
	*spread_on = 0;
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
			if (pg->normalize)
				bs->key_k[bs->nkey_k++] = k;
			else
				bs->lsum_k[bs->nlsum++] = k;
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
		} else {
			return 0;
		}
	}
	return 1;
}

/* ---- the choice ---- */

/* kp_plan_bucket_choose (plan_int.h) */
int kp_plan_bucket_choose(planner *pl, int profile_idx, int *best, int *nfeas, int64_t *score)
{
	kp_cycle *cy = &pl->cy;
	const kp_pod *p = cy->p;
	if (!pl->bs)
		return 0;
	kp_bstate *bs = pl->bs;
	uint8_t skipped[KP_P_COUNT];
	int spread_on = 0, hard_on = 0;
	int rc = classify(pl, skipped, &spread_on, &hard_on);
	if (rc <= 0) {
		bs->valid = rc < 0 ? 0 : bs->valid;
		return rc < 0 ? (rc == KP_NOMEM ? kp_plan_nomem(pl) : kp_err_set(pl->err, rc, "pre-score failed")) : 0;
	}
	if (!bs->valid || bs->cls != p->cls || bs->profile != profile_idx || bs->epoch != pl->epoch ||
	    pl->s.chg_lost || memcmp(skipped, bs->skipped, sizeof skipped) || !same_spread(bs, cy, spread_on || hard_on)) {
		rc = build(pl, profile_idx, spread_on || hard_on, skipped);
	} else {
		rc = sync(pl);
	}
	if (rc) {
		bs->valid = 0;
		return rc == KP_SKIP ? 0 : kp_plan_nomem(pl);
	}
	if (bs->total == 0)
		return 0;   /* FitError: the reasons come from the node-by-node path */
	/* one node per bucket with feasible nodes, at the top of its L; the
	 * hard spread constraints pass or fail a whole bucket (its domains) */
	int nr = 0;
	int64_t total = 0;
	const kp_plugin *sp = kp_plugins[KP_P_POD_TOPOLOGY_SPREAD];
	for (int32_t bi = 0; bi < bs->nbk; bi++) {
		if (!bs->b[bi].nfeas)
			continue;
		int32_t rep = bs->g[top_group(bs, &bs->b[bi])].head;
		if (hard_on && sp->filter(cy, rep)) {
			cy->fail[rep] = -1;
			cy->unres[rep] = 0;
			continue;
		}
		cy->feas[nr] = rep;
		bs->mult[nr] = bs->b[bi].nfeas;
		total += bs->b[bi].nfeas;
		nr++;
	}
	if (total == 0)
		return 0;   /* FitError: the reasons come from the node-by-node path */
	*nfeas = (int)total;
	if (total == 1) {
		*best = cy->feas[0];
		cy->nfeas = 0;
		return 1;
	}
	cy->nfeas = nr;
	/* the normalised part of each bucket, computed on its node */
	for (int i = 0; i < nr; i++)
		bs->tot_b[i] = bs->L[cy->feas[i]];
	const kp_profile *pf = cy->pf;
	for (int j = 0; j < bs->nkey_k; j++) {
		int k = bs->key_k[j];
		int64_t *sc = pl->scores[k];
		for (int i = 0; i < nr; i++)
			sc[cy->feas[i]] = bs->bkey[bs->nb[cy->feas[i]] * bs->nkey + j];
		kp_plugins[k]->normalize(cy, sc);
		for (int i = 0; i < nr; i++)
			bs->tot_b[i] += pf->weight[k] * sc[cy->feas[i]];
	}
	if (spread_on) {
		const kp_plugin *pg = kp_plugins[KP_P_POD_TOPOLOGY_SPREAD];
		rc = kp_spread_pre_score_summary(cy, cy->feas, bs->mult, nr, total, bs->zsum);
		if (rc < 0)
			return kp_plan_nomem(pl);
		if (rc == KP_OK) {
			int64_t *sc = pl->scores[KP_P_POD_TOPOLOGY_SPREAD];
			for (int i = 0; i < nr; i++)
				sc[cy->feas[i]] = pg->score(cy, cy->feas[i]);
			pg->normalize(cy, sc);
			for (int i = 0; i < nr; i++)
				bs->tot_b[i] += pf->weight[KP_P_POD_TOPOLOGY_SPREAD] * sc[cy->feas[i]];
		}
	}
	int64_t top = INT64_MIN;
	for (int i = 0; i < nr; i++)
		if (bs->tot_b[i] > top)
			top = bs->tot_b[i];
	/* the ties: best_node's rule, the highest seeded hash, then the lowest index */
	int b = -1;
	uint32_t btb = 0;
	const kp_snap *s = &pl->s;
	uint64_t ph = kp_tiebreak_pod(cy->seed, p->db_id);
	for (int i = 0; i < nr; i++) {
		if (bs->tot_b[i] != top)
			continue;
		for (int32_t n = bs->g[bs->ng[cy->feas[i]]].head; n >= 0; n = bs->next[n]) {
			uint32_t tb = kp_tiebreak_node(ph, s->node_db_id[n]);
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
	bs->nnodes = s->nnodes;
	bs->nb = kp_malloc((size_t)n * sizeof *bs->nb);
	bs->ng = kp_malloc((size_t)n * sizeof *bs->ng);
	bs->next = kp_malloc((size_t)n * sizeof *bs->next);
	bs->prev = kp_malloc((size_t)n * sizeof *bs->prev);
	bs->L = kp_malloc((size_t)n * sizeof *bs->L);
	bs->mult = kp_malloc((size_t)n * sizeof *bs->mult);
	bs->tot_b = kp_malloc((size_t)n * sizeof *bs->tot_b);
	kp_free(s->chg);
	s->nchg = 0;
	s->chg_lost = 0;
	s->cap_chg = n / 8 + 64;
	s->chg = kp_malloc((size_t)s->cap_chg * sizeof *s->chg);
	if (!bs->nb || !bs->ng || !bs->next || !bs->prev || !bs->L || !bs->mult || !bs->tot_b || !s->chg ||
	    kp_dmap_init(&bs->bmap, 64) || kp_dmap_init(&bs->gmap, 256))
		return kp_plan_nomem(pl);
	for (int i = 0; i < n; i++)
		bs->nb[i] = bs->ng[i] = -1;
	return KP_OK;
}

void kp_plan_bucket_release(planner *pl)
{
	kp_bstate *bs = pl->bs;
	kp_free(pl->s.chg);
	pl->s.chg = NULL;
	pl->s.nchg = pl->s.cap_chg = 0;
	if (!bs)
		return;
	reset(bs);
	kp_free(bs->b);
	kp_free(bs->bkey);
	kp_free(bs->g);
	kp_dmap_release(&bs->bmap);
	kp_dmap_release(&bs->gmap);
	kp_free(bs->nb);
	kp_free(bs->ng);
	kp_free(bs->next);
	kp_free(bs->prev);
	kp_free(bs->L);
	kp_free(bs->mult);
	kp_free(bs->tot_b);
	kp_free(bs);
	pl->bs = NULL;
}
