/*
 * fgd_score.c — FGDScore, the FGD paper's node score (issue 18;
 * docs/gpu-devices.md): not a kube-scheduler plugin but the one the trace's
 * simulator adds (hkust-adsl/kubernetes-scheduler-simulator
 * pkg/simulator/plugin/fgd_score.go, calculateGpuShareFragExtendScore).
 * `plan --strategy fgd` enables it as the only score plugin, as the
 * paper's runs do.
 *
 * For a node: old = its fragmented GPU milli (gpu_frag.c), new = the same
 * with the pod placed, score = trunc(100 · sigmoid((old − new) / 1000)).
 * A shared pod (one GPU, < 1000 milli) tries every GPU with enough free and
 * keeps the best score, the lowest GPU on ties — that GPU is the pod's
 * device if the node is chosen (KP_DCHOICE_FGD, dra.c).  Other pods take
 * cpu, and whole GPUs the lowest free ones; a node without GPUs scores 50.
 * No normalisation.
 */
#include "../cycle.h"
#include "../gpu_frag.h"

static int64_t score(kp_cycle *cy, int node)
{
	return kp_gpus_plugin_score(cy, node, KP_GPUS_FGD);
}

const kp_plugin kp_plugin_fgd_score = {
	.name = "FGDScore",
	.kplan_own = 1,
	.pre_score = kp_gpus_pre_score,
	.score = score,
};
