#!/usr/bin/env bash
# 59-explain.t — `kplan explain` replays what the run did: the run's
# scenario (what-if options, --mode full, --mode rebalance) included, so the
# replay reaches the decision the run recorded.
. "$(dirname "$0")/../lib.sh"
W="$TESTS_DIR/data/whatif"
db="$T/c.db"
"$KPLAN" import -q "$db" "$W/cluster.yaml" || fail "import cluster.yaml"
"$KPLAN" plan -q "$db" || fail "baseline plan"

# --- a pod moved by `plan --drain`: the recorded move, not "not scheduled"
run "$KPLAN" plan -q --drain n1 "$db"
is "$(q "$db" "SELECT action || ' ' || node || ' <' || from_node FROM plan WHERE pod = 'api-7d9f-aaaaa'")" "move n2 <n1" \
	"setup: --drain n1 moves api-7d9f-aaaaa to n2"
run "$KPLAN" explain "$db" shop/api-7d9f-aaaaa
is "$rc" 0 "explain of a drained pod exits 0"
unlike "$out" "not scheduled in this run" "explain of a drained pod replays the drain"
like "$out" "decision: move to n2 (from n1)" "explain of a drained pod shows the recorded move"
unlike "$out" "warning:" "the replay agrees with the recorded decision"

done_testing
