/*
 * storage.c — the volume rules the four volume plugins share (storage.h;
 * kube-scheduler-semantics.md §15): which volumes a node counts against its
 * CSI attach limits (nodevolumelimits/csi.go filterAttachableVolumes), kept
 * current as pods come and go; a PV's node affinity (with CSI migration's
 * topology translation, csi-translation-lib); VolumeBinding's FindPodVolumes
 * (volumebinding/binder.go: checkBoundClaims, findMatchingVolumes with
 * component-helpers' FindMatchingVolume, checkVolumeProvisions,
 * hasEnoughCapacity) and its Reserve (AssumePodVolumes) for a batch run.
 */
#include "storage.h"
#include "cycle.h"     /* kp_dmap, kp_nterm_matches */

#include <string.h>

/* attach counts: (node, unique volume) -> pods on the node using it;
 * (node, driver) -> unique volumes on the node */
typedef struct kp_vcount { kp_dmap refs, drivers; } kp_vcount;

/* csi-translation-lib's topology keys of the migrated drivers */
static const char *const it_topology_key[KP_IT_COUNT] = {
	"topology.ebs.csi.aws.com/zone", "topology.gke.io/zone", "topology.disk.csi.azure.com/zone",
	"topology.cinder.csi.openstack.org/zone",
};

/* VolumeBinding (binder.go isCSIMigrationOnForPlugin): the node's CSINode
 * lists the plugin in its migrated-plugins annotation */
static int migrated(const kp_storage *st, int8_t it, int n)
{
	return it >= 0 && (st->migrated[n] >> it) & 1;
}

/* NodeVolumeLimits (nodevolumelimits/utils.go isCSIMigrationOn): for AWS
 * EBS, GCE PD, Azure Disk and Cinder, migration is complete — the node
 * having a CSINode is enough, the annotation is not read */
static int counted_migrated(const kp_storage *st, int8_t it, int n)
{
	return it >= 0 && st->csinode[n];
}

kp_volkey kp_storage_volkey(const kp_snap *s, const kp_podvol *v, int n)
{
	const kp_storage *st = s->st;
	kp_volkey none = { -1, -1 };
	if (v->kind == KP_VOL_INTREE)
		return counted_migrated(st, v->intree, n) ? (kp_volkey){ v->handle, st->it_driver[v->intree] } : none;
	if ((v->kind != KP_VOL_PVC && v->kind != KP_VOL_EPHEMERAL) || v->claim < 0 || v->not_owned)
		return none;
	const kp_claim *c = &st->claims[v->claim];
	if (c->volume_name >= 0 && c->pv >= 0) {
		const kp_pv *pv = &st->pvs[c->pv];
		if (pv->csi)
			return (kp_volkey){ pv->unique, pv->driver };
		return counted_migrated(st, pv->intree, n) ? (kp_volkey){ pv->unique, pv->driver } : none;
	}
	/* getCSIDriverInfoFromSC: by the claim's class */
	if (c->sc < 0)
		return none;
	const kp_sclass *sc = &st->classes[c->sc];
	if (sc->intree >= 0 && !counted_migrated(st, sc->intree, n))
		return none;
	return (kp_volkey){ c->unique, sc->csi_driver };
}

int64_t kp_storage_node_refs(const kp_snap *s, int n, kp_sid u)
{
	int64_t *v = s->st->vc ? kp_dmap_get(&s->st->vc->refs, kp_pair_key(n, u)) : NULL;
	return v ? *v : 0;
}

int64_t kp_storage_node_count(const kp_snap *s, int n, kp_sid d)
{
	int64_t *v = s->st->vc ? kp_dmap_get(&s->st->vc->drivers, kp_pair_key(n, d)) : NULL;
	return v ? *v : 0;
}

int64_t kp_storage_limit(const kp_snap *s, int n, kp_sid d)
{
	const kp_storage *st = s->st;
	for (int32_t i = st->limit_off[n]; i < st->limit_off[n + 1]; i++)
		if (st->limit_drv[i] == d)
			return st->limit_cnt[i];
	return -1;
}

/* kp_snap_volumes_moved (snapshot.h): pod pi came to (delta 1) or left
 * (delta -1) node n: its claims' users and the node's attach counts */
int kp_snap_volumes_moved(kp_snap *s, int32_t pi, int n, int delta)
{
	kp_storage *st = s->st;
	if (!st->vc) {
		st->vc = kp_calloc(1, sizeof *st->vc);
		if (!st->vc || kp_dmap_init(&st->vc->refs, 256) || kp_dmap_init(&st->vc->drivers, 256))
			return KP_NOMEM;
	}
	for (int32_t i = st->vol_off[pi]; i < st->vol_off[pi + 1]; i++) {
		const kp_podvol *v = &st->vols[i];
		if (v->kind == KP_VOL_PVC && v->claim >= 0)
			st->claims[v->claim].users += delta;
		kp_volkey k = kp_storage_volkey(s, v, n);
		if (k.unique < 0)
			continue;
		int64_t *r = kp_dmap_put(&st->vc->refs, kp_pair_key(n, k.unique));
		int64_t *d = kp_dmap_put(&st->vc->drivers, kp_pair_key(n, k.driver));
		if (!r || !d)
			return KP_NOMEM;
		if (delta > 0 && (*r)++ == 0)
			(*d)++;
		else if (delta < 0 && *r > 0 && --(*r) == 0)
			(*d)--;
	}
	return KP_OK;
}

int32_t kp_storage_claim_pv(const kp_storage *st, const kp_claim *c)
{
	(void)st;
	if (c->run_pv >= 0)
		return c->run_pv;
	return c->bound ? c->pv : -1;
}

/* ---- VolumeZone ---- */

/* value is one of the "__"-separated entries of set (LabelZonesToSet) */
static int in_zone_set(const char *set, const char *value)
{
	size_t wl = strlen(value);
	for (const char *p = set;;) {
		const char *e = strstr(p, "__");
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l == wl && !strncmp(p, value, l))
			return 1;
		if (!e)
			return 0;
		p = e + 2;
	}
}

int kp_storage_zone_ok(const kp_snap *s, int32_t pi, int n)
{
	const kp_storage *st = s->st;
	const kp_labels *nl = &s->node_labels[n];
	if (!st->zoned[n])
		return 1;   /* a node without zone or region labels: single-zone clusters */
	for (int32_t i = st->vol_off[pi]; i < st->vol_off[pi + 1]; i++) {
		const kp_podvol *v = &st->vols[i];
		if (v->kind != KP_VOL_PVC || v->claim < 0)
			continue;
		const kp_claim *c = &st->claims[v->claim];
		int32_t pv = c->volume_name >= 0 ? c->pv : c->run_pv;
		if (pv < 0)
			continue;
		for (int k = 0; k < 4; k++) {
			kp_sid want = kp_labels_get(&st->pvs[pv].labels, st->s_zone_keys[k]);
			if (want < 0)
				continue;
			kp_sid have = kp_labels_get(nl, st->s_zone_keys[k]);
			if (have < 0 && k < 2)
				have = kp_labels_get(nl, st->s_zone_keys[k + 2]);   /* a beta key: the node's GA label */
			if (have < 0 || !in_zone_set(kp_str(&s->strs, want), kp_str(&s->strs, have)))
				return 0;
		}
	}
	return 1;
}

/* ---- node affinity ---- */

/* the in-tree PV's zone label (GA, else beta) as a set, split on "__" */
static int zone_in_label(const kp_snap *s, const kp_pv *pv, kp_sid value)
{
	const kp_storage *st = s->st;
	kp_sid z = kp_labels_get(&pv->labels, st->s_zone_keys[2]);
	if (z < 0)
		z = kp_labels_get(&pv->labels, st->s_zone_keys[0]);
	if (z < 0)
		return -1;
	return value >= 0 && in_zone_set(kp_str(&s->strs, z), kp_str(&s->strs, value));
}

static int affinity_matches(kp_snap *s, const kp_pv *pv, int n)
{
	return !pv->has_affinity || kp_nterms_any(s, pv->terms, pv->nterms, n);
}

int kp_storage_pv_fits_node(kp_snap *s, int32_t pvi, int n)
{
	kp_storage *st = s->st;
	kp_pv *pv = &st->pvs[pvi];
	if (!pv->nodes_ok) {
		size_t words = ((size_t)s->nnodes + 63) / 64;
		pv->nodes_ok = kp_arena_alloc(&s->arena, (words ? words : 1) * sizeof *pv->nodes_ok);
		if (!pv->nodes_ok)
			return affinity_matches(s, pv, n);
		memset(pv->nodes_ok, 0, (words ? words : 1) * sizeof *pv->nodes_ok);
		for (int i = 0; i < s->nnodes; i++)
			if (affinity_matches(s, pv, i))
				pv->nodes_ok[i >> 6] |= 1ULL << (i & 63);
	}
	if (!kp_bit(pv->nodes_ok, n))
		return 0;
	/* CSI migration on this node: an in-tree PV without affinity of its own
	 * is translated with its zone label as the driver's topology
	 * (translateTopologyFromInTreeToCSI) */
	if (pv->intree >= 0 && !pv->has_affinity && migrated(st, pv->intree, n)) {
		kp_sid key = kp_strtab_find(&s->strs, it_topology_key[pv->intree]);
		kp_sid v = key >= 0 ? kp_labels_get(&s->node_labels[n], key) : -1;
		return zone_in_label(s, pv, v) != 0;
	}
	return 1;
}

/* ---- FindPodVolumes ---- */

/* the candidates of claim ci (FindMatchingVolume's checks that do not
 * depend on the node): the first PV pre-bound to it that is big enough, of
 * its volume mode and not being deleted, alone; else every available PV of
 * its class that matches it, smallest first (by name among equals: kube's
 * cache order is a map's).  KP_OK or KP_NOMEM. */
static int candidates(kp_snap *s, int32_t ci)
{
	kp_storage *st = s->st;
	kp_claim *c = &st->claims[ci];
	if (c->cand && c->cand_gen == st->gen)
		return KP_OK;
	int32_t n = 0, cap = 0, *v = NULL;
	c->cand_prebound = 0;
	for (int32_t i = 0; i < st->npvs; i++) {
		const kp_pv *pv = &st->pvs[i];
		if (pv->cls != c->cls_name)
			continue;
		int to_claim = pv->taken >= 0 ? pv->taken == ci
			       : pv->claim_name >= 0 ? pv->claim_ns == c->ns && pv->claim_name == c->name : -1;
		if (!to_claim)
			continue;   /* claimRef to another claim (or assumed by one this run) */
		if (pv->capacity < c->request || pv->block != c->block || pv->deleting || pv->attr_class != c->attr_class)
			continue;
		if (to_claim == 1) {
			n = 0;
			c->cand_prebound = 1;
		} else if (!pv->available || (c->has_selector && !kp_sel_match(&c->selector, &pv->labels, &s->strs)) ||
			   (c->modes & pv->modes) != c->modes) {
			continue;
		}
		if (KP_GROW(v, n, cap, 16)) {
			kp_free(v);
			return KP_NOMEM;
		}
		/* insertion by capacity, stable */
		int32_t j = n++;
		while (j > 0 && st->pvs[v[j - 1]].capacity > pv->capacity) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = i;
		if (c->cand_prebound)
			break;
	}
	kp_free(c->cand);
	c->cand = v ? v : kp_malloc(sizeof *c->cand);
	c->ncand = n;
	c->cand_gen = st->gen;
	return c->cand ? KP_OK : KP_NOMEM;
}

/* FindMatchingVolume (pv_helpers.go) for claim ci on node n, skipping the
 * PVs in chosen[0..nchosen): the PV pre-bound to the claim if its affinity
 * fits (else none), else the smallest matching available one that fits;
 * -1 none, < -1 out of memory */
static int32_t match_volume(kp_snap *s, int32_t ci, int n, const int32_t *chosen, int nchosen)
{
	if (candidates(s, ci))
		return -2;
	const kp_claim *c = &s->st->claims[ci];
	for (int32_t k = 0; k < c->ncand; k++) {
		int32_t i = c->cand[k];
		int skip = 0;
		for (int j = 0; j < nchosen && !skip; j++)
			skip = chosen[j] == i;
		if (skip)
			continue;
		if (kp_storage_pv_fits_node(s, i, n))
			return i;
		if (c->cand_prebound)
			return -1;
	}
	return -1;
}

/* hasEnoughCapacity: some capacity object of the class matches the node
 * (nodeTopology) with a limit of at least the request; the largest such
 * limit per node is kept for the run (node labels do not change) */
static int enough_capacity(kp_snap *s, const kp_claim *c, kp_sclass *sc, int n)
{
	if (c->request <= 0 || !sc->capacity_tracking)
		return 1;
	const kp_storage *st = s->st;
	if (!sc->cap_max) {
		sc->cap_max = kp_arena_alloc(&s->arena, ((size_t)s->nnodes + 1) * sizeof *sc->cap_max);
		if (!sc->cap_max)
			goto scan;   /* out of memory: each time, as kube does */
		for (int m = 0; m < s->nnodes; m++) {
			sc->cap_max[m] = -1;
			for (int32_t i = sc->cap_first; i < sc->cap_first + sc->cap_n; i++)
				if (st->caps[i].limit > sc->cap_max[m] && kp_sel_match(&st->caps[i].topo, &s->node_labels[m], &s->strs))
					sc->cap_max[m] = st->caps[i].limit;
		}
	}
	return sc->cap_max[n] >= c->request;
scan:
	for (int32_t i = sc->cap_first; i < sc->cap_first + sc->cap_n; i++)
		if (st->caps[i].limit >= c->request && kp_sel_match(&st->caps[i].topo, &s->node_labels[n], &s->strs))
			return 1;
	return 0;
}

/* checkVolumeProvisions for one claim: 0 ok, KP_VB_BIND_CONFLICT or KP_VB_NOT_ENOUGH_SPACE */
static int provision_check(kp_snap *s, const kp_claim *c, int n)
{
	if (c->sc < 0)
		return KP_VB_BIND_CONFLICT;   /* kube: an error (no class, class not found); a delay-binding claim has one */
	kp_sclass *sc = &s->st->classes[c->sc];
	if (sc->no_provisioner)
		return KP_VB_BIND_CONFLICT;
	if (sc->nterms && !kp_nterms_any(s, sc->terms, sc->nterms, n))
		return KP_VB_BIND_CONFLICT;
	return enough_capacity(s, c, sc, n) ? 0 : KP_VB_NOT_ENOUGH_SPACE;
}

/* a delay-binding claim still to decide: unbound (also by this run), no volumeName */
static int delay_claim(const kp_storage *st, const kp_claim *c)
{
	return kp_storage_claim_pv(st, c) < 0 && c->volume_name < 0 && c->sc >= 0 && st->classes[c->sc].wffc;
}

int kp_storage_find_volumes(kp_snap *s, int32_t pi, int n, int32_t *pv_out)
{
	kp_storage *st = s->st;
	int node_conflict = 0, bind_conflict = 0, no_space = 0, pv_missing = 0;
	int32_t first = st->vol_off[pi], nv = st->vol_off[pi + 1] - first;
	/* bound claims: stop at the first that fails */
	for (int32_t i = 0; i < nv; i++) {
		const kp_podvol *v = &st->vols[first + i];
		if (pv_out)
			pv_out[i] = -1;
		if ((v->kind != KP_VOL_PVC && v->kind != KP_VOL_EPHEMERAL) || v->claim < 0)
			continue;
		const kp_claim *c = &st->claims[v->claim];
		if (!c->bound && c->run_pv < 0)
			continue;
		int32_t pv = kp_storage_claim_pv(st, c);
		if (pv < 0) {
			pv_missing = 1;
			break;
		}
		if (!kp_storage_pv_fits_node(s, pv, n)) {
			node_conflict = 1;
			break;
		}
	}
	/* delay-binding claims: a selected node, else a matching PV (smallest
	 * request first), else provisioning */
	int32_t *match = st->scr, *chosen = st->scr + st->maxv, *prov = st->scr + 2 * st->maxv;
	int32_t nmatch = 0, nchosen = 0, nprov = 0;
	for (int32_t i = 0; i < nv; i++) {
		const kp_podvol *v = &st->vols[first + i];
		if ((v->kind != KP_VOL_PVC && v->kind != KP_VOL_EPHEMERAL) || v->claim < 0)
			continue;
		const kp_claim *c = &st->claims[v->claim];
		if (!delay_claim(st, c))
			continue;
		int sel = c->run_node >= 0 ? c->run_node : c->selected_node;
		if (c->run_node >= 0 || c->selected_node_name >= 0) {
			if (sel != n) {
				bind_conflict = 1;
				goto out;
			}
			prov[nprov++] = i;
		} else {
			/* insertion by request, stable */
			int j = nmatch++;
			while (j > 0 && st->claims[st->vols[first + match[j - 1]].claim].request > c->request) {
				match[j] = match[j - 1];
				j--;
			}
			match[j] = i;
		}
	}
	for (int32_t k = 0; k < nmatch; k++) {
		int32_t i = match[k], ci = st->vols[first + i].claim;
		int32_t pv = match_volume(s, ci, n, chosen, nchosen);
		if (pv < -1)
			pv = -1;   /* out of memory: as no match (the plan fails later on the same allocation) */
		if (pv >= 0) {
			chosen[nchosen++] = pv;
			if (pv_out)
				pv_out[i] = pv;
		} else {
			bind_conflict = 1;
			prov[nprov++] = i;
		}
	}
	if (nprov) {
		bind_conflict = 0;
		for (int32_t k = 0; k < nprov; k++) {
			int r = provision_check(s, &st->claims[st->vols[first + prov[k]].claim], n);
			if (r == KP_VB_BIND_CONFLICT)
				bind_conflict = 1;
			else if (r)
				no_space = 1;
			if (r)
				break;
		}
	}
out:
	return (node_conflict ? KP_VB_NODE_CONFLICT : 0) | (bind_conflict ? KP_VB_BIND_CONFLICT : 0) |
	       (no_space ? KP_VB_NOT_ENOUGH_SPACE : 0) | (pv_missing ? KP_VB_PV_NOT_EXIST : 0);
}

static int decide(kp_storage *st, int32_t pi, int32_t ci, int32_t pv, int n)
{
	if (KP_GROW(st->dec, st->ndec, st->cap_dec, 16))
		return KP_NOMEM;
	st->dec[st->ndec++] = (kp_vdecision){ pi, ci, pv, n };
	return KP_OK;
}

int kp_storage_reserve(kp_snap *s, int32_t pi, int n)
{
	kp_storage *st = s->st;
	if (!st || !(st->pod_kinds[pi] & 3))
		return KP_OK;
	int32_t first = st->vol_off[pi], nv = st->vol_off[pi + 1] - first;
	int32_t *pv_out = st->scr + 3 * st->maxv, *delay = st->scr + 4 * st->maxv;
	int rc = KP_OK;
	/* the delay-binding claims to decide, as Filter chose on this node */
	for (int32_t i = 0; i < nv; i++) {
		const kp_podvol *v = &st->vols[first + i];
		delay[i] = (v->kind == KP_VOL_PVC || v->kind == KP_VOL_EPHEMERAL) && v->claim >= 0 &&
			  delay_claim(st, &st->claims[v->claim]);
	}
	kp_storage_find_volumes(s, pi, n, pv_out);
	for (int32_t i = 0; i < nv && !rc; i++) {
		if (!delay[i])
			continue;
		int32_t ci = st->vols[first + i].claim;
		kp_claim *c = &st->claims[ci];
		if (c->run_pv >= 0 || c->run_node >= 0)
			continue;   /* the same claim twice in one pod */
		if (pv_out[i] >= 0) {
			c->run_pv = pv_out[i];
			st->pvs[pv_out[i]].taken = ci;
			st->gen++;   /* every claim's candidates may have held it */
		} else {
			c->run_node = n;
		}
		rc = decide(st, pi, ci, pv_out[i], n);
	}
	return rc;
}

void kp_snap_storage_release(kp_snap *s)
{
	kp_storage *st = s->st;
	if (!st)
		return;
	if (st->vc) {
		kp_dmap_release(&st->vc->refs);
		kp_dmap_release(&st->vc->drivers);
		kp_free(st->vc);
	}
	kp_free(st->dec);
	for (int i = 0; i < st->nclaims; i++)
		kp_free(st->claims[i].cand);
	st->vc = NULL;
	st->dec = NULL;
}

/* ---- what pins a pod ---- */

int kp_storage_node_possible(kp_snap *s, int32_t pi, int n)
{
	if (!s->st || !(s->st->pod_kinds[pi] & 3))
		return 1;
	return !kp_storage_find_volumes(s, pi, n, NULL) && kp_storage_zone_ok(s, pi, n);
}

/* "zone a" for a PV's zone label, else its node affinity */
static void pv_pin(kp_sb *sb, const kp_snap *s, const kp_pv *pv)
{
	const kp_storage *st = s->st;
	for (int k = 2; k >= 0; k -= 2) {
		kp_sid z = kp_labels_get(&pv->labels, st->s_zone_keys[k]);
		if (z >= 0) {
			kp_sb_printf(sb, "zone %s", kp_str(&s->strs, z));
			return;
		}
	}
	kp_sb_adds(sb, "nodes with ");
	kp_storage_terms_text(sb, s, pv->terms, pv->nterms);
}

int kp_storage_pin_text(kp_snap *s, int32_t pi, kp_sb *sb)
{
	const kp_storage *st = s->st;
	int n = 0;
	if (!st)
		return 0;
	for (int32_t i = st->vol_off[pi]; i < st->vol_off[pi + 1]; i++) {
		const kp_podvol *v = &st->vols[i];
		if ((v->kind != KP_VOL_PVC && v->kind != KP_VOL_EPHEMERAL) || v->claim < 0)
			continue;
		const kp_claim *c = &st->claims[v->claim];
		int32_t pv = c->volume_name >= 0 ? c->pv : c->run_pv;
		int node = c->run_node >= 0 ? c->run_node : c->selected_node;
		if (pv >= 0 && (st->pvs[pv].has_affinity || kp_labels_get(&st->pvs[pv].labels, st->s_zone_keys[0]) >= 0 ||
				kp_labels_get(&st->pvs[pv].labels, st->s_zone_keys[2]) >= 0)) {
			kp_sb_adds(sb, n++ ? "; " : "pinned to ");
			pv_pin(sb, s, &st->pvs[pv]);
			kp_sb_printf(sb, " by PV %s (claim %s)", kp_str(&s->strs, st->pvs[pv].name), kp_str(&s->strs, c->name));
		} else if (pv < 0 && node >= 0) {
			kp_sb_printf(sb, "%snode %s by claim %s (provisioned for it)", n++ ? "; " : "pinned to ",
				     kp_str(&s->strs, s->node_name[node]), kp_str(&s->strs, c->name));
		}
	}
	return n;
}

void kp_storage_terms_text(kp_sb *sb, const kp_snap *s, const kp_nterm *t, uint32_t n)
{
	static const char *const ops[] = { "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt" };
	for (uint32_t i = 0; i < n; i++) {
		kp_sb_adds(sb, i ? " or " : "");
		for (uint32_t e = 0; e < t[i].nexprs + t[i].nfields; e++) {
			const kp_sreq *r = e < t[i].nexprs ? &t[i].exprs[e] : &t[i].fields[e - t[i].nexprs];
			kp_sb_printf(sb, "%s%s %s", e ? ", " : "", e < t[i].nexprs ? kp_str(&s->strs, r->key) : "metadata.name",
				     ops[r->op]);
			for (uint32_t v = 0; v < r->nvals; v++)
				kp_sb_printf(sb, "%s%s", v ? " " : " [", kp_str(&s->strs, r->vals[v]));
			kp_sb_adds(sb, r->nvals ? "]" : "");
		}
	}
}
