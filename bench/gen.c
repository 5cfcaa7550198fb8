/*
 * gen.c — a cluster generator for kplan's benchmarks.
 *
 *   bench/gen --nodes 5000 --pods 150000 --seed 1 --mix full > cluster.yaml
 *   bench/gen --nodes 500 --pods 15000 --emit pods > dump.yaml     (kubectl get pods -o yaml style)
 *   bench/gen --nodes 500 --pods 15000 --format csv -o cluster      (cluster.nodes.csv, cluster.pods.csv)
 *
 * Nodes: instance types in pools (general, compute, memory, gpu with a
 * NoSchedule taint, infra with a dedicated taint), spread over 3 zones.
 * Pods: Deployments (and StatefulSets) of 5..60 replicas until --pods is
 * reached.  --mix plain: requests only.  --mix full: shares of node
 * affinity/selectors, tolerations, required pod anti-affinity by hostname,
 * topology spread by zone (DoNotSchedule), and priorities that force
 * preemption (low-priority running pods fill part of the cluster, later
 * high-priority workloads need their room).  The same arguments always give
 * the same output (a fixed PRNG).  --mix volumes: the full mix, the same
 * workloads, plus storage (drawn from ids, not the PRNG, so that the pods
 * are those of --mix full): a WaitForFirstConsumer class with CSI storage
 * capacity per zone and a CSINode attach limit of 25 on every node; a
 * quarter of the running fillers hold a claim bound to a zonal PV of their
 * node's zone; StatefulSets get volumeClaimTemplates; one plain Deployment
 * in ten shares a ReadWriteMany claim bound to an NFS PV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <getopt.h>

static uint64_t rng_state = 1;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int pick(int n) { return (int)(rnd() % (uint64_t)n); }

typedef struct itype {
	const char *name, *pool;
	int cpu, mem_gi, gpus, share;   /* share: per mille of nodes */
} itype;

static const itype types[] = {
	{ "m5.2xlarge", "general", 8, 32, 0, 300 },
	{ "m5.4xlarge", "general", 16, 64, 0, 300 },
	{ "c5.4xlarge", "compute", 16, 32, 0, 150 },
	{ "r5.2xlarge", "memory", 8, 64, 0, 120 },
	{ "r5.4xlarge", "memory", 16, 128, 0, 50 },
	{ "p3.8xlarge", "gpu", 32, 244, 4, 50 },
	{ "m5.xlarge", "infra", 4, 16, 0, 30 },
};
#define NTYPES (sizeof types / sizeof types[0])
static const char *const zones[] = { "us-east-1a", "us-east-1b", "us-east-1c" };

typedef struct opts {
	long nodes, pods;
	uint64_t seed;
	int full, volumes, csv, json, emit_pods;
	const char *out;
} opts;

static const itype *node_type(long i)
{
	/* deterministic by index so shares hold exactly */
	long k = i % 1000, acc = 0;
	for (size_t t = 0; t < NTYPES; t++) {
		acc += types[t].share;
		if (k < acc)
			return &types[t];
	}
	return &types[0];
}

static void emit_nodes_yaml(FILE *f, const opts *o)
{
	fprintf(f, "apiVersion: v1\nkind: List\nitems:\n");
	for (long i = 0; i < o->nodes; i++) {
		const itype *t = node_type(i);
		const char *zone = zones[i % 3];
		fprintf(f, "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: node-%06ld\n    labels:\n"
			   "      kubernetes.io/hostname: node-%06ld\n      topology.kubernetes.io/zone: %s\n"
			   "      topology.kubernetes.io/region: us-east-1\n      node.kubernetes.io/instance-type: %s\n"
			   "      pool: %s\n",
			i, i, zone, t->name, t->pool);
		if (!strcmp(t->pool, "gpu"))
			fprintf(f, "  spec:\n    taints:\n    - {key: nvidia.com/gpu, value: present, effect: NoSchedule}\n");
		else if (!strcmp(t->pool, "infra"))
			fprintf(f, "  spec:\n    taints:\n    - {key: dedicated, value: infra, effect: NoSchedule}\n");
		fprintf(f, "  status:\n    allocatable:\n      cpu: \"%dm\"\n      memory: %dMi\n      pods: \"110\"\n"
			   "      ephemeral-storage: 100Gi\n",
			t->cpu * 1000 - 100, t->mem_gi * 1024 - 512);
		if (t->gpus)
			fprintf(f, "      nvidia.com/gpu: \"%d\"\n", t->gpus);
		fprintf(f, "    capacity:\n      cpu: \"%d\"\n      memory: %dGi\n      pods: \"110\"\n", t->cpu, t->mem_gi);
		if (t->gpus)
			fprintf(f, "      nvidia.com/gpu: \"%d\"\n", t->gpus);
	}
}

/* One workload's shape. */
typedef struct wl {
	long id, replicas;
	int cpu_m, mem_mi, gpu;
	int kind;                /* 0 plain, 1 node affinity, 2 toleration (gpu), 3 anti-affinity, 4 spread, 5 high priority */
	int sts;
	int low;                 /* low-priority filler (full mix) */
} wl;

static const char *const kinds[] = { "plain", "affinity", "gpu", "anti", "spread", "urgent" };

static void next_workload(wl *w, const opts *o, long id, long left)
{
	memset(w, 0, sizeof *w);
	w->id = id;
	static const int cpus[] = { 50, 100, 100, 250, 250, 500 };
	static const int mems[] = { 128, 256, 512, 512, 1024, 2048 };
	w->cpu_m = cpus[pick(6)];
	w->mem_mi = mems[pick(6)];
	w->replicas = 5 + pick(56);
	if (!o->full) {
		w->kind = 0;
	} else {
		int r = pick(100);
		w->kind = r < 40 ? 0 : r < 55 ? 1 : r < 62 ? 2 : r < 72 ? 3 : r < 88 ? 4 : 5;
		if (w->kind == 2) {
			w->gpu = 1;
			w->replicas = 1 + pick(4);
		}
		if (w->kind == 3)
			w->replicas = 3 + pick(8);   /* one per node: small groups */
		if (w->kind == 5)
			w->cpu_m = 1000;
		w->sts = pick(10) == 0 && w->kind != 2;
	}
	if (w->replicas > left)
		w->replicas = left;
}

/* the pod spec's fields, each line starting with ind */
static void emit_spec(FILE *f, const wl *w, const char *ind)
{
	if (w->low)
		fprintf(f, "%spriorityClassName: batch-low\n", ind);
	if (w->kind == 5)
		fprintf(f, "%spriorityClassName: urgent\n", ind);
	if (w->kind == 1)
		fprintf(f, "%snodeSelector: {pool: %s}\n%saffinity:\n%s  nodeAffinity:\n"
			   "%s    preferredDuringSchedulingIgnoredDuringExecution:\n"
			   "%s    - weight: 50\n%s      preference:\n%s        matchExpressions:\n"
			   "%s        - {key: topology.kubernetes.io/zone, operator: In, values: [%s]}\n",
			ind, w->id % 3 == 0 ? "compute" : w->id % 3 == 1 ? "memory" : "general", ind, ind, ind, ind, ind, ind,
			ind, zones[w->id % 3]);
	if (w->kind == 2)
		fprintf(f, "%stolerations:\n%s- {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n", ind, ind);
	if (w->kind == 3)
		fprintf(f, "%saffinity:\n%s  podAntiAffinity:\n%s    requiredDuringSchedulingIgnoredDuringExecution:\n"
			   "%s    - labelSelector: {matchLabels: {app: w%ld}}\n%s      topologyKey: kubernetes.io/hostname\n",
			ind, ind, ind, ind, w->id, ind);
	if (w->kind == 4)
		fprintf(f, "%stopologySpreadConstraints:\n%s- maxSkew: 1\n%s  topologyKey: topology.kubernetes.io/zone\n"
			   "%s  whenUnsatisfiable: DoNotSchedule\n%s  labelSelector: {matchLabels: {app: w%ld}}\n",
			ind, ind, ind, ind, ind, w->id);
	fprintf(f, "%scontainers:\n%s- name: app\n%s  image: registry.example.com/app-%ld:1.%ld\n"
		   "%s  resources:\n%s    requests: {cpu: %dm, memory: %dMi",
		ind, ind, ind, w->id % 50, w->id % 7, ind, ind, w->cpu_m, w->mem_mi);
	if (w->gpu)
		fprintf(f, ", nvidia.com/gpu: \"1\"}\n%s    limits: {nvidia.com/gpu: \"1\"}\n", ind);
	else
		fprintf(f, "}\n");
}

static void emit_template(FILE *f, const wl *w, const char *ind)
{
	char spec_ind[64];
	snprintf(spec_ind, sizeof spec_ind, "%s    ", ind);
	fprintf(f, "%s  metadata:\n%s    labels: {app: w%ld, tier: %s}\n%s  spec:\n", ind, ind, w->id, kinds[w->kind], ind);
	emit_spec(f, w, spec_ind);
}

/* --mix volumes: classes, the CSI driver, capacity per zone, CSINodes */
static void emit_storage_yaml(FILE *f, const opts *o)
{
	fprintf(f, "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: ebs}\n"
		   "provisioner: ebs.csi.aws.com\nvolumeBindingMode: WaitForFirstConsumer\n"
		   "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: nfs}\n"
		   "provisioner: nfs.example.com\nvolumeBindingMode: Immediate\n"
		   "---\napiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: ebs.csi.aws.com}\n"
		   "spec: {attachRequired: true, storageCapacity: true}\n");
	for (int z = 0; z < 3; z++)
		fprintf(f, "---\napiVersion: storage.k8s.io/v1\nkind: CSIStorageCapacity\n"
			   "metadata: {name: ebs-%s, namespace: kube-system}\nstorageClassName: ebs\n"
			   "nodeTopology: {matchLabels: {topology.kubernetes.io/zone: %s}}\ncapacity: 100Ti\n"
			   "maximumVolumeSize: 16Ti\n",
			zones[z], zones[z]);
	fprintf(f, "---\napiVersion: v1\nkind: List\nitems:\n");
	for (long i = 0; i < o->nodes; i++)
		fprintf(f, "- apiVersion: storage.k8s.io/v1\n  kind: CSINode\n  metadata: {name: node-%06ld}\n  spec:\n"
			   "    drivers: [{name: ebs.csi.aws.com, nodeID: i-%06ld, allocatable: {count: 25}, "
			   "topologyKeys: [topology.kubernetes.io/zone]}]\n",
			i, i);
}

/* a PV (zonal when zone is set, else NFS) bound to claim ns/name, and the claim */
static void emit_bound_claim(FILE *f, const char *ns, const char *name, const char *zone, const char *mode)
{
	fprintf(f, "---\napiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-%s-%s\n", ns, name);
	if (zone)
		fprintf(f, "  labels: {topology.kubernetes.io/zone: %s}\n", zone);
	fprintf(f, "spec:\n  capacity: {storage: 10Gi}\n  accessModes: [%s]\n  storageClassName: %s\n"
		   "  claimRef: {namespace: %s, name: %s}\n",
		mode, zone ? "ebs" : "nfs", ns, name);
	if (zone)
		fprintf(f, "  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-%s-%s}\n  nodeAffinity:\n    required:\n"
			   "      nodeSelectorTerms:\n      - matchExpressions:\n"
			   "        - {key: topology.kubernetes.io/zone, operator: In, values: [%s]}\n",
			ns, name, zone);
	else
		fprintf(f, "  nfs: {server: nfs.example.com, path: /exports/%s}\n", name);
	fprintf(f, "status: {phase: Bound}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n"
		   "  name: %s\n  namespace: %s\n  annotations: {pv.kubernetes.io/bind-completed: \"yes\"}\n"
		   "spec:\n  accessModes: [%s]\n  storageClassName: %s\n  volumeName: pv-%s-%s\n"
		   "  resources: {requests: {storage: 10Gi}}\nstatus: {phase: Bound}\n",
		name, ns, mode, zone ? "ebs" : "nfs", ns, name);
}

static void emit_workloads_yaml(FILE *f, const opts *o)
{
	if (o->volumes)
		emit_storage_yaml(f, o);
	if (o->full)
		fprintf(f, "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: batch-low}\nvalue: -100\n"
			   "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: urgent}\nvalue: 100000\n");
	long left = o->pods, id = 0;
	/* full mix: about 10% of the pods are low-priority fillers already running */
	long fillers = o->full ? o->pods / 10 : 0;
	for (long i = 0; i < fillers; i++) {
		long node = pick((int)o->nodes);
		const itype *t = node_type(node);
		if (strcmp(t->pool, "general") != 0)
			continue;
		int vol = o->volumes && i % 4 == 0;
		char claim[32];
		snprintf(claim, sizeof claim, "fill-%06ld", i);
		if (vol)
			emit_bound_claim(f, "batch", claim, zones[node % 3], "ReadWriteOnce");
		fprintf(f, "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: filler-%06ld\n  namespace: batch\n"
			   "  labels: {app: filler}\n  ownerReferences:\n  - {apiVersion: apps/v1, kind: ReplicaSet, name: filler-rs, "
			   "controller: true, uid: f1}\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\n"
			   "spec:\n  nodeName: node-%06ld\n  priorityClassName: batch-low\n  containers:\n  - name: c\n"
			   "    image: registry.example.com/batch:1\n    resources: {requests: {cpu: 1500m, memory: 3Gi}}\n",
			i, node);
		if (vol)
			fprintf(f, "  volumes: [{name: data, persistentVolumeClaim: {claimName: %s}}]\n", claim);
		fprintf(f, "status: {phase: Running, startTime: \"2026-01-01T00:00:05Z\"}\n");
		left--;
	}
	while (left > 0) {
		wl w;
		next_workload(&w, o, id++, left);
		int shared = o->volumes && !w.sts && w.kind == 0 && w.id % 10 == 1;
		char ns[16], claim[32];
		snprintf(ns, sizeof ns, "ns%ld", w.id % 20);
		snprintf(claim, sizeof claim, "shared-w%ld", w.id);
		if (shared)
			emit_bound_claim(f, ns, claim, NULL, "ReadWriteMany");
		fprintf(f, "---\napiVersion: apps/v1\nkind: %s\nmetadata:\n  name: w%ld\n  namespace: ns%ld\n"
			   "spec:\n  replicas: %ld\n  selector: {matchLabels: {app: w%ld}}\n  template:\n",
			w.sts ? "StatefulSet" : "Deployment", w.id, w.id % 20, w.replicas, w.id);
		emit_template(f, &w, "  ");
		if (shared)
			fprintf(f, "      volumes: [{name: shared, persistentVolumeClaim: {claimName: %s}}]\n", claim);
		if (o->volumes && w.sts)
			fprintf(f, "  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec:\n"
				   "      accessModes: [ReadWriteOnce]\n      storageClassName: ebs\n"
				   "      resources: {requests: {storage: 10Gi}}\n");
		left -= w.replicas;
	}
}

/* every pod of the generated workloads, in order: pod(f, w, replica, n) */
typedef void (*pod_fn)(FILE *f, const wl *w, long r, long n);
static void each_pod(FILE *f, const opts *o, pod_fn pod)
{
	long left = o->pods, id = 0, n = 0;
	while (left > 0) {
		wl w;
		next_workload(&w, o, id++, left);
		for (long r = 0; r < w.replicas; r++, n++)
			pod(f, &w, r, n);
		left -= w.replicas;
	}
}

/* kubectl get pods -A -o yaml: every pod spelled out (import benchmark) */
static void pod_yaml(FILE *f, const wl *w, long r, long n)
{
	fprintf(f, "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: w%ld-%05ld\n    namespace: ns%ld\n"
		   "    uid: %08lx-0000-4000-8000-%012lx\n    creationTimestamp: \"2026-01-01T00:%02ld:%02ldZ\"\n"
		   "    labels: {app: w%ld, tier: %s, pod-template-hash: 5d8f7}\n"
		   "    ownerReferences:\n    - {apiVersion: apps/v1, kind: ReplicaSet, name: w%ld-5d8f7, controller: true}\n"
		   "  spec:\n",
		w->id, r, w->id % 20, (unsigned long)n, (unsigned long)n, (n / 60) % 60, n % 60, w->id, kinds[w->kind], w->id);
	emit_spec(f, w, "    ");
	fprintf(f, "    restartPolicy: Always\n    schedulerName: default-scheduler\n    terminationGracePeriodSeconds: 30\n"
		   "  status:\n    phase: Pending\n    qosClass: Burstable\n");
}

static void emit_pods_yaml(FILE *f, const opts *o)
{
	fprintf(f, "apiVersion: v1\nitems:\n");
	each_pod(f, o, pod_yaml);
	fprintf(f, "kind: List\nmetadata:\n  resourceVersion: \"\"\n");
}

/* the pod spec as kubectl -o json writes it (4-space indent, fields at 16) */
static void emit_spec_json(FILE *f, const wl *w)
{
	const char *I = "                ";
	if (w->low || w->kind == 5)
		fprintf(f, "%s\"priorityClassName\": \"%s\",\n", I, w->low ? "batch-low" : "urgent");
	if (w->kind == 1)
		fprintf(f, "%s\"nodeSelector\": {\n%s    \"pool\": \"%s\"\n%s},\n%s\"affinity\": {\n%s    \"nodeAffinity\": {\n"
			   "%s        \"preferredDuringSchedulingIgnoredDuringExecution\": [\n%s            {\n"
			   "%s                \"weight\": 50,\n%s                \"preference\": {\n"
			   "%s                    \"matchExpressions\": [{\"key\": \"topology.kubernetes.io/zone\", "
			   "\"operator\": \"In\", \"values\": [\"%s\"]}]\n%s                }\n%s            }\n%s        ]\n%s    }\n%s},\n",
			I, I, w->id % 3 == 0 ? "compute" : w->id % 3 == 1 ? "memory" : "general", I, I, I, I, I, I, I, I,
			zones[w->id % 3], I, I, I, I, I);
	if (w->kind == 2)
		fprintf(f, "%s\"tolerations\": [\n%s    {\"key\": \"nvidia.com/gpu\", \"operator\": \"Exists\", "
			   "\"effect\": \"NoSchedule\"}\n%s],\n", I, I, I);
	if (w->kind == 3)
		fprintf(f, "%s\"affinity\": {\n%s    \"podAntiAffinity\": {\n%s        \"requiredDuringSchedulingIgnoredDuringExecution\": [\n"
			   "%s            {\"labelSelector\": {\"matchLabels\": {\"app\": \"w%ld\"}}, "
			   "\"topologyKey\": \"kubernetes.io/hostname\"}\n%s        ]\n%s    }\n%s},\n", I, I, I, I, w->id, I, I, I);
	if (w->kind == 4)
		fprintf(f, "%s\"topologySpreadConstraints\": [\n%s    {\"maxSkew\": 1, \"topologyKey\": \"topology.kubernetes.io/zone\", "
			   "\"whenUnsatisfiable\": \"DoNotSchedule\", \"labelSelector\": {\"matchLabels\": {\"app\": \"w%ld\"}}}\n%s],\n",
			I, I, w->id, I);
	fprintf(f, "%s\"containers\": [\n%s    {\n%s        \"name\": \"app\",\n"
		   "%s        \"image\": \"registry.example.com/app-%ld:1.%ld\",\n%s        \"resources\": {\n"
		   "%s            \"requests\": {\n%s                \"cpu\": \"%dm\",\n%s                \"memory\": \"%dMi\"%s\n",
		I, I, I, I, w->id % 50, w->id % 7, I, I, I, w->cpu_m, I, w->mem_mi, w->gpu ? "," : "");
	if (w->gpu)
		fprintf(f, "%s                \"nvidia.com/gpu\": \"1\"\n%s            },\n%s            \"limits\": {\n"
			   "%s                \"nvidia.com/gpu\": \"1\"\n", I, I, I, I);
	fprintf(f, "%s            }\n%s        }\n%s    }\n%s],\n", I, I, I, I);
}

/* kubectl get pods -A -o json: the same pods as emit_pods_yaml */
static void pod_json(FILE *f, const wl *w, long r, long n)
{
	fprintf(f, "%s        {\n            \"apiVersion\": \"v1\",\n            \"kind\": \"Pod\",\n"
		   "            \"metadata\": {\n                \"creationTimestamp\": \"2026-01-01T00:%02ld:%02ldZ\",\n"
		   "                \"labels\": {\n                    \"app\": \"w%ld\",\n"
		   "                    \"pod-template-hash\": \"5d8f7\",\n                    \"tier\": \"%s\"\n"
		   "                },\n                \"name\": \"w%ld-%05ld\",\n                \"namespace\": \"ns%ld\",\n"
		   "                \"ownerReferences\": [\n                    {\n"
		   "                        \"apiVersion\": \"apps/v1\",\n                        \"controller\": true,\n"
		   "                        \"kind\": \"ReplicaSet\",\n                        \"name\": \"w%ld-5d8f7\"\n"
		   "                    }\n                ],\n"
		   "                \"uid\": \"%08lx-0000-4000-8000-%012lx\"\n            },\n            \"spec\": {\n",
		n ? ",\n" : "", (n / 60) % 60, n % 60, w->id, kinds[w->kind], w->id, r, w->id % 20, w->id, (unsigned long)n,
		(unsigned long)n);
	emit_spec_json(f, w);
	fprintf(f, "                \"restartPolicy\": \"Always\",\n                \"schedulerName\": \"default-scheduler\",\n"
		   "                \"terminationGracePeriodSeconds\": 30\n            },\n            \"status\": {\n"
		   "                \"phase\": \"Pending\",\n                \"qosClass\": \"Burstable\"\n            }\n        }");
}

static void emit_pods_json(FILE *f, const opts *o)
{
	fprintf(f, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n");
	each_pod(f, o, pod_json);
	fprintf(f, "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n");
}

static void emit_csv(const opts *o)
{
	char path[1024];
	snprintf(path, sizeof path, "%s.nodes.csv", o->out ? o->out : "cluster");
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fprintf(f, "node,cpu,memory,pods,labels,taints,nvidia.com/gpu\n");
	for (long i = 0; i < o->nodes; i++) {
		const itype *t = node_type(i);
		fprintf(f, "node-%06ld,%dm,%dMi,110,kubernetes.io/hostname=node-%06ld;topology.kubernetes.io/zone=%s;"
			   "node.kubernetes.io/instance-type=%s;pool=%s,%s,%d\n",
			i, t->cpu * 1000 - 100, t->mem_gi * 1024 - 512, i, zones[i % 3], t->name, t->pool,
			!strcmp(t->pool, "gpu") ? "nvidia.com/gpu=present:NoSchedule"
			: !strcmp(t->pool, "infra") ? "dedicated=infra:NoSchedule" : "",
			t->gpus);
	}
	fclose(f);
	snprintf(path, sizeof path, "%s.pods.csv", o->out ? o->out : "cluster");
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fprintf(f, "namespace,pod,cpu,memory,labels,tolerations,node_selector,nvidia.com/gpu\n");
	long left = o->pods, id = 0;
	while (left > 0) {
		wl w;
		next_workload(&w, o, id++, left);
		for (long r = 0; r < w.replicas; r++)
			fprintf(f, "ns%ld,w%ld-%05ld,%dm,%dMi,app=w%ld,%s,%s,%s\n", w.id % 20, w.id, r, w.cpu_m, w.mem_mi, w.id,
				w.kind == 2 ? "nvidia.com/gpu:NoSchedule" : "",
				w.kind == 1 ? (w.id % 3 == 0 ? "pool=compute" : w.id % 3 == 1 ? "pool=memory" : "pool=general") : "",
				w.gpu ? "1" : "");
		left -= w.replicas;
	}
	fclose(f);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: gen [--nodes N] [--pods M] [--seed S] [--mix plain|full|volumes] [--emit workloads|pods] "
		   "[--format yaml|json|csv] [-o FILE]\n"
		   "Writes a generated cluster as kubectl-style YAML (stdout or FILE) or as kplan CSV\n"
		   "(FILE.nodes.csv, FILE.pods.csv); --emit pods --format json: as kubectl -o json\n"
		   "(FILE.nodes.csv, FILE.pods.csv).  Defaults: 500 nodes, 15000 pods, seed 1, plain.\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "nodes", required_argument, NULL, 'n' }, { "pods", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 's' },  { "mix", required_argument, NULL, 'm' },
		{ "emit", required_argument, NULL, 'e' },  { "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },        { NULL, 0, NULL, 0 },
	};
	opts o = { .nodes = 500, .pods = 15000, .seed = 1 };
	int c;
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'n': o.nodes = atol(optarg); break;
		case 'p': o.pods = atol(optarg); break;
		case 's': o.seed = strtoull(optarg, NULL, 10); break;
		case 'm':
			if (strcmp(optarg, "plain") && strcmp(optarg, "full") && strcmp(optarg, "volumes")) {
				usage(stderr);
				return 64;
			}
			o.full = strcmp(optarg, "plain") != 0;
			o.volumes = !strcmp(optarg, "volumes");
			break;
		case 'e': o.emit_pods = !strcmp(optarg, "pods"); break;
		case 'f':
			o.csv = !strcmp(optarg, "csv");
			o.json = !strcmp(optarg, "json");
			break;
		case 'o': o.out = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 64;
		}
	}
	if (o.nodes < 1 || o.pods < 0 || optind != argc) {
		usage(stderr);
		return 64;
	}
	rng_state = o.seed * 0x2545F4914F6CDD1DULL + 1;
	if (o.csv) {
		emit_csv(&o);
		return 0;
	}
	FILE *f = o.out ? fopen(o.out, "w") : stdout;
	if (!f) {
		perror(o.out);
		return 1;
	}
	static char buf[1 << 20];
	setvbuf(f, buf, _IOFBF, sizeof buf);
	if (o.emit_pods) {
		(o.json ? emit_pods_json : emit_pods_yaml)(f, &o);
	} else {
		emit_nodes_yaml(f, &o);
		emit_workloads_yaml(f, &o);
	}
	if (fclose(f) != 0) {
		perror("write");
		return 1;
	}
	return 0;
}
