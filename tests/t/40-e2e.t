#!/usr/bin/env bash
# 40-e2e.t — golden end-to-end cases: tests/e2e/*.yaml.  Each case is
# Kubernetes YAML (nodes, pods, workloads, priority classes, maybe a
# KubeSchedulerConfiguration) with a header of comment lines:
#
#   # case: what it checks
#   # source: the kube-scheduler test or rule it is derived from (file, test name)
#   # args: extra `kplan plan` options (optional)
#   # expect: NAMESPACE/POD bind NODE
#   # expect: NAMESPACE/POD bind one-of NODE1 NODE2 ...     (kube breaks the tie at random)
#   # expect: NAMESPACE/POD unschedulable ~ SUBSTRING-OF-THE-MESSAGE
#   # expect: NAMESPACE/POD keep NODE
#   # expect-sql: SQL => VALUE                               (one value, csv)
#
# Every pod the plan binds or leaves unschedulable must be named by an expect
# line, so a case pins down every decision it makes.
. "$(dirname "$0")/../lib.sh"

cases=$(ls "$TESTS_DIR"/e2e/*.yaml 2>/dev/null | sort)
if [ -z "$cases" ]; then
	skip "no cases in tests/e2e" 1
	done_testing
fi
for f in $cases; do
	name=$(basename "$f" .yaml)
	db="$T/$name.db"
	args=$(sed -n 's/^# args: *//p' "$f" | head -1)
	run "$KPLAN" import -q "$db" "$f"
	if [ "$rc" != 0 ]; then
		fail "$name: import ($err)"
		continue
	fi
	# shellcheck disable=SC2086
	run "$KPLAN" plan -q $args "$db"
	if [ "$rc" != 0 ] && [ "$rc" != 2 ]; then
		fail "$name: plan exit $rc ($err)"
		continue
	fi
	"$KPLAN" query --format csv --no-header "$db" \
		"SELECT namespace || '/' || pod, action, COALESCE(node, ''), COALESCE(reason, '') FROM plan" > "$T/plan.csv"
	declared=""
	while IFS= read -r line; do
		spec=${line#\# expect: }
		pod=${spec%% *}
		rest=${spec#* }
		action=${rest%% *}
		arg=${rest#"$action"}
		arg=${arg# }
		declared="$declared $pod "
		row=$(grep -F "$pod," "$T/plan.csv" | grep "^$pod," | head -1)
		got_action=$(echo "$row" | cut -d, -f2)
		got_node=$(echo "$row" | cut -d, -f3)
		got_reason=$(echo "$row" | cut -d, -f4-)
		got_reason=${got_reason#\"}
		got_reason=${got_reason%\"}
		got_reason=${got_reason//\"\"/\"}   # CSV doubles the quotes inside a quoted field
		case "$action" in
		bind|keep|move)
			if [ "${arg%% *}" = "one-of" ]; then
				set -- ${arg#one-of }
				found=1
				for n in "$@"; do [ "$n" = "$got_node" ] && found=0; done
				if [ "$found" = 0 ] && [ "$got_action" = "$action" ]; then
					pass "$name: $pod $action one of [$*]"
				else
					fail "$name: $pod $action one of [$*] (got $got_action $got_node)"
				fi
			else
				is "$got_action $got_node" "$action $arg" "$name: $pod $action $arg"
			fi ;;
		unschedulable|evict)
			is "$got_action" "$action" "$name: $pod is $action"
			sub=${arg#\~ }
			if [ -n "$sub" ] && [ "$sub" != "$arg" ] || [ "${arg#\~}" != "$arg" ]; then
				like "$got_reason" "$sub" "$name: $pod message"
			fi ;;
		*) fail "$name: bad expect line: $line" ;;
		esac
	done < <(grep '^# expect: ' "$f")
	while IFS= read -r line; do
		spec=${line#\# expect-sql: }
		sql=${spec% => *}
		want=${spec##* => }
		got=$("$KPLAN" query --format csv --no-header "$db" "$sql" 2>&1)
		is "$got" "$want" "$name: $sql"
	done < <(grep '^# expect-sql: ' "$f")
	# nothing undeclared
	undeclared=$(awk -F, '$2 != "keep" { print $1 }' "$T/plan.csv" | while read -r p; do
		case "$declared" in *" $p "*) ;; *) echo "$p" ;; esac
	done)
	is "$undeclared" "" "$name: every decision is declared"
done
done_testing
