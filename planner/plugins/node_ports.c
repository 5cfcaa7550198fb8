/*
 * node_ports.c — NodePorts (kube-scheduler-semantics.md §5.5; kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/nodeports/node_ports.go).  A wanted
 * host port (hostIP, protocol, hostPort) conflicts with one in use on the node
 * when protocol and port are equal and either IP is 0.0.0.0 or both IPs are
 * equal: "node(s) didn't have free ports for the requested pod ports",
 * Unschedulable (preemption may free it).  Pods without host ports skip it.
 */
#include "../cycle.h"

static int pre_filter(kp_cycle *cy) { return cy->c->nports ? KP_OK : KP_SKIP; }

static int filter(kp_cycle *cy, int node)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	for (uint32_t i = 0; i < c->nports; i++) {
		const kp_hport *w = &c->ports[i];
		for (uint32_t j = 0; j < s->nports[node]; j++) {
			const kp_hport *u = &s->ports[node][j];
			if (u->port == w->port && u->proto == w->proto &&
			    (u->ip == s->s_any_ip || w->ip == s->s_any_ip || u->ip == w->ip)) {
				kp_cycle_fail(cy, node, KP_P_NODE_PORTS, cy->r_ports, 0);
				return 1;
			}
		}
	}
	return 0;
}

const kp_plugin kp_plugin_node_ports = {
	.name = "NodePorts",
	.local_filter = 1,
	.pre_filter = pre_filter,
	.filter = filter,
};
