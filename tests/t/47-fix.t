#!/usr/bin/env bash
# 47-fix.t — `kplan fix` (why-not with the fix) on small hand-made clusters
# (tests/data/fix, see cluster.yaml) with the answers worked out by hand:
# evicting the one lowest-priority pod that frees enough cpu (victim and node);
# a PDB that forbids it, so the next pod (or, when every eviction is
# forbidden, a relaxed taint or an added node) is the fix; a pod blocked only
# by a taint; a nodeSelector key, a spread maxSkew, a pod anti-affinity term,
# one required node affinity expression and the whole required node affinity
# relaxed; a pod with no fix; the fix table and the report section; errors
# and exit codes; the imported tables and run/placement untouched.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/fix"
q1() { q "$@" | sed -e 's/^"\(.*\)"$/\1/' -e 's/""/"/g'; }
INPUTS="meta import_batch namespace% node node_resource node_label node_taint node_image pod_class class% pod pod_label
	priority_class pdb service workload scheduler_config run placement pod_failure eviction run_warning plan_quality"
inputs() { sqlite3 "$1" ".dump $INPUTS"; }
mk() {   # mk NAME FILES...: import and plan (no preemption) into $T/NAME.db
	local db="$T/$1.db"
	shift
	"$KPLAN" import -q "$db" "$D/cluster.yaml" "$@" || fail "import $*"
	"$KPLAN" plan -q --no-preemption "$db" || fail "plan $db"
}
# rows DB: each pod's best fix (rank 1); ranks DB: every candidate, as pod:rank:level
rows() { q1 "$1" "SELECT group_concat(pod || '|' || kind || '|' || victims || '|' || checked || '|' || result_node, ' ') FROM (SELECT * FROM fix WHERE rank = 1 ORDER BY pod)"; }
ranks() { q1 "$1" "SELECT group_concat(pod || ':' || rank || ':' || level, ' ') FROM (SELECT * FROM fix ORDER BY pod, rank)"; }

# 1. big (2 cpu, priority high) fits nowhere: n1 and n2 have 1 cpu free, n3 is
# tainted.  On n1, lo-b (1 cpu, priority lowest) goes first and frees enough:
# evict 1 pod.  huge (8 cpu) fits on no node, with or without anything.
mk a "$D/big.yaml" "$D/huge.yaml"
db="$T/a.db"
inputs "$db" >"$T/a.sql"
run "$KPLAN" fix "$db"
is "$rc" 0 "fix: exit 0"
like "$out" "fix run 1: 1 of 2 unschedulable pods examined has a fix" "summary line"
like "$out" "default/big [evict]: evict 1 lower-priority pod on n1: default/lo-b; checked: fits on n1" "big: evict lo-b on n1"
like "$out" "default/huge: no fix found (tried: evicting lower-priority pods, relaxing one taint or constraint)" "huge: no fix, said so"
is "$(rows "$db")" 'big|evict|["default/lo-b"]|1|n1' "fix table: big's best is the eviction (none for huge)"
is "$(ranks "$db")" 'big:1:evict big:2:untaint-dedicated' \
	"big's candidates: evict, then untaint n3 (dedicated=gpu, a role big does not select) last"
like "$out" "    then [untaint-dedicated]: remove taint dedicated=gpu:NoSchedule from n3 (last resort: n3 is dedicated to dedicated=gpu, which this pod does not select); checked: fits on n3" \
	"text: the second candidate, ranked last, says why"
like "$out" "baseline: run 1's options (seed 1, preemption off as in the run, configuration: default; kube 1.37) plus each change" \
	"text: the baseline"
like "$out" "hint: for 1 pod nothing short of untainting a dedicated node was found: --node-template FILE" \
	"no template and a pod without a fix: the hint"
inputs "$db" >"$T/now.sql"
cmp -s "$T/a.sql" "$T/now.sql"
ok $? "imported tables and run/placement unchanged"
run "$KPLAN" fix "$db" --node-template "$D/node-4cpu.yaml"
like "$out" "default/huge: no fix found (tried: evicting lower-priority pods, adding a node, relaxing one taint or constraint)" \
	"huge: a 4-cpu node does not help either"
is "$(ranks "$db")" 'big:1:add-node big:2:evict big:3:untaint-dedicated' \
	"a second fix of the run replaces its rows; with a template, adding a node ranks first"
unlike "$out" "hint:" "with a template: no hint"
run "$KPLAN" fix "$db" --format json
is "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); f=d["pods"][0]["fix"]; print(d["fixed"], f["kind"], f["victims"][0], f["result_node"], d["pods"][1]["fix"])' 2>&1)" \
	"1 evict default/lo-b n1 None" "--format json parses: big's fix, huge's null"
run "$KPLAN" fix "$db" --limit 1 -q
is "$rc:$out" "0:" "-q: nothing printed"
run "$KPLAN" fix "$db" --limit 1 -q --format json
is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["examined"])' 2>&1)" 1 \
	"-q --format json: the JSON is printed all the same"
is "$(rows "$db")" 'big|evict|["default/lo-b"]|1|n1' "--limit 1: big only (queue order)"
run "$KPLAN" report "$db"
like "$out" "Why-not: the smallest fix" "report: the fix section"
like "$out" "evict 1 lower-priority pod on n1: default/lo-b" "report: big's fix"

# 2. a PDB keeps lo-b: lo-a (2 cpu, priority low) is evicted instead
mk b "$D/pdb-b.yaml" "$D/big.yaml"
run "$KPLAN" fix "$T/b.db"
like "$out" "default/big [evict]: evict 1 lower-priority pod on n1: default/lo-a; checked: fits on n1" "PDB on lo-b: lo-a instead"
is "$(rows "$T/b.db")" 'big|evict|["default/lo-a"]|1|n1' "PDB on lo-b: fix row"

# 3. a PDB keeps both: no eviction; the taint on n3 (or, with a template, a new node)
mk c "$D/pdb-all.yaml" "$D/big.yaml"
inputs "$T/c.db" >"$T/c.sql"
run "$KPLAN" fix "$T/c.db"
like "$out" "default/big [relax]: remove taint dedicated=gpu:NoSchedule from n3 (last resort: n3 is dedicated to dedicated=gpu, which this pod does not select); checked: fits on n3" \
	"PDB on both: relax the taint, the last resort"
is "$(rows "$T/c.db")" 'big|relax|[]|1|n3' "PDB on both: relax row"
run "$KPLAN" fix "$T/c.db" --node-template "$D/node-4cpu.yaml"
like "$out" "default/big [add-node]: add one node like $D/node-4cpu.yaml; checked: fits on t4-whatif-1" \
	"PDB on both, --node-template: add a node (before relaxing)"
is "$(rows "$T/c.db")" 'big|add-node|[]|1|t4-whatif-1' "add-node row"
inputs "$T/c.db" >"$T/now.sql"
cmp -s "$T/c.sql" "$T/now.sql"
ok $? "PDB case: imported tables and run/placement unchanged"

# 4. blocked only by a taint: gpu-job selects pool=gpu, only n3, tainted
mk d "$D/gpu-job.yaml"
run "$KPLAN" fix "$T/d.db"
like "$out" "default/gpu-job [relax]: remove taint dedicated=gpu:NoSchedule from n3; checked: fits on n3" \
	"taint only: the fix names the taint"
is "$(rows "$T/d.db")" 'gpu-job|relax|[]|1|n3' "taint only: relax row"
is "$(ranks "$T/d.db")" 'gpu-job:1:relax-hard gpu-job:2:relax-hard' \
	"gpu-job selects pool=gpu: the taint is not dedicated against it (relax-hard), then its nodeSelector"
run "$KPLAN" report "$T/d.db" --run 1 --format json
like "$out" '"fix"' "report json: the fix table"

# 5. one constraint of the spec relaxed (the class tables untouched)
mk g "$D/red.yaml"
inputs "$T/g.db" >"$T/g.sql"
run "$KPLAN" fix "$T/g.db"
like "$out" "default/red [relax]: drop nodeSelector pool=red (for every pod of its spec); checked: fits on n" \
	"nodeSelector pool=red (no such node): drop it"
is "$(q1 "$T/g.db" "SELECT kind || ' ' || (result_node IN ('n1', 'n2')) FROM fix")" "relax 1" "nodeSelector: fits on n1 or n2 (n3 is tainted)"
inputs "$T/g.db" >"$T/now.sql"
cmp -s "$T/g.sql" "$T/now.sql"
ok $? "nodeSelector: imported tables (class_node_selector too) unchanged"
"$KPLAN" import -q "$T/h.db" "$D/spread.yaml" && "$KPLAN" plan -q --no-preemption "$T/h.db"
inputs "$T/h.db" >"$T/h.sql"
run "$KPLAN" fix "$T/h.db"
like "$out" "default/w-2 [relax]: raise maxSkew of the topology spread constraint on kubernetes.io/hostname from 1 to 2 (for every pod of its spec); checked: fits on z1" \
	"spread: maxSkew 1 -> 2 lets w-2 onto z1"
inputs "$T/h.db" >"$T/now.sql"
cmp -s "$T/h.sql" "$T/now.sql"
ok $? "spread: imported tables (class_spread too) unchanged"
"$KPLAN" import -q "$T/i.db" "$D/anti.yaml" && "$KPLAN" plan -q --no-preemption "$T/i.db"
run "$KPLAN" fix "$T/i.db"
like "$out" "default/db-2 [relax]: drop the required pod anti-affinity term on kubernetes.io/hostname" \
	"anti-affinity: drop the term"
is "$(rows "$T/i.db")" 'db-2|relax|[]|1|a1' "anti-affinity: fits on a1"
is "$(q "$T/i.db" "SELECT count(*) FROM class_pod_affinity")" 1 "anti-affinity: the term is still there"
# required node affinity: zoned needs disk In (ssd) AND zone In (z9); s1 has
# disk=ssd (zone z1), no node has z9.  Dropping the disk expression (term 0,
# seq 0) still needs z9; dropping the zone one (seq 1) lands it on s1.
# anyzone's two terms each match nothing, alone or with its one expression
# dropped: only the whole required node affinity dropped helps.
mk j "$D/zone.yaml" "$D/zone-any.yaml"
inputs "$T/j.db" >"$T/j.sql"
run "$KPLAN" fix "$T/j.db"
is "$rc" 0 "node affinity: exit 0"
like "$out" "fix run 1: 2 of 2 unschedulable pods examined have a fix" "node affinity: both fixed"
like "$out" 'default/zoned [relax]: drop node affinity requirement "zone In (z9)" (term 0) (for every pod of its spec); checked: fits on s1' \
	"node affinity: drop the zone expression of term 0"
like "$out" 'default/anyzone [relax]: drop the required node affinity (for every pod of its spec); checked: fits on s1' \
	"node affinity: no single expression helps, the whole of it dropped"
is "$(rows "$T/j.db")" 'anyzone|relax|[]|1|s1 zoned|relax|[]|1|s1' "node affinity: fix rows"
is "$(q1 "$T/j.db" "SELECT group_concat(detail, ' / ') FROM (SELECT detail FROM fix ORDER BY pod)")" \
	'drop the required node affinity (for every pod of its spec) / drop node affinity requirement "zone In (z9)" (term 0) (for every pod of its spec)' \
	"node affinity: fix details"
inputs "$T/j.db" >"$T/now.sql"
cmp -s "$T/j.sql" "$T/now.sql"
ok $? "node affinity: imported tables (class_node_term, class_node_expr, pod_class too) unchanged"

# 6. a database without unschedulable pods, and the report without fix rows
"$KPLAN" import -q "$T/e.db" "$D/cluster.yaml" && "$KPLAN" plan -q "$T/e.db"
run "$KPLAN" fix "$T/e.db"
is "$rc" 0 "nothing unschedulable: exit 0"
like "$out" "fix run 1: 0 of 0 unschedulable pods examined" "nothing unschedulable: said so"
run "$KPLAN" report "$T/e.db"
unlike "$out" "Why-not" "report: no fix section without rows"

# 7. issue 14: web pods next to a GPU node tainted nvidia.com/gpu (gpu-web.yaml).
# Each web pod fits after evicting batch on w1, or with the GPU node's taint
# gone; the untaint is the last resort (gpu1 is dedicated to nvidia.com/gpu,
# which web pods do not request), never a pod's best fix.  One eviction places
# both: the joint set has one change.
"$KPLAN" import -q "$T/w.db" "$D/gpu-web.yaml" && "$KPLAN" plan -q --no-preemption "$T/w.db"
inputs "$T/w.db" >"$T/w.sql"
run "$KPLAN" fix "$T/w.db"
is "$rc" 0 "gpu-web: exit 0"
is "$(ranks "$T/w.db")" 'web-0:1:evict web-0:2:untaint-dedicated web-1:1:evict web-1:2:untaint-dedicated' \
	"gpu-web: evicting batch first, untainting the GPU node last, for both"
is "$(q1 "$T/w.db" "SELECT count(*) FROM fix WHERE level = 'untaint-dedicated' AND rank = 1")" 0 \
	"gpu-web: the GPU node's untaint is no pod's best fix"
like "$out" "then [untaint-dedicated]: remove taint nvidia.com/gpu=present:NoSchedule from gpu1 (last resort: gpu1 is dedicated to nvidia.com/gpu, which this pod does not request)" \
	"gpu-web: the untaint says why it ranks last"
like "$out" "joint change set: 1 change for the 2 pods with a fix, checked in one plan: 2 of them placed" \
	"gpu-web: one eviction places both web pods together"
like "$out" "default/web-1: no change of its own; the joint plan places it on w1" "gpu-web: web-1 needs no change of its own"
is "$(q1 "$T/w.db" "SELECT group_concat(pod || ':' || rank || ':' || joint_node, ' ') FROM (SELECT * FROM fix WHERE joint ORDER BY pod)")" \
	'web-0:1:w1' "gpu-web: the joint row (web-0's eviction), and where the joint plan put it"
is "$(q1 "$T/w.db" "SELECT group_concat(DISTINCT joint_node) FROM fix")" w1 "gpu-web: both land on w1 in the joint plan"
unlike "$out" "hint:" "gpu-web: every pod has a fix below the untaint: no hint"
run "$KPLAN" fix "$T/w.db" --node-template "$D/node-web.yaml" --format json
is "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); p=d["pods"][0]; print(" ".join(c["level"] for c in p["candidates"]), p["fix"]["result_node"], d["joint"]["changes"], d["joint"]["placed"], d["hint"])' 2>&1)" \
	"add-node evict untaint-dedicated web-whatif-1 1 2 None" "gpu-web, --node-template: add a node, evict, untaint last; one node for both"
# with batch under a PDB nothing but the untaint is left: it is still named, as the last resort, with the hint
printf '%s\n' "apiVersion: policy/v1" "kind: PodDisruptionBudget" "metadata: {name: batch, namespace: default}" \
	"spec: {maxUnavailable: 0, selector: {matchLabels: {app: batch}}}" >"$T/batch-pdb.yaml"
"$KPLAN" import -q "$T/w2.db" "$D/gpu-web.yaml" "$T/batch-pdb.yaml" && "$KPLAN" plan -q --no-preemption "$T/w2.db"
run "$KPLAN" fix "$T/w2.db" --candidates 1
like "$out" "default/web-0 [relax]: remove taint nvidia.com/gpu=present:NoSchedule from gpu1 (last resort: " \
	"gpu-web with a PDB on batch: only the untaint, said to be the last resort"
like "$out" "hint: for 2 pods nothing short of untainting a dedicated node was found: --node-template FILE" \
	"gpu-web with a PDB on batch: the hint names --node-template"
is "$(ranks "$T/w2.db")" 'web-0:1:untaint-dedicated web-1:1:untaint-dedicated' "--candidates 1: one row a pod"
inputs "$T/w.db" >"$T/now.sql"
cmp -s "$T/w.sql" "$T/now.sql"
ok $? "gpu-web: imported tables and run/placement unchanged"

# the joint set is pruned: gpu-job's untaint of n3 (its own pool) also makes
# room for big there, so big's eviction of lo-b is not needed together
mk jt "$D/big.yaml" "$D/gpu-job.yaml"
run "$KPLAN" fix "$T/jt.db"
like "$out" "joint change set: 1 change for the 2 pods with a fix, checked in one plan: 2 of them placed" \
	"joint: one change for both"
like "$out" "default/big: no change of its own; the joint plan places it on n3" "joint: big's eviction dropped, big on n3"
is "$(q1 "$T/jt.db" "SELECT group_concat(pod || ':' || rank, ' ') FROM (SELECT * FROM fix WHERE joint ORDER BY pod)")" \
	'gpu-job:1' "joint: the one row in the set is gpu-job's untaint"

# 8. the baseline: the run's options, --no-preemption and --config override them
"$KPLAN" import -q "$T/p.db" "$D/cluster.yaml" "$D/huge.yaml" && "$KPLAN" plan -q "$T/p.db"
run "$KPLAN" fix "$T/p.db" --format json
is "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); b=d["baseline"]; print(b["preemption"], b["preemption_from_run"], b["config"], d["pods"][0]["unschedulable_in_replay"], d["unschedulable"])' 2>&1)" \
	"True True default True $(q "$T/p.db" "SELECT count(*) FROM placement WHERE action = 'unschedulable'")" \
	"a run planned with preemption: the baseline has it on, replays as plan counted"
run "$KPLAN" fix "$T/p.db" --no-preemption
like "$out" "baseline: run 1's options (seed 1, preemption off by --no-preemption, configuration: default; kube 1.37)" \
	"--no-preemption: the baseline says so"
printf '%s\n' "apiVersion: kubescheduler.config.k8s.io/v1" "kind: KubeSchedulerConfiguration" >"$T/cfg.yaml"
run "$KPLAN" fix "$T/p.db" --config "$T/cfg.yaml"
like "$out" "configuration: $T/cfg.yaml" "--config: the baseline names it"
run "$KPLAN" fix "$T/p.db" --config "$T/missing.yaml"
is "$rc" 1 "--config with a missing file: exit 1"

# 9. --no-record: nothing written; a read-only database answers
before=$(inputs "$T/w.db" | sha256sum)
rowsbefore=$(q "$T/w.db" "SELECT count(*) FROM fix")
"$KPLAN" plan -q --no-preemption "$T/w.db"
run "$KPLAN" fix --no-record "$T/w.db" --format json
is "$rc" 0 "--no-record: exit 0"
is "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["run_id"], d["recorded"], d["fixed"])' 2>&1)" \
	"2 False 2" "--no-record: run 2 answered, not recorded"
is "$(q "$T/w.db" "SELECT count(*) FROM fix")" "$rowsbefore" "--no-record: no fix row written"
src=$T/ro
mkdir -p "$src" "$T/romnt"
"$KPLAN" import -q "$src/r.db" "$D/gpu-web.yaml" && "$KPLAN" plan -q --no-preemption "$src/r.db"
# every kind of check, read-only: node affinity, nodeSelector, taint, spread, anti-affinity
"$KPLAN" import -q "$src/r2.db" "$D/cluster.yaml" "$D/zone.yaml" "$D/zone-any.yaml" "$D/red.yaml" "$D/gpu-job.yaml" &&
	"$KPLAN" plan -q --no-preemption "$src/r2.db"
"$KPLAN" import -q "$src/r3.db" "$D/spread.yaml" && "$KPLAN" plan -q --no-preemption "$src/r3.db"
"$KPLAN" import -q "$src/r4.db" "$D/anti.yaml" && "$KPLAN" plan -q --no-preemption "$src/r4.db"
rodigest=$(cat "$src"/r*.db | sha256sum)
if unshare -m true 2>/dev/null && unshare -m sh -c "mount --bind '$src' '$T/romnt' && mount -o remount,ro,bind '$T/romnt'" 2>/dev/null; then
	run unshare -m sh -c "mount --bind '$src' '$T/romnt' && mount -o remount,ro,bind '$T/romnt' && '$KPLAN' fix --no-record '$T/romnt/r.db'"
	is "$rc" 0 "read-only mount, --no-record: exit 0"
	like "$out" "default/web-0 [evict]: evict 1 lower-priority pod on w1: default/batch; checked: fits on w1" \
		"read-only mount, --no-record: the fixes, checked"
	like "$out" "joint change set: 1 change for the 2 pods" "read-only mount, --no-record: the joint set"
	run unshare -m sh -c "mount --bind '$src' '$T/romnt' && mount -o remount,ro,bind '$T/romnt' && '$KPLAN' fix '$T/romnt/r.db'"
	is "$rc" 1 "read-only mount, recording: exit 1"
	like "$err" "read-only" "read-only mount, recording: says the database is read-only"
	run unshare -m sh -c "mount --bind '$src' '$T/romnt' && mount -o remount,ro,bind '$T/romnt' &&
		for d in r2 r3 r4; do '$KPLAN' fix --no-record --node-template '$D/node-4cpu.yaml' \"$T/romnt/\$d.db\" || exit 1; done"
	is "$rc" 0 "read-only mount, --no-record, every kind of relaxation and a template: exit 0"
	like "$out" 'default/zoned [relax]: drop node affinity requirement "zone In (z9)" (term 0)' "read-only: a node affinity expression"
	like "$out" "default/red [relax]: drop nodeSelector pool=red" "read-only: a nodeSelector key"
	like "$out" "default/gpu-job [relax]: remove taint dedicated=gpu:NoSchedule from n3" "read-only: a taint"
	like "$out" "default/w-2 [add-node]: add one node like $D/node-4cpu.yaml; checked: fits on t4-whatif-1" \
		"read-only: a node added"
	like "$out" "    then [relax-soft]: raise maxSkew" "read-only: a spread constraint (after the added node)"
	like "$out" "    then [relax-hard]: drop the required pod anti-affinity term" "read-only: an anti-affinity term"
else
	skip "unshare/mount is not permitted here: no read-only mount" 12
fi
is "$(cat "$src"/r*.db | sha256sum)" "$rodigest" "read-only checks: the database files are unchanged"

# 10. a fix table from before rank: rebuilt with its rows kept (rank 1), the run's replaced
"$KPLAN" import -q "$T/o.db" "$D/cluster.yaml" "$D/big.yaml" && "$KPLAN" plan -q --no-preemption "$T/o.db" &&
	"$KPLAN" plan -q --no-preemption "$T/o.db"
sqlite3 "$T/o.db" "DROP TABLE IF EXISTS fix; CREATE TABLE fix(run_id INTEGER NOT NULL REFERENCES run(id), pod_id INTEGER NOT NULL,
	namespace TEXT NOT NULL, pod TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL, victims TEXT NOT NULL DEFAULT '[]',
	checked INTEGER NOT NULL, result_node TEXT, PRIMARY KEY(run_id, pod_id)) WITHOUT ROWID;
	INSERT INTO fix VALUES(1, 4, 'default', 'big', 'evict', 'old row', '[]', 1, 'n1')"
run "$KPLAN" report "$T/o.db" --run 1
like "$out" "old row" "an old fix table: the report reads it"
run "$KPLAN" fix "$T/o.db"
is "$rc" 0 "an old fix table: fix exits 0"
is "$(q1 "$T/o.db" "SELECT group_concat(run_id || ':' || rank || ':' || COALESCE(level, '') || ':' || detail, ' / ') FROM fix WHERE rank = 1 ORDER BY run_id")" \
	"1:1:evict:old row / 2:1:evict:evict 1 lower-priority pod on n1: default/lo-b" \
	"an old fix table: rebuilt, run 1's row kept as rank 1, run 2's written"

# 11. errors
before=$(inputs "$db" | sha256sum)
run "$KPLAN" fix
is "$rc" 64 "no DB: exit 64"
run "$KPLAN" fix "$db" --limit 0
is "$rc" 64 "--limit 0: exit 64"
like "$err" "--limit needs a positive integer" "--limit 0: message"
run "$KPLAN" fix "$db" --format yaml
is "$rc" 64 "--format yaml: exit 64"
run "$KPLAN" fix "$db" --bogus
is "$rc" 64 "unknown option: exit 64"
run "$KPLAN" fix "$db" --run x
is "$rc" 64 "--run x: exit 64"
run "$KPLAN" fix "$db" --candidates 0
is "$rc" 64 "--candidates 0: exit 64"
like "$err" "--candidates needs a positive integer" "--candidates 0: message"
run "$KPLAN" fix "$db" extra
is "$rc" 64 "too many arguments: exit 64"
run "$KPLAN" fix "$db" --run 99
is "$rc" 1 "missing run: exit 1"
like "$err" "no run 99 in" "missing run: message"
"$KPLAN" import -q "$T/f.db" "$D/cluster.yaml"
run "$KPLAN" fix "$T/f.db"
is "$rc" 1 "no run at all: exit 1"
like "$err" "no run in" "no run at all: message"
run "$KPLAN" fix "$db" --node-template "$T/missing.yaml"
is "$rc" 1 "missing template: exit 1"
run "$KPLAN" fix "$T/nope.db"
is "$rc" 1 "missing database: exit 1"
is "$(inputs "$db" | sha256sum)" "$before" "errors changed nothing"
run "$KPLAN" fix --help
like "$out" "usage: kplan fix" "--help"

done_testing
