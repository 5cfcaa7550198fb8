/*
 * dra_explain.c — explain's devices block for DynamicResources (dra.h
 * kp_dra_explain): each claim of the pod, allocated or what it asks and the
 * devices the allocator takes on the chosen node, and for the nodes the
 * plugin rejected, each request's devices its selectors take and how many
 * of them are free.
 */
#include "dra_int.h"

#include <stdio.h>
#include <string.h>


static void device_name(kp_sb *sb, const kp_snap *s, const kp_dra *d, int32_t dev)
{
	const kp_device *v = &d->devices[dev];
	const kp_dpool *p = &d->pools[v->pool];
	kp_sb_printf(sb, "%s/%s/%s", kp_str(&s->strs, p->driver), kp_str(&s->strs, p->name), kp_str(&s->strs, v->name));
}

/* a device shared by capacity: its first capacity's free amount, " (N of M NAME free)" */
static void device_free(kp_sb *sb, const kp_snap *s, const kp_dra *d, int32_t dev)
{
	const kp_device *v = &d->devices[dev];
	if (!v->allow_multiple || !v->ncaps)
		return;
	kp_sb_printf(sb, " (%lld of %lld %s free)", (long long)(v->cap_base[0] - d->consumed[v->cap_off]),
		     (long long)v->cap_base[0], kp_str(&s->strs, v->caps[0].name));
}

/* a request's capacity requests, ", capacity NAME=VALUE ..." */
static void request_caps(kp_sb *sb, const kp_snap *s, const kp_dreq *q)
{
	for (uint32_t k = 0; k < q->ncaps; k++)
		kp_sb_printf(sb, "%s%s=%lld", k ? " " : ", capacity ", kp_str(&s->strs, q->cap_name[k]), (long long)q->cap_value[k]);
}

/* for the first nodes DynamicResources rejected: per request, how many of
 * the node's devices its selectors take and how many of those are free */
static int why_not(kp_cycle *cy, kp_sb *sb)
{
	kp_snap *s = cy->s;
	kp_dra *d = s->dra;
	int shown = 0;
	for (int n = 0; n < s->nnodes && shown < 8; n++) {
		if (cy->fail[n] != KP_P_DYNAMIC_RESOURCES)
			continue;
		search x;
		char err[512] = "";
		memset(&x, 0, sizeof x);
		x.err = err;
		x.err_size = sizeof err;
		x.cy = cy;
		x.s = s;
		x.d = d;
		x.node = n;
		if (kp_dra_candidates(&x))
			return KP_NOMEM;
		shown++;
		kp_sb_printf(sb, "  on %s:", kp_str(&s->strs, s->node_name[n]));
		for (int32_t k = d->claim_off[cy->pi]; k < d->claim_off[cy->pi + 1]; k++) {
			int32_t ci = d->claim[k];
			if (ci < 0 || d->claims[ci].allocated || d->claims[ci].run_allocated)
				continue;
			const kp_dclaim *c = &d->claims[ci];
			for (uint32_t r = 0; r < c->nrequests; r++)
				for (uint32_t a = 0; a < c->requests[r].nalts; a++) {
					const kp_dreq *q = &c->requests[r].alts[a];
					int sel = 0, free_ = 0;
					int64_t most = -1;   /* shares: the most free of the first capacity */
					for (int i = 0; i < x.ncand && q->cls >= 0; i++) {
						if (kp_dra_selected(&x, ci, q, x.cand[i]) != 1)
							continue;
						sel++;
						const kp_device *v = &d->devices[x.cand[i]];
						if (q->ncaps && v->allow_multiple && v->ncaps && !d->in_use[x.cand[i]] &&
						    v->cap_base[0] - d->consumed[v->cap_off] > most)
							most = v->cap_base[0] - d->consumed[v->cap_off];
						/* a share needs room in the device's capacity */
						free_ += q->admin || (!d->in_use[x.cand[i]] &&
								      (!d->devices[x.cand[i]].allow_multiple || !q->ncaps ||
								       kp_dra_share_fits(&x, q, x.cand[i])));
					}
					kp_sb_printf(sb, " %s: %d of %d device(s) selected, %d %s", kp_str(&s->strs, q->name), sel, x.ncand,
						     free_, most >= 0 ? "with room for the share" : "free");
					if (most >= 0)
						kp_sb_printf(sb, " (the most free: %lld %s)", (long long)most, kp_str(&s->strs, q->cap_name[0]));
					kp_sb_adds(sb, r + 1 < c->nrequests || a + 1 < c->requests[r].nalts ? ";" : "");
				}
		}
		kp_sb_addc(sb, '\n');
	}
	return KP_OK;
}

int kp_dra_explain(kp_cycle *cy, int node, kp_sb *sb)
{
	kp_snap *s = cy->s;
	kp_dra *d = s->dra;
	if (!d || d->claim_off[cy->pi] == d->claim_off[cy->pi + 1])
		return KP_OK;
	search x;
	memset(&x, 0, sizeof x);
	char err[512] = "";
	int found = node >= 0 ? kp_dra_allocate(&x, cy, cy->pi, node, err, sizeof err) : 0;
	if (found == -2) {
		kp_free(x.sol);
		return KP_NOMEM;
	}
	kp_sb_adds(sb, "devices:\n");
	for (int32_t k = d->claim_off[cy->pi]; k < d->claim_off[cy->pi + 1]; k++) {
		int32_t ci = d->claim[k];
		kp_sb_printf(sb, "  claim %s: ", kp_str(&s->strs, d->claim_name[k]));
		if (ci < 0) {
			kp_sb_adds(sb, "not found\n");
			continue;
		}
		const kp_dclaim *c = &d->claims[ci];
		if (c->allocated || c->run_allocated) {
			kp_sb_adds(sb, c->run_allocated ? "allocated by this run:" : "allocated:");
			for (uint32_t i = 0; i < c->nresults; i++) {
				kp_sb_printf(sb, " %s=", kp_str(&s->strs, c->results[i].request));
				device_name(sb, s, d, c->results[i].device);
			}
			kp_sb_adds(sb, c->node >= 0 ? "; for one node" : "");
			kp_sb_addc(sb, '\n');
			continue;
		}
		kp_sb_adds(sb, "to allocate:");
		for (uint32_t r = 0; r < c->nrequests; r++)
			for (uint32_t a = 0; a < c->requests[r].nalts; a++) {
				const kp_dreq *q = &c->requests[r].alts[a];
				char n[32];
				snprintf(n, sizeof n, "%lld device(s)", (long long)q->count);
				kp_sb_printf(sb, " %s (class %s, %s%s", kp_str(&s->strs, q->name), kp_str(&s->strs, q->cls_name),
					     q->admin ? "admin access, " : "", q->all ? "all devices" : n);
				request_caps(sb, s, q);
				kp_sb_addc(sb, ')');
			}
		if (node >= 0 && found == 1) {
			kp_sb_printf(sb, "; on %s:", kp_str(&s->strs, s->node_name[node]));
			for (int i = 0; i < x.nsol; i++)
				if (x.sol[i].claim == ci) {
					kp_sb_printf(sb, " %s=", kp_str(&s->strs, x.sol[i].request));
					device_name(sb, s, d, x.sol[i].device);
					device_free(sb, s, d, x.sol[i].device);
				}
		}
		kp_sb_addc(sb, '\n');
	}
	if (found < 0)
		kp_sb_printf(sb, "  allocator error: %s\n", err);
	kp_free(x.sol);
	return why_not(cy, sb);
}
