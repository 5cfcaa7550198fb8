/*
 * model.h — the normalised objects the importers produce and store_objects.c writes.
 *
 * Both the YAML/JSON importer (k8s*.c) and the CSV importer (csv.c) fill these
 * structs; every string and array lives in the caller's kp_arena and is only
 * valid until that arena is reset (one object at a time).  Quantities are
 * already integers: CPU in millicores, memory and storage in bytes, other
 * resources in their base unit (see quantity.h).
 *
 * A NULL array pointer with n == 0 means "absent"; where Kubernetes tells an
 * absent list from an empty one (label selectors), a separate flag says so.
 */
#ifndef KP_MODEL_H
#define KP_MODEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct kp_pos { unsigned line, col; } kp_pos;   /* 1-based; 0 = unknown */

typedef struct kp_kv { const char *key, *value; } kp_kv;
typedef struct kp_kvs { kp_kv *v; size_t n; } kp_kvs;

typedef struct kp_strs { const char **v; size_t n; } kp_strs;

/* One resource amount: name ("cpu", "memory", "nvidia.com/gpu") and value. */
typedef struct kp_res { const char *name; int64_t value; } kp_res;
typedef struct kp_ress { kp_res *v; size_t n; } kp_ress;

/* A label selector requirement; matchLabels {k: v} become {k, "In", [v]}. */
typedef struct kp_req {
	const char *key;
	const char *op;          /* In, NotIn, Exists, DoesNotExist (Gt, Lt for node terms) */
	kp_strs values;
} kp_req;
typedef struct kp_selector {
	int present;             /* 0: null selector (matches nothing); 1: given ({} matches all) */
	kp_req *reqs;
	size_t n;
} kp_selector;

typedef struct kp_taint { const char *key, *value, *effect; } kp_taint;

typedef struct kp_image { kp_strs names; int64_t size_bytes; } kp_image;

typedef struct kp_node_in {
	kp_pos pos;
	const char *name, *uid;
	int64_t created;          /* Unix seconds, INT64_MIN when absent */
	int unschedulable;
	kp_kvs labels;
	kp_taint *taints; size_t ntaints;
	kp_ress allocatable, capacity;
	kp_image *images; size_t nimages;
	kp_strs declared_features;   /* status.declaredFeatures (kube 1.35+) */
} kp_node_in;

typedef struct kp_toleration {
	const char *key, *op, *value, *effect;   /* NULL when absent; op defaults to Equal */
	int64_t seconds;                          /* INT64_MIN when absent */
} kp_toleration;

/* One nodeSelectorTerm (or a preferred term's preference). */
typedef struct kp_node_term {
	int64_t weight;          /* preferred terms only; 0 for required */
	kp_req *exprs; size_t nexprs;     /* matchExpressions (label keys) */
	kp_req *fields; size_t nfields;   /* matchFields (metadata.name) */
} kp_node_term;

/* One pod (anti-)affinity term, required or preferred. */
typedef struct kp_pod_term {
	int anti;                /* 0 podAffinity, 1 podAntiAffinity */
	int required;            /* 1 requiredDuringScheduling..., 0 preferred */
	int64_t weight;          /* preferred only */
	const char *topology_key;
	kp_selector selector;
	kp_strs namespaces;
	kp_selector ns_selector; /* present=0: null */
	kp_strs match_label_keys, mismatch_label_keys;
} kp_pod_term;

typedef struct kp_spread {
	int64_t max_skew;
	const char *topology_key;
	const char *when_unsatisfiable;   /* DoNotSchedule | ScheduleAnyway */
	kp_selector selector;
	int64_t min_domains;              /* 0 when absent (means 1) */
	const char *node_affinity_policy; /* NULL = Honor */
	const char *node_taints_policy;   /* NULL = Ignore */
	kp_strs match_label_keys;
} kp_spread;

typedef struct kp_port {
	const char *host_ip;     /* NULL = 0.0.0.0 */
	const char *protocol;    /* TCP default */
	int64_t host_port, container_port;
} kp_port;

enum { KP_CONTAINER_APP = 0, KP_CONTAINER_INIT = 1, KP_CONTAINER_SIDECAR = 2 };

typedef struct kp_container {
	const char *name, *image;
	int kind;                /* KP_CONTAINER_* (sidecar = init with restartPolicy Always) */
	kp_ress requests, limits;
	kp_port *ports; size_t nports;
} kp_container;

typedef struct kp_owner { const char *kind, *name, *uid; } kp_owner;

/* One status.containerStatuses[] / initContainerStatuses[] entry with
 * `resources` (in-place resize, kube 1.33+): what the kubelet reports. */
typedef struct kp_ctr_status {
	const char *name;
	int init;                /* from initContainerStatuses */
	kp_ress requests;        /* resources.requests */
	kp_ress allocated;       /* allocatedResources */
} kp_ctr_status;

/* The spec of a PersistentVolumeClaim (a PVC's, a StatefulSet's
 * volumeClaimTemplate's, a generic ephemeral volume's template's). */
typedef struct kp_claim_spec {
	const char *storage_class;   /* NULL: not set (the default class); "": no class */
	int64_t request;             /* resources.requests.storage, bytes */
	const char *access_modes;    /* comma list in spec order, "" none */
	const char *volume_mode;     /* NULL = Filesystem */
	const char *volume_name;     /* NULL none */
	const char *attributes_class;   /* volumeAttributesClassName, NULL absent */
	kp_selector selector;
} kp_claim_spec;

/* One volume of a pod spec that matters to scheduling (schema pod_volume). */
typedef struct kp_volume {
	const char *name;
	const char *kind;            /* pvc, ephemeral, intree, csi */
	const char *claim;           /* pvc: claimName (ephemeral: named when stored) */
	int read_only;
	const char *source, *driver, *handle;   /* intree: key, CSI driver by migration, disk id; csi: driver */
	const char *monitors;        /* rbd: monitors joined with ',', NULL otherwise */
	kp_claim_spec claim_spec;    /* ephemeral: volumeClaimTemplate.spec */
} kp_volume;

/* A StatefulSet's volumeClaimTemplate. */
typedef struct kp_claim_template { const char *name; kp_claim_spec spec; } kp_claim_template;

/* One entry of a pod spec's resourceClaims (DRA, issue 17; schema pod_resource_claim). */
typedef struct kp_pod_claim {
	const char *name;            /* resourceClaims[].name */
	const char *claim_name;      /* resourceClaimName, NULL when a template */
	const char *template_name;   /* resourceClaimTemplateName, NULL when a claim */
	int has_status;              /* status.resourceClaimStatuses has an entry of this name */
	const char *status_claim;    /* its resourceClaimName (NULL: no claim was needed) */
	const char *containers;      /* JSON [{"container":C,"request":R|null}] of the containers' resources.claims naming it, NULL none */
} kp_pod_claim;

typedef struct kp_pod_in {
	kp_pos pos;
	const char *namespace_, *name, *uid;
	const char *node_name;       /* spec.nodeName, NULL when pending */
	const char *nominated_node;  /* status.nominatedNodeName */
	const char *phase;           /* status.phase, NULL = Pending */
	int64_t created, start_time; /* Unix seconds, INT64_MIN when absent */
	int terminating;             /* metadata.deletionTimestamp set */
	kp_kvs labels;
	kp_owner owner;              /* the controller ownerReference, fields NULL when none */
	const char *scheduler_name;  /* NULL = default-scheduler */
	int has_priority; int64_t priority;
	const char *priority_class;
	const char *preemption_policy;
	int host_network;
	int scheduling_gates;        /* count of spec.schedulingGates */
	int pvc_volumes;             /* count of persistentVolumeClaim/ephemeral volumes */
	kp_volume *volumes; size_t nvolumes;   /* the ones that matter to scheduling, in spec order */
	kp_pod_claim *claims; size_t nclaims;  /* spec.resourceClaims, in spec order (DRA) */
	kp_container *containers; size_t ncontainers;   /* app, init and sidecar, in spec order */
	kp_ress overhead;
	kp_kvs node_selector;
	kp_toleration *tolerations; size_t ntolerations;
	int has_required_node_affinity;                  /* required set (even with 0 terms) */
	kp_node_term *required_terms; size_t nrequired;
	kp_node_term *preferred_terms; size_t npreferred;
	kp_pod_term *pod_terms; size_t npod_terms;
	kp_spread *spreads; size_t nspreads;
	/* its scheduling group (docs/gangs.md): spec.schedulingGroup.podGroupName
	 * (1.36+), or 1.35's spec.workloadRef {name, podGroup, podGroupReplicaKey};
	 * NULL none */
	const char *pod_group, *workload_ref, *workload_replica_key;
	/* pod-level resources (spec.resources; PodLevelResources, kube 1.34+) */
	kp_ress pod_requests, pod_limits;
	/* in-place resize (status; InPlacePodVerticalScaling, kube 1.33+) */
	kp_ctr_status *statuses; size_t nstatuses;
	int resize_infeasible;   /* condition PodResizePending with reason Infeasible */
	int pod_status_resources;   /* status.resources: pod-level resize (kube 1.36; not modelled) */
	/* node features the pod requires (NodeDeclaredFeatures), sorted */
	kp_strs features;
} kp_pod_in;

/* flags of kp_pod_requests (0: kube 1.37's defaults) */
enum {
	KP_REQ_NONZERO = 1,        /* the scoring request (100m / 200Mi defaults) */
	KP_REQ_NO_POD_LEVEL = 2,   /* PodLevelResources off: spec.resources ignored */
	KP_REQ_NO_STATUS = 4,      /* InPlacePodVerticalScaling off: status resources ignored */
};

/*
 * Effective requests of a pod (kube-scheduler-semantics.md §4.1): max(sum of app containers and
 * sidecars, each init container stage) + overhead, for every resource named
 * anywhere.  A container with a limit but no request for a resource requests
 * the limit (API defaulting).  Zero amounts are kept out.  With nonzero=1 a
 * container without a cpu (memory) request counts 100m (200Mi) — the
 * scoring-only "non-zero" request of §4.2; only cpu and memory are returned
 * then.  The result is sorted by resource name and allocated in arena a.
 * As kube's PodRequests (component-helpers/resource/helpers.go): unless
 * KP_REQ_NO_STATUS, a container (regular or sidecar) with a status entry
 * requests max(spec, status requests, allocated) per resource, or
 * max(status requests, allocated) when the pod's resize is Infeasible;
 * unless KP_REQ_NO_POD_LEVEL, a pod-level request for cpu, memory or
 * hugepages-* (after API defaulting: the pod-level limit when no request)
 * replaces the containers' aggregate; the overhead is added last.
 * flags: KP_REQ_* (1 = KP_REQ_NONZERO, as the older `nonzero` argument).
 * Returns KP_OK, KP_NOMEM or KP_RANGE (sum overflows int64).
 */
struct kp_arena;
struct kp_err;
int kp_pod_requests(const kp_pod_in *pod, int flags, struct kp_arena *a, kp_ress *out,
		    struct kp_err *err);

/* Container c's status entry (matched by name: containerStatuses for a
 * regular container, initContainerStatuses for a sidecar and, with
 * allow_init, for an init container), NULL when none (requests.c). */
const kp_ctr_status *kp_container_status(const kp_pod_in *pod, const kp_container *c, int allow_init);

#define KP_DEFAULT_MILLI_CPU_REQUEST 100
#define KP_DEFAULT_MEMORY_REQUEST (200LL * 1024 * 1024)

/* Deployment, ReplicaSet, StatefulSet, Job, ReplicationController, DaemonSet. */
typedef struct kp_workload_in {
	kp_pos pos;
	const char *kind, *api_version, *namespace_, *name, *uid;
	int64_t created;
	int64_t replicas;        /* desired pods now (Job: parallelism capped; suspended = 0); -1 DaemonSet */
	kp_selector selector;    /* defaulted to the template labels when absent */
	kp_owner owner;          /* controller ownerReference (a ReplicaSet's Deployment) */
	kp_pod_in tmpl;          /* the pod template: labels and spec (name NULL) */
	kp_claim_template *claims; size_t nclaims;   /* StatefulSet volumeClaimTemplates */
} kp_workload_in;

/* ---- storage (issue 16): imported, not planned yet ---- */

typedef struct kp_storage_class_in {
	kp_pos pos;
	const char *name, *provisioner;
	const char *binding_mode;        /* NULL = Immediate */
	int is_default;
	int has_topologies;              /* allowedTopologies given */
	kp_node_term *topologies; size_t ntopologies;   /* matchLabelExpressions as In requirements */
} kp_storage_class_in;

typedef struct kp_pv_in {
	kp_pos pos;
	const char *name;
	kp_kvs labels;
	const char *storage_class;       /* "" none */
	int64_t capacity;
	const char *access_modes, *volume_mode, *phase;
	const char *claim_ns, *claim_name, *claim_uid;
	const char *source, *driver, *handle;
	const char *attributes_class;    /* spec.volumeAttributesClassName, NULL absent */
	int deleting;                    /* metadata.deletionTimestamp set */
	int has_affinity;                /* nodeAffinity.required given */
	kp_node_term *terms; size_t nterms;
} kp_pv_in;

typedef struct kp_pvc_in {
	kp_pos pos;
	const char *namespace_, *name;
	kp_claim_spec spec;
	const char *phase;               /* NULL = Pending */
	const char *selected_node;
	int deleting;
	int bind_completed;              /* annotation pv.kubernetes.io/bind-completed present */
	kp_owner owner;
} kp_pvc_in;

typedef struct kp_csi_node_driver {
	const char *name;
	int has_allocatable; int64_t allocatable;
	const char *topology_keys;       /* comma list */
} kp_csi_node_driver;

typedef struct kp_csi_node_in {
	kp_pos pos;
	const char *name;
	const char *migrated_plugins;    /* annotation storage.alpha.kubernetes.io/migrated-plugins, NULL absent */
	kp_csi_node_driver *drivers; size_t ndrivers;
} kp_csi_node_in;

typedef struct kp_csi_driver_in {
	kp_pos pos;
	const char *name;
	int attach_required, storage_capacity;
	const char *lifecycle_modes;     /* comma list, NULL = Persistent */
} kp_csi_driver_in;

typedef struct kp_csi_capacity_in {
	kp_pos pos;
	const char *namespace_, *name, *storage_class;
	kp_selector node_topology;
	int has_capacity, has_maximum;
	int64_t capacity, maximum;
} kp_csi_capacity_in;

/* ---- Dynamic Resource Allocation (issue 17): imported, not planned yet ---- */

/* A CEL expression (selectors[].cel.expression), as written, and where its
 * text starts in its file: block = 1 for a literal block scalar, whose line k
 * is the file's line line + k at column col. */
typedef struct kp_cel { const char *expr, *path; unsigned line, col; int block; } kp_cel;
typedef struct kp_cels { kp_cel *v; size_t n; } kp_cels;

/* A named quantity: base unit, rounded up as Quantity.Value(), and its text.
 * domain NULL: the name as written (a claim's capacity request). */
typedef struct kp_dra_qty { const char *domain, *name; int64_t value; const char *text; } kp_dra_qty;

/* A counter of a counter set (sharedCounters, consumesCounters). */
typedef struct kp_dra_counter { const char *set, *name; int64_t value; const char *text; } kp_dra_counter;

/* A device attribute: type int, bool, string or version; ival for int and bool. */
typedef struct kp_dra_attr { const char *domain, *name, *type, *sval; int64_t ival; } kp_dra_attr;

/* A device capacity and its requestPolicy (consumable capacity). */
typedef struct kp_dra_capacity {
	kp_dra_qty q;
	int has_default, has_min, has_max, has_step, has_valid;
	int64_t def, min, max, step;
	int64_t *valid; size_t nvalid;   /* validValues, in order */
} kp_dra_capacity;

typedef struct kp_dra_taint { const char *key, *value, *effect; int64_t time_added; /* INT64_MIN absent */ } kp_dra_taint;

typedef struct kp_dra_device {
	const char *name;
	kp_dra_attr *attrs; size_t nattrs;
	kp_dra_capacity *caps; size_t ncaps;
	kp_dra_counter *counters; size_t ncounters;   /* consumesCounters, flattened */
	kp_dra_taint *taints; size_t ntaints;
	int allow_multiple, binds_to_node;
	/* perDeviceNodeSelection: exactly one of these */
	const char *node_name;
	int all_nodes, has_selector;
	kp_node_term *terms; size_t nterms;
} kp_dra_device;

typedef struct kp_resource_slice_in {
	kp_pos pos;
	const char *name, *api_version, *driver, *pool;
	int64_t generation, slice_count;
	const char *node_name;
	int all_nodes, per_device, has_selector;
	kp_node_term *terms; size_t nterms;
	kp_dra_counter *counters; size_t ncounters;   /* sharedCounters, flattened */
	kp_dra_device *devices; size_t ndevices;
} kp_resource_slice_in;

typedef struct kp_device_class_in {
	kp_pos pos;
	const char *name, *api_version;
	const char *extended_resource;   /* spec.extendedResourceName, NULL absent */
	const char *config;              /* spec.config as JSON, NULL absent */
	kp_cels selectors;
} kp_device_class_in;

/* One request or subrequest of a claim spec, converted to v1's form:
 * sub "" is the request itself (first_available: its subrequests follow). */
typedef struct kp_dra_request {
	const char *name, *sub;
	int64_t seq, sub_seq;
	int first_available;
	const char *device_class, *mode;   /* NULL on a firstAvailable request */
	int64_t count;                     /* ExactCount: >= 1; All: 0 */
	int admin_access;
	kp_cels selectors;
	kp_toleration *tols; size_t ntols;
	kp_dra_qty *caps; size_t ncaps;    /* capacity.requests (names as written) */
} kp_dra_request;

typedef struct kp_dra_constraint {
	kp_strs requests;                  /* none: every request */
	const char *match, *distinct;      /* matchAttribute, distinctAttribute */
} kp_dra_constraint;

/* spec.devices of a ResourceClaim or of a ResourceClaimTemplate's claim. */
typedef struct kp_device_claim {
	kp_dra_request *reqs; size_t nreqs;
	kp_dra_constraint *cons; size_t ncons;
	const char *config;                /* JSON, NULL absent */
} kp_device_claim;

typedef struct kp_dra_result {
	const char *request, *driver, *pool, *device, *share_id;
	int admin_access;
	const char *tolerations;           /* JSON copy, NULL none */
	kp_dra_qty *consumed; size_t nconsumed;   /* consumedCapacity, qualified by the driver */
} kp_dra_result;

typedef struct kp_dra_consumer { const char *api_group, *resource, *name, *uid; } kp_dra_consumer;

typedef struct kp_resource_claim_in {
	kp_pos pos;
	const char *namespace_, *name, *uid, *api_version;
	kp_device_claim spec;
	kp_owner owner;
	const char *pod_claim;             /* annotation resource.kubernetes.io/pod-claim-name */
	int deleting, allocated, has_selector;
	kp_node_term *terms; size_t nterms;   /* status.allocation.nodeSelector */
	kp_dra_result *results; size_t nresults;
	kp_dra_consumer *reserved; size_t nreserved;
} kp_resource_claim_in;

typedef struct kp_resource_claim_template_in {
	kp_pos pos;
	const char *namespace_, *name, *api_version;
	kp_device_claim spec;
} kp_resource_claim_template_in;

typedef struct kp_priority_class_in {
	kp_pos pos;
	const char *name, *preemption_policy, *description;
	int64_t value;
	int global_default;
} kp_priority_class_in;

typedef struct kp_pdb_in {
	kp_pos pos;
	const char *namespace_, *name, *api_version;
	const char *min_available, *max_unavailable;   /* "2" or "50%", NULL when absent */
	kp_selector selector;
	int has_status;
	int64_t disruptions_allowed, current_healthy, desired_healthy, expected_pods;
	kp_strs disrupted_pods;
} kp_pdb_in;

typedef struct kp_service_in {
	kp_pos pos;
	const char *namespace_, *name;
	int has_selector;
	kp_kvs selector;
} kp_service_in;

typedef struct kp_namespace_in {
	kp_pos pos;
	const char *name;
	kp_kvs labels;
} kp_namespace_in;

typedef struct kp_sched_config_in {
	kp_pos pos;
	const char *api_version;
	const char *json;        /* the whole document as JSON */
	unsigned doc;            /* document index in its file */
	const char *yaml;        /* its YAML, positioned as in yaml_file (ytext.h); NULL: not recoverable */
	const char *yaml_file;
} kp_sched_config_in;

/* ---- the Workload API (scheduling.k8s.io; docs/gangs.md) ---- */

/* A PodGroup (v1alpha2, v1beta1), or a Workload's pod group template. */
typedef struct kp_pod_group_in {
	kp_pos pos;
	const char *namespace_, *name, *api_version;
	const char *workload_name, *template_name;   /* the template it was made from, NULL none */
	int gang;                    /* policy gang (else basic) */
	int64_t min_count;           /* gang.minCount; 1 for basic */
	const char *topology_key;    /* schedulingConstraints, NULL none */
	const char *priority_class, *disruption_mode;
	int has_priority; int64_t priority;
} kp_pod_group_in;

/* A Workload (v1alpha1, v1alpha2, v1beta1): its templates. */
typedef struct kp_sched_workload_in {
	kp_pos pos;
	const char *namespace_, *name, *api_version;
	const char *controller_kind, *controller_name;
	kp_pod_group_in *templates; size_t ntemplates;
} kp_sched_workload_in;

#endif
