# udf-fuzz.pl — calls of every kplan_* SQL function with hostile arguments, for
# tests/t/73-shells.t.  Reads "NAME NARGS" lines on stdin (the functions
# planner/udf.c registers; NARGS -1 = variadic) and prints one statement a line:
#   SELECT 'N|' || quote(fn(args));
# For each function: a valid baseline call, then every argument position
# replaced by each hostile value (NULL, blobs, wrong types, huge, negative and
# out-of-range numbers, NaN-ish and malformed text, deep and wide JSON), 40
# seeded random mixes, and wrong argument counts.  A function without a
# baseline below gets all-'1' arguments (and still every hostile value).
use strict;
use warnings;

my %base = (
	kplan_quantity => { 1 => ["'1Gi'"], 2 => ["'1Gi'", "'cpu'"] },
	kplan_version => { 0 => [] },
	kplan_tolerates => { 7 => ["'k'", "'Equal'", "'v'", "'NoSchedule'", "'k'", "'v'", "'NoSchedule'"] },
	kplan_match_expression => { 3 => ["'In'", "'a'", q{'["a"]'}] },
	kplan_least_allocated => { 2 => ["1", "2"] },
	kplan_most_allocated => { 2 => ["1", "2"] },
	kplan_requested_to_capacity_ratio => { 3 => ["1", "2", "'[[0,0],[100,10]]'"] },
	kplan_balanced_allocation => { -1 => ["1", "2", "3", "4"] },
	kplan_image_locality => { 2 => ["1", "1"] },
	kplan_selector_match => { 2 => [q{'[["a","In",["b"]]]'}, q{'{"a":"b"}'}] },
);

# a list of N JSON items built in SQL (no generate_series: not in every build)
sub series { my ($expr, $n) = @_;
	"(WITH RECURSIVE g(value) AS (SELECT 0 UNION ALL SELECT value + 1 FROM g WHERE value < $n) SELECT group_concat($expr) FROM g)" }

my @vals = (
	"NULL", "0", "1", "-1", "2147483648", "92233720368547758", "92233720368547759", "4611686018427387904",
	"9223372036854775807", "-9223372036854775808", "1000000", "1000001",
	"0.5", "-0.0", "1e308", "-1e308", "9e999", "-9e999", "(0.0 / 0)",
	"x''", "x'00'", "x'ff00fe'", "zeroblob(70000)", "x'a54dca182530bb1d6d132cded6237b2ed91e3f721fcb1971174494d6493c9d5c3460be31201e69fedaa0eee8b9997f5c7c2999fdafe593253cd654af4dfad714'",
	"''", "'abc'", "'1'", "'-1'", "'1e3'", "'9223372036854775808'", "'-9223372036854775809'",
	"'NaN'", "'nan'", "'inf'", "'-inf'", "'Infinity'", "'0x10'", "' 1 '", "'a' || char(0) || 'b'",
	"'[]'", "'{}'", "'[[]]'", "'[1]'", "'[null]'", q{'{"a":1}'}, q{'{"a":[1],"b":{}}'},
	q{'[["a","Bogus",[]]]'}, q{'[["a","In",[1,null,{}]]]'}, q{'[["a","In"]]'}, "'[[1,2,3]]'",
	"printf('%.*c', 10000, '[')", "printf('%.*c', 10000, '{')", "printf('%.*c', 70000, 'x')",
	q{'"'}, q{'\\'}, q{'"\u0000"'}, q{'["\ud800"]'}, "'é✓'", "cast(x'c3' AS TEXT)", "cast(x'ff' AS TEXT)",
	"'[[0,0],[100,10]]'", q{'[{"utilization":0}]'}, q{'[{"utilization":"0","score":"1"}]'},
	"'[[1e400,1]]'", "'[[0,0],[99999999999999999999,10]]'", "'[[-5,0],[100,10]]'", "'[[0,0],[0,10]]'",
	"'[' || " . series("'[' || value || ',1]'", 40) . " || ']'",
	q~'[["a","In",[' || ~ . series(q~'"v' || value || '"'~, 200) . q~ || ']]]'~,
	q~'{' || ~ . series(q~'"k' || value || '":"v"'~, 500) . q~ || '}'~,
	"'In'", "'NotIn'", "'Exists'", "'DoesNotExist'", "'Gt'", "'Lt'", "'Equal'", "'cpu'", "'memory'",
	"'999999999999999999999999Ei'", "'1Gi'", "'-1Gi'", "'1e-3'", "'0.000000001m'", "'1e18'", "'9.3e18'",
	"'1' || printf('%.*c', 300, '0')",
);

my $n = 0;
sub emit { my ($f, @a) = @_; $n++; print "SELECT '$n|' || quote($f(" . join(", ", @a) . "));\n"; }

srand(42);
my @fns;
while (<STDIN>) { push @fns, [$1, $2] if /^(kplan_\w+)\s+(-?\d+)/; }
my %seen;
for my $fa (@fns) {
	my ($f, $nargs) = @$fa;
	my $b = $base{$f}{$nargs} || [("'1'") x ($nargs < 0 ? 4 : $nargs)];
	emit($f, @$b);
	for my $i (0 .. $#$b) {
		for my $v (@vals) { my @a = @$b; $a[$i] = $v; emit($f, @a); }
	}
	for (1 .. 40) { emit($f, map { rand() < 0.5 ? $vals[int rand @vals] : $_ } @$b); }
	next if $seen{$f}++;
	for my $k (0 .. 9, 63, 64, 65, 66, 127) {   # argument counts, right or wrong
		emit($f, map { $vals[($_ * 7) % @vals] } 1 .. $k);
		emit($f, ("1") x $k);
	}
}
