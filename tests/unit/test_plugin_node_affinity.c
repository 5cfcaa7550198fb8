/*
 * test_plugin_node_affinity.c — NodeAffinity's PreFilter, Filter and Score
 * (planner/plugins/node_affinity.c, queries/filters/node_affinity.sql) on
 * the cases of kube's own unit tests: kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go,
 * TestNodeAffinity and TestNodeAffinityPriority (v1.28–v1.31).  The cases
 * with NodeAffinityArgs.addedAffinity are left to the end-to-end cases
 * (tests/e2e/s-config-added-affinity*.yaml): the plan loop parses it.
 *
 * Filter cases: the pod p on node1 and node2; the node kube's case names
 * (node1 when it names none) carries the case's labels, the other none.
 */
#include "tap.h"
#include "tap_snap.h"

#define REASON "UnschedulableAndUnresolvable: node(s) didn't match Pod's node affinity/selector"
#define REQ(terms) "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [" \
	terms "]}}}"
#define EXPRS(...) "{matchExpressions: [" __VA_ARGS__ "]}"
#define FIELDS(...) "{matchFields: [" __VA_ARGS__ "]}"
#define E(k, op, vals) "{key: " k ", operator: " op ", values: " vals "}"
#define X(k, op) "{key: " k ", operator: " op "}"
#define NAME_IN(n) "{key: metadata.name, operator: In, values: [" n "]}"

typedef struct filter_case {
	const char *name;
	const char *spec;         /* the pod's spec, without containers */
	const char *node;         /* the node filtered; NULL: node1 */
	const char *labels;       /* its labels */
	const char *want;         /* Filter's verdict */
	const char *want_pre;     /* PreFilter: "" all nodes, else the nodes kept or "PreFilter: MSG" */
} filter_case;

/* TestNodeAffinity */
static const filter_case filter_cases[] = {
	{"missing labels", "nodeSelector: {foo: bar}", NULL, "{}", REASON, ""},
	{"same labels", "nodeSelector: {foo: bar}", NULL, "{foo: bar}", "", ""},
	{"node labels are superset", "nodeSelector: {foo: bar}", NULL, "{foo: bar, baz: blah}", "", ""},
	{"node labels are subset", "nodeSelector: {foo: bar, baz: blah}", NULL, "{foo: bar}", REASON, ""},
	{"Pod with matchExpressions using In operator that matches the existing node",
	 REQ(EXPRS(E("foo", "In", "[bar, value2]"))), NULL, "{foo: bar}", "", ""},
	{"Pod with matchExpressions using Gt operator that matches the existing node",
	 REQ(EXPRS(E("kernel-version", "Gt", "['0204']"))), NULL, "{kernel-version: '0206'}", "", ""},
	{"Pod with matchExpressions using NotIn operator that matches the existing node",
	 REQ(EXPRS(E("mem-type", "NotIn", "[DDR, DDR2]"))), NULL, "{mem-type: DDR3}", "", ""},
	{"Pod with matchExpressions using Exists operator that matches the existing node",
	 REQ(EXPRS(X("GPU", "Exists"))), NULL, "{GPU: NVIDIA-GRID-K1}", "", ""},
	{"Pod with affinity that don't match node's labels won't schedule onto the node",
	 REQ(EXPRS(E("foo", "In", "[value1, value2]"))), NULL, "{foo: bar}", REASON, ""},
	{"Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
	 REQ("{matchExpressions: []}"), NULL, "{foo: bar}", REASON, ""},
	{"Pod with no Affinity will schedule onto a node", "{}", NULL, "{foo: bar}", "", ""},
	{"Pod with Affinity but nil NodeSelector will schedule onto a node",
	 "affinity: {nodeAffinity: {}}", NULL, "{foo: bar}", "", ""},
	{"Pod with multiple matchExpressions ANDed that matches the existing node",
	 REQ(EXPRS(X("GPU", "Exists") ", " E("GPU", "NotIn", "[AMD, INTER]"))), NULL, "{GPU: NVIDIA-GRID-K1}", "", ""},
	{"Pod with multiple matchExpressions ANDed that doesn't match the existing node",
	 REQ(EXPRS(X("GPU", "Exists") ", " E("GPU", "In", "[AMD, INTER]"))), NULL, "{GPU: NVIDIA-GRID-K1}", REASON, ""},
	{"Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
	 REQ(EXPRS(E("foo", "In", "[bar, value2]")) ", " EXPRS(E("diffkey", "In", "[wrong, value2]"))), NULL,
	 "{foo: bar}", "", ""},
	{"Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, "
	 "will schedule onto the node",
	 "nodeSelector: {foo: bar}, " REQ(EXPRS(X("foo", "Exists"))), NULL, "{foo: bar}", "", ""},
	{"Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) "
	 "is not satisfied, won't schedule onto the node",
	 "nodeSelector: {foo: bar}, " REQ(EXPRS(X("foo", "Exists"))), NULL, "{foo: barrrrrr}", REASON, ""},
	{"Pod with an invalid value in Affinity term won't be scheduled onto the node",
	 REQ(EXPRS(E("foo", "NotIn", "['invalid value: ___@#$%^']"))), NULL, "{foo: bar}", REASON, ""},
	{"Pod with matchFields using In operator that matches the existing node",
	 REQ(FIELDS(NAME_IN("node1"))), "node1", "{}", "", "node1"},
	{"Pod with matchFields using In operator that does not match the existing node",
	 REQ(FIELDS(NAME_IN("node1"))), "node2", "{}", REASON, "node1"},
	{"Pod with two terms: matchFields does not match, but matchExpressions matches",
	 REQ(FIELDS(NAME_IN("node1") ", " NAME_IN("node2")) ", " EXPRS(E("foo", "In", "[bar]"))), "node2", "{foo: bar}",
	 "", ""},
	{"Pod with one term: matchFields does not match, but matchExpressions matches",
	 REQ("{matchFields: [" NAME_IN("node1") "], matchExpressions: [" E("foo", "In", "[bar]") "]}"), "node2",
	 "{foo: bar}", REASON, "node1"},
	{"Pod with one term: both matchFields and matchExpressions match",
	 REQ("{matchFields: [" NAME_IN("node1") "], matchExpressions: [" E("foo", "In", "[bar]") "]}"), "node1",
	 "{foo: bar}", "", "node1"},
	{"Pod with two terms: both matchFields and matchExpressions do not match",
	 REQ(FIELDS(NAME_IN("node1")) ", " EXPRS(E("foo", "In", "[not-match-to-bar]"))), "node2", "{foo: bar}", REASON,
	 ""},
	{"Pod with two terms of node.Name affinity",
	 REQ(FIELDS(NAME_IN("node1")) ", " FIELDS(NAME_IN("node2"))), "node2", "{}", "", "node1 node2"},
	/* kube: PreFilter UnschedulableAndUnresolvable errReasonConflict; the
	 * framework then runs no Filter */
	{"Pod with two conflicting mach field requirements",
	 REQ(FIELDS(NAME_IN("node1") ", " NAME_IN("node2"))), "node2", "{foo: bar}",
	 "PreFilter: pod affinity terms conflict", "PreFilter: pod affinity terms conflict"},
	{"Matches node selector correctly even if PreFilter is not called",
	 "nodeSelector: {foo: bar}", NULL, "{foo: bar, baz: blah}", "", ""},
	{"Matches node affinity correctly even if PreFilter is not called",
	 REQ(EXPRS(X("GPU", "Exists") ", " E("GPU", "NotIn", "[AMD, INTER]"))), NULL, "{GPU: NVIDIA-GRID-K1}", "", ""},
};

#define PREF(w, ...) "{weight: " #w ", preference: {matchExpressions: [" __VA_ARGS__ "]}}"
#define AFFINITY1 "affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [" \
	PREF(2, E("foo", "In", "[bar]")) "]}}"
#define AFFINITY2 "affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [" \
	PREF(2, E("foo", "In", "[bar]")) ", " PREF(4, E("key", "In", "[value]")) ", " \
	PREF(5, E("foo", "In", "[bar]") ", " E("key", "In", "[value]") ", " E("az", "In", "[az1]")) "]}}"
#define LABEL1 "{foo: bar}"
#define LABEL2 "{key: value}"
#define LABEL3 "{az: az1}"
#define LABEL4 "{abc: az11, def: az22}"
#define LABEL5 "{foo: bar, key: value, az: az1}"

typedef struct score_case {
	const char *name;
	const char *spec;
	const char *nodes[3][2];  /* name, labels */
	const char *want;         /* normalised; nodes in name order */
} score_case;

/* TestNodeAffinityPriority */
static const score_case score_cases[] = {
	{"all nodes are same priority as NodeAffinity is nil", "{}",
	 {{"node1", LABEL1}, {"node2", LABEL2}, {"node3", LABEL3}}, "node1=0 node2=0 node3=0"},
	{"no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero",
	 AFFINITY1, {{"node1", LABEL4}, {"node2", LABEL2}, {"node3", LABEL3}}, "node1=0 node2=0 node3=0"},
	{"only node1 matches the preferred scheduling requirements of pod", AFFINITY1,
	 {{"node1", LABEL1}, {"node2", LABEL2}, {"node3", LABEL3}}, "node1=100 node2=0 node3=0"},
	{"all nodes matches the preferred scheduling requirements of pod but with different priorities ", AFFINITY2,
	 {{"node1", LABEL1}, {"node5", LABEL5}, {"node2", LABEL2}}, "node1=18 node2=36 node5=100"},
};

static const char *cluster(char *buf, size_t len, const char *const nodes[][2], int nnodes, const char *spec)
{
	size_t w = 0;
	for (int i = 0; i < nnodes && w < len; i++)
		w += (size_t)snprintf(buf + w, len - w, "kind: Node\nmetadata: {name: %s, labels: %s}\n---\n", nodes[i][0],
				      nodes[i][1]);
	if (w < len)
		snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: p}\nspec: {%s%scontainers: [{name: c, image: nginx}]}\n",
			 spec[0] == '{' ? "" : spec, spec[0] == '{' ? "" : ", ");
	return buf;
}

int main(void)
{
	char yaml[8192], got[1024];
	tap_snap t;
	for (size_t i = 0; i < sizeof filter_cases / sizeof *filter_cases; i++) {
		const filter_case *c = &filter_cases[i];
		const char *node = c->node ? c->node : "node1";
		int first = !strcmp(node, "node1");
		const char *nodes[2][2] = { { "node1", first ? c->labels : "{}" }, { "node2", first ? "{}" : c->labels } };
		if (tap_snap_open(&t, cluster(yaml, sizeof yaml, nodes, 2, c->spec), NULL, "p") != KP_OK) {
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		} else {
			TAP_EQ_STR(tap_snap_filter(&t, &kp_plugin_node_affinity, node, got, sizeof got), c->want,
				   "Filter: %s", c->name);
			TAP_EQ_STR(tap_snap_prefilter(&t, &kp_plugin_node_affinity, got, sizeof got), c->want_pre,
				   "PreFilter: %s", c->name);
		}
		tap_snap_close(&t);
	}
	for (size_t i = 0; i < sizeof score_cases / sizeof *score_cases; i++) {
		const score_case *c = &score_cases[i];
		if (tap_snap_open(&t, cluster(yaml, sizeof yaml, c->nodes, 3, c->spec), NULL, "p") != KP_OK)
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		else
			TAP_EQ_STR(tap_snap_score(&t, &kp_plugin_node_affinity, NULL, 1, got, sizeof got), c->want, "Score: %s",
				   c->name);
		tap_snap_close(&t);
	}
	/* "Skip is returned in PreScore when NodeAffinity is nil": a pod
	 * without preferred terms sits NodeAffinity's scoring out */
	const char *one[1][2] = { { "node1", LABEL1 } };
	if (tap_snap_open(&t, cluster(yaml, sizeof yaml, one, 1, "{}"), NULL, "p") == KP_OK)
		TAP_EQ_I64(kp_plugin_node_affinity.pre_score(&t.cy), KP_SKIP,
			   "PreScore: Skip is returned in PreScore when NodeAffinity is nil");
	else
		TAP_OK(0, "PreScore skip: open (%s)", t.err.msg);
	tap_snap_close(&t);
	return tap_done();
}
