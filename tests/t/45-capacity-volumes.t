#!/usr/bin/env bash
# 45-capacity-volumes.t — `kplan capacity --pod FILE` of a spec with volumes
# (tests/data/capacity/volumes-*.yaml): the copies carry the spec's volumes as
# the API server and the controllers would give them — a persistentVolumeClaim
# volume the same claim for every copy (a claim bound to a zone pins every
# copy, a ReadWriteOncePod one takes one), an in-tree disk as it is, a generic
# ephemeral volume a claim <copy>-<volume> of its own (owner the copy), a
# StatefulSet's volumeClaimTemplate a claim <template>-<copy> of its own — so
# an answer no longer counts them as if they had none.  Every number is worked
# out by hand below.  The imported tables are untouched; a database made
# before the storage tables (or their later columns) still answers.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/capacity"
zdb="$T/z.db"
adb="$T/a.db"
"$KPLAN" import -q "$zdb" "$D/volumes-zones.yaml" || fail "import volumes-zones.yaml"
"$KPLAN" import -q "$adb" "$D/volumes-attach.yaml" || fail "import volumes-attach.yaml"
q1() { q "$@" | sed -e 's/^"\(.*\)"$/\1/' -e 's/""/"/g'; }
dump() { sqlite3 "$1" ".dump pvc pod_volume workload_volume workload_claim_template pod pod_class pv"; }
dump "$zdb" >"$T/z-before.sql"
dump "$adb" >"$T/a-before.sql"
pernode() { # pernode DB: node:replicas of the latest answer
	q1 "$1" "SELECT group_concat(node || ':' || replicas, ' ') FROM (SELECT * FROM capacity_node
	         WHERE capacity_id = (SELECT max(id) FROM capacity_run) ORDER BY node)"
}
json() { printf '%s' "$out" | python3 -c "import json,sys; a = json.load(sys.stdin); $1" 2>&1; }

# ---- a claim bound to a PV in zone a (volumes-zones.yaml) ----
# Four 4-cpu nodes, nothing bound: a 1-cpu pod without volumes fits 4 per node,
# 16 in all (and 16 + 1 = 17 are tried).
run "$KPLAN" capacity "$zdb" --pod "$D/pod-1cpu.yaml"
like "$out" "16 more replicas of $D/pod-1cpu.yaml (requests: cpu 1, memory 1Gi) fit" "no volumes: 16 fit (4 nodes x 4 cpu)"
# With claim data, every copy uses data, bound to pv-data (node affinity zone
# a): VolumeBinding refuses zb1 and zb2, so za1 and za2 take 4 each: 8; the 9th
# finds za full (cpu) and zb in the wrong zone.
run "$KPLAN" capacity "$zdb" --pod "$D/pod-claim.yaml" --format json
is "$rc" 0 "claim data: exit 0"
is "$(json 'print(a["fits"], a["tried"], " ".join("%s:%d" % (n["node"], n["replicas"]) for n in a["nodes"]))')" "8 17 za1:4 za2:4" \
	"claim data (bound to a PV in zone a): 8 fit, all in zone a (4 on za1, 4 on za2), not 16"
is "$(json 'print(a["next_reason"].split(". preemption")[0])')" \
	"0/4 nodes are available: 2 Insufficient cpu, 2 node(s) didn't match PersistentVolume's node affinity" \
	"claim data: the 9th: zone a full, zone b in conflict with the PV's node affinity"
is "$(pernode "$zdb")" "za1:4 za2:4" "claim data: capacity_node"

# ReadWriteOncePod claim solo: the first copy holds it, every other copy is
# refused on every node (VolumeRestrictions counts the claim cluster-wide): 1.
run "$KPLAN" capacity "$zdb" --pod "$D/pod-solo.yaml"
like "$out" "1 more replica of $D/pod-solo.yaml (requests: cpu 1, memory 1Gi) fits" "ReadWriteOncePod claim: 1 fits"
like "$out" "the next one does not fit: 0/4 nodes are available: 4 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode." \
	"ReadWriteOncePod claim: the second copy's reason"

# a claim the database does not have: no copy fits, as kube refuses the pod
sed 's/claimName: data/claimName: missing/' "$D/pod-claim.yaml" >"$T/pod-missing.yaml"
run "$KPLAN" capacity "$zdb" --pod "$T/pod-missing.yaml" --no-record
like "$out" "0 more replicas of $T/pod-missing.yaml" "a claim not in the database: 0 fit"
like "$out" 'the next one does not fit: 0/4 nodes are available: persistentvolumeclaim "missing" not found.' \
	"a claim not in the database: kube's reason"

# an in-tree EBS disk, copied as it is: every copy has volumeID vol-shared,
# which VolumeRestrictions lets one pod per node have: 4 (one per node).
run "$KPLAN" capacity "$zdb" --pod "$D/pod-ebs-disk.yaml"
like "$out" "4 more replicas of $D/pod-ebs-disk.yaml" "in-tree EBS disk: 4 fit, one per node"
like "$out" "the next one does not fit: 0/4 nodes are available: 4 node(s) had no available disk." "in-tree EBS disk: the 5th's reason"
is "$(pernode "$zdb")" "za1:1 za2:1 zb1:1 zb2:1" "in-tree EBS disk: one per node"

# ---- what the copies carry, seen by a SQL filter extender ----
# volumes-probe.yaml rejects the third copy with its volumes and the claims
# the scenario made (name:request:class:owner:generated:bind-completed) as the
# reason; --max 4, so claims exist for copies 1 to 4.  No node of
# volumes-zones.yaml has an attach limit, so only the extender refuses the
# copies with claims of their own.
probe="$D/volumes-probe.yaml"
reason() { printf '%s\n' "$out" | sed -n 's/^the next one does not fit: 0\/4 nodes are available: 4 \(.*\)\. preemption: .*/\1/p'; }
run "$KPLAN" capacity "$zdb" --pod "$D/pod-claim.yaml" --config "$probe" --max 4 --no-record
like "$out" "0/4 nodes are available: 2 node(s) didn't match PersistentVolume's node affinity, 2 volumes data:pvc:data:0 claims -." \
	"probe, claim data: the copy uses claim data itself (zone b refused before the extender); no claim is made"
run "$KPLAN" capacity "$zdb" --pod "$D/pod-ephemeral.yaml" --config "$probe" --max 4 --no-record
is "$(reason)" "volumes scratch:ephemeral:eph-capacity-3-scratch:0 claims eph-capacity-1-scratch:1073741824:ebs:Pod/eph-capacity-1:1:0 eph-capacity-2-scratch:1073741824:ebs:Pod/eph-capacity-2:1:0 eph-capacity-3-scratch:1073741824:ebs:Pod/eph-capacity-3:1:0 eph-capacity-4-scratch:1073741824:ebs:Pod/eph-capacity-4:1:0" \
	"probe, ephemeral volume: each copy its claim <copy>-scratch, from the template (1Gi, ebs), owned by the copy, generated, not bind-completed; the configMap is not stored"
run "$KPLAN" capacity "$zdb" --pod "$D/sts-claims.yaml" --config "$probe" --max 4 --no-record
is "$(reason)" "volumes cache:ephemeral:pg-capacity-3-cache:0 data:pvc:data-pg-capacity-3:0 claims pg-capacity-1-cache:1073741824:ebs:Pod/pg-capacity-1:1:0 data-pg-capacity-1:5368709120:ebs:StatefulSet/pg:1:0 pg-capacity-2-cache:1073741824:ebs:Pod/pg-capacity-2:1:0 data-pg-capacity-2:5368709120:ebs:StatefulSet/pg:1:0 pg-capacity-3-cache:1073741824:ebs:Pod/pg-capacity-3:1:0 data-pg-capacity-3:5368709120:ebs:StatefulSet/pg:1:0 pg-capacity-4-cache:1073741824:ebs:Pod/pg-capacity-4:1:0 data-pg-capacity-4:5368709120:ebs:StatefulSet/pg:1:0" \
	"probe, StatefulSet: each copy its claim data-<copy> from the volumeClaimTemplate (5Gi, owner the set; in place of the template's emptyDir data) and its ephemeral <copy>-cache"

# ---- attach limits (volumes-attach.yaml) ----
# Two 8-cpu nodes: 16 1-cpu pods without volumes.  Each copy's ephemeral
# claim is its own WaitForFirstConsumer volume of ebs.csi.aws.com, which the
# CSINode of each node allows 2 of: 2 per node, 4 in all.
run "$KPLAN" capacity "$adb" --pod "$D/pod-1cpu.yaml"
like "$out" "16 more replicas of $D/pod-1cpu.yaml" "attach: without volumes 16 fit (2 nodes x 8 cpu)"
run "$KPLAN" capacity "$adb" --pod "$D/pod-ephemeral.yaml" --format json
is "$(json 'print(a["fits"], a["tried"], " ".join("%s:%d" % (n["node"], n["replicas"]) for n in a["nodes"]), a["next_reason"].split(". preemption")[0])')" \
	"4 17 n1:2 n2:2 0/2 nodes are available: 2 node(s) exceed max volume count" \
	"attach: an ephemeral volume per copy, 2 attachable per node: 4 fit (2 per node), the 5th exceeds the count"
is "$(json 'print(a["quality"]["pools"][0]["bound_by"])')" "requests:attach:ebs.csi.aws.com" \
	"attach: the certificate sees the attach slots as what binds"
run "$KPLAN" capacity "$adb" --pod "$D/deploy-ephemeral.yaml"
like "$out" "4 more replicas of $D/deploy-ephemeral.yaml" "attach: a Deployment's template with an ephemeral volume: 4"
is "$(pernode "$adb")" "n1:2 n2:2" "attach: Deployment, 2 per node"
# the StatefulSet: two attachable claims per copy (data-<copy>, <copy>-cache): 1 per node
run "$KPLAN" capacity "$adb" --pod "$D/sts-claims.yaml"
like "$out" "2 more replicas of $D/sts-claims.yaml" "attach: a StatefulSet copy with two claims of the driver: 2 fit (1 per node)"
like "$out" "the next one does not fit: 0/2 nodes are available: 2 node(s) exceed max volume count." "attach: StatefulSet, the 3rd's reason"
is "$(pernode "$adb")" "n1:1 n2:1" "attach: StatefulSet, 1 per node"

dump "$zdb" >"$T/now.sql"
cmp -s "$T/z-before.sql" "$T/now.sql"
ok $? "zones: the imported storage, pod and class tables are byte-identical"
dump "$adb" >"$T/now.sql"
cmp -s "$T/a-before.sql" "$T/now.sql"
ok $? "attach: the imported storage, pod and class tables are byte-identical"

# ---- a database made before the later storage columns: the copies of the tables get them ----
odb="$T/old-cols.db"
"$KPLAN" import -q "$odb" "$D/volumes-attach.yaml"
sqlite3 "$odb" "ALTER TABLE pod_volume DROP COLUMN monitors; ALTER TABLE workload_volume DROP COLUMN monitors;
	ALTER TABLE workload_claim_template DROP COLUMN attributes_class; ALTER TABLE pvc DROP COLUMN bind_completed;
	ALTER TABLE pvc DROP COLUMN attributes_class"
run "$KPLAN" capacity "$odb" --pod "$D/pod-ephemeral.yaml" --no-record
is "$rc" 0 "older storage columns: exit 0"
like "$out" "4 more replicas of $D/pod-ephemeral.yaml" "older storage columns: 4, as on a new database"
is "$(sqlite3 "$odb" "SELECT count(*) FROM pragma_table_info('pvc') WHERE name IN ('bind_completed', 'attributes_class')")" 0 \
	"older storage columns: the database itself is not changed"

# ---- a database made before the storage tables: the copies have no volumes, as before ----
ndb="$T/no-storage.db"
"$KPLAN" import -q "$ndb" "$D/volumes-zones.yaml"
sqlite3 "$ndb" "DROP TABLE pod_volume; DROP TABLE pvc; DROP TABLE workload_volume; DROP TABLE workload_claim_template;
	DROP TABLE pv_label; DROP TABLE pv; DROP TABLE storage_class; DROP TABLE csi_node; DROP TABLE csi_node_info;
	DROP TABLE csi_driver; DROP TABLE csi_storage_capacity"
for f in pod-claim pod-ephemeral sts-claims; do
	run "$KPLAN" capacity "$ndb" --pod "$D/$f.yaml"
	is "$rc" 0 "no storage tables, $f: exit 0"
	like "$out" "16 more replicas of $D/$f.yaml" "no storage tables, $f: 16, as without volumes (the database knows no claim)"
done
is "$(sqlite3 "$ndb" "SELECT count(*) FROM sqlite_schema WHERE name IN ('pvc', 'pod_volume')")" 0 "no storage tables: none made"

done_testing
