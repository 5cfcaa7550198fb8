#!/bin/sh
# valgrind.sh — the main paths of the test suite under valgrind --leak-check=full:
# init, import (examples, CSV, openb when ../shared/data is there, a bad file),
# plan (with preemption), explain, query, and the extension in the sqlite3
# shell.  Any error or leak fails (exit 1).  Run by `make valgrind`.
set -u
K=${KPLAN:-build/kplan}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
VG="valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99"
fails=0
n=0
check() {  # check NAME CMD...: the command may exit 0..3 (kplan's own codes), never 99 (valgrind)
	name=$1; shift
	n=$((n + 1))
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -eq 99 ] || grep -q "==[0-9]*==" "$T/err"; then
		echo "not ok $n - $name"
		sed 's/^/#   /' "$T/err" | head -40
		fails=$((fails + 1))
	else
		echo "ok $n - $name (exit $rc)"
	fi
}
check "init" $VG "$K" init "$T/a.db"
check "import examples" $VG "$K" import "$T/a.db" examples
check "plan (preemption, DaemonSets)" $VG "$K" plan "$T/a.db"
check "explain a preemptor" $VG "$K" explain "$T/a.db" data/urgent-report
check "explain an unschedulable pod" $VG "$K" explain "$T/a.db" ml/too-big
check "query json" $VG "$K" query --format json "$T/a.db" "SELECT * FROM plan LIMIT 5"
check "bad input (rolled back)" $VG "$K" import "$T/a.db" tests/data/bad/quantity-suffix-cpu.yaml
check "config file" $VG "$K" plan --config tests/data/config/most-allocated.yaml "$T/a.db"
check "bad config" $VG "$K" plan --config tests/data/config/bad-unknown-plugin.yaml "$T/a.db"
check "import csv" $VG "$K" import "$T/c.db" tests/data/import/tree
if [ -d ../shared/data/openb ]; then
	check "import openb" $VG "$K" import --format openb "$T/o.db" ../shared/data/openb/openb_node_list_gpu_node.csv \
		../shared/data/openb/openb_pod_list_gpushare20.csv
	check "plan openb" $VG "$K" plan -q "$T/o.db"
else
	echo "ok $((n + 1)) # SKIP ../shared/data/openb absent"
	n=$((n + 1))
fi
echo "1..$n"
echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
