/*
 * volume_restrictions.c — VolumeRestrictions (kube-scheduler-semantics.md
 * §15.1; kubernetes/kubernetes pkg/scheduler/framework/plugins/
 * volumerestrictions/volume_restrictions.go, tests volume_restrictions_test.go).
 *
 * PreFilter: every persistentVolumeClaim volume's claim must exist
 * ("persistentvolumeclaim \"x\" not found", UnschedulableAndUnresolvable);
 * Skip unless the pod has a GCE PD, AWS EBS, RBD or iSCSI volume or one of
 * its ReadWriteOncePod claims is used by a pod somewhere.  Filter: an in-tree
 * disk the node's pods already use ("node(s) had no available disk": same
 * pdName unless both read-only, same EBS volumeID always, same iSCSI iqn
 * unless both read-only, RBD sharing a monitor with the same pool/image
 * unless both read-only), then a ReadWriteOncePod claim in use anywhere
 * ("node has pod using PersistentVolumeClaim with the same name and
 * ReadWriteOncePod access mode").  Both are Unschedulable: preemption may
 * free them (the count is live here, so a dry run that removes the claim's
 * holder from its node clears it on that node only, as kube's RemovePod
 * extension does).
 */
#include "../cycle.h"
#include "../storage.h"

#include <string.h>

/* the pod's ReadWriteOncePod claims used by a placed pod */
static int rwop_in_use(const kp_storage *st, int32_t pi)
{
	for (int32_t i = st->vol_off[pi]; i < st->vol_off[pi + 1]; i++) {
		const kp_podvol *v = &st->vols[i];
		if (v->kind == KP_VOL_PVC && v->claim >= 0 && (st->claims[v->claim].modes & KP_AM_RWOP) &&
		    st->claims[v->claim].users > 0)
			return 1;
	}
	return 0;
}

static int pre_filter(kp_cycle *cy)
{
	const kp_storage *st = cy->s->st;
	if (!st || st->vol_off[cy->pi] == st->vol_off[cy->pi + 1])
		return KP_SKIP;
	for (int32_t i = st->vol_off[cy->pi]; i < st->vol_off[cy->pi + 1]; i++) {
		const kp_podvol *v = &st->vols[i];
		if (v->kind == KP_VOL_PVC && v->claim < 0) {
			cy->prefilter_msg = kp_arena_printf(&cy->arena, "persistentvolumeclaim \"%s\" not found",
							    kp_str(&cy->s->strs, v->claim_name));
			cy->prefilter_plugin = KP_P_VOLUME_RESTRICTIONS;
			return cy->prefilter_msg ? KP_PREFILTER_FAIL : KP_NOMEM;
		}
	}
	return (st->pod_kinds[cy->pi] & 4) || rwop_in_use(st, cy->pi) ? KP_OK : KP_SKIP;
}

/* the monitor lists (comma lists) share an entry */
static int share_monitor(const char *a, const char *b)
{
	for (const char *p = a; *p;) {
		size_t l = strcspn(p, ",");
		for (const char *q = b; *q;) {
			size_t m = strcspn(q, ",");
			if (l == m && !strncmp(p, q, l))
				return 1;
			q += m + (q[m] == ',');
		}
		p += l + (p[l] == ',');
	}
	return 0;
}

/* isVolumeConflict for two in-tree volumes */
static int conflict(const kp_snap *s, const kp_podvol *a, const kp_podvol *b)
{
	if (a->source != b->source || a->handle != b->handle || a->handle < 0)
		return 0;
	const char *src = kp_str(&s->strs, a->source);
	int both_ro = a->read_only && b->read_only;
	if (!strcmp(src, "awsElasticBlockStore"))
		return 1;
	if (!strcmp(src, "gcePersistentDisk") || !strcmp(src, "iscsi"))
		return !both_ro;
	if (!strcmp(src, "rbd"))
		return !both_ro && share_monitor(kp_str(&s->strs, a->monitors), kp_str(&s->strs, b->monitors));
	return 0;
}

static int filter(kp_cycle *cy, int node)
{
	const kp_snap *s = cy->s;
	const kp_storage *st = s->st;
	if (st->pod_kinds[cy->pi] & 4) {
		for (int32_t i = st->vol_off[cy->pi]; i < st->vol_off[cy->pi + 1]; i++) {
			const kp_podvol *v = &st->vols[i];
			if (v->kind != KP_VOL_INTREE)
				continue;
			for (uint32_t j = 0; j < s->nnode_pods[node]; j++) {
				int32_t q = s->node_pods[node][j];
				if (!(st->pod_kinds[q] & 4))
					continue;
				for (int32_t k = st->vol_off[q]; k < st->vol_off[q + 1]; k++)
					if (st->vols[k].kind == KP_VOL_INTREE && conflict(s, v, &st->vols[k])) {
						kp_cycle_fail(cy, node, KP_P_VOLUME_RESTRICTIONS, cy->r_disk, 0);
						return 1;
					}
			}
		}
	}
	if (rwop_in_use(st, cy->pi)) {
		kp_cycle_fail(cy, node, KP_P_VOLUME_RESTRICTIONS, cy->r_rwop, 0);
		return 1;
	}
	return 0;
}

const kp_plugin kp_plugin_volume_restrictions = {
	.name = "VolumeRestrictions",
	.pre_filter = pre_filter,
	.filter = filter,
};
