#!/usr/bin/env bash
# 74-install.t — `make install` lays out the binary, the extension, the man page
# and the bash completion (PREFIX and DESTDIR); the man page renders without
# warnings and documents every command and option; the completion script loads
# in bash and completes commands, options, their values and files;
# `make uninstall` removes it all.
. "$(dirname "$0")/../lib.sh"

prefix="$T/prefix"
run make -s -C "$ROOT" install SAN="$SAN" PREFIX="$prefix"
is "$rc" 0 "make install PREFIX=... exits 0"
[ "$rc" = 0 ] || printf '# %s\n' "$err" | head -20
[ -x "$prefix/bin/kplan" ]
ok $? "bin/kplan installed, executable"
[ -f "$prefix/lib/kplan/kplan.so" ]
ok $? "lib/kplan/kplan.so installed"
[ -f "$prefix/share/man/man1/kplan.1" ]
ok $? "share/man/man1/kplan.1 installed"
[ -f "$prefix/share/bash-completion/completions/kplan" ]
ok $? "share/bash-completion/completions/kplan installed"
cmp -s "$ROOT/man/kplan.1" "$prefix/share/man/man1/kplan.1" &&
	cmp -s "$ROOT/scripts/kplan.bash-completion" "$prefix/share/bash-completion/completions/kplan"
ok $? "the installed man page and completion are the source files"
run "$prefix/bin/kplan" --version
like "$out" "kplan " "the installed kplan runs"
if command -v sqlite3 >/dev/null; then
	preload=""
	[ "$SAN" = 1 ] && preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
	"$prefix/bin/kplan" init "$T/s.db" >/dev/null   # shell refuses a database that does not exist
	run env -u KPLAN_SO LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 "$prefix/bin/kplan" shell "$T/s.db" "SELECT kplan_quantity('1Mi')"
	is "$rc:$out" "0:1048576" "the installed kplan shell loads the installed extension"
else
	skip "sqlite3 shell not installed"
fi

run make -s -C "$ROOT" install SAN="$SAN" PREFIX=/usr DESTDIR="$T/dest"
is "$rc" 0 "make install DESTDIR=... PREFIX=/usr"
[ -x "$T/dest/usr/bin/kplan" ] && [ -f "$T/dest/usr/lib/kplan/kplan.so" ] && [ -f "$T/dest/usr/share/man/man1/kplan.1" ] &&
	[ -f "$T/dest/usr/share/bash-completion/completions/kplan" ]
ok $? "DESTDIR: every file under DESTDIR/PREFIX"

# --- the man page
man1="$prefix/share/man/man1/kplan.1"
if command -v groff >/dev/null; then
	run groff -man -ww -z "$man1"
	is "$rc:$err" "0:" "groff -man -ww: no warnings"
	run groff -man -Tutf8 -ww -P-c -P-b -P-u "$man1"
	like "$out" "EXIT STATUS" "groff renders it"
else
	skip "groff not installed" 2
fi
if command -v man >/dev/null; then
	run env MANWIDTH=80 man --warnings -l "$man1"
	is "$rc:$err" "0:" "man -l --warnings: renders, no warnings"
	like "$out" "KPLAN(1)" "man -l: the title"
else
	skip "man not installed" 2
fi
if command -v mandoc >/dev/null; then
	run mandoc -T lint -W warning "$man1"
	is "$rc:$out$err" "0:" "mandoc -T lint: clean"
else
	skip "mandoc not installed (optional lint)"
fi
# every command, every option of its --help, every exit status
commands=$("$KPLAN" --help | awk '/^Commands:/ {on = 1; next} on && /^   [a-z]/ {print $1} /^$/ && on {on = 0}')
[ "$(printf '%s\n' "$commands" | wc -l)" -ge 7 ]
ok $? "kplan --help lists the commands ($(printf '%s' "$commands" | tr '\n' ' '))"
missing="" missing_c=""
. "$prefix/share/bash-completion/completions/kplan"
comp() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _kplan; printf '%s\n' "${COMPREPLY[@]}"; }
for c in $commands; do
	grep -q "^\.SS \"kplan $c[ \"]" "$man1" || missing="$missing $c"
	opts=$("$KPLAN" "$c" --help | grep -o '^  \(-[a-z], \)\?--\?[a-z][a-z0-9-]*' | tr ',' '\n' | sed 's/^ *//' | grep .)
	for o in $opts; do
		grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$man1" || missing="$missing $c:$o"
		comp kplan "$c" - | grep -qx -- "$o" || missing_c="$missing_c $c:$o"
	done
done
is "$missing" "" "the man page has a section for every command and documents every option of each --help"
missing=""
for s in 0 1 2 3 64 130; do
	grep -q "^\.B $s\$" "$man1" || missing="$missing exit:$s"
done
is "$missing" "" "the man page lists every exit status"
missing=""
for s in FILES EXAMPLES "EXIT STATUS" ENVIRONMENT "SQL FUNCTIONS"; do
	grep -q "^\.SH \"\?$s\"\?\$" "$man1" || missing="$missing section:$s"
done
is "$missing" "" "the man page has FILES, EXAMPLES, EXIT STATUS, ENVIRONMENT and SQL FUNCTIONS"

# --- bash completion (the installed script, in a fresh bash too)
run bash -c ". '$prefix/share/bash-completion/completions/kplan' && complete -p kplan"
is "$out" "complete -F _kplan kplan" "the completion script loads in bash and registers _kplan"
is "$(comp kplan pl)" "plan" "kplan pl<TAB> -> plan"
is "$(comp kplan "" | tr '\n' ' ')" "$(printf '%s ' $commands)--help --version " "kplan <TAB> -> every command"
is "$missing_c" "" "kplan CMD -<TAB> offers every option of each command's --help"
is "$(comp kplan re)" "report" "kplan re<TAB> -> report"
is "$(comp kplan sh)" "shell" "kplan sh<TAB> -> shell"
is "$(comp kplan report --format "" | tr '\n' ' ')" "text markdown csv json html " "report --format <TAB>"
is "$(comp kplan query --format "" | tr '\n' ' ')" "table csv json markdown " "query --format <TAB>"
is "$(comp kplan import --format j)" "json" "import --format j<TAB>"
is "$(comp kplan help ex)" "explain" "help ex<TAB>"
mkdir -p "$T/files/sub dir"
: >"$T/files/cluster.db"
: >"$T/files/nodes.yaml"
is "$(comp kplan plan "$T/files/cl")" "$T/files/cluster.db" "plan DB<TAB>: file names"
is "$(comp kplan import -q "$T/files/cluster.db" "$T/files/n")" "$T/files/nodes.yaml" "import DB FILE<TAB>: file names"
is "$(comp kplan import "$T/files/cluster.db" "$T/files/su")" "$T/files/sub dir" "import DB DIR<TAB>: directories, with spaces"
is "$(comp kplan report -o "$T/files/n")" "$T/files/nodes.yaml" "report -o FILE<TAB>"
is "$(comp kplan report --run "")" "" "report --run <TAB>: a number, nothing offered"
"$KPLAN" import -q "$T/files/ex.db" "$ROOT/examples/"
is "$(PATH="$(dirname "$KPLAN"):$PATH" comp kplan explain "$T/files/ex.db" data/db | tr '\n' ' ')" "data/db-0 data/db-1 data/db-2 " \
	"explain DB <TAB>: the pods of DB"

# --- uninstall
run make -s -C "$ROOT" uninstall PREFIX="$prefix"
is "$rc" 0 "make uninstall exits 0"
is "$(find "$prefix" -type f | wc -l)" 0 "make uninstall removes every installed file"

done_testing
