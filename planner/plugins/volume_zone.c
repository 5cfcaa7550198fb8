/*
 * volume_zone.c — VolumeZone (kube-scheduler-semantics.md §15.4;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/volumezone/
 * volume_zone.go, tests volume_zone_test.go TestSingleZone, TestMultiZone,
 * TestWithBinding).
 *
 * PreFilter (getPVbyPod): for each persistentVolumeClaim volume (not
 * ephemeral ones) the claim, and its PV when it names one — a claim without
 * a PV is skipped when its class waits for the first consumer, else the pod
 * fails with kube's text (UnschedulableAndUnresolvable); the PV's zone and
 * region labels (failure-domain.beta.kubernetes.io/{zone,region},
 * topology.kubernetes.io/{zone,region}), each value a "__"-separated set,
 * are the constraints; none: Skip.  Filter: a node without any of the four
 * labels passes; else each constraint's key (a beta key falls back to the
 * node's GA label, not the other way round) must have a value in the set:
 * "node(s) had no available volume zone", UnschedulableAndUnresolvable.
 * A claim this run bound to a PV is read as bound to it.
 */
#include "../cycle.h"
#include "../storage.h"

static int fail(kp_cycle *cy, const char *msg)
{
	cy->prefilter_msg = msg;
	cy->prefilter_plugin = KP_P_VOLUME_ZONE;
	return msg ? KP_PREFILTER_FAIL : KP_NOMEM;
}

/* the PV behind claim volume v, -1 none (skipped); < -1: failed (cy says why) */
static int32_t claim_pv(kp_cycle *cy, const kp_storage *st, const kp_podvol *v, int *rc)
{
	const kp_snap *s = cy->s;
	const char *name = kp_str(&s->strs, v->claim_name);
	*rc = KP_OK;
	if (v->claim < 0) {
		*rc = fail(cy, kp_arena_printf(&cy->arena, "persistentvolumeclaim \"%s\" not found", name));
		return -2;
	}
	const kp_claim *c = &st->claims[v->claim];
	if (c->volume_name < 0) {
		if (c->run_pv >= 0)
			return c->run_pv;
		if (c->cls_name < 0)
			*rc = fail(cy, "PersistentVolumeClaim had no pv name and storageClass name");
		else if (c->sc < 0)
			*rc = fail(cy, kp_arena_printf(&cy->arena, "storageclasses.storage.k8s.io \"%s\" not found",
						       kp_str(&s->strs, c->cls_name)));
		else if (st->classes[c->sc].wffc)
			return -1;
		else
			*rc = fail(cy, "PersistentVolume had no name");
		return -2;
	}
	if (c->pv < 0) {
		*rc = fail(cy, kp_arena_printf(&cy->arena, "persistentvolume \"%s\" not found", kp_str(&s->strs, c->volume_name)));
		return -2;
	}
	return c->pv;
}

static int has_zone_label(const kp_storage *st, const kp_labels *l)
{
	for (int k = 0; k < 4; k++)
		if (kp_labels_get(l, st->s_zone_keys[k]) >= 0)
			return 1;
	return 0;
}

static int pre_filter(kp_cycle *cy)
{
	const kp_storage *st = cy->s->st;
	if (!st || !(st->pod_kinds[cy->pi] & 1))
		return KP_SKIP;
	int any = 0;
	for (int32_t i = st->vol_off[cy->pi]; i < st->vol_off[cy->pi + 1]; i++) {
		const kp_podvol *v = &st->vols[i];
		if (v->kind != KP_VOL_PVC)
			continue;
		int rc;
		int32_t pv = claim_pv(cy, st, v, &rc);
		if (pv < -1)
			return rc;
		any |= pv >= 0 && has_zone_label(st, &st->pvs[pv].labels);
	}
	return any ? KP_OK : KP_SKIP;
}

static int filter(kp_cycle *cy, int node)
{
	if (kp_storage_zone_ok(cy->s, cy->pi, node))
		return 0;
	kp_cycle_fail(cy, node, KP_P_VOLUME_ZONE, cy->r_zone, 1);
	return 1;
}

const kp_plugin kp_plugin_volume_zone = {
	.name = "VolumeZone",
	.pre_filter = pre_filter,
	.filter = filter,
};
