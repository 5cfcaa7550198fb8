# lib.sh — TAP helpers for kplan's shell tests (sourced by tests/t/*.t).
#
#   . "$(dirname "$0")/../lib.sh"
#   run "$KPLAN" import "$db" x.yaml      # sets $rc, $out (stdout), $err (stderr)
#   is "$rc" 1 "bad quantity exits 1"
#   like "$err" "x.yaml:3:12: Pod default/a: " "message names file, line, column, object"
#   done_testing
#
# Environment (set by `make test`): KPLAN, KPLAN_SO, KP_SHARED_DATA, KP_TMP, SAN.
set -u
: "${KPLAN:=$(cd "$(dirname "$0")/../.." && pwd)/build/kplan}"
: "${KPLAN_SO:=$(dirname "$KPLAN")/kplan.so}"
: "${KP_SHARED_DATA:=$(cd "$(dirname "$0")/../.." && pwd)/../shared/data}"
: "${SAN:=0}"
TESTS_DIR=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(cd "$TESTS_DIR/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/kplan-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
_n=0
_failed=0

ok() {   # ok COND_EXIT_STATUS NAME
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_n - $2"
	else
		_failed=$((_failed + 1))
		echo "not ok $_n - $2"
	fi
}
pass() { ok 0 "$1"; }
fail() { ok 1 "$1"; }

is() {   # is GOT WANT NAME
	if [ "$1" = "$2" ]; then ok 0 "$3"; else
		ok 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2" | head -40
	fi
}

like() { # like GOT FIXED_SUBSTRING NAME
	case "$1" in
	*"$2"*) ok 0 "$3" ;;
	*) ok 1 "$3"; printf '#   got:  %s\n#   want substring: %s\n' "$1" "$2" | head -40 ;;
	esac
}

unlike() { # unlike GOT FIXED_SUBSTRING NAME
	case "$1" in
	*"$2"*) ok 1 "$3"; printf '#   got:  %s\n#   unwanted: %s\n' "$1" "$2" | head -40 ;;
	*) ok 0 "$3" ;;
	esac
}

skip() { # skip REASON [COUNT]
	_i=0
	while [ "$_i" -lt "${2:-1}" ]; do
		_n=$((_n + 1))
		echo "ok $_n # SKIP $1"
		_i=$((_i + 1))
	done
}

run() {  # run CMD...: $rc, $out, $err
	"$@" >"$T/.out" 2>"$T/.err"
	rc=$?
	out=$(cat "$T/.out")
	err=$(cat "$T/.err")
}

q() {    # q DB SQL: one value (csv, no header)
	"$KPLAN" query --format csv --no-header "$1" "$2"
}

digest() { # digest FILE: content hash, or "absent"
	if [ -e "$1" ]; then sha256sum "$1" | cut -d' ' -f1; else echo absent; fi
}

done_testing() {
	echo "1..$_n"
	[ "$_failed" -eq 0 ]
	exit $?
}

# db_counts DB: a fingerprint of what the database holds (row counts of the
# imported tables), to show that a refused command changed nothing
db_counts() {
	q "$1" "SELECT (SELECT count(*) FROM import_batch) || ' batches, ' ||
	               (SELECT count(*) FROM node) || ' nodes, ' ||
	               (SELECT count(*) FROM node_label) || ' node labels, ' ||
	               (SELECT count(*) FROM pod) || ' pods, ' ||
	               (SELECT count(*) FROM workload) || ' workloads, ' ||
	               (SELECT count(*) FROM namespace) || ' namespaces, ' ||
	               (SELECT count(*) FROM priority_class) || ' priority classes'"
}

# bind_as_planned DB: the pods the latest run placed bound there (Running),
# their claims allocated the devices it gave them — a share as a share, with
# what it consumes — as `kplan plan --from-run` does (queries/whatif/from_run_dra_*.sql)
bind_as_planned() {
	sqlite3 "$1" "UPDATE pod SET phase = 'Running', node_name = (SELECT n.name FROM placement pl JOIN node n ON n.id = pl.node_id
	               WHERE pl.run_id = (SELECT max(id) FROM run) AND pl.pod_id = pod.id);
	INSERT INTO resource_claim_result(claim_id, seq, request, driver, pool, device, admin_access, share_id)
	SELECT claim_id, seq, request, driver, pool, device, admin_access, CASE WHEN consumed IS NOT NULL THEN 'bound-' || seq END
	FROM dra_allocation WHERE run_id = (SELECT max(id) FROM run);
	INSERT INTO resource_claim_consumed(claim_id, seq, domain, name, value, quantity)
	SELECT a.claim_id, a.seq, json_extract(j.value, '\$[0]'), json_extract(j.value, '\$[1]'), json_extract(j.value, '\$[2]'),
	       CAST(json_extract(j.value, '\$[2]') AS TEXT)
	FROM dra_allocation a, json_each(a.consumed) j WHERE a.run_id = (SELECT max(id) FROM run) AND a.consumed IS NOT NULL;
	UPDATE resource_claim SET allocated = 1, allocation_node_selector = (SELECT
	       '[{\"matchFields\":[[\"metadata.name\",\"In\",[\"' || n.name || '\"]]]}]' FROM dra_allocation a JOIN node n ON n.id = a.node_id
	       WHERE a.run_id = (SELECT max(id) FROM run) AND a.claim_id = resource_claim.id LIMIT 1)
	WHERE id IN (SELECT claim_id FROM dra_allocation WHERE run_id = (SELECT max(id) FROM run))"
}
