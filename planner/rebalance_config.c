/*
 * rebalance_config.c — the rebalance settings from a file: a descheduler
 * policy (kp_rebalance_load_config: descheduler/v1alpha2 DeschedulerPolicy,
 * YAML or JSON, or kplan's flat form) and the settings a run recorded
 * (kp_rebalance_load_settings: the JSON of kp_rb_settings_json, for explain's
 * replay).  Contract: every error is KP_USAGE (or KP_NOMEM / KP_INTR) with
 * the file, line and column of the offending node in err; settings already
 * given on the command line win over the file's (kp_rebalance_set).
 */
#include "rebalance_int.h"
#include "../common/read.h"
#include "../common/ydom.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- the policy file ---- */

typedef struct cfgctx {
	kp_rebalance *rb;
	const char *file;
	kp_err *err;
} cfgctx;

static int cfg_bad(cfgctx *c, const kp_ynode *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int cfg_bad(cfgctx *c, const kp_ynode *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kp_err_setv(c->err, KP_USAGE, fmt, ap);
	va_end(ap);
	kp_err_locate(c->err, c->file, n ? n->line : 0, n ? n->col : 0, NULL);
	return KP_USAGE;
}

static const char *key_str(const kp_ynode *k) { return k && k->type == KP_Y_SCALAR ? k->u.str : ""; }

static int cfg_bool(cfgctx *c, const kp_ynode *v, const char *what, int *out)
{
	if (v->type == KP_Y_SCALAR && (!strcmp(v->u.str, "true") || !strcmp(v->u.str, "false"))) {
		*out = v->u.str[0] == 't';
		return KP_OK;
	}
	return cfg_bad(c, v, "--rebalance-config: %s: expected true or false", what);
}

static int cfg_int(cfgctx *c, const kp_ynode *v, const char *what, long *out)
{
	if (v->type != KP_Y_SCALAR || !kp_rb_parse_count(v->u.str, out))
		return cfg_bad(c, v, "--rebalance-config: %s: expected a non-negative integer", what);
	return KP_OK;
}

static int cfg_strings(cfgctx *c, const kp_ynode *v, const char *what, char ***out, int *n)
{
	if (v->type != KP_Y_SEQ)
		return cfg_bad(c, v, "--rebalance-config: %s: expected a list of strings", what);
	kp_rb_free_list(*out, *n);
	*out = NULL;
	*n = 0;
	if (!v->n)
		return KP_OK;
	*out = kp_calloc(v->n, sizeof **out);
	if (!*out)
		return kp_err_set(c->err, KP_NOMEM, "out of memory");
	for (size_t i = 0; i < v->n; i++) {
		if (v->u.items[i]->type != KP_Y_SCALAR)
			return cfg_bad(c, v->u.items[i], "--rebalance-config: %s: expected a string", what);
		if (!((*out)[i] = kp_strdup(v->u.items[i]->u.str)))
			return kp_err_set(c->err, KP_NOMEM, "out of memory");
		(*n)++;
	}
	return KP_OK;
}

/* thresholds: {cpu: 20, memory: 20, pods: 20}; resources not given: 100 (descheduler) */
static int cfg_thresholds(cfgctx *c, const kp_ynode *v, const char *what, double *out)
{
	if (v->type != KP_Y_MAP)
		return cfg_bad(c, v, "--rebalance-config: %s: expected a mapping of resource to percentage", what);
	for (int r = 0; r < R_COUNT; r++)
		out[r] = 100;
	for (size_t i = 0; i < v->n; i++) {
		const kp_ynode *k = v->u.pairs[i].key, *x = v->u.pairs[i].value;
		int r = -1;
		for (int q = 0; q < R_COUNT && k->type == KP_Y_SCALAR; q++)
			if (!strcmp(k->u.str, kp_rb_rnames[q]))
				r = q;
		if (r < 0)
			return cfg_bad(c, k, "--rebalance-config: %s: resource '%s' is not supported (cpu, memory, pods)", what,
				       k->type == KP_Y_SCALAR ? k->u.str : "?");
		char *end;
		double d = x->type == KP_Y_SCALAR ? strtod(x->u.str, &end) : -1;
		if (x->type != KP_Y_SCALAR || *end || !x->u.str[0] || !(d >= 0 && d <= 100))
			return cfg_bad(c, x, "--rebalance-config: %s.%s: expected a percentage from 0 to 100", what, kp_rb_rnames[r]);
		out[r] = d;
	}
	return KP_OK;
}

static int cfg_namespaces(cfgctx *c, const kp_ynode *v)
{
	kp_rebalance *rb = c->rb;
	if (v->type != KP_Y_MAP)
		return cfg_bad(c, v, "--rebalance-config: namespaces: expected include or exclude");
	for (size_t i = 0; i < v->n; i++) {
		const char *k = key_str(v->u.pairs[i].key);
		int ex = !strcmp(k, "exclude");
		if (!ex && strcmp(k, "include"))
			return cfg_bad(c, v->u.pairs[i].key, "--rebalance-config: namespaces: unknown field '%s'", k);
		if (rb->nns && rb->ns_exclude != ex)
			return cfg_bad(c, v->u.pairs[i].key, "--rebalance-config: namespaces: include and exclude cannot be combined");
		rb->ns_exclude = ex;
		int rc = cfg_strings(c, v->u.pairs[i].value, k, &rb->ns_list, &rb->nns);
		if (rc)
			return rc;
	}
	return KP_OK;
}

/* one plugin's args */
static int cfg_args(cfgctx *c, const char *name, const kp_ynode *nm, const kp_ynode *args)
{
	kp_rebalance *rb = c->rb;
	int s = kp_rb_strategy_index(name);
	int evictor = !strcmp(name, "DefaultEvictor");
	if (s < 0 && !evictor)
		return cfg_bad(c, nm, "--rebalance-config: plugin '%s' is not supported (DefaultEvictor and the seven "
				      "strategies of `kplan plan --help`)", name);
	if (!args || kp_ynode_is_null(args))
		return KP_OK;
	if (args->type != KP_Y_MAP)
		return cfg_bad(c, args, "--rebalance-config: %s: args must be a mapping", name);
	for (size_t i = 0; i < args->n; i++) {
		const kp_ynode *kn = args->u.pairs[i].key, *v = args->u.pairs[i].value;
		const char *k = kn->type == KP_Y_SCALAR ? kn->u.str : "";
		int rc = KP_OK, known = 1;
		if (!strcmp(k, "namespaces"))
			rc = cfg_namespaces(c, v);
		else if (evictor && !strcmp(k, "evictLocalStoragePods"))
			rc = cfg_bool(c, v, k, &rb->evict_local);
		else if (evictor && !strcmp(k, "evictSystemCriticalPods"))
			rc = cfg_bool(c, v, k, &rb->evict_critical);
		else if (evictor && !strcmp(k, "ignorePvcPods"))
			rc = cfg_bool(c, v, k, &rb->ignore_pvc);
		else if (evictor && !strcmp(k, "evictBarePods"))   /* kplan's own, not descheduler's */
			rc = cfg_bool(c, v, k, &rb->evict_bare);
		else if (evictor && !strcmp(k, "nodeFit")) {
			int b;
			rc = cfg_bool(c, v, k, &b);   /* kplan always re-places with the planner */
		} else if (evictor && !strcmp(k, "priorityThreshold")) {
			const kp_ynode *val = v->type == KP_Y_MAP ? kp_ymap_get(v, "value") : NULL;
			char *end;
			if (!val || val->type != KP_Y_SCALAR || (strtoll(val->u.str, &end, 10), *end) || !val->u.str[0])
				rc = cfg_bad(c, v, "--rebalance-config: priorityThreshold: expected {value: N} (a class name is "
						   "not supported)");
			else {
				rb->has_prio = 1;
				rb->prio = strtoll(val->u.str, NULL, 10);
			}
		} else if (s == S_TAINTS && !strcmp(k, "includePreferNoSchedule"))
			rc = cfg_bool(c, v, k, &rb->taints_prefer);
		else if (s == S_TAINTS && !strcmp(k, "excludedTaints"))
			rc = cfg_strings(c, v, k, &rb->excluded_taints, &rb->nexcluded_taints);
		else if (s == S_AFFINITY && !strcmp(k, "nodeAffinityType")) {
			char **t = NULL;
			int nt = 0;
			rc = cfg_strings(c, v, k, &t, &nt);
			for (int q = 0; !rc && q < nt; q++)
				if (strcmp(t[q], "requiredDuringSchedulingIgnoredDuringExecution"))
					rc = cfg_bad(c, v, "--rebalance-config: nodeAffinityType '%s' is not supported "
							   "(requiredDuringSchedulingIgnoredDuringExecution)", t[q]);
			kp_rb_free_list(t, nt);
		} else if (s == S_SPREAD && !strcmp(k, "constraints")) {
			char **t = NULL;
			int nt = 0;
			rc = cfg_strings(c, v, k, &t, &nt);
			rb->spread_soft = 0;
			for (int q = 0; !rc && q < nt; q++) {
				if (!strcmp(t[q], "ScheduleAnyway"))
					rb->spread_soft = 1;
				else if (strcmp(t[q], "DoNotSchedule"))
					rc = cfg_bad(c, v, "--rebalance-config: constraints: '%s' (DoNotSchedule or ScheduleAnyway)", t[q]);
			}
			kp_rb_free_list(t, nt);
		} else if (s == S_DUPS && !strcmp(k, "excludeOwnerKinds"))
			rc = cfg_strings(c, v, k, &rb->dup_exclude_kinds, &rb->ndup_exclude);
		else if ((s == S_LOW || s == S_HIGH) && !strcmp(k, "thresholds")) {
			rc = cfg_thresholds(c, v, k, s == S_LOW ? rb->low_thr : rb->high_thr);
			if (s == S_LOW)
				rb->low_set |= 1;
			else
				rb->high_set = 1;
		} else if (s == S_LOW && !strcmp(k, "targetThresholds")) {
			rc = cfg_thresholds(c, v, k, rb->low_target);
			rb->low_set |= 2;
		} else if ((s == S_LOW || s == S_HIGH) && !strcmp(k, "numberOfNodes"))
			rc = cfg_int(c, v, k, s == S_LOW ? &rb->low_nodes : &rb->high_nodes);
		else if (s == S_LOW && !strcmp(k, "useDeviationThresholds")) {
			int b = 0;
			rc = cfg_bool(c, v, k, &b);
			if (!rc && b)
				rc = cfg_bad(c, v, "--rebalance-config: useDeviationThresholds: true is not supported");
		} else
			known = 0;
		if (rc)
			return rc;
		if (!known)
			return cfg_bad(c, kn, "--rebalance-config: %s: unknown argument '%s'", name, k);
	}
	return KP_OK;
}

static int cfg_limits(cfgctx *c, const kp_ynode *k, const kp_ynode *v, int *known)
{
	kp_rebalance *rb = c->rb;
	const char *name = key_str(k);
	long *dst = !strcmp(name, "maxNoOfPodsToEvictPerNode") ? &rb->max_per_node
		  : !strcmp(name, "maxNoOfPodsToEvictPerNamespace") ? &rb->max_per_ns
		  : !strcmp(name, "maxNoOfPodsToEvictTotal") ? &rb->max_moves : NULL;
	*known = dst != NULL;
	return dst ? cfg_int(c, v, name, dst) : KP_OK;
}

static int cfg_profile(cfgctx *c, const kp_ynode *p, unsigned *mask, int *mask_set)
{
	if (p->type != KP_Y_MAP)
		return cfg_bad(c, p, "--rebalance-config: a profile must be a mapping");
	for (size_t i = 0; i < p->n; i++) {
		const kp_ynode *kn = p->u.pairs[i].key, *v = p->u.pairs[i].value;
		const char *k = key_str(kn);
		if (!strcmp(k, "name"))
			continue;
		if (!strcmp(k, "pluginConfig")) {
			if (v->type != KP_Y_SEQ)
				return cfg_bad(c, v, "--rebalance-config: pluginConfig must be a list");
			for (size_t q = 0; q < v->n; q++) {
				const kp_ynode *pc = v->u.items[q], *nm = pc->type == KP_Y_MAP ? kp_ymap_get(pc, "name") : NULL;
				if (!nm || nm->type != KP_Y_SCALAR)
					return cfg_bad(c, pc, "--rebalance-config: a pluginConfig entry needs a name");
				int rc = cfg_args(c, nm->u.str, nm, kp_ymap_get(pc, "args"));
				if (rc)
					return rc;
			}
		} else if (!strcmp(k, "plugins")) {
			if (v->type != KP_Y_MAP)
				return cfg_bad(c, v, "--rebalance-config: plugins must be a mapping");
			for (size_t q = 0; q < v->n; q++) {
				const kp_ynode *ext = v->u.pairs[q].value;
				const kp_ynode *en = ext->type == KP_Y_MAP ? kp_ymap_get(ext, "enabled") : NULL;
				for (size_t e = 0; en && en->type == KP_Y_SEQ && e < en->n; e++) {
					const kp_ynode *x = en->u.items[e];
					int s = x->type == KP_Y_SCALAR ? kp_rb_strategy_index(x->u.str) : -1;
					if (s < 0 && !(x->type == KP_Y_SCALAR && !strcmp(x->u.str, "DefaultEvictor")))
						return cfg_bad(c, x, "--rebalance-config: plugin '%s' is not supported",
							       x->type == KP_Y_SCALAR ? x->u.str : "?");
					if (s >= 0) {
						*mask |= 1u << s;
						*mask_set = 1;
					}
				}
			}
		} else {
			return cfg_bad(c, kn, "--rebalance-config: profile: unknown field '%s'", k);
		}
	}
	return KP_OK;
}

/* a policy file that cannot be read is a usage error: "--rebalance-config: " before err's message */
static int usage_prefix(kp_err *err)
{
	static const char pre[] = "--rebalance-config: ";
	size_t len = strlen(err->msg);
	if (len > sizeof err->msg - sizeof pre)
		len = sizeof err->msg - sizeof pre;
	memmove(err->msg + sizeof pre - 1, err->msg, len);
	memcpy(err->msg, pre, sizeof pre - 1);
	err->msg[sizeof pre - 1 + len] = 0;
	return err->code = KP_USAGE;
}

int kp_rebalance_load_config(kp_rebalance *rb, const char *file, kp_err *err)
{
	FILE *f = fopen(file, "rb");
	if (!f)
		return kp_rb_usage(err, "--rebalance-config: cannot open '%s': %s", file, strerror(errno));
	kp_read_opts ro = { .name = file, .kind = "YAML or JSON", .hint = "the most kplan reads for a policy" };
	kp_sb sb;
	kp_sb_init(&sb);
	int rc = kp_read_stream(f, &ro, &sb, err);
	fclose(f);
	if (rc) {
		kp_sb_release(&sb);
		return rc == KP_INTR || rc == KP_NOMEM ? rc : usage_prefix(err);
	}
	kp_arena a;
	kp_arena_init(&a, 4096);
	kp_ynode *doc = NULL;
	cfgctx c = { rb, file, err };
	rc = kp_yaml_parse_one(kp_sb_str(&sb), sb.len, file, &a, &doc, err);
	if (rc) {
		rc = rc == KP_INTR || rc == KP_NOMEM ? rc : usage_prefix(err);
	} else if (!doc || doc->type != KP_Y_MAP) {
		rc = cfg_bad(&c, doc, "--rebalance-config: expected a DeschedulerPolicy mapping");
	}
	unsigned mask = 0;
	int mask_set = 0;
	for (size_t i = 0; !rc && i < doc->n; i++) {
		const kp_ynode *kn = doc->u.pairs[i].key, *v = doc->u.pairs[i].value;
		const char *k = kn->type == KP_Y_SCALAR ? kn->u.str : "";
		int known = 0;
		if (!strcmp(k, "apiVersion")) {
			if (v->type != KP_Y_SCALAR || strcmp(v->u.str, "descheduler/v1alpha2"))
				rc = cfg_bad(&c, v, "--rebalance-config: apiVersion: only descheduler/v1alpha2 (or none)");
		} else if (!strcmp(k, "kind")) {
			if (v->type != KP_Y_SCALAR || strcmp(v->u.str, "DeschedulerPolicy"))
				rc = cfg_bad(&c, v, "--rebalance-config: kind: expected DeschedulerPolicy");
		} else if (!strcmp(k, "profiles")) {
			if (v->type != KP_Y_SEQ)
				rc = cfg_bad(&c, v, "--rebalance-config: profiles must be a list");
			for (size_t q = 0; !rc && q < v->n; q++)
				rc = cfg_profile(&c, v->u.items[q], &mask, &mask_set);
		} else if (!strcmp(k, "strategies")) {   /* kplan's flat form */
			char **t = NULL;
			int nt = 0;
			rc = cfg_strings(&c, v, k, &t, &nt);
			for (int q = 0; !rc && q < nt; q++) {
				int s = kp_rb_strategy_index(t[q]);
				if (s < 0)
					rc = cfg_bad(&c, v, "--rebalance-config: unknown strategy '%s'", t[q]);
				mask |= 1u << (s < 0 ? 0 : s);
			}
			mask_set = 1;
			kp_rb_free_list(t, nt);
		} else if (!(rc = cfg_limits(&c, kn, v, &known)) && !known) {
			if (kp_rb_strategy_index(k) >= 0 || !strcmp(k, "DefaultEvictor"))
				rc = cfg_args(&c, k, kn, v);
			else
				rc = cfg_bad(&c, kn, "--rebalance-config: unknown field '%s'", k);
		}
	}
	if (!rc && mask_set && !rb->strategies_set) {
		rb->strategies = mask;
		rb->strategies_set = 1;
	}
	kp_arena_release(&a);
	kp_sb_release(&sb);
	return rc;
}

/* ---- the recorded settings (explain's replay) ---- */

/* One key of the recorded settings (kp_rb_settings_json): *known 0 when not one. */
static int settings_key(cfgctx *c, const kp_ynode *kn, const kp_ynode *v, int *known)
{
	kp_rebalance *rb = c->rb;
	const char *k = key_str(kn);
	long *lim = !strcmp(k, "maxMoves") ? &rb->max_moves : !strcmp(k, "maxMovesPerNode") ? &rb->max_per_node
		    : !strcmp(k, "maxMovesPerNamespace") ? &rb->max_per_ns : NULL;
	*known = 1;
	if (lim) {   /* -1: no limit */
		if (v->type == KP_Y_SCALAR && !strcmp(v->u.str, "-1")) {
			*lim = -1;
			return KP_OK;
		}
		return cfg_int(c, v, k, lim);
	}
	if (!strcmp(k, "priorityThreshold")) {
		char *end;
		if (v->type != KP_Y_SCALAR || !v->u.str[0] || (strtoll(v->u.str, &end, 10), *end))
			return cfg_bad(c, v, "priorityThreshold: expected an integer");
		rb->has_prio = 1;
		rb->prio = strtoll(v->u.str, NULL, 10);
		return KP_OK;
	}
	if (!strcmp(k, "namespaces"))
		return cfg_namespaces(c, v);
	int *flag = !strcmp(k, "evictLocalStoragePods") ? &rb->evict_local
		    : !strcmp(k, "evictSystemCriticalPods") ? &rb->evict_critical
		    : !strcmp(k, "ignorePvcPods") ? &rb->ignore_pvc : !strcmp(k, "evictBarePods") ? &rb->evict_bare : NULL;
	if (flag)
		return cfg_bool(c, v, k, flag);
	*known = 0;
	return KP_OK;
}

int kp_rebalance_load_settings(kp_rebalance *rb, const char *json, kp_err *err)
{
	kp_arena a;
	kp_arena_init(&a, 4096);
	kp_ynode *doc = NULL;
	cfgctx c = { rb, "the recorded rebalance settings", err };
	int rc = kp_yaml_parse_one(json, strlen(json), c.file, &a, &doc, err);
	if (!rc && (!doc || doc->type != KP_Y_MAP))
		rc = cfg_bad(&c, doc, "the recorded rebalance settings are not a mapping");
	for (size_t i = 0; !rc && i < doc->n; i++) {
		const kp_ynode *kn = doc->u.pairs[i].key, *v = doc->u.pairs[i].value;
		const char *k = key_str(kn);
		int known = 0;
		if (!strcmp(k, "strategies")) {
			char **t = NULL;
			int nt = 0;
			unsigned mask = 0;
			rc = cfg_strings(&c, v, k, &t, &nt);
			for (int q = 0; !rc && q < nt; q++) {
				int st = kp_rb_strategy_index(t[q]);
				if (st < 0)
					rc = cfg_bad(&c, v, "unknown strategy '%s'", t[q]);
				mask |= 1u << (st < 0 ? 0 : st);
			}
			kp_rb_free_list(t, nt);
			rb->strategies = mask;
			rb->strategies_set = 1;
		} else if (!(rc = settings_key(&c, kn, v, &known)) && !known) {
			rc = cfg_args(&c, k, kn, v);   /* a strategy's arguments */
		}
	}
	kp_arena_release(&a);
	return rc ? rc : kp_rebalance_finish(rb, err);
}

