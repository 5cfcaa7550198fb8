/*
 * test_plugin_node_ports.c — NodePorts' PreFilter and Filter
 * (planner/plugins/node_ports.c) on the cases of kube's own unit test:
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/nodeports/
 * node_ports_test.go, TestNodePorts.  Ports are written as kube's newPod
 * writes them, "PROTOCOL/HOSTIP/HOSTPORT"; the pods of kube's NodeInfo run
 * on node m1 (spec.nodeName), the pod p is pending.  "TCP hostPort conflict
 * from sidecar initContainer" (kube 1.34+, PR #132040: a restartable init
 * container's host ports count) is checked at 1.37 and, with the answer of
 * the versions before, at 1.33 (docs/kube-versions.md §3).
 */
#include "tap.h"
#include "tap_snap.h"

#define REASON "Unschedulable: node(s) didn't have free ports for the requested pod ports"

typedef struct port_case {
	const char *name;
	const char *pod;          /* the pending pod's ports */
	const char *existing;     /* the ports of the pod on m1, NULL: no pod there */
	const char *want;         /* Filter's verdict on m1, or "skip" for PreFilter's Skip */
	const char *node;         /* the node filtered instead of m1 */
	const char *init;         /* the pending pod's ports in a (non-sidecar) init container */
	int sidecar;              /* init is a sidecar (restartPolicy: Always) */
	int minor;                /* the kube version, 0: the newest */
} port_case;

/* TestNodePorts */
static const port_case cases[] = {
	{"skip filter", "", NULL, "skip", NULL, NULL, 0, 0},
	{"other port", "UDP/127.0.0.1/8080", "UDP/127.0.0.1/9090", "", NULL, NULL, 0, 0},
	{"same udp port", "UDP/127.0.0.1/8080", "UDP/127.0.0.1/8080", REASON, NULL, NULL, 0, 0},
	{"same tcp port", "TCP/127.0.0.1/8080", "TCP/127.0.0.1/8080", REASON, NULL, NULL, 0, 0},
	{"different host ip", "TCP/127.0.0.1/8080", "TCP/127.0.0.2/8080", "", NULL, NULL, 0, 0},
	{"different protocol", "UDP/127.0.0.1/8080", "TCP/127.0.0.1/8080", "", NULL, NULL, 0, 0},
	{"second udp port conflict", "UDP/127.0.0.1/8000 UDP/127.0.0.1/8080", "UDP/127.0.0.1/8080", REASON, NULL, NULL, 0, 0},
	{"first tcp port conflict", "TCP/127.0.0.1/8001 UDP/127.0.0.1/8080", "TCP/127.0.0.1/8001 UDP/127.0.0.1/8081",
	 REASON, NULL, NULL, 0, 0},
	{"first tcp port conflict due to 0.0.0.0 hostIP", "TCP/0.0.0.0/8001", "TCP/127.0.0.1/8001", REASON, NULL, NULL, 0, 0},
	{"TCP hostPort conflict due to 0.0.0.0 hostIP", "TCP/10.0.10.10/8001 TCP/0.0.0.0/8001", "TCP/127.0.0.1/8001",
	 REASON, NULL, NULL, 0, 0},
	{"second tcp port conflict to 0.0.0.0 hostIP", "TCP/127.0.0.1/8001", "TCP/0.0.0.0/8001", REASON, NULL, NULL, 0, 0},
	{"second different protocol", "UDP/127.0.0.1/8001", "TCP/0.0.0.0/8001", "", NULL, NULL, 0, 0},
	{"UDP hostPort conflict due to 0.0.0.0 hostIP", "UDP/127.0.0.1/8001", "TCP/0.0.0.0/8001 UDP/0.0.0.0/8001",
	 REASON, NULL, NULL, 0, 0},
	{"non-sidecar initContainer using hostPort", "", "TCP/0.0.0.0/8001", "skip", NULL, "TCP/0.0.0.0/8001", 0, 0},
	{"TCP hostPort conflict from sidecar initContainer", "", "TCP/0.0.0.0/8001", REASON, NULL, "TCP/0.0.0.0/8001", 1, 0},
	{"kplan: 1.33, TCP hostPort conflict from sidecar initContainer ignored", "", "TCP/0.0.0.0/8001", "skip", NULL,
	 "TCP/0.0.0.0/8001", 1, 33},
	/* kplan's own: a port in use on one node leaves the others free */
	{"kplan: the same port in use on another node", "TCP/127.0.0.1/8080", "TCP/127.0.0.1/8080", "", "m2", NULL, 0, 0},
};

/* kube's newPod(host, "PROTO/IP/PORT"...) as one container's YAML ports */
static size_t ports_yaml(char *buf, size_t len, const char *spec)
{
	size_t w = (size_t)snprintf(buf, len, "[");
	char proto[16], ip[64];
	int port, used;
	for (const char *s = spec; w < len && sscanf(s, " %15[^/]/%63[^/]/%d%n", proto, ip, &port, &used) == 3; s += used)
		w += (size_t)snprintf(buf + w, len - w, "%s{containerPort: %d, hostPort: %d, hostIP: %s, protocol: %s}",
				      w > 1 ? ", " : "", port, port, ip, proto);
	if (w < len)
		w += (size_t)snprintf(buf + w, len - w, "]");
	return w;
}

static const char *cluster(char *buf, size_t len, const port_case *c)
{
	char ports[1024], init[1024];
	size_t w = (size_t)snprintf(buf, len, "kind: Node\nmetadata: {name: m1}\n---\nkind: Node\nmetadata: {name: m2}\n---\n");
	if (c->existing) {
		ports_yaml(ports, sizeof ports, c->existing);
		w += (size_t)snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: existing}\n"
				      "spec: {nodeName: m1, containers: [{name: c, image: nginx, ports: %s}]}\n"
				      "status: {phase: Running}\n---\n", ports);
	}
	ports_yaml(ports, sizeof ports, c->pod);
	ports_yaml(init, sizeof init, c->init ? c->init : "");
	if (w < len)
		snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: p}\nspec: {initContainers: [{name: i, image: busybox, %s"
			 "ports: %s}], containers: [{name: c, image: nginx, ports: %s}]}\n", c->sidecar ? "restartPolicy: Always, " : "",
			 init, ports);
	return buf;
}

int main(void)
{
	char yaml[8192], got[1024];
	tap_snap t;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const port_case *c = &cases[i];
		cluster(yaml, sizeof yaml, c);
		tap_snap_kube_minor = c->minor;
		if (tap_snap_open(&t, yaml, NULL, "p") != KP_OK) {
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		} else if (!strcmp(c->want, "skip")) {
			TAP_EQ_STR(tap_snap_prefilter(&t, &kp_plugin_node_ports, got, sizeof got), "skip", "PreFilter: %s",
				   c->name);
		} else {
			TAP_EQ_STR(tap_snap_prefilter(&t, &kp_plugin_node_ports, got, sizeof got), "", "PreFilter: %s",
				   c->name);
			TAP_EQ_STR(tap_snap_filter(&t, &kp_plugin_node_ports, c->node ? c->node : "m1", got, sizeof got), c->want, "Filter: %s",
				   c->name);
		}
		tap_snap_close(&t);
	}
	return tap_done();
}
