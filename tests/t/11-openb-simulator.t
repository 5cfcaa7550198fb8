#!/usr/bin/env bash
# 11-openb-simulator.t — kplan on the openb trace ($KP_SHARED_DATA/openb)
# against the FGD paper's simulator (hkust-adsl/kubernetes-scheduler-simulator,
# kube-scheduler 1.20.5), with the figures issue 18 quotes for it: pod lists in
# file order, GPU nodes only, the simulator's "kube default" scoring.
#
#   list        policy        placed  failed  GPU milli allocated  idle milli  fragmented milli
#   default     kube default  7,894   258     91.36 %              537.05 k    515.24 k
#   gpushare40  kube default  7,779   373     80.14 %
#   multigpu20  kube default  7,897   427     91.45 %
#   default     FGD           7,896   256     94.37 %
#   gpushare40  FGD           7,740   412     81.81 %
#   multigpu20  FGD           7,829   495     93.46 %
#
# `plan --strategy kube-1.20` scores as that scheduler did (1.20's
# NodeResourcesLeastAllocated and BalancedAllocation; docs/gpu-devices.md):
# placed within 1 %, GPU milli allocated within 1 point, idle and fragmented
# milli within 2 % (issue 18's tolerances).  Ties between equal nodes are
# broken differently (the simulator: Go's math/rand over randomly prefixed
# node names), so the pods placed are not the same pod for pod.  kube 1.37,
# kplan's default, scores differently (docs/kube-versions.md): its default-list
# count is checked within 1 % too.
#
# `plan --strategy fgd` is the paper's FGDScore with the simulator's tie-break
# (its kube fork takes the smallest node name among equal scores, the names
# prefixed with a random permutation: one node ranking for every pod; kplan's
# --tie-break node-rank, fgd's default): placed within 1 %, allocated within 1
# point, and on the default list at least the paper's 94.37 % (issue 18).
. "$(dirname "$0")/../lib.sh"

D=$KP_SHARED_DATA/openb
NTESTS=27
if [ ! -d "$D" ]; then
	skip "shared data absent" "$NTESTS"
	done_testing
fi

# within GOT WANT PCT NAME: |GOT - WANT| <= PCT % of WANT
within() {
	if awk -v g="$1" -v w="$2" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * p / 100) }'; then
		ok 0 "$4"
	else
		ok 1 "$4"; printf '#   got:  %s\n#   want: %s within %s %%\n' "$1" "$2" "$3"
	fi
}
placed() { q "$1" "SELECT count(*) FROM placement WHERE run_id = (SELECT max(id) FROM run) AND node_id IS NOT NULL"; }
gpu() { q "$1" "SELECT $2 FROM (SELECT sum(milli) AS milli, sum(free_milli) AS free, sum(frag_milli) AS frag
	FROM gpu_fragmentation WHERE run_id = (SELECT max(id) FROM run))"; }

# against DB LIST STRATEGY PLACED PCT: plan DB with --strategy STRATEGY and
# check its pods placed (within 1 %) and GPU milli allocated (within 1 point)
# against the simulator's PLACED and PCT; $pct is left for more checks
against() {
	run "$KPLAN" plan --strategy "$3" "$1"
	is "$rc" 0 "$2: plan --strategy $3"
	p=$(placed "$1")
	within "$p" "$4" 1 "$2, $3: $p pods placed, the simulator $4 (within 1 %)"
	pct=$(gpu "$1" "round(100.0 * (milli - free) / milli, 2)")
	awk -v g="$pct" -v w="$5" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 1) }'
	ok $? "$2, $3: $pct % of the GPU milli allocated, the simulator $5 % (within 1 point)"
}

for list in default gpushare40 multigpu20; do
	db=$T/$list.db
	run "$KPLAN" import -q "$db" "$D/openb_node_list_gpu_node.csv" "$D/openb_pod_list_$list.csv"
	is "$rc" 0 "$list: import"
	case $list in
	default) against "$db" $list kube-1.20 7894 91.36 ;;
	gpushare40) against "$db" $list kube-1.20 7779 80.14 ;;
	multigpu20) against "$db" $list kube-1.20 7897 91.45 ;;
	esac
	if [ $list = default ]; then
		within "$(gpu "$db" free)" 537050 2 "default, kube-1.20: idle GPU milli $(gpu "$db" free), the simulator 537.05 k (within 2 %)"
		within "$(gpu "$db" "round(frag)")" 515240 2 \
			"default, kube-1.20: fragmented GPU milli $(gpu "$db" "round(frag)"), the simulator 515.24 k (within 2 %)"
		like "$out" "what-if --strategy kube-1.20:" "the summary names the strategy"
		# the same database, kplan's default scores (kube 1.37)
		run "$KPLAN" plan "$db"
		is "$rc" 0 "default: plan with kube 1.37's scores"
		p=$(placed "$db")
		within "$p" 7894 1 "default, kube 1.37: $p pods placed, the simulator 7894 (within 1 %)"
	fi
	if [ "$SAN" = 1 ]; then   # 2 s a plan, many times that under the sanitizers
		skip "SAN build: the fgd plans are slow" $([ $list = default ] && echo 4 || echo 3)
		continue
	fi
	case $list in
	default) against "$db" $list fgd 7896 94.37 ;;
	gpushare40) against "$db" $list fgd 7740 81.81 ;;
	multigpu20) against "$db" $list fgd 7829 93.46 ;;
	esac
	if [ $list = default ]; then
		awk -v g="$pct" 'BEGIN { exit !(g >= 94.37) }'
		ok $? "default, fgd: $pct % allocated, at least the paper's 94.37 %"
	fi
done
done_testing
