#!/usr/bin/env bash
# 42-whatif-volumes.t — `kplan plan --scale` of workloads with volumes
# (tests/data/whatif/volumes.yaml): an added replica gets its template's
# volumes and the claims its controllers make, as the importer gives a
# generated pod them (ephemeral <pod>-<volume> owned by the pod; a
# StatefulSet's <template>-<set>-<ordinal>, made only when no claim of that
# name exists); a removed replica's volumes and its ephemeral claims go, a
# StatefulSet's claims stay (Retain); replicas added and removed again leave
# nothing; the imported tables are unchanged; databases made before the
# storage tables or their later columns.
#
# The scenario lives in TEMP tables of the run's connection; a SQL filter
# extender (tests/data/whatif/volumes-probe.yaml), which sees the scenario,
# turns what the run sees into the reasons of pods it rejects: `probe` lists
# every claim (name:flags:owner; g generated, n made by the scenario),
# `probe-new` the claims the scenario made (name:request:class:attributes
# class:bind-completed:batch), every other pending pod with volumes its
# volumes (name:kind:claim:read-only:monitors).
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/whatif"
db="$T/v.db"
"$KPLAN" import -q "$db" "$D/volumes.yaml" || fail "import volumes.yaml"
cfg="$D/volumes-probe.yaml"

# what the extender said about POD in the latest run (its reason, without kube's frame)
seen() { q "${2:-$db}" "SELECT reason FROM plan WHERE pod = '$1'" | sed -e 's/^"//' -e 's/"$//' \
	-e 's/^0\/[0-9]* nodes are available: [0-9]* //' -e 's/\. preemption: .*//'; }
# every imported storage table, as SQL text: a what-if run must leave them byte for byte
dump() { sqlite3 "$1" ".dump pvc pod_volume workload_volume workload_claim_template pod"; }
dump "$db" >"$T/before.sql"
web0=$(q "$db" "SELECT name FROM pod WHERE name LIKE 'web-%'")
added_web() { q "$db" "SELECT name FROM run_pod WHERE change = 'added' AND name LIKE 'web-%' AND run_id = (SELECT max(id) FROM run)"; }

run "$KPLAN" plan -q --config "$cfg" "$db"
is "$rc" 0 "baseline plan with the probe extender"
is "$(seen probe)" "claims data-pg-0:g:sts/pg data-pg-1:g:sts/pg data-pg-3::- pg-0-scratch:g:pod/pg-0 pg-1-scratch:g:pod/pg-1 $web0-cache:g:pod/$web0" \
	"baseline: the claims import generated, and the imported data-pg-3"
is "$(seen probe-new)" "new -" "baseline: no claim made by a scenario"

# --- scale up a StatefulSet and a Deployment
run "$KPLAN" plan -q --config "$cfg" --scale db/pg=4 --scale db/web=2 "$db"
is "$rc" 0 "--scale db/pg=4 --scale db/web=2 exits 0"
web1=$(added_web)
is "$(seen pg-2)" "volumes ceph:intree:-:1:m1,m2 data:pvc:data-pg-2:0:- scratch:ephemeral:pg-2-scratch:0:-" \
	"added replica pg-2: the template's volumes (rbd with its monitors, ephemeral <pod>-<volume>) and a claim volume per volumeClaimTemplate"
is "$(seen pg-3)" "volumes ceph:intree:-:1:m1,m2 data:pvc:data-pg-3:0:- scratch:ephemeral:pg-3-scratch:0:-" \
	"added replica pg-3: the same, its claim data-pg-3"
is "$(seen "$web1")" "volumes cache:ephemeral:$web1-cache:0:-" "added Deployment replica: its ephemeral volume's claim <pod>-cache"
is "$(seen probe)" "claims data-pg-0:g:sts/pg data-pg-1:g:sts/pg data-pg-2:gn:sts/pg data-pg-3::- pg-0-scratch:g:pod/pg-0 pg-1-scratch:g:pod/pg-1 pg-2-scratch:gn:pod/pg-2 pg-3-scratch:gn:pod/pg-3 $web0-cache:g:pod/$web0 $web1-cache:gn:pod/$web1" \
	"claims made: data-pg-2 (owner StatefulSet), the ephemeral ones (owner Pod), generated, negative ids; data-pg-3 exists, so it is not made"
is "$(seen probe-new)" "new pg-2-scratch:1073741824:fast:eph:0:1 data-pg-2:10737418240:fast:gold:0:1 pg-3-scratch:1073741824:fast:eph:0:1 $web1-cache:2147483648:fast:-:0:1" \
	"the claims made take their template's spec (request, class, attributes class), are not bind-completed, ids ascend in creation order"
dump "$db" >"$T/now.sql"
cmp -s "$T/before.sql" "$T/now.sql"
ok $? "scale up: the imported tables are byte-identical"

# --- scale down: volumes and ephemeral claims go, StatefulSet claims stay
run "$KPLAN" plan -q --config "$cfg" --scale db/pg=1 --scale db/web=0 "$db"
is "$rc" 0 "--scale db/pg=1 --scale db/web=0 exits 0"
is "$(seen probe)" "claims data-pg-0:g:sts/pg data-pg-1:g:sts/pg data-pg-3::- pg-0-scratch:g:pod/pg-0" \
	"scale down: pg-1's and the web replica's ephemeral claims go with them, data-pg-1 stays (Retain)"
is "$(q "$db" "SELECT group_concat(pod, ' ') FROM (SELECT pod FROM plan WHERE pod LIKE 'pg-%' OR pod LIKE 'web-%' ORDER BY pod)")" "pg-0" \
	"only pg-0 is left"

# --- added and removed again in one scenario: nothing of them is left
run "$KPLAN" plan -q --config "$cfg" --scale db/pg=4 --scale db/pg=1 "$db"
is "$rc" 0 "--scale db/pg=4 --scale db/pg=1 exits 0"
is "$(seen probe)" "claims data-pg-0:g:sts/pg data-pg-1:g:sts/pg data-pg-2:gn:sts/pg data-pg-3::- pg-0-scratch:g:pod/pg-0 $web0-cache:g:pod/$web0" \
	"replicas added then removed: their ephemeral claims are gone, the StatefulSet claim made for pg-2 stays"
is "$(seen probe-new)" "new data-pg-2:10737418240:fast:gold:0:1" "probe-new: only data-pg-2 is left of the claims made"
is "$(seen pg-0)" "volumes ceph:intree:-:1:m1,m2 data:pvc:data-pg-0:0:- scratch:ephemeral:pg-0-scratch:0:-" "pg-0 keeps its volumes"
dump "$db" >"$T/now.sql"
cmp -s "$T/before.sql" "$T/now.sql"
ok $? "scale down: the imported tables are byte-identical"
# explain replays the scenario, claims included
run "$KPLAN" explain "$db" db/probe-new
is "$rc" 0 "explain replays a what-if run of a workload with volumes"
like "$out" "SQLExtender: new data-pg-2:10737418240:fast:gold:0:1" "and sees the claims as the run did"

run "$KPLAN" plan -q --config "$cfg" --scale db/pg=2 "$db"
is "$(seen probe-new)" "new -" "scaling to the current size makes nothing"

# --- a database made before the later storage columns: the scenario's copies get them
odb="$T/old-cols.db"
"$KPLAN" import -q "$odb" "$D/volumes.yaml"
sqlite3 "$odb" "ALTER TABLE pod_volume DROP COLUMN monitors; ALTER TABLE workload_volume DROP COLUMN monitors;
	ALTER TABLE workload_claim_template DROP COLUMN attributes_class; ALTER TABLE pvc DROP COLUMN bind_completed;
	ALTER TABLE pvc DROP COLUMN attributes_class"
run "$KPLAN" plan -q --config "$cfg" --scale db/pg=3 "$odb"
is "$rc" 0 "storage tables without the later columns: --scale exits 0"
is "$(seen pg-2 "$odb")" "volumes ceph:intree:-:1:- data:pvc:data-pg-2:0:- scratch:ephemeral:pg-2-scratch:0:-" \
	"the added replica's volumes (no monitors: the database has none)"
is "$(seen probe-new "$odb")" "new pg-2-scratch:1073741824:fast:eph:0:1 data-pg-2:10737418240:fast:-:0:1" \
	"its claims (the ephemeral one's attributes class is in its JSON spec)"
is "$(sqlite3 "$odb" "SELECT count(*) FROM pragma_table_info('pvc') WHERE name IN ('bind_completed', 'attributes_class')")" 0 \
	"the database itself is not changed"

# --- a database made before the storage tables: --scale works as before
ndb="$T/no-storage.db"
"$KPLAN" import -q "$ndb" "$D/cluster.yaml"
sqlite3 "$ndb" "DROP TABLE pod_volume; DROP TABLE pvc; DROP TABLE workload_volume; DROP TABLE workload_claim_template"
run "$KPLAN" plan -q --scale shop/db=4 "$ndb"
is "$rc" 0 "no storage tables: --scale exits 0"
is "$(q "$ndb" "SELECT count(*) FROM run_pod WHERE change = 'added' AND run_id = (SELECT max(id) FROM run)")" 1 "and adds its replica"

done_testing
