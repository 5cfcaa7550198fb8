#!/usr/bin/env bash
# 51-crash-safety.t — every import and every plan is one transaction, even
# when the process dies:
#
#  1. SIGKILL `kplan import` at a random moment, 50 times: the database passes
#     PRAGMA integrity_check, holds either the previous batches or exactly one
#     more with every one of its objects, and a rerun import succeeds.
#  2. SIGKILL a first import into a new database, 10 times: a rerun succeeds.
#  3. SIGKILL `kplan plan` at a random moment, 50 times: the run count is the
#     previous one or one more, every run has one placement per pod, and a
#     committed run equals an uninterrupted one (plans are deterministic).
#  4. SIGINT and SIGTERM on a running import and plan, at 3 % to 50 % of
#     their run (the plan loads its snapshot early), and during workload
#     expansion: exit status 130, a message saying "interrupted", nothing
#     written (the database file byte-for-byte unchanged; a new one removed).
#
# The input (200 nodes, 20,000 pods) takes ~0.5 s to import or plan; kill
# delays are drawn from 1 ms to the measured duration of an uninterrupted run.
# Set KP_SEED to replay the delays of a failed run (it is printed).
#
# SAN=1 (to stay under a minute): 10 kills each instead of 50 (3 instead of
# 10 for new databases) and signals at 4 moments instead of 7; kill delays
# scale with the measured (2-3 times longer) durations.
. "$(dirname "$0")/../lib.sh"

if [ "$SAN" = 1 ]; then
	KILLS=10 NEWKILLS=3 FRACS="4 6 8 50"
else
	KILLS=50 NEWKILLS=10 FRACS="3 5 6 7 8 10 50"
fi
NODES=200
PODS=20000
SEED=${KP_SEED:-$$}
RANDOM=$SEED
echo "# KP_SEED=$SEED"

awk -v n="$NODES" 'BEGIN { print "node,cpu,memory,pods,labels"
	for (i = 0; i < n; i++) printf "n%03d,8,32Gi,110,zone=z%d\n", i, i % 3 }' >"$T/nodes.csv"
awk -v n="$PODS" 'BEGIN { print "namespace,pod,node,phase,cpu,memory"
	for (i = 0; i < n; i++) printf "crash,p%05d,,Pending,100m,128Mi\n", i }' >"$T/pods.csv"
printf 'node,cpu,memory\nrerun,1,1Gi\n' >"$T/tiny.csv"

ms() { echo $(($(date +%s%N) / 1000000)); }
secs() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }   # secs MS: "0.123"
integrity() { sqlite3 "$1" 'PRAGMA integrity_check' 2>&1; }
# killat MS CMD...: run CMD, SIGKILL it after MS ms, and reap it (so that its
# file locks are gone); prints its exit status, 137 when killed.  The shell's
# "Killed" notice goes to /dev/null.
killat() {
	(
		exec 2>/dev/null
		"${@:2}" >/dev/null &
		p=$!
		sleep "$(secs "$1")"
		kill -KILL "$p"
		wait "$p"
		echo $?
	)
}

# ---- 1. SIGKILL during import ----
db=$T/import.db
t0=$(ms)
run "$KPLAN" import -q "$db" "$T/nodes.csv" "$T/pods.csv"
is "$rc" 0 "setup: first import"
t0=$(ms)
run "$KPLAN" import -q "$db" "$T/nodes.csv" "$T/pods.csv"
IMPORT_MS=$(($(ms) - t0))
is "$rc" 0 "setup: a re-import of the same objects (the one killed below) takes ${IMPORT_MS} ms"
is "$(q "$db" "SELECT count(*) FROM pod WHERE batch_id = 2")" "$PODS" "setup: a re-import replaces every pod (batch 2)"

for i in $(seq "$KILLS"); do
	b0=$(q "$db" "SELECT count(*) FROM import_batch")
	d=$((1 + RANDOM % IMPORT_MS))
	krc=$(killat "$d" "$KPLAN" import -q "$db" "$T/nodes.csv" "$T/pods.csv")
	what=$([ "$krc" = 137 ] && echo "killed after $d ms" || echo "finished before the kill at $d ms (exit $krc)")
	is "$(integrity "$db")" ok "import kill $i ($what): integrity_check ok"
	b1=$(q "$db" "SELECT count(*) FROM import_batch")
	n1=$(q "$db" "SELECT count(*) FROM node WHERE batch_id > $b0")
	p1=$(q "$db" "SELECT count(*) FROM pod WHERE batch_id > $b0")
	if [ "$b1" = "$b0" ]; then
		is "$n1 $p1" "0 0" "import kill $i: no new batch, and no row of one"
	else
		is "$b1 $n1 $p1" "$((b0 + 1)) $NODES $PODS" "import kill $i: exactly one more batch, with all of its nodes and pods"
	fi
	is "$(q "$db" "SELECT count(*) FROM pod WHERE namespace = 'crash'")" "$PODS" "import kill $i: still $PODS pods in all"
	run "$KPLAN" import -q "$db" "$T/tiny.csv"
	is "$rc" 0 "import kill $i: a rerun import succeeds"
	[ "$rc" = 0 ] || printf '#   %s\n' "$err"
done
run "$KPLAN" import -q "$db" "$T/nodes.csv" "$T/pods.csv"
is "$rc" 0 "after $KILLS kills: the full import succeeds"
b=$(q "$db" "SELECT max(id) FROM import_batch")
is "$(q "$db" "SELECT count(*) FROM pod WHERE batch_id = $b") $(q "$db" "SELECT count(*) FROM node WHERE batch_id = $b")" \
	"$PODS $NODES" "after $KILLS kills: the full import holds every object"
is "$(integrity "$db")" ok "after $KILLS kills: integrity_check ok"

# ---- 2. SIGKILL during a first import into a new database ----
for i in $(seq "$NEWKILLS"); do
	new=$T/new$i.db
	d=$((1 + RANDOM % IMPORT_MS))
	killat "$d" "$KPLAN" import -q "$new" "$T/nodes.csv" "$T/pods.csv" >/dev/null
	run "$KPLAN" import -q "$new" "$T/nodes.csv" "$T/pods.csv"
	is "$rc" 0 "new DB kill $i (after $d ms): the rerun import succeeds"
	[ "$rc" = 0 ] || printf '#   %s\n' "$err"
	is "$(integrity "$new") $(q "$new" "SELECT count(*) FROM pod")" "ok $PODS" \
		"new DB kill $i: integrity_check ok, all $PODS pods"
	rm -f "$new" "$new"-*
done

# ---- 3. SIGKILL during plan ----
pdb=$T/plan.db
cp "$T/import.db" "$pdb"
rm -f "$pdb"-*
"$KPLAN" import -q "$pdb" "$T/nodes.csv" "$T/pods.csv" || fail "setup: plan DB"
NPOD=$(q "$pdb" "SELECT count(*) FROM pod")
t0=$(ms)
run "$KPLAN" plan -q --no-preemption "$pdb"
PLAN_MS=$(($(ms) - t0))
is "$rc" 0 "setup: an uninterrupted plan takes ${PLAN_MS} ms"
REF=$(q "$pdb" "SELECT max(id) FROM run")
like "$(q "$pdb" "SELECT bound || ' ' || unschedulable FROM run WHERE id = $REF")" " " "setup: the reference run has counts"

complete_runs() { # every run: one placement per pod; no row without its run
	q "$1" "SELECT (SELECT count(*) FROM run r WHERE (SELECT count(*) FROM placement p WHERE p.run_id = r.id) <> $NPOD)
	      || ' ' || (SELECT count(*) FROM placement WHERE run_id NOT IN (SELECT id FROM run))
	      || ' ' || (SELECT count(*) FROM pod_failure WHERE run_id NOT IN (SELECT id FROM run))
	      || ' ' || (SELECT count(*) FROM run_warning WHERE run_id NOT IN (SELECT id FROM run))
	      || ' ' || (SELECT count(*) FROM run r WHERE r.unschedulable <>
	                 (SELECT count(*) FROM placement p WHERE p.run_id = r.id AND p.action = 'unschedulable'))
	      || ' ' || (SELECT count(*) FROM placement p WHERE p.action = 'unschedulable' AND NOT EXISTS
	                 (SELECT 1 FROM pod_failure f WHERE f.run_id = p.run_id AND f.pod_id = p.pod_id))"
}
same_as_ref() { # same_as_ref RUN: placements that differ from the reference run
	q "$pdb" "SELECT count(*) FROM placement a LEFT JOIN placement b ON b.run_id = $REF AND b.pod_id = a.pod_id
	          WHERE a.run_id = $1 AND (b.pod_id IS NULL OR a.action <> b.action OR a.node_id IS NOT b.node_id
	                                   OR a.seq IS NOT b.seq OR a.reason IS NOT b.reason)"
}

for i in $(seq "$KILLS"); do
	r0=$(q "$pdb" "SELECT count(*) FROM run")
	d=$((1 + RANDOM % PLAN_MS))
	krc=$(killat "$d" "$KPLAN" plan -q --no-preemption "$pdb")
	what=$([ "$krc" = 137 ] && echo "killed after $d ms" || echo "finished before the kill at $d ms (exit $krc)")
	is "$(integrity "$pdb")" ok "plan kill $i ($what): integrity_check ok"
	r1=$(q "$pdb" "SELECT count(*) FROM run")
	ok $(( r1 == r0 || r1 == r0 + 1 ? 0 : 1 )) "plan kill $i: the run count is $r0 or $((r0 + 1)) (got $r1)"
	is "$(complete_runs "$pdb")" "0 0 0 0 0 0" "plan kill $i: every run has one placement per pod, no orphan rows"
	if [ "$r1" != "$r0" ]; then
		is "$(same_as_ref "$(q "$pdb" "SELECT max(id) FROM run")")" 0 "plan kill $i: the committed run equals the uninterrupted one"
	fi
done
run "$KPLAN" plan -q --no-preemption "$pdb"
is "$rc" 0 "after $KILLS kills: a plan succeeds"
is "$(same_as_ref "$(q "$pdb" "SELECT max(id) FROM run")")" 0 "after $KILLS kills: and equals the uninterrupted one"
is "$(integrity "$pdb")" ok "after $KILLS kills: integrity_check ok"

# ---- 4. SIGINT and SIGTERM ----
# sig SIGNAL DELAY_MS CMD...: start CMD with SIGINT and SIGTERM at their
# defaults (a background job of a script ignores SIGINT), send SIGNAL after
# DELAY_MS, and wait; SIGALRM kills it $ALARM (60) s after the start whatever
# happens (exit status 142).
# Sets $rc, $err and $alive (1 when it was still running at the signal).
sig() {
	local s=$1 d=$2 p
	shift 2
	perl -e '$SIG{INT} = $SIG{TERM} = "DEFAULT"; alarm shift; exec @ARGV or die "exec: $!"' "${ALARM:-60}" "$@" \
		>"$T/.out" 2>"$T/.err" &
	p=$!
	sleep "$(secs "$d")"
	if kill -0 "$p" 2>/dev/null; then alive=1; else alive=0; fi
	kill -"$s" "$p" 2>/dev/null
	wait "$p"
	rc=$?
	err=$(cat "$T/.err")
}

fingerprint() {
	q "$1" "SELECT (SELECT count(*) FROM import_batch) || ' batches, ' || (SELECT count(*) FROM node) || ' nodes, ' ||
	               (SELECT count(*) FROM pod) || ' pods, ' || (SELECT count(*) FROM run) || ' runs, ' ||
	               (SELECT count(*) FROM placement) || ' placements, ' || (SELECT max(batch_id) FROM pod) || ' newest pod batch'"
}

# interrupted DESC: the last sig() ended as an interrupt should, and $db is as before
interrupted() {
	is "$alive" 1 "$1: kplan was still running when the signal came"
	is "$rc" 130 "$1: exit status 130"
	like "$err" "interrupted" "$1: the message says interrupted"
	is "$(digest "$db")" "$before" "$1: the database file is byte-for-byte unchanged"
	is "$(fingerprint "$db")" "$fp" "$1: nothing was written"
	is "$(integrity "$db")" ok "$1: integrity_check ok"
}

# The plan loads its snapshot in the first ~5-10 % of its run: several
# signals land there ($FRACS per cent of the measured durations).
for s in INT TERM; do
	for frac in $FRACS; do
		d=$((IMPORT_MS * frac / 100))
		db=$T/int.db
		cp "$T/import.db" "$db"
		rm -f "$db"-*
		before=$(digest "$db")
		fp=$(fingerprint "$db")
		sig "$s" "$d" "$KPLAN" import "$db" "$T/nodes.csv" "$T/pods.csv"
		interrupted "SIG$s after $d ms of an import"
		like "$err" "nothing was imported" "SIG$s after $d ms of an import: says nothing was imported"

		d=$((PLAN_MS * frac / 100))
		cp "$pdb" "$db"
		rm -f "$db"-*
		before=$(digest "$db")
		fp=$(fingerprint "$db")
		sig "$s" "$d" "$KPLAN" plan --no-preemption "$db"
		interrupted "SIG$s after $d ms of a plan"
		like "$err" "nothing was written" "SIG$s after $d ms of a plan: says nothing was written"
	done
	# an import into a new database: the file it created is removed
	new=$T/int-new.db
	rm -f "$new" "$new"-*
	sig "$s" $((IMPORT_MS / 2)) "$KPLAN" import "$new" "$T/nodes.csv" "$T/pods.csv"
	is "$alive $rc" "1 130" "SIG$s during an import into a new DB: exit status 130"
	like "$err" "interrupted" "SIG$s during an import into a new DB: the message says interrupted"
	is "$(cd "$T" && ls -d int-new.db* 2>/dev/null)" "" "SIG$s during an import into a new DB: no database file left behind"
done

# during workload expansion: three Deployments of 2,000,000 replicas each (the
# most kplan generates for one workload) make the import generate pods for
# minutes; a signal must still end it.  SIGALRM ends the attempt 15 s after
# the start.
: >"$T/deploy.yaml"
for n in 1 2 3; do
	cat >>"$T/deploy.yaml" <<EOF
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: many-$n, namespace: crash}
spec:
  replicas: 2000000
  selector: {matchLabels: {app: many-$n}}
  template:
    metadata: {labels: {app: many-$n}}
    spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 10m}}}]}
EOF
done
for sd in "INT 1500" "TERM 3500"; do
	set -- $sd
	db=$T/int.db
	rm -f "$db" "$db"-*
	cp "$T/import.db" "$db"
	before=$(digest "$db")
	fp=$(fingerprint "$db")
	ALARM=15 sig "$1" "$2" "$KPLAN" import "$db" "$T/deploy.yaml"
	interrupted "SIG$1 after $2 ms of an import generating 6,000,000 pods"
	rm -f "$db"-*
done

done_testing
