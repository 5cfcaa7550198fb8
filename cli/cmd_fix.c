/*
 * cmd_fix.c — `kplan fix DB [--run N]`: why-not with the fix (README
 * "Why-not: the smallest fix").  For each unschedulable pod of a run, the
 * smallest change found that makes it fit, each candidate checked with a dry
 * run of the run's own options (seed, --config, preemption, what-if scenario)
 * plus the change, where only that pod's fate is read (kp_plan_opts.on_pod):
 *
 *   1. evict: on one node, the fewest lower-priority pods the run left there,
 *      taken lowest priority first (then latest started, then highest id)
 *      until the pod's requests fit, never past a PodDisruptionBudget's
 *      allowed disruptions, then the more important ones given back while it
 *      still fits (DefaultPreemption's reprieve).  Nodes by k, then name; the
 *      first FIX_EVICT_TRIES are checked (scenario: remove-pods).
 *   2. add-node: one node like --node-template (scenario: add-nodes FILE:1).
 *   3. relax: an untolerated NoSchedule/NoExecute taint named by the pod's
 *      failure reasons, removed from the nodes that have it (scenario:
 *      untaint KEY=VALUE); else, when its reasons name the plugin, one
 *      constraint of the pod's class (scenario: relax): a nodeSelector key
 *      dropped; one matchExpression of a required node affinity term dropped
 *      (terms, then expressions, in order), else the whole required node
 *      affinity dropped, only when no single expression helps; a
 *      DoNotSchedule spread constraint's maxSkew + 1; a required pod
 *      (anti-)affinity term dropped.
 *
 * The first kind that works is the pod's fix.  Nothing unchecked is written.
 * The rows go to the `fix` table (schema.sql, "fix") in one transaction,
 * replacing the run's earlier rows; the input tables, run and placement are
 * untouched (the checks are dry runs, rolled back).
 */
#include "cli.h"
#include "../common/db.h"
#include "../planner/plan.h"
#include "../planner/whatif.h"

#include <getopt.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

const char cmd_fix_help[] =
	"usage: kplan fix [options] DB\n"
	"\n"
	"For each unschedulable pod of a run, the smallest change that makes it fit, each\n"
	"one checked with a dry-run plan of the run's options plus the change: evict the\n"
	"fewest lower-priority pods on one node (PDBs respected), else add one node like\n"
	"--node-template, else relax one untolerated taint, nodeSelector key, required\n"
	"node affinity expression (else the whole required node affinity), spread\n"
	"maxSkew (+1) or required pod (anti-)affinity term.  Pods without a checked fix\n"
	"get none.  The rows go to the fix table (replacing the run's earlier ones) and\n"
	"`kplan report` shows them.\n"
	"\n"
	"Options:\n"
	"  --run N                   the run (default: the latest)\n"
	"  --node-template FILE      a Node manifest: also try adding one node like it\n"
	"  --limit K                 at most K unschedulable pods, in queue order (default 20)\n"
	"  --format text|json        the summary on stdout (default text)\n"
	"  -q, --quiet               no summary\n"
	"  -h, --help                this help\n"
	"\n"
	"Examples:\n"
	"  kplan fix cluster.db\n"
	"  kplan fix cluster.db --run 3 --node-template m5-4xlarge.yaml --format json\n";

#define FIX_EVICT_TRIES 3
#define FIX_MAX_RES 32

typedef struct fnode {
	int64_t id;
	char *name;
	int cordoned;
	int64_t alloc[FIX_MAX_RES], used[FIX_MAX_RES];
	uint8_t has[FIX_MAX_RES];
} fnode;

typedef struct victim {
	int64_t id, prio, start;
	char *ref;                   /* namespace/name */
	int node;                    /* index in nodes */
	int64_t req[FIX_MAX_RES];
	int *pdbs;                   /* indexes of matching PDBs */
	int npdbs;
} victim;

typedef struct target {
	int64_t id, prio, class_id;
	char *ns, *name;
	int still;                   /* unschedulable in the replay of the run */
	/* the fix */
	const char *kind;            /* NULL: none */
	kp_sb detail, victims;
	char *node;
} target;

typedef struct fixer {
	sqlite3 *db;
	kp_err *err;
	int64_t run;
	uint64_t seed;
	int no_preemption;
	char *config;
	char **wopts;                /* the run's scenario: option, value pairs */
	int nw;
	/* the plan being read */
	target *targets;
	int ntargets;
	int baseline;
	int64_t want;
	int placed;
	char *placed_node;
	long plans;
	/* the cluster after the run */
	char *res[FIX_MAX_RES];
	int nres;
	fnode *nodes;
	int nnodes;
	victim *victims;
	int nvictims;
	int64_t *pdb_allowed;
	int npdbs;
} fixer;

static int nomem(fixer *f) { return kp_err_set(f->err, KP_NOMEM, "out of memory"); }

static int dbfail(fixer *f)
{
	if (kp_interrupted)
		return kp_err_set(f->err, KP_INTR, "interrupted");
	return kp_err_set(f->err, KP_IO, "%s", sqlite3_errmsg(f->db));
}

/* append the what-if option (opt, value) to f->wopts (pairs; *cap entries) */
static int add_wopt(fixer *f, int *cap, const char *opt, const char *value)
{
	if (f->nw * 2 + 2 > *cap) {
		int c = *cap ? *cap * 2 : 16;
		char **v = kp_realloc(f->wopts, (size_t)c * sizeof *v);
		if (!v)
			return nomem(f);
		f->wopts = v;
		*cap = c;
	}
	f->wopts[2 * f->nw] = kp_strdup(opt);
	f->wopts[2 * f->nw + 1] = kp_strdup(value);
	f->nw++;
	return f->wopts[2 * f->nw - 2] && f->wopts[2 * f->nw - 1] ? KP_OK : nomem(f);
}

static char *col_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return kp_strdup(t ? (const char *)t : "");
}

/* ---- dry runs ---- */

static int on_pod(void *ctx, const kp_plan_pod *p)
{
	fixer *f = ctx;
	int placed = p->node != NULL && strcmp(p->action, "evict") && strcmp(p->action, "unschedulable");
	if (f->baseline) {
		for (int i = 0; i < f->ntargets; i++)
			if (f->targets[i].id == p->pod_id)
				f->targets[i].still = !placed && !strcmp(p->action, "unschedulable");
		return KP_OK;
	}
	if (p->pod_id == f->want && placed) {
		f->placed = 1;
		kp_free(f->placed_node);
		if (!(f->placed_node = kp_strdup(p->node)))
			return nomem(f);
	}
	return KP_OK;
}

/* One dry run of the run's scenario plus (option, value) (NULL: none). */
static int plan_with(fixer *f, const char *option, const char *value)
{
	kp_whatif *w = NULL;
	if ((f->nw || option) && !(w = kp_whatif_new()))
		return nomem(f);
	for (int i = 0; i < f->nw; i++)
		if (kp_whatif_add(w, f->wopts[2 * i], f->wopts[2 * i + 1], f->err) != KP_OK) {
			kp_whatif_free(w);
			return f->err->code;
		}
	if (option && kp_whatif_add(w, option, value, f->err) != KP_OK) {
		kp_whatif_free(w);
		return f->err->code;
	}
	kp_plan_opts po = { .seed = f->seed, .no_preemption = f->no_preemption, .config_file = f->config, .dry_run = 1,
			    .whatif = w, .on_pod = on_pod, .result_ctx = f };
	kp_plan_result r;
	f->placed = 0;
	kp_free(f->placed_node);
	f->placed_node = NULL;
	int rc = kp_plan_run(f->db, &po, &r, f->err);
	kp_whatif_free(w);
	f->plans++;
	return rc;
}

/* ---- the run and its pods ---- */

static int load_run(fixer *f, int64_t run, const char *path)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(f->db, "SELECT id, seed, CASE WHEN json_valid(options) THEN json_extract(options, '$.config') END, "
				      "CASE WHEN json_valid(options) THEN json_extract(options, '$.no_preemption') END, "
				      "CASE WHEN json_valid(options) THEN json_extract(options, '$.mode') END, "
				      "CASE WHEN json_valid(options) THEN json_extract(options, '$.strategy') END "
				      "FROM run WHERE (?1 = 0 OR id = ?1) ORDER BY id DESC LIMIT 1", -1, &s, NULL) != SQLITE_OK)
		return dbfail(f);
	sqlite3_bind_int64(s, 1, run);
	int step = sqlite3_step(s), rc = KP_OK;
	char *mode = NULL, *strategy = NULL;
	if (step == SQLITE_ROW) {
		f->run = sqlite3_column_int64(s, 0);
		f->seed = (uint64_t)sqlite3_column_int64(s, 1);
		if (sqlite3_column_type(s, 2) == SQLITE_TEXT && !(f->config = col_dup(s, 2)))
			rc = nomem(f);
		f->no_preemption = sqlite3_column_int(s, 3);
		if (sqlite3_column_type(s, 4) == SQLITE_TEXT && !(mode = col_dup(s, 4)))
			rc = nomem(f);
		if (sqlite3_column_type(s, 5) == SQLITE_TEXT && !(strategy = col_dup(s, 5)))
			rc = nomem(f);
	} else if (step != SQLITE_DONE) {
		rc = dbfail(f);
	} else if (run) {
		rc = kp_err_set(f->err, KP_ERROR, "no run %lld in '%s'", (long long)run, path);
	} else {
		rc = kp_err_set(f->err, KP_ERROR, "no run in '%s' (run 'kplan plan' first)", path);
	}
	sqlite3_finalize(s);
	if (rc)
		goto out;
	/* the scenario: mode full, strategy, then the options in the order recorded
	 * (a rebalance run's moves are not replayed: only its pending pods) */
	int cap = 0;
	if (sqlite3_prepare_v2(f->db, "SELECT json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]') FROM run r, "
				      "json_each(CASE WHEN json_valid(r.options) THEN r.options ELSE '{}' END, '$.whatif') j "
				      "WHERE r.id = ?1 ORDER BY j.key", -1, &s, NULL) != SQLITE_OK) {
		rc = dbfail(f);
		goto out;
	}
	sqlite3_bind_int64(s, 1, f->run);
	char *extra[4] = { NULL };
	int nextra = 0;
	if (mode && !strcmp(mode, "full")) {
		extra[nextra++] = "mode";
		extra[nextra++] = "full";
	}
	if (strategy) {
		extra[nextra++] = "strategy";
		extra[nextra++] = strategy;
	}
	for (int i = 0; i < nextra && !rc; i += 2)
		rc = add_wopt(f, &cap, extra[i], extra[i + 1]);
	while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW) {
		if (sqlite3_column_type(s, 0) != SQLITE_TEXT || sqlite3_column_type(s, 1) != SQLITE_TEXT)
			continue;
		rc = add_wopt(f, &cap, (const char *)sqlite3_column_text(s, 0), (const char *)sqlite3_column_text(s, 1));
	}
	if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = dbfail(f);
	sqlite3_finalize(s);
out:
	kp_free(mode);
	kp_free(strategy);
	return rc;
}

static int load_targets(fixer *f, long limit, long *total)
{
	sqlite3_stmt *s;
	*total = 0;
	if (sqlite3_prepare_v2(f->db, "SELECT count(*) FROM placement pl JOIN pod p ON p.id = pl.pod_id "
				      "WHERE pl.run_id = ?1 AND pl.action = 'unschedulable'", -1, &s, NULL) != SQLITE_OK)
		return dbfail(f);
	sqlite3_bind_int64(s, 1, f->run);
	if (sqlite3_step(s) == SQLITE_ROW)
		*total = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (sqlite3_prepare_v2(f->db, "SELECT p.id, p.namespace, p.name, COALESCE(pp.priority, 0), p.class_id "
				      "FROM placement pl JOIN pod p ON p.id = pl.pod_id LEFT JOIN pod_priority pp ON pp.pod_id = p.id "
				      "WHERE pl.run_id = ?1 AND pl.action = 'unschedulable' ORDER BY pl.seq, p.id LIMIT ?2",
			       -1, &s, NULL) != SQLITE_OK)
		return dbfail(f);
	sqlite3_bind_int64(s, 1, f->run);
	sqlite3_bind_int64(s, 2, limit);
	long cap = limit < *total ? limit : *total;
	if (!(f->targets = kp_calloc((size_t)cap + 1, sizeof *f->targets))) {
		sqlite3_finalize(s);
		return nomem(f);
	}
	int step, rc = KP_OK;
	while ((step = sqlite3_step(s)) == SQLITE_ROW && f->ntargets < cap) {
		target *t = &f->targets[f->ntargets++];
		t->id = sqlite3_column_int64(s, 0);
		t->ns = col_dup(s, 1);
		t->name = col_dup(s, 2);
		t->prio = sqlite3_column_int64(s, 3);
		t->class_id = sqlite3_column_int64(s, 4);
		kp_sb_init(&t->detail);
		kp_sb_init(&t->victims);
		if (!t->ns || !t->name) {
			rc = nomem(f);
			break;
		}
	}
	if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = dbfail(f);
	sqlite3_finalize(s);
	return rc;
}

/* ---- the cluster after the run: nodes, what is used there, the pods that could be evicted ---- */

static int res_index(fixer *f, const char *name, int add)
{
	for (int i = 0; i < f->nres; i++)
		if (!strcmp(f->res[i], name))
			return i;
	if (!add || f->nres == FIX_MAX_RES)
		return -1;
	if (!(f->res[f->nres] = kp_strdup(name)))
		return -2;
	return f->nres++;
}

static int node_index(fixer *f, int64_t id)
{
	int lo = 0, hi = f->nnodes - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (f->nodes[mid].id == id)
			return mid;
		if (f->nodes[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int64_t scaled(const char *v, int64_t total)
{
	size_t n = strlen(v);
	int64_t x = 0;
	int pct = n && v[n - 1] == '%';
	for (size_t i = 0; i + pct < n; i++) {
		if (v[i] < '0' || v[i] > '9' || x > INT64_MAX / 100)
			return 0;
		x = x * 10 + (v[i] - '0');
	}
	return pct ? (x * total + 99) / 100 : x;
}

static int load_cluster(fixer *f)
{
	sqlite3_stmt *s;
	int rc = KP_OK, step;
	/* nodes */
	int64_t nn = 0;
	if (sqlite3_prepare_v2(f->db, "SELECT count(*) FROM node", -1, &s, NULL) != SQLITE_OK)
		return dbfail(f);
	if (sqlite3_step(s) == SQLITE_ROW)
		nn = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (!(f->nodes = kp_calloc((size_t)nn + 1, sizeof *f->nodes)))
		return nomem(f);
	if (sqlite3_prepare_v2(f->db, "SELECT id, name, unschedulable FROM node ORDER BY id", -1, &s, NULL) != SQLITE_OK)
		return dbfail(f);
	while ((step = sqlite3_step(s)) == SQLITE_ROW && f->nnodes < nn) {
		fnode *n = &f->nodes[f->nnodes++];
		n->id = sqlite3_column_int64(s, 0);
		n->cordoned = sqlite3_column_int(s, 2);
		if (!(n->name = col_dup(s, 1))) {
			rc = nomem(f);
			break;
		}
	}
	sqlite3_finalize(s);
	if (rc)
		return rc;
	/* allocatable */
	if (sqlite3_prepare_v2(f->db, "SELECT node_id, resource, COALESCE(allocatable, 0) FROM node_resource", -1, &s,
			       NULL) != SQLITE_OK)
		return dbfail(f);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		int ni = node_index(f, sqlite3_column_int64(s, 0));
		int ri = res_index(f, (const char *)sqlite3_column_text(s, 1), 1);
		if (ri == -2) {
			rc = nomem(f);
			break;
		}
		if (ni < 0 || ri < 0)
			continue;
		f->nodes[ni].alloc[ri] = sqlite3_column_int64(s, 2);
		f->nodes[ni].has[ri] = 1;
	}
	sqlite3_finalize(s);
	if (rc)
		return rc;
	/* used after the run: the pods it keeps, binds or moves there */
	if (sqlite3_prepare_v2(f->db, "SELECT pl.node_id, q.resource, SUM(q.value) FROM placement pl JOIN pod p ON p.id = pl.pod_id "
				      "JOIN class_request q ON q.class_id = p.class_id WHERE pl.run_id = ?1 AND pl.node_id > 0 "
				      "AND pl.action IN ('keep', 'bind', 'move') AND q.resource <> 'pods' GROUP BY 1, 2 "
				      "UNION ALL SELECT pl.node_id, 'pods', count(*) FROM placement pl WHERE pl.run_id = ?1 "
				      "AND pl.node_id > 0 AND pl.action IN ('keep', 'bind', 'move') GROUP BY 1", -1, &s,
			       NULL) != SQLITE_OK)
		return dbfail(f);
	sqlite3_bind_int64(s, 1, f->run);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		int ni = node_index(f, sqlite3_column_int64(s, 0));
		int ri = res_index(f, (const char *)sqlite3_column_text(s, 1), 1);
		if (ri == -2) {
			rc = nomem(f);
			break;
		}
		if (ni >= 0 && ri >= 0)
			f->nodes[ni].used[ri] += sqlite3_column_int64(s, 2);
	}
	sqlite3_finalize(s);
	if (rc)
		return rc;
	/* PDBs: disruptions allowed (status, else as the disruption controller counts) */
	int64_t np = 0;
	if (sqlite3_prepare_v2(f->db, "SELECT count(*) FROM pdb", -1, &s, NULL) != SQLITE_OK)
		return dbfail(f);
	if (sqlite3_step(s) == SQLITE_ROW)
		np = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	int64_t *pdb_ids = kp_calloc((size_t)np + 1, sizeof *pdb_ids);
	if (!pdb_ids || !(f->pdb_allowed = kp_calloc((size_t)np + 1, sizeof *f->pdb_allowed))) {
		kp_free(pdb_ids);
		return nomem(f);
	}
	static const char match[] =
		"FROM pdb d JOIN pod p ON p.namespace = d.namespace "
		"WHERE d.selector IS NOT NULL AND json_valid(d.selector) AND json_array_length(d.selector) > 0 "
		"AND p.phase NOT IN ('Succeeded', 'Failed') AND EXISTS (SELECT 1 FROM pod_label l WHERE l.pod_id = p.id) "
		"AND p.name NOT IN (SELECT value FROM json_each(CASE WHEN json_valid(d.disrupted_pods) THEN d.disrupted_pods "
		"ELSE '[]' END)) "
		"AND kplan_selector_match(d.selector, (SELECT json_group_object(key, value) FROM pod_label WHERE pod_id = p.id))";
	kp_sb q;
	kp_sb_init(&q);
	kp_sb_printf(&q, "SELECT x.id, x.has_status, COALESCE(x.disruptions_allowed, 0), x.min_available, x.max_unavailable, "
		     "(SELECT count(*) %s AND d.id = x.id), "
		     "(SELECT count(*) %s AND d.id = x.id AND p.node_name IS NOT NULL AND NOT p.terminating), "
		     "(SELECT count(*) %s AND d.id = x.id AND p.owner_kind IS NULL) FROM pdb x ORDER BY x.id",
		     match, match, match);
	if (!kp_sb_ok(&q)) {
		kp_sb_release(&q);
		kp_free(pdb_ids);
		return nomem(f);
	}
	if (sqlite3_prepare_v2(f->db, kp_sb_str(&q), -1, &s, NULL) != SQLITE_OK) {
		kp_sb_release(&q);
		kp_free(pdb_ids);
		return dbfail(f);
	}
	kp_sb_release(&q);
	while ((step = sqlite3_step(s)) == SQLITE_ROW && f->npdbs < np) {
		int k = f->npdbs++;
		pdb_ids[k] = sqlite3_column_int64(s, 0);
		if (sqlite3_column_int(s, 1)) {
			f->pdb_allowed[k] = sqlite3_column_int64(s, 2);
		} else {
			int64_t expected = sqlite3_column_int64(s, 5), healthy = sqlite3_column_int64(s, 6);
			int naked = sqlite3_column_int64(s, 7) > 0;
			const char *min = (const char *)sqlite3_column_text(s, 3), *max = (const char *)sqlite3_column_text(s, 4);
			int64_t desired = expected;
			if (min)
				desired = scaled(min, expected);
			else if (max)
				desired = expected - scaled(max, expected);
			f->pdb_allowed[k] = healthy - desired > 0 ? healthy - desired : 0;
			if (naked && ((min && strchr(min, '%')) || max))
				f->pdb_allowed[k] = 0;
		}
	}
	if (step != SQLITE_DONE && step != SQLITE_ROW)
		rc = dbfail(f);
	sqlite3_finalize(s);
	if (rc) {
		kp_free(pdb_ids);
		return rc;
	}
	/* the pods that could be evicted: bound before the run, kept by it */
	int64_t nv = 0;
	if (sqlite3_prepare_v2(f->db, "SELECT count(*) FROM placement WHERE run_id = ?1 AND action = 'keep' AND node_id > 0",
			       -1, &s, NULL) != SQLITE_OK) {
		kp_free(pdb_ids);
		return dbfail(f);
	}
	sqlite3_bind_int64(s, 1, f->run);
	if (sqlite3_step(s) == SQLITE_ROW)
		nv = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (!(f->victims = kp_calloc((size_t)nv + 1, sizeof *f->victims))) {
		kp_free(pdb_ids);
		return nomem(f);
	}
	sqlite3_stmt *qr = NULL, *qp = NULL;
	if (sqlite3_prepare_v2(f->db, "SELECT p.id, p.namespace || '/' || p.name, pl.node_id, COALESCE(pp.priority, 0), "
				      "COALESCE(p.start_time, 9223372036854775807), p.class_id FROM placement pl "
				      "JOIN pod p ON p.id = pl.pod_id LEFT JOIN pod_priority pp ON pp.pod_id = p.id "
				      "WHERE pl.run_id = ?1 AND pl.action = 'keep' AND pl.node_id > 0 AND p.node_name IS NOT NULL "
				      "AND p.phase NOT IN ('Succeeded', 'Failed') AND NOT p.terminating ORDER BY p.id",
			       -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(f->db, "SELECT resource, value FROM class_request WHERE class_id = ?1", -1, &qr, NULL) != SQLITE_OK) {
		sqlite3_finalize(s);
		kp_free(pdb_ids);
		return dbfail(f);
	}
	kp_sb mq;
	kp_sb_init(&mq);
	kp_sb_printf(&mq, "SELECT d.id %s AND p.id = ?1 ORDER BY d.id", match);
	if (!kp_sb_ok(&mq) || sqlite3_prepare_v2(f->db, kp_sb_str(&mq), -1, &qp, NULL) != SQLITE_OK) {
		rc = kp_sb_ok(&mq) ? dbfail(f) : nomem(f);
		kp_sb_release(&mq);
		sqlite3_finalize(s);
		sqlite3_finalize(qr);
		kp_free(pdb_ids);
		return rc;
	}
	kp_sb_release(&mq);
	sqlite3_bind_int64(s, 1, f->run);
	while (!rc && (step = sqlite3_step(s)) == SQLITE_ROW && f->nvictims < nv) {
		victim *v = &f->victims[f->nvictims];
		v->node = node_index(f, sqlite3_column_int64(s, 2));
		if (v->node < 0)
			continue;
		f->nvictims++;
		v->id = sqlite3_column_int64(s, 0);
		v->prio = sqlite3_column_int64(s, 3);
		v->start = sqlite3_column_int64(s, 4);
		if (!(v->ref = col_dup(s, 1))) {
			rc = nomem(f);
			break;
		}
		sqlite3_reset(qr);
		sqlite3_bind_int64(qr, 1, sqlite3_column_int64(s, 5));
		while (sqlite3_step(qr) == SQLITE_ROW) {
			int ri = res_index(f, (const char *)sqlite3_column_text(qr, 0), 0);
			if (ri >= 0 && strcmp(f->res[ri], "pods"))
				v->req[ri] = sqlite3_column_int64(qr, 1);
		}
		int ri = res_index(f, "pods", 0);
		if (ri >= 0)
			v->req[ri] = 1;
		if (f->npdbs) {
			sqlite3_reset(qp);
			sqlite3_bind_int64(qp, 1, v->id);
			while (sqlite3_step(qp) == SQLITE_ROW) {
				int64_t id = sqlite3_column_int64(qp, 0);
				for (int k = 0; k < f->npdbs; k++)
					if (pdb_ids[k] == id) {
						int *x = kp_realloc(v->pdbs, (size_t)(v->npdbs + 1) * sizeof *x);
						if (!x) {
							rc = nomem(f);
							break;
						}
						v->pdbs = x;
						v->pdbs[v->npdbs++] = k;
					}
			}
		}
	}
	if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = dbfail(f);
	sqlite3_finalize(s);
	sqlite3_finalize(qr);
	sqlite3_finalize(qp);
	kp_free(pdb_ids);
	return rc;
}

/* ---- candidates ---- */

typedef struct ecand {
	int node, k;
	int *v;                      /* victim indexes, in eviction order */
} ecand;

/* least important first: lower priority, then later start, then higher id */
static const fixer *sort_f;
static int cmp_least_important(const void *a, const void *b)
{
	const victim *x = &sort_f->victims[*(const int *)a], *y = &sort_f->victims[*(const int *)b];
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	if (x->start != y->start)
		return x->start > y->start ? -1 : 1;
	return x->id > y->id ? -1 : x->id < y->id;
}

static int cmp_cand(const void *a, const void *b)
{
	const ecand *x = a, *y = b;
	if (x->k != y->k)
		return x->k - y->k;
	return strcmp(sort_f->nodes[x->node].name, sort_f->nodes[y->node].name);
}

static int fits(const fixer *f, const fnode *n, const int64_t *need, const int64_t *freed)
{
	for (int r = 0; r < f->nres; r++)
		if (need[r] > 0 && (!n->has[r] || n->alloc[r] - n->used[r] + freed[r] < need[r]))
			return 0;
	return 1;
}

/* the eviction candidates of t, by k then node name; *out owned by the caller */
static int evict_candidates(fixer *f, target *t, ecand **out, int *nout)
{
	*out = NULL;
	*nout = 0;
	int64_t need[FIX_MAX_RES] = { 0 };
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(f->db, "SELECT resource, value FROM class_request WHERE class_id = ?1", -1, &s, NULL) != SQLITE_OK)
		return dbfail(f);
	sqlite3_bind_int64(s, 1, t->class_id);
	int unknown = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *res = (const char *)sqlite3_column_text(s, 0);
		int ri = res_index(f, res, 0);
		int64_t v = sqlite3_column_int64(s, 1);
		if (ri < 0 && v > 0)
			unknown = 1;   /* no node has the resource: no eviction helps */
		else if (ri >= 0 && strcmp(res, "pods"))
			need[ri] = v;
	}
	sqlite3_finalize(s);
	int pods = res_index(f, "pods", 0);
	if (pods >= 0)
		need[pods] = 1;
	if (unknown)
		return KP_OK;
	int *order = kp_malloc((size_t)(f->nvictims + 1) * sizeof *order);
	int64_t *budget = kp_malloc((size_t)(f->npdbs + 1) * sizeof *budget);
	ecand *c = kp_calloc((size_t)f->nnodes + 1, sizeof *c);
	if (!order || !budget || !c) {
		kp_free(order);
		kp_free(budget);
		kp_free(c);
		return nomem(f);
	}
	int rc = KP_OK;
	for (int ni = 0; ni < f->nnodes && !rc; ni++) {
		const fnode *n = &f->nodes[ni];
		int64_t freed[FIX_MAX_RES] = { 0 };
		if (n->cordoned || fits(f, n, need, freed))
			continue;   /* cordoned, or it fails there for something eviction does not change */
		int no = 0;
		for (int i = 0; i < f->nvictims; i++)
			if (f->victims[i].node == ni && f->victims[i].prio < t->prio)
				order[no++] = i;
		sort_f = f;
		kp_sort(order, (size_t)no, sizeof *order, cmp_least_important);
		memcpy(budget, f->pdb_allowed, (size_t)f->npdbs * sizeof *budget);
		int taken = 0, ok = 0;
		for (int i = 0; i < no && !ok; i++) {
			const victim *v = &f->victims[order[i]];
			int allowed = 1;
			for (int k = 0; k < v->npdbs; k++)
				allowed &= budget[v->pdbs[k]] > 0;
			if (!allowed)
				continue;   /* the budget forbids it */
			for (int k = 0; k < v->npdbs; k++)
				budget[v->pdbs[k]]--;
			for (int r = 0; r < f->nres; r++)
				freed[r] += v->req[r];
			order[taken++] = order[i];
			ok = fits(f, n, need, freed);
		}
		if (!ok)
			continue;
		/* reprieve: give back the more important ones while it still fits */
		for (int i = taken - 1; i >= 0; i--) {
			const victim *v = &f->victims[order[i]];
			for (int r = 0; r < f->nres; r++)
				freed[r] -= v->req[r];
			if (fits(f, n, need, freed)) {
				memmove(&order[i], &order[i + 1], (size_t)(taken - i - 1) * sizeof *order);
				taken--;
			} else {
				for (int r = 0; r < f->nres; r++)
					freed[r] += v->req[r];
			}
		}
		ecand *e = &c[(*nout)++];
		e->node = ni;
		e->k = taken;
		if (!(e->v = kp_malloc((size_t)(taken + 1) * sizeof *e->v))) {
			rc = nomem(f);
			break;
		}
		memcpy(e->v, order, (size_t)taken * sizeof *order);
	}
	kp_free(order);
	kp_free(budget);
	sort_f = f;
	kp_sort(c, (size_t)*nout, sizeof *c, cmp_cand);
	*out = c;
	return rc;
}

static void cands_release(ecand *c, int n)
{
	for (int i = 0; i < n; i++)
		kp_free(c[i].v);
	kp_free(c);
}

static int set_fix(fixer *f, target *t, const char *kind)
{
	t->kind = kind;
	if (!(t->node = kp_strdup(f->placed_node ? f->placed_node : "")))
		return nomem(f);
	return KP_OK;
}

static int try_evict(fixer *f, target *t)
{
	ecand *c;
	int n, rc = evict_candidates(f, t, &c, &n);
	for (int i = 0; i < n && i < FIX_EVICT_TRIES && !rc && !t->kind; i++) {
		kp_sb ids;
		kp_sb_init(&ids);
		for (int k = 0; k < c[i].k; k++)
			kp_sb_printf(&ids, "%s%lld", k ? "," : "", (long long)f->victims[c[i].v[k]].id);
		if (!kp_sb_ok(&ids)) {
			kp_sb_release(&ids);
			rc = nomem(f);
			break;
		}
		rc = plan_with(f, "remove-pods", kp_sb_str(&ids));
		kp_sb_release(&ids);
		if (rc || !f->placed)
			continue;
		kp_sb_printf(&t->detail, "evict %d lower-priority pod%s on %s:", c[i].k, c[i].k == 1 ? "" : "s",
			     f->nodes[c[i].node].name);
		kp_sb_addc(&t->victims, '[');
		for (int k = 0; k < c[i].k; k++) {
			const victim *v = &f->victims[c[i].v[k]];
			kp_sb_printf(&t->detail, " %s", v->ref);
			if (k)
				kp_sb_addc(&t->victims, ',');
			kp_sb_add_json_str(&t->victims, v->ref);
		}
		kp_sb_addc(&t->victims, ']');
		rc = set_fix(f, t, "evict");
	}
	cands_release(c, n);
	return rc;
}

static int try_add_node(fixer *f, target *t, const char *tmpl)
{
	kp_sb v;
	kp_sb_init(&v);
	kp_sb_printf(&v, "%s:1", tmpl);
	int rc = kp_sb_ok(&v) ? plan_with(f, "add-nodes", kp_sb_str(&v)) : nomem(f);
	kp_sb_release(&v);
	if (rc || !f->placed)
		return rc;
	kp_sb_printf(&t->detail, "add one node like %s", tmpl);
	kp_sb_adds(&t->victims, "[]");
	return set_fix(f, t, "add-node");
}

/* the taints the pod's failure reasons name: "node(s) had untolerated taint {KEY: VALUE}" */
static int try_relax(fixer *f, target *t)
{
	static const char pre[] = "node(s) had untolerated taint {";
	sqlite3_stmt *s, *qn;
	if (sqlite3_prepare_v2(f->db, "SELECT reason FROM pod_failure WHERE run_id = ?1 AND pod_id = ?2 AND plugin = "
				      "'TaintToleration' ORDER BY nodes DESC, reason", -1, &s, NULL) != SQLITE_OK)
		return dbfail(f);
	if (sqlite3_prepare_v2(f->db, "SELECT group_concat(DISTINCT x.effect), group_concat(DISTINCT n.name) FROM "
				      "(SELECT * FROM node_taint ORDER BY node_id) x JOIN node n ON n.id = x.node_id WHERE x.key = ?1 "
				      "AND x.value = ?2 AND x.effect IN ('NoSchedule', 'NoExecute')", -1, &qn, NULL) != SQLITE_OK) {
		sqlite3_finalize(s);
		return dbfail(f);
	}
	sqlite3_bind_int64(s, 1, f->run);
	sqlite3_bind_int64(s, 2, t->id);
	int rc = KP_OK;
	while (!rc && !t->kind && sqlite3_step(s) == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(s, 0);
		if (!r || strncmp(r, pre, sizeof pre - 1))
			continue;
		const char *k = r + sizeof pre - 1, *sep = strstr(k, ": "), *end = strrchr(k, '}');
		if (!sep || !end || end < sep + 2 || sep == k)
			continue;
		kp_sb kv;
		kp_sb_init(&kv);
		kp_sb_printf(&kv, "%.*s=%.*s", (int)(sep - k), k, (int)(end - sep - 2), sep + 2);
		if (!kp_sb_ok(&kv)) {
			kp_sb_release(&kv);
			rc = nomem(f);
			break;
		}
		rc = plan_with(f, "untaint", kp_sb_str(&kv));
		if (!rc && f->placed) {
			char key[256], value[256];
			snprintf(key, sizeof key, "%.*s", (int)(sep - k), k);
			snprintf(value, sizeof value, "%.*s", (int)(end - sep - 2), sep + 2);
			sqlite3_reset(qn);
			sqlite3_bind_text(qn, 1, key, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(qn, 2, value, -1, SQLITE_TRANSIENT);
			const char *eff = NULL, *nodes = NULL;
			if (sqlite3_step(qn) == SQLITE_ROW) {
				eff = (const char *)sqlite3_column_text(qn, 0);
				nodes = (const char *)sqlite3_column_text(qn, 1);
			}
			/* what was checked: the taint gone from its nodes, for every pod (a
			 * toleration on this pod alone is not the same change) */
			kp_sb_printf(&t->detail, "remove taint %s:%s from %s", kp_sb_str(&kv), eff ? eff : "NoSchedule",
				     nodes ? nodes : "its nodes");
			kp_sb_adds(&t->victims, "[]");
			rc = set_fix(f, t, "relax");
		}
		kp_sb_release(&kv);
	}
	sqlite3_finalize(s);
	sqlite3_finalize(qn);
	return rc;
}

/* One constraint of the pod's class, when its failure reasons name that
 * plugin: a nodeSelector key dropped, one matchExpression of a required node
 * affinity term dropped (then, as the last NodeAffinity candidate, the whole
 * required node affinity), a DoNotSchedule spread constraint's maxSkew + 1, a
 * required pod (anti-)affinity term dropped.  Candidates are tried in the
 * order read; the first that places the pod is its fix. */
static int try_relax_class(fixer *f, target *t)
{
	static const char sql[] =
		"SELECT 'node-selector', key, 'drop nodeSelector ' || key || '=' || value FROM class_node_selector "
		" WHERE class_id = ?3 AND EXISTS (SELECT 1 FROM pod_failure WHERE run_id = ?1 AND pod_id = ?2 "
		" AND plugin = 'NodeAffinity') "
		"UNION ALL SELECT * FROM (SELECT 'node-affinity', e.term || '.' || e.seq, 'drop node affinity requirement \"' "
		" || e.key || ' ' || e.operator || CASE WHEN e.operator IN ('Exists', 'DoesNotExist') THEN '' ELSE ' (' || "
		" COALESCE((SELECT group_concat(value, ', ') FROM json_each(e.vals)), '') || ')' END || '\" (term ' || e.term "
		" || ')' FROM class_node_expr e JOIN class_node_term t ON t.class_id = e.class_id AND t.required = 1 "
		" AND t.term = e.term JOIN pod_class p ON p.id = e.class_id AND p.has_required_node_affinity "
		" WHERE e.class_id = ?3 AND e.required = 1 AND EXISTS (SELECT 1 FROM pod_failure WHERE run_id = ?1 "
		" AND pod_id = ?2 AND plugin = 'NodeAffinity' AND reason = 'node(s) didn''t match Pod''s node affinity/selector') "
		" ORDER BY e.term, e.seq) "
		"UNION ALL SELECT 'node-affinity', 'all', 'drop the required node affinity' FROM pod_class WHERE id = ?3 "
		" AND has_required_node_affinity AND EXISTS (SELECT 1 FROM pod_failure WHERE run_id = ?1 AND pod_id = ?2 "
		" AND plugin = 'NodeAffinity' AND reason = 'node(s) didn''t match Pod''s node affinity/selector') "
		"UNION ALL SELECT 'spread', seq, 'raise maxSkew of the topology spread constraint on ' || topology_key || "
		" ' from ' || max_skew || ' to ' || (max_skew + 1) FROM class_spread WHERE class_id = ?3 "
		" AND when_unsatisfiable = 'DoNotSchedule' AND EXISTS (SELECT 1 FROM pod_failure WHERE run_id = ?1 "
		" AND pod_id = ?2 AND plugin = 'PodTopologySpread') "
		"UNION ALL SELECT 'affinity', seq, 'drop the required pod ' || CASE WHEN anti THEN 'anti-affinity' ELSE "
		" 'affinity' END || ' term on ' || topology_key || COALESCE(' (selector ' || selector || ')', '') "
		" FROM class_pod_affinity WHERE class_id = ?3 AND required AND EXISTS (SELECT 1 FROM pod_failure "
		" WHERE run_id = ?1 AND pod_id = ?2 AND plugin = 'InterPodAffinity' AND reason = CASE WHEN anti THEN "
		" 'node(s) didn''t match pod anti-affinity rules' ELSE 'node(s) didn''t match pod affinity rules' END)";
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(f->db, sql, -1, &s, NULL) != SQLITE_OK)
		return dbfail(f);
	sqlite3_bind_int64(s, 1, f->run);
	sqlite3_bind_int64(s, 2, t->id);
	sqlite3_bind_int64(s, 3, t->class_id);
	/* read every candidate first: the plans below use the connection */
	kp_sb what, detail;
	kp_sb_init(&what);
	kp_sb_init(&detail);
	int n = 0, step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		kp_sb_printf(&what, "%lld:%s:%s", (long long)t->class_id, sqlite3_column_text(s, 0), sqlite3_column_text(s, 1));
		kp_sb_addc(&what, 0);
		const unsigned char *dt = sqlite3_column_text(s, 2);
		kp_sb_adds(&detail, dt ? (const char *)dt : "");
		kp_sb_addc(&detail, 0);
		n++;
	}
	int rc = step == SQLITE_DONE ? KP_OK : dbfail(f);
	sqlite3_finalize(s);
	if (!rc && (!kp_sb_ok(&what) || !kp_sb_ok(&detail)))
		rc = nomem(f);
	const char *w = kp_sb_str(&what), *d = kp_sb_str(&detail);
	for (int i = 0; i < n && !rc && !t->kind; i++) {
		rc = plan_with(f, "relax", w);
		if (!rc && f->placed) {
			kp_sb_printf(&t->detail, "%s (for every pod of its spec)", d);
			kp_sb_adds(&t->victims, "[]");
			rc = set_fix(f, t, "relax");
		}
		w += strlen(w) + 1;
		d += strlen(d) + 1;
	}
	kp_sb_release(&what);
	kp_sb_release(&detail);
	return rc;
}

/* ---- writing ---- */

static int ensure_table(sqlite3 *db, kp_err *err)
{
	return kp_db_schema_section(db, "fix", "fix table", err);
}

static void summary(fixer *f, long total, int json, const char *tmpl, kp_sb *out)
{
	int nfix = 0;
	for (int i = 0; i < f->ntargets; i++)
		nfix += f->targets[i].kind != NULL;
	if (json) {
		kp_sb_printf(out, "{\"run_id\":%lld,\"unschedulable\":%ld,\"examined\":%d,\"fixed\":%d,\"plans\":%ld,\"pods\":[",
			     (long long)f->run, total, f->ntargets, nfix, f->plans);
		for (int i = 0; i < f->ntargets; i++) {
			const target *t = &f->targets[i];
			kp_sb_adds(out, i ? ",{\"namespace\":" : "{\"namespace\":");
			kp_sb_add_json_str(out, t->ns);
			kp_sb_adds(out, ",\"pod\":");
			kp_sb_add_json_str(out, t->name);
			kp_sb_printf(out, ",\"unschedulable_in_replay\":%s,\"fix\":", t->still ? "true" : "false");
			if (!t->kind) {
				kp_sb_adds(out, "null}");
				continue;
			}
			kp_sb_adds(out, "{\"kind\":");
			kp_sb_add_json_str(out, t->kind);
			kp_sb_adds(out, ",\"detail\":");
			kp_sb_add_json_str(out, kp_sb_str(&t->detail));
			kp_sb_printf(out, ",\"victims\":%s,\"checked\":true,\"result_node\":", kp_sb_str(&t->victims));
			kp_sb_add_json_str(out, t->node);
			kp_sb_adds(out, "}}");
		}
		kp_sb_adds(out, "]}\n");
		return;
	}
	kp_sb_printf(out, "fix run %lld: %d of %d unschedulable pod%s examined %s a fix (%ld unschedulable in the run; "
		     "%ld dry-run plan%s)\n", (long long)f->run, nfix, f->ntargets, f->ntargets == 1 ? "" : "s",
		     nfix == 1 ? "has" : "have", total,
		     f->plans, f->plans == 1 ? "" : "s");
	for (int i = 0; i < f->ntargets; i++) {
		const target *t = &f->targets[i];
		if (t->kind)
			kp_sb_printf(out, "  %s/%s [%s]: %s; checked: fits on %s\n", t->ns, t->name, t->kind, kp_sb_str(&t->detail),
				     t->node);
		else if (!t->still)
			kp_sb_printf(out, "  %s/%s: no fix needed: it fits in a replay of the run (the database changed since)\n",
				     t->ns, t->name);
		else
			kp_sb_printf(out, "  %s/%s: no fix found (tried: evicting lower-priority pods, %srelaxing one taint or "
				     "constraint)\n", t->ns, t->name, tmpl ? "adding a node, " : "");
	}
}

static int write_fix(fixer *f, long total, int quiet, int json, const char *tmpl)
{
	sqlite3 *db = f->db;
	int rc = kp_db_begin(db, f->err);
	if (rc)
		return rc;
	sqlite3_stmt *del = NULL, *ins = NULL;
	if ((rc = ensure_table(db, f->err)))
		goto out;
	if (sqlite3_prepare_v2(db, "DELETE FROM fix WHERE run_id = ?1", -1, &del, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO fix(run_id, pod_id, namespace, pod, kind, detail, victims, checked, result_node) "
				   "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8)", -1, &ins, NULL) != SQLITE_OK) {
		rc = dbfail(f);
		goto out;
	}
	sqlite3_bind_int64(del, 1, f->run);
	if (sqlite3_step(del) != SQLITE_DONE) {
		rc = dbfail(f);
		goto out;
	}
	for (int i = 0; i < f->ntargets; i++) {
		const target *t = &f->targets[i];
		if (!t->kind)
			continue;
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, f->run);
		sqlite3_bind_int64(ins, 2, t->id);
		sqlite3_bind_text(ins, 3, t->ns, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 4, t->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 5, t->kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 6, kp_sb_str(&t->detail), -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 7, kp_sb_str(&t->victims), -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 8, t->node, -1, SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			rc = dbfail(f);
			goto out;
		}
	}
	/* the summary, before COMMIT: a lost summary means nothing was written */
	if (!quiet) {
		kp_sb out;
		kp_sb_init(&out);
		summary(f, total, json, tmpl, &out);
		if (!kp_sb_ok(&out)) {
			kp_sb_release(&out);
			rc = nomem(f);
			goto out;
		}
		fputs(kp_sb_str(&out), stdout);
		kp_sb_release(&out);
		fflush(stdout);
		if (ferror(stdout)) {
			rc = kp_err_set(f->err, KP_IO, "error writing output");
			goto out;
		}
	}
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return kp_db_commit(db, f->err);
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	kp_db_rollback(db);
	return rc;
}

static void fixer_release(fixer *f)
{
	kp_free(f->config);
	for (int i = 0; i < 2 * f->nw; i++)
		kp_free(f->wopts[i]);
	kp_free(f->wopts);
	for (int i = 0; i < f->ntargets; i++) {
		kp_free(f->targets[i].ns);
		kp_free(f->targets[i].name);
		kp_free(f->targets[i].node);
		kp_sb_release(&f->targets[i].detail);
		kp_sb_release(&f->targets[i].victims);
	}
	kp_free(f->targets);
	kp_free(f->placed_node);
	for (int i = 0; i < f->nres; i++)
		kp_free(f->res[i]);
	for (int i = 0; i < f->nnodes; i++)
		kp_free(f->nodes[i].name);
	kp_free(f->nodes);
	for (int i = 0; i < f->nvictims; i++) {
		kp_free(f->victims[i].ref);
		kp_free(f->victims[i].pdbs);
	}
	kp_free(f->victims);
	kp_free(f->pdb_allowed);
}

int cmd_fix(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "node-template", required_argument, NULL, 't' },
		{ "limit", required_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long long run = 0;
	long limit = 20;
	const char *tmpl = NULL;
	int quiet = 0, json = 0, c;
	if (kp_cli_wants_help(argc, argv, cmd_fix_help))
		return KP_EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'r':
			errno = 0;
			run = strtoll(optarg, &end, 10);
			if (errno || *end || !*optarg || run <= 0)
				return kp_cli_usage("fix", "--run needs a run id, got '%s'", optarg);
			break;
		case 't':
			if (!*optarg)
				return kp_cli_usage("fix", "--node-template needs a file");
			tmpl = optarg;
			break;
		case 'l':
			errno = 0;
			limit = strtol(optarg, &end, 10);
			if (errno || *end || !*optarg || limit <= 0 || limit > 1000000)
				return kp_cli_usage("fix", "--limit needs a positive integer (at most 1000000), got '%s'", optarg);
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				json = 1;
			else if (strcmp(optarg, "text"))
				return kp_cli_usage("fix", "--format takes text or json, got '%s'", optarg);
			else
				json = 0;
			break;
		case 'q': quiet = 1; break;
		default:
			return kp_cli_bad_option("fix", c, argv);
		}
	}
	if (argc - optind != 1)
		return kp_cli_usage("fix", argc - optind < 1 ? "missing DB" : "too many arguments");
	const char *path = argv[optind];
	kp_err err = { 0 };
	if (tmpl) {
		FILE *tf = fopen(tmpl, "r");
		if (!tf) {
			kp_err_set(&err, KP_IO, "--node-template '%s': %s", tmpl, strerror(errno));
			return kp_cli_fail(&err);
		}
		fclose(tf);
	}
	sqlite3 *db;
	if (kp_db_open(path, 0, &db, NULL, &err) != KP_OK)
		return kp_cli_fail(&err);
	kp_cli_on_interrupt(db);
	fixer f;
	memset(&f, 0, sizeof f);
	f.db = db;
	f.err = &err;
	long total = 0;
	int rc = load_run(&f, run, path);
	if (!rc)
		rc = load_targets(&f, limit, &total);
	if (!rc && f.ntargets) {
		/* the replay: which of them are still unschedulable */
		f.baseline = 1;
		rc = plan_with(&f, NULL, NULL);
		f.baseline = 0;
	}
	if (!rc && f.ntargets)
		rc = load_cluster(&f);
	for (int i = 0; i < f.ntargets && !rc; i++) {
		target *t = &f.targets[i];
		if (!t->still)
			continue;
		f.want = t->id;
		rc = try_evict(&f, t);
		if (!rc && !t->kind && tmpl)
			rc = try_add_node(&f, t, tmpl);
		if (!rc && !t->kind)
			rc = try_relax(&f, t);
		if (!rc && !t->kind)
			rc = try_relax_class(&f, t);
		if (!rc && (!kp_sb_ok(&t->detail) || !kp_sb_ok(&t->victims)))
			rc = nomem(&f);
	}
	if (!rc)
		rc = write_fix(&f, total, quiet, json, tmpl);
	kp_cli_on_interrupt(NULL);
	kp_db_close(db);
	fixer_release(&f);
	if (rc) {
		if (kp_interrupted)
			kp_err_set(&err, KP_INTR, "interrupted");
		return kp_cli_fail(&err);
	}
	return KP_EXIT_OK;
}
