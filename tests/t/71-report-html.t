#!/usr/bin/env bash
# 71-report-html.t — `kplan report --format html` in a real browser: Debian's
# chromium, headless (installed with scripts/deps.sh when missing; skipped,
# saying why, only when it cannot be installed).  The page must run its
# script without an error or a console error, mark <body data-ok="1">, sort
# every table both ways (#selftest: data-sort-ok="1"), and each chart must
# hold as many elements as the database says.  A screenshot is written next
# to the kplan binary (build/report.png).  Hostile strings in the data must
# not run as script.  The whole-cluster chart has one curve per pool x
# resource, before and after, over as many nodes as the database says (at most
# 200 steps); a rebalance run's chart shows each node the moves touch, before
# and after them, freed nodes empty of app pods; at 400 px nothing overflows
# the page but inside a scroll box, and wide tables scroll in theirs (the page
# in a 400 px iframe: headless chromium's window is at least 500 px wide).
. "$(dirname "$0")/../lib.sh"
NTESTS=51
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
# narrow FILE NAME: the page's self-test in a 400 px wide iframe; its <body> attributes copied to $T/NAME.dom
narrow() {
	cat >"$T/$2-wrap.html" <<EOW
<!DOCTYPE html><html><body style="margin:0"><iframe id="f" src="file://$1#selftest" style="width:400px;height:1600px;border:0"></iframe>
<script>document.getElementById('f').addEventListener('load', function () { try { var b = this.contentDocument.body;
for (var i = 0; i < b.attributes.length; i++) document.body.setAttribute(b.attributes[i].name, b.attributes[i].value); }
catch (e) { document.body.setAttribute('data-wrap-error', String(e)); } });</script></body></html>
EOW
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars --allow-file-access-from-files \
		--user-data-dir="$T/chrome" --window-size=500,1600 --dump-dom "file://$T/$2-wrap.html" >"$T/$2.dom" 2>"$T/$2.log"
}
# the layout at 400 px: "view width:page width:elements outside the viewport:wide tables:of them scrolling in their box"
layout() { echo "$(attr "$1" data-view-width):$(attr "$1" data-scroll-width):$(attr "$1" data-outside):$(attr "$1" data-wide-tables):$(attr "$1" data-wide-scrolling)"; }
# curves NAME: chart-cluster's curves, one line each: "pool|resource|before or after|data-n|data-samples|steps (H)"
curves() {
	perl -0ne 'my ($pool, $res) = ("", "");
		while (/<div class="pool" (?:data-pool="([^"]*)"|(data-all)="1")|<svg class="panel"[^>]*? data-resource="([^"]*)"|<path class="curve (\w+)" data-n="(\d+)" data-samples="(\d+)"[^>]*? d="([^"]*)"/g) {
			if (defined $1 || defined $2) { $pool = defined $1 ? $1 : "*"; next }
			if (defined $3) { $res = $3; next }
			my ($k, $n, $sm, $d) = ($4, $5, $6, $7);
			my $h = () = $d =~ /H/g;
			print "$pool|$res|$k|$n|$sm|$h\n";
		}' "$T/$1.dom" | sort
}
# want_curves DB: the same from SQL: every pool (label node.kubernetes.io/instance-type) and, with more than
# one pool, every node ("*"), per resource of the chart ($RES) the nodes that have it; at most 200 steps
want_curves() {
	q "$1" "$RES, n AS (SELECT COALESCE(l.value, '(none)') AS pool, r.resource FROM node n JOIN node_resource r ON r.node_id = n.id
		JOIN res ON res.resource = r.resource LEFT JOIN node_label l ON l.node_id = n.id AND l.key = 'node.kubernetes.io/instance-type'
		WHERE r.allocatable > 0),
		g AS (SELECT pool, resource, count(*) AS c FROM n GROUP BY 1, 2
		      UNION ALL SELECT '*', resource, count(*) FROM n WHERE (SELECT count(DISTINCT pool) FROM n) > 1 GROUP BY 2)
		SELECT pool || '|' || resource || '|' || k || '|' || c || '|' || min(c, 200) || '|' || min(c, 200)
		FROM g, (SELECT 'after' AS k UNION ALL SELECT 'before')" | sort
}
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
is "$bars:$nres:$reasons" "25:4:4" "examples: 25 node resources in use (cpu, memory, pods on 8 nodes, 1 GPU node), 4 reasons (kube 1.35+: the two taint reasons are one)"
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
# the whole-cluster chart: curves per pool and resource, over the nodes SQL counts
want_curves "$db" >"$T/ex-want-curves"
curves ex >"$T/ex-curves"
is "$(wc -l <"$T/ex-want-curves")" 34 "examples: 4 pools and all pools, 17 panels (pool x resource), 34 curves from SQL"
is "$(cat "$T/ex-curves")" "$(cat "$T/ex-want-curves")" "chart-cluster: per pool and resource a curve before and after, one step per node"
is "$(attr ex data-cluster-curves)" 34 "chart-cluster: 34 curves in the page"
like "$(sed -n '/<div id="chart-cluster">/,/<\/figure>/p' "$T/ex.dom" | head -3)" 'data-all="1"' "chart-cluster: the all-pools row first"
is "$(grep -o 'id="chart-[a-z]*"' "$T/ex.dom" | head -1)" 'id="chart-cluster"' "chart-cluster is the first chart"
# its means: the average of node_usage's percentages (csv), before and after, per resource over every node
"$KPLAN" report --format csv "$db" >"$T/ex.csv"
want=$(awk -F, '$1 == "node_usage" && $3 == "cpu" && $4 > 0 {b += $7; a += $8; n++} END {printf "mean %.1f%% \342\206\222 %.1f%%", b / n, a / n}' "$T/ex.csv")
is "$(perl -0ne 'print $1 if /<div class="pool" data-all="1">.*?data-resource="cpu".*?(mean [^<]*)</s' "$T/ex.dom")" "$want" \
	"chart-cluster: all pools, cpu: the mean before and after = node_usage's"
narrow "$T/ex.html" ex400
is "$(layout ex400)" "400:400:0:16:16" "examples at 400 px: page 400 px wide, no element outside the viewport but in a scroll box, every wide table scrolls in its box"
# the check can fail: the same page with its scroll boxes made visible
sed 's/\.scroll,\.chart{overflow-x:auto/.scroll,.chart{overflow-x:visible/' "$T/ex.html" >"$T/ex-broken.html"
narrow "$T/ex-broken.html" exb
[ "$(attr exb data-scroll-width)" -gt 400 ] && [ "$(attr exb data-wide-scrolling)" = 0 ]
ok $? "the layout check fails on a page whose tables do not scroll in a box ($(layout exb))"
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
# and a pool name (chart-cluster's headings and data-pool) that is markup
sqlite3 "$db" "UPDATE node_label SET value = '\"><img src=x onerror=\"document.body.setAttribute(''data-pwned'',4)\">'
	WHERE key = 'node.kubernetes.io/instance-type' AND value = 'p3.8xlarge'"
"$KPLAN" report --format html -o "$T/h.html" -q "$db" || fail "report of the hostile run"
browse "$T/h.html" h
is "$(attr h data-ok)" 1 "hostile: the page still runs its script to the end"
is "$(attr h data-pwned)" "" "hostile: no script from the data ran"
is "$(attr h data-reason-bars)" "$(q "$db" "SELECT count(*) FROM (SELECT DISTINCT f.plugin, f.reason FROM pod_failure f JOIN placement pl
	ON pl.run_id = f.run_id AND pl.pod_id = f.pod_id WHERE pl.action = 'unschedulable' AND f.run_id = (SELECT max(id) FROM run))")" \
	"hostile: chart-reasons still has one bar per reason"
is "$(console_errors h)" "" "hostile: no console error"
is "$(grep -c 'data-pool="&quot;&gt;&lt;img src=x onerror=' "$T/h.dom")" 1 "hostile: the pool name is shown, escaped"

# --compare: tables only, still a working page
"$KPLAN" report --compare 1 2 --format html -o "$T/c.html" -q "$db" || fail "report --compare --format html"
browse "$T/c.html" c
is "$(attr c data-ok):$(attr c data-sort-ok)" "1:1" "--compare page: script ran, tables sort"

# a rebalance run (tests/data/rebalance/high.yaml): n3's app pod moves to n1, n3 is freed
# (its DaemonSet pod stays); the chart shows each node the moves touch, before and after them
rdb="$T/rb.db"
"$KPLAN" import -q "$rdb" "$TESTS_DIR/data/rebalance/high.yaml" || fail "import high.yaml"
"$KPLAN" plan -q --mode rebalance --strategies HighNodeUtilization "$rdb" || fail "plan --mode rebalance"
"$KPLAN" report --format html -o "$T/rb.html" -q "$rdb" || fail "report of the rebalance run"
browse "$T/rb.html" rb
is "$(attr rb data-ok):$(attr rb data-sort-ok):$(console_errors rb)" "1:1:" "rebalance page: script ran, tables sort, no console error"
# rebalance_chart NAME: "node freed" per g.rnode, in the page's order
rebalance_chart() { grep -o '<g class="rnode" data-node="[^"]*" data-freed="[01]"' "$T/$1.dom" | sed 's/.*data-node="\([^"]*\)" data-freed="\(.\)"/\1 \2/'; }
RN="SELECT n.name || ' ' || r.freed FROM rebalance_node r JOIN node n ON n.id = r.node_id WHERE r.run_id = (SELECT max(id) FROM run)
	ORDER BY r.freed DESC, n.name"
is "$(rebalance_chart rb)" "$(q "$rdb" "$RN")" "chart-rebalance: the nodes of rebalance_node, freed first, each marked freed or not"
is "$(rebalance_chart rb)" "n3 1
n1 0" "chart-rebalance: n3 freed, n1 receives"
# before the moves: the run's pods where they were (a moved pod on move_wave's from_node); after: placement
BA="WITH cur AS (SELECT max(id) AS id FROM run), mv AS (SELECT pod_id, from_node_id FROM move_wave WHERE run_id = (SELECT id FROM cur)),
	pl AS (SELECT pl.pod_id, pl.node_id AS na, COALESCE(mv.from_node_id, pl.node_id) AS nb, p.class_id, p.owner_kind FROM placement pl
	       JOIN pod p ON p.id = pl.pod_id LEFT JOIN mv ON mv.pod_id = pl.pod_id
	       WHERE pl.run_id = (SELECT id FROM cur) AND pl.action IN ('keep', 'bind', 'move'))"
# pct NODE RES before|after: the node's percentage from placement and move_wave
pct() { q "$rdb" "$BA SELECT printf('%.1f', 100.0 * COALESCE((SELECT sum(q.value) FROM pl JOIN class_request q ON q.class_id = pl.class_id
	AND q.resource = '$2' WHERE pl.n${3:0:1} = n.id), 0) / r.allocatable) FROM node n JOIN node_resource r ON r.node_id = n.id
	AND r.resource = '$2' WHERE n.name = '$1'"; }
# chart_pct NAME NODE before|after: the bars' data-pct for the node's cpu and memory
chart_pct() { perl -0ne 'print join(" ", (/<rect class="bar '"$3"'" data-pct="([^"]*)"/g)[0, 1]) if /<g class="rnode" data-node="'"$2"'"(.*?)<\/g>/s && ($_ = $1)' "$T/$1.dom"; }
is "$(chart_pct rb n3 after)" "$(pct n3 cpu after) $(pct n3 memory after)" "chart-rebalance: freed n3 after the moves = placement (cpu, memory)"
is "$(q "$rdb" "$BA SELECT count(*) FROM pl JOIN node n ON n.id = pl.na WHERE n.name = 'n3' AND COALESCE(pl.owner_kind, '') <> 'DaemonSet'")" 0 \
	"placement: freed n3 holds no app pod after the moves (what the chart draws is its DaemonSet pod)"
is "$(chart_pct rb n3 before) / $(chart_pct rb n1 before) / $(chart_pct rb n1 after)" \
	"$(pct n3 cpu before) $(pct n3 memory before) / $(pct n1 cpu before) $(pct n1 memory before) / $(pct n1 cpu after) $(pct n1 memory after)" \
	"chart-rebalance: before the moves (move_wave's from_node) and after them, from placement"
# a pending pod bound by the run, then moves (dups.yaml + pending.yaml: new-1 binds on n3, d-3 moves there):
# before the moves includes new-1, which the imported state (node_usage's percent_before) does not
pdb="$T/pend.db"
"$KPLAN" import -q "$pdb" "$TESTS_DIR/data/rebalance/dups.yaml" "$TESTS_DIR/data/rebalance/pending.yaml" || fail "import dups + pending"
"$KPLAN" plan -q --mode rebalance --strategies RemoveDuplicates "$pdb" || fail "plan --mode rebalance (pending)"
"$KPLAN" report --format html -o "$T/pend.html" -q "$pdb" || fail "report (pending)"
browse "$T/pend.html" pend
saved=$rdb rdb=$pdb
imported=$(q "$pdb" "SELECT printf('%.1f', 100.0 * requested_before / allocatable) FROM node_usage WHERE node = 'n3' AND resource = 'cpu'")
[ "$(chart_pct pend n3 before)" = "$(pct n3 cpu before) $(pct n3 memory before)" ] && [ "$(pct n3 cpu before)" != "$imported" ]
ok $? "chart-rebalance: n3 before the moves holds the pod the run bound ($(chart_pct pend n3 before); imported cpu $imported%)"
rdb=$saved
want_curves "$rdb" >"$T/rb-want-curves"
curves rb >"$T/rb-curves"
is "$(cat "$T/rb-curves")" "$(cat "$T/rb-want-curves")" "rebalance: chart-cluster has a curve per pool and resource, before and after"
# the whole-cluster curve before the moves: n3's cpu before (15.0) among the before steps, not its after
like "$(perl -0ne 'print $1 if /data-resource="cpu".*?<title>([^<]*)</s' "$T/rb.dom")" "before max 77.5%, middle 17.5%, min 15.0%; after max 77.5%, middle 17.5%, min 2.5%" \
	"rebalance: chart-cluster cpu: before the moves n2 77.5%, n1 65%, n4 17.5%, n3 15%; after n1 and n2 77.5%, n3 2.5%"
"$KPLAN" plan -q "$rdb" || fail "plain plan"
"$KPLAN" report --format html -o "$T/rb2.html" -q "$rdb" || fail "report of a plain run"
browse "$T/rb2.html" rb2
is "$(attr rb2 data-rebalance-nodes)" -1 "a plain run has no chart-rebalance"

# openb: 1213 nodes; the charts show the 100 most loaded, and count right
D=$KP_SHARED_DATA/openb
if [ ! -d "$D" ]; then
	skip "shared data absent ($D): no openb page" 12
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
want_curves "$ob" >"$T/ob-want-curves"
curves ob >"$T/ob-curves"
is "$(cat "$T/ob-curves")" "$(cat "$T/ob-want-curves")" "openb chart-cluster: one pool, per resource 1213 nodes drawn as 200 steps, before and after"
is "$(wc -l <"$T/ob-curves")" 6 "openb chart-cluster: 3 resources (cpu, memory, pods; the GPUs are DRA devices) x before/after"
is "$(grep -c '1213 nodes, 200 steps' "$T/ob.dom")" 3 "openb chart-cluster: each panel says it samples 200 of 1213 nodes"
narrow "$T/openb.html" ob400
is "$(layout ob400 | cut -d: -f1-3)" "400:400:0" "openb at 400 px: nothing outside the viewport but in a scroll box"
# a rebalance of openb: the pods bound where the plan put them, their GPU claims allocated the
# devices the plan gave them (as `kplan plan --from-run` does: queries/whatif/from_run_dra_*.sql),
# then consolidated (thresholds 60%, bare pods move)
bind_as_planned "$ob"
is "$(q "$ob" "SELECT (SELECT count(*) FROM resource_claim WHERE allocated) || ' ' || (SELECT count(*) FROM pod WHERE node_name IS NOT NULL)")" \
	"6852 7940" "openb rebalance: the 7940 pods placed are bound (kube 1.37; 7917 as 1.35), the 6852 GPU claims among them allocated"
printf 'HighNodeUtilization:\n  thresholds: {cpu: 60, memory: 60, pods: 60}\n' >"$T/h60.yaml"
"$KPLAN" plan -q --mode rebalance --strategies HighNodeUtilization --rebalance-config "$T/h60.yaml" --evict-bare-pods "$ob" ||
	fail "openb rebalance"
"$KPLAN" report --format html -o "$T/obr.html" -q "$ob" || fail "openb rebalance report"
browse "$T/obr.html" obr
is "$(attr obr data-ok):$(attr obr data-sort-ok)" "1:1" "openb rebalance page: script ran, tables sort"
is "$(rebalance_chart obr)" "$(q "$ob" "$RN LIMIT 150")" "openb chart-rebalance: the first 150 nodes of rebalance_node, freed first"
freed=$(q "$ob" "SELECT count(*) FROM rebalance_node WHERE run_id = (SELECT max(id) FROM run) AND freed")
[ "$freed" -gt 0 ] && [ "$(rebalance_chart obr | grep -c ' 1$')" = "$freed" ]
ok $? "openb chart-rebalance: every freed node ($freed) is shown"
is "$(perl -0ne 'while (/<g class="rnode" data-node="[^"]*" data-freed="1">(.*?)<\/g>/sg) { my $g = $1; print "$1\n" while $g =~ /<rect class="bar after" data-pct="([^"]*)"/g }' "$T/obr.dom" | sort -u)" \
	"0.0" "openb chart-rebalance: every freed node is empty after the moves (no DaemonSet pods in openb)"
done_testing
