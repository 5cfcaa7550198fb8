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
like "$out" "baseline: run 1's options (seed 1, preemption off as in the run, configuration: default) plus each change" \
	"text: the baseline"
like "$out" "hint: 1 pod without a fix: --node-template FILE" "no template and a pod without a fix: the hint"
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

# 7. errors
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
