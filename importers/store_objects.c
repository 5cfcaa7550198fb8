/*
 * store_objects.c — one object read, written as rows: nodes, pods, workloads,
 * PriorityClasses, PodDisruptionBudgets, Services, Namespaces and
 * KubeSchedulerConfigurations (the kp_import_* calls of store.h); a pod's
 * and a template's volumes go through store_storage.c, their resource
 * claims through store_dra.c.
 *
 * Contract:
 *  - an object replaces the row of the same kind/namespace/name and keeps its
 *    id (child rows are rewritten); the same object twice in ONE batch is an
 *    error that names both places ("also defined at FILE:LINE");
 *  - a pod's scheduling-relevant spec goes to its class (store_class.c); a
 *    workload stores its template's class, and a DaemonSet also the class of
 *    the pods its controller makes (with the tolerations it adds);
 *  - the per-object scratch arena is reset after each object.
 */
#include "store_int.h"

#include <stdio.h>
#include <string.h>

/* progress: an object starting at `line` of the current buffer was read */
static void progress_tick(kp_import *imp, unsigned line)
{
	if (!imp->opts.progress)
		return;
	imp->objects++;
	while (imp->cur_line < line && imp->cur_off < imp->cur_len) {
		const char *nl = memchr(imp->cur_data + imp->cur_off, '\n', imp->cur_len - imp->cur_off);
		imp->cur_off = nl ? (size_t)(nl - imp->cur_data) + 1 : imp->cur_len;
		imp->cur_line++;
	}
	if (imp->objects % 16 == 0) {
		kp_import_progress p = { .phase = KP_IMPORT_READING, .bytes = imp->cur_base + (long long)imp->cur_off,
					 .objects = imp->objects };
		imp->opts.progress(imp->opts.progress_ctx, &p);
	}
}

static int duplicate(kp_import *imp, const kp_found *f, const char *file, kp_pos pos, kp_err *err)
{
	(void)imp;
	kp_err_set(err, KP_PARSE, "duplicate object in one import: also defined at %s", f->where);
	kp_err_locate(err, file, pos.line, pos.col, NULL);
	return KP_PARSE;
}

int kp_import_node(kp_import *imp, const char *file, const kp_node_in *n, kp_err *err)
{
	if (kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	progress_tick(imp, n->pos.line);
	kp_found f;
	sqlite3_stmt *s = stmt(imp, S_NODE_FIND);
	bind_text(s, 1, n->name);
	int have = kp_store_find_row(imp, s, &f, err);
	if (have < 0)
		return have;
	if (have && f.batch_id == imp->batch_id)
		return duplicate(imp, &f, file, n->pos, err);
	s = stmt(imp, have ? S_NODE_UPD : S_NODE_INS);
	if (have)
		sqlite3_bind_int64(s, 1, f.id);
	int o = have ? 1 : 0;   /* INSERT binds from ?1, UPDATE from ?2 */
	if (!have)
		bind_text(s, 1, n->name);
	bind_text(s, 2 + o - o, n->uid);
	sqlite3_bind_int(s, 3, n->unschedulable);
	bind_time(s, 4, n->created);
	bind_text(s, 5, file);
	sqlite3_bind_int(s, 6, (int)n->pos.line);
	sqlite3_bind_int64(s, 7, imp->batch_id);
	if (exec(imp, s, err, "storing a node"))
		return err->code;
	int64_t id = have ? f.id : sqlite3_last_insert_rowid(imp->db);
	if (have) {
		for (int k = S_NODE_DEL_RES; k <= S_NODE_DEL_FEAT; k++) {
			s = stmt(imp, k);
			sqlite3_bind_int64(s, 1, id);
			if (exec(imp, s, err, "replacing a node"))
				return err->code;
		}
	}
	/* resources: allocatable and capacity side by side */
	for (int pass = 0; pass < 2; pass++) {
		const kp_ress *r = pass ? &n->capacity : &n->allocatable;
		for (size_t i = 0; i < r->n; i++) {
			if (pass) {
				int seen = 0;
				for (size_t j = 0; j < n->allocatable.n; j++)
					seen |= !strcmp(n->allocatable.v[j].name, r->v[i].name);
				if (seen)
					continue;
			}
			s = stmt(imp, S_NODE_RES);
			sqlite3_bind_int64(s, 1, id);
			bind_text(s, 2, r->v[i].name);
			if (!pass)
				sqlite3_bind_int64(s, 3, r->v[i].value);
			for (size_t j = 0; j < n->capacity.n; j++)
				if (!strcmp(n->capacity.v[j].name, r->v[i].name))
					sqlite3_bind_int64(s, 4, n->capacity.v[j].value);
			if (exec(imp, s, err, "storing node resources"))
				return err->code;
		}
	}
	for (size_t i = 0; i < n->labels.n; i++) {
		s = stmt(imp, S_NODE_LABEL);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, n->labels.v[i].key);
		bind_text(s, 3, n->labels.v[i].value);
		if (exec(imp, s, err, "storing node labels"))
			return err->code;
	}
	for (size_t i = 0; i < n->ntaints; i++) {
		s = stmt(imp, S_NODE_TAINT);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		bind_text(s, 3, n->taints[i].key);
		bind_text(s, 4, n->taints[i].value ? n->taints[i].value : "");
		bind_text(s, 5, n->taints[i].effect);
		if (exec(imp, s, err, "storing node taints"))
			return err->code;
	}
	for (size_t i = 0; i < n->nimages; i++)
		for (size_t j = 0; j < n->images[i].names.n; j++) {
			s = stmt(imp, S_NODE_IMAGE);
			sqlite3_bind_int64(s, 1, id);
			sqlite3_bind_int64(s, 2, (int64_t)i);
			bind_text(s, 3, n->images[i].names.v[j]);
			sqlite3_bind_int64(s, 4, n->images[i].size_bytes);
			if (exec(imp, s, err, "storing node images"))
				return err->code;
		}
	for (size_t i = 0; i < n->declared_features.n; i++) {
		s = stmt(imp, S_NODE_FEAT);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, n->declared_features.v[i]);
		if (exec(imp, s, err, "storing node declared features"))
			return err->code;
	}
	imp->stats.nodes++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

int kp_store_write_pod(kp_import *imp, int64_t existing, const kp_pod_in *p, int64_t class_id, int64_t workload_id,
		       const char *daemon_node, const char *file, int64_t *id_out, kp_err *err)
{
	sqlite3_stmt *s = stmt(imp, existing ? S_POD_UPD : S_POD_INS);
	if (existing)
		sqlite3_bind_int64(s, 1, existing);
	bind_text(s, 2, p->namespace_);
	bind_text(s, 3, p->name);
	bind_text(s, 4, p->uid);
	sqlite3_bind_int64(s, 5, class_id);
	bind_text(s, 6, p->node_name);
	bind_text(s, 7, p->phase ? p->phase : "Pending");
	bind_time(s, 8, p->created);
	bind_time(s, 9, p->start_time);
	sqlite3_bind_int(s, 10, p->terminating);
	bind_text(s, 11, p->nominated_node && p->nominated_node[0] ? p->nominated_node : NULL);
	bind_text(s, 12, p->owner.kind);
	bind_text(s, 13, p->owner.name);
	bind_text(s, 14, p->owner.uid);
	if (workload_id)
		sqlite3_bind_int64(s, 15, workload_id);
	bind_text(s, 16, file);
	sqlite3_bind_int(s, 17, (int)p->pos.line);
	sqlite3_bind_int64(s, 18, imp->batch_id);
	bind_text(s, 19, daemon_node);
	if (exec(imp, s, err, "storing a pod"))
		return err->code;
	int64_t id = existing ? existing : sqlite3_last_insert_rowid(imp->db);
	if (existing) {
		s = stmt(imp, S_POD_DEL_LABEL);
		sqlite3_bind_int64(s, 1, id);
		if (exec(imp, s, err, "replacing pod labels"))
			return err->code;
	}
	for (size_t i = 0; i < p->labels.n; i++) {
		s = stmt(imp, S_POD_LABEL);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, p->labels.v[i].key);
		bind_text(s, 3, p->labels.v[i].value);
		if (exec(imp, s, err, "storing pod labels"))
			return err->code;
	}
	*id_out = id;
	return KP_OK;
}

int kp_import_pod(kp_import *imp, const char *file, const kp_pod_in *p, kp_err *err)
{
	if (kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	progress_tick(imp, p->pos.line);
	kp_found f;
	sqlite3_stmt *s = stmt(imp, S_POD_FIND);
	bind_text(s, 1, p->namespace_);
	bind_text(s, 2, p->name);
	int have = kp_store_find_row(imp, s, &f, err);
	if (have < 0)
		return have;
	if (have && f.batch_id == imp->batch_id && !f.workload_id)
		return duplicate(imp, &f, file, p->pos, err);
	int64_t class_id, id;
	if (kp_store_class(imp, p, &class_id, err) != KP_OK)
		return err->code;
	if (kp_store_write_pod(imp, have ? f.id : 0, p, class_id, 0, NULL, file, &id, err) != KP_OK ||
	    kp_store_volumes(imp, id, 0, p, err) != KP_OK || kp_store_pod_claims(imp, id, 0, have, p, err) != KP_OK ||
	    kp_store_gang_member(imp, id, 0, p, err) != KP_OK)
		return err->code;
	imp->stats.pods++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

/* pod-template-hash: FNV-32a of the template, encoded the way
 * rand.SafeEncodeString encodes it (consonants and digits only) */
static void template_hash(const char *spec, const char *labels, char out[11])
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	uint32_t h = 2166136261u;
	for (const char *p = spec; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	for (const char *p = labels; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	char digits[11];
	int n = snprintf(digits, sizeof digits, "%u", h);
	for (int i = 0; i < n; i++)
		out[i] = alphabet[(unsigned char)digits[i] % 27];
	out[n] = 0;
}

int kp_import_workload(kp_import *imp, const char *file, const kp_workload_in *w, kp_err *err)
{
	if (kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	progress_tick(imp, w->pos.line);
	/* replicas is an int32 in the API; kplan generates at most KP_MAX_WORKLOAD_PODS pods per workload */
	if (w->replicas > INT32_MAX) {
		kp_err_set(err, KP_PARSE, "spec.replicas: %lld is out of the int32 range", (long long)w->replicas);
		kp_err_locate(err, file, w->pos.line, w->pos.col, NULL);
		return KP_PARSE;
	}
	if (w->replicas > KP_MAX_WORKLOAD_PODS) {
		kp_err_set(err, KP_PARSE, "spec.replicas: %lld pods is more than kplan generates for one workload (%d)",
			   (long long)w->replicas, KP_MAX_WORKLOAD_PODS);
		kp_err_locate(err, file, w->pos.line, w->pos.col, NULL);
		return KP_PARSE;
	}
	kp_found f;
	sqlite3_stmt *s = stmt(imp, S_WL_FIND);
	bind_text(s, 1, w->kind);
	bind_text(s, 2, w->namespace_);
	bind_text(s, 3, w->name);
	int have = kp_store_find_row(imp, s, &f, err);
	if (have < 0)
		return have;
	if (have && f.batch_id == imp->batch_id)
		return duplicate(imp, &f, file, w->pos, err);
	int64_t class_id, pod_class_id;
	if (kp_store_class(imp, &w->tmpl, &class_id, err) != KP_OK)
		return err->code;
	pod_class_id = class_id;
	kp_pod_in tmpl = w->tmpl;
	if (!strcmp(w->kind, "DaemonSet")) {
		/* the tolerations the DaemonSet controller adds to its pods
		 * (AddOrUpdateDaemonPodTolerations) */
		static const struct { const char *key, *effect; } extra[] = {
			{ "node.kubernetes.io/not-ready", "NoExecute" }, { "node.kubernetes.io/unreachable", "NoExecute" },
			{ "node.kubernetes.io/disk-pressure", "NoSchedule" }, { "node.kubernetes.io/memory-pressure", "NoSchedule" },
			{ "node.kubernetes.io/pid-pressure", "NoSchedule" }, { "node.kubernetes.io/unschedulable", "NoSchedule" },
			{ "node.kubernetes.io/network-unavailable", "NoSchedule" },
		};
		size_t nextra = tmpl.host_network ? 7 : 6;
		kp_toleration *t = kp_arena_alloc(&imp->scratch, (tmpl.ntolerations + nextra) * sizeof *t);
		if (!t)
			return kp_err_set(err, KP_NOMEM, "out of memory");
		if (tmpl.ntolerations)
			memcpy(t, tmpl.tolerations, tmpl.ntolerations * sizeof *t);
		for (size_t i = 0; i < nextra; i++)
			t[tmpl.ntolerations + i] = (kp_toleration){ extra[i].key, "Exists", NULL, extra[i].effect, INT64_MIN };
		tmpl.tolerations = t;
		tmpl.ntolerations += nextra;
		if (kp_store_class(imp, &tmpl, &pod_class_id, err) != KP_OK)
			return err->code;
		/* the template hash below covers the template as written */
		if (kp_store_class(imp, &w->tmpl, &class_id, err) != KP_OK)
			return err->code;
	}
	char spec_copy_hash[11];
	const char *labels = kp_store_kvs_text(imp, &w->tmpl.labels);
	template_hash(kp_sb_str(&imp->spec), labels ? labels : "", spec_copy_hash);
	s = stmt(imp, have ? S_WL_UPD : S_WL_INS);
	if (have)
		sqlite3_bind_int64(s, 1, f.id);
	bind_text(s, 2, w->kind);
	bind_text(s, 3, w->namespace_);
	bind_text(s, 4, w->name);
	bind_text(s, 5, w->uid);
	bind_text(s, 6, w->api_version);
	if (w->replicas >= 0)
		sqlite3_bind_int64(s, 7, w->replicas);
	bind_text(s, 8, kp_store_selector_text(imp, &w->selector));
	bind_text(s, 9, w->owner.kind);
	bind_text(s, 10, w->owner.name);
	bind_text(s, 11, spec_copy_hash);
	sqlite3_bind_int64(s, 12, class_id);
	bind_text(s, 13, labels);
	bind_time(s, 14, w->created);
	bind_text(s, 15, file);
	sqlite3_bind_int(s, 16, (int)w->pos.line);
	sqlite3_bind_int64(s, 17, imp->batch_id);
	sqlite3_bind_int64(s, 18, pod_class_id);
	if (exec(imp, s, err, "storing a workload"))
		return err->code;
	int64_t wid = have ? f.id : sqlite3_last_insert_rowid(imp->db);
	if (kp_store_volumes(imp, wid, 1, &w->tmpl, err) != KP_OK || kp_store_claim_templates(imp, wid, w, err) != KP_OK ||
	    kp_store_pod_claims(imp, wid, 1, have, &w->tmpl, err) != KP_OK ||
	    kp_store_gang_member(imp, wid, 1, &w->tmpl, err) != KP_OK)
		return err->code;
	imp->stats.workloads++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

int kp_store_find_dup(kp_import *imp, int which, const char *a, const char *b, const char *file, kp_pos pos,
		      kp_err *err)
{
	kp_found f;
	sqlite3_stmt *s = stmt(imp, which);
	bind_text(s, 1, a);
	if (b)
		bind_text(s, 2, b);
	int have = kp_store_find_row(imp, s, &f, err);
	if (have < 0)
		return have;
	if (have && f.batch_id == imp->batch_id)
		return duplicate(imp, &f, file, pos, err);
	return have;
}

int kp_import_priority_class(kp_import *imp, const char *file, const kp_priority_class_in *pc, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_PC_FIND, pc->name, NULL, file, pc->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_PC_UPSERT);
	bind_text(s, 1, pc->name);
	sqlite3_bind_int64(s, 2, pc->value);
	sqlite3_bind_int(s, 3, pc->global_default);
	bind_text(s, 4, pc->preemption_policy ? pc->preemption_policy : "PreemptLowerPriority");
	bind_text(s, 5, pc->description);
	bind_text(s, 6, file);
	sqlite3_bind_int(s, 7, (int)pc->pos.line);
	sqlite3_bind_int64(s, 8, imp->batch_id);
	if (exec(imp, s, err, "storing a priority class"))
		return err->code;
	imp->stats.priority_classes++;
	return KP_OK;
}

int kp_import_pdb(kp_import *imp, const char *file, const kp_pdb_in *d, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_PDB_FIND, d->namespace_, d->name, file, d->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_PDB_UPSERT);
	bind_text(s, 1, d->namespace_);
	bind_text(s, 2, d->name);
	bind_text(s, 3, d->api_version ? d->api_version : "policy/v1");
	bind_text(s, 4, d->min_available);
	bind_text(s, 5, d->max_unavailable);
	bind_text(s, 6, kp_store_selector_text(imp, &d->selector));
	sqlite3_bind_int(s, 7, d->has_status);
	if (d->has_status) {
		sqlite3_bind_int64(s, 8, d->disruptions_allowed);
		sqlite3_bind_int64(s, 9, d->current_healthy);
		sqlite3_bind_int64(s, 10, d->desired_healthy);
		sqlite3_bind_int64(s, 11, d->expected_pods);
	}
	bind_text(s, 12, kp_store_strs_text(imp, &d->disrupted_pods));
	bind_text(s, 13, file);
	sqlite3_bind_int(s, 14, (int)d->pos.line);
	sqlite3_bind_int64(s, 15, imp->batch_id);
	if (exec(imp, s, err, "storing a disruption budget"))
		return err->code;
	imp->stats.pdbs++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

int kp_import_service(kp_import *imp, const char *file, const kp_service_in *svc, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_SVC_FIND, svc->namespace_, svc->name, file, svc->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_SVC_UPSERT);
	bind_text(s, 1, svc->namespace_);
	bind_text(s, 2, svc->name);
	if (svc->has_selector && svc->selector.n) {
		kp_sb_reset(&imp->json);
		kp_sb_addc(&imp->json, '[');
		for (size_t i = 0; i < svc->selector.n; i++) {
			kp_sb_adds(&imp->json, i ? ",[" : "[");
			kp_sb_add_json_str(&imp->json, svc->selector.v[i].key);
			kp_sb_adds(&imp->json, ",\"In\",[");
			kp_sb_add_json_str(&imp->json, svc->selector.v[i].value);
			kp_sb_adds(&imp->json, "]]");
		}
		kp_sb_addc(&imp->json, ']');
		bind_text(s, 3, kp_sb_str(&imp->json));
	}
	bind_text(s, 4, file);
	sqlite3_bind_int(s, 5, (int)svc->pos.line);
	sqlite3_bind_int64(s, 6, imp->batch_id);
	if (exec(imp, s, err, "storing a service"))
		return err->code;
	imp->stats.services++;
	return KP_OK;
}

int kp_import_namespace(kp_import *imp, const char *file, const kp_namespace_in *ns, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_NS_FIND, ns->name, NULL, file, ns->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_NS_UPSERT);
	bind_text(s, 1, ns->name);
	bind_text(s, 2, file);
	sqlite3_bind_int(s, 3, (int)ns->pos.line);
	sqlite3_bind_int64(s, 4, imp->batch_id);
	if (sqlite3_step(s) != SQLITE_ROW)
		return kp_store_db_fail(imp, err, "storing a namespace");
	int64_t id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	s = stmt(imp, S_NS_DEL_LABEL);
	sqlite3_bind_int64(s, 1, id);
	if (exec(imp, s, err, "storing a namespace"))
		return err->code;
	for (size_t i = 0; i < ns->labels.n; i++) {
		s = stmt(imp, S_NS_LABEL);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, ns->labels.v[i].key);
		bind_text(s, 3, ns->labels.v[i].value);
		if (exec(imp, s, err, "storing namespace labels"))
			return err->code;
	}
	imp->stats.namespaces++;
	return KP_OK;
}

int kp_import_sched_config(kp_import *imp, const char *file, const kp_sched_config_in *sc, kp_err *err)
{
	char source[1100];
	snprintf(source, sizeof source, "%s#%u", file, sc->doc);
	int rc = kp_store_find_dup(imp, S_SC_FIND, source, NULL, file, sc->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_SC_UPSERT);
	bind_text(s, 1, sc->api_version);
	bind_text(s, 2, sc->json);
	bind_text(s, 3, source);
	sqlite3_bind_int(s, 4, (int)sc->pos.line);
	sqlite3_bind_int64(s, 5, imp->batch_id);
	bind_text(s, 6, sc->yaml);
	bind_text(s, 7, sc->yaml_file);
	if (exec(imp, s, err, "storing a scheduler configuration"))
		return err->code;
	imp->stats.scheduler_configs++;
	return KP_OK;
}
