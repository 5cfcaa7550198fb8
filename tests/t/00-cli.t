#!/usr/bin/env bash
# 00-cli.t — the command line: help, version, usage errors and their exit
# codes, `init` (idempotent, version check), `query` output formats.
. "$(dirname "$0")/../lib.sh"

run "$KPLAN" --version
is "$rc" 0 "--version exits 0"
like "$out" "kplan 0." "--version prints the version"

run "$KPLAN"
is "$rc" 64 "no command: usage error 64"
like "$err" "usage: kplan" "no command prints usage on stderr"

run "$KPLAN" --help
is "$rc" 0 "--help exits 0"
main_help=$out
for c in init import query help; do
	like "$main_help" "   $c " "--help lists '$c'"
	run "$KPLAN" "$c" --help
	is "$rc" 0 "$c --help exits 0"
	like "$out" "usage: kplan $c" "$c --help shows its usage line"
	run "$KPLAN" help "$c"
	like "$out" "usage: kplan $c" "help $c shows the same help"
done

run "$KPLAN" frobnicate
is "$rc" 64 "unknown command: 64"
like "$err" "'frobnicate' is not a kplan command" "unknown command is named"

run "$KPLAN" import --bogus x.db y.yaml
is "$rc" 64 "unknown option: 64"
like "$err" "unknown option '--bogus'" "unknown option is named"
like "$err" "see 'kplan import --help'" "usage error points at help"
# what getopt met, named the same way by every command that uses it
while IFS='|' read -r cmd args want; do
	run "$KPLAN" $cmd $args
	is "$rc" 64 "$cmd $args: exit 64"
	like "$err" "kplan $cmd: $want" "$cmd $args: $want"
done <<'EOF_OPTS'
plan|--seed|option '--seed' needs a value
plan|--evict-bare-pods=yes x.db|option '--evict-bare-pods' takes no value
plan|-qz x.db|unknown option '-z'
capacity|-z x.db|unknown option '-z'
capacity|--pod|option '--pod' needs a value
capacity|--quiet=1 x.db|option '--quiet' takes no value
fix|--bogus x.db|unknown option '--bogus'
fix|--run|option '--run' needs a value
import|--format|option '--format' needs a value
query|-x x.db SELECT 1|unknown option '-x'
explain|--run|option '--run' needs a value
EOF_OPTS

run "$KPLAN" import --format xml "$T/a.db" y.yaml
is "$rc" 64 "bad --format: 64"
like "$err" "unknown format 'xml'" "bad format is named"

run "$KPLAN" query "$T/a.db"
is "$rc" 64 "query without SQL: 64"

run "$KPLAN" init
is "$rc" 64 "init without DB: 64"

# init: creates, is idempotent, records the schema version
db="$T/c.db"
run "$KPLAN" init "$db"
is "$rc" 0 "init creates a database"
like "$out" "created $db" "init says it created the file"
is "$(sqlite3 "$db" 'PRAGMA user_version')" 1 "user_version is the schema version"
is "$(sqlite3 "$db" 'PRAGMA journal_mode')" wal "database is in WAL mode"
before=$(digest "$db")
run "$KPLAN" init "$db"
is "$rc" 0 "init again exits 0"
like "$out" "already initialised" "init again says so"
is "$(digest "$db")" "$before" "init again leaves the file unchanged"

# a newer schema is refused, the file untouched
cp "$db" "$T/new.db"
sqlite3 "$T/new.db" 'PRAGMA user_version=99'
before=$(digest "$T/new.db")
run "$KPLAN" query "$T/new.db" 'SELECT 1'
is "$rc" 1 "newer schema: exit 1"
like "$err" "has schema version 99, newer than this kplan understands (1)" "newer schema refused clearly"
is "$(digest "$T/new.db")" "$before" "newer schema: file unchanged"

# a SQLite file that is not kplan's, and a file that is not SQLite
sqlite3 "$T/other.db" 'CREATE TABLE t(x); INSERT INTO t VALUES(1)'
run "$KPLAN" import "$T/other.db" "$ROOT/examples"
is "$rc" 1 "foreign SQLite database: exit 1"
like "$err" "is an SQLite database but not a kplan database" "foreign database refused"
is "$(sqlite3 "$T/other.db" 'SELECT count(*) FROM sqlite_schema')" 1 "foreign database untouched"
printf 'hello, world\n%.0s' {1..200} > "$T/text.db"
before=$(digest "$T/text.db")
run "$KPLAN" query "$T/text.db" 'SELECT 1'
is "$rc" 1 "text file as DB: exit 1"
like "$err" "is not a database" "text file refused"
is "$(digest "$T/text.db")" "$before" "text file untouched"
mkdir "$T/dir.db"
run "$KPLAN" init "$T/dir.db"
is "$rc" 1 "directory as DB: exit 1"
like "$err" "is a directory" "directory refused"

# query formats
db="$T/q.db"
"$KPLAN" import -q "$db" "$ROOT/examples" || fail "import examples"
run "$KPLAN" query "$db" "SELECT name, unschedulable FROM node WHERE name IN ('gen-a-1','gen-c-2') ORDER BY name"
is "$rc" 0 "query table exits 0"
is "$out" "name     unschedulable
-------  -------------
gen-a-1              0
gen-c-2              1" "table format: header, rule, aligned columns"
run "$KPLAN" query --format csv "$db" "SELECT 'a,b' AS x, NULL AS y, 3 AS z"
is "$out" 'x,y,z
"a,b",,3' "csv format quotes and leaves NULL empty"
run "$KPLAN" query --format json "$db" "SELECT 'a\"b' AS x, NULL AS y, 3 AS z, 1.5 AS w"
is "$out" '[{"x":"a\"b","y":null,"z":3,"w":1.5}]' "json format types values"
run "$KPLAN" query --format markdown "$db" "SELECT 'a|b' AS x, 2 AS y"
is "$out" '| x | y |
|---|---|
| a\|b | 2 |' "markdown format escapes pipes"
run "$KPLAN" query --format csv --no-header "$db" "SELECT kplan_quantity('1.5Gi'), kplan_quantity('250m','cpu'), kplan_quantity(NULL)"
is "$out" "1610612736,250," "kplan_quantity is registered in query"
run "$KPLAN" query "$db" "SELECT kplan_quantity('1Q')"
is "$rc" 1 "UDF error exits 1"
like "$err" "kplan_quantity: invalid quantity '1Q'" "UDF error is reported"
run "$KPLAN" query "$db" "SELEC 1"
is "$rc" 1 "SQL syntax error exits 1"
like "$err" "syntax error" "SQL error message is shown"
echo "SELECT count(*) AS nodes FROM node; SELECT 2 AS two;" > "$T/q.sql"
run sh -c "\"$KPLAN\" query --format csv \"$db\" - < \"$T/q.sql\""
is "$out" "nodes
8
two
2" "query reads several statements from stdin"

done_testing
