/*
 * model.c — the report's data, read from a run's tables by SQL (report.h).
 *
 * Every table is one SELECT over what `plan` wrote (run, placement,
 * pod_failure, eviction, run_warning, volume_decision, dra_allocation,
 * gpu_fragmentation, gpu_typical_shape) and
 * what was imported (node, node_resource, node_label, pod, class_request,
 * workload, import_batch, the storage and DRA tables); nothing is
 * recomputed and nothing is
 * written.  The statements are queries/report/<name>.sql, embedded as
 * kp_sql_report_<name>; the tables over node utilisation share their start,
 * usage_cte.sql (and nodes_cte.sql for the node lists), which load() puts
 * before them, the volume tables theirs, volumes_cte.sql, and the devices
 * tables theirs, dra_cte.sql, the GPU tables theirs, gpu_cte.sql.  Parameters:
 * ?1 the run (run A of a comparison), ?2 run B (= ?1 for a plain report), ?3
 * 1 to leave out start times and durations, ?4 how many nodes the most/least
 * loaded lists hold.
 *
 * Utilisation (usage_cte.sql, for any run): before = the requests of the
 * pods bound to the node when the run started (not Succeeded/Failed); after =
 * the requests of the pods the run keeps, binds or moves there.  The `pods`
 * resource counts pods.  A node's load is its highest percentage of
 * allocatable over its resources (its dominant resource).  Resources a node
 * lists with 0 allocatable and nothing requested (hugepages-1Gi: 0) are left out.
 */
#include "report.h"
#include "kp_queries.h"

#include <stdio.h>
#include <string.h>
#include <math.h>

/* ---- columns ---- */

#define C(k) { k, KP_RU_NONE, 0 }
#define CU(k, u) { k, u, 0 }
#define CA(k, res) { k, KP_RU_AMOUNT, res }

static const kp_rcol cols_kv[] = { C("key"), C("value") };
static const kp_rcol cols_fix[] = { C("namespace"), C("pod"), C("kind"), C("detail"), C("victims"), C("result_node") };
static const kp_rcol cols_capacity[] = { C("id"), C("kind"), C("subject"), C("answer"), C("bound"), C("status"), C("reason") };
static const kp_rcol cols_capacity_quality[] = {
	C("capacity"), C("pool"), C("nodes"), C("used"), C("pods"), C("bound"), C("bound_by"), CU("gap_pct", KP_RU_PCT),
};
static const kp_rcol cols_scenario[] = {
	C("seq"), C("option"), C("value"), C("nodes"), C("pods_pending"), C("pods_added"), C("pods_removed"),
	C("effect"), C("result"),
};
static const kp_rcol cols_rebalance[] = {
	C("wave"), C("seq"), C("namespace"), C("pod"), C("from_node"), C("node"), C("strategy"), C("gain"), C("cost"),
	C("detail"),
};
static const kp_rcol cols_rebalance_util[] = {
	C("resource"), C("nodes"), CU("mean_before", KP_RU_PCT), CU("stddev_before", KP_RU_PCT),
	CU("mean_after", KP_RU_PCT), CU("stddev_after", KP_RU_PCT), C("nodes_freed"),
};
static const kp_rcol cols_rebalance_nodes[] = {
	C("node"), C("pool"), C("moves_out"), C("moves_in"), C("freed"), C("resource"), CA("allocatable", 5),
	CA("requested_before", 5), CA("requested_after", 5), CU("percent_before", KP_RU_PCT),
	CU("percent_after", KP_RU_PCT),
};
static const kp_rcol cols_batches[] = {
	C("batch"), C("started"), C("sources"), C("nodes"), C("pods"), C("generated_pods"), C("workloads"),
	C("files"), CU("bytes", KP_RU_BYTES),
};
static const kp_rcol cols_warnings[] = { C("kind"), C("pods"), C("message") };
static const kp_rcol cols_reasons[] = { C("reason"), C("plugin"), C("pods"), C("pods_any"), C("node_rejections") };
static const kp_rcol cols_groups[] = { C("pods"), C("reasons"), C("examples") };
static const kp_rcol cols_unsched[] = {
	C("namespace"), C("pod"), CU("cpu", KP_RU_CPU), CU("memory", KP_RU_BYTES), C("message"),
};
static const kp_rcol cols_resources[] = {
	C("resource"), C("nodes"), CA("allocatable", 0), CA("requested_before", 0), CA("requested_after", 0),
	CU("percent_before", KP_RU_PCT), CU("percent_after", KP_RU_PCT),
};
static const kp_rcol cols_nodes[] = {
	C("node"), C("zone"), C("pool"), C("cordoned"), C("pods_before"), C("pods_after"),
	CU("load_before", KP_RU_PCT), CU("load_after", KP_RU_PCT), C("dominant_resource"),
};
static const kp_rcol cols_usage[] = {
	C("node"), C("resource"), CA("allocatable", 1), CA("requested_before", 1), CA("requested_after", 1),
	CU("percent_before", KP_RU_PCT), CU("percent_after", KP_RU_PCT),
};
static const kp_rcol cols_zones[] = {
	C("zone"), C("resource"), C("nodes"), CA("allocatable", 1), CA("requested_before", 1), CA("requested_after", 1),
	CU("percent_before", KP_RU_PCT), CU("percent_after", KP_RU_PCT),
};
static const kp_rcol cols_quality[] = {
	C("pool"), C("nodes"), C("used"), C("bound"), C("bound_by"), CU("gap_pct", KP_RU_PCT),
};
static const kp_rcol cols_stranded[] = {
	C("pool"), C("resource"), C("nodes"), CA("allocatable", 1), CA("free", 1), CA("stranded", 1), C("stranded_nodes"),
	CU("stranded_pct", KP_RU_PCT), C("exhausted_by"),
};
static const kp_rcol cols_ns[] = {
	C("namespace"), C("pods"), C("keep"), C("bind"), C("move"), C("evict"), C("unschedulable"),
	CU("cpu_placed", KP_RU_CPU), CU("memory_placed", KP_RU_BYTES),
	CU("cpu_unplaced", KP_RU_CPU), CU("memory_unplaced", KP_RU_BYTES),
};
static const kp_rcol cols_wl[] = {
	C("kind"), C("namespace"), C("name"), C("pods"), C("keep"), C("bind"), C("move"), C("evict"),
	C("unschedulable"), CU("cpu_placed", KP_RU_CPU), CU("memory_placed", KP_RU_BYTES),
	CU("cpu_unplaced", KP_RU_CPU), CU("memory_unplaced", KP_RU_BYTES),
};
static const kp_rcol cols_evictions[] = {
	C("seq"), C("victim"), C("victim_priority"), C("node"), C("preemptor"), C("preemptor_priority"),
	C("pdb_violated"), C("pdbs"), C("outcome"), C("now_on"),
};
static const kp_rcol cols_vol_pinned[] = { C("pod"), C("claim"), C("pv"), C("binding"), C("pinned_by"), C("node") };
static const kp_rcol cols_vol_decisions[] = { C("seq"), C("pod"), C("claim"), C("action"), C("pv"), C("node") };
static const kp_rcol cols_vol_attach[] = {
	C("node"), C("driver"), C("attached"), C("limit"), C("free"), C("status"), C("volumes"),
};
static const kp_rcol cols_dra_nodes[] = {
	C("node"), C("driver"), C("pool"), C("reach"), C("devices"), C("in_use_before"), C("in_use_run"), C("in_use"),
	C("free"), C("generation"), C("pool_status"),
};
static const kp_rcol cols_dra_allocs[] = {
	C("seq"), C("pod"), C("claim"), C("request"), C("driver"), C("pool"), C("device"), C("admin_access"), C("node"),
};
static const kp_rcol cols_dra_unalloc[] = { C("pod"), C("pod_claim"), C("claim"), C("claim_from"), C("status"), C("reason") };
static const kp_rcol cols_gpu_pools[] = {
	C("pool"), C("pool_label"), C("nodes"), C("gpus"), C("milli"), C("allocated_milli"), CU("allocated_pct", KP_RU_PCT),
	C("free_milli"), C("frag_milli"), CU("frag_pct", KP_RU_PCT),
};
static const kp_rcol cols_gpu_nodes[] = {
	C("node"), C("pool"), C("gpus"), C("milli"), C("allocated_milli"), C("free_milli"), C("frag_milli"),
	CU("frag_pct", KP_RU_PCT), CU("cpu_left", KP_RU_CPU), C("free_list"),
};
static const kp_rcol cols_gpu_shapes[] = {
	C("seq"), C("shape"), CU("cpu", KP_RU_CPU), C("gpus"), C("milli"), C("pods"), C("weight"), C("example"),
};
static const kp_rcol cols_moves[] = { C("seq"), C("namespace"), C("pod"), C("from_node"), C("node"), C("preempted_by") };
static const kp_rcol cols_runs[] = {
	C("run"), C("started"), C("seed"), C("config_source"), C("options"), C("pods"), C("keep"), C("bind"),
	C("move"), C("evict"), C("unschedulable"), C("evictions"), CU("elapsed", KP_RU_SECONDS),
};
static const kp_rcol cols_changed[] = {
	C("namespace"), C("pod"), C("action_a"), C("node_a"), C("action_b"), C("node_b"),
};
static const kp_rcol cols_res_delta[] = {
	C("resource"), CA("allocatable", 0), CA("requested_a", 0), CA("requested_b", 0), CA("delta", 0),
	CU("percent_a", KP_RU_PCT), CU("percent_b", KP_RU_PCT),
};
static const kp_rcol cols_usage_delta[] = {
	C("node"), C("resource"), CA("allocatable", 1), CA("requested_a", 1), CA("requested_b", 1), CA("delta", 1),
	CU("percent_a", KP_RU_PCT), CU("percent_b", KP_RU_PCT),
};

#define COLS(a) (int)(sizeof a / sizeof a[0]), a

/* ---- sections ---- */

/* what a section's statement comes after: nothing, usage_cte.sql,
 * usage_cte.sql and nodes_cte.sql, the volume statements' start
 * (volumes_decisions_cte.sql or volumes_decisions_none.sql, then
 * volumes_cte.sql), the devices statements' start (dra_allocation_cte.sql
 * or dra_allocation_none.sql, then dra_cte.sql), or the GPU statements'
 * (gpu_added_cte.sql or gpu_added_none.sql, then gpu_cte.sql) */
enum { WITH_NONE, WITH_USAGE, WITH_NODES, WITH_VOLUMES, WITH_DRA, WITH_GPU };

/* Sections only some runs or databases have are left out when their probe
 * (?1 = the run) returns no row, or when its table does not exist (a
 * database made before the feature): a what-if run's scenario
 * (planner/whatif.h), a --mode rebalance run's moves (planner/rebalance.h),
 * kplan fix's rows for the run (planner/fix.c), kplan capacity's answers and
 * their certificates (for the database rather than the run). */
static const char probe_scenario[] = "SELECT 1 FROM run_scenario WHERE run_id = ?1 LIMIT 1";
static const char probe_rebalance[] = "SELECT 1 FROM rebalance_run WHERE run_id = ?1";
static const char probe_fix[] = "SELECT 1 FROM fix WHERE run_id = ?1 LIMIT 1";
static const char probe_capacity[] = "SELECT 1 FROM capacity_run LIMIT 1";
static const char probe_capacity_quality[] = "SELECT 1 FROM capacity_quality LIMIT 1";
/* runs from before run.kube_version: the column is missing, or NULL */
static const char probe_kube[] = "SELECT 1 FROM run WHERE id = ?1 AND kube_version IS NOT NULL";

typedef struct spec {
	const char *id, *title, *note;
	int kv;
	int ncols;
	const kp_rcol *cols;
	const char *sql;     /* queries/report/<name>.sql */
	int with;            /* WITH_* */
	const char *probe;   /* NULL: always there */
} spec;

/* the statement queries/report/NAME.sql, and what it comes after or its probe */
#define Q(name) kp_sql_report_##name, WITH_NONE, NULL
#define QU(name) kp_sql_report_##name, WITH_USAGE, NULL
#define QN(name) kp_sql_report_##name, WITH_NODES, NULL
#define QP(name, probe) kp_sql_report_##name, WITH_NONE, probe
/* the volume sections: only with the storage tables (volumes_tables.sql) and
 * a pod with a volume (volumes_probe.sql) */
#define QV(name) kp_sql_report_##name, WITH_VOLUMES, kp_sql_report_volumes_probe
/* the devices sections: only with the DRA tables (dra_tables.sql) and a
 * slice, a claim or a pod naming one (dra_probe.sql) */
#define QD(name) kp_sql_report_##name, WITH_DRA, kp_sql_report_dra_probe
/* the GPU sections: only when the run wrote gpu_fragmentation rows (gpu_probe.sql) */
#define QG(name) kp_sql_report_##name, WITH_GPU, kp_sql_report_gpu_probe

static const spec run_specs[] = {
	{ "summary", "Summary", NULL, 1, COLS(cols_kv), Q(summary) },
	{ "kube", "Kube-scheduler", "the version and feature gates the run planned as (docs/kube-versions.md)", 1,
	  COLS(cols_kv), QP(kube, probe_kube) },
	{ "scenario", "What-if scenario", "what this run changed in the cluster, for the run only, in the order "
	  "applied; result: what the plan did with it", 0, COLS(cols_scenario), QP(scenario, probe_scenario) },
	{ "rebalance", "Rebalance: moves", "--mode rebalance: the proposed moves in order; every wave can run at once "
	  "(PDBs hold); gain: violation fixed (1), utilisation points taken off the source, or share of a node freed; "
	  "cost: 1 per pod, 2 for StatefulSet pods, +1 with PVCs", 0, COLS(cols_rebalance),
	  QP(rebalance, probe_rebalance) },
	{ "rebalance_util", "Rebalance: utilisation", "per resource over the nodes, before the moves and after them",
	  0, COLS(cols_rebalance_util), QP(rebalance_util, probe_rebalance) },
	{ "rebalance_nodes", "Rebalance: nodes", "the nodes the moves touch, per resource, before the moves (where the "
	  "run's pods were, a moved pod on the node it leaves) and after them; freed: 1 when the node had app pods and "
	  "has none after (DaemonSet and static pods stay); freed nodes first", 0, COLS(cols_rebalance_nodes),
	  QP(rebalance_nodes, probe_rebalance) },
	{ "batches", "Input batches", "the imports made before the run", 0, COLS(cols_batches), Q(batches) },
	{ "warnings", "Warnings", "what the planner met and does not model", 0, COLS(cols_warnings), Q(warnings) },
	{ "unschedulable_reasons", "Unschedulable: reasons", "pods: unschedulable pods the reason decides (given by "
	  "nodes that pass every static filter: taints, selectors, node affinity, cordon; or a static reason when no "
	  "node passes them); pods_any: pods given the reason by at least one node; node_rejections: (pod, node) pairs",
	  0, COLS(cols_reasons), Q(reasons) },
	{ "unschedulable_groups", "Unschedulable: pods by their reasons", "each group: the pods that failed for the same "
	  "set of reasons", 0, COLS(cols_groups), Q(unschedulable_groups) },
	{ "unschedulable", "Unschedulable pods", NULL, 0, COLS(cols_unsched), Q(unschedulable) },
	{ "fix", "Why-not: the smallest fix", "kplan fix: per unschedulable pod, the least disruptive change found that "
	  "makes it fit (add one node < evict lower-priority pods < relax a soft rule < relax a hard rule < untaint a "
	  "node dedicated to something it does not use), checked with a dry-run plan; the fix table holds every "
	  "candidate and the joint change set", 0, COLS(cols_fix), QP(fix, probe_fix) },
	{ "resources", "Cluster resources", "requested before the plan (bound pods) and after it (kept, bound and moved "
	  "pods); pods: the number of pods", 0, COLS(cols_resources), QU(resources) },
	{ "most_loaded", "Most loaded nodes", "load: the highest percentage of allocatable over the node's resources",
	  0, COLS(cols_nodes), QN(most_loaded) },
	{ "least_loaded", "Least loaded nodes", NULL, 0, COLS(cols_nodes), QN(least_loaded) },
	{ "nodes", "Nodes", NULL, 0, COLS(cols_nodes), QN(nodes) },
	{ "node_usage", "Node utilisation", "every resource of every node, before and after the plan",
	  0, COLS(cols_usage), QU(node_usage) },
	{ "zones", "Zones", "by label topology.kubernetes.io/zone", 0, COLS(cols_zones), QU(zones) },
	{ "quality", "Plan quality", "per pool (label node.kubernetes.io/instance-type): nodes used by pods other than "
	  "DaemonSet and static pods, a lower bound on the nodes those pods need, and the gap to it", 0,
	  COLS(cols_quality), Q(quality) },
	{ "stranded", "Stranded capacity", "free on the used nodes; stranded: free on a node where another resource "
	  "is exhausted (less free than the pool's smallest request of it)", 0, COLS(cols_stranded), Q(stranded) },
	{ "namespaces", "Namespaces", "placed: requests of the pods on a node after the plan; unplaced: of the "
	  "unschedulable and evicted pods", 0, COLS(cols_ns), Q(namespaces) },
	{ "workloads", "Workloads", "the workload a pod was generated from, else its controller", 0, COLS(cols_wl),
	  Q(workloads) },
	{ "evictions", "Preemptions", "evictions in order; outcome: move (re-created and placed) or evict", 0,
	  COLS(cols_evictions), Q(evictions) },
	{ "moves", "Moves", NULL, 0, COLS(cols_moves), Q(moves) },
	{ "volumes", "Volumes", "the counts of the three volume tables below, from the same rows: pods_with_volumes: "
	  "pods the run keeps, binds or moves with a pod_volume row; pinned_pods, pinned_claims: pods and rows of "
	  "'pods pinned' (pinned_bound, _bind, _provision: rows by binding); decisions: the run's volume_decision rows "
	  "(by action); attach_limits: csi_node rows with allocatable, on imported nodes; at_limit, within_one: those "
	  "at or over the limit, one below it (the rows of 'nodes at or near')", 1, COLS(cols_kv), QV(volumes_summary) },
	{ "volumes_pinned", "Volumes: pods pinned", "per pod the run keeps, binds or moves and claim (pod_volume.claim "
	  "in pvc) that ties it to a place: the claim's PV (pvc.volume_name) has node affinity (pv.node_affinity, "
	  "shown as its terms) or a zone/region label (pv_label), or the run bound or provisioned the claim "
	  "(volume_decision); binding: bound (before the run), bind or provision (by the run)", 0,
	  COLS(cols_vol_pinned), QV(volumes_pinned) },
	{ "volumes_decisions", "Volumes: the run's decisions", "VolumeBinding's decisions (volume_decision) in order: "
	  "the claim bound to an available PV (bind) or provisioned (provision) for the pod's node", 0,
	  COLS(cols_vol_decisions), QV(volumes_decisions) },
	{ "volumes_attach", "Volumes: nodes at or near their CSI attach limit", "per node and driver with a limit "
	  "(csi_node.allocatable): the unique volumes of the pods the run keeps, binds or moves there (a claim's PV "
	  "as pv.driver/volume_handle for csi and in-tree disk sources; a claim without a PV as pvc:namespace/name "
	  "under its StorageClass's provisioner; a pod's in-tree disk as pod_volume.driver/volume_handle); listed at, "
	  "over or one below the limit, the fullest first", 0, COLS(cols_vol_attach), QV(volumes_attach) },
	{ "devices", "Devices", "the counts of the three devices tables below, from the same rows: device_rows, pools, "
	  "devices, in_use_before, in_use_run, in_use, free: rows of 'per node and pool' and the sums of its columns; "
	  "claims_allocated_before: resource_claim rows with allocated = 1; results_outside_slices: their "
	  "resource_claim_result rows (admin access left out) naming no device of a pool's newest generation, held by "
	  "nothing; allocations: the run's dra_allocation rows (allocations_admin: with admin access), "
	  "claims_allocated_by_run and pods_allocating their claims and pods; unallocated_claims, unallocated_pods: rows "
	  "of 'claims left unallocated' and their pods", 1, COLS(cols_kv), QD(dra_summary) },
	{ "devices_nodes", "Devices: per node and pool", "per node, driver and pool the slice_device rows of the "
	  "pool's newest generation (resource_slice.pool_generation) usable there: node-local (resource_slice.node_name, "
	  "or the device's with per-device node selection), on every node ('(all nodes)': all_nodes, listed once), or "
	  "network-attached (node_selector: shown, not evaluated); in_use_before: devices in resource_claim_result of "
	  "claims allocated in the input, in_use_run: in the run's dra_allocation, in_use: in either, free = devices - "
	  "in_use (admin access takes no device); pool_status: complete when the generation has pool_slice_count slices",
	  0, COLS(cols_dra_nodes), QD(dra_devices) },
	{ "devices_allocations", "Devices: the run's allocations", "the DynamicResources plugin's allocations "
	  "(dra_allocation) in order: the pod whose placement allocated the claim (a shared claim once), the claim and "
	  "request, the device (driver, pool, device), the pod's node", 0, COLS(cols_dra_allocs), QD(dra_allocations) },
	{ "devices_unallocated", "Devices: claims left unallocated", "per unschedulable pod of the run (placement) and "
	  "claim it names (pod_resource_claim.claim) allocated neither in the input (resource_claim.allocated) nor by "
	  "the run (dra_allocation); claim_from: how the pod names it (spec, status, owned, generated from a template); "
	  "reason: the pod's (placement.reason)", 0, COLS(cols_dra_unalloc), QD(dra_unallocated) },
	{ "gpu", "GPU fragmentation", "sums of the run's gpu_fragmentation rows (docs/gpu-devices.md): gpu_nodes: "
	  "its rows (nodes with GPUs: node-local devices allowing multiple allocations with a capacity, 1000 milli "
	  "each); gpus, milli, allocated_milli, free_milli: sums (allocated = milli - free); frag_milli: the FGD "
	  "measure's fragmented milli, of free_milli those the typical pod shapes cannot use, weighted (frag_pct: "
	  "of free_milli); usable_milli = free_milli - frag_milli; typical_shapes: gpu_typical_shape rows",
	  1, COLS(cols_kv), QG(gpu_summary) },
	{ "gpu_pools", "GPU fragmentation: per pool", "the figures of 'GPU fragmentation' per pool: the node's label "
	  "node.kubernetes.io/instance-type, else its GPU model (label alibabacloud.com/gpu-card-model), else (none); "
	  "pool_label: which label", 0, COLS(cols_gpu_pools), QG(gpu_pools) },
	{ "gpu_fragmented", "GPU fragmentation: the most fragmented nodes", "the 10 nodes with the most fragmented GPU "
	  "milli (frag_milli > 0), the most first; free_list: each GPU's free milli, in device order (gpu-0 first); "
	  "frag_pct: of the node's free_milli; cpu_left: allocatable cpu not requested after the run",
	  0, COLS(cols_gpu_nodes), QG(gpu_fragmented) },
	{ "gpu_nodes", "GPU fragmentation: per node", "every row of the run's gpu_fragmentation, by node name",
	  0, COLS(cols_gpu_nodes), QG(gpu_nodes) },
	{ "gpu_shapes", "GPU fragmentation: typical pod shapes", "the run's gpu_typical_shape rows: the most frequent "
	  "(cpu, GPUs, milli on each) of the snapshot's pods (DaemonSet pods left out, cpu-only pods in), until 95% "
	  "of the pods; weight: their share, renormalised over the shapes kept; example: a pod of the shape",
	  0, COLS(cols_gpu_shapes), QP(gpu_shapes, kp_sql_report_gpu_probe) },
	{ "capacity", "Capacity", "kplan capacity's latest answers for this database (pod: replicas that fit, of bound "
	  "tried; nodes-needed: nodes to add, bound: the lower bound; survive: 1 when it survives), newest first", 0,
	  COLS(cols_capacity), QP(capacity, probe_capacity) },
	{ "capacity_quality", "Capacity: quality certificates", "per answer and pool, of the plan that gives the answer "
	  "(pod: with the replicas; nodes-needed: with the nodes found; survive: without the worst domain): nodes used by "
	  "pods other than DaemonSet and static pods, the lower bound on the nodes they need, the gap", 0,
	  COLS(cols_capacity_quality), QP(capacity_quality, probe_capacity_quality) },
};

static const spec cmp_specs[] = {
	{ "summary", "Summary", NULL, 1, COLS(cols_kv), Q(compare_summary) },
	{ "runs", "Runs", NULL, 0, COLS(cols_runs), Q(compare_runs) },
	{ "changed_pods", "Pods placed differently", "action or node differs between run A and run B", 0,
	  COLS(cols_changed), Q(compare_changed) },
	{ "resource_delta", "Cluster resources", "requested after run A and after run B", 0, COLS(cols_res_delta),
	  QU(compare_resources) },
	{ "usage_delta", "Node utilisation changes", "node resources whose requests differ (delta = B - A)", 0,
	  COLS(cols_usage_delta), QU(compare_usage) },
};

static int add_row(kp_rtable *t, kp_err *err)
{
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		kp_rcell *c = kp_realloc(t->cells, cap * (size_t)t->ncols * sizeof *c);
		if (!c)
			return kp_err_set(err, KP_NOMEM, "out of memory");
		t->cells = c;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * (size_t)t->ncols], 0, (size_t)t->ncols * sizeof *t->cells);
	t->nrows++;
	return KP_OK;
}

/* length of the valid UTF-8 sequence at p (n bytes left), 0 when invalid */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xBF;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
	else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t k = 2; k < len; k++)
		if ((p[k] & 0xC0) != 0x80)
			return 0;
	return len;
}

/* a copy of the n bytes at s in the arena, NUL bytes dropped and invalid
 * UTF-8 replaced by U+FFFD, so that every renderer emits valid text */
static char *clean_text(kp_arena *a, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len;
	while (i < n && p[i] && (len = utf8_seq(p + i, n - i)))
		i += len;
	if (i == n)
		return kp_arena_strndup(a, s, n);
	char *out = kp_arena_alloc(a, n * 3 + 1), *o = out;
	if (!out)
		return NULL;
	for (i = 0; i < n;) {
		if (!p[i]) {
			i++;
		} else if ((len = utf8_seq(p + i, n - i))) {
			memcpy(o, p + i, len);
			o += len;
			i += len;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	*o = 0;
	return out;
}

static int set_cell(kp_report *r, kp_rcell *c, sqlite3_stmt *s, int j, kp_err *err)
{
	switch (sqlite3_column_type(s, j)) {
	case SQLITE_INTEGER:
		c->type = KP_RV_INT;
		c->i = sqlite3_column_int64(s, j);
		break;
	case SQLITE_FLOAT:
		c->type = KP_RV_REAL;
		c->d = sqlite3_column_double(s, j);
		if (!isfinite(c->d))
			c->type = KP_RV_NULL;
		break;
	case SQLITE_NULL:
		c->type = KP_RV_NULL;
		break;
	default: {
		const char *v = (const char *)sqlite3_column_text(s, j);
		c->type = KP_RV_TEXT;
		c->s = clean_text(&r->arena, v ? v : "", v ? (size_t)sqlite3_column_bytes(s, j) : 0);
		if (!c->s)
			return kp_err_set(err, KP_NOMEM, "out of memory");
	}
	}
	return KP_OK;
}

/* 1 when the query (?1 = run) returns a row; 0 also when its table does
 * not exist (a database made before the feature) */
static int any_row(sqlite3 *db, const char *sql, int64_t run)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_bind_parameter_count(s) >= 1)
		sqlite3_bind_int64(s, 1, run);
	int n = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return n;
}

/* 1 when table has column (a database made before the column has not) */
static int has_column(sqlite3 *db, const char *table, const char *column)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, column, -1, SQLITE_STATIC);
	int n = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return n;
}

static int load(sqlite3 *db, kp_report *r, const spec *sp, int64_t limit, kp_err *err)
{
	/* the volume sections: their tables first (a database imported before
	 * the storage tables has none), then the probe */
	if (sp->with == WITH_VOLUMES && !any_row(db, kp_sql_report_volumes_tables, r->run_a))
		return KP_OK;
	if (sp->with == WITH_DRA && !any_row(db, kp_sql_report_dra_tables, r->run_a))
		return KP_OK;
	if (sp->probe && !any_row(db, sp->probe, r->run_a))
		return KP_OK;
	if (r->ntables == KP_REPORT_MAX_TABLES)
		return kp_err_set(err, KP_ERROR, "report: too many tables");
	/* runs made before pod_failure.decisive, fix tables from before fix.rank */
	const char *sql = sp->sql;
	if (sql == kp_sql_report_reasons && !has_column(db, "pod_failure", "decisive"))
		sql = kp_sql_report_reasons_derived;
	if (sql == kp_sql_report_fix && has_column(db, "fix", "rank"))
		sql = kp_sql_report_fix_ranked;
	kp_rtable *t = &r->tables[r->ntables++];
	memset(t, 0, sizeof *t);
	t->id = sp->id;
	t->title = sp->title;
	t->note = sp->note;
	t->kv = sp->kv;
	t->ncols = sp->ncols;
	t->cols = sp->cols;
	kp_sb text;
	kp_sb_init(&text);
	if (sp->with == WITH_VOLUMES) {
		kp_sb_adds(&text, any_row(db, kp_sql_report_volumes_has_decisions, r->run_a)
					  ? kp_sql_report_volumes_decisions_cte : kp_sql_report_volumes_decisions_none);
		kp_sb_adds(&text, kp_sql_report_volumes_cte);
	} else if (sp->with == WITH_DRA) {
		kp_sb_adds(&text, any_row(db, kp_sql_report_dra_has_allocation, r->run_a)
					  ? kp_sql_report_dra_allocation_cte : kp_sql_report_dra_allocation_none);
		kp_sb_adds(&text, kp_sql_report_dra_cte);
	} else if (sp->with == WITH_GPU) {
		kp_sb_adds(&text, any_row(db, kp_sql_report_gpu_has_run_node, r->run_a) ? kp_sql_report_gpu_added_cte
											 : kp_sql_report_gpu_added_none);
		kp_sb_adds(&text, kp_sql_report_gpu_cte);
	} else if (sp->with != WITH_NONE) {
		kp_sb_adds(&text, kp_sql_report_usage_cte);
		if (sp->with == WITH_NODES)
			kp_sb_adds(&text, kp_sql_report_nodes_cte);
	}
	if (sp->with != WITH_NONE) {
		kp_sb_adds(&text, sql);
		if (!kp_sb_ok(&text)) {
			kp_sb_release(&text);
			return kp_err_set(err, KP_NOMEM, "out of memory");
		}
		sql = kp_sb_str(&text);
	}
	sqlite3_stmt *s;
	int prepared = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
	kp_sb_release(&text);
	if (prepared != SQLITE_OK) {
		/* a database made before the plan quality tables: no such rows */
		const char *m = sqlite3_errmsg(db);
		if (!strcmp(m, "no such table: plan_quality") || !strcmp(m, "no such table: plan_stranded"))
			return KP_OK;
		return kp_err_set(err, KP_ERROR, "report %s: %s", sp->id, m);
	}
	int np = sqlite3_bind_parameter_count(s);
	int64_t vals[4] = { r->run_a, r->run_b, r->no_timing, limit };
	for (int i = 1; i <= np && i <= 4; i++)
		sqlite3_bind_int64(s, i, vals[i - 1]);
	int nc = sqlite3_column_count(s);
	if (!sp->kv && nc != t->ncols) {
		sqlite3_finalize(s);
		return kp_err_set(err, KP_ERROR, "report %s: %d columns, want %d", sp->id, nc, t->ncols);
	}
	int rc, ret = KP_OK;
	while (ret == KP_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (sp->kv) {
			/* one row: each column becomes a (key, value) row */
			for (int j = 0; j < nc && ret == KP_OK; j++) {
				if ((ret = add_row(t, err)) != KP_OK)
					break;
				kp_rcell *c = &t->cells[(t->nrows - 1) * 2];
				c[0].type = KP_RV_TEXT;
				c[0].s = kp_arena_strdup(&r->arena, sqlite3_column_name(s, j));
				if (!c[0].s)
					ret = kp_err_set(err, KP_NOMEM, "out of memory");
				else
					ret = set_cell(r, &c[1], s, j, err);
			}
			continue;
		}
		if ((ret = add_row(t, err)) != KP_OK)
			break;
		kp_rcell *c = &t->cells[(t->nrows - 1) * (size_t)t->ncols];
		for (int j = 0; j < nc && ret == KP_OK; j++)
			ret = set_cell(r, &c[j], s, j, err);
	}
	if (ret == KP_OK && rc != SQLITE_DONE)
		ret = kp_err_set(err, kp_interrupted ? KP_INTR : rc == SQLITE_BUSY ? KP_BUSY : KP_ERROR,
				 "report %s: %s", sp->id, kp_interrupted ? "interrupted" : sqlite3_errmsg(db));
	sqlite3_finalize(s);
	return ret;
}

/* the run's id (0: the latest), or an error naming what is missing */
static int find_run(sqlite3 *db, const char *name, int64_t want, int64_t *out, kp_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, kp_sql_report_find_run, -1, &s, NULL) != SQLITE_OK)
		return kp_err_set(err, KP_ERROR, "%s", sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, want);
	int rc = sqlite3_step(s);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return kp_err_set(err, rc == SQLITE_BUSY ? KP_BUSY : KP_ERROR, "%s", sqlite3_errmsg(db));
	if (!*out && want && name)
		return kp_err_set(err, KP_ERROR, "no run %lld in '%s'", (long long)want, name);
	if (!*out && want)
		return kp_err_set(err, KP_ERROR, "no run %lld in the database", (long long)want);
	if (!*out && name)
		return kp_err_set(err, KP_ERROR, "no run in '%s' yet: make one with 'kplan plan %s'", name, name);
	if (!*out)
		return kp_err_set(err, KP_ERROR, "no run in the database yet: make one with 'kplan plan'");
	return KP_OK;
}

int kp_report_build(sqlite3 *db, const kp_report_opts *o, kp_report **out, kp_err *err)
{
	*out = NULL;
	kp_report *r = kp_calloc(1, sizeof *r);
	if (!r)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	kp_arena_init(&r->arena, 1 << 16);
	r->no_timing = o->no_timing;
	/* one read transaction: every table sees the same snapshot even while
	 * another kplan imports or plans (BEGIN DEFERRED writes nothing) */
	int rc = KP_OK;
	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		rc = kp_err_set(err, KP_ERROR, "%s", sqlite3_errmsg(db));
	} else if (o->compare_a > 0 || o->compare_b > 0) {
		r->compare = 1;
		rc = find_run(db, o->db_name, o->compare_a, &r->run_a, err);
		if (rc == KP_OK)
			rc = find_run(db, o->db_name, o->compare_b, &r->run_b, err);
	} else {
		rc = find_run(db, o->db_name, o->run, &r->run_a, err);
		r->run_b = r->run_a;
	}
	/* the most/least loaded lists: up to 5 nodes, at most half of them */
	int64_t nodes = 0, limit;
	sqlite3_stmt *s;
	if (rc == KP_OK && sqlite3_prepare_v2(db, "SELECT count(*) FROM node", -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			nodes = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	limit = nodes / 2 < 1 ? 1 : nodes / 2 > 5 ? 5 : nodes / 2;
	const spec *sp = r->compare ? cmp_specs : run_specs;
	size_t n = r->compare ? sizeof cmp_specs / sizeof *cmp_specs : sizeof run_specs / sizeof *run_specs;
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		rc = load(db, r, &sp[i], limit, err);
		if (rc == KP_OK && o->progress)
			o->progress(o->progress_ctx, (int)i + 1, (int)n);
	}
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc != KP_OK) {
		kp_report_free(r);
		return rc;
	}
	*out = r;
	return KP_OK;
}

void kp_report_free(kp_report *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->ntables; i++)
		kp_free(r->tables[i].cells);
	kp_arena_release(&r->arena);
	kp_free(r);
}

/* ---- helpers for the renderers ---- */

const kp_rtable *kp_report_table(const kp_report *r, const char *id)
{
	for (int i = 0; i < r->ntables; i++)
		if (!strcmp(r->tables[i].id, id))
			return &r->tables[i];
	return NULL;
}

int kp_rtable_col(const kp_rtable *t, const char *key)
{
	for (int j = 0; j < t->ncols; j++)
		if (!strcmp(t->cols[j].key, key))
			return j;
	return -1;
}

double kp_rcell_num(const kp_rcell *c)
{
	return c->type == KP_RV_INT ? (double)c->i : c->type == KP_RV_REAL ? c->d : 0;
}

int kp_rtable_numeric(const kp_rtable *t, int col)
{
	int num = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		int ty = kp_rtable_cell(t, i, col)->type;
		if (ty == KP_RV_TEXT)
			return 0;
		if (ty != KP_RV_NULL)
			num = 1;
	}
	return num || t->cols[col].unit != KP_RU_NONE;
}

const char *kp_report_header(const kp_rcol *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s", c->key);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
	return buf;
}

const char *kp_report_title(const kp_report *r, char *buf, size_t size)
{
	if (r->compare)
		snprintf(buf, size, "kplan report: run %lld compared with run %lld", (long long)r->run_a,
			 (long long)r->run_b);
	else
		snprintf(buf, size, "kplan report: run %lld", (long long)r->run_a);
	return buf;
}

const char *kp_report_raw(const kp_rtable *t, size_t row, int col, char *buf, size_t size)
{
	const kp_rcell *c = kp_rtable_cell(t, row, col);
	switch (c->type) {
	case KP_RV_INT: snprintf(buf, size, "%lld", (long long)c->i); return buf;
	case KP_RV_REAL: snprintf(buf, size, "%.15g", c->d); return buf;
	case KP_RV_TEXT: return c->s;
	default: if (size) buf[0] = 0; return buf;
	}
}

static int is_bytes_resource(const char *res)
{
	return !strcmp(res, "memory") || !strcmp(res, "ephemeral-storage") || !strncmp(res, "hugepages-", 10);
}

/* cores, up to three decimals: 7.91, 4, 0.25 */
static void fmt_cpu(long long v, char *buf, size_t size)
{
	long long a = v < 0 ? -v : v;
	if (a % 1000 == 0) {
		snprintf(buf, size, "%lld", v / 1000);
		return;
	}
	snprintf(buf, size, "%s%lld.%03lld", v < 0 ? "-" : "", a / 1000, a % 1000);
	size_t n = strlen(buf);
	while (n && buf[n - 1] == '0')
		buf[--n] = 0;
}

/* 29.9Gi, 512Mi, 100 (below 1Ki: bytes) */
static void fmt_bytes(long long v, char *buf, size_t size)
{
	static const char *const units[] = { "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	double a = v < 0 ? -(double)v : (double)v;
	if (a < 1024) {
		snprintf(buf, size, "%lld", v);
		return;
	}
	int u = -1;
	while (a >= 1024 && u < 5) {
		a /= 1024;
		u++;
	}
	char num[48];
	snprintf(num, sizeof num, "%.1f", a);
	size_t n = strlen(num);
	if (n > 2 && !strcmp(num + n - 2, ".0"))
		num[n - 2] = 0;
	snprintf(buf, size, "%s%s%s", v < 0 ? "-" : "", num, units[u]);
}

const char *kp_report_human(const kp_rtable *t, size_t row, int col, char *buf, size_t size)
{
	const kp_rcell *c = kp_rtable_cell(t, row, col);
	const kp_rcol *k = &t->cols[col];
	if (c->type == KP_RV_NULL) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (c->type == KP_RV_TEXT)
		return c->s;
	int unit = k->unit;
	if (unit == KP_RU_AMOUNT) {
		const kp_rcell *res = kp_rtable_cell(t, row, k->res_col);
		const char *name = res->type == KP_RV_TEXT ? res->s : "";
		unit = !strcmp(name, "cpu") ? KP_RU_CPU : is_bytes_resource(name) ? KP_RU_BYTES : KP_RU_NONE;
	}
	long long iv = c->type == KP_RV_INT ? (long long)c->i : fabs(c->d) < 9e18 ? (long long)llround(c->d) : 0;
	switch (unit) {
	case KP_RU_PCT: snprintf(buf, size, "%.1f%%", kp_rcell_num(c)); break;
	case KP_RU_CPU: fmt_cpu(iv, buf, size); break;
	case KP_RU_BYTES: fmt_bytes(iv, buf, size); break;
	case KP_RU_SECONDS: snprintf(buf, size, "%.3f s", kp_rcell_num(c)); break;
	default:
		if (c->type == KP_RV_INT)
			snprintf(buf, size, "%lld", (long long)c->i);
		else
			snprintf(buf, size, "%.15g", c->d);
	}
	return buf;
}

int kp_report_render(const kp_report *r, int fmt, kp_sb *out)
{
	switch (fmt) {
	case KP_REPORT_TEXT: return kp_report_text(r, out);
	case KP_REPORT_MARKDOWN: return kp_report_markdown(r, out);
	case KP_REPORT_CSV: return kp_report_csv(r, out);
	case KP_REPORT_JSON: return kp_report_json(r, out);
	case KP_REPORT_HTML: return kp_report_html(r, out);
	default: return KP_ERROR;
	}
}
