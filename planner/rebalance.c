/*
 * rebalance.c — `kplan plan --mode rebalance` (rebalance.h).
 *
 * The strategies of kubernetes-sigs/descheduler, run in this order on the
 * snapshot the pending pods were planned into:
 *   RemovePodsViolatingNodeTaints, RemovePodsViolatingNodeAffinity,
 *   RemovePodsViolatingInterPodAntiAffinity, RemoveDuplicates,
 *   RemovePodsViolatingTopologySpreadConstraint, LowNodeUtilization,
 *   HighNodeUtilization.
 * Each proposes evictions; every eviction is simulated at once: the pod
 * leaves its node (its requests released) and the real planner places it
 * (host->place) on a node the strategy allows — never the node it left.  No
 * home: the eviction is not proposed.  A pod moves at most once per run.
 *
 * Evictable (descheduler's DefaultEvictor defaults): a pod with a controller
 * owner (or none, with kplan's own evictBarePods / --evict-bare-pods: a trace
 * such as openb has only bare pods) that is not a DaemonSet, not a
 * static/mirror pod (owned by a Node),
 * not terminating, not system-critical (priority >= 2000000000, unless
 * evictSystemCriticalPods), without local storage (the importer records no
 * emptyDir/hostPath volumes: a pod that requests ephemeral-storage is taken
 * to use local storage, unless evictLocalStoragePods), with PVC volumes only
 * if ignorePvcPods is false (the default), priority below
 * --priority-threshold, namespace allowed, and every PodDisruptionBudget it
 * counts against allowing at least one disruption.
 *
 * Waves: the moves in simulation order, cut into consecutive waves; a new
 * wave starts when the move would take a budget below 0 within the wave
 * (each wave's evictions per PDB <= its disruptionsAllowed: the evicted pods
 * are running again on their new nodes before the next wave), or when the
 * move lands on a node a move of the same wave leaves (its room must be
 * free first).  Limits (--max-moves*) count over the whole run.
 */
#include "rebalance.h"
#include "preemption.h"
#include "../common/db.h"
#include "../common/read.h"
#include "../common/ydom.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { S_TAINTS, S_AFFINITY, S_ANTI, S_DUPS, S_SPREAD, S_LOW, S_HIGH, S_COUNT };
static const char *const snames[S_COUNT] = {
	"RemovePodsViolatingNodeTaints", "RemovePodsViolatingNodeAffinity", "RemovePodsViolatingInterPodAntiAffinity",
	"RemoveDuplicates", "RemovePodsViolatingTopologySpreadConstraint", "LowNodeUtilization", "HighNodeUtilization",
};
/* default set: everything but HighNodeUtilization (it packs; LowNodeUtilization spreads) */
#define DEFAULT_STRATEGIES ((1u << S_COUNT) - 1 - (1u << S_HIGH))

enum { R_CPU, R_MEM, R_PODS, R_COUNT };
static const char *const rnames[R_COUNT] = { "cpu", "memory", "pods" };

#define SYSTEM_CRITICAL 2000000000LL

typedef struct move {
	int32_t pod, from, to;
	int strategy, wave;
	double gain, cost;
	char *detail;
} move;

struct kp_rebalance {
	unsigned strategies;
	int strategies_set;          /* from --strategies or the policy's plugins */
	long max_moves, max_per_node, max_per_ns;   /* -1: no limit */
	int has_prio;
	int64_t prio;
	char **ns_list;
	int nns, ns_exclude;         /* ns_exclude: ns_list is excluded, else included (nns > 0) */
	/* DefaultEvictor; evict_bare: kplan's evictBarePods (descheduler has only evictFailedBarePods) */
	int evict_local, evict_critical, ignore_pvc, evict_bare;
	/* strategy arguments */
	int taints_prefer;
	char **excluded_taints;
	int nexcluded_taints;
	int spread_soft;             /* constraints: ScheduleAnyway too */
	char **dup_exclude_kinds;
	int ndup_exclude;
	double low_thr[R_COUNT], low_target[R_COUNT], high_thr[R_COUNT];
	int low_set, high_set;
	long low_nodes, high_nodes;  /* numberOfNodes */
	/* results */
	move *moves;
	int nmoves, cap_moves, nwaves;
	long no_home, limited, kept, nodes_freed;   /* kept: by the evictor's rules */
	double cost;
	double mean_b[R_COUNT], sd_b[R_COUNT], mean_a[R_COUNT], sd_a[R_COUNT];
	int nodes_r[R_COUNT];
	/* run state */
	const kp_rb_host *h;
	kp_err *err;
	uint8_t *moved;              /* per pod */
	uint8_t *refused;            /* per pod: 1 a limit or PDB said no, 2 no other home, 4 the evictor's rules */
	uint8_t *avoid;              /* per node, scratch */
	int32_t *out_count;          /* per node: moves out */
	int32_t *ns_count;           /* per namespace sid */
	int nns_count;
	uint8_t *had_app;            /* per node, before */
};

kp_rebalance *kp_rebalance_new(void)
{
	kp_rebalance *rb = kp_calloc(1, sizeof *rb);
	if (!rb)
		return NULL;
	rb->max_moves = rb->max_per_node = rb->max_per_ns = -1;
	for (int r = 0; r < R_COUNT; r++) {
		rb->low_thr[r] = 20;     /* descheduler README's LowNodeUtilization example */
		rb->low_target[r] = 50;
		rb->high_thr[r] = 20;    /* descheduler README's HighNodeUtilization example */
	}
	return rb;
}

static void free_list(char **v, int n)
{
	for (int i = 0; i < n; i++)
		kp_free(v[i]);
	kp_free(v);
}

void kp_rebalance_free(kp_rebalance *rb)
{
	if (!rb)
		return;
	free_list(rb->ns_list, rb->nns);
	free_list(rb->excluded_taints, rb->nexcluded_taints);
	free_list(rb->dup_exclude_kinds, rb->ndup_exclude);
	for (int i = 0; i < rb->nmoves; i++)
		kp_free(rb->moves[i].detail);
	kp_free(rb->moves);
	kp_free(rb->had_app);
	kp_free(rb);
}

long kp_rebalance_moves(const kp_rebalance *rb) { return rb ? rb->nmoves : 0; }

/* ---- settings ---- */

static int strategy_index(const char *name)
{
	for (int i = 0; i < S_COUNT; i++)
		if (!strcmp(name, snames[i]))
			return i;
	return -1;
}

static int usage(kp_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage(kp_err *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kp_err_setv(err, KP_USAGE, fmt, ap);
	va_end(ap);
	return KP_USAGE;
}

/* a comma-separated list into a new array of strings */
static int split_list(const char *v, char ***out, int *n, kp_err *err, const char *option)
{
	free_list(*out, *n);
	*out = NULL;
	*n = 0;
	const char *p = v;
	while (1) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (!len)
			return usage(err, "--%s: empty name in '%s'", option, v);
		char **nv = kp_realloc(*out, (size_t)(*n + 1) * sizeof *nv);
		if (!nv)
			return kp_err_set(err, KP_NOMEM, "out of memory");
		*out = nv;
		if (!(nv[*n] = kp_strndup(p, len)))
			return kp_err_set(err, KP_NOMEM, "out of memory");
		(*n)++;
		if (!c)
			return KP_OK;
		p = c + 1;
	}
}

static int parse_count(const char *v, long *out)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (errno || *end || !*v || x < 0 || v[0] == '-' || v[0] == '+' || v[0] == ' ')
		return 0;
	*out = x;
	return 1;
}

static int set_strategies(kp_rebalance *rb, const char *v, kp_err *err)
{
	char **names = NULL;
	int n = 0;
	int rc = split_list(v, &names, &n, err, "strategies");
	unsigned mask = 0;
	for (int i = 0; !rc && i < n; i++) {
		int k = strategy_index(names[i]);
		if (k < 0)
			rc = usage(err, "--strategies: unknown strategy '%s' (known: RemovePodsViolatingNodeTaints, "
					"RemovePodsViolatingNodeAffinity, RemovePodsViolatingInterPodAntiAffinity, "
					"RemovePodsViolatingTopologySpreadConstraint, RemoveDuplicates, LowNodeUtilization, "
					"HighNodeUtilization)", names[i]);
		mask |= 1u << (k < 0 ? 0 : k);
	}
	free_list(names, n);
	if (!rc) {
		rb->strategies = mask;
		rb->strategies_set = 1;
	}
	return rc;
}

int kp_rebalance_set(kp_rebalance *rb, const char *option, const char *value, kp_err *err)
{
	long x;
	if (!strcmp(option, "strategies"))
		return set_strategies(rb, value, err);
	if (!strcmp(option, "max-moves") || !strcmp(option, "max-moves-per-node") ||
	    !strcmp(option, "max-moves-per-namespace")) {
		if (!parse_count(value, &x))
			return usage(err, "--%s needs a non-negative integer, got '%s'", option, value);
		*(!strcmp(option, "max-moves") ? &rb->max_moves
		  : !strcmp(option, "max-moves-per-node") ? &rb->max_per_node : &rb->max_per_ns) = x;
		return KP_OK;
	}
	if (!strcmp(option, "priority-threshold")) {
		char *end;
		errno = 0;
		long long p = strtoll(value, &end, 10);
		if (errno || *end || !*value || p < INT32_MIN || p > (long long)INT32_MAX + 1)
			return usage(err, "--priority-threshold needs an integer priority, got '%s'", value);
		rb->has_prio = 1;
		rb->prio = p;
		return KP_OK;
	}
	if (!strcmp(option, "evict-bare-pods")) {   /* a flag: the CLI passes "true" */
		if (strcmp(value, "true") && strcmp(value, "false"))
			return usage(err, "--evict-bare-pods: expected true or false, got '%s'", value);
		rb->evict_bare = value[0] == 't';
		return KP_OK;
	}
	if (!strcmp(option, "namespaces") || !strcmp(option, "exclude-namespaces")) {
		int ex = option[0] == 'e';
		if (rb->nns && rb->ns_exclude != ex)
			return usage(err, "--namespaces and --exclude-namespaces cannot be combined");
		rb->ns_exclude = ex;
		return split_list(value, &rb->ns_list, &rb->nns, err, option);
	}
	return usage(err, "unknown rebalance option '--%s'", option);
}

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
	if (v->type != KP_Y_SCALAR || !parse_count(v->u.str, out))
		return cfg_bad(c, v, "--rebalance-config: %s: expected a non-negative integer", what);
	return KP_OK;
}

static int cfg_strings(cfgctx *c, const kp_ynode *v, const char *what, char ***out, int *n)
{
	if (v->type != KP_Y_SEQ)
		return cfg_bad(c, v, "--rebalance-config: %s: expected a list of strings", what);
	free_list(*out, *n);
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
			if (!strcmp(k->u.str, rnames[q]))
				r = q;
		if (r < 0)
			return cfg_bad(c, k, "--rebalance-config: %s: resource '%s' is not supported (cpu, memory, pods)", what,
				       k->type == KP_Y_SCALAR ? k->u.str : "?");
		char *end;
		double d = x->type == KP_Y_SCALAR ? strtod(x->u.str, &end) : -1;
		if (x->type != KP_Y_SCALAR || *end || !x->u.str[0] || !(d >= 0 && d <= 100))
			return cfg_bad(c, x, "--rebalance-config: %s.%s: expected a percentage from 0 to 100", what, rnames[r]);
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
	int s = strategy_index(name);
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
			free_list(t, nt);
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
			free_list(t, nt);
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
					int s = x->type == KP_Y_SCALAR ? strategy_index(x->u.str) : -1;
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
		return usage(err, "--rebalance-config: cannot open '%s': %s", file, strerror(errno));
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
				int s = strategy_index(t[q]);
				if (s < 0)
					rc = cfg_bad(&c, v, "--rebalance-config: unknown strategy '%s'", t[q]);
				mask |= 1u << (s < 0 ? 0 : s);
			}
			mask_set = 1;
			free_list(t, nt);
		} else if (!(rc = cfg_limits(&c, kn, v, &known)) && !known) {
			if (strategy_index(k) >= 0 || !strcmp(k, "DefaultEvictor"))
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

/* One key of the recorded settings (settings_json): *known 0 when not one. */
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
				int st = strategy_index(t[q]);
				if (st < 0)
					rc = cfg_bad(&c, v, "unknown strategy '%s'", t[q]);
				mask |= 1u << (st < 0 ? 0 : st);
			}
			free_list(t, nt);
			rb->strategies = mask;
			rb->strategies_set = 1;
		} else if (!(rc = settings_key(&c, kn, v, &known)) && !known) {
			rc = cfg_args(&c, k, kn, v);   /* a strategy's arguments */
		}
	}
	kp_arena_release(&a);
	return rc ? rc : kp_rebalance_finish(rb, err);
}

int kp_rebalance_finish(kp_rebalance *rb, kp_err *err)
{
	if (!rb->strategies_set)
		rb->strategies = DEFAULT_STRATEGIES;
	if (rb->strategies & (1u << S_LOW))
		for (int r = 0; r < R_COUNT; r++)
			if (rb->low_thr[r] > rb->low_target[r])
				return usage(err, "LowNodeUtilization: thresholds.%s (%g) above targetThresholds.%s (%g)", rnames[r],
					     rb->low_thr[r], rnames[r], rb->low_target[r]);
	return KP_OK;
}

static void json_list(kp_sb *sb, char **v, int n)
{
	kp_sb_addc(sb, '[');
	for (int i = 0; i < n; i++) {
		if (i)
			kp_sb_addc(sb, ',');
		kp_sb_add_json_str(sb, v[i]);
	}
	kp_sb_addc(sb, ']');
}

static void json_thr(kp_sb *sb, const double *t)
{
	kp_sb_printf(sb, "{\"cpu\":%g,\"memory\":%g,\"pods\":%g}", t[R_CPU], t[R_MEM], t[R_PODS]);
}

static void settings_json(const kp_rebalance *rb, kp_sb *sb)
{
	kp_sb_adds(sb, "{\"strategies\":[");
	int first = 1;
	for (int i = 0; i < S_COUNT; i++)
		if (rb->strategies & (1u << i)) {
			kp_sb_printf(sb, "%s\"%s\"", first ? "" : ",", snames[i]);
			first = 0;
		}
	kp_sb_printf(sb, "],\"maxMoves\":%ld,\"maxMovesPerNode\":%ld,\"maxMovesPerNamespace\":%ld", rb->max_moves,
		     rb->max_per_node, rb->max_per_ns);
	if (rb->has_prio)
		kp_sb_printf(sb, ",\"priorityThreshold\":%lld", (long long)rb->prio);
	if (rb->nns) {
		kp_sb_printf(sb, ",\"namespaces\":{\"%s\":", rb->ns_exclude ? "exclude" : "include");
		json_list(sb, rb->ns_list, rb->nns);
		kp_sb_addc(sb, '}');
	}
	kp_sb_printf(sb, ",\"evictLocalStoragePods\":%s,\"evictSystemCriticalPods\":%s,\"ignorePvcPods\":%s,"
		     "\"evictBarePods\":%s", rb->evict_local ? "true" : "false", rb->evict_critical ? "true" : "false",
		     rb->ignore_pvc ? "true" : "false", rb->evict_bare ? "true" : "false");
	if (rb->strategies & (1u << S_TAINTS)) {
		kp_sb_printf(sb, ",\"RemovePodsViolatingNodeTaints\":{\"includePreferNoSchedule\":%s,\"excludedTaints\":",
			     rb->taints_prefer ? "true" : "false");
		json_list(sb, rb->excluded_taints, rb->nexcluded_taints);
		kp_sb_addc(sb, '}');
	}
	if (rb->strategies & (1u << S_SPREAD))
		kp_sb_printf(sb, ",\"RemovePodsViolatingTopologySpreadConstraint\":{\"constraints\":[\"DoNotSchedule\"%s]}",
			     rb->spread_soft ? ",\"ScheduleAnyway\"" : "");
	if (rb->strategies & (1u << S_DUPS)) {
		kp_sb_adds(sb, ",\"RemoveDuplicates\":{\"excludeOwnerKinds\":");
		json_list(sb, rb->dup_exclude_kinds, rb->ndup_exclude);
		kp_sb_addc(sb, '}');
	}
	if (rb->strategies & (1u << S_LOW)) {
		kp_sb_adds(sb, ",\"LowNodeUtilization\":{\"thresholds\":");
		json_thr(sb, rb->low_thr);
		kp_sb_adds(sb, ",\"targetThresholds\":");
		json_thr(sb, rb->low_target);
		kp_sb_printf(sb, ",\"numberOfNodes\":%ld}", rb->low_nodes);
	}
	if (rb->strategies & (1u << S_HIGH)) {
		kp_sb_adds(sb, ",\"HighNodeUtilization\":{\"thresholds\":");
		json_thr(sb, rb->high_thr);
		kp_sb_printf(sb, ",\"numberOfNodes\":%ld}", rb->high_nodes);
	}
	kp_sb_addc(sb, '}');
}

void kp_rebalance_options_json(const kp_rebalance *rb, kp_sb *sb)
{
	if (!rb)
		return;
	kp_sb_adds(sb, ",\"mode\":\"rebalance\",\"rebalance\":");
	settings_json(rb, sb);
}

/* ---- the run ---- */

static const kp_class *cls_of(const kp_snap *s, int32_t pi) { return &s->classes[s->pods[pi].cls]; }

static int is_per_node(const kp_snap *s, const kp_pod *p)
{
	const char *ok = p->owner_kind >= 0 ? kp_str(&s->strs, p->owner_kind) : "";
	return p->daemon_node >= 0 || !strcmp(ok, "DaemonSet") || !strcmp(ok, "Node");
}

static int64_t request(const kp_class *c, int res)
{
	for (uint32_t k = 0; k < c->nreq; k++)
		if (c->req_res[k] == res)
			return c->req_val[k];
	return 0;
}

static double util(const kp_snap *s, int n, int r)
{
	int res = r == R_PODS ? 3 : r;
	if (res >= s->nres)
		return 0;
	int64_t a = s->alloc[(size_t)n * s->nres + res];
	int64_t u = r == R_PODS ? s->node_npods[n] : s->used[(size_t)n * s->nres + res];
	return a > 0 ? 100.0 * (double)u / (double)a : 0;
}

static int has_alloc(const kp_snap *s, int n, int r)
{
	int res = r == R_PODS ? 3 : r;
	return res < s->nres && s->alloc[(size_t)n * s->nres + res] > 0;
}

static int ns_index(kp_rebalance *rb, kp_sid ns) { return ns >= 0 && ns < rb->nns_count ? ns : -1; }

/* descheduler's DefaultEvictor, kplan's limits and the namespace filters;
 * 0 when the pod may not be evicted, *limited saying why: 1 a limit or PDB,
 * 2 the evictor's rules (bare, DaemonSet, static or terminating pod,
 * system-critical, priority threshold, local storage, PVC, namespaces), 0
 * not a candidate (placed by this run, moved already) */
static int evictable(kp_rebalance *rb, int32_t pi, int *limited)
{
	const kp_rb_host *h = rb->h;
	const kp_snap *s = h->s;
	const kp_pod *p = &s->pods[pi];
	const kp_class *c = &s->classes[p->cls];
	*limited = 0;
	if (!h->movable[pi] || rb->moved[pi] || p->node < 0)
		return 0;
	*limited = 2;
	if (p->terminating || is_per_node(s, p) || (p->owner_kind < 0 && !rb->evict_bare))
		return 0;
	if (!rb->evict_critical && c->priority >= SYSTEM_CRITICAL)
		return 0;
	if (rb->has_prio && c->priority >= rb->prio)
		return 0;
	if (!rb->evict_local && request(c, 2) > 0)
		return 0;
	if (rb->ignore_pvc && c->pvc)
		return 0;
	if (rb->nns) {
		int in = 0;
		for (int i = 0; i < rb->nns; i++)
			if (!strcmp(rb->ns_list[i], kp_str(&s->strs, p->ns)))
				in = 1;
		if (in == rb->ns_exclude)
			return 0;
	}
	*limited = 1;
	if (rb->max_moves >= 0 && rb->nmoves >= rb->max_moves)
		return 0;
	if (rb->max_per_node >= 0 && rb->out_count[p->node] >= rb->max_per_node)
		return 0;
	int ni = ns_index(rb, p->ns);
	if (rb->max_per_ns >= 0 && ni >= 0 && rb->ns_count[ni] >= rb->max_per_ns)
		return 0;
	for (int k = 0; k < s->npdbs; k++)
		if (h->pdb_allowed[k] < 1 && kp_pdb_matches(s, &s->pdbs[k], p))
			return 0;
	*limited = 0;
	return 1;
}

static double move_cost(const kp_snap *s, int32_t pi)
{
	const kp_pod *p = &s->pods[pi];
	double c = 1;
	if (p->owner_kind >= 0 && !strcmp(kp_str(&s->strs, p->owner_kind), "StatefulSet"))
		c = 2;
	if (cls_of(s, pi)->pvc)
		c += 1;
	return c;
}

static int add_move(kp_rebalance *rb, int32_t pi, int from, int to, int strategy, double gain, const char *detail)
{
	if (KP_GROW(rb->moves, rb->nmoves, rb->cap_moves, 32))
		return kp_err_set(rb->err, KP_NOMEM, "out of memory");
	char *d = kp_strdup(detail);
	if (!d)
		return kp_err_set(rb->err, KP_NOMEM, "out of memory");
	const kp_snap *s = rb->h->s;
	rb->moves[rb->nmoves++] = (move){ pi, from, to, strategy, 0, gain, move_cost(s, pi), d };
	rb->moved[pi] = 1;
	rb->out_count[from]++;
	int ni = ns_index(rb, s->pods[pi].ns);
	if (ni >= 0)
		rb->ns_count[ni]++;
	return KP_OK;
}

/* forget the last move (HighNodeUtilization's all-or-nothing drain) */
static int drop_move(kp_rebalance *rb)
{
	move *m = &rb->moves[--rb->nmoves];
	const kp_snap *s = rb->h->s;
	int rc = rb->h->undo(rb->h->ctx, m->pod, m->from);
	rb->moved[m->pod] = 0;
	rb->out_count[m->from]--;
	int ni = ns_index(rb, s->pods[m->pod].ns);
	if (ni >= 0)
		rb->ns_count[ni]--;
	kp_free(m->detail);
	return rc;
}

/* Try to move pi off its node; avoid (NULL: none) plus its own node are
 * excluded.  1 moved, 0 not (left where it is), < 0 error. */
static int try_move(kp_rebalance *rb, int32_t pi, const uint8_t *avoid, int strategy, double gain, const char *detail)
{
	kp_snap *s = rb->h->s;
	int limited;
	if (!evictable(rb, pi, &limited)) {
		rb->refused[pi] |= (uint8_t)(limited == 1 ? 1 : limited == 2 ? 4 : 0);
		return 0;
	}
	int from = s->pods[pi].node;
	for (int n = 0; n < s->nnodes; n++)
		rb->avoid[n] = (uint8_t)(n == from || (avoid && avoid[n]));
	int32_t to = -1;
	int rc = rb->h->place(rb->h->ctx, pi, rb->avoid, &to);
	if (rc)
		return -1;
	if (to < 0) {
		rb->refused[pi] |= 2;
		return 0;
	}
	return add_move(rb, pi, from, to, strategy, gain, detail) ? -1 : 1;
}

/* pods on node n, copied (the node's list changes as pods move) */
static int32_t *pods_on(const kp_snap *s, int n, int *count)
{
	*count = (int)s->nnode_pods[n];
	int32_t *v = kp_malloc((size_t)(*count ? *count : 1) * sizeof *v);
	if (v && *count)
		memcpy(v, s->node_pods[n], (size_t)*count * sizeof *v);
	return v;
}

/* eviction order on a node: lowest priority first, then the newest (highest id) */
static int cmp_evict(const void *a, const void *b, void *ctx)
{
	const kp_snap *cmp_s = ctx;
	const kp_pod *x = &cmp_s->pods[*(const int32_t *)a], *y = &cmp_s->pods[*(const int32_t *)b];
	int64_t px = cmp_s->classes[x->cls].priority, py = cmp_s->classes[y->cls].priority;
	if (px != py)
		return px < py ? -1 : 1;
	return (x->db_id < y->db_id) - (x->db_id > y->db_id);
}

static int32_t *sorted_pods_on(const kp_snap *s, int n, int *count)
{
	int32_t *v = pods_on(s, n, count);
	if (v) {
		kp_sort(v, (size_t)*count, sizeof *v, cmp_evict, (void *)s);
	}
	return v;
}

static int nomem(kp_rebalance *rb) { return kp_err_set(rb->err, KP_NOMEM, "out of memory"); }

/* ---- violation checks ---- */

/* nodeSelector and required node affinity hold on node n */
static int affinity_ok(const kp_snap *s, const kp_class *c, int n)
{
	for (uint32_t i = 0; i < c->nnsel; i++)
		if (kp_labels_get(&s->node_labels[n], c->nsel[i].key) != c->nsel[i].value)
			return 0;
	if (!c->nrequired)
		return 1;
	for (uint32_t t = 0; t < c->nrequired; t++)
		if (kp_nterm_matches(s, &c->required[t], n))
			return 1;
	return 0;
}

static int tolerated(const kp_class *c, const kp_taint *x)
{
	for (uint32_t i = 0; i < c->ntols; i++)
		if (kp_tolerates(&c->tols[i], x))
			return 1;
	return 0;
}

static int taint_excluded(const kp_rebalance *rb, const kp_snap *s, const kp_taint *x)
{
	for (int i = 0; i < rb->nexcluded_taints; i++) {
		const char *e = rb->excluded_taints[i], *eq = strchr(e, '=');
		const char *k = kp_str(&s->strs, x->key), *v = kp_str(&s->strs, x->value);
		if (eq ? (strlen(k) == (size_t)(eq - e) && !strncmp(k, e, (size_t)(eq - e)) && !strcmp(eq + 1, v)) : !strcmp(k, e))
			return 1;
	}
	return 0;
}

/* the node passes the static filters a pod of c would meet (for fair shares and spread domains) */
static int node_fits_statically(const kp_snap *s, const kp_class *c, int n)
{
	if (s->unschedulable[n] || !affinity_ok(s, c, n))
		return 0;
	for (uint32_t t = 0; t < s->ntaints[n]; t++) {
		const kp_taint *x = &s->taints[n][t];
		if ((x->effect == KP_EFFECT_NOSCHEDULE || x->effect == KP_EFFECT_NOEXECUTE) && !tolerated(c, x))
			return 0;
	}
	return 1;
}

/* Visit every pod of every node, node by node, in sorted_pods_on's order;
 * visit returns < 0 to stop on an error. */
static int each_pod(kp_rebalance *rb, int (*visit)(kp_rebalance *rb, int n, int32_t pod))
{
	kp_snap *s = rb->h->s;
	for (int n = 0; n < s->nnodes; n++) {
		int np;
		int32_t *pods = sorted_pods_on(s, n, &np);
		if (!pods)
			return nomem(rb);
		for (int i = 0; i < np; i++)
			if (visit(rb, n, pods[i]) < 0) {
				kp_free(pods);
				return -1;
			}
		kp_free(pods);
	}
	return KP_OK;
}

/* RemovePodsViolatingNodeTaints: the pod's first untolerated taint */
static int visit_taints(kp_rebalance *rb, int n, int32_t pod)
{
	kp_snap *s = rb->h->s;
	const kp_class *c = cls_of(s, pod);
	for (uint32_t t = 0; t < s->ntaints[n]; t++) {
		const kp_taint *x = &s->taints[n][t];
		if (!(x->effect == KP_EFFECT_NOSCHEDULE || (rb->taints_prefer && x->effect == KP_EFFECT_PREFER)) ||
		    tolerated(c, x) || taint_excluded(rb, s, x))
			continue;
		char d[1200];
		snprintf(d, sizeof d, "violation fixed: untolerated taint %s%s%s:%s on %s", kp_str(&s->strs, x->key),
			 x->value >= 0 ? "=" : "", kp_str(&s->strs, x->value),
			 x->effect == KP_EFFECT_PREFER ? "PreferNoSchedule" : "NoSchedule", kp_str(&s->strs, s->node_name[n]));
		return try_move(rb, pod, NULL, S_TAINTS, 1, d) < 0 ? -1 : KP_OK;
	}
	return KP_OK;
}

static int strat_taints(kp_rebalance *rb) { return each_pod(rb, visit_taints); }

/* RemovePodsViolatingNodeAffinity */
static int visit_affinity(kp_rebalance *rb, int n, int32_t pod)
{
	kp_snap *s = rb->h->s;
	if (affinity_ok(s, cls_of(s, pod), n))
		return KP_OK;
	char d[600];
	snprintf(d, sizeof d, "violation fixed: required node affinity no longer satisfied on %s",
		 kp_str(&s->strs, s->node_name[n]));
	return try_move(rb, pod, NULL, S_AFFINITY, 1, d) < 0 ? -1 : KP_OK;
}

static int strat_affinity(kp_rebalance *rb) { return each_pod(rb, visit_affinity); }

/* a pod in pi's topology domain that pi's required anti-affinity selects; -1 none */
static int32_t anti_violator(kp_snap *s, int32_t pi)
{
	const kp_pod *p = &s->pods[pi];
	const kp_class *c = &s->classes[p->cls];
	for (uint32_t t = 0; t < c->npterms; t++) {
		const kp_pterm *pt = &c->pterms[t];
		if (!pt->anti || !pt->required)
			continue;
		const kp_topo *tp = kp_snap_topo(s, pt->topo);
		kp_sid v = tp ? tp->val[p->node] : kp_labels_get(&s->node_labels[p->node], pt->topo);
		if (v < 0)
			continue;
		for (int n = 0; n < s->nnodes; n++) {
			if ((tp ? tp->val[n] : kp_labels_get(&s->node_labels[n], pt->topo)) != v)
				continue;
			for (uint32_t k = 0; k < s->nnode_pods[n]; k++) {
				int32_t q = s->node_pods[n][k];
				if (q != pi && !s->pods[q].terminating && kp_term_matches(s, pt, p, &s->pods[q]))
					return q;
			}
		}
	}
	return -1;
}

/* RemovePodsViolatingInterPodAntiAffinity */
static int visit_anti(kp_rebalance *rb, int n, int32_t pod)
{
	kp_snap *s = rb->h->s;
	if (!cls_of(s, pod)->has_req_anti || s->pods[pod].node != n)
		return KP_OK;
	int32_t q = anti_violator(s, pod);
	if (q < 0)
		return KP_OK;
	char d[800];
	snprintf(d, sizeof d, "violation fixed: required pod anti-affinity with %s/%s on %s",
		 kp_str(&s->strs, s->pods[q].ns), kp_str(&s->strs, s->pods[q].name), kp_str(&s->strs, s->node_name[n]));
	return try_move(rb, pod, NULL, S_ANTI, 1, d) < 0 ? -1 : KP_OK;
}

static int strat_anti(kp_rebalance *rb) { return each_pod(rb, visit_anti); }

static int same_owner(const kp_pod *a, const kp_pod *b)
{
	return a->ns == b->ns && a->owner_kind == b->owner_kind && a->owner_name == b->owner_name;
}

/* by owner (namespace, kind, name), then import order */
static int cmp_owner(const void *a, const void *b, void *ctx)
{
	const kp_snap *cmp_s = ctx;
	const kp_pod *x = &cmp_s->pods[*(const int32_t *)a], *y = &cmp_s->pods[*(const int32_t *)b];
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	if (x->owner_kind != y->owner_kind)
		return x->owner_kind < y->owner_kind ? -1 : 1;
	if (x->owner_name != y->owner_name)
		return x->owner_name < y->owner_name ? -1 : 1;
	return (*(const int32_t *)a > *(const int32_t *)b) - (*(const int32_t *)a < *(const int32_t *)b);
}

static int strat_dups(kp_rebalance *rb)
{
	kp_snap *s = rb->h->s;
	int32_t *order = kp_malloc((size_t)(s->npods ? s->npods : 1) * sizeof *order);
	int32_t *cnt = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), sizeof *cnt);
	uint8_t *full = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), 1);
	int rc = order && cnt && full ? KP_OK : nomem(rb);
	int no = 0;
	for (int i = 0; !rc && i < s->npods; i++)
		if (s->pods[i].node >= 0 && s->pods[i].owner_kind >= 0 && !is_per_node(s, &s->pods[i]))
			order[no++] = i;
	if (!rc)
		kp_sort(order, (size_t)no, sizeof *order, cmp_owner, (void *)s);
	for (int a = 0, b = 0; !rc && a < no; a = b) {
		const kp_pod *p = &s->pods[order[a]];
		for (b = a; b < no && same_owner(p, &s->pods[order[b]]); b++)
			;
		int excluded = 0;
		for (int k = 0; k < rb->ndup_exclude; k++)
			excluded |= !strcmp(rb->dup_exclude_kinds[k], kp_str(&s->strs, p->owner_kind));
		int total = b - a;
		if (excluded || total < 2)
			continue;
		for (int k = a; k < b; k++)
			cnt[s->pods[order[k]].node]++;
		/* descheduler: at most ceil(pods / nodes the pods could run on) per node */
		int targets = 0;
		for (int n = 0; n < s->nnodes; n++)
			targets += node_fits_statically(s, &s->classes[p->cls], n);
		int upper = targets < 2 ? total : (total + targets - 1) / targets;   /* one node: nowhere to spread */
		for (int n = 0; n < s->nnodes && !rc; n++) {
			if (cnt[n] <= upper)
				continue;
			int np;
			int32_t *pods = sorted_pods_on(s, n, &np);
			if (!pods) {
				rc = nomem(rb);
				break;
			}
			for (int k = 0; k < np && cnt[n] > upper && !rc; k++) {
				if (!same_owner(p, &s->pods[pods[k]]))
					continue;
				for (int m = 0; m < s->nnodes; m++)
					full[m] = (uint8_t)(cnt[m] >= upper);
				char d[1200];
				snprintf(d, sizeof d, "duplicate spread: %d pods of %s %s/%s on %s, at most %d per node",
					 cnt[n], kp_str(&s->strs, p->owner_kind), kp_str(&s->strs, p->ns),
					 kp_str(&s->strs, p->owner_name), kp_str(&s->strs, s->node_name[n]), upper);
				int m = try_move(rb, pods[k], full, S_DUPS, 1, d);
				if (m < 0)
					rc = -1;
				else if (m) {
					cnt[n]--;
					cnt[rb->moves[rb->nmoves - 1].to]++;
				}
			}
			kp_free(pods);
		}
		/* the group's pods are on every node its counts touched */
		for (int k = a; k < b; k++)
			cnt[s->pods[order[k]].node] = 0;
	}
	kp_free(order);
	kp_free(cnt);
	kp_free(full);
	return rc;
}

/* the domain counts of one spread constraint of class c: per node the domain
 * (-1 not counted), per domain the matching pods */
static void spread_counts(const kp_snap *s, const kp_class *c, const kp_spread *sp, int32_t *dom, int64_t *count,
			  kp_sid *vals, int *ndom)
{
	*ndom = 0;
	for (int n = 0; n < s->nnodes; n++) {
		dom[n] = -1;
		kp_sid v = kp_labels_get(&s->node_labels[n], sp->topo);
		if (v < 0 || (sp->honor_affinity && !affinity_ok(s, c, n)))
			continue;
		if (sp->honor_taints) {
			int ok = 1;
			for (uint32_t t = 0; t < s->ntaints[n]; t++) {
				const kp_taint *x = &s->taints[n][t];
				if ((x->effect == KP_EFFECT_NOSCHEDULE || x->effect == KP_EFFECT_NOEXECUTE) && !tolerated(c, x))
					ok = 0;
			}
			if (!ok)
				continue;
		}
		int d = -1;
		for (int k = 0; k < *ndom && d < 0; k++)
			if (vals[k] == v)
				d = k;
		if (d < 0) {
			d = (*ndom)++;
			vals[d] = v;
			count[d] = 0;
		}
		dom[n] = d;
		for (uint32_t k = 0; k < s->nnode_pods[n]; k++) {
			const kp_pod *o = &s->pods[s->node_pods[n][k]];
			if (o->ns == c->ns && !o->terminating && kp_sel_match(&sp->sel, &o->labels, &s->strs))
				count[d]++;
		}
	}
}

static int strat_spread(kp_rebalance *rb)
{
	kp_snap *s = rb->h->s;
	int nn = s->nnodes ? s->nnodes : 1;
	int32_t *dom = kp_malloc((size_t)nn * sizeof *dom);
	int64_t *count = kp_malloc((size_t)nn * sizeof *count);
	kp_sid *vals = kp_malloc((size_t)nn * sizeof *vals);
	uint8_t *avoid = kp_malloc((size_t)nn);
	int rc = dom && count && vals && avoid ? KP_OK : nomem(rb);
	for (int ci = 0; ci < s->nclasses && !rc; ci++) {
		const kp_class *c = &s->classes[ci];
		for (uint32_t k = 0; k < c->nspreads && !rc; k++) {
			const kp_spread *sp = &c->spreads[k];
			if (!sp->hard && !rb->spread_soft)
				continue;
			for (int guard = 0; guard < s->npods && !rc; guard++) {
				int ndom;
				spread_counts(s, c, sp, dom, count, vals, &ndom);
				if (ndom < 1)
					break;
				int64_t mx = count[0], mn = count[0];
				int dmax = 0;
				for (int d = 1; d < ndom; d++) {
					if (count[d] > mx)
						mx = count[d], dmax = d;
					if (count[d] < mn)
						mn = count[d];
				}
				if (sp->min_domains > ndom)
					mn = 0;
				if (mx - mn <= sp->max_skew)
					break;
				/* a pod of this class in the fullest domain, to any other domain */
				for (int n = 0; n < s->nnodes; n++)
					avoid[n] = (uint8_t)(dom[n] == dmax);
				int moved = 0;
				for (int n = 0; n < s->nnodes && !moved && !rc; n++) {
					if (dom[n] != dmax)
						continue;
					int np;
					int32_t *pods = sorted_pods_on(s, n, &np);
					if (!pods) {
						rc = nomem(rb);
						break;
					}
					for (int i = 0; i < np && !moved; i++) {
						const kp_pod *p = &s->pods[pods[i]];
						if (p->cls != ci || !kp_sel_match(&sp->sel, &p->labels, &s->strs))
							continue;
						char d[1000];
						snprintf(d, sizeof d, "violation fixed: topology spread on %s: skew %lld > maxSkew %lld "
								      "(%s=%s has %lld)", kp_str(&s->strs, sp->topo),
							 (long long)(mx - mn), (long long)sp->max_skew, kp_str(&s->strs, sp->topo),
							 kp_str(&s->strs, vals[dmax]), (long long)mx);
						int m = try_move(rb, pods[i], avoid, S_SPREAD, 1, d);
						if (m < 0)
							rc = -1;
						moved = m > 0;
					}
					kp_free(pods);
				}
				if (!moved)
					break;
			}
		}
	}
	kp_free(dom);
	kp_free(count);
	kp_free(vals);
	kp_free(avoid);
	return rc;
}

static int under(const kp_snap *s, int n, const double *thr)
{
	if (s->unschedulable[n])
		return 0;
	for (int r = 0; r < R_COUNT; r++)
		if (util(s, n, r) >= thr[r] && thr[r] < 100)
			return 0;
	return 1;
}

static int over(const kp_snap *s, int n, const double *target)
{
	for (int r = 0; r < R_COUNT; r++)
		if (target[r] < 100 && util(s, n, r) > target[r])
			return 1;
	return 0;
}

/* highest utilisation over the resources above target */
static double excess(const kp_snap *s, int n, const double *target, int *res)
{
	double best = 0;
	*res = R_CPU;
	for (int r = 0; r < R_COUNT; r++)
		if (target[r] < 100 && util(s, n, r) - target[r] > best) {
			best = util(s, n, r) - target[r];
			*res = r;
		}
	return best;
}

static int cmp_load_desc(const void *a, const void *b, void *ctx)
{
	const kp_snap *load_s = ctx;
	int x = *(const int *)a, y = *(const int *)b;
	double lx = 0, ly = 0;
	for (int r = 0; r < R_COUNT; r++) {
		lx += util(load_s, x, r);
		ly += util(load_s, y, r);
	}
	if (lx != ly)
		return lx > ly ? -1 : 1;
	return (x > y) - (x < y);
}

static int strat_low(kp_rebalance *rb)
{
	kp_snap *s = rb->h->s;
	int nn = s->nnodes ? s->nnodes : 1;
	int nunder = 0, nover = 0;
	int *src = kp_malloc((size_t)nn * sizeof *src);
	uint8_t *avoid = kp_malloc((size_t)nn);
	if (!src || !avoid) {
		kp_free(src);
		kp_free(avoid);
		return nomem(rb);
	}
	for (int n = 0; n < s->nnodes; n++) {
		nunder += under(s, n, rb->low_thr);
		if (over(s, n, rb->low_target))
			src[nover++] = n;
	}
	int rc = KP_OK;
	if (nunder == 0 || nunder <= rb->low_nodes || nover == 0)
		goto out;
	kp_sort(src, (size_t)nover, sizeof *src, cmp_load_desc, (void *)s);
	for (int i = 0; i < nover && !rc; i++) {
		int n = src[i], np;
		int32_t *pods = sorted_pods_on(s, n, &np);
		if (!pods) {
			rc = nomem(rb);
			break;
		}
		for (int k = 0; k < np && !rc && over(s, n, rb->low_target); k++) {
			for (int m = 0; m < s->nnodes; m++)
				avoid[m] = (uint8_t)over(s, m, rb->low_target);
			int res;
			excess(s, n, rb->low_target, &res);
			double before = util(s, n, res);
			char d[600];
			snprintf(d, sizeof d, "utilisation: %s above targetThresholds", kp_str(&s->strs, s->node_name[n]));
			int mv = try_move(rb, pods[k], avoid, S_LOW, 0, d);
			if (mv < 0) {
				rc = -1;
				break;
			}
			if (!mv)
				continue;
			move *m = &rb->moves[rb->nmoves - 1];
			if (over(s, m->to, rb->low_target)) {   /* it would only move the problem */
				if (drop_move(rb))
					rc = -1;
				continue;
			}
			m->gain = round((before - util(s, n, res)) * 10) / 10;
			snprintf(d, sizeof d, "utilisation: %s %s %.1f%% -> %.1f%% (targetThresholds %g%%)",
				 kp_str(&s->strs, s->node_name[n]), rnames[res], before, util(s, n, res), rb->low_target[res]);
			kp_free(m->detail);
			if (!(m->detail = kp_strdup(d)))
				rc = nomem(rb);
		}
		kp_free(pods);
	}
out:
	kp_free(src);
	kp_free(avoid);
	return rc;
}

static int app_pods(const kp_snap *s, int n)
{
	int k = 0;
	for (uint32_t i = 0; i < s->nnode_pods[n]; i++)
		k += !is_per_node(s, &s->pods[s->node_pods[n][i]]);
	return k;
}

static int cmp_load_asc(const void *a, const void *b, void *ctx) { return -cmp_load_desc(a, b, ctx); }

static int strat_high(kp_rebalance *rb)
{
	kp_snap *s = rb->h->s;
	int nn = s->nnodes ? s->nnodes : 1;
	int *cand = kp_malloc((size_t)nn * sizeof *cand);
	uint8_t *avoid = kp_calloc((size_t)nn, 1);
	int ncand = 0, rc = KP_OK;
	if (!cand || !avoid) {
		kp_free(cand);
		kp_free(avoid);
		return nomem(rb);
	}
	/* nothing lands on a node emptied or still to be emptied; a candidate
	 * that could not be emptied takes pods from the later ones */
	for (int n = 0; n < s->nnodes; n++)
		if (under(s, n, rb->high_thr)) {
			avoid[n] = 1;
			if (app_pods(s, n))
				cand[ncand++] = n;
		}
	if (ncand <= rb->high_nodes)
		goto out;
	kp_sort(cand, (size_t)ncand, sizeof *cand, cmp_load_asc, (void *)s);
	for (int i = 0; i < ncand && !rc; i++) {
		int n = cand[i], np, k = app_pods(s, n), ok = 1;
		int32_t *pods = sorted_pods_on(s, n, &np);
		if (!pods) {
			rc = nomem(rb);
			break;
		}
		int first = rb->nmoves;
		char d[600];
		snprintf(d, sizeof d, "node freed: %s (%d pod%s moved off, below thresholds)", kp_str(&s->strs, s->node_name[n]),
			 k, k == 1 ? "" : "s");
		for (int j = 0; j < np && ok; j++) {
			if (is_per_node(s, &s->pods[pods[j]]))
				continue;
			int m = try_move(rb, pods[j], avoid, S_HIGH, 1.0 / k, d);
			if (m < 0)
				rc = -1;
			ok = m > 0;
		}
		/* all or nothing: a node half emptied frees nothing */
		while (!ok && !rc && rb->nmoves > first)
			if (drop_move(rb))
				rc = -1;
		if (!ok)
			avoid[n] = 0;
		kp_free(pods);
	}
out:
	kp_free(cand);
	kp_free(avoid);
	return rc;
}

static void util_stats(const kp_snap *s, double *mean, double *sd, int *nodes)
{
	for (int r = 0; r < R_COUNT; r++) {
		double sum = 0, sq = 0;
		int k = 0;
		for (int n = 0; n < s->nnodes; n++)
			if (has_alloc(s, n, r)) {
				double u = util(s, n, r);
				sum += u;
				sq += u * u;
				k++;
			}
		nodes[r] = k;
		mean[r] = k ? sum / k : 0;
		double var = k ? sq / k - mean[r] * mean[r] : 0;
		sd[r] = var > 0 ? sqrt(var) : 0;
	}
}

/* consecutive waves: a PDB's evictions per wave within its budget; a move
 * landing on a node left in the same wave waits for the next */
static int make_waves(kp_rebalance *rb)
{
	const kp_snap *s = rb->h->s;
	int64_t *used = kp_calloc((size_t)(s->npdbs ? s->npdbs : 1), sizeof *used);
	uint8_t *left = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), 1);
	if (!used || !left) {
		kp_free(used);
		kp_free(left);
		return nomem(rb);
	}
	int wave = rb->nmoves ? 1 : 0;
	for (int i = 0; i < rb->nmoves; i++) {
		move *m = &rb->moves[i];
		const kp_pod *p = &s->pods[m->pod];
		int fits = !left[m->to];
		for (int k = 0; k < s->npdbs && fits; k++)
			if (kp_pdb_matches(s, &s->pdbs[k], p) && used[k] + 1 > rb->h->pdb_allowed[k])
				fits = 0;
		if (!fits) {
			wave++;
			memset(used, 0, (size_t)s->npdbs * sizeof *used);
			memset(left, 0, (size_t)s->nnodes);
		}
		for (int k = 0; k < s->npdbs; k++)
			if (kp_pdb_matches(s, &s->pdbs[k], p))
				used[k]++;
		left[m->from] = 1;
		m->wave = wave;
	}
	rb->nwaves = wave;
	kp_free(used);
	kp_free(left);
	return KP_OK;
}

int kp_rebalance_run(kp_rebalance *rb, const kp_rb_host *h, kp_err *err)
{
	kp_snap *s = h->s;
	rb->h = h;
	rb->err = err;
	int nn = s->nnodes ? s->nnodes : 1;
	rb->nns_count = s->strs.n;
	rb->moved = kp_calloc((size_t)(s->npods ? s->npods : 1), 1);
	rb->refused = kp_calloc((size_t)(s->npods ? s->npods : 1), 1);
	rb->avoid = kp_calloc((size_t)nn, 1);
	rb->out_count = kp_calloc((size_t)nn, sizeof *rb->out_count);
	rb->ns_count = kp_calloc((size_t)(rb->nns_count ? rb->nns_count : 1), sizeof *rb->ns_count);
	rb->had_app = kp_calloc((size_t)nn, 1);
	int rc = KP_OK;
	if (!rb->moved || !rb->refused || !rb->avoid || !rb->out_count || !rb->ns_count || !rb->had_app)
		rc = nomem(rb);
	for (int n = 0; !rc && n < s->nnodes; n++)
		rb->had_app[n] = app_pods(s, n) > 0;
	if (!rc)
		util_stats(s, rb->mean_b, rb->sd_b, rb->nodes_r);
	static int (*const fn[S_COUNT])(kp_rebalance *) = {
		[S_TAINTS] = strat_taints, [S_AFFINITY] = strat_affinity, [S_ANTI] = strat_anti, [S_DUPS] = strat_dups,
		[S_SPREAD] = strat_spread, [S_LOW] = strat_low, [S_HIGH] = strat_high,
	};
	for (int i = 0; i < S_COUNT && !rc; i++)
		if (rb->strategies & (1u << i))
			rc = fn[i](rb);
	if (rc < 0)
		rc = err->code ? err->code : KP_ERROR;
	if (!rc) {
		util_stats(s, rb->mean_a, rb->sd_a, rb->nodes_r);
		rc = make_waves(rb);
	}
	rb->cost = 0;
	rb->nodes_freed = 0;
	for (int i = 0; !rc && i < rb->nmoves; i++)
		rb->cost += rb->moves[i].cost;
	for (int n = 0; !rc && n < s->nnodes; n++)
		rb->nodes_freed += rb->had_app[n] && !app_pods(s, n);
	/* pods, not attempts: a pod refused by a limit and later without a home
	 * counts once, as no home; the evictor's rules do not change in a run */
	for (int i = 0; !rc && i < s->npods; i++)
		if (!rb->moved[i] && rb->refused[i]) {
			rb->no_home += (rb->refused[i] & 2) != 0;
			rb->limited += (rb->refused[i] & 3) == 1;
			rb->kept += rb->refused[i] == 4;
		}
	kp_free(rb->moved);
	kp_free(rb->refused);
	kp_free(rb->avoid);
	kp_free(rb->out_count);
	kp_free(rb->ns_count);
	rb->moved = rb->refused = rb->avoid = NULL;
	rb->out_count = rb->ns_count = NULL;
	return rc;
}

/* ---- writing ---- */

static int ensure_tables(sqlite3 *db, kp_err *err)
{
	int rc = kp_db_schema_section(db, "rebalance", "plan (rebalance tables)", err);
	/* rebalance_run.kept came later: add it to a table made without it */
	sqlite3_stmt *st;
	if (!rc && sqlite3_prepare_v2(db, "SELECT kept FROM rebalance_run LIMIT 0", -1, &st, NULL) != SQLITE_OK &&
	    sqlite3_exec(db, "ALTER TABLE rebalance_run ADD COLUMN kept INTEGER NOT NULL DEFAULT 0", NULL, NULL, NULL) !=
		    SQLITE_OK)
		return kp_err_set(err, KP_IO, "cannot write the plan (rebalance tables): %s", sqlite3_errmsg(db));
	if (!rc)
		sqlite3_finalize(st);
	return rc;
}

int kp_rebalance_write(sqlite3 *db, kp_rebalance *rb, const kp_snap *s, int64_t run_id, kp_err *err)
{
	int rc = ensure_tables(db, err);
	if (rc)
		return rc;
	sqlite3_stmt *st = NULL;
	kp_sb sb, names;
	kp_sb_init(&sb);
	kp_sb_init(&names);
	settings_json(rb, &sb);
	for (int i = 0, first = 1; i < S_COUNT; i++)
		if (rb->strategies & (1u << i)) {
			kp_sb_printf(&names, "%s%s", first ? "" : ",", snames[i]);
			first = 0;
		}
	int32_t *in = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), sizeof *in);
	int32_t *out = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), sizeof *out);
#define FAIL(what) do { rc = kp_err_set(err, kp_interrupted ? KP_INTR : KP_IO, "cannot write the plan (%s): %s", what, \
				       sqlite3_errmsg(db)); goto done; } while (0)
	if (!kp_sb_ok(&sb) || !kp_sb_ok(&names) || !in || !out) {
		rc = kp_err_set(err, KP_NOMEM, "out of memory");
		goto done;
	}
	if (sqlite3_prepare_v2(db, "INSERT INTO rebalance_run(run_id, strategies, settings, moves, waves, nodes_freed, cost, "
				   "no_home, limited, kept) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &st, NULL) != SQLITE_OK)
		FAIL("rebalance_run");
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, kp_sb_str(&names), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, kp_sb_str(&sb), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, rb->nmoves);
	sqlite3_bind_int(st, 5, rb->nwaves);
	sqlite3_bind_int64(st, 6, rb->nodes_freed);
	sqlite3_bind_double(st, 7, rb->cost);
	sqlite3_bind_int64(st, 8, rb->no_home);
	sqlite3_bind_int64(st, 9, rb->limited);
	sqlite3_bind_int64(st, 10, rb->kept);
	if (sqlite3_step(st) != SQLITE_DONE)
		FAIL("rebalance_run");
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "INSERT INTO move_wave(run_id, seq, wave, pod_id, from_node_id, to_node_id, strategy, gain, "
				   "cost, detail, namespace, pod, from_node, to_node) "
				   "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)", -1, &st, NULL) != SQLITE_OK)
		FAIL("move_wave");
	for (int i = 0; i < rb->nmoves; i++) {
		const move *m = &rb->moves[i];
		out[m->from]++;
		in[m->to]++;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, i + 1);
		sqlite3_bind_int(st, 3, m->wave);
		sqlite3_bind_int64(st, 4, s->pods[m->pod].db_id);
		sqlite3_bind_int64(st, 5, s->node_db_id[m->from]);
		sqlite3_bind_int64(st, 6, s->node_db_id[m->to]);
		sqlite3_bind_text(st, 7, snames[m->strategy], -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 8, round(m->gain * 1000) / 1000);
		sqlite3_bind_double(st, 9, m->cost);
		sqlite3_bind_text(st, 10, m->detail, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 11, kp_str(&s->strs, s->pods[m->pod].ns), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 12, kp_str(&s->strs, s->pods[m->pod].name), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 13, kp_str(&s->strs, s->node_name[m->from]), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 14, kp_str(&s->strs, s->node_name[m->to]), -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			FAIL("move_wave");
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "INSERT INTO rebalance_util(run_id, resource, nodes, mean_before, stddev_before, "
				   "mean_after, stddev_after) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &st, NULL) != SQLITE_OK)
		FAIL("rebalance_util");
	for (int r = 0; r < R_COUNT; r++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, rnames[r], -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, rb->nodes_r[r]);
		sqlite3_bind_double(st, 4, rb->mean_b[r]);
		sqlite3_bind_double(st, 5, rb->sd_b[r]);
		sqlite3_bind_double(st, 6, rb->mean_a[r]);
		sqlite3_bind_double(st, 7, rb->sd_a[r]);
		if (sqlite3_step(st) != SQLITE_DONE)
			FAIL("rebalance_util");
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "INSERT INTO rebalance_node(run_id, node_id, moves_out, moves_in, freed) "
				   "VALUES(?1, ?2, ?3, ?4, ?5)", -1, &st, NULL) != SQLITE_OK)
		FAIL("rebalance_node");
	for (int n = 0; n < s->nnodes; n++) {
		int freed = rb->had_app && rb->had_app[n] && !app_pods(s, n);
		if (!in[n] && !out[n] && !freed)
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, s->node_db_id[n]);
		sqlite3_bind_int(st, 3, out[n]);
		sqlite3_bind_int(st, 4, in[n]);
		sqlite3_bind_int(st, 5, freed);
		if (sqlite3_step(st) != SQLITE_DONE)
			FAIL("rebalance_node");
	}
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(db, "UPDATE run SET mode = 'rebalance' WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
		FAIL("run");
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) != SQLITE_DONE)
		FAIL("run");
done:
#undef FAIL
	sqlite3_finalize(st);
	kp_sb_release(&sb);
	kp_sb_release(&names);
	kp_free(in);
	kp_free(out);
	return rc;
}

void kp_rebalance_print(const kp_rebalance *rb, FILE *out)
{
	if (!rb)
		return;
	fprintf(out, "rebalance: %d move%s in %d wave%s, %ld node%s freed, cost %g; not proposed: %ld without another "
		     "node, %ld over a limit or budget, %ld kept by the evictor's rules; utilisation std-dev cpu %.1f -> %.1f, memory %.1f -> %.1f, pods %.1f -> %.1f\n",
		rb->nmoves, rb->nmoves == 1 ? "" : "s", rb->nwaves, rb->nwaves == 1 ? "" : "s", rb->nodes_freed,
		rb->nodes_freed == 1 ? "" : "s", rb->cost, rb->no_home, rb->limited, rb->kept, rb->sd_b[R_CPU], rb->sd_a[R_CPU],
		rb->sd_b[R_MEM], rb->sd_a[R_MEM], rb->sd_b[R_PODS], rb->sd_a[R_PODS]);
}
