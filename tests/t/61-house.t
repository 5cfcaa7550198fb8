#!/usr/bin/env bash
# 61-house.t — the layout rules hold (scripts/house.pl --check; README
# "Layout"): no source file over 1,000 lines, no function over 150, at most
# 150 lines of SQL in C strings and none in cli/, cli/ at most 3,000 lines,
# includes point down, no include circle, no qsort outside kp_sort, every
# plugin names itself.  The checker itself is shown to catch each breach on a
# made-up tree, and the README's "where to change what" names files that exist.
. "$(dirname "$0")/../lib.sh"

command -v perl >/dev/null || { echo "1..0 # SKIP perl not installed"; exit 0; }

run perl "$ROOT/scripts/house.pl" --check
is "$rc" 0 "house.pl --check passes on the tree"
[ "$rc" = 0 ] || printf '# %s\n' "$out" | grep -v ' ok$' | head -40
for rule in "files over 1000 lines: 0" "functions over 150 lines: 0" "SQL lines in cli/: 0" \
	    "includes pointing up or sideways: 0" "include circles: 0" "qsort outside common/kp.c: 0" \
	    "plugin files without .name: 0"; do
	like "$out" "$rule" "house: $rule"
done

# a made-up tree that breaks every rule: the checker must see each breach
f="$T/tree"
mkdir -p "$f/cli" "$f/common" "$f/planner/plugins" "$f/reports" "$f/importers"
{ for i in $(seq 1001); do echo "/* $i */"; done; } >"$f/importers/big.c"
{ echo "static int f(void)"; echo "{"; for i in $(seq 150); do echo "	x();"; done; echo "}"; } >"$f/planner/long.c"
printf 'static const char *q = "SELECT a "\n\t"FROM b";\n' >"$f/cli/cmd_x.c"
printf '#include "../planner/long.h"\n' >"$f/common/low.c"
printf '#include "b.h"\n' >"$f/planner/a.h"; printf '#include "a.h"\n' >"$f/planner/b.h"
: >"$f/planner/long.h"
printf 'void g(void) { qsort(0, 0, 0, 0); }\n' >"$f/reports/s.c"
printf 'const int kp_plugin_x = 1;\n' >"$f/planner/plugins/x.c"
run perl "$ROOT/scripts/house.pl" --check --root "$f"
is "$rc" 1 "a tree that breaks the rules fails the check"
like "$out" "importers/big.c 1001" "a file of 1,001 lines is named"
like "$out" "planner/long.c:1 f() 153" "a function of 153 lines (signature to brace) is named"
like "$out" "SQL lines in cli/: 2 " "SQL in cli/ is counted"
like "$out" "common/low.c includes planner/long.h" "an include pointing up is named"
like "$out" "planner/a <-> planner/b" "an include circle is named"
like "$out" "reports/s.c:1: " "qsort outside kp_sort is named"
like "$out" "planner/plugins/x.c" "a plugin without a name is named"

# the README's "where to change what" names files and folders that exist
if grep -q '^#* Where to change what' "$ROOT/README.md"; then
	paths=$(sed -n '/^#* Where to change what/,/^#/p' "$ROOT/README.md" | grep -o '`[a-z][a-z_/.<>-]*`' | tr -d '`' |
		grep '/' | grep -v '<' | sort -u)
	missing=
	for p in $paths; do [ -e "$ROOT/$p" ] || missing="$missing $p"; done
	is "$missing" "" "every path in the README's 'Where to change what' exists"
	n=$(echo "$paths" | wc -w)
	[ "$n" -ge 8 ]
	ok $? "'Where to change what' names at least 8 files or folders ($n)"
else
	ok 1 "README.md has a 'Where to change what' section"
fi
# every "kube-scheduler-semantics.md §N" the code, queries and tests cite is a
# heading of docs/kube-scheduler-semantics.md
doc="$ROOT/docs/kube-scheduler-semantics.md"
cited=$(cd "$ROOT" && grep -rhoE 'kube-scheduler-semantics\.md §[0-9]+(\.[0-9]+)*' cli common importers planner reports \
	queries tests/e2e tests/t tests/unit docs | sed 's/.*§//' | sort -u)
unknown=
for n in $cited; do grep -qE "^#+ $(echo "$n" | sed 's/\./\\./g')([ .]|\$)" "$doc" || unknown="$unknown §$n"; done
is "$unknown" "" "every cited section of kube-scheduler-semantics.md exists ($(echo "$cited" | wc -w) cited)"
[ "$(echo "$cited" | wc -w)" -ge 20 ]
ok $? "the code cites the semantics document by name"
done_testing
