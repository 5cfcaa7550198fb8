#!/usr/bin/env bash
# 46-rebalance.t — `kplan plan --mode rebalance` on hand-made clusters
# (tests/data/rebalance): one golden case per descheduler strategy (exactly
# these pods move to these nodes), cases where nothing may move (a balanced
# cluster, no other home, a PDB allowing 0 disruptions, the priority
# threshold, excluded namespaces, bare pods), waves under a PDB with
# maxUnavailable 1, the limits, the policy file, no ping-pong, the input
# tables byte-identical, --reference giving the same rows, the report
# section, usage errors, kplan's --evict-bare-pods, each strategy alone on a
# cluster whose constraints all hold (*-ok.yaml, balanced.yaml: nothing to
# do), and the quality of a consolidation on a generated cluster and on the
# openb trace (nodes freed, std-dev of utilisation, against plan_quality's
# bound).
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/rebalance"

# a fresh database of fixture files: fresh NAME FILE...
fresh() {
	local name=$1
	shift
	rm -f "$T/$name.db"
	for f in "$@"; do "$KPLAN" import -q "$T/$name.db" "$D/$f" || fail "import $f"; done
	db="$T/$name.db"
}
# the latest run's move plan, one line: "pod from>to wave; ..."
moves() {
	q "${1:-$db}" "SELECT COALESCE(group_concat(x, '; '), '(none)') FROM (SELECT pod || ' ' || from_node || '>' || to_node || ' ' || wave AS x
	               FROM move_wave WHERE run_id = (SELECT max(id) FROM run) ORDER BY seq)"
}
# the latest run's plan rows other than keep: "pod action node <from; ..."
changes() {
	q "${1:-$db}" "SELECT COALESCE(group_concat(pod || ' ' || action || ' ' || COALESCE(node, '-') || COALESCE(' <' || from_node, ''), '; '), '(none)')
	               FROM (SELECT * FROM plan WHERE action <> 'keep' ORDER BY namespace, pod)"
}
rr() { q "$db" "SELECT $1 FROM rebalance_run WHERE run_id = (SELECT max(id) FROM run)"; }
rb() { run "$KPLAN" plan -q --mode rebalance "$@" "$db"; }
INPUTS="meta import_batch namespace% node node_resource node_label node_taint node_image pod_class class% pod pod_label
	priority_class pdb service workload scheduler_config"
inputs() { sqlite3 "$1" ".dump $INPUTS"; }

# --- RemovePodsViolatingNodeTaints
fresh taints taints.yaml
inputs "$db" >"$T/taints-in.sql"
rb --strategies RemovePodsViolatingNodeTaints
is "$rc" 0 "taints: exit 0"
is "$(moves)" "kv-0 n1>n3 1; web-1 n1>n3 1" "taints: kv-0 and web-1 leave the tainted node for n3"
is "$(changes)" "kv-0 move n3 <n1; web-1 move n3 <n1" "taints: exactly those two are move rows, every other pod keep"
is "$(q "$db" "SELECT count(*) FROM plan WHERE action = 'keep'")" 7 "taints: the 7 other pods keep"
is "$(q "$db" "SELECT group_concat(cost, ' ') FROM (SELECT cost FROM move_wave WHERE run_id = 1 ORDER BY seq)")" "2.0 1.0" \
	"taints: a StatefulSet pod costs 2, a ReplicaSet pod 1"
is "$(rr "no_home || ' ' || nodes_freed || ' ' || cost")" "1 0 3.0" "taints: big-1 has no other home (not proposed)"
like "$(q "$db" "SELECT detail FROM move_wave WHERE run_id = 1 AND seq = 2")" "untolerated taint maint=true:NoSchedule on n1" \
	"taints: the gain says which taint"
is "$(q "$db" "SELECT mode FROM run WHERE id = 1")" "rebalance" "run.mode is rebalance"
is "$(q "$db" "SELECT json_extract(options, '$.mode') || ' ' || json_extract(options, '$.rebalance.strategies[0]') FROM run WHERE id = 1")" \
	"rebalance RemovePodsViolatingNodeTaints" "run.options records the mode and the settings"
rb --strategies RemovePodsViolatingNodeTaints --exclude-namespaces shop,batch
is "$(moves)" "(none)" "taints: nothing moves when the namespaces are excluded"
is "$(rr "no_home || ' ' || limited || ' ' || kept")" "0 0 5" \
	"taints: the five pods on n1 without a toleration are kept by the evictor's rules (a DaemonSet pod, a bare one, three by namespace)"
run "$KPLAN" plan --mode rebalance --strategies RemovePodsViolatingNodeTaints --exclude-namespaces shop,batch "$db"
like "$out" "not proposed: 0 without another node, 0 over a limit or budget, 5 kept by the evictor's rules" "taints: the summary says why"
rb --strategies RemovePodsViolatingNodeTaints --namespaces batch
is "$(moves)/$(rr no_home)" "(none)/1" "taints: --namespaces batch: only big-1 is a candidate, and it has no home"
rb --strategies RemovePodsViolatingNodeTaints --priority-threshold 0
is "$(moves)" "(none)" "taints: --priority-threshold 0: pods of priority 0 stay"
rb --strategies RemovePodsViolatingNodeTaints --priority-threshold 1
is "$(moves)" "kv-0 n1>n3 1; web-1 n1>n3 1" "taints: --priority-threshold 1: they move"
for ref in "" --reference; do
	rb --strategies RemovePodsViolatingNodeTaints $ref
	sqlite3 "$db" "SELECT pod, action, node, from_node FROM plan ORDER BY namespace, pod;
	               SELECT seq, wave, pod_id, from_node_id, to_node_id, strategy, gain, cost, detail FROM move_wave
	               WHERE run_id = (SELECT max(id) FROM run)" >"$T/ref$ref.txt"
done
cmp -s "$T/ref.txt" "$T/ref--reference.txt"
ok $? "taints: --reference gives the same plan and move_wave rows"
inputs "$db" >"$T/taints-now.sql"
cmp -s "$T/taints-in.sql" "$T/taints-now.sql"
ok $? "taints: the imported tables are byte-identical after the rebalance runs"

# --- RemovePodsViolatingNodeAffinity
fresh affinity affinity.yaml
rb --strategies RemovePodsViolatingNodeAffinity
is "$(moves)" "db-1 n1>n3 1" "affinity: db-1 (requires disk=ssd) leaves n1 (hdd) for n3"
is "$(changes)" "db-1 move n3 <n1" "affinity: only db-1 moves; cache-1 (disk=nvme, on no node) stays"
is "$(rr no_home)" 1 "affinity: cache-1 counted as without another home"

# --- RemovePodsViolatingInterPodAntiAffinity
fresh anti anti.yaml
rb --strategies RemovePodsViolatingInterPodAntiAffinity
is "$(moves)" "a-2 n1>n3 1" "anti-affinity: a-2 leaves a-1's node for n3"
is "$(changes)" "a-2 move n3 <n1" "anti-affinity: c-1 and c-2 (only n2 has pool=x) stay"
is "$(rr no_home)" 2 "anti-affinity: c-1 and c-2 have no other home"

# --- RemovePodsViolatingTopologySpreadConstraint
fresh spread spread.yaml
rb --strategies RemovePodsViolatingTopologySpreadConstraint
is "$(moves)" "s-2 n1>n3 1" "spread: one pod of the skewed group moves to zone b"
is "$(q "$db" "SELECT count(*) FROM plan WHERE pod LIKE 'u-%' AND action = 'keep'")" 2 \
	"spread: ScheduleAnyway pods are left alone by default"
printf 'RemovePodsViolatingTopologySpreadConstraint:\n  constraints: [DoNotSchedule, ScheduleAnyway]\n' >"$T/soft.yaml"
rb --strategies RemovePodsViolatingTopologySpreadConstraint --rebalance-config "$T/soft.yaml"
is "$(moves)" "s-2 n1>n3 1; u-2 n1>n3 1" "spread: constraints ScheduleAnyway too: a u pod moves as well"

# --- RemoveDuplicates, waves, PDBs, limits, the policy file
fresh dups dups.yaml
inputs "$db" >"$T/dups-in.sql"
rb --strategies RemoveDuplicates
is "$(moves)" "d-3 n1>n3 1; d-2 n1>n2 1" "duplicates: two of d's three pods leave n1, one per node, in one wave"
is "$(changes)" "d-2 move n2 <n1; d-3 move n3 <n1" "duplicates: the StatefulSet e (one pod per node) stays"
rb --strategies RemoveDuplicates --max-moves 1
is "$(moves)" "d-3 n1>n3 1" "--max-moves 1: one move"
rb --strategies RemoveDuplicates --max-moves-per-node 1
is "$(moves)/$(rr limited)" "d-3 n1>n3 1/2" "--max-moves-per-node 1: one pod leaves n1 (d-2 and d-1 over the limit)"
rb --strategies RemoveDuplicates --max-moves-per-namespace 1
is "$(moves)" "d-3 n1>n3 1" "--max-moves-per-namespace 1: one move in shop"
rb --rebalance-config "$D/policy.yaml"
is "$(moves)/$(rr strategies)" "d-3 n1>n3 1/RemoveDuplicates" "a descheduler policy: its plugins and maxNoOfPodsToEvictPerNode"
rb --rebalance-config "$D/policy.yaml" --max-moves-per-node 5
is "$(moves)" "d-3 n1>n3 1; d-2 n1>n2 1" "command-line limits override the policy's"
cp "$db" "$T/dups-pdb1.db"
"$KPLAN" import -q "$T/dups-pdb1.db" "$D/pdb1.yaml"
rb --strategies RemoveDuplicates
db="$T/dups-pdb1.db"
rb --strategies RemoveDuplicates
is "$(moves)" "d-3 n1>n3 1; d-2 n1>n2 2" "PDB maxUnavailable 1: the two moves of its pods go in two waves"
is "$(rr waves)" 2 "rebalance_run.waves"
db="$T/dups.db"
cp "$db" "$T/dups-pdb0.db"
"$KPLAN" import -q "$T/dups-pdb0.db" "$D/pdb0.yaml"
db="$T/dups-pdb0.db"
rb --strategies RemoveDuplicates
is "$(moves)/$(rr limited)" "(none)/3" "a PDB allowing 0 disruptions: nothing moves (d's three pods refused)"
db="$T/dups.db"
inputs "$db" >"$T/dups-now.sql"
cmp -s "$T/dups-in.sql" "$T/dups-now.sql"
ok $? "duplicates: the imported tables are byte-identical"

# --- LowNodeUtilization
fresh low low.yaml
rb --strategies LowNodeUtilization
is "$(moves)" "l-4 n1>n2 1; l-3 n1>n2 1" "low: n1 (80% cpu) sheds two 2-cpu pods to the underutilised n2"
is "$(q "$db" "SELECT group_concat(gain, ' ') FROM move_wave WHERE run_id = 1")" "20.0 20.0" "low: gain = cpu points off n1"
is "$(q "$db" "SELECT stddev_before > stddev_after FROM rebalance_util WHERE run_id = 1 AND resource = 'cpu'")" 1 \
	"low: the cpu std-dev drops"
rb
is "$(moves)" "l-4 n1>n2 1; l-3 n1>n2 1; k-2 n3>n1 2" \
	"default strategies: a move onto a node left in the same wave waits for the next wave"
printf 'LowNodeUtilization:\n  thresholds: {cpu: 5}\n  targetThresholds: {cpu: 50}\n' >"$T/low5.yaml"
rb --strategies LowNodeUtilization --rebalance-config "$T/low5.yaml"
is "$(moves)" "(none)" "low: no node under thresholds (cpu 5%): nothing moves"
fresh balanced balanced.yaml
rb --strategies LowNodeUtilization,HighNodeUtilization,RemoveDuplicates
is "$(moves)" "(none)" "a balanced cluster: nothing moves"

# --- HighNodeUtilization
fresh high high.yaml
rb --strategies HighNodeUtilization
is "$(moves)" "h-1 n3>n1 1" "high: n3's only app pod moves to the least loaded other node"
is "$(rr nodes_freed)" 1 "high: one node freed"
is "$(q "$db" "SELECT group_concat(n.name || ':' || r.freed, ' ') FROM rebalance_node r JOIN node n ON n.id = r.node_id WHERE r.run_id = 1")" \
	"n1:0 n3:1" "high: rebalance_node: n3 freed"
is "$(q "$db" "SELECT count(*) FROM plan WHERE pod IN ('h-2', 'lone-1', 'agent-n3', 'agent-n4') AND action = 'keep'")" 4 \
	"high: n4 keeps its pods (the bare pod cannot move, so n4 cannot be freed); DaemonSet pods stay"
rb --strategies HighNodeUtilization --priority-threshold -5
is "$(moves)" "(none)" "high: --priority-threshold -5: nothing moves"

# --- --evict-bare-pods (kplan's own; DefaultEvictor arg evictBarePods): bare pods may move too
# (where a moved pod lands is kube 1.37's scoring: BalancedAllocation with and without the pod)
rb --strategies HighNodeUtilization --evict-bare-pods
is "$(moves)/$(rr nodes_freed)" "h-1 n3>n1 1; lone-1 n4>n2 1; h-2 n4>n2 1/2" \
	"high --evict-bare-pods: the bare pod lone-1 moves too, and n4 is freed as well"
is "$(q "$db" "SELECT count(*) FROM plan WHERE pod LIKE 'agent-%' AND action = 'keep'")" 4 \
	"high --evict-bare-pods: DaemonSet pods still stay"
is "$(rr "json_extract(settings, '$.evictBarePods')")/$(q "$db" "SELECT json_extract(options, '$.rebalance.evictBarePods')
	FROM run WHERE id = (SELECT max(id) FROM run)")" "1/1" "--evict-bare-pods recorded in rebalance_run.settings and run.options"
rb --strategies HighNodeUtilization
is "$(rr "json_extract(settings, '$.evictBarePods')")" 0 "without it: evictBarePods false in the settings"
printf 'profiles:\n- name: p\n  pluginConfig:\n  - name: DefaultEvictor\n    args: {evictBarePods: true}\n' >"$T/bare.yaml"
rb --strategies HighNodeUtilization --rebalance-config "$T/bare.yaml"
is "$(moves)" "h-1 n3>n1 1; lone-1 n4>n2 1; h-2 n4>n2 1" "the policy file: DefaultEvictor args evictBarePods: true"
rb --strategies HighNodeUtilization --evict-bare-pods --priority-threshold 0
is "$(moves)" "(none)" "--evict-bare-pods with --priority-threshold 0: the other rules still apply"
fresh bare taints.yaml
rb --strategies RemovePodsViolatingNodeTaints --evict-bare-pods
is "$(moves)" "kv-0 n1>n3 1; bare-1 n1>n3 1; web-1 n1>n2 1" \
	"taints --evict-bare-pods: bare-1 leaves the tainted node too; tol-1, agent-n1 and big-1 stay"

# --- each strategy alone where it has nothing to do: every constraint holds.
# The fixtures do have the constraints (checked below) and only pods a
# controller owns (evictable); rebalance_run records the strategy run and no
# eviction refused (no_home, limited): nothing was even a candidate.
for c in RemovePodsViolatingNodeTaints:taints-ok RemovePodsViolatingNodeAffinity:affinity-ok \
	RemovePodsViolatingInterPodAntiAffinity:anti-ok RemoveDuplicates:balanced \
	RemovePodsViolatingTopologySpreadConstraint:spread-ok LowNodeUtilization:balanced HighNodeUtilization:balanced; do
	st=${c%%:*} fx=${c#*:}   # not f: fresh() loops over f
	fresh "ok-$st" "$fx.yaml"
	is "$(q "$db" "SELECT count(*) FROM pod WHERE owner_kind IS NULL OR owner_kind IN ('DaemonSet', 'Node')")" 0 \
		"$st, $fx.yaml: every pod has a controller owner (evictable)"
	rb --strategies "$st"
	is "$rc/$(moves)/$(changes)" "0/(none)/(none)" "$st alone on $fx.yaml: (none) moves, every pod keep"
	is "$(rr "strategies || ' ' || moves || ' ' || waves || ' ' || no_home || ' ' || limited")" "$st 0 0 0 0" \
		"$st alone on $fx.yaml: rebalance_run: the strategy ran, no eviction refused (no home 0, limited 0)"
done
# what makes each case meaningful: the constraints are there, and hold
db="$T/ok-RemovePodsViolatingNodeTaints.db"
is "$(q "$db" "SELECT group_concat(n.name || ' ' || t.key || ':' || t.effect || ' ' || (SELECT count(*) FROM pod p
	WHERE p.node_name = n.name), '; ') FROM node n JOIN node_taint t ON t.node_id = n.id")" \
	"n1 dedicated:NoSchedule 2; n2 maint:PreferNoSchedule 1" "taints-ok.yaml: a NoSchedule taint over 2 pods (tolerated), a PreferNoSchedule one"
printf 'RemovePodsViolatingNodeTaints:\n  includePreferNoSchedule: true\n' >"$T/prefer.yaml"
rb --strategies RemovePodsViolatingNodeTaints --rebalance-config "$T/prefer.yaml"
is "$(moves)" "web-1 n2>n3 1" "taints-ok.yaml with includePreferNoSchedule: the untolerated PreferNoSchedule taint moves web-1"
db="$T/ok-RemovePodsViolatingNodeAffinity.db"
is "$(q "$db" "SELECT (SELECT count(DISTINCT pod_id) FROM pod_node_affinity WHERE required = 1) || ' ' ||
	(SELECT count(DISTINCT pod_id) FROM pod_node_selector)")" "2 1" "affinity-ok.yaml: 2 pods with required node affinity, 1 with a nodeSelector"
db="$T/ok-RemovePodsViolatingInterPodAntiAffinity.db"
is "$(q "$db" "SELECT group_concat(topology_key || ' ' || k, '; ') FROM (SELECT topology_key, count(*) AS k FROM pod_affinity_term
	WHERE anti = 1 AND required = 1 GROUP BY topology_key ORDER BY topology_key)")" \
	"kubernetes.io/hostname 2; topology.kubernetes.io/zone 2" "anti-ok.yaml: required anti-affinity by hostname and by zone"
db="$T/ok-RemovePodsViolatingTopologySpreadConstraint.db"
is "$(q "$db" "SELECT group_concat(topology_key || ' ' || k, '; ') FROM (SELECT topology_key, count(*) AS k FROM pod_spread
	WHERE when_unsatisfiable = 'DoNotSchedule' GROUP BY topology_key ORDER BY topology_key)")" \
	"kubernetes.io/hostname 3; topology.kubernetes.io/zone 3" "spread-ok.yaml: hard spread constraints by hostname and by zone"
db="$T/ok-RemoveDuplicates.db"
is "$(q "$db" "SELECT group_concat(owner_name || ' ' || k || ' on ' || n, '; ') FROM (SELECT owner_name, count(*) AS k,
	count(DISTINCT node_name) AS n FROM pod GROUP BY owner_kind, owner_name)")" "b 3 on 3" \
	"balanced.yaml: one ReplicaSet of 3 pods on 3 nodes (RemoveDuplicates' case)"
is "$(q "$db" "SELECT group_concat(node || ' ' || resource || ' ' || percent, '; ') FROM node_usage WHERE resource IN ('cpu', 'memory')")" \
	"n1 cpu 40.0; n1 memory 25.0; n2 cpu 40.0; n2 memory 25.0; n3 cpu 40.0; n3 memory 25.0" \
	"balanced.yaml: every node 40% cpu, 25% memory: none under 20% (Low, High), none over 50% (Low)"

# --- pending pods first, then the rebalance
fresh pend dups.yaml pending.yaml
rb --strategies RemoveDuplicates
is "$(changes)" "d-2 move n2 <n1; d-3 move n3 <n1; new-1 bind n3" "the pending pod is bound, then the moves are proposed"

# --- with a what-if scenario: the moves may go to the nodes it adds
fresh wi dups.yaml
rb --strategies RemoveDuplicates --add-nodes "$TESTS_DIR/data/whatif/big-node.yaml:2"
is "$rc/$(moves)" "0/d-3 n1>big-whatif-2 1; d-2 n1>big-whatif-1 1" "rebalance with --add-nodes: moves to the added nodes"
is "$(q "$db" "SELECT count(*) FROM move_wave WHERE to_node_id < 0")" 2 "move_wave: added nodes have negative ids"

# --- every fixture, every strategy: --reference gives the same rows
ALL=RemovePodsViolatingNodeTaints,RemovePodsViolatingNodeAffinity,RemovePodsViolatingInterPodAntiAffinity,RemovePodsViolatingTopologySpreadConstraint,RemoveDuplicates,LowNodeUtilization,HighNodeUtilization
differ=""
for f in taints affinity anti spread dups low high balanced; do
	fresh "ref-$f" "$f.yaml"
	for ref in "" --reference; do
		rb --strategies $ALL $ref
		sqlite3 "$db" "SELECT pod, action, node, from_node FROM plan ORDER BY namespace, pod;
		               SELECT seq, wave, pod, from_node, to_node, strategy, gain, cost, detail FROM move_wave
		               WHERE run_id = (SELECT max(id) FROM run)" >"$T/ref$ref.txt"
	done
	cmp -s "$T/ref.txt" "$T/ref--reference.txt" || differ="$differ $f"
done
is "$differ" "" "every strategy on every fixture: --reference gives identical plan and move_wave rows"

# --- a database made before the rebalance tables
fresh old dups.yaml
sqlite3 "$db" "DROP TABLE move_wave; DROP TABLE rebalance_run; DROP TABLE rebalance_util; DROP TABLE rebalance_node"
rb --strategies RemoveDuplicates
is "$rc/$(moves)" "0/d-3 n1>n3 1; d-2 n1>n2 1" "an old database gets the rebalance tables"
sqlite3 "$db" "ALTER TABLE rebalance_run DROP COLUMN kept"
rb --strategies RemoveDuplicates
is "$rc/$(moves)/$(rr kept)" "0/d-3 n1>n3 1; d-2 n1>n2 1/0" "a rebalance_run made before its kept column gets it"

# --- report
run "$KPLAN" report "$db"
like "$out" "Rebalance: moves" "report: the rebalance section"
like "$out" "RemoveDuplicates" "report: the moves with their strategy"
run "$KPLAN" report --format html -o "$T/proposal.html" "$db"
is "$rc" 0 "report --format html -o proposal.html"
grep -q "Rebalance: utilisation" "$T/proposal.html"
ok $? "the HTML proposal has the rebalance sections"
run "$KPLAN" plan -q "$db"
run "$KPLAN" report "$db"
unlike "$out" "Rebalance: moves" "report: no rebalance section for a plain run"

# --- usage errors
err_case() { # err_case STATUS MESSAGE ARGS...
	local want=$1 msg=$2
	shift 2
	run "$KPLAN" plan "$@" "$db"
	is "$rc" "$want" "$*: exit $want"
	like "$err" "$msg" "$*: message"
}
n_runs=$(q "$db" "SELECT count(*) FROM run")
err_case 64 "--max-moves needs --mode rebalance" --max-moves 3
err_case 64 "--strategies needs --mode rebalance" --strategies RemoveDuplicates
err_case 64 "--evict-bare-pods needs --mode rebalance" --evict-bare-pods
err_case 64 "--evict-bare-pods needs --mode rebalance" --evict-bare-pods --mode full
err_case 64 "option '--evict-bare-pods' takes no value" --mode rebalance --evict-bare-pods=yes
err_case 64 "--strategies: unknown strategy 'Bogus'" --mode rebalance --strategies RemoveDuplicates,Bogus
err_case 64 "--max-moves needs a non-negative integer, got '-1'" --mode rebalance --max-moves -1
err_case 64 "--max-moves-per-node needs a non-negative integer, got 'x'" --mode rebalance --max-moves-per-node x
err_case 64 "--priority-threshold needs an integer priority, got '1e3'" --mode rebalance --priority-threshold 1e3
err_case 64 "--namespaces and --exclude-namespaces cannot be combined" --mode rebalance --namespaces a --exclude-namespaces b
err_case 64 "--rebalance-config: cannot open" --mode rebalance --rebalance-config "$T/none.yaml"
printf 'LowNodeUtilization:\n  thresholds: {cpu: 20}\n  bogus: 1\n' >"$T/bad.yaml"
err_case 64 "bad.yaml:3:3: --rebalance-config: LowNodeUtilization: unknown argument 'bogus'" --mode rebalance --rebalance-config "$T/bad.yaml"
printf 'LowNodeUtilization:\n  thresholds: {gpu: 20}\n' >"$T/bad2.yaml"
err_case 64 "resource 'gpu' is not supported" --mode rebalance --rebalance-config "$T/bad2.yaml"
printf 'LowNodeUtilization:\n  thresholds: {cpu: 60}\n  targetThresholds: {cpu: 50}\n' >"$T/bad3.yaml"
err_case 64 "thresholds.cpu (60) above targetThresholds.cpu (50)" --mode rebalance --rebalance-config "$T/bad3.yaml"
printf 'profiles: [{name: x, plugins: {balance: {enabled: [Nope]}}}]\n' >"$T/bad4.yaml"
err_case 64 "plugin 'Nope' is not supported" --mode rebalance --rebalance-config "$T/bad4.yaml"
printf 'DefaultEvictor:\n  evictBarePods: yes\n' >"$T/bad6.yaml"
err_case 64 "bad6.yaml:2:18: --rebalance-config: evictBarePods: expected true or false" --mode rebalance --rebalance-config "$T/bad6.yaml"
printf 'DefaultEvictor:\n  evictBarePods: maybe\n' >"$T/bad6.yaml"
err_case 64 "bad6.yaml:2:18: --rebalance-config: evictBarePods: expected true or false" --mode rebalance --rebalance-config "$T/bad6.yaml"
printf 'a: [\n' >"$T/bad5.yaml"
err_case 64 "--rebalance-config" --mode rebalance --rebalance-config "$T/bad5.yaml"
# hostile policy files: a usage error or a run, never a crash
crashes=""
i=0
while IFS= read -r doc; do
	i=$((i + 1))
	printf '%b' "$doc" >"$T/h$i.yaml"
	"$KPLAN" plan -q --mode rebalance --rebalance-config "$T/h$i.yaml" "$db" >/dev/null 2>&1
	r=$?
	[ "$r" -eq 0 ] || [ "$r" -eq 64 ] || crashes="$crashes $i:$r"
done <<'EOF_DOCS'
? [a, b]\n: 1\n
profiles:\n- ? {x: 1}\n  : 2\n
profiles:\n- pluginConfig: [{name: LowNodeUtilization, args: {thresholds: {? [cpu] : 1}}}]\n
profiles:\n- pluginConfig: [{name: [x]}]\n- plugins: {balance: {enabled: [[1]]}}\n
profiles: null\nLowNodeUtilization: null\n
LowNodeUtilization: {thresholds: null, targetThresholds: [1]}\n
DefaultEvictor: {priorityThreshold: {value: [1]}, namespaces: {include: [a], exclude: [b]}}\n
DefaultEvictor: {priorityThreshold: 5, namespaces: [a]}\n
DefaultEvictor: {evictBarePods: [true], evictFailedBarePods: true}\n
RemovePodsViolatingNodeTaints: {excludedTaints: [{a: 1}], includePreferNoSchedule: yes}\n
maxNoOfPodsToEvictTotal: -3\n
maxNoOfPodsToEvictTotal: 99999999999999999999999\n
HighNodeUtilization: {thresholds: {cpu: nan, memory: 1e400}}\n
strategies: [LowNodeUtilization, 7]\n
- just\n- a\n- list\n
\n
42\n
{}\n
EOF_DOCS
is "$crashes" "" "hostile policy files: exit 0 or 64, never a crash ($i files)"
is "$(q "$db" "SELECT count(*) FROM run")" "$((n_runs + 1))" "no run was written by a refused rebalance (only {} ran)"

# --- quality on a generated cluster: consolidation (HighNodeUtilization)
gen="$(dirname "$KPLAN")/bench/gen"
"$gen" --nodes 100 --pods 2000 -o "$T/gen.yaml" && "$KPLAN" import -q "$T/gen.db" "$T/gen.yaml"
ok $? "generated cluster imported (100 nodes, 2000 pods)"
db="$T/gen.db"
# plan it, then bind the pods where the plan put them (as if it had been applied)
"$KPLAN" plan -q "$db"
sqlite3 "$db" "UPDATE pod SET phase = 'Running', node_name = (SELECT n.name FROM placement pl JOIN node n ON n.id = pl.node_id
               WHERE pl.run_id = (SELECT max(id) FROM run) AND pl.pod_id = pod.id)"
is "$(q "$db" "SELECT count(*) FROM pod WHERE node_name IS NULL")" 0 "every generated pod bound"
"$KPLAN" plan -q "$db"
base_used=$(q "$db" "SELECT nodes_used FROM plan_quality WHERE run_id = (SELECT max(id) FROM run)")
inputs "$db" >"$T/gen-in.sql"
check_quality() { # check_quality LABEL: the latest run's numbers are consistent
	local freed used bound sd_cpu sd_mem mine_cpu mine_mem
	freed=$(rr nodes_freed)
	used=$(q "$db" "SELECT nodes_used FROM plan_quality WHERE run_id = (SELECT max(id) FROM run)")
	bound=$(q "$db" "SELECT bound FROM plan_quality WHERE run_id = (SELECT max(id) FROM run)")
	[ "$freed" -ge 0 ] && [ "$used" -eq $((base_used - freed)) ] && [ "$used" -ge "$bound" ]
	ok $? "$1: nodes freed $freed >= 0; nodes used $base_used -> $used = $base_used - freed; bound $bound <= used"
	sd_cpu=$(q "$db" "SELECT stddev_after FROM rebalance_util WHERE run_id = (SELECT max(id) FROM run) AND resource = 'cpu'")
	sd_mem=$(q "$db" "SELECT stddev_after FROM rebalance_util WHERE run_id = (SELECT max(id) FROM run) AND resource = 'memory'")
	# the same std-dev from node_usage (requested after the run / allocatable)
	mine_cpu=$(q "$db" "SELECT 100.0 * requested_after / allocatable FROM node_usage WHERE resource = 'cpu' AND allocatable > 0" |
		awk '{s += $1; q += $1 * $1; n++} END {m = s / n; v = q / n - m * m; printf "%.2f", (v > 0 ? sqrt(v) : 0)}')
	mine_mem=$(q "$db" "SELECT 100.0 * requested_after / allocatable FROM node_usage WHERE resource = 'memory' AND allocatable > 0" |
		awk '{s += $1; q += $1 * $1; n++} END {m = s / n; v = q / n - m * m; printf "%.2f", (v > 0 ? sqrt(v) : 0)}')
	is "$(printf '%.2f %.2f' "$sd_cpu" "$sd_mem")" "$mine_cpu $mine_mem" "$1: rebalance_util's std-dev after = node_usage's"
	is "$(q "$db" "SELECT count(*) FROM plan WHERE action = 'move'")" "$(rr moves)" "$1: one move row per move_wave row"
	echo "# $1: $(rr moves) moves in $(rr waves) waves, nodes used $base_used -> $used (bound $bound), freed $freed;" \
		"$(q "$db" "SELECT group_concat(resource || ' ' || stddev_before || ' -> ' || stddev_after, '; ') FROM rebalance_util
		            WHERE run_id = (SELECT max(id) FROM run)") (std-dev of utilisation, %)"
}
rb --strategies HighNodeUtilization
is "$rc" 0 "generated: --mode rebalance --strategies HighNodeUtilization"
check_quality "generated, HighNodeUtilization (thresholds 20%)"
printf 'HighNodeUtilization:\n  thresholds: {cpu: 60, memory: 60, pods: 60}\n' >"$T/h60.yaml"
rb --strategies HighNodeUtilization --rebalance-config "$T/h60.yaml"
check_quality "generated, HighNodeUtilization (thresholds 60%)"
[ "$(rr nodes_freed)" -gt 0 ]
ok $? "generated: thresholds 60% free nodes"
rb --strategies HighNodeUtilization --rebalance-config "$T/h60.yaml"
sqlite3 "$db" "SELECT pod, action, node, from_node FROM plan ORDER BY namespace, pod" >"$T/g1.txt"
rb --strategies HighNodeUtilization --rebalance-config "$T/h60.yaml" --reference
sqlite3 "$db" "SELECT pod, action, node, from_node FROM plan ORDER BY namespace, pod" >"$T/g2.txt"
cmp -s "$T/g1.txt" "$T/g2.txt"
ok $? "generated: --reference gives identical rows"
# the same pods bound as MostAllocated packed them: consolidation and spreading
"$gen" --nodes 100 --pods 2000 -o "$T/gen.yaml" && "$KPLAN" import -q "$T/packed.db" "$T/gen.yaml"
db="$T/packed.db"
"$KPLAN" plan -q --strategy most "$db"
sqlite3 "$db" "UPDATE pod SET phase = 'Running', node_name = (SELECT n.name FROM placement pl JOIN node n ON n.id = pl.node_id
               WHERE pl.run_id = (SELECT max(id) FROM run) AND pl.pod_id = pod.id)"
"$KPLAN" plan -q "$db"
base_used=$(q "$db" "SELECT nodes_used FROM plan_quality WHERE run_id = (SELECT max(id) FROM run)")
rb --strategies HighNodeUtilization
check_quality "packed, HighNodeUtilization (thresholds 20%)"
rb --strategies LowNodeUtilization
is "$(q "$db" "SELECT stddev_after < stddev_before FROM rebalance_util WHERE run_id = (SELECT max(id) FROM run) AND resource = 'cpu'")" 1 \
	"packed, LowNodeUtilization: the cpu std-dev drops"
echo "# packed, LowNodeUtilization: $(rr moves) moves in $(rr waves) waves; $(q "$db" "SELECT group_concat(resource || ' ' ||
	stddev_before || ' -> ' || stddev_after, ', ') FROM rebalance_util WHERE run_id = (SELECT max(id) FROM run)")"
# the policy example of docs/rebalance.md
sed -n '/^apiVersion: descheduler\/v1alpha2/,/^```/p' "$ROOT/docs/rebalance.md" | sed '$d' >"$T/readme-policy.yaml"
rb --rebalance-config "$T/readme-policy.yaml" --max-moves 50
is "$rc/$(rr "replace(strategies, ',', ' ')")/$(rr moves)" "0/RemovePodsViolatingNodeTaints RemovePodsViolatingNodeAffinity RemoveDuplicates LowNodeUtilization/50" \
	"the policy example of docs/rebalance.md: its strategies, at most 50 moves"
db="$T/gen.db"
# every strategy at once: no pod moves twice, none back to where it was
rb --strategies RemovePodsViolatingNodeTaints,RemovePodsViolatingNodeAffinity,RemovePodsViolatingInterPodAntiAffinity,RemovePodsViolatingTopologySpreadConstraint,RemoveDuplicates,LowNodeUtilization,HighNodeUtilization \
	--rebalance-config "$T/h60.yaml"
is "$rc" 0 "generated: every strategy at once"
is "$(q "$db" "SELECT count(*) - count(DISTINCT pod_id) FROM move_wave WHERE run_id = (SELECT max(id) FROM run)")" 0 \
	"no pod moves twice"
is "$(q "$db" "SELECT count(*) FROM move_wave WHERE run_id = (SELECT max(id) FROM run) AND from_node_id = to_node_id")" 0 \
	"no pod moves back to the node it left"
is "$(q "$db" "SELECT count(*) FROM placement pl JOIN move_wave m ON m.run_id = pl.run_id AND m.pod_id = pl.pod_id
               WHERE pl.run_id = (SELECT max(id) FROM run) AND (pl.action <> 'move' OR pl.node_id <> m.to_node_id
               OR pl.from_node_id <> m.from_node_id)")" 0 "placement's move rows match move_wave"
inputs "$db" >"$T/gen-now.sql"
cmp -s "$T/gen-in.sql" "$T/gen-now.sql"
ok $? "generated: the imported tables are byte-identical"

# --- quality on the openb trace ($KP_SHARED_DATA/openb: 1213 GPU nodes, 8152 pods).
# Every openb pod is bare (no owner): nothing moves unless --evict-bare-pods.  The
# GPU pods claim DRA devices (importers/openb.c: gpu-N devices of 1000 milli, a
# share on one of them); the utilisation strategies look at cpu, memory and pods
# only, but every move is placed by the planner, its claims freed on the old node
# and allocated anew where it goes (docs/rebalance.md), so GPU fit holds.
OB=$KP_SHARED_DATA/openb
N_OPENB=27   # the tests below
if [ ! -f "$OB/openb_node_list_gpu_node.csv" ] || [ ! -f "$OB/openb_pod_list_default.csv" ]; then
	skip "shared data absent ($OB): no openb rebalance measurement" "$N_OPENB"
	done_testing
fi
db="$T/openb.db"
"$KPLAN" import -q "$db" "$OB/openb_node_list_gpu_node.csv" "$OB/openb_pod_list_default.csv" && "$KPLAN" plan -q "$db"
ok $? "openb: imported and planned"
# bound as planned: the pods where run 1 put them, their GPU claims allocated the devices it
# gave them (as `kplan plan --from-run` does: queries/whatif/from_run_dra_*.sql)
bind_as_planned "$db"
is "$(q "$db" "SELECT count(*) FROM pod WHERE node_name IS NOT NULL AND owner_kind IS NULL")" \
	"$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND action = 'bind'")" \
	"openb: every pod the plan placed is bound, and bare (the rest stay pending, unschedulable)"
is "$(q "$db" "SELECT count(*) FROM resource_claim WHERE allocated")" \
	"$(q "$db" "SELECT count(*) FROM pod p JOIN pod_resource_claim c ON c.pod_id = p.id WHERE p.node_name IS NOT NULL")" \
	"openb: every bound GPU pod's claim is allocated"
"$KPLAN" plan -q "$db"
is "$(q "$db" "SELECT count(*) FROM placement WHERE run_id = (SELECT max(id) FROM run) AND action = 'unschedulable'")" \
	"$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND action = 'unschedulable'")" \
	"openb, bound as planned: the pods run 1 left pending still find no GPU (the bound pods hold theirs)"
base_used=$(q "$db" "SELECT nodes_used FROM plan_quality WHERE run_id = (SELECT max(id) FROM run)")
echo "# openb, bound as planned: nodes used $base_used; $(q "$db" "SELECT 'bound ' || bound || ' (' || bound_by || ')' FROM plan_quality
	WHERE run_id = (SELECT max(id) FROM run)"); gap $(q "$db" "SELECT gap_pct FROM plan_quality WHERE run_id = (SELECT max(id) FROM run)")%"
# after the latest run: no node holds more than its allocatable of any resource, and no GPU
# more than its 1000 milli (each claim on the devices the run allocated it, else on its input
# allocation, unless its pod was evicted or left unschedulable)
over_alloc() { q "$db" "WITH last AS (SELECT max(id) AS r FROM run),
	cur AS (SELECT a.claim_id, a.pool, a.device FROM dra_allocation a, last WHERE a.run_id = last.r
	        UNION ALL
	        SELECT r.claim_id, r.pool, r.device FROM resource_claim_result r JOIN resource_claim rc ON rc.id = r.claim_id, last
	        WHERE rc.allocated AND r.claim_id NOT IN (SELECT claim_id FROM dra_allocation WHERE run_id = last.r)
	          AND NOT EXISTS (SELECT 1 FROM pod p JOIN placement pl ON pl.pod_id = p.id AND pl.run_id = last.r
	                          WHERE p.namespace = rc.namespace AND p.name = rc.owner_name AND pl.action IN ('evict', 'unschedulable'))),
	used AS (SELECT cur.pool, cur.device, sum(c.value) AS milli FROM cur JOIN resource_claim rc ON rc.id = cur.claim_id
	         JOIN claim_request_capacity c ON c.spec_id = rc.spec_id AND c.name = 'milli' GROUP BY 1, 2)
	SELECT (SELECT count(*) FROM node_usage WHERE requested_after > allocatable) || '/' ||
	       (SELECT count(*) FROM used JOIN slice_device d ON d.name = used.device
	        JOIN resource_slice s ON s.id = d.slice_id AND s.pool = used.pool
	        JOIN device_capacity k ON k.device_id = d.id AND k.name = 'milli' WHERE used.milli > k.value)"; }
gpu_moves() { q "$db" "SELECT count(*) FROM move_wave m JOIN pod_resource_claim c ON c.pod_id = m.pod_id
	WHERE m.run_id = (SELECT max(id) FROM run)"; }
sd_up() { # sd_up RESOURCE: 1 when the latest run raised its std-dev
	q "$db" "SELECT stddev_after > stddev_before FROM rebalance_util WHERE run_id = (SELECT max(id) FROM run) AND resource = '$1'"
}
rb
is "$rc/$(moves)" "0/(none)" "openb, default strategies: nothing moves (bare pods never do)"
[ "$(rr kept)" -gt 0 ] && [ "$(rr "no_home + limited")" -eq 0 ]
ok $? "openb, default strategies: the pods picked are counted as kept by the evictor's rules ($(rr kept)), none as without a home"
rb --strategies HighNodeUtilization --rebalance-config "$T/h60.yaml"
is "$rc/$(moves)" "0/(none)" "openb, HighNodeUtilization (60%) without --evict-bare-pods: nothing moves"
rb --strategies HighNodeUtilization --evict-bare-pods
is "$rc" 0 "openb: HighNodeUtilization --evict-bare-pods"
check_quality "openb, HighNodeUtilization --evict-bare-pods (thresholds 20%)"
[ "$(rr moves)" -gt 0 ] && [ "$(rr nodes_freed)" -gt 0 ]
ok $? "openb, HighNodeUtilization (20%): bare pods move and free nodes"
is "$(over_alloc)" 0/0 "openb, HighNodeUtilization (20%): no node over its allocatable, no GPU over 1000 milli ($(gpu_moves) GPU pods moved)"
rb --strategies HighNodeUtilization --rebalance-config "$T/h60.yaml" --evict-bare-pods
check_quality "openb, HighNodeUtilization --evict-bare-pods (thresholds 60%)"
[ "$(rr nodes_freed)" -gt 0 ]
ok $? "openb, HighNodeUtilization (60%): frees nodes"
is "$(over_alloc)" 0/0 "openb, HighNodeUtilization (60%): no node over its allocatable, no GPU over 1000 milli ($(gpu_moves) GPU pods moved)"
# The run's dra_allocation rows are the claims of the pods it moved, on the node each pod
# ends on (openb's devices are node-local: pool = node); a proposal tried and undone
# (kp_dra_restore gives the pod its claims back on its node) leaves no row.
is "$(q "$db" "SELECT count(*) || '/' || sum(pl.action <> 'move') || '/' || sum(a.node_id <> pl.node_id OR n.name <> a.pool)
	FROM dra_allocation a JOIN placement pl ON pl.run_id = a.run_id AND pl.pod_id = a.pod_id JOIN node n ON n.id = a.node_id
	WHERE a.run_id = (SELECT max(id) FROM run)")" \
	"$(q "$db" "SELECT count(*) || '/0/0' FROM move_wave m JOIN pod_resource_claim c ON c.pod_id = m.pod_id
		JOIN resource_claim rc ON rc.namespace = 'openb' AND rc.name = c.claim JOIN resource_claim_result r ON r.claim_id = rc.id
		WHERE m.run_id = (SELECT max(id) FROM run)")" \
	"openb, HighNodeUtilization (60%): dra_allocation holds the moved pods' devices only (rows/not moved/off the pod's node)"
is "$(sd_up cpu)/$(sd_up memory)" "1/1" "openb, HighNodeUtilization (60%): consolidation raises the cpu and memory std-dev"
# evictions without room on any allowed node skip the planner's cycle; --reference runs every cycle
rows() { sqlite3 "$db" "SELECT pod_id, action, node_id, from_node_id, seq FROM placement WHERE run_id = (SELECT max(id) FROM run);
                        SELECT seq, wave, pod_id, from_node_id, to_node_id, strategy, gain, cost FROM move_wave
                        WHERE run_id = (SELECT max(id) FROM run)"; }
rows >"$T/ob-fast.txt"
rb --strategies HighNodeUtilization --rebalance-config "$T/h60.yaml" --evict-bare-pods --reference
rows >"$T/ob-ref.txt"
cmp -s "$T/ob-fast.txt" "$T/ob-ref.txt"
ok $? "openb, HighNodeUtilization (60%): --reference (every cycle run) gives the same placement and move_wave rows"
rb --strategies LowNodeUtilization --evict-bare-pods
check_quality "openb, LowNodeUtilization --evict-bare-pods (20% / 50%)"
is "$(over_alloc)" 0/0 "openb, LowNodeUtilization: no node over its allocatable, no GPU over 1000 milli ($(gpu_moves) GPU pods moved)"
is "$(q "$db" "SELECT count(*) FROM move_wave m JOIN node_usage u ON u.node = m.to_node WHERE m.run_id = (SELECT max(id) FROM run)
	AND u.resource IN ('cpu', 'memory', 'pods') AND u.allocatable > 0 AND 100.0 * u.requested_after / u.allocatable > 50")" 0 \
	"openb, LowNodeUtilization: no move lands on a node it takes above targetThresholds (50%)"
is "$(sd_up cpu)" 0 "openb, LowNodeUtilization: the cpu std-dev does not rise"
echo "# openb, LowNodeUtilization: $(rr no_home) evictions not proposed (no other node: the mean cpu is" \
	"$(q "$db" "SELECT mean_before FROM rebalance_util WHERE run_id = (SELECT max(id) FROM run) AND resource = 'cpu'")%, above targetThresholds)"
done_testing
