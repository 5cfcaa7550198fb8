#!/usr/bin/env bash
# 70-report.t — `kplan report`: golden text/markdown/csv/json reports of a plan
# of examples/ (tests/report/), numbers cross-checked against the schema's own
# views, --run and --compare, escaping of hostile strings, usage and error
# cases, the database left unchanged, and an openb plan ($KP_SHARED_DATA) with
# golden reports too (tests/report/openb.*, a subset: see below).
#
# KP_UPDATE_GOLDEN=1 rewrites the golden files (review the diff before
# committing).  Start times and durations are left out with --no-timing, and
# kplan's version is masked, so the files only change with the plan.
. "$(dirname "$0")/../lib.sh"
G="$TESTS_DIR/report"
db="$T/ex.db"
ver=$("$KPLAN" --version | sed 's/^kplan //')
mask() { sed "s/$(printf %s "$ver" | sed 's/\./\\./g')/VERSION/g"; }
dump() { sqlite3 "$1" .dump | sha256sum | cut -d' ' -f1; }
# json FILE PERL-EXPR: evaluate EXPR with $d = the decoded report
json() { perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>); print eval($ARGV[1]) // "undef"; die $@ if $@' "$1" "$2"; }

# golden FILE CMD...: the command's stdout (masked) against tests/report/FILE
golden() {
	local name=$1
	shift
	"$@" >"$T/got.raw" 2>"$T/got.err"
	local rc=$?
	mask <"$T/got.raw" >"$T/got"
	if [ "${KP_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$T/got" "$G/$name"
	fi
	if [ "$rc" = 0 ] && cmp -s "$T/got" "$G/$name"; then
		pass "golden $name"
	else
		fail "golden $name (exit $rc)"
		diff -u "$G/$name" "$T/got" | head -40 | sed 's/^/#   /'
		sed 's/^/#   stderr: /' "$T/got.err" | head -5
	fi
}

(cd "$ROOT" && "$KPLAN" import -q "$db" examples/) || fail "import examples/"
run "$KPLAN" report "$db"
is "$rc" 1 "report before any plan: exit 1"
like "$err" "no run in '$db' yet: make one with 'kplan plan $db'" "report before any plan: says there is no run"
"$KPLAN" plan -q "$db" || fail "plan examples/"
before=$(dump "$db")

# ---- golden reports of run 1 ----
golden examples.txt "$KPLAN" report --no-timing "$db"
golden examples.md "$KPLAN" report --no-timing --format markdown "$db"
golden examples.csv "$KPLAN" report --no-timing --format csv "$db"
golden examples.json "$KPLAN" report --no-timing --format json "$db"

# ---- the numbers, against the schema's views and tables (not the report's SQL) ----
"$KPLAN" report --format json -o "$T/r.json" -q "$db"
is "$(json "$T/r.json" 'join " ", map { $d->{summary}{$_} } qw(keep bind move evict unschedulable evictions)')" \
	"$(q "$db" "SELECT group_concat(n, ' ') FROM (SELECT (SELECT count(*) FROM plan WHERE action = a) AS n
		FROM (SELECT 'keep' AS a UNION ALL SELECT 'bind' UNION ALL SELECT 'move' UNION ALL SELECT 'evict'
		UNION ALL SELECT 'unschedulable')) ")$(printf ' %s' "$(q "$db" "SELECT count(*) FROM eviction")")" \
	"summary: pods by action and evictions as in the plan view"
is "$(json "$T/r.json" '$d->{summary}{nodes} . " " . scalar(@{$d->{nodes}})')" "8 8" "summary and nodes section: 8 nodes"
like "$(json "$T/r.json" '$d->{summary}{started}')" "T" "without --no-timing the start time is there"
is "$(json "$T/r.json" 'join ";", map { "$_->{node}=$_->{requested_after}" } grep { $_->{resource} eq "cpu" } @{$d->{node_usage}}')" \
	"$(q "$db" "SELECT group_concat(node || '=' || requested_after, ';') FROM (SELECT * FROM node_usage WHERE resource = 'cpu' ORDER BY node)")" \
	"node_usage cpu after = the node_usage view"
is "$(json "$T/r.json" 'join ";", map { "$_->{node}=$_->{requested_before}" } grep { $_->{resource} eq "memory" } @{$d->{node_usage}}')" \
	"$(q "$db" "SELECT group_concat(node || '=' || requested_before, ';') FROM (SELECT * FROM node_usage WHERE resource = 'memory' ORDER BY node)")" \
	"node_usage memory before = the node_usage view"
is "$(json "$T/r.json" 'join ";", map { "$_->{node}=$_->{requested_after}" } grep { $_->{resource} eq "pods" } @{$d->{node_usage}}')" \
	"$(q "$db" "SELECT group_concat(node || '=' || c, ';') FROM (SELECT n.name AS node, (SELECT count(*) FROM plan p
		WHERE p.node = n.name AND p.action IN ('keep', 'bind', 'move')) AS c FROM node n ORDER BY n.name)")" \
	"node_usage pods after = the pods the plan view puts there"
is "$(json "$T/r.json" 'scalar @{$d->{node_usage}}')" "$(q "$db" "SELECT count(*) FROM node_resource WHERE allocatable > 0")" \
	"node_usage: one row per node resource (allocatable 0 left out)"
is "$(json "$T/r.json" '$d->{most_loaded}[0]{node} . " " . $d->{most_loaded}[0]{load_after}')" \
	"gen-a-2 95" "most loaded: gen-a-2 at 95% cpu (15100m of 15890m)"
is "$(json "$T/r.json" '$d->{least_loaded}[0]{node}')" "infra-a-1" "least loaded: infra-a-1"
is "$(json "$T/r.json" 'join ",", map { $_->{zone} } grep { $_->{resource} eq "cpu" } @{$d->{zones}}')" \
	"eu-west-1a,eu-west-1b,eu-west-1c" "zones by topology.kubernetes.io/zone"
is "$(json "$T/r.json" '$d->{unschedulable_groups}[0]{pods} . ":" . $d->{unschedulable_groups}[0]{examples}')" \
	"2:batch/nightly-export-xsqsb, ml/too-big" "the largest group of unschedulable pods comes first"
is "$(json "$T/r.json" 'join ";", map { "$_->{pods} $_->{reason}" } grep { $_->{reason} =~ /Insufficient/ } @{$d->{unschedulable_reasons}}')" \
	"$(q "$db" "SELECT group_concat(n || ' ' || reason, ';') FROM (SELECT count(*) AS n, f.reason FROM pod_failure f
		JOIN unschedulable u ON u.pod = (SELECT name FROM pod WHERE id = f.pod_id) WHERE f.reason LIKE 'Insufficient%' GROUP BY f.reason)")" \
	"unschedulable reasons: pods per reason as in pod_failure"
is "$(json "$T/r.json" 'join ";", map { "$_->{victim} $_->{node} $_->{preemptor} $_->{outcome}" } @{$d->{evictions}}')" \
	"batch/backfill-q1-r2w6n gen-a-2 data/urgent-report move;batch/backfill-q1-h9c3v gen-a-2 data/urgent-report evict" \
	"preemptions: victims, node, preemptor and outcome (examples/README.md)"
is "$(json "$T/r.json" 'join ";", map { "$_->{pod} $_->{from_node}->$_->{node}" } @{$d->{moves}}')" \
	"$(q "$db" "SELECT group_concat(pod || ' ' || from_node || '->' || node, ';') FROM plan WHERE action = 'move'")" "moves = the plan view"
is "$(json "$T/r.json" 'join ",", map { "$_->{kind}/$_->{name}=$_->{bind}" } grep { $_->{namespace} eq "shop" && $_->{bind} } @{$d->{workloads}}')" \
	"Deployment/api=4,Deployment/web=6" "workloads: generated pods count for their Deployment"
is "$(json "$T/r.json" 'join ";", map { "$_->{namespace}=$_->{pods}" } @{$d->{namespaces}}')" \
	"$(q "$db" "SELECT group_concat(namespace || '=' || n, ';') FROM (SELECT namespace, count(*) AS n FROM plan GROUP BY namespace ORDER BY namespace)")" \
	"namespaces: pods per namespace"
is "$(json "$T/r.json" 'join ";", map { "$_->{pool}:$_->{nodes}/$_->{used}/$_->{bound}" } @{$d->{quality}}')" \
	"$(q "$db" "SELECT group_concat(pool || ':' || nodes || '/' || nodes_used || '/' || bound, ';') FROM (SELECT * FROM plan_quality
		WHERE run_id = 1 ORDER BY pool)")" "quality: one row per pool, as in plan_quality"
is "$(json "$T/r.json" 'join ";", map { "$_->{pool}:$_->{nodes}" } @{$d->{quality}}')" \
	"$(q "$db" "SELECT group_concat(pool || ':' || n, ';') FROM (SELECT COALESCE(l.value, '(none)') AS pool, count(*) AS n FROM node
		LEFT JOIN node_label l ON l.node_id = node.id AND l.key = 'node.kubernetes.io/instance-type' GROUP BY 1 ORDER BY 1)")" \
	"quality: pools by label node.kubernetes.io/instance-type"
is "$(json "$T/r.json" 'join ";", map { "$_->{pool}/$_->{resource}=$_->{free}" } grep { $_->{resource} eq "cpu" } @{$d->{stranded}}')" \
	"$(q "$db" "SELECT group_concat(pool || '/cpu=' || f, ';') FROM (SELECT l.value AS pool, sum(u.allocatable - u.requested_after) AS f
		FROM node_usage u JOIN node n ON n.name = u.node JOIN node_label l ON l.node_id = n.id AND l.key = 'node.kubernetes.io/instance-type'
		WHERE u.resource = 'cpu' GROUP BY 1 ORDER BY 1)")" \
	"stranded: free cpu per pool = the node_usage view (every node of examples/ is used)"
"$KPLAN" report --format csv "$db" >"$T/r.csv"
is "$(grep -c '^node_usage,' "$T/r.csv")" "$(q "$db" "SELECT count(*) FROM node_resource WHERE allocatable > 0")" \
	"csv: grep '^node_usage,' gives the node_usage rows"
is "$(grep -c '^section,' "$T/r.csv")" 19 "csv: 19 sections, each with a header row"
is "$(cut -d, -f1 "$T/r.csv" | LC_ALL=C sort -u | tr '\n' ' ')" \
	"batches evictions kube least_loaded most_loaded moves namespaces node_usage nodes quality resources section stranded summary unschedulable unschedulable_groups unschedulable_reasons workloads zones " \
	"csv: every row starts with its section"

# ---- output file, quiet, stdout ----
run "$KPLAN" report --format html -o "$T/r.html" "$db"
is "$rc" 0 "-o FILE: exit 0"
like "$out" "report of run 1 (html) written to $T/r.html" "-o FILE: one summary line"
like "$(head -c 15 "$T/r.html")" "<!DOCTYPE html>" "-o FILE: the file holds the report"
run "$KPLAN" report -q --output="$T/r2.txt" "$db"
is "$rc:$out" "0:" "--quiet --output=FILE: nothing on stdout"
run "$KPLAN" report -o - --no-timing "$db"
is "$out" "$(mask <"$G/examples.txt" | sed "s/VERSION/$ver/g")" "-o - writes to stdout"

is "$(dump "$db")" "$before" "the database is unchanged by the reports (sqlite3 .dump)"

# ---- more runs: --run, the latest by default, --compare ----
"$KPLAN" plan -q --seed 2 "$db" || fail "plan --seed 2"
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
                 ' | *b* _u_ `c` & "q", done' || char(10) || 'line two'
          FROM temp.kp_pending p CROSS JOIN node n WHERE n.name <> 'gen-a-1'
EOF
"$KPLAN" plan -q --config "$T/hostile.yaml" "$db" 2>/dev/null || fail "plan --config hostile.yaml"
"$KPLAN" plan -q --no-preemption "$db" || fail "plan --no-preemption"
before=$(dump "$db")
golden examples.txt "$KPLAN" report --run 1 --no-timing "$db"
is "$("$KPLAN" report --format json "$db" | json /dev/stdin '$d->{run}')" 4 "the latest run by default"
golden examples-compare.txt "$KPLAN" report --no-timing --compare 1 4 "$db"
"$KPLAN" report --format json --compare 1 2 "$db" >"$T/c.json"
is "$(json "$T/c.json" '$d->{kind} . " " . $d->{run_a} . " " . $d->{run_b}')" "compare 1 2" "--compare: kind and runs"
is "$(json "$T/c.json" '$d->{summary}{pods_changed} . " " . scalar(@{$d->{changed_pods}})')" \
	"$(n=$(q "$db" "SELECT count(*) FROM placement a JOIN placement b ON b.pod_id = a.pod_id AND b.run_id = 2
		WHERE a.run_id = 1 AND (a.action <> b.action OR a.node_id IS NOT b.node_id)"); echo "$n $n")" \
	"--compare seed 1 vs seed 2: the pods whose action or node differs"
"$KPLAN" report --format json --compare 1 4 "$db" >"$T/c4.json"
is "$(json "$T/c4.json" 'join ",", map { "$_->{pod}:$_->{action_a}>$_->{action_b}" } grep { $_->{namespace} ne "shop" && $_->{namespace} ne "monitoring" && $_->{pod} =~ /urgent|backfill/ } @{$d->{changed_pods}}')" \
	"backfill-q1-h9c3v:evict>keep,backfill-q1-r2w6n:move>keep,urgent-report:bind>unschedulable" \
	"--compare with --no-preemption: the preemption and its victims change"
is "$(json "$T/c4.json" 'join ",", map { "$_->{node}:$_->{delta}" } grep { $_->{resource} eq "cpu" && $_->{node} eq "gen-a-2" } @{$d->{usage_delta}}')" \
	"gen-a-2:$(q "$db" "SELECT (SELECT COALESCE(sum(r.value), 0) FROM placement pl JOIN pod p ON p.id = pl.pod_id JOIN class_request r ON r.class_id = p.class_id AND r.resource = 'cpu'
		JOIN node n ON n.id = pl.node_id WHERE pl.run_id = 4 AND n.name = 'gen-a-2' AND pl.action IN ('keep','bind','move')) -
		(SELECT COALESCE(sum(r.value), 0) FROM placement pl JOIN pod p ON p.id = pl.pod_id JOIN class_request r ON r.class_id = p.class_id AND r.resource = 'cpu'
		JOIN node n ON n.id = pl.node_id WHERE pl.run_id = 1 AND n.name = 'gen-a-2' AND pl.action IN ('keep','bind','move'))")" \
	"--compare: utilisation delta of gen-a-2 cpu from placement and class_request"
"$KPLAN" report --compare 1 4 --format html -o "$T/c.html" -q "$db"
like "$(cat "$T/c.html")" 'data-kind="compare"' "--compare --format html"

# ---- hostile strings (a SQL extender's reason) stay text in every format ----
"$KPLAN" report --run 3 --format json "$db" >"$T/h.json"
like "$(json "$T/h.json" '$d->{unschedulable_reasons}[0]{reason}')" '<script>document.body.setAttribute' "json: the reason is kept as it is"
like "$(json "$T/h.json" '$d->{unschedulable_reasons}[0]{reason}')" "$(printf '"q", done\nline two')" "json: quotes and newlines round-trip"
"$KPLAN" report --run 3 --format markdown "$db" >"$T/h.md"
unlike "$(cat "$T/h.md")" "<script>" "markdown: no raw <script>"
like "$(cat "$T/h.md")" '&lt;script&gt;' "markdown: < and > escaped"
like "$(cat "$T/h.md")" '\| \*b\* \_u\_ \`c\` &amp; "q", done line two |' "markdown: pipes, emphasis, code and & escaped; newline folded"
"$KPLAN" report --run 3 --format csv "$db" >"$T/h.csv"
like "$(cat "$T/h.csv")" "$(printf 'unschedulable_reasons,"<script>document.body.setAttribute(\x27data-pwned\x27,1)</script><img src=x onerror=""document')" \
	"csv: a field with quotes is quoted, quotes doubled"
is "$(perl -ne '$q += tr/"//; END { print $q % 2 }' "$T/h.csv")" 0 "csv: quotes balance"
"$KPLAN" report --run 3 --format html "$db" >"$T/h.html"
unlike "$(cat "$T/h.html")" "<script>document" "html: no <script> from the data"
unlike "$(cat "$T/h.html")" "<img src=x" "html: no <img> from the data"
like "$(cat "$T/h.html")" "&lt;script&gt;document.body.setAttribute(&#39;data-pwned&#39;,1)" "html: the reason is escaped"
is "$(grep -c '<script' "$T/h.html")" 2 "html: only kplan's two scripts"
"$KPLAN" report --run 3 "$db" >"$T/h.txt"
like "$(cat "$T/h.txt")" '"q", done line two' "text: a newline in a cell is folded"

# ---- usage errors: 64 ----
for args in "" "--format pdf $db" "--format" "--run 0 $db" "--run x $db" "--compare 1 $db" "--compare 1 x $db" \
	"--run 1 --compare 1 2 $db" "--bogus $db" "$db extra" "-o"; do
	# shellcheck disable=SC2086
	run "$KPLAN" report $args
	is "$rc" 64 "usage error: report $args"
done
run "$KPLAN" report --format pdf "$db"
like "$err" "unknown format 'pdf' (want text, markdown, csv, json or html)" "bad format is named"
like "$err" "see 'kplan report --help'" "usage errors point to --help"
run "$KPLAN" report --help
is "$rc" 0 "--help: exit 0"
like "$out" "usage: kplan report [options] DB" "--help: usage line"
like "$("$KPLAN" --help)" "report" "report is in kplan --help"

# ---- errors: 1 ----
run "$KPLAN" report --run 99 "$db"
is "$rc" 1 "unknown run: exit 1"
like "$err" "kplan: no run 99 in '$db'" "unknown run is named"
run "$KPLAN" report --compare 1 77 "$db"
is "$rc" 1 "--compare with an unknown run: exit 1"
like "$err" "no run 77" "--compare: the unknown run is named"
run "$KPLAN" report "$T/missing.db"
is "$rc" 1 "missing database: exit 1"
like "$err" "no such database '$T/missing.db'" "missing database is named"
is "$(digest "$T/missing.db")" absent "a missing database is not created"
run "$KPLAN" report -o "$T/no/such/dir/r.html" --format html "$db"
is "$rc" 1 "-o into a missing directory: exit 1"
like "$err" "cannot write '$T/no/such/dir/r.html': No such file or directory" "-o: the file and the reason"
printf 'not a database at all, just text that is long enough to fill a page header...........................' >"$T/junk.db"
run "$KPLAN" report "$T/junk.db"
is "$rc" 1 "not a database: exit 1"
like "$err" "junk.db" "not a database: named"

is "$(dump "$db")" "$before" "the database is unchanged after every report above (sqlite3 .dump)"

# ---- an openb plan: 1213 GPU nodes, 8152 pods ----
D=$KP_SHARED_DATA/openb
if [ ! -d "$D" ]; then
	skip "shared data absent ($D): no openb report" 24
	done_testing
fi
ob="$T/openb.db"
# relative names: the batch's sources (in the reports) do not depend on where the data lives
(cd "$D" && "$KPLAN" import -q "$ob" openb_node_list_gpu_node.csv openb_pod_list_default.csv) || fail "openb import"
"$KPLAN" plan -q "$ob" || fail "openb plan"
before=$(dump "$ob")

# ---- golden openb reports: a subset ----
# The full reports are 1 to 2 MB each (1213 nodes, 3639 node x resource rows,
# 1213 device pools, 7020 device allocations): too much data derived from the
# trace for the repository (its terms: tests/report/README).  The goldens hold
# every section, but the per-node sections `nodes`, `node_usage`,
# `devices_nodes` (per node and pool), `devices_allocations` (the run's
# allocations, by pool = node) and `gpu_nodes` (GPU fragmentation per node) keep only the rows of every 100th node
# (openb-node-0000, -0100, ..., -1200; a trailing JSON comma is dropped with
# the rows).  The rest is checked by counts below and byte for byte by the
# sha256 of each full report (tests/report/openb.sha256; KP_UPDATE_GOLDEN=1
# rewrites it as well).
subset() {
	set -o pipefail
	"$@" | perl -ne '
		if (/^(?:(?:## )?(?:Nodes|Node utilisation|Devices: per node and pool|Devices: the run.s allocations|GPU fragmentation: per node)|"(?:nodes|node_usage|devices_nodes|devices_allocations|gpu_nodes)": \[)$/) { $in = 1 }
		elsif (/^(?:[A-Z]|## |"[a-z_]+": )/) { $in = 0 }
		next if ($in || /^(?:nodes|node_usage|devices_nodes|devices_allocations|gpu_nodes),/) && /openb-node-(\d+)/ && $1 % 100;
		$o[-1] =~ s/,(\n)$/$1/ if /^\],?$/ && @o;
		push @o, $_;
		END { print @o }'
}
golden openb.txt subset "$KPLAN" report --no-timing "$ob"
golden openb.md subset "$KPLAN" report --no-timing --format markdown "$ob"
golden openb.csv subset "$KPLAN" report --no-timing --format csv "$ob"
golden openb.json subset "$KPLAN" report --no-timing --format json "$ob"
is "$(json "$G/openb.json" 'join " ", map { scalar @{$d->{$_}} } qw(nodes node_usage devices_nodes)')" "13 39 13" \
	"openb.json: the subset is still JSON, with 13 nodes, their 39 node_usage rows (cpu, memory, pods) and 13 device pools"
is "$(json "$G/openb.json" 'scalar(grep { $_->{node} !~ /^openb-node-\d\d00$/ } @{$d->{devices_allocations}}) . " " .
	scalar(@{$d->{devices_allocations}})')" \
	"0 $(q "$ob" "SELECT count(*) FROM dra_allocation a JOIN node n ON n.id = a.node_id WHERE n.name GLOB 'openb-node-[01][0-9]00'")" \
	"openb.json: the subset's allocations are those on the 13 nodes kept"
nres=$(q "$ob" "SELECT count(*) FROM node_resource WHERE allocatable > 0")
for f in text:txt markdown:md csv:csv json:json; do
	"$KPLAN" report --no-timing --format "${f%:*}" "$ob" | mask >"$T/openb-full.${f#*:}"
done
# rows NAME SECTION-TITLE ROW-PREFIX: rows of a text or markdown section
rows() { perl -e 'my ($t, $p) = @ARGV; my ($in, $n) = (0, 0); while (<STDIN>) { chomp;
	if (/^(?:## )?(.*)$/ && $1 eq $t) { $in = 1; next } $in = 0 if /^(?:[A-Z]|## )/;
	$n++ if $in && index($_, $p) == 0 } print $n' "$2" "$3" <"$1"; }
is "$(rows "$T/openb-full.txt" Nodes openb-node-) $(rows "$T/openb-full.txt" 'Node utilisation' openb-node-)" \
	"1213 $nres" "openb text, full: 1213 rows of nodes, one row per node resource in node utilisation"
is "$(rows "$T/openb-full.md" Nodes '| openb-node-') $(rows "$T/openb-full.md" 'Node utilisation' '| openb-node-')" \
	"1213 $nres" "openb markdown, full: 1213 rows of nodes, $nres of node utilisation"
is "$(grep -c '^nodes,' "$T/openb-full.csv") $(grep -c '^node_usage,' "$T/openb-full.csv")" "1213 $nres" \
	"openb csv, full: 1213 nodes rows, $nres node_usage rows"
is "$(json "$T/openb-full.json" 'scalar(@{$d->{nodes}}) . " " . scalar(@{$d->{node_usage}})')" "1213 $nres" \
	"openb json, full: 1213 nodes, $nres node_usage rows"
(cd "$T" && sha256sum openb-full.txt openb-full.md openb-full.csv openb-full.json) >"$T/openb.sha256"
if [ "${KP_UPDATE_GOLDEN:-0}" = 1 ]; then
	cp "$T/openb.sha256" "$G/openb.sha256"
fi
if cmp -s "$T/openb.sha256" "$G/openb.sha256"; then
	pass "openb: the full reports match tests/report/openb.sha256"
else
	fail "openb: the full reports match tests/report/openb.sha256 (a change outside the golden subset?)"
	diff "$G/openb.sha256" "$T/openb.sha256" | sed 's/^/#   /'
fi
for f in text markdown csv json html; do
	run "$KPLAN" report --format $f -o "$T/openb.$f" "$ob"
	is "$rc" 0 "openb: --format $f"
done
is "$(json "$T/openb.json" 'join " ", map { $d->{summary}{$_} } qw(nodes pods bind unschedulable)')" \
	"1213 8152 $(q "$ob" "SELECT count(*) FROM plan WHERE action = 'bind'") $(q "$ob" "SELECT count(*) FROM unschedulable")" \
	"openb: nodes, pods, bound and unschedulable as in the plan"
is "$(json "$T/openb.json" 'join " ", map { $d->{devices}{$_} } qw(devices in_use allocations claims_allocated_by_run unallocated_pods)')" \
	"$(q "$ob" "SELECT (SELECT count(*) FROM slice_device) || ' ' || (SELECT count(*) FROM (SELECT DISTINCT pool, device FROM dra_allocation))
		|| ' ' || (SELECT count(*) FROM dra_allocation) || ' ' || (SELECT count(DISTINCT claim_id) FROM dra_allocation)
		|| ' ' || (SELECT count(*) FROM unschedulable)")" \
	"openb: the GPUs (DRA devices), those in use, the allocations and claims allocated as in dra_allocation; every unschedulable pod left a claim"
is "$(json "$T/openb.json" 'join " ", map { $_->{resource} } @{$d->{resources}}')" "cpu memory pods" \
	"openb: the node resources are cpu, memory and pods (the GPUs are devices)"
is "$(json "$T/openb.json" 'my $n = 0; $n += $_->{pods} for @{$d->{unschedulable_groups}}; $n . " " . $d->{unschedulable_groups}[0]{reasons}')" \
	"$(q "$ob" "SELECT count(*) FROM unschedulable u JOIN pod p ON p.namespace = u.namespace AND p.name = u.pod
		JOIN pod_resource_claim c ON c.pod_id = p.id") Insufficient cpu; Insufficient memory; cannot allocate all claims" \
	"openb: the groups hold every unschedulable pod (each claims GPUs); the largest adds DynamicResources' reason to cpu and memory"
is "$(json "$T/openb.json" '$d->{zones}[0]{zone} . " " . $d->{zones}[0]{nodes}')" "(none) 1213" "openb: no zone label: one zone (none)"
size=$(wc -c <"$T/openb.html")
is "$([ "$size" -lt 2000000 ] && echo small)" small "openb: the html stays under 2 MB ($size bytes)"
like "$(cat "$T/openb.html")" "Showing the 100 most loaded of 1213 nodes" "openb: the charts say they show 100 of 1213 nodes"
is "$(dump "$ob")" "$before" "openb: the database is unchanged"
done_testing
