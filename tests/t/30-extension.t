#!/usr/bin/env bash
# 30-extension.t — build/kplan.so loads in the stock sqlite3 shell and its
# functions behave there as in `kplan query` (NULL in, NULL out; bad input is
# an SQL error, not a crash).
. "$(dirname "$0")/../lib.sh"

if ! command -v sqlite3 >/dev/null; then
	skip "sqlite3 shell not installed" 6
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

done_testing
