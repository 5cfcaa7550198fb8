#!/usr/bin/env bash
# 44-node-buckets.t — the node buckets (planner/plan_bucket.c) decide what
# the node-by-node path decides.
#
# On clusters built to vary every input a bucket key holds (TaintToleration
# and NodeAffinity raw scores, soft spread domains and hostname counts,
# nodes without the topology labels, Services, one class under two owners)
# and every way a cycle leaves the buckets (no feasible node, preemption,
# DoNotSchedule spread), three plans must write the same rows: the default
# (buckets), KPLAN_BUCKETS=0 (the node-local cache alone) and --reference
# (every plugin on every node).  The timing line must show the buckets
# deciding most cycles and the node-by-node path some.
. "$(dirname "$0")/../lib.sh"

GEN=$TESTS_DIR/helpers/bucket_cluster.pl

# runs B+1, B+2, B+3 of DB write the same rows
same3() { # DB NAME B
	local b=$3
	for t in "placement:pod_id, seq, action, node_id, from_node_id, score, feasible, attempts, reason" \
		 "eviction:seq, pod_id, node_id, preemptor_pod_id, pdb_violated, pdbs" \
		 "pod_failure:pod_id, plugin, reason, nodes"; do
		tab=${t%%:*} cols=${t#*:}
		for r in $((b + 2)) $((b + 3)); do
			d=$(q "$1" "SELECT (SELECT count(*) FROM (SELECT $cols FROM $tab WHERE run_id = $((b + 1)) EXCEPT SELECT $cols FROM $tab WHERE run_id = $r))
				 + (SELECT count(*) FROM (SELECT $cols FROM $tab WHERE run_id = $r EXCEPT SELECT $cols FROM $tab WHERE run_id = $((b + 1))))")
			n=$(q "$1" "SELECT count(*) FROM $tab WHERE run_id = $((b + 1))")
			is "$d" 0 "$2: $tab rows of the $((r - b))th run equal the buckets' ($n rows)"
		done
	done
}

plan3() { # DB NAME [OPTION...]
	local db=$1 name=$2 base
	shift 2
	base=$(q "$db" "SELECT coalesce(max(id), 0) FROM run")
	run env KPLAN_TIMING=1 "$KPLAN" plan -q "$@" "$db"
	is "$rc" 0 "$name: plan exits 0"
	cycles=$(printf '%s\n' "$err" | sed -n 's/.*; \([0-9]*\) cycles, \([0-9]*\) decided by node buckets$/\1/p')
	bucket=$(printf '%s\n' "$err" | sed -n 's/.*; \([0-9]*\) cycles, \([0-9]*\) decided by node buckets$/\2/p')
	run env KPLAN_BUCKETS=0 KPLAN_TIMING=1 "$KPLAN" plan -q "$@" "$db"
	is "$rc" 0 "$name: plan with KPLAN_BUCKETS=0 exits 0"
	is "$(printf '%s\n' "$err" | sed -n 's/.*, \([0-9]*\) decided by node buckets$/\1/p')" 0 \
		"$name: KPLAN_BUCKETS=0 turns the buckets off"
	run "$KPLAN" plan -q --reference "$@" "$db"
	is "$rc" 0 "$name: plan --reference exits 0"
	same3 "$db" "$name" "$base"
}

nev=0
for seed in 1 2 3; do
	db=$T/b-$seed.db
	perl "$GEN" "$seed" > "$T/c.yaml"
	"$KPLAN" import -q "$db" "$T/c.yaml"
	plan3 "$db" "seed $seed"
	ok "$([ "${bucket:-0}" -gt 0 ] && [ "$bucket" -lt "$cycles" ]; echo $?)" \
		"seed $seed: the buckets decided $bucket of $cycles cycles, the node-by-node path the rest"
	nev=$((nev + $(q "$db" "SELECT count(*) FROM eviction WHERE run_id = 1")))
	ok "$([ "$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND action = 'unschedulable'")" -gt 0 ]; echo $?)" \
		"seed $seed: some pods are unschedulable"
done

ok "$([ "$nev" -gt 0 ]; echo $?)" "the three seeds: preemption evicted $nev pods"

# other scoring: another tie-break seed, MostAllocated, the 1.33 BalancedAllocation
db=$T/b-1.db
for opts in "--seed 7" "--strategy most" "--kube-version 1.33" "--no-preemption"; do
	# shellcheck disable=SC2086
	plan3 "$db" "seed 1, $opts" $opts
done

# a profile: List default constraints (ScheduleAnyway) and other weights
cat > "$T/config.yaml" <<'EOF'
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints:
      - {maxSkew: 2, topologyKey: rack, whenUnsatisfiable: ScheduleAnyway}
      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway}
  plugins:
    score:
      enabled:
      - {name: TaintToleration, weight: 5}
      - {name: NodeAffinity, weight: 4}
      - {name: PodTopologySpread, weight: 7}
EOF
plan3 "$db" "seed 1, List default constraints and weights" --config "$T/config.yaml"
ok "$([ "${bucket:-0}" -gt 0 ]; echo $?)" "List default constraints: the buckets decided $bucket of $cycles cycles"

# the generated bench cluster (plain mix: every cycle can take the buckets)
G=$(dirname "$KPLAN")/bench/gen
db=$T/plain.db
"$G" --nodes 300 --pods 6000 --seed 4 --mix plain -o "$T/p.yaml"
"$KPLAN" import -q "$db" "$T/p.yaml"
plan3 "$db" "bench plain mix"
is "$bucket" "$cycles" "bench plain mix: the buckets decided every cycle ($bucket)"
done_testing
