/*
 * gpu_pack_score.c — GpuPackScore, kplan's own GPU packing score (issue 18;
 * docs/gpu-devices.md#gpu-pack): `plan --strategy gpu-pack` enables it as
 * the only score plugin.  Not a kube-scheduler plugin.
 *
 * FGD (fgd_score.c) scores a node by how much the pod lowers its
 * fragmented GPU milli.  It is blind to one way GPUs go to waste: a node
 * whose GPUs are free but whose cpu is gone (cpu-only pods and cpu-heavy
 * GPU pods scored 50 everywhere land there at random).  GpuPackScore adds
 * the drop of the node's cpu-stranded GPU milli — free GPU milli beyond
 * what its free cpu can feed at the workload's cpu per GPU milli (the GPU
 * pods' cpu over their GPU milli) — and keeps the sum untruncated, so the
 * many ties FGD's integer sigmoid makes are decided by the real difference.
 * The GPU of a shared pod is the one with the best sum (the lowest on
 * ties).  No normalisation; scores are the drop in 0.01 milli steps plus a
 * constant that keeps them positive.
 */
#include "../cycle.h"
#include "../gpu_frag.h"

static int64_t score(kp_cycle *cy, int node)
{
	return kp_gpus_plugin_score(cy, node, KP_GPUS_PACK);
}

const kp_plugin kp_plugin_gpu_pack_score = {
	.name = "GpuPackScore",
	.kplan_own = 1,
	.pre_score = kp_gpus_pre_score,
	.score = score,
};
