#!/usr/bin/env bash
# 70-report-volumes.t — the report's volume sections (docs/reports.md
# "Volumes"): volumes (counts), volumes_pinned, volumes_decisions and
# volumes_attach for a small cluster with volumes, in every format, the
# values worked out by hand from the YAML below and checked against the
# tables (placement, volume_decision, csi_node); the counts equal the rows;
# a database without volume_decision; the sections absent for a cluster
# without pod volumes and for a database without the storage tables (as an
# import before them made it), whose reports are otherwise unchanged.
. "$(dirname "$0")/../lib.sh"
dump() { sqlite3 "$1" .dump | sha256sum | cut -d' ' -f1; }
# json FILE PERL-EXPR: evaluate EXPR with $d = the decoded report
json() { perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>); print eval($ARGV[1]) // "undef"; die $@ if $@' "$1" "$2"; }
# vol_text FILE: the volume sections of a text report, without their notes
vol_text() { sed -n '/^Volumes$/,$p' "$1" | awk '!/^\(.*\)$/ || $0 == "(none)"'; }

# Three nodes, zones a, a, b.  CSINodes: node-a1 may attach 1 volume of
# ebs.csi.aws.com, node-b1 2 (and lists efs.csi.aws.com without a limit).
#   pg      claim data-pg, bound to pv-zonal (zone a: node affinity and label), an EBS CSI volume vol-1
#   redis   claim cache, no class given: the default gp3 (WaitForFirstConsumer, ebs.csi.aws.com): provisioned
#   logger  claim logs, bound to pv-logs (local, kubernetes.io/hostname in (node-a2))
#   mq      claim queue, class local (WaitForFirstConsumer, no provisioner): the run binds the
#           available pv-local-b1 (local, kubernetes.io/hostname in (node-b1))
#   web     claim shared, bound to pv-nfs (no affinity, no label): not pinned, not counted
#   indexer claim files, bound to pv-files (efs: two terms, NotIn, matchFields)
#   legacy  running on node-b1 (kept) with an in-tree EBS disk aws://b/vol-9 (ebs.csi.aws.com/vol-9)
cat >"$T/v.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata:
  name: node-a1
  labels: {kubernetes.io/hostname: node-a1, topology.kubernetes.io/zone: a}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: node-a2
  labels: {kubernetes.io/hostname: node-a2, topology.kubernetes.io/zone: a}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: node-b1
  labels: {kubernetes.io/hostname: node-b1, topology.kubernetes.io/zone: b}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: node-a1}
spec:
  drivers:
  - {name: ebs.csi.aws.com, nodeID: i-a1, allocatable: {count: 1}}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata:
  name: node-b1
  annotations: {storage.alpha.kubernetes.io/migrated-plugins: kubernetes.io/aws-ebs}
spec:
  drivers:
  - {name: ebs.csi.aws.com, nodeID: i-b1, allocatable: {count: 2}}
  - {name: efs.csi.aws.com, nodeID: i-b1}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-zonal
  labels: {topology.kubernetes.io/zone: a}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}
  claimRef: {namespace: db, name: data-pg}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: [a]}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-logs}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: local
  local: {path: /mnt/logs}
  claimRef: {namespace: db, name: logs}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: kubernetes.io/hostname, operator: In, values: [node-a2]}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-local-b1}
spec:
  capacity: {storage: 20Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: local
  local: {path: /mnt/disk1}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: kubernetes.io/hostname, operator: In, values: [node-b1]}
status: {phase: Available}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-nfs}
spec:
  capacity: {storage: 100Gi}
  accessModes: [ReadWriteMany]
  storageClassName: ""
  nfs: {server: nfs.example, path: /share}
  claimRef: {namespace: db, name: shared}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-pg, namespace: db}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  volumeName: pv-zonal
  resources: {requests: {storage: 10Gi}}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: logs, namespace: db}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: local
  volumeName: pv-logs
  resources: {requests: {storage: 1Gi}}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared, namespace: db}
spec:
  accessModes: [ReadWriteMany]
  storageClassName: ""
  volumeName: pv-nfs
  resources: {requests: {storage: 100Gi}}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: cache, namespace: db}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: queue, namespace: db}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: local
  resources: {requests: {storage: 10Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: legacy, namespace: db}
spec:
  nodeName: node-b1
  containers: [{name: c, image: app, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
  volumes: [{name: disk, awsElasticBlockStore: {volumeID: "aws://b/vol-9"}}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: pg, namespace: db}
spec:
  containers: [{name: c, image: pg, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data-pg}}]
---
apiVersion: v1
kind: Pod
metadata: {name: redis, namespace: db}
spec:
  containers: [{name: c, image: redis, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: cache}}]
---
apiVersion: v1
kind: Pod
metadata: {name: logger, namespace: db}
spec:
  containers: [{name: c, image: fluent, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
  volumes: [{name: logs, persistentVolumeClaim: {claimName: logs}}]
---
apiVersion: v1
kind: Pod
metadata: {name: mq, namespace: db}
spec:
  containers: [{name: c, image: mq, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
  volumes: [{name: q, persistentVolumeClaim: {claimName: queue}}]
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: db}
spec:
  containers: [{name: c, image: web, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
  volumes: [{name: s, persistentVolumeClaim: {claimName: shared}}]
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-files}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  csi: {driver: efs.csi.aws.com, volumeHandle: fs-1}
  claimRef: {namespace: db, name: files}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: [a, b]}
        - {key: kubernetes.io/hostname, operator: NotIn, values: [node-a1]}
      - matchFields:
        - {key: metadata.name, operator: In, values: [node-b1]}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: files, namespace: db}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  volumeName: pv-files
  resources: {requests: {storage: 5Gi}}
status: {phase: Bound}
---
apiVersion: v1
kind: Pod
metadata: {name: indexer, namespace: db}
spec:
  containers: [{name: c, image: idx, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
  volumes: [{name: f, persistentVolumeClaim: {claimName: files}}]
YAML
db="$T/v.db"
"$KPLAN" import -q "$db" "$T/v.yaml" || fail "import the cluster with volumes"

# the tests over a plan of it
volume_tests() {
	before=$(dump "$db")
	"$KPLAN" report --no-timing "$db" >"$T/v.txt"
	is "$?" 0 "report: exit 0"
	# worked out by hand: all 7 pods have volumes and are placed or kept;
	# pinned: indexer, logger, pg by their bound PVs, mq by the run's bind,
	# redis by the run's provisioning (web's NFS PV pins nothing); node-a1
	# holds vol-1 (pg) of its 1, node-b1 vol-9 (legacy's in-tree disk) of
	# its 2 (mq's local PV, web's NFS and indexer's efs are not EBS).  The
	# nodes are the plan's: zone a for pg, node-a2 for logger, node-b1 for
	# mq; redis not on node-a1, which is at its limit.
	is "$(vol_text "$T/v.txt")" "Volumes
-------
pods_with_volumes    7
pinned_pods          5
pinned_claims        5
pinned_bound         3
pinned_bind          1
pinned_provision     1
decisions            2
decisions_bind       1
decisions_provision  1
attach_limits        2
at_limit             1
within_one           1

Volumes: pods pinned
--------------------
pod         claim    pv           binding    pinned by                                                                                                       node
----------  -------  -----------  ---------  --------------------------------------------------------------------------------------------------------------  -------
db/indexer  files    pv-files     bound      topology.kubernetes.io/zone in (a, b) and kubernetes.io/hostname notin (node-a1) or metadata.name in (node-b1)  node-b1
db/logger   logs     pv-logs      bound      kubernetes.io/hostname in (node-a2)                                                                             node-a2
db/mq       queue    pv-local-b1  bind       kubernetes.io/hostname in (node-b1)                                                                             node-b1
db/pg       data-pg  pv-zonal     bound      topology.kubernetes.io/zone in (a); label topology.kubernetes.io/zone=a                                         node-a1
db/redis    cache    provisioned  provision  a new volume for the node (StorageClass gp3, ebs.csi.aws.com)                                                   node-a2

Volumes: the run's decisions
----------------------------
seq  pod       claim  action     pv           node
---  --------  -----  ---------  -----------  -------
  1  db/redis  cache  provision  -            node-a2
  2  db/mq     queue  bind       pv-local-b1  node-b1

Volumes: nodes at or near their CSI attach limit
------------------------------------------------
node     driver           attached  limit  free  status               volumes
-------  ---------------  --------  -----  ----  -------------------  ---------------------
node-a1  ebs.csi.aws.com         1      1     0  at the limit         ebs.csi.aws.com/vol-1
node-b1  ebs.csi.aws.com         1      2     1  one below the limit  ebs.csi.aws.com/vol-9" "text: the four volume sections"
	like "$(cat "$T/v.txt")" "(VolumeBinding's decisions (volume_decision) in order" "text: each section says which tables it reads"
	like "$(sed -n '/^Moves$/,/^Volumes$/p' "$T/v.txt")" "Volumes" "text: the volume sections come after the moves"

	# the numbers against the tables, not the report's SQL
	"$KPLAN" report --format json -o "$T/v.json" -q "$db"
	is "$(json "$T/v.json" 'join ";", map { "$_->{claim} $_->{action} " . ($_->{pv} // "null") . " $_->{node}" } @{$d->{volumes_decisions}}')" \
		"$(q "$db" "SELECT group_concat(claim || ' ' || action || ' ' || COALESCE(pv, 'null') || ' ' || n.name, ';') FROM
			(SELECT * FROM volume_decision WHERE run_id = 1 ORDER BY seq) d JOIN node n ON n.id = d.node_id")" \
		"json: volumes_decisions = volume_decision of the run"
	is "$(json "$T/v.json" 'join ";", map { "$_->{pod} $_->{node}" } @{$d->{volumes_pinned}}')" \
		"$(q "$db" "SELECT group_concat(pod || ' ' || node, ';') FROM (SELECT p.namespace || '/' || p.name AS pod, n.name AS node
			FROM placement pl JOIN pod p ON p.id = pl.pod_id JOIN node n ON n.id = pl.node_id
			WHERE pl.run_id = 1 AND p.name IN ('indexer', 'logger', 'mq', 'pg', 'redis') ORDER BY 1)")" \
		"json: volumes_pinned's nodes = placement's"
	is "$(json "$T/v.json" 'join ";", map { "$_->{node} $_->{driver} $_->{limit}" } @{$d->{volumes_attach}}')" \
		"$(q "$db" "SELECT group_concat(node_name || ' ' || driver || ' ' || allocatable, ';') FROM
			(SELECT * FROM csi_node WHERE allocatable IS NOT NULL ORDER BY allocatable, node_name)")" \
		"json: volumes_attach's limits = csi_node.allocatable"
	is "$(json "$T/v.json" '$d->{volumes}{attach_limits}')" "$(q "$db" "SELECT count(*) FROM csi_node WHERE allocatable IS NOT NULL")" \
		"json: attach_limits = csi_node rows with allocatable"
	is "$(json "$T/v.json" '$d->{volumes}{decisions}')" "$(q "$db" "SELECT count(*) FROM volume_decision WHERE run_id = 1")" \
		"json: decisions = volume_decision rows of the run"
	is "$(json "$T/v.json" '$d->{volumes}{pods_with_volumes}')" \
		"$(q "$db" "SELECT count(DISTINCT v.pod_id) FROM pod_volume v JOIN placement pl ON pl.pod_id = v.pod_id AND pl.run_id = 1
			WHERE pl.action IN ('keep', 'bind', 'move')")" "json: pods_with_volumes = placed or kept pods in pod_volume"
	# the counts are the rows
	is "$(json "$T/v.json" 'my $v = $d->{volumes}; my @p = @{$d->{volumes_pinned}}; my %pods = map { $_->{pod} => 1 } @p;
		join " ", $v->{pinned_claims} == @p ? "ok" : "claims", $v->{pinned_pods} == keys %pods ? "ok" : "pods",
		(map { my $b = $_; $v->{"pinned_$b"} == grep({ $_->{binding} eq $b } @p) ? "ok" : $b } qw(bound bind provision)),
		$v->{decisions} == @{$d->{volumes_decisions}} ? "ok" : "decisions",
		$v->{decisions_bind} + $v->{decisions_provision} == $v->{decisions} ? "ok" : "actions",
		$v->{at_limit} + $v->{within_one} == @{$d->{volumes_attach}} ? "ok" : "attach",
		$v->{at_limit} == grep({ $_->{attached} >= $_->{limit} } @{$d->{volumes_attach}}) ? "ok" : "at"')" \
		"ok ok ok ok ok ok ok ok ok" "json: the counts of volumes are the rows of the three tables"
	is "$(grep -o '"volumes[a-z_]*": *[[{]' "$T/v.json" | tr -d ' [{' | tr '\n' ' ')" \
		'"volumes": "volumes_pinned": "volumes_decisions": "volumes_attach": ' "json: the four volume keys, in order"
	# csv, markdown, html
	"$KPLAN" report --no-timing --format csv "$db" >"$T/v.csv"
	is "$(grep -c '^volumes_pinned,' "$T/v.csv") $(grep -c '^volumes_decisions,' "$T/v.csv") $(grep -c '^volumes_attach,' "$T/v.csv") $(grep -c '^volumes,' "$T/v.csv")" \
		"5 2 2 12" "csv: volumes_pinned 5 rows, volumes_decisions 2, volumes_attach 2, volumes 12 keys"
	is "$(grep '^volumes_pinned,db/redis' "$T/v.csv")" \
		'volumes_pinned,db/redis,cache,provisioned,provision,"a new volume for the node (StorageClass gp3, ebs.csi.aws.com)",node-a2' \
		"csv: a row, quoted where it holds a comma"
	is "$(grep '^volumes_decisions,' "$T/v.csv" | head -1)" "volumes_decisions,1,db/redis,cache,provision,,node-a2" "csv: a provisioned claim has no pv"
	"$KPLAN" report --no-timing --format markdown "$db" >"$T/v.md"
	like "$(cat "$T/v.md")" "| db/pg | data-pg | pv-zonal | bound | topology.kubernetes.io/zone in (a); label topology.kubernetes.io/zone=a | node-a1 |" \
		"markdown: a pinned pod"
	like "$(cat "$T/v.md")" "| node-a1 | ebs.csi.aws.com | 1 | 1 | 0 | at the limit | ebs.csi.aws.com/vol-1 |" "markdown: a node at its limit"
	"$KPLAN" report --no-timing --format html "$db" >"$T/v.html"
	is "$(grep -o '<section id="volumes[a-z_]*">' "$T/v.html" | tr '\n' ' ')" \
		'<section id="volumes"> <section id="volumes_pinned"> <section id="volumes_decisions"> <section id="volumes_attach"> ' \
		"html: a section per volume table, the counts too"
	is "$(grep -o '<tr><th scope="row">[a-z_]*</th><td>[0-9]*</td></tr>' "$T/v.html" | grep -c 'pinned_\|decisions\|attach_limits\|at_limit\|within_one\|pods_with')" \
		12 "html: the counts as a key/value table"
	like "$(cat "$T/v.html")" '<a href="#volumes_attach">Volumes: nodes at or near their CSI attach limit</a>' "html: in the navigation"
	is "$(dump "$db")" "$before" "the database is unchanged by the reports"

	# a database whose runs made no decision has no volume_decision (plan makes it with the first)
	cp "$db" "$T/nodec.db"
	sqlite3 "$T/nodec.db" "DROP TABLE volume_decision" || fail "drop volume_decision"
	run "$KPLAN" report --no-timing "$T/nodec.db"
	is "$rc" 0 "without volume_decision: exit 0"
	printf '%s\n' "$out" >"$T/nodec.txt"
	is "$(vol_text "$T/nodec.txt" | sed -n '/^decisions /p; /^pinned_claims/p; /^Volumes: the run/,/^$/p')" "pinned_claims        3
decisions            0
Volumes: the run's decisions
----------------------------
(none)" "without volume_decision: no decisions, only the claims bound before the run pin"
	is "$(vol_text "$T/nodec.txt" | grep -c '  bound  ')" 3 "without volume_decision: the three bound claims"
}

run "$KPLAN" plan -q "$db"
if [ "$rc" = 0 ]; then
	volume_tests
else
	fail "plan the cluster with volumes: $err"
fi

# ---- no pod volumes: no volume section ----
# storage objects, but no pod uses a volume (pod_volume is empty)
cat >"$T/plain.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata:
  name: node-1
  labels: {kubernetes.io/hostname: node-1, topology.kubernetes.io/zone: a}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: unused, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers: [{name: c, image: web, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
YAML
pdb="$T/plain.db"
"$KPLAN" import -q "$pdb" "$T/plain.yaml" || fail "import the cluster without pod volumes"
"$KPLAN" plan -q "$pdb" || fail "plan the cluster without pod volumes"
is "$(q "$pdb" "SELECT (SELECT count(*) FROM storage_class) || ' ' || (SELECT count(*) FROM pvc) || ' ' || (SELECT count(*) FROM pod_volume)")" \
	"1 1 0" "without pod volumes: the storage tables hold a class and a claim, pod_volume nothing"
for f in text markdown csv json html; do
	"$KPLAN" report --no-timing --format $f "$pdb" >"$T/plain.$f" || fail "report --format $f without pod volumes"
done
is "$(cd "$T" && grep -il 'volumes' plain.text plain.markdown plain.csv plain.json plain.html | wc -l)" 0 "without pod volumes: no volume section in any format"

# ---- a database without the storage tables (imported before them) ----
cp "$pdb" "$T/old.db"
sqlite3 "$T/old.db" "DROP TABLE IF EXISTS volume_decision; DROP TABLE pod_volume; DROP TABLE workload_volume;
	DROP TABLE workload_claim_template; DROP TABLE csi_storage_capacity; DROP TABLE csi_driver; DROP TABLE csi_node;
	DROP TABLE pvc; DROP TABLE pv_label; DROP TABLE pv; DROP TABLE storage_class" || fail "drop the storage tables"
is "$(q "$T/old.db" "SELECT count(*) FROM sqlite_master WHERE name IN ('pv', 'pvc', 'pod_volume', 'csi_node')")" 0 \
	"the old database has no storage tables"
for f in text json csv; do
	run "$KPLAN" report --no-timing --format $f "$T/old.db"
	is "$rc:$out" "0:$(cat "$T/plain.$f")" "without the storage tables: report --format $f exits 0, as before"
done
run "$KPLAN" report --no-timing --format html "$T/old.db"
is "$rc:$(printf %s "$out" | grep -c 'volumes')" "0:0" "without the storage tables: the html report, no volume section"

done_testing
