/*
 * test_plugin_registry.c — the plugin registry (planner/registry.h): every
 * plugin names itself with kube's name, in kube's default order, with the
 * score weight of kube's default profile (kubernetes/kubernetes
 * pkg/scheduler/apis/config/v1/default_plugins.go, getDefaultPlugins), and
 * the default profile (planner/profile.c) is built from the descriptors.
 */
#include <string.h>

#include "../../planner/cycle.h"
#include "../../planner/profile.h"
#include "tap.h"

typedef struct want_plugin {
	int index;
	const char *name;
	int64_t weight;           /* default_plugins.go; 0: no weight there */
	int filter, score, post_filter;   /* in kube's default profile */
	int local_filter, local_score;    /* the plan's node cache may keep its verdict / raw score */
} want_plugin;

/* getDefaultPlugins' MultiPoint list (of kube's newer releases: the cloud
 * volume-limit plugins gone) without the gating plugin kplan accepts and
 * ignores, plus kplan's own: the GPU scores FGDScore and GpuPackScore (off
 * unless --strategy names them), SQLExtender and Extender (HTTP extenders' verdicts).  VolumeBinding's Score (weight 1 in
 * kube) scores only with StorageCapacityScoring, off before 1.37: kplan does
 * not run it. */
static const want_plugin wants[] = {
	{KP_P_PRIORITY_SORT, "PrioritySort", 0, 0, 0, 0, 0, 0},
	{KP_P_NODE_UNSCHEDULABLE, "NodeUnschedulable", 0, 1, 0, 0, 1, 0},
	{KP_P_NODE_NAME, "NodeName", 0, 1, 0, 0, 1, 0},
	{KP_P_TAINT_TOLERATION, "TaintToleration", 3, 1, 1, 0, 1, 1},
	{KP_P_NODE_AFFINITY, "NodeAffinity", 2, 1, 1, 0, 1, 1},
	{KP_P_NODE_PORTS, "NodePorts", 0, 1, 0, 0, 1, 0},
	{KP_P_NODE_RESOURCES_FIT, "NodeResourcesFit", 1, 1, 1, 0, 1, 1},
	{KP_P_VOLUME_RESTRICTIONS, "VolumeRestrictions", 0, 1, 0, 0, 0, 0},
	{KP_P_NODE_VOLUME_LIMITS, "NodeVolumeLimits", 0, 1, 0, 0, 0, 0},
	{KP_P_VOLUME_BINDING, "VolumeBinding", 0, 1, 0, 0, 0, 0},
	{KP_P_VOLUME_ZONE, "VolumeZone", 0, 1, 0, 0, 0, 0},
	{KP_P_POD_TOPOLOGY_SPREAD, "PodTopologySpread", 2, 1, 1, 0, 0, 0},
	{KP_P_INTER_POD_AFFINITY, "InterPodAffinity", 2, 1, 1, 0, 0, 0},
	{KP_P_DYNAMIC_RESOURCES, "DynamicResources", 0, 1, 0, 0, 0, 0},   /* Score (1.35+) not run */
	{KP_P_DEFAULT_PREEMPTION, "DefaultPreemption", 0, 0, 0, 1, 0, 0},
	{KP_P_BALANCED_ALLOCATION, "NodeResourcesBalancedAllocation", 1, 0, 1, 0, 0, 1},
	{KP_P_IMAGE_LOCALITY, "ImageLocality", 1, 0, 1, 0, 0, 1},
	{KP_P_FGD_SCORE, "FGDScore", 0, 0, 0, 0, 0, 0},          /* kplan's own: --strategy fgd */
	{KP_P_GPU_PACK_SCORE, "GpuPackScore", 0, 0, 0, 0, 0, 0},  /* kplan's own: --strategy gpu-pack */
	{KP_P_NODE_DECLARED_FEATURES, "NodeDeclaredFeatures", 0, 1, 0, 0, 1, 0},   /* 1.36+ (gate) */
	{KP_P_SQL_EXTENDER, "SQLExtender", 0, 0, 0, 0, 0, 0},    /* kplan's own: off until configured */
	{KP_P_HTTP_EXTENDER, "Extender", 0, 0, 0, 0, 0, 0},      /* kube's HTTP extenders' verdicts (framework.ExtenderName) */
	{KP_P_DEFAULT_BINDER, "DefaultBinder", 0, 0, 0, 0, 0, 0},
};

/* a KubeSchedulerConfiguration that names each plugin: accepted, or the error */
typedef struct config_case {
	const char *name;
	const char *plugins;      /* the profile's plugins: */
	int ok;
} config_case;

static const config_case config_cases[] = {
	{"a kube plugin at its point", "{filter: {disabled: [{name: NodePorts}]}}", 1},
	{"the queue sort plugin", "{queueSort: {enabled: [{name: PrioritySort}]}}", 1},
	{"the binder", "{bind: {enabled: [{name: DefaultBinder}]}}", 1},
	{"the post filter", "{postFilter: {disabled: [{name: DefaultPreemption}]}}", 1},
	{"kplan's own plugin cannot be named", "{filter: {enabled: [{name: SQLExtender}]}}", 0},
	{"an out-of-tree plugin", "{filter: {enabled: [{name: Coscheduling}]}}", 0},
	{"a volume plugin disabled", "{filter: {disabled: [{name: VolumeBinding}, {name: VolumeZone}]}}", 1},
	{"a cloud volume-limit plugin kube dropped", "{filter: {enabled: [{name: EBSLimits}]}}", 1},
};

int main(void)
{
	TAP_EQ_I64(KP_P_COUNT, (int64_t)(sizeof wants / sizeof *wants), "the registry has every plugin");
	for (size_t i = 0; i < sizeof wants / sizeof *wants; i++) {
		const want_plugin *w = &wants[i];
		const kp_plugin *pg = kp_plugins[w->index];
		TAP_OK(pg != NULL, "%s: registered at its index", w->name);
		if (!pg)
			continue;
		TAP_OK(memchr(pg->name, 0, sizeof pg->name) != NULL, "%s: name fits KP_PLUGIN_NAME_MAX", w->name);
		TAP_EQ_STR(pg->name, w->name, "%s: kube's name, in kube's order", w->name);
		TAP_OK(kp_plugin_names[w->index] == pg->name, "%s: kp_plugin_names points into the descriptor", w->name);
		TAP_EQ_I64(pg->weight, w->weight, "%s: default weight", w->name);
		TAP_EQ_I64(pg->kplan_own, w->index == KP_P_SQL_EXTENDER || w->index == KP_P_HTTP_EXTENDER || w->index == KP_P_FGD_SCORE || w->index == KP_P_GPU_PACK_SCORE, "%s: kplan's own or kube's", w->name);
		/* node-local: spread and inter-pod affinity depend on other nodes' pods */
		TAP_EQ_I64(pg->local_filter, w->local_filter, "%s: node-local filter (cached per node)", w->name);
		TAP_EQ_I64(pg->local_score, w->local_score, "%s: node-local score (cached per node)", w->name);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(kp_plugins[wants[j].index]->name, pg->name))
				TAP_OK(0, "%s: name used twice", w->name);
	}

	kp_profile p;
	kp_profile_default(&p, NULL);
	for (size_t i = 0; i < sizeof wants / sizeof *wants; i++) {
		const want_plugin *w = &wants[i];
		TAP_EQ_I64(p.filter[w->index], w->filter, "default profile: %s at Filter", w->name);
		TAP_EQ_I64(p.score[w->index], w->score, "default profile: %s at Score", w->name);
		TAP_EQ_I64(p.weight[w->index], w->weight, "default profile: %s weight", w->name);
		TAP_EQ_I64(p.post_filter[w->index], w->post_filter, "default profile: %s at PostFilter", w->name);
	}

	kp_config cfg;
	kp_config_default(&cfg, NULL);
	TAP_OK(kp_config_to_json(&cfg) == KP_OK && cfg.json, "default profile as JSON");
	const char *json = cfg.json ? cfg.json : "";
	TAP_OK(strstr(json, "\"filter\":[\"NodeUnschedulable\",\"NodeName\",\"TaintToleration\",\"NodeAffinity\","
			    "\"NodePorts\",\"NodeResourcesFit\",\"VolumeRestrictions\",\"NodeVolumeLimits\",\"VolumeBinding\","
			    "\"VolumeZone\",\"PodTopologySpread\",\"InterPodAffinity\",\"DynamicResources\",\"NodeDeclaredFeatures\"]") != NULL,
	       "JSON: the filters in kube's order (%s)", json);
	TAP_OK(strstr(json, "\"score\":{\"TaintToleration\":3,\"NodeAffinity\":2,\"NodeResourcesFit\":1,"
			    "\"PodTopologySpread\":2,\"InterPodAffinity\":2,\"NodeResourcesBalancedAllocation\":1,"
			    "\"ImageLocality\":1}") != NULL, "JSON: the scores and weights");
	TAP_OK(strstr(json, "\"postFilter\":[\"DefaultPreemption\"]") != NULL, "JSON: the post filter");
	kp_config_release(&cfg);

	/* the default profile per version (default_plugins.go getDefaultPlugins +
	 * applyFeatureGates; docs/kube-versions.md §1): DynamicResources from
	 * 1.34 (DynamicResourceAllocation), NodeDeclaredFeatures from 1.36 */
	for (int minor = KP_KUBE_OLDEST; minor <= KP_KUBE_NEWEST; minor++) {
		kp_kube k;
		kp_kube_init(&k, minor);
		kp_profile_default(&p, &k);
		TAP_EQ_I64(p.filter[KP_P_DYNAMIC_RESOURCES], minor >= 34, "1.%d: DynamicResources in the default profile", minor);
		TAP_EQ_I64(p.filter[KP_P_NODE_DECLARED_FEATURES], minor >= 36, "1.%d: NodeDeclaredFeatures in the default profile", minor);
		TAP_EQ_I64(p.weight[KP_P_BALANCED_ALLOCATION], 1, "1.%d: BalancedAllocation weight 1", minor);
	}
	{
		kp_kube k;
		kp_kube_init(&k, 33);
		kp_err e = { 0 };
		TAP_OK(kp_kube_set_gates(&k, "DynamicResourceAllocation=true", "test", &e) == KP_OK, "1.33: DRA gate on");
		kp_profile_default(&p, &k);
		TAP_EQ_I64(p.filter[KP_P_DYNAMIC_RESOURCES], 1, "1.33 with DynamicResourceAllocation=true: DynamicResources inserted");
		kp_kube_init(&k, 35);
		TAP_OK(kp_kube_set_gates(&k, "NodeDeclaredFeatures=true", "test", &e) == KP_OK, "1.35: NDF gate on");
		kp_profile_default(&p, &k);
		TAP_EQ_I64(p.filter[KP_P_NODE_DECLARED_FEATURES], 1, "1.35 with NodeDeclaredFeatures=true: appended");
		/* a configuration's profile starts from the version's defaults */
		kp_kube_init(&k, 33);
		memset(&cfg, 0, sizeof cfg);
		kp_config_set_kube(&cfg, &k);
		const char *t = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
				"profiles:\n- schedulerName: default-scheduler\n";
		TAP_OK(kp_config_parse(t, strlen(t), "test", &cfg, &e) == KP_OK, "1.33 configuration parsed");
		TAP_EQ_I64(cfg.nprofiles && !cfg.profiles[0].filter[KP_P_DYNAMIC_RESOURCES], 1,
			   "1.33 configuration: no DynamicResources from the defaults");
		kp_config_release(&cfg);
	}

	for (size_t i = 0; i < sizeof config_cases / sizeof *config_cases; i++) {
		const config_case *c = &config_cases[i];
		char text[1024];
		snprintf(text, sizeof text, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
			 "profiles:\n- schedulerName: default-scheduler\n  plugins: %s\n", c->plugins);
		kp_err err = { 0 };
		memset(&cfg, 0, sizeof cfg);
		int rc = kp_config_parse(text, strlen(text), "test", &cfg, &err);
		TAP_EQ_I64(rc == KP_OK, c->ok, "config: %s (%s)", c->name, err.msg);
		kp_config_release(&cfg);
	}
	return tap_done();
}
