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

#include <math.h>
#include <string.h>

static int64_t sig100(double old, double new_)
{
	return (int64_t)(1.0 / (1.0 + exp(-((old - new_) / 1000.0))) * 100.0);
}

static int pre_score(kp_cycle *cy)
{
	if (!cy->s->dra)
		return KP_OK;
	if (kp_gpus_init(cy->s))
		return KP_NOMEM;
	cy->s->dra->fgd_pi = cy->pi;
	return KP_OK;
}

/* the simulator's NodeResource.Sub for whole GPUs: GPUs by free milli
 * ascending (stable), each with enough free taken until n are */
static void take_whole(int32_t *left, int k, int32_t n, int32_t m)
{
	uint8_t used[KP_GPU_MAX_NODE] = { 0 };
	for (int32_t t = 0; t < n; t++) {
		int best = -1;
		for (int i = 0; i < k; i++)
			if (!used[i] && left[i] >= m && (best < 0 || left[i] < left[best]))
				best = i;
		if (best < 0)
			return;
		used[best] = 1;
		left[best] -= m;
	}
}

static int64_t score(kp_cycle *cy, int node)
{
	kp_snap *s = cy->s;
	kp_gpus *g = s->dra ? s->dra->gpus : NULL;
	int32_t *pick = s->dra ? s->dra->fgd_dev : NULL;
	if (!g)
		return 50;
	int32_t left[KP_GPU_MAX_NODE];
	int k = kp_gpus_left(s, node, left);
	int64_t cpu_left = kp_gpus_cpu_left(s, node), cpu = kp_gpus_pod_cpu(s, cy->pi);
	int32_t n = g->pod_n[cy->pi], m = g->pod_milli[cy->pi];
	double old = kp_gpus_frag(s, node, cpu_left, left, k);
	pick[node] = -1;
	if (n == 1 && m < KP_GPU_MILLI) {
		int64_t best = 0;
		for (int i = 0; i < k; i++) {
			if (left[i] < m)
				continue;
			left[i] -= m;
			int64_t sc = sig100(old, kp_gpus_frag(s, node, cpu_left - cpu, left, k));
			left[i] += m;
			if (pick[node] < 0 || sc > best) {
				best = sc;
				pick[node] = g->node_dev[g->node_off[node] + i];
			}
		}
		return best;
	}
	if (n > 0)
		take_whole(left, k, n, m);
	return sig100(old, kp_gpus_frag(s, node, cpu_left - cpu, left, k));
}

const kp_plugin kp_plugin_fgd_score = {
	.name = "FGDScore",
	.kplan_own = 1,
	.pre_score = pre_score,
	.score = score,
};
