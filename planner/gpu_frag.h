/*
 * gpu_frag.h — GPUs as shareable devices, and their fragmentation (issue 18;
 * docs/gpu-devices.md).  The FGD paper's measure (Weng et al., ATC'23,
 * "Beware of Fragmentation"; its simulator hkust-adsl/kubernetes-scheduler-
 * simulator pkg/utils/frag.go), on the DRA state of the run:
 *
 * - the GPU drivers are those whose devices some pod's request selects
 *   (its class and selectors, tried on each driver's first device); a
 *   node's GPUs are its node-local devices of those drivers, shareable ones
 *   (allowMultipleAllocations with a capacity: the openb importer's gpu-N)
 *   or dedicated; each is 1000 milli, a shareable one's free milli scaled
 *   from its first capacity, a dedicated one free or not;
 * - a pod's GPU shape is its first claim request that selects GPUs: n
 *   devices of m milli each (its capacity request; m = 1000: whole);
 * - the typical shapes are the most frequent (cpu, n, m, node affinity)
 *   of every pod of the snapshot (DaemonSet pods left out), cpu-only pods
 *   included, until 95 % of the pods are covered (the simulator's openb
 *   configuration), their weights renormalised;
 * - a node's fragmented GPU milli: over the typical shapes, weighted, all
 *   of its free milli when the shape cannot use the node (cpu-only shape,
 *   too little cpu, no access, too few GPUs with enough free), else the
 *   free milli on its GPUs with less free than the shape asks.
 */
#ifndef KP_GPU_FRAG_H
#define KP_GPU_FRAG_H

#include "dra.h"

#define KP_GPU_MILLI 1000
#define KP_GPU_MAX_NODE 64           /* GPUs of one node the measure handles */

typedef struct kp_gshape {
	int64_t cpu;                 /* milli */
	int32_t n, milli;            /* GPUs and milli on each; 0, 0: cpu-only */
	int32_t cls;                 /* a pod of the shape's class: its node affinity (-1: none) */
	int64_t count;
	double p;                    /* weight, typical shapes only */
} kp_gshape;

typedef struct kp_gpus {
	kp_sid *gpu_driver;              /* the drivers whose devices are GPUs */
	int ndrivers;
	int32_t *req_dev;                /* per request id: a GPU device it selects, -1 none */
	uint8_t all_local;               /* every device of the GPU drivers is node-local (kp_gpus_room) */
	int32_t *node_off, *node_dev;    /* per node: its GPUs (kp_dra device indices), in slice order */
	int32_t *pod_n, *pod_milli;      /* per pod: its GPU shape (0: none) */
	double cpu_per_milli;            /* the GPU pods' cpu over their GPU milli (all pods) */
	int nshapes;                     /* typical shapes, most frequent first */
	struct kp_gmemo *memo;           /* kp_gpus_score's, per node (GPU_MEMO slots), made on first use */
	kp_gshape *shapes;
} kp_gpus;

/* the GPU view of the snapshot's DRA state (s->dra->gpus, and
 * s->dra->fgd_dev), made once; KP_OK (also when there are no GPUs: node_off
 * all 0) or KP_NOMEM.  kp_snap_dra_release frees it. */
int kp_gpus_init(kp_snap *s);

/* node n's GPUs' free milli into left (at most KP_GPU_MAX_NODE), their count */
int kp_gpus_left(const kp_snap *s, int n, int32_t *left);
/* pod pi's cpu request, milli */
int64_t kp_gpus_pod_cpu(const kp_snap *s, int32_t pi);
/* node n's free GPU milli, *ngpus its GPUs */
int64_t kp_gpus_node_free(const kp_snap *s, int n, int *ngpus);
/* its cpu left (allocatable - requested), milli */
int64_t kp_gpus_cpu_left(const kp_snap *s, int n);
/* the fragmented milli of a node state (cpu left, GPUs' free milli), as the
 * simulator sums it (frag.go NodeGpuShareFragAmount, all but Q3) */
double kp_gpus_frag(const kp_snap *s, int n, int64_t cpu_left, const int32_t *left, int ndev);

/* Pod pi on node n, for the GPU scores (plugins/fgd_score.c,
 * plugins/gpu_pack_score.c): over the pod's choices on the node (each GPU
 * with room for a share; else whole GPUs, the lowest free, and its cpu), the
 * best one and its score; *dev its GPU (a kp_dra device, -1 none).
 * KP_GPUS_FGD: the paper's trunc(100 sigmoid((F_before - F_after) / 1000)),
 * ties to the lowest GPU; KP_GPUS_PACK: kplan's, the drop of fragmented
 * plus cpu-stranded milli, not truncated (scaled to an integer). */
enum { KP_GPUS_FGD, KP_GPUS_PACK };
int64_t kp_gpus_score(kp_snap *s, int32_t pi, int n, int mode, int32_t *dev);
/* the two plugins' PreScore (the view made, the pod noted for the device
 * pick) and Score (kp_gpus_score, its GPU kept in s->dra->fgd_dev) */
struct kp_cycle;
int kp_gpus_pre_score(struct kp_cycle *cy);
int64_t kp_gpus_plugin_score(struct kp_cycle *cy, int node, int mode);

/* node n's GPUs have room for pod pi's GPU shape (free milli on one GPU for
 * a share, that many free GPUs for whole ones): 0 only when the pod surely
 * cannot get its GPUs there (its GPU drivers' devices are all node-local,
 * so the view sees every device it could take); 1 otherwise */
int kp_gpus_room(const kp_snap *s, int32_t pi, int n);

/* the run's fragmentation per node into gpu_fragmentation (run_id) and the
 * typical shapes into gpu_typical_shape (not for a dry run: plan_write.c) */
int kp_gpus_write(kp_snap *s, sqlite3 *db, int64_t run_id, kp_err *err);

#endif
