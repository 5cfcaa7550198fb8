#!/usr/bin/env bash
# 45-capacity-dra.t — DRA claims of the pods a what-if adds
# (tests/data/capacity/dra-*.yaml): `capacity --pod` copies and `plan
# --scale` replicas get the spec's resourceClaims as the importer gives a
# generated pod them — a resourceClaimName entry the same claim (every copy
# shares it), a resourceClaimTemplateName entry a claim of its own
# (<pod>-<entry>-xxxxx, owned by the pod, the template's spec) — in TEMP
# copies of pod_resource_claim and resource_claim; scale-down drops a
# removed replica's claims.  Two 8-cpu nodes with two GPUs each: every
# number is worked out by hand below.  The imported tables are untouched; a
# read-only database works; one without the DRA tables answers as before.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/capacity"
db="$T/g.db"
idb="$T/i.db"
"$KPLAN" import -q "$db" "$D/dra-gpus.yaml" || fail "import dra-gpus.yaml"
"$KPLAN" import -q "$idb" "$D/dra-gpus.yaml" "$D/dra-infer.yaml" || fail "import dra-infer.yaml"
cfg="$D/dra-probe.yaml"
dump() { sqlite3 "$1" ".dump resource_claim pod_resource_claim workload_resource_claim claim_spec pod"; }
dump "$db" >"$T/g-before.sql"
dump "$idb" >"$T/i-before.sql"
pernode() { # node:replicas of the latest answer
	q "$1" "SELECT group_concat(node || ':' || replicas, ' ') FROM (SELECT * FROM capacity_node
	        WHERE capacity_id = (SELECT max(id) FROM capacity_run) ORDER BY node)" | tr -d '"'
}

# ---- capacity --pod ----
# cpu alone: 8 cpu per node, 1 cpu per copy: 16.
run "$KPLAN" capacity "$db" --pod "$D/pod-1cpu.yaml"
like "$out" "16 more replicas of $D/pod-1cpu.yaml" "no claims: 16 fit (2 nodes x 8 cpu)"
# one GPU from template gpu-1 per copy, each copy its own claim: 2 GPUs per
# node, 4 in all; the 5th finds every GPU taken.
run "$KPLAN" capacity "$db" --pod "$D/pod-gpu1.yaml"
like "$out" "4 more replicas of $D/pod-gpu1.yaml (requests: cpu 1, memory 1Gi) fit" "template gpu-1: 4 fit (2 GPUs x 2 nodes), not 16"
like "$out" "the next one does not fit: 0/2 nodes are available: 2 cannot allocate all claims." "template gpu-1: the 5th's reason"
is "$(pernode "$db")" "n1:2 n2:2" "template gpu-1: 2 per node"
# two GPUs per copy (template gpu-2): one copy per node, 2.
run "$KPLAN" capacity "$db" --pod "$D/pod-gpu2.yaml"
like "$out" "2 more replicas of $D/pod-gpu2.yaml (requests: cpu 1, memory 1Gi) fit" "template gpu-2 (2 GPUs): 2 fit"
is "$(pernode "$db")" "n1:1 n2:1" "template gpu-2: one per node"
# a Deployment's template naming gpu-1: as the Pod, 4.
run "$KPLAN" capacity "$db" --pod "$D/deploy-gpu1.yaml"
like "$out" "4 more replicas of $D/deploy-gpu1.yaml" "a workload template naming gpu-1: 4 fit"
# the shared claim (one GPU): the first copy allocates it on one node; every
# copy uses the same claim, so all go to that node, as many as its cpu
# allows: 8; the 9th finds that node full and the other off the claim's node.
run "$KPLAN" capacity "$db" --pod "$D/pod-shared-gpu.yaml"
like "$out" "8 more replicas of $D/pod-shared-gpu.yaml" "resourceClaimName shared: 8 fit (they share one GPU)"
like "$out" "0/2 nodes are available: 1 Insufficient cpu, 1 resourceclaim not available on the node." "shared: the 9th's reason"
case "$(pernode "$db")" in "n1:8"|"n2:8") pass "shared: all 8 on one node" ;; *) fail "shared: all 8 on one node ($(pernode "$db"))" ;; esac

# what the copies carry, seen by the probe (copy 3 rejected; --max 4): each
# copy's entry names a claim of its own, generated, owned by it, with the
# template's spec, made by the scenario, named <copy>-gpu-xxxxx; 2 imported
# (infer's) + 4 made = 6 generated
reason() { printf '%s\n' "$out" | sed -n 's/^the next one does not fit: .* 1 \(entries [^.,]*\)[.,].*/\1/p'; }
run "$KPLAN" capacity "$idb" --pod "$D/pod-gpu1.yaml" --config "$cfg" --max 4 --no-record
is "$(reason)" "entries gpu:generated:gpu-1:g1/o1/s1/n1/p1 generated 6 new 4" "probe, template: a claim per copy, as the importer makes them"
like "$out" "3 more replicas of $D/pod-gpu1.yaml" "probe, template: 3 of 4 (the probe rejects copy 3; infer's 2 pending pods are rejected too)"
run "$KPLAN" capacity "$idb" --pod "$D/pod-shared-gpu.yaml" --config "$cfg" --max 4 --no-record
is "$(reason)" "entries gpu:spec:-:shared generated 2 new 0" "probe, resourceClaimName: the copy uses claim shared; no claim is made"

# ---- plan --scale ----
# train (template gpu-1) 0 -> 5: four replicas get a GPU, the fifth none.
run "$KPLAN" plan "$db" --scale default/train=5
is "$rc" 0 "--scale train=5: exit 0"
like "$out" "5 pending pods: 4 placed, 1 unschedulable" "--scale train=5: 4 placed, 1 unschedulable"
is "$(q "$db" "SELECT group_concat(action || ':' || COALESCE(node, '-'), ' ') FROM (SELECT * FROM plan WHERE run_id = (SELECT max(id) FROM run) ORDER BY action, node)")" \
	"bind:n1 bind:n1 bind:n2 bind:n2 unschedulable:-" "--scale train=5: two per node"
like "$(q "$db" "SELECT reason FROM plan WHERE action = 'unschedulable' AND run_id = (SELECT max(id) FROM run)")" \
	"0/2 nodes are available: 2 cannot allocate all claims." "--scale train=5: the fifth cannot allocate its claim"
# the claims match the importer's: import train with 5 replicas and compare
sed 's/replicas: 0/replicas: 5/' "$D/dra-gpus.yaml" >"$T/g5.yaml"
"$KPLAN" import -q "$T/g5.db" "$T/g5.yaml" || fail "import g5.yaml"
bound=$(q "$db" "SELECT group_concat(quote(pod), ',') FROM plan WHERE action = 'bind' AND run_id = (SELECT max(id) FROM run)" | sed -e 's/^"//' -e 's/"$//' -e 's/""/"/g')
is "$(q "$db" "SELECT group_concat(claim, ' ') FROM (SELECT claim FROM dra_allocation WHERE run_id = (SELECT max(id) FROM run) ORDER BY claim)")" \
	"$(q "$T/g5.db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM resource_claim WHERE generated = 1 AND owner_name IN ($bound) ORDER BY name)")" \
	"--scale: the placed replicas allocated their own claims, named as the importer names them"

# scale-down (infer: 2 pending replicas, each with its generated claim)
seen() { q "$idb" "SELECT group_concat(r, ' | ') FROM (SELECT substr(reason, instr(reason, 'entries'), instr(reason, '. preemption') - instr(reason, 'entries')) AS r
	FROM plan WHERE run_id = (SELECT max(id) FROM run) ORDER BY pod)" | tr -d '"'; }
run "$KPLAN" plan -q --config "$cfg" "$idb"
is "$(seen)" "entries gpu:generated:gpu-1:g1/o1/s1/n0/p1 generated 2 new 0 | entries gpu:generated:gpu-1:g1/o1/s1/n0/p1 generated 2 new 0" \
	"baseline: infer's 2 imported claims"
run "$KPLAN" plan -q --config "$cfg" "$idb" --scale default/infer=1
is "$(seen)" "entries gpu:generated:gpu-1:g1/o1/s1/n0/p1 generated 1 new 0" "infer 2 -> 1: the removed replica's claim goes"
run "$KPLAN" plan -q --config "$cfg" "$idb" --scale default/infer=3
like "$(seen)" "entries gpu:generated:gpu-1:g1/o1/s1/n1/p1 generated 3 new 1" "infer 2 -> 3: the new replica gets its own claim"
run "$KPLAN" plan -q --config "$cfg" "$idb" --scale default/infer=4 --scale default/infer=1
is "$(seen)" "entries gpu:generated:gpu-1:g1/o1/s1/n1/p1 generated 1 new 1" \
	"infer 2 -> 4 -> 1: the three removed replicas' claims go (one new replica stays, with its claim)"

# ---- the imported tables are untouched; a read-only database works ----
dump "$db" >"$T/now.sql"
cmp -s "$T/g-before.sql" "$T/now.sql" && pass "g.db: DRA tables and pods unchanged" || fail "g.db: DRA tables and pods unchanged"
dump "$idb" >"$T/now.sql"
cmp -s "$T/i-before.sql" "$T/now.sql" && pass "i.db: DRA tables and pods unchanged" || fail "i.db: DRA tables and pods unchanged"
cp "$db" "$T/ro.db" && chmod a-w "$T/ro.db"
run "$KPLAN" capacity "$T/ro.db" --pod "$D/pod-gpu1.yaml" --no-record
like "$out" "4 more replicas of $D/pod-gpu1.yaml" "read-only database: 4 fit"

# ---- a database without the DRA tables: as before them ----
ndb="$T/n.db"
grep -v '^#' "$D/dra-gpus.yaml" | awk 'BEGIN{RS="---\n"; ORS="---\n"} /kind: Node\n/' >"$T/nodes.yaml"
"$KPLAN" import -q "$ndb" "$T/nodes.yaml" || fail "import nodes.yaml"
sqlite3 "$ndb" "DROP VIEW dra_cel; DROP TABLE device_class; DROP TABLE device_class_selector; DROP TABLE resource_slice;
	DROP TABLE slice_counter; DROP TABLE slice_device; DROP TABLE device_attribute; DROP TABLE device_capacity; DROP TABLE device_counter;
	DROP TABLE device_taint; DROP TABLE claim_spec; DROP TABLE claim_request; DROP TABLE claim_request_selector;
	DROP TABLE claim_request_toleration; DROP TABLE claim_request_capacity; DROP TABLE claim_constraint; DROP TABLE resource_claim;
	DROP TABLE resource_claim_result; DROP TABLE resource_claim_consumed; DROP TABLE resource_claim_reserved;
	DROP TABLE resource_claim_template; DROP TABLE pod_resource_claim; DROP TABLE workload_resource_claim;
	DROP TABLE IF EXISTS dra_allocation" || fail "setup: drop the DRA tables"
is "$(q "$ndb" "SELECT count(*) FROM sqlite_schema WHERE name IN ('resource_claim', 'pod_resource_claim')")" 0 "setup: no DRA tables"
run "$KPLAN" capacity "$ndb" --pod "$D/pod-gpu1.yaml" --no-record
is "$rc" 0 "no DRA tables: exit 0${err:+ ($err)}"
like "$out" "16 more replicas of $D/pod-gpu1.yaml" "no DRA tables: the copies name no claims: 16, as cpu allows"
done_testing
