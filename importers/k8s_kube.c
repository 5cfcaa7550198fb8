/*
 * k8s_kube.c — the inputs of kube-scheduler's version-dependent rules
 * (docs/kube-versions.md), read here and applied by the planner per
 * version: a pod's pod-level resources (spec.resources, PodLevelResources
 * 1.34+), its containers' status resources and resize condition (in-place
 * resize, InPlacePodVerticalScaling 1.33+), the node features it requires
 * (NodeDeclaredFeatures 1.36+), and a node's status.declaredFeatures.
 */
#include "k8s_int.h"

#include <stdio.h>
#include <string.h>

static int cmp_str(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* spec.resources (pod level): requests and limits */
int kp_k8s_get_pod_resources(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	const kp_ynode *res;
	if (kp_k8s_get_map(c, spec, "resources", "spec.resources", &res) != KP_OK ||
	    kp_k8s_get_resources(c, res, "requests", "spec.resources.requests", &pod->pod_requests) != KP_OK ||
	    kp_k8s_get_resources(c, res, "limits", "spec.resources.limits", &pod->pod_limits) != KP_OK)
		return KP_PARSE;
	return KP_OK;
}

/* The node features a pod requires, as kube's node-declared-features
 * registry infers them for scheduling (component-helpers/
 * nodedeclaredfeatures/features/<name>, InferForScheduling; read in the
 * copies docs/kube-versions.md §3 names).  Every rule kplan knows is
 * inferred here, whatever the version; the planner drops the ones the
 * planned version's registry does not have (common/kube.c
 * kp_kube_ndf_minor).  The names, sorted as kube's FeatureSet lists them: */
enum {
	F_CGROUP_OPTIONS, F_CONTAINER_ULIMITS, F_DOWNWARD_API_ASSIGNED, F_PER_POD_PID_LIMIT, F_POD_CERT_MLDSA,
	F_POD_DEFAULT_NETWORK_NONE, F_RESTART_ALL, F_SECURITY_PROFILE_OCI, F_USERNS_HOST_NETWORK,
	F_VOLUME_BIND_MOUNT_OPTIONS, F_COUNT
};
static const char *const feature_names[F_COUNT] = {
	"CgroupOptions", "ContainerUlimits", "DownwardAPIAssignedResources", "PerPodPIDLimit", "PodCertificateMLDSA",
	"PodDefaultNetworkNone", "RestartAllContainersOnContainerExits", "SecurityProfileOCI",
	"UserNamespacesHostNetworkSupport", "VolumeBindMountOptions",
};

/* a field that is set (present, not null) */
static const kp_ynode *field(const kp_ynode *m, const char *key)
{
	const kp_ynode *v = m && m->type == KP_Y_MAP ? kp_ymap_get(m, key) : NULL;
	return v && !kp_ynode_is_null(v) ? v : NULL;
}

static int scalar_is(const kp_ynode *n, const char *text)
{
	return n && n->type == KP_Y_SCALAR && !strcmp(n->u.str, text);
}

static size_t seq_len(const kp_ynode *n)
{
	return n && n->type == KP_Y_SEQ ? n->n : 0;
}

/* a seccompProfile of type OCI in a (pod or container) securityContext */
static int seccomp_oci(const kp_ynode *sc)
{
	return scalar_is(field(field(sc, "seccompProfile"), "type"), "OCI");
}

/* the rules of one container; kind 0 containers, 1 initContainers, 2 ephemeralContainers */
static unsigned container_features(const kp_ynode *ctr, int kind)
{
	unsigned f = 0;
	const kp_ynode *rules = field(ctr, "restartPolicyRules"), *mounts = field(ctr, "volumeMounts");
	const kp_ynode *sc = field(ctr, "securityContext");
	for (size_t j = 0; kind < 2 && j < seq_len(rules); j++)   /* restartallcontainers */
		if (scalar_is(field(rules->u.items[j], "action"), "RestartAllContainers"))
			f |= 1u << F_RESTART_ALL;
	for (size_t j = 0; j < seq_len(mounts); j++)   /* volumebindmountoptions: len(BindMountOptions) > 0 */
		if (seq_len(field(mounts->u.items[j], "bindMountOptions")))
			f |= 1u << F_VOLUME_BIND_MOUNT_OPTIONS;
	if (field(sc, "ulimits"))   /* containerulimits: SecurityContext.Ulimits != nil */
		f |= 1u << F_CONTAINER_ULIMITS;
	if (kind < 2 && field(field(sc, "cgroupOptions"), "mountMode"))   /* cgroupoptions: MountMode != nil */
		f |= 1u << F_CGROUP_OPTIONS;
	if (seccomp_oci(sc))   /* securityprofileoci */
		f |= 1u << F_SECURITY_PROFILE_OCI;
	return f;
}

/* the rules of spec.volumes: downwardapiassignedresources (an item's
 * resourceFieldRef.resource "assigned.cpuset", in a downwardAPI volume or a
 * projected volume's downwardAPI source), podcertificatesmldsa (a projected
 * podCertificate source of keyType MLDSA44, MLDSA65 or MLDSA87) */
static int assigned_cpuset(const kp_ynode *downward_api)
{
	const kp_ynode *items = field(downward_api, "items");
	for (size_t j = 0; j < seq_len(items); j++)
		if (scalar_is(field(field(items->u.items[j], "resourceFieldRef"), "resource"), "assigned.cpuset"))
			return 1;
	return 0;
}

static unsigned volume_features(const kp_ynode *spec)
{
	unsigned f = 0;
	const kp_ynode *vols = field(spec, "volumes");
	for (size_t i = 0; i < seq_len(vols); i++) {
		const kp_ynode *srcs = field(field(vols->u.items[i], "projected"), "sources");
		if (assigned_cpuset(field(vols->u.items[i], "downwardAPI")))
			f |= 1u << F_DOWNWARD_API_ASSIGNED;
		for (size_t k = 0; k < seq_len(srcs); k++) {
			const kp_ynode *kt = field(field(srcs->u.items[k], "podCertificate"), "keyType");
			if (assigned_cpuset(field(srcs->u.items[k], "downwardAPI")))
				f |= 1u << F_DOWNWARD_API_ASSIGNED;
			if (scalar_is(kt, "MLDSA44") || scalar_is(kt, "MLDSA65") || scalar_is(kt, "MLDSA87"))
				f |= 1u << F_POD_CERT_MLDSA;
		}
	}
	return f;
}

int kp_k8s_infer_features(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	static const char *const lists[] = { "containers", "initContainers", "ephemeralContainers" };
	unsigned f = volume_features(spec);
	for (int l = 0; l < 3; l++) {
		const kp_ynode *seq = field(spec, lists[l]);
		for (size_t i = 0; i < seq_len(seq); i++)
			f |= container_features(seq->u.items[i], l);
	}
	/* usernamespaceshostnetwork: HostNetwork && HostUsers != nil && !*HostUsers */
	if (scalar_is(field(spec, "hostNetwork"), "true") && scalar_is(field(spec, "hostUsers"), "false"))
		f |= 1u << F_USERNS_HOST_NETWORK;
	if (field(field(field(spec, "resources"), "limits"), "pid"))   /* perpodpidlimit: Resources.Limits[pid] */
		f |= 1u << F_PER_POD_PID_LIMIT;
	if (scalar_is(field(spec, "defaultNetwork"), "None"))   /* poddefaultnetworknone */
		f |= 1u << F_POD_DEFAULT_NETWORK_NONE;
	if (seccomp_oci(field(spec, "securityContext")))
		f |= 1u << F_SECURITY_PROFILE_OCI;
	if (!f)
		return KP_OK;
	pod->features.v = kp_arena_alloc(c->a, F_COUNT * sizeof *pod->features.v);
	if (!pod->features.v)
		return kp_k8s_nomem(c);
	for (int k = 0; k < F_COUNT; k++)
		if (f & 1u << k)
			pod->features.v[pod->features.n++] = feature_names[k];
	return KP_OK;
}

/* one of containerStatuses / initContainerStatuses: the entries with resources */
static int read_statuses(kctx *c, const kp_ynode *status, const char *key, int init, kp_pod_in *pod, size_t *k)
{
	const kp_ynode *seq;
	char p[PATHMAX], q[PATHMAX + 64];
	snprintf(p, sizeof p, "status.%s", key);
	if (kp_k8s_get_seq(c, status, key, p, &seq) != KP_OK)
		return KP_PARSE;
	for (size_t i = 0; seq && i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i], *res;
		snprintf(p, sizeof p, "status.%s[%zu]", key, i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		snprintf(q, sizeof q, "%s.resources", p);
		if (kp_k8s_get_map(c, e, "resources", q, &res) != KP_OK)
			return KP_PARSE;
		if (!res)   /* helpers.go: only an entry with resources != nil counts */
			continue;
		kp_ctr_status *s = &pod->statuses[(*k)++];
		memset(s, 0, sizeof *s);
		s->init = init;
		snprintf(q, sizeof q, "%s.name", p);
		if (kp_k8s_get_str(c, e, "name", q, &s->name) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.resources.requests", p);
		if (kp_k8s_get_resources(c, res, "requests", q, &s->requests) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.allocatedResources", p);
		if (kp_k8s_get_resources(c, e, "allocatedResources", q, &s->allocated) != KP_OK)
			return KP_PARSE;
	}
	return KP_OK;
}

/* status.containerStatuses[] and initContainerStatuses[] with resources,
 * and the PodResizePending condition's reason Infeasible */
int kp_k8s_get_resize_status(kctx *c, const kp_ynode *status, kp_pod_in *pod)
{
	const kp_ynode *a = kp_ymap_get(status, "containerStatuses"), *b = kp_ymap_get(status, "initContainerStatuses");
	size_t cap = (a && a->type == KP_Y_SEQ ? a->n : 0) + (b && b->type == KP_Y_SEQ ? b->n : 0), k = 0;
	if (cap && !(pod->statuses = kp_arena_alloc(c->a, cap * sizeof *pod->statuses)))
		return kp_k8s_nomem(c);
	if (read_statuses(c, status, "containerStatuses", 0, pod, &k) != KP_OK ||
	    read_statuses(c, status, "initContainerStatuses", 1, pod, &k) != KP_OK)
		return KP_PARSE;
	pod->nstatuses = k;
	pod->pod_status_resources = kp_ymap_get(status, "resources") != NULL;
	const kp_ynode *conds;
	if (kp_k8s_get_seq(c, status, "conditions", "status.conditions", &conds) != KP_OK)
		return KP_PARSE;
	for (size_t i = 0; conds && i < conds->n; i++) {
		const kp_ynode *t = kp_ymap_get(conds->u.items[i], "type"), *r = kp_ymap_get(conds->u.items[i], "reason");
		if (t && t->type == KP_Y_SCALAR && !strcmp(t->u.str, "PodResizePending") && r && r->type == KP_Y_SCALAR &&
		    !strcmp(r->u.str, "Infeasible"))
			pod->resize_infeasible = 1;
	}
	return KP_OK;
}

/* status.declaredFeatures of a node, sorted */
int kp_k8s_get_declared_features(kctx *c, const kp_ynode *status, kp_node_in *n)
{
	if (kp_k8s_get_strs(c, status, "declaredFeatures", "status.declaredFeatures", &n->declared_features) != KP_OK)
		return KP_PARSE;
	if (n->declared_features.n > 1)
		kp_sort(n->declared_features.v, n->declared_features.n, sizeof *n->declared_features.v, cmp_str, NULL);
	return KP_OK;
}
