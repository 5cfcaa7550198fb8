#!/usr/bin/env bash
# 13-import-summary.t — the import summary says what it skipped (issue 14,
# "counts that agree"): the skipped objects per apiVersion and kind, equal to
# import_batch.counts; a warning with the position for a skipped kind that
# makes pods (a pod template: a CRD workload, a CronJob); a hint for an
# unrendered Helm template; DRA kinds counted as themselves (issue 17).
. "$(dirname "$0")/../lib.sh"

cat >"$T/mixed.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: c1}
data: {a: b}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: ops}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers: [{name: c, image: x}]
---
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  template:
    spec:
      containers: [{name: c, image: x}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c2}
---
apiVersion: v1
kind: Secret
metadata: {name: s}
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
YAML
db=$T/a.db
run "$KPLAN" import "$db" "$T/mixed.yaml"
is "$rc" 0 "import exits 0"
like "$out" "5 objects of other kinds skipped (2 v1 ConfigMap, 1 argoproj.io/v1alpha1 Rollout, 1 batch/v1 CronJob, 1 v1 Secret)" \
	"the summary names the skipped kinds with their apiVersion, most first"
is "$(q "$db" "SELECT json_extract(counts, '\$.skipped.ConfigMap') || ' ' || json_extract(counts, '\$.skipped_api.\"v1 ConfigMap\"') || ' ' ||
	json_extract(counts, '\$.skipped_api.\"batch/v1 CronJob\"') FROM import_batch")" "2 2 1" \
	"import_batch.counts holds them per kind (skipped) and per apiVersion and kind (skipped_api)"
total=$(q "$db" "SELECT sum(value) FROM json_each((SELECT json_extract(counts, '\$.skipped_api') FROM import_batch))")
is "$total" 5 "the per-kind counts add up to the summary's 5"
like "$err" "kplan: warning: $T/mixed.yaml:12:5: CronJob ops/nightly: skipped: kplan does not read batch/v1 CronJob, but it has a pod template (spec.jobTemplate)" \
	"a CronJob: warned with its position"
like "$err" "$T/mixed.yaml:23:5: Rollout shop/web: skipped: kplan does not read argoproj.io/v1alpha1 Rollout, but it has a pod template (spec.template) and 3 replicas" \
	"a CRD workload with replicas: warned with its position and replicas"
is "$(printf '%s\n' "$err" | grep -c 'warning')" 2 "no warning for the ConfigMaps and the Secret"
run "$KPLAN" import -q "$T/b.db" "$T/mixed.yaml"
is "$out" "" "-q: no summary"
like "$err" "Rollout shop/web: skipped" "-q: the warnings are still printed"

# DRA kinds (issue 17) are counted as what they are, not skipped; a DRA
# kind kplan does not read (DeviceTaintRule) is skipped with its apiVersion
cat >"$T/dra.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
---
apiVersion: resource.k8s.io/v1beta2
kind: DeviceTaintRule
metadata: {name: broken}
spec: {taint: {key: k, effect: NoSchedule}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one, namespace: ml}
spec: {spec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu.example.com}}]}}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: g, resourceClaimTemplateName: one}]
YAML
run "$KPLAN" import "$T/dra.db" "$T/dra.yaml"
like "$out" "1 pod, 1 device class, 1 resource claim generated, 1 resource claim template; 1 file" \
	"DRA kinds: counted in the summary"
like "$out" "; 1 object of other kinds skipped (1 resource.k8s.io/v1beta2 DeviceTaintRule)" "DRA: DeviceTaintRule is skipped"
is "$(q "$T/dra.db" "SELECT json_extract(counts, '\$.device_classes') || ' ' || json_extract(counts, '\$.resource_claim_templates') || ' ' ||
	json_extract(counts, '\$.generated_resource_claims') || ' ' || json_extract(counts, '\$.resource_claims') || ' ' ||
	json_extract(counts, '\$.resource_slices') || ' ' || json_extract(counts, '\$.skipped.DeviceTaintRule') FROM import_batch")" "1 1 1 0 0 1" \
	"DRA: import_batch.counts agrees"

# an unrendered Helm template
printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Values.name }}\n' >"$T/helm.yaml"
run "$KPLAN" import "$T/c.db" "$T/helm.yaml"
is "$rc" 1 "a Helm template: exit 1"
like "$err" "$T/helm.yaml:4:" "a Helm template: the position of the error"
like "$err" "an unrendered Helm template? import the output of 'helm template' instead" "a Helm template: the hint"
ok $([ -e "$T/c.db" ] && echo 1 || echo 0) "a Helm template: no database left behind"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: [x}\n' >"$T/plain.yaml"
run "$KPLAN" import "$T/d.db" "$T/plain.yaml"
unlike "$err" "Helm" "a syntax error without '{{': no Helm hint"

done_testing
