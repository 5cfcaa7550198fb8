/*
 * explain.c — what explain sees at the explained pod's scheduling attempt
 * (explain.h): the planner calls kp_explain_capture at the end of every
 * attempt, and the last one is kept.
 *
 * Per node: kube's verdict (the first failing filter plugin and its
 * reasons, as schedule_one.go findNodesThatPassFilters reports it), then
 * every other enabled filter run on the node too (its verdict saved and
 * restored: the plan goes on exactly as without explain), and the numbers
 * behind the verdicts:
 *  - NodeResourcesFit (noderesources/fit.go fitsRequest): per resource the
 *    filter checks, the pod's request, the node's allocatable and what its
 *    pods request; free = allocatable - requested;
 *  - PodTopologySpread (podtopologyspread/filtering.go): per DoNotSchedule
 *    constraint, the matching pods per domain, the global minimum, and the
 *    node's skew = its domain's pods + selfMatch - minimum;
 *  - InterPodAffinity (interpodaffinity/filtering.go): per required term,
 *    the pods that match it in the node's domain, and the placed pods whose
 *    required anti-affinity selects the pod there.
 */
#include "explain.h"
#include "cycle.h"
#include "preemption.h"
#include "storage.h"
#include "dra.h"
#include "../common/quantity.h"
#include "decisive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(KP_P_COUNT <= KP_EXPLAIN_PLUGINS, "explain_result.h: KP_EXPLAIN_PLUGINS too small");

#define LISTED_PODS 5   /* pods named per (anti-)affinity term and node */

/* the numbers (resources, spread, matches), not the nodes' verdicts */
static void clear_details(kp_explain *ex)
{
	for (int i = 0; i < ex->nfit; i++)
		kp_free(ex->fit_res[i]);
	kp_free(ex->fit_res);
	kp_free(ex->fit);
	ex->fit_res = NULL;
	ex->fit = NULL;
	ex->nfit = 0;
	for (int k = 0; k < ex->nspread; k++) {
		kp_explain_spread *sp = &ex->spread[k];
		kp_free(sp->key);
		for (int d = 0; d < sp->ndomains; d++)
			kp_free(sp->domains[d].value);
		kp_free(sp->domains);
	}
	kp_free(ex->spread);
	kp_free(ex->spread_dom);
	ex->spread = NULL;
	ex->spread_dom = NULL;
	ex->nspread = 0;
	for (int i = 0; i < ex->nmatch; i++) {
		kp_free(ex->match[i].key);
		kp_free(ex->match[i].value);
		kp_free(ex->match[i].pods);
	}
	kp_free(ex->match);
	ex->match = NULL;
	ex->nmatch = ex->cap_match = 0;
}

static void clear_numbers(kp_explain *ex)
{
	kp_free(ex->nodes);
	ex->nodes = NULL;
	clear_details(ex);
}

void kp_explain_release(kp_explain *e)
{
	if (e)
		clear_numbers(e);
}

/* ---- every filter on one node ---- */

/* "r1, r2" of the reasons cy holds for node n, appended to buf */
static void add_reasons(const kp_cycle *cy, int n, char *buf, size_t size)
{
	size_t off = strlen(buf);
	for (int k = 0; k < cy->rcount[n] && off < size - 1; k++) {
		int w = snprintf(buf + off, size - off, "%s%s", k ? ", " : "", cy->s->reasons[cy->rbuf[cy->rstart[n] + k]].msg);
		if (w > 0)
			off += (size_t)w;
	}
}

static void add_fail(kp_explain_node *en, const kp_cycle *cy, int n, int plugin)
{
	en->failed |= 1u << plugin;
	if (en->nfails == KP_EXPLAIN_FAILS)
		return;
	kp_explain_fail *f = &en->fails[en->nfails++];
	f->plugin = kp_plugin_names[plugin];
	f->reasons[0] = 0;
	add_reasons(cy, n, f->reasons, sizeof f->reasons);
}

/* Run every enabled filter on node n (not only up to the first failure):
 * en->failed and en->fails.  The node's verdict and reasons in cy are put
 * back as they were. */
static void every_filter(kp_cycle *cy, const kp_profile *pf, int n, kp_explain_node *en)
{
	int8_t fail0 = cy->fail[n];
	uint8_t unres0 = cy->unres[n];
	int32_t rstart0 = cy->rstart[n];
	uint16_t rcount0 = cy->rcount[n];
	size_t rlen0 = cy->rlen;
	/* filtered out before any plugin runs (schedule_one.go: PreFilterResult),
	 * or after a PreFilter failure, when the other plugins have no state */
	if ((cy->restrict_nodes && !cy->allowed[n]) || cy->prefilter_msg) {
		add_fail(en, cy, n, fail0);
		return;
	}
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (k == fail0) {
			cy->fail[n] = fail0;
			cy->rstart[n] = rstart0;
			cy->rcount[n] = rcount0;
			add_fail(en, cy, n, k);
			continue;
		}
		if (!pf->filter[k] || !pg || !pg->filter || cy->skip[k])
			continue;
		cy->fail[n] = -1;
		if (pg->filter(cy, n))
			add_fail(en, cy, n, k);
	}
	cy->fail[n] = fail0;
	cy->unres[n] = unres0;
	cy->rstart[n] = rstart0;
	cy->rcount[n] = rcount0;
	cy->rlen = rlen0;
}

/* ---- NodeResourcesFit ---- */

static int capture_fit(kp_explain *ex, const kp_cycle *cy, const kp_profile *pf)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	if (!pf->filter[KP_P_NODE_RESOURCES_FIT])
		return KP_OK;
	/* pod slots first, then the requests in the filter's order (fit.go fitsRequest) */
	int *res = kp_malloc((size_t)(c->nreq + 1) * sizeof *res);
	if (!res)
		return KP_NOMEM;
	int nres = 0;
	res[nres++] = 3;
	for (uint32_t k = 0; k < c->nreq; k++) {
		int r = c->req_res[k];
		if (c->req_val[k] <= 0 || r == 3 || (r > 2 && kp_fit_ignored(pf, kp_str(&s->strs, s->res_name[r]))))
			continue;
		res[nres++] = r;
	}
	ex->fit_res = kp_calloc((size_t)nres, sizeof *ex->fit_res);
	ex->fit = kp_calloc((size_t)nres * (size_t)(s->nnodes ? s->nnodes : 1), sizeof *ex->fit);
	if (!ex->fit_res || !ex->fit) {
		kp_free(res);
		return KP_NOMEM;
	}
	ex->nfit = nres;
	int rc = KP_OK;
	for (int j = 0; j < nres; j++)
		if (!(ex->fit_res[j] = kp_strdup(kp_str(&s->strs, s->res_name[res[j]]))))
			rc = KP_NOMEM;
	for (int n = 0; n < s->nnodes; n++) {
		kp_explain_node *en = &ex->nodes[n];
		for (int j = 0; j < nres; j++) {
			int r = res[j];
			kp_explain_fit *f = &ex->fit[(size_t)n * (size_t)nres + (size_t)j];
			f->allocatable = s->alloc[(size_t)n * (size_t)s->nres + (size_t)r];
			f->used = r == 3 ? s->node_npods[n] : s->used[(size_t)n * (size_t)s->nres + (size_t)r];
			f->requested = 1;
			for (uint32_t k = 0; r != 3 && k < c->nreq; k++)
				if (c->req_res[k] == r)
					f->requested = c->req_val[k];
			int64_t free = f->allocatable - f->used;
			if (f->requested > free)
				en->shortfall += (double)(f->requested - free) / (double)f->requested;
			en->too_small |= f->requested > f->allocatable;
		}
	}
	kp_free(res);
	return rc;
}

/* ---- PodTopologySpread ---- */

static int capture_spread(kp_explain *ex, const kp_cycle *cy, const kp_profile *pf)
{
	const kp_snap *s = cy->s;
	if (!pf->filter[KP_P_POD_TOPOLOGY_SPREAD] || cy->skip[KP_P_POD_TOPOLOGY_SPREAD] || !cy->spread_built || !cy->nhard ||
	    cy->prefilter_msg)
		return KP_OK;
	ex->spread = kp_calloc((size_t)cy->nhard, sizeof *ex->spread);
	ex->spread_dom = kp_malloc((size_t)cy->nhard * (size_t)(s->nnodes ? s->nnodes : 1) * sizeof *ex->spread_dom);
	if (!ex->spread || !ex->spread_dom)
		return KP_NOMEM;
	int nh = cy->nhard;
	for (int k = 0, j = 0; k < cy->ncs; k++) {
		const kp_cstate *c = &cy->cs[k];
		if (!c->hard)
			continue;
		kp_explain_spread *sp = &ex->spread[j];
		ex->nspread = j + 1;
		sp->key = kp_strdup(kp_str(&s->strs, c->topo));
		sp->max_skew = c->max_skew;
		sp->min_domains = c->min_domains;
		sp->min = c->min_match;
		sp->self_match = c->self_match;
		sp->domains = kp_calloc((size_t)(c->ndom ? c->ndom : 1), sizeof *sp->domains);
		if (!sp->key || !sp->domains)
			return KP_NOMEM;
		sp->ndomains = c->ndom;
		for (int n = 0; n < s->nnodes; n++) {
			int32_t d = c->tv[n] < 0 ? -1 : c->dom[n];
			ex->spread_dom[(size_t)n * (size_t)nh + (size_t)j] = d;
			if (d < 0 || sp->domains[d].value)
				continue;
			if (!(sp->domains[d].value = kp_strdup(kp_str(&s->strs, c->tv[n]))))
				return KP_NOMEM;
			sp->domains[d].eligible = c->dpres[d];
			sp->domains[d].pods = c->dpres[d] ? c->dcnt[d] : 0;
		}
		j++;
	}
	return KP_OK;
}

/* ---- InterPodAffinity ---- */

/* one term's matching placed pods, found once per capture */
typedef struct term_pods {
	int kind;
	const kp_pterm *t;
	int32_t *pods;               /* pod indexes */
	int n;
} term_pods;

static int node_value(const kp_snap *s, int node, kp_sid key) { return kp_labels_get(&s->node_labels[node], key); }

/* a placed pod other than the one scheduled */
static int placed(const kp_cycle *cy, int32_t i) { return i != cy->pi && cy->s->pods[i].node >= 0; }

static int aff_matches_all(const kp_cycle *cy, const kp_pod *e)
{
	const kp_class *c = cy->c;
	for (uint32_t k = 0; k < c->npterms; k++)
		if (c->pterms[k].required && !c->pterms[k].anti && !kp_term_matches(cy->s, &c->pterms[k], cy->p, e))
			return 0;
	return 1;
}

/* the pod's required terms (affinity: pods matching every required affinity
 * term, as filtering.go counts them; anti: pods matching the term), then the
 * placed pods' required anti-affinity terms that select the pod */
static int find_term_pods(const kp_cycle *cy, term_pods **out, int *nout)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	int cap = (int)c->npterms + 8, n = 0;
	term_pods *v = kp_calloc((size_t)cap, sizeof *v);
	if (!v)
		return KP_NOMEM;
	*out = v;
	for (uint32_t k = 0; k < c->npterms; k++) {
		const kp_pterm *t = &c->pterms[k];
		if (!t->required)
			continue;
		term_pods *tp = &v[n++];
		*nout = n;
		tp->kind = t->anti ? KP_EXPLAIN_ANTI : KP_EXPLAIN_AFFINITY;
		tp->t = t;
		tp->pods = kp_malloc((size_t)(s->npods ? s->npods : 1) * sizeof *tp->pods);
		if (!tp->pods)
			return KP_NOMEM;
		for (int32_t i = 0; i < s->npods; i++)
			if (placed(cy, i) && (t->anti ? kp_term_matches(s, t, cy->p, &s->pods[i]) : aff_matches_all(cy, &s->pods[i])))
				tp->pods[tp->n++] = i;
	}
	for (int i = 0; i < cy->nanti_pods; i++) {
		int32_t e = cy->anti_pods[i];
		if (!placed(cy, e))
			continue;
		const kp_class *ec = &s->classes[s->pods[e].cls];
		for (uint32_t k = 0; k < ec->npterms; k++) {
			const kp_pterm *t = &ec->pterms[k];
			if (!t->required || !t->anti || !kp_term_matches(s, t, &s->pods[e], cy->p))
				continue;
			term_pods *tp = NULL;
			for (int j = 0; j < n && !tp; j++)
				if (v[j].kind == KP_EXPLAIN_EXISTING_ANTI && v[j].t->topo == t->topo)
					tp = &v[j];
			if (!tp) {
				if (n == cap) {
					term_pods *nv = kp_realloc(v, (size_t)(cap * 2) * sizeof *nv);
					if (!nv)
						return KP_NOMEM;
					memset(nv + cap, 0, (size_t)cap * sizeof *nv);
					*out = v = nv;
					cap *= 2;
				}
				tp = &v[n++];
				*nout = n;
				tp->kind = KP_EXPLAIN_EXISTING_ANTI;
				tp->t = t;
				if (!(tp->pods = kp_malloc((size_t)(cy->nanti_pods ? cy->nanti_pods : 1) * sizeof *tp->pods)))
					return KP_NOMEM;
			}
			if (!tp->n || tp->pods[tp->n - 1] != e)
				tp->pods[tp->n++] = e;
		}
	}
	return KP_OK;
}

/* the term's pods in node n's domain: one kp_explain_match */
static int add_match(kp_explain *ex, const kp_cycle *cy, int n, const term_pods *tp)
{
	const kp_snap *s = cy->s;
	kp_sid v = node_value(s, n, tp->t->topo);
	if (v < 0 && tp->kind == KP_EXPLAIN_EXISTING_ANTI)
		return KP_OK;
	int64_t count = 0;
	kp_sb sb;
	kp_sb_init(&sb);
	for (int i = 0; i < tp->n && v >= 0; i++) {
		const kp_pod *e = &s->pods[tp->pods[i]];
		if (node_value(s, e->node, tp->t->topo) != v)
			continue;
		if (count++ < LISTED_PODS)
			kp_sb_printf(&sb, "%s%s/%s (%s)", count > 1 ? ", " : "", kp_str(&s->strs, e->ns), kp_str(&s->strs, e->name),
				     kp_str(&s->strs, s->node_name[e->node]));
	}
	if (count > LISTED_PODS)
		kp_sb_printf(&sb, ", and %lld more", (long long)(count - LISTED_PODS));
	if (tp->kind == KP_EXPLAIN_EXISTING_ANTI && !count) {
		kp_sb_release(&sb);
		return KP_OK;
	}
	if (KP_GROW(ex->match, ex->nmatch, ex->cap_match, 16) || !kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return KP_NOMEM;
	}
	kp_explain_match *m = &ex->match[ex->nmatch++];
	memset(m, 0, sizeof *m);
	m->node = n;
	m->kind = tp->kind;
	m->count = count;
	/* filtering.go: affinity fails without a matching pod in the domain (unless
	 * no pod matches anywhere and the pod matches its own terms); anti and
	 * existing anti fail with one */
	m->fails = tp->kind == KP_EXPLAIN_AFFINITY ? v < 0 || (!count && !(cy->aff_empty && cy->self_matches_all)) : count > 0;
	m->key = kp_strdup(kp_str(&s->strs, tp->t->topo));
	m->value = v >= 0 ? kp_strdup(kp_str(&s->strs, v)) : NULL;
	m->pods = count ? sb.buf : NULL;
	if (!count)
		kp_sb_release(&sb);
	return m->key && (v < 0 || m->value) ? KP_OK : KP_NOMEM;
}

static int capture_matches(kp_explain *ex, const kp_cycle *cy, const kp_profile *pf)
{
	const kp_snap *s = cy->s;
	if (!pf->filter[KP_P_INTER_POD_AFFINITY] || cy->skip[KP_P_INTER_POD_AFFINITY] || cy->prefilter_msg)
		return KP_OK;
	int any = 0;
	for (int n = 0; n < s->nnodes && !any; n++)
		any = ex->nodes[n].failed >> KP_P_INTER_POD_AFFINITY & 1;
	if (!any)
		return KP_OK;
	term_pods *tp = NULL;
	int ntp = 0;
	int rc = find_term_pods(cy, &tp, &ntp);
	for (int n = 0; n < s->nnodes && !rc; n++)
		for (int i = 0; i < ntp && !rc && (ex->nodes[n].failed >> KP_P_INTER_POD_AFFINITY & 1); i++)
			rc = add_match(ex, cy, n, &tp[i]);
	for (int i = 0; i < ntp; i++)
		kp_free(tp[i].pods);
	kp_free(tp);
	return rc;
}

/* ---- the decisive reasons ---- */


/* "N reason, ..." over the evaluated nodes (decisive.h), the "N reason"
 * strings sorted as FitError.Error sorts them (schedule_one.go) */
static int capture_decisive(kp_explain *ex, const kp_cycle *cy, const uint8_t *avoid)
{
	const kp_snap *s = cy->s;
	int nr = s->nreasons ? s->nreasons : 1;
	int *dyn = kp_calloc((size_t)nr, sizeof *dyn), *stat = kp_calloc((size_t)nr, sizeof *stat);
	char **str = kp_calloc((size_t)nr, sizeof *str);
	int rc = dyn && stat && str ? KP_OK : KP_NOMEM, any_dyn = 0, m = 0;
	for (int n = 0; !rc && n < s->nnodes; n++) {
		if (cy->fail[n] < 0 || (avoid && avoid[n]))
			continue;
		for (int k = 0; k < cy->rcount[n]; k++) {
			int r = cy->rbuf[cy->rstart[n] + k];
			int st = kp_decisive_static_plugin(s->reasons[r].plugin);
			(st ? stat : dyn)[r]++;
			any_dyn |= !st;
		}
	}
	const int *cnt = any_dyn ? dyn : stat;
	ex->decisive_static = !any_dyn;
	for (int r = 0; !rc && r < s->nreasons; r++) {
		if (!cnt[r])
			continue;
		char buf[600];
		snprintf(buf, sizeof buf, "%d %s", cnt[r], s->reasons[r].msg);
		if (!(str[m++] = kp_strdup(buf)))
			rc = KP_NOMEM;
	}
	if (!rc)
		kp_sort(str, (size_t)m, sizeof *str, kp_cmp_str, NULL);
	size_t off = 0;
	ex->decisive[0] = 0;
	for (int i = 0; !rc && i < m && off < sizeof ex->decisive - 1; i++) {
		int w = snprintf(ex->decisive + off, sizeof ex->decisive - off, "%s%s", i ? ", " : "", str[i]);
		if (w > 0)
			off += (size_t)w;
	}
	for (int i = 0; i < m; i++)
		kp_free(str[i]);
	kp_free(str);
	kp_free(dyn);
	kp_free(stat);
	return rc;
}

/* ---- the attempt ---- */

/* ph: the pod's half of the tie-break (kp_tiebreak_pod_of) */
static void node_verdict(kp_explain *ex, kp_cycle *cy, const kp_profile *pf, int n, uint64_t ph, const uint8_t *in_feas,
			 const uint8_t *avoid)
{
	const kp_snap *s = cy->s;
	kp_explain_node *en = &ex->nodes[n];
	en->node_db_id = s->node_db_id[n];
	snprintf(en->node, sizeof en->node, "%s", kp_str(&s->strs, s->node_name[n]));
	en->feasible = in_feas[n];
	en->evaluated = in_feas[n] || cy->fail[n] >= 0;
	en->tiebreak = kp_tiebreak_node(ph, s->node_db_id[n]);
	if (en->feasible)
		return;
	if (!en->evaluated) {
		en->plugin = "-";
		snprintf(en->reason, sizeof en->reason, "%s", ex->chosen >= 0 && !cy->nfeas
			 ? "not evaluated: the node preemption freed is tried first, alone"
			 : "not evaluated: percentageOfNodesToScore stopped the search first");
		return;
	}
	if (avoid && avoid[n]) {   /* rebalance.h: not a target of this move */
		en->plugin = "-";
		snprintf(en->reason, sizeof en->reason, "not a target of the move: the node the pod leaves, or one the "
			 "rebalance strategy keeps it off");
		return;
	}
	en->plugin = kp_plugin_names[cy->fail[n]];
	add_reasons(cy, n, en->reason, sizeof en->reason);
	every_filter(cy, pf, n, en);
}

static int capture_volumes(kp_explain *ex, kp_cycle *cy, int chosen);

/* the pod's ResourceClaims (ex->devices, dra.c kp_dra_explain) */
static int capture_devices(kp_explain *ex, kp_cycle *cy, int chosen)
{
	kp_sb sb;
	kp_sb_init(&sb);
	ex->devices[0] = 0;
	if (kp_dra_explain(cy, chosen, &sb) || !kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return KP_NOMEM;
	}
	snprintf(ex->devices, sizeof ex->devices, "%s", kp_sb_str(&sb) ? kp_sb_str(&sb) : "");
	kp_sb_release(&sb);
	return KP_OK;
}

void kp_explain_capture(kp_explain *ex, kp_cycle *cy, const kp_profile *pf, int chosen, int scoring,
			int64_t *const *raw, int64_t *const *norm, const int64_t *total, const uint8_t *avoid)
{
	const kp_snap *s = cy->s;
	const kp_pod *p = cy->p;
	ex->found = 1;
	ex->attempts++;
	clear_numbers(ex);
	ex->nomem = 0;
	ex->nnodes = s->nnodes;
	ex->scoring = scoring;
	ex->chosen = chosen;
	ex->from_node[0] = 0;
	int from = p->orig_node >= 0 ? p->orig_node : p->moved_from ? kp_snap_node_index(s, p->moved_from) : -1;
	if (from >= 0)
		snprintf(ex->from_node, sizeof ex->from_node, "%s", kp_str(&s->strs, s->node_name[from]));
	ex->nodes = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), sizeof *ex->nodes);
	uint8_t *in_feas = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), 1);
	if (!ex->nodes || !in_feas) {
		kp_free(in_feas);
		ex->nnodes = 0;
		ex->chosen = -1;
		ex->nomem = 1;
		return;
	}
	for (int i = 0; i < cy->nfeas; i++)
		in_feas[cy->feas[i]] = 1;
	if (chosen >= 0)
		in_feas[chosen] = 1;
	for (int k = 0; k < KP_P_COUNT && k < KP_EXPLAIN_PLUGINS; k++) {
		ex->weight[k] = pf->weight[k];
		ex->scored[k] = pf->score[k] && scoring && raw && raw[k];
	}
	uint64_t ph = kp_tiebreak_pod_of(cy, cy->p->db_id);
	ex->tie_rank = pf->tie_rank;
	for (int n = 0; n < s->nnodes; n++) {
		node_verdict(ex, cy, pf, n, ph, in_feas, avoid);
		kp_explain_node *en = &ex->nodes[n];
		for (int k = 0; en->feasible && scoring && raw && k < KP_P_COUNT && k < KP_EXPLAIN_PLUGINS; k++)
			if (raw[k]) {
				en->raw[k] = raw[k][n];
				en->norm[k] = norm[k][n];
			}
		en->total = en->feasible && scoring ? total[n] : 0;
	}
	kp_free(in_feas);
	if (capture_fit(ex, cy, pf) || capture_spread(ex, cy, pf) || capture_matches(ex, cy, pf) ||
	    capture_decisive(ex, cy, avoid) || capture_volumes(ex, cy, chosen) || capture_devices(ex, cy, chosen)) {
		clear_details(ex);   /* none rather than some: the verdicts stay */
		ex->nomem = 1;
	}
}

/* ---- volumes ---- */

/* one claim: the PV behind it, or what VolumeBinding does on node n */
static void claim_line(kp_sb *sb, kp_snap *s, const kp_podvol *v, int32_t pv_on_node, int n)
{
	const kp_storage *st = s->st;
	const kp_claim *c = &st->claims[v->claim];
	int32_t pv = kp_storage_claim_pv(st, c);
	if (pv >= 0) {
		const kp_pv *x = &st->pvs[pv];
		char size[64];
		kp_capacity_fmt_amount("memory", x->capacity, size, sizeof size);
		kp_sb_printf(sb, "%s PV %s (%s%s%s)", c->run_pv >= 0 ? "bound by this run to" : "bound to",
			     kp_str(&s->strs, x->name), size, x->driver >= 0 ? ", " : "",
			     kp_str(&s->strs, x->driver));
		if (x->has_affinity) {
			kp_sb_adds(sb, "; node affinity: ");
			kp_storage_terms_text(sb, s, x->terms, x->nterms);
		}
		for (int k = 0; k < 4; k++) {
			kp_sid z = kp_labels_get(&x->labels, st->s_zone_keys[k]);
			if (z >= 0)
				kp_sb_printf(sb, "; label %s=%s", kp_str(&s->strs, st->s_zone_keys[k]), kp_str(&s->strs, z));
		}
	} else if (c->volume_name >= 0) {
		kp_sb_printf(sb, "names PV %s, %s", kp_str(&s->strs, c->volume_name),
			     c->pv < 0 ? "which does not exist" : "not bound yet (no bind-completed annotation)");
	} else if (c->run_node >= 0 || c->selected_node_name >= 0) {
		kp_sb_printf(sb, "to be provisioned for node %s (%s)",
			     kp_str(&s->strs, c->run_node >= 0 ? s->node_name[c->run_node] : c->selected_node_name),
			     c->run_node >= 0 ? "decided by this run" : "its selected-node annotation");
	} else if (c->sc < 0 || !st->classes[c->sc].wffc) {
		kp_sb_printf(sb, "unbound, storage class '%s' %s", kp_str(&s->strs, c->cls_name),
			     c->sc < 0 ? "not found (immediate binding)" : "binds immediately");
	} else {
		const kp_sclass *sc = &st->classes[c->sc];
		kp_sb_printf(sb, "unbound, WaitForFirstConsumer (class %s, provisioner %s)", kp_str(&s->strs, sc->name),
			     kp_str(&s->strs, sc->provisioner));
		if (n >= 0 && pv_on_node >= 0)
			kp_sb_printf(sb, "; on %s: the smallest matching available PV, %s", kp_str(&s->strs, s->node_name[n]),
				     kp_str(&s->strs, st->pvs[pv_on_node].name));
		else if (n >= 0)
			kp_sb_printf(sb, "; on %s: provisioned by %s", kp_str(&s->strs, s->node_name[n]),
				     kp_str(&s->strs, sc->provisioner));
	}
}

/* the pod's volumes (ex->volumes): each claim, in-tree disk and, on the
 * chosen node, the attach counts against CSINode limits */
static int capture_volumes(kp_explain *ex, kp_cycle *cy, int chosen)
{
	kp_snap *s = cy->s;
	const kp_storage *st = s->st;
	ex->volumes[0] = 0;
	if (!st || st->vol_off[cy->pi] == st->vol_off[cy->pi + 1])
		return KP_OK;
	int32_t first = st->vol_off[cy->pi], nv = st->vol_off[cy->pi + 1] - first;
	int32_t *pvs = kp_arena_alloc(&cy->arena, (size_t)nv * sizeof *pvs);
	if (!pvs)
		return KP_NOMEM;
	for (int32_t i = 0; i < nv; i++)
		pvs[i] = -1;
	if (chosen >= 0)
		kp_storage_find_volumes(s, cy->pi, chosen, pvs);
	kp_sb sb;
	kp_sb_init(&sb);
	kp_sb_adds(&sb, "volumes:\n");
	for (int32_t i = 0; i < nv; i++) {
		const kp_podvol *v = &st->vols[first + i];
		kp_sb_printf(&sb, "  %s: ", kp_str(&s->strs, v->name));
		if ((v->kind == KP_VOL_PVC || v->kind == KP_VOL_EPHEMERAL) && v->claim < 0)
			kp_sb_printf(&sb, "claim %s not found", kp_str(&s->strs, v->claim_name));
		else if (v->kind == KP_VOL_PVC || v->kind == KP_VOL_EPHEMERAL) {
			kp_sb_printf(&sb, "%sclaim %s ", v->kind == KP_VOL_EPHEMERAL ? "ephemeral " : "", kp_str(&s->strs, v->claim_name));
			claim_line(&sb, s, v, pvs[i], chosen);
		} else
			kp_sb_printf(&sb, "%s %s %s", v->kind == KP_VOL_CSI ? "inline CSI" : "in-tree", kp_str(&s->strs, v->source),
				     kp_str(&s->strs, v->handle));
		kp_sb_addc(&sb, '\n');
	}
	for (int32_t i = chosen >= 0 ? st->limit_off[chosen] : 0; chosen >= 0 && i < st->limit_off[chosen + 1]; i++)
		kp_sb_printf(&sb, "  attach limit on %s: %s %lld of %lld volumes in use\n", kp_str(&s->strs, s->node_name[chosen]),
			     kp_str(&s->strs, st->limit_drv[i]), (long long)kp_storage_node_count(s, chosen, st->limit_drv[i]),
			     (long long)st->limit_cnt[i]);
	if (!kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return KP_NOMEM;
	}
	snprintf(ex->volumes, sizeof ex->volumes, "%s", kp_sb_str(&sb));
	kp_sb_release(&sb);
	return KP_OK;
}

/* ---- DefaultPreemption ---- */

void kp_explain_preemption(kp_explain *ex, const kp_cycle *cy, const kp_preempt_result *r)
{
	const kp_snap *s = cy->s;
	kp_sb sb;
	kp_sb_init(&sb);
	if (r->chosen < 0) {
		kp_sb_printf(&sb, "preemption: %s\n", r->message ? r->message : "");
	} else {
		kp_sb_printf(&sb, "preemption: %d candidate node(s); criteria in order: fewest PDB violations, lowest "
				  "highest-victim priority, smallest priority sum, fewest victims, latest start of the "
				  "highest-priority victims\n", r->ncands);
		for (int i = 0; i < r->ncands; i++) {
			const kp_candidate *c = &r->cands[i];
			kp_sb_printf(&sb, "  %s %-24s pdb-violations %d, highest %lld, victims %d:", i == r->chosen ? "*" : " ",
				     kp_str(&s->strs, s->node_name[c->node]), c->npdb_violations, (long long)c->highest,
				     c->nvictims);
			for (int k = 0; k < c->nvictims; k++) {
				const kp_pod *v = &s->pods[c->victims[k]];
				kp_sb_printf(&sb, " %s/%s (priority %lld%s)", kp_str(&s->strs, v->ns), kp_str(&s->strs, v->name),
					     (long long)s->classes[v->cls].priority, c->violating[k] ? ", breaks a PDB" : "");
			}
			kp_sb_addc(&sb, '\n');
		}
		/* why the chosen one: the first criterion on which it beats each other candidate */
		const kp_candidate *w = &r->cands[r->chosen];
		for (int i = 0; i < r->ncands; i++) {
			const kp_candidate *c = &r->cands[i];
			if (i == r->chosen)
				continue;
			const char *why = c->npdb_violations != w->npdb_violations ? "fewer PDB violations"
					  : c->highest != w->highest ? "a lower highest-victim priority"
					  : c->sum != w->sum ? "a smaller sum of victim priorities"
					  : c->nvictims != w->nvictims ? "fewer victims"
					  : c->earliest != w->earliest ? "its highest-priority victims started later"
					  : "a full tie, broken by the seeded hash";
			kp_sb_printf(&sb, "  %s beats %s: %s\n", kp_str(&s->strs, s->node_name[w->node]),
				     kp_str(&s->strs, s->node_name[c->node]), why);
		}
		if (r->ncands == 1)
			kp_sb_printf(&sb, "  %s is the only node where evicting lower-priority pods makes room\n",
				     kp_str(&s->strs, s->node_name[w->node]));
	}
	if (kp_sb_ok(&sb))
		snprintf(ex->preemption, sizeof ex->preemption, "%s", kp_sb_str(&sb));
	kp_sb_release(&sb);
}
