/*
 * plan.c — one plan run (see plan.h): kube-scheduler's scheduling cycle for
 * every pending pod, in queue order, on the in-memory snapshot.
 *
 *  1. load the snapshot, the profiles (--config, else the latest imported
 *     KubeSchedulerConfiguration, else kube's defaults) and evaluate the
 *     static filters in SQL once per scheduling class;
 *  2. queue: priority (high first), creationTimestamp, import order
 *     (PrioritySort; semantics §3);
 *  3. per pod: PreFilter, Filter on every node (the first failing plugin
 *     gives the node's reasons), then — with two or more feasible nodes —
 *     PreScore, Score, NormalizeScore, weights, and the highest total wins;
 *     ties go to the highest seeded hash of (pod, node) (semantics §1, §8);
 *  4. batch retry (semantics §12): when the queue is drained, pods that
 *     failed before a later binding are tried again, in queue order, until a
 *     pass binds nothing;
 *  5. write run, placement, pod_failure and run_warning in one transaction.
 */
#include "plan.h"
#include "snapshot.h"
#include "profile.h"
#include "static.h"
#include "cycle.h"
#include "json.h"
#include "extender.h"
#include "../common/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>

enum { A_KEEP, A_BIND, A_UNSCHED, A_IGNORED, A_DONE, A_GATED };

typedef struct fail_item { int32_t reason; int32_t count; } fail_item;

typedef struct pod_out {
	uint8_t action;
	int32_t seq, attempts, feasible, node;
	int64_t score;
	int has_score;
	int64_t last_bind_stamp;     /* binds counter at the last attempt */
	char *message;
	fail_item *fails;
	int nfails;
} pod_out;

typedef struct planner {
	sqlite3 *db;
	const kp_plan_opts *o;
	kp_err *err;
	kp_snap s;
	kp_config cfg;
	kp_cycle cy;
	int32_t *queue;
	int nqueue;
	pod_out *out;
	int64_t binds;
	int32_t seq;
	int32_t *prof_of_class;      /* profile index per class, -1 none */
	int *next_start;             /* per profile: percentageOfNodesToScore rotation */
	int64_t *scores[KP_P_COUNT];
	int64_t *total;
	kp_explain *ex;
	long done_pods;
} planner;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int nomem(planner *pl) { return kp_err_set(pl->err, KP_NOMEM, "out of memory while planning"); }

/* ---- configuration ---- */

static int load_config(planner *pl)
{
	const kp_plan_opts *o = pl->o;
	if (o->config_file) {
		FILE *f = fopen(o->config_file, "rb");
		if (!f)
			return kp_err_set(pl->err, KP_IO, "cannot open '%s': %s", o->config_file, strerror(errno));
		kp_sb sb;
		kp_sb_init(&sb);
		int rrc = kp_read_stream(f, &sb);
		fclose(f);
		if (rrc != KP_OK) {
			kp_sb_release(&sb);
			return rrc == KP_NOMEM ? nomem(pl) : kp_err_set(pl->err, KP_IO, "cannot read '%s'", o->config_file);
		}
		char dir[1024];
		snprintf(dir, sizeof dir, "%s", o->config_file);
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = 0;
		else
			snprintf(dir, sizeof dir, ".");
		kp_config_set_base_dir(&pl->cfg, dir);
		int rc = kp_config_parse(kp_sb_str(&sb), sb.len, o->config_file, &pl->cfg, pl->err);
		kp_sb_release(&sb);
		return rc;
	}
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(pl->db, "SELECT id, document, source FROM scheduler_config ORDER BY id DESC LIMIT 1", -1,
			       &st, NULL) != SQLITE_OK)
		return kp_err_set(pl->err, KP_IO, "cannot read scheduler configurations: %s", sqlite3_errmsg(pl->db));
	int rc = KP_OK;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *doc = (const char *)sqlite3_column_text(st, 1);
		char src[1200];
		snprintf(src, sizeof src, "%s (imported as scheduler_config %lld)",
			 (const char *)sqlite3_column_text(st, 2), (long long)sqlite3_column_int64(st, 0));
		rc = kp_config_parse(doc, strlen(doc), src, &pl->cfg, pl->err);
	} else {
		kp_config_default(&pl->cfg);
		if (!pl->cfg.profiles)
			rc = nomem(pl);
	}
	sqlite3_finalize(st);
	return rc;
}

/* NodeAffinityArgs.addedAffinity -> node terms (parsed with the shared JSON reader) */
static int parse_terms(planner *pl, kp_json *list, int preferred, kp_nterm **out, uint32_t *n)
{
	*out = NULL;
	*n = 0;
	if (!list)
		return KP_OK;
	if (list->type != KP_J_ARR)
		return kp_err_set(pl->err, KP_PARSE, "addedAffinity: expected a list of terms");
	*out = kp_arena_alloc(&pl->s.arena, (list->n ? list->n : 1) * sizeof **out);
	if (!*out)
		return nomem(pl);
	for (size_t i = 0; i < list->n; i++) {
		kp_json *t = list->items[i], *pref = t;
		kp_nterm *nt = &(*out)[i];
		if (t->type != KP_J_OBJ)
			return kp_err_set(pl->err, KP_PARSE, "addedAffinity: a term must be a mapping");
		if (preferred) {
			pref = NULL;
			for (size_t k = 0; k < t->n; k++) {
				const char *key = t->items[2 * k]->str;
				if (!strcmp(key, "weight") && t->items[2 * k + 1]->type == KP_J_NUM)
					nt->weight = atoll(t->items[2 * k + 1]->str);
				if (!strcmp(key, "preference"))
					pref = t->items[2 * k + 1];
			}
			if (!pref || pref->type != KP_J_OBJ)
				return kp_err_set(pl->err, KP_PARSE, "addedAffinity: a preferred term needs a preference");
		}
		for (size_t k = 0; k < pref->n; k++) {
			const char *key = pref->items[2 * k]->str;
			kp_json *exprs = pref->items[2 * k + 1];
			int field = !strcmp(key, "matchFields");
			if (!field && strcmp(key, "matchExpressions"))
				return kp_err_set(pl->err, KP_PARSE, "addedAffinity: unknown field '%s'", key);
			if (exprs->type != KP_J_ARR)
				return kp_err_set(pl->err, KP_PARSE, "addedAffinity: %s must be a list", key);
			kp_sreq *r = kp_arena_alloc(&pl->s.arena, (exprs->n ? exprs->n : 1) * sizeof *r);
			if (!r)
				return nomem(pl);
			for (size_t e = 0; e < exprs->n; e++) {
				kp_json *x = exprs->items[e];
				const char *ekey = NULL, *op = NULL;
				kp_json *vals = NULL;
				for (size_t q = 0; x->type == KP_J_OBJ && q < x->n; q++) {
					const char *f = x->items[2 * q]->str;
					if (!strcmp(f, "key"))
						ekey = x->items[2 * q + 1]->str;
					else if (!strcmp(f, "operator"))
						op = x->items[2 * q + 1]->str;
					else if (!strcmp(f, "values"))
						vals = x->items[2 * q + 1];
				}
				static const char *const ops[] = { "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt" };
				int code = -1;
				for (int q = 0; q < 6 && op; q++)
					if (!strcmp(op, ops[q]))
						code = q;
				if (!ekey || code < 0)
					return kp_err_set(pl->err, KP_PARSE, "addedAffinity: an expression needs a key and an operator");
				r[e].key = kp_strtab_intern(&pl->s.strs, ekey);
				r[e].op = (uint8_t)code;
				r[e].nvals = vals && vals->type == KP_J_ARR ? (uint32_t)vals->n : 0;
				r[e].vals = kp_arena_alloc(&pl->s.arena, (r[e].nvals ? r[e].nvals : 1) * sizeof(kp_sid));
				if (!r[e].vals)
					return nomem(pl);
				for (uint32_t q = 0; q < r[e].nvals; q++)
					r[e].vals[q] = kp_strtab_intern(&pl->s.strs, vals->items[q]->str ? vals->items[q]->str : "");
				if ((code == KP_OP_GT || code == KP_OP_LT) && r[e].nvals == 1)
					r[e].num = atoll(kp_str(&pl->s.strs, r[e].vals[0]));
			}
			if (field) {
				nt->fields = r;
				nt->nfields = (uint32_t)exprs->n;
			} else {
				nt->exprs = r;
				nt->nexprs = (uint32_t)exprs->n;
			}
		}
	}
	*n = (uint32_t)list->n;
	return KP_OK;
}

static int prepare_added_affinity(planner *pl, const kp_profile *pf)
{
	kp_cycle *cy = &pl->cy;
	cy->has_added_req = 0;
	cy->nadded_req = cy->nadded_pref = 0;
	if (!pf->added_affinity_json)
		return KP_OK;
	kp_arena tmp;
	kp_arena_init(&tmp, 4096);
	kp_json *j = kp_json_parse(pf->added_affinity_json, &tmp);
	int rc = KP_OK;
	if (!j || j->type != KP_J_OBJ)
		rc = kp_err_set(pl->err, KP_PARSE, "addedAffinity: expected a mapping");
	for (size_t k = 0; !rc && k < j->n; k++) {
		const char *key = j->items[2 * k]->str;
		kp_json *v = j->items[2 * k + 1];
		if (!strcmp(key, "requiredDuringSchedulingIgnoredDuringExecution")) {
			kp_json *terms = NULL;
			for (size_t q = 0; v->type == KP_J_OBJ && q < v->n; q++)
				if (!strcmp(v->items[2 * q]->str, "nodeSelectorTerms"))
					terms = v->items[2 * q + 1];
			cy->has_added_req = 1;
			rc = parse_terms(pl, terms, 0, &cy->added_req, &cy->nadded_req);
		} else if (!strcmp(key, "preferredDuringSchedulingIgnoredDuringExecution")) {
			rc = parse_terms(pl, v, 1, &cy->added_pref, &cy->nadded_pref);
		} else {
			rc = kp_err_set(pl->err, KP_PARSE, "addedAffinity: unknown field '%s'", key);
		}
	}
	kp_arena_release(&tmp);
	return rc;
}

/* ---- queue ---- */

static const planner *sort_pl;

static int queue_less(const void *a, const void *b)
{
	const kp_snap *s = &sort_pl->s;
	const kp_pod *x = &s->pods[*(const int32_t *)a], *y = &s->pods[*(const int32_t *)b];
	int64_t px = s->classes[x->cls].priority, py = s->classes[y->cls].priority;
	if (px != py)
		return px > py ? -1 : 1;
	if (x->created != y->created)
		return x->created < y->created ? -1 : 1;
	return (x->db_id > y->db_id) - (x->db_id < y->db_id);
}

/* ---- the cycle ---- */

static uint32_t tiebreak(uint64_t seed, int64_t pod, int64_t node)
{
	int64_t k[2] = { pod, node };
	return (uint32_t)(kp_hash64(k, sizeof k, seed) >> 32);
}

static int reasons_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* "0/N nodes are available: <sorted histogram>." and the per-reason counts */
static int fit_error(planner *pl, pod_out *po)
{
	kp_cycle *cy = &pl->cy;
	const kp_snap *s = &pl->s;
	int32_t *counts = kp_calloc((size_t)(s->nreasons ? s->nreasons : 1), sizeof *counts);
	if (!counts)
		return nomem(pl);
	for (int n = 0; n < s->nnodes; n++)
		if (cy->fail[n] >= 0)
			for (int k = 0; k < cy->rcount[n]; k++)
				counts[cy->rbuf[cy->rstart[n] + k]]++;
	int nitems = 0;
	for (int r = 0; r < s->nreasons; r++)
		nitems += counts[r] > 0;
	kp_free(po->fails);
	po->fails = kp_malloc((size_t)(nitems ? nitems : 1) * sizeof *po->fails);
	char **items = kp_malloc((size_t)(nitems ? nitems : 1) * sizeof *items);
	if (!po->fails || !items) {
		kp_free(counts);
		kp_free(items);
		return nomem(pl);
	}
	po->nfails = 0;
	int ok = 1;
	for (int r = 0; r < s->nreasons; r++)
		if (counts[r]) {
			po->fails[po->nfails] = (fail_item){ r, counts[r] };
			items[po->nfails] = kp_malloc(strlen(s->reasons[r].msg) + 24);
			if (!items[po->nfails]) {
				ok = 0;
				break;
			}
			sprintf(items[po->nfails], "%d %s", counts[r], s->reasons[r].msg);
			po->nfails++;
		}
	kp_sb sb;
	kp_sb_init(&sb);
	if (ok) {
		kp_sort(items, (size_t)po->nfails, sizeof *items, reasons_cmp);
		if (!s->nnodes)
			kp_sb_adds(&sb, "no nodes available to schedule pods");
		else
			kp_sb_printf(&sb, "0/%d nodes are available: ", s->nnodes);
		for (int i = 0; i < po->nfails; i++) {
			if (i)
				kp_sb_adds(&sb, ", ");
			kp_sb_adds(&sb, items[i]);
		}
		if (s->nnodes)
			kp_sb_addc(&sb, '.');
	}
	for (int i = 0; i < po->nfails && ok; i++)
		kp_free(items[i]);
	kp_free(items);
	kp_free(counts);
	if (!ok || !kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return nomem(pl);
	}
	kp_free(po->message);
	po->message = sb.buf;
	return KP_OK;
}

/* numFeasibleNodesToFind (semantics §9), only when the profile sets a percentage */
static int nodes_to_find(int n, int pct)
{
	if (pct < 0 || n < 100 || pct >= 100)
		return n;
	int p = pct;
	if (p == 0) {
		p = 50 - n / 125;
		if (p < 5)
			p = 5;
	}
	int num = (int)((int64_t)n * p / 100);
	return num < 100 ? 100 : num;
}

static void explain_capture(planner *pl, int profile_idx, int chosen, int scoring, int64_t *const *raw,
			    int64_t *const *norm)
{
	kp_explain *ex = pl->ex;
	const kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	const kp_profile *pf = &pl->cfg.profiles[profile_idx];
	ex->found = 1;
	ex->attempts++;
	ex->nnodes = s->nnodes;
	kp_free(ex->nodes);
	ex->nodes = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), sizeof *ex->nodes);
	if (!ex->nodes)
		return;
	ex->scoring = scoring;
	ex->chosen = chosen;
	for (int k = 0; k < KP_P_COUNT && k < 16; k++) {
		ex->weight[k] = pf->weight[k];
		ex->scored[k] = pf->score[k] && scoring && raw && raw[k];
	}
	for (int n = 0; n < s->nnodes; n++) {
		kp_explain_node *en = &ex->nodes[n];
		en->node_db_id = s->node_db_id[n];
		snprintf(en->node, sizeof en->node, "%s", kp_str(&s->strs, s->node_name[n]));
		en->feasible = cy->fail[n] < 0;
		en->tiebreak = tiebreak(cy->seed, cy->p->db_id, s->node_db_id[n]);
		if (!en->feasible) {
			en->plugin = kp_plugin_names[cy->fail[n]];
			size_t off = 0;
			for (int k = 0; k < cy->rcount[n] && off < sizeof en->reason - 1; k++) {
				int w = snprintf(en->reason + off, sizeof en->reason - off, "%s%s", k ? ", " : "",
						 s->reasons[cy->rbuf[cy->rstart[n] + k]].msg);
				if (w > 0)
					off += (size_t)w;
			}
			continue;
		}
		for (int k = 0; scoring && raw && k < KP_P_COUNT && k < 16; k++)
			if (raw[k]) {
				en->raw[k] = raw[k][n];
				en->norm[k] = norm[k][n];
			}
		en->total = scoring ? pl->total[n] : 0;
	}
}

static int push_pod(int32_t **v, int *n, int *cap, int32_t pi)
{
	if (*n == *cap) {
		int c = *cap ? *cap * 2 : 64;
		int32_t *nv = kp_realloc(*v, (size_t)c * sizeof *nv);
		if (!nv)
			return KP_NOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = pi;
	return KP_OK;
}

/* Remember a placed pod with affinity terms: with required anti-affinity it
 * can reject later pods (§5.8); with any term it scores them (§7.9). */
static int add_affinity_pod(planner *pl, int32_t pi)
{
	kp_cycle *cy = &pl->cy;
	const kp_class *c = &pl->s.classes[pl->s.pods[pi].cls];
	if (c->has_req_anti && push_pod(&cy->anti_pods, &cy->nanti_pods, &cy->cap_anti_pods, pi))
		return KP_NOMEM;
	if (c->npterms && push_pod(&cy->aff_pods, &cy->naff_pods, &cy->cap_aff_pods, pi))
		return KP_NOMEM;
	return KP_OK;
}

/* A PreFilter plugin rejected the pod for every node: "0/N nodes are available: MSG." */
static int prefilter_failed(planner *pl, pod_out *po, int profile_idx, int explaining)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	po->action = A_UNSCHED;
	po->feasible = 0;
	po->has_score = 0;
	int r = kp_reason_intern(s, kp_plugin_names[cy->prefilter_plugin], cy->prefilter_msg, 1);
	kp_free(po->fails);
	po->fails = kp_malloc(sizeof *po->fails);
	kp_free(po->message);
	po->message = kp_malloc(strlen(cy->prefilter_msg) + 64);
	if (r < 0 || !po->fails || !po->message)
		return nomem(pl);
	po->fails[0] = (fail_item){ r, s->nnodes };
	po->nfails = 1;
	sprintf(po->message, "0/%d nodes are available: %s.", s->nnodes, cy->prefilter_msg);
	for (int n = 0; n < s->nnodes; n++)
		kp_cycle_fail(cy, n, cy->prefilter_plugin, r, 1);
	if (explaining) {
		explain_capture(pl, profile_idx, -1, 0, NULL, NULL);
		snprintf(pl->ex->message, sizeof pl->ex->message, "%s", po->message);
	}
	return KP_OK;
}

/* One scheduling cycle for pod pi under profile pf. */
static int schedule_one(planner *pl, int32_t pi, int profile_idx)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	const kp_profile *pf = &pl->cfg.profiles[profile_idx];
	pod_out *po = &pl->out[pi];
	kp_pod *p = &s->pods[pi];
	const kp_class *c = &s->classes[p->cls];
	int explaining = pl->ex && pl->ex->pod_db_id == p->db_id;
	po->attempts++;
	po->last_bind_stamp = pl->binds;
	po->seq = ++pl->seq;
	kp_arena_reset(&cy->arena);
	cy->pf = pf;
	if (cy->res_pf != pf) {
		/* resource names -> indexes, once per profile, not per node */
		for (int i = 0; i < pf->nfit_res || i < pf->nbal_res; i++) {
			for (int k = 0; k < 2; k++) {
				const char *name = k ? (i < pf->nbal_res ? pf->bal_res[i].name : NULL)
						     : (i < pf->nfit_res ? pf->fit_res[i].name : NULL);
				if (!name)
					continue;
				kp_sid sid = kp_strtab_find(&s->strs, name);
				int idx = -1;
				for (int r = 0; r < s->nres && sid >= 0 && idx < 0; r++)
					if (s->res_name[r] == sid)
						idx = r;
				if (k)
					cy->bal_res[i] = idx;
				else
					cy->fit_res[i] = idx;
			}
		}
		cy->res_pf = pf;
	}
	cy->pi = pi;
	cy->p = p;
	cy->c = c;
	cy->nfeas = 0;
	cy->rlen = 0;
	cy->spread_built = 0;
	cy->restrict_nodes = 0;
	cy->prefilter_msg = NULL;
	memset(cy->skip, 0, sizeof cy->skip);
	memset(cy->fail, -1, (size_t)s->nnodes);
	memset(cy->unres, 0, (size_t)s->nnodes);
	if (prepare_added_affinity(pl, pf))
		return pl->err->code;

	/* PreFilter */
	int prc = kp_cycle_prefilter(cy);
	if (prc == KP_PREFILTER_FAIL)
		return prefilter_failed(pl, po, profile_idx, explaining);
	if (prc < 0)
		return prc == KP_NOMEM ? nomem(pl) : kp_err_set(pl->err, prc, "pre-filter failed");
	/* Filter, node by node; every node unless percentageOfNodesToScore says otherwise */
	int want = nodes_to_find(s->nnodes, pf->pct_nodes_to_score);
	int start = pf->pct_nodes_to_score >= 0 ? pl->next_start[profile_idx] : 0, processed = 0;
	for (int i = 0; i < s->nnodes && cy->nfeas < want; i++) {
		int n = (start + i) % s->nnodes;
		processed++;
		int passed = kp_cycle_filter_node(cy, n);
		if (passed)
			cy->feas[cy->nfeas++] = n;
	}
	if (pf->pct_nodes_to_score >= 0 && s->nnodes)
		pl->next_start[profile_idx] = (start + processed) % s->nnodes;

	if (cy->nfeas == 0) {
		po->action = A_UNSCHED;
		po->feasible = 0;
		po->has_score = 0;
		int rc = fit_error(pl, po);
		if (explaining) {
			explain_capture(pl, profile_idx, -1, 0, NULL, NULL);
			snprintf(pl->ex->message, sizeof pl->ex->message, "%s", po->message ? po->message : "");
		}
		return rc;
	}
	int best = cy->feas[0];
	po->feasible = cy->nfeas;
	po->has_score = 0;
	int scoring = cy->nfeas > 1;
	int64_t *ex_raw[KP_P_COUNT] = { 0 }, *ex_norm[KP_P_COUNT] = { 0 };
	if (scoring) {
		for (int i = 0; i < cy->nfeas; i++)
			pl->total[cy->feas[i]] = 0;
		for (int k = 0; k < KP_P_COUNT; k++) {
			const kp_plugin *pg = kp_plugins[k];
			if (!pf->score[k] || !pg || !pg->score)
				continue;
			int64_t *sc = pl->scores[k];
			int skip = 0;
			if (pg->pre_score) {
				int rc = pg->pre_score(cy);
				if (rc == KP_SKIP)
					skip = 1;
				else if (rc < 0)
					return rc == KP_NOMEM ? nomem(pl) : kp_err_set(pl->err, rc, "pre-score %s failed", kp_plugin_names[k]);
			}
			for (int i = 0; i < cy->nfeas; i++)
				sc[cy->feas[i]] = skip ? 0 : pg->score(cy, cy->feas[i]);
			if (explaining) {
				ex_raw[k] = kp_arena_alloc(&cy->arena, (size_t)s->nnodes * sizeof(int64_t));
				if (!ex_raw[k])
					return nomem(pl);
				memcpy(ex_raw[k], sc, (size_t)s->nnodes * sizeof(int64_t));
			}
			if (!skip && pg->normalize)
				pg->normalize(cy, sc);
			if (explaining) {
				ex_norm[k] = kp_arena_alloc(&cy->arena, (size_t)s->nnodes * sizeof(int64_t));
				if (!ex_norm[k])
					return nomem(pl);
				memcpy(ex_norm[k], sc, (size_t)s->nnodes * sizeof(int64_t));
			}
			for (int i = 0; i < cy->nfeas; i++) {
				int n = cy->feas[i];
				pl->total[n] += pf->weight[k] * sc[n];
			}
		}
		/* the highest total; among equal totals the highest seeded hash
		 * (computed only for ties) */
		uint32_t best_tb = 0;
		int best_tb_valid = 0;
		for (int i = 1; i < cy->nfeas; i++) {
			int n = cy->feas[i];
			if (pl->total[n] > pl->total[best]) {
				best = n;
				best_tb_valid = 0;
			} else if (pl->total[n] == pl->total[best]) {
				if (!best_tb_valid) {
					best_tb = tiebreak(cy->seed, p->db_id, s->node_db_id[best]);
					best_tb_valid = 1;
				}
				uint32_t tb = tiebreak(cy->seed, p->db_id, s->node_db_id[n]);
				if (tb > best_tb) {
					best = n;
					best_tb = tb;
				}
			}
		}
		po->score = pl->total[best];
		po->has_score = 1;
	}
	if (explaining)
		explain_capture(pl, profile_idx, best, scoring, ex_raw, ex_norm);
	/* bind: the pod is assumed on the node; the next cycle sees it */
	if (kp_snap_add_pod(s, pi, best))
		return nomem(pl);
	if (c->npterms && add_affinity_pod(pl, pi))
		return nomem(pl);
	po->action = A_BIND;
	po->node = best;
	kp_free(po->message);
	po->message = NULL;
	pl->binds++;
	return KP_OK;
}

/* Merge extender rows of another profile (disjoint pods) into the cycle's. */
static int merge_extender_rows(planner *pl, kp_cycle *tmp)
{
	kp_cycle *cy = &pl->cy;
	int np = pl->s.npods;
	if (!tmp->ext_off)
		return KP_OK;
	if (!cy->ext_off) {
		cy->ext_off = tmp->ext_off;
		cy->ext_rows = tmp->ext_rows;
		tmp->ext_off = NULL;
		tmp->ext_rows = NULL;
		return KP_OK;
	}
	int32_t *off = kp_calloc((size_t)np + 1, sizeof *off);
	size_t total = (size_t)cy->ext_off[np] + (size_t)tmp->ext_off[np];
	struct kp_ext_row *rows = kp_malloc((total ? total : 1) * sizeof *rows);
	if (!off || !rows) {
		kp_free(off);
		kp_free(rows);
		return nomem(pl);
	}
	size_t m = 0;
	for (int i = 0; i < np; i++) {
		off[i] = (int32_t)m;
		for (int32_t k = cy->ext_off[i]; k < cy->ext_off[i + 1]; k++)
			rows[m++] = cy->ext_rows[k];
		for (int32_t k = tmp->ext_off[i]; k < tmp->ext_off[i + 1]; k++)
			rows[m++] = tmp->ext_rows[k];
	}
	off[np] = (int32_t)m;
	kp_free(cy->ext_off);
	kp_free(cy->ext_rows);
	cy->ext_off = off;
	cy->ext_rows = rows;
	return KP_OK;
}

/* ---- setup ---- */

static int setup(planner *pl)
{
	kp_snap *s = &pl->s;
	kp_cycle *cy = &pl->cy;
	int n = s->nnodes ? s->nnodes : 1;
	cy->s = s;
	cy->seed = pl->o->seed;
	kp_arena_init(&cy->arena, 64 * 1024);
	cy->feas = kp_malloc((size_t)n * sizeof *cy->feas);
	cy->fail = kp_malloc((size_t)n);
	cy->unres = kp_malloc((size_t)n);
	cy->rstart = kp_malloc((size_t)n * sizeof *cy->rstart);
	cy->rcount = kp_calloc((size_t)n, sizeof *cy->rcount);
	cy->raw = kp_calloc((size_t)n, sizeof *cy->raw);
	cy->spread_ignored = kp_calloc((size_t)n, 1);
	cy->allowed = kp_calloc((size_t)n, 1);
	if (!cy->allowed)
		return nomem(pl);
	pl->total = kp_calloc((size_t)n, sizeof *pl->total);
	if (!cy->feas || !cy->fail || !cy->unres || !cy->rstart || !cy->rcount || !cy->raw || !cy->spread_ignored ||
	    !pl->total)
		return nomem(pl);
	for (int k = 0; k < KP_P_COUNT; k++)
		if (!(pl->scores[k] = kp_calloc((size_t)n, sizeof(int64_t))))
			return nomem(pl);
	if (kp_dmap_init(&cy->aff_counts, 64) || kp_dmap_init(&cy->anti_counts, 64) ||
	    kp_dmap_init(&cy->existing_anti, 64) || kp_dmap_init(&cy->topo_score, 64))
		return nomem(pl);
	const char *const *P = kp_plugin_names;
	cy->r_insufficient = kp_malloc((size_t)s->nres * sizeof *cy->r_insufficient);
	if (!cy->r_insufficient)
		return nomem(pl);
	for (int r = 0; r < s->nres; r++) {
		char msg[600];
		snprintf(msg, sizeof msg, "Insufficient %s", kp_str(&s->strs, s->res_name[r]));
		if ((cy->r_insufficient[r] = kp_reason_intern(s, P[KP_P_NODE_RESOURCES_FIT], msg, 0)) < 0)
			return nomem(pl);
	}
	cy->r_too_many_pods = kp_reason_intern(s, P[KP_P_NODE_RESOURCES_FIT], "Too many pods", 0);
	cy->r_ports = kp_reason_intern(s, P[KP_P_NODE_PORTS], "node(s) didn't have free ports for the requested pod ports", 0);
	cy->r_spread_missing = kp_reason_intern(s, P[KP_P_POD_TOPOLOGY_SPREAD],
						"node(s) didn't match pod topology spread constraints (missing required label)", 1);
	cy->r_spread = kp_reason_intern(s, P[KP_P_POD_TOPOLOGY_SPREAD], "node(s) didn't match pod topology spread constraints", 0);
	cy->r_aff = kp_reason_intern(s, P[KP_P_INTER_POD_AFFINITY], "node(s) didn't match pod affinity rules", 1);
	cy->r_anti = kp_reason_intern(s, P[KP_P_INTER_POD_AFFINITY], "node(s) didn't match pod anti-affinity rules", 0);
	cy->r_existing_anti = kp_reason_intern(s, P[KP_P_INTER_POD_AFFINITY],
					       "node(s) didn't satisfy existing pods anti-affinity rules", 0);
	cy->r_added_affinity = kp_reason_intern(s, P[KP_P_NODE_AFFINITY], "node(s) didn't match scheduler-enforced node affinity", 1);
	cy->r_prefilter_out = kp_reason_intern(s, P[KP_P_NODE_AFFINITY], "node is filtered out by the prefilter result", 1);
	if (cy->r_prefilter_out < 0)
		return nomem(pl);
	if (cy->r_too_many_pods < 0 || cy->r_ports < 0 || cy->r_spread_missing < 0 || cy->r_spread < 0 || cy->r_aff < 0 ||
	    cy->r_anti < 0 || cy->r_existing_anti < 0 || cy->r_added_affinity < 0)
		return nomem(pl);
	/* pods already running with required anti-affinity */
	for (int i = 0; i < s->npods; i++)
		if (s->pods[i].node >= 0 && s->classes[s->pods[i].cls].npterms && add_affinity_pod(pl, i))
			return nomem(pl);
	return KP_OK;
}

static void teardown(planner *pl)
{
	kp_cycle *cy = &pl->cy;
	kp_free(cy->feas);
	kp_free(cy->fail);
	kp_free(cy->unres);
	kp_free(cy->rstart);
	kp_free(cy->rcount);
	kp_free(cy->rbuf);
	kp_free(cy->raw);
	kp_free(cy->spread_ignored);
	kp_free(cy->allowed);
	kp_free(cy->r_insufficient);
	kp_free(cy->anti_pods);
	kp_free(cy->aff_pods);
	kp_free(cy->ext_off);
	kp_free(cy->ext_rows);
	for (int i = 0; i < cy->cap_cs; i++)
		kp_dmap_release(&cy->cs[i].counts);
	kp_free(cy->cs);
	kp_dmap_release(&cy->aff_counts);
	kp_dmap_release(&cy->anti_counts);
	kp_dmap_release(&cy->existing_anti);
	kp_dmap_release(&cy->topo_score);
	kp_arena_release(&cy->arena);
	for (int k = 0; k < KP_P_COUNT; k++)
		kp_free(pl->scores[k]);
	kp_free(pl->total);
	if (pl->out)
		for (int i = 0; i < pl->s.npods; i++) {
			kp_free(pl->out[i].message);
			kp_free(pl->out[i].fails);
		}
	kp_free(pl->out);
	kp_free(pl->queue);
	kp_free(pl->prof_of_class);
	kp_free(pl->next_start);
	kp_snap_release(&pl->s);
	kp_config_release(&pl->cfg);
}

/* ---- writing ---- */

static int write_run(planner *pl, kp_plan_result *r, double t0)
{
	sqlite3 *db = pl->db;
	kp_snap *s = &pl->s;
	sqlite3_stmt *st = NULL, *fail = NULL, *warn = NULL;
	int rc = KP_OK;
	char now[32];
	kp_format_time((int64_t)time(NULL), now, sizeof now);
	if (kp_config_to_json(&pl->cfg))
		return nomem(pl);
#define DBFAIL(what) do { rc = kp_interrupted || sqlite3_errcode(db) == SQLITE_INTERRUPT \
		? kp_err_set(pl->err, KP_INTR, "interrupted") \
		: kp_err_set(pl->err, KP_IO, "cannot write the plan (%s): %s", what, sqlite3_errmsg(db)); goto out; } while (0)
	if (sqlite3_prepare_v2(db, "INSERT INTO run(started, options, config, config_source, seed, kplan) "
				   "VALUES(?1, ?2, ?3, ?4, ?5, ?6)", -1, &st, NULL) != SQLITE_OK)
		DBFAIL("run");
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, pl->o->options_json ? pl->o->options_json : "{}", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, pl->cfg.json, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, pl->cfg.source, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)pl->o->seed);
	sqlite3_bind_text(st, 6, KPLAN_VERSION, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		DBFAIL("run");
	sqlite3_finalize(st);
	st = NULL;
	r->run_id = sqlite3_last_insert_rowid(db);
	if (sqlite3_prepare_v2(db, "INSERT INTO placement(run_id, pod_id, seq, action, node_id, from_node_id, score, "
				   "feasible, attempts, reason) VALUES(?1, ?2, ?3, ?4, ?5, NULL, ?6, ?7, ?8, ?9)", -1, &st,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO pod_failure(run_id, pod_id, plugin, reason, nodes) VALUES(?1, ?2, ?3, ?4, ?5)",
			       -1, &fail, NULL) != SQLITE_OK)
		DBFAIL("placement");
	for (int i = 0; i < s->npods; i++) {
		const kp_pod *p = &s->pods[i];
		const pod_out *po = &pl->out[i];
		static const char *const names[] = { "keep", "bind", "unschedulable", "keep", "keep", "unschedulable" };
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		sqlite3_bind_int64(st, 1, r->run_id);
		sqlite3_bind_int64(st, 2, p->db_id);
		sqlite3_bind_text(st, 4, names[po->action], -1, SQLITE_STATIC);
		int node = po->action == A_BIND ? po->node : p->orig_node;
		if (node >= 0 && po->action != A_UNSCHED && po->action != A_GATED)
			sqlite3_bind_int64(st, 5, s->node_db_id[node]);
		if (po->action == A_BIND || po->action == A_UNSCHED) {
			sqlite3_bind_int(st, 3, po->seq);
			if (po->has_score)
				sqlite3_bind_int64(st, 6, po->score);
			sqlite3_bind_int(st, 7, po->feasible);
			sqlite3_bind_int(st, 8, po->attempts);
		}
		if (po->message)
			sqlite3_bind_text(st, 9, po->message, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			DBFAIL("placement");
		for (int k = 0; po->action == A_UNSCHED && k < po->nfails; k++) {
			const kp_reason *rs = &s->reasons[po->fails[k].reason];
			sqlite3_reset(fail);
			sqlite3_bind_int64(fail, 1, r->run_id);
			sqlite3_bind_int64(fail, 2, p->db_id);
			sqlite3_bind_text(fail, 3, rs->plugin, -1, SQLITE_STATIC);
			sqlite3_bind_text(fail, 4, rs->msg, -1, SQLITE_STATIC);
			sqlite3_bind_int(fail, 5, po->fails[k].count);
			if (sqlite3_step(fail) != SQLITE_DONE)
				DBFAIL("pod_failure");
		}
	}
	if (sqlite3_prepare_v2(db, "INSERT INTO run_warning(run_id, kind, message, pods) VALUES(?1, ?2, ?3, ?4)", -1, &warn,
			       NULL) != SQLITE_OK)
		DBFAIL("run_warning");
	for (int i = 0; i < r->nwarnings; i++) {
		char kind[64];
		const char *colon = strchr(r->warnings[i], ':');
		snprintf(kind, sizeof kind, "%.*s", colon ? (int)(colon - r->warnings[i]) : 20, r->warnings[i]);
		sqlite3_reset(warn);
		sqlite3_bind_int64(warn, 1, r->run_id);
		sqlite3_bind_text(warn, 2, kind, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(warn, 3, colon ? colon + 2 : r->warnings[i], -1, SQLITE_STATIC);
		sqlite3_bind_int64(warn, 4, atoll(colon ? colon + 2 : "0"));
		if (sqlite3_step(warn) != SQLITE_DONE)
			DBFAIL("run_warning");
	}
	sqlite3_finalize(st);
	st = NULL;
	r->elapsed = now_s() - t0;
	if (sqlite3_prepare_v2(db, "UPDATE run SET nodes = ?2, pending = ?3, bound = ?4, unschedulable = ?5, kept = ?6, "
				   "ignored = ?7, passes = ?8, elapsed = ?9 WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
		DBFAIL("run");
	sqlite3_bind_int64(st, 1, r->run_id);
	sqlite3_bind_int64(st, 2, r->nodes);
	sqlite3_bind_int64(st, 3, r->pending);
	sqlite3_bind_int64(st, 4, r->bound);
	sqlite3_bind_int64(st, 5, r->unschedulable);
	sqlite3_bind_int64(st, 6, r->kept);
	sqlite3_bind_int64(st, 7, r->ignored);
	sqlite3_bind_int64(st, 8, r->passes);
	sqlite3_bind_double(st, 9, r->elapsed);
	if (sqlite3_step(st) != SQLITE_DONE)
		DBFAIL("run");
out:
#undef DBFAIL
	sqlite3_finalize(st);
	sqlite3_finalize(fail);
	sqlite3_finalize(warn);
	return rc;
}

static void add_warning(kp_plan_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_warning(kp_plan_result *r, const char *fmt, ...)
{
	if (r->nwarnings >= 8)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->nwarnings++], sizeof r->warnings[0], fmt, ap);
	va_end(ap);
}

/* ---- the run ---- */

int kp_plan_run(sqlite3 *db, const kp_plan_opts *o, kp_plan_result *r, kp_err *err)
{
	planner pl;
	memset(&pl, 0, sizeof pl);
	memset(r, 0, sizeof *r);
	pl.db = db;
	pl.o = o;
	pl.err = err;
	pl.ex = o->explain;
	double t0 = now_s();
	int rc = kp_db_begin(db, err);
	if (rc)
		return rc;
	if ((rc = load_config(&pl)) || (rc = kp_snap_load(db, &pl.s, err)))
		goto out;
	snprintf(r->config_source, sizeof r->config_source, "%s", pl.cfg.source);
	kp_snap *s = &pl.s;
	pl.out = kp_calloc((size_t)(s->npods ? s->npods : 1), sizeof *pl.out);
	pl.queue = kp_malloc((size_t)(s->npods ? s->npods : 1) * sizeof *pl.queue);
	pl.prof_of_class = kp_malloc((size_t)(s->nclasses ? s->nclasses : 1) * sizeof *pl.prof_of_class);
	pl.next_start = kp_calloc((size_t)pl.cfg.nprofiles, sizeof *pl.next_start);
	if (!pl.out || !pl.queue || !pl.prof_of_class || !pl.next_start) {
		rc = nomem(&pl);
		goto out;
	}
	for (int i = 0; i < s->nclasses; i++) {
		pl.prof_of_class[i] = -1;
		for (int k = 0; k < pl.cfg.nprofiles && pl.prof_of_class[i] < 0; k++)
			if (!strcmp(pl.cfg.profiles[k].scheduler_name, kp_str(&s->strs, s->classes[i].sched)))
				pl.prof_of_class[i] = k;
	}
	long gated = 0, pvc = 0, missing_pc = 0, other_sched = 0;
	for (int i = 0; i < s->npods; i++) {
		kp_pod *p = &s->pods[i];
		pod_out *po = &pl.out[i];
		po->node = -1;
		kp_class *c = &s->classes[p->cls];
		if (p->ignored == KP_POD_DONE) {
			po->action = A_DONE;
			po->message = kp_strdup("finished (Succeeded or Failed): takes no room");
			continue;
		}
		if (p->ignored == KP_POD_UNKNOWN_NODE) {
			po->action = A_DONE;
			char msg[600];
			snprintf(msg, sizeof msg, "bound to node '%s', which was not imported: takes no room",
				 kp_str(&s->strs, p->bound_name));
			po->message = kp_strdup(msg);
			continue;
		}
		if (p->orig_node >= 0 || p->node >= 0) {
			po->action = A_KEEP;
			r->kept++;
			continue;
		}
		r->pending++;
		if (pl.prof_of_class[p->cls] < 0) {
			po->action = A_IGNORED;
			r->ignored++;
			other_sched++;
			char msg[600];
			snprintf(msg, sizeof msg, "not planned: schedulerName '%s' matches no profile",
				 kp_str(&s->strs, c->sched));
			po->message = kp_strdup(msg);
			continue;
		}
		if (c->gated) {
			po->action = A_GATED;
			po->message = kp_strdup("SchedulingGated: the pod has scheduling gates and is not scheduled");
			r->unschedulable++;
			gated++;
			continue;
		}
		if (c->pvc)
			pvc++;
		if (c->missing_pc)
			missing_pc++;
		c->needed = 1;
		pl.queue[pl.nqueue++] = i;
	}
	/* static filters per profile, over the classes with pending pods it schedules */
	uint8_t *pending_class = kp_calloc((size_t)(s->nclasses ? s->nclasses : 1), 1);
	if (!pending_class) {
		rc = nomem(&pl);
		goto out;
	}
	for (int i = 0; i < s->nclasses; i++)
		pending_class[i] = s->classes[i].needed;
	for (int k = 0; k < pl.cfg.nprofiles && !rc; k++) {
		int any = 0;
		for (int i = 0; i < s->nclasses; i++) {
			s->classes[i].needed = pending_class[i] && pl.prof_of_class[i] == k;
			any |= s->classes[i].needed;
		}
		if (any)
			rc = kp_static_filters(db, s, &pl.cfg.profiles[k], err);
	}
	kp_free(pending_class);
	if (rc)
		goto out;
	/* every queued class must have its static verdict now */
	for (int q = 0; q < pl.nqueue; q++)
		if (!s->classes[s->pods[pl.queue[q]].cls].feasible) {
			rc = kp_err_set(err, KP_ERROR, "internal error: class without static verdict");
			goto out;
		}
	if ((rc = setup(&pl)))
		goto out;
	/* SQL extenders, per profile, over that profile's pending pods */
	for (int k = 0; k < pl.cfg.nprofiles && !rc; k++) {
		const kp_profile *pf = &pl.cfg.profiles[k];
		if (!pf->next)
			continue;
		int32_t *mine = kp_malloc((size_t)(pl.nqueue ? pl.nqueue : 1) * sizeof *mine);
		if (!mine) {
			rc = nomem(&pl);
			break;
		}
		int nm = 0;
		for (int q = 0; q < pl.nqueue; q++)
			if (pl.prof_of_class[s->pods[pl.queue[q]].cls] == k)
				mine[nm++] = pl.queue[q];
		kp_cycle tmp;
		memset(&tmp, 0, sizeof tmp);
		rc = kp_extenders_run(db, s, pf, mine, nm, &tmp, err);
		kp_free(mine);
		if (!rc)
			rc = merge_extender_rows(&pl, &tmp);
		kp_free(tmp.ext_off);
		kp_free(tmp.ext_rows);
	}
	if (rc)
		goto out;
	sort_pl = &pl;
	kp_sort(pl.queue, (size_t)pl.nqueue, sizeof *pl.queue, queue_less);
	sort_pl = NULL;

	/* passes: the queue, then the failed pods that a later binding may help */
	int32_t *next = kp_malloc((size_t)(pl.nqueue ? pl.nqueue : 1) * sizeof *next);
	if (!next) {
		rc = nomem(&pl);
		goto out;
	}
	/* pass 1 is the whole queue; each later pass is every failed pod (of the
	 * whole queue, in queue order) that failed before some later binding */
	memcpy(next, pl.queue, (size_t)pl.nqueue * sizeof *next);
	int nq = pl.nqueue;
	long total_attempts = 0;
	while (nq > 0 && !rc) {
		r->passes++;
		for (int q = 0; q < nq && !rc; q++) {
			int32_t pi = next[q];
			if (kp_interrupted) {
				rc = kp_err_set(err, KP_INTR, "interrupted");
				break;
			}
			rc = schedule_one(&pl, pi, pl.prof_of_class[s->pods[pi].cls]);
			total_attempts++;
			if (o->progress && total_attempts % 1000 == 0)
				o->progress(o->progress_ctx, total_attempts, pl.nqueue);
		}
		nq = 0;
		for (int q = 0; q < pl.nqueue; q++) {
			int32_t pi = pl.queue[q];
			if (pl.out[pi].action == A_UNSCHED && pl.out[pi].last_bind_stamp < pl.binds)
				next[nq++] = pi;
		}
	}
	kp_free(next);
	if (rc)
		goto out;
	r->nodes = s->nnodes;
	long could_preempt = 0;
	for (int i = 0; i < s->npods; i++) {
		if (pl.out[i].action == A_BIND)
			r->bound++;
		if (pl.out[i].action == A_UNSCHED) {
			r->unschedulable++;
			const kp_class *c = &s->classes[s->pods[i].cls];
			if (!o->no_preemption && !c->preempt_never && pl.cfg.profiles[pl.prof_of_class[s->pods[i].cls]].post_filter[KP_P_DEFAULT_PREEMPTION])
				could_preempt++;
		}
	}
	if (could_preempt)
		add_warning(r, "preemption: %ld unschedulable pod(s) were not tried for preemption: DefaultPreemption is "
			       "not implemented yet (use --no-preemption to plan without it knowingly)", could_preempt);
	if (s->warn_daemonset)
		add_warning(r, "daemonset: %d DaemonSet(s) imported: their pods are not planned yet", s->warn_daemonset);
	if (pvc)
		add_warning(r, "volumes: %ld pending pod(s) use PersistentVolumeClaims: volume binding and limits are not "
			       "modelled, they were placed as if they had no volumes", pvc);
	if (missing_pc)
		add_warning(r, "priorityclass: %ld pending pod(s) name a PriorityClass that was not imported: priority 0 "
			       "used (the API server would reject them)", missing_pc);
	if (s->warn_unknown_node)
		add_warning(r, "unknown-node: %d pod(s) are bound to nodes that were not imported: they take no room",
			    s->warn_unknown_node);
	if (other_sched)
		add_warning(r, "scheduler: %ld pending pod(s) name a schedulerName no profile has: left alone", other_sched);
	(void)gated;
	if (!o->dry_run)
		rc = write_run(&pl, r, t0);
	if (!rc)
		r->elapsed = now_s() - t0;
out:
	if (rc || o->dry_run)
		kp_db_rollback(db);
	else
		rc = kp_db_commit(db, err);
	teardown(&pl);
	return rc;
}

void kp_explain_release(kp_explain *e)
{
	if (!e)
		return;
	kp_free(e->nodes);
	e->nodes = NULL;
}
