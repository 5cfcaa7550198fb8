/*
 * profile.c — scheduler profiles: the default one, and the ones a
 * KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1 or v1beta3)
 * describes, merged with the defaults as kube does (kube-scheduler-semantics.md §2,
 * apis/config/v1/default_plugins.go and defaults.go):
 *  - multiPoint.enabled naming a default plugin replaces it in place (weight);
 *  - <point>.disabled removes a plugin at that point, "*" every default one;
 *  - score.enabled sets a weight (0 means 1);
 *  - pluginConfig args replace the plugin's args, then defaulting applies.
 * Out-of-tree plugins and unknown fields are errors that name them: kplan
 * never plans as if a configured rule did not exist.
 */
#include "profile.h"
#include "http_extender.h"
#include "../common/ydom.h"
#include "../common/read.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>

/* In-tree plugins kplan accepts but that do nothing for the pods it plans:
 * the gates (gated pods are reported by the planner) and the cloud volume
 * limits kube's newer profiles dropped for NodeVolumeLimits. */
static const char *const noop_plugins[] = {
	"SchedulingGates", "EBSLimits", "GCEPDLimits", "AzureDiskLimits", NULL,
};

void kp_profile_default_resources(kp_profile *p)
{
	p->strategy = KP_STRAT_LEAST;
	p->nshape = 0;
	p->nfit_res = 2;
	snprintf(p->fit_res[0].name, sizeof p->fit_res[0].name, "cpu");
	p->fit_res[0].weight = 1;
	snprintf(p->fit_res[1].name, sizeof p->fit_res[1].name, "memory");
	p->fit_res[1].weight = 1;
	p->nbal_res = 2;
	p->bal_res[0] = p->fit_res[0];
	p->bal_res[1] = p->fit_res[1];
}

void kp_profile_default(kp_profile *p, const kp_kube *kube)
{
	kp_kube newest;
	if (!kube) {
		kp_kube_init(&newest, KP_KUBE_NEWEST);
		kube = &newest;
	}
	memset(p, 0, sizeof *p);
	snprintf(p->scheduler_name, sizeof p->scheduler_name, "default-scheduler");
	/* kube's default profile, from the plugins' descriptors (registry.h) */
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (pg->kplan_own)
			continue;
		p->filter[k] = pg->filter != NULL;
		p->post_filter[k] = pg->post_filter != NULL;
		p->score[k] = pg->weight > 0;
		p->weight[k] = pg->weight;
	}
	kp_profile_for_kube(p, kube);
	kp_profile_default_resources(p);
	p->hard_pod_affinity_weight = 1;
	p->spread_system_defaults = 1;
	p->min_candidate_pct = 10;
	p->min_candidate_abs = 100;
	p->pct_nodes_to_score = -1;
}

void kp_profile_for_kube(kp_profile *p, const kp_kube *kube)
{
	/* default_plugins.go applyFeatureGates: DynamicResources is inserted
	 * only with DynamicResourceAllocation on (GA 1.34; off 1.31-1.33) */
	int dra = kp_kube_on(kube, KP_FG_DYNAMIC_RESOURCE_ALLOCATION);
	p->filter[KP_P_DYNAMIC_RESOURCES] = (uint8_t)(dra && kp_plugins[KP_P_DYNAMIC_RESOURCES]->filter);
	/* NodeDeclaredFeatures is appended with its gate on (beta 1.36, GA 1.37) */
	p->filter[KP_P_NODE_DECLARED_FEATURES] = (uint8_t)kp_kube_on(kube, KP_FG_NODE_DECLARED_FEATURES);
}

void kp_config_default(kp_config *cfg, const kp_kube *kube)
{
	memset(cfg, 0, sizeof *cfg);
	if (kube)
		cfg->kube = *kube;
	else
		kp_kube_init(&cfg->kube, KP_KUBE_NEWEST);
	cfg->profiles = kp_calloc(1, sizeof *cfg->profiles);
	if (cfg->profiles) {
		kp_profile_default(&cfg->profiles[0], &cfg->kube);
		cfg->nprofiles = 1;
	}
	snprintf(cfg->source, sizeof cfg->source, "default");
}

void kp_config_set_base_dir(kp_config *cfg, const char *dir)
{
	snprintf(cfg->base_dir, sizeof cfg->base_dir, "%s", dir ? dir : "");
}

void kp_config_set_kube(kp_config *cfg, const kp_kube *kube)
{
	if (kube)
		cfg->kube = *kube;
	else
		kp_kube_init(&cfg->kube, KP_KUBE_NEWEST);
	cfg->kube_set = 1;
}

void kp_config_release(kp_config *cfg)
{
	for (int i = 0; i < cfg->nprofiles; i++) {
		kp_free(cfg->profiles[i].added_affinity_json);
		kp_hexts_unref(cfg->profiles[i].hext);
		for (int k = 0; k < cfg->profiles[i].next; k++)
			kp_free(cfg->profiles[i].ext[k].sql);
	}
	for (int i = 0; i < cfg->nskipped; i++)
		kp_free(cfg->skipped[i].why);
	kp_free(cfg->skipped);
	kp_free(cfg->profiles);
	kp_free(cfg->json);
	memset(cfg, 0, sizeof *cfg);
}

/* ---- parsing ---- */

/* why: set where kplan cannot run what is configured (an out-of-tree
 * plugin, HTTP extenders), for the pods' messages of an imported profile */
/* hext: the document's HTTP extenders (read_top), shared by its profiles; kube: the version planned as */
typedef struct pctx {
	const char *source;
	kp_err *err;
	const char *base_dir;
	char why[320];
	kp_hexts *hext;
	const kp_kube *kube;
} pctx;

static int bad(pctx *c, const kp_ynode *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(pctx *c, const kp_ynode *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kp_err_setv(c->err, KP_PARSE, fmt, ap);
	va_end(ap);
	kp_err_locate(c->err, c->source, at ? at->line : 0, at ? at->col : 0, "KubeSchedulerConfiguration");
	return KP_PARSE;
}

/* every key of map m must be in allowed */
static int only_keys(pctx *c, const kp_ynode *m, const char *path, const char *const *allowed)
{
	if (!m)
		return KP_OK;
	if (m->type != KP_Y_MAP)
		return bad(c, m, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(m));
	const kp_ynode *k = kp_ymap_unknown_key(m, allowed);
	return k ? bad(c, k, "%s: unknown field '%s'", path, k->u.str) : KP_OK;
}

static int get_int(pctx *c, const kp_ynode *m, const char *key, const char *path, int64_t *out, int *has)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	if (has)
		*has = v != NULL;
	if (!v)
		return KP_OK;
	char *end;
	if (v->type != KP_Y_SCALAR || !v->u.str[0])
		return bad(c, v, "%s.%s: expected an integer", path, key);
	long long x = strtoll(v->u.str, &end, 10);
	if (*end)
		return bad(c, v, "%s.%s: expected an integer, got '%s'", path, key, v->u.str);
	*out = x;
	return KP_OK;
}

static int get_bool(pctx *c, const kp_ynode *m, const char *key, const char *path, int *out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	if (!v)
		return KP_OK;
	if (v->type == KP_Y_SCALAR && (!strcmp(v->u.str, "true") || !strcmp(v->u.str, "false"))) {
		*out = v->u.str[0] == 't';
		return KP_OK;
	}
	return bad(c, v, "%s.%s: expected true or false", path, key);
}

static int plugin_index(const char *name)
{
	for (int i = 0; i < KP_P_COUNT; i++)
		if (!kp_plugins[i]->kplan_own && !strcmp(kp_plugins[i]->name, name))
			return i;
	for (int i = 0; noop_plugins[i]; i++)
		if (!strcmp(noop_plugins[i], name))
			return -2;
	return -1;
}

enum { PT_MULTI, PT_QUEUESORT, PT_PREENQUEUE, PT_PREFILTER, PT_FILTER, PT_POSTFILTER, PT_PRESCORE, PT_SCORE,
       PT_RESERVE, PT_PERMIT, PT_PREBIND, PT_BIND, PT_POSTBIND, PT_COUNT };
/* NULL-terminated: only_keys() walks it to the sentinel */
static const char *const point_names[PT_COUNT + 1] = {
	"multiPoint", "queueSort", "preEnqueue", "preFilter", "filter", "postFilter", "preScore", "score",
	"reserve", "permit", "preBind", "bind", "postBind",
};

/* which flags of a profile a plugin has at a point (NULL when none): the
 * points its descriptor takes part in; kplan's own plugins have none */
static uint8_t *flag_at(kp_profile *p, int point, int plugin)
{
	const kp_plugin *pg = kp_plugins[plugin];
	if (pg->kplan_own)
		return NULL;
	switch (point) {
	case PT_FILTER:
		return pg->filter ? &p->filter[plugin] : NULL;
	case PT_SCORE:
		return pg->score ? &p->score[plugin] : NULL;
	case PT_POSTFILTER:
		return pg->post_filter ? &p->post_filter[plugin] : NULL;
	default:
		return NULL;
	}
}

static int set_point(kp_profile *p, int point, int plugin, uint8_t on)
{
	int any = 0;
	for (int pt = PT_FILTER; pt <= PT_SCORE; pt++) {
		if (point != PT_MULTI && pt != point)
			continue;
		uint8_t *f = flag_at(p, pt, plugin);
		if (f) {
			*f = on;
			any = 1;
		}
	}
	return any;
}

static int read_plugin_set(pctx *c, kp_profile *p, const kp_ynode *plugins, const char *path)
{
	if (only_keys(c, plugins, path, point_names))
		return KP_PARSE;
	/* disabled first (kube removes, then appends the enabled ones) */
	for (int pass = 0; pass < 2; pass++) {
		for (int pt = 0; pt < PT_COUNT; pt++) {
			const kp_ynode *set = kp_ymap_get(plugins, point_names[pt]);
			static const char *const set_keys[] = { "enabled", "disabled", NULL };
			char sp[256];
			snprintf(sp, sizeof sp, "%s.%s", path, point_names[pt]);
			if (!set)
				continue;
			if (only_keys(c, set, sp, set_keys))
				return KP_PARSE;
			const kp_ynode *list = kp_ymap_get(set, pass ? "enabled" : "disabled");
			if (!list)
				continue;
			if (list->type != KP_Y_SEQ)
				return bad(c, list, "%s.%s: expected a list", sp, pass ? "enabled" : "disabled");
			for (size_t i = 0; i < list->n; i++) {
				const kp_ynode *e = list->u.items[i];
				static const char *const plugin_keys[] = { "name", "weight", NULL };
				if (only_keys(c, e, sp, plugin_keys))
					return KP_PARSE;
				const kp_ynode *nm = kp_ymap_get(e, "name");
				if (!nm || nm->type != KP_Y_SCALAR)
					return bad(c, e, "%s: plugin without a name", sp);
				const char *name = nm->u.str;
				if (!pass && !strcmp(name, "*")) {
					/* every default plugin at this point */
					for (int k = 0; k < KP_P_COUNT; k++)
						set_point(p, pt, k, 0);
					continue;
				}
				int idx = plugin_index(name);
				if (idx == -1) {
					snprintf(c->why, sizeof c->why, "uses plugin '%s' kplan cannot run", name);
					return bad(c, nm, "%s: plugin '%s' is not an in-tree kube-scheduler plugin; kplan "
						   "cannot run it (remove it, or plan without this configuration)", sp, name);
				}
				if (idx == -2)
					continue;   /* a volume/gating plugin: nothing to do for kplan's pods */
				if (pt == PT_QUEUESORT && idx != KP_P_PRIORITY_SORT)
					return bad(c, nm, "%s: '%s' cannot sort the queue", sp, name);
				if (!pass) {
					set_point(p, pt, idx, 0);
					continue;
				}
				int64_t w = 0;
				int has_w;
				if (get_int(c, e, "weight", sp, &w, &has_w))
					return KP_PARSE;
				if (has_w && (w < 0 || w > 100))
					return bad(c, kp_ymap_get(e, "weight"), "%s: weight of '%s' must be in 0..100", sp, name);
				set_point(p, pt, idx, 1);
				if (has_w && (pt == PT_SCORE || pt == PT_MULTI) && flag_at(p, PT_SCORE, idx))
					p->weight[idx] = w ? w : 1;
				if (!has_w && (pt == PT_SCORE || pt == PT_MULTI) && flag_at(p, PT_SCORE, idx) && !p->weight[idx])
					p->weight[idx] = 1;
			}
		}
	}
	return KP_OK;
}

static int read_res_weights(pctx *c, const kp_ynode *list, const char *path, kp_res_weight *out, int *n)
{
	if (!list)
		return KP_OK;
	if (list->type != KP_Y_SEQ)
		return bad(c, list, "%s: expected a list", path);
	if (list->n > KP_MAX_RES_WEIGHTS)
		return bad(c, list, "%s: at most %d resources", path, KP_MAX_RES_WEIGHTS);
	*n = 0;
	for (size_t i = 0; i < list->n; i++) {
		const kp_ynode *e = list->u.items[i];
		static const char *const keys[] = { "name", "weight", NULL };
		if (only_keys(c, e, path, keys))
			return KP_PARSE;
		const kp_ynode *nm = kp_ymap_get(e, "name");
		if (!nm || nm->type != KP_Y_SCALAR)
			return bad(c, e, "%s[%zu].name: required", path, i);
		int64_t w = 1;
		int has;
		if (get_int(c, e, "weight", path, &w, &has))
			return KP_PARSE;
		if (w < 0 || w > 100)
			return bad(c, e, "%s[%zu].weight: must be in 0..100", path, i);
		snprintf(out[*n].name, sizeof out[*n].name, "%s", nm->u.str);
		out[*n].weight = has && w ? w : 1;   /* weight 0 means 1 */
		(*n)++;
	}
	return KP_OK;
}

/* KplanSQLExtenders args: {filters: [{file|sql}], scores: [{file|sql, weight}]} */
static int read_extenders(pctx *c, kp_profile *p, const kp_ynode *a, const char *path)
{
	static const char *const keys[] = { "filters", "scores", NULL };
	if (!a)
		return bad(c, NULL, "%s: args required", path);
	if (only_keys(c, a, path, keys))
		return KP_PARSE;
	for (int score = 0; score < 2; score++) {
		const kp_ynode *list = kp_ymap_get(a, score ? "scores" : "filters");
		if (!list)
			continue;
		if (list->type != KP_Y_SEQ)
			return bad(c, list, "%s.%s: expected a list", path, score ? "scores" : "filters");
		for (size_t i = 0; i < list->n; i++) {
			const kp_ynode *e = list->u.items[i];
			static const char *const ek[] = { "file", "sql", "weight", NULL };
			if (only_keys(c, e, path, ek))
				return KP_PARSE;
			if (p->next == KP_MAX_EXTENDERS)
				return bad(c, e, "%s: at most %d SQL extenders", path, KP_MAX_EXTENDERS);
			const kp_ynode *file = kp_ymap_get(e, "file"), *sql = kp_ymap_get(e, "sql");
			if ((!file) == (!sql) || (file && file->type != KP_Y_SCALAR) || (sql && sql->type != KP_Y_SCALAR))
				return bad(c, e, "%s: an extender needs exactly one of 'file' or 'sql'", path);
			struct kp_extender *x = &p->ext[p->next];
			int64_t w = 1;
			int has_w;
			if (get_int(c, e, "weight", path, &w, &has_w))
				return KP_PARSE;
			if (has_w && !score)
				return bad(c, kp_ymap_get(e, "weight"), "%s: only score extenders have a weight", path);
			if (w < 1 || w > 100)
				return bad(c, e, "%s: weight must be in 1..100", path);
			x->score = score;
			x->weight = w;
			if (sql) {
				x->sql = kp_strdup(sql->u.str);
				snprintf(x->origin, sizeof x->origin, "inline %s extender %zu", score ? "score" : "filter", i);
			} else {
				char full[2048];
				if (file->u.str[0] != '/' && c->base_dir && c->base_dir[0])
					snprintf(full, sizeof full, "%s/%s", c->base_dir, file->u.str);
				else
					snprintf(full, sizeof full, "%s", file->u.str);
				FILE *f = fopen(full, "rb");
				if (!f)
					return bad(c, file, "%s: cannot open extender '%s'", path, full);
				/* a device or FIFO (/dev/zero, /dev/stdin) would be read forever */
				struct stat st;
				if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
					fclose(f);
					return bad(c, file, "%s: extender '%s' is not a regular file", path, full);
				}
				kp_read_opts ro = { .name = full, .kind = "SQL", .hint = "the most kplan reads for an extender" };
				kp_sb sb;
				kp_sb_init(&sb);
				int rrc = kp_read_stream(f, &ro, &sb, c->err);
				fclose(f);
				if (rrc != KP_OK) {
					kp_sb_release(&sb);
					return rrc;
				}
				x->sql = sb.buf ? sb.buf : kp_strdup("");
				snprintf(x->origin, sizeof x->origin, "%s", full);
			}
			if (!x->sql)
				return kp_err_set(c->err, KP_NOMEM, "out of memory");
			p->next++;
		}
	}
	return KP_OK;
}

/* NodeResourcesFitArgs */
static int read_fit_args(pctx *c, kp_profile *p, const kp_ynode *a, const char *ap)
{
	static const char *const k[] = { "apiVersion", "kind", "ignoredResources", "ignoredResourceGroups",
					 "scoringStrategy", NULL };
	if (only_keys(c, a, ap, k))
		return KP_PARSE;
	const kp_ynode *ss = kp_ymap_get(a, "scoringStrategy");
	static const char *const sk[] = { "type", "resources", "requestedToCapacityRatio", NULL };
	if (only_keys(c, ss, ap, sk))
		return KP_PARSE;
	const kp_ynode *t = kp_ymap_get(ss, "type");
	if (t) {
		if (t->type == KP_Y_SCALAR && !strcmp(t->u.str, "LeastAllocated"))
			p->strategy = KP_STRAT_LEAST;
		else if (t->type == KP_Y_SCALAR && !strcmp(t->u.str, "MostAllocated"))
			p->strategy = KP_STRAT_MOST;
		else if (t->type == KP_Y_SCALAR && !strcmp(t->u.str, "RequestedToCapacityRatio"))
			p->strategy = KP_STRAT_RTCR;
		else
			return bad(c, t, "%s.scoringStrategy.type: '%s' is not LeastAllocated, MostAllocated or "
				   "RequestedToCapacityRatio", ap, t->type == KP_Y_SCALAR ? t->u.str : "?");
	}
	if (ss && kp_ymap_get(ss, "resources")) {
		if (read_res_weights(c, kp_ymap_get(ss, "resources"), ap, p->fit_res, &p->nfit_res))
			return KP_PARSE;
	}
	const kp_ynode *r = kp_ymap_get(ss, "requestedToCapacityRatio");
	static const char *const rk[] = { "shape", NULL };
	if (only_keys(c, r, ap, rk))
		return KP_PARSE;
	const kp_ynode *shape = kp_ymap_get(r, "shape");
	if (shape) {
		if (shape->type != KP_Y_SEQ || !shape->n || shape->n > KP_MAX_SHAPE)
			return bad(c, shape, "%s: shape must be a list of 1..%d points", ap, KP_MAX_SHAPE);
		p->nshape = 0;
		for (size_t k = 0; k < shape->n; k++) {
			static const char *const pk[] = { "utilization", "score", NULL };
			const kp_ynode *pt = shape->u.items[k];
			if (only_keys(c, pt, ap, pk))
				return KP_PARSE;
			int64_t u = 0, s = 0;
			if (get_int(c, pt, "utilization", ap, &u, NULL) || get_int(c, pt, "score", ap, &s, NULL))
				return KP_PARSE;
			if (u < 0 || u > 100 || s < 0 || s > 10 || (k && u <= p->shape[k - 1].util))
				return bad(c, pt, "%s: shape points need increasing utilization 0..100 and score 0..10", ap);
			p->shape[p->nshape++] = (kp_shape_point){ u, s };
		}
	}
	if (p->strategy == KP_STRAT_RTCR && !p->nshape)
		return bad(c, ss ? ss : a, "%s: RequestedToCapacityRatio needs requestedToCapacityRatio.shape", ap);
	for (int g = 0; g < 2; g++) {
		const kp_ynode *l = kp_ymap_get(a, g ? "ignoredResourceGroups" : "ignoredResources");
		if (!l)
			continue;
		if (l->type != KP_Y_SEQ || l->n > KP_MAX_RES_WEIGHTS)
			return bad(c, l, "%s: expected a list of at most %d names", ap, KP_MAX_RES_WEIGHTS);
		for (size_t k = 0; k < l->n; k++) {
			if (l->u.items[k]->type != KP_Y_SCALAR)
				return bad(c, l->u.items[k], "%s: expected a name", ap);
			if (g)
				snprintf(p->ignored_groups[p->nignored_groups++], 128, "%s", l->u.items[k]->u.str);
			else
				snprintf(p->ignored[p->nignored++], 128, "%s", l->u.items[k]->u.str);
		}
	}
	return KP_OK;
}

static int read_args(pctx *c, kp_profile *p, const kp_ynode *pc, const char *path)
{
	if (!pc)
		return KP_OK;
	if (pc->type != KP_Y_SEQ)
		return bad(c, pc, "%s: expected a list", path);
	for (size_t i = 0; i < pc->n; i++) {
		const kp_ynode *e = pc->u.items[i];
		static const char *const keys[] = { "name", "args", NULL };
		char ep[300];
		snprintf(ep, sizeof ep, "%s[%zu]", path, i);
		if (only_keys(c, e, ep, keys))
			return KP_PARSE;
		const kp_ynode *nm = kp_ymap_get(e, "name"), *a = kp_ymap_get(e, "args");
		if (!nm || nm->type != KP_Y_SCALAR)
			return bad(c, e, "%s.name: required", ep);
		const char *name = nm->u.str;
		/* kube refuses a plugin configured twice; kplan's per-plugin lists
		 * (ignoredResources, ...) are sized for one entry */
		for (size_t j = 0; j < i; j++) {
			const kp_ynode *prev = kp_ymap_get(pc->u.items[j], "name");
			if (!strcmp(prev->u.str, name))
				return bad(c, nm, "%s.name: duplicate pluginConfig entry for '%s'", ep, name);
		}
		char ap[400];
		snprintf(ap, sizeof ap, "%s.args (%s)", ep, name);
		if (a && a->type != KP_Y_MAP)
			return bad(c, a, "%s: expected a mapping", ap);
		if (!strcmp(name, "KplanSQLExtenders")) {
			if (read_extenders(c, p, a, ap))
				return KP_PARSE;
			continue;
		}
		int idx = plugin_index(name);
		if (idx == -1) {
			snprintf(c->why, sizeof c->why, "configures plugin '%s' kplan cannot run", name);
			return bad(c, nm, "%s: plugin '%s' is not an in-tree kube-scheduler plugin; kplan cannot run it", ep, name);
		}
		if (!strcmp(name, "NodeResourcesFit")) {
			if (read_fit_args(c, p, a, ap))
				return KP_PARSE;
		} else if (!strcmp(name, "NodeResourcesBalancedAllocation")) {
			static const char *const k[] = { "apiVersion", "kind", "resources", NULL };
			if (only_keys(c, a, ap, k) || read_res_weights(c, kp_ymap_get(a, "resources"), ap, p->bal_res, &p->nbal_res))
				return KP_PARSE;
		} else if (!strcmp(name, "InterPodAffinity")) {
			static const char *const k[] = { "apiVersion", "kind", "hardPodAffinityWeight",
							 "ignorePreferredTermsOfExistingPods", NULL };
			int has;
			if (only_keys(c, a, ap, k) ||
			    get_int(c, a, "hardPodAffinityWeight", ap, &p->hard_pod_affinity_weight, &has) ||
			    get_bool(c, a, "ignorePreferredTermsOfExistingPods", ap, &p->ignore_preferred_existing))
				return KP_PARSE;
			if (p->hard_pod_affinity_weight < 0 || p->hard_pod_affinity_weight > 100)
				return bad(c, a, "%s.hardPodAffinityWeight: must be in 0..100", ap);
		} else if (!strcmp(name, "PodTopologySpread")) {
			static const char *const k[] = { "apiVersion", "kind", "defaultConstraints", "defaultingType", NULL };
			if (only_keys(c, a, ap, k))
				return KP_PARSE;
			const kp_ynode *dt = kp_ymap_get(a, "defaultingType"), *dc = kp_ymap_get(a, "defaultConstraints");
			if (dt && (dt->type != KP_Y_SCALAR || (strcmp(dt->u.str, "System") && strcmp(dt->u.str, "List"))))
				return bad(c, dt, "%s.defaultingType: must be System or List", ap);
			p->spread_system_defaults = !dt || !strcmp(dt->u.str, "System");
			if (dc && p->spread_system_defaults)
				return bad(c, dc, "%s: defaultConstraints need defaultingType: List", ap);
			p->ndefault_spread = 0;
			if (dc) {
				if (dc->type != KP_Y_SEQ || dc->n > KP_MAX_DEFAULT_SPREAD)
					return bad(c, dc, "%s.defaultConstraints: a list of at most %d", ap, KP_MAX_DEFAULT_SPREAD);
				for (size_t k2 = 0; k2 < dc->n; k2++) {
					static const char *const ck[] = { "maxSkew", "topologyKey", "whenUnsatisfiable", NULL };
					const kp_ynode *e2 = dc->u.items[k2];
					if (only_keys(c, e2, ap, ck))
						return KP_PARSE;
					kp_default_spread *d = &p->default_spread[p->ndefault_spread++];
					const kp_ynode *tk = kp_ymap_get(e2, "topologyKey"), *wu = kp_ymap_get(e2, "whenUnsatisfiable");
					if (get_int(c, e2, "maxSkew", ap, &d->max_skew, NULL) || d->max_skew < 1 || !tk ||
					    tk->type != KP_Y_SCALAR || !wu || wu->type != KP_Y_SCALAR ||
					    (strcmp(wu->u.str, "DoNotSchedule") && strcmp(wu->u.str, "ScheduleAnyway")))
						return bad(c, e2, "%s.defaultConstraints[%zu]: needs maxSkew >= 1, topologyKey and "
							   "whenUnsatisfiable DoNotSchedule|ScheduleAnyway", ap, k2);
					snprintf(d->topology_key, sizeof d->topology_key, "%s", tk->u.str);
					d->hard = !strcmp(wu->u.str, "DoNotSchedule");
				}
			}
		} else if (!strcmp(name, "DefaultPreemption")) {
			static const char *const k[] = { "apiVersion", "kind", "minCandidateNodesPercentage",
							 "minCandidateNodesAbsolute", NULL };
			if (only_keys(c, a, ap, k) ||
			    get_int(c, a, "minCandidateNodesPercentage", ap, &p->min_candidate_pct, NULL) ||
			    get_int(c, a, "minCandidateNodesAbsolute", ap, &p->min_candidate_abs, NULL))
				return KP_PARSE;
			if (p->min_candidate_pct < 0 || p->min_candidate_pct > 100 || p->min_candidate_abs < 0)
				return bad(c, a, "%s: minCandidateNodesPercentage must be 0..100, minCandidateNodesAbsolute >= 0", ap);
		} else if (!strcmp(name, "NodeAffinity")) {
			static const char *const k[] = { "apiVersion", "kind", "addedAffinity", NULL };
			if (only_keys(c, a, ap, k))
				return KP_PARSE;
			const kp_ynode *aa = kp_ymap_get(a, "addedAffinity");
			if (aa) {
				kp_sb sb;
				kp_sb_init(&sb);
				kp_ynode_to_json(aa, &sb);
				if (!kp_sb_ok(&sb)) {
					kp_sb_release(&sb);
					return kp_err_set(c->err, KP_NOMEM, "out of memory");
				}
				kp_free(p->added_affinity_json);
				p->added_affinity_json = sb.buf;
			}
		} else {
			/* plugins without args kplan knows: accept an empty args */
			static const char *const k[] = { "apiVersion", "kind", NULL };
			if (only_keys(c, a, ap, k))
				return KP_PARSE;
		}
	}
	return KP_OK;
}

/* The document's top level: kind, apiVersion, its fields, extenders,
 * percentageOfNodesToScore (*pct, -1 unset) and the profiles list (*profs,
 * NULL: the one default profile). */
static int read_top(pctx *c, const kp_ynode *doc, int64_t *pct, const kp_ynode **profs)
{
	*pct = -1;
	*profs = NULL;
	if (!doc || doc->type != KP_Y_MAP)
		return bad(c, doc, "not a KubeSchedulerConfiguration (expected a mapping)");
	const kp_ynode *kind = kp_ymap_get(doc, "kind"), *api = kp_ymap_get(doc, "apiVersion");
	if (!kind || kind->type != KP_Y_SCALAR || strcmp(kind->u.str, "KubeSchedulerConfiguration"))
		return bad(c, kind ? kind : doc, "not a KubeSchedulerConfiguration (kind is '%s')",
			   kind && kind->type == KP_Y_SCALAR ? kind->u.str : "");
	if (!api || api->type != KP_Y_SCALAR ||
	    (strcmp(api->u.str, "kubescheduler.config.k8s.io/v1") && strcmp(api->u.str, "kubescheduler.config.k8s.io/v1beta3")))
		return bad(c, api ? api : doc, "apiVersion '%s' is not supported (kplan reads kubescheduler.config.k8s.io/v1 "
			   "and v1beta3)", api && api->type == KP_Y_SCALAR ? api->u.str : "");
	static const char *const top[] = { "apiVersion", "kind", "profiles", "percentageOfNodesToScore", "parallelism",
					   "leaderElection", "clientConnection", "healthzBindAddress", "metricsBindAddress",
					   "enableProfiling", "enableContentionProfiling", "podInitialBackoffSeconds",
					   "podMaxBackoffSeconds", "delayCacheUntilActive", "extenders", "featureGates", NULL };
	if (only_keys(c, doc, "KubeSchedulerConfiguration", top))
		return KP_PARSE;
	/* HTTP extenders: kube's are the configuration's, every profile calls them */
	if (kp_hexts_parse(kp_ymap_get(doc, "extenders"), c->source, &c->hext, c->why, sizeof c->why, c->err))
		return KP_PARSE;
	int has_pct;
	if (get_int(c, doc, "percentageOfNodesToScore", "KubeSchedulerConfiguration", pct, &has_pct))
		return KP_PARSE;
	if (has_pct && (*pct < 0 || *pct > 100))
		return bad(c, kp_ymap_get(doc, "percentageOfNodesToScore"), "percentageOfNodesToScore: must be in 0..100");
	if (!has_pct)
		*pct = -1;
	const kp_ynode *pl = kp_ymap_get(doc, "profiles");
	if (pl && pl->type != KP_Y_SEQ)
		return bad(c, pl, "profiles: expected a list");
	/* kube has no limit; one profile per scheduler name, and 256 is far
	 * beyond any real configuration (each reserves ~28 KB) */
	if (pl && pl->n > KP_MAX_PROFILES)
		return bad(c, pl, "profiles: %zu profiles, more than kplan reads (%d)", pl->n, KP_MAX_PROFILES);
	*profs = pl && pl->n ? pl : NULL;
	return KP_OK;
}

/* kube's buildExtenders: the managedResources marked ignoredByScheduler
 * replace NodeResourcesFitArgs.ignoredResources of every profile */
static void ignored_by_extenders(kp_profile *p)
{
	int n = 0;
	for (int i = 0; p->hext && i < p->hext->n; i++)
		for (int m = 0; m < p->hext->v[i].nmanaged; m++)
			if (p->hext->v[i].managed[m].ignored_by_scheduler && n < KP_MAX_RES_WEIGHTS)
				snprintf(p->ignored[n++], sizeof p->ignored[0], "%s", p->hext->v[i].managed[m].name);
	if (n)
		p->nignored = n;
}

/* profiles[i] (e; NULL: the default profile of a document without profiles) into p */
static int read_profile(pctx *c, kp_profile *p, const kp_ynode *e, int i, int64_t pct)
{
	kp_profile_default(p, c->kube);
	/* kube: 0 (and unset) = adaptive; kplan scores every node unless a value is set */
	p->pct_nodes_to_score = (int)pct;
	if (!e) {
		p->hext = kp_hexts_ref(c->hext);
		ignored_by_extenders(p);
		return KP_OK;
	}
	char path[64];
	snprintf(path, sizeof path, "profiles[%d]", i);
	static const char *const pk[] = { "schedulerName", "plugins", "pluginConfig", "percentageOfNodesToScore", NULL };
	if (only_keys(c, e, path, pk))
		return KP_PARSE;
	const kp_ynode *sn = kp_ymap_get(e, "schedulerName");
	if (sn && sn->type == KP_Y_SCALAR)
		snprintf(p->scheduler_name, sizeof p->scheduler_name, "%s", sn->u.str);
	int64_t ppct;
	int has_ppct;
	if (get_int(c, e, "percentageOfNodesToScore", path, &ppct, &has_ppct))
		return KP_PARSE;
	if (has_ppct) {
		if (ppct < 0 || ppct > 100)
			return bad(c, kp_ymap_get(e, "percentageOfNodesToScore"), "%s.percentageOfNodesToScore: must be in 0..100", path);
		p->pct_nodes_to_score = (int)ppct;
	}
	char pp[96];
	snprintf(pp, sizeof pp, "%s.plugins", path);
	if (read_plugin_set(c, p, kp_ymap_get(e, "plugins"), pp))
		return KP_PARSE;
	snprintf(pp, sizeof pp, "%s.pluginConfig", path);
	if (read_args(c, p, kp_ymap_get(e, "pluginConfig"), pp))
		return KP_PARSE;
	p->hext = kp_hexts_ref(c->hext);
	ignored_by_extenders(p);
	for (int k = 0; k < p->next; k++) {
		if (p->ext[k].score)
			p->score[KP_P_SQL_EXTENDER] = 1;
		else
			p->filter[KP_P_SQL_EXTENDER] = 1;
	}
	p->weight[KP_P_SQL_EXTENDER] = 1;
	return KP_OK;
}

/* the schedulerName of profiles[i], as read_profile takes it */
static const char *profile_name(const kp_ynode *e)
{
	const kp_ynode *sn = e && e->type == KP_Y_MAP ? kp_ymap_get(e, "schedulerName") : NULL;
	return sn && sn->type == KP_Y_SCALAR ? sn->u.str : "default-scheduler";
}

static void release_profile(kp_profile *p)
{
	kp_free(p->added_affinity_json);
	p->added_affinity_json = NULL;
	for (int k = 0; k < p->next; k++)
		kp_free(p->ext[k].sql);
	p->next = 0;
	kp_hexts_unref(p->hext);
	p->hext = NULL;
}

/* the text's first document, or an error; the tree lives in a */
static int parse_text(pctx *c, const char *text, size_t len, kp_arena *a, kp_ynode **doc)
{
	int rc = kp_yaml_parse_one(text, len, c->source, a, doc, c->err);
	if (!rc && (!*doc || (*doc)->type != KP_Y_MAP))
		rc = bad(c, *doc, "not a KubeSchedulerConfiguration (expected a mapping)");
	return rc;
}

/* cfg emptied but for its base directory (copied to base, for c's paths) and source */
/* keeps the base directory and the kube version set before parsing */
static void reset_config(kp_config *cfg, const char *source, char *base, size_t nbase)
{
	snprintf(base, nbase, "%s", cfg->base_dir);
	kp_kube kube;
	if (cfg->kube_set)
		kube = cfg->kube;
	else
		kp_kube_init(&kube, KP_KUBE_NEWEST);
	memset(cfg, 0, sizeof *cfg);
	cfg->kube = kube;
	cfg->kube_set = 1;
	snprintf(cfg->base_dir, sizeof cfg->base_dir, "%s", base);
	snprintf(cfg->source, sizeof cfg->source, "%s", source);
}

int kp_config_parse(const char *text, size_t len, const char *source, kp_config *cfg, kp_err *err)
{
	char base[1024];
	reset_config(cfg, source, base, sizeof base);
	pctx c = { source, err, base, "", NULL, &cfg->kube };
	kp_arena a;
	kp_arena_init(&a, 16 * 1024);
	kp_ynode *doc = NULL;
	const kp_ynode *profs = NULL;
	int64_t pct = -1;
	int rc = parse_text(&c, text, len, &a, &doc);
	if (!rc)
		rc = read_top(&c, doc, &pct, &profs);
	int n = profs ? (int)profs->n : 1;
	if (!rc && !(cfg->profiles = kp_calloc((size_t)n, sizeof *cfg->profiles)))
		rc = kp_err_set(err, KP_NOMEM, "out of memory");
	for (int i = 0; !rc && i < n; i++) {
		kp_profile *p = &cfg->profiles[cfg->nprofiles++];
		const kp_ynode *e = profs ? profs->u.items[i] : NULL;
		if ((rc = read_profile(&c, p, e, i, pct)))
			break;
		for (int j = 0; j < i; j++)
			if (!strcmp(cfg->profiles[j].scheduler_name, p->scheduler_name)) {
				const kp_ynode *sn = kp_ymap_get(e, "schedulerName");
				rc = bad(&c, sn ? sn : e, "profiles[%d]: duplicate schedulerName '%s'", i, p->scheduler_name);
				break;
			}
	}
	kp_arena_release(&a);
	kp_hexts_unref(c.hext);
	if (rc)
		kp_config_release(cfg);
	return rc;
}

/* cfg->skipped gets `name`, with why (or the error) and where */
static int skip_profile(kp_config *cfg, const char *name, const char *why, const kp_err *e)
{
	kp_sb sb;
	kp_sb_init(&sb);
	kp_sb_printf(&sb, "profile '%s' ", name);
	if (why[0])
		kp_sb_adds(&sb, why);
	else
		kp_sb_printf(&sb, "is invalid: %s", e->msg[0] ? e->msg : "unknown error");
	if (e->file[0]) {
		kp_sb_printf(&sb, " (%s", e->file);
		if (e->line)
			kp_sb_printf(&sb, ":%u:%u", e->line, e->col);
		kp_sb_addc(&sb, ')');
	}
	kp_profile_skip *v = kp_realloc(cfg->skipped, (size_t)(cfg->nskipped + 1) * sizeof *v);
	if (v)
		cfg->skipped = v;
	if (!kp_sb_ok(&sb) || !v) {
		kp_sb_release(&sb);
		return KP_NOMEM;
	}
	snprintf(v[cfg->nskipped].scheduler_name, sizeof v->scheduler_name, "%s", name);
	v[cfg->nskipped++].why = sb.buf;
	return KP_OK;
}

int kp_config_parse_imported(const char *text, size_t len, const char *source, kp_config *cfg, kp_err *err)
{
	char base[1024];
	reset_config(cfg, source, base, sizeof base);
	kp_err e = { 0 };
	pctx c = { source, &e, base, "", NULL, &cfg->kube };
	kp_arena a;
	kp_arena_init(&a, 16 * 1024);
	kp_ynode *doc = NULL;
	const kp_ynode *profs = NULL;
	int64_t pct = -1;
	int rc = parse_text(&c, text, len, &a, &doc);
	if (rc && !e.line) {
		/* not even YAML (the database was edited): nothing to name profiles by */
		*err = e;
		kp_arena_release(&a);
		kp_hexts_unref(c.hext);
		return rc;
	}
	if (!rc)
		rc = read_top(&c, doc, &pct, &profs);
	if (rc && doc && doc->type == KP_Y_MAP) {
		const kp_ynode *pl = kp_ymap_get(doc, "profiles");
		profs = pl && pl->type == KP_Y_SEQ && pl->n && pl->n <= KP_MAX_PROFILES ? pl : NULL;
	}
	int n = profs ? (int)profs->n : 1;
	/* kube refuses a document naming a scheduler twice: all of it */
	for (int i = 0; !rc && i < n; i++)
		for (int j = 0; !rc && j < i; j++)
			if (!strcmp(profile_name(profs->u.items[i]), profile_name(profs->u.items[j]))) {
				const kp_ynode *sn = kp_ymap_get(profs->u.items[i], "schedulerName");
				rc = bad(&c, sn ? sn : profs->u.items[i], "profiles[%d]: duplicate schedulerName '%s'", i,
					 profile_name(profs->u.items[i]));
			}
	int fail = KP_OK;
	if (!(cfg->profiles = kp_calloc((size_t)n, sizeof *cfg->profiles)))
		fail = KP_NOMEM;
	kp_err doc_err = e;
	char doc_why[sizeof c.why];
	snprintf(doc_why, sizeof doc_why, "%s", c.why);
	for (int i = 0; !fail && i < n; i++) {
		const kp_ynode *item = profs ? profs->u.items[i] : NULL;
		const char *name = profile_name(item);
		if (rc) {   /* the document's error: every profile of it */
			fail = skip_profile(cfg, name, doc_why, &doc_err);
			continue;
		}
		kp_err_clear(&e);
		c.why[0] = 0;
		kp_profile *p = &cfg->profiles[cfg->nprofiles];
		if (read_profile(&c, p, item, i, pct) == KP_OK) {
			cfg->nprofiles++;
			continue;
		}
		release_profile(p);
		fail = e.code == KP_NOMEM ? KP_NOMEM : skip_profile(cfg, name, c.why, &e);
	}
	kp_arena_release(&a);
	kp_hexts_unref(c.hext);
	if (fail) {
		kp_config_release(cfg);
		return kp_err_set(err, KP_NOMEM, "out of memory");
	}
	return KP_OK;
}

static void json_name(kp_sb *sb, const char *k, const char *v)
{
	kp_sb_add_json_str(sb, k);
	kp_sb_addc(sb, ':');
	kp_sb_add_json_str(sb, v);
}

/* the plugins on at one extension point, in registry order, comma-separated:
 * names ("A","B") or, with weight, members of an object ("A":3,"B":1) */
static void json_plugins(kp_sb *sb, const uint8_t *on, const int64_t *weight)
{
	int first = 1;
	for (int k = 0; k < KP_P_COUNT; k++) {
		if (!on[k])
			continue;
		kp_sb_adds(sb, first ? "" : ",");
		kp_sb_add_json_str(sb, kp_plugin_names[k]);
		if (weight)
			kp_sb_printf(sb, ":%lld", (long long)weight[k]);
		first = 0;
	}
}

int kp_config_to_json(kp_config *cfg)
{
	kp_sb sb;
	kp_sb_init(&sb);
	kp_sb_adds(&sb, "{\"source\":");
	kp_sb_add_json_str(&sb, cfg->source);
	kp_sb_adds(&sb, ",\"profiles\":[");
	static const char *const strat[] = { "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio" };
	for (int i = 0; i < cfg->nprofiles; i++) {
		const kp_profile *p = &cfg->profiles[i];
		kp_sb_adds(&sb, i ? ",{" : "{");
		json_name(&sb, "schedulerName", p->scheduler_name);
		kp_sb_adds(&sb, ",\"filter\":[");
		json_plugins(&sb, p->filter, NULL);
		kp_sb_adds(&sb, "],\"score\":{");
		json_plugins(&sb, p->score, p->weight);
		kp_sb_adds(&sb, "},\"postFilter\":[");
		json_plugins(&sb, p->post_filter, NULL);
		kp_sb_adds(&sb, "]");
		kp_sb_printf(&sb, ",\"scoringStrategy\":{\"type\":\"%s\",\"resources\":[", strat[p->strategy]);
		for (int k = 0; k < p->nfit_res; k++) {
			kp_sb_adds(&sb, k ? ",{" : "{");
			json_name(&sb, "name", p->fit_res[k].name);
			kp_sb_printf(&sb, ",\"weight\":%lld}", (long long)p->fit_res[k].weight);
		}
		kp_sb_adds(&sb, "]");
		if (p->nshape) {
			kp_sb_adds(&sb, ",\"shape\":[");
			for (int k = 0; k < p->nshape; k++)
				kp_sb_printf(&sb, "%s{\"utilization\":%lld,\"score\":%lld}", k ? "," : "",
					     (long long)p->shape[k].util, (long long)p->shape[k].score);
			kp_sb_adds(&sb, "]");
		}
		kp_sb_adds(&sb, "}");
		if (p->bal_1_20)
			kp_sb_adds(&sb, ",\"balancedAllocationFormula\":\"kube-1.20\"");
		if (p->tie_rank)
			kp_sb_adds(&sb, ",\"tieBreak\":\"node-rank\"");
		kp_sb_printf(&sb, ",\"hardPodAffinityWeight\":%lld,\"spreadDefaulting\":\"%s\"",
			     (long long)p->hard_pod_affinity_weight, p->spread_system_defaults ? "System" : "List");
		if (p->pct_nodes_to_score >= 0)
			kp_sb_printf(&sb, ",\"percentageOfNodesToScore\":%d", p->pct_nodes_to_score);
		if (p->added_affinity_json)
			kp_sb_printf(&sb, ",\"addedAffinity\":%s", p->added_affinity_json);
		if (p->hext) {
			kp_sb_adds(&sb, ",\"extenders\":");
			kp_hexts_to_json(p->hext, &sb);
		}
		if (p->next) {
			kp_sb_adds(&sb, ",\"sqlExtenders\":[");
			for (int k = 0; k < p->next; k++) {
				kp_sb_adds(&sb, k ? ",{" : "{");
				json_name(&sb, "origin", p->ext[k].origin);
				kp_sb_printf(&sb, ",\"score\":%s,\"weight\":%lld,", p->ext[k].score ? "true" : "false",
					     (long long)p->ext[k].weight);
				json_name(&sb, "sql", p->ext[k].sql);
				kp_sb_addc(&sb, '}');
			}
			kp_sb_addc(&sb, ']');
		}
		kp_sb_addc(&sb, '}');
	}
	kp_sb_adds(&sb, "]");
	/* imported profiles kplan cannot run: their pods were not planned */
	for (int i = 0; i < cfg->nskipped; i++) {
		kp_sb_adds(&sb, i ? ",{" : ",\"notRun\":[{");
		json_name(&sb, "schedulerName", cfg->skipped[i].scheduler_name);
		kp_sb_addc(&sb, ',');
		json_name(&sb, "reason", cfg->skipped[i].why);
		kp_sb_adds(&sb, i + 1 < cfg->nskipped ? "}" : "}]");
	}
	kp_sb_addc(&sb, '}');
	if (!kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return KP_NOMEM;
	}
	kp_free(cfg->json);
	cfg->json = sb.buf;
	return KP_OK;
}
