#!/usr/bin/env bash
# 60-fuzz-regressions.t — every input a fuzzer (tests/fuzz/, scripts/fuzz.sh)
# crashed, leaked or hung on, kept in tests/fuzz/regressions/<target>/ once
# fixed, and every seed of the five fuzz corpora (tests/fuzz/corpus/<target>/),
# goes through the command line the way a user would feed it:
#   yaml      kplan import DB FILE, and again with --skip-invalid
#   csv       kplan import DB FILE.csv, and again with --format openb
#   config    kplan plan --config FILE DB
#   quantity  kplan query DB "SELECT kplan_quantity(TEXT)" and (TEXT, 'cpu')
#   cel       test_cel --replay FILE: kp_cel_compile, then kp_cel_eval on the
#             unit test's fixture devices (no command reads CEL yet; the
#             unit binary is the build's own, under SAN=1 the sanitized one)
# Each run must end with exit status 0 or 1: no signal, no sanitizer report
# (under `make test SAN=1` the CLI is the ASan+UBSan build), and no hang
# (60 s each when coreutils' timeout is there).
. "$(dirname "$0")/../lib.sh"

FUZZ=$TESTS_DIR/fuzz
LIMIT=
command -v timeout >/dev/null && LIMIT="timeout 60"

"$KPLAN" init "$T/template.db" >/dev/null || { echo "Bail out! kplan init failed"; exit 1; }

# check NAME CMD...: run CMD, then one TAP line
check() {
	local name=$1
	shift
	run $LIMIT "$@"
	local bad=
	case $rc in
	0 | 1) ;;
	124) bad="timed out after 60 s" ;;
	*) bad="exit status $rc" ;;
	esac
	case $err in
	*Sanitizer* | *"runtime error:"* | *"SUMMARY: "*) bad="${bad:+$bad, }sanitizer report" ;;
	esac
	if [ -z "$bad" ]; then
		pass "$name"
	else
		fail "$name"
		printf '#   %s\n' "$bad" "command: $*"
		printf '%s\n' "$err" | head -20 | sed 's/^/#   /'
	fi
}

fresh_db() { rm -f "$T/t.db" "$T/t.db-wal" "$T/t.db-shm"; cp "$T/template.db" "$T/t.db"; }

hex() { od -An -v -tx1 "$1" | tr -d ' \n'; }

inputs() { # inputs TARGET: regression files, then corpus seeds
	for d in "$FUZZ/regressions/$1" "$FUZZ/corpus/$1"; do
		[ -d "$d" ] && find "$d" -type f | LC_ALL=C sort
	done
}

# the unit test binary of the same build as $KPLAN (build/ or build/san/)
TEST_CEL=$(dirname "$KPLAN")/tests/test_cel

n_inputs=0
for target in yaml csv config quantity cel; do
	while IFS= read -r f; do
		n_inputs=$((n_inputs + 1))
		what="$target ${f#"$FUZZ"/}"
		case $target in
		yaml)
			# the name decides the reader: keep YAML even for .json/.yml seeds
			cp "$f" "$T/input.yaml"
			fresh_db
			check "$what: import" "$KPLAN" import -q "$T/t.db" "$T/input.yaml"
			fresh_db
			check "$what: import --skip-invalid" "$KPLAN" import -q --skip-invalid "$T/t.db" "$T/input.yaml"
			;;
		csv)
			cp "$f" "$T/input.csv"
			fresh_db
			check "$what: import" "$KPLAN" import -q "$T/t.db" "$T/input.csv"
			fresh_db
			check "$what: import --format openb" "$KPLAN" import -q --format openb "$T/t.db" "$T/input.csv"
			;;
		config)
			fresh_db
			check "$what: plan --config" "$KPLAN" plan -q --config "$f" "$T/t.db"
			;;
		quantity)
			x=$(hex "$f")
			check "$what: kplan_quantity" "$KPLAN" query "$T/template.db" \
				"SELECT kplan_quantity(CAST(X'$x' AS TEXT))"
			check "$what: kplan_quantity cpu" "$KPLAN" query "$T/template.db" \
				"SELECT kplan_quantity(CAST(X'$x' AS TEXT), 'cpu')"
			;;
		cel)
			if [ -x "$TEST_CEL" ]; then
				check "$what: compile and evaluate" "$TEST_CEL" --replay "$f"
			else
				skip "$TEST_CEL not built (make $TEST_CEL)"
			fi
			;;
		esac
	done < <(inputs "$target")
done

# never an empty test: the corpora always hold the project's own inputs
[ "$n_inputs" -gt 0 ]
ok $? "fuzz regressions and seeds found ($n_inputs inputs)"
done_testing
