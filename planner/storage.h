/*
 * storage.h — volumes in the snapshot (issue 16; kube-scheduler-semantics.md
 * §15): storage classes, PersistentVolumes, claims, each pod's volumes,
 * CSINode limits and migration, and what one run decides about them.
 *
 * Loaded by snapshot_storage.c into kp_snap.st (NULL when the database has
 * no storage objects and no pod uses a volume: the four volume plugins then
 * skip every pod at no cost).  Read by the plugins VolumeRestrictions,
 * NodeVolumeLimits, VolumeBinding and VolumeZone (planner/plugins/) through
 * the helpers of storage.c.  Everything lives in the snapshot's arena except
 * the run's growing state (attach counts, decisions), freed by
 * kp_snap_storage_release (snapshot.h).
 */
#ifndef KP_STORAGE_H
#define KP_STORAGE_H

#include "snapshot.h"

/* access modes, as bits */
enum { KP_AM_RWO = 1, KP_AM_ROX = 2, KP_AM_RWX = 4, KP_AM_RWOP = 8 };
/* a pod volume's kind (pod_volume.kind) */
enum { KP_VOL_PVC, KP_VOL_EPHEMERAL, KP_VOL_INTREE, KP_VOL_CSI };
/* in-tree plugins CSI migration moves to a CSI driver (csi-translation-lib) */
enum { KP_IT_AWS_EBS, KP_IT_GCE_PD, KP_IT_AZURE_DISK, KP_IT_CINDER, KP_IT_COUNT };

typedef struct kp_sclass {
	kp_sid name, provisioner;
	uint8_t wffc;                /* volumeBindingMode WaitForFirstConsumer */
	uint8_t capacity_tracking;   /* a CSIDriver named like the provisioner has storageCapacity: true */
	int8_t intree;               /* the provisioner is a migratable in-tree one (KP_IT_*), -1 */
	kp_sid csi_driver;           /* the provisioner, translated to its CSI driver when in-tree */
	uint32_t nterms;             /* allowedTopologies (0: every node) */
	kp_nterm *terms;
	int32_t cap_first, cap_n;    /* its CSIStorageCapacity objects in kp_storage.caps */
	uint8_t no_provisioner;      /* provisioner "" or kubernetes.io/no-provisioner: nothing is provisioned */
	int64_t *cap_max;            /* per node: the largest limit of a capacity object that matches it (-1 none),
	                              * computed on first use (hasEnoughCapacity) */
} kp_sclass;

typedef struct kp_scap {
	kp_sel topo;                 /* nodeTopology; present = 0: no node */
	int64_t limit;               /* maximumVolumeSize, else capacity; -1 neither */
	kp_sid name, ns;
} kp_scap;

typedef struct kp_pv {
	int64_t db_id;
	kp_sid name, cls, attr_class;
	int64_t capacity;
	uint8_t modes, block, available, deleting, csi;
	int8_t intree;               /* migratable in-tree source (KP_IT_*), -1 */
	kp_sid claim_ns, claim_name; /* spec.claimRef, -1 none */
	kp_sid driver, unique;       /* CSI driver (by migration for in-tree), "driver/handle" */
	uint32_t nterms;             /* spec.nodeAffinity.required terms; has_affinity without terms matches nothing */
	uint8_t has_affinity;
	kp_nterm *terms;
	kp_labels labels;            /* zone and region labels only (VolumeZone) */
	int32_t taken;               /* this run: the claim it was assumed for, -1 */
	uint64_t *nodes_ok;          /* node affinity per node (bitset), computed on first use */
} kp_pv;

typedef struct kp_claim {
	int64_t db_id;
	kp_sid ns, name, cls_name;   /* cls_name: resolved (the default class for an unset one), -1 = "" */
	int32_t sc;                  /* its StorageClass, -1 none or not found */
	int64_t request;
	uint8_t modes, block, bound, lost, deleting, has_selector;
	kp_sid volume_name, attr_class, selected_node_name, owner_kind, owner_name;
	int32_t pv;                  /* spec.volumeName's PV, -1 none or missing */
	int32_t selected_node;       /* the selected-node annotation's node, -1 */
	kp_sel selector;
	/* this run */
	int32_t run_pv;              /* the PV it was bound to (Reserve), -1 */
	int32_t run_node;            /* provisioned for this node (selected-node), -1 */
	int32_t users;               /* placed pods that use it (ReadWriteOncePod) */
	kp_sid unique;               /* its NodeVolumeLimits name when counted by class: "pvc:ns/name" */
	/* FindMatchingVolume's node-independent part, valid while cand_gen ==
	 * kp_storage.gen: the PV pre-bound to it alone (cand_prebound), else the
	 * available PVs that match it, smallest first (storage.c) */
	uint32_t cand_gen;
	uint8_t cand_prebound;
	int32_t ncand;
	int32_t *cand;
} kp_claim;

typedef struct kp_podvol {
	kp_sid name, claim_name, source, driver, handle, monitors;
	uint8_t kind, read_only;
	int8_t intree;               /* KP_IT_*, -1 */
	int32_t claim;               /* the claim, -1 not found */
	uint8_t not_owned;           /* ephemeral: the claim is not the pod's */
} kp_podvol;

/* a volume's NodeVolumeLimits identity on one node: unique name and driver
 * (-1, -1: not counted there) */
typedef struct kp_volkey { kp_sid unique, driver; } kp_volkey;

/* one decision of the run: a claim bound to a PV or provisioned for a node */
typedef struct kp_vdecision { int32_t pod, claim, pv, node; } kp_vdecision;

typedef struct kp_storage {
	int nclasses, npvs, nclaims, ncaps;
	kp_sclass *classes;
	kp_pv *pvs;
	kp_claim *claims;
	kp_scap *caps;
	/* per pod: its volumes, vols[vol_off[i] .. vol_off[i + 1]) */
	int32_t *vol_off;
	kp_podvol *vols;
	/* per node: its CSINode (exists, migrated plugins as bits), and the
	 * attach limits, limit_drv/limit_cnt[limit_off[n] .. limit_off[n + 1]) */
	uint8_t *csinode, *migrated;
	int32_t *limit_off;
	kp_sid *limit_drv;
	int64_t *limit_cnt;
	/* per node: it has a zone or region label (VolumeZone) */
	uint8_t *zoned;
	/* per pod: its first volume kind bits (1 pvc, 2 ephemeral, 4 in-tree disk
	 * that VolumeRestrictions checks, 8 any counted by NodeVolumeLimits) */
	uint8_t *pod_kinds;
	/* attach counts (storage.c): (node, unique volume) -> pods using it;
	 * (node, driver) -> unique volumes; in the heap */
	struct kp_vcount *vc;
	/* scratch for one pod's volumes (the most any pod has: maxv):
	 * FindPodVolumes uses scr[0 .. 3 maxv), Reserve scr[3 maxv .. 5 maxv),
	 * NodeVolumeLimits keys[0 .. maxv) */
	int32_t maxv;
	int32_t *scr;
	kp_volkey *keys;
	/* bumped when the run takes a PV: the claims' candidates are stale */
	uint32_t gen;
	/* the run's decisions (Reserve), in order */
	kp_vdecision *dec;
	int ndec, cap_dec;
	/* well-known strings */
	kp_sid s_zone_keys[4], s_pvc_prefix;
	kp_sid it_plugin[KP_IT_COUNT], it_driver[KP_IT_COUNT];
} kp_storage;

/* The key of pod volume v on node n (kube's filterAttachableVolumes for one
 * volume; migration decided by the node's CSINode). */
kp_volkey kp_storage_volkey(const kp_snap *s, const kp_podvol *v, int n);
/* pods on node n using unique volume u; unique volumes of driver d on n */
int64_t kp_storage_node_refs(const kp_snap *s, int n, kp_sid u);
int64_t kp_storage_node_count(const kp_snap *s, int n, kp_sid d);
/* the attach limit of driver d on node n, -1 none */
int64_t kp_storage_limit(const kp_snap *s, int n, kp_sid d);

/* PV pv's required node affinity matches node n (no affinity: yes) */
int kp_storage_pv_fits_node(kp_snap *s, int32_t pv, int n);
/* The claim's effective binding in this run: its PV (bound, or bound by
 * an earlier pod of the run), -1 */
int32_t kp_storage_claim_pv(const kp_storage *st, const kp_claim *c);

/* VolumeBinding's FindPodVolumes for pod pi on node n: the reasons as
 * bits (KP_VB_*), and when decide is set, the claims' PVs (-1: provision)
 * into pv_out[] indexed like the pod's volumes.  Needs scratch from the
 * cycle's arena (a kp_arena). */
enum { KP_VB_NODE_CONFLICT = 1, KP_VB_BIND_CONFLICT = 2, KP_VB_NOT_ENOUGH_SPACE = 4, KP_VB_PV_NOT_EXIST = 8 };
int kp_storage_find_volumes(kp_snap *s, int32_t pi, int n, int32_t *pv_out);

/* VolumeZone's Filter: the zone/region labels of the PVs of pod pi's
 * claims against node n's (1 passes) */
int kp_storage_zone_ok(const kp_snap *s, int32_t pi, int n);
/* The volume filters that read only the node's labels (VolumeBinding,
 * VolumeZone) pass pod pi on node n — for an empty added node, where
 * attach limits and disk conflicts cannot bind.  1 yes. */
int kp_storage_node_possible(kp_snap *s, int32_t pi, int n);
/* What pins pod pi ("pinned to zone a by PV pv-0 (claim data-db-0)"),
 * appended to sb; the number of pins (0: nothing appended) */
int kp_storage_pin_text(kp_snap *s, int32_t pi, kp_sb *sb);
/* node selector terms as text ("key In [a b] or ...") */
void kp_storage_terms_text(kp_sb *sb, const kp_snap *s, const kp_nterm *t, uint32_t n);

/* Reserve: pod pi was bound to node n — its delay-binding claims take their
 * PVs or are provisioned for n, recorded in st->dec.  KP_OK or KP_NOMEM. */
int kp_storage_reserve(kp_snap *s, int32_t pi, int n);

#endif
