#!/usr/bin/env bash
# 38-from-run.t — `plan --from-run N` starts from the state run N left
# (issue 14, "start from a plan"): the pods it bound or moved are bound where
# it put them, its victims gone (no controller) or pending again (a controller
# re-creates them, as the run modelled it), its unschedulable pods pending;
# the imported tables are not changed; a what-if run is refused.
. "$(dirname "$0")/../lib.sh"

db=$T/e.db
"$KPLAN" import -q "$db" "$ROOT/examples"
run "$KPLAN" plan "$db"
is "$rc" 0 "run 1: plan"
dump_pods() { sqlite3 "$db" "SELECT * FROM pod ORDER BY id" | sha256sum; }
pods_before=$(dump_pods)
run "$KPLAN" plan --from-run 1 "$db"
is "$rc" 0 "run 2 --from-run 1: exit 0"
like "$out" "what-if --from-run 1: the state run 1 left: " "the summary says what the state is"
# every pod run 1 placed (bind, move) or kept is kept in run 2, on the same node
is "$(q "$db" "SELECT count(*) FROM placement a JOIN placement b ON b.pod_id = a.pod_id AND b.run_id = 2
	WHERE a.run_id = 1 AND a.action IN ('bind', 'move', 'keep') AND a.node_id IS NOT NULL
	AND NOT (b.action = 'keep' AND b.node_id = a.node_id)")" 0 \
	"every pod run 1 placed or kept is a keep row of run 2 on run 1's node"
is "$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 2 AND action = 'keep' AND node_id IS NOT NULL")" \
	"$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND action IN ('bind', 'move', 'keep') AND node_id IS NOT NULL")" \
	"run 2 keeps exactly those"
is "$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 2 AND action NOT IN ('keep')")" \
	"$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND action IN ('unschedulable', 'evict')")" \
	"run 2 plans exactly run 1's unschedulable pods and the victims' replacements"
is "$(q "$db" "SELECT json_extract(options, '\$.whatif[0][0]') || ' ' || json_extract(options, '\$.whatif[0][1]') FROM run WHERE id = 2")" \
	"from-run 1" "run.options records --from-run"
is "$(dump_pods)" "$pods_before" "the imported pod table is unchanged"

# capacity --from-run: its baseline is plan --from-run's (the counts of run 2)
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: one}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]}\n' >"$T/one.yaml"
run "$KPLAN" capacity --from-run 1 --pod "$T/one.yaml" --no-record --format json "$db"
is "$rc" 0 "capacity --from-run 1: exit 0"
is "$(printf '%s' "$out" | python3 -c 'import json,sys; b=json.load(sys.stdin)["baseline"]; print(b["from_run"], b["pending"], b["placed"], b["unschedulable"], b["kept"])')" \
	"1 $(q "$db" "SELECT pending || ' ' || bound || ' ' || unschedulable || ' ' || kept FROM run WHERE id = 2")" \
	"capacity --from-run 1: the baseline counts equal run 2's (plan --from-run 1)"
run "$KPLAN" capacity --from-run 1 --pod "$T/one.yaml" --no-record "$db"
like "$out" "baseline: the state run 1 left (--from-run)" "capacity --from-run 1: the text names the baseline"

# fix --from-run: the state run 1 left, run 1's unschedulable pods
run "$KPLAN" fix --from-run 1 --no-record --format json "$db"
is "$rc" 0 "fix --from-run 1: exit 0"
is "$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["baseline"]["from_run"], d["run_id"], d["unschedulable"])')" \
	"True 1 $(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND action = 'unschedulable'")" \
	"fix --from-run 1: run 1's unschedulable pods, from the state it left"
run "$KPLAN" fix --from-run 1 --no-record "$db"
like "$out" "baseline: the state run 1 left (--from-run)" "fix --from-run 1: the text names the baseline"
run "$KPLAN" fix --run 1 --from-run 2 "$db"
is "$rc" 64 "fix --run 1 --from-run 2: a usage error"

# a rebalance from there: moves start from where run 1 put the pods
run "$KPLAN" plan --mode rebalance --from-run 1 "$db"
is "$rc" 0 "rebalance --from-run 1: exit 0"
r=$(q "$db" "SELECT max(id) FROM run")
is "$(q "$db" "SELECT count(*) FROM placement b JOIN placement a ON a.pod_id = b.pod_id AND a.run_id = 1
	WHERE b.run_id = $r AND b.action = 'move' AND b.from_node_id IS NOT a.node_id AND a.action IN ('bind', 'move')")" 0 \
	"rebalance --from-run 1: a pod run 1 placed moves from run 1's node"

# errors
run "$KPLAN" plan --from-run 99 "$db"
is "$rc" 1 "--from-run of a missing run: exit 1"
like "$err" "--from-run 99: no run 99" "--from-run of a missing run: says so"
run "$KPLAN" plan --from-run 0 "$db"
is "$rc" 64 "--from-run 0: usage error"
run "$KPLAN" plan --drain "$(q "$db" "SELECT name FROM node ORDER BY name LIMIT 1")" "$db"
w=$(q "$db" "SELECT max(id) FROM run")
runs=$(q "$db" "SELECT count(*) FROM run")
run "$KPLAN" plan --from-run "$w" "$db"
is "$rc" 1 "--from-run of a what-if run: exit 1"
like "$err" "run $w planned a what-if scenario" "--from-run of a what-if run: says why"
is "$(q "$db" "SELECT count(*) FROM run")" "$runs" "a refused --from-run writes no run"

# a victim without a controller is gone; one with a controller pending again
db=$T/p.db
"$KPLAN" import -q "$db" "$ROOT/tests/data/plan/system-priority.yaml"
"$KPLAN" plan -q "$db"
is "$(q "$db" "SELECT p.name FROM placement pl JOIN pod p ON p.id = pl.pod_id WHERE pl.run_id = 1 AND pl.action = 'evict'")" \
	victim "setup: run 1 evicts 'victim' (a bare pod)"
run "$KPLAN" plan --from-run 1 "$db"
like "$out" "1 victim gone" "the bare victim is gone"
is "$(q "$db" "SELECT count(*) FROM placement pl JOIN pod p ON p.id = pl.pod_id WHERE pl.run_id = 2 AND p.name = 'victim'")" 0 \
	"run 2 has no row for the victim"
is "$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 2 AND action = 'keep'")" 3 "run 2 keeps the three pods run 1 placed"

done_testing
