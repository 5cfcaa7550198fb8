/*
 * import.c — one import batch (see import.h): reading paths, choosing the
 * format, and writing objects as rows, all inside one transaction.
 *
 * Writing rules:
 *  - an object replaces the row of the same kind/namespace/name and keeps its
 *    id (child rows are rewritten); the same object twice in ONE batch is an
 *    error that names both places;
 *  - a pod's scheduling-relevant spec is stored once per distinct spec
 *    (pod_class, id = hash of the canonical spec JSON, collisions probed);
 *  - at the end, workloads are expanded into the pods that do not exist yet
 *    (replicas minus the live pods they own), named as their controllers name
 *    them; earlier generated pods are reconciled, keeping ids where names stay.
 */
#include "import.h"
#include "../common/quantity.h"
#include "../common/db.h"
#include "../common/read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>
#include <limits.h>

enum {
	S_NODE_FIND, S_NODE_INS, S_NODE_UPD, S_NODE_DEL_RES, S_NODE_DEL_LABEL, S_NODE_DEL_TAINT, S_NODE_DEL_IMAGE,
	S_NODE_RES, S_NODE_LABEL, S_NODE_TAINT, S_NODE_IMAGE,
	S_CLASS_FIND, S_CLASS_INS, S_CLASS_REQ, S_CLASS_CONT, S_CLASS_NSEL, S_CLASS_TOL, S_CLASS_NTERM,
	S_CLASS_NEXPR, S_CLASS_PAFF, S_CLASS_SPREAD, S_CLASS_PORT,
	S_POD_FIND, S_POD_INS, S_POD_UPD, S_POD_DEL_LABEL, S_POD_LABEL,
	S_WL_FIND, S_WL_INS, S_WL_UPD,
	S_PC_FIND, S_PC_UPSERT, S_PDB_FIND, S_PDB_UPSERT, S_SVC_FIND, S_SVC_UPSERT,
	S_NS_FIND, S_NS_UPSERT, S_NS_DEL_LABEL, S_NS_LABEL, S_SC_FIND, S_SC_UPSERT,
	S_COUNT
};

static const char *const sql[S_COUNT] = {
	[S_NODE_FIND] = "SELECT id, batch_id, source, line FROM node WHERE name = ?1",
	[S_NODE_INS] = "INSERT INTO node(name, uid, unschedulable, created, source, line, batch_id) "
		       "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_NODE_UPD] = "UPDATE node SET uid = ?2, unschedulable = ?3, created = ?4, source = ?5, line = ?6, "
		       "batch_id = ?7 WHERE id = ?1",
	[S_NODE_DEL_RES] = "DELETE FROM node_resource WHERE node_id = ?1",
	[S_NODE_DEL_LABEL] = "DELETE FROM node_label WHERE node_id = ?1",
	[S_NODE_DEL_TAINT] = "DELETE FROM node_taint WHERE node_id = ?1",
	[S_NODE_DEL_IMAGE] = "DELETE FROM node_image WHERE node_id = ?1",
	[S_NODE_RES] = "INSERT INTO node_resource(node_id, resource, allocatable, capacity) VALUES(?1, ?2, ?3, ?4)",
	[S_NODE_LABEL] = "INSERT OR REPLACE INTO node_label(node_id, key, value) VALUES(?1, ?2, ?3)",
	[S_NODE_TAINT] = "INSERT INTO node_taint(node_id, seq, key, value, effect) VALUES(?1, ?2, ?3, ?4, ?5)",
	[S_NODE_IMAGE] = "INSERT OR IGNORE INTO node_image(node_id, seq, name, size_bytes) VALUES(?1, ?2, ?3, ?4)",
	[S_CLASS_FIND] = "SELECT spec FROM pod_class WHERE id = ?1",
	[S_CLASS_INS] = "INSERT INTO pod_class(id, spec, namespace, scheduler_name, priority, priority_class, "
			"preemption_policy, nonzero_cpu, nonzero_memory, scheduling_gates, pvc_volumes, host_network, "
			"has_required_node_affinity) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
	[S_CLASS_REQ] = "INSERT INTO class_request(class_id, resource, value) VALUES(?1, ?2, ?3)",
	[S_CLASS_CONT] = "INSERT INTO class_container(class_id, seq, kind, name, image, requests) "
			 "VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
	[S_CLASS_NSEL] = "INSERT OR REPLACE INTO class_node_selector(class_id, key, value) VALUES(?1, ?2, ?3)",
	[S_CLASS_TOL] = "INSERT INTO class_toleration(class_id, seq, key, operator, value, effect, seconds) "
			"VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_CLASS_NTERM] = "INSERT INTO class_node_term(class_id, required, term, weight) VALUES(?1, ?2, ?3, ?4)",
	[S_CLASS_NEXPR] = "INSERT INTO class_node_expr(class_id, required, term, seq, field, key, operator, vals) "
			  "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[S_CLASS_PAFF] = "INSERT INTO class_pod_affinity(class_id, seq, anti, required, weight, topology_key, "
			 "selector, namespaces, ns_selector, match_label_keys, mismatch_label_keys) "
			 "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	[S_CLASS_SPREAD] = "INSERT INTO class_spread(class_id, seq, max_skew, topology_key, when_unsatisfiable, "
			   "selector, min_domains, node_affinity_policy, node_taints_policy, match_label_keys) "
			   "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
	[S_CLASS_PORT] = "INSERT INTO class_port(class_id, seq, host_ip, protocol, host_port, container_port) "
			 "VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
	[S_POD_FIND] = "SELECT id, batch_id, source, line, workload_id FROM pod WHERE namespace = ?1 AND name = ?2",
	[S_POD_INS] = "INSERT INTO pod(namespace, name, uid, class_id, node_name, phase, created, start_time, "
		      "terminating, nominated_node, owner_kind, owner_name, owner_uid, workload_id, source, line, "
		      "batch_id, daemon_node) VALUES(?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
		      "?18, ?19)",
	[S_POD_UPD] = "UPDATE pod SET namespace = ?2, name = ?3, uid = ?4, class_id = ?5, node_name = ?6, "
		      "phase = ?7, created = ?8, start_time = ?9, terminating = ?10, nominated_node = ?11, "
		      "owner_kind = ?12, owner_name = ?13, owner_uid = ?14, workload_id = ?15, source = ?16, "
		      "line = ?17, batch_id = ?18, daemon_node = ?19 WHERE id = ?1",
	[S_POD_DEL_LABEL] = "DELETE FROM pod_label WHERE pod_id = ?1",
	[S_POD_LABEL] = "INSERT OR REPLACE INTO pod_label(pod_id, key, value) VALUES(?1, ?2, ?3)",
	[S_WL_FIND] = "SELECT id, batch_id, source, line FROM workload WHERE kind = ?1 AND namespace = ?2 AND name = ?3",
	[S_WL_INS] = "INSERT INTO workload(kind, namespace, name, uid, api_version, replicas, selector, owner_kind, "
		     "owner_name, template_hash, class_id, labels, created, source, line, batch_id, pod_class_id) "
		     "VALUES(?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
	[S_WL_UPD] = "UPDATE workload SET kind = ?2, namespace = ?3, name = ?4, uid = ?5, api_version = ?6, "
		     "replicas = ?7, selector = ?8, owner_kind = ?9, owner_name = ?10, template_hash = ?11, "
		     "class_id = ?12, labels = ?13, created = ?14, source = ?15, line = ?16, batch_id = ?17, "
		     "pod_class_id = ?18 WHERE id = ?1",
	[S_PC_FIND] = "SELECT id, batch_id, source, line FROM priority_class WHERE name = ?1",
	[S_PC_UPSERT] = "INSERT INTO priority_class(name, value, global_default, preemption_policy, description, "
			"source, line, batch_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT(name) DO UPDATE "
			"SET value = excluded.value, global_default = excluded.global_default, "
			"preemption_policy = excluded.preemption_policy, description = excluded.description, "
			"source = excluded.source, line = excluded.line, batch_id = excluded.batch_id",
	[S_PDB_FIND] = "SELECT id, batch_id, source, line FROM pdb WHERE namespace = ?1 AND name = ?2",
	[S_PDB_UPSERT] = "INSERT INTO pdb(namespace, name, api_version, min_available, max_unavailable, selector, "
			 "has_status, disruptions_allowed, current_healthy, desired_healthy, expected_pods, "
			 "disrupted_pods, source, line, batch_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
			 "?12, ?13, ?14, ?15) ON CONFLICT(namespace, name) DO UPDATE SET "
			 "api_version = excluded.api_version, min_available = excluded.min_available, "
			 "max_unavailable = excluded.max_unavailable, selector = excluded.selector, "
			 "has_status = excluded.has_status, disruptions_allowed = excluded.disruptions_allowed, "
			 "current_healthy = excluded.current_healthy, desired_healthy = excluded.desired_healthy, "
			 "expected_pods = excluded.expected_pods, disrupted_pods = excluded.disrupted_pods, "
			 "source = excluded.source, line = excluded.line, batch_id = excluded.batch_id",
	[S_SVC_FIND] = "SELECT id, batch_id, source, line FROM service WHERE namespace = ?1 AND name = ?2",
	[S_SVC_UPSERT] = "INSERT INTO service(namespace, name, selector, source, line, batch_id) "
			 "VALUES(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(namespace, name) DO UPDATE SET "
			 "selector = excluded.selector, source = excluded.source, line = excluded.line, "
			 "batch_id = excluded.batch_id",
	[S_NS_FIND] = "SELECT id, batch_id, source, line FROM namespace WHERE name = ?1",
	[S_NS_UPSERT] = "INSERT INTO namespace(name, source, line, batch_id) VALUES(?1, ?2, ?3, ?4) "
			"ON CONFLICT(name) DO UPDATE SET source = excluded.source, line = excluded.line, "
			"batch_id = excluded.batch_id RETURNING id",
	[S_NS_DEL_LABEL] = "DELETE FROM namespace_label WHERE namespace_id = ?1",
	[S_NS_LABEL] = "INSERT OR REPLACE INTO namespace_label(namespace_id, key, value) VALUES(?1, ?2, ?3)",
	[S_SC_FIND] = "SELECT id, batch_id, source, line FROM scheduler_config WHERE source = ?1",
	[S_SC_UPSERT] = "INSERT INTO scheduler_config(api_version, document, source, line, batch_id, yaml, yaml_file) "
			"VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT(source) DO UPDATE SET api_version = excluded.api_version, "
			"document = excluded.document, line = excluded.line, batch_id = excluded.batch_id, "
			"yaml = excluded.yaml, yaml_file = excluded.yaml_file",
};

/* classes already verified in this batch: id -> canonical spec */
typedef struct class_slot { int64_t id; char *spec; } class_slot;

struct kp_import {
	sqlite3 *db;
	kp_import_opts opts;
	sqlite3_stmt *st[S_COUNT];
	int64_t batch_id;
	int in_txn, finished;
	kp_arena arena;          /* per object (readers) */
	kp_arena scratch;        /* per object (store) */
	kp_sb spec, json;
	class_slot *classes;
	size_t nclasses, cap_classes;
	kp_import_stats stats;
	kp_sb sources;           /* JSON array of the paths given */
	kp_sb skipped;           /* JSON object kind -> count */
	char **skipped_kinds; long *skipped_counts; size_t nskipped;
	/* progress: the buffer being read and how far its objects got */
	const char *cur_data;
	size_t cur_len, cur_off;
	unsigned cur_line;
	long long cur_base;      /* bytes of the files before it */
	long objects;
};

/* ---- small helpers ---- */

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

/* DDL (temp tables) needs every statement of the connection idle */
static void reset_all(kp_import *imp)
{
	for (int i = 0; i < S_COUNT; i++)
		if (imp->st[i])
			sqlite3_reset(imp->st[i]);
}


static int db_fail(kp_import *imp, kp_err *err, const char *what)
{
	int rc = sqlite3_errcode(imp->db);
	if (rc == SQLITE_INTERRUPT || kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	return kp_err_set(err, rc == SQLITE_BUSY || rc == SQLITE_LOCKED ? KP_BUSY : KP_IO,
			  "database error while %s: %s", what, sqlite3_errmsg(imp->db));
}

static sqlite3_stmt *S(kp_import *imp, int i)
{
	sqlite3_stmt *s = imp->st[i];
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

static void bind_time(sqlite3_stmt *s, int i, int64_t t)
{
	if (t == INT64_MIN)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, t);
}

/* step a statement that returns no row */
static int exec(kp_import *imp, sqlite3_stmt *s, kp_err *err, const char *what)
{
	int rc = sqlite3_step(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_fail(imp, err, what);
	return KP_OK;
}

typedef struct found { int64_t id, batch_id, workload_id; char where[600]; } found;

/* run a *_FIND statement (already bound); 1 = row, 0 = none, <0 error */
static int find_row(kp_import *imp, sqlite3_stmt *s, found *f, kp_err *err)
{
	int rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return db_fail(imp, err, "looking up an object");
	f->id = sqlite3_column_int64(s, 0);
	f->batch_id = sqlite3_column_int64(s, 1);
	const char *src = (const char *)sqlite3_column_text(s, 2);
	snprintf(f->where, sizeof f->where, "%s:%lld", src ? src : "?", (long long)sqlite3_column_int64(s, 3));
	f->workload_id = sqlite3_column_count(s) > 4 && sqlite3_column_type(s, 4) != SQLITE_NULL
				 ? sqlite3_column_int64(s, 4) : 0;
	return 1;
}

static int duplicate(kp_import *imp, const found *f, const char *file, kp_pos pos, kp_err *err)
{
	(void)imp;
	kp_err_set(err, KP_PARSE, "duplicate object in one import: also defined at %s", f->where);
	kp_err_locate(err, file, pos.line, pos.col, NULL);
	return KP_PARSE;
}

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

static void json_reqs(kp_sb *sb, const kp_req *r, size_t n)
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
		json_reqs(sb, s->reqs, s->n);
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
static const char *selector_text(kp_import *imp, const kp_selector *s)
{
	if (!s->present)
		return NULL;
	kp_sb_reset(&imp->json);
	json_selector(&imp->json, s);
	return kp_arena_strdup(&imp->scratch, kp_sb_str(&imp->json));
}

static const char *strs_text(kp_import *imp, const kp_strs *s)
{
	kp_sb_reset(&imp->json);
	json_strs(&imp->json, s);
	return kp_arena_strdup(&imp->scratch, kp_sb_str(&imp->json));
}

typedef struct class_info {
	kp_ress req, nz;
} class_info;

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
	if (p->host_network)
		kp_sb_adds(sb, ",\"hostNetwork\":true");
	kp_sb_adds(sb, ",\"requests\":");
	json_ress(sb, &ci->req);
	kp_sb_adds(sb, ",\"nonzero\":");
	json_ress(sb, &ci->nz);
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
	if (p->has_required_node_affinity || p->npreferred) {
		kp_sb_adds(sb, ",\"nodeAffinity\":{");
		if (p->has_required_node_affinity) {
			kp_sb_adds(sb, "\"required\":[");
			for (size_t i = 0; i < p->nrequired; i++) {
				kp_sb_adds(sb, i ? ",[" : "[");
				json_reqs(sb, p->required_terms[i].exprs, p->required_terms[i].nexprs);
				kp_sb_addc(sb, ',');
				json_reqs(sb, p->required_terms[i].fields, p->required_terms[i].nfields);
				kp_sb_addc(sb, ']');
			}
			kp_sb_addc(sb, ']');
		}
		if (p->npreferred) {
			kp_sb_adds(sb, p->has_required_node_affinity ? ",\"preferred\":[" : "\"preferred\":[");
			for (size_t i = 0; i < p->npreferred; i++) {
				kp_sb_printf(sb, "%s[%lld,", i ? "," : "", (long long)p->preferred_terms[i].weight);
				json_reqs(sb, p->preferred_terms[i].exprs, p->preferred_terms[i].nexprs);
				kp_sb_addc(sb, ',');
				json_reqs(sb, p->preferred_terms[i].fields, p->preferred_terms[i].nfields);
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
	kp_sb_addc(sb, '}');
}

static class_slot *class_cache_find(kp_import *imp, int64_t id)
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
	imp->classes[imp->nclasses++] = (class_slot){ id, copy };
	return KP_OK;
}

static int insert_class_rows(kp_import *imp, int64_t id, const kp_pod_in *p, const class_info *ci, kp_err *err)
{
	sqlite3_stmt *s = S(imp, S_CLASS_INS);
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
		s = S(imp, S_CLASS_REQ);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, ci->req.v[i].name);
		sqlite3_bind_int64(s, 3, ci->req.v[i].value);
		if (exec(imp, s, err, "storing requests"))
			return err->code;
	}
	int port_seq = 0;
	for (size_t i = 0; i < p->ncontainers; i++) {
		const kp_container *c = &p->containers[i];
		s = S(imp, S_CLASS_CONT);
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
			s = S(imp, S_CLASS_PORT);
			sqlite3_bind_int64(s, 1, id);
			sqlite3_bind_int(s, 2, port_seq++);
			bind_text(s, 3, c->ports[j].host_ip && c->ports[j].host_ip[0] ? c->ports[j].host_ip : "0.0.0.0");
			bind_text(s, 4, c->ports[j].protocol ? c->ports[j].protocol : "TCP");
			sqlite3_bind_int64(s, 5, c->ports[j].host_port);
			sqlite3_bind_int64(s, 6, c->ports[j].container_port);
			if (exec(imp, s, err, "storing host ports"))
				return err->code;
		}
	}
	for (size_t i = 0; i < p->node_selector.n; i++) {
		s = S(imp, S_CLASS_NSEL);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, p->node_selector.v[i].key);
		bind_text(s, 3, p->node_selector.v[i].value);
		if (exec(imp, s, err, "storing the node selector"))
			return err->code;
	}
	for (size_t i = 0; i < p->ntolerations; i++) {
		const kp_toleration *t = &p->tolerations[i];
		s = S(imp, S_CLASS_TOL);
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
	for (int req = 1; req >= 0; req--) {
		const kp_node_term *terms = req ? p->required_terms : p->preferred_terms;
		size_t nterms = req ? p->nrequired : p->npreferred;
		for (size_t i = 0; i < nterms; i++) {
			s = S(imp, S_CLASS_NTERM);
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
					s = S(imp, S_CLASS_NEXPR);
					sqlite3_bind_int64(s, 1, id);
					sqlite3_bind_int(s, 2, req);
					sqlite3_bind_int64(s, 3, (int64_t)i);
					sqlite3_bind_int(s, 4, seq++);
					sqlite3_bind_int(s, 5, field);
					bind_text(s, 6, e[j].key);
					bind_text(s, 7, e[j].op);
					bind_text(s, 8, strs_text(imp, &e[j].values));
					if (exec(imp, s, err, "storing node affinity"))
						return err->code;
				}
			}
		}
	}
	for (size_t i = 0; i < p->npod_terms; i++) {
		const kp_pod_term *t = &p->pod_terms[i];
		s = S(imp, S_CLASS_PAFF);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		sqlite3_bind_int(s, 3, t->anti);
		sqlite3_bind_int(s, 4, t->required);
		sqlite3_bind_int64(s, 5, t->weight);
		bind_text(s, 6, t->topology_key);
		bind_text(s, 7, selector_text(imp, &t->selector));
		bind_text(s, 8, strs_text(imp, &t->namespaces));
		bind_text(s, 9, selector_text(imp, &t->ns_selector));
		bind_text(s, 10, strs_text(imp, &t->match_label_keys));
		bind_text(s, 11, strs_text(imp, &t->mismatch_label_keys));
		if (exec(imp, s, err, "storing pod affinity"))
			return err->code;
	}
	for (size_t i = 0; i < p->nspreads; i++) {
		const kp_spread *t = &p->spreads[i];
		s = S(imp, S_CLASS_SPREAD);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		sqlite3_bind_int64(s, 3, t->max_skew);
		bind_text(s, 4, t->topology_key);
		bind_text(s, 5, t->when_unsatisfiable);
		bind_text(s, 6, selector_text(imp, &t->selector));
		if (t->min_domains > 0)
			sqlite3_bind_int64(s, 7, t->min_domains);
		bind_text(s, 8, t->node_affinity_policy ? t->node_affinity_policy : "Honor");
		bind_text(s, 9, t->node_taints_policy ? t->node_taints_policy : "Ignore");
		bind_text(s, 10, strs_text(imp, &t->match_label_keys));
		if (exec(imp, s, err, "storing topology spread constraints"))
			return err->code;
	}
	return KP_OK;
}

/* Find or create the class of pod p; *out = its id. */
static int store_class(kp_import *imp, const kp_pod_in *p, int64_t *out, kp_err *err)
{
	class_info ci;
	if (kp_pod_requests(p, 0, &imp->scratch, &ci.req, err) != KP_OK ||
	    kp_pod_requests(p, 1, &imp->scratch, &ci.nz, err) != KP_OK)
		return err->code;
	class_spec(&imp->spec, p, &ci);
	if (!kp_sb_ok(&imp->spec))
		return kp_err_set(err, KP_NOMEM, "out of memory");
	const char *spec = kp_sb_str(&imp->spec);
	int64_t id = (int64_t)(kp_hash64(spec, imp->spec.len, 0) & INT64_MAX);
	for (int probe = 0; probe < 64; probe++, id = (id + 1) & INT64_MAX) {
		if (id == 0)
			id = 1;
		class_slot *slot = class_cache_find(imp, id);
		if (slot) {
			if (strcmp(slot->spec, spec) == 0) {
				*out = id;
				return KP_OK;
			}
			continue;
		}
		sqlite3_stmt *s = S(imp, S_CLASS_FIND);
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
			return db_fail(imp, err, "looking up a pod class");
		if (insert_class_rows(imp, id, p, &ci, err) != KP_OK)
			return err->code;
		*out = id;
		return class_cache_add(imp, id, spec, err);
	}
	return kp_err_set(err, KP_ERROR, "too many hash collisions for pod classes");
}

/* ---- objects ---- */

kp_arena *kp_import_arena(kp_import *imp) { return &imp->arena; }

int kp_import_node(kp_import *imp, const char *file, const kp_node_in *n, kp_err *err)
{
	if (kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	progress_tick(imp, n->pos.line);
	found f;
	sqlite3_stmt *s = S(imp, S_NODE_FIND);
	bind_text(s, 1, n->name);
	int have = find_row(imp, s, &f, err);
	if (have < 0)
		return have;
	if (have && f.batch_id == imp->batch_id)
		return duplicate(imp, &f, file, n->pos, err);
	s = S(imp, have ? S_NODE_UPD : S_NODE_INS);
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
		for (int k = S_NODE_DEL_RES; k <= S_NODE_DEL_IMAGE; k++) {
			s = S(imp, k);
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
			s = S(imp, S_NODE_RES);
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
		s = S(imp, S_NODE_LABEL);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, n->labels.v[i].key);
		bind_text(s, 3, n->labels.v[i].value);
		if (exec(imp, s, err, "storing node labels"))
			return err->code;
	}
	for (size_t i = 0; i < n->ntaints; i++) {
		s = S(imp, S_NODE_TAINT);
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
			s = S(imp, S_NODE_IMAGE);
			sqlite3_bind_int64(s, 1, id);
			sqlite3_bind_int64(s, 2, (int64_t)i);
			bind_text(s, 3, n->images[i].names.v[j]);
			sqlite3_bind_int64(s, 4, n->images[i].size_bytes);
			if (exec(imp, s, err, "storing node images"))
				return err->code;
		}
	imp->stats.nodes++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

/* write (insert or update by id) a pod row and its labels */
static int write_pod(kp_import *imp, int64_t existing, const kp_pod_in *p, int64_t class_id, int64_t workload_id,
		     const char *daemon_node, const char *file, int64_t *id_out, kp_err *err)
{
	sqlite3_stmt *s = S(imp, existing ? S_POD_UPD : S_POD_INS);
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
		s = S(imp, S_POD_DEL_LABEL);
		sqlite3_bind_int64(s, 1, id);
		if (exec(imp, s, err, "replacing pod labels"))
			return err->code;
	}
	for (size_t i = 0; i < p->labels.n; i++) {
		s = S(imp, S_POD_LABEL);
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
	found f;
	sqlite3_stmt *s = S(imp, S_POD_FIND);
	bind_text(s, 1, p->namespace_);
	bind_text(s, 2, p->name);
	int have = find_row(imp, s, &f, err);
	if (have < 0)
		return have;
	if (have && f.batch_id == imp->batch_id && !f.workload_id)
		return duplicate(imp, &f, file, p->pos, err);
	int64_t class_id, id;
	if (store_class(imp, p, &class_id, err) != KP_OK)
		return err->code;
	if (write_pod(imp, have ? f.id : 0, p, class_id, 0, NULL, file, &id, err) != KP_OK)
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
	found f;
	sqlite3_stmt *s = S(imp, S_WL_FIND);
	bind_text(s, 1, w->kind);
	bind_text(s, 2, w->namespace_);
	bind_text(s, 3, w->name);
	int have = find_row(imp, s, &f, err);
	if (have < 0)
		return have;
	if (have && f.batch_id == imp->batch_id)
		return duplicate(imp, &f, file, w->pos, err);
	int64_t class_id, pod_class_id;
	if (store_class(imp, &w->tmpl, &class_id, err) != KP_OK)
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
		if (store_class(imp, &tmpl, &pod_class_id, err) != KP_OK)
			return err->code;
		/* the template hash below covers the template as written */
		if (store_class(imp, &w->tmpl, &class_id, err) != KP_OK)
			return err->code;
	}
	char spec_copy_hash[11];
	kp_sb_reset(&imp->json);
	json_kvs(&imp->json, &w->tmpl.labels);
	const char *labels = kp_arena_strdup(&imp->scratch, kp_sb_str(&imp->json));
	template_hash(kp_sb_str(&imp->spec), labels ? labels : "", spec_copy_hash);
	s = S(imp, have ? S_WL_UPD : S_WL_INS);
	if (have)
		sqlite3_bind_int64(s, 1, f.id);
	bind_text(s, 2, w->kind);
	bind_text(s, 3, w->namespace_);
	bind_text(s, 4, w->name);
	bind_text(s, 5, w->uid);
	bind_text(s, 6, w->api_version);
	if (w->replicas >= 0)
		sqlite3_bind_int64(s, 7, w->replicas);
	bind_text(s, 8, selector_text(imp, &w->selector));
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
	imp->stats.workloads++;
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

/* common find + duplicate check for the small kinds; returns 1 existing, 0 new, <0 error */
static int find_dup(kp_import *imp, int stmt, const char *a, const char *b, const char *file, kp_pos pos,
		    kp_err *err)
{
	found f;
	sqlite3_stmt *s = S(imp, stmt);
	bind_text(s, 1, a);
	if (b)
		bind_text(s, 2, b);
	int have = find_row(imp, s, &f, err);
	if (have < 0)
		return have;
	if (have && f.batch_id == imp->batch_id)
		return duplicate(imp, &f, file, pos, err);
	return have;
}

int kp_import_priority_class(kp_import *imp, const char *file, const kp_priority_class_in *pc, kp_err *err)
{
	int rc = find_dup(imp, S_PC_FIND, pc->name, NULL, file, pc->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = S(imp, S_PC_UPSERT);
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
	int rc = find_dup(imp, S_PDB_FIND, d->namespace_, d->name, file, d->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = S(imp, S_PDB_UPSERT);
	bind_text(s, 1, d->namespace_);
	bind_text(s, 2, d->name);
	bind_text(s, 3, d->api_version ? d->api_version : "policy/v1");
	bind_text(s, 4, d->min_available);
	bind_text(s, 5, d->max_unavailable);
	bind_text(s, 6, selector_text(imp, &d->selector));
	sqlite3_bind_int(s, 7, d->has_status);
	if (d->has_status) {
		sqlite3_bind_int64(s, 8, d->disruptions_allowed);
		sqlite3_bind_int64(s, 9, d->current_healthy);
		sqlite3_bind_int64(s, 10, d->desired_healthy);
		sqlite3_bind_int64(s, 11, d->expected_pods);
	}
	bind_text(s, 12, strs_text(imp, &d->disrupted_pods));
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
	int rc = find_dup(imp, S_SVC_FIND, svc->namespace_, svc->name, file, svc->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = S(imp, S_SVC_UPSERT);
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
	int rc = find_dup(imp, S_NS_FIND, ns->name, NULL, file, ns->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = S(imp, S_NS_UPSERT);
	bind_text(s, 1, ns->name);
	bind_text(s, 2, file);
	sqlite3_bind_int(s, 3, (int)ns->pos.line);
	sqlite3_bind_int64(s, 4, imp->batch_id);
	if (sqlite3_step(s) != SQLITE_ROW)
		return db_fail(imp, err, "storing a namespace");
	int64_t id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	s = S(imp, S_NS_DEL_LABEL);
	sqlite3_bind_int64(s, 1, id);
	if (exec(imp, s, err, "storing a namespace"))
		return err->code;
	for (size_t i = 0; i < ns->labels.n; i++) {
		s = S(imp, S_NS_LABEL);
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
	int rc = find_dup(imp, S_SC_FIND, source, NULL, file, sc->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = S(imp, S_SC_UPSERT);
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

int kp_import_invalid(kp_import *imp, kp_err *err)
{
	if (!imp->opts.skip_invalid)
		return err->code ? err->code : KP_PARSE;
	imp->stats.invalid++;
	if (imp->opts.warn)
		imp->opts.warn(imp->opts.warn_ctx, err);
	kp_err_clear(err);
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

void kp_import_skipped(kp_import *imp, const char *kind)
{
	imp->stats.skipped_kinds++;
	for (size_t i = 0; i < imp->nskipped; i++)
		if (!strcmp(imp->skipped_kinds[i], kind)) {
			imp->skipped_counts[i]++;
			return;
		}
	char **k = kp_realloc(imp->skipped_kinds, (imp->nskipped + 1) * sizeof *k);
	if (!k)
		return;
	imp->skipped_kinds = k;
	long *c = kp_realloc(imp->skipped_counts, (imp->nskipped + 1) * sizeof *c);
	if (!c)
		return;
	imp->skipped_counts = c;
	if (!(k[imp->nskipped] = kp_strdup(kind)))
		return;
	c[imp->nskipped++] = 1;
}

void kp_import_note(kp_import *imp, kp_err *err)
{
	if (imp->opts.note)
		imp->opts.note(imp->opts.note_ctx, err);
	kp_err_clear(err);
}

/* the skipped kinds, most first, then by name (insertion sort: a few kinds) */
static void sort_skipped(kp_import *imp)
{
	for (size_t i = 1; i < imp->nskipped; i++)
		for (size_t j = i; j > 0; j--) {
			long a = imp->skipped_counts[j - 1], b = imp->skipped_counts[j];
			if (a > b || (a == b && strcmp(imp->skipped_kinds[j - 1], imp->skipped_kinds[j]) <= 0))
				break;
			char *k = imp->skipped_kinds[j];
			imp->skipped_kinds[j] = imp->skipped_kinds[j - 1];
			imp->skipped_kinds[j - 1] = k;
			imp->skipped_counts[j] = a;
			imp->skipped_counts[j - 1] = b;
		}
}

/* ---- workload expansion ---- */

typedef struct wl_row {
	int64_t id, replicas, class_id, created, line;
	char *kind, *ns, *name, *hash, *labels, *source, *uid;
} wl_row;

static void wl_free(wl_row *w)
{
	kp_free(w->kind);
	kp_free(w->ns);
	kp_free(w->name);
	kp_free(w->hash);
	kp_free(w->labels);
	kp_free(w->source);
	kp_free(w->uid);
}

static char *col_dup(sqlite3_stmt *s, int i)
{
	const char *t = (const char *)sqlite3_column_text(s, i);
	return t ? kp_strdup(t) : NULL;
}

/* The random-looking 5-character suffix controllers give pod names, made
 * deterministic: index i maps to (i * P + offset(ns, name)) mod 27^5 with P
 * prime to 27, a bijection, so the first 27^5 (14,348,907) names of one
 * owner never collide. */
void kp_pod_suffix(const char *ns, const char *name, int64_t i, char out[6])
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	const uint64_t space = 14348907ULL, P = 10000019ULL;   /* 27^5; a prime, not 3 */
	char key[1024];
	int n = snprintf(key, sizeof key, "%s/%s", ns, name);
	uint64_t off = kp_hash64(key, (size_t)(n < (int)sizeof key ? n : (int)sizeof key - 1), 7) % space;
	uint64_t h = ((uint64_t)i % space * P + off) % space;
	for (int k = 0; k < 5; k++, h /= 27)
		out[k] = alphabet[h % 27];
	out[5] = 0;
}

static int64_t count_rows(sqlite3 *db, const char *q, const char *a, const char *b, const char *c, int64_t d,
			  int *ok)
{
	sqlite3_stmt *s;
	int64_t n = 0;
	if (sqlite3_prepare_v2(db, q, -1, &s, NULL) != SQLITE_OK) {
		*ok = 0;
		return 0;
	}
	if (a)
		sqlite3_bind_text(s, 1, a, -1, SQLITE_STATIC);
	if (b)
		sqlite3_bind_text(s, 2, b, -1, SQLITE_STATIC);
	if (c)
		sqlite3_bind_text(s, 3, c, -1, SQLITE_STATIC);
	if (d)
		sqlite3_bind_int64(s, 4, d);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	else if (rc != SQLITE_DONE)
		*ok = 0;
	sqlite3_finalize(s);
	return n;
}

/* Parse the workload's labels JSON ({"k":"v",...}, written by us) into kvs. */
static int labels_from_json(kp_import *imp, const char *json, kp_kvs *out, kp_err *err)
{
	memset(out, 0, sizeof *out);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(imp->db, "SELECT key, value FROM json_each(?1)", -1, &s, NULL) != SQLITE_OK)
		return db_fail(imp, err, "reading workload labels");
	sqlite3_bind_text(s, 1, json, -1, SQLITE_STATIC);
	size_t cap = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (out->n == cap) {
			cap = cap ? cap * 2 : 8;
			kp_kv *v = kp_arena_alloc(&imp->scratch, cap * sizeof *v);
			if (!v) {
				sqlite3_finalize(s);
				return kp_err_set(err, KP_NOMEM, "out of memory");
			}
			if (out->n)
				memcpy(v, out->v, out->n * sizeof *v);
			out->v = v;
		}
		out->v[out->n].key = kp_arena_strdup(&imp->scratch, (const char *)sqlite3_column_text(s, 0));
		out->v[out->n].value = kp_arena_strdup(&imp->scratch, (const char *)sqlite3_column_text(s, 1));
		out->n++;
	}
	sqlite3_finalize(s);
	return KP_OK;
}

static int add_label(kp_import *imp, kp_kvs *kv, const char *key, const char *value)
{
	kp_kv *v = kp_arena_alloc(&imp->scratch, (kv->n + 1) * sizeof *v);
	if (!v)
		return KP_NOMEM;
	size_t m = 0;
	for (size_t i = 0; i < kv->n; i++)
		if (strcmp(kv->v[i].key, key) != 0)
			v[m++] = kv->v[i];
	v[m].key = kp_arena_strdup(&imp->scratch, key);
	v[m].value = kp_arena_strdup(&imp->scratch, value);
	kv->v = v;
	kv->n = m + 1;
	return KP_OK;
}

static void free_targets(char **t, int n)
{
	for (int i = 0; i < n; i++)
		kp_free(t[i]);
	kp_free(t);
}

extern const char kp_sql_filters_node_affinity[], kp_sql_filters_taint_toleration[];

/* The nodes a DaemonSet still needs a pod on (nodeShouldRunDaemonPod): the
 * template (with the controller's tolerations) passes node affinity and has
 * no untolerated NoSchedule/NoExecute taint there — the same SQL as the
 * planner's static filters — and no live pod of the DaemonSet runs there. */
static int daemon_targets(kp_import *imp, const wl_row *w, char ***out, int *n, kp_err *err)
{
	*out = NULL;
	*n = 0;
	reset_all(imp);
	if (sqlite3_exec(imp->db, "CREATE TEMP TABLE IF NOT EXISTS kp_classes(class_id INTEGER PRIMARY KEY);"
				  "DELETE FROM temp.kp_classes;"
				  "CREATE TEMP TABLE IF NOT EXISTS kp_ds_fail(node_id INTEGER PRIMARY KEY);"
				  "DELETE FROM temp.kp_ds_fail;", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(imp, err, "expanding a DaemonSet");
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(imp->db, "INSERT INTO temp.kp_classes(class_id) VALUES(?1)", -1, &st, NULL) != SQLITE_OK)
		return db_fail(imp, err, "expanding a DaemonSet");
	sqlite3_bind_int64(st, 1, w->class_id);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(imp, err, "expanding a DaemonSet");
	const char *const queries[] = { kp_sql_filters_node_affinity, kp_sql_filters_taint_toleration };
	for (int q = 0; q < 2; q++) {
		sqlite3_stmt *ins;
		if (sqlite3_prepare_v2(imp->db, queries[q], -1, &st, NULL) != SQLITE_OK)
			return db_fail(imp, err, "expanding a DaemonSet");
		if (sqlite3_prepare_v2(imp->db, "INSERT OR IGNORE INTO temp.kp_ds_fail(node_id) VALUES(?1)", -1, &ins,
				       NULL) != SQLITE_OK) {
			sqlite3_finalize(st);
			return db_fail(imp, err, "expanding a DaemonSet");
		}
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			sqlite3_reset(ins);
			sqlite3_bind_int64(ins, 1, sqlite3_column_int64(st, 1));
			if (sqlite3_step(ins) != SQLITE_DONE)
				break;
		}
		sqlite3_finalize(ins);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return db_fail(imp, err, "expanding a DaemonSet");
	}
	if (sqlite3_prepare_v2(imp->db,
			       "SELECT n.name FROM node n WHERE n.id NOT IN (SELECT node_id FROM temp.kp_ds_fail) AND NOT EXISTS "
			       "(SELECT 1 FROM pod p WHERE p.namespace = ?1 AND p.owner_kind = 'DaemonSet' AND p.owner_name = ?2 "
			       "AND p.workload_id IS NULL AND p.node_name = n.name AND p.phase NOT IN ('Succeeded','Failed')) "
			       "ORDER BY n.name", -1, &st, NULL) != SQLITE_OK)
		return db_fail(imp, err, "expanding a DaemonSet");
	sqlite3_bind_text(st, 1, w->ns, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, w->name, -1, SQLITE_STATIC);
	int cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			char **v = kp_realloc(*out, (size_t)cap * sizeof *v);
			if (!v) {
				rc = SQLITE_NOMEM;
				break;
			}
			*out = v;
		}
		if (!((*out)[*n] = kp_strdup((const char *)sqlite3_column_text(st, 0)))) {
			rc = SQLITE_NOMEM;
			break;
		}
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free_targets(*out, *n);
		*out = NULL;
		*n = 0;
		return rc == SQLITE_NOMEM ? kp_err_set(err, KP_NOMEM, "out of memory") : db_fail(imp, err, "expanding a DaemonSet");
	}
	return KP_OK;
}

/* Bring the generated pods of one workload in line with its desired count. */
static int expand_one(kp_import *imp, const wl_row *w, kp_err *err)
{
	int ok = 1;
	int is_deploy = !strcmp(w->kind, "Deployment"), is_sts = !strcmp(w->kind, "StatefulSet");
	int is_ds = !strcmp(w->kind, "DaemonSet");
	char **targets = NULL;       /* DaemonSet: the nodes that need a pod */
	int ntargets = 0;
	if (is_ds) {
		int rc = daemon_targets(imp, w, &targets, &ntargets, err);
		if (rc)
			return rc;
	}
	/* live pods the workload owns (directly, or through its ReplicaSets for a
	 * Deployment: RS objects it owns, or RS named NAME-HASH as the controller names them) */
	int64_t live;
	if (is_ds)
		live = 0;
	else if (is_deploy)
		/* two index seeks on pod_by_owner, not a scan of the namespace's
		 * ReplicaSet pods per Deployment: NAME-HASH is the owner_name range
		 * [NAME-, NAME.) ('.' follows '-'; BINARY collation) */
		live = count_rows(imp->db,
				  "SELECT (SELECT count(*) FROM pod p WHERE p.namespace = ?1 AND p.owner_kind = 'ReplicaSet' "
				  "AND p.owner_name IN (SELECT name FROM workload WHERE kind = 'ReplicaSet' AND namespace = ?1 "
				  "AND owner_kind = 'Deployment' AND owner_name = ?2) "
				  "AND p.workload_id IS NULL AND p.phase NOT IN ('Succeeded','Failed')) + "
				  "(SELECT count(*) FROM pod p WHERE p.namespace = ?1 AND p.owner_kind = 'ReplicaSet' "
				  "AND p.owner_name >= ?2 || '-' AND p.owner_name < ?2 || '.' "
				  "AND instr(substr(p.owner_name, length(?2) + 2), '-') = 0 "
				  "AND p.owner_name NOT IN (SELECT name FROM workload WHERE kind = 'ReplicaSet' AND namespace = ?1 "
				  "AND owner_kind = 'Deployment' AND owner_name = ?2) "
				  "AND p.workload_id IS NULL AND p.phase NOT IN ('Succeeded','Failed'))",
				  w->ns, w->name, NULL, 0, &ok);
	else
		live = count_rows(imp->db,
				  "SELECT count(*) FROM pod WHERE namespace = ?1 AND owner_kind = ?3 AND owner_name = ?2 "
				  "AND workload_id IS NULL AND phase NOT IN ('Succeeded','Failed')",
				  w->ns, w->name, w->kind, 0, &ok);
	if (!ok) {
		free_targets(targets, ntargets);
		return db_fail(imp, err, "counting the pods of a workload");
	}
	int64_t want = is_ds ? ntargets : w->replicas - live;
	if (want < 0)
		want = 0;

	/* names of the generated pods, in index order */
	kp_kvs base;
	if (labels_from_json(imp, w->labels, &base, err) != KP_OK) {
		free_targets(targets, ntargets);
		return err->code;
	}
	char owner_name[600];
	const char *owner_kind = w->kind;
	snprintf(owner_name, sizeof owner_name, "%s", w->name);
	if (is_deploy) {
		owner_kind = "ReplicaSet";
		snprintf(owner_name, sizeof owner_name, "%s-%s", w->name, w->hash);
	}
	/* mark: every generated pod of this workload is stale until kept */
	reset_all(imp);
	sqlite3_stmt *keep;
	if (sqlite3_prepare_v2(imp->db, "CREATE TEMP TABLE IF NOT EXISTS kp_keep(id INTEGER PRIMARY KEY)", -1, &keep,
			       NULL) != SQLITE_OK || sqlite3_step(keep) != SQLITE_DONE) {
		sqlite3_finalize(keep);
		free_targets(targets, ntargets);
		return db_fail(imp, err, "expanding workloads");
	}
	sqlite3_finalize(keep);
	sqlite3_stmt *keep_ins;
	if (sqlite3_exec(imp->db, "DELETE FROM temp.kp_keep", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(imp->db, "INSERT OR IGNORE INTO temp.kp_keep(id) VALUES(?1)", -1, &keep_ins, NULL) != SQLITE_OK) {
		free_targets(targets, ntargets);
		return db_fail(imp, err, "expanding workloads");
	}

	int64_t made = 0;
	for (int64_t i = 0; made < want && i < want + 1000; i++) {
		if (kp_interrupted) {
			sqlite3_finalize(keep_ins);
			free_targets(targets, ntargets);
			return kp_err_set(err, KP_INTR, "interrupted");
		}
		char name[700], suffix[6];
		const char *daemon_node = NULL;
		if (is_ds) {
			if (i >= ntargets)
				break;
			daemon_node = targets[i];
			kp_pod_suffix(w->ns, owner_name, i, suffix);
			snprintf(name, sizeof name, "%s-%s", owner_name, suffix);
		} else if (is_sts) {
			snprintf(name, sizeof name, "%s-%lld", w->name, (long long)i);
		} else {
			kp_pod_suffix(w->ns, owner_name, i, suffix);
			snprintf(name, sizeof name, "%s-%s", owner_name, suffix);
		}
		found f;
		sqlite3_stmt *s = S(imp, S_POD_FIND);
		bind_text(s, 1, w->ns);
		bind_text(s, 2, name);
		int have = find_row(imp, s, &f, err);
		if (have < 0) {
			sqlite3_finalize(keep_ins);
			free_targets(targets, ntargets);
			return have;
		}
		if (have && f.workload_id != w->id)
			continue;     /* a real pod (or another workload's) has this name: next index */
		kp_pod_in p;
		memset(&p, 0, sizeof p);
		p.namespace_ = w->ns;
		p.name = name;
		p.created = w->created;
		p.start_time = INT64_MIN;
		p.owner.kind = owner_kind;
		p.owner.name = owner_name;
		p.owner.uid = is_deploy ? NULL : w->uid;
		p.pos.line = (unsigned)w->line;
		p.labels = base;
		char idx[24];
		snprintf(idx, sizeof idx, "%lld", (long long)i);
		int lrc = KP_OK;
		if (is_deploy)
			lrc = add_label(imp, &p.labels, "pod-template-hash", w->hash);
		if (is_sts) {
			char rev[700];
			snprintf(rev, sizeof rev, "%s-%s", w->name, w->hash);
			lrc |= add_label(imp, &p.labels, "statefulset.kubernetes.io/pod-name", name);
			lrc |= add_label(imp, &p.labels, "apps.kubernetes.io/pod-index", idx);
			lrc |= add_label(imp, &p.labels, "controller-revision-hash", rev);
		}
		if (is_ds) {
			char rev[700];
			snprintf(rev, sizeof rev, "%s", w->hash);
			lrc |= add_label(imp, &p.labels, "controller-revision-hash", rev);
		}
		if (!strcmp(w->kind, "Job")) {
			lrc |= add_label(imp, &p.labels, "batch.kubernetes.io/job-name", w->name);
			lrc |= add_label(imp, &p.labels, "job-name", w->name);
		}
		if (lrc) {
			sqlite3_finalize(keep_ins);
			free_targets(targets, ntargets);
			return kp_err_set(err, KP_NOMEM, "out of memory");
		}
		int64_t id;
		if (write_pod(imp, have ? f.id : 0, &p, w->class_id, w->id, daemon_node, w->source, &id, err) != KP_OK) {
			sqlite3_finalize(keep_ins);
			free_targets(targets, ntargets);
			return err->code;
		}
		sqlite3_reset(keep_ins);
		sqlite3_bind_int64(keep_ins, 1, id);
		if (sqlite3_step(keep_ins) != SQLITE_DONE) {
			sqlite3_finalize(keep_ins);
			free_targets(targets, ntargets);
			return db_fail(imp, err, "expanding workloads");
		}
		/* two indexes drew the same random-looking suffix: like the controller,
		 * take the next one */
		if (sqlite3_changes(imp->db) == 0)
			continue;
		made++;
		if (!have)
			imp->stats.generated_pods++;
	}
	sqlite3_finalize(keep_ins);
	free_targets(targets, ntargets);
	sqlite3_stmt *del;
	if (sqlite3_prepare_v2(imp->db,
			       "DELETE FROM pod_label WHERE pod_id IN (SELECT id FROM pod WHERE workload_id = ?1 "
			       "AND id NOT IN (SELECT id FROM temp.kp_keep))", -1, &del, NULL) != SQLITE_OK)
		return db_fail(imp, err, "expanding workloads");
	sqlite3_bind_int64(del, 1, w->id);
	int rc = sqlite3_step(del);
	sqlite3_finalize(del);
	if (rc != SQLITE_DONE)
		return db_fail(imp, err, "expanding workloads");
	if (sqlite3_prepare_v2(imp->db,
			       "DELETE FROM pod WHERE workload_id = ?1 AND id NOT IN (SELECT id FROM temp.kp_keep)",
			       -1, &del, NULL) != SQLITE_OK)
		return db_fail(imp, err, "expanding workloads");
	sqlite3_bind_int64(del, 1, w->id);
	rc = sqlite3_step(del);
	sqlite3_finalize(del);
	if (rc != SQLITE_DONE)
		return db_fail(imp, err, "expanding workloads");
	kp_arena_reset(&imp->scratch);
	return KP_OK;
}

static int expand_workloads(kp_import *imp, kp_err *err)
{
	reset_all(imp);
	/* A ReplicaSet owned by a Deployment that kplan knows is the Deployment's
	 * business; DaemonSet pods are made by `plan`. */
	sqlite3_stmt *s;
	const char *q =
		"SELECT w.id, w.kind, w.namespace, w.name, w.replicas, w.template_hash, COALESCE(w.pod_class_id, w.class_id), w.labels, "
		"w.created, w.source, w.line, w.uid FROM workload w WHERE NOT "
		"(w.kind = 'ReplicaSet' AND w.owner_kind = 'Deployment' AND EXISTS (SELECT 1 FROM workload d "
		"WHERE d.kind = 'Deployment' AND d.namespace = w.namespace AND d.name = w.owner_name)) ORDER BY w.id";
	if (sqlite3_prepare_v2(imp->db, q, -1, &s, NULL) != SQLITE_OK)
		return db_fail(imp, err, "expanding workloads");
	wl_row *rows = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			wl_row *v = kp_realloc(rows, cap * sizeof *v);
			if (!v) {
				rc = SQLITE_NOMEM;
				break;
			}
			rows = v;
		}
		wl_row *w = &rows[n++];
		memset(w, 0, sizeof *w);
		w->id = sqlite3_column_int64(s, 0);
		w->kind = col_dup(s, 1);
		w->ns = col_dup(s, 2);
		w->name = col_dup(s, 3);
		w->replicas = sqlite3_column_int64(s, 4);
		w->hash = col_dup(s, 5);
		w->class_id = sqlite3_column_int64(s, 6);
		w->labels = col_dup(s, 7);
		w->created = sqlite3_column_type(s, 8) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(s, 8);
		w->source = col_dup(s, 9);
		w->line = sqlite3_column_int64(s, 10);
		w->uid = col_dup(s, 11);
		if (!w->kind || !w->ns || !w->name || !w->hash || !w->labels) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	sqlite3_finalize(s);
	int out = KP_OK;
	if (rc != SQLITE_DONE)
		out = rc == SQLITE_NOMEM ? kp_err_set(err, KP_NOMEM, "out of memory") : db_fail(imp, err, "expanding workloads");
	for (size_t i = 0; i < n && out == KP_OK; i++) {
		out = expand_one(imp, &rows[i], err);
		if (imp->opts.progress) {
			kp_import_progress p = { .phase = KP_IMPORT_EXPANDING, .bytes = imp->stats.bytes,
						 .objects = imp->objects, .done = (long)i + 1, .total = (long)n,
						 .generated_pods = imp->stats.generated_pods };
			imp->opts.progress(imp->opts.progress_ctx, &p);
		}
	}
	for (size_t i = 0; i < n; i++)
		wl_free(&rows[i]);
	kp_free(rows);
	/* a re-imported workload that is gone leaves no generated pods behind;
	 * classes nobody uses any more go too */
	reset_all(imp);
	if (out == KP_OK &&
	    sqlite3_exec(imp->db,
			 "DROP TABLE IF EXISTS temp.kp_keep;"
			 "DELETE FROM pod_label WHERE pod_id IN (SELECT id FROM pod WHERE workload_id IS NOT NULL AND "
			 "workload_id NOT IN (SELECT id FROM workload));"
			 "DELETE FROM pod WHERE workload_id IS NOT NULL AND workload_id NOT IN (SELECT id FROM workload);",
			 NULL, NULL, NULL) != SQLITE_OK)
		out = db_fail(imp, err, "expanding workloads");
	return out;
}

/* ---- reading paths ---- */

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcasecmp(s + n - m, suf) == 0;
}

static int wanted_file(const char *name)
{
	return has_suffix(name, ".yaml") || has_suffix(name, ".yml") || has_suffix(name, ".json") ||
	       has_suffix(name, ".csv");
}

static int looks_like_csv(const char *data, size_t len)
{
	/* first line: commas, no colon-space, no braces: a CSV header */
	size_t i = 0;
	int commas = 0;
	for (; i < len && data[i] != '\n'; i++) {
		if (data[i] == ',')
			commas++;
		if (data[i] == '{' || data[i] == '[' || (data[i] == ':' && i + 1 < len && (data[i + 1] == ' ' || data[i + 1] == '\n')))
			return 0;
	}
	return commas > 0;
}

/* NUL bytes and UTF-8 of one input, as kp_read_stream checks them */
static const kp_read_opts text_checks = { .kind = "YAML, JSON or CSV", .utf8 = 1 };

/* one input, its text checked */
static int import_text(kp_import *imp, const char *name, const char *data, size_t len, kp_err *err)
{
	imp->stats.files++;
	imp->stats.bytes += (long long)len;
	if (len == 0) {
		kp_err_set(err, KP_PARSE, "empty file: nothing to import");
		kp_err_locate(err, name, 1, 1, NULL);
		return KP_PARSE;
	}
	const char *fmt = imp->opts.format;
	int csv;
	if (fmt && (!strcmp(fmt, "csv") || !strcmp(fmt, "openb")))
		csv = 1;
	else if (fmt && (!strcmp(fmt, "yaml") || !strcmp(fmt, "json")))
		csv = 0;
	else if (has_suffix(name, ".csv"))
		csv = 1;
	else if (has_suffix(name, ".yaml") || has_suffix(name, ".yml") || has_suffix(name, ".json"))
		csv = 0;
	else
		csv = looks_like_csv(data, len);
	imp->cur_data = data;
	imp->cur_len = len;
	imp->cur_off = 0;
	imp->cur_line = 1;
	imp->cur_base = imp->stats.bytes - (long long)len;
	int rc = csv ? kp_csv_read(imp, name, data, len, fmt && !strcmp(fmt, "openb") ? "openb" : NULL, err)
		     : kp_k8s_read(imp, name, data, len, err);
	kp_arena_reset(&imp->arena);
	imp->cur_data = NULL;
	imp->cur_len = imp->cur_off = 0;
	if (rc == KP_OK && imp->opts.progress) {
		kp_import_progress p = { .phase = KP_IMPORT_READING, .bytes = imp->stats.bytes, .objects = imp->objects };
		imp->opts.progress(imp->opts.progress_ctx, &p);
	}
	return rc;
}

int kp_import_buffer(kp_import *imp, const char *name, const char *data, size_t len, kp_err *err)
{
	kp_read_opts ro = text_checks;
	ro.name = name;
	int rc = kp_text_check(&ro, data, len, err);
	return rc != KP_OK ? rc : import_text(imp, name, data, len, err);
}

static int import_file(kp_import *imp, const char *path, kp_err *err)
{
	if (kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	if (!f) {
		kp_err_set(err, KP_IO, "cannot open '%s': %s", path, strerror(errno));
		return KP_IO;
	}
	kp_read_opts ro = text_checks;
	ro.name = name;
	ro.limit = imp->opts.max_input_size ? imp->opts.max_input_size : KP_READ_IMPORT_LIMIT;
	ro.hint = imp->opts.size_hint;
	kp_sb sb;
	kp_sb_init(&sb);
	int rc = kp_read_stream(f, &ro, &sb, err);
	if (f != stdin)
		fclose(f);
	if (rc == KP_OK)
		rc = import_text(imp, name, sb.buf ? sb.buf : "", sb.len, err);
	kp_sb_release(&sb);
	return rc;
}


static int import_dir(kp_import *imp, const char *path, int depth, kp_err *err)
{
	if (depth > 64)
		return kp_err_set(err, KP_IO, "'%s': directories nested too deep (symlink loop?)", path);
	DIR *d = opendir(path);
	if (!d)
		return kp_err_set(err, KP_IO, "cannot open directory '%s': %s", path, strerror(errno));
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = KP_OK;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;   /* ., .., and hidden files */
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			char **v = kp_realloc(names, cap * sizeof *v);
			if (!v) {
				rc = kp_err_set(err, KP_NOMEM, "out of memory");
				break;
			}
			names = v;
		}
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		names[n] = kp_malloc(len);
		if (!names[n]) {
			rc = kp_err_set(err, KP_NOMEM, "out of memory");
			break;
		}
		snprintf(names[n], len, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", e->d_name);
		n++;
	}
	closedir(d);
	if (rc == KP_OK)
		kp_sort(names, n, sizeof *names, kp_cmp_str, NULL);
	for (size_t i = 0; i < n && rc == KP_OK; i++) {
		struct stat st;
		if (stat(names[i], &st) != 0) {
			rc = kp_err_set(err, KP_IO, "cannot read '%s': %s", names[i], strerror(errno));
			break;
		}
		if (S_ISDIR(st.st_mode))
			rc = import_dir(imp, names[i], depth + 1, err);
		else if (S_ISREG(st.st_mode) && wanted_file(names[i]))
			rc = import_file(imp, names[i], err);
	}
	for (size_t i = 0; i < n; i++)
		kp_free(names[i]);
	kp_free(names);
	return rc;
}

int kp_import_path(kp_import *imp, const char *path, kp_err *err)
{
	if (imp->sources.len > 1)
		kp_sb_addc(&imp->sources, ',');
	kp_sb_add_json_str(&imp->sources, path);
	if (!strcmp(path, "-"))
		return import_file(imp, path, err);
	struct stat st;
	if (stat(path, &st) != 0)
		return kp_err_set(err, KP_IO, "cannot open '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return import_dir(imp, path, 0, err);
	return import_file(imp, path, err);
}

static long long dir_size(const char *path, int depth)
{
	DIR *d = depth > 64 ? NULL : opendir(path);
	if (!d)
		return 0;
	long long total = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		char *name = kp_malloc(len);
		if (!name)
			break;
		snprintf(name, len, "%s/%s", path, e->d_name);
		struct stat st;
		if (stat(name, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				total += dir_size(name, depth + 1);
			else if (S_ISREG(st.st_mode) && wanted_file(name))
				total += (long long)st.st_size;
		}
		kp_free(name);
	}
	closedir(d);
	return total;
}

long long kp_import_path_size(const char *path)
{
	struct stat st;
	if (!strcmp(path, "-") || stat(path, &st) != 0)
		return -1;
	if (S_ISDIR(st.st_mode))
		return dir_size(path, 0);
	return S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}

/* ---- batch lifecycle ---- */

int kp_import_begin(sqlite3 *db, const kp_import_opts *opts, kp_import **out, kp_err *err)
{
	kp_import *imp = kp_calloc(1, sizeof *imp);
	*out = NULL;
	if (!imp)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	imp->db = db;
	if (opts)
		imp->opts = *opts;
	kp_arena_init(&imp->arena, 64 * 1024);
	kp_arena_init(&imp->scratch, 16 * 1024);
	kp_sb_init(&imp->spec);
	kp_sb_init(&imp->json);
	kp_sb_init(&imp->sources);
	kp_sb_addc(&imp->sources, '[');
	int rc = kp_db_begin(db, err);
	if (rc != KP_OK) {
		kp_import_free(imp);
		return rc;
	}
	imp->in_txn = 1;
	/* scheduler_config.yaml, yaml_file came later: add them to an older database */
	if ((rc = kp_db_add_column(db, "scheduler_config", "yaml", "TEXT", err)) ||
	    (rc = kp_db_add_column(db, "scheduler_config", "yaml_file", "TEXT", err))) {
		kp_import_free(imp);
		return rc;
	}
	for (int i = 0; i < S_COUNT; i++)
		if (sqlite3_prepare_v3(db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &imp->st[i], NULL) != SQLITE_OK) {
			rc = db_fail(imp, err, "preparing statements");
			kp_import_free(imp);
			return rc;
		}
	char now[32];
	kp_format_time((int64_t)time(NULL), now, sizeof now);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "INSERT INTO import_batch(started, sources, kplan) VALUES(?1, '[]', ?2)", -1, &s,
			       NULL) != SQLITE_OK) {
		rc = db_fail(imp, err, "starting the import");
		kp_import_free(imp);
		return rc;
	}
	sqlite3_bind_text(s, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, KPLAN_VERSION, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		rc = db_fail(imp, err, "starting the import");
		kp_import_free(imp);
		return rc;
	}
	imp->batch_id = sqlite3_last_insert_rowid(db);
	*out = imp;
	return KP_OK;
}

int kp_import_finish(kp_import *imp, kp_err *err)
{
	if (kp_interrupted)
		return kp_err_set(err, KP_INTR, "interrupted");
	if (expand_workloads(imp, err) != KP_OK)
		return err->code;
	kp_sb_addc(&imp->sources, ']');
	kp_sb counts;
	kp_sb_init(&counts);
	const kp_import_stats *st = &imp->stats;
	kp_sb_printf(&counts,
		     "{\"nodes\":%ld,\"pods\":%ld,\"generated_pods\":%ld,\"workloads\":%ld,\"priority_classes\":%ld,"
		     "\"pdbs\":%ld,\"services\":%ld,\"namespaces\":%ld,\"scheduler_configs\":%ld,\"invalid\":%ld,"
		     "\"files\":%ld,\"bytes\":%lld,\"skipped\":{",
		     st->nodes, st->pods, st->generated_pods, st->workloads, st->priority_classes, st->pdbs,
		     st->services, st->namespaces, st->scheduler_configs, st->invalid, st->files, st->bytes);
	/* "skipped": per kind (as before apiVersions were kept), summed over
	 * apiVersions; "skipped_api": per "apiVersion Kind" */
	int first = 1;
	for (size_t i = 0; i < imp->nskipped; i++) {
		const char *kind = strrchr(imp->skipped_kinds[i], ' ');
		kind = kind ? kind + 1 : imp->skipped_kinds[i];
		size_t j = 0;
		for (; j < i; j++) {
			const char *k2 = strrchr(imp->skipped_kinds[j], ' ');
			if (!strcmp(k2 ? k2 + 1 : imp->skipped_kinds[j], kind))
				break;
		}
		if (j < i)
			continue;   /* summed at its first apiVersion */
		long n = 0;
		for (j = i; j < imp->nskipped; j++) {
			const char *k2 = strrchr(imp->skipped_kinds[j], ' ');
			n += strcmp(k2 ? k2 + 1 : imp->skipped_kinds[j], kind) ? 0 : imp->skipped_counts[j];
		}
		if (!first)
			kp_sb_addc(&counts, ',');
		first = 0;
		kp_sb_add_json_str(&counts, kind);
		kp_sb_printf(&counts, ":%ld", n);
	}
	kp_sb_adds(&counts, "},\"skipped_api\":{");
	for (size_t i = 0; i < imp->nskipped; i++) {
		if (i)
			kp_sb_addc(&counts, ',');
		kp_sb_add_json_str(&counts, imp->skipped_kinds[i]);
		kp_sb_printf(&counts, ":%ld", imp->skipped_counts[i]);
	}
	kp_sb_adds(&counts, "}}");
	sqlite3_stmt *s;
	int rc = KP_OK;
	if (!kp_sb_ok(&counts) || !kp_sb_ok(&imp->sources)) {
		rc = kp_err_set(err, KP_NOMEM, "out of memory");
	} else if (sqlite3_prepare_v2(imp->db, "UPDATE import_batch SET sources = ?1, counts = ?2 WHERE id = ?3", -1,
				      &s, NULL) != SQLITE_OK) {
		rc = db_fail(imp, err, "finishing the import");
	} else {
		sqlite3_bind_text(s, 1, kp_sb_str(&imp->sources), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, kp_sb_str(&counts), -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s, 3, imp->batch_id);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = db_fail(imp, err, "finishing the import");
		sqlite3_finalize(s);
	}
	kp_sb_release(&counts);
	if (rc != KP_OK)
		return rc;
	/* unused classes go (a re-import may have orphaned them) */
	reset_all(imp);
	if (sqlite3_exec(imp->db,
			 "CREATE TEMP TABLE kp_dead AS SELECT id FROM pod_class WHERE id NOT IN (SELECT class_id FROM pod) "
			 "AND id NOT IN (SELECT class_id FROM workload WHERE class_id IS NOT NULL) "
			 "AND id NOT IN (SELECT pod_class_id FROM workload WHERE pod_class_id IS NOT NULL);"
			 "DELETE FROM class_request WHERE class_id IN (SELECT id FROM temp.kp_dead);"
			 "DELETE FROM class_container WHERE class_id IN (SELECT id FROM temp.kp_dead);"
			 "DELETE FROM class_node_selector WHERE class_id IN (SELECT id FROM temp.kp_dead);"
			 "DELETE FROM class_toleration WHERE class_id IN (SELECT id FROM temp.kp_dead);"
			 "DELETE FROM class_node_term WHERE class_id IN (SELECT id FROM temp.kp_dead);"
			 "DELETE FROM class_node_expr WHERE class_id IN (SELECT id FROM temp.kp_dead);"
			 "DELETE FROM class_pod_affinity WHERE class_id IN (SELECT id FROM temp.kp_dead);"
			 "DELETE FROM class_spread WHERE class_id IN (SELECT id FROM temp.kp_dead);"
			 "DELETE FROM class_port WHERE class_id IN (SELECT id FROM temp.kp_dead);"
			 "DELETE FROM pod_class WHERE id IN (SELECT id FROM temp.kp_dead);"
			 "DROP TABLE temp.kp_dead;",
			 NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(imp, err, "removing unused pod classes");
	for (int i = 0; i < S_COUNT; i++) {
		sqlite3_finalize(imp->st[i]);
		imp->st[i] = NULL;
	}
	sort_skipped(imp);
	imp->stats.nskipped = imp->nskipped;
	imp->stats.skipped_names = (const char *const *)imp->skipped_kinds;
	imp->stats.skipped_counts = imp->skipped_counts;
	if (imp->opts.before_commit && imp->opts.before_commit(imp->opts.commit_ctx, &imp->stats, imp->batch_id))
		return kp_err_set(err, KP_IO, "error writing output");
	rc = kp_db_commit(imp->db, err);
	if (rc != KP_OK)
		return rc;
	imp->in_txn = 0;
	imp->finished = 1;
	return KP_OK;
}

void kp_import_free(kp_import *imp)
{
	if (!imp)
		return;
	for (int i = 0; i < S_COUNT; i++)
		sqlite3_finalize(imp->st[i]);
	if (imp->in_txn)
		kp_db_rollback(imp->db);
	for (size_t i = 0; i < imp->nclasses; i++)
		kp_free(imp->classes[i].spec);
	kp_free(imp->classes);
	for (size_t i = 0; i < imp->nskipped; i++)
		kp_free(imp->skipped_kinds[i]);
	kp_free(imp->skipped_kinds);
	kp_free(imp->skipped_counts);
	kp_arena_release(&imp->arena);
	kp_arena_release(&imp->scratch);
	kp_sb_release(&imp->spec);
	kp_sb_release(&imp->json);
	kp_sb_release(&imp->sources);
	kp_free(imp);
}

const kp_import_stats *kp_import_get_stats(const kp_import *imp) { return &imp->stats; }
int64_t kp_import_batch_id(const kp_import *imp) { return imp->batch_id; }
