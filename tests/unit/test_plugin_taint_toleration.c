/*
 * test_plugin_taint_toleration.c — TaintToleration's Filter and Score
 * (planner/plugins/taint_toleration.c, queries/filters/taint_toleration.sql)
 * on the cases of kube's own unit tests: kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go,
 * v1.28–v1.34 (the reason names the first untolerated taint), planned as
 * kube 1.34; from 1.35 the reason names no taint ("node(s) had untolerated
 * taint(s)", PR #134740), checked on the same cases as 1.37.  Gt/Lt
 * tolerations: test_scores.c and tests/e2e/k-toleration-gt-lt-*.yaml.
 * Each case is one pod, pod1, and its nodes; the plugin is called directly
 * (tap_snap.h).
 */
#include "tap.h"
#include "tap_snap.h"

/* pod1 with these tolerations (a YAML flow list), on nodes nodeA.. with
 * these taints (NULL ends the list) */
static const char *cluster(char *buf, size_t len, const char *tols, const char *const *taints)
{
	size_t w = 0;
	for (int i = 0; taints[i] && w < len; i++)
		w += (size_t)snprintf(buf + w, len - w, "kind: Node\nmetadata: {name: node%c}\nspec: {taints: %s}\n---\n",
				      'A' + i, taints[i]);
	if (w < len)
		snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: pod1}\n"
			 "spec: {tolerations: %s, containers: [{name: c, image: nginx}]}\n", tols);
	return buf;
}

typedef struct filter_case {
	const char *name;
	const char *tols, *taints;
	const char *want;
} filter_case;

/* TestTaintTolerationFilter */
static const filter_case filter_cases[] = {
	{"A pod having no tolerations can't be scheduled onto a node with nonempty taints",
	 "[]", "[{key: dedicated, value: user1, effect: NoSchedule}]",
	 "UnschedulableAndUnresolvable: node(s) had untolerated taint {dedicated: user1}"},
	{"A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
	 "[{key: dedicated, value: user1, effect: NoSchedule}]", "[{key: dedicated, value: user1, effect: NoSchedule}]",
	 ""},
	{"A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
	 "[{key: dedicated, operator: Equal, value: user2, effect: NoSchedule}]",
	 "[{key: dedicated, value: user1, effect: NoSchedule}]",
	 "UnschedulableAndUnresolvable: node(s) had untolerated taint {dedicated: user1}"},
	{"A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node",
	 "[{key: foo, operator: Exists, effect: NoSchedule}]", "[{key: foo, value: bar, effect: NoSchedule}]", ""},
	{"A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node",
	 "[{key: dedicated, operator: Equal, value: user2, effect: NoSchedule}, {key: foo, operator: Exists, effect: NoSchedule}]",
	 "[{key: dedicated, value: user2, effect: NoSchedule}, {key: foo, value: bar, effect: NoSchedule}]", ""},
	{"A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, "
	 "can't be scheduled onto the node",
	 "[{key: foo, operator: Equal, value: bar, effect: PreferNoSchedule}]", "[{key: foo, value: bar, effect: NoSchedule}]",
	 "UnschedulableAndUnresolvable: node(s) had untolerated taint {foo: bar}"},
	{"The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, "
	 "and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
	 "[{key: foo, operator: Equal, value: bar}]", "[{key: foo, value: bar, effect: NoSchedule}]", ""},
	{"The pod has a toleration that key and value don't match the taint on the node, "
	 "but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
	 "[{key: dedicated, operator: Equal, value: user2, effect: NoSchedule}]",
	 "[{key: dedicated, value: user1, effect: PreferNoSchedule}]", ""},
	{"The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
	 "[]", "[{key: dedicated, value: user1, effect: PreferNoSchedule}]", ""},
	/* kplan's own: the reason names the FIRST untolerated taint in
	 * spec.taints order (FindMatchingUntoleratedTaint), NoExecute included */
	{"kplan: the first of two untolerated taints is the reason",
	 "[]", "[{key: b, value: two, effect: NoExecute}, {key: a, value: one, effect: NoSchedule}]",
	 "UnschedulableAndUnresolvable: node(s) had untolerated taint {b: two}"},
	{"kplan: a tolerated first taint, the second one is the reason",
	 "[{key: a, operator: Exists}]", "[{key: a, value: one, effect: NoSchedule}, {key: b, value: two, effect: NoExecute}]",
	 "UnschedulableAndUnresolvable: node(s) had untolerated taint {b: two}"},
};

typedef struct score_case {
	const char *name;
	const char *tols;
	const char *taints[4];
	const char *want;         /* normalised, every node feasible */
} score_case;

#define PREFER(k, v) "{key: " k ", value: " v ", effect: PreferNoSchedule}"

/* TestTaintTolerationScore */
static const score_case score_cases[] = {
	{"node with taints tolerated by the pod, gets a higher score than those node with intolerable taints",
	 "[" PREFER("foo", "bar") "]",
	 {"[" PREFER("foo", "bar") "]", "[" PREFER("foo", "blah") "]"},
	 "nodeA=100 nodeB=0"},
	{"the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has",
	 "[{key: cpu-type, operator: Equal, value: arm64, effect: PreferNoSchedule}, "
	 "{key: disk-type, operator: Equal, value: ssd, effect: PreferNoSchedule}]",
	 {"[]", "[" PREFER("cpu-type", "arm64") "]", "[" PREFER("cpu-type", "arm64") ", " PREFER("disk-type", "ssd") "]"},
	 "nodeA=100 nodeB=100 nodeC=100"},
	{"the more intolerable taints a node has, the lower score it gets.",
	 "[{key: foo, operator: Equal, value: bar, effect: PreferNoSchedule}]",
	 {"[]", "[" PREFER("cpu-type", "arm64") "]", "[" PREFER("cpu-type", "arm64") ", " PREFER("disk-type", "ssd") "]"},
	 "nodeA=100 nodeB=50 nodeC=0"},
	{"only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function",
	 "[{key: cpu-type, operator: Equal, value: arm64, effect: NoSchedule}, "
	 "{key: disk-type, operator: Equal, value: ssd, effect: NoSchedule}]",
	 {"[]", "[{key: cpu-type, value: arm64, effect: NoSchedule}]",
	  "[" PREFER("cpu-type", "arm64") ", " PREFER("disk-type", "ssd") "]"},
	 "nodeA=100 nodeB=100 nodeC=0"},
	{"Default behaviour No taints and tolerations, lands on node with no taints",
	 "[]", {"[]", "[" PREFER("cpu-type", "arm64") "]"},
	 "nodeA=100 nodeB=0"},
};

/* the raw scores (before NormalizeScore reverses them) of one case above */
static const score_case raw_cases[] = {
	{"raw: the more intolerable taints a node has, the lower score it gets.",
	 "[{key: foo, operator: Equal, value: bar, effect: PreferNoSchedule}]",
	 {"[]", "[" PREFER("cpu-type", "arm64") "]", "[" PREFER("cpu-type", "arm64") ", " PREFER("disk-type", "ssd") "]"},
	 "nodeA=0 nodeB=1 nodeC=2"},
};

int main(void)
{
	char yaml[8192], got[1024];
	tap_snap t;
	for (int minor = 34; minor <= 37; minor += 3)
		for (size_t i = 0; i < sizeof filter_cases / sizeof *filter_cases; i++) {
			const filter_case *c = &filter_cases[i];
			const char *taints[] = { c->taints, NULL };
			char want[256];
			/* 1.35+: "node(s) had untolerated taint(s)" whatever the taint */
			snprintf(want, sizeof want, "%s", c->want);
			char *brace = minor >= 35 ? strstr(want, "taint {") : NULL;
			if (brace)
				snprintf(brace, sizeof want - (size_t)(brace - want), "taint(s)");
			tap_snap_kube_minor = minor;
			if (tap_snap_open(&t, cluster(yaml, sizeof yaml, c->tols, taints), NULL, "pod1") != KP_OK)
				TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
			else
				TAP_EQ_STR(tap_snap_filter(&t, &kp_plugin_taint_toleration, "nodeA", got, sizeof got), want,
					   "Filter 1.%d: %s", minor, c->name);
			tap_snap_close(&t);
		}
	tap_snap_kube_minor = 0;
	for (int raw = 0; raw < 2; raw++) {
		const score_case *cases = raw ? raw_cases : score_cases;
		size_t n = raw ? sizeof raw_cases / sizeof *raw_cases : sizeof score_cases / sizeof *score_cases;
		for (size_t i = 0; i < n; i++) {
			const score_case *c = &cases[i];
			if (tap_snap_open(&t, cluster(yaml, sizeof yaml, c->tols, c->taints), NULL, "pod1") != KP_OK)
				TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
			else
				TAP_EQ_STR(tap_snap_score(&t, &kp_plugin_taint_toleration, NULL, !raw, got, sizeof got),
					   c->want, "Score: %s", c->name);
			tap_snap_close(&t);
		}
	}
	return tap_done();
}
