/*
 * test_plugin_node_resources_fit.c — NodeResourcesFit's Filter and Score
 * (planner/plugins/node_resources_fit.c) and
 * NodeResourcesBalancedAllocation's Score (balanced_allocation.c) on the
 * cases of kube's own unit tests, kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/noderesources/:
 *   fit_test.go                  TestEnoughRequests, TestNotEnoughRequests,
 *                                TestStorageRequests, TestFitScore
 *   balanced_allocation_test.go  TestNodeResourcesBalancedAllocation
 * (v1.28–v1.31; BalancedAllocation's as kube 1.35's test has them, planned as
 * 1.35, and the 1.36 formula on the first case).  The score formulas alone are in test_scores.c; here the
 * plugins read the requests and the pods on each node from the snapshot.
 *
 * Containers are written "cpu=1m memory=1" (requests), several separated
 * by "|"; quantities as kube's tests build them (resource.NewMilliQuantity
 * for cpu, bytes for memory).
 */
#include "tap.h"
#include "tap_snap.h"

/* makeAllocatableResources(10, 20, 32, 5, 20, 5) and (10, 20, 1, 0, 0, 0) */
#define NODE_ENOUGH "{cpu: 10m, memory: '20', pods: '32', example.com/aaa: '5', ephemeral-storage: '20', hugepages-2Mi: '5'}"
#define NODE_ONE_POD "{cpu: 10m, memory: '20', pods: '1', example.com/aaa: '0', ephemeral-storage: '0', hugepages-2Mi: '0'}"

#define INS(r) "Insufficient " r
#define FAIL1(a) "Unschedulable: " a
#define FAIL2(a, b) "Unschedulable: " a ", " b

#define IGNORED_BBB "profiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n" \
	"    args: {ignoredResources: [example.com/bbb]}\n"
#define IGNORED_GROUP "profiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n" \
	"    args: {ignoredResourceGroups: [example.com]}\n"

typedef struct fit_case {
	const char *name;
	const char *containers, *init, *overhead;   /* the pending pod */
	const char *existing;     /* the containers of the pod already on the node */
	const char *alloc;        /* the node's allocatable */
	const char *config;       /* the profile's NodeResourcesFitArgs, NULL: defaults */
	const char *want;
} fit_case;

static const fit_case fit_cases[] = {
	/* TestEnoughRequests */
	{"no resources requested always fits", "", NULL, NULL, "cpu=10m memory=20", NODE_ENOUGH, NULL, ""},
	{"too many resources fails", "cpu=1m memory=1", NULL, NULL, "cpu=10m memory=20", NODE_ENOUGH, NULL,
	 FAIL2(INS("cpu"), INS("memory"))},
	{"too many resources fails due to init container cpu", "cpu=1m memory=1", "cpu=3m memory=1", NULL,
	 "cpu=8m memory=19", NODE_ENOUGH, NULL, FAIL1(INS("cpu"))},
	{"too many resources fails due to highest init container cpu", "cpu=1m memory=1", "cpu=3m memory=1|cpu=2m memory=1",
	 NULL, "cpu=8m memory=19", NODE_ENOUGH, NULL, FAIL1(INS("cpu"))},
	{"too many resources fails due to init container memory", "cpu=1m memory=1", "cpu=1m memory=3", NULL,
	 "cpu=9m memory=19", NODE_ENOUGH, NULL, FAIL1(INS("memory"))},
	{"too many resources fails due to highest init container memory", "cpu=1m memory=1",
	 "cpu=1m memory=3|cpu=1m memory=2", NULL, "cpu=9m memory=19", NODE_ENOUGH, NULL, FAIL1(INS("memory"))},
	{"init container fits because it's the max, not sum, of containers and init containers", "cpu=1m memory=1",
	 "cpu=1m memory=1", NULL, "cpu=9m memory=19", NODE_ENOUGH, NULL, ""},
	{"multiple init containers fit because it's the max, not sum, of containers and init containers",
	 "cpu=1m memory=1", "cpu=1m memory=1|cpu=1m memory=1", NULL, "cpu=9m memory=19", NODE_ENOUGH, NULL, ""},
	{"both resources fit", "cpu=1m memory=1", NULL, NULL, "cpu=5m memory=5", NODE_ENOUGH, NULL, ""},
	{"one resource memory fits", "cpu=2m memory=1", NULL, NULL, "cpu=9m memory=5", NODE_ENOUGH, NULL, FAIL1(INS("cpu"))},
	{"one resource cpu fits", "cpu=1m memory=2", NULL, NULL, "cpu=5m memory=19", NODE_ENOUGH, NULL,
	 FAIL1(INS("memory"))},
	{"equal edge case", "cpu=5m memory=1", NULL, NULL, "cpu=5m memory=19", NODE_ENOUGH, NULL, ""},
	{"equal edge case for init container", "cpu=4m memory=1", "cpu=5m memory=1", NULL, "cpu=5m memory=19",
	 NODE_ENOUGH, NULL, ""},
	{"extended resource fits", "example.com/aaa=1", NULL, NULL, "", NODE_ENOUGH, NULL, ""},
	{"extended resource fits for init container", "", "example.com/aaa=1", NULL, "", NODE_ENOUGH, NULL, ""},
	{"extended resource capacity enforced", "cpu=1m memory=1 example.com/aaa=10", NULL, NULL, "example.com/aaa=0",
	 NODE_ENOUGH, NULL, FAIL1(INS("example.com/aaa"))},
	{"extended resource capacity enforced for init container", "", "cpu=1m memory=1 example.com/aaa=10", NULL,
	 "example.com/aaa=0", NODE_ENOUGH, NULL, FAIL1(INS("example.com/aaa"))},
	{"extended resource allocatable enforced", "cpu=1m memory=1 example.com/aaa=1", NULL, NULL, "example.com/aaa=5",
	 NODE_ENOUGH, NULL, FAIL1(INS("example.com/aaa"))},
	{"extended resource allocatable enforced for init container", "", "cpu=1m memory=1 example.com/aaa=1", NULL,
	 "example.com/aaa=5", NODE_ENOUGH, NULL, FAIL1(INS("example.com/aaa"))},
	{"extended resource allocatable enforced for multiple containers",
	 "cpu=1m memory=1 example.com/aaa=3|cpu=1m memory=1 example.com/aaa=3", NULL, NULL, "example.com/aaa=2",
	 NODE_ENOUGH, NULL, FAIL1(INS("example.com/aaa"))},
	{"extended resource allocatable admits multiple init containers", "",
	 "cpu=1m memory=1 example.com/aaa=3|cpu=1m memory=1 example.com/aaa=3", NULL, "example.com/aaa=2", NODE_ENOUGH,
	 NULL, ""},
	{"extended resource allocatable enforced for multiple init containers", "",
	 "cpu=1m memory=1 example.com/aaa=6|cpu=1m memory=1 example.com/aaa=3", NULL, "example.com/aaa=2", NODE_ENOUGH,
	 NULL, FAIL1(INS("example.com/aaa"))},
	{"extended resource allocatable enforced for unknown resource", "cpu=1m memory=1 example.com/bbb=1", NULL, NULL,
	 "", NODE_ENOUGH, NULL, FAIL1(INS("example.com/bbb"))},
	{"extended resource allocatable enforced for unknown resource for init container", "",
	 "cpu=1m memory=1 example.com/bbb=1", NULL, "", NODE_ENOUGH, NULL, FAIL1(INS("example.com/bbb"))},
	{"kubernetes.io resource capacity enforced", "cpu=1m memory=1 kubernetes.io/something=10", NULL, NULL, "",
	 NODE_ENOUGH, NULL, FAIL1(INS("kubernetes.io/something"))},
	{"kubernetes.io resource capacity enforced for init container", "",
	 "cpu=1m memory=1 subdomain.kubernetes.io/something=10", NULL, "", NODE_ENOUGH, NULL,
	 FAIL1(INS("subdomain.kubernetes.io/something"))},
	{"hugepages resource capacity enforced", "cpu=1m memory=1 hugepages-2Mi=10", NULL, NULL, "hugepages-2Mi=0",
	 NODE_ENOUGH, NULL, FAIL1(INS("hugepages-2Mi"))},
	{"hugepages resource capacity enforced for init container", "", "cpu=1m memory=1 hugepages-2Mi=10", NULL,
	 "hugepages-2Mi=0", NODE_ENOUGH, NULL, FAIL1(INS("hugepages-2Mi"))},
	{"hugepages resource allocatable enforced for multiple containers",
	 "cpu=1m memory=1 hugepages-2Mi=3|cpu=1m memory=1 hugepages-2Mi=3", NULL, NULL, "hugepages-2Mi=2", NODE_ENOUGH,
	 NULL, FAIL1(INS("hugepages-2Mi"))},
	{"skip checking ignored extended resource", "cpu=1m memory=1 example.com/bbb=1", NULL, NULL, "", NODE_ENOUGH,
	 IGNORED_BBB, ""},
	{"resources + pod overhead fits", "cpu=1m memory=1", NULL, "{cpu: 3m, memory: '13'}", "cpu=5m memory=5",
	 NODE_ENOUGH, NULL, ""},
	{"requests + overhead does not fit for memory", "cpu=1m memory=1", NULL, "{cpu: 1m, memory: '15'}",
	 "cpu=5m memory=5", NODE_ENOUGH, NULL, FAIL1(INS("memory"))},
	{"skip checking ignored extended resource via resource groups",
	 "cpu=1m memory=1 example.com/bbb=1 kubernetes.io/something=1", NULL, NULL, "", NODE_ENOUGH, IGNORED_GROUP,
	 FAIL1(INS("kubernetes.io/something"))},
	{"skip checking extended resource request with quantity zero via resource groups",
	 "cpu=1m memory=1 example.com/aaa=0", NULL, NULL, "example.com/aaa=6", NODE_ENOUGH, NULL, ""},
	{"skip checking resource request with quantity zero", "example.com/aaa=1", NULL, NULL,
	 "cpu=20m memory=30 example.com/aaa=1", NODE_ENOUGH, NULL, ""},
	/* TestNotEnoughRequests */
	{"even without specified resources, predicate fails when there's no space for additional pod", "", NULL, NULL,
	 "cpu=10m memory=20", NODE_ONE_POD, NULL, FAIL1("Too many pods")},
	{"even if both resources fit, predicate fails when there's no space for additional pod", "cpu=1m memory=1", NULL,
	 NULL, "cpu=5m memory=5", NODE_ONE_POD, NULL, FAIL1("Too many pods")},
	{"even for equal edge case, predicate fails when there's no space for additional pod", "cpu=5m memory=1", NULL,
	 NULL, "cpu=5m memory=19", NODE_ONE_POD, NULL, FAIL1("Too many pods")},
	{"even for equal edge case, predicate fails when there's no space for additional pod due to init container",
	 "cpu=5m memory=1", "cpu=5m memory=1", NULL, "cpu=5m memory=19", NODE_ONE_POD, NULL, FAIL1("Too many pods")},
	/* TestStorageRequests */
	{"empty storage requested, and pod fits", "cpu=1m memory=1", NULL, NULL, "cpu=2m memory=10", NODE_ENOUGH, NULL, ""},
	{"storage ephemeral local storage request exceeds allocatable", "ephemeral-storage=25", NULL, NULL,
	 "cpu=2m memory=2", NODE_ENOUGH, NULL, FAIL1(INS("ephemeral-storage"))},
	{"ephemeral local storage is sufficient", "ephemeral-storage=5", NULL, NULL, "cpu=2m memory=2 ephemeral-storage=10",
	 NODE_ENOUGH, NULL, ""},
	{"pod fits", "ephemeral-storage=10", NULL, NULL, "cpu=2m memory=2", NODE_ENOUGH, NULL, ""},
	/* kplan's own: every failing resource is reported, "Too many pods" first
	 * (fit.go fitsRequest collects them all) */
	{"kplan: too many pods and insufficient cpu together", "cpu=1m", NULL, NULL, "cpu=10m", NODE_ONE_POD, NULL,
	 FAIL2("Too many pods", INS("cpu"))},
};

/* "cpu=1m memory=1|..." as a YAML list of containers named PREFIX0.. */
static size_t containers_yaml(char *buf, size_t len, const char *spec, const char *prefix)
{
	size_t w = (size_t)snprintf(buf, len, "[");
	int i = 0;
	for (const char *s = spec; s && w < len;) {
		w += (size_t)snprintf(buf + w, len - w, "%s{name: %s%d, image: nginx, resources: {requests: {", i ? ", " : "",
				      prefix, i);
		int first = 1;
		while (*s && *s != '|' && w < len) {
			char name[128], value[64];
			int used = 0;
			if (sscanf(s, " %127[^= ]=%63[^ |]%n", name, value, &used) != 2 || !used)
				break;
			w += (size_t)snprintf(buf + w, len - w, "%s%s: '%s'", first ? "" : ", ", name, value);
			first = 0;
			s += used;
			while (*s == ' ')
				s++;
		}
		w += (size_t)snprintf(buf + w, len - w, "}}}");
		i++;
		if (*s != '|')
			break;
		s++;
	}
	w += (size_t)snprintf(buf + w, len - w, "]");
	return w;
}

static const char *fit_cluster(char *buf, size_t len, const fit_case *c)
{
	char ct[2048], init[2048], ex[2048], spec[8192];
	containers_yaml(ex, sizeof ex, c->existing, "c");
	size_t w = 0;
	if (c->init) {
		containers_yaml(init, sizeof init, c->init, "i");
		w += (size_t)snprintf(spec + w, sizeof spec - w, "initContainers: %s, ", init);
	}
	if (c->overhead)
		w += (size_t)snprintf(spec + w, sizeof spec - w, "overhead: %s, ", c->overhead);
	containers_yaml(ct, sizeof ct, c->containers, "c");
	snprintf(spec + w, sizeof spec - w, "containers: %s", ct);
	snprintf(buf, len,
		 "kind: Node\nmetadata: {name: n1}\nstatus: {allocatable: %s}\n---\n"
		 "kind: Pod\nmetadata: {name: existing}\nspec: {nodeName: n1, containers: %s}\nstatus: {phase: Running}\n---\n"
		 "kind: Pod\nmetadata: {name: p}\nspec: {%s}\n",
		 c->alloc, ex, spec);
	return buf;
}

/* ---- scores ---- */

typedef struct score_case {
	const char *name;
	const char *pod;               /* the pending pod's containers */
	const char *nodes[2][2];       /* name, allocatable */
	const char *existing[2][2];    /* node, containers of a pod on it */
	const char *args;              /* the plugin's args, NULL: defaults */
	const kp_plugin *plugin;
	const char *want;              /* raw scores (neither plugin normalises) */
	int minor;                     /* the kube version (0: 1.35) */
} score_case;

#define RTCR(shape) "{scoringStrategy: {type: RequestedToCapacityRatio, resources: [{name: cpu, weight: 1}, " \
	"{name: memory, weight: 1}], requestedToCapacityRatio: {shape: " shape "}}}"
#define STRATEGY(type) "{scoringStrategy: {type: " type ", resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]}}"
#define BAL_GPU "{resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}, {name: nvidia.com/gpu, weight: 1}]}"

/* kube's st.MakeNode().Capacity({"cpu": "4000", "memory": "10000"}): cores and bytes */
#define FIT_NODES {{"node1", "{cpu: '4000', memory: '10000'}"}, {"node2", "{cpu: '6000', memory: '10000'}"}}
#define FIT_EXISTING {{"node1", "cpu=2000 memory=4000"}, {"node2", "cpu=1000 memory=2000"}}
/* balanced_allocation_test.go's pods: cpuOnly on node1, cpuAndMemory on node2 */
#define CPU_ONLY "cpu=1000m memory=0|cpu=2000m memory=0"
#define CPU_AND_MEMORY "cpu=1000m memory=2000|cpu=2000m memory=3000"
#define CPU_AND_MEMORY_AND_GPU "cpu=1000m memory=2000|cpu=2000m memory=3000 nvidia.com/gpu=3"
/* makeNode(name, milliCPU, memory, scalar) */
#define MAKE_NODE(n, cpu, mem) {n, "{cpu: " cpu "m, memory: '" mem "', pods: '110'}"}
#define MAKE_NODE_GPU(n, cpu, mem) {n, "{cpu: " cpu "m, memory: '" mem "', pods: '110', nvidia.com/gpu: '8'}"}

static const score_case score_cases[] = {
	/* TestFitScore */
	{"test case for ScoringStrategy RequestedToCapacityRatio case1", "cpu=3000 memory=5000", FIT_NODES, FIT_EXISTING,
	 RTCR("[{utilization: 0, score: 10}, {utilization: 100, score: 0}]"), &kp_plugin_node_resources_fit,
	 "node1=10 node2=32", 0},
	{"test case for ScoringStrategy RequestedToCapacityRatio case2", "cpu=3000 memory=5000", FIT_NODES, FIT_EXISTING,
	 RTCR("[{utilization: 0, score: 0}, {utilization: 100, score: 10}]"), &kp_plugin_node_resources_fit,
	 "node1=95 node2=68", 0},
	{"test case for ScoringStrategy MostAllocated", "cpu=1000 memory=2000", FIT_NODES, FIT_EXISTING,
	 STRATEGY("MostAllocated"), &kp_plugin_node_resources_fit, "node1=67 node2=36", 0},
	{"test case for ScoringStrategy LeastAllocated", "cpu=1000 memory=2000", FIT_NODES, FIT_EXISTING,
	 STRATEGY("LeastAllocated"), &kp_plugin_node_resources_fit, "node1=32 node2=63", 0},
	/* TestNodeResourcesBalancedAllocation */
	{"nothing scheduled, resources requested, differently sized nodes", CPU_AND_MEMORY,
	 {MAKE_NODE("node1", "4000", "10000"), MAKE_NODE("node2", "6000", "10000")}, {{NULL, NULL}, {NULL, NULL}}, NULL,
	 &kp_plugin_balanced_allocation, "node1=87 node2=100", 0},
	{"resources requested, pods scheduled with resources", CPU_AND_MEMORY,
	 {MAKE_NODE("node1", "10000", "20000"), MAKE_NODE("node2", "10000", "20000")},
	 {{"node1", CPU_ONLY}, {"node2", CPU_AND_MEMORY}}, NULL, &kp_plugin_balanced_allocation, "node1=82 node2=95", 0},
	{"resources requested, pods scheduled with resources, differently sized nodes", CPU_AND_MEMORY,
	 {MAKE_NODE("node1", "10000", "20000"), MAKE_NODE("node2", "10000", "50000")},
	 {{"node1", CPU_ONLY}, {"node2", CPU_AND_MEMORY}}, NULL, &kp_plugin_balanced_allocation, "node1=82 node2=80", 0},
	{"requested resources at node capacity", CPU_ONLY,
	 {MAKE_NODE("node1", "6000", "10000"), MAKE_NODE("node2", "6000", "10000")},
	 {{"node1", CPU_ONLY}, {"node2", CPU_AND_MEMORY}}, NULL, &kp_plugin_balanced_allocation, "node1=50 node2=75", 0},
	{"include scalar resource on a node for balanced resource allocation", "memory=0 nvidia.com/gpu=1",
	 {MAKE_NODE_GPU("node1", "3500", "40000"), MAKE_NODE_GPU("node2", "3500", "40000")},
	 {{"node1", CPU_AND_MEMORY_AND_GPU}, {"node2", CPU_AND_MEMORY}}, BAL_GPU, &kp_plugin_balanced_allocation,
	 "node1=70 node2=65", 0},
	{"node without the scalar resource should skip the scalar resource", CPU_AND_MEMORY,
	 {MAKE_NODE_GPU("node1", "3500", "40000"), MAKE_NODE("node2", "3500", "40000")}, {{NULL, NULL}, {NULL, NULL}},
	 BAL_GPU, &kp_plugin_balanced_allocation, "node1=63 node2=63", 0},
	/* 1.36+ (PR #135573): 50 + (50 + B(with) - B(without)) / 2; node1 with
	 * 0.75/0.5 -> 87, without 100: 68; node2 0.5/0.5 -> 100 both: 75.
	 * Worked out from the formula (docs/kube-versions.md §3), not read in
	 * kube's 1.36 test table */
	{"nothing scheduled, resources requested, differently sized nodes (1.36 formula)", CPU_AND_MEMORY,
	 {MAKE_NODE("node1", "4000", "10000"), MAKE_NODE("node2", "6000", "10000")}, {{NULL, NULL}, {NULL, NULL}}, NULL,
	 &kp_plugin_balanced_allocation, "node1=68 node2=75", 36},
	{"nothing scheduled, resources requested, differently sized nodes (1.37)", CPU_AND_MEMORY,
	 {MAKE_NODE("node1", "4000", "10000"), MAKE_NODE("node2", "6000", "10000")}, {{NULL, NULL}, {NULL, NULL}}, NULL,
	 &kp_plugin_balanced_allocation, "node1=68 node2=75", 37},
};

static const char *score_cluster(char *buf, size_t len, const score_case *c, char *config, size_t clen)
{
	char ct[2048];
	size_t w = 0;
	for (int i = 0; i < 2 && w < len; i++)
		w += (size_t)snprintf(buf + w, len - w, "kind: Node\nmetadata: {name: %s}\nstatus: {allocatable: %s}\n---\n",
				      c->nodes[i][0], c->nodes[i][1]);
	for (int i = 0; i < 2 && w < len; i++) {
		if (!c->existing[i][0])
			continue;
		containers_yaml(ct, sizeof ct, c->existing[i][1], "c");
		w += (size_t)snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: existing%d}\n"
				      "spec: {nodeName: %s, containers: %s}\nstatus: {phase: Running}\n---\n", i,
				      c->existing[i][0], ct);
	}
	containers_yaml(ct, sizeof ct, c->pod, "c");
	if (w < len)
		snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: p}\nspec: {containers: %s}\n", ct);
	config[0] = 0;
	if (c->args)
		snprintf(config, clen, "profiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: %s\n    args: %s\n",
			 c->plugin->name, c->args);
	return buf;
}

int main(void)
{
	char yaml[16384], config[2048], got[1024];
	tap_snap t;
	for (size_t i = 0; i < sizeof fit_cases / sizeof *fit_cases; i++) {
		const fit_case *c = &fit_cases[i];
		if (tap_snap_open(&t, fit_cluster(yaml, sizeof yaml, c), c->config, "p") != KP_OK)
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		else
			TAP_EQ_STR(tap_snap_filter(&t, &kp_plugin_node_resources_fit, "n1", got, sizeof got), c->want,
				   "Filter: %s", c->name);
		tap_snap_close(&t);
	}
	for (size_t i = 0; i < sizeof score_cases / sizeof *score_cases; i++) {
		const score_case *c = &score_cases[i];
		score_cluster(yaml, sizeof yaml, c, config, sizeof config);
		tap_snap_kube_minor = c->minor ? c->minor : 35;
		if (tap_snap_open(&t, yaml, config[0] ? config : NULL, "p") != KP_OK)
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		else
			TAP_EQ_STR(tap_snap_score(&t, c->plugin, NULL, 1, got, sizeof got), c->want, "Score %s: %s",
				   c->plugin->name, c->name);
		tap_snap_close(&t);
	}
	return tap_done();
}
