/*
 * test_plugin_volume_zone.c — VolumeZone's PreFilter and Filter
 * (planner/plugins/volume_zone.c, storage.c kp_storage_zone_ok) on cases of
 * kube's own unit tests: kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/volumezone/volume_zone_test.go,
 * TestSingleZone, TestMultiZone and TestWithBinding (semantics §15.4, cases
 * 59–70 of §15.6).  Each test function's PV and claim listers are one YAML
 * fixture, as kube's are; a case adds the node host1 with its labels and the
 * pod pod_1 (namespace default) using one claim.  kube calls PreFilter,
 * then Filter whatever PreFilter said: here a PreFilter Skip passes the node
 * and a PreFilter rejection is the verdict (tap_snap.h).  Left out:
 * TestWithBinding "unbound volume immediate binding mode", a StorageClass
 * without volumeBindingMode (kube: "VolumeBindingMode not set for
 * StorageClass ..."): kplan's importer defaults the mode to Immediate, as the
 * API server does, so the plugin says "PersistentVolume had no name".
 */
#include "tap.h"
#include "tap_snap.h"

#define REASON "UnschedulableAndUnresolvable: node(s) had no available volume zone"
#define BETA_ZONE "failure-domain.beta.kubernetes.io/zone"
#define BETA_REGION "failure-domain.beta.kubernetes.io/region"
#define GA_ZONE "topology.kubernetes.io/zone"
#define GA_REGION "topology.kubernetes.io/region"

#define PV(name, labels) "kind: PersistentVolume\nmetadata: {name: " name ", labels: {" labels "}}\n" \
	"spec: {capacity: {storage: 1Gi}}\n---\n"
#define PVC(name, spec) "kind: PersistentVolumeClaim\nmetadata: {name: " name ", namespace: default}\n" \
	"spec: {" spec "}\n---\n"

/* TestSingleZone's pvLister and pvcLister */
static const char single[] =
	PV("Vol_1", BETA_ZONE ": us-west1-a")
	PV("Vol_2", BETA_REGION ": us-west1, uselessLabel: none")
	PV("Vol_Stable_1", GA_ZONE ": us-west1-a")
	PV("Vol_Stable_3", GA_ZONE ": us-west1-a, " GA_REGION ": us-west1-a")
	PVC("PVC_1", "volumeName: Vol_1")
	PVC("PVC_2", "volumeName: Vol_2")
	PVC("PVC_Stable_1", "volumeName: Vol_Stable_1")
	PVC("PVC_Stable_3", "volumeName: Vol_Stable_3");

/* TestMultiZone's */
static const char multi[] =
	PV("Vol_1", BETA_ZONE ": us-west1-a")
	PV("Vol_3", BETA_ZONE ": us-west1-c__us-west1-a")
	PV("Vol_Stable_1", GA_ZONE ": us-west1-a")
	PVC("PVC_1", "volumeName: Vol_1")
	PVC("PVC_3", "volumeName: Vol_3")
	PVC("PVC_Stable_1", "volumeName: Vol_Stable_1");

/* TestWithBinding's scLister, pvLister and pvcLister (PVC_EmptySC: no
 * storageClassName, and no default class) */
static const char binding[] =
	"kind: StorageClass\nmetadata: {name: Class_Wait}\nprovisioner: kubernetes.io/no-provisioner\n"
	"volumeBindingMode: WaitForFirstConsumer\n---\n"
	PV("Vol_1", BETA_ZONE ": us-west1-a")
	PVC("PVC_1", "volumeName: Vol_1")
	PVC("PVC_NoSC", "storageClassName: Class_0")
	PVC("PVC_EmptySC", "accessModes: [ReadWriteOnce]")
	PVC("PVC_WaitSC", "storageClassName: Class_Wait");

typedef struct zone_case {
	const char *name;
	const char *fixture;
	const char *claim;        /* pod_1's claim, NULL: no volume */
	const char *labels;       /* host1's labels */
	const char *want_pre;     /* PreFilter: "", "skip" or "PreFilter: MSG" */
	const char *want;         /* Filter's verdict on host1 */
} zone_case;

static const zone_case cases[] = {
	/* TestSingleZone "pod without volume" */
	{"TestSingleZone pod without volume", single, NULL, BETA_ZONE ": us-west1-a", "skip", ""},
	/* TestSingleZone "node without labels" */
	{"TestSingleZone node without labels", single, "PVC_1", "", "", ""},
	/* TestSingleZone "beta zone label matched" */
	{"TestSingleZone beta zone label matched", single, "PVC_1", BETA_ZONE ": us-west1-a, uselessLabel: none", "",
	 ""},
	/* TestSingleZone "beta region label doesn't match" */
	{"TestSingleZone beta region label doesn't match", single, "PVC_2",
	 BETA_REGION ": no_us-west1, uselessLabel: none", "", REASON},
	/* TestSingleZone "beta zone label doesn't match" */
	{"TestSingleZone beta zone label doesn't match", single, "PVC_1",
	 BETA_ZONE ": no_us-west1-a, uselessLabel: none", "", REASON},
	/* TestSingleZone "pv with zone and region, node with only zone" */
	{"TestSingleZone pv with zone and region, node with only zone", single, "PVC_Stable_3", GA_ZONE ": us-west1-a",
	 "", REASON},
	/* TestSingleZone "pv with zone,node with beta zone" */
	{"TestSingleZone pv with zone,node with beta zone", single, "PVC_Stable_1", BETA_ZONE ": us-west1-a", "",
	 REASON},
	/* TestSingleZone "pv with beta label,node with ga label, matched" */
	{"TestSingleZone pv with beta label,node with ga label, matched", single, "PVC_1", GA_ZONE ": us-west1-a", "",
	 ""},
	/* TestMultiZone "beta zone label matched" */
	{"TestMultiZone beta zone label matched", multi, "PVC_3", BETA_ZONE ": us-west1-a, uselessLabel: none", "", ""},
	/* TestMultiZone "zone label doesn't match" */
	{"TestMultiZone zone label doesn't match", multi, "PVC_Stable_1", GA_ZONE ": us-west1-b, uselessLabel: none", "",
	 REASON},
	/* TestWithBinding "unbound volume empty storage class" */
	{"TestWithBinding unbound volume empty storage class", binding, "PVC_EmptySC",
	 BETA_ZONE ": us-west1-a, uselessLabel: none",
	 "PreFilter: PersistentVolumeClaim had no pv name and storageClass name",
	 "PreFilter: PersistentVolumeClaim had no pv name and storageClass name"},
	/* TestWithBinding "unbound volume no storage class" */
	{"TestWithBinding unbound volume no storage class", binding, "PVC_NoSC",
	 BETA_ZONE ": us-west1-a, uselessLabel: none", "PreFilter: storageclasses.storage.k8s.io \"Class_0\" not found",
	 "PreFilter: storageclasses.storage.k8s.io \"Class_0\" not found"},
	/* TestWithBinding "unbound volume wait binding mode" */
	{"TestWithBinding unbound volume wait binding mode", binding, "PVC_WaitSC",
	 BETA_ZONE ": us-west1-a, uselessLabel: none", "skip", ""},
};

static const char *cluster(char *buf, size_t len, const zone_case *c)
{
	size_t w = (size_t)snprintf(buf, len, "%skind: Node\nmetadata: {name: host1, labels: {%s}}\n---\n", c->fixture,
				    c->labels);
	if (w >= len)
		return buf;
	if (c->claim)
		snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: pod_1, namespace: default}\n"
			 "spec: {containers: [{name: c, image: nginx}], volumes: [{name: v, persistentVolumeClaim: "
			 "{claimName: %s}}]}\n", c->claim);
	else
		snprintf(buf + w, len - w, "kind: Pod\nmetadata: {name: pod_1, namespace: default}\n"
			 "spec: {containers: [{name: c, image: nginx}]}\n");
	return buf;
}

int main(void)
{
	char yaml[8192], got[1024];
	tap_snap t;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const zone_case *c = &cases[i];
		if (tap_snap_open(&t, cluster(yaml, sizeof yaml, c), NULL, "pod_1") != KP_OK) {
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		} else {
			TAP_EQ_STR(tap_snap_prefilter(&t, &kp_plugin_volume_zone, got, sizeof got), c->want_pre,
				   "PreFilter: %s", c->name);
			TAP_EQ_STR(tap_snap_filter(&t, &kp_plugin_volume_zone, "host1", got, sizeof got), c->want,
				   "Filter: %s", c->name);
		}
		tap_snap_close(&t);
	}
	return tap_done();
}
