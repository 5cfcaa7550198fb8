/*
 * kube.h — the kube-scheduler a plan reproduces: its minor version
 * (1.31..1.37) and its feature gates, as kube takes them
 * (`--feature-gates Name=true,...`).  docs/kube-versions.md lists what
 * changes between versions and what each gate does in kplan.
 *
 *   kp_kube k;
 *   kp_kube_init(&k, KP_KUBE_NEWEST);
 *   if (kp_kube_set_gates(&k, "GenericWorkload=true", "--feature-gates", &err)) ...
 *   if (kp_kube_on(&k, KP_FG_GENERIC_WORKLOAD)) ...
 */
#ifndef KP_KUBE_H
#define KP_KUBE_H

#include <stddef.h>
#include "kp.h"

enum { KP_KUBE_OLDEST = 31, KP_KUBE_NEWEST = 37 };

/* X(INDEX, "Name", defaults, kplan): defaults holds one character per
 * version 1.31..1.37: '-' the gate does not exist, '0' off, '1' on, 'L' on
 * and locked (GA: kube refuses to turn it off).  kplan: what kplan does with
 * it: 'B' both values are modelled; 'O' only on is modelled (setting it off
 * is refused; a version where it is off by default warns when the input
 * uses the feature); 'F' only off is modelled (setting it on is refused; a
 * version where it is on by default warns when the input uses it); 'N' no
 * effect a batch plan can observe (accepted, recorded).  The values follow
 * docs/kube-versions-gates.tsv (a test compares them). */
#define KP_FEATURE_GATES(X) \
	X(SIDECAR_CONTAINERS, "SidecarContainers", "11LLLLL", 'O') \
	X(IN_PLACE_POD_VERTICAL_SCALING, "InPlacePodVerticalScaling", "0011LLL", 'B') \
	X(IN_PLACE_POD_LEVEL_RESOURCES_VERTICAL_SCALING, "InPlacePodLevelResourcesVerticalScaling", "----011", 'N') \
	X(IN_PLACE_POD_VERTICAL_SCALING_SCHEDULER_PREEMPTION, "InPlacePodVerticalScalingSchedulerPreemption", "------0", 'F') \
	X(POD_LEVEL_RESOURCES, "PodLevelResources", "-001111", 'B') \
	X(SCHEDULER_ASYNC_PREEMPTION, "SchedulerAsyncPreemption", "-011111", 'N') \
	X(SCHEDULER_QUEUEING_HINTS, "SchedulerQueueingHints", "011LLLL", 'N') \
	X(SCHEDULER_POP_FROM_BACKOFF_Q, "SchedulerPopFromBackoffQ", "--11111", 'N') \
	X(SCHEDULER_ASYNC_API_CALLS, "SchedulerAsyncAPICalls", "---0000", 'N') \
	X(OPPORTUNISTIC_BATCHING, "OpportunisticBatching", "----111", 'N') \
	X(NOMINATED_NODE_NAME_FOR_EXPECTATION, "NominatedNodeNameForExpectation", "---0111", 'N') \
	X(CLEARING_NOMINATED_NODE_NAME_AFTER_BINDING, "ClearingNominatedNodeNameAfterBinding", "---0111", 'N') \
	X(SCHEDULER_PRE_QUEUEING_HINTS, "SchedulerPreQueueingHints", "------0", 'N') \
	X(INTER_POD_AFFINITY_HOSTNAME_FAST_PATH, "InterPodAffinityHostnameFastPath", "------0", 'N') \
	X(MATCH_LABEL_KEYS_IN_POD_TOPOLOGY_SPREAD, "MatchLabelKeysInPodTopologySpread", "1111111", 'O') \
	X(MATCH_LABEL_KEYS_IN_POD_TOPOLOGY_SPREAD_SELECTOR_MERGE, "MatchLabelKeysInPodTopologySpreadSelectorMerge", "---1111", 'N') \
	X(MATCH_LABEL_KEYS_IN_POD_AFFINITY, "MatchLabelKeysInPodAffinity", "11LLLLL", 'O') \
	X(NODE_INCLUSION_POLICY_IN_POD_TOPOLOGY_SPREAD, "NodeInclusionPolicyInPodTopologySpread", "11LLLLL", 'O') \
	X(DYNAMIC_RESOURCE_ALLOCATION, "DynamicResourceAllocation", "0001LLL", 'O') \
	X(DRA_ADMIN_ACCESS, "DRAAdminAccess", "-0011LL", 'O') \
	X(DRA_PRIORITIZED_LIST, "DRAPrioritizedList", "--0111L", 'O') \
	X(DRA_PARTITIONABLE_DEVICES, "DRAPartitionableDevices", "--00011", 'O') \
	X(DRA_DEVICE_TAINTS, "DRADeviceTaints", "--00011", 'O') \
	X(DRA_DEVICE_TAINT_RULES, "DRADeviceTaintRules", "----001", 'F') \
	X(DRA_CONSUMABLE_CAPACITY, "DRAConsumableCapacity", "---0011", 'O') \
	X(DRA_EXTENDED_RESOURCE, "DRAExtendedResource", "---001L", 'O') \
	X(DRA_RESOURCE_CLAIM_DEVICE_STATUS, "DRAResourceClaimDeviceStatus", "-01111L", 'N') \
	X(DRA_SCHEDULER_FILTER_TIMEOUT, "DRASchedulerFilterTimeout", "---1111", 'N') \
	X(DRA_DEVICE_BINDING_CONDITIONS, "DRADeviceBindingConditions", "---0011", 'N') \
	X(DRA_LIST_TYPE_ATTRIBUTES, "DRAListTypeAttributes", "-----00", 'F') \
	X(DRA_NODE_ALLOCATABLE_RESOURCES, "DRANodeAllocatableResources", "-----00", 'F') \
	X(DRA_WORKLOAD_RESOURCE_CLAIMS, "DRAWorkloadResourceClaims", "-----00", 'F') \
	X(DRA_FRACTIONAL_CAPACITY_RANGE, "DRAFractionalCapacityRange", "------1", 'N') \
	X(DRA_DERIVED_ATTRIBUTES, "DRADerivedAttributes", "------0", 'F') \
	X(DRA_DEVICE_COMPATIBILITY_GROUPS, "DRADeviceCompatibilityGroups", "------0", 'F') \
	X(DRA_OPTIONAL_NODE_OPERATIONS, "DRAOptionalNodeOperations", "------0", 'F') \
	X(NODE_DECLARED_FEATURES, "NodeDeclaredFeatures", "----01L", 'B') \
	X(TAINT_TOLERATION_COMPARISON_OPERATORS, "TaintTolerationComparisonOperators", "----000", 'B') \
	X(STORAGE_CAPACITY_SCORING, "StorageCapacityScoring", "--00001", 'F') \
	X(VOLUME_LIMIT_SCALING, "VolumeLimitScaling", "----001", 'F') \
	X(VOLUME_ATTRIBUTES_CLASS, "VolumeAttributesClass", "00011LL", 'N') \
	X(GENERIC_WORKLOAD, "GenericWorkload", "----000", 'B') \
	X(GANG_SCHEDULING, "GangScheduling", "----00-", 'B') \
	X(TOPOLOGY_AWARE_WORKLOAD_SCHEDULING, "TopologyAwareWorkloadScheduling", "-----00", 'F') \
	X(WORKLOAD_AWARE_PREEMPTION, "WorkloadAwarePreemption", "-----0-", 'F') \
	X(WORKLOAD_WITH_JOB, "WorkloadWithJob", "-----00", 'F') \
	X(COMPOSITE_POD_GROUP, "CompositePodGroup", "------0", 'F') \
	X(POD_GROUP_PREEMPTION_POLICY, "PodGroupPreemptionPolicy", "------0", 'F')

#define KP_FG_ENUM_(index, name, defaults, kplan) KP_FG_##index,
enum { KP_FEATURE_GATES(KP_FG_ENUM_) KP_FG_COUNT };
#undef KP_FG_ENUM_

typedef struct kp_gate_info {
	const char *name;
	const char *defaults;    /* one character per version, see above */
	char kplan;              /* 'B', 'O', 'F' or 'N' */
} kp_gate_info;

extern const kp_gate_info kp_gates[KP_FG_COUNT];

typedef struct kp_kube {
	int minor;                    /* 31..37 */
	uint8_t on[KP_FG_COUNT];      /* effective value */
	uint8_t set[KP_FG_COUNT];     /* 1: set explicitly (not the version's default) */
} kp_kube;

/* The version's defaults, nothing set. */
void kp_kube_init(kp_kube *k, int minor);
/* "1.35", "v1.35" or "1.35.2" -> 35; an error names what it got and the
 * versions kplan plans as ("kube 1.31 to 1.37"). */
int kp_kube_parse_version(const char *text, int *minor, kp_err *err);
/* Apply "Name=true,Name=false,..." (kube's --feature-gates syntax; spaces
 * around items allowed).  Errors, with origin ("--feature-gates", "the
 * database's feature-gates setting") in the message: an unknown name (with
 * "did you mean"), a gate that does not exist in k's version, a value other
 * than true/false, turning a locked gate off (kube's "cannot set feature gate
 * X to false, feature is locked to true"), a value kplan does not model.
 * On error k is unchanged. */
int kp_kube_set_gates(kp_kube *k, const char *spec, const char *origin, kp_err *err);
/* 1 when the gate is on */
static inline int kp_kube_on(const kp_kube *k, int gate) { return k->on[gate]; }
/* The gate's default in version minor: -1 absent, 0 off, 1 on. */
int kp_kube_default(int gate, int minor);
/* "Name=true,Name=false" of the gates set explicitly, in table order ("" none). */
void kp_kube_gates_text(const kp_kube *k, char *buf, size_t size);
/* "kube 1.37" or "kube 1.35 (feature gates: GenericWorkload=true)". */
void kp_kube_describe(const kp_kube *k, char *buf, size_t size);
/* The index of a gate by name, -1 when unknown. */
int kp_kube_gate_index(const char *name);

/* The node-declared-features registry (component-helpers/nodedeclaredfeatures/
 * features) as far as kplan infers it for scheduling (importers/k8s_kube.c):
 * the minor from which kube-scheduler's registry has the feature, 0 when
 * kplan infers no requirement for it (update-only rules, unknown names).
 * Features first registered after 1.37 return 38: no --kube-version kplan
 * plans as checks them. */
int kp_kube_ndf_minor(const char *feature);

#endif
