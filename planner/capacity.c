/*
 * capacity.c — kp_capacity_run (capacity.h): the baseline, the dry plan runs
 * every mode is made of, and the record of the answer.
 *
 * Every answer comes from plan runs of what-if scenarios (whatif.h): dry runs
 * (kp_plan_opts.dry_run), read through the on_pod / on_node hooks; their rows
 * for the quality certificate (on_quality) go to TEMP tables (quality.h), so
 * nothing reaches the main schema and a read-only database works.  The
 * baseline is the plan of the cluster as it is with the options of `kplan
 * plan` (seed, preemption, configuration): its counts are plan's.  The answer
 * is then written in one transaction to the capacity_* tables (schema.sql,
 * "capacity"), unless no_record.  The modes: capacity_fit.c,
 * capacity_nodes.c, capacity_survive.c.
 */
#include "capacity_int.h"
#include "whatif.h"
#include "../common/db.h"

#include <string.h>
#include <stdlib.h>
#include <stdio.h>
#include <time.h>

/* the columns of plan_quality / plan_stranded, and so of capacity_quality / capacity_stranded */
static const char *const q_cols[] = {
	[Q_POOL] = "pool, nodes, nodes_used, pods, bound, bound_by, requests_bound, large_pods_bound, anti_affinity_bound, gap_pct",
	[Q_STRANDED] = "pool, resource, nodes, allocatable, free, stranded, stranded_nodes, stranded_pct, exhausted_by",
};
static const char *const q_order[] = {
	[Q_POOL] = "pool = '(none)', pool",
	[Q_STRANDED] = "pool = '(none)', pool, resource <> 'cpu', resource <> 'memory', resource",
};
static const char *const q_src[] = { [Q_POOL] = "plan_quality", [Q_STRANDED] = "plan_stranded" };
static const char *const q_dst[] = { [Q_POOL] = "capacity_quality", [Q_STRANDED] = "capacity_stranded" };

int cap_nomem(cap *c)
{
	return kp_err_set(c->err, KP_NOMEM, "out of memory");
}

sqlite3_stmt *cap_prepare(cap *c, const char *sql)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK) {
		kp_err_set(c->err, KP_IO, "%s", sqlite3_errmsg(c->db));
		sqlite3_finalize(s);
		return NULL;
	}
	return s;
}

int cap_step_fail(cap *c, sqlite3_stmt *s)
{
	(void)s;
	return kp_err_set(c->err, kp_interrupted ? KP_INTR : KP_IO, "%s", kp_interrupted ? "interrupted" : sqlite3_errmsg(c->db));
}

void cap_qual_release(qual *q)
{
	for (int i = 0; i < q->n; i++)
		for (int k = 0; k < q->v[i].n; k++)
			sqlite3_value_free(q->v[i].v[k]);
	kp_free(q->v);
	memset(q, 0, sizeof *q);
}

/* *dst = src, src left empty */
void cap_qual_take(qual *dst, qual *src)
{
	cap_qual_release(dst);
	*dst = *src;
	memset(src, 0, sizeof *src);
}

void cap_pods_release(cap_pod *v, int n)
{
	for (int i = 0; i < n; i++) {
		kp_free(v[i].ns);
		kp_free(v[i].name);
		kp_free(v[i].msg);
	}
	kp_free(v);
}

void cap_gang_close(outcome *o)
{
	if (!o->gang_cur)
		return;
	o->gangs++;
	o->gangs_placed += o->gang_cur_placed > 0 && o->gang_cur_placed >= o->gang_min;
	kp_free(o->gang_cur);
	o->gang_cur = NULL;
	o->gang_cur_placed = 0;
}

/* a copy of a gang: its gang's count (copies come gang by gang, in id order) */
static int count_gang(outcome *o, const kp_plan_pod *p, int placed)
{
	if (!o->gang_cur || strcmp(o->gang_cur, p->gang)) {
		cap_gang_close(o);
		if (!(o->gang_cur = kp_strdup(p->gang)))
			return -1;
		o->gang_min = p->gang_min;
		o->gang_size = p->gang_size;
	}
	o->gang_cur_placed += placed;
	return 0;
}

void cap_outcome_release(outcome *o)
{
	kp_free(o->gang_cur);
	kp_free(o->first_fail_msg);
	kp_free(o->copy_nodes);
	kp_free(o->unsched_ids);
	kp_free(o->never_ids);
	cap_pods_release(o->unfits, o->nunfits);
	cap_pods_release(o->nevers, o->nnevers);
	cap_pods_release(o->losts, o->nlosts);
	cap_pods_release(o->gains, o->ngains);
	cap_qual_release(&o->q);
	memset(o, 0, sizeof *o);
}

/* keep the first 50 pods of a list; -1 when out of memory */
static int add_pod(cap_pod **v, int *n, const kp_plan_pod *p)
{
	if (*n >= 50)
		return 0;
	if (!*v && !(*v = kp_calloc(50, sizeof **v)))
		return -1;
	cap_pod *u = &(*v)[(*n)++];
	u->ns = kp_strdup(p->ns);
	u->name = kp_strdup(p->name);
	const char *why = p->message ? p->message : !strcmp(p->action, "evict") ? "evicted by preemption" : p->action;
	if (p->pinned) {
		/* the volume that pins it first: "pinned to zone a by PV pv-0 ...: 0/4 nodes ..." */
		u->msg = kp_malloc(strlen(p->pinned) + strlen(why) + 3);
		if (u->msg)
			sprintf(u->msg, "%s: %s", p->pinned, why);
	} else {
		u->msg = kp_strdup(why);
	}
	u->priority = p->priority;
	u->never = p->fits_empty_added == 0;
	return u->ns && u->name && u->msg ? 0 : -1;
}

static int cmp_base_id(const void *a, const void *b)
{
	int64_t x = ((const base_pod *)a)->id, y = ((const base_pod *)b)->id;
	return x < y ? -1 : x > y;
}

static int cmp_base(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return cmp_base_id(a, b);
}

/* the baseline's pods by id, for base_find */
void cap_sort_base(cap *c)
{
	kp_sort(c->base, (size_t)c->nbase, sizeof *c->base, cmp_base, NULL);
}

static const base_pod *base_find(const cap *c, int64_t id)
{
	base_pod key = { id, 0 };
	return c->base ? bsearch(&key, c->base, (size_t)c->nbase, sizeof *c->base, cmp_base_id) : NULL;
}

/* an imported pod against the baseline: lost its node, or gained one */
static int track_pod(cap *c, outcome *o, const kp_plan_pod *p, int placed)
{
	const base_pod *b = base_find(c, p->pod_id);
	if (!b || b->placed == placed)
		return KP_OK;
	if (b->placed) {
		o->lost++;
		if (add_pod(&o->losts, &o->nlosts, p))
			return cap_nomem(c);
	} else {
		o->gained++;
		if (add_pod(&o->gains, &o->ngains, p))
			return cap_nomem(c);
	}
	return KP_OK;
}

static int on_pod(void *ctx, const kp_plan_pod *p)
{
	cap *c = ctx;
	outcome *o = c->cur;
	/* a placed pod of a gang left below minCount is lost with its gang (docs/gangs.md) */
	int placed = p->node != NULL && strcmp(p->action, "evict") && strcmp(p->action, "unschedulable") &&
		     !p->gang_broken;
	int lost = !strcmp(p->action, "unschedulable") || !strcmp(p->action, "evict") || p->gang_broken;
	if (p->pod_id < 0) {
		/* a pod of the scenario: the copies of --pod / --workload, or the
		 * DaemonSet pods of added nodes (--nodes-needed: not counted) */
		o->copies++;
		if (p->gang && count_gang(o, p, placed))
			return cap_nomem(c);
		if (!o->copy_class) {
			o->copy_class = p->class_id;
			if (c->probe && (cap_requests_text(c, p->class_id, c->probe_req) ||
					 cap_default_max(c, p->class_id, &c->probe_max)))
				return c->err->code;
		}
		if (placed) {
			o->copies_placed++;
			if (KP_GROW(o->copy_nodes, o->ncopy_nodes, o->cap_copy_nodes, 256))
				return cap_nomem(c);
			o->copy_nodes[o->ncopy_nodes++] = p->node_id;
		} else if (lost && (!o->first_fail_id || p->pod_id < o->first_fail_id)) {
			kp_free(o->first_fail_msg);
			o->first_fail_msg = kp_strdup(p->message ? p->message : "unschedulable");
			o->first_fail_id = p->pod_id;
			if (!o->first_fail_msg)
				return cap_nomem(c);
		}
		return KP_OK;
	}
	if (!p->displaced && (!strcmp(p->action, "bind") || !strcmp(p->action, "unschedulable")) && p->fits_empty_added != 0)
		o->gpu_need += p->gpu_milli;
	if (c->track && track_pod(c, o, p, placed))
		return c->err->code;
	if (c->collect) {
		/* the baseline: every imported pod and whether it has a node */
		if (KP_GROW(c->base, c->nbase, c->cap_base, 1024))
			return cap_nomem(c);
		c->base[c->nbase++] = (base_pod){ p->pod_id, placed };
	}
	if (p->displaced && strcmp(p->action, "keep")) {
		o->displaced++;
		o->displaced_lost += lost;
	}
	if (!lost)
		return KP_OK;
	o->unsched++;
	o->never += p->fits_empty_added == 0;
	if (c->want_ids && (KP_GROW(o->unsched_ids, o->nunsched_ids, o->cap_unsched_ids, 64) ||
			    (p->fits_empty_added == 0 && KP_GROW(o->never_ids, o->nnever_ids, o->cap_never_ids, 64))))
		return cap_nomem(c);
	if (c->want_ids) {
		o->unsched_ids[o->nunsched_ids++] = p->pod_id;
		if (p->fits_empty_added == 0)
			o->never_ids[o->nnever_ids++] = p->pod_id;
	}
	if (add_pod(&o->unfits, &o->nunfits, p) || (p->fits_empty_added == 0 && add_pod(&o->nevers, &o->nnevers, p)))
		return cap_nomem(c);
	return KP_OK;
}

static void add_res(res_total *v, int *n, const char *name, int64_t alloc, int64_t free)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(v[i].name, name)) {
			v[i].alloc += alloc;
			v[i].free += free;
			return;
		}
	if (*n == 32)
		return;
	snprintf(v[*n].name, sizeof v[*n].name, "%s", name);
	v[*n].alloc = alloc;
	v[*n].free = free;
	(*n)++;
}

static int on_node(void *ctx, const kp_plan_node *n)
{
	cap *c = ctx;
	outcome *o = c->cur;
	int64_t free = n->allocatable > n->requested ? n->allocatable - n->requested : 0;
	add_res(o->res, &o->nres, n->resource, n->allocatable, free);
	if (n->node_id < 0 && (!o->tmpl_node || o->tmpl_node == n->node_id)) {
		o->tmpl_node = n->node_id;
		add_res(o->tmpl, &o->ntmpl, n->resource, n->allocatable, n->allocatable);
	}
	return KP_OK;
}

/* the dry run's plan_quality and plan_stranded rows (TEMP tables), into c->cur->q */
static int on_quality(void *ctx, sqlite3 *db, int64_t run_id)
{
	cap *c = ctx;
	qual *q = &c->cur->q;
	for (int t = Q_POOL; t <= Q_STRANDED; t++) {
		char sql[512];
		snprintf(sql, sizeof sql, "SELECT %s FROM %s WHERE run_id = ?1 ORDER BY %s", q_cols[t], q_src[t], q_order[t]);
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
			return kp_err_set(c->err, KP_IO, "cannot read the plan quality: %s", sqlite3_errmsg(db));
		sqlite3_bind_int64(s, 1, run_id);
		int nc = sqlite3_column_count(s), rc = KP_OK, step;
		while (rc == KP_OK && (step = sqlite3_step(s)) == SQLITE_ROW) {
			if (KP_GROW(q->v, q->n, q->cap, 16)) {
				rc = cap_nomem(c);
				break;
			}
			qrow *r = &q->v[q->n++];
			r->table = t;
			r->n = 0;
			for (int k = 0; k < nc && k < Q_MAXCOLS; k++)
				if (!(r->v[r->n++] = sqlite3_value_dup(sqlite3_column_value(s, k))))
					rc = cap_nomem(c);
		}
		if (rc == KP_OK && step != SQLITE_DONE)
			rc = kp_err_set(c->err, kp_interrupted ? KP_INTR : KP_IO, "cannot read the plan quality: %s",
					kp_interrupted ? "interrupted" : sqlite3_errmsg(db));
		sqlite3_finalize(s);
		if (rc)
			return rc;
	}
	return KP_OK;
}

void cap_plan_opts(cap *c, kp_plan_opts *po)
{
	*po = (kp_plan_opts){ .seed = c->seed, .no_preemption = c->o->no_preemption, .config_file = c->o->config,
			      .kube_version = c->o->kube_version, .feature_gates = c->o->feature_gates, .dry_run = 1,
			      .on_pod = on_pod, .on_node = on_node, .result_ctx = c, .pool_label = c->pool_label };
}

int cap_survive_open(cap *c, outcome *base, kp_survive **out, const char **why)
{
	memset(base, 0, sizeof *base);
	cap_plan_opts(c, &c->survive_opts);
	c->cur = base;
	int rc = kp_survive_open(c->db, &c->survive_opts, &base->r, out, why, c->err);
	c->cur = NULL;
	c->a->plans++;
	return rc;
}

int cap_survive_eval(cap *c, kp_survive *sv, const char *label, const char *value, outcome *o)
{
	memset(o, 0, sizeof *o);
	c->cur = o;
	int rc = kp_survive_eval(sv, label, value, c->want_quality ? on_quality : NULL, &o->r);
	c->cur = NULL;
	c->a->plans++;
	return rc;
}

/* One dry plan run of the scenario given as (option, value) pairs; *o holds what it says. */
int cap_plan_once(cap *c, const char *const *wopts, int nw, outcome *o)
{
	memset(o, 0, sizeof *o);
	kp_whatif *w = NULL;
	if ((nw || c->o->from_run > 0) && !(w = kp_whatif_new()))
		return cap_nomem(c);
	kp_whatif_set_importer(w, c->o->importer);
	if (c->o->from_run > 0) {
		char run[32];
		snprintf(run, sizeof run, "%ld", c->o->from_run);
		if (kp_whatif_add(w, "from-run", run, c->err) != KP_OK) {
			kp_whatif_free(w);
			return c->err->code;
		}
	}
	for (int i = 0; i < nw; i++)
		if (kp_whatif_add(w, wopts[2 * i], wopts[2 * i + 1], c->err) != KP_OK) {
			kp_whatif_free(w);
			return c->err->code;
		}
	kp_plan_opts po;
	cap_plan_opts(c, &po);
	po.whatif = w;
	po.on_quality = c->want_quality ? on_quality : NULL;
	c->cur = o;
	int rc = kp_plan_run(c->db, &po, &o->r, c->err);
	c->cur = NULL;
	kp_whatif_free(w);
	c->a->plans++;
	return rc;
}

/* ---- output helpers ---- */

void cap_pod_json(kp_sb *j, const cap_pod *p)
{
	kp_sb_adds(j, "{\"namespace\":");
	kp_sb_add_json_str(j, p->ns);
	kp_sb_adds(j, ",\"pod\":");
	kp_sb_add_json_str(j, p->name);
	kp_sb_printf(j, ",\"priority\":%lld,\"reason\":", (long long)p->priority);
	kp_sb_add_json_str(j, p->msg);
	kp_sb_adds(j, "}");
}

void cap_pods_json(kp_sb *j, const cap_pod *v, int n)
{
	kp_sb_adds(j, "[");
	for (int i = 0; i < n; i++) {
		kp_sb_adds(j, i ? "," : "");
		cap_pod_json(j, &v[i]);
	}
	kp_sb_adds(j, "]");
}

/* ---- the rows of the detail tables ---- */

static int add_row4(cap *c, int table, const char *a, const char *b, const char *cc, const char *d, const int64_t *v)
{
	rows *r = &c->rows;
	if (KP_GROW(r->v, r->n, r->cap, 64))
		return cap_nomem(c);
	row *x = &r->v[r->n++];
	memset(x, 0, sizeof *x);
	x->table = table;
	x->a = a ? kp_strdup(a) : NULL;
	x->b = b ? kp_strdup(b) : NULL;
	x->c = cc ? kp_strdup(cc) : NULL;
	x->d = d ? kp_strdup(d) : NULL;
	memcpy(x->v, v, sizeof x->v);
	return (a && !x->a) || (b && !x->b) || (cc && !x->c) || (d && !x->d) ? cap_nomem(c) : KP_OK;
}

int cap_add_row(cap *c, int table, const char *a, const char *b, int64_t v0, int64_t v1, int64_t v2, int64_t v3,
		int64_t v4, int64_t v5)
{
	int64_t v[6] = { v0, v1, v2, v3, v4, v5 };
	return add_row4(c, table, a, b, NULL, NULL, v);
}

/* a pod row: capacity_unfit (ns, name, reason), capacity_pod (domain, change,
 * ns, "name\nreason": the INSERT splits it), the priority in v[0] */
int cap_add_pod_row(cap *c, int table, const char *domain, const char *change, const cap_pod *p)
{
	int64_t v[6] = { p->priority, 0, 0, 0, 0, 0 };
	if (table == T_UNFIT)
		return add_row4(c, table, p->ns, p->name, p->msg, NULL, v);
	kp_sb sb;
	kp_sb_init(&sb);
	kp_sb_printf(&sb, "%s\n%s", p->name, p->msg);
	int rc = kp_sb_ok(&sb) ? add_row4(c, table, domain, change, p->ns, kp_sb_str(&sb), v) : cap_nomem(c);
	kp_sb_release(&sb);
	return rc;
}

static void rows_release(rows *r)
{
	for (int i = 0; i < r->n; i++) {
		kp_free(r->v[i].a);
		kp_free(r->v[i].b);
		kp_free(r->v[i].c);
		kp_free(r->v[i].d);
	}
	kp_free(r->v);
	memset(r, 0, sizeof *r);
}

/* ?1 the answer; text columns ?2 a, ?3 b, ?10 c, ?11 d; integers ?4.. v[0..5] */
static const char *const row_sql[] = {
	[T_NODE] = "INSERT INTO capacity_node(capacity_id, node, pool, replicas) VALUES(?1, ?2, ?3, ?4)",
	[T_POOL] = "INSERT INTO capacity_pool(capacity_id, pool, nodes, nodes_used, replicas) VALUES(?1, ?2, ?4, ?5, ?6)",
	[T_SEARCH] = "INSERT INTO capacity_search(capacity_id, step, nodes, unschedulable, fits) VALUES(?1, ?4, ?5, ?6, ?7)",
	[T_DOMAIN] = "INSERT INTO capacity_domain(capacity_id, domain, nodes, pods_displaced, pods_lost, unschedulable, "
		     "extra_unschedulable, survives) VALUES(?1, ?2, ?4, ?5, ?6, ?7, ?8, ?9)",
	[T_HEADROOM] = "INSERT INTO capacity_headroom(capacity_id, domain, resource, allocatable, free) VALUES(?1, ?2, ?3, ?4, ?5)",
	[T_UNFIT] = "INSERT OR IGNORE INTO capacity_unfit(capacity_id, namespace, pod, reason) VALUES(?1, ?2, ?3, ?10)",
	[T_POD] = "INSERT INTO capacity_pod(capacity_id, domain, change, namespace, pod, priority, reason) "
		  "VALUES(?1, ?2, ?3, ?10, substr(?11, 1, instr(?11, char(10)) - 1), ?4, substr(?11, instr(?11, char(10)) + 1))",
};

static int write_rows(cap *c, int64_t id)
{
	int rc = KP_OK;
	for (int i = 0; i < c->rows.n && !rc; i++) {
		const row *x = &c->rows.v[i];
		sqlite3_stmt *s = cap_prepare(c, row_sql[x->table]);
		if (!s)
			return kp_err_set(c->err, KP_IO, "cannot write the capacity tables: %s", sqlite3_errmsg(c->db));
		int np = sqlite3_bind_parameter_count(s);
		sqlite3_bind_int64(s, 1, id);
		const char *txt[4] = { x->a, x->b, x->c, x->d };
		const int at[4] = { 2, 3, 10, 11 };
		for (int k = 0; k < 4; k++)
			if (at[k] <= np && txt[k])
				sqlite3_bind_text(s, at[k], txt[k], -1, SQLITE_STATIC);
		for (int k = 0; k < 6 && k + 4 <= np; k++)
			sqlite3_bind_int64(s, k + 4, x->v[k]);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = kp_err_set(c->err, kp_interrupted ? KP_INTR : KP_IO, "cannot write the capacity tables: %s",
					kp_interrupted ? "interrupted" : sqlite3_errmsg(c->db));
		sqlite3_finalize(s);
	}
	for (int i = 0; i < c->q.n && !rc; i++) {
		const qrow *x = &c->q.v[i];
		char sql[512], ph[8 * Q_MAXCOLS] = "";
		for (int k = 0; k < x->n; k++)
			snprintf(ph + strlen(ph), sizeof ph - strlen(ph), ", ?%d", k + 2);
		snprintf(sql, sizeof sql, "INSERT INTO %s(capacity_id, %s) VALUES(?1%s)", q_dst[x->table], q_cols[x->table], ph);
		sqlite3_stmt *s = cap_prepare(c, sql);
		if (!s)
			return kp_err_set(c->err, KP_IO, "cannot write the capacity tables: %s", sqlite3_errmsg(c->db));
		sqlite3_bind_int64(s, 1, id);
		for (int k = 0; k < x->n; k++)
			sqlite3_bind_value(s, k + 2, x->v[k]);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = kp_err_set(c->err, kp_interrupted ? KP_INTR : KP_IO, "cannot write the capacity tables: %s",
					kp_interrupted ? "interrupted" : sqlite3_errmsg(c->db));
		sqlite3_finalize(s);
	}
	return rc;
}

/* The answer, in one transaction: capacity_run and its rows; the hook (the
 * summary) before COMMIT.  no_record: only the hook. */
static int record(cap *c, double t0)
{
	kp_capacity_answer *a = c->a;
	const kp_capacity_hooks *h = c->h;
	a->elapsed = kp_now() - t0;
	if (c->o->no_record) {
		a->id = 0;
		return h && h->before_commit && h->before_commit(h->ctx, a) ? kp_err_set(c->err, KP_IO, "error writing output")
									   : KP_OK;
	}
	int rc = kp_db_begin(c->db, c->err);
	if (rc)
		return rc;
	char now[32];
	kp_format_time((int64_t)time(NULL), now, sizeof now);
	if ((rc = kp_db_schema_section(c->db, "capacity", "capacity tables", c->err)) ||
	    (rc = kp_db_exec(c->db, c->err, "cannot write the capacity tables", "INSERT INTO capacity_run(started, kind, "
			     "subject, options, answer, bound, status, reason, result, plans, elapsed, kplan) VALUES(?1, ?2, ?3, "
			     "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)", "ttttnnttt" "idt", now, a->kind, a->subject,
			     kp_sb_str(&a->options), a->value, a->bound, a->status, a->reason, kp_sb_str(&a->result),
			     (int64_t)a->plans, a->elapsed, KPLAN_VERSION)))
		goto out;
	a->id = sqlite3_last_insert_rowid(c->db);
	if ((rc = write_rows(c, a->id)))
		goto out;
	/* the summary, before COMMIT: a lost summary means nothing was written */
	if (h && h->before_commit && h->before_commit(h->ctx, a)) {
		rc = kp_err_set(c->err, KP_IO, "error writing output");
		goto out;
	}
	return kp_db_commit(c->db, c->err);
out:
	a->id = 0;
	kp_db_rollback(c->db);
	return rc;
}

/* ---- the quality certificate in the answer ---- */

static void json_value(kp_sb *j, sqlite3_value *v)
{
	switch (sqlite3_value_type(v)) {
	case SQLITE_INTEGER: kp_sb_printf(j, "%lld", (long long)sqlite3_value_int64(v)); break;
	case SQLITE_FLOAT: kp_sb_printf(j, "%.1f", sqlite3_value_double(v)); break;
	case SQLITE_NULL: kp_sb_adds(j, "null"); break;
	default: kp_sb_add_json_str(j, (const char *)sqlite3_value_text(v)); break;
	}
}

/* the rows of table t as a JSON array of objects named by q_cols */
static void quality_json(kp_sb *j, const qual *q, int t)
{
	kp_sb_adds(j, "[");
	int first = 1;
	for (int i = 0; i < q->n; i++) {
		if (q->v[i].table != t)
			continue;
		kp_sb_adds(j, first ? "{" : ",{");
		first = 0;
		const char *col = q_cols[t];
		for (int k = 0; k < q->v[i].n; k++) {
			size_t len = strcspn(col, ",");
			kp_sb_adds(j, k ? ",\"" : "\"");
			kp_sb_add(j, col, len);
			kp_sb_adds(j, "\":");
			json_value(j, q->v[i].v[k]);
			col += len;
			col += strspn(col, ", ");
		}
		kp_sb_adds(j, "}");
	}
	kp_sb_adds(j, "]");
}

/* Append the answer's certificate to its result (JSON, inside its outer
 * object): per pool the nodes used against the lower bound and the gap, and
 * the stranded capacity. */
static void quality_summary(cap *c)
{
	kp_capacity_answer *a = c->a;
	kp_sb *j = &a->result;
	if (!c->q_of[0] || !j->buf || !j->len || j->buf[j->len - 1] != '}')
		return;
	j->buf[--j->len] = 0;
	kp_sb_adds(j, ",\"quality\":{\"plan\":");
	kp_sb_add_json_str(j, c->q_of);
	kp_sb_adds(j, ",\"pool_label\":");
	kp_sb_add_json_str(j, c->pool_label);
	kp_sb_adds(j, ",\"pools\":");
	quality_json(j, &c->q, Q_POOL);
	kp_sb_adds(j, ",\"stranded\":");
	quality_json(j, &c->q, Q_STRANDED);
	kp_sb_adds(j, "}}");
}

/* ---- the baseline ---- */

/* the baseline the answer starts from, and its counts as `kplan plan` prints them */
void cap_baseline_json(cap *c, kp_sb *j)
{
	const kp_plan_result *r = &c->base_r;
	kp_sb_printf(j, "{\"preemption\":%s,\"seed\":%llu,", c->o->no_preemption ? "false" : "true",
		     (unsigned long long)c->seed);
	if (c->o->from_run > 0)
		kp_sb_printf(j, "\"from_run\":%ld,", c->o->from_run);
	kp_sb_adds(j, "\"config\":");
	kp_sb_add_json_str(j, r->config_source);
	char kube[1100];
	kp_kube_describe(&r->kube, kube, sizeof kube);
	kp_sb_adds(j, ",\"kube\":");
	kp_sb_add_json_str(j, kube);
	kp_sb_printf(j, ",\"nodes\":%ld,\"pending\":%ld,\"placed\":%ld,\"unschedulable\":%ld,\"evicted\":%ld,\"moved\":%ld,"
		     "\"ignored\":%ld,\"kept\":%ld}", r->nodes, r->pending, r->bound, r->unschedulable, r->evicted, r->moved,
		     r->ignored, r->kept);
}

/* "baseline" in the JSON */
static int add_baseline(cap *c)
{
	kp_sb *j = &c->a->result;
	if (j->buf && j->len && j->buf[j->len - 1] == '}') {
		j->buf[--j->len] = 0;
		kp_sb_adds(j, ",\"baseline\":");
		cap_baseline_json(c, j);
		kp_sb_adds(j, "}");
	}
	return KP_OK;
}

/* ---- the run ---- */

static void options_json(cap *c)
{
	const kp_capacity_opts *o = c->o;
	kp_sb *j = &c->a->options;
	kp_sb_printf(j, "{\"seed\":%llu,\"preemption\":%s,", (unsigned long long)c->seed,
		     o->no_preemption ? "false" : "true");
	if (o->from_run > 0)
		kp_sb_printf(j, "\"from_run\":%ld,", o->from_run);
	kp_sb_adds(j, "\"config\":");
	kp_sb_add_json_str(j, o->config);
	if (o->kube_version) {
		kp_sb_adds(j, ",\"kube_version\":");
		kp_sb_add_json_str(j, o->kube_version);
	}
	if (o->feature_gates) {
		kp_sb_adds(j, ",\"feature_gates\":");
		kp_sb_add_json_str(j, o->feature_gates);
	}
	kp_sb_adds(j, ",\"pool_label\":");
	kp_sb_add_json_str(j, c->pool_label);
	if (o->from_run > 0)
		kp_sb_printf(j, ",\"from_run\":%ld", o->from_run);
	if (o->pod_file || o->workload) {
		kp_sb_adds(j, o->pod_file ? ",\"pod\":" : ",\"workload\":");
		kp_sb_add_json_str(j, o->pod_file ? o->pod_file : o->workload);
		if (o->max > 0)
			kp_sb_printf(j, ",\"max\":%ld", o->max);
	} else if (o->ntemplates) {
		kp_sb_adds(j, o->ntemplates == 1 ? ",\"node_template\":" : ",\"node_templates\":[");
		for (int i = 0; i < o->ntemplates; i++) {
			kp_sb_adds(j, i ? "," : "");
			kp_sb_add_json_str(j, o->templates[i]);
		}
		kp_sb_printf(j, "%s,\"max_nodes\":%ld", o->ntemplates == 1 ? "" : "]", o->max_nodes > 0 ? o->max_nodes : 1000);
	} else {
		kp_sb_adds(j, ",\"survive\":");
		kp_sb_add_json_str(j, o->survive);
		if (o->limit > 0)
			kp_sb_printf(j, ",\"limit\":%ld", o->limit);
	}
	kp_sb_adds(j, "}");
}

static int check_opts(const kp_capacity_opts *o, kp_err *err)
{
	int modes = (o->pod_file || o->workload) + (o->ntemplates > 0) + (o->survive != NULL);
	if (modes != 1)
		return kp_err_set(err, KP_USAGE, modes ? "--pod/--workload, --nodes-needed and --survive are separate "
					     "questions: ask one" : "what to ask: --pod FILE, --workload NS/NAME, --nodes-needed "
					     "--node-template FILE or --survive node|zone|LABEL");
	if (o->pod_file && o->workload)
		return kp_err_set(err, KP_USAGE, "--pod and --workload: give one");
	if (o->ntemplates > KP_CAPACITY_MAX_TEMPLATES)
		return kp_err_set(err, KP_USAGE, "at most %d --node-template", KP_CAPACITY_MAX_TEMPLATES);
	if (o->survive && !*o->survive)
		return kp_err_set(err, KP_USAGE, "--survive needs node, zone or a node label key");
	return KP_OK;
}

int kp_capacity_run(sqlite3 *db, const kp_capacity_opts *o, const kp_capacity_hooks *h, kp_capacity_answer *a,
		    kp_err *err)
{
	memset(a, 0, sizeof *a);
	a->value = a->bound = INT64_MIN;
	kp_sb_init(&a->result);
	kp_sb_init(&a->options);
	int rc = check_opts(o, err);
	if (rc)
		return rc;
	double t0 = kp_now();
	cap c;
	memset(&c, 0, sizeof c);
	c.db = db;
	c.err = err;
	c.o = o;
	c.h = h;
	c.a = a;
	c.seed = o->seed ? o->seed : KP_DEFAULT_SEED;
	c.pool_label = o->pool_label ? o->pool_label : KP_CAP_POOL_LABEL;
	options_json(&c);
	if (o->pod_file || o->workload)
		rc = cap_fit(&c);
	else if (o->ntemplates)
		rc = cap_nodes_needed(&c);
	else
		rc = cap_survive(&c);
	if (!rc)
		rc = add_baseline(&c);
	if (!rc)
		quality_summary(&c);
	if (!rc && (!kp_sb_ok(&a->result) || !kp_sb_ok(&a->options)))
		rc = cap_nomem(&c);
	if (!rc)
		rc = record(&c, t0);
	if (rc && kp_interrupted)
		kp_err_set(err, KP_INTR, "interrupted");
	rows_release(&c.rows);
	cap_qual_release(&c.q);
	kp_free(c.base);
	return rc;
}

void kp_capacity_answer_release(kp_capacity_answer *a)
{
	kp_sb_release(&a->result);
	kp_sb_release(&a->options);
	kp_free(a->reason);
	a->reason = NULL;
}
