/*
 * k8s_pods.c — the readers of the kinds that make pods: Pod (metadata,
 * spec, status.phase/nominatedNodeName/startTime/resourceClaimStatuses)
 * and the workloads (Deployment, ReplicaSet, StatefulSet, Job,
 * ReplicationController, DaemonSet: their template, desired replicas and
 * selector), stored with kp_import_pod() and kp_import_workload().
 *
 * Contract: a workload's replicas are what its controller wants now (a Job:
 * parallelism capped by completions, 0 when suspended; a DaemonSet: -1, one
 * per node); at most KP_MAX_WORKLOAD_PODS.  An absent selector defaults to
 * the template's labels (old extensions/v1beta1 defaulting).
 */
#include "k8s_int.h"

#include <stdio.h>
#include <string.h>

/* metadata + spec + status of a Pod, or the template of a workload (meta = template.metadata) */
static int read_pod_parts(kctx *c, const kp_ynode *meta, const kp_ynode *spec, kp_pod_in *p)
{
	if (kp_k8s_get_kvs(c, meta, "labels", "metadata.labels", &p->labels) != KP_OK)
		return KP_PARSE;
	return kp_k8s_get_pod_spec(c, spec, p);
}

int kp_k8s_read_pod(kctx *c, const objhead *h)
{
	kp_pod_in p;
	memset(&p, 0, sizeof p);
	p.pos = (kp_pos){ h->obj->line, h->obj->col };
	p.namespace_ = h->namespace_;
	p.name = h->name;
	const kp_ynode *del;
	if (kp_k8s_get_str(c, h->meta, "uid", "metadata.uid", &p.uid) != KP_OK ||
	    kp_k8s_get_time(c, h->meta, "creationTimestamp", "metadata.creationTimestamp", &p.created) != KP_OK ||
	    kp_k8s_get_owner(c, h->meta, &p.owner) != KP_OK || read_pod_parts(c, h->meta, h->spec, &p) != KP_OK ||
	    kp_k8s_get_str(c, h->status, "phase", "status.phase", &p.phase) != KP_OK ||
	    kp_k8s_get_str(c, h->status, "nominatedNodeName", "status.nominatedNodeName", &p.nominated_node) != KP_OK ||
	    kp_k8s_get_time(c, h->status, "startTime", "status.startTime", &p.start_time) != KP_OK ||
	    kp_k8s_get_claim_statuses(c, h->status, &p) != KP_OK || kp_k8s_get_resize_status(c, h->status, &p) != KP_OK)
		return KP_PARSE;
	del = kp_ymap_get(h->meta, "deletionTimestamp");
	p.terminating = del != NULL;
	if (p.phase) {
		static const char *const phases[] = { "Pending", "Running", "Succeeded", "Failed", "Unknown", NULL };
		if (kp_k8s_one_of(c, h->status, "phase", "status.phase", phases, &p.phase) != KP_OK)
			return KP_PARSE;
	}
	return kp_import_pod(c->imp, c->file, &p, c->err);
}

int kp_k8s_read_workload(kctx *c, const objhead *h)
{
	kp_workload_in w;
	memset(&w, 0, sizeof w);
	w.pos = (kp_pos){ h->obj->line, h->obj->col };
	w.kind = h->kind;
	w.api_version = h->api_version;
	w.namespace_ = h->namespace_;
	w.name = h->name;
	const kp_ynode *tmpl, *tmeta, *tspec;
	if (!h->spec)
		return kp_k8s_bad(c, h->obj, "spec: required");
	if (kp_k8s_get_str(c, h->meta, "uid", "metadata.uid", &w.uid) != KP_OK ||
	    kp_k8s_get_time(c, h->meta, "creationTimestamp", "metadata.creationTimestamp", &w.created) != KP_OK ||
	    kp_k8s_get_owner(c, h->meta, &w.owner) != KP_OK ||
	    kp_k8s_get_map(c, h->spec, "template", "spec.template", &tmpl) != KP_OK)
		return KP_PARSE;
	if (!tmpl)
		return kp_k8s_bad(c, h->spec, "spec.template: required");
	if (kp_k8s_get_map(c, tmpl, "metadata", "spec.template.metadata", &tmeta) != KP_OK ||
	    kp_k8s_get_map(c, tmpl, "spec", "spec.template.spec", &tspec) != KP_OK)
		return KP_PARSE;
	if (!tspec)
		return kp_k8s_bad(c, tmpl, "spec.template.spec: required");
	w.tmpl.pos = (kp_pos){ tmpl->line, tmpl->col };
	w.tmpl.namespace_ = h->namespace_;
	if (read_pod_parts(c, tmeta, tspec, &w.tmpl) != KP_OK)
		return KP_PARSE;
	/* the StatefulSet controller adds one PVC volume per volumeClaimTemplate */
	if (!strcmp(h->kind, "StatefulSet")) {
		const kp_ynode *vct;
		if (kp_k8s_get_seq(c, h->spec, "volumeClaimTemplates", "spec.volumeClaimTemplates", &vct) != KP_OK)
			return KP_PARSE;
		w.tmpl.pvc_volumes += vct ? (int)vct->n : 0;
		if (kp_k8s_get_claim_templates(c, vct, &w) != KP_OK)
			return KP_PARSE;
	}

	int has;
	if (!strcmp(h->kind, "DaemonSet")) {
		w.replicas = -1;
	} else if (!strcmp(h->kind, "Job")) {
		int64_t par = 1, comp = 0;
		int has_comp, suspend;
		if (kp_k8s_get_int(c, h->spec, "parallelism", "spec.parallelism", &par, &has) != KP_OK ||
		    kp_k8s_get_int(c, h->spec, "completions", "spec.completions", &comp, &has_comp) != KP_OK ||
		    kp_k8s_get_bool(c, h->spec, "suspend", "spec.suspend", &suspend) != KP_OK)
			return KP_PARSE;
		if (!has)
			par = 1;
		if (par < 0 || (has_comp && comp < 0))
			return kp_k8s_bad(c, h->spec, "spec.parallelism/completions: must not be negative");
		w.replicas = suspend ? 0 : (has_comp && comp < par ? comp : par);
		if (w.replicas > KP_MAX_WORKLOAD_PODS)
			return kp_k8s_bad(c, kp_ymap_get(h->spec, has_comp && comp < par ? "completions" : "parallelism"),
					  "spec.%s: %lld pods is more than kplan generates for one workload (%d)",
				   has_comp && comp < par ? "completions" : "parallelism", (long long)w.replicas,
				   KP_MAX_WORKLOAD_PODS);
	} else {
		if (kp_k8s_get_int(c, h->spec, "replicas", "spec.replicas", &w.replicas, &has) != KP_OK)
			return KP_PARSE;
		if (!has)
			w.replicas = 1;
		const kp_ynode *rn = kp_ymap_get(h->spec, "replicas");
		if (w.replicas < 0)
			return kp_k8s_bad(c, rn, "spec.replicas: must not be negative");
		/* an int32 in the API; kplan generates at most KP_MAX_WORKLOAD_PODS pods per workload */
		if (w.replicas > INT32_MAX)
			return kp_k8s_bad(c, rn, "spec.replicas: %lld is out of the int32 range", (long long)w.replicas);
		if (w.replicas > KP_MAX_WORKLOAD_PODS)
			return kp_k8s_bad(c, rn, "spec.replicas: %lld pods is more than kplan generates for one workload (%d)",
					  (long long)w.replicas, KP_MAX_WORKLOAD_PODS);
	}
	/* selector: LabelSelector (apps/v1, batch/v1), a plain map (ReplicationController);
	 * absent -> the template's labels (old extensions/v1beta1 defaulting) */
	const kp_ynode *sel = kp_ymap_get(h->spec, "selector");
	if (sel && !strcmp(h->kind, "ReplicationController")) {
		kp_kvs kv;
		if (kp_k8s_get_kvs(c, h->spec, "selector", "spec.selector", &kv) != KP_OK || kp_k8s_map_selector(c, &kv, &w.selector))
			return KP_PARSE;
	} else if (sel) {
		if (kp_k8s_get_selector(c, h->spec, "selector", "spec.selector", &w.selector) != KP_OK)
			return KP_PARSE;
	} else if (kp_k8s_map_selector(c, &w.tmpl.labels, &w.selector) != KP_OK) {
		return KP_PARSE;
	}
	return kp_import_workload(c->imp, c->file, &w, c->err);
}

