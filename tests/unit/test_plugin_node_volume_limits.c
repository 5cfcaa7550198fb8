/*
 * test_plugin_node_volume_limits.c — NodeVolumeLimits' PreFilter and Filter
 * (planner/plugins/node_volume_limits.c, storage.c kp_storage_volkey) on
 * cases of kube's own unit test: kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/nodevolumelimits/csi_test.go, TestCSILimits
 * (semantics §15.2, cases 16–37 of §15.6).
 *
 * The cluster is built as kube's test builds it: for each of the case's
 * driverNames, PVs csi-DRIVER-0..3 (a CSI volume of that driver; an in-tree
 * AWS EBS or hostPath one for kubernetes.io/aws-ebs and
 * kubernetes.io/hostpath; "/" in a name becomes "-") with claims of the same
 * names bound to them; the claims csi-4 (class csi-sc, unbound), csi-5 (no
 * class) and csi-6 (class csi-sc, volumeName of a missing PV); the class
 * csi-sc whose provisioner is the first driver; node-1's CSINode per
 * limitSource ("csinode": each driver with allocatable count maxVols,
 * "csinode-with-no-limit": without, "": no CSINode), annotated with
 * kubernetes.io/aws-ebs migrated as kube's enableMigrationOnNode does.  The
 * existing pods run on node-1, the pod abc is pending; all in namespace test.
 * kplan's importer makes the claim of a generic ephemeral volume
 * (<pod>-<volume>, owned by the pod) as the ephemeral volume controller
 * would; "ephemeral volume missing" deletes it after the import.  Left out:
 * "ephemeral volume not owned", an Error status in kube's Filter: kplan's
 * Filter does not count a claim the pod does not own and passes the node
 * (VolumeBinding's PreFilter rejects the pod first in a plan,
 * tests/e2e/v-limits-ephemeral-not-owned.yaml); the VolumeAttachment cases
 * (not modelled, semantics §14).
 */
#include "tap.h"
#include "tap_snap.h"

#define REASON "Unschedulable: node(s) exceed max volume count"
#define EBS "ebs.csi.aws.com"
#define GCE "pd.csi.storage.gke.io"
#define INTREE_EBS "kubernetes.io/aws-ebs"
#define HOSTPATH "kubernetes.io/hostpath"

/* kube's pods, as volume lists: pvc:CLAIM, ebs:VOLUMEID (inline), eph:NAME
 * (generic ephemeral, class csi-sc), cm, secret */
#define RUNNING "pvc:csi-ebs.csi.aws.com-3"
#define CSI_EBS_ONE "pvc:csi-ebs.csi.aws.com-0"
#define CSI_EBS_TWO "pvc:csi-ebs.csi.aws.com-1 pvc:csi-ebs.csi.aws.com-2"
#define GCE_TWO "pvc:csi-pd.csi.storage.gke.io-1 pvc:csi-pd.csi.storage.gke.io-2"
#define INTREE_ONE "pvc:csi-kubernetes.io-aws-ebs-0"
#define INTREE_TWO "pvc:csi-kubernetes.io-aws-ebs-1 pvc:csi-kubernetes.io-aws-ebs-2"

typedef struct nvl_case {
	const char *name;
	const char *drivers;      /* driverNames, space separated */
	const char *limit;        /* limitSource */
	int max;                  /* maxVols */
	const char *existing;     /* the pods on node-1, separated by ';' */
	const char *pod;          /* the pending pod abc */
	const char *sql;          /* run after the import, NULL: none */
	const char *want_pre;     /* "" or "skip" */
	const char *want;         /* Filter's verdict on node-1 */
} nvl_case;

static const nvl_case cases[] = {
	/* TestCSILimits "fits when node volume limit >= new pods CSI volume" */
	{"fits when node volume limit >= new pods CSI volume", EBS, "csinode", 4, RUNNING ";" CSI_EBS_TWO, CSI_EBS_ONE,
	 NULL, "", ""},
	/* TestCSILimits "doesn't when node volume limit <= pods CSI volume" */
	{"doesn't when node volume limit <= pods CSI volume", EBS, "csinode", 2, RUNNING ";" CSI_EBS_TWO, CSI_EBS_ONE,
	 NULL, "", REASON},
	/* TestCSILimits "should when driver does not support volume limits" */
	{"should when driver does not support volume limits", EBS, "csinode-with-no-limit", 2, RUNNING ";" CSI_EBS_TWO,
	 CSI_EBS_ONE, NULL, "", ""},
	/* TestCSILimits "count pending PVCs towards volume limit <= pods CSI volume" */
	{"count pending PVCs towards volume limit <= pods CSI volume", EBS, "csinode", 2, "pvc:csi-4;" CSI_EBS_TWO,
	 CSI_EBS_ONE, NULL, "", REASON},
	/* TestCSILimits "should count PVCs with invalid PV name but valid SC" */
	{"should count PVCs with invalid PV name but valid SC", EBS, "csinode", 2, "pvc:csi-6;" CSI_EBS_TWO, CSI_EBS_ONE,
	 NULL, "", REASON},
	/* TestCSILimits "don't count pvcs with missing SC towards volume limit" */
	{"don't count pvcs with missing SC towards volume limit", EBS, "csinode", 2, RUNNING ";pvc:csi-5", CSI_EBS_ONE,
	 NULL, "", ""},
	/* TestCSILimits "count pvcs with the same type towards volume limit" */
	{"count pvcs with the same type towards volume limit", EBS " " GCE, "csinode", 2, GCE_TWO ";" CSI_EBS_TWO,
	 CSI_EBS_ONE, NULL, "", REASON},
	/* TestCSILimits "don't count pvcs with different type towards volume limit" */
	{"don't count pvcs with different type towards volume limit", EBS " " GCE, "csinode", 2, CSI_EBS_TWO ";" RUNNING,
	 GCE_TWO, NULL, "", ""},
	/* TestCSILimits "should count in-tree volumes if migration is enabled" */
	{"should count in-tree volumes if migration is enabled", INTREE_EBS " " EBS, "csinode", 2, INTREE_TWO, INTREE_ONE,
	 NULL, "", REASON},
	/* TestCSILimits "nil csi node" */
	{"nil csi node", INTREE_EBS " " EBS, "", 0, INTREE_TWO, "ebs:aws-inline1", NULL, "", ""},
	/* TestCSILimits "should not count non-migratable in-tree volumes" */
	{"should not count non-migratable in-tree volumes", HOSTPATH " " EBS, "csinode", 2, CSI_EBS_TWO,
	 "pvc:csi-kubernetes.io-hostpath-0", NULL, "", ""},
	/* TestCSILimits "should not count in-tree, inline and csi volumes if migration is enabled (when scheduling
	 * in-tree volumes)" */
	{"should not count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)",
	 INTREE_EBS " " EBS, "csinode", 3, CSI_EBS_TWO ";" INTREE_ONE, "ebs:csi-ebs.csi.aws.com-1", NULL, "", ""},
	/* TestCSILimits "ephemeral volume missing" */
	{"ephemeral volume missing", EBS, "csinode-with-no-limit", 0, "", "eph:xyz",
	 "DELETE FROM pvc WHERE namespace = 'test' AND name = 'abc-xyz'", "",
	 "UnschedulableAndUnresolvable: looking up PVC test/abc-xyz: persistentvolumeclaims \"abc-xyz\" not found"},
	/* TestCSILimits "ephemeral doesn't when node volume limit <= pods CSI volume" */
	{"ephemeral doesn't when node volume limit <= pods CSI volume", EBS, "csinode", 2, RUNNING ";" CSI_EBS_TWO,
	 "eph:xyz", NULL, "", REASON},
	/* TestCSILimits "skip Filter when the pod only uses secrets and configmaps" */
	{"skip Filter when the pod only uses secrets and configmaps", EBS, "csinode", 2, "", "cm secret", NULL, "skip",
	 ""},
};

/* name with '/' as '-' (kube's names hold the in-tree plugin's name) */
static const char *dashed(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s", name);
	for (char *p = buf; *p; p++)
		if (*p == '/')
			*p = '-';
	return buf;
}

#define PUT(...) do { if (*w < len) *w += (size_t)snprintf(buf + *w, len - *w, __VA_ARGS__); } while (0)

/* one pod's volumes (a ';'-terminated piece of a list) as YAML */
static const char *pod_yaml(char *buf, size_t len, size_t *w, const char *name, const char *node, const char *vols,
			    size_t n)
{
	PUT("kind: Pod\nmetadata: {name: %s, namespace: test%s}\nspec:\n", name, node ? "" : ", uid: '12345'");
	if (node)
		PUT("  nodeName: %s\n", node);
	PUT("  containers: [{name: c, image: nginx}]\n  volumes:\n");
	int k = 0;
	for (const char *p = vols; p < vols + n;) {
		char tok[128], arg[128] = "";
		int used = 0;
		if (sscanf(p, " %127[^ ;]%n", tok, &used) != 1 || used <= 0)
			break;
		p += used;
		char *colon = strchr(tok, ':');
		if (colon) {
			snprintf(arg, sizeof arg, "%s", colon + 1);
			*colon = 0;
		}
		if (!strcmp(tok, "pvc"))
			PUT("  - {name: v%d, persistentVolumeClaim: {claimName: %s}}\n", k, arg);
		else if (!strcmp(tok, "ebs"))
			PUT("  - {name: v%d, awsElasticBlockStore: {volumeID: %s}}\n", k, arg);
		else if (!strcmp(tok, "eph"))
			PUT("  - {name: %s, ephemeral: {volumeClaimTemplate: {spec: {storageClassName: csi-sc, "
			    "accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}}}\n", arg);
		else if (!strcmp(tok, "cm"))
			PUT("  - {name: v%d, configMap: {name: cm}}\n", k);
		else
			PUT("  - {name: v%d, secret: {secretName: s}}\n", k);
		k++;
	}
	if (!k)
		PUT("  - {name: v, emptyDir: {}}\n");
	PUT("%s---\n", node ? "status: {phase: Running}\n" : "");
	return buf;
}

/* getFakeCSIPVLister and getFakeCSIPVCLister for one driver */
static void driver_volumes(char *buf, size_t len, size_t *w, const char *driver)
{
	for (int j = 0; j < 4; j++) {
		char d[128], name[160];
		snprintf(name, sizeof name, "csi-%s-%d", dashed(d, sizeof d, driver), j);
		PUT("kind: PersistentVolume\nmetadata: {name: %s}\nspec:\n  capacity: {storage: 1Gi}\n"
		    "  accessModes: [ReadWriteOnce]\n  storageClassName: ''\n  claimRef: {namespace: test, name: %s}\n",
		    name, name);
		if (!strcmp(driver, INTREE_EBS))
			PUT("  awsElasticBlockStore: {volumeID: %s}\n", name);
		else if (!strcmp(driver, HOSTPATH))
			PUT("  hostPath: {path: /tmp}\n");
		else
			PUT("  csi: {driver: %s, volumeHandle: %s}\n", driver, name);
		PUT("status: {phase: Bound}\n---\n");
		PUT("kind: PersistentVolumeClaim\nmetadata: {name: %s, namespace: test, annotations: "
		    "{pv.kubernetes.io/bind-completed: 'yes'}}\nspec: {accessModes: [ReadWriteOnce], storageClassName: '', "
		    "volumeName: %s, resources: {requests: {storage: 1Gi}}}\nstatus: {phase: Bound}\n---\n", name, name);
	}
}

static const char *cluster(char *buf, size_t len, const nvl_case *c)
{
	size_t at = 0, *w = &at;
	char drivers[256], first[128] = "";
	snprintf(drivers, sizeof drivers, "%s", c->drivers);
	sscanf(drivers, "%127s", first);
	PUT("kind: Node\nmetadata: {name: node-1}\n---\n");
	if (c->limit[0]) {
		PUT("kind: CSINode\nmetadata: {name: node-1, annotations: {storage.alpha.kubernetes.io/migrated-plugins: "
		    "%s}}\nspec:\n  drivers:\n", INTREE_EBS);
		for (char *d = strtok(drivers, " "); d; d = strtok(NULL, " ")) {
			PUT("  - {name: %s, nodeID: node-1", d);
			if (!strcmp(c->limit, "csinode"))
				PUT(", allocatable: {count: %d}", c->max);
			PUT("}\n");
		}
		PUT("---\n");
	}
	PUT("kind: StorageClass\nmetadata: {name: csi-sc}\nprovisioner: %s\n---\n", first);
	snprintf(drivers, sizeof drivers, "%s", c->drivers);
	for (char *d = strtok(drivers, " "); d; d = strtok(NULL, " "))
		driver_volumes(buf, len, w, d);
	PUT("kind: PersistentVolumeClaim\nmetadata: {name: csi-4, namespace: test}\nspec: {storageClassName: csi-sc}\n---\n"
	    "kind: PersistentVolumeClaim\nmetadata: {name: csi-5, namespace: test}\nspec: {accessModes: [ReadWriteOnce]}\n"
	    "---\nkind: PersistentVolumeClaim\nmetadata: {name: csi-6, namespace: test}\n"
	    "spec: {storageClassName: csi-sc, volumeName: missing-in-action}\n---\n");
	int k = 0;
	for (const char *p = c->existing; *p; k++) {
		size_t n = strcspn(p, ";");
		char name[16];
		snprintf(name, sizeof name, "e%d", k);
		pod_yaml(buf, len, w, name, "node-1", p, n);
		p += n + (p[n] == ';');
	}
	pod_yaml(buf, len, w, "abc", NULL, c->pod, strlen(c->pod));
	return buf;
}

int main(void)
{
	static char yaml[32768];
	char got[1024];
	tap_snap t;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const nvl_case *c = &cases[i];
		if (tap_snap_open_sql(&t, cluster(yaml, sizeof yaml, c), NULL, c->sql, "test/abc") != KP_OK) {
			TAP_OK(0, "%s: open (%s)", c->name, t.err.msg);
		} else {
			TAP_EQ_STR(tap_snap_prefilter(&t, &kp_plugin_node_volume_limits, got, sizeof got), c->want_pre,
				   "PreFilter: %s", c->name);
			TAP_EQ_STR(tap_snap_filter(&t, &kp_plugin_node_volume_limits, "node-1", got, sizeof got), c->want,
				   "Filter: %s", c->name);
		}
		tap_snap_close(&t);
	}
	return tap_done();
}
