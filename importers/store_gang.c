/*
 * store_gang.c — the rows of the Workload API (scheduling.k8s.io; schema
 * section "gang", docs/gangs.md): PodGroup, Workload and its pod group
 * templates, and the scheduling group of pods and of controllers' pod
 * templates.
 */
#include "store_int.h"

#include <string.h>

int kp_store_gang_member(kp_import *imp, int64_t owner_id, int workload, const kp_pod_in *p, kp_err *err)
{
	sqlite3_stmt *s = stmt(imp, workload ? S_GANG_WL_DEL : S_GANG_POD_DEL);
	sqlite3_bind_int64(s, 1, owner_id);
	if (exec(imp, s, err, "replacing a scheduling group"))
		return err->code;
	if (!p->pod_group)
		return KP_OK;
	s = stmt(imp, workload ? S_GANG_WL_INS : S_GANG_POD_INS);
	sqlite3_bind_int64(s, 1, owner_id);
	bind_text(s, 2, p->pod_group);
	bind_text(s, 3, p->workload_ref);
	bind_text(s, 4, p->workload_replica_key);
	return exec(imp, s, err, "storing a scheduling group") ? err->code : KP_OK;
}

int kp_import_pod_group(kp_import *imp, const char *file, const kp_pod_group_in *g, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_PG_FIND, g->namespace_, g->name, file, g->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_PG_UPSERT);
	bind_text(s, 1, g->namespace_);
	bind_text(s, 2, g->name);
	bind_text(s, 3, g->api_version);
	bind_text(s, 4, g->workload_name);
	bind_text(s, 5, g->template_name);
	bind_text(s, 6, g->gang ? "gang" : "basic");
	sqlite3_bind_int64(s, 7, g->gang ? g->min_count : 1);
	bind_text(s, 8, g->topology_key);
	bind_text(s, 9, g->priority_class);
	if (g->has_priority)
		sqlite3_bind_int64(s, 10, g->priority);
	bind_text(s, 11, g->disruption_mode);
	bind_text(s, 12, file);
	sqlite3_bind_int(s, 13, (int)g->pos.line);
	sqlite3_bind_int64(s, 14, imp->batch_id);
	return exec(imp, s, err, "storing a pod group") ? err->code : KP_OK;
}

int kp_import_sched_workload(kp_import *imp, const char *file, const kp_sched_workload_in *w, kp_err *err)
{
	int rc = kp_store_find_dup(imp, S_SWL_FIND, w->namespace_, w->name, file, w->pos, err);
	if (rc < 0)
		return rc;
	sqlite3_stmt *s = stmt(imp, S_SWL_UPSERT);
	bind_text(s, 1, w->namespace_);
	bind_text(s, 2, w->name);
	bind_text(s, 3, w->api_version);
	bind_text(s, 4, w->controller_kind);
	bind_text(s, 5, w->controller_name);
	bind_text(s, 6, file);
	sqlite3_bind_int(s, 7, (int)w->pos.line);
	sqlite3_bind_int64(s, 8, imp->batch_id);
	if (sqlite3_step(s) != SQLITE_ROW)
		return kp_store_db_fail(imp, err, "storing a workload (scheduling.k8s.io)");
	int64_t id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	s = stmt(imp, S_SWL_TMPL_DEL);
	sqlite3_bind_int64(s, 1, id);
	if (exec(imp, s, err, "replacing pod group templates"))
		return err->code;
	for (size_t i = 0; i < w->ntemplates; i++) {
		const kp_pod_group_in *t = &w->templates[i];
		s = stmt(imp, S_SWL_TMPL_INS);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		bind_text(s, 3, t->name);
		bind_text(s, 4, t->gang ? "gang" : "basic");
		sqlite3_bind_int64(s, 5, t->gang ? t->min_count : 1);
		bind_text(s, 6, t->priority_class);
		if (t->has_priority)
			sqlite3_bind_int64(s, 7, t->priority);
		bind_text(s, 8, t->disruption_mode);
		if (exec(imp, s, err, "storing a pod group template"))
			return err->code;
	}
	return KP_OK;
}
