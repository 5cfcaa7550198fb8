#!/usr/bin/perl
# bucket_cluster.pl SEED — a cluster that exercises the node buckets
# (planner/plan_bucket.c) on every input they key on, for
# tests/t/44-node-buckets.t:
#   nodes: three zones, a few nodes without the zone label, one without the
#   hostname label; PreferNoSchedule taints (TaintToleration raw 0, 1, 2);
#   labels for preferred node affinity; a "rack" label on some nodes only;
#   four sizes; low-priority pods already bound;
#   workloads: plain Deployments (default spread: owner and Service
#   selectors), preferred node affinity, tolerations, own ScheduleAnyway
#   spread by zone, hostname and rack (matchLabelKeys), DoNotSchedule spread
#   by zone (the buckets) and by hostname (node by node), two Deployments with
#   the same pod template and different selectors (one class, two
#   counters), a Deployment too big to fit (no feasible node), and
#   high-priority Deployments that preempt.
# Deterministic for a SEED.
use strict;
use warnings;

my $seed = shift // 1;
my $state = $seed * 7919 + 17;
sub rnd { my $n = shift; $state = ($state * 1103515245 + 12345) % 2147483648; return int($state / 65536) % $n; }

my @zones = ('z-a', 'z-b', 'z-c');
my @sizes = ([4, 8], [8, 16], [8, 32], [16, 32]);
print "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 0\n---\n";
print "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\n";
my $nodes = 48;
for my $i (0 .. $nodes - 1) {
	my $name = sprintf('n%02d', $i);
	my ($cpu, $mem) = @{ $sizes[rnd(4)] };
	my @labels;
	push @labels, "kubernetes.io/hostname: $name" unless $i == 44;
	push @labels, "topology.kubernetes.io/zone: $zones[$i % 3]" if $i < 45;
	push @labels, 'disktype: ssd' if $i % 4 == 0;
	push @labels, 'gen: "2"' if $i % 5 == 0;
	push @labels, "rack: r" . ($i % 4) if $i % 6 != 0;
	my @taints;
	push @taints, '{key: spot, value: "true", effect: PreferNoSchedule}' if $i % 7 == 0;
	push @taints, '{key: old, value: "true", effect: PreferNoSchedule}' if $i % 11 == 0;
	print "apiVersion: v1\nkind: Node\nmetadata:\n  name: $name\n  labels:\n";
	print "    $_\n" for @labels;
	print "spec:\n  taints: [" . join(', ', @taints) . "]\n" if @taints;
	print "status:\n  allocatable: {cpu: \"$cpu\", memory: ${mem}Gi, pods: \"30\"}\n";
	print "  capacity: {cpu: \"$cpu\", memory: ${mem}Gi, pods: \"30\"}\n---\n";
}
# bound low-priority pods
for my $i (0 .. 129) {
	my $node = sprintf('n%02d', rnd($nodes));
	my $cpu = (1000, 1500, 2000)[rnd(3)];
	print "apiVersion: v1\nkind: Pod\nmetadata:\n  name: filler-$i\n  namespace: default\n  labels: {app: filler}\n";
	print "  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: filler, uid: u-filler, controller: true}]\n";
	print "spec:\n  nodeName: $node\n  priorityClassName: low\n";
	print "  containers: [{name: c, image: filler, resources: {requests: {cpu: ${cpu}m, memory: 1Gi}}}]\n";
	print "status: {phase: Running}\n---\n";
}
print "apiVersion: v1\nkind: Service\nmetadata: {name: front, namespace: default}\nspec:\n  selector: {tier: front}\n---\n";

sub deployment {
	my (%d) = @_;
	my $labels = $d{labels} // "{app: $d{name}}";
	my $sel = $d{selector} // "{app: $d{name}}";
	print "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: $d{name}, namespace: default}\n";
	print "spec:\n  replicas: $d{replicas}\n  selector: {matchLabels: $sel}\n  template:\n";
	print "    metadata: {labels: $labels}\n    spec:\n";
	print "      priorityClassName: $d{prio}\n" if $d{prio};
	print "      $_\n" for @{ $d{extra} // [] };
	print "      containers: [{name: c, image: img-$d{name}, resources: {requests: {cpu: $d{cpu}, memory: $d{mem}}}}]\n---\n";
}

my @cpus = ('100m', '250m', '500m', '1');
my @mems = ('128Mi', '512Mi', '1Gi', '2Gi');
for my $w (0 .. 31) {
	my $kind = $w % 8;
	my %d = (name => "w$w", replicas => 3 + rnd(12), cpu => $cpus[rnd(4)], mem => $mems[rnd(4)], prio => 'low');
	if ($kind == 1) {
		$d{extra} = ['affinity:', '  nodeAffinity:', '    preferredDuringSchedulingIgnoredDuringExecution:',
			'    - {weight: 50, preference: {matchExpressions: [{key: disktype, operator: In, values: [ssd]}]}}',
			'    - {weight: 20, preference: {matchExpressions: [{key: gen, operator: In, values: ["2"]}]}}'];
	} elsif ($kind == 2) {
		$d{extra} = ['tolerations: [{key: spot, operator: Equal, value: "true", effect: PreferNoSchedule}]'];
	} elsif ($kind == 3) {
		$d{labels} = "{app: w$w, tier: front}";
		$d{extra} = ['topologySpreadConstraints:',
			"- {maxSkew: 2, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: w$w}}}",
			"- {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: w$w}}, matchLabelKeys: [tier]}"];
	} elsif ($kind == 4) {
		$d{extra} = ['topologySpreadConstraints:',
			"- {maxSkew: 1, topologyKey: rack, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: w$w}}}"];
	} elsif ($kind == 5) {
		$d{labels} = "{app: w$w, tier: front}";
	} elsif ($kind == 6) {
		$d{extra} = ['topologySpreadConstraints:',
			"- {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: w$w}}}",
			"- {maxSkew: 2, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: w$w}}}"];
	} elsif ($kind == 7) {
		$d{extra} = ['topologySpreadConstraints:',
			"- {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: w$w}}}"];
	}
	deployment(%d);
}
# one class, two owners with different selectors
deployment(name => 'twin-a', labels => '{app: twin, part: x}', selector => '{app: twin}', replicas => 7, cpu => '250m', mem => '512Mi');
deployment(name => 'twin-b', labels => '{app: twin, part: x}', selector => '{app: twin, part: x}', replicas => 6, cpu => '250m', mem => '512Mi');
# fits nowhere
deployment(name => 'huge', replicas => 2, cpu => '64', mem => '1Gi');
# high priority: preempts the low-priority pods when the cluster is full
for my $w (0 .. 3) {
	deployment(name => "hi$w", replicas => 16 + rnd(10), cpu => '3', mem => '4Gi', prio => 'high');
}
