/*
 * registry.h — the plugins kplan runs: one descriptor each, and the
 * registry that lists them (kube-scheduler's framework/runtime Registry and
 * apis/config/v1/default_plugins.go in one place).
 *
 * A plugin is one file in planner/plugins/ that names itself:
 *
 *   const kp_plugin kp_plugin_taint_toleration = {
 *           .name = "TaintToleration",      kube's plugin name
 *           .weight = 3,                    its weight in kube's default profile
 *           .filter = filter,
 *           .score = score,
 *           .normalize = normalize,
 *   };
 *
 * and one line X(TAINT_TOLERATION, taint_toleration) in KP_PLUGIN_LIST
 * below.  That line makes the index KP_P_TAINT_TOLERATION, declares the
 * descriptor, and puts it in kp_plugins[] and its name in kp_plugin_names[]
 * (registry.c).  Profiles (profile.c) take from the descriptors which points a
 * plugin can be enabled at (a NULL function pointer: not at that point), and
 * kube's default profile: every filter of a kube plugin, every plugin with a
 * default weight at Score, every PostFilter.
 */
#ifndef KP_REGISTRY_H
#define KP_REGISTRY_H

#include <stdint.h>

/* Every plugin, in kube's default order (default_plugins.go): the filter
 * order decides which reason a node reports, and scores are summed in this
 * order.  X(INDEX, file): KP_P_<INDEX> is its index, kp_plugin_<file> its
 * descriptor, defined in planner/plugins/<file>.c.  HTTP_EXTENDER names the
 * verdicts of kube's HTTP extenders ("Extender").  SQL_EXTENDER is kplan's
 * own (after kube's filters, as HTTP extenders run); so are FGD_SCORE (the FGD
 * paper's score, --strategy fgd) and GPU_PACK_SCORE (--strategy gpu-pack).
 * NODE_DECLARED_FEATURES is kube's (1.35+): applyFeatureGates appends it
 * after DefaultBinder, so it is kube's last filter; DefaultBinder has no
 * filter, so here it stands before the SQL extenders.  Its place in a
 * version's default profile: profile.c kp_profile_for_kube. */
#define KP_PLUGIN_LIST(X) \
	X(PRIORITY_SORT, priority_sort) \
	X(NODE_UNSCHEDULABLE, node_unschedulable) \
	X(NODE_NAME, node_name) \
	X(TAINT_TOLERATION, taint_toleration) \
	X(NODE_AFFINITY, node_affinity) \
	X(NODE_PORTS, node_ports) \
	X(NODE_RESOURCES_FIT, node_resources_fit) \
	X(VOLUME_RESTRICTIONS, volume_restrictions) \
	X(NODE_VOLUME_LIMITS, node_volume_limits) \
	X(VOLUME_BINDING, volume_binding) \
	X(VOLUME_ZONE, volume_zone) \
	X(POD_TOPOLOGY_SPREAD, pod_topology_spread) \
	X(INTER_POD_AFFINITY, inter_pod_affinity) \
	X(DYNAMIC_RESOURCES, dynamic_resources) \
	X(DEFAULT_PREEMPTION, default_preemption) \
	X(BALANCED_ALLOCATION, balanced_allocation) \
	X(IMAGE_LOCALITY, image_locality) \
	X(FGD_SCORE, fgd_score) \
	X(GPU_PACK_SCORE, gpu_pack_score) \
	X(NODE_DECLARED_FEATURES, node_declared_features) \
	X(SQL_EXTENDER, sql_extender) \
	X(HTTP_EXTENDER, http_extender) \
	X(DEFAULT_BINDER, default_binder)

#define KP_PLUGIN_ENUM_(index, file) KP_P_##index,
enum { KP_PLUGIN_LIST(KP_PLUGIN_ENUM_) KP_P_COUNT };
#undef KP_PLUGIN_ENUM_

struct kp_cycle;             /* cycle.h */
struct kp_preempt_result;    /* preemption.h */

/* The longest plugin name, with its NUL. */
#define KP_PLUGIN_NAME_MAX 40

typedef struct kp_plugin {
	/* kube's plugin name: what profiles enable and disable, and what a
	 * failure reason names.  An array, not a pointer, so that
	 * kp_plugin_names[] can point into it at compile time. */
	char name[KP_PLUGIN_NAME_MAX];
	/* score weight in kube's default profile; 0: not scored by default */
	int64_t weight;
	/* not a kube-scheduler plugin: profiles cannot name it, and it is
	 * enabled by its own configuration (the SQL extenders) */
	uint8_t kplan_own;
	/* its Filter (local_filter) or Score (local_score) depends only on the
	 * pod's scheduling class and the node's own state: the plan keeps the
	 * verdict or raw score per node and recomputes it only for a new class
	 * or a node that changed (plan_cycle.c).  Set it only when true: a
	 * plugin without it is evaluated every time, correct but slower. */
	uint8_t local_filter, local_score;
	/* the extension points; NULL: the plugin does not take part there.
	 * Filter returns 0 (pass) or 1 (fail, after kp_cycle_fail()). */
	int (*pre_filter)(struct kp_cycle *cy);                   /* KP_OK, KP_SKIP, KP_PREFILTER_FAIL or < 0 */
	int (*filter)(struct kp_cycle *cy, int node);
	int (*post_filter)(struct kp_cycle *cy, const int64_t *allowed, struct kp_preempt_result *out);
	int (*pre_score)(struct kp_cycle *cy);                    /* KP_OK, KP_SKIP, or < 0 error */
	int64_t (*score)(struct kp_cycle *cy, int node);
	void (*normalize)(struct kp_cycle *cy, int64_t *scores);  /* scores indexed by node, over cy->feas */
} kp_plugin;

#define KP_PLUGIN_EXTERN_(index, file) extern const kp_plugin kp_plugin_##file;
KP_PLUGIN_LIST(KP_PLUGIN_EXTERN_)
#undef KP_PLUGIN_EXTERN_

/* the registry, indexed by KP_P_*; every entry is set */
extern const kp_plugin *const kp_plugins[KP_P_COUNT];
/* kp_plugins[i]->name, as a table: the same pointers (failure reasons
 * compare plugin names by pointer) */
extern const char *const kp_plugin_names[KP_P_COUNT];

#endif
