/*
 * rebalance.c — `kplan plan --mode rebalance` (rebalance.h): the object,
 * the command-line options, defaults and checks (kp_rebalance_finish), the
 * effective settings as JSON and the summary line.  The other parts are
 * listed in rebalance_int.h.
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
#include "rebalance_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const kp_rb_snames[S_COUNT] = {
	"RemovePodsViolatingNodeTaints", "RemovePodsViolatingNodeAffinity", "RemovePodsViolatingInterPodAntiAffinity",
	"RemoveDuplicates", "RemovePodsViolatingTopologySpreadConstraint", "LowNodeUtilization", "HighNodeUtilization",
};
/* default set: everything but HighNodeUtilization (it packs; LowNodeUtilization spreads) */
#define DEFAULT_STRATEGIES ((1u << S_COUNT) - 1 - (1u << S_HIGH))

const char *const kp_rb_rnames[R_COUNT] = { "cpu", "memory", "pods" };

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

void kp_rb_free_list(char **v, int n)
{
	for (int i = 0; i < n; i++)
		kp_free(v[i]);
	kp_free(v);
}

void kp_rebalance_free(kp_rebalance *rb)
{
	if (!rb)
		return;
	kp_rb_free_list(rb->ns_list, rb->nns);
	kp_rb_free_list(rb->excluded_taints, rb->nexcluded_taints);
	kp_rb_free_list(rb->dup_exclude_kinds, rb->ndup_exclude);
	for (int i = 0; i < rb->nmoves; i++)
		kp_free(rb->moves[i].detail);
	kp_free(rb->moves);
	kp_free(rb->had_app);
	kp_free(rb);
}

long kp_rebalance_moves(const kp_rebalance *rb) { return rb ? rb->nmoves : 0; }

/* ---- settings ---- */

int kp_rb_strategy_index(const char *name)
{
	for (int i = 0; i < S_COUNT; i++)
		if (!strcmp(name, kp_rb_snames[i]))
			return i;
	return -1;
}

int kp_rb_usage(kp_err *err, const char *fmt, ...)
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
	kp_rb_free_list(*out, *n);
	*out = NULL;
	*n = 0;
	const char *p = v;
	while (1) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (!len)
			return kp_rb_usage(err, "--%s: empty name in '%s'", option, v);
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

int kp_rb_parse_count(const char *v, long *out)
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
		int k = kp_rb_strategy_index(names[i]);
		if (k < 0)
			rc = kp_rb_usage(err, "--strategies: unknown strategy '%s' (known: RemovePodsViolatingNodeTaints, "
					"RemovePodsViolatingNodeAffinity, RemovePodsViolatingInterPodAntiAffinity, "
					"RemovePodsViolatingTopologySpreadConstraint, RemoveDuplicates, LowNodeUtilization, "
					"HighNodeUtilization)", names[i]);
		mask |= 1u << (k < 0 ? 0 : k);
	}
	kp_rb_free_list(names, n);
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
		if (!kp_rb_parse_count(value, &x))
			return kp_rb_usage(err, "--%s needs a non-negative integer, got '%s'", option, value);
		*(!strcmp(option, "max-moves") ? &rb->max_moves
		  : !strcmp(option, "max-moves-per-node") ? &rb->max_per_node : &rb->max_per_ns) = x;
		return KP_OK;
	}
	if (!strcmp(option, "priority-threshold")) {
		char *end;
		errno = 0;
		long long p = strtoll(value, &end, 10);
		if (errno || *end || !*value || p < INT32_MIN || p > (long long)INT32_MAX + 1)
			return kp_rb_usage(err, "--priority-threshold needs an integer priority, got '%s'", value);
		rb->has_prio = 1;
		rb->prio = p;
		return KP_OK;
	}
	if (!strcmp(option, "evict-bare-pods")) {   /* a flag: the CLI passes "true" */
		if (strcmp(value, "true") && strcmp(value, "false"))
			return kp_rb_usage(err, "--evict-bare-pods: expected true or false, got '%s'", value);
		rb->evict_bare = value[0] == 't';
		return KP_OK;
	}
	if (!strcmp(option, "namespaces") || !strcmp(option, "exclude-namespaces")) {
		int ex = option[0] == 'e';
		if (rb->nns && rb->ns_exclude != ex)
			return kp_rb_usage(err, "--namespaces and --exclude-namespaces cannot be combined");
		rb->ns_exclude = ex;
		return split_list(value, &rb->ns_list, &rb->nns, err, option);
	}
	return kp_rb_usage(err, "unknown rebalance option '--%s'", option);
}

int kp_rebalance_finish(kp_rebalance *rb, kp_err *err)
{
	if (!rb->strategies_set)
		rb->strategies = DEFAULT_STRATEGIES;
	if (rb->strategies & (1u << S_LOW))
		for (int r = 0; r < R_COUNT; r++)
			if (rb->low_thr[r] > rb->low_target[r])
				return kp_rb_usage(err, "LowNodeUtilization: thresholds.%s (%g) above targetThresholds.%s (%g)",
						   kp_rb_rnames[r], rb->low_thr[r], kp_rb_rnames[r], rb->low_target[r]);
	return KP_OK;
}

/* ---- the effective settings ---- */

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

void kp_rb_settings_json(const kp_rebalance *rb, kp_sb *sb)
{
	kp_sb_adds(sb, "{\"strategies\":[");
	int first = 1;
	for (int i = 0; i < S_COUNT; i++)
		if (rb->strategies & (1u << i)) {
			kp_sb_printf(sb, "%s\"%s\"", first ? "" : ",", kp_rb_snames[i]);
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
	kp_rb_settings_json(rb, sb);
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
