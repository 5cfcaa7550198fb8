/*
 * store_class.c — pod classes: the scheduling-relevant spec of a pod (or a
 * workload's template), stored once however many pods share it.
 *
 * Contract: kp_store_class() writes the pod's canonical spec JSON into
 * imp->spec (the workload writer hashes it for pod-template-hash); the class
 * id is the spec's 64-bit hash (positive, never 0), probed linearly on a
 * collision (at most 64 probes), so the same spec gets the same id in every
 * database.  A class already verified in this batch is found in memory
 * (imp->classes); otherwise pod_class is asked, and a new class is written
 * with all its rows (requests, containers, host ports, node selector,
 * tolerations, node and pod affinity terms, spread constraints).  The JSON
 * texts (canonical, keys in a fixed order) are also what the class rows
 * hold for selectors and string lists.
 */
#include "store_int.h"

#include <stdio.h>
#include <string.h>

/* ---- canonical JSON for classes, selectors, string lists ---- */

static void json_strs(kp_sb *sb, const kp_strs *s)
{
	kp_sb_addc(sb, '[');
	for (size_t i = 0; i < s->n; i++) {
		if (i)
			kp_sb_addc(sb, ',');
		kp_sb_add_json_str(sb, s->v[i]);
	}
	kp_sb_addc(sb, ']');
}

void kp_store_json_reqs(kp_sb *sb, const kp_req *r, size_t n)
{
	kp_sb_addc(sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			kp_sb_addc(sb, ',');
		kp_sb_addc(sb, '[');
		kp_sb_add_json_str(sb, r[i].key);
		kp_sb_addc(sb, ',');
		kp_sb_add_json_str(sb, r[i].op);
		kp_sb_addc(sb, ',');
		json_strs(sb, &r[i].values);
		kp_sb_addc(sb, ']');
	}
	kp_sb_addc(sb, ']');
}

static void json_selector(kp_sb *sb, const kp_selector *s)
{
	if (!s->present)
		kp_sb_adds(sb, "null");
	else
		kp_store_json_reqs(sb, s->reqs, s->n);
}

static void json_kvs(kp_sb *sb, const kp_kvs *kv)
{
	kp_sb_addc(sb, '{');
	for (size_t i = 0; i < kv->n; i++) {
		if (i)
			kp_sb_addc(sb, ',');
		kp_sb_add_json_str(sb, kv->v[i].key);
		kp_sb_addc(sb, ':');
		kp_sb_add_json_str(sb, kv->v[i].value);
	}
	kp_sb_addc(sb, '}');
}

static void json_ress(kp_sb *sb, const kp_ress *r)
{
	kp_sb_addc(sb, '{');
	for (size_t i = 0; i < r->n; i++) {
		if (i)
			kp_sb_addc(sb, ',');
		kp_sb_add_json_str(sb, r->v[i].name);
		kp_sb_printf(sb, ":%lld", (long long)r->v[i].value);
	}
	kp_sb_addc(sb, '}');
}

static const char *const container_kinds[] = { "app", "init", "sidecar" };

/* the JSON of a selector into imp->json, returned as a string (NULL = null) */
const char *kp_store_selector_text(kp_import *imp, const kp_selector *s)
{
	if (!s->present)
		return NULL;
	kp_sb_reset(&imp->json);
	json_selector(&imp->json, s);
	return kp_arena_strdup(&imp->scratch, kp_sb_str(&imp->json));
}

const char *kp_store_strs_text(kp_import *imp, const kp_strs *s)
{
	kp_sb_reset(&imp->json);
	json_strs(&imp->json, s);
	return kp_arena_strdup(&imp->scratch, kp_sb_str(&imp->json));
}

const char *kp_store_kvs_text(kp_import *imp, const kp_kvs *kv)
{
	kp_sb_reset(&imp->json);
	json_kvs(&imp->json, kv);
	return kp_arena_strdup(&imp->scratch, kp_sb_str(&imp->json));
}

/* req, nz: kube 1.37's defaults; alt_*[v - 1]: variant v of
 * class_request_alt (schema.sql), nalt 3 when the pod has pod-level
 * resources or status resources that change its requests, else 0;
 * resized: the status resources change them */
typedef struct class_info {
	kp_ress req, nz;
	int nalt, resized;
	/* status kube 1.36 reads and kplan does not: a non-sidecar init
	 * container's resources, pod-level status.resources (run warning) */
	int init_resize, pod_resize;
	kp_ress alt_req[3], alt_nz[3];
} class_info;

static int ress_equal(const kp_ress *a, const kp_ress *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].name, b->v[i].name) || a->v[i].value != b->v[i].value)
			return 0;
	return 1;
}

/* container requests as given, with limits filling in missing requests */
static void json_container_requests(kp_sb *sb, const kp_container *c)
{
	kp_sb_addc(sb, '{');
	size_t k = 0;
	for (size_t i = 0; i < c->requests.n; i++) {
		kp_sb_printf(sb, "%s", k++ ? "," : "");
		kp_sb_add_json_str(sb, c->requests.v[i].name);
		kp_sb_printf(sb, ":%lld", (long long)c->requests.v[i].value);
	}
	for (size_t i = 0; i < c->limits.n; i++) {
		int have = 0;
		for (size_t j = 0; j < c->requests.n; j++)
			have |= strcmp(c->requests.v[j].name, c->limits.v[i].name) == 0;
		if (have)
			continue;
		kp_sb_printf(sb, "%s", k++ ? "," : "");
		kp_sb_add_json_str(sb, c->limits.v[i].name);
		kp_sb_printf(sb, ":%lld", (long long)c->limits.v[i].value);
	}
	kp_sb_addc(sb, '}');
}

/* the class spec's node and pod affinity and topology spread constraints */
static void spec_affinity(kp_sb *sb, const kp_pod_in *p)
{
	if (p->has_required_node_affinity || p->npreferred) {
		kp_sb_adds(sb, ",\"nodeAffinity\":{");
		if (p->has_required_node_affinity) {
			kp_sb_adds(sb, "\"required\":[");
			for (size_t i = 0; i < p->nrequired; i++) {
				kp_sb_adds(sb, i ? ",[" : "[");
				kp_store_json_reqs(sb, p->required_terms[i].exprs, p->required_terms[i].nexprs);
				kp_sb_addc(sb, ',');
				kp_store_json_reqs(sb, p->required_terms[i].fields, p->required_terms[i].nfields);
				kp_sb_addc(sb, ']');
			}
			kp_sb_addc(sb, ']');
		}
		if (p->npreferred) {
			kp_sb_adds(sb, p->has_required_node_affinity ? ",\"preferred\":[" : "\"preferred\":[");
			for (size_t i = 0; i < p->npreferred; i++) {
				kp_sb_printf(sb, "%s[%lld,", i ? "," : "", (long long)p->preferred_terms[i].weight);
				kp_store_json_reqs(sb, p->preferred_terms[i].exprs, p->preferred_terms[i].nexprs);
				kp_sb_addc(sb, ',');
				kp_store_json_reqs(sb, p->preferred_terms[i].fields, p->preferred_terms[i].nfields);
				kp_sb_addc(sb, ']');
			}
			kp_sb_addc(sb, ']');
		}
		kp_sb_addc(sb, '}');
	}
	if (p->npod_terms) {
		kp_sb_adds(sb, ",\"podAffinity\":[");
		for (size_t i = 0; i < p->npod_terms; i++) {
			const kp_pod_term *t = &p->pod_terms[i];
			kp_sb_printf(sb, "%s[%d,%d,%lld,", i ? "," : "", t->anti, t->required, (long long)t->weight);
			kp_sb_add_json_str(sb, t->topology_key);
			kp_sb_addc(sb, ',');
			json_selector(sb, &t->selector);
			kp_sb_addc(sb, ',');
			json_strs(sb, &t->namespaces);
			kp_sb_addc(sb, ',');
			json_selector(sb, &t->ns_selector);
			kp_sb_addc(sb, ',');
			json_strs(sb, &t->match_label_keys);
			kp_sb_addc(sb, ',');
			json_strs(sb, &t->mismatch_label_keys);
			kp_sb_addc(sb, ']');
		}
		kp_sb_addc(sb, ']');
	}
	if (p->nspreads) {
		kp_sb_adds(sb, ",\"topologySpread\":[");
		for (size_t i = 0; i < p->nspreads; i++) {
			const kp_spread *s = &p->spreads[i];
			kp_sb_printf(sb, "%s[%lld,", i ? "," : "", (long long)s->max_skew);
			kp_sb_add_json_str(sb, s->topology_key);
			kp_sb_addc(sb, ',');
			kp_sb_add_json_str(sb, s->when_unsatisfiable);
			kp_sb_addc(sb, ',');
			json_selector(sb, &s->selector);
			kp_sb_printf(sb, ",%lld,", (long long)s->min_domains);
			kp_sb_add_json_str(sb, s->node_affinity_policy ? s->node_affinity_policy : "Honor");
			kp_sb_addc(sb, ',');
			kp_sb_add_json_str(sb, s->node_taints_policy ? s->node_taints_policy : "Ignore");
			kp_sb_addc(sb, ',');
			json_strs(sb, &s->match_label_keys);
			kp_sb_addc(sb, ']');
		}
		kp_sb_addc(sb, ']');
	}
}

/* The canonical JSON of pod p's class: everything scheduling reads, in a
 * fixed order, defaults spelled out. */
static void class_spec(kp_sb *sb, const kp_pod_in *p, const class_info *ci)
{
	kp_sb_reset(sb);
	kp_sb_adds(sb, "{\"namespace\":");
	kp_sb_add_json_str(sb, p->namespace_);
	kp_sb_adds(sb, ",\"scheduler\":");
	kp_sb_add_json_str(sb, p->scheduler_name ? p->scheduler_name : "default-scheduler");
	if (p->has_priority)
		kp_sb_printf(sb, ",\"priority\":%lld", (long long)p->priority);
	if (p->priority_class) {
		kp_sb_adds(sb, ",\"priorityClass\":");
		kp_sb_add_json_str(sb, p->priority_class);
	}
	if (p->preemption_policy) {
		kp_sb_adds(sb, ",\"preemptionPolicy\":");
		kp_sb_add_json_str(sb, p->preemption_policy);
	}
	if (p->scheduling_gates)
		kp_sb_printf(sb, ",\"schedulingGates\":%d", p->scheduling_gates);
	if (p->pvc_volumes)
		kp_sb_printf(sb, ",\"pvcVolumes\":%d", p->pvc_volumes);
	/* pods with DRA claims never share a class with pods without (their
	 * claims are per pod: pod_resource_claim) */
	if (p->nclaims)
		kp_sb_printf(sb, ",\"resourceClaims\":%zu", p->nclaims);
	if (p->host_network)
		kp_sb_adds(sb, ",\"hostNetwork\":true");
	kp_sb_adds(sb, ",\"requests\":");
	json_ress(sb, &ci->req);
	kp_sb_adds(sb, ",\"nonzero\":");
	json_ress(sb, &ci->nz);
	/* what kube versions read differently: the classes differ with it */
	if (ci->nalt) {
		kp_sb_adds(sb, ",\"variants\":[");
		for (int v = 0; v < ci->nalt; v++) {
			kp_sb_adds(sb, v ? ",[" : "[");
			json_ress(sb, &ci->alt_req[v]);
			kp_sb_addc(sb, ',');
			json_ress(sb, &ci->alt_nz[v]);
			kp_sb_addc(sb, ']');
		}
		kp_sb_addc(sb, ']');
	}
	if (ci->init_resize || ci->pod_resize)
		kp_sb_printf(sb, ",\"unmodelledResize\":[%d,%d]", ci->init_resize, ci->pod_resize);
	if (p->features.n) {
		kp_sb_adds(sb, ",\"features\":");
		json_strs(sb, &p->features);
	}
	kp_sb_adds(sb, ",\"containers\":[");
	for (size_t i = 0; i < p->ncontainers; i++) {
		const kp_container *c = &p->containers[i];
		kp_sb_printf(sb, "%s[\"%s\",", i ? "," : "", container_kinds[c->kind]);
		kp_sb_add_json_str(sb, c->name);
		kp_sb_addc(sb, ',');
		kp_sb_add_json_str(sb, c->image);
		kp_sb_addc(sb, ',');
		json_container_requests(sb, c);
		kp_sb_adds(sb, ",[");
		for (size_t j = 0; j < c->nports; j++) {
			const kp_port *o = &c->ports[j];
			kp_sb_printf(sb, "%s[", j ? "," : "");
			kp_sb_add_json_str(sb, o->host_ip ? o->host_ip : "0.0.0.0");
			kp_sb_addc(sb, ',');
			kp_sb_add_json_str(sb, o->protocol ? o->protocol : "TCP");
			kp_sb_printf(sb, ",%lld,%lld]", (long long)o->host_port, (long long)o->container_port);
		}
		kp_sb_adds(sb, "]]");
	}
	kp_sb_adds(sb, "]");
	if (p->overhead.n) {
		kp_sb_adds(sb, ",\"overhead\":");
		json_ress(sb, &p->overhead);
	}
	if (p->node_selector.n) {
		kp_sb_adds(sb, ",\"nodeSelector\":");
		json_kvs(sb, &p->node_selector);
	}
	if (p->ntolerations) {
		kp_sb_adds(sb, ",\"tolerations\":[");
		for (size_t i = 0; i < p->ntolerations; i++) {
			const kp_toleration *t = &p->tolerations[i];
			kp_sb_adds(sb, i ? ",[" : "[");
			kp_sb_add_json_str(sb, t->key ? t->key : "");
			kp_sb_addc(sb, ',');
			kp_sb_add_json_str(sb, t->op ? t->op : "Equal");
			kp_sb_addc(sb, ',');
			kp_sb_add_json_str(sb, t->value ? t->value : "");
			kp_sb_addc(sb, ',');
			kp_sb_add_json_str(sb, t->effect ? t->effect : "");
			if (t->seconds != INT64_MIN)
				kp_sb_printf(sb, ",%lld", (long long)t->seconds);
			kp_sb_addc(sb, ']');
		}
		kp_sb_addc(sb, ']');
	}
	spec_affinity(sb, p);
	kp_sb_addc(sb, '}');
}

static kp_class_slot *class_cache_find(kp_import *imp, int64_t id)
{
	for (size_t i = 0; i < imp->nclasses; i++)   /* classes are few; see kp_import_pod */
		if (imp->classes[i].id == id)
			return &imp->classes[i];
	return NULL;
}

static int class_cache_add(kp_import *imp, int64_t id, const char *spec, kp_err *err)
{
	if (KP_GROW(imp->classes, imp->nclasses, imp->cap_classes, 64))
		return kp_err_set(err, KP_NOMEM, "out of memory");
	char *copy = kp_strdup(spec);
	if (!copy)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	imp->classes[imp->nclasses++] = (kp_class_slot){ id, copy };
	return KP_OK;
}

/* a new class's node affinity terms, pod (anti-)affinity terms and spread constraints */
static int insert_class_terms(kp_import *imp, int64_t id, const kp_pod_in *p, kp_err *err)
{
	sqlite3_stmt *s;
	for (int req = 1; req >= 0; req--) {
		const kp_node_term *terms = req ? p->required_terms : p->preferred_terms;
		size_t nterms = req ? p->nrequired : p->npreferred;
		for (size_t i = 0; i < nterms; i++) {
			s = stmt(imp, S_CLASS_NTERM);
			sqlite3_bind_int64(s, 1, id);
			sqlite3_bind_int(s, 2, req);
			sqlite3_bind_int64(s, 3, (int64_t)i);
			sqlite3_bind_int64(s, 4, terms[i].weight);
			if (exec(imp, s, err, "storing node affinity"))
				return err->code;
			int seq = 0;
			for (int field = 0; field < 2; field++) {
				const kp_req *e = field ? terms[i].fields : terms[i].exprs;
				size_t ne = field ? terms[i].nfields : terms[i].nexprs;
				for (size_t j = 0; j < ne; j++) {
					s = stmt(imp, S_CLASS_NEXPR);
					sqlite3_bind_int64(s, 1, id);
					sqlite3_bind_int(s, 2, req);
					sqlite3_bind_int64(s, 3, (int64_t)i);
					sqlite3_bind_int(s, 4, seq++);
					sqlite3_bind_int(s, 5, field);
					bind_text(s, 6, e[j].key);
					bind_text(s, 7, e[j].op);
					bind_text(s, 8, kp_store_strs_text(imp, &e[j].values));
					if (exec(imp, s, err, "storing node affinity"))
						return err->code;
				}
			}
		}
	}
	for (size_t i = 0; i < p->npod_terms; i++) {
		const kp_pod_term *t = &p->pod_terms[i];
		s = stmt(imp, S_CLASS_PAFF);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		sqlite3_bind_int(s, 3, t->anti);
		sqlite3_bind_int(s, 4, t->required);
		sqlite3_bind_int64(s, 5, t->weight);
		bind_text(s, 6, t->topology_key);
		bind_text(s, 7, kp_store_selector_text(imp, &t->selector));
		bind_text(s, 8, kp_store_strs_text(imp, &t->namespaces));
		bind_text(s, 9, kp_store_selector_text(imp, &t->ns_selector));
		bind_text(s, 10, kp_store_strs_text(imp, &t->match_label_keys));
		bind_text(s, 11, kp_store_strs_text(imp, &t->mismatch_label_keys));
		if (exec(imp, s, err, "storing pod affinity"))
			return err->code;
	}
	for (size_t i = 0; i < p->nspreads; i++) {
		const kp_spread *t = &p->spreads[i];
		s = stmt(imp, S_CLASS_SPREAD);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		sqlite3_bind_int64(s, 3, t->max_skew);
		bind_text(s, 4, t->topology_key);
		bind_text(s, 5, t->when_unsatisfiable);
		bind_text(s, 6, kp_store_selector_text(imp, &t->selector));
		if (t->min_domains > 0)
			sqlite3_bind_int64(s, 7, t->min_domains);
		bind_text(s, 8, t->node_affinity_policy ? t->node_affinity_policy : "Honor");
		bind_text(s, 9, t->node_taints_policy ? t->node_taints_policy : "Ignore");
		bind_text(s, 10, kp_store_strs_text(imp, &t->match_label_keys));
		if (exec(imp, s, err, "storing topology spread constraints"))
			return err->code;
	}
	return KP_OK;
}

/* a new class's rows of the kube section (schema.sql): its requests when a
 * gate is off, the node features its pods require */
static int insert_kube_rows(kp_import *imp, int64_t id, const kp_pod_in *p, const class_info *ci, kp_err *err)
{
	for (int v = 0; v < ci->nalt; v++)
		for (int nz = 0; nz < 2; nz++) {
			const kp_ress *r = nz ? &ci->alt_nz[v] : &ci->alt_req[v];
			for (size_t i = 0; i < r->n; i++) {
				sqlite3_stmt *s = stmt(imp, S_CLASS_REQ_ALT);
				sqlite3_bind_int64(s, 1, id);
				sqlite3_bind_int(s, 2, v + 1);
				sqlite3_bind_int(s, 3, nz);
				bind_text(s, 4, r->v[i].name);
				sqlite3_bind_int64(s, 5, r->v[i].value);
				if (exec(imp, s, err, "storing requests"))
					return err->code;
			}
		}
	const char *inputs[4] = { p->pod_requests.n || p->pod_limits.n ? "pod-level-resources" : NULL,
				  ci->resized ? "resize-status" : NULL, ci->init_resize ? "init-resize-status" : NULL,
				  ci->pod_resize ? "pod-resize-status" : NULL };
	for (int i = 0; i < 4; i++) {
		if (!inputs[i])
			continue;
		sqlite3_stmt *s = stmt(imp, S_CLASS_KINPUT);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, inputs[i]);
		if (exec(imp, s, err, "storing requests"))
			return err->code;
	}
	for (size_t i = 0; i < p->features.n; i++) {
		sqlite3_stmt *s = stmt(imp, S_CLASS_FEAT);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, p->features.v[i]);
		if (exec(imp, s, err, "storing required node features"))
			return err->code;
	}
	return KP_OK;
}

/* a new class: its row and requests, containers, host ports, node selector, tolerations */
static int insert_class_rows(kp_import *imp, int64_t id, const kp_pod_in *p, const class_info *ci, kp_err *err)
{
	sqlite3_stmt *s = stmt(imp, S_CLASS_INS);
	int64_t nz_cpu = 0, nz_mem = 0;
	for (size_t i = 0; i < ci->nz.n; i++) {
		if (!strcmp(ci->nz.v[i].name, "cpu"))
			nz_cpu = ci->nz.v[i].value;
		if (!strcmp(ci->nz.v[i].name, "memory"))
			nz_mem = ci->nz.v[i].value;
	}
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, kp_sb_str(&imp->spec), -1, SQLITE_TRANSIENT);
	bind_text(s, 3, p->namespace_);
	bind_text(s, 4, p->scheduler_name ? p->scheduler_name : "default-scheduler");
	if (p->has_priority)
		sqlite3_bind_int64(s, 5, p->priority);
	bind_text(s, 6, p->priority_class);
	bind_text(s, 7, p->preemption_policy);
	sqlite3_bind_int64(s, 8, nz_cpu);
	sqlite3_bind_int64(s, 9, nz_mem);
	sqlite3_bind_int(s, 10, p->scheduling_gates);
	sqlite3_bind_int(s, 11, p->pvc_volumes);
	sqlite3_bind_int(s, 12, p->host_network);
	sqlite3_bind_int(s, 13, p->has_required_node_affinity);
	if (exec(imp, s, err, "storing a pod class"))
		return err->code;
	for (size_t i = 0; i < ci->req.n; i++) {
		s = stmt(imp, S_CLASS_REQ);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, ci->req.v[i].name);
		sqlite3_bind_int64(s, 3, ci->req.v[i].value);
		if (exec(imp, s, err, "storing requests"))
			return err->code;
	}
	if (insert_kube_rows(imp, id, p, ci, err))
		return err->code;
	int port_seq = 0;
	for (size_t i = 0; i < p->ncontainers; i++) {
		const kp_container *c = &p->containers[i];
		s = stmt(imp, S_CLASS_CONT);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		bind_text(s, 3, container_kinds[c->kind]);
		bind_text(s, 4, c->name);
		bind_text(s, 5, c->image);
		kp_sb_reset(&imp->json);
		json_container_requests(&imp->json, c);
		bind_text(s, 6, kp_sb_str(&imp->json));
		if (exec(imp, s, err, "storing containers"))
			return err->code;
		for (size_t j = 0; j < c->nports; j++) {
			s = stmt(imp, S_CLASS_PORT);
			sqlite3_bind_int64(s, 1, id);
			sqlite3_bind_int(s, 2, port_seq++);
			bind_text(s, 3, c->ports[j].host_ip && c->ports[j].host_ip[0] ? c->ports[j].host_ip : "0.0.0.0");
			bind_text(s, 4, c->ports[j].protocol ? c->ports[j].protocol : "TCP");
			sqlite3_bind_int64(s, 5, c->ports[j].host_port);
			sqlite3_bind_int64(s, 6, c->ports[j].container_port);
			sqlite3_bind_int(s, 7, c->kind == KP_CONTAINER_SIDECAR);
			if (exec(imp, s, err, "storing host ports"))
				return err->code;
		}
	}
	for (size_t i = 0; i < p->node_selector.n; i++) {
		s = stmt(imp, S_CLASS_NSEL);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, p->node_selector.v[i].key);
		bind_text(s, 3, p->node_selector.v[i].value);
		if (exec(imp, s, err, "storing the node selector"))
			return err->code;
	}
	for (size_t i = 0; i < p->ntolerations; i++) {
		const kp_toleration *t = &p->tolerations[i];
		s = stmt(imp, S_CLASS_TOL);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		bind_text(s, 3, t->key ? t->key : "");
		bind_text(s, 4, t->op ? t->op : "Equal");
		bind_text(s, 5, t->value ? t->value : "");
		bind_text(s, 6, t->effect ? t->effect : "");
		bind_time(s, 7, t->seconds);
		if (exec(imp, s, err, "storing tolerations"))
			return err->code;
	}
	return insert_class_terms(imp, id, p, err);
}

/* Find or create the class of pod p; *out = its id. */
int kp_store_class(kp_import *imp, const kp_pod_in *p, int64_t *out, kp_err *err)
{
	class_info ci;
	memset(&ci, 0, sizeof ci);
	if (kp_pod_requests(p, 0, &imp->scratch, &ci.req, err) != KP_OK ||
	    kp_pod_requests(p, KP_REQ_NONZERO, &imp->scratch, &ci.nz, err) != KP_OK)
		return err->code;
	if (p->pod_requests.n || p->pod_limits.n || p->nstatuses) {
		for (int v = 1; v <= 3; v++) {
			int f = (v & 1 ? KP_REQ_NO_POD_LEVEL : 0) | (v & 2 ? KP_REQ_NO_STATUS : 0);
			if (kp_pod_requests(p, f, &imp->scratch, &ci.alt_req[v - 1], err) != KP_OK ||
			    kp_pod_requests(p, f | KP_REQ_NONZERO, &imp->scratch, &ci.alt_nz[v - 1], err) != KP_OK)
				return err->code;
		}
		/* a status that repeats the spec (every running pod of a 1.33+
		 * cluster reports one) changes nothing: no variants, the class shared */
		ci.resized = !ress_equal(&ci.req, &ci.alt_req[1]) || !ress_equal(&ci.nz, &ci.alt_nz[1]) ||
			     !ress_equal(&ci.alt_req[0], &ci.alt_req[2]) || !ress_equal(&ci.alt_nz[0], &ci.alt_nz[2]);
		ci.nalt = p->pod_requests.n || p->pod_limits.n || ci.resized ? 3 : 0;
	}
	ci.pod_resize = p->pod_status_resources;
	for (size_t j = 0; j < p->ncontainers && !ci.init_resize; j++)
		ci.init_resize = p->containers[j].kind == KP_CONTAINER_INIT && kp_container_status(p, &p->containers[j], 1);
	class_spec(&imp->spec, p, &ci);
	if (!kp_sb_ok(&imp->spec))
		return kp_err_set(err, KP_NOMEM, "out of memory");
	const char *spec = kp_sb_str(&imp->spec);
	int64_t id = (int64_t)(kp_hash64(spec, imp->spec.len, 0) & INT64_MAX);
	for (int probe = 0; probe < 64; probe++, id = (id + 1) & INT64_MAX) {
		if (id == 0)
			id = 1;
		kp_class_slot *slot = class_cache_find(imp, id);
		if (slot) {
			if (strcmp(slot->spec, spec) == 0) {
				*out = id;
				return KP_OK;
			}
			continue;
		}
		sqlite3_stmt *s = stmt(imp, S_CLASS_FIND);
		sqlite3_bind_int64(s, 1, id);
		int rc = sqlite3_step(s);
		if (rc == SQLITE_ROW) {
			int same = strcmp((const char *)sqlite3_column_text(s, 0), spec) == 0;
			if (!same)
				continue;
			*out = id;
			return class_cache_add(imp, id, spec, err);
		}
		if (rc != SQLITE_DONE)
			return kp_store_db_fail(imp, err, "looking up a pod class");
		if (insert_class_rows(imp, id, p, &ci, err) != KP_OK)
			return err->code;
		*out = id;
		return class_cache_add(imp, id, spec, err);
	}
	return kp_err_set(err, KP_ERROR, "too many hash collisions for pod classes");
}
