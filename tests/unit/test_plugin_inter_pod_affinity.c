/*
 * test_plugin_inter_pod_affinity.c — InterPodAffinity's PreFilter, Filter,
 * PreScore, Score and NormalizeScore (planner/plugins/inter_pod_affinity.c)
 * on the cases of kube's own unit tests, kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/interpodaffinity/:
 *   filtering_test.go  TestRequiredAffinitySingleNode,
 *                      TestRequiredAffinityMultipleNodes
 *   scoring_test.go    TestPreferredAffinity
 * (v1.28–v1.31).  Each case is its YAML: nodes, the pods on them, and the
 * pending pod p.  kube's tests leave the namespace empty; here it is
 * "default".  Left out: the cases where PreFilter rejects an invalid label
 * value (kplan's importer checks the objects) and the matchLabelKeys cases
 * of later kube versions.
 */
#include "tap.h"
#include "tap_snap.h"

#define NODE(n, labels) "kind: Node\nmetadata: {name: " n ", labels: " labels "}\n---\n"
#define NS(n, labels) "kind: Namespace\nmetadata: {name: " n ", labels: " labels "}\n---\n"
/* a pod on a node (spec.nodeName), and the pending pod p */
#define ON(name, node, ns, labels, spec) "kind: Pod\nmetadata: {name: " name ", namespace: " ns ", labels: " labels \
	"}\nspec: {nodeName: " node ", " spec "containers: [{name: c, image: nginx}]}\nstatus: {phase: Running}\n---\n"
#define P(ns, labels, spec) "kind: Pod\nmetadata: {name: p, namespace: " ns ", labels: " labels "}\n" \
	"spec: {" spec "containers: [{name: c, image: nginx}]}\n"
/* required terms; kube's st.PodAffinityIn / PodAffinityNotIn / PodAffinityExists */
#define AFF(...) "affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" __VA_ARGS__ "]}}, "
#define ANTI(...) "affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" __VA_ARGS__ "]}}, "
#define AFF_ANTI(a, b) "affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" a "]}, " \
	"podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" b "]}}, "
#define SEL(req) "{labelSelector: {matchExpressions: [" req "]}"
#define SEL2(a, b) SEL(a ", " b)
#define IN(k, vals) "{key: " k ", operator: In, values: " vals "}"
#define NOTIN(k, vals) "{key: " k ", operator: NotIn, values: " vals "}"
#define EXISTS(k) "{key: " k ", operator: Exists}"
#define DNE(k) "{key: " k ", operator: DoesNotExist}"
#define TOPO(t) ", topologyKey: " t "}"
#define T_IN(k, topo, vals) SEL(IN(k, vals)) TOPO(topo)
#define T_NOTIN(k, topo, vals) SEL(NOTIN(k, vals)) TOPO(topo)
#define T_EXISTS(k, topo) SEL(EXISTS(k)) TOPO(topo)

#define R_AFF "UnschedulableAndUnresolvable: node(s) didn't match pod affinity rules"
#define R_ANTI "Unschedulable: node(s) didn't match pod anti-affinity rules"
#define R_EXISTING "Unschedulable: node(s) didn't satisfy existing pods anti-affinity rules"

/* TestRequiredAffinitySingleNode's node1, its pod and labels */
#define NODE1 NODE("node1", "{region: r1, zone: z11}")
#define POD_LABEL "{service: securityscan}"
#define POD_LABEL2 "{security: S1}"
#define SECURITYSCAN ON("pod", "node1", "default", POD_LABEL, "")
/* filtering_test.go's namespaces */
#define TEAMS NS("subteam1.team1", "{team: team1}") NS("subteam2.team1", "{team: team1}") \
	NS("subteam1.team2", "{team: team2}") NS("subteam2.team2", "{team: team2}")

typedef struct filter_case {
	const char *name;
	const char *yaml;
	const char *pod;          /* the pending pod: "name" or "namespace/name" */
	const char *want;         /* every node's verdict */
} filter_case;

static const filter_case filter_cases[] = {
	/* TestRequiredAffinitySingleNode */
	{"A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
	 NODE1 P("default", "{}", ""), "p", "node1: ok"},
	{"satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches "
	 "the existing pod",
	 NODE1 SECURITYSCAN P("default", POD_LABEL2, AFF(T_IN("service", "region", "[securityscan, value2]"))), "p",
	 "node1: ok"},
	{"satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in "
	 "labelSelector that matches the existing pod",
	 NODE1 SECURITYSCAN P("default", POD_LABEL2, AFF(T_NOTIN("service", "region", "[securityscan3, value3]"))), "p",
	 "node1: ok"},
	{"Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
	 NODE1 ON("pod", "node1", "ns", POD_LABEL, "")
		 P("default", POD_LABEL2, AFF(SEL(IN("service", "[securityscan, value2]")) ", namespaces: [DiffNameSpace], "
					      "topologyKey: region}")), "p", "node1: " R_AFF},
	/* kube's term has no topologyKey, which the API (and kplan's import)
	 * refuses: region here */
	{"Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
	 NODE1 SECURITYSCAN P("default", POD_LABEL, AFF(T_IN("service", "region", "[antivirusscan, value2]"))), "p",
	 "node1: " R_AFF},
	{"satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution ",
	 NODE1 SECURITYSCAN
		 P("default", POD_LABEL2, AFF(SEL2(EXISTS("service"), DNE("wrongkey")) TOPO("region") ", "
					      SEL2(IN("service", "[securityscan]"), NOTIN("service", "[WrongValue]")) TOPO("region"))),
	 "p", "node1: ok"},
	{"The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node "
	 "because one of the matchExpression item don't match.",
	 NODE1 SECURITYSCAN
		 P("default", POD_LABEL2, AFF(SEL2(EXISTS("service"), DNE("wrongkey")) TOPO("region") ", "
					      SEL2(IN("service", "[securityscan2]"), NOTIN("service", "[WrongValue]")) TOPO("region"))),
	 "p", "node1: " R_AFF},
	{"satisfies the PodAffinity and PodAntiAffinity with the existing pod",
	 NODE1 SECURITYSCAN
		 P("default", POD_LABEL2, AFF_ANTI(T_IN("service", "region", "[securityscan, value2]"),
						   T_IN("service", "node", "[antivirusscan, value2]"))), "p", "node1: ok"},
	{"satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
	 NODE1 ON("pod", "node1", "default", POD_LABEL, ANTI(T_IN("service", "node", "[antivirusscan, value2]")))
		 P("default", POD_LABEL2, AFF_ANTI(T_IN("service", "region", "[securityscan, value2]"),
						   T_IN("service", "node", "[antivirusscan, value2]"))), "p", "node1: ok"},
	{"satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
	 NODE1 SECURITYSCAN
		 P("default", POD_LABEL2, AFF_ANTI(T_IN("service", "region", "[securityscan, value2]"),
						   T_IN("service", "zone", "[securityscan, value2]"))), "p", "node1: " R_ANTI},
	{"satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
	 NODE1 ON("pod", "node1", "default", POD_LABEL, ANTI(T_IN("service", "zone", "[securityscan, value2]")))
		 P("default", POD_LABEL, AFF_ANTI(T_IN("service", "region", "[securityscan, value2]"),
						  T_IN("service", "node", "[antivirusscan, value2]"))), "p", "node1: " R_EXISTING},
	{"pod matches its own Label in PodAffinity and that matches the existing pod Labels",
	 NODE1 ON("pod", "node2", "default", POD_LABEL, "")
		 P("default", POD_LABEL, AFF(T_NOTIN("service", "region", "[securityscan, value2]"))), "p", "node1: " R_AFF},
	{"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't "
	 "satisfy PodAntiAffinity symmetry with the existing pod",
	 NODE1 ON("pod", "node1", "default", POD_LABEL, ANTI(T_IN("service", "zone", "[securityscan, value2]")))
		 P("default", POD_LABEL, ""), "p", "node1: " R_EXISTING},
	{"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy "
	 "PodAntiAffinity symmetry with the existing pod",
	 NODE1 ON("pod", "node1", "default", POD_LABEL, ANTI(T_NOTIN("service", "zone", "[securityscan, value2]")))
		 P("default", POD_LABEL, ""), "p", "node1: ok"},
	{"satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
	 NODE1 ON("pod", "node1", "default", POD_LABEL2, ANTI(T_EXISTS("security", "zone")))
		 P("default", POD_LABEL, ANTI(T_EXISTS("service", "region") ", " T_EXISTS("security", "region"))), "p",
	 "node1: " R_ANTI},
	{"PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms",
	 NODE1 ON("pod", "node1", "default", POD_LABEL2, ANTI(T_EXISTS("security", "zone")))
		 P("default", POD_LABEL, ANTI(T_EXISTS("service", "zone") ", " T_EXISTS("security", "zone"))), "p",
	 "node1: " R_ANTI},
	{"PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms",
	 NODE1 ON("pod", "node1", "default", POD_LABEL, ANTI(T_EXISTS("service", "zone") ", " T_EXISTS("security", "zone")))
		 P("default", POD_LABEL2, ANTI(T_EXISTS("security", "zone"))), "p", "node1: " R_EXISTING},
	{"PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms",
	 NODE1 ON("pod", "node1", "default", "{def: '', xyz: ''}", ANTI(T_EXISTS("abc", "zone") ", " T_EXISTS("def", "zone")))
		 P("default", "{abc: '', xyz: ''}", ANTI(T_EXISTS("abc", "zone") ", " T_EXISTS("def", "zone"))), "p",
	 "node1: " R_ANTI},
	{"PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms",
	 NODE1 ON("pod", "node1", "default", "{abc: '', xyz: ''}", ANTI(T_EXISTS("abc", "zone") ", " T_EXISTS("def", "zone")))
		 P("default", "{def: '', xyz: ''}", ANTI(T_EXISTS("abc", "zone") ", " T_EXISTS("def", "zone"))), "p",
	 "node1: " R_ANTI},
	{"affinity with NamespaceSelector",
	 TEAMS NODE1 ON("pod", "node1", "subteam1.team1", POD_LABEL, "")
		 P("default", POD_LABEL2, AFF(SEL(IN("service", "[securityscan, value2]")) ", namespaceSelector: "
					      "{matchExpressions: [" IN("team", "[team1]") "]}, topologyKey: region}")), "p", "node1: ok"},
	{"affinity with non-matching NamespaceSelector",
	 TEAMS NODE1 ON("pod", "node1", "subteam1.team2", POD_LABEL, "")
		 P("default", POD_LABEL2, AFF(SEL(IN("service", "[securityscan, value2]")) ", namespaceSelector: "
					      "{matchExpressions: [" IN("team", "[team1]") "]}, topologyKey: region}")), "p",
	 "node1: " R_AFF},
	{"anti-affinity with matching NamespaceSelector",
	 TEAMS NODE1 ON("pod", "node1", "subteam2.team1", POD_LABEL, "")
		 P("subteam1.team1", POD_LABEL2, ANTI(SEL(IN("service", "[securityscan, value2]")) ", namespaceSelector: "
						     "{matchExpressions: [" IN("team", "[team1]") "]}, topologyKey: zone}")),
	 "subteam1.team1/p", "node1: " R_ANTI},
	{"anti-affinity with matching all NamespaceSelector",
	 TEAMS NODE1 ON("pod", "node1", "subteam2.team1", POD_LABEL, "")
		 P("subteam1.team1", POD_LABEL2, ANTI(SEL(IN("service", "[securityscan, value2]")) ", namespaceSelector: {}, "
						     "topologyKey: zone}")), "subteam1.team1/p", "node1: " R_ANTI},
	{"anti-affinity with non-matching NamespaceSelector",
	 TEAMS NODE1 ON("pod", "node1", "subteam1.team2", POD_LABEL, "")
		 P("subteam1.team1", POD_LABEL2, ANTI(SEL(IN("service", "[securityscan, value2]")) ", namespaceSelector: "
						     "{matchExpressions: [" IN("team", "[team1]") "]}, topologyKey: zone}")),
	 "subteam1.team1/p", "node1: ok"},

	/* TestRequiredAffinityMultipleNodes */
	{"A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has "
	 "an existing pod that matches the affinity rules",
	 NODE("node1", "{region: China}") NODE("node2", "{region: China, az: az1}") NODE("node3", "{region: India}")
		 ON("p1", "node1", "default", "{foo: bar}", "") P("default", "{}", AFF(T_IN("foo", "region", "[bar]"))), "p",
	 "node1: ok | node2: ok | node3: " R_AFF},
	{"The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the "
	 "collection should not be blocked from being scheduled onto any node, even there's no existing pod that matches "
	 "the rule anywhere.",
	 NODE("nodeA", "{zone: az1, hostname: h1}") NODE("nodeB", "{zone: az2, hostname: h2}")
		 ON("p1", "nodeA", "default", "{foo: bar}", "")
		 P("default", "{foo: bar, service: securityscan}",
		   AFF(T_IN("foo", "zone", "[bar]") ", " T_IN("service", "zone", "[securityscan]"))), "p",
	 "nodeA: ok | nodeB: ok"},
	{"The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
	 NODE("nodeA", "{zoneLabel: az1, hostname: h1}") NODE("nodeB", "{zoneLabel: az2, hostname: h2}")
		 ON("p1", "nodeA", "default", "{foo: bar}", "")
		 P("default", "{foo: bar, service: securityscan}",
		   AFF(T_IN("foo", "zone", "[bar]") ", " T_IN("service", "zone", "[securityscan]"))), "p",
	 "nodeA: " R_AFF " | nodeB: " R_AFF},
	{"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
	 "affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
	 NODE("nodeA", "{region: r1, hostname: nodeA}") NODE("nodeB", "{region: r1, hostname: nodeB}")
		 ON("q", "nodeA", "default", "{foo: abc}", "") P("default", "{}", ANTI(T_IN("foo", "region", "[abc]"))), "p",
	 "nodeA: " R_ANTI " | nodeB: " R_ANTI},
	{"This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z2, hostname: nodeB}")
		 ON("q", "nodeA", "default", "{foo: abc, service: securityscan}", "")
		 P("default", "{}", ANTI(T_IN("foo", "region", "[abc]") ", " T_IN("service", "zone", "[securityscan]"))), "p",
	 "nodeA: " R_ANTI " | nodeB: " R_ANTI},
	{"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
	 "affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
	 NODE("nodeA", "{region: China}") NODE("nodeB", "{region: China, az: az1}") NODE("nodeC", "{region: India}")
		 ON("q", "nodeA", "default", "{foo: abc}", "") P("default", "{}", ANTI(T_IN("foo", "region", "[abc]"))), "p",
	 "nodeA: " R_ANTI " | nodeB: " R_ANTI " | nodeC: ok"},
	{"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
	 "affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an "
	 "existing pod that match the inter pod affinity rule but in different namespace)",
	 NODE("nodeA", "{region: China}") NODE("nodeB", "{region: China, az: az1}") NODE("nodeC", "{region: India}")
		 ON("q1", "nodeA", "NS1", "{foo: bar}", "") ON("q2", "nodeC", "NS2", "{}", ANTI(T_IN("foo", "region", "['123']")))
		 P("NS1", "{foo: '123'}", ANTI(T_IN("foo", "region", "[bar]"))), "NS1/p",
	 "nodeA: " R_ANTI " | nodeB: " R_ANTI " | nodeC: ok"},
	{"Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of the "
	 "term is firstly checked, and then topologyKey of the term is also checked",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z1, hostname: nodeB}")
		 ON("q", "nodeA", "default", "{}", ANTI(T_EXISTS("foo", "invalid-node-label"))) P("default", "{foo: ''}", ""),
	 "p", "nodeA: ok | nodeB: ok"},
	/* kube's incoming pod also names nodeA (spec.nodeName), which would
	 * make it a bound pod here; the filter does not read it */
	{"Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z1, hostname: nodeB}")
		 ON("q", "nodeA", "default", "{foo: ''}", "") P("default", "{}", ANTI(T_EXISTS("foo", "invalid-node-label"))),
	 "p", "nodeA: ok | nodeB: ok"},
	{"Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's "
	 "terms on all nodes",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z2, hostname: nodeB}")
		 ON("q1", "nodeA", "default", "{}", ANTI(T_EXISTS("foo", "zone")))
		 ON("q2", "nodeA", "default", "{}", ANTI(T_EXISTS("bar", "region"))) P("default", "{foo: '', bar: ''}", ""),
	 "p", "nodeA: " R_EXISTING " | nodeB: " R_EXISTING},
	{"Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one "
	 "anti-affinity rule of existingPod",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z2, hostname: nodeB}")
		 ON("q1", "nodeA", "default", "{foo: ''}", "") ON("q2", "nodeB", "default", "{bar: ''}", "")
		 P("default", "{}", ANTI(T_EXISTS("foo", "zone") ", " T_EXISTS("bar", "region"))), "p",
	 "nodeA: " R_ANTI " | nodeB: " R_ANTI},
	{"Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single "
	 "term match - case when one term has invalid topologyKey",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z2, hostname: nodeB}")
		 ON("q", "nodeA", "default", "{}", ANTI(T_EXISTS("foo", "invalid-node-label") ", " T_EXISTS("bar", "zone")))
		 P("default", "{foo: '', bar: ''}", ""), "p", "nodeA: " R_EXISTING " | nodeB: ok"},
	{"Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single "
	 "term match - case when one term has invalid topologyKey",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z2, hostname: nodeB}")
		 ON("podA", "nodeA", "default", "{foo: '', bar: ''}", "")
		 P("default", "{}", ANTI(T_EXISTS("foo", "invalid-node-label") ", " T_EXISTS("bar", "zone"))), "p",
	 "nodeA: " R_ANTI " | nodeB: ok"},
	{"Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single "
	 "term match - case when all terms have valid topologyKey",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z2, hostname: nodeB}")
		 ON("q", "nodeA", "default", "{}", ANTI(T_EXISTS("foo", "region") ", " T_EXISTS("bar", "zone")))
		 P("default", "{foo: '', bar: ''}", ""), "p", "nodeA: " R_EXISTING " | nodeB: " R_EXISTING},
	{"Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single "
	 "term match - case when all terms have valid topologyKey",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z2, hostname: nodeB}")
		 ON("q", "nodeA", "default", "{foo: '', bar: ''}", "")
		 P("default", "{}", ANTI(T_EXISTS("foo", "region") ", " T_EXISTS("bar", "zone"))), "p",
	 "nodeA: " R_ANTI " | nodeB: " R_ANTI},
	{"Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches "
	 "incoming pod, so incoming pod can only be scheduled to nodeC",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z2, hostname: nodeB}")
		 NODE("nodeC", "{region: r1, zone: z3, hostname: nodeC}")
		 ON("q1", "nodeA", "default", "{}", ANTI(T_EXISTS("foo", "zone") ", " T_EXISTS("labelA", "zone")))
		 ON("q2", "nodeB", "default", "{}", ANTI(T_EXISTS("bar", "zone") ", " T_EXISTS("labelB", "zone")))
		 P("default", "{foo: '', bar: ''}", ""), "p", "nodeA: " R_EXISTING " | nodeB: " R_EXISTING " | nodeC: ok"},
	{"Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z1, hostname: nodeB}")
		 ON("pod1", "nodeA", "default", "{foo: '', bar: ''}", "")
		 P("default", "{}", AFF(T_EXISTS("foo", "region") ", " T_EXISTS("bar", "zone"))), "p", "nodeA: ok | nodeB: ok"},
	{"Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys "
	 "match, and the match logic should be satisfied on the same pod",
	 NODE("nodeA", "{region: r1, zone: z1, hostname: nodeA}") NODE("nodeB", "{region: r1, zone: z2, hostname: nodeB}")
		 ON("pod1", "nodeA", "default", "{foo: ''}", "") ON("pod2", "nodeB", "default", "{bar: ''}", "")
		 P("default", "{}", AFF(T_EXISTS("foo", "region") ", " T_EXISTS("bar", "zone"))), "p",
	 "nodeA: " R_AFF " | nodeB: " R_AFF},
};

/* scoring_test.go's preferences */
#define W(w, term) "{weight: " #w ", podAffinityTerm: " term "}"
#define PREF_AFF(...) "podAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [" __VA_ARGS__ "]}"
#define PREF_ANTI(...) "podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [" __VA_ARGS__ "]}"
#define WITH(x) "affinity: {" x "}, "
#define STAY_WITH_S1_IN_REGION WITH(PREF_AFF(W(5, T_IN("security", "region", "[S1]"))))
#define STAY_WITH_S2_IN_REGION WITH(PREF_AFF(W(6, T_IN("security", "region", "[S2]"))))
#define AFFINITY3 WITH(PREF_AFF(W(8, SEL2(NOTIN("security", "[S1]"), IN("security", "[S2]")) TOPO("region")) ", " \
	W(2, SEL2(EXISTS("security"), DNE("wrongkey")) TOPO("region"))))
#define HARD_AFFINITY AFF(T_IN("security", "region", "[S1, value2]") ", " SEL2(EXISTS("security"), DNE("wrongkey")) TOPO("region"))
#define AWAY_FROM_S1_IN_AZ WITH(PREF_ANTI(W(5, T_IN("security", "az", "[S1]"))))
#define AWAY_FROM_S2_IN_AZ WITH(PREF_ANTI(W(5, T_IN("security", "az", "[S2]"))))
#define STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ WITH(PREF_AFF(W(8, T_IN("security", "region", "[S1]"))) ", " \
	PREF_ANTI(W(5, T_IN("security", "az", "[S2]"))))
#define NS_SEL_TERM SEL(IN("security", "[S1]")) ", topologyKey: region, namespaces: [subteam2.team2], " \
	"namespaceSelector: {matchExpressions: [" IN("team", "[team1]") "]}}"
#define AFFINITY_NAMESPACE_SELECTOR WITH(PREF_AFF(W(5, NS_SEL_TERM)))
#define ANTI_AFFINITY_NAMESPACE_SELECTOR WITH(PREF_ANTI(W(5, NS_SEL_TERM)))
#define S1 "{security: S1}"
#define S2 "{security: S2}"
#define CHINA "{region: China}"
#define INDIA "{region: India}"
#define AZ1 "{az: az1}"
#define AZ2 "{az: az2}"
#define CHINA_AZ1 "{region: China, az: az1}"

typedef struct score_case {
	const char *name;
	const char *yaml;
	const char *pod;
	const char *want;         /* normalised */
} score_case;

/* TestPreferredAffinity */
static const score_case score_cases[] = {
	{"all nodes are same priority as Affinity is nil",
	 NODE("node1", CHINA) NODE("node2", INDIA) NODE("node3", AZ1) P("default", S1, ""), "p",
	 "node1=0 node2=0 node3=0"},
	{"Affinity: pod that matches topology key & pods in nodes will get high score comparing to otherswhich doesn't "
	 "match either pods in nodes or in topology key",
	 NODE("node1", CHINA) NODE("node2", INDIA) NODE("node3", AZ1) ON("e1", "node1", "default", S1, "")
		 ON("e2", "node2", "default", S2, "") ON("e3", "node3", "default", S1, "")
		 P("default", S1, STAY_WITH_S1_IN_REGION), "p", "node1=100 node2=0 node3=0"},
	{"All the nodes that have the same topology key & label value with one of them has an existing pod that match "
	 "the affinity rules, have the same score",
	 NODE("node1", CHINA) NODE("node2", CHINA_AZ1) NODE("node3", INDIA) ON("e1", "node1", "default", S1, "")
		 P("default", "{}", STAY_WITH_S1_IN_REGION), "p", "node1=100 node2=100 node3=0"},
	{"Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more "
	 "matches will get high score",
	 NODE("node1", CHINA) NODE("node2", INDIA) NODE("node3", CHINA) NODE("node4", CHINA) NODE("node5", INDIA)
		 ON("e1", "node1", "default", S2, "") ON("e2", "node1", "default", S2, "") ON("e3", "node2", "default", S2, "")
		 ON("e4", "node3", "default", S2, "") ON("e5", "node4", "default", S2, "") ON("e6", "node5", "default", S2, "")
		 P("default", S1, STAY_WITH_S2_IN_REGION), "p", "node1=100 node2=0 node3=100 node4=100 node5=0"},
	{"Affinity: different Label operators and values for pod affinity scheduling preference, including some match "
	 "failures ",
	 NODE("node1", CHINA) NODE("node2", INDIA) NODE("node3", AZ1) ON("e1", "node1", "default", S1, "")
		 ON("e2", "node2", "default", S2, "") ON("e3", "node3", "default", S1, "") P("default", S1, AFFINITY3), "p",
	 "node1=20 node2=100 node3=0"},
	{"Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
	 NODE("node1", CHINA) NODE("node2", INDIA) NODE("node3", AZ1) ON("e1", "node1", "default", S1, STAY_WITH_S1_IN_REGION)
		 ON("e2", "node2", "default", S2, STAY_WITH_S2_IN_REGION) P("default", S2, ""), "p",
	 "node1=0 node2=100 node3=0"},
	{"Affinity symmetry with namespace selector",
	 TEAMS NODE("node1", CHINA) NODE("node2", INDIA) NODE("node3", AZ1)
		 ON("e1", "node1", "default", S1, AFFINITY_NAMESPACE_SELECTOR)
		 ON("e2", "node2", "default", S2, STAY_WITH_S2_IN_REGION) P("subteam1.team1", S1, ""), "subteam1.team1/p",
	 "node1=100 node2=0 node3=0"},
	{"AntiAffinity symmetry with namespace selector",
	 TEAMS NODE("node1", CHINA) NODE("node2", INDIA) NODE("node3", AZ1)
		 ON("e1", "node1", "default", S1, ANTI_AFFINITY_NAMESPACE_SELECTOR)
		 ON("e2", "node2", "default", S2, STAY_WITH_S2_IN_REGION) P("subteam1.team1", S1, ""), "subteam1.team1/p",
	 "node1=0 node2=100 node3=100"},
	{"Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
	 NODE("node1", CHINA) NODE("node2", INDIA) NODE("node3", AZ1) ON("e1", "node1", "default", S1, HARD_AFFINITY)
		 ON("e2", "node2", "default", S2, HARD_AFFINITY) P("default", S1, ""), "p", "node1=100 node2=100 node3=0"},
	{"Anti Affinity: pod that does not match existing pods in node will get high score ",
	 NODE("node1", AZ1) NODE("node2", CHINA) ON("e1", "node1", "default", S1, "") ON("e2", "node2", "default", S2, "")
		 P("default", S1, AWAY_FROM_S1_IN_AZ), "p", "node1=0 node2=100"},
	{"Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing "
	 "to others ",
	 NODE("node1", AZ1) NODE("node2", CHINA) ON("e1", "node1", "default", S1, "") ON("e2", "node2", "default", S1, "")
		 P("default", S1, AWAY_FROM_S1_IN_AZ), "p", "node1=0 node2=100"},
	{"Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches "
	 "will get high score",
	 NODE("node1", AZ1) NODE("node2", INDIA) ON("e1", "node1", "default", S1, "") ON("e2", "node1", "default", S1, "")
		 ON("e3", "node2", "default", S2, "") P("default", S1, AWAY_FROM_S1_IN_AZ), "p", "node1=0 node2=100"},
	{"Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
	 NODE("node1", AZ1) NODE("node2", AZ2) ON("e1", "node1", "default", S1, AWAY_FROM_S2_IN_AZ)
		 ON("e2", "node2", "default", S2, AWAY_FROM_S1_IN_AZ) P("default", S2, ""), "p", "node1=0 node2=100"},
	{"Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod "
	 "affinity & anti affinity",
	 NODE("node1", CHINA) NODE("node2", AZ1) ON("e1", "node1", "default", S1, "") ON("e2", "node2", "default", S1, "")
		 P("default", S1, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ), "p", "node1=100 node2=0"},
	{"Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods "
	 "have the same labels",
	 NODE("node1", CHINA_AZ1) NODE("node2", INDIA) NODE("node3", CHINA) NODE("node4", CHINA) NODE("node5", INDIA)
		 ON("e1", "node1", "default", S1, "") ON("e2", "node1", "default", S1, "") ON("e3", "node2", "default", S1, "")
		 ON("e4", "node3", "default", S1, "") ON("e5", "node3", "default", S1, "") ON("e6", "node4", "default", S1, "")
		 ON("e7", "node5", "default", S1, "") P("default", S1, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ), "p",
	 "node1=100 node2=0 node3=100 node4=100 node5=0"},
	{"Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in "
	 "both pod affinity & anti affinity & symmetry",
	 NODE("node1", CHINA) NODE("node2", AZ1) NODE("node3", INDIA) NODE("node4", AZ2) ON("e1", "node1", "default", S1, "")
		 ON("e2", "node2", "default", S2, "") ON("e3", "node3", "default", "{}", STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ)
		 ON("e4", "node4", "default", "{}", AWAY_FROM_S1_IN_AZ) P("default", S1, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
	 "p", "node1=100 node2=0 node3=100 node4=0"},
	{"Avoid panic when partial nodes in a topology don't have pods with affinity",
	 NODE("node1", CHINA) NODE("node2", CHINA) ON("e1", "node1", "default", S1, "")
		 ON("e2", "node2", "default", "{}", STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ) P("default", S1, ""), "p",
	 "node1=0 node2=0"},
};

int main(void)
{
	char got[4096];
	tap_snap t;
	for (size_t i = 0; i < sizeof filter_cases / sizeof *filter_cases; i++) {
		const filter_case *c = &filter_cases[i];
		if (tap_snap_open(&t, c->yaml, NULL, c->pod) != KP_OK)
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		else
			TAP_EQ_STR(tap_snap_filter_all(&t, &kp_plugin_inter_pod_affinity, got, sizeof got), c->want, "Filter: %s",
				   c->name);
		tap_snap_close(&t);
	}
	for (size_t i = 0; i < sizeof score_cases / sizeof *score_cases; i++) {
		const score_case *c = &score_cases[i];
		if (tap_snap_open(&t, c->yaml, NULL, c->pod) != KP_OK)
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		else
			TAP_EQ_STR(tap_snap_score(&t, &kp_plugin_inter_pod_affinity, NULL, 1, got, sizeof got), c->want,
				   "Score: %s", c->name);
		tap_snap_close(&t);
	}
	/* "all nodes are same priority as Affinity is nil": kube's PreScore says Skip */
	if (tap_snap_open(&t, score_cases[0].yaml, NULL, "p") == KP_OK) {
		tap_snap_reset(&t);
		for (int n = 0; n < t.s.nnodes; n++)
			t.cy.feas[t.cy.nfeas++] = n;
		TAP_EQ_I64(kp_plugin_inter_pod_affinity.pre_score(&t.cy), KP_SKIP, "PreScore: %s", score_cases[0].name);
	} else {
		TAP_OK(0, "PreScore skip: open (%s)", t.err.msg);
	}
	tap_snap_close(&t);
	return tap_done();
}
