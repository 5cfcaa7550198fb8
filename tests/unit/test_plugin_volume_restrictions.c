/*
 * test_plugin_volume_restrictions.c — VolumeRestrictions' PreFilter and
 * Filter (planner/plugins/volume_restrictions.c) on the cases of kube's own
 * unit tests: kubernetes/kubernetes pkg/scheduler/framework/plugins/
 * volumerestrictions/volume_restrictions_test.go, TestGCEDiskConflicts,
 * TestAWSDiskConflicts, TestRBDDiskConflicts, TestISCSIDiskConflicts and
 * TestAccessModeConflicts (semantics §15.1, cases 1–15 of §15.6; the copy
 * whose PreFilter skips and whose ReadWriteOncePod conflict is an
 * Unschedulable Filter status).  The pod p (namespace default) is pending;
 * kube's NodeInfo pods run on node-1.  kube's volume without a source ("pod
 * with a volume that doesn't have restrictions") is an emptyDir here.
 */
#include "tap.h"
#include "tap_snap.h"

#define DISK "Unschedulable: node(s) had no available disk"
#define RWOP "Unschedulable: node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode"

/* the volumes of kube's volState and volState2, one per test function */
#define GCE_FOO "{name: v, gcePersistentDisk: {pdName: foo}}"
#define GCE_BAR "{name: v, gcePersistentDisk: {pdName: bar}}"
#define AWS_FOO "{name: v, awsElasticBlockStore: {volumeID: foo}}"
#define AWS_BAR "{name: v, awsElasticBlockStore: {volumeID: bar}}"
#define RBD_AB "{name: v, rbd: {monitors: [a, b], pool: foo, image: bar, fsType: ext4}}"
#define RBD_CD "{name: v, rbd: {monitors: [c, d], pool: foo, image: bar, fsType: ext4}}"
#define ISCSI_16 "{name: v, iscsi: {targetPortal: '127.0.0.1:3260', iqn: 'iqn.2016-12.server:storage.target01', " \
	"fsType: ext4, lun: 0}}"
#define ISCSI_17 "{name: v, iscsi: {targetPortal: '127.0.0.1:3260', iqn: 'iqn.2017-12.server:storage.target01', " \
	"fsType: ext4, lun: 0}}"
#define PVC(name) "{name: " name ", persistentVolumeClaim: {claimName: " name "}}"

/* TestAccessModeConflicts' claims (accessModes only, unbound) */
#define CLAIM(name, mode) "kind: PersistentVolumeClaim\nmetadata: {name: " name ", namespace: default}\n" \
	"spec: {accessModes: [" mode "]}\n---\n"
#define ON_NODE(name, vols) "kind: Pod\nmetadata: {name: " name ", namespace: default}\n" \
	"spec: {nodeName: node-1, containers: [{name: c, image: nginx}], volumes: [" vols "]}\n" \
	"status: {phase: Running}\n---\n"
#define RWOP1 CLAIM("claim-with-rwop-1", "ReadWriteOncePod")
#define RWOP2 CLAIM("claim-with-rwop-2", "ReadWriteOncePod")
#define RWX CLAIM("claim-with-rwx", "ReadWriteMany")
#define POD_RWX ON_NODE("pod-with-rwx", PVC("claim-with-rwx"))

typedef struct vr_case {
	const char *name;
	const char *pod;          /* p's volumes ("" none) */
	const char *node;         /* the volumes of a pod on node-1, NULL: no pod there */
	const char *objects;      /* more of the cluster: claims, pods */
	const char *want_pre;     /* "", "skip" or "PreFilter: MSG" */
	const char *want;         /* Filter's verdict on node-1 */
} vr_case;

static const vr_case cases[] = {
	/* TestGCEDiskConflicts "nothing" */
	{"TestGCEDiskConflicts nothing", "", NULL, "", "skip", ""},
	/* TestGCEDiskConflicts "one state" */
	{"TestGCEDiskConflicts one state", "", GCE_FOO, "", "skip", ""},
	/* TestGCEDiskConflicts "same state" */
	{"TestGCEDiskConflicts same state", GCE_FOO, GCE_FOO, "", "", DISK},
	/* TestGCEDiskConflicts "different state" */
	{"TestGCEDiskConflicts different state", GCE_BAR, GCE_FOO, "", "", ""},
	/* TestGCEDiskConflicts "pod with a volume that doesn't have restrictions" */
	{"TestGCEDiskConflicts pod with a volume that doesn't have restrictions", "{name: v, emptyDir: {}}", NULL, "",
	 "skip", ""},
	/* TestAWSDiskConflicts "same state" */
	{"TestAWSDiskConflicts same state", AWS_FOO, AWS_FOO, "", "", DISK},
	/* TestAWSDiskConflicts "different state" */
	{"TestAWSDiskConflicts different state", AWS_BAR, AWS_FOO, "", "", ""},
	/* TestRBDDiskConflicts "same state" */
	{"TestRBDDiskConflicts same state", RBD_AB, RBD_AB, "", "", DISK},
	/* TestRBDDiskConflicts "different state" */
	{"TestRBDDiskConflicts different state", RBD_CD, RBD_AB, "", "", ""},
	/* TestISCSIDiskConflicts "same state" */
	{"TestISCSIDiskConflicts same state", ISCSI_16, ISCSI_16, "", "", DISK},
	/* TestISCSIDiskConflicts "different state" */
	{"TestISCSIDiskConflicts different state", ISCSI_17, ISCSI_16, "", "", ""},
	/* TestAccessModeConflicts "failed to get PVC" */
	{"TestAccessModeConflicts failed to get PVC", PVC("claim-with-rwop-1"), NULL, "",
	 "PreFilter: persistentvolumeclaim \"claim-with-rwop-1\" not found",
	 "PreFilter: persistentvolumeclaim \"claim-with-rwop-1\" not found"},
	/* TestAccessModeConflicts "no access mode conflict" */
	{"TestAccessModeConflicts no access mode conflict", PVC("claim-with-rwop-1"), NULL, RWOP1 RWX POD_RWX, "skip",
	 ""},
	/* TestAccessModeConflicts "access mode conflict, unschedulable" */
	{"TestAccessModeConflicts access mode conflict, unschedulable", PVC("claim-with-rwop-1"), NULL,
	 RWOP1 RWX ON_NODE("pod-with-one-pvc", PVC("claim-with-rwop-1")) POD_RWX, "", RWOP},
	/* TestAccessModeConflicts "two conflicts, unschedulable" */
	{"TestAccessModeConflicts two conflicts, unschedulable", PVC("claim-with-rwop-1") ", " PVC("claim-with-rwop-2"),
	 NULL, RWOP1 RWOP2 RWX ON_NODE("pod-with-two-pvcs", PVC("claim-with-rwop-1") ", " PVC("claim-with-rwop-2"))
	 POD_RWX, "", RWOP},
};

static const char *cluster(char *buf, size_t len, const vr_case *c)
{
	size_t w = (size_t)snprintf(buf, len, "kind: Node\nmetadata: {name: node-1}\n---\n%s", c->objects);
	if (c->node && w < len)
		w += (size_t)snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: holder, namespace: default}\n"
				      "spec: {nodeName: node-1, containers: [{name: c, image: nginx}], volumes: [%s]}\n"
				      "status: {phase: Running}\n---\n", c->node);
	if (w < len)
		snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: p, namespace: default}\n"
			 "spec: {containers: [{name: c, image: nginx}], volumes: [%s]}\n", c->pod);
	return buf;
}

int main(void)
{
	char yaml[8192], got[1024];
	tap_snap t;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const vr_case *c = &cases[i];
		if (tap_snap_open(&t, cluster(yaml, sizeof yaml, c), NULL, "p") != KP_OK) {
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		} else {
			TAP_EQ_STR(tap_snap_prefilter(&t, &kp_plugin_volume_restrictions, got, sizeof got), c->want_pre,
				   "PreFilter: %s", c->name);
			TAP_EQ_STR(tap_snap_filter(&t, &kp_plugin_volume_restrictions, "node-1", got, sizeof got), c->want,
				   "Filter: %s", c->name);
		}
		tap_snap_close(&t);
	}
	return tap_done();
}
