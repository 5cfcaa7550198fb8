#!/usr/bin/perl
# house.pl [--check] [--root DIR] — measure the rules of kplan's layout (README "Layout"):
#
#   - no source file over 1,000 lines, no function over 150;
#   - SQL in C string literals: at most 150 lines in all, none in cli/;
#   - cli/ at most 3,000 lines;
#   - includes point down: common/ includes only common/; importers/,
#     planner/ and reports/ include their own folder and common/; cli/ may
#     include anything; at most one include circle between modules
#     (a module is NAME.c with NAME.h), and it is listed in ALLOWED_CIRCLES;
#   - qsort only inside common/kp.c (kp_sort passes a context: no file-scope
#     comparator state);
#   - every plugin file in planner/plugins/ names itself (`.name = "..."`).
#
# Prints what it measured; with --check exits 1 when a rule is broken.
use strict;
use warnings;

my $check = grep { $_ eq '--check' } @ARGV;
my $root = $0;
$root =~ s{/scripts/house\.pl$}{};
$root = '.' if $root eq $0 || $root eq '';
for my $i (0 .. $#ARGV) {
	$root = $ARGV[$i + 1] if $ARGV[$i] eq '--root' && defined $ARGV[$i + 1];
}
chdir $root or die "house.pl: cannot enter '$root': $!\n";

my @dirs = qw(cli common importers planner planner/plugins reports bench tests/unit tests/fuzz);
my @files;
for my $d (@dirs) {
	opendir(my $dh, $d) or next;
	push @files, map { "$d/$_" } sort grep { /\.[ch]$/ } readdir $dh;
	closedir $dh;
}

my (@bad, %sql_by_file, $sql_total, $cli_lines);
my $FILE_MAX = 1000;
my $FUNC_MAX = 150;
my $SQL_MAX = 150;
my $CLI_MAX = 3000;
my %ALLOWED_CIRCLES = ();

my $SQL_START = qr/^\s*(?:SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|WITH|PRAGMA|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|ALTER|ATTACH|DETACH|REPLACE|VACUUM|ANALYZE|EXPLAIN)\b/;

my (%inc, @long_files, @long_funcs);
for my $f (@files) {
	open(my $fh, '<', $f) or die "house.pl: cannot read '$f': $!\n";
	my @lines = <$fh>;
	close $fh;
	my $n = scalar @lines;
	$cli_lines += $n if $f =~ m{^cli/};
	push @long_files, [$f, $n] if $n > $FILE_MAX;

	# functions: a line at column 0 that is "{" after a signature, to "}" at column 0
	for (my $i = 0; $i < @lines; $i++) {
		next unless $lines[$i] =~ /^\{\s*$/ && $i > 0 && $lines[$i - 1] =~ /\)\s*$/;
		my ($name) = $lines[$i - 1] =~ /(\w+)\s*\(/;
		my $j = $i + 1;
		$j++ while $j < @lines && $lines[$j] !~ /^\}/;
		my $len = $j - ($i - 1) + 1;
		push @long_funcs, ["$f:" . $i, $name // '?', $len] if $len > $FUNC_MAX;
	}

	# includes (quoted only), resolved against the file's folder
	for my $l (@lines) {
		next unless $l =~ /^\s*#\s*include\s+"([^"]+)"/;
		my $p = $1;
		my $dir = $f;
		$dir =~ s{/[^/]+$}{};
		my $full = "$dir/$p";
		1 while $full =~ s{(^|/)(?!\.\./)[^/]+/\.\./}{$1};
		$full =~ s{^\./}{};
		push @{$inc{$f}}, $full;
	}

	# SQL in string literals: runs of adjacent literals, comments removed
	next unless $f =~ /\.c$/;
	my $text = join '', @lines;
	$text =~ s{/\*.*?\*/}{my $c = $&; $c =~ tr/\n//cd; $c}gse;
	my $line = 1;
	my ($in_run, $run_text, $run_first, $run_last) = (0, '', 0, 0);
	my $flush = sub {
		if ($in_run && $run_text =~ $SQL_START) {
			my $k = $run_last - $run_first + 1;
			$sql_by_file{$f} += $k;
			$sql_total += $k;
		}
		($in_run, $run_text) = (0, '');
	};
	pos($text) = 0;
	while (pos($text) < length $text) {
		if ($text =~ /\G"((?:[^"\\\n]|\\.)*)"/gc) {
			if (!$in_run) { ($in_run, $run_first) = (1, $line); }
			$run_text .= $1;
			$run_last = $line;
		} elsif ($text =~ /\G'(?:[^'\\\n]|\\.)*'/gc) {
			$flush->();
		} elsif ($text =~ /\G\n/gc) {
			$line++;
		} elsif ($text =~ /\G[ \t\r]+/gc) {
		} elsif ($text =~ /\G#[^\n]*/gc) {
			$flush->();
		} elsif ($text =~ /\G[^"'\n \t\r#]+/gc) {
			$flush->();
		} else {
			$text =~ /\G./gcs;
			$flush->();
		}
	}
	$flush->();
}

# ---- include direction ----
my %may = (
	'common'    => [qw(common)],
	'importers' => [qw(importers common)],
	'planner'   => [qw(planner common)],
	'reports'   => [qw(reports common)],
);
my @up;
for my $f (sort keys %inc) {
	my ($top) = $f =~ m{^([^/]+)};
	next unless $may{$top};
	for my $t (@{$inc{$f}}) {
		my ($ttop) = $t =~ m{^([^/]+)};
		next if !defined $ttop || $t !~ m{/};
		push @up, "$f includes $t" unless grep { $_ eq $ttop } @{$may{$top}};
	}
}

# ---- module circles (Tarjan over NAME.c+NAME.h -> NAME.h) ----
my %edge;
for my $f (keys %inc) {
	next if $f =~ m{^(tests|bench)/};
	(my $m = $f) =~ s/\.[ch]$//;
	$m =~ s/_int$//;
	for my $t (@{$inc{$f}}) {
		(my $tm = $t) =~ s/\.[ch]$//;
		$tm =~ s/_int$//;
		next if $tm eq $m || !-e "$tm.h";
		$edge{$m}{$tm} = 1;
	}
}
my (%index, %low, %on, @stack, @sccs);
my $idx = 0;
my $strong;
$strong = sub {
	my $v = shift;
	$index{$v} = $low{$v} = $idx++;
	push @stack, $v;
	$on{$v} = 1;
	for my $w (sort keys %{$edge{$v} || {}}) {
		if (!defined $index{$w}) {
			$strong->($w);
			$low{$v} = $low{$w} if $low{$w} < $low{$v};
		} elsif ($on{$w}) {
			$low{$v} = $index{$w} if $index{$w} < $low{$v};
		}
	}
	if ($low{$v} == $index{$v}) {
		my @c;
		while (1) {
			my $w = pop @stack;
			$on{$w} = 0;
			push @c, $w;
			last if $w eq $v;
		}
		push @sccs, join(' <-> ', sort @c) if @c > 1;
	}
};
$strong->($_) for sort keys %edge;
my @circles = grep { !$ALLOWED_CIRCLES{$_} } @sccs;

# ---- sorting and plugin names ----
my @qsort;
for my $f (@files) {
	next if $f eq 'common/kp.c' || $f =~ m{^tests/};
	open(my $fh, '<', $f) or next;
	while (my $l = <$fh>) {
		push @qsort, "$f:$.: $l" =~ s/\s+$//r if $l =~ /\bqsort(?:_r)?\s*\(/;
	}
	close $fh;
}
my @nameless;
for my $f (grep { m{^planner/plugins/.*\.c$} } @files) {
	open(my $fh, '<', $f) or next;
	local $/;
	my $t = <$fh>;
	close $fh;
	push @nameless, $f unless $t =~ /\.name\s*=\s*"/;
}

# ---- report ----
my $broken = 0;
sub section {
	my ($title, $limit_ok, @rows) = @_;
	printf "%-58s %s\n", $title, $limit_ok ? 'ok' : 'BROKEN';
	print "    $_\n" for @rows;
	$broken++ unless $limit_ok;
}
section("files over $FILE_MAX lines: " . @long_files, !@long_files, map { "$_->[0] $_->[1]" } @long_files);
section("functions over $FUNC_MAX lines: " . @long_funcs, !@long_funcs,
	map { "$_->[0] $_->[1]() $_->[2]" } sort { $b->[2] <=> $a->[2] } @long_funcs);
my $cli_sql = 0;
$cli_sql += $sql_by_file{$_} for grep { m{^cli/} } keys %sql_by_file;
section(sprintf("SQL lines in C strings: %d (at most %d)", $sql_total // 0, $SQL_MAX), ($sql_total // 0) <= $SQL_MAX,
	map { "$_ $sql_by_file{$_}" } sort { $sql_by_file{$b} <=> $sql_by_file{$a} } keys %sql_by_file);
section("SQL lines in cli/: $cli_sql (none allowed)", $cli_sql == 0);
section("cli/ lines: $cli_lines (at most $CLI_MAX)", $cli_lines <= $CLI_MAX);
section("includes pointing up or sideways: " . @up, !@up, @up);
section("include circles: " . @sccs . " (allowed: " . scalar(keys %ALLOWED_CIRCLES) . ")", !@circles, @sccs);
section("qsort outside common/kp.c: " . @qsort, !@qsort, @qsort);
section("plugin files without .name: " . @nameless, !@nameless, @nameless);
exit($check && $broken ? 1 : 0);
