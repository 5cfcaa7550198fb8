/*
 * tap_snap.h — one plugin, called directly, on a tiny cluster: what the
 * per-plugin unit tests (test_plugin_*.c) share.
 *
 *   tap_snap t;
 *   if (tap_snap_open(&t, yaml, NULL, "p") == KP_OK) {      // pod default/p
 *           tap_snap_filter(&t, &kp_plugin_node_ports, "n1", buf, sizeof buf);
 *           tap_snap_score(&t, &kp_plugin_image_locality, NULL, 0, buf, sizeof buf);
 *   }
 *   tap_snap_close(&t);
 *
 * The YAML (nodes, pods, a KubeSchedulerConfiguration's profile when config
 * is set) goes through kplan's importer into an in-memory database; the
 * snapshot is loaded and the static SQL filters evaluated as a plan does,
 * and a cycle is prepared for the one pod as the plan loop prepares it
 * (kp_cycle_init, planner/cycle.c: the placed pods with affinity terms
 * listed, kube's reasons interned; then schedule_one's per-pod steps).
 * Nothing else of the plan runs: no queue, no other plugin, no NodeAffinity
 * addedAffinity.  tap_snap_open_sql runs SQL on the database between the
 * import and the load, for a state the importer does not make.
 *
 * Results are strings, so that a failing case shows what it got:
 *   filter: "" (passed), "Unschedulable: R1, R2" or
 *           "UnschedulableAndUnresolvable: R" (kube's status code and
 *           reasons), "PreFilter: MSG" when PreFilter rejects the pod;
 *           on every node: "nodeA: ok | nodeB: Unschedulable: R"
 *   prefilter: "" (every node stays), "skip", the nodes a PreFilterResult
 *           keeps ("node1 node2") or "PreFilter: MSG"
 *   score:  "n1=37 n2=100", one NODE=SCORE per node in name order
 */
#ifndef KP_TAP_SNAP_H
#define KP_TAP_SNAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/db.h"
#include "../../planner/cycle.h"
#include "../../planner/static.h"
#include "../../planner/udf.h"

/* importers/import.h's entry points, declared here: its model types
 * (kp_taint, kp_spread) clash with the snapshot's of the same names */
typedef struct kp_import kp_import;
struct kp_import_opts;
int kp_import_begin(sqlite3 *db, const struct kp_import_opts *opts, kp_import **out, kp_err *err);
int kp_import_buffer(kp_import *imp, const char *name, const char *data, size_t len, kp_err *err);
int kp_import_finish(kp_import *imp, kp_err *err);
void kp_import_free(kp_import *imp);

typedef struct tap_snap {
	sqlite3 *db;
	kp_snap s;
	kp_config cfg;
	kp_cycle cy;
	kp_err err;
	int loaded, cycle_ready;
} tap_snap;

/* the cycle's state, as the plan makes it (kp_cycle_init, planner/cycle.c):
 * per-node arrays, kube's reasons, the placed pods with affinity terms */
static inline int tap_snap_cycle(tap_snap *t)
{
	t->cycle_ready = 1;
	return kp_cycle_init(&t->cy, &t->s, 1);
}

/* the profile's score resources as indexes (schedule_one) */
static inline void tap_snap_res(tap_snap *t)
{
	const kp_profile *pf = t->cy.pf;
	for (int i = 0; i < pf->nfit_res || i < pf->nbal_res; i++)
		for (int k = 0; k < 2; k++) {
			const char *name = k ? (i < pf->nbal_res ? pf->bal_res[i].name : NULL)
					     : (i < pf->nfit_res ? pf->fit_res[i].name : NULL);
			if (!name)
				continue;
			kp_sid sid = kp_strtab_find(&t->s.strs, name);
			int idx = -1;
			for (int r = 0; r < t->s.nres && sid >= 0 && idx < 0; r++)
				if (t->s.res_name[r] == sid)
					idx = r;
			if (k)
				t->cy.bal_res[i] = idx;
			else
				t->cy.fit_res[i] = idx;
		}
	t->cy.res_pf = pf;
}

/* tap_snap_open, with sql (NULL: none) run on the database after the import
 * and before the snapshot is loaded: a state the importer does not make
 * (e.g. a generic ephemeral volume whose claim does not exist yet) */
static inline int tap_snap_open_sql(tap_snap *t, const char *yaml, const char *config, const char *sql,
				    const char *pod);

/* Import yaml (and config, a KubeSchedulerConfiguration without its
 * apiVersion and kind lines, or NULL for kube's default profile), load the snapshot and prepare a cycle for pod
 * `pod` ("name" in namespace default, or "namespace/name").  KP_OK, or an
 * error with t->err set. */
static inline int tap_snap_open(tap_snap *t, const char *yaml, const char *config, const char *pod)
{
	return tap_snap_open_sql(t, yaml, config, NULL, pod);
}

/* the kube version the next tap_snap_open plans as (0: the newest) */
static int tap_snap_kube_minor;

static inline int tap_snap_open_sql(tap_snap *t, const char *yaml, const char *config, const char *sql,
				    const char *pod)
{
	memset(t, 0, sizeof *t);
	kp_kube kube;
	kp_kube_init(&kube, tap_snap_kube_minor ? tap_snap_kube_minor : KP_KUBE_NEWEST);
	kp_import *imp = NULL;
	int rc = kp_db_open(":memory:", KP_DB_CREATE, &t->db, NULL, &t->err);
	if (!rc && kp_udf_register(t->db) != SQLITE_OK)
		rc = kp_err_set(&t->err, KP_IO, "cannot register kplan's SQL functions");
	if (!rc)
		rc = kp_import_begin(t->db, NULL, &imp, &t->err);
	if (!rc)
		rc = kp_import_buffer(imp, "case.yaml", yaml, strlen(yaml), &t->err);
	if (!rc)
		rc = kp_import_finish(imp, &t->err);
	kp_import_free(imp);
	if (rc)
		return rc;
	if (sql && sqlite3_exec(t->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return kp_err_set(&t->err, KP_ERROR, "sql after the import: %s", sqlite3_errmsg(t->db));
	if (config) {
		kp_sb text;
		kp_sb_init(&text);
		kp_sb_printf(&text, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n%s", config);
		kp_config_set_kube(&t->cfg, &kube);
		rc = text.buf && !text.failed ? kp_config_parse(text.buf, text.len, "config", &t->cfg, &t->err)
			      : kp_err_set(&t->err, KP_NOMEM, "out of memory");
		kp_sb_release(&text);
	} else
		kp_config_default(&t->cfg, &kube);
	if (rc || !t->cfg.nprofiles)
		return rc ? rc : kp_err_set(&t->err, KP_ERROR, "no profile");
	if ((rc = kp_snap_load(t->db, &t->s, &kube, &t->err)))
		return rc;
	t->loaded = 1;
	char ns[256] = "default";
	const char *name = pod, *slash = strchr(pod, '/');
	if (slash) {
		snprintf(ns, sizeof ns, "%.*s", (int)(slash - pod), pod);
		name = slash + 1;
	}
	kp_sid sns = kp_strtab_find(&t->s.strs, ns), sname = kp_strtab_find(&t->s.strs, name);
	int32_t pi = -1;
	for (int32_t i = 0; i < t->s.npods && pi < 0; i++)
		if (t->s.pods[i].ns == sns && t->s.pods[i].name == sname)
			pi = i;
	if (pi < 0 || sname < 0)
		return kp_err_set(&t->err, KP_ERROR, "no pod '%s' in the case", pod);
	for (int i = 0; i < t->s.nclasses; i++)
		t->s.classes[i].needed = i == t->s.pods[pi].cls;
	if ((rc = kp_static_filters(t->db, &t->s, &t->cfg.profiles[0], &t->err)))
		return rc;
	if ((rc = tap_snap_cycle(t)))
		return kp_err_set(&t->err, rc, "out of memory");
	kp_cycle *cy = &t->cy;
	cy->pf = &t->cfg.profiles[0];
	cy->pi = pi;
	cy->p = &t->s.pods[pi];
	cy->c = &t->s.classes[cy->p->cls];
	tap_snap_res(t);
	return KP_OK;
}

/* index of the node named name, -1 */
static inline int tap_snap_node(const tap_snap *t, const char *name)
{
	kp_sid sid = kp_strtab_find(&t->s.strs, name);
	for (int n = 0; n < t->s.nnodes && sid >= 0; n++)
		if (t->s.node_name[n] == sid)
			return n;
	return -1;
}

/* the cycle's state for a fresh pass over the nodes */
static inline void tap_snap_reset(tap_snap *t)
{
	kp_cycle *cy = &t->cy;
	kp_arena_reset(&cy->arena);
	cy->nfeas = 0;
	cy->rlen = 0;
	cy->spread_built = 0;
	cy->restrict_nodes = 0;
	cy->prefilter_msg = NULL;
	memset(cy->skip, 0, sizeof cy->skip);
	memset(cy->fail, -1, (size_t)t->s.nnodes);
	memset(cy->unres, 0, (size_t)t->s.nnodes);
}

/* The plugin's PreFilter, then its Filter on node `node`: the verdict as
 * described at the top of this file.  A PreFilter that says skip passes
 * every node, as kube's framework does; a PreFilterResult (the nodes
 * NodeAffinity's PreFilter keeps, tap_snap_prefilter) is not applied: kube's
 * plugin tests call Filter on the node whatever PreFilter returned. */
static inline const char *tap_snap_filter(tap_snap *t, const kp_plugin *pg, const char *node, char *buf, size_t len)
{
	kp_cycle *cy = &t->cy;
	int n = tap_snap_node(t, node);
	snprintf(buf, len, "no node '%s'", node);
	if (n < 0 || !pg->filter)
		return buf;
	tap_snap_reset(t);
	int rc = pg->pre_filter ? pg->pre_filter(cy) : KP_OK;
	if (rc == KP_PREFILTER_FAIL) {
		snprintf(buf, len, "PreFilter: %s", cy->prefilter_msg ? cy->prefilter_msg : "");
		return buf;
	}
	if (rc == KP_SKIP) {
		buf[0] = 0;
		return buf;
	}
	if (rc != KP_OK) {
		snprintf(buf, len, "PreFilter error %d", rc);
		return buf;
	}
	if (!pg->filter(cy, n)) {
		buf[0] = 0;
		return buf;
	}
	size_t w = (size_t)snprintf(buf, len, "%s:", cy->unres[n] ? "UnschedulableAndUnresolvable" : "Unschedulable");
	for (int i = 0; i < cy->rcount[n] && w < len; i++) {
		const kp_reason *r = &t->s.reasons[cy->rbuf[cy->rstart[n] + i]];
		w += (size_t)snprintf(buf + w, len - w, "%s %s", i ? "," : "", r->msg);
	}
	return buf;
}

/* tap_snap_filter on every node, in name order: "nodeA: ok | nodeB: Unschedulable: R" */
static inline const char *tap_snap_filter_all(tap_snap *t, const kp_plugin *pg, char *buf, size_t len)
{
	char one[1024];
	size_t w = 0;
	buf[0] = 0;
	for (int n = 0; n < t->s.nnodes && w < len; n++) {
		const char *name = kp_str(&t->s.strs, t->s.node_name[n]);
		tap_snap_filter(t, pg, name, one, sizeof one);
		w += (size_t)snprintf(buf + w, len - w, "%s%s: %s", n ? " | " : "", name, one[0] ? one : "ok");
	}
	return buf;
}

/* The plugin's PreFilter alone: "" when every node stays a candidate,
 * "skip" when the plugin sits the pod out, the nodes a PreFilterResult keeps
 * ("node1 node2", "(none)") or "PreFilter: MSG". */
static inline const char *tap_snap_prefilter(tap_snap *t, const kp_plugin *pg, char *buf, size_t len)
{
	kp_cycle *cy = &t->cy;
	buf[0] = 0;
	if (!pg->pre_filter)
		return buf;
	tap_snap_reset(t);
	int rc = pg->pre_filter(cy);
	if (rc == KP_PREFILTER_FAIL)
		snprintf(buf, len, "PreFilter: %s", cy->prefilter_msg ? cy->prefilter_msg : "");
	else if (rc == KP_SKIP)
		snprintf(buf, len, "skip");
	else if (rc != KP_OK)
		snprintf(buf, len, "PreFilter error %d", rc);
	else if (cy->restrict_nodes) {
		size_t w = 0;
		for (int n = 0; n < t->s.nnodes && w < len; n++)
			if (cy->allowed[n])
				w += (size_t)snprintf(buf + w, len - w, "%s%s", w ? " " : "",
						      kp_str(&t->s.strs, t->s.node_name[n]));
		if (!w)
			snprintf(buf, len, "(none)");
	}
	return buf;
}

/* The plugin's PreScore, Score on every feasible node (feasible: node
 * names separated by spaces, NULL for every node) and, when normalize is
 * set and the plugin has one, NormalizeScore: "n1=37 n2=100".  Nodes that
 * are not feasible are left out of the string. */
static inline const char *tap_snap_score(tap_snap *t, const kp_plugin *pg, const char *feasible, int normalize, char *buf,
				  size_t len)
{
	kp_cycle *cy = &t->cy;
	snprintf(buf, len, "no score");
	if (!pg->score)
		return buf;
	tap_snap_reset(t);
	for (int n = 0; n < t->s.nnodes; n++) {
		char pat[300];
		snprintf(pat, sizeof pat, " %s ", kp_str(&t->s.strs, t->s.node_name[n]));
		char list[1024];
		snprintf(list, sizeof list, " %s ", feasible ? feasible : "");
		if (!feasible || strstr(list, pat))
			cy->feas[cy->nfeas++] = n;
	}
	int rc = pg->pre_score ? pg->pre_score(cy) : KP_OK;
	if (rc < 0) {
		snprintf(buf, len, "PreScore error %d", rc);
		return buf;
	}
	int64_t *sc = kp_calloc((size_t)(t->s.nnodes ? t->s.nnodes : 1), sizeof *sc);
	if (!sc)
		return buf;
	for (int i = 0; i < cy->nfeas; i++)
		sc[cy->feas[i]] = rc == KP_SKIP ? 0 : pg->score(cy, cy->feas[i]);
	if (normalize && rc != KP_SKIP && pg->normalize)
		pg->normalize(cy, sc);
	size_t w = 0;
	buf[0] = 0;
	for (int i = 0; i < cy->nfeas && w < len; i++)
		w += (size_t)snprintf(buf + w, len - w, "%s%s=%lld", i ? " " : "",
				      kp_str(&t->s.strs, t->s.node_name[cy->feas[i]]), (long long)sc[cy->feas[i]]);
	kp_free(sc);
	return buf;
}

static inline void tap_snap_close(tap_snap *t)
{
	if (t->cycle_ready)
		kp_cycle_release(&t->cy);
	if (t->loaded)
		kp_snap_release(&t->s);
	kp_config_release(&t->cfg);
	if (t->db)
		kp_db_close(t->db);
	memset(t, 0, sizeof *t);
}

#endif
