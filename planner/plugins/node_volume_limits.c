/*
 * node_volume_limits.c — NodeVolumeLimits, kube's CSILimits
 * (kube-scheduler-semantics.md §15.2; kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/nodevolumelimits/csi.go, tests
 * csi_test.go TestCSILimits).
 *
 * PreFilter: Skip unless the pod has a claim, an ephemeral volume or an
 * in-tree volume CSI migration moves (AWS EBS, GCE PD, Azure Disk, Cinder).
 * Filter: the pod's volumes as the node counts them (storage.c
 * kp_storage_volkey: a bound claim by its PV's driver and handle, an unbound
 * one by its class's provisioner, in-tree AWS EBS, GCE PD, Azure Disk and
 * Cinder ones as their CSI driver on nodes that have a CSINode — kube's
 * isCSIMigrationOn in nodevolumelimits/utils.go), less those a pod on the
 * node already uses;
 * for each driver with a CSINode allocatable count, the node's unique
 * volumes plus the new ones above the count: "node(s) exceed max volume
 * count", Unschedulable.  A claim the new pod needs that does not exist:
 * "looking up PVC ns/name: persistentvolumeclaims \"name\" not found",
 * UnschedulableAndUnresolvable (the other volume plugins' PreFilter reports
 * it first in the default profile).
 * Not modelled: VolumeAttachment objects (kube ≥ 1.33 counts them too) and
 * VolumeLimitScaling's "CSI driver is not installed on the node" (1.37).
 */
#include "../cycle.h"
#include "../storage.h"
#include "../static.h"   /* kp_reason_intern */

static int pre_filter(kp_cycle *cy)
{
	const kp_storage *st = cy->s->st;
	return st && (st->pod_kinds[cy->pi] & 8) ? KP_OK : KP_SKIP;
}

static int filter(kp_cycle *cy, int node)
{
	kp_snap *s = cy->s;
	const kp_storage *st = s->st;
	int32_t first = st->vol_off[cy->pi], nv = st->vol_off[cy->pi + 1] - first;
	kp_volkey *keys = st->keys;
	int nkeys = 0;
	for (int32_t i = 0; i < nv; i++) {
		const kp_podvol *v = &st->vols[first + i];
		if ((v->kind == KP_VOL_PVC || v->kind == KP_VOL_EPHEMERAL) && v->claim < 0) {
			const char *name = kp_str(&s->strs, v->claim_name);
			char *msg = kp_arena_printf(&cy->arena, "looking up PVC %s/%s: persistentvolumeclaims \"%s\" not found",
						    kp_str(&s->strs, cy->p->ns), name, name);
			int r = msg ? kp_reason_intern(s, kp_plugin_names[KP_P_NODE_VOLUME_LIMITS], msg, 1) : -1;
			if (r < 0)
				return 1;
			kp_cycle_fail(cy, node, KP_P_NODE_VOLUME_LIMITS, r, 1);
			return 1;
		}
		kp_volkey k = kp_storage_volkey(s, v, node);
		if (k.unique < 0 || kp_storage_node_refs(s, node, k.unique) > 0)
			continue;
		int dup = 0;
		for (int j = 0; j < nkeys && !dup; j++)
			dup = keys[j].unique == k.unique;
		if (!dup)
			keys[nkeys++] = k;
	}
	if (!nkeys || st->limit_off[node] == st->limit_off[node + 1])
		return 0;
	for (int j = 0; j < nkeys; j++) {
		int64_t limit = kp_storage_limit(s, node, keys[j].driver);
		if (limit < 0)
			continue;
		int64_t more = 0;
		for (int k = 0; k < nkeys; k++)
			more += keys[k].driver == keys[j].driver;
		if (kp_storage_node_count(s, node, keys[j].driver) + more > limit) {
			kp_cycle_fail(cy, node, KP_P_NODE_VOLUME_LIMITS, cy->r_max_volumes, 0);
			return 1;
		}
	}
	return 0;
}

const kp_plugin kp_plugin_node_volume_limits = {
	.name = "NodeVolumeLimits",
	.pre_filter = pre_filter,
	.filter = filter,
};
