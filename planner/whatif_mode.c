/*
 * whatif_mode.c — the options about the run as a whole (whatif.h):
 *  - from-run N (`plan --from-run`, applied first of all): the state run N
 *    left — the pods it bound or moved are bound there, its victims gone (or
 *    pending again when a controller re-creates them, as the run modelled
 *    them); run N must not have planned a what-if scenario itself;
 *  - --mode full (after every option that changes the cluster): every
 *    bound pod that is not a DaemonSet or static pod, not finished and not
 *    terminating, becomes pending (keep when it lands on its node again, move
 *    when elsewhere);
 *  - --strategy least|most|balanced: NodeResourcesFit's scoring in every
 *    profile of the configuration (no table changes).
 */
#include "whatif_int.h"

/* ---- --mode full ---- */

int wi_apply_full(wctx *c, wi_op *op)
{
	long n;
	if (wi_exec(c, kp_sql_whatif_mode_full, op->seq, NULL, &n) ||
	    wi_exec(c, kp_sql_whatif_pods_unbind_moved, op->seq, NULL, NULL))
		return c->err->code;
	op->pending = n;
	kp_sb_printf(&op->effect, "%ld bound pod%s planned from scratch with the pending ones (DaemonSet, static, "
		     "finished and terminating pods stay)", n, n == 1 ? "" : "s");
	return KP_OK;
}

/* ---- --from-run ---- */

int wi_apply_from_run(wctx *c, wi_op *op)
{
	int64_t n = 0, whatif = 0;
	if (wi_query_int(c, kp_sql_whatif_from_run_exists, op->count, NULL, &n))
		return c->err->code;
	if (!n)
		return kp_err_set(c->err, KP_ERROR, "--from-run %ld: no run %ld in the database", op->count, op->count);
	if (wi_query_int(c, kp_sql_whatif_from_run_whatif, op->count, NULL, &whatif))
		return c->err->code;
	if (whatif)
		return kp_err_set(c->err, KP_ERROR, "--from-run %ld: run %ld planned a what-if scenario (%s), not the "
				  "imported cluster: start from a run without one", op->count, op->count,
				  "see run.options");
	long bound = 0, gone = 0, again = 0, unplaced = 0;
	/* bound where the run put them (a node removed since: pending); a
	 * bound pod it left unschedulable (--mode full) pending; victims: gone
	 * without a controller, else re-created, pending */
	if (wi_exec(c, kp_sql_whatif_from_run_bind, op->count, NULL, &bound) ||
	    wi_exec(c, kp_sql_whatif_from_run_unplaced, op->count, NULL, &unplaced) ||
	    wi_exec(c, kp_sql_whatif_from_run_victim_labels, op->count, NULL, NULL) ||
	    wi_exec(c, kp_sql_whatif_from_run_victims, op->count, NULL, &gone) ||
	    wi_exec(c, kp_sql_whatif_from_run_recreated, op->count, NULL, &again))
		return c->err->code;
	/* the claims it bound or provisioned stay so (volume_decision) */
	int64_t nvol = 0;
	if (wi_query_int(c, kp_sql_whatif_from_run_volumes_count, op->count, NULL, &nvol))
		return c->err->code;
	if (nvol && (wi_shadow_once(c, "pvc") || wi_shadow_once(c, "pv") ||
		     wi_exec(c, kp_sql_whatif_from_run_volumes_claims, op->count, NULL, NULL) ||
		     wi_exec(c, kp_sql_whatif_from_run_volumes_selected, op->count, NULL, NULL) ||
		     wi_exec(c, kp_sql_whatif_from_run_volumes_pvs, op->count, NULL, NULL)))
		return c->err->code;
	/* the devices it allocated stay allocated (dra_allocation) */
	int64_t ndev = 0;
	if (wi_query_int(c, kp_sql_whatif_from_run_dra_count, op->count, NULL, &ndev))
		return c->err->code;
	int64_t shares = 0;   /* dra_allocation records shares (its consumed column) */
	if (ndev && (wi_query_int(c, kp_sql_whatif_from_run_dra_has_consumed, 0, NULL, &shares) ||
		     wi_shadow_once(c, "resource_claim") || wi_shadow_once(c, "resource_claim_result") ||
		     wi_shadow_once(c, "resource_claim_consumed") ||
		     wi_exec(c, kp_sql_whatif_from_run_dra_claims, op->count, NULL, NULL) ||
		     wi_exec(c, shares ? kp_sql_whatif_from_run_dra_results : kp_sql_whatif_from_run_dra_results_old, op->count,
			     NULL, NULL) ||
		     (shares && wi_exec(c, kp_sql_whatif_from_run_dra_consumed, op->count, NULL, NULL))))
		return c->err->code;
	again += unplaced;
	op->removed = gone;
	kp_sb_printf(&op->effect, "the state run %ld left: %ld pod%s it placed or moved bound there, %ld victim%s gone, "
		     "%ld re-created by %s controller%s and pending again", op->count, bound, bound == 1 ? "" : "s", gone,
		     gone == 1 ? "" : "s", again, again == 1 ? "its" : "their", again == 1 ? "" : "s");
	if (nvol)
		kp_sb_printf(&op->effect, ", %ld claim%s it bound or provisioned so", (long)nvol, nvol == 1 ? "" : "s");
	if (ndev)
		kp_sb_printf(&op->effect, ", %ld device%s it allocated so", (long)ndev, ndev == 1 ? "" : "s");
	return KP_OK;
}

/* ---- --strategy ---- */

/* fgd, gpu-pack: FGDScore (the paper's runs disable kube's scores) or
 * kplan's GpuPackScore the only score plugin of every profile, each shared
 * pod's GPU chosen by it (docs/gpu-devices.md) */
static void apply_fgd(kp_config *cfg, wi_op *op)
{
	for (int i = 0; i < cfg->nprofiles; i++) {
		kp_profile *p = &cfg->profiles[i];
		for (int k = 0; k < KP_P_COUNT; k++)
			p->score[k] = 0;
		int k = op->strategy == WI_STRAT_PACK ? KP_P_GPU_PACK_SCORE : KP_P_FGD_SCORE;
		p->score[k] = 1;
		p->weight[k] = op->strategy == WI_STRAT_PACK ? 1 : 1000;
		/* the paper's simulator (a kube 1.20.5 fork) takes the smallest node
		 * name among equal scores, its node names prefixed with a random
		 * permutation: one random ranking of the nodes for every pod */
		if (op->strategy == WI_STRAT_FGD)
			p->tie_rank = 1;
	}
	kp_sb_adds(&op->effect, op->strategy == WI_STRAT_PACK
		   ? "GpuPackScore (kplan's: fragmented plus cpu-stranded GPU milli) the only score in every profile, GPUs chosen by it"
		   : "FGDScore (the FGD paper's) the only score in every profile, GPUs chosen by it");
}

/* kube-1.20: the resource scores of kube-scheduler 1.20's default profile
 * (NodeResourcesLeastAllocated and NodeResourcesBalancedAllocation, weight 1
 * each, cpu and memory at weight 1; BalancedAllocation's 1.20 formula) and
 * its default weights for the other score plugins the profile runs
 * (pkg/scheduler/algorithmprovider/registry.go of 1.20: TaintToleration,
 * NodeAffinity, InterPodAffinity, ImageLocality 1, PodTopologySpread 2);
 * those plugins score as the run's kube version */
static void apply_kube_1_20(kp_config *cfg, wi_op *op)
{
	static const struct { int plugin; int64_t weight; } w120[] = {
		{ KP_P_TAINT_TOLERATION, 1 }, { KP_P_NODE_AFFINITY, 1 }, { KP_P_INTER_POD_AFFINITY, 1 },
		{ KP_P_IMAGE_LOCALITY, 1 }, { KP_P_POD_TOPOLOGY_SPREAD, 2 },
	};
	for (int i = 0; i < cfg->nprofiles; i++) {
		kp_profile *p = &cfg->profiles[i];
		for (size_t k = 0; k < sizeof w120 / sizeof *w120; k++)
			if (p->score[w120[k].plugin])
				p->weight[w120[k].plugin] = w120[k].weight;
		p->score[KP_P_NODE_RESOURCES_FIT] = p->score[KP_P_BALANCED_ALLOCATION] = 1;
		p->weight[KP_P_NODE_RESOURCES_FIT] = p->weight[KP_P_BALANCED_ALLOCATION] = 1;
		kp_profile_default_resources(p);
		p->bal_1_20 = 1;
	}
	kp_sb_adds(&op->effect, "kube-scheduler 1.20's default scores in every profile (the FGD paper's simulator's "
		   "\"kube default\"): LeastAllocated on cpu and memory and NodeResourcesBalancedAllocation as 1.20 "
		   "scored it ((1 - |cpu - memory|) x 100), weight 1 each; 1.20's weights for the other score plugins "
		   "(TaintToleration, NodeAffinity, InterPodAffinity, ImageLocality 1, PodTopologySpread 2), which score "
		   "as the run's kube version; filters unchanged");
}

void wi_apply_strategy(kp_config *cfg, wi_op *op)
{
	if (op->strategy == WI_STRAT_FGD || op->strategy == WI_STRAT_PACK) {
		apply_fgd(cfg, op);
		return;
	}
	if (op->strategy == WI_STRAT_K120) {
		apply_kube_1_20(cfg, op);
		return;
	}
	for (int i = 0; i < cfg->nprofiles; i++) {
		kp_profile *p = &cfg->profiles[i];
		if (!p->score[KP_P_NODE_RESOURCES_FIT] || p->weight[KP_P_NODE_RESOURCES_FIT] <= 0) {
			p->score[KP_P_NODE_RESOURCES_FIT] = 1;
			p->weight[KP_P_NODE_RESOURCES_FIT] = 1;
		}
		p->strategy = op->strategy == WI_STRAT_MOST ? KP_STRAT_MOST : KP_STRAT_LEAST;
		if (op->strategy == WI_STRAT_BALANCED) {
			/* balanced: spread as LeastAllocated does, with each node's resources kept
			 * in proportion first: NodeResourcesBalancedAllocation at 3 times
			 * NodeResourcesFit's weight (docs/what-if.md) */
			p->score[KP_P_BALANCED_ALLOCATION] = 1;
			p->weight[KP_P_BALANCED_ALLOCATION] = 3 * p->weight[KP_P_NODE_RESOURCES_FIT];
		}
	}
	static const char *const what[] = {
		"NodeResourcesFit LeastAllocated in every profile",
		"NodeResourcesFit MostAllocated in every profile",
		"NodeResourcesFit LeastAllocated and NodeResourcesBalancedAllocation at 3x its weight in every profile",
	};
	kp_sb_adds(&op->effect, what[op->strategy]);
}
