/*
 * test_plugin_node_unschedulable.c — the two node-only filters:
 * NodeUnschedulable (planner/plugins/node_unschedulable.c,
 * queries/filters/node_unschedulable.sql) on kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/nodeunschedulable/
 * node_unschedulable_test.go TestNodeUnschedulable, and NodeName
 * (planner/plugins/node_name.c) on nodename/node_name_test.go TestNodeName.
 *
 * kplan's NodeName filter passes every node because a pod with
 * spec.nodeName is never pending: it is on its node when the snapshot is
 * loaded ("host matches"), or takes no room when that node was not imported
 * ("host doesn't match" has no node to fail on).  Those two cases check that
 * load, which is what makes the filter right.
 */
#include "tap.h"
#include "tap_snap.h"

typedef struct filter_case {
	const char *name;
	const char *node_spec;
	const char *pod_spec;     /* without containers */
	const char *want;
} filter_case;

/* TestNodeUnschedulable */
static const filter_case unschedulable_cases[] = {
	{"Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)", "{unschedulable: true}", "",
	 "UnschedulableAndUnresolvable: node(s) were unschedulable"},
	{"Schedule pod to normal node", "{unschedulable: false}", "", ""},
	{"Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)", "{unschedulable: true}",
	 "tolerations: [{key: node.kubernetes.io/unschedulable, effect: NoSchedule}], ", ""},
	/* kplan's own: a toleration of another effect does not tolerate the cordon */
	{"kplan: a NoExecute toleration of the unschedulable taint", "{unschedulable: true}",
	 "tolerations: [{key: node.kubernetes.io/unschedulable, effect: NoExecute}], ",
	 "UnschedulableAndUnresolvable: node(s) were unschedulable"},
};

static const char *cluster(char *buf, size_t len, const char *node_spec, const char *pod_spec)
{
	snprintf(buf, len, "kind: Node\nmetadata: {name: foo}\nspec: %s\n---\n"
		 "kind: Pod\nmetadata: {name: p}\nspec: {%scontainers: [{name: c, image: nginx}]}\n",
		 node_spec, pod_spec);
	return buf;
}

int main(void)
{
	char yaml[4096], got[1024];
	tap_snap t;
	for (size_t i = 0; i < sizeof unschedulable_cases / sizeof *unschedulable_cases; i++) {
		const filter_case *c = &unschedulable_cases[i];
		if (tap_snap_open(&t, cluster(yaml, sizeof yaml, c->node_spec, c->pod_spec), NULL, "p") != KP_OK)
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		else
			TAP_EQ_STR(tap_snap_filter(&t, &kp_plugin_node_unschedulable, "foo", got, sizeof got), c->want,
				   "NodeUnschedulable: %s", c->name);
		tap_snap_close(&t);
	}

	/* TestNodeName */
	if (tap_snap_open(&t, cluster(yaml, sizeof yaml, "{}", ""), NULL, "p") != KP_OK)
		TAP_OK(0, "no host specified: open (%s)", t.err.msg);
	else
		TAP_EQ_STR(tap_snap_filter(&t, &kp_plugin_node_name, "foo", got, sizeof got), "", "NodeName: no host specified");
	tap_snap_close(&t);
	if (tap_snap_open(&t, cluster(yaml, sizeof yaml, "{}", "nodeName: foo, "), NULL, "p") != KP_OK) {
		TAP_OK(0, "host matches: open (%s)", t.err.msg);
	} else {
		TAP_EQ_I64(t.cy.p->node, tap_snap_node(&t, "foo"), "NodeName: host matches (the pod is on foo, not pending)");
		TAP_EQ_I64(t.cy.p->orig_node, tap_snap_node(&t, "foo"), "NodeName: host matches (bound at load)");
	}
	tap_snap_close(&t);
	if (tap_snap_open(&t, cluster(yaml, sizeof yaml, "{}", "nodeName: bar, "), NULL, "p") != KP_OK) {
		TAP_OK(0, "host doesn't match: open (%s)", t.err.msg);
	} else {
		TAP_EQ_I64(t.cy.p->node, -1, "NodeName: host doesn't match (on no node)");
		TAP_EQ_I64(t.cy.p->ignored, KP_POD_UNKNOWN_NODE, "NodeName: host doesn't match (not planned: node not imported)");
	}
	tap_snap_close(&t);
	return tap_done();
}
