#!/usr/bin/env bash
# 35-http-extender.t — kube-scheduler's HTTP extenders (KubeSchedulerConfiguration
# `extenders:`), called during a plan by kplan as kube-scheduler calls them,
# against tests/helpers/extender_srv.c on 127.0.0.1.  Cases cite kube's tests
# (kubernetes/kubernetes pkg/scheduler): schedule_one_test.go
# TestFindNodesThatPassExtenders/<case>, TestSchedulerWithExtenders;
# extender_test.go TestIsInterested; apis/config/validation
# validation_test.go TestValidateKubeSchedulerConfigurationV1 (extenders);
# preemption: framework/preemption/preemption_test.go TestCallExtenders/<case>,
# framework/plugins/defaultpreemption/default_preemption_test.go TestPreempt/<case>.
. "$(dirname "$0")/../lib.sh"
case $KPLAN in /*) ;; *) KPLAN=$PWD/$KPLAN ;; esac
D="$TESTS_DIR/data/extender"
SRV=${KP_EXTENDER_SRV:-$(dirname "$KPLAN")/tests/extender_srv}
if [ ! -x "$SRV" ]; then
	skip "no $SRV (make test builds it)" 1
	done_testing
fi
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT

# srv NAME OPTION...: start an extender; its port in $port, its requests in $T/NAME.log
srv() {
	local name=$1
	shift
	rm -f "$T/$name.port" "$T/$name.log"
	"$SRV" "$T/$name.port" --log "$T/$name.log" "$@" &
	srvpid=$!
	pids="$pids $!"
	for _ in $(seq 200); do [ -s "$T/$name.port" ] && break; sleep 0.05; done
	port=$(cat "$T/$name.port")
}
# cfg FILE YAML: a KubeSchedulerConfiguration whose extenders list is YAML
cfg() { printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nextenders:\n%s\n' "$2" >"$1"; }
# q1 DB SQL: one value, unquoted (q's CSV quotes values with commas or quotes)
q1() { q "$1" "$2" | sed -e 's/^"//' -e 's/"$//' -e 's/""/"/g'; }
node_of() { q "$db" "SELECT COALESCE(node, '-') FROM plan WHERE pod = '$1'"; }
reason_of() { q1 "$db" "SELECT COALESCE(reason, '') FROM plan WHERE pod = '$1'"; }
calls() { q "$db" "SELECT group_concat(verb || ':' || outcome || ':' || nodes || ':' || COALESCE(passed, '-'), ' ')
                   FROM (SELECT * FROM extender_call WHERE run_id = (SELECT max(id) FROM run) ORDER BY seq)"; }

db="$T/x.db"
"$KPLAN" import -q "$db" "$D/cluster.yaml" || fail "import the cluster"

# ==== configuration: kube's validation, with file:line:col ====
c="$T/bad.yaml"
cfg "$c" "- urlPrefix: http://127.0.0.1:1/
  prioritizeVerb: prioritize"
run "$KPLAN" plan --config "$c" "$db"
is "$rc" 1 "prioritizeVerb without a weight: refused (validateExtenders)"
like "$err" "bad.yaml:4:3: KubeSchedulerConfiguration: extenders[0].weight: Invalid value: 0: must have a positive weight applied to it" \
	"kube's field error, at the extender's line and column"
cfg "$c" "- {urlPrefix: http://a/, bindVerb: bind}
- {urlPrefix: http://b/, bindVerb: bind}"
run "$KPLAN" plan --config "$c" "$db"
like "$err" "only one extender can implement bind" "two bindVerbs: refused"
cfg "$c" "- {urlPrefix: http://a/, managedResources: [{name: cpu}]}"
run "$KPLAN" plan --config "$c" "$db"
like "$err" 'managedResources[0].name: Invalid value: "cpu": is an invalid extended resource name' \
	"a native resource cannot be managed"
cfg "$c" "- {urlPrefix: http://a/, managedResources: [{name: example.com/foo}]}
- {urlPrefix: http://b/, managedResources: [{name: example.com/foo}]}"
run "$KPLAN" plan --config "$c" "$db"
like "$err" "extenders[1].managedResources[0].name: Invalid value: \"example.com/foo\": duplicate extender managed resource name" \
	"a resource managed twice: refused"
cfg "$c" "- {urlPrefix: http://a/, filterVerb: filter, httpTimeout: soon}"
run "$KPLAN" plan --config "$c" "$db"
like "$err" "extenders[0].httpTimeout: expected a duration such as 30s or 500ms" "a bad httpTimeout: refused"
cfg "$c" "- {urlPrefix: http://a/, filterVerb: filter, tlsConfig: {insecure: true, caData: QUJD}}"
run "$KPLAN" plan --config "$c" "$db"
like "$err" "specifying a root certificates file with the insecure flag is not allowed" \
	"insecure with a CA: refused as client-go refuses it"
cfg "$c" "- {urlPrefix: http://a/, filterVerb: filter, nodeCacheCapabel: true}"
run "$KPLAN" plan --config "$c" "$db"
like "$err" "extenders[0]: unknown field 'nodeCacheCapabel'" "a misspelt field: refused"
is "$(q "$db" "SELECT count(*) FROM run")" 0 "no refused configuration wrote a run"

# ==== Filter: FailedNodes and FailedAndUnresolvableNodes ====
# TestFindNodesThatPassExtenders/"unschedulable and unresolvable"
srv f1 --reject "n1=n1 is full" --unresolvable "n2=n2 never"
cfg "$T/f1.yaml" "- {urlPrefix: 'http://127.0.0.1:$port/', filterVerb: filter}"
run "$KPLAN" plan --config "$T/f1.yaml" "$db"
is "$rc" 0 "plan with a filter extender: exit 0"
is "$(node_of web)" n3 "the pod goes to the one node the extender kept"
is "$(calls)" "filter:ok:3:1" "one call: 3 nodes sent, 1 kept (extender_call)"
like "$(cat "$T/f1.log")" '/filter {"Pod":{"metadata":{"name":"web","namespace":"default","uid":"uid-web","labels":{"app":"web"}},"spec":{"schedulerName":"default-scheduler","priority":0,"tolerations":[{"key":"spot","operator":"Exists"}],"containers":[{"name":"c","image":"nginx","resources":{"requests":{"cpu":"500m","memory":"1073741824"}}}]}},"Nodes":{"metadata":{},"items":[{"metadata":{"name":"n1","uid":"uid-n1"' \
	"the body is ExtenderArgs: the pod as v1.Pod, the nodes as a v1.NodeList (POST urlPrefix/verb, one slash)"
like "$(cat "$T/f1.log")" '"spec":{"taints":[{"key":"spot","value":"yes","effect":"PreferNoSchedule"}]},"status":{"allocatable":{"cpu":"4000m","memory":"8589934592","pods":"110"}' \
	"a node carries its taints and allocatable"
is "$(q "$db" "SELECT json_extract(config, '\$.profiles[0].extenders[0].filterVerb') FROM run WHERE id = 1")" filter \
	"run.config lists the extenders"

# every node rejected: kube's FitError, the extender's messages counted per node
srv f2 --reject "n1=n1 is full" --unresolvable "n2=n2 never" --reject "n3=n3 is full"
cfg "$T/f2.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter}"
run "$KPLAN" plan --config "$T/f2.yaml" "$db"
like "$(reason_of web)" "0/3 nodes are available: 1 n1 is full, 1 n2 never, 1 n3 is full." \
	"unschedulable: the FitError counts the extender's reasons"
is "$(q1 "$db" "SELECT group_concat(plugin || '/' || reason, ',') FROM (SELECT * FROM pod_failure
               WHERE run_id = (SELECT max(id) FROM run) ORDER BY reason)")" "Extender/n1 is full,Extender/n2 never,Extender/n3 is full" \
	"pod_failure names kube's 'Extender'"

# a node left out without a status is not counted (absent from NodeToStatus)
srv f3 --drop n1 --drop n2
cfg "$T/f3.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter}"
run "$KPLAN" plan --config "$T/f3.yaml" "$db"
is "$(node_of web)" n3 "nodes the extender leaves out are not feasible"

# TestFindNodesThatPassExtenders/"multiple extenders": the second sees what the first kept
srv m1 --reject "n1=first says no"
p1=$port
srv m2 --reject "n2=second says no"
cfg "$T/m.yaml" "- {urlPrefix: 'http://127.0.0.1:$p1', filterVerb: filter}
- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter, nodeCacheCapable: true}"
run "$KPLAN" plan --config "$T/m.yaml" "$db"
is "$(node_of web)" n3 "two filter extenders: each removes its node"
is "$(calls)" "filter:ok:3:2 filter:ok:2:1" "the second extender is sent the 2 nodes the first kept"
like "$(cat "$T/m2.log")" '"NodeNames":["n2","n3"]}' "nodeCacheCapable: node names only"
unlike "$(cat "$T/m2.log")" '"Nodes"' "nodeCacheCapable: no node objects"

# ==== Prioritize: score x weight x 10, added to the plugins' sum ====
# TestSchedulerWithExtenders/"test 7": the extenders' scores add to the plugins' between equal nodes
srv p1 --score n2=10
cfg "$T/p1.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', prioritizeVerb: prioritize, weight: 3}"
run "$KPLAN" plan --config "$T/p1.yaml" "$db"
is "$(node_of web)" n2 "the extender's score picks n2"
run1=$(q "$db" "SELECT score FROM placement WHERE run_id = (SELECT max(id) FROM run)")
srv p2 --score n1=10
cfg "$T/p2.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', prioritizeVerb: prioritize, weight: 3}"
run "$KPLAN" plan --config "$T/p2.yaml" "$db"
is "$(node_of web)" n1 "another score picks n1"
run "$KPLAN" plan --config default "$db"
base=$(q "$db" "SELECT score FROM placement WHERE run_id = (SELECT max(id) FROM run)")
is "$((run1 - base))" 300 "10 x weight 3 x (MaxNodeScore 100 / MaxExtenderPriority 10) = 300 over the plugins' total"
# TestSchedulerWithExtenders/"test 6": two prioritizers, the heavier weight wins
srv p3 --score n1=10
p1=$port
srv p4 --score n3=10
cfg "$T/p3.yaml" "- {urlPrefix: 'http://127.0.0.1:$p1', prioritizeVerb: prioritize, weight: 1}
- {urlPrefix: 'http://127.0.0.1:$port', prioritizeVerb: prioritize, weight: 5}"
run "$KPLAN" plan --config "$T/p3.yaml" "$db"
is "$(node_of web)" n3 "n1 scores 10 x 1, n3 10 x 5: n3"
is "$(calls)" "prioritize:ok:3:3 prioritize:ok:3:3" "both prioritizers are called with the 3 feasible nodes"

# ==== failures, as kube reports them ====
# a non-ignorable extender's error fails the pod's cycle with kube's text
# (TestSchedulerWithExtenders/"test 1", TestFindNodesThatPassExtenders/"error")
srv e1 --status 500
cfg "$T/e1.yaml" "- {urlPrefix: 'http://127.0.0.1:$port/', filterVerb: filter}"
run "$KPLAN" plan --config "$T/e1.yaml" "$db"
is "$(reason_of web)" "failed filter with extender at URL http://127.0.0.1:$port/filter, code 500" \
	"HTTP 500: the pod is unschedulable with HTTPExtender.send's error"
is "$(calls)" "filter:error:3:-" "extender_call: outcome error"
like "$err" "kplan: warning: extender: 1 call(s) to HTTP extenders failed: 0 skipped (ignorable), 1 failed their pod's cycle" \
	"the run warns"
# TestSchedulerWithExtenders/"test 9": the same error from an ignorable extender is skipped
cfg "$T/e2.yaml" "- {urlPrefix: 'http://127.0.0.1:$port/', filterVerb: filter, ignorable: true}"
run "$KPLAN" plan --config "$T/e2.yaml" "$db"
is "$(node_of web)" n1 "an ignorable extender's error is skipped: the pod is placed" # n1: the seeded tie-break, as --config default
is "$(calls)" "filter:skipped:3:-" "extender_call: outcome skipped"
is "$(q1 "$db" "SELECT kind || ': ' || message FROM run_warning WHERE run_id = (SELECT max(id) FROM run)")" \
	"extender: 1 call(s) to HTTP extenders failed: 1 skipped (ignorable), 0 failed their pod's cycle, 0 prioritize call(s) gave no score; first: http://127.0.0.1:$port/ filter: failed filter with extender at URL http://127.0.0.1:$port/filter, code 500 (every call: extender_call)" \
	"a run_warning names the ignorable extender and its error"
# the reply's Error field
srv e3 --error "quota service down"
cfg "$T/e3.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter}"
run "$KPLAN" plan --config "$T/e3.yaml" "$db"
is "$(reason_of web)" "quota service down" "ExtenderFilterResult.Error is the pod's message"
# a reply that is not JSON: Go's decoder's words
srv e4 --malformed
cfg "$T/e4.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter}"
run "$KPLAN" plan --config "$T/e4.yaml" "$db"
is "$(reason_of web)" "invalid character '<' looking for beginning of value" "malformed JSON: encoding/json's error"
# slower than its httpTimeout
srv e5 --sleep-ms 3000
cfg "$T/e5.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter, httpTimeout: 300ms}"
start=$(date +%s)
run "$KPLAN" plan --config "$T/e5.yaml" "$db"
is "$(reason_of web)" "Post \"http://127.0.0.1:$port/filter\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)" \
	"past httpTimeout: net/http's timeout error"
ok "$(( $(date +%s) - start < 3 ? 0 : 1 ))" "the plan did not wait for the slow extender"
# nobody listening
kill "$srvpid" 2>/dev/null
wait "$srvpid" 2>/dev/null
run "$KPLAN" plan --config "$T/e5.yaml" "$db"
like "$(reason_of web)" "Post \"http://127.0.0.1:$port/filter\": dial tcp 127.0.0.1:$port: connect: connection refused" \
	"connection refused: net/http's dial error"
# nodeCacheCapable and a node that was not sent
srv e6 --claim nX
cfg "$T/e6.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter, nodeCacheCapable: true}"
run "$KPLAN" plan --config "$T/e6.yaml" "$db"
is "$(reason_of web)" "extender \"http://127.0.0.1:$port\" claims a filtered node \"nX\" which is not found in the input node list" \
	"a node name it was not sent: HTTPExtender.Filter's error"
# prioritize errors are ignored, ignorable or not
srv e7 --status 503
cfg "$T/e7.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', prioritizeVerb: prioritize, weight: 1}"
run "$KPLAN" plan --config "$T/e7.yaml" "$db"
is "$(node_of web)" n1 "a failing prioritize gives no score; the pod is placed"
is "$(calls)" "prioritize:ignored:3:-" "extender_call: outcome ignored"
# buildExtenders: the ignorable ones are called last (TestSchedulerWithExtenders/"test 9" lists it first)
srv o1 --status 500
p1=$port
srv o2 --reject "n1=no"
cfg "$T/o.yaml" "- {urlPrefix: 'http://127.0.0.1:$p1', filterVerb: filter, ignorable: true}
- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter}"
run "$KPLAN" plan --config "$T/o.yaml" "$db"
is "$(q "$db" "SELECT group_concat(outcome, ' ') FROM (SELECT outcome FROM extender_call WHERE run_id = (SELECT max(id) FROM run) ORDER BY seq)")" \
	"ok skipped" "the ignorable extender, first in the file, is called after the other"

# ==== managedResources: IsInterested, ignoredByScheduler ====
"$KPLAN" import -q "$db" "$D/foo.yaml" || fail "import foo.yaml"
srv r1 --reject "n3=not n3"
cfg "$T/r1.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter, managedResources: [{name: example.com/foo}]}"
run "$KPLAN" plan --config "$T/r1.yaml" "$db"
# TestSchedulerWithExtenders/"test 8" and TestIsInterested: a pod that does not request a
# managed resource is not sent ("Managed memory, empty resources"); a request of 0 counts
# ("Managed memory, container memory with Requests")
is "$(sed -E 's/.*"metadata":\{"name":"([a-z]+)".*/\1/' "$T/r1.log" | sort -u | tr '\n' ' ')" "foo zerofoo " \
	"only the pods that request the managed resource call the extender: foo, zerofoo (0); not web; not bigfoo (fits no node)"
is "$(grep -c '"name":"foo"' "$T/r1.log")" "$(q "$db" "SELECT attempts FROM placement pl JOIN pod p ON p.id = pl.pod_id
                                                   WHERE p.name = 'foo' AND pl.run_id = (SELECT max(id) FROM run)")" \
	"foo, unschedulable, is sent once per scheduling cycle (no answer reused across cycles)"
like "$(reason_of foo)" "0/3 nodes are available: 1 not n3, 2 Insufficient example.com/foo." "foo: the extender rejected n3, the only node with room"
like "$(reason_of bigfoo)" "Insufficient example.com/foo" "bigfoo asks for 8 example.com/foo: NodeResourcesFit rejects every node"
srv r2 --reject "n1=not n1" --reject "n2=not n2"
cfg "$T/r2.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter, managedResources: [{name: example.com/foo, ignoredByScheduler: true}]}"
run "$KPLAN" plan --config "$T/r2.yaml" "$db"
is "$(node_of bigfoo)" n3 "ignoredByScheduler: NodeResourcesFit leaves example.com/foo to the extender, which keeps n3"
is "$(q "$db" "SELECT json_extract(config, '\$.profiles[0].extenders[0].managedResources[0].ignoredByScheduler')
               FROM run WHERE id = (SELECT max(id) FROM run)")" 1 "run.config shows the managed resource, ignored by the scheduler"

# ==== a plan stays deterministic ====
cfg "$T/d.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', filterVerb: filter}"
"$KPLAN" plan -q --config "$T/d.yaml" "$db"
a=$(q "$db" "SELECT group_concat(pod || '@' || COALESCE(node, '-'), ' ') FROM plan")
"$KPLAN" plan -q --config "$T/d.yaml" "$db"
is "$(q "$db" "SELECT group_concat(pod || '@' || COALESCE(node, '-'), ' ') FROM plan")" "$a" "the same extender answers give the same plan"

# ==== an imported configuration with preemptVerb: planned, its extender called ====
cat >"$T/imp.yaml" <<'EOF'
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles: [{schedulerName: default-scheduler}]
extenders:
- {urlPrefix: http://127.0.0.1:1/, filterVerb: filter, preemptVerb: preempt}
EOF
db2="$T/y.db"
"$KPLAN" import -q "$db2" "$D/cluster.yaml" "$T/imp.yaml" || fail "import with the configuration"
run "$KPLAN" plan "$db2"
is "$rc" 0 "an imported configuration with preemptVerb: the plan runs"
db=$db2
like "$(reason_of web)" "Post \"http://127.0.0.1:1/filter\": dial tcp 127.0.0.1:1: connect: connection refused" \
	"its pods are planned with its extender (kube validates nothing about preemptVerb)"

# ==== preemption: ProcessPreemption between the candidates and the pick ====
db="$T/pre.db"
"$KPLAN" import -q "$db" "$D/preempt.yaml" || fail "import preempt.yaml"
evicted() { q "$db" "SELECT COALESCE(group_concat(p.name, ' '), '-') FROM (SELECT * FROM eviction
                     WHERE run_id = (SELECT max(id) FROM run) ORDER BY seq) e JOIN pod p ON p.id = e.pod_id"; }
"$KPLAN" plan -q --config default "$db"
is "$(node_of big) $(evicted)" "c c-low" "without an extender big preempts c-low on c (the lowest highest-victim priority)"
cfg "$c" "- {urlPrefix: http://a/, preemptVerb: preempt}"
run "$KPLAN" plan --config "$c" "$T/x.db"
is "$rc:$(q "$T/x.db" "SELECT count(*) FROM extender_call WHERE run_id = (SELECT max(id) FROM run)")" "0:0" \
	"preemptVerb: accepted (validateExtenders checks nothing of it); not called when nothing preempts"
# TestPreempt/"Scheduler extenders allow only node1, otherwise node3 would have been chosen"
srv x1 --preempt-drop c
cfg "$T/x1.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt}"
run "$KPLAN" plan --config "$T/x1.yaml" "$db"
is "$(node_of big) $(evicted)" "a a-low" "the extender drops c: a's victim goes and big lands on a"
is "$(calls)" "preempt:ok:3:2" "one preempt call: 3 candidates sent, 2 returned (extender_call)"
like "$(cat "$T/x1.log")" '/preempt {"Pod":{"metadata":{"name":"big","namespace":"default","uid":"uid-big"' \
	"POST urlPrefix/preemptVerb with the pod"
like "$(cat "$T/x1.log")" '"NodeNameToVictims":{"a":{"Pods":[{"metadata":{"name":"a-low","namespace":"default","uid":"uid-a-low","labels":{}},"spec":{"nodeName":"a",' \
	"not nodeCacheCapable: NodeNameToVictims, node names sorted, victims as v1.Pod with spec.nodeName"
like "$(cat "$T/x1.log")" '"NumPDBViolations":0}},"NodeNameToMetaVictims":null}' "NodeNameToMetaVictims null"
is "$(q "$db" "SELECT json_extract(config, '\$.profiles[0].extenders[0].preemptVerb') FROM run WHERE id = (SELECT max(id) FROM run)")" \
	preempt "run.config shows preemptVerb"
cfg "$T/x1c.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt, nodeCacheCapable: true}"
run "$KPLAN" plan --config "$T/x1c.yaml" "$db"
like "$(tail -n 1 "$T/x1.log")" '"NodeNameToVictims":null,"NodeNameToMetaVictims":{"a":{"Pods":[{"UID":"uid-a-low"}],"NumPDBViolations":0},"b":{"Pods":[{"UID":"uid-b-low2"},{"UID":"uid-b-low1"}],"NumPDBViolations":0},"c":{"Pods":[{"UID":"default/c-low"}],"NumPDBViolations":0}}}' \
	"nodeCacheCapable: MetaVictims by UID, most important first; c-low, imported without a uid, as default/c-low"
is "$(node_of big) $(evicted)" "a a-low" "nodeCacheCapable: the same answer, the same pick"
# TestPreempt/"Scheduler extenders do not allow any preemption"
srv x2 --preempt-drop a --preempt-drop b --preempt-drop c
cfg "$T/x2.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt}"
run "$KPLAN" plan --config "$T/x2.yaml" "$db"
is "$(reason_of big)" "0/3 nodes are available: 3 Insufficient cpu. preemption: no candidate node for preemption." \
	"no candidate left: kube's 'no candidate node for preemption' after the FitError"
is "$(evicted)" "-" "nothing is evicted"
is "$(calls)" "preempt:ok:3:0" "extender_call: 3 sent, 0 returned"
# the extender's NumPDBViolations ranks the candidates (pickOneNodeForPreemption's first criterion)
srv x3 --preempt-pdb c=1
cfg "$T/x3.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt}"
run "$KPLAN" plan --config "$T/x3.yaml" "$db"
is "$(node_of big) $(evicted)" "a a-low" "c said to violate a PDB: a, with none, wins"
# the extender's victims replace kplan's (convertToVictims); the next cycle's
# answer names a pod no longer on b: convertPodUIDToPod's error, not ignorable
srv x4 --preempt-drop a --preempt-drop c --preempt-victims b=uid-b-low1
cfg "$T/x4.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt}"
run "$KPLAN" plan --config "$T/x4.yaml" "$db"
is "$(evicted)" "b-low1" "only the victim the extender named is evicted (not b-low2)"
is "$(calls)" "preempt:ok:3:1 preempt:error:3:-" "big preempts again after b-low1 went; the second answer fails"
is "$(reason_of big)" "0/3 nodes are available: 3 Insufficient cpu. preemption: extender: http://127.0.0.1:$port claims to preempt pod (UID: &{uid-b-low1}) on node: b, but the pod is not found on that node." \
	"a UID not on that node: HTTPExtender.convertPodUIDToPod's error ends the preemption"
# a node that does not exist
srv x6 --preempt-victims zz=uid-a-low
cfg "$T/x6.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt}"
run "$KPLAN" plan --config "$T/x6.yaml" "$db"
like "$(reason_of big)" 'preemption: nodeinfo not found for node name "zz".' "a node not in the cluster: the snapshot's error"
# TestCallExtenders/"one extender with return no victims" and "... and is ignorable"
srv x7 --preempt-victims c=
cfg "$T/x7.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt}"
run "$KPLAN" plan --config "$T/x7.yaml" "$db"
like "$(reason_of big)" 'preemption: expected at least one victim pod on node "c".' "a node without victims: an error"
is "$(evicted)" "-" "the error evicts nothing"
cfg "$T/x7i.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt, ignorable: true}"
run "$KPLAN" plan --config "$T/x7i.yaml" "$db"
is "$(node_of big) $(evicted)" "a a-low" "ignorable: the node without victims is dropped, a wins"
is "$(calls)" "preempt:ok:3:2" "extender_call: 2 candidates returned"
# TestCallExtenders/"one extender returns error and is not ignorable"
srv x8 --status 500
cfg "$T/x8.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt}"
run "$KPLAN" plan --config "$T/x8.yaml" "$db"
is "$(reason_of big)" "0/3 nodes are available: 3 Insufficient cpu. preemption: failed preempt with extender at URL http://127.0.0.1:$port/preempt, code 500." \
	"HTTP 500: the preemption fails with HTTPExtender.send's error"
is "$(calls) $(evicted)" "preempt:error:3:- -" "extender_call: outcome error; nothing evicted"
# TestPreempt/"One scheduler extender allows only node1, the other returns error but ignorable. Only node1 would be chosen"
p8=$port
srv x9 --preempt-drop c
cfg "$T/x9.yaml" "- {urlPrefix: 'http://127.0.0.1:$p8', preemptVerb: preempt, ignorable: true}
- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt}"
run "$KPLAN" plan --config "$T/x9.yaml" "$db"
is "$(node_of big) $(evicted)" "a a-low" "the ignorable extender's error is skipped; the other's answer counts"
is "$(calls)" "preempt:ok:3:2 preempt:skipped:2:-" "the ignorable one is called last, with the 2 candidates the first returned"
# two extenders: the second is sent what the first returned, and may add a node
p9=$port
srv x10 --preempt-drop a --preempt-drop b --preempt-victims c=default/c-low
cfg "$T/x10.yaml" "- {urlPrefix: 'http://127.0.0.1:$p9', preemptVerb: preempt, nodeCacheCapable: true}
- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt}"
run "$KPLAN" plan --config "$T/x10.yaml" "$db"
is "$(calls)" "preempt:ok:3:2 preempt:ok:2:1" "the second extender gets the first one's 2 candidates"
like "$(cat "$T/x10.log")" '"uid":"uid-b-low1"' "the second is sent b"
unlike "$(cat "$T/x10.log")" '"c":{"Pods"' "not c, which the first dropped"
is "$(node_of big) $(evicted)" "c c-low" "it adds c back, naming c-low by its stand-in UID: c"
# malformed, slow
srv x11 --malformed
cfg "$T/x11.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt}"
run "$KPLAN" plan --config "$T/x11.yaml" "$db"
like "$(reason_of big)" "preemption: invalid character '<' looking for beginning of value." "malformed JSON: encoding/json's error"
srv x12 --sleep-ms 3000
cfg "$T/x12.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt, httpTimeout: 300ms}"
start=$(date +%s)
run "$KPLAN" plan --config "$T/x12.yaml" "$db"
like "$(reason_of big)" "preemption: Post \"http://127.0.0.1:$port/preempt\": context deadline exceeded" "past httpTimeout: net/http's timeout"
ok "$(( $(date +%s) - start < 3 ? 0 : 1 ))" "the plan did not wait for the slow extender"
# TestPreempt/"One scheduler extender allows only node1, but it is not interested in given pod, ..."
srv x13 --preempt-drop c
cfg "$T/x13.yaml" "- {urlPrefix: 'http://127.0.0.1:$port', preemptVerb: preempt, managedResources: [{name: example.com/foo}]}"
run "$KPLAN" plan --config "$T/x13.yaml" "$db"
is "$(node_of big) $(evicted)" "c c-low" "an extender not interested in the pod is not called: c, as without it"
is "$(calls)" "" "no extender_call"

done_testing
