#!/usr/bin/env bash
# make-corpus.sh — (re)build the fuzz seed corpora in tests/fuzz/corpus/ from
# the project's own test inputs, one small file per seed:
#   yaml/      tests/data/**/*.{yaml,yml,json}, tests/e2e/*.yaml, examples/*.yaml
#   csv/       tests/data/**/*.csv, plus hand-written kplan and openb tables
#              (the openb trace itself is never copied into this repository)
#   config/    tests/data/config/*.yaml, tests/data/plan/*.yaml, the
#              KubeSchedulerConfiguration documents of tests/data/import and
#              tests/e2e (the first document of a file, comments dropped)
#   quantity/  every input of the case table in tests/unit/test_quantity.c
#   cel/       every expression of the case tables in tests/unit/test_cel.c
#              (kube's test cases, the realworld2 selectors, the refusals)
# Run from anywhere: tests/fuzz/make-corpus.sh.  Seeds are named after their
# source, so a rerun replaces them instead of adding copies.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
C=$ROOT/tests/fuzz/corpus
cd "$ROOT"
rm -rf "$C"
mkdir -p "$C/yaml" "$C/csv" "$C/config" "$C/quantity" "$C/cel"

name() { echo "$1" | sed -e 's|^tests/||' -e 's|/|_|g'; }

# yaml: every YAML/JSON test input
find tests/data tests/e2e examples -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) | sort |
while read -r f; do
	cp "$f" "$C/yaml/$(name "$f")"
done

# csv: the project's CSV inputs, then small made-up tables for every format
find tests/data -type f -name '*.csv' | sort | while read -r f; do cp "$f" "$C/csv/$(name "$f")"; done
printf 'node,cpu,memory,ephemeral-storage,pods,labels,taints,unschedulable,created,nvidia.com/gpu,hugepages-2Mi\n'\
'n1,4,16Gi,100Gi,110,zone=a;disk=ssd,dedicated=gpu:NoSchedule;spot:PreferNoSchedule,false,2024-01-02T03:04:05Z,2,1Gi\n'\
'n2,"8",32Gi,,110,"zone=b",,1,1700000000,,\n' >"$C/csv/gen_nodes_all_columns.csv"
printf 'namespace,pod,node,phase,cpu,memory,ephemeral-storage,priority,priority_class,preemption_policy,scheduler,labels,node_selector,tolerations,created,owner,image,host_ports,nvidia.com/gpu\n'\
'shop,web-0,n1,Running,250m,512Mi,1Gi,100,high,PreemptLowerPriority,default-scheduler,app=web;tier=fe,zone=a,dedicated=gpu:NoSchedule;:NoExecute;*,2024-01-02T03:04:05Z,ReplicaSet/web-abc,nginx:1.25,8080;9090/UDP,1\n'\
'shop,web-1,,Pending,0.5,1e9,,-5,,Never,,,,spot,1700000000,,,,\n' >"$C/csv/gen_pods_all_columns.csv"
printf 'pod,cpu,memory\n"a,b",1,1Gi\n"multi\nline",2,2Gi\n' >"$C/csv/gen_pods_quoted.csv"
printf 'sn,cpu_milli,memory_mib,gpu,model\nopenb-node-0001,96000,786432,8,V100M32\nopenb-node-0002,64000,262144,0,\n' \
	>"$C/csv/gen_openb_nodes.csv"
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n'\
'openb-pod-0001,12000,16384,1,1000,,LS,Running,100,200,101\n'\
'openb-pod-0002,6000,8192,2,500,V100M32|P100|V100M32,BE,Pending,150,,\n'\
'openb-pod-0003,0,0,0,0,,,Failed,0,,\n' >"$C/csv/gen_openb_pods.csv"

# config: KubeSchedulerConfiguration files, and the configuration document
# that opens an import or e2e file
for f in tests/data/config/*.yaml tests/data/plan/*.yaml; do
	cp "$f" "$C/config/$(name "$f")"
done
grep -l 'kind: KubeSchedulerConfiguration' tests/data/import/*.yaml tests/e2e/*.yaml | sort | while read -r f; do
	awk '/^---/ { exit } /^#/ { next } { print }' "$f" >"$C/config/$(name "$f")"
	grep -q 'KubeSchedulerConfiguration' "$C/config/$(name "$f")" || rm -f "$C/config/$(name "$f")"
done
# the seeds that name extender files get them from tests/data/plan (KP_FUZZ_BASE_DIR)

# duplicate keys (refused; fuzz_keys.h checks the rule): block, flow, JSON,
# nested, a List item and the List's own keys, 1 and "1", two merge keys, a
# hashed (large) mapping; a merge key overridden by an explicit one (accepted)
P='spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 1, cpu: 2}}}]}'
printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n%s\n' "$P" >"$C/yaml/gen_dupkeys_block.yaml"
printf 'kind: Pod\nmetadata: {name: f, labels: {app: x, app: y}}\n---\nkind: Node\nmetadata: {name: n, name: m}\n' \
	>"$C/yaml/gen_dupkeys_flow.yaml"
printf '{"apiVersion": "v1", "kind": "Pod",\n "metadata": {"name": "j", "annotations": {"a": "1", "a": "2"}},\n'\
' "spec": {"containers": [{"name": "c", "resources": {"limits": {"memory": "1Gi", "memory": "2Gi"}}}]}}\n' \
	>"$C/yaml/gen_dupkeys.json"
printf 'apiVersion: v1\nkind: List\nitems:\n- {kind: Pod, metadata: {name: ok}, spec: {containers: [{name: c}]}}\n'\
'- {kind: Pod, metadata: {name: bad, namespace: x, namespace: y}, spec: {containers: [{name: c}]}}\nkind: List\n' >"$C/yaml/gen_dupkeys_list.yaml"
printf 'kind: Pod\nmetadata:\n  name: num\n  labels: {1: a, "1": b, true: c}\n' >"$C/yaml/gen_dupkeys_numeric.yaml"
printf 'kind: Pod\nmetadata:\n  name: m\n  labels: &a {app: m, tier: x}\n  annotations: &b {z: 1}\n'\
'spec:\n  nodeSelector: {<<: *a, app: override}\n  tolerations: [{<<: *a, <<: *b}]\n' >"$C/yaml/gen_dupkeys_merge.yaml"
{ printf '{"kind": "Pod", "metadata": {"name": "big", "labels": {'
  for i in $(seq 1 20); do printf '"k%d": "v", ' "$i"; done
  printf '"k7": "again"}}}\n'; } >"$C/yaml/gen_dupkeys_large.json"
printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n'\
'- schedulerName: default-scheduler\n  plugins:\n    score:\n      enabled:\n      - name: NodeResourcesFit\n'\
'        weight: 1\n        weight: 2\n' >"$C/config/gen_dupkeys.yaml"
printf '{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",'\
' "percentageOfNodesToScore": 50, "percentageOfNodesToScore": 60}\n' >"$C/config/gen_dupkeys_flow.json"

# quantity: compile the unit test's case table and write each input
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/dump.c" <<'C'
#include <stdio.h>
#define main kp_unit_main
#include "tests/unit/test_quantity.c"
#undef main
int main(int argc, char **argv)
{
	(void)argc;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/unit_quantity_%03zu", argv[1], i);
		FILE *f = fopen(path, "wb");
		if (!f)
			return 1;
		fputs(cases[i].input ? cases[i].input : "", f);
		fclose(f);
	}
	return 0;
}
C
${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -I. -w -o "$tmp/dump" "$tmp/dump.c" common/kp.c common/quantity.c
"$tmp/dump" "$C/quantity"
# identical inputs (the table checks both units) collapse to one seed
(cd "$C/quantity" && sha256sum * | sort | awk 'seen[$1]++ { print $2 }' | xargs -r rm -f)

# cel: the same for the expressions of test_cel.c
cat >"$tmp/dump_cel.c" <<'C'
#include <stdio.h>
#define main kp_unit_main
#include "tests/unit/test_cel.c"
#undef main
static int put(const char *dir, const char *kind, size_t i, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/unit_cel_%s_%03zu", dir, kind, i);
	FILE *f = fopen(path, "wb");
	if (!f)
		return 1;
	fputs(text, f);
	return fclose(f) != 0;
}
int main(int argc, char **argv)
{
	(void)argc;
	int bad = 0;
	for (size_t i = 0; i < sizeof eval_cases / sizeof eval_cases[0]; i++)
		bad |= put(argv[1], "eval", i, eval_cases[i].expr);
	for (size_t i = 0; i < sizeof compile_cases / sizeof compile_cases[0]; i++)
		bad |= put(argv[1], "refused", i, compile_cases[i].expr);
	return bad;
}
C
${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -I. -w -o "$tmp/dump_cel" "$tmp/dump_cel.c" common/cel.c common/cel_check.c \
	common/cel_eval.c common/cel_lib.c common/kp.c common/quantity.c common/ydom.c -lyaml
"$tmp/dump_cel" "$C/cel"
(cd "$C/cel" && sha256sum * | sort | awk 'seen[$1]++ { print $2 }' | xargs -r rm -f)

for d in yaml csv config quantity cel; do
	echo "$d: $(ls "$C/$d" | wc -l) seeds, $(du -sk "$C/$d" | cut -f1) KB"
done
echo "total: $(du -sk "$C" | cut -f1) KB"
