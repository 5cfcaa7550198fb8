/*
 * volume_binding.c — VolumeBinding (kube-scheduler-semantics.md §15.3;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/volumebinding/
 * volume_binding.go and binder.go, tests volume_binding_test.go and
 * binder_test.go).
 *
 * PreFilter: each claim of the pod (persistentVolumeClaim and ephemeral
 * volumes) must exist, be the pod's (ephemeral), not be Lost or being
 * deleted — else UnschedulableAndUnresolvable with kube's text; a pod
 * without claims skips the plugin.  An unbound claim that is not
 * WaitForFirstConsumer (or is pre-bound) fails the pod: "pod has unbound
 * immediate PersistentVolumeClaims".  Bound claims whose PVs name nodes by
 * kubernetes.io/hostname restrict the nodes filtered (GetEligibleNodes).
 * Filter: storage.c kp_storage_find_volumes — bound claims' PV node
 * affinity, delay-binding claims matched to an available PV (smallest that
 * fits) or provisioned (allowedTopologies, CSIStorageCapacity); every reason
 * found, UnschedulableAndUnresolvable.  Reserve (kp_storage_reserve, called
 * when the plan binds the pod): the PVs are taken and the provisioned claims
 * pinned to the node for the rest of the run.  Score: not run — kube scores
 * only with StorageCapacityScoring (default on from 1.37).
 */
#include "../cycle.h"
#include "../storage.h"

#include <stdio.h>
#include <string.h>

static int fail(kp_cycle *cy, const char *msg)
{
	cy->prefilter_msg = msg;
	cy->prefilter_plugin = KP_P_VOLUME_BINDING;
	return msg ? KP_PREFILTER_FAIL : KP_NOMEM;
}

/* podHasPVCs: the first claim that cannot be used; KP_OK, KP_SKIP (no claims) */
static int check_claims(kp_cycle *cy, const kp_storage *st)
{
	const kp_snap *s = cy->s;
	int any = 0;
	for (int32_t i = st->vol_off[cy->pi]; i < st->vol_off[cy->pi + 1]; i++) {
		const kp_podvol *v = &st->vols[i];
		if (v->kind != KP_VOL_PVC && v->kind != KP_VOL_EPHEMERAL)
			continue;
		any = 1;
		const char *name = kp_str(&s->strs, v->claim_name), *ns = kp_str(&s->strs, cy->p->ns);
		if (v->claim < 0)
			return fail(cy, kp_arena_printf(&cy->arena, v->kind == KP_VOL_EPHEMERAL
					? "waiting for ephemeral volume controller to create the persistentvolumeclaim \"%s\""
					: "persistentvolumeclaim \"%s\" not found", name));
		if (v->not_owned)
			return fail(cy, kp_arena_printf(&cy->arena, "PVC %s/%s was not created for pod %s/%s (pod is not owner)", ns,
							name, ns, kp_str(&s->strs, cy->p->name)));
		const kp_claim *c = &st->claims[v->claim];
		if (c->lost)
			return fail(cy, kp_arena_printf(&cy->arena,
							"persistentvolumeclaim \"%s\" bound to non-existent persistentvolume \"%s\"", name,
							kp_str(&s->strs, c->volume_name)));
		if (c->deleting)
			return fail(cy, kp_arena_printf(&cy->arena, "persistentvolumeclaim \"%s\" is being deleted", name));
	}
	return any ? KP_OK : KP_SKIP;
}

/* GetLocalPersistentVolumeNodeNames: per term the intersection of its
 * hostname In lists, the union over terms; into in[] (per node), 0: none */
static int local_nodes(kp_cycle *cy, const kp_pv *pv, uint8_t *in)
{
	kp_snap *s = cy->s;
	int any = 0;
	memset(in, 0, (size_t)s->nnodes);
	for (uint32_t t = 0; t < pv->nterms; t++) {
		const kp_nterm *term = &pv->terms[t];
		for (int n = 0; n < s->nnodes; n++) {
			kp_sid name = s->node_name[n];
			int seen = 0, all = 1;
			for (uint32_t e = 0; e < term->nexprs && all; e++) {
				const kp_sreq *r = &term->exprs[e];
				if (r->key != s->s_hostname || r->op != KP_OP_IN)
					continue;
				seen = 1;
				int found = 0;
				for (uint32_t k = 0; k < r->nvals && !found; k++)
					found = r->vals[k] == name;
				all = found;
			}
			if (seen && all)
				in[n] = 1;
			any |= seen;
		}
	}
	return any;
}

/* the PV's affinity has a kubernetes.io/hostname In expression */
static int names_nodes(const kp_snap *s, const kp_pv *pv)
{
	for (uint32_t t = 0; t < pv->nterms; t++)
		for (uint32_t e = 0; e < pv->terms[t].nexprs; e++)
			if (pv->terms[t].exprs[e].key == s->s_hostname && pv->terms[t].exprs[e].op == KP_OP_IN)
				return 1;
	return 0;
}

/* GetEligibleNodes as a PreFilterResult, intersected with one already made */
static int eligible_nodes(kp_cycle *cy, const kp_storage *st)
{
	kp_snap *s = cy->s;
	uint8_t *in = NULL;
	int restricted = 0;
	for (int32_t i = st->vol_off[cy->pi]; i < st->vol_off[cy->pi + 1]; i++) {
		const kp_podvol *v = &st->vols[i];
		if ((v->kind != KP_VOL_PVC && v->kind != KP_VOL_EPHEMERAL) || v->claim < 0)
			continue;
		const kp_claim *c = &st->claims[v->claim];
		int32_t pv = c->bound ? c->pv : -1;   /* the claim as bound in the API (volumeName) */
		if (pv < 0 || !names_nodes(s, &st->pvs[pv]))
			continue;
		if (!in && !(in = kp_arena_alloc(&cy->arena, (size_t)s->nnodes + 1)))
			return KP_NOMEM;
		if (!local_nodes(cy, &st->pvs[pv], in))
			continue;
		int before = cy->restrict_nodes;
		for (int n = 0; n < s->nnodes; n++)
			cy->allowed[n] = (uint8_t)(in[n] && (!cy->restrict_nodes || cy->allowed[n]));
		if (!restricted && before) {
			int any = 0;
			for (int n = 0; n < s->nnodes && !any; n++)
				any = cy->allowed[n];
			if (!any)
				return fail(cy, "node(s) didn't satisfy plugin(s) [NodeAffinity VolumeBinding] simultaneously");
		}
		cy->restrict_nodes = 1;
		restricted = 1;
	}
	if (restricted) {
		int any = 0;
		for (int n = 0; n < s->nnodes && !any; n++)
			any = cy->allowed[n];
		if (!any)
			return fail(cy, "node(s) didn't satisfy plugin VolumeBinding");
	}
	return KP_OK;
}

static int pre_filter(kp_cycle *cy)
{
	const kp_storage *st = cy->s->st;
	if (!st || !(st->pod_kinds[cy->pi] & 3))
		return KP_SKIP;
	int rc = check_claims(cy, st);
	if (rc != KP_OK)
		return rc;
	/* GetPodVolumeClaims: an unbound claim that does not wait for its
	 * first consumer, or a pre-bound one (volumeName without bind-completed) */
	for (int32_t i = st->vol_off[cy->pi]; i < st->vol_off[cy->pi + 1]; i++) {
		const kp_podvol *v = &st->vols[i];
		if (v->kind != KP_VOL_PVC && v->kind != KP_VOL_EPHEMERAL)
			continue;
		const kp_claim *c = &st->claims[v->claim];
		if (c->bound || c->run_pv >= 0)
			continue;
		if (c->volume_name >= 0 || c->sc < 0 || !st->classes[c->sc].wffc)
			return fail(cy, "pod has unbound immediate PersistentVolumeClaims");
	}
	return eligible_nodes(cy, st);
}

static int filter(kp_cycle *cy, int node)
{
	int r = kp_storage_find_volumes(cy->s, cy->pi, node, NULL);
	if (!r)
		return 0;
	if (r & KP_VB_NODE_CONFLICT)
		kp_cycle_fail(cy, node, KP_P_VOLUME_BINDING, cy->r_vb_node, 1);
	if (r & KP_VB_BIND_CONFLICT)
		kp_cycle_fail(cy, node, KP_P_VOLUME_BINDING, cy->r_vb_bind, 1);
	if (r & KP_VB_NOT_ENOUGH_SPACE)
		kp_cycle_fail(cy, node, KP_P_VOLUME_BINDING, cy->r_vb_space, 1);
	if (r & KP_VB_PV_NOT_EXIST)
		kp_cycle_fail(cy, node, KP_P_VOLUME_BINDING, cy->r_vb_pv, 1);
	return 1;
}

const kp_plugin kp_plugin_volume_binding = {
	.name = "VolumeBinding",
	.pre_filter = pre_filter,
	.filter = filter,
};
