#!/usr/bin/env bash
# 71-report-html.t — `kplan report --format html` in a real browser: Debian's
# chromium, headless (installed with scripts/deps.sh when missing; skipped,
# saying why, only when it cannot be installed).  The page must run its
# script without an error or a console error, mark <body data-ok="1">, sort
# every table both ways (#selftest: data-sort-ok="1"), and each chart must
# hold as many elements as the database says.  A screenshot is written next
# to the kplan binary (build/report.png).  Hostile strings in the data must
# not run as script.
. "$(dirname "$0")/../lib.sh"
NTESTS=24
if ! command -v chromium >/dev/null 2>&1; then
	sh "$ROOT/scripts/deps.sh" chromium >"$T/deps.log" 2>&1
fi
if ! command -v chromium >/dev/null 2>&1; then
	skip "chromium is not installed and could not be installed ($(tail -1 "$T/deps.log" 2>/dev/null)); run: apt-get install chromium" "$NTESTS"
	done_testing
fi

# browse FILE NAME: the DOM after the page's scripts ran, in $T/NAME.dom; chromium's log in $T/NAME.log
browse() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$T/chrome" \
		--enable-logging=stderr --v=0 --dump-dom "file://$1#selftest" >"$T/$2.dom" 2>"$T/$2.log"
}
attr() { grep -o "<body[^>]*>" "$T/$1.dom" | grep -o " $2=\"[^\"]*\"" | sed 's/.*="\(.*\)"/\1/'; }
# console messages (chromium logs every one, errors and CSP violations included,
# as INFO:CONSOLE; the page writes none of its own), uncaught errors, refusals
console_errors() { grep -E 'CONSOLE|Uncaught|Refused to|Content Security Policy' "$T/$1.log" || true; }

db="$T/ex.db"
(cd "$ROOT" && "$KPLAN" import -q "$db" examples/) || fail "import examples/"
"$KPLAN" plan -q "$db" || fail "plan examples/"
"$KPLAN" report --format html -o "$T/ex.html" -q "$db" || fail "report --format html"

browse "$T/ex.html" ex
is "$(attr ex data-ok)" 1 "examples: the page's script ran to the end without an error (data-ok=1)"
is "$(attr ex data-errors)" "" "examples: no script error recorded"
is "$(console_errors ex)" "" "examples: no console error in chromium's log"
is "$(attr ex data-sort-ok)" 1 "examples: every table sorts by every column, both ways"

# what the charts must hold, from the database: the resources some pod
# requests (pods always) on the nodes that have them
RES="WITH res AS (SELECT DISTINCT q.resource FROM placement pl JOIN pod p ON p.id = pl.pod_id
	JOIN class_request q ON q.class_id = p.class_id WHERE pl.run_id = (SELECT max(id) FROM run)
	AND pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL UNION SELECT 'pods')"
bars=$(q "$db" "$RES SELECT count(*) FROM node_resource r JOIN res ON res.resource = r.resource WHERE r.allocatable > 0")
nres=$(q "$db" "$RES SELECT count(*) FROM res WHERE resource IN (SELECT resource FROM node_resource WHERE allocatable > 0)")
reasons=$(q "$db" "SELECT count(*) FROM (SELECT DISTINCT f.plugin, f.reason FROM pod_failure f JOIN placement pl
	ON pl.run_id = f.run_id AND pl.pod_id = f.pod_id WHERE pl.action = 'unschedulable' AND f.run_id = (SELECT max(id) FROM run))")
is "$bars:$nres:$reasons" "25:4:5" "examples: 25 node resources in use (cpu, memory, pods on 8 nodes, 1 GPU node), 5 reasons"
is "$(attr ex data-util-bars)" "$bars" "chart-util: one bar per node x resource"
is "$(attr ex data-heat-cells)" "$bars" "chart-heat: one cell per node x resource"
is "$(attr ex data-dist-bars)" "$((nres * 20))" "chart-dist: 10 bins before and after per resource"
is "$(attr ex data-reason-bars)" "$reasons" "chart-reasons: one bar per unschedulable reason"
"$KPLAN" report --format json "$db" >"$T/ex.json"
is "$(attr ex data-tables)" "$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
	print scalar grep { ref $d->{$_} eq "ARRAY" && @{$d->{$_}} } keys %$d' <"$T/ex.json")" \
	"one sortable table per non-empty section"
nodes=$(q "$db" "SELECT count(*) FROM node")
is "$(grep -o '<g class="node" data-node="[^"]*"' "$T/ex.dom" | sort -u | wc -l)" "$nodes" "chart-util: every node (8) has its row"
# the histogram counts every node that has the resource, before and after
cpu_nodes=$(q "$db" "SELECT count(*) FROM node_resource WHERE resource = 'cpu' AND allocatable > 0")
is "$(sed -n '/data-resource="cpu"/,/<\/g>/p' "$T/ex.dom" | grep -o 'class="bar after" data-n="[0-9]*"' |
	sed 's/.*"\([0-9]*\)"/\1/' | paste -sd+ | bc)" "$cpu_nodes" "chart-dist cpu: the after bins hold every node"
like "$(cat "$T/ex.html")" '<meta name="viewport" content="width=device-width, initial-scale=1">' "responsive: viewport meta"
is "$(grep -cE '(src|href)="(https?:)?//' "$T/ex.html")" 0 "self-contained: no network reference"

out_png="$(dirname "$KPLAN")/report.png"
rm -f "$out_png"
timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars --user-data-dir="$T/chrome" \
	--window-size=1280,2000 --screenshot="$out_png" "file://$T/ex.html" >/dev/null 2>&1
is "$(head -c 8 "$out_png" 2>/dev/null | od -An -c | tr -d ' ')" '211PNG\r\n032\n' "screenshot written to $out_png"
timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars --user-data-dir="$T/chrome" \
	--window-size=390,1200 --screenshot="$T/phone.png" "file://$T/ex.html" >/dev/null 2>&1
is "$(head -c 4 "$T/phone.png" 2>/dev/null | od -An -c | tr -d ' ')" '211PNG' "a phone-sized screenshot renders too"

# hostile strings: a SQL extender's reason with a <script> and an onerror handler
cat >"$T/hostile.yaml" <<'EOF'
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: KplanSQLExtenders
    args:
      filters:
      - sql: |
          SELECT p.pod_id, n.id,
                 '<script>document.body.setAttribute(' || char(39) || 'data-pwned' || char(39) || ',1)</script>' ||
                 '<img src=x onerror="document.body.setAttribute(' || char(39) || 'data-pwned' || char(39) || ',2)">' ||
                 '"></svg><script>document.body.setAttribute(' || char(39) || 'data-pwned' || char(39) || ',3)</script>'
          FROM temp.kp_pending p CROSS JOIN node n
EOF
"$KPLAN" plan -q --config "$T/hostile.yaml" "$db" 2>/dev/null || fail "plan --config hostile.yaml"
"$KPLAN" report --format html -o "$T/h.html" -q "$db" || fail "report of the hostile run"
browse "$T/h.html" h
is "$(attr h data-ok)" 1 "hostile: the page still runs its script to the end"
is "$(attr h data-pwned)" "" "hostile: no script from the data ran"
is "$(attr h data-reason-bars)" "$(q "$db" "SELECT count(*) FROM (SELECT DISTINCT f.plugin, f.reason FROM pod_failure f JOIN placement pl
	ON pl.run_id = f.run_id AND pl.pod_id = f.pod_id WHERE pl.action = 'unschedulable' AND f.run_id = (SELECT max(id) FROM run))")" \
	"hostile: chart-reasons still has one bar per reason"
is "$(console_errors h)" "" "hostile: no console error"

# --compare: tables only, still a working page
"$KPLAN" report --compare 1 2 --format html -o "$T/c.html" -q "$db" || fail "report --compare --format html"
browse "$T/c.html" c
is "$(attr c data-ok):$(attr c data-sort-ok)" "1:1" "--compare page: script ran, tables sort"

# openb: 1213 nodes; the charts show the 100 most loaded, and count right
D=$KP_SHARED_DATA/openb
if [ ! -d "$D" ]; then
	skip "shared data absent ($D): no openb page" 3
	done_testing
fi
ob="$T/openb.db"
"$KPLAN" import -q "$ob" "$D/openb_node_list_gpu_node.csv" "$D/openb_pod_list_default.csv" || fail "openb import"
"$KPLAN" plan -q "$ob" || fail "openb plan"
"$KPLAN" report --format html -o "$T/openb.html" -q "$ob" || fail "openb report"
browse "$T/openb.html" ob
is "$(attr ob data-ok):$(attr ob data-sort-ok)" "1:1" "openb page: script ran, tables sort"
names=$(grep -o '<g class="node" data-node="[^"]*"' "$T/ob.dom" | sed 's/.*data-node="\([^"]*\)"/\1/' | sort -u)
is "$(echo "$names" | wc -l)" 100 "openb chart-util: the 100 most loaded nodes"
in=$(echo "$names" | sed "s/.*/'&'/" | paste -sd,)
is "$(attr ob data-util-bars):$(attr ob data-heat-cells)" \
	"$(n=$(q "$ob" "$RES SELECT count(*) FROM node_resource r JOIN node n ON n.id = r.node_id JOIN res ON res.resource = r.resource
		WHERE r.allocatable > 0 AND n.name IN ($in)"); echo "$n:$n")" "openb: bars and cells = the shown nodes' resources in use"
done_testing
