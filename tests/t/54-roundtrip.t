#!/usr/bin/env bash
# 54-roundtrip.t — awkward strings come back exactly as they went in:
# quotes, semicolons, backslashes, SQL ('; DROP TABLE pod; --), printf
# formats (%s%n), YAML and CSV syntax, emoji (ZWJ sequences, flags), RTL text
# and bidi controls, combining characters (NFC and NFD kept apart), control
# characters, U+10FFFF and long strings (10,000 characters), as node and pod
# names, namespaces, label keys and values, taint values and tolerations:
#
#   import (JSON, YAML and CSV) -> database (compared byte for byte with
#   sqlite3's hex()) -> `kplan query --format json` and `--format csv` (parsed
#   and compared byte for byte) -> `kplan plan` (placements by name, the
#   untolerated-taint message verbatim) -> `kplan explain`.
#
# The strings and the inputs are made by a Perl script (below), which also
# writes what each query must return as hex.
. "$(dirname "$0")/../lib.sh"

cat >"$T/gen.pl" <<'PERL'
use strict; use warnings; use utf8;
use JSON::PP;
my $dir = shift;
my %s = (
	sq      => "it's",
	dq      => 'say "hi"',
	semi    => 'a;b;c;',
	bs      => 'C:\\path\\to\\x\\',
	bsn     => 'not a newline: \\n \\t \\0',
	sql     => "'; DROP TABLE pod; --",
	sql2    => 'Robert"); DROP TABLE node;--',
	fmt     => '%s%n%s%n%x%d%%',
	like    => '100%_match*?[a-z]',
	yaml    => '&anchor *alias - item: {x} #comment ~ null yes',
	json    => '{"a":[1,2],"b":null}',
	csv     => 'a,b,"c",d',
	emoji   => "🚀🔥 👩‍👩‍👧 🇩🇪 🏳️‍🌈",
	rtl     => "שלום עולם مرحبا بالعالم",
	bidi    => "abc\x{202E}fed\x{202C} \x{200F}x",
	nfd     => "e\x{301}le\x{300}ve",        # decomposed
	nfc     => "\x{e9}l\x{e8}ve",             # precomposed: another string
	zalgo   => "Z\x{351}\x{36B}\x{343}a\x{36A}\x{302}l\x{363}g\x{344}o",
	ws      => "  padded\ttab  ",
	nl      => "line1\nline2\r\nline3",
	ctrl    => "bell\x{7}esc\x{1b}[31mdel\x{7f}",
	invis   => "zero\x{200B}width\x{FEFF}bom\x{A0}nbsp",
	maxcp   => "\x{10FFFF}\x{FFFD}",
	long    => ("0123456789" x 1000),
);
my @keys = sort keys %s;
my $taint = qq{it's "gpu" \\ 🚀 ;--};
my $n1 = qq{n'1"; DROP TABLE node; -- 🚀};
my $n2 = "ノード \x{202E}2\x{202C} %s";
my $ns = qq{ns "x" ;-- ש};
# labels: key "k-NAME" => the string; and the string as a key too
my %labels = map { ("k-$_" => $s{$_}) } @keys;
$labels{$s{$_}} = "v-$_" for grep { $_ ne 'long' } @keys;
my %pod_labels = map { ("p-$_" => $s{$_}) } @keys;
my @items = (
	{ apiVersion => 'v1', kind => 'Node',
	  metadata => { name => $n1, labels => \%labels },
	  spec => { taints => [ { key => 'dedicated', value => $taint, effect => 'NoSchedule' } ] },
	  status => { allocatable => { cpu => '4', memory => '8Gi', pods => '110' } } },
	{ apiVersion => 'v1', kind => 'Node',
	  metadata => { name => $n2, labels => { plain => 'yes' } },
	  status => { allocatable => { cpu => '4', memory => '8Gi', pods => '110' } } },
);
my %pods;   # pod name => [namespace, expected action, expected node]
for my $k (@keys) {
	next if $k eq 'long';
	my $name = "p-$s{$k}";
	# odd ones select the tainted node by a weird label and tolerate its taint
	my $i = scalar keys %pods;
	my %spec = (containers => [ { name => 'c', image => 'nginx', resources => { requests => { cpu => '10m' } } } ]);
	if ($i % 2) {
		$spec{nodeSelector} = { $s{$k} => "v-$k", "k-$k" => $s{$k} };
		$spec{tolerations} = [ { key => 'dedicated', operator => 'Equal', value => $taint, effect => 'NoSchedule' } ];
		$pods{$name} = [ $ns, 'bind', $n1 ];
	} else {
		$pods{$name} = [ $ns, 'bind', $n2 ];
	}
	push @items, { apiVersion => 'v1', kind => 'Pod',
		       metadata => { name => $name, namespace => $ns, labels => \%pod_labels }, spec => \%spec };
}
# one that selects the tainted node without tolerating it
my $stuck = "stuck $s{sql}";
push @items, { apiVersion => 'v1', kind => 'Pod',
	       metadata => { name => $stuck, namespace => $ns },
	       spec => { nodeSelector => { "k-emoji" => $s{emoji} },
			 containers => [ { name => 'c', image => 'nginx' } ] } };
$pods{$stuck} = [ $ns, 'unschedulable', undef ];

my $J = JSON::PP->new->utf8->canonical->pretty;
sub out { my ($f, $c) = @_; open my $h, '>:raw', "$dir/$f" or die "$f: $!"; print $h $c; close $h }
sub hx { my $v = shift; defined $v ? uc unpack('H*', do { my $b = $v; utf8::encode($b); $b }) : 'NULL' }
# JSON::PP writes DEL, C1 controls and U+FEFF raw (valid JSON); libyaml reads
# JSON as YAML 1.1, where they are not printable: the main input escapes them,
# raw.json below has them raw
my $js = $J->encode({ apiVersion => 'v1', kind => 'List', items => \@items });
$js =~ s/\x7f/\\u007f/g; $js =~ s/\xef\xbb\xbf/\\ufeff/g;
out('input.json', $js);
my $raw = "p\x{7f}q\x{80}r\x{9f}s\x{FEFF}t\x{FFFE}u";
out('raw.json', JSON::PP->new->utf8->canonical->encode({ apiVersion => 'v1', kind => 'Node',
	metadata => { name => 'raw', labels => { raw => $raw } } }) . "\n");
out('raw.hex', hx($raw) . "\n");
out('labels.hex', join '', map { hx($_) . ':' . hx($labels{$_}) . "\n" } sort { hx($a) cmp hx($b) } keys %labels);
out('podlabels.hex', join '', map { hx($_) . ':' . hx($pod_labels{$_}) . "\n" } sort { hx($a) cmp hx($b) } keys %pod_labels);
out('nodes.hex', join '', map { hx($_) . "\n" } sort { hx($a) cmp hx($b) } $n1, $n2);
out('pods.hex', join '', map { hx($pods{$_}[0]) . ':' . hx($_) . "\n" } sort { hx($a) cmp hx($b) } keys %pods);
out('plan.hex', join '', map { join(':', hx($pods{$_}[0]), hx($_), hx($pods{$_}[1]), hx($pods{$_}[2])) . "\n" }
	sort { hx($a) cmp hx($b) } keys %pods);
out('taint.hex', hx($taint) . "\n");
out('stuck-reason.txt', do { my $m = "node(s) had untolerated taint {dedicated: $taint}"; utf8::encode($m); $m });
out('stuck.txt', do { my $m = "$ns/$stuck"; utf8::encode($m); $m });
out('n1.txt', do { my $m = $n1; utf8::encode($m); $m });
# the same node through YAML (double-quoted scalars, UTF-8 as is)
sub yq { my $v = shift; $v =~ s/(["\\])/\\$1/g; $v =~ s/\n/\\n/g; $v =~ s/\r/\\r/g; $v =~ s/\t/\\t/g;
	 $v =~ s/([\x00-\x1f\x7f])/sprintf('\\x%02x', ord $1)/ge; $v =~ s/\x{FEFF}/\\uFEFF/g; qq{"$v"} }
my $y = "apiVersion: v1\nkind: Node\nmetadata:\n  name: " . yq("yaml $n1") . "\n  labels:\n";
$y .= "    " . yq($_) . ": " . yq($labels{$_}) . "\n" for sort keys %labels;
$y .= "spec:\n  taints:\n  - key: dedicated\n    value: " . yq($taint) . "\n    effect: NoSchedule\n";
$y .= "status: {allocatable: {cpu: \"1\"}}\n";
utf8::encode($y);
out('node.yaml', $y);
# and through CSV: a quoted name with a comma, quotes, a newline and emoji
my $cn = qq{csv, "node"\n🚀 ;-- '};
my $c = qq{node,cpu,memory,labels\n"csv, ""node""\n🚀 ;-- '",4,8Gi,"zone=a ""b"" ש"\n};
utf8::encode($c);
out('nodes.csv', $c);
out('csvnode.hex', hx($cn) . ':' . hx('zone') . ':' . hx(qq{a "b" ש}) . "\n");
PERL

# tohex COLS...: JSON rows on stdin -> one line per row, COLS as hex joined by ':'
cat >"$T/tohex.pl" <<'PERL'
use strict; use warnings; use JSON::PP;
local $/; my $in = <STDIN>;
my $rows = JSON::PP->new->utf8->decode($in);
my @out;
for my $r (@$rows) {
	push @out, join ':', map { defined $r->{$_} ? uc unpack('H*', do { my $b = $r->{$_}; utf8::encode($b); $b }) : 'NULL' } @ARGV;
}
print "$_\n" for sort @out;
PERL
# csvhex: RFC 4180 CSV with a header on stdin -> the same
cat >"$T/csvhex.pl" <<'PERL'
use strict; use warnings;
local $/; my $in = <STDIN>;
my (@rows, @row, $f);
pos($in) = 0;
while (pos($in) < length $in) {
	if ($in =~ /\G"((?:[^"]|"")*)"/gc) { ($f = $1) =~ s/""/"/g }
	elsif ($in =~ /\G([^,\r\n]*)/gc) { $f = $1 }
	push @row, $f;
	if ($in =~ /\G,/gc) { next }
	$in =~ /\G\r?\n/gc or pos($in) = length $in;
	push @rows, [@row]; @row = ();
}
shift @rows;   # header
print "$_\n" for sort map { join ':', map { uc unpack 'H*', $_ } @$_ } @rows;
PERL

run perl "$T/gen.pl" "$T"
is "$rc" 0 "setup: the inputs are generated"
[ "$rc" = 0 ] || printf '#   %s\n' "$err"

db=$T/rt.db
run "$KPLAN" import "$db" "$T/input.json"
is "$rc" 0 "import of the JSON List"
[ "$rc" = 0 ] || printf '#   %s\n' "$err"

hexq() { sqlite3 "$db" "$1" | sort; }
# same DESC WANT_FILE CMD...: the lines CMD prints are the file's lines, in any order
# (a short diff when not)
same() {
	local desc=$1 want=$2
	shift 2
	"$@" 2>"$T/got.err" | LC_ALL=C sort >"$T/got"
	LC_ALL=C sort "$want" >"$T/want"
	want=$T/want
	if cmp -s "$T/got" "$want"; then pass "$desc"; else
		fail "$desc"
		{ diff "$want" "$T/got"; cat "$T/got.err"; } | cut -c1-160 | head -12 | sed 's/^/#   /'
	fi
}
jq_() { "$KPLAN" query --format json "$db" "$1" | perl "$T/tohex.pl" "${@:2}"; }
cq_() { "$KPLAN" query --format csv "$db" "$1" | perl "$T/csvhex.pl"; }
N1=$(cat "$T/n1.txt")

# ---- database: byte for byte ----
same "node names stored exactly" "$T/nodes.hex" hexq "SELECT hex(name) FROM node"
LSQL="SELECT l.key, l.value FROM node_label l JOIN node n ON n.id = l.node_id WHERE n.name = '${N1//\'/\'\'}'"
same "node label keys and values stored exactly" "$T/labels.hex" hexq "SELECT hex(key) || ':' || hex(value) FROM ($LSQL)"
same "pod namespaces and names stored exactly" "$T/pods.hex" hexq "SELECT hex(namespace) || ':' || hex(name) FROM pod"
PSQL="SELECT DISTINCT l.key, l.value FROM pod_label l"
same "pod label keys and values stored exactly" "$T/podlabels.hex" hexq "SELECT hex(key) || ':' || hex(value) FROM ($PSQL)"
same "taint value stored exactly" "$T/taint.hex" hexq "SELECT hex(value) FROM node_taint"
is "$(hexq "SELECT count(*) FROM sqlite_schema WHERE name IN ('pod', 'node', 'node_label')")" 3 "no table was dropped"

# ---- kplan query --format json and csv ----
same "query --format json: node names" "$T/nodes.hex" jq_ "SELECT name FROM node" name
same "query --format csv: node names" "$T/nodes.hex" cq_ "SELECT name FROM node"
same "query --format json: node labels" "$T/labels.hex" jq_ "$LSQL" key value
same "query --format csv: node labels" "$T/labels.hex" cq_ "$LSQL"
same "query --format json: pod namespaces and names" "$T/pods.hex" jq_ "SELECT namespace, name FROM pod" namespace name
same "query --format csv: pod namespaces and names" "$T/pods.hex" cq_ "SELECT namespace, name FROM pod"
same "query --format json: pod labels" "$T/podlabels.hex" jq_ "$PSQL" key value
same "query --format csv: pod labels" "$T/podlabels.hex" cq_ "$PSQL"
# a string as an SQL parameter: through the query text, quoted as SQL
is "$(q "$db" "SELECT count(*) FROM node WHERE name = '${N1//\'/\'\'}'")" 1 "a node found by its awkward name in SQL"

# ---- plan: placements by name; the taint in the message verbatim (kube 1.34:
# from 1.35 the reason names no taint) ----
run "$KPLAN" plan --no-preemption --kube-version 1.34 "$db"
is "$rc" 0 "plan exits 0"
same "plan: every pod placed by its awkward node selector and toleration (names exact)" "$T/plan.hex" \
	jq_ "SELECT namespace, pod, action, node FROM plan" namespace pod action node
reason=$(sqlite3 "$db" "SELECT reason FROM plan WHERE action = 'unschedulable'")
like "$reason" "$(cat "$T/stuck-reason.txt")" "plan: the untolerated-taint message has the taint value verbatim"
like "$reason" "0/2 nodes are available: " "plan: the message is kube's"
is "$(q "$db" "SELECT count(*) FROM pod_failure WHERE instr(reason, (SELECT value FROM node_taint)) > 0")" 1 \
	"plan: the pod_failure reason has the taint value verbatim"
run "$KPLAN" explain "$db" "$(cat "$T/stuck.txt")"
is "$rc" 0 "explain of the pod with an awkward namespace and name"
like "$out" "$N1" "explain: the node name verbatim"
like "$out" "$(cat "$T/stuck-reason.txt")" "explain: the taint message verbatim"

# ---- the same through YAML and CSV ----
run "$KPLAN" import "$db" "$T/node.yaml"
is "$rc" 0 "import of the YAML node"
[ "$rc" = 0 ] || printf '#   %s\n' "$err"
YSQL="SELECT l.key, l.value FROM node_label l JOIN node n ON n.id = l.node_id WHERE n.name = 'yaml ' || '${N1//\'/\'\'}'"
same "YAML: node labels stored exactly" "$T/labels.hex" hexq "SELECT hex(key) || ':' || hex(value) FROM ($YSQL)"
same "YAML: taint value stored exactly" "$T/taint.hex" \
	hexq "SELECT hex(t.value) FROM node_taint t JOIN node n ON n.id = t.node_id WHERE n.name = 'yaml ' || '${N1//\'/\'\'}'"
run "$KPLAN" import "$db" "$T/nodes.csv"
is "$rc" 0 "import of the CSV node"
[ "$rc" = 0 ] || printf '#   %s\n' "$err"
CSQL="SELECT n.name, l.key, l.value FROM node n JOIN node_label l ON l.node_id = n.id WHERE n.name LIKE 'csv,%' AND l.key = 'zone'"
same "CSV: a quoted node name and label value stored exactly" "$T/csvnode.hex" \
	hexq "SELECT hex(name) || ':' || hex(key) || ':' || hex(value) FROM ($CSQL)"
same "CSV: and back out through query --format csv" "$T/csvnode.hex" cq_ "$CSQL"

# ---- valid JSON with raw DEL, C1 controls, U+FEFF and U+FFFE in a string ----
# (Go's encoding/json, behind kubectl -o json, writes them unescaped)
run "$KPLAN" import "$db" "$T/raw.json"
is "$rc" 0 "JSON with raw DEL, C1 controls, U+FEFF, U+FFFE in a string: imported"
[ "$rc" = 0 ] || printf '#   %s\n' "$err"
same "JSON with raw DEL, C1 controls, U+FEFF, U+FFFE: stored exactly" "$T/raw.hex" \
	hexq "SELECT hex(l.value) FROM node_label l JOIN node n ON n.id = l.node_id WHERE n.name = 'raw' AND l.key = 'raw'"

done_testing
