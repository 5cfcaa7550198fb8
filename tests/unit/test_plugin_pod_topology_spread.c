/*
 * test_plugin_pod_topology_spread.c — PodTopologySpread's PreFilter, Filter,
 * PreScore, Score and NormalizeScore (planner/plugins/pod_topology_spread.c)
 * on the cases of kube's own unit tests, kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/podtopologyspread/:
 *   filtering_test.go  TestSingleConstraint, TestMultipleConstraints
 *   scoring_test.go    TestPodTopologySpreadScore
 * (v1.28–v1.31, node inclusion policies on).  Each case is its YAML: nodes,
 * the pods on them, and the pending pod p.  kube's filter tests assert the
 * status code; here the whole status is, with kube's reasons.  Score cases
 * name the candidate nodes (kube's nodes; its failedNodes are in the
 * cluster but not scored).  Left out: "minDomains has no effect when
 * ScheduleAnyway", which kube calls artificial (the API refuses such a pod,
 * and so does kplan's import), and the matchLabelKeys feature-gate cases.
 */
#include "tap.h"
#include "tap_snap.h"

#define NODE(n, labels) "kind: Node\nmetadata: {name: " n ", labels: " labels "}\n---\n"
#define TAINTED(n, labels) "kind: Node\nmetadata: {name: " n ", labels: " labels "}\n" \
	"spec: {taints: [{key: foo, value: bar, effect: NoSchedule}]}\n---\n"
#define ON(name, node, labels) "kind: Pod\nmetadata: {name: " name ", labels: " labels "}\n" \
	"spec: {nodeName: " node ", containers: [{name: c, image: nginx}]}\nstatus: {phase: Running}\n---\n"
#define ON_NS(name, ns, node, labels) "kind: Pod\nmetadata: {name: " name ", namespace: " ns ", labels: " labels "}\n" \
	"spec: {nodeName: " node ", containers: [{name: c, image: nginx}]}\nstatus: {phase: Running}\n---\n"
#define TERMINATING(name, node, labels) "kind: Pod\nmetadata: {name: " name ", labels: " labels \
	", deletionTimestamp: '2024-01-01T00:00:00Z'}\nspec: {nodeName: " node ", containers: [{name: c, image: nginx}]}\n" \
	"status: {phase: Running}\n---\n"
#define P(labels, spec) "kind: Pod\nmetadata: {name: p, labels: " labels "}\n" \
	"spec: {" spec "containers: [{name: c, image: nginx}]}\n"
#define SPREAD(...) "topologySpreadConstraints: [" __VA_ARGS__ "], "
#define HARD(skew, topo, sel) "{maxSkew: " #skew ", topologyKey: " topo ", whenUnsatisfiable: DoNotSchedule, labelSelector: " sel "}"
#define SOFT(skew, topo, sel) "{maxSkew: " #skew ", topologyKey: " topo ", whenUnsatisfiable: ScheduleAnyway, labelSelector: " sel "}"
#define EXISTS(k) "{matchExpressions: [{key: " k ", operator: Exists}]}"
#define FOO "{foo: ''}"
#define BAR "{bar: ''}"
#define FOO_BAR "{foo: '', bar: ''}"

#define R_SKEW "Unschedulable: node(s) didn't match pod topology spread constraints"
#define R_LABEL "UnschedulableAndUnresolvable: node(s) didn't match pod topology spread constraints (missing required label)"

/* filtering_test.go's four nodes */
#define ZONES NODE("node-a", "{zone: zone1, node: node-a}") NODE("node-b", "{zone: zone1, node: node-b}") \
	NODE("node-x", "{zone: zone2, node: node-x}") NODE("node-y", "{zone: zone2, node: node-y}")
/* matching pods spread as 2/1/0/3 */
#define SPREAD_2103 ON("p-a1", "node-a", FOO) ON("p-a2", "node-a", FOO) ON("p-b1", "node-b", FOO) \
	ON("p-y1", "node-y", FOO) ON("p-y2", "node-y", FOO) ON("p-y3", "node-y", FOO)

typedef struct filter_case {
	const char *name;
	const char *yaml;
	const char *want;
} filter_case;

static const filter_case filter_cases[] = {
	/* TestSingleConstraint */
	{"no existing pods", ZONES P(FOO, SPREAD(HARD(1, "zone", EXISTS("foo")))),
	 "node-a: ok | node-b: ok | node-x: ok | node-y: ok"},
	{"no existing pods, incoming pod doesn't match itself", ZONES P(FOO, SPREAD(HARD(1, "zone", EXISTS("bar")))),
	 "node-a: ok | node-b: ok | node-x: ok | node-y: ok"},
	{"existing pods in a different namespace do not count",
	 ZONES ON_NS("p-a1", "ns1", "node-a", FOO) ON_NS("p-b1", "ns2", "node-a", FOO) ON("p-x1", "node-x", FOO)
		 ON("p-y1", "node-y", FOO) P(FOO, SPREAD(HARD(1, "zone", EXISTS("foo")))),
	 "node-a: ok | node-b: ok | node-x: " R_SKEW " | node-y: " R_SKEW},
	{"pods spread across zones as 3/3, all nodes fit",
	 ZONES ON("p-a1", "node-a", FOO) ON("p-a2", "node-a", FOO) ON("p-b1", "node-b", FOO) ON("p-y1", "node-y", FOO)
		 ON("p-y2", "node-y", FOO) ON("p-y3", "node-y", FOO) P(FOO, SPREAD(HARD(1, "zone", EXISTS("foo")))),
	 "node-a: ok | node-b: ok | node-x: ok | node-y: ok"},
	{"pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
	 NODE("node-a", "{zone: zone1, node: node-a}") NODE("node-b", "{zon: zone1, node: node-b}")
		 NODE("node-x", "{zone: zone2, node: node-x}") NODE("node-y", "{zone: zone2, node: node-y}")
		 ON("p-a1", "node-a", FOO) ON("p-b1", "node-b", FOO) ON("p-x1", "node-x", FOO) ON("p-y1", "node-y", FOO)
		 P(FOO, SPREAD(HARD(1, "zone", EXISTS("foo")))),
	 "node-a: ok | node-b: " R_LABEL " | node-x: " R_SKEW " | node-y: " R_SKEW},
	{"pod cannot be scheduled as all nodes don't have label 'rack'",
	 NODE("node-a", "{zone: zone1, node: node-a}") NODE("node-x", "{zone: zone2, node: node-x}")
		 P(FOO, SPREAD(HARD(1, "rack", EXISTS("foo")))),
	 "node-a: " R_LABEL " | node-x: " R_LABEL},
	{"pods spread across nodes as 2/1/0/3, only node-x fits", ZONES SPREAD_2103 P(FOO, SPREAD(HARD(1, "node", EXISTS("foo")))),
	 "node-a: " R_SKEW " | node-b: " R_SKEW " | node-x: ok | node-y: " R_SKEW},
	{"pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
	 ZONES SPREAD_2103 P(FOO, SPREAD(HARD(2, "node", EXISTS("foo")))),
	 "node-a: " R_SKEW " | node-b: ok | node-x: ok | node-y: " R_SKEW},
	{"pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
	 ZONES SPREAD_2103 P(BAR, SPREAD(HARD(1, "node", EXISTS("foo")))),
	 "node-a: " R_SKEW " | node-b: ok | node-x: ok | node-y: " R_SKEW},
	/* kube: "node-b and node-x ... in real case, it's false" (NodeAffinity
	 * would reject them; PodTopologySpread alone passes them) */
	{"incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
	 ZONES SPREAD_2103
		 P(FOO, "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
			"[{matchExpressions: [{key: node, operator: In, values: [node-a, node-y]}]}]}}}, "
			SPREAD(HARD(1, "node", EXISTS("foo")))),
	 "node-a: ok | node-b: ok | node-x: ok | node-y: " R_SKEW},
	{"terminating Pods should be excluded",
	 NODE("node-a", "{node: node-a}") NODE("node-b", "{node: node-b}") TERMINATING("p-a", "node-a", FOO)
		 ON("p-b", "node-b", FOO) P(FOO, SPREAD(HARD(1, "node", EXISTS("foo")))),
	 "node-a: ok | node-b: " R_SKEW},

	/* TestMultipleConstraints */
	{"two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
	 ZONES SPREAD_2103 P(FOO, SPREAD(HARD(1, "zone", EXISTS("foo")) ", " HARD(1, "node", EXISTS("foo")))),
	 "node-a: " R_SKEW " | node-b: " R_SKEW " | node-x: ok | node-y: " R_SKEW},
	{"two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
	 ZONES SPREAD_2103 ON("p-y4", "node-y", FOO)
		 P(FOO, SPREAD(HARD(1, "zone", EXISTS("foo")) ", " HARD(1, "node", EXISTS("foo")))),
	 "node-a: " R_SKEW " | node-b: " R_SKEW " | node-x: " R_SKEW " | node-y: " R_SKEW},
	{"Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
	 ZONES ON("p-a1", "node-a", FOO) ON("p-y1", "node-y", BAR)
		 P(FOO_BAR, SPREAD(HARD(1, "zone", EXISTS("foo")) ", " HARD(1, "node", EXISTS("bar")))),
	 "node-a: " R_SKEW " | node-b: " R_SKEW " | node-x: ok | node-y: " R_SKEW},
	{"Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
	 ZONES ON("p-a1", "node-a", FOO) ON("p-x1", "node-x", BAR) ON("p-y1", "node-y", BAR)
		 P(FOO_BAR, SPREAD(HARD(1, "zone", EXISTS("foo")) ", " HARD(1, "node", EXISTS("bar")))),
	 "node-a: " R_SKEW " | node-b: " R_SKEW " | node-x: " R_SKEW " | node-y: " R_SKEW},
	{"Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
	 ZONES ON("p-a1", "node-a", FOO) ON("p-a2", "node-a", FOO_BAR) ON("p-y1", "node-y", FOO) ON("p-y2", "node-y", FOO_BAR)
		 ON("p-y3", "node-y", FOO) P(FOO_BAR, SPREAD(HARD(1, "zone", EXISTS("foo")) ", " HARD(1, "node", EXISTS("bar")))),
	 "node-a: " R_SKEW " | node-b: ok | node-x: " R_SKEW " | node-y: " R_SKEW},
	{"Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
	 ZONES ON("p-a1", "node-a", FOO) ON("p-x1", "node-x", BAR) ON("p-y1", "node-y", BAR)
		 P(BAR, SPREAD(HARD(1, "zone", EXISTS("foo")) ", " HARD(1, "node", EXISTS("bar")))),
	 "node-a: ok | node-b: ok | node-x: " R_SKEW " | node-y: " R_SKEW},
	{"two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
	 NODE("node-a", "{zone: zone1, node: node-a}") NODE("node-b", "{zone: zone1, node: node-b}")
		 NODE("node-x", "{zone: zone2}") NODE("node-y", "{zone: zone2, node: node-y}")
		 ON("p-a1", "node-a", FOO) ON("p-y3", "node-y", FOO)
		 P(FOO, SPREAD(HARD(1, "zone", EXISTS("foo")) ", " HARD(1, "node", EXISTS("foo")))),
	 "node-a: " R_SKEW " | node-b: ok | node-x: " R_LABEL " | node-y: " R_SKEW},
};

#define HOST "kubernetes.io/hostname"
#define HOSTS2 NODE("node-a", "{kubernetes.io/hostname: node-a}") NODE("node-b", "{kubernetes.io/hostname: node-b}")
#define HOSTS4 HOSTS2 NODE("node-c", "{kubernetes.io/hostname: node-c}") NODE("node-d", "{kubernetes.io/hostname: node-d}")
/* 2/1/0/3 and 4/3/2/1 on node-a..node-d */
#define ABCD_2103 ON("p-a1", "node-a", FOO) ON("p-a2", "node-a", FOO) ON("p-b1", "node-b", FOO) \
	ON("p-d1", "node-d", FOO) ON("p-d2", "node-d", FOO) ON("p-d3", "node-d", FOO)
#define ABCD_4321 ON("p-a1", "node-a", FOO) ON("p-a2", "node-a", FOO) ON("p-a3", "node-a", FOO) ON("p-a4", "node-a", FOO) \
	ON("p-b1", "node-b", FOO) ON("p-b2", "node-b", FOO) ON("p-b3", "node-b", FOO) ON("p-c1", "node-c", FOO) \
	ON("p-c2", "node-c", FOO) ON("p-d1", "node-d", FOO)
/* 4/2/1/3 on node-a, node-b, node-x, node-y */
#define ABXY_4213 ON("p-a1", "node-a", FOO) ON("p-a2", "node-a", FOO) ON("p-a3", "node-a", FOO) ON("p-a4", "node-a", FOO) \
	ON("p-b1", "node-b", FOO) ON("p-b2", "node-b", FOO) ON("p-x1", "node-x", FOO) ON("p-y1", "node-y", FOO) \
	ON("p-y2", "node-y", FOO) ON("p-y3", "node-y", FOO)
#define ZH(n, z) NODE(n, "{zone: " z ", kubernetes.io/hostname: " n "}")
#define ZONES_HOSTS ZH("node-a", "zone1") ZH("node-b", "zone1") ZH("node-x", "zone2") ZH("node-y", "zone2")
#define NODE_LABELED(n, extra) NODE(n, "{node: " n extra "}")
/* 2/1/1 on node-a..node-c (inclusion policy cases) */
#define ABC_211 ON("p-a1", "node-a", FOO) ON("p-a2", "node-a", FOO) ON("p-b1", "node-b", FOO) ON("p-c1", "node-c", FOO)

typedef struct score_case {
	const char *name;
	const char *yaml;
	const char *feasible;     /* the candidate nodes, NULL: all */
	const char *want;         /* normalised */
} score_case;

/* TestPodTopologySpreadScore */
static const score_case score_cases[] = {
	{"one constraint on node, no existing pods", HOSTS2 P(FOO, SPREAD(SOFT(1, HOST, EXISTS("foo")))), NULL,
	 "node-a=100 node-b=100"},
	{"one constraint on node, only one node is candidate",
	 HOSTS2 ON("p-a1", "node-a", FOO) ON("p-a2", "node-a", FOO) ON("p-b1", "node-b", FOO)
		 P(FOO, SPREAD(SOFT(1, HOST, EXISTS("foo")))), "node-a", "node-a=100"},
	{"one constraint on node, all nodes have the same number of matching pods",
	 HOSTS2 ON("p-a1", "node-a", FOO) ON("p-b1", "node-b", FOO) P(FOO, SPREAD(SOFT(1, HOST, EXISTS("foo")))), NULL,
	 "node-a=100 node-b=100"},
	{"one constraint on node, all 4 nodes are candidates", HOSTS4 ABCD_2103 P(FOO, SPREAD(SOFT(1, HOST, EXISTS("foo")))),
	 NULL, "node-a=20 node-b=60 node-c=100 node-d=0"},
	{"one constraint on node, null selector",
	 HOSTS4 ABCD_2103 P(FOO, SPREAD("{maxSkew: 1, topologyKey: " HOST ", whenUnsatisfiable: ScheduleAnyway}")), NULL,
	 "node-a=100 node-b=100 node-c=100 node-d=100"},
	{"one constraint on node, all 4 nodes are candidates, maxSkew=2",
	 HOSTS4 ABCD_2103 P(FOO, SPREAD(SOFT(2, HOST, EXISTS("foo")))), NULL, "node-a=33 node-b=66 node-c=100 node-d=16"},
	{"one constraint on node, all 4 nodes are candidates, maxSkew=3",
	 HOSTS4 ABCD_4321 P(FOO, SPREAD(SOFT(3, HOST, EXISTS("foo")))), NULL, "node-a=44 node-b=66 node-c=77 node-d=100"},
	{"system defaulting, nodes don't have zone, pods match service",
	 HOSTS4 ABCD_4321 "kind: Service\nmetadata: {name: svc}\nspec: {selector: {foo: ''}}\n---\n" P(FOO, ""), NULL,
	 "node-a=44 node-b=66 node-c=77 node-d=100"},
	{"one constraint on node, 3 out of 4 nodes are candidates",
	 HOSTS2 NODE("node-x", "{kubernetes.io/hostname: node-x}") NODE("node-y", "{kubernetes.io/hostname: node-y}")
		 ABXY_4213 P(FOO, SPREAD(SOFT(1, HOST, EXISTS("foo")))),
	 "node-a node-b node-x", "node-a=33 node-b=83 node-x=100"},
	{"one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
	 NODE("node-a", "{kubernetes.io/hostname: node-a}") NODE("node-b", "{n: node-b}")
		 NODE("node-x", "{kubernetes.io/hostname: node-x}") NODE("node-y", "{kubernetes.io/hostname: node-y}")
		 ABXY_4213 P(FOO, SPREAD(SOFT(1, HOST, EXISTS("foo")))),
	 "node-a node-b node-x", "node-a=16 node-b=0 node-x=100"},
	{"one constraint on zone, 3 out of 4 nodes are candidates",
	 ZONES_HOSTS ABXY_4213 P(FOO, SPREAD(SOFT(1, "zone", EXISTS("foo")))), "node-a node-b node-x",
	 "node-a=75 node-b=75 node-x=100"},
	{"two Constraints on zone and node, 2 out of 4 nodes are candidates",
	 ZONES_HOSTS ON("p-a1", "node-a", FOO) ON("p-a2", "node-a", FOO) ON("p-b1", "node-b", FOO) ON("p-x1", "node-x", FOO)
		 ON("p-x2", "node-x", FOO) ON("p-y1", "node-y", FOO) ON("p-y2", "node-y", FOO) ON("p-y3", "node-y", FOO)
		 ON("p-y4", "node-y", FOO) P(FOO, SPREAD(SOFT(1, "zone", EXISTS("foo")) ", " SOFT(1, HOST, EXISTS("foo")))),
	 "node-a node-x", "node-a=100 node-x=63"},
	{"two Constraints on zone and node, with different labelSelectors",
	 ZONES_HOSTS ON("p-a1", "node-a", FOO) ON("p-b1", "node-b", FOO_BAR) ON("p-y1", "node-y", FOO) ON("p-y2", "node-y", BAR)
		 P(FOO_BAR, SPREAD(SOFT(1, "zone", EXISTS("foo")) ", " SOFT(1, HOST, EXISTS("bar")))), NULL,
	 "node-a=60 node-b=20 node-x=100 node-y=60"},
	{"two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
	 ZONES_HOSTS ON("p-b1", "node-b", BAR) ON("p-x1", "node-x", FOO) ON("p-y1", "node-y", FOO_BAR)
		 P(FOO_BAR, SPREAD(SOFT(1, "zone", EXISTS("foo")) ", " SOFT(1, HOST, EXISTS("bar")))), NULL,
	 "node-a=100 node-b=60 node-x=40 node-y=0"},
	{"two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates",
	 ZONES_HOSTS ON("p-a1", "node-a", FOO) ON("p-b1", "node-b", FOO_BAR) ON("p-y1", "node-y", FOO) ON("p-y2", "node-y", BAR)
		 P(FOO_BAR, SPREAD(SOFT(1, "zone", EXISTS("foo")) ", " SOFT(1, HOST, EXISTS("bar")))), "node-a node-b node-x",
	 "node-a=50 node-b=25 node-x=100"},
	{"existing pods in a different namespace do not count",
	 HOSTS2 ON_NS("p-a1", "ns1", "node-a", FOO) ON("p-a2", "node-a", FOO) ON("p-b1", "node-b", FOO)
		 ON("p-b2", "node-b", FOO) P(FOO, SPREAD(SOFT(1, HOST, EXISTS("foo")))), NULL, "node-a=100 node-b=33"},
	{"terminating Pods should be excluded",
	 HOSTS2 TERMINATING("p-a", "node-a", FOO) ON("p-b", "node-b", FOO) P(FOO, SPREAD(SOFT(1, HOST, EXISTS("foo")))), NULL,
	 "node-a=100 node-b=0"},
	{"NodeAffinityPolicy honoed with labelSelectors",
	 NODE_LABELED("node-a", ", foo: ''") NODE_LABELED("node-b", ", foo: ''") NODE_LABELED("node-c", "") ABC_211
		 P(FOO, "nodeSelector: {foo: ''}, " SPREAD(SOFT(1, "node", EXISTS("foo")))), NULL,
	 "node-a=0 node-b=33 node-c=100"},
	{"NodeAffinityPolicy ignored with labelSelectors",
	 NODE_LABELED("node-a", ", foo: ''") NODE_LABELED("node-b", ", foo: ''") NODE_LABELED("node-c", "") ABC_211
		 P(FOO, "nodeSelector: {foo: ''}, " SPREAD("{maxSkew: 1, topologyKey: node, whenUnsatisfiable: ScheduleAnyway, "
							 "nodeAffinityPolicy: Ignore, labelSelector: " EXISTS("foo") "}")),
	 NULL, "node-a=66 node-b=100 node-c=100"},
	{"NodeAffinityPolicy honoed with nodeAffinity",
	 NODE_LABELED("node-a", ", foo: ''") NODE_LABELED("node-b", ", foo: ''") NODE_LABELED("node-c", "") ABC_211
		 P(FOO, "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
			"[{matchExpressions: [{key: foo, operator: In, values: ['']}]}]}}}, " SPREAD(SOFT(1, "node", EXISTS("foo")))),
	 NULL, "node-a=0 node-b=33 node-c=100"},
	{"NodeAffinityPolicy ignored with nodeAffinity",
	 NODE_LABELED("node-a", ", foo: ''") NODE_LABELED("node-b", ", foo: ''") NODE_LABELED("node-c", "") ABC_211
		 P(FOO, "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
			"[{matchExpressions: [{key: foo, operator: In, values: ['']}]}]}}}, "
			SPREAD("{maxSkew: 1, topologyKey: node, whenUnsatisfiable: ScheduleAnyway, nodeAffinityPolicy: Ignore, "
			       "labelSelector: " EXISTS("foo") "}")),
	 NULL, "node-a=66 node-b=100 node-c=100"},
	{"NodeTaintsPolicy honored",
	 NODE_LABELED("node-a", "") NODE_LABELED("node-b", "") TAINTED("node-c", "{node: node-c}") ABC_211
		 P(FOO, SPREAD("{maxSkew: 1, topologyKey: node, whenUnsatisfiable: ScheduleAnyway, nodeTaintsPolicy: Honor, "
			       "labelSelector: " EXISTS("foo") "}")),
	 NULL, "node-a=0 node-b=33 node-c=100"},
	{"NodeTaintsPolicy ignored",
	 NODE_LABELED("node-a", "") NODE_LABELED("node-b", "") TAINTED("node-c", "{node: node-c}") ABC_211
		 P(FOO, SPREAD(SOFT(1, "node", EXISTS("foo")))), NULL, "node-a=66 node-b=100 node-c=100"},
};

int main(void)
{
	char got[4096];
	tap_snap t;
	for (size_t i = 0; i < sizeof filter_cases / sizeof *filter_cases; i++) {
		const filter_case *c = &filter_cases[i];
		if (tap_snap_open(&t, c->yaml, NULL, "p") != KP_OK)
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		else
			TAP_EQ_STR(tap_snap_filter_all(&t, &kp_plugin_pod_topology_spread, got, sizeof got), c->want,
				   "Filter: %s", c->name);
		tap_snap_close(&t);
	}
	for (size_t i = 0; i < sizeof score_cases / sizeof *score_cases; i++) {
		const score_case *c = &score_cases[i];
		if (tap_snap_open(&t, c->yaml, NULL, "p") != KP_OK)
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		else
			TAP_EQ_STR(tap_snap_score(&t, &kp_plugin_pod_topology_spread, c->feasible, 1, got, sizeof got), c->want,
				   "Score: %s", c->name);
		tap_snap_close(&t);
	}
	return tap_done();
}
