#!/usr/bin/env bash
# 19-kube-settings.t — the kube-scheduler version and feature gates a plan is
# made as: --kube-version, --feature-gates, `kplan settings`, what each run
# records and says, and explain, fix and capacity using them (common/kube.c,
# common/kube_db.c, cli/cmd_settings.c; docs/kube-versions.md).
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/plan"
db="$T/k.db"
"$KPLAN" import -q "$db" "$D/three-nodes.yaml" || fail "import"
runs() { q "$db" "SELECT count(*) FROM run"; }

# the default: the newest version, nothing set
run "$KPLAN" plan "$db"
is "$rc" 0 "plan exits 0"
like "$out" "configuration: default; kube 1.37" "the summary line names the version planned as"
is "$(q "$db" "SELECT kube_version || '|' || feature_gates FROM run WHERE id = 1")" "1.37|" "run 1: kube 1.37, no gate set"

run "$KPLAN" plan --kube-version 1.33 "$db"
like "$out" "; kube 1.33" "--kube-version 1.33: the summary says so"
is "$(q "$db" "SELECT kube_version FROM run WHERE id = 2")" "1.33" "... and the run records it"
is "$(q "$db" "SELECT json_extract(options, '\$.kube_version') FROM run WHERE id = 2")" "1.33" "... as given, in run.options"
run "$KPLAN" plan --kube-version v1.35.2 -q "$db"
is "$(q "$db" "SELECT kube_version FROM run WHERE id = 3")" "1.35" "v1.35.2 plans as 1.35"
run "$KPLAN" plan "$db" --feature-gates "GenericWorkload=true, TaintTolerationComparisonOperators=true"
like "$out" "kube 1.37 (feature gates: TaintTolerationComparisonOperators=true,GenericWorkload=true)" \
	"gates set are named, in kube's table order, options anywhere on the line"
is "$(q "$db" "SELECT replace(feature_gates, ',', ' ') FROM run WHERE id = 4")" "TaintTolerationComparisonOperators=true GenericWorkload=true" \
	"run.feature_gates records them"

# refused: exit 64, a precise message, nothing written
n=$(runs)
run "$KPLAN" plan --kube-version 1.30 "$db"
is "$rc" 64 "1.30: exit 64"
like "$err" "kube 1.30 is not one kplan plans as (1.31 to 1.37" "... the range is named"
run "$KPLAN" plan --kube-version banana "$db"
is "$rc" 64 "banana: exit 64"
like "$err" "'banana' is not a kube version (1.MINOR, e.g. 1.37)" "... and says what a version looks like"
run "$KPLAN" plan --feature-gates GenericWorklod=true "$db"
is "$rc" 64 "an unknown gate: exit 64"
like "$err" "--feature-gates: unrecognized feature gate: GenericWorklod; did you mean 'GenericWorkload'?" "... with did you mean"
run "$KPLAN" plan --feature-gates SidecarContainers=false "$db"
like "$err" "cannot set feature gate SidecarContainers to false, feature is locked to true" "a locked gate: kube's message"
run "$KPLAN" plan --kube-version 1.34 --feature-gates GenericWorkload=true "$db"
like "$err" "feature gate GenericWorkload does not exist in kube 1.34" "a gate the version does not have"
run "$KPLAN" plan --feature-gates GenericWorkload=yes "$db"
like "$err" "invalid value of GenericWorkload=yes" "a value other than true/false"
run "$KPLAN" plan --feature-gates GenericWorkload "$db"
like "$err" "missing bool value for GenericWorkload" "a gate without a value"
run "$KPLAN" plan --feature-gates DRAConsumableCapacity=false "$db"
like "$err" "kplan models DRAConsumableCapacity only on" "a value kplan does not model is refused, not ignored"
run "$KPLAN" plan --feature-gates WorkloadWithJob=true "$db"
like "$err" "kplan models WorkloadWithJob only off" "... either way"
is "$(runs)" "$n" "no refused plan wrote a run"

# kplan settings: kept in the database, used by every plan, the command line wins
run "$KPLAN" settings "$db"
is "$rc" 0 "settings: exit 0"
like "$out" "kube-version   (unset: 1.37)" "unset kube-version shows its default"
run "$KPLAN" settings "$db" kube-version 1.34
is "$rc" 0 "set kube-version 1.34"
is "$("$KPLAN" settings "$db" kube-version)" "1.34" "NAME alone prints its value"
run "$KPLAN" plan "$db"
like "$out" "; kube 1.34" "a plan without --kube-version uses the setting"
run "$KPLAN" plan --kube-version 1.36 "$db"
like "$out" "; kube 1.36" "--kube-version overrides it"
before=$(q "$db" "SELECT group_concat(key || '=' || value) FROM meta WHERE key IN ('kube_version', 'feature_gates')")
run "$KPLAN" settings "$db" feature-gates GenericWorkload=true
is "$rc" 64 "a gate the stored version lacks: refused"
like "$err" "feature gate GenericWorkload does not exist in kube 1.34" "... saying why"
is "$(q "$db" "SELECT group_concat(key || '=' || value) FROM meta WHERE key IN ('kube_version', 'feature_gates')")" "$before" \
	"... and the settings are unchanged"
"$KPLAN" settings "$db" kube-version 1.36 && "$KPLAN" settings "$db" feature-gates GenericWorkload=true,GangScheduling=true
run "$KPLAN" settings "$db" kube-version 1.37
is "$rc" 64 "changing the version so that a stored gate no longer exists: refused"
like "$err" "GangScheduling does not exist in kube 1.37" "... naming the gate"
run "$KPLAN" plan -q "$db"
is "$(q "$db" "SELECT kube_version || ' ' || replace(feature_gates, ',', ' ') FROM run ORDER BY id DESC LIMIT 1")" \
	"1.36 GenericWorkload=true GangScheduling=true" "a plan uses both settings"
run "$KPLAN" plan -q --feature-gates GangScheduling=false "$db"
is "$(q "$db" "SELECT replace(feature_gates, ',', ' ') FROM run ORDER BY id DESC LIMIT 1")" "GenericWorkload=true GangScheduling=false" \
	"--feature-gates applies over the stored gates, gate by gate"
run "$KPLAN" settings --json "$db"
is "$out" '{"kube-version":"1.36","feature-gates":"GenericWorkload=true,GangScheduling=true"}' "--json"
run "$KPLAN" settings --gates --json "$db"
like "$out" '{"name":"GenericWorkload","default":false,"value":true,"set":true,"kplan":"on and off"}' \
	"--gates: a gate's default, value and what kplan models"
unlike "$out" '"WorkloadWithJob","default":true' "WorkloadWithJob is off by default in 1.36"
run "$KPLAN" settings "$db" --unset feature-gates
is "$rc" 0 "--unset"
is "$("$KPLAN" settings "$db" feature-gates)" "" "... the setting is gone"
run "$KPLAN" settings "$db" kube-versoin 1.35
is "$rc" 64 "an unknown setting: exit 64"
like "$err" "no setting 'kube-versoin'; did you mean 'kube-version'?" "... with did you mean"
run "$KPLAN" settings "$db" kube-version 2.0
is "$rc" 64 "a bad version: exit 64"
run "$KPLAN" settings --unset kube-version "$db" extra
is "$rc" 64 "--unset with a VALUE: exit 64"

# explain and fix replay a run as it was planned, not as the settings say now
"$KPLAN" settings "$db" kube-version 1.32
run "$KPLAN" plan -q --kube-version 1.33 "$db"
r=$(runs)
"$KPLAN" settings "$db" kube-version 1.36
run "$KPLAN" explain "$db" default/big
like "$out" "run $r (replayed with seed 1, configuration: default; kube 1.33)" "explain replays the run's version"
run "$KPLAN" explain --format json "$db" default/big
like "$out" '"kube":"kube 1.33"' "... in JSON too"
run "$KPLAN" fix --no-record "$db"
like "$out" "configuration: default; kube 1.33) plus each change" "fix's baseline is the run's version"

# capacity: its own options, named on the baseline line and in JSON
run "$KPLAN" capacity --no-record --kube-version 1.32 --survive node "$db"
is "$rc" 0 "capacity --kube-version: exit 0"
like "$out" "configuration default, kube 1.32)" "the baseline names the version"
run "$KPLAN" capacity --no-record --format json --survive node "$db"
like "$out" '"kube":"kube 1.36"' "without it: the setting"
run "$KPLAN" capacity --no-record --feature-gates Bogus=true --survive node "$db"
is "$rc" 64 "capacity with an unknown gate: exit 64"

# a database from before the columns: a plan adds them; explain of an old run plans as the newest
old="$T/old.db"
"$KPLAN" import -q "$old" "$D/three-nodes.yaml"
"$KPLAN" plan -q "$old"
sqlite3 "$old" "ALTER TABLE run DROP COLUMN kube_version; ALTER TABLE run DROP COLUMN feature_gates;" || fail "drop columns"
run "$KPLAN" explain "$old" default/big
like "$out" "kube 1.37" "explain of a run from before versions were recorded"
run "$KPLAN" plan -q --kube-version 1.31 "$old"
is "$rc" 0 "a plan on an old database"
is "$(q "$old" "SELECT kube_version FROM run WHERE id = 2")" "1.31" "... gets the columns"

# read-only: settings can be read, not written
chmod a-w "$old"
if [ -w "$old" ]; then
	skip "running as a user who can write a read-only file" 2
else
	run "$KPLAN" settings "$old"
	is "$rc" 0 "settings on a read-only database: shown"
	run "$KPLAN" settings "$old" kube-version 1.33
	is "$rc" 1 "... and not written (exit 1)"
fi
chmod u+w "$old"

run "$KPLAN" settings --help
like "$out" "usage: kplan settings [options] DB [NAME [VALUE]]" "settings --help"
done_testing
