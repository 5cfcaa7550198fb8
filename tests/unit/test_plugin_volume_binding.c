/*
 * test_plugin_volume_binding.c — VolumeBinding's PreFilter (with its
 * PreFilterResult) and Filter (planner/plugins/volume_binding.c, storage.c
 * kp_storage_find_volumes) on cases of kube's own unit tests:
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/volumebinding/
 * volume_binding_test.go TestVolumeBinding, and binder_test.go
 * TestFindPodVolumesWithoutProvisioning, TestFindPodVolumesWithProvisioning
 * and TestFindPodVolumesWithCSIMigration, whose FindPodVolumes reasons are
 * the Filter's status here (semantics §15.3, cases 38–58 of §15.6).
 *
 * The objects are kube's test objects: TestVolumeBinding's pod-a, classes
 * wait-sc (WaitForFirstConsumer) and immediate-sc, nodes
 * labelled kubernetes.io/hostname; the binder tests' test-pod in testns on
 * node1 (label nodeKey: node1).  A claim is bound as kube's withBoundPV
 * makes it: volumeName and pv.kubernetes.io/bind-completed.  kube's classes
 * have no provisioner, which the importer (as the API) requires:
 * kubernetes.io/no-provisioner, which provisioning treats alike (a
 * BindConflict).  Scores are not
 * checked: kplan runs no VolumeBinding Score (§14).
 */
#include "tap.h"
#include "tap_snap.h"

#define UU "UnschedulableAndUnresolvable: "
#define BIND_CONFLICT "node(s) didn't find available persistent volumes to bind"
#define NODE_CONFLICT "node(s) didn't match PersistentVolume's node affinity"
#define NO_SPACE "node(s) did not have enough free storage"
#define PV_NOT_EXIST "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
#define UNBOUND_IMMEDIATE "PreFilter: pod has unbound immediate PersistentVolumeClaims"

#define NODE(name, labels) "kind: Node\nmetadata: {name: " name ", labels: {kubernetes.io/hostname: " name labels \
	"}}\n---\n"
#define NO_PROVISIONER "provisioner: kubernetes.io/no-provisioner\n"
#define SC(name, mode) "kind: StorageClass\nmetadata: {name: " name "}\n" NO_PROVISIONER "volumeBindingMode: " mode \
	"\n---\n"
#define WAIT_SC SC("wait-sc", "WaitForFirstConsumer")
#define IMMEDIATE_SC SC("immediate-sc", "Immediate")
#define PV(name, cls, size, phase, more) "kind: PersistentVolume\nmetadata: {name: " name "}\nspec: {storageClassName: " \
	cls ", capacity: {storage: " size "}, accessModes: [ReadWriteOnce]" more "}\nstatus: {phase: " phase "}\n---\n"
#define AFFINITY(key, values) ", nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: " key ", " \
	"operator: In, values: [" values "]}]}]}}"
#define CLAIM_REF(ns, name) ", claimRef: {namespace: " ns ", name: " name "}"
#define PVC(ns, name, cls, size, more) "kind: PersistentVolumeClaim\nmetadata: {name: " name ", namespace: " ns "}\n" \
	"spec: {storageClassName: " cls ", accessModes: [ReadWriteOnce], resources: {requests: {storage: " size "}}" \
	more "}\n---\n"
/* withBoundPV */
#define BOUND_PVC(ns, name, cls, pv, phase) "kind: PersistentVolumeClaim\nmetadata: {name: " name ", namespace: " ns \
	", annotations: {pv.kubernetes.io/bind-completed: 'yes'}}\nspec: {storageClassName: " cls ", accessModes: " \
	"[ReadWriteOnce], volumeName: " pv "}\nstatus: {phase: " phase "}\n---\n"
#define POD(ns, name, claims) "kind: Pod\nmetadata: {name: " name ", namespace: " ns "}\n" \
	"spec: {containers: [{name: c, image: nginx}], volumes: [" claims "]}\n---\n"
#define VOL(claim) "{name: v-" claim ", persistentVolumeClaim: {claimName: " claim "}}"

/* binder_test.go: node1, and the GCE PD PV of the CSI migration tests */
#define NODE1 NODE("node1", ", nodeKey: node1")
#define MIGRATION(zone, migrated) NODE("node1", ", topology.gke.io/zone: " zone) \
	"kind: CSINode\nmetadata: {name: node1, annotations: {storage.alpha.kubernetes.io/migrated-plugins: '" \
	migrated "'}}\nspec: {drivers: [{name: pd.csi.storage.gke.io, nodeID: node1}]}\n---\n" \
	SC("waitClass", "WaitForFirstConsumer") \
	"kind: PersistentVolume\nmetadata: {name: pv-migration-bound, labels: {failure-domain.beta.kubernetes.io/zone: " \
	"us-east-1, failure-domain.beta.kubernetes.io/region: us-east-1a}}\nspec: {storageClassName: waitClass, " \
	"capacity: {storage: 1G}, accessModes: [ReadWriteOnce], gcePersistentDisk: {pdName: test-disk, fsType: ext4}" \
	CLAIM_REF("testns", "pvc-migration-bound") "}\nstatus: {phase: Bound}\n---\n" \
	BOUND_PVC("testns", "pvc-migration-bound", "waitClass", "pv-migration-bound", "Bound") \
	POD("testns", "test-pod", VOL("pvc-migration-bound"))

typedef struct vb_case {
	const char *name;
	const char *yaml;
	const char *pod;          /* "pod-a" (namespace default) or "testns/test-pod" */
	const char *node;         /* the node filtered, NULL: every node (tap_snap_filter_all) */
	const char *want_pre;     /* "", "skip", the PreFilterResult's nodes or "PreFilter: MSG" */
	const char *want;         /* Filter's verdict */
} vb_case;

static const vb_case cases[] = {
	/* TestVolumeBinding "pod has not pvcs" */
	{"TestVolumeBinding pod has not pvcs",
	 NODE("node-a", "") "kind: Pod\nmetadata: {name: pod-a, namespace: default}\n"
	 "spec: {containers: [{name: c, image: nginx}]}\n", "pod-a", "node-a", "skip", ""},
	/* TestVolumeBinding "all bound" */
	{"TestVolumeBinding all bound",
	 NODE("node-a", "") WAIT_SC BOUND_PVC("default", "pvc-a", "wait-sc", "pv-a", "Bound")
	 PV("pv-a", "wait-sc", "1Gi", "Available", "") POD("default", "pod-a", VOL("pvc-a")), "pod-a", "node-a", "", ""},
	/* TestVolumeBinding "all bound with local volumes": PreFilterResult {node-a} (node-b added, which the result
	 * leaves out) */
	{"TestVolumeBinding all bound with local volumes",
	 NODE("node-a", "") NODE("node-b", "") WAIT_SC
	 BOUND_PVC("default", "pvc-a", "wait-sc", "pv-a", "Bound") BOUND_PVC("default", "pvc-b", "wait-sc", "pv-b", "Bound")
	 PV("pv-a", "wait-sc", "1Gi", "Bound", AFFINITY("kubernetes.io/hostname", "node-a"))
	 PV("pv-b", "wait-sc", "1Gi", "Bound", AFFINITY("kubernetes.io/hostname", "node-a"))
	 POD("default", "pod-a", VOL("pvc-a") ", " VOL("pvc-b")), "pod-a", "node-a", "node-a", ""},
	/* TestVolumeBinding "PVC does not exist" */
	{"TestVolumeBinding PVC does not exist",
	 NODE("node-a", "") WAIT_SC POD("default", "pod-a", VOL("pvc-a")), "pod-a", "node-a",
	 "PreFilter: persistentvolumeclaim \"pvc-a\" not found", "PreFilter: persistentvolumeclaim \"pvc-a\" not found"},
	/* TestVolumeBinding "immediate claims not bound" */
	{"TestVolumeBinding immediate claims not bound",
	 NODE("node-a", "") IMMEDIATE_SC PVC("default", "pvc-a", "immediate-sc", "1Gi", "")
	 POD("default", "pod-a", VOL("pvc-a")), "pod-a", "node-a", UNBOUND_IMMEDIATE, UNBOUND_IMMEDIATE},
	/* TestVolumeBinding "unbound claims no matches" */
	{"TestVolumeBinding unbound claims no matches",
	 NODE("node-a", "") WAIT_SC PVC("default", "pvc-a", "wait-sc", "1Gi", "") POD("default", "pod-a", VOL("pvc-a")),
	 "pod-a", "node-a", "", UU BIND_CONFLICT},
	/* TestVolumeBinding "bound and unbound unsatisfied" */
	{"TestVolumeBinding bound and unbound unsatisfied",
	 NODE("node-a", ", foo: barbar") WAIT_SC BOUND_PVC("default", "pvc-a", "wait-sc", "pv-a", "Bound")
	 PVC("default", "pvc-b", "wait-sc", "1Gi", "") PV("pv-a", "wait-sc", "1Gi", "Available", AFFINITY("foo", "bar"))
	 POD("default", "pod-a", VOL("pvc-a") ", " VOL("pvc-b")), "pod-a", "node-a", "",
	 UU NODE_CONFLICT ", " BIND_CONFLICT},
	/* TestVolumeBinding "pv not found" */
	{"TestVolumeBinding pv not found",
	 NODE("node-a", "") WAIT_SC BOUND_PVC("default", "pvc-a", "wait-sc", "pv-a", "Bound")
	 POD("default", "pod-a", VOL("pvc-a")), "pod-a", "node-a", "", UU PV_NOT_EXIST},
	/* TestVolumeBinding "pv not found claim lost" */
	{"TestVolumeBinding pv not found claim lost",
	 NODE("node-a", "") WAIT_SC BOUND_PVC("default", "pvc-a", "wait-sc", "pv-a", "Lost")
	 POD("default", "pod-a", VOL("pvc-a")), "pod-a", "node-a",
	 "PreFilter: persistentvolumeclaim \"pvc-a\" bound to non-existent persistentvolume \"pv-a\"",
	 "PreFilter: persistentvolumeclaim \"pvc-a\" bound to non-existent persistentvolume \"pv-a\""},
	/* TestVolumeBinding "local volumes with close capacity are preferred": the Filter statuses (nil, nil,
	 * BindConflict) */
	{"TestVolumeBinding local volumes with close capacity are preferred",
	 NODE("node-a", "") NODE("node-b", "") NODE("node-c", "") WAIT_SC PVC("default", "pvc-a", "wait-sc", "50Gi", "")
	 PV("pv-a-0", "wait-sc", "200Gi", "Available", AFFINITY("kubernetes.io/hostname", "node-a"))
	 PV("pv-a-1", "wait-sc", "200Gi", "Available", AFFINITY("kubernetes.io/hostname", "node-a"))
	 PV("pv-b-0", "wait-sc", "100Gi", "Available", AFFINITY("kubernetes.io/hostname", "node-b"))
	 PV("pv-b-1", "wait-sc", "100Gi", "Available", AFFINITY("kubernetes.io/hostname", "node-b"))
	 POD("default", "pod-a", VOL("pvc-a")), "pod-a", NULL, "",
	 "node-a: ok | node-b: ok | node-c: " UU BIND_CONFLICT},
	/* TestFindPodVolumesWithoutProvisioning "prebound-pvc": an error from FindPodVolumes; the plugin's PreFilter
	 * reads the pre-bound claim as unbound immediate */
	{"TestFindPodVolumesWithoutProvisioning prebound-pvc",
	 NODE1 SC("waitClass", "WaitForFirstConsumer")
	 PV("pv-node1a", "waitClass", "5G", "Bound", AFFINITY("nodeKey", "node1") CLAIM_REF("testns", "prebound-pvc"))
	 PVC("testns", "prebound-pvc", "waitClass", "1G", ", volumeName: pv-node1a")
	 POD("testns", "test-pod", VOL("prebound-pvc")), "testns/test-pod", "node1", UNBOUND_IMMEDIATE, UNBOUND_IMMEDIATE},
	/* TestFindPodVolumesWithProvisioning "one-provisioned", run with "CSIDriver with capacity tracking" and no
	 * CSIStorageCapacity: ErrReasonNotEnoughSpace */
	{"TestFindPodVolumesWithProvisioning one-provisioned (CSIDriver with capacity tracking)",
	 NODE1 "kind: StorageClass\nmetadata: {name: waitClassWithProvisioner}\nprovisioner: test-provisioner\n"
	 "volumeBindingMode: WaitForFirstConsumer\nallowedTopologies: [{matchLabelExpressions: [{key: nodeKey, values: "
	 "[node1, reference-value]}]}]\n---\n"
	 "kind: CSIDriver\nmetadata: {name: test-provisioner}\nspec: {attachRequired: true, storageCapacity: true}\n---\n"
	 PVC("testns", "provisioned-pvc", "waitClassWithProvisioner", "1Gi", "")
	 POD("testns", "test-pod", VOL("provisioned-pvc")), "testns/test-pod", "node1", "", UU NO_SPACE},
	/* TestFindPodVolumesWithProvisioning "volume-topology-unsatisfied" */
	{"TestFindPodVolumesWithProvisioning volume-topology-unsatisfied",
	 NODE1 "kind: StorageClass\nmetadata: {name: topoMismatchClass}\nprovisioner: test-provisioner\n"
	 "volumeBindingMode: WaitForFirstConsumer\nallowedTopologies: [{matchLabelExpressions: [{key: nodeKey, values: "
	 "[reference-value]}]}]\n---\n"
	 PVC("testns", "pvc-topo-mismatch", "topoMismatchClass", "1Gi", "")
	 POD("testns", "test-pod", VOL("pvc-topo-mismatch")), "testns/test-pod", "node1", "", UU BIND_CONFLICT},
	/* TestFindPodVolumesWithCSIMigration "pvc-bound,node-different-zone": the in-tree PV translated on a node
	 * whose CSINode lists kubernetes.io/gce-pd, its zone us-east-1 against the node's topology.gke.io/zone */
	{"TestFindPodVolumesWithCSIMigration pvc-bound,node-different-zone", MIGRATION("us-east-2", "kubernetes.io/gce-pd"),
	 "testns/test-pod", "node1", "", UU NODE_CONFLICT},
	/* kplan: the same node when its CSINode does not list the plugin as migrated (kube's
	 * "pvc-bound,csinode-not-migrated" CSINode): the PV is not translated and has no node affinity */
	{"kplan: pvc-bound,node-different-zone with csiNode1NotMigrated", MIGRATION("us-east-2", ""), "testns/test-pod",
	 "node1", "", ""},
};

int main(void)
{
	char got[1024];
	tap_snap t;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const vb_case *c = &cases[i];
		if (tap_snap_open(&t, c->yaml, NULL, c->pod) != KP_OK) {
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		} else {
			TAP_EQ_STR(tap_snap_prefilter(&t, &kp_plugin_volume_binding, got, sizeof got), c->want_pre,
				   "PreFilter: %s", c->name);
			if (c->node)
				tap_snap_filter(&t, &kp_plugin_volume_binding, c->node, got, sizeof got);
			else
				tap_snap_filter_all(&t, &kp_plugin_volume_binding, got, sizeof got);
			TAP_EQ_STR(got, c->want, "Filter: %s", c->name);
		}
		tap_snap_close(&t);
	}
	return tap_done();
}
