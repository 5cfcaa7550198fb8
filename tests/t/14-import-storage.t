#!/usr/bin/env bash
# 14-import-storage.t — storage objects (issue 16, first slice: imported, not
# planned): StorageClass, PersistentVolume, PersistentVolumeClaim, CSINode,
# CSIDriver, CSIStorageCapacity (v1 and v1beta1), their rows checked by SQL;
# what the volume plugins read besides (a claim's bind-completed annotation,
# a PV's deletionTimestamp, volumeAttributesClassName, a CSINode's
# migrated-plugins annotation in csi_node_info, an rbd volume's monitors);
# pods' volumes (pod_volume) with in-tree disks named by their CSI migration
# driver; claims generated for a StatefulSet's volumeClaimTemplates and a
# generic ephemeral volume; a database made before the later columns; bad
# input refused with FILE:LINE:COL and the database unchanged; the
# realworld2 corpus's storage files.
#
# Expected values were worked out from the inputs by hand (1Gi = 1073741824).
. "$(dirname "$0")/../lib.sh"

# q with JSON and commas as they are (q prints CSV, which quotes them)
ql() { q "$1" "$2" | sed 's/^"//; s/"$//; s/""/"/g'; }

cat >"$T/storage.yaml" <<'YAML'
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
- matchLabelExpressions:
  - {key: topology.kubernetes.io/zone, values: [a, b]}
---
apiVersion: storage.k8s.io/v1beta1
kind: StorageClass
metadata: {name: old}
provisioner: kubernetes.io/gce-pd
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-ebs
  labels: {topology.kubernetes.io/zone: a}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: fast
  awsElasticBlockStore: {volumeID: vol-123}
  claimRef: {namespace: db, name: data-pg-0, uid: u1}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: [a]}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-csi}
spec:
  capacity: {storage: 500M}
  accessModes: [ReadWriteMany, ReadOnlyMany]
  volumeMode: Block
  csi: {driver: disk.example.com, volumeHandle: h-9}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-gce, deletionTimestamp: "2024-01-01T00:00:00Z"}
spec:
  capacity: {storage: 1Gi}
  volumeAttributesClassName: gold
  gcePersistentDisk: {pdName: disk-7}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-az}
spec:
  azureDisk: {diskName: d, diskURI: /subscriptions/x/disks/d}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-cinder}
spec:
  cinder: {volumeID: c-1}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: unset
  namespace: db
  annotations: {volume.kubernetes.io/selected-node: n1}
  deletionTimestamp: "2024-01-01T00:00:00Z"
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 2Gi}}
  selector: {matchLabels: {tier: gold}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: empty
  namespace: db
  annotations: {pv.kubernetes.io/bind-completed: "yes"}
spec:
  storageClassName: ""
  volumeAttributesClassName: silver
  volumeName: pv-csi
  resources: {requests: {storage: 1G}}
status: {phase: Bound}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata:
  name: n1
  annotations: {storage.alpha.kubernetes.io/migrated-plugins: "kubernetes.io/aws-ebs,kubernetes.io/gce-pd"}
spec:
  drivers:
  - {name: ebs.csi.aws.com, nodeID: i-1, topologyKeys: [topology.kubernetes.io/zone], allocatable: {count: 25}}
  - {name: disk.example.com, nodeID: n1}
---
apiVersion: storage.k8s.io/v1beta1
kind: CSINode
metadata: {name: n2}
spec:
  drivers: [{name: ebs.csi.aws.com, nodeID: i-2, allocatable: {count: 39}}]
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: ebs.csi.aws.com}
spec: {attachRequired: true, storageCapacity: true, volumeLifecycleModes: [Persistent, Ephemeral]}
---
apiVersion: storage.k8s.io/v1beta1
kind: CSIDriver
metadata: {name: disk.example.com}
spec: {attachRequired: false}
---
apiVersion: storage.k8s.io/v1
kind: CSIStorageCapacity
metadata: {name: cap-a, namespace: kube-system}
storageClassName: fast
nodeTopology: {matchLabels: {topology.kubernetes.io/zone: a}}
capacity: 100Gi
maximumVolumeSize: 16Ti
---
apiVersion: storage.k8s.io/v1beta1
kind: CSIStorageCapacity
metadata: {name: cap-b, namespace: kube-system}
storageClassName: fast
YAML

cat >"$T/pods.yaml" <<'YAML'
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg, namespace: db}
spec:
  replicas: 3
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec:
      containers: [{name: c, image: pg}]
      volumes:
      - {name: conf, configMap: {name: x}}
      - {name: scratch, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], volumeAttributesClassName: eph, resources: {requests: {storage: 1Gi}}}}}}
      - {name: ceph, rbd: {monitors: ["10.0.0.1:6789", "10.0.0.2:6789"], pool: kube, image: foo, readOnly: true}}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      storageClassName: fast
      volumeAttributesClassName: gold
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 10Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: app, namespace: db}
spec:
  containers: [{name: c, image: x}]
  volumes:
  - {name: cache, ephemeral: {volumeClaimTemplate: {spec: {storageClassName: fast, accessModes: [ReadWriteOnce], resources: {requests: {storage: 4Gi}}}}}}
  - {name: claim, persistentVolumeClaim: {claimName: unset, readOnly: true}}
  - {name: gce, gcePersistentDisk: {pdName: disk-7}}
  - {name: ebs, awsElasticBlockStore: {volumeID: vol-9}}
  - {name: az, azureDisk: {diskName: d, diskURI: /d/uri}}
  - {name: cin, cinder: {volumeID: c-2}}
  - {name: rbd, rbd: {monitors: [m1, m2], image: img, pool: p}}
  - {name: iscsi, iscsi: {targetPortal: "10.0.0.1:3260", iqn: iqn.x, lun: 2}}
  - {name: inline, csi: {driver: inline.example.com}}
  - {name: empty, emptyDir: {}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: app-cache, namespace: db}
spec:
  storageClassName: slow
  resources: {requests: {storage: 1Gi}}
YAML

db=$T/a.db
run "$KPLAN" import "$db" "$T/storage.yaml" "$T/pods.yaml"
is "$rc" 0 "import exits 0"
like "$out" "2 storage classes, 5 persistent volumes, 3 volume claims, 6 volume claims generated, 2 CSI nodes, 2 CSI drivers, 2 CSI storage capacities" \
	"the summary names the storage counts"
is "$(q "$db" "SELECT json_extract(counts, '\$.storage_classes') || ' ' || json_extract(counts, '\$.pvs') || ' ' ||
	json_extract(counts, '\$.pvcs') || ' ' || json_extract(counts, '\$.generated_pvcs') || ' ' ||
	json_extract(counts, '\$.csi_nodes') || ' ' || json_extract(counts, '\$.csi_drivers') || ' ' ||
	json_extract(counts, '\$.csi_storage_capacities') FROM import_batch")" "2 5 3 6 2 2 2" "import_batch.counts holds them"
is "$(q "$db" "SELECT json_extract(counts, '\$.skipped_api') FROM import_batch")" "{}" "no storage kind is skipped"

# StorageClass
is "$(ql "$db" "SELECT provisioner || '|' || binding_mode || '|' || is_default || '|' || allowed_topologies FROM storage_class WHERE name = 'fast'")" \
	'ebs.csi.aws.com|WaitForFirstConsumer|1|[{"matchLabelExpressions":[["topology.kubernetes.io/zone","In",["a","b"]]]}]' \
	"StorageClass v1: provisioner, binding mode, default annotation, allowed topologies"
is "$(q "$db" "SELECT binding_mode || '|' || is_default || '|' || COALESCE(allowed_topologies, 'NULL') FROM storage_class WHERE name = 'old'")" \
	"Immediate|0|NULL" "StorageClass v1beta1: defaults"

# PersistentVolume
is "$(q "$db" "SELECT storage_class || '|' || capacity || '|' || access_modes || '|' || volume_mode || '|' || phase || '|' ||
	claim_ns || '/' || claim_name || '/' || claim_uid || '|' || source || '|' || driver || '|' || volume_handle FROM pv WHERE name = 'pv-ebs'")" \
	"fast|10737418240|ReadWriteOnce|Filesystem|Bound|db/data-pg-0/u1|awsElasticBlockStore|ebs.csi.aws.com|vol-123" \
	"PV awsElasticBlockStore: fields, translated to ebs.csi.aws.com"
is "$(ql "$db" "SELECT node_affinity FROM pv WHERE name = 'pv-ebs'")" \
	'[{"matchExpressions":[["topology.kubernetes.io/zone","In",["a"]]]}]' "PV nodeAffinity.required as JSON terms"
is "$(q "$db" "SELECT group_concat(key || '=' || value) FROM pv_label l JOIN pv ON pv.id = l.pv_id WHERE pv.name = 'pv-ebs'")" \
	"topology.kubernetes.io/zone=a" "PV labels"
is "$(ql "$db" "SELECT storage_class || '|' || capacity || '|' || access_modes || '|' || volume_mode || '|' || phase || '|' ||
	source || '|' || driver || '|' || volume_handle || '|' || COALESCE(node_affinity, 'NULL') FROM pv WHERE name = 'pv-csi'")" \
	"|500000000|ReadWriteMany,ReadOnlyMany|Block|Available|csi|disk.example.com|h-9|NULL" "PV csi: driver, handle, defaults"
is "$(q "$db" "SELECT group_concat(name || ':' || driver || ':' || volume_handle, ' ') FROM (SELECT * FROM pv WHERE name IN ('pv-gce', 'pv-az', 'pv-cinder') ORDER BY name)")" \
	"pv-az:disk.csi.azure.com:/subscriptions/x/disks/d pv-cinder:cinder.csi.openstack.org:c-1 pv-gce:pd.csi.storage.gke.io:disk-7" \
	"PV in-tree gcePersistentDisk, azureDisk, cinder: CSI migration driver and disk id"
is "$(q "$db" "SELECT group_concat(name || ':' || deleting || ':' || COALESCE(attributes_class, 'NULL'), ' ') FROM (SELECT * FROM pv WHERE name IN ('pv-ebs', 'pv-gce') ORDER BY name)")" \
	"pv-ebs:0:NULL pv-gce:1:gold" "PV deletionTimestamp (deleting) and volumeAttributesClassName (NULL when absent)"

# PersistentVolumeClaim
is "$(ql "$db" "SELECT COALESCE(storage_class, 'NULL') || '|' || request || '|' || access_modes || '|' || COALESCE(volume_name, 'NULL') || '|' ||
	phase || '|' || selector || '|' || selected_node || '|' || deleting || '|' || generated FROM pvc WHERE namespace = 'db' AND name = 'unset'")" \
	'NULL|2147483648|ReadWriteOnce|NULL|Pending|[["tier","In",["gold"]]]|n1|1|0' \
	"PVC without storageClassName: NULL class, request, selector, selected node, deleting"
is "$(q "$db" "SELECT '[' || storage_class || ']|' || request || '|' || volume_name || '|' || phase FROM pvc WHERE name = 'empty'")" \
	"[]|1000000000|pv-csi|Bound" "PVC with storageClassName \"\": '' (not NULL), volumeName, phase"
is "$(q "$db" "SELECT group_concat(name || ':' || bind_completed || ':' || COALESCE(attributes_class, 'NULL'), ' ') FROM (SELECT * FROM pvc WHERE name IN ('empty', 'unset') ORDER BY name)")" \
	"empty:1:silver unset:0:NULL" "PVC: the bind-completed annotation present (any value) and volumeAttributesClassName"

# CSINode, CSIDriver, CSIStorageCapacity
is "$(q "$db" "SELECT group_concat(node_name || ':' || driver || ':' || COALESCE(allocatable, 'NULL') || ':' || topology_keys, ' ') FROM (SELECT * FROM csi_node ORDER BY node_name, driver)")" \
	"n1:disk.example.com:NULL: n1:ebs.csi.aws.com:25:topology.kubernetes.io/zone n2:ebs.csi.aws.com:39:" \
	"CSINode v1 and v1beta1: per node and driver, allocatable count, topology keys"
is "$(ql "$db" "SELECT group_concat(node_name || ':[' || migrated_plugins || ']:' || (source = '$T/storage.yaml') || ':' || batch_id, ' ') FROM (SELECT * FROM csi_node_info ORDER BY node_name)")" \
	"n1:[kubernetes.io/aws-ebs,kubernetes.io/gce-pd]:1:1 n2:[]:1:1" "csi_node_info: one row per CSINode, the migrated-plugins annotation verbatim ('' absent)"
is "$(ql "$db" "SELECT group_concat(name || ':' || attach_required || ':' || storage_capacity || ':' || lifecycle_modes, ' ') FROM (SELECT * FROM csi_driver ORDER BY name)")" \
	"disk.example.com:0:0:Persistent ebs.csi.aws.com:1:1:Persistent,Ephemeral" "CSIDriver v1 and v1beta1"
is "$(ql "$db" "SELECT group_concat(name || ':' || storage_class || ':' || COALESCE(node_topology, 'NULL') || ':' || COALESCE(capacity, 'NULL') || ':' || COALESCE(maximum_volume_size, 'NULL'), ' ') FROM (SELECT * FROM csi_storage_capacity ORDER BY name)")" \
	'cap-a:fast:[["topology.kubernetes.io/zone","In",["a"]]]:107374182400:17592186044416 cap-b:fast:NULL:NULL:NULL' \
	"CSIStorageCapacity v1 and v1beta1"

# a CSINode without drivers has its csi_node_info row; one read again
# replaces its drivers and its row (annotation gone: '')
cat >"$T/csinode2.yaml" <<'YAML'
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: n1}
spec:
  drivers: [{name: pd.csi.storage.gke.io, nodeID: n1}]
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata:
  name: n3
  annotations: {storage.alpha.kubernetes.io/migrated-plugins: kubernetes.io/cinder}
spec: {drivers: []}
YAML
cp "$db" "$T/csi.db"
run "$KPLAN" import "$T/csi.db" "$T/csinode2.yaml"
is "$rc" 0 "re-import of a CSINode and one without drivers: exit 0"
like "$out" "2 CSI nodes" "both are counted"
is "$(ql "$T/csi.db" "SELECT group_concat(node_name || ':[' || migrated_plugins || ']:' || batch_id, ' ') FROM (SELECT * FROM csi_node_info ORDER BY node_name)")" \
	"n1:[]:2 n2:[]:1 n3:[kubernetes.io/cinder]:2" "csi_node_info: n1 replaced, n3 without drivers has its row"
is "$(q "$T/csi.db" "SELECT group_concat(node_name || ':' || driver, ' ') FROM (SELECT * FROM csi_node ORDER BY node_name, driver)")" \
	"n1:pd.csi.storage.gke.io n2:ebs.csi.aws.com" "csi_node: n1's drivers replaced, none for n3"
printf 'apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n9}\n---\napiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n9}\n' >"$T/csidup.yaml"
run "$KPLAN" import "$T/csi.db" "$T/csidup.yaml"
is "$rc" 1 "the same CSINode twice in one import, without drivers: exit 1"
like "$err" "duplicate object in one import: also defined at $T/csidup.yaml:1" "the duplicate is named"

# a pod's volumes
is "$(q "$db" "SELECT group_concat(v.name || ':' || v.kind || ':' || COALESCE(v.claim, '') || ':' || v.read_only || ':' || COALESCE(v.source, '') || ':' ||
	COALESCE(v.driver, '') || ':' || COALESCE(v.volume_handle, ''), ' ') FROM pod_volume v JOIN pod p ON p.id = v.pod_id WHERE p.name = 'app'")" \
	"az:intree::0:azureDisk:disk.csi.azure.com:/d/uri cache:ephemeral:app-cache:0::: cin:intree::0:cinder:cinder.csi.openstack.org:c-2 claim:pvc:unset:1::: ebs:intree::0:awsElasticBlockStore:ebs.csi.aws.com:vol-9 gce:intree::0:gcePersistentDisk:pd.csi.storage.gke.io:disk-7 inline:csi::0::inline.example.com: iscsi:intree::0:iscsi::iqn.x rbd:intree::0:rbd:rbd.csi.ceph.com:p/img" \
	"pod volumes: pvc, ephemeral, in-tree (translated), inline csi; emptyDir left out"
is "$(ql "$db" "SELECT group_concat(v.name || ':' || COALESCE(v.monitors, 'NULL'), ' ') FROM pod_volume v JOIN pod p ON p.id = v.pod_id WHERE p.name = 'app' AND v.name IN ('rbd', 'gce')")" \
	"gce:NULL rbd:m1,m2" "pod volumes: an rbd volume's monitors joined with ',', NULL for other kinds"
is "$(q "$db" "SELECT storage_class || '|' || request || '|' || generated FROM pvc WHERE name = 'app-cache'")" "slow|1073741824|0" \
	"ephemeral volume whose claim was imported: the imported PVC stays, none generated"

# StatefulSet: claim templates, generated claims, pods' volumes
is "$(q "$db" "SELECT t.name || '|' || t.storage_class || '|' || t.request || '|' || t.access_modes FROM workload_claim_template t JOIN workload w ON w.id = t.workload_id WHERE w.name = 'pg'")" \
	"data|fast|10737418240|ReadWriteOnce" "workload_claim_template row"
is "$(q "$db" "SELECT t.attributes_class FROM workload_claim_template t JOIN workload w ON w.id = t.workload_id WHERE w.name = 'pg'")" \
	"gold" "workload_claim_template: volumeAttributesClassName"
is "$(q "$db" "SELECT group_concat(name || ':' || attributes_class || ':' || bind_completed, ' ') FROM (SELECT * FROM pvc WHERE owner_name IN ('pg', 'pg-0') ORDER BY name)")" \
	"data-pg-0:gold:0 data-pg-1:gold:0 data-pg-2:gold:0 pg-0-scratch:eph:0" \
	"generated claims take their template's volumeAttributesClassName (StatefulSet and ephemeral), never bind-completed"
is "$(ql "$db" "SELECT v.monitors || '|' || json_extract(e.claim_spec, '\$.attributes_class') FROM workload_volume v JOIN workload w ON w.id = v.workload_id, workload_volume e
	WHERE w.name = 'pg' AND v.name = 'ceph' AND e.workload_id = w.id AND e.name = 'scratch'")" "10.0.0.1:6789,10.0.0.2:6789|eph" \
	"workload_volume: the rbd monitors; an ephemeral volume's claim_spec carries volumeAttributesClassName"
is "$(ql "$db" "SELECT group_concat(p.name || ':' || v.monitors || ':' || v.read_only, ' ') FROM (SELECT * FROM pod_volume WHERE name = 'ceph' ORDER BY pod_id) v JOIN pod p ON p.id = v.pod_id")" \
	"pg-0:10.0.0.1:6789,10.0.0.2:6789:1 pg-1:10.0.0.1:6789,10.0.0.2:6789:1 pg-2:10.0.0.1:6789,10.0.0.2:6789:1" \
	"generated pods get the template's rbd monitors"
is "$(q "$db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM pvc WHERE owner_kind = 'StatefulSet' AND owner_name = 'pg' AND generated = 1 ORDER BY name)")" \
	"data-pg-0 data-pg-1 data-pg-2" "3 replicas: claims data-pg-0..2 generated, owner StatefulSet"
is "$(q "$db" "SELECT DISTINCT storage_class || '|' || request || '|' || batch_id FROM pvc WHERE owner_name = 'pg'")" "fast|10737418240|1" \
	"generated claims take the template's spec"
is "$(q "$db" "SELECT group_concat(p.name || ':' || v.name || ':' || v.kind || ':' || v.claim, ' ') FROM (SELECT * FROM pod_volume ORDER BY pod_id, name) v JOIN pod p ON p.id = v.pod_id WHERE p.owner_name = 'pg'")" \
	"pg-0:data:pvc:data-pg-0 pg-0:scratch:ephemeral:pg-0-scratch pg-1:data:pvc:data-pg-1 pg-1:scratch:ephemeral:pg-1-scratch pg-2:data:pvc:data-pg-2 pg-2:scratch:ephemeral:pg-2-scratch" \
	"each replica: a pvc volume per claim template and the template's ephemeral volume"
is "$(q "$db" "SELECT group_concat(name || ':' || owner_kind || ':' || owner_name || ':' || request, ' ') FROM (SELECT * FROM pvc WHERE owner_kind = 'Pod' ORDER BY name)")" \
	"pg-0-scratch:Pod:pg-0:1073741824 pg-1-scratch:Pod:pg-1:1073741824 pg-2-scratch:Pod:pg-2:1073741824" \
	"generic ephemeral volumes: claim <pod>-<volume>, owner Pod, generated"

# the plan judges the volumes and names what of them it does not model
run "$KPLAN" plan "$db"
like "$(q "$db" "SELECT group_concat(message, ' ') FROM run_warning")" "not modelled: VolumeAttachment objects" \
	"plan: the volumes warning names what is not modelled"

# the warning counts every pending pod with a volume the volume plugins
# judge: a claim and an in-tree disk, not a ConfigMap
vdb="$T/vwarn.db"
cat >"$T/vwarn.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: with-claim, namespace: default}
spec:
  containers: [{name: c, image: x}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
---
apiVersion: v1
kind: Pod
metadata: {name: with-disk, namespace: default}
spec:
  containers: [{name: c, image: x}]
  volumes: [{name: d, gcePersistentDisk: {pdName: disk-1, fsType: ext4}}]
---
apiVersion: v1
kind: Pod
metadata: {name: plain, namespace: default}
spec:
  containers: [{name: c, image: x}]
  volumes: [{name: cfg, configMap: {name: settings}}]
YAML
run "$KPLAN" import -q "$vdb" "$T/vwarn.yaml"
is "$rc" 0 "import: a claim, an in-tree disk and a ConfigMap volume"
run "$KPLAN" plan "$vdb"
is "$(q "$vdb" "SELECT pods FROM run_warning WHERE kind = 'volumes'")" 2 \
	"plan: the warning counts 2 pods (run_warning.pods)"
like "$(q "$vdb" "SELECT message FROM run_warning WHERE kind = 'volumes'")" \
	"2 pending pod(s) use volumes; the four volume plugins judged them; not modelled: VolumeAttachment objects (kube 1.33+ also counts them against CSI attach limits), VolumeBinding's Score (StorageCapacityScoring, on by default from 1.37), VolumeLimitScaling (on by default from 1.37), CSI migration of vSphere, Azure File and Portworx volumes (docs/limits.md)" \
	"plan: the claim and the in-tree disk pods are counted in the warning, the ConfigMap pod is not"
like "$err" "kplan: warning: volumes: 2 pending pod(s)" "plan: ... and it is printed"
is "$(ql "$vdb" "SELECT group_concat(pod || ':' || action || ':' || COALESCE(reason, ''), ' | ') FROM (SELECT * FROM plan ORDER BY pod)")" \
	"plain:bind: | with-claim:unschedulable:0/1 nodes are available: persistentvolumeclaim \"data\" not found. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.. | with-disk:bind:" \
	"plan: the pod whose claim is missing fails VolumeRestrictions' PreFilter; the disk and ConfigMap pods are placed"

# re-import: a smaller StatefulSet drops the claims nobody wants; an imported
# claim of a generated name replaces the generated one
sed 's/replicas: 3/replicas: 1/' "$T/pods.yaml" >"$T/pods1.yaml"
cat >"$T/claim.yaml" <<'YAML'
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-pg-0, namespace: db}
spec: {storageClassName: fast, resources: {requests: {storage: 20Gi}}}
status: {phase: Bound}
YAML
run "$KPLAN" import "$db" "$T/pods1.yaml" "$T/claim.yaml"
is "$rc" 0 "re-import exits 0"
is "$(q "$db" "SELECT group_concat(name || ':' || generated || ':' || request, ' ') FROM (SELECT * FROM pvc WHERE name LIKE 'data-pg-%' ORDER BY name)")" \
	"data-pg-0:0:21474836480" "re-import: claims of replicas gone are dropped, the imported claim replaces the generated one"
is "$(q "$db" "SELECT count(*) FROM pod_volume v WHERE v.pod_id NOT IN (SELECT id FROM pod)")" 0 "no volumes of pods that are gone"

# an imported StatefulSet pod whose claim is not in the input gets it generated
cat >"$T/stspod.yaml" <<'YAML'
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: w}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: x}]}
  volumeClaimTemplates:
  - metadata: {name: www}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Mi}}}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-0
  namespace: w
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: web, uid: u, controller: true}]
spec:
  nodeName: n1
  containers: [{name: c, image: x}]
  volumes: [{name: www, persistentVolumeClaim: {claimName: www-web-0}}]
YAML
run "$KPLAN" import "$T/b.db" "$T/stspod.yaml"
is "$rc" 0 "StatefulSet with a live pod: exit 0"
is "$(q "$T/b.db" "SELECT group_concat(name || ':' || owner_kind || ':' || generated || ':' || request) FROM pvc")" "www-web-0:StatefulSet:1:1048576" \
	"the live pod's claim is generated from the template"

# an older database (made before the storage tables) gets them on import
old=$T/old.db
run "$KPLAN" init "$old"
run "$KPLAN" query --write "$old" "DROP TABLE pod_volume; DROP TABLE pvc; DROP TABLE pv_label; DROP TABLE pv; DROP TABLE storage_class;
	DROP TABLE csi_node; DROP TABLE csi_driver; DROP TABLE csi_storage_capacity; DROP TABLE workload_volume;
	DROP TABLE workload_claim_template"
is "$rc" 0 "setup: the storage tables dropped"
run "$KPLAN" import "$old" "$T/storage.yaml"
is "$rc" 0 "a database without the storage tables: import exits 0"
is "$(q "$old" "SELECT count(*) FROM pv")" 5 "the tables are made and filled"

# a database made after the storage tables but before their later columns
# (pv.deleting, pv.attributes_class, pvc.bind_completed, pvc.attributes_class,
# pod_volume.monitors, workload_volume.monitors,
# workload_claim_template.attributes_class) and csi_node_info: the tables as
# that schema made them, with a row its import wrote; import adds the
# columns, last, as a new database has them
mid=$T/mid.db
run "$KPLAN" init "$mid"
run "$KPLAN" query --write "$mid" "DROP TABLE pod_volume; DROP TABLE pvc; DROP TABLE pv_label; DROP TABLE pv;
	DROP TABLE workload_volume; DROP TABLE workload_claim_template; DROP TABLE csi_node_info;
	CREATE TABLE pv(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, storage_class TEXT NOT NULL DEFAULT '',
	  capacity INTEGER NOT NULL DEFAULT 0, access_modes TEXT NOT NULL DEFAULT '', volume_mode TEXT NOT NULL DEFAULT 'Filesystem',
	  phase TEXT NOT NULL DEFAULT 'Available', claim_ns TEXT, claim_name TEXT, claim_uid TEXT, source TEXT NOT NULL,
	  driver TEXT, volume_handle TEXT, node_affinity TEXT, file TEXT, line INTEGER, batch_id INTEGER REFERENCES import_batch(id));
	CREATE TABLE pv_label(pv_id INTEGER NOT NULL REFERENCES pv(id) ON DELETE CASCADE, key TEXT NOT NULL, value TEXT NOT NULL,
	  PRIMARY KEY(pv_id, key));
	CREATE TABLE pvc(id INTEGER PRIMARY KEY, namespace TEXT NOT NULL, name TEXT NOT NULL, storage_class TEXT,
	  request INTEGER NOT NULL DEFAULT 0, access_modes TEXT NOT NULL DEFAULT '', volume_mode TEXT NOT NULL DEFAULT 'Filesystem',
	  volume_name TEXT, phase TEXT NOT NULL DEFAULT 'Pending', selector TEXT, selected_node TEXT,
	  deleting INTEGER NOT NULL DEFAULT 0, owner_kind TEXT, owner_name TEXT, generated INTEGER NOT NULL DEFAULT 0,
	  source TEXT, line INTEGER, batch_id INTEGER REFERENCES import_batch(id), UNIQUE(namespace, name));
	CREATE TABLE pod_volume(pod_id INTEGER NOT NULL REFERENCES pod(id) ON DELETE CASCADE, name TEXT NOT NULL,
	  kind TEXT NOT NULL, claim TEXT, read_only INTEGER NOT NULL DEFAULT 0, source TEXT, driver TEXT, volume_handle TEXT,
	  claim_spec TEXT, PRIMARY KEY(pod_id, name));
	CREATE TABLE workload_volume(workload_id INTEGER NOT NULL REFERENCES workload(id) ON DELETE CASCADE, name TEXT NOT NULL,
	  kind TEXT NOT NULL, claim TEXT, read_only INTEGER NOT NULL DEFAULT 0, source TEXT, driver TEXT, volume_handle TEXT,
	  claim_spec TEXT, PRIMARY KEY(workload_id, name));
	CREATE TABLE workload_claim_template(workload_id INTEGER NOT NULL REFERENCES workload(id) ON DELETE CASCADE,
	  name TEXT NOT NULL, storage_class TEXT, request INTEGER NOT NULL DEFAULT 0, access_modes TEXT NOT NULL DEFAULT '',
	  volume_mode TEXT NOT NULL DEFAULT 'Filesystem', selector TEXT, seq INTEGER NOT NULL DEFAULT 0,
	  PRIMARY KEY(workload_id, name));
	INSERT INTO pvc(namespace, name, request) VALUES('db', 'earlier', 5)"
is "$rc" 0 "setup: storage tables without the later columns, a claim in them"
run "$KPLAN" import "$mid" "$T/storage.yaml" "$T/pods.yaml"
is "$rc" 0 "a database without the later storage columns: import exits 0"
cols() { q "$1" "SELECT group_concat(t.name || '(' || (SELECT group_concat(c.name || ' ' || c.type || ' ' || c.\"notnull\" || ' ' || COALESCE(c.dflt_value, '-'), ',')
	FROM pragma_table_info(t.name) c) || ')', ' ') FROM (SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN
	('pv', 'pvc', 'pod_volume', 'workload_volume', 'workload_claim_template', 'csi_node_info') ORDER BY name) t"; }
is "$(cols "$mid")" "$(cols "$db")" "the columns are added, in a new database's order, with its types and defaults"
is "$(q "$mid" "SELECT bind_completed || ':' || COALESCE(attributes_class, 'NULL') FROM pvc WHERE name = 'earlier'")" "0:NULL" \
	"a claim imported before: bind_completed 0, attributes_class NULL"
is "$(q "$mid" "SELECT group_concat(x, ' ') FROM (SELECT (SELECT deleting || ':' || attributes_class FROM pv WHERE name = 'pv-gce') AS x
	UNION ALL SELECT (SELECT bind_completed FROM pvc WHERE name = 'empty') UNION ALL SELECT (SELECT count(*) FROM csi_node_info)
	UNION ALL SELECT (SELECT count(*) FROM pod_volume WHERE monitors IS NOT NULL) UNION ALL SELECT (SELECT count(*) FROM pvc WHERE attributes_class = 'gold'))")" \
	"1:gold 1 2 4 3" "and filled: pv.deleting, pv.attributes_class, pvc.bind_completed, csi_node_info, monitors, generated claims' class"

# bad input: FILE:LINE:COL, the object, exit 1, the database unchanged
cp "$db" "$T/base.db"
before=$(digest "$T/base.db")
bad() { # bad DESC FILE WANT...
	local desc=$1 f=$2 w
	shift 2
	run "$KPLAN" import "$T/base.db" "$f"
	is "$rc" 1 "$desc: exit 1"
	for w in "$@"; do like "$err" "$w" "$desc: says '$w'"; done
	like "$err" "nothing was imported" "$desc: nothing imported"
	is "$(digest "$T/base.db")" "$before" "$desc: database unchanged"
}
printf 'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: p}\nspec:\n  capacity: {storage: lots}\n' >"$T/bad1.yaml"
bad "PV capacity 'lots'" "$T/bad1.yaml" "kplan: $T/bad1.yaml:5:23: PersistentVolume p: spec.capacity.storage: "
printf 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c, namespace: x}\nspec:\n  accessModes: ReadWriteOnce\n' >"$T/bad2.yaml"
bad "PVC accessModes not a list" "$T/bad2.yaml" "kplan: $T/bad2.yaml:5:16: PersistentVolumeClaim x/c: spec.accessModes: expected a list"
printf 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n  accessModes: [ReadWriteSometimes]\n' >"$T/bad3.yaml"
bad "PVC unknown access mode" "$T/bad3.yaml" "kplan: $T/bad3.yaml:5:17: PersistentVolumeClaim default/c: spec.accessModes[0]: 'ReadWriteSometimes' is not a known value"
printf 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\nvolumeBindingMode: Later\nprovisioner: x\n' >"$T/bad4.yaml"
bad "StorageClass bad binding mode" "$T/bad4.yaml" "kplan: $T/bad4.yaml:4:20: StorageClass s: volumeBindingMode: 'Later' is not one of Immediate, WaitForFirstConsumer"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  volumes: [{name: v, persistentVolumeClaim: {readOnly: true}}]\n' >"$T/bad5.yaml"
bad "pod PVC volume without claimName" "$T/bad5.yaml" "Pod default/p: spec.volumes[0].persistentVolumeClaim.claimName: required"
printf 'apiVersion: storage.k8s.io/v1\nkind: CSIStorageCapacity\nmetadata: {name: c}\nstorageClassName: s\ncapacity: 1Q\n' >"$T/bad6.yaml"
bad "CSIStorageCapacity bad capacity" "$T/bad6.yaml" "kplan: $T/bad6.yaml:5:11: CSIStorageCapacity default/c: capacity: "
printf 'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: p}\n---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: p}\n' >"$T/bad7.yaml"
bad "the same PV twice in one import" "$T/bad7.yaml" "duplicate object in one import: also defined at $T/bad7.yaml:1"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  volumes: [{name: v, rbd: {monitors: m1, image: i}}]\n' >"$T/bad8.yaml"
bad "rbd monitors not a list" "$T/bad8.yaml" "kplan: $T/bad8.yaml:6:39: Pod default/p: spec.volumes[0].rbd.monitors: expected a list"
printf 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n  volumeAttributesClassName: [gold]\n' >"$T/bad9.yaml"
bad "PVC volumeAttributesClassName a list" "$T/bad9.yaml" "kplan: $T/bad9.yaml:5:30: PersistentVolumeClaim default/c: spec.volumeAttributesClassName: expected a string"
printf 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\n  annotations:\n    pv.kubernetes.io/bind-completed: {a: b}\n' >"$T/bad10.yaml"
bad "bind-completed annotation a mapping" "$T/bad10.yaml" "kplan: $T/bad10.yaml:6:38: PersistentVolumeClaim default/c: metadata.annotations.pv.kubernetes.io/bind-completed: expected a string"
printf 'apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata:\n  name: n\n  annotations: {storage.alpha.kubernetes.io/migrated-plugins: [a]}\n' >"$T/bad11.yaml"
bad "migrated-plugins annotation a list" "$T/bad11.yaml" "kplan: $T/bad11.yaml:5:63: CSINode n: metadata.annotations.storage.alpha.kubernetes.io/migrated-plugins: expected a string"

# the realworld2 corpus: every file holding storage objects
R=$KP_SHARED_DATA/realworld2
if [ ! -d "$R" ]; then
	skip "shared data absent ($R)" 40
	done_testing
fi
rw() { # rw FILE SQL WANT: imports alone, exit 0, SQL gives WANT
	local d=$T/rw.db
	rm -f "$d" "$d"-*
	run "$KPLAN" import "$d" "$R/$1"
	is "$rc" 0 "realworld2 $1: exit 0"
	is "$(ql "$d" "$2")" "$3" "realworld2 $1: rows"
}
rw insights-operator_pv_hostpath_managedfields_nokind.json "SELECT name || '|' || source || '|' || capacity || '|' || phase || '|' || claim_name FROM pv" \
	"task-pv-volume|hostPath|52428800|Bound|task-pvc-volume"
rw k9s_pv_gce_pd_bound.json "SELECT source || '|' || driver || '|' || volume_handle || '|' || (SELECT count(*) FROM pv_label) FROM pv" \
	"gcePersistentDisk|pd.csi.storage.gke.io|gke-k9s-fd5bf60e-dynam-pvc-07aa4e2c-8726-11e9-a8e8-42010a80015b|2"
rw k9s_pvc_bound.json "SELECT name || '|' || storage_class || '|' || request || '|' || phase || '|' || volume_name FROM pvc" \
	"www-nginx-sts-0|standard|1048576|Bound|pvc-fbabd470-8725-11e9-a8e8-42010a80015b"
rw k9s_storageclass_gce_pd_immediate.json "SELECT name || '|' || provisioner || '|' || binding_mode || '|' || is_default FROM storage_class" \
	"standard|kubernetes.io/gce-pd|Immediate|1"
rw popeye_pv_list_local_affinity.yaml "SELECT count(*) || '|' || group_concat(DISTINCT phase) FROM pv" "4|Bound,Failed,Available,Pending"
rw local-static-provisioner_pv_local_hostname_affinity.yaml "SELECT source || '|' || capacity || '|' || node_affinity FROM pv" \
	"local|5368709120|[{\"matchExpressions\":[[\"kubernetes.io/hostname\",\"In\",[\"my-node\"]]]}]"
rw local-static-provisioner_storageclass_no_provisioner_wffc.yaml "SELECT provisioner || '|' || binding_mode FROM storage_class" \
	"kubernetes.io/no-provisioner|WaitForFirstConsumer"
rw local-static-provisioner_statefulset_vct.yaml "SELECT group_concat(name, ' ') FROM (SELECT name FROM pvc WHERE generated ORDER BY name)" \
	"local-vol-local-test-0 local-vol-local-test-1 local-vol-local-test-2"
rw aws-ebs_pv_csi_zone_nodeaffinity.yaml "SELECT source || '|' || driver || '|' || volume_handle FROM pv" "csi|ebs.csi.aws.com|vol-03c604538dd7d2f41"
rw aws-ebs_pod_generic_ephemeral.yaml "SELECT name || '|' || owner_kind || '|' || storage_class || '|' || request FROM pvc" \
	"app-persistent-storage|Pod|ebs-ephemeral-demo|1073741824"
rw aws-ebs_csidriver.yaml "SELECT name || '|' || attach_required FROM csi_driver" "ebs.csi.aws.com|1"
rw csi-hostpath_csidriver_ephemeral_modes.yaml "SELECT name || '|' || lifecycle_modes FROM csi_driver" "hostpath.csi.k8s.io|Persistent,Ephemeral"
rw csi-hostpath_pod_generic_ephemeral.yaml "SELECT storage_class || '|' || request || '|' || owner_kind FROM pvc" "csi-hostpath-fast|4294967296|Pod"
rw csi-hostpath_storageclass_wffc.yaml "SELECT provisioner || '|' || binding_mode FROM storage_class" "hostpath.csi.k8s.io|WaitForFirstConsumer"
rw kwok_pv_hostpath_claimref_pending.yaml "SELECT phase || '|' || storage_class || '|' || claim_uid FROM pv" "Pending|kwok-volume|aaaa-bbbb-cccc-dddd"
rw k8s-fixture_pv_hostpath_no_storageclass.yaml "SELECT name || '|[' || storage_class || ']|' || capacity FROM pv" "pv0001|[]|10737418240"
# refused: a PVC template of scheduler_perf without metadata.name (it is made with generateName at run time)
run "$KPLAN" import "$T/rw.db" "$R/k8s-scheduler-perf_pvc_readwriteoncepod.yaml"
is "$rc" 1 "realworld2 k8s-scheduler-perf_pvc_readwriteoncepod.yaml: refused (no name)"
like "$err" "k8s-scheduler-perf_pvc_readwriteoncepod.yaml:4:3: PersistentVolumeClaim default/?: metadata.name: required" \
	"realworld2 k8s-scheduler-perf_pvc_readwriteoncepod.yaml: the message"
# the corpus planned together, on two nodes: each pod's claims judged as kube would
cat >"$T/rwnodes.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata: {name: my-node, labels: {kubernetes.io/hostname: my-node}}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: other-node, labels: {kubernetes.io/hostname: other-node}}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
YAML
rm -f "$T/rw.db"*
run "$KPLAN" import -q "$T/rw.db" "$T/rwnodes.yaml" "$R"/aws-ebs_*.yaml "$R"/csi-hostpath_*.yaml "$R"/local-static-provisioner_*.yaml \
	"$R"/k9s_*.json "$R"/insights-operator_pv_hostpath_managedfields_nokind.json "$R"/popeye_pv_list_local_affinity.yaml \
	"$R"/kwok_pv_hostpath_claimref_pending.yaml "$R"/k8s-fixture_pv_hostpath_no_storageclass.yaml
is "$rc" 0 "realworld2 storage corpus with two nodes: import exit 0"
run "$KPLAN" plan -q "$T/rw.db"
is "$rc" 0 "realworld2 storage corpus: plan exit 0"
is "$(ql "$T/rw.db" "SELECT group_concat(pod || ':' || action || ':' || COALESCE(substr(reason, 1, instr(reason || '.', '.')), ''), ' | ') FROM (SELECT * FROM plan ORDER BY pod)")" \
	"app:unschedulable:0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. | local-test-0:unschedulable:0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. | local-test-1:unschedulable:0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. | local-test-2:unschedulable:0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. | my-csi-app-inline-volume:bind:" \
	"realworld2: claims of a class not imported are immediate (unbound: unschedulable); the WaitForFirstConsumer ephemeral claim is provisioned"
is "$(ql "$T/rw.db" "SELECT claim || ':' || action || ':' || (SELECT name FROM node WHERE id = node_id) FROM volume_decision")" \
	"my-csi-app-inline-volume-my-csi-volume:provision:my-node" "realworld2: the run's volume decision"

# DRA kinds are imported now (issue 17, tests/t/15-import-dra.t), not skipped
rm -f "$T/rw.db"*
run "$KPLAN" import "$T/rw.db" "$R/intel_gpu_deviceclasses.yaml"
like "$out" "2 device classes;" "realworld2: DeviceClass is imported"
unlike "$out" "skipped" "realworld2: DeviceClass is no longer a skipped kind"

done_testing
