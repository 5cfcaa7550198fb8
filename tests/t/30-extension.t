#!/usr/bin/env bash
# 30-extension.t — build/kplan.so loads in the stock sqlite3 shell and its
# functions behave there as in `kplan query` (NULL in, NULL out; bad input is
# an SQL error, not a crash).
. "$(dirname "$0")/../lib.sh"

if ! command -v sqlite3 >/dev/null; then
	skip "sqlite3 shell not installed" 21
	done_testing
fi
if [ "$SAN" = 1 ]; then
	# the sanitizer runtime must be loaded first into an uninstrumented shell
	export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
	export ASAN_OPTIONS=detect_leaks=0
fi
ext="${KPLAN_SO%.so}"

run sqlite3 :memory: ".load $ext" "SELECT kplan_quantity('1.5Gi'), kplan_quantity('250m','cpu'), kplan_quantity('0.1');"
is "$rc" 0 "extension loads in the sqlite3 shell"
is "$out" "1610612736|250|1" "kplan_quantity in the shell"
run sqlite3 :memory: ".load $ext" "SELECT kplan_quantity(NULL) IS NULL, kplan_quantity('1', NULL) IS NULL;"
is "$out" "1|1" "NULL arguments give NULL"
run sqlite3 :memory: ".load $ext" "SELECT kplan_quantity('12 parsecs');"
is "$rc" 1 "bad quantity is an SQL error"
like "$err" "kplan_quantity: invalid quantity" "the error names the function"
run sqlite3 :memory: ".load $ext" "SELECT kplan_version();"
like "$out" "0." "kplan_version() in the shell"

sq() { sqlite3 :memory: ".load $ext" "$1" 2>&1; }
# toleration matching (kube-scheduler-semantics.md §5.3.1)
is "$(sq "SELECT kplan_tolerates('dedicated','Equal','gpu','NoSchedule', 'dedicated','gpu','NoSchedule'),
              kplan_tolerates('dedicated','Equal','cpu','NoSchedule', 'dedicated','gpu','NoSchedule'),
              kplan_tolerates('', 'Exists', '', '', 'anything','x','NoExecute'),
              kplan_tolerates('k', 'Exists', '', 'NoSchedule', 'k','v','NoExecute'),
              kplan_tolerates('k', NULL, '', '', 'k','','PreferNoSchedule')")" "1|0|1|0|1" "kplan_tolerates"
like "$(sq "SELECT kplan_tolerates('k','Like','v','', 'k','v','NoSchedule')")" \
	"kplan_tolerates: operator must be Equal, Exists, Gt or Lt" "kplan_tolerates rejects a bad operator"
# node selector requirement operators (kube-scheduler-semantics.md §5.4)
is "$(sq "SELECT kplan_match_expression('In','a','[\"a\",\"b\"]'), kplan_match_expression('NotIn',NULL,'[\"a\"]'),
              kplan_match_expression('Exists',NULL,'[]'), kplan_match_expression('DoesNotExist',NULL,'[]'),
              kplan_match_expression('Gt','10','[\"9\"]'), kplan_match_expression('Lt','x','[\"9\"]')")" 	"1|1|0|1|1|0" "kplan_match_expression, every operator"
like "$(sq "SELECT kplan_match_expression('In','a','not json')")" "values must be a JSON array" "bad values JSON is an SQL error"
# scores (kube-scheduler-semantics.md §7; numbers from kube's least/most_allocated tests: 3000m of 4000m)
is "$(sq "SELECT kplan_least_allocated(3000, 4000), kplan_most_allocated(3000, 4000),
              kplan_least_allocated(5000, 4000), kplan_most_allocated(5000, 4000), kplan_least_allocated(1, 0) IS NULL")" 	"25|75|0|100|1" "kplan_least_allocated / kplan_most_allocated"
is "$(sq "SELECT kplan_requested_to_capacity_ratio(3000, 4000, '[[0,0],[100,10]]'),
              kplan_requested_to_capacity_ratio(3000, 4000, '[{\"utilization\":0,\"score\":10},{\"utilization\":100,\"score\":0}]')")" 	"75|25" "kplan_requested_to_capacity_ratio, both shape spellings"
like "$(sq "SELECT kplan_requested_to_capacity_ratio(1, 2, '[[50,5],[10,1]]')")" "shape must be" "a decreasing shape is an SQL error"
is "$(sq "SELECT kplan_balanced_allocation(3000, 4000, 5000, 10000), kplan_balanced_allocation(1, 2)")" "87|100" 	"kplan_balanced_allocation (|0.75-0.5|/2 = 0.125 -> 87)"
is "$(sq "SELECT kplan_image_locality(0, 1), kplan_image_locality(1048576000, 1), kplan_image_locality(524288000, 1)")" 	"0|100|48" "kplan_image_locality (100 * (500 - 23) / (1000 - 23) MiB, truncated)"
is "$(sq "SELECT kplan_selector_match('[[\"app\",\"In\",[\"web\"]]]', '{\"app\":\"web\"}'),
              kplan_selector_match('[]', '{}'), kplan_selector_match(NULL, '{}'),
              kplan_selector_match('[[\"tier\",\"Exists\",[]]]', '{\"app\":\"web\"}')")" "1|1|0|0" 	"kplan_selector_match: selector, empty selector, null selector"
# NULL in, NULL out; wrong types are SQL errors, never crashes
is "$(sq "SELECT kplan_least_allocated(NULL, 1) IS NULL, kplan_match_expression(NULL, 'a', '[]') IS NULL,
              kplan_image_locality(NULL, 1) IS NULL, kplan_tolerates('a','Equal','b','', NULL, 'b', 'NoSchedule') IS NULL")" 	"1|1|1|1" "NULL arguments give NULL"
like "$(sq "SELECT kplan_least_allocated('lots', 4000)")" "expected an integer argument" "a text number is an SQL error"
like "$(sq "SELECT kplan_most_allocated(-1, 4000)")" "out of range" "a negative request is an SQL error"
like "$(sq "SELECT kplan_balanced_allocation(1, 2, 3)")" "pairs" "an odd argument count is an SQL error"
like "$(sq "SELECT kplan_image_locality(1, 0)")" "out of range" "zero containers is an SQL error"

done_testing
