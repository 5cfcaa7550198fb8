#!/usr/bin/env bash
# 21-gang.t — gang scheduling (docs/gangs.md) beyond the e2e cases
# (tests/e2e/g-gang-*.yaml): the Workload API's import (kinds, versions, the
# pods' group, refusals with FILE:LINE:COL and the database unchanged), the
# warnings (gate off, kube before 1.35, 1.36 with one gate, the Job
# controller's PodGroups not modelled), the fast path against --reference on
# a generated cluster of gangs, rebalance never moving a gang's pod,
# capacity --survive losing a gang whole, and kplan fix checking the gang.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/gang"
ON="--kube-version 1.37 --feature-gates GenericWorkload=true"

# --- import: every form kplan reads
cat > "$T/kinds.yaml" <<'Y'
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: train, namespace: ml}
spec:
  controllerRef: {apiGroup: batch, kind: Job, name: train}
  podGroupTemplates:
  - {name: workers, schedulingPolicy: {gang: {minCount: 4}}, disruptionMode: {all: {}}, priorityClassName: high}
  - {name: driver, schedulingPolicy: {basic: {}}}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: train-workers-0, namespace: ml}
spec:
  workloadRef: {workloadName: train, templateName: workers}
  schedulingPolicy: {gang: {minCount: 4}}
  schedulingConstraints: {topology: [{key: topology.kubernetes.io/rack}]}
  priority: 1000
---
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: old, namespace: ml}
spec:
  podGroupTemplateRef: {workload: {workloadName: w, podGroupTemplateName: t}}
  schedulingPolicy: {basic: {}}
  schedulingConstraints: {topologyConstraints: [{topologyKey: rack}]}
---
apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: w135, namespace: ml}
spec:
  podGroups: [{name: pg, policy: {gang: {minCount: 2}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml}
spec: {schedulingGroup: {podGroupName: train-workers-0}, containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: p135, namespace: ml}
spec: {workloadRef: {name: w135, podGroup: pg, podGroupReplicaKey: "0"}, containers: [{name: c, image: x}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  parallelism: 2
  template:
    spec: {schedulingGroup: {podGroupName: old}, restartPolicy: Never, containers: [{name: c, image: x}]}
Y
db=$T/kinds.db
run "$KPLAN" import "$db" "$T/kinds.yaml"
is "$rc" 0 "import: Workload, PodGroup (v1beta1, v1alpha2), v1alpha1 Workload, pods and a Job with a group"
is "$(q "$db" "SELECT group_concat(name || ':' || api_version || ':' || COALESCE(workload_name, '-') || '/' || COALESCE(template_name, '-') || ':' || policy || ':' || min_count || ':' || COALESCE(topology_key, '-') || ':' || COALESCE(priority, '-'), ' ') FROM (SELECT * FROM pod_group ORDER BY name)")" \
	"old:scheduling.k8s.io/v1alpha2:w/t:basic:1:rack:- train-workers-0:scheduling.k8s.io/v1beta1:train/workers:gang:4:topology.kubernetes.io/rack:1000" \
	"import: pod_group rows (v1beta1 workloadRef, v1alpha2 podGroupTemplateRef.workload, both topology forms)"
is "$(q "$db" "SELECT group_concat(w.name || '.' || t.name || ':' || t.policy || ':' || t.min_count || ':' || COALESCE(t.disruption_mode, '-') || ':' || COALESCE(t.priority_class, '-'), ' ') FROM (SELECT * FROM sched_workload_template ORDER BY workload_id, seq) t JOIN sched_workload w ON w.id = t.workload_id")" \
	"train.workers:gang:4:All:high train.driver:basic:1:-:- w135.pg:gang:2:-:-" "import: Workload templates (v1beta1 podGroupTemplates, v1alpha1 podGroups)"
is "$(q "$db" "SELECT controller_kind || '/' || controller_name FROM sched_workload WHERE name = 'train'")" "Job/train" "import: controllerRef"
is "$(q "$db" "SELECT group_concat(p.name || ':' || g.pod_group || ':' || COALESCE(g.workload, '-') || ':' || COALESCE(g.replica_key, '-'), ' ') FROM (SELECT * FROM pod_gang ORDER BY pod_id) g JOIN pod p ON p.id = g.pod_id")" \
	"p:train-workers-0:-:- p135:pg:w135:0 $(q "$db" "SELECT group_concat(name || ':old:-:-', ' ') FROM (SELECT name FROM pod WHERE workload_id IS NOT NULL ORDER BY id)")" \
	"import: the pods' groups (schedulingGroup, 1.35 workloadRef, a Job's generated pods through its template)"
# a pod imported again without its group loses it
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec: {containers: [{name: c, image: x}]}\n' > "$T/p.yaml"
"$KPLAN" import -q "$db" "$T/p.yaml"
is "$(q "$db" "SELECT count(*) FROM pod_gang g JOIN pod p ON p.id = g.pod_id WHERE p.name = 'p'")" 0 "import: a pod re-imported without schedulingGroup leaves its group"

# --- refusals: FILE:LINE:COL, nothing imported
bad() { # bad NAME YAML WANT
	printf '%s\n' "$2" > "$T/bad.yaml"
	local before after
	before=$(digest "$db")
	run "$KPLAN" import "$db" "$T/bad.yaml"
	after=$(digest "$db")
	is "$rc" 1 "refused: $1 (exit 1)"
	like "$err" "$3" "refused: $1 (message)"
	is "$after" "$before" "refused: $1 (database unchanged)"
}
bad "minCount 0" 'apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: x}
spec: {schedulingPolicy: {gang: {minCount: 0}}}' "bad.yaml:4:44: PodGroup default/x: spec.schedulingPolicy.gang.minCount: must be greater than or equal to 1"
bad "basic and gang" 'apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: x}
spec: {schedulingPolicy: {basic: {}, gang: {minCount: 2}}}' "bad.yaml:4:26: PodGroup default/x: spec.schedulingPolicy: exactly one of basic and gang must be set"
bad "no policy" 'apiVersion: scheduling.k8s.io/v1alpha2
kind: Workload
metadata: {name: x}
spec:
  podGroupTemplates:
  - {name: a}' "bad.yaml:6:5: Workload default/x: spec.podGroupTemplates[0].schedulingPolicy: required"
bad "duplicate template" 'apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: x}
spec:
  podGroupTemplates:
  - {name: a, schedulingPolicy: {basic: {}}}
  - {name: a, schedulingPolicy: {basic: {}}}' "bad.yaml:7:12: Workload default/x: spec.podGroupTemplates[1].name: duplicate value 'a'"
bad "PodGroup v1alpha1" 'apiVersion: scheduling.k8s.io/v1alpha1
kind: PodGroup
metadata: {name: x}
spec: {schedulingPolicy: {basic: {}}}' "apiVersion: scheduling.k8s.io/v1alpha1 PodGroup is not supported"
bad "schedulingGroup without a name" 'apiVersion: v1
kind: Pod
metadata: {name: x}
spec: {schedulingGroup: {}, containers: [{name: c, image: x}]}' "bad.yaml:4:25: Pod default/x: spec.schedulingGroup.podGroupName: required"
bad "both group fields" 'apiVersion: v1
kind: Pod
metadata: {name: x}
spec: {schedulingGroup: {podGroupName: a}, workloadRef: {name: w, podGroup: a}, containers: [{name: c, image: x}]}' \
	"spec.workloadRef: spec.schedulingGroup is set too"
bad "a PodGroup twice" 'apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: x}
spec: {schedulingPolicy: {basic: {}}}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: x}
spec: {schedulingPolicy: {basic: {}}}' "duplicate object in one import"

# --- warnings: when the Workload API does not act, the run says why
g=$TESTS_DIR/e2e/g-gang-order.yaml
db=$T/warn.db
"$KPLAN" import -q "$db" "$g"
"$KPLAN" plan -q "$db" 2>/dev/null
like "$(q "$db" "SELECT message FROM run_warning WHERE run_id = 1 AND kind = 'gang'")" \
	"but the gate GenericWorkload is off (the default): pods planned one by one" "gate off: the warning names GenericWorkload"
"$KPLAN" plan -q --kube-version 1.34 "$db" 2>/dev/null
like "$(q "$db" "SELECT message FROM run_warning WHERE run_id = 2 AND kind = 'gang'")" \
	"the Workload API does not exist before kube 1.35" "kube 1.34: no Workload API"
"$KPLAN" plan -q --kube-version 1.35 --feature-gates GenericWorkload=true,GangScheduling=true "$db" 2>/dev/null
like "$(q "$db" "SELECT message FROM run_warning WHERE run_id = 3 AND kind = 'gang-field'")" \
	"2 pod(s) name their group with spec.schedulingGroup (1.36+), which kube 1.35 drops" "kube 1.35: schedulingGroup is not its field"
is "$(q "$db" "SELECT group_concat(action, ' ') FROM (SELECT action FROM placement WHERE run_id = 3 ORDER BY pod_id)")" \
	"bind bind unschedulable" "kube 1.35: schedulingGroup pods go one by one (a1, x bind; a2 does not fit)"
run "$KPLAN" plan -q $ON "$db"
is "$(q "$db" "SELECT count(*) FROM run_warning WHERE run_id = 4")" 0 "gate on: no warning"
db=$T/job.db
"$KPLAN" import -q "$db" "$T/kinds.yaml"
"$KPLAN" plan -q $ON "$db" 2>/dev/null
is "$(q "$db" "SELECT pods FROM run_warning WHERE kind = 'gang-job'")" "" "a Workload's Job with a PodGroup: no gang-job warning"
sqlite3 "$db" "DELETE FROM pod_group WHERE name = 'train-workers-0'"
"$KPLAN" plan -q $ON "$db" 2>/dev/null
like "$(q "$db" "SELECT message FROM run_warning WHERE run_id = 2 AND kind = 'gang-job'")" \
	"1 Job(s) are the controllerRef of a Workload without a PodGroup" "WorkloadWithJob not modelled: warned"

# --- the fast path and --reference write the same rows on a cluster of gangs
gen() { # nodes, gangs of 2..6 pods, singles at three priorities (preemption)
	for n in $(seq 1 12); do
		printf 'apiVersion: v1\nkind: Node\nmetadata: {name: n%02d, labels: {kubernetes.io/hostname: n%02d, zone: z%d}}\nstatus: {allocatable: {cpu: "%d", memory: 16Gi, pods: "20"}}\n---\n' \
			"$n" "$n" $((n % 3)) $((4 + n % 3 * 2))
	done
	for gi in $(seq 1 14); do
		size=$((2 + gi % 5)) min=$((1 + gi % 5)) pol="gang: {minCount: $min}"
		[ $((gi % 7)) = 0 ] && pol="basic: {}"
		printf 'apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g%d, namespace: default}\nspec: {schedulingPolicy: {%s}}\n---\n' "$gi" "$pol"
		for k in $(seq 1 "$size"); do
			printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: g%d-%d, namespace: default, creationTimestamp: "2026-01-01T00:%02d:%02dZ", labels: {app: g%d}}\nspec:\n  priority: %d\n  schedulingGroup: {podGroupName: g%d}\n  containers: [{name: c, image: x, resources: {requests: {cpu: "%d"}}}]\n' \
				"$gi" "$k" "$gi" "$k" "$gi" $((gi % 3 * 100)) "$gi" $((1 + (gi + k) % 3))
			[ $((gi % 4)) = 0 ] && printf '  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: g%d}}}]\n' "$gi"
			printf -- '---\n'
		done
	done
	for s in $(seq 1 30); do
		printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: s%d, namespace: default, creationTimestamp: "2026-01-01T00:%02d:30Z", ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: u, controller: true}]}\nspec: {priority: %d, containers: [{name: c, image: x, resources: {requests: {cpu: "%d"}}}]}\n---\n' \
			"$s" $((s % 15)) $((s % 3 * 100)) $((1 + s % 2))
	done
}
gen > "$T/gen.yaml"
db=$T/gen.db
"$KPLAN" import -q "$db" "$T/gen.yaml"
"$KPLAN" plan -q $ON "$db" 2>/dev/null
"$KPLAN" plan -q --reference $ON "$db" 2>/dev/null
for t in "placement:pod_id, seq, action, node_id, from_node_id, score, feasible, attempts, reason" \
	 "eviction:seq, pod_id, node_id, preemptor_pod_id" "pod_failure:pod_id, plugin, reason, nodes"; do
	tab=${t%%:*} cols=${t#*:}
	d=$(q "$db" "SELECT (SELECT count(*) FROM (SELECT $cols FROM $tab WHERE run_id = 1 EXCEPT SELECT $cols FROM $tab WHERE run_id = 2))
		 + (SELECT count(*) FROM (SELECT $cols FROM $tab WHERE run_id = 2 EXCEPT SELECT $cols FROM $tab WHERE run_id = 1))")
	is "$d" 0 "generated gangs: $tab rows identical with --reference ($(q "$db" "SELECT count(*) FROM $tab WHERE run_id = 1") rows)"
done
ok "$([ "$(q "$db" "SELECT count(*) FROM pod_failure WHERE run_id = 1 AND plugin = 'GangScheduling'")" -gt 0 ]; echo $?)" \
	"generated gangs: some gangs were reverted"
ok "$([ "$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND action = 'bind' AND pod_id IN (SELECT pod_id FROM pod_gang)")" -gt 0 ]; echo $?)" \
	"generated gangs: some gangs were placed"
# all or nothing: no gang ends with fewer than minCount placed, unless none is
is "$(q "$db" "SELECT count(*) FROM (SELECT g.pod_group, pg.min_count, sum(pl.action = 'bind') AS b FROM pod_gang g
		JOIN pod_group pg ON pg.name = g.pod_group JOIN placement pl ON pl.pod_id = g.pod_id AND pl.run_id = 1
		WHERE pg.policy = 'gang' GROUP BY g.pod_group HAVING b > 0 AND b < pg.min_count)")" 0 \
	"generated gangs: every gang binds at least minCount pods or none"

# --- rebalance never moves a gang's pod
for g in on off; do
	db=$T/rb-$g.db
	"$KPLAN" import -q "$db" "$D/rebalance.yaml"
	a=""
	[ $g = on ] && a=$ON
	"$KPLAN" plan -q --mode rebalance --strategies RemovePodsViolatingNodeTaints $a "$db" 2>/dev/null
	got=$(q "$db" "SELECT group_concat(pod || ' ' || action || ' ' || COALESCE(node, '-'), '; ') FROM (SELECT * FROM plan ORDER BY pod)")
	if [ $g = on ]; then
		is "$got" "g1 keep n1; g2 keep n1; w1 move n2" "rebalance, gate on: the gang's pods stay, w1 moves"
	else
		is "$got" "g1 move n2; g2 move n2; w1 move n2" "rebalance, gate off: no gangs, every violating pod moves"
	fi
done

# --- capacity --survive: a gang left below minCount is lost whole
db=$T/survive.db
"$KPLAN" import -q "$db" "$D/survive.yaml"
run "$KPLAN" capacity --survive node $ON "$db"
is "$(q "$db" "SELECT group_concat(domain || ':' || pods_displaced || ':' || pods_lost, ' ') FROM (SELECT * FROM capacity_domain ORDER BY domain)")" \
	"n1:2:4 n2:2:4 n3:0:0" "survive: losing n1 or n2 displaces 2 pods and loses the gang's 4"
like "$out" "loses default/w3 (priority 0): its gang default/pg has 2 of minCount 4 pods placed" "survive: a survivor is lost with its gang"
run "$KPLAN" capacity --survive node "$db"
is "$(q "$db" "SELECT group_concat(pods_lost, ' ') FROM (SELECT * FROM capacity_domain WHERE capacity_id = 2 ORDER BY domain)")" \
	"1 1 0" "survive, gate off: only the pod that finds no node is lost"

# --- kplan fix: a fix is checked by a plan where the gang places whole
db=$T/fix.db
"$KPLAN" import -q "$db" "$D/fix.yaml"
"$KPLAN" plan -q $ON "$db" 2>/dev/null
is "$(q "$db" "SELECT group_concat(pod || ':' || action, ' ') FROM (SELECT * FROM plan WHERE pod LIKE 'g%' ORDER BY pod)")" \
	"g1:unschedulable g2:unschedulable" "fix: the gang fails (g1 fits alone on n2, reverted)"
run "$KPLAN" fix "$db"
is "$(q "$db" "SELECT group_concat(pod || '|' || kind || '|' || victims || '|' || result_node, ' ') FROM (SELECT * FROM fix WHERE rank = 1 ORDER BY pod)" | sed -e 's/^"\(.*\)"$/\1/' -e 's/""/"/g')" \
	'g1|evict|["default/filler"]|n1 g2|evict|["default/filler"]|n2' "fix: evicting filler places the whole gang (g1 on n1, g2 on n2)"
like "$(q "$db" "SELECT message FROM run_warning WHERE run_id = 1 AND kind = 'gang-priority'")" \
	"1 gang(s) left short of minCount have a PodGroup without priority or priorityClassName while their pods have a higher priority" \
	"fix: the plan warns that the PodGroup's priority (0), not the pods' (100), ranks the group for preemption"
is "$(q "$db" "SELECT count(*) FROM eviction WHERE run_id = 1")" 0 "fix: a group of priority 0 preempts nothing"
# the same PodGroup with priority 100: workload-aware preemption (1.37) evicts filler and the gang binds whole
db=$T/fixprio.db
sed 's/spec: {schedulingPolicy: {gang: {minCount: 2}}}/spec: {priority: 100, schedulingPolicy: {gang: {minCount: 2}}}/' "$D/fix.yaml" > "$T/fixprio.yaml"
"$KPLAN" import -q "$db" "$T/fixprio.yaml"
"$KPLAN" plan -q $ON "$db" 2>/dev/null
is "$(q "$db" "SELECT group_concat(pod || ':' || action || ':' || COALESCE(node, ''), ' ') FROM (SELECT * FROM plan WHERE pod <> 'x' ORDER BY pod)")" \
	"filler:evict: g1:bind:n1 g2:bind:n2" "PodGroup priority 100: the group preempts filler (KEP-5710) and binds whole"
is "$(q "$db" "SELECT count(*) FROM run_warning WHERE run_id = 1 AND kind IN ('gang-priority', 'gang-preemption')")" 0 \
	"PodGroup priority 100: no gang-priority or gang-preemption warning"
"$KPLAN" plan -q --kube-version 1.36 --feature-gates GenericWorkload=true,GangScheduling=true "$db" 2>/dev/null
is "$(q "$db" "SELECT count(*) FROM eviction WHERE run_id = 2")" 0 "PodGroup priority 100, kube 1.36: no workload-aware preemption"
like "$(q "$db" "SELECT message FROM run_warning WHERE run_id = 2 AND kind = 'gang-preemption'")" \
	"kube 1.36's preemption for a pod group is not modelled" "kube 1.36: the run warns gang-preemption"
"$KPLAN" plan -q --no-preemption $ON "$db" 2>/dev/null
is "$(q "$db" "SELECT count(*) FROM eviction WHERE run_id = 3")" 0 "--no-preemption: no workload-aware preemption"
# --- capacity --pod of a Job in a pod group: its copies come in gangs
db=$T/cap.db
"$KPLAN" import -q "$db" "$D/capacity.yaml"
run "$KPLAN" capacity --pod "$D/job.yaml" $ON "$db"
is "$rc" 0 "capacity --pod, gangs: exit 0"
like "$out" "8 more replicas of $D/job.yaml (requests: cpu 3) fit" "capacity --pod, gangs: 8 pods (two whole gangs of 4) of 10 slots"
like "$out" "in gangs of 4 (minCount 4): 2 whole gangs of 3 tried bound" "capacity --pod, gangs: the gangs counted"
like "$out" "the next one does not fit: minCount (4) cannot be satisfied: 2 scheduled, 1 remaining" "capacity --pod, gangs: the third gang's status"
is "$(q "$db" "SELECT json_extract(result, '$.gang.fit') || '/' || json_extract(result, '$.gang.tried') || ' ' || json_extract(result, '$.tried') FROM capacity_run WHERE id = 1")" \
	"2/3 12" "capacity --pod, gangs: JSON gang.fit, gang.tried; --max rounded up to whole gangs (11 -> 12)"
run "$KPLAN" capacity --pod "$D/job.yaml" "$db"
like "$out" "10 more replicas of $D/job.yaml (requests: cpu 3) fit" "capacity --pod, gate off: one by one, every slot"
unlike "$out" "in gangs of" "capacity --pod, gate off: no gangs"
# copies in gangs take their PodGroup's priority for workload-aware preemption (1.37): four low pods
# fill n01..n04; with priority 1000 the second gang evicts two of them, with none it cannot
sed 's/spec: {schedulingPolicy: {gang: {minCount: 4}}}/spec: {priority: 1000, schedulingPolicy: {gang: {minCount: 4}}}/' \
	"$D/capacity.yaml" > "$T/capprio.yaml"
for i in 1 2 3 4; do
	printf -- '---\napiVersion: v1\nkind: Pod\nmetadata: {name: low%s, namespace: default}\nspec: {nodeName: n0%s, containers: [{name: c, image: x, resources: {requests: {cpu: "3"}}}]}\nstatus: {phase: Running}\n' "$i" "$i" >> "$T/capprio.yaml"
done
"$KPLAN" import -q "$T/capprio.db" "$T/capprio.yaml"
run "$KPLAN" capacity --pod "$D/job.yaml" $ON "$T/capprio.db"
like "$out" "in gangs of 4 (minCount 4): 2 whole gangs of 2 tried bound" "capacity --pod, PodGroup priority 1000: the second gang preempts (KEP-5710)"
sed 's/priority: 1000, //' "$T/capprio.yaml" > "$T/capprio0.yaml"
"$KPLAN" import -q "$T/capprio0.db" "$T/capprio0.yaml"
run "$KPLAN" capacity --pod "$D/job.yaml" $ON "$T/capprio0.db"
like "$out" "pod group preemption: No preemption victims found for incoming preemptor" "capacity --pod, PodGroup priority 0: no victims"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: lone}\nspec: {schedulingGroup: {podGroupName: nope}, containers: [{name: c, image: x}]}\n' > "$T/lone.yaml"
run "$KPLAN" capacity --pod "$T/lone.yaml" $ON "$db"
like "$err" "its pods name the pod group default/nope, which was not imported" "capacity --pod: a pod group the cluster lacks is refused"
done_testing
