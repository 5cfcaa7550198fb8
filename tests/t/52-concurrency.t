#!/usr/bin/env bash
# 52-concurrency.t — several processes on one database (WAL):
#
#  1. readers (`kplan query`, `sqlite3`) work while a plan runs, without
#     waiting for it, and see the last committed state;
#  2. two plans started at once: both succeed one after the other, or one
#     exits 3 with "database is busy"; each run is complete (one placement
#     per pod) and equal to the other (plans are deterministic), so no run
#     was interleaved with the other;
#  3. two imports started at once: likewise, each batch complete;
#  4. an import started while a plan runs: the run does not see it;
#  5. a write lock held for 14 s by another program: plan and import wait
#     (about 10 s), then exit 3 with "database is busy" and write nothing;
#     a reader still works; SIGINT while waiting for the lock gives 130.
#
# SAN=1: 200 nodes and 20,000 pods instead of 500 and 60,000 (a plan takes
# about a second either way).
. "$(dirname "$0")/../lib.sh"

if [ "$SAN" = 1 ]; then NODES=200; PODS=20000; else NODES=500; PODS=60000; fi

awk -v n="$NODES" 'BEGIN { print "node,cpu,memory,pods,labels"
	for (i = 0; i < n; i++) printf "n%03d,8,32Gi,110,zone=z%d\n", i, i % 3 }' >"$T/nodes.csv"
pods() { # pods NAMESPACE COUNT
	awk -v ns="$1" -v n="$2" 'BEGIN { print "namespace,pod,node,phase,cpu,memory"
		for (i = 0; i < n; i++) printf "%s,p%05d,,Pending,100m,128Mi\n", ns, i }'
}
pods base "$PODS" >"$T/pods.csv"
pods alpha $((PODS / 4)) >"$T/alpha.csv"
pods beta $((PODS / 4)) >"$T/beta.csv"
pods gamma $((PODS / 4)) >"$T/gamma.csv"
printf 'node,cpu,memory\nlate,1,1Gi\n' >"$T/tiny.csv"

db=$T/c.db
run "$KPLAN" import -q "$db" "$T/nodes.csv" "$T/pods.csv"
is "$rc" 0 "setup: import $NODES nodes and $PODS pods"

ms() { echo $(($(date +%s%N) / 1000000)); }
integrity() { sqlite3 "$1" 'PRAGMA integrity_check' 2>&1; }
locked() { ! sqlite3 -cmd '.timeout 0' "$db" 'BEGIN IMMEDIATE; ROLLBACK;' >/dev/null 2>&1; }
# wait_locked: until some process holds the write lock (at most 10 s); 0 when it does
wait_locked() {
	local i
	for i in $(seq 200); do
		locked && return 0
		sleep 0.05
	done
	return 1
}
# bg NAME CMD...: run CMD in the background, output in $T/NAME.{out,err}, pid in $pid_NAME
bg() {
	local name=$1
	shift
	"$@" >"$T/$name.out" 2>"$T/$name.err" &
	eval "pid_$name=\$!"
}
# fg NAME: wait for NAME; sets $rc and $err
fg() {
	eval "wait \$pid_$1"
	rc=$?
	err=$(cat "$T/$1.err")
}
npod() { q "$db" "SELECT count(*) FROM pod"; }
# run_problems RUN PODS: what is wrong with a run ("" when nothing)
run_problems() {
	q "$db" "SELECT CASE WHEN (SELECT count(*) FROM placement WHERE run_id = $1) <> $2 THEN 'placements ' || (SELECT count(*) FROM placement WHERE run_id = $1) || ' <> $2 pods; ' ELSE '' END
	       || CASE WHEN (SELECT count(seq) - count(DISTINCT seq) FROM placement WHERE run_id = $1) <> 0 THEN 'repeated decision order; ' ELSE '' END
	       || CASE WHEN (SELECT unschedulable FROM run WHERE id = $1) <>
	                    (SELECT count(*) FROM placement WHERE run_id = $1 AND action = 'unschedulable') THEN 'run.unschedulable disagrees; ' ELSE '' END
	       || CASE WHEN (SELECT count(*) FROM placement p WHERE p.run_id = $1 AND p.action = 'bind' AND p.node_id IS NULL) <> 0 THEN 'bind without node; ' ELSE '' END"
}
# differ RUN1 RUN2: placements that differ between two runs
differ() {
	q "$db" "SELECT count(*) FROM placement a LEFT JOIN placement b ON b.run_id = $2 AND b.pod_id = a.pod_id
	         WHERE a.run_id = $1 AND (b.pod_id IS NULL OR a.action <> b.action OR a.node_id IS NOT b.node_id OR a.seq IS NOT b.seq)"
}

# ---- 1. readers while a plan runs ----
r0=$(q "$db" "SELECT count(*) FROM run")
bg plan "$KPLAN" plan -q --no-preemption "$db"
wait_locked
ok $? "a plan holds the write lock"
run "$KPLAN" query --format csv --no-header "$db" "SELECT count(*) FROM run; SELECT count(*) FROM pod"
is "$rc" 0 "kplan query while the plan runs: exit 0"
is "$out" "$r0"$'\n'"$PODS" "kplan query while the plan runs: sees the committed state (no run yet)"
run sqlite3 "$db" "SELECT count(*) FROM placement"
is "$rc $out" "0 0" "sqlite3 while the plan runs: reads the committed state"
run "$KPLAN" query --format json "$db" "SELECT count(*) AS n FROM node"
is "$out" "[{\"n\":$NODES}]" "kplan query --format json while the plan runs"
kill -0 "$pid_plan" 2>/dev/null
ok $? "the plan was still running when the readers were done: they did not wait for it"
fg plan
is "$rc" 0 "the plan succeeds"
is "$(q "$db" "SELECT count(*) FROM run")" $((r0 + 1)) "the plan added one run"
REF=$(q "$db" "SELECT max(id) FROM run")
is "$(run_problems "$REF" "$PODS")" "" "the run is complete and consistent"

# ---- 2. two plans at once ----
r0=$(q "$db" "SELECT count(*) FROM run")
bg p1 "$KPLAN" plan -q --no-preemption "$db"
bg p2 "$KPLAN" plan -q --no-preemption "$db"
fg p1; rc1=$rc; err1=$err
fg p2; rc2=$rc; err2=$err
for x in "1 $rc1 $err1" "2 $rc2 $err2"; do
	set -- $x
	n=$1 r=$2
	shift 2
	case $r in
	0) pass "simultaneous plan $n: succeeded" ;;
	3) like "$*" "database is busy" "simultaneous plan $n: exit 3 says the database is busy" ;;
	*) fail "simultaneous plan $n: exit 0 or 3 (got $r: $*)" ;;
	esac
done
okn=$(( (rc1 == 0) + (rc2 == 0) ))
ok $((okn >= 1 ? 0 : 1)) "simultaneous plans: at least one succeeded"
is "$(q "$db" "SELECT count(*) FROM run")" $((r0 + okn)) "simultaneous plans: one run per successful plan"
for r in $(q "$db" "SELECT id FROM run WHERE id > $REF ORDER BY id"); do
	is "$(run_problems "$r" "$PODS")" "" "simultaneous plans: run $r is complete and consistent"
	is "$(differ "$r" "$REF")" 0 "simultaneous plans: run $r equals the run made alone (nothing interleaved)"
done
is "$(integrity "$db")" ok "simultaneous plans: integrity_check ok"

# ---- 3. two imports at once ----
b0=$(q "$db" "SELECT count(*) FROM import_batch")
bg i1 "$KPLAN" import -q "$db" "$T/alpha.csv"
bg i2 "$KPLAN" import -q "$db" "$T/beta.csv"
fg i1; rc1=$rc; err1=$err
fg i2; rc2=$rc; err2=$err
okn=0
for x in "alpha $rc1" "beta $rc2"; do
	set -- $x
	ns=$1 r=$2
	e=$([ "$ns" = alpha ] && echo "$err1" || echo "$err2")
	got=$(q "$db" "SELECT count(*) || ' ' || count(DISTINCT batch_id) FROM pod WHERE namespace = '$ns'")
	case $r in
	0) okn=$((okn + 1))
	   is "$got" "$((PODS / 4)) 1" "simultaneous import of $ns: succeeded, all its pods in one batch" ;;
	3) like "$e" "database is busy" "simultaneous import of $ns: exit 3 says the database is busy"
	   is "$got" "0 0" "simultaneous import of $ns: refused, none of its pods" ;;
	*) fail "simultaneous import of $ns: exit 0 or 3 (got $r: $e)"; skip "no verdict" ;;
	esac
done
is "$(q "$db" "SELECT count(*) FROM import_batch")" $((b0 + okn)) "simultaneous imports: one batch per successful import"
is "$(integrity "$db")" ok "simultaneous imports: integrity_check ok"

# ---- 4. an import while a plan runs ----
before_pods=$(npod)
bg plan "$KPLAN" plan -q --no-preemption "$db"
wait_locked
ok $? "a plan holds the write lock"
bg imp "$KPLAN" import -q "$db" "$T/gamma.csv"
fg plan; prc=$rc
fg imp; irc=$rc
is "$prc $irc" "0 0" "import during a plan: both succeed, one after the other"
r=$(q "$db" "SELECT max(id) FROM run")
is "$(run_problems "$r" "$before_pods")" "" "import during a plan: the run has exactly the pods from before the import"
is "$(q "$db" "SELECT count(*) FROM pod WHERE namespace = 'gamma'")" $((PODS / 4)) "import during a plan: the import is complete"
is "$(integrity "$db")" ok "import during a plan: integrity_check ok"

# ---- 5. a lock held past kplan's wait ----
before=$(digest "$db")
fp=$(q "$db" "SELECT (SELECT count(*) FROM run) || ' ' || (SELECT count(*) FROM import_batch) || ' ' || (SELECT count(*) FROM pod)")
(echo 'BEGIN IMMEDIATE;'; sleep 14; echo 'ROLLBACK;') | sqlite3 "$db" &
holder=$!
wait_locked
ok $? "sqlite3 holds the write lock"
t0=$(ms)
bg bplan timeout -k 5 60 "$KPLAN" plan -q --no-preemption "$db"
bg bimp timeout -k 5 60 "$KPLAN" import -q "$db" "$T/tiny.csv"
perl -e '$SIG{INT} = "DEFAULT"; alarm 60; exec @ARGV or die' "$KPLAN" plan -q --no-preemption "$db" >"$T/iplan.out" 2>"$T/iplan.err" &
pid_iplan=$!
run "$KPLAN" query --format csv --no-header "$db" "SELECT count(*) FROM pod"
is "$rc $out" "0 $(echo "$fp" | cut -d' ' -f3)" "kplan query works while another program holds the write lock"
sleep 2
kill -INT "$pid_iplan"
fg bplan
is "$rc" 3 "plan on a locked database: exit 3"
like "$err" "database is busy" "plan on a locked database: says the database is busy"
el=$(($(ms) - t0))
ok $((el >= 9000 ? 0 : 1)) "plan on a locked database: waited for the lock before giving up ($el ms)"
fg bimp
is "$rc" 3 "import on a locked database: exit 3"
like "$err" "database is busy" "import on a locked database: says the database is busy"
fg iplan
is "$rc" 130 "SIGINT to a plan waiting for the lock: exit 130"
like "$err" "interrupted" "SIGINT to a plan waiting for the lock: says interrupted"
wait "$holder"
is "$(digest "$db")" "$before" "locked database: byte-for-byte unchanged"
is "$(q "$db" "SELECT (SELECT count(*) FROM run) || ' ' || (SELECT count(*) FROM import_batch) || ' ' || (SELECT count(*) FROM pod)")" \
	"$fp" "locked database: nothing written"
run "$KPLAN" import -q "$db" "$T/tiny.csv"
is "$rc" 0 "after the lock is released: an import succeeds"
is "$(integrity "$db")" ok "at the end: integrity_check ok"

done_testing
